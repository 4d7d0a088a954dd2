"""``bank export`` and ``bank import``: the bank as jsonl or Parquet, and back.

Both formats hold one bank record per puzzle (:func:`sudokit.records.bank_record`):
the puzzle as first given, its solution, units, clues, symmetry, canonical key
and transformation, rating with the technique families on its path, source,
date and how often it was given. In Parquet, ``cages`` is the JSON text of
the list, and ``techniques`` a list of strings; the file is written in row
groups, so neither side holds the bank in memory. Parquet needs pyarrow
(``pip install 'sudokit[bank]'``).

Importing keeps the records' keys when they carry one made with the bank's
form (a bank exported, or one built on a cluster: :mod:`sudokit.bank.cluster`),
and keys the others; repeats add up their ``seen``. The books are not
exported: they belong to the bank that printed them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..errors import SudokuError
from .keys import FORM, Keyed
from .rows import Incoming, insert, rating_of
from .schema import ROW
from .store import Bank, today

__all__ = ["FORMATS", "PARQUET_FIELDS", "export", "import_records", "read_records", "records_to_parquet"]

#: The export formats.
FORMATS = ("jsonl", "parquet")

#: Rows per Parquet row group and per import transaction.
BATCH = 50_000

_INSTALL = "pip install 'sudokit[bank]'"


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise SudokuError(f"Parquet needs pyarrow: {_INSTALL}") from None
    return pyarrow


def format_of(path: str, fmt: str | None = None) -> str:
    """``fmt``, or the format a path's name says (``.parquet`` or a folder: Parquet; else jsonl)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise SudokuError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
        return fmt
    return "parquet" if path.endswith((".parquet", ".pq")) or os.path.isdir(path) else "jsonl"


def _all_rows(bank: Bank) -> Iterator[dict[str, Any]]:
    with bank.reading() as conn:
        last = 0
        while True:
            ids = [r[0] for r in conn.execute("SELECT id FROM puzzle WHERE id > ? ORDER BY id LIMIT ?",
                                              (last, BATCH))]
            if not ids:
                return
            last = ids[-1]
            names = {bit: name for bit, name in conn.execute("SELECT bit, name FROM family")}
            conn.row_factory = lambda cursor, row: {d[0]: v for d, v in zip(cursor.description, row)}
            try:
                rows = conn.execute(f"{ROW} WHERE id BETWEEN ? AND ? ORDER BY id",
                                    (ids[0], ids[-1])).fetchall()
            finally:
                conn.row_factory = None
            for row in rows:
                mask = row["families"] or 0
                row["families"] = [names[b] for b in sorted(names) if mask >> b & 1]
                yield row


PARQUET_FIELDS = (
    ("puzzle", "string"), ("solution", "string"), ("shape", "string"), ("variant", "string"),
    ("regions", "string"), ("cages", "string"), ("clues", "int32"), ("symmetry", "string"),
    ("automorphisms", "int64"), ("key", "string"), ("transform", "string"), ("status", "string"),
    ("er", "float64"), ("ep", "float64"), ("ed", "float64"), ("level", "string"), ("lower_bound", "bool"),
    ("hardest", "string"), ("techniques", "list<string>"), ("steps", "int32"), ("score", "int64"),
    ("score_level", "string"), ("source", "string"), ("added", "string"), ("seen", "int64"),
)


def _schema(pa: Any) -> Any:
    kinds = {"string": pa.string(), "int32": pa.int32(), "int64": pa.int64(), "float64": pa.float64(),
             "bool": pa.bool_(), "list<string>": pa.list_(pa.string())}
    return pa.schema([(name, kinds[kind]) for name, kind in PARQUET_FIELDS])


def _flat(record: dict[str, Any]) -> dict[str, Any]:
    out = {name: record.get(name) for name, _ in PARQUET_FIELDS}
    if isinstance(out["cages"], list):
        out["cages"] = json.dumps(out["cages"])
    return out


def records_to_parquet(records: Iterable[dict[str, Any]], path: str) -> int:
    """Write bank records into one Parquet file (atomically: a temporary name, then
    renamed); the number written."""
    pa = _pyarrow()
    import pyarrow.parquet as pq

    schema = _schema(pa)
    tmp = f"{path}.tmp-{os.getpid()}"
    written = 0
    writer = pq.ParquetWriter(tmp, schema, compression="zstd")
    try:
        batch: list[dict[str, Any]] = []
        for record in records:
            batch.append(_flat(record))
            if len(batch) >= BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                written += len(batch)
                batch = []
        if batch or not written:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            written += len(batch)
    except BaseException:
        writer.close()
        Path(tmp).unlink(missing_ok=True)
        raise
    writer.close()
    os.replace(tmp, path)
    return written


def export(bank: Bank, dest: str, fmt: str | None = None, write: Callable[[str], None] | None = None) -> int:
    """Write every puzzle of the bank into ``dest`` (``-``: ``write``, jsonl
    only); the number written."""
    from ..records import bank_record, dumps

    fmt = format_of(dest, fmt)
    records = (bank_record(row) for row in _all_rows(bank))
    if fmt == "parquet":
        if dest == "-":
            raise SudokuError("Parquet goes to a file: give its name (-o bank.parquet)")
        try:
            return records_to_parquet(records, dest)
        except OSError as exc:
            raise SudokuError(f"cannot write {dest}: {exc.strerror or exc}") from None
    count = 0
    if dest == "-":
        for record in records:
            write(dumps(record) + "\n")  # type: ignore[misc]
            count += 1
        return count
    tmp = f"{dest}.tmp-{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            for record in records:
                fh.write(dumps(record) + "\n")
                count += 1
        os.replace(tmp, dest)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SudokuError(f"cannot write {dest}: {exc.strerror or exc}") from None
    return count


def read_records(path: str, fmt: str | None = None) -> Iterator[tuple[int, "dict[str, Any] | str"]]:
    """(number, record or why it cannot be read) for every record of a jsonl file,
    a Parquet file, or a folder of Parquet files (a dataset)."""
    fmt = format_of(path, fmt)
    if fmt == "jsonl":
        try:
            fh = open(path, encoding="utf-8") if path != "-" else None
        except OSError as exc:
            raise SudokuError(f"cannot read {path}: {exc.strerror or exc}") from None
        import sys

        stream = fh if fh is not None else sys.stdin
        try:
            for number, raw in enumerate(stream, 1):
                text = raw.strip()
                if not text or text.startswith("#"):
                    continue
                try:
                    record = json.loads(text)
                except json.JSONDecodeError as exc:
                    yield number, f"bad JSON: {exc.msg} (column {exc.colno})"
                    continue
                yield number, record if isinstance(record, dict) else "not a JSON object"
        finally:
            if fh is not None:
                fh.close()
        return
    _pyarrow()
    import pyarrow.dataset as ds

    files: Any = path
    if os.path.isdir(path):  # a folder: its Parquet files (a cluster-built bank keeps other things beside)
        files = sorted(str(p) for p in Path(path).glob("*.parquet"))
        if not files:
            raise SudokuError(f"{path} holds no .parquet file")
    number = 0
    try:
        dataset = ds.dataset(files, format="parquet")
        for batch in dataset.to_batches(batch_size=BATCH):
            for record in batch.to_pylist():
                number += 1
                yield number, record
    except (OSError, ValueError) as exc:
        raise SudokuError(f"cannot read {path} as Parquet (after {number} records): {exc}") from None


def _incoming(record: dict[str, Any], number: int, form: str | None) -> "Incoming | str":
    from .intake import parse_line

    record = {k: v for k, v in record.items() if v is not None}
    if isinstance(record.get("cages"), str):
        try:
            record["cages"] = json.loads(record["cages"])
        except json.JSONDecodeError:
            return '"cages" is not a JSON list'
    got = parse_line(json.dumps(record), number, str(record.get("source") or ""))
    if isinstance(got, str):
        return got
    if record.get("key") and form == FORM:
        got.keyed = Keyed(str(record["key"]), record.get("transform"), record.get("automorphisms"))
    got.extra = {"added": record.get("added"), "seen": record.get("seen")}
    got.rating = rating_of(record)
    return got


def import_records(bank: Bank, path: str, fmt: str | None = None, *, notes: Callable[[str], None] = lambda t: None,
                   form: str | None = FORM) -> tuple[int, int, int]:
    """Read a jsonl or Parquet export (or a cluster-built Parquet bank) into the
    bank; (new, repeats, failed). Unrated records go in unrated."""
    new = repeats = failed = 0
    date = today()
    batch: list[Incoming] = []

    def flush() -> None:
        nonlocal new, repeats, failed
        n, r, bad = insert(bank, batch, date=date)
        new += n
        repeats += r
        for i in bad:
            failed += 1
            notes(f"{path}: record {batch[i].line}: no solution")
        batch.clear()

    for number, record in read_records(path, fmt):
        got = record if isinstance(record, str) else _incoming(record, number, form)
        if isinstance(got, str):
            failed += 1
            notes(f"{path}: {'line' if format_of(path, fmt) == 'jsonl' else 'record'} {number}: {got}")
            continue
        batch.append(got)
        if len(batch) >= BATCH:
            flush()
    if batch:
        flush()
    return new, repeats, failed
