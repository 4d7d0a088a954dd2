"""``bank add``: files of puzzles or rating records into the bank, rated where they are not.

Each input is read line by line. A line is a puzzle (any one-line format)
or a jsonl record: a rating record of ``sudoku rate --format jsonl`` is taken
as rated, as is a generated record that carries its rating; any other puzzle
is rated here, unless the bank holds it already. Files of grids over several
lines (rows, boxed) are read puzzle by puzzle. A line that cannot be read is
reported with its number and the rest goes in.

The work goes in blocks: a block's puzzles are keyed, rated where needed (by
the library's pipeline, on ``jobs`` processes through :mod:`sudokit.pool`, or
on a Dask cluster through :mod:`sudokit.distributed`) and committed in one
transaction with the line its input has reached. Running the same ``bank
add`` again after an interruption goes on after that line, so nothing is lost
and nothing is counted twice. (An input is known by its path, size and time
of change; standard input cannot be resumed.)
"""

from __future__ import annotations

import gc
import itertools
import json
import os
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..errors import SudokuError
from ..grid import CLASSIC, Grid
from .rows import Incoming, insert, rating_of
from .store import Bank, today

__all__ = ["AddReport", "add", "identity", "read_source"]

#: Lines per block of puzzles that are already rated (one transaction each).
BLOCK = 8192
#: Lines per block when they are rated records read in bulk (:mod:`sudokit.bank.bulk`): a
#: bigger transaction writes a page that several repeats update once, not once per repeat.
BULK_BLOCK = 65536
#: Puzzles to rate per block (a commit after each, so an interruption loses little work).
RATE_BLOCK = 32
#: Rated 9x9 records of the common shape go the bulk way (:mod:`sudokit.bank.bulk`);
#: False sends every line the general way (the tests compare the two).
BULK = True
#: Files of rated records read by the compiled reader (:mod:`sudokit.bank.scan`); False:
#: line by line, each JSON line decoded on its own (the tests compare the two).
SCAN = True

_DIGITS = bytes.maketrans(b".0123456789", bytes(range(0, 1)) + bytes(range(0, 10)))


@dataclass
class AddReport:
    """What an add did: puzzles read, new classes, repeats, failures, lines skipped on resuming."""

    puzzles: int = 0
    new: int = 0
    repeats: int = 0
    rated: int = 0
    failed: int = 0
    resumed: dict[str, int] = field(default_factory=dict)

    def text(self) -> str:
        parts = [f"{self.new} new", f"{self.repeats} repeat{'s' if self.repeats != 1 else ''}"]
        if self.rated:
            parts.append(f"{self.rated} rated here")
        if self.failed:
            parts.append(f"{self.failed} failed")
        return f"{self.puzzles} puzzle{'s' if self.puzzles != 1 else ''}: " + ", ".join(parts)


def identity(path: str) -> str | None:
    """How a resumed add knows an input again: its real path, size and time of change
    (None for standard input)."""
    if path == "-":
        return None
    stat = os.stat(path)
    return f"{os.path.realpath(path)}|{stat.st_size}|{stat.st_mtime_ns}"


# -- reading ---------------------------------------------------------------------------


_DECODE = json.JSONDecoder().raw_decode
_UNIT_FIELDS = ("variant", "regions", "cages", "shape", "symbols")
#: ``.``, ``0`` and the digits to their values; any other byte to 255.
_VALUES = bytes(0 if b in b".0" else b - 48 if 49 <= b <= 57 else 255 for b in range(256))


def _fast_grid(text: str) -> Grid | None:
    """A 9x9 line of ``.`` and digits, read without the general reader (the common case)."""
    if len(text) != 81:
        return None
    values = text.encode("latin-1", "replace").translate(_VALUES)
    if max(values) > 9:
        return None
    return Grid.unchecked(CLASSIC, tuple(values))


def parse_line(text: str, line: int, source: str, shape: Any = None) -> "Incoming | str":
    """One line as an :class:`Incoming`, or why it cannot be read."""
    if text.startswith("{"):
        try:
            record, end = _DECODE(text)
            if end != len(text):
                record = json.loads(text)  # trailing text: json's own message
        except json.JSONDecodeError as exc:
            return f"bad JSON: {exc.msg} (column {exc.colno})"
        if type(record) is not dict:
            return 'a JSON line needs a "puzzle" string'
        puzzle = record.get("puzzle")
        if type(puzzle) is not str:
            return 'a JSON line needs a "puzzle" string'
        status = record.get("status")
        if status is not None and status != "rated" and status != "solved":
            message = record.get("message") or ""
            return f"the record says {status}" + (f": {message}" if message else "")
        plain = shape is None
        if plain:
            for name in _UNIT_FIELDS:
                if name in record:
                    plain = False
                    break
        grid = _fast_grid(puzzle) if plain else None
        solution = None
        if grid is None:
            plain = False
            from ..formats import parse

            try:
                grid = parse(text, shape=shape)
            except SudokuError as exc:
                return str(getattr(exc, "reason", None) or exc)
        sol = record.get("solution")
        if sol and type(sol) is str:
            solution = _fast_grid(sol) if not grid.is_variant else None
            if solution is None:
                try:
                    solution = Grid(sol, grid.shape)
                except SudokuError as exc:
                    return f'"solution": {exc}'
            solution = solution.with_geometry(grid.geometry)  # checked under the puzzle's own units
            if not solution.is_solution_of(grid):
                return '"solution" does not complete the puzzle'
        return Incoming(line, grid, solution, rating_of(record), source,
                        puzzle if plain and "0" not in puzzle else None)
    grid = _fast_grid(text) if shape is None else None
    if grid is None:
        from ..formats import parse

        try:
            grid = parse(text, shape=shape)
        except SudokuError as exc:
            return str(getattr(exc, "reason", None) or exc)
    return Incoming(line, grid, None, None, source, text=text if len(text) == 81 and "0" not in text
                    and grid.shape is CLASSIC and not grid.is_variant else None)


def _lines(blocks: Iterable[str]) -> Iterator[str]:
    """The lines of blocks of whole lines (:func:`sudokit.formats.bounded_blocks`), without their breaks."""
    for block in blocks:
        lines = block.split("\n")
        if not lines[-1]:
            lines.pop()
        yield from lines


def read_source(path: str, after: int = 0, shape: Any = None, content: str | None = None,
                rated: Callable[[int, str], bool] | None = None) -> Iterator[tuple[int, "Incoming | str | None"]]:
    """(line, Incoming or reason) for every puzzle of ``path`` past line ``after``
    (of ``content`` when given: ``path`` then only names it). A file of one
    puzzle a line offers each JSON line to ``rated`` first (the ``take`` of a
    :class:`sudokit.bank.bulk.Rated`): (line, None) for a line it took."""
    import io

    from ..formats import bounded_blocks, open_source, read_puzzles, starts_line_mode

    label = "standard input" if path == "-" else path
    try:
        stream = io.StringIO(content) if content is not None else open_source(path)
    except OSError as exc:
        raise SudokuError(f"cannot read {label}: {exc.strerror or exc}") from None
    try:
        numbered = enumerate(_lines(bounded_blocks(stream)), 1)
        ahead = []
        first = None
        for number, raw in numbered:
            ahead.append((number, raw))
            text = raw.strip()
            if text and not text.startswith("#"):
                first = text
                break
        rest = itertools.chain(ahead, numbered)
        if first is None or first.startswith("{") or starts_line_mode(first, shape):
            for number, raw in rest:
                if number <= after:
                    continue
                text = raw.strip()
                if not text or text[0] == "#":
                    continue
                if rated is not None and text[0] == "{" and rated(number, text):
                    yield number, None
                    continue
                yield number, parse_line(text, number, path if path != "-" else "", shape)
            return
        for entry in read_puzzles((raw + "\n" for _, raw in rest), shape=shape):  # grids over several lines
            line = entry.line or 0
            if line <= after:
                continue
            if entry.error is not None or entry.grid is None:
                yield line, str(getattr(entry.error, "reason", None) or entry.error or "cannot read this puzzle")
            else:
                yield line, Incoming(line, entry.grid, getattr(entry, "solution", None), None,
                                     path if path != "-" else "")
    except UnicodeDecodeError as exc:
        raise SudokuError(f"{label}: not UTF-8 text ({exc.reason})") from None
    finally:
        if path != "-" or content is not None:
            stream.close()


# -- adding ----------------------------------------------------------------------------


@dataclass
class _Block:
    source: str
    input_id: str | None
    last_line: int
    items: list[Incoming]
    failures: list[tuple[int, str]]  # (line, what is wrong)
    rated: Any = None  # a Rated block (bulk.py) of the records of the common shape
    to_rate: dict[int, list[int]] = field(default_factory=dict)  # line of the one rated -> indexes of its copies
    tasks: int = 0
    results: list[Any] = field(default_factory=list)


def _blocks(bank: Bank, paths: Sequence[str], report: AddReport, shape: Any, batch: int | None = None,
            texts: Sequence[tuple[str, str]] = ()) -> Iterator[_Block]:
    size = batch or BLOCK  # puzzles read the general way, per block
    most = batch or BULK_BLOCK  # all puzzles, per block
    from .bulk import Rated

    sources = [(path, None) for path in paths] + [(label, text) for label, text in texts]
    for path, text in sources:
        input_id = identity(path) if text is None else None
        after = bank.intake_lines(input_id) if input_id else 0
        if after:
            report.resumed[path] = after
        label = "standard input" if path == "-" else path
        source = path if path != "-" else ""
        items: list[Incoming] = []
        failures: list[tuple[int, str]] = []
        rated = Rated(source) if shape is None and BULK else None
        unrated = taken = 0
        last = after

        def block() -> _Block:
            bulk = None if rated is None else rated.detach()
            if bulk is not None:
                back = bulk.settle()
                if back:  # lines the bulk checks refused: the general path, in line order
                    for line, raw in back:
                        got = parse_line(raw, line, source, shape)
                        if isinstance(got, str):
                            failures.append((line, got))
                        else:
                            items.append(got)
                    items.sort(key=lambda it: it.line)
                    failures.sort()
            return _Block(label, input_id, last, items, failures, bulk)

        rate_block = min(size, RATE_BLOCK)
        if rated is not None and text is None and _scannable(path):
            handed = yield from _scanned(path, after, label, source, input_id, most)
            if handed is None:
                continue
            after = last = handed  # the rest is the general reader's
        for line, got in read_source(path, after, shape, text, None if rated is None else rated.take):
            last = line
            if got is None:
                taken += 1
                if taken + len(items) < most:
                    continue
            elif isinstance(got, str):
                failures.append((line, got))
            else:
                items.append(got)
                unrated += got.rating is None
            if len(items) >= size or taken + len(items) >= most or unrated >= rate_block:
                yield block()
                items, failures, unrated, taken = [], [], 0, 0
        if items or failures or rated:
            yield block()


def _scannable(path: str) -> bool:
    """Whether ``path`` is a file whose first puzzle is a JSON line (then the
    compiled reader, :mod:`sudokit.bank.scan`, reads it)."""
    if path == "-" or not BULK or not SCAN:
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(1 << 16)
    except OSError:
        return False
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    for raw in head.split(b"\n")[:-1] or [head]:
        text = raw.strip()
        if text and not text.startswith(b"#"):
            return text.startswith(b"{")
    return False


def _scanned(path: str, after: int, label: str, source: str, input_id: str | None,
             most: int) -> Iterator[_Block]:
    """The blocks of a file of rating records read by the compiled reader
    (:mod:`sudokit.bank.scan`), a chunk of ``most`` lines each: its records in
    bulk, its other lines read one by one as the general reader reads them.
    Returns None when the file is done, or the line after which the general
    reader must take over (a chunk with more to rate than a block holds, a
    line too long, a lone carriage return)."""
    import numpy as np

    from ..formats import MAX_RECORD
    from .bulk import Rated
    from .scan import OTHER, pieces

    for chunk in pieces(path, after, most, MAX_RECORD):
        if isinstance(chunk, int):
            return chunk
        items: list[Incoming] = []
        failures: list[tuple[int, str]] = []
        unrated = 0
        for i in np.flatnonzero(chunk.kinds == OTHER).tolist():
            text = chunk.text(i).strip()
            if not text or text[0] == "#":
                continue
            line = chunk.first + i
            got = parse_line(text, line, source)
            if isinstance(got, str):
                failures.append((line, got))
            else:
                items.append(got)
                unrated += got.rating is None
        if unrated > RATE_BLOCK:  # puzzles to rate: the general reader's smaller blocks
            return chunk.first - 1
        rated = Rated.scanned(chunk, source)
        for line, raw in rated.settle():  # a given solution that does not fit: the general way's message
            got = parse_line(raw.strip(), line, source)
            if isinstance(got, str):
                failures.append((line, got))
            else:
                items.append(got)
        items.sort(key=lambda it: it.line)
        failures.sort()
        yield _Block(label, input_id, chunk.first + len(chunk) - 1, items, failures, rated)
    return None


def _plan(bank: Bank, block: _Block) -> None:
    """Which puzzles of the block need rating: unrated, not in the bank, once per key."""
    unrated = [i for i, it in enumerate(block.items) if it.rating is None]
    if not unrated:
        return
    keys = bank.key([block.items[i].grid for i in unrated])
    known = bank.known(k.key for k in keys)
    first: dict[str, int] = {}
    for i, keyed in zip(unrated, keys):
        if keyed.key in known:
            continue
        if keyed.key in first:
            block.to_rate[first[keyed.key]].append(i)
        else:
            first[keyed.key] = i
            block.to_rate[i] = [i]


def _tasks(bank: Bank, blocks: Iterable[_Block], job: Any, pending: deque) -> Iterator[tuple]:
    """The pipeline's chunks: the puzzles each block must rate, four at a time
    (an empty chunk for a block with none, so every block passes in order)."""
    from ..pipeline import Item

    for block in blocks:
        _plan(bank, block)
        chosen = list(block.to_rate)
        chunks = [chosen[i:i + 4] for i in range(0, len(chosen), 4)] or [[]]
        block.tasks = len(chunks)
        pending.append(block)
        for chunk in chunks:
            it = block.items
            yield ("items", job, [Item(None, it[i].line, it[i].grid, source=str(i)) for i in chunk])


def _rated(block: _Block, report: AddReport) -> list[Incoming]:
    """The block's puzzles once its ratings are back: rated ones given their
    rating (and its copies), failed ones dropped with their note."""
    drop: set[int] = set()
    for result in block.results:
        for text in result.text.splitlines():
            record = json.loads(text)
            index = int(record.get("source") or 0)
            rating = rating_of(record)
            copies = block.to_rate.get(index, [index])
            if rating is None:
                drop.update(copies)
                line = block.items[index].line
                block.failures.append((line, f"{record.get('status')}: {record.get('message', '')}".rstrip(": ")))
            else:
                report.rated += 1
                for i in copies:
                    block.items[i].rating = rating
    return [it for i, it in enumerate(block.items) if i not in drop]


def _commit(bank: Bank, block: _Block, items: list[Incoming], report: AddReport, date: str,
            notes: Callable[[str], None], committed: Callable[[str], None] | None) -> None:
    rated = block.rated
    taken = len(rated) if rated is not None else 0
    intake = None if block.input_id is None else (block.input_id, block.last_line, len(items) + taken)
    new, repeats, failed = insert(bank, items, date=date, intake=intake, rated=rated)
    report.puzzles += len(items) + taken + len(block.failures)
    for i in failed:
        block.failures.append((items[i].line or 0, "no solution"))
    if rated is not None:
        block.failures.extend((line, "no solution") for line in rated.failed)
    report.new += new
    report.repeats += repeats
    report.failed += len(block.failures)
    for line, what in block.failures:
        note = f"{block.source}: line {line}: {what}"
        notes(note if len(note) <= 240 else note[:240] + "...")
    if committed is not None:
        committed(f"{block.source}: in up to line {block.last_line}: {report.new} new, {report.repeats} repeats")


def add(bank: Bank, paths: Sequence[str], *, jobs: int = 1, timeout: float | None = None, shape: Any = None,
        notes: Callable[[str], None] = lambda text: None, committed: Callable[[str], None] | None = None,
        progress: Callable[[int], None] | None = None, cluster: Any = None, batch: int | None = None,
        texts: Sequence[tuple[str, str]] = ()) -> AddReport:
    """Add every puzzle of ``paths`` (``-``: standard input) to ``bank``; the report.

    ``notes`` hears each line that could not go in (with its number),
    ``committed`` each commit (what is in by then), ``progress`` the puzzles
    of each block. ``jobs`` processes rate what needs rating (0: every core);
    ``cluster`` (a ``dask.distributed`` client) rates on a cluster instead
    (:func:`add_on_cluster`). ``timeout`` is the rating's time per puzzle;
    ``batch`` the most puzzles per transaction (default: :data:`BLOCK`, and
    :data:`BULK_BLOCK` with rated records read in bulk). ``texts`` are more inputs
    held in memory, as (source, text) (not resumable).
    """
    report = AddReport()
    date = today()
    if cluster is not None:
        return add_on_cluster(bank, paths, cluster, timeout=timeout, notes=notes, committed=committed,
                              report=report, shape=shape)
    deferred = _big(bank, paths, texts)
    if deferred:
        bank.drop_indexes()
    # into an empty bank, what this add wrote is all it needs to know of what the bank holds
    bank.settled_whole = not bank.settled and bank.rows_hint() == 0
    try:
        return _add(bank, paths, report, date, jobs, timeout, shape, notes, committed, progress, batch, texts)
    finally:
        bank.settled_whole = False
        if deferred:
            bank.build_indexes()


#: Bytes of input per puzzle the bank holds beyond which an add drops the
#: secondary indexes and builds them again at the end (about one rating record
#: per puzzle held), and the least input for which it does.
DEFER_RATIO = 400
DEFER_BYTES = 16 << 20


def _big(bank: Bank, paths: Sequence[str], texts: Sequence[tuple[str, str]]) -> bool:
    """Whether the inputs are big beside the bank: then one sorted build of each
    index at the end costs less than keeping them up to date row by row."""
    size = sum(len(text) for _, text in texts)
    for path in paths:
        try:
            size += os.stat(path).st_size if path != "-" else 0
        except OSError:
            pass
    return size >= DEFER_BYTES and size >= DEFER_RATIO * bank.rows_hint()


def _add(bank: Bank, paths: Sequence[str], report: AddReport, date: str, jobs: int, timeout: float | None,
         shape: Any, notes: Callable[[str], None], committed: Callable[[str], None] | None,
         progress: Callable[[int], None] | None, batch: int | None, texts: Sequence[tuple[str, str]]) -> AddReport:
    from ..pipeline import Job, run_chunk, warm
    from ..pool import ordered_map

    job = Job("rate", fmt="jsonl", timeout=timeout)
    pending: deque[_Block] = deque()
    results = ordered_map(run_chunk, _tasks(bank, _blocks(bank, paths, report, shape, batch, texts), job, pending), jobs,
                          initializer=warm if jobs != 1 else None, initargs=(job,), window=None)
    # A block's records are many small objects without cycles, freed as soon as it is committed:
    # the cycle collector, left to run every few hundred of them, would walk each block over and
    # over. It runs once per block instead (the young generations only: what the block left).
    collecting = gc.isenabled()
    gc.disable()
    try:
        for result in results:
            block = pending[0]
            block.results.append(result)
            if len(block.results) == block.tasks:
                pending.popleft()
                _commit(bank, block, _rated(block, report), report, date, notes, committed)
                if progress is not None:
                    progress(len(block.items) + len(block.rated or ()) + len(block.failures))
                del block
                if collecting:
                    gc.collect(1)
    finally:
        if collecting:
            gc.enable()
        results.close()
    return report


def add_on_cluster(bank: Bank, paths: Sequence[str], client: Any, *, timeout: float | None = None,
                   notes: Callable[[str], None] = lambda text: None,
                   committed: Callable[[str], None] | None = None, report: AddReport | None = None,
                   shape: Any = None) -> AddReport:
    """Add ``paths`` with their rating done on a Dask cluster: the files are
    rated by :func:`sudokit.distributed.run` (every puzzle), and each
    partition's records are committed as they come back, in input order. A
    file whose first record is already rated is added here, unrated work only
    going to the cluster."""
    from .. import distributed
    from ..pipeline import Job

    report = report or AddReport()
    date = today()
    local = [p for p in paths if _rated_file(p)]
    remote = [p for p in paths if p not in local]
    if local:
        sub = add(bank, local, notes=notes, committed=committed, shape=shape)
        for name in ("puzzles", "new", "repeats", "rated", "failed"):
            setattr(report, name, getattr(report, name) + getattr(sub, name))
        report.resumed.update(sub.resumed)
    job = Job("rate", fmt="jsonl", timeout=timeout)
    for path in remote:
        input_id = identity(path)
        after = bank.intake_lines(input_id) if input_id else 0
        if after:
            report.resumed[path] = after

        def write(text: str, path: str = path, input_id: str | None = input_id, after: int = after) -> None:
            items: list[Incoming] = []
            failures: list[tuple[int, str]] = []
            last = after
            for raw in text.splitlines():
                record = json.loads(raw)
                line = int(record.get("line") or 0)
                if line <= after:
                    continue
                last = max(last, line)
                got = parse_line(raw, line, path, shape)
                if isinstance(got, str) or got.rating is None:
                    reason = got if isinstance(got, str) else "not rated"
                    failures.append((line, reason))
                    continue
                report.rated += 1
                items.append(got)
            if items or failures:
                block = _Block(path, input_id, last, items, failures)
                _commit(bank, block, items, report, date, notes, committed)

        distributed.run(job, [path], client=client, write=write, notes=lambda text: None)
    return report


def _rated_file(path: str) -> bool:
    """Whether the first puzzle of ``path`` is a record that carries its rating."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for raw in itertools.islice(fh, 64):
                text = raw.strip()
                if text and not text.startswith("#"):
                    if not text.startswith("{"):
                        return False
                    try:
                        return rating_of(json.loads(text)) is not None
                    except (json.JSONDecodeError, AttributeError):
                        return False
    except OSError:
        return False
    return False
