"""Puzzles on their way into the bank: what is read, and the rows it becomes.

An :class:`Incoming` is one puzzle as read, with its rating when the input
had one (a record of ``sudoku rate --format jsonl``). :func:`insert` keys a
batch (:mod:`sudokit.bank.keys`), finds what the batch lacks (solutions, in
one compiled call for 9x9 puzzles; the symmetries of the clue patterns, for
the whole batch at once) and writes it in one transaction, together with how
far its input has gone in. A repeat of a puzzle the bank holds is counted
(in the narrow ``seen`` table, see :mod:`sudokit.bank.schema`), and gets
the rating the bank lacked, if it brings one.
"""

from __future__ import annotations

import hashlib
import json
import operator
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..grid import Grid, Shape
from .families import family_of, path_families
from .schema import SYMMETRY_BITS

__all__ = ["BULK_COLUMNS", "COLUMNS", "Incoming", "RATING_FIELDS", "bulk_upsert", "digest_of", "insert", "rating_of", "rnd_of",
           "symmetries"]

#: The columns a row is written with, in order.
COLUMNS = (
    "digest", "key", "puzzle", "transform", "solution", "shape", "variant", "regions", "cages", "clues", "symmetries",
    "symmetry", "automorphisms", "er", "ep", "ed", "level", "score", "score_level", "lower_bound", "steps",
    "hardest", "hardest_family", "families", "source", "added", "rnd",
)

#: The columns of the rows of rated records in bulk (:class:`sudokit.bank.bulk.Rows`): the
#: others are the same for every row of a block, and written as constants (:func:`bulk_upsert`).
BULK_COLUMNS = tuple(name for name in COLUMNS
                     if name not in ("shape", "variant", "regions", "cages", "source", "added"))

#: What a rating brings (kept together: a repeat takes all of them, or none).
RATING_FIELDS = ("er", "ep", "ed", "level", "score", "score_level", "lower_bound", "steps", "hardest",
                 "hardest_family", "families")

#: What a row given again changes: the solution, where the bank had none; the rating, where it was unrated.
_ON_CONFLICT = (
    "ON CONFLICT(digest) DO UPDATE SET solution = coalesce(puzzle.solution, excluded.solution), "
    + ", ".join(f"{name} = CASE WHEN puzzle.er IS NULL THEN excluded.{name} ELSE puzzle.{name} END"
                for name in RATING_FIELDS)
)
_UPSERT = f"INSERT INTO puzzle({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) {_ON_CONFLICT}"


def _literal(text: str | None) -> str:
    """An SQL literal of a string (or NULL)."""
    return "NULL" if text is None else "'" + text.replace("'", "''") + "'"


def bulk_upsert(source: str | None, date: str) -> str:
    """The upsert of rows of :data:`BULK_COLUMNS` (9x9 classic puzzles of one ``source``,
    added on ``date``): the columns they share are constants of the statement, not values
    bound again for every row (a fifth of SQLite's time per row)."""
    return (f"INSERT INTO puzzle({', '.join(BULK_COLUMNS)}, shape, source, added) "
            f"VALUES ({', '.join('?' * len(BULK_COLUMNS))}, '3x3', {_literal(source)}, {_literal(date)}) "
            f"{_ON_CONFLICT}")

#: Largest group first: the name kept in ``symmetry``.
_BY_SIZE = ("dihedral", "rotate90", "rotate180", "diagonal", "mirror", "flip")


@dataclass
class Incoming:
    """One puzzle read for the bank: where it was, the grid (with its units),
    its solution and rating when the input gave them."""

    line: int | None
    grid: Grid
    solution: Grid | None = None
    rating: dict[str, Any] | None = None
    source: str = ""
    #: The puzzle's line as read, when it was a plain 9x9 line (saves writing it again).
    text: str | None = None
    #: The key, when the input carries it (a bank record: ``bank import``).
    keyed: Any = None
    #: What a bank record brings besides: ``added`` (its date) and ``seen``.
    extra: dict[str, Any] = field(default_factory=dict)


def rating_of(record: dict[str, Any]) -> dict[str, Any] | None:
    """The rating a record carries (a rating record, or a generated one with a
    difficulty filter): the record itself, its ``techniques`` made a list of
    names; None when it carries none."""
    if record.get("er") is None or record.get("status", "rated") != "rated":
        return None
    techniques = record.get("techniques")
    if type(techniques) is not list:
        record["techniques"] = []
    if not record["techniques"] and record.get("hardest"):
        record["techniques"] = [record["hardest"]]
    return record


def digest_of(key: str) -> bytes:
    """The 128-bit digest of a key, which the bank indexes."""
    return hashlib.blake2b(key.encode(), digest_size=16).digest()


def rnd_of(key: str) -> int:
    """The fixed pseudo-random number of a key (a signed 64-bit integer: the digest's first 8 bytes)."""
    return int.from_bytes(digest_of(key)[:8], "little", signed=True)


def _reps(shape: Shape) -> list[tuple[int, Any]]:
    """(bit, array of each cell's orbit representative) for the symmetries the shape allows."""
    import numpy as np

    from ..generation.symmetry import SQUARE_ONLY, orbits

    out = []
    for name, bit in SYMMETRY_BITS.items():
        if name in SQUARE_ONLY and shape.box_rows != shape.box_cols:
            continue
        rep = np.zeros(shape.cell_count, dtype=np.intp)
        for orbit in orbits(shape, name):
            rep[list(orbit)] = orbit[0]
        out.append((bit, rep))
    return out


_REPS: dict[Shape, list] = {}


def symmetries(grids: Sequence[Grid], values: Any = None) -> list[int]:
    """The symmetry bits (:data:`~sudokit.bank.schema.SYMMETRY_BITS`) of each clue
    pattern (``values``: the grids' values as an array, when the caller has it)."""
    import numpy as np

    out = [0] * len(grids)
    by_shape: dict[Shape, list[int]] = {}
    for i, grid in enumerate(grids):
        by_shape.setdefault(grid.shape, []).append(i)
    for shape, index in by_shape.items():
        reps = _REPS.get(shape)
        if reps is None:
            reps = _REPS[shape] = _reps(shape)
        if values is not None and len(by_shape) == 1:
            pattern = values != 0
        else:
            pattern = np.array([grids[i].values for i in index], dtype=np.int16) != 0
        for i, bits in zip(index, _pattern_bits(pattern, reps).tolist()):
            out[i] = bits
    return out


def _pattern_bits(pattern: Any, reps: list) -> Any:
    import numpy as np

    bits = np.zeros(len(pattern), dtype=np.int64)
    for bit, rep in reps:
        bits |= np.where((pattern == pattern[:, rep]).all(axis=1), bit, 0)
    return bits


def symmetry_bits(values: Any) -> list[int]:
    """:func:`symmetries` of 9x9 puzzles given as an array of values (P x 81)."""
    from ..grid import CLASSIC

    reps = _REPS.get(CLASSIC)
    if reps is None:
        reps = _REPS[CLASSIC] = _reps(CLASSIC)
    return _pattern_bits(values != 0, reps).tolist()


def symmetry_name(bits: int) -> str:
    """The largest symmetry of a pattern with these bits (``none`` when it has none)."""
    return next((name for name in _BY_SIZE if bits & SYMMETRY_BITS[name]), "none")


_SYMMETRY_NAMES = [symmetry_name(bits) for bits in range(2 * max(SYMMETRY_BITS.values()))]


def solutions(items: Sequence[Incoming], classic: Sequence[int] = (), values: Any = None) -> list[str | None]:
    """Each puzzle's solution as a line: the one given, else found (9x9 puzzles
    in one compiled call); None when it has none. ``values``: the values of the
    ``classic`` items (the 9x9 ones), as an array, when the caller has it."""
    out: list[str | None] = [None if it.solution is None else it.solution.line() for it in items]
    bulk = [i for i, it in enumerate(items) if out[i] is None and not it.grid.is_variant
            and it.grid.shape.box_rows == it.grid.shape.box_cols == 3]
    if bulk:
        import numpy as np

        from .. import batch

        if values is not None and len(bulk) == len(classic):
            values = values if bulk == list(classic) else values[[list(classic).index(i) for i in bulk]]
        else:
            values = np.array([items[i].grid.values for i in bulk], dtype=np.uint8)
        found = batch.solve_many(values, limit=1)
        texts = batch.format_lines(found.solutions)
        for k, i in enumerate(bulk):
            if found.counts[k] > 0:
                out[i] = texts[k].decode("ascii")
    done = set(bulk)
    for i, it in enumerate(items):
        if out[i] is None and i not in done:
            from ..solving import solve

            result = solve(it.grid)
            if result.ok and result.solution is not None:
                out[i] = result.solution.line()
    return out


def _units(grid: Grid) -> tuple[str | None, str | None, str | None]:
    if not grid.is_variant:
        return None, None, None
    from .. import variants

    fields = variants.fields(grid.geometry)
    cages = fields.get("cages")
    return fields.get("variant"), fields.get("regions"), None if cages is None else json.dumps(cages)


_RATING = operator.itemgetter("er", "ep", "ed", "level", "score", "score_level", "lower_bound", "steps", "hardest")


def rating_cells(r: dict[str, Any]) -> list[Any]:
    """The rating columns of a row (:data:`RATING_FIELDS`) from a rating
    (:func:`rating_of`), the last two, ``hardest_family`` and ``families``, as
    the family's name and a tuple of names (made bits in the transaction)."""
    try:
        cells = list(_RATING(r))  # a record of rate's: every field there
    except KeyError:
        cells = [r.get(name) for name in ("er", "ep", "ed", "level", "score", "score_level", "lower_bound", "steps",
                                          "hardest")]
    lower = cells[6]
    if lower is not None:
        cells[6] = int(bool(lower))
    named = cells[8]
    cells.append(family_of(named) if named else None)
    cells.append(path_families(tuple(r["techniques"])))
    return cells


def build(bank: Any, items: Sequence[Incoming], date: str) -> tuple[list[list[Any]], list[int], list[int]]:
    """The rows of ``items`` (their ``hardest_family`` and ``families`` still as
    names, turned into bits inside the transaction), how many times each row's
    puzzle was given (1, or a bank record's ``seen``), and the indexes of the
    items that failed (no solution)."""
    import numpy as np

    texts = [it.text or it.grid.line() for it in items]
    classic = [i for i, it in enumerate(items) if not it.grid.is_variant
               and it.grid.shape.box_rows == it.grid.shape.box_cols == 3]
    values = None
    if classic and len(classic) == len(items):  # the common case: one array of every puzzle's values
        raw = np.frombuffer("".join(texts).encode("ascii", "replace"), dtype=np.uint8).reshape(-1, 81)
        values = np.where(raw >= ord("1"), raw - ord("0"), 0).astype(np.uint8)
    keys = [it.keyed for it in items]
    missing = [i for i, k in enumerate(keys) if k is None]
    if missing:
        grids = [items[i].grid for i in missing]
        got = (bank.key(grids, values=values if len(missing) == len(items) else None) if values is not None
               else bank.key(grids))
        for i, k in zip(missing, got):
            keys[i] = k
    sols = solutions(items, classic, values)
    syms = symmetries([it.grid for it in items], values)
    clues = (values != 0).sum(axis=1).tolist() if values is not None else [it.grid.clues for it in items]
    rows: list[list[Any]] = []
    given: list[int] = []
    failed: list[int] = []
    blake2b = hashlib.blake2b
    names_of = _SYMMETRY_NAMES
    unrated = [None] * 10
    for i, (it, keyed, solution, bits, text, count) in enumerate(zip(items, keys, sols, syms, texts, clues)):
        if solution is None:
            failed.append(i)
            continue
        grid = it.grid
        variant, regions, cages = _units(grid) if grid.is_variant else (None, None, None)
        r = it.rating
        if r is not None:
            rating = rating_cells(r)
        else:
            rating = unrated + [()]
        key = keyed.key
        digest = blake2b(key.encode(), digest_size=16).digest()
        extra = it.extra
        rows.append([digest, key, text, keyed.transform, solution, str(grid.shape), variant, regions, cages,
                     count, bits, names_of[bits], keyed.automorphisms, *rating, it.source or None,
                     extra.get("added") or date if extra else date,
                     int.from_bytes(digest[:8], "little", signed=True)])
        given.append(int(extra.get("seen") or 1) if extra else 1)
    return rows, given, failed


#: Copies of a class given beyond the first: ``n`` grows by them (a row is made at the first repeat).
_COPIES = ("INSERT INTO seen(digest, n) VALUES (?, ? + 1) "
           "ON CONFLICT(digest) DO UPDATE SET n = seen.n + excluded.n - 1")


def insert(bank: Any, items: Sequence[Incoming], *, date: str, intake: tuple[str, int, int] | None = None,
           rated: Any = None) -> tuple[int, int, list[int]]:
    """Write ``items`` in one transaction, with ``intake`` (input, last line,
    puzzles) when they come from a file, and the records of ``rated`` (a
    :class:`sudokit.bank.bulk.Rated` block, settled: their rows go in input
    order among the items'; its puzzles without a solution are left in its
    ``failed``); (new, repeats, indexes of failed items)."""
    rows, given, failed = build(bank, items, date)
    seen: dict[bytes, int] = {}
    bulk = None
    if rated is not None and len(rated):
        bulk = rated.rows(bank, date)
        rated.failed = bulk.failed
        seen = bulk.seen
        if rows and len(bulk):  # both kinds: in input order, so that the first of a class given is the one kept
            skip = set(failed)
            lines = [it.line or 0 for i, it in enumerate(items) if i not in skip]
            both = rows + bulk.rows()
            given += [1] * len(bulk)
            order = sorted(range(len(both)), key=(lines + bulk.lines).__getitem__)
            rows = [both[k] for k in order]
            given = [given[k] for k in order]
            bulk = None
    columns = bulk.columns if bulk is not None and len(bulk) else None
    hardest_at = COLUMNS.index("hardest_family")
    families_at = COLUMNS.index("families")
    hardest_column = [row[hardest_at] for row in rows]
    families_column = [row[families_at] for row in rows]
    if columns is not None:
        hardest_column += columns[BULK_COLUMNS.index("hardest_family")]
        families_column += columns[BULK_COLUMNS.index("families")]
    # the families named, in the order first met (the order their bits are given in)
    paths = list(dict.fromkeys(families_column))
    names = list(dict.fromkeys(name for fams in paths for name in fams))
    names += [name for name in dict.fromkeys(hardest_column) if name and name not in names]
    written = len(rows) + (len(bulk) if columns is not None else 0)
    with bank.writing() as conn:
        bits = bank.family_bits(conn, names) if names else {}
        masks = {fams: sum(1 << bits[name] for name in fams) for fams in paths}
        for row in rows:
            if row[hardest_at] is not None:
                row[hardest_at] = bits[row[hardest_at]]
            row[families_at] = masks[row[families_at]]
        before = conn.execute("SELECT coalesce(max(id), 0) FROM puzzle").fetchone()[0]
        if rows:
            conn.executemany(_UPSERT, rows)
        if columns is not None:
            at = BULK_COLUMNS.index("hardest_family")
            columns = list(columns)
            columns[at] = [None if name is None else bits[name] for name in columns[at]]
            at = BULK_COLUMNS.index("families")
            columns[at] = [masks[fams] for fams in columns[at]]
            conn.executemany(bulk_upsert(bulk.source, bulk.date), zip(*columns))
        after = conn.execute("SELECT coalesce(max(id), 0) FROM puzzle").fetchone()[0]
        # how many more times each class was given: every copy but the row that made a new class
        copies = Counter(seen)
        if written > after - before or any(n > 1 for n in given):
            for row, n in zip(rows, given):
                copies[row[0]] += n
            if columns is not None:
                for digest in bulk.digests:
                    copies[digest] += 1
            for (digest,) in conn.execute("SELECT digest FROM puzzle WHERE id > ?", (before,)):
                copies[digest] -= 1
        if copies:
            conn.executemany(_COPIES, [(digest, n) for digest, n in copies.items() if n > 0])
        if intake is not None:
            name, line, puzzles = intake
            conn.execute(
                "INSERT INTO intake(input, lines, puzzles, updated) VALUES (?, ?, ?, ?) ON CONFLICT(input) DO "
                "UPDATE SET lines = max(intake.lines, excluded.lines), puzzles = intake.puzzles + excluded.puzzles, "
                "updated = excluded.updated", (name, line, puzzles, date))
    er_at = COLUMNS.index("er")
    bank.remember([row[0] for row in rows if row[er_at] is not None] + list(seen)
                  + (bulk.digests if columns is not None else []))
    new = after - before
    return new, written - new + sum(seen.values()), failed
