"""Rated 9x9 records in bulk: the common case of ``bank add``, a column at a time.

The big input of a bank is a file of ``sudoku rate --format jsonl`` records:
millions of lines of one shape, already rated. :class:`Rated` takes the lines
of that shape -- a JSON object with a ``puzzle`` of 81 ``.`` and digit
characters, a rating (``er``, and ``status`` ``rated`` or none), no variant's
units, and a ``solution`` of 81 characters or none -- and turns a block of
them into rows with a few calls over arrays instead of a few dozen Python
objects per record:

- from a file, the compiled reader's arrays (:mod:`sudokit.bank.scan`,
  :meth:`Rated.scanned`); from elsewhere, one JSON decoding per line, by
  orjson when it is installed (the ``bank`` extra), else by the standard
  library (:meth:`Rated.take`);
- the puzzles' values, and the solutions given with them, as one array each;
  a solution is checked to be a whole grid with no digit twice in a unit that
  keeps every given (the general path checks the same), in a few array
  operations;
- the canonical forms of the block in one call of the compiled search
  (:mod:`sudokit.canon.kernel`), the text of the keys made only for the rows written;
- a solution found only for a class the bank does not hold with one yet, once
  per class in the block: a repeat keeps the stored solution, and since
  equivalent puzzles have equivalent solutions, a puzzle whose class the bank
  holds with a solution has one too (and copies in the block share the fate
  of the first);
- a repeat of a class the bank holds rated and solved counted in the
  narrow ``seen`` table, which is all the general upsert would change.

Anything else -- another shape of line, a puzzle or solution that fails the
checks, bad JSON -- is handed back (:meth:`Rated.settle`) to the general path
(:func:`sudokit.bank.intake.parse_line`), so its message, with its line
number, reads the same, and the rows are the same rows the general path
writes (``tests/bank/test_bulk.py`` compares the two banks).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np

from .rows import BULK_COLUMNS

try:  # the bank extra's fast JSON reader
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - without orjson: the standard library's
    _loads = json.loads

__all__ = ["Rated", "Rows"]

_UNIT_FIELDS = ("variant", "regions", "cages", "shape", "symbols")
#: ``.``, ``0`` and the digits to their values; any other byte to 255.
_VALUES = np.array([0 if b in b".0" else b - 48 if 49 <= b <= 57 else 255 for b in range(256)], dtype=np.uint8)
#: The 27 units of a 9x9 grid, as cell indexes.
_UNITS = np.array([[r * 9 + c for c in range(9)] for r in range(9)]
                  + [[r * 9 + c for r in range(9)] for c in range(9)]
                  + [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
                     for br in (0, 3, 6) for bc in (0, 3, 6)])


def _values(texts: list[str]) -> np.ndarray:
    """Lines of 81 characters as an array of values (255 for a character that is not one)."""
    raw = np.frombuffer("".join(texts).encode("ascii", "replace"), dtype=np.uint8)
    return _VALUES[raw].reshape(len(texts), 81)


def _lines(values: np.ndarray) -> list[str]:
    """Rows of values as lines of 81 characters, "." for a blank."""
    from .keys import key_bytes

    text = key_bytes(values).decode("ascii")
    return [text[i:i + 81] for i in range(0, len(text), 81)]


def _solutions_fit(solutions: np.ndarray, puzzles: np.ndarray) -> np.ndarray:
    """Per row: the solution is a whole grid (each unit holds 1..9) that keeps the puzzle's givens."""
    bits = np.left_shift(np.uint16(1), np.minimum(solutions, 15).astype(np.uint16))
    whole = (np.bitwise_or.reduce(bits[:, _UNITS], axis=2) == 0x3FE).all(axis=1)
    return whole & ((puzzles == 0) | (puzzles == solutions)).all(axis=1)


class Rows:
    """What a block of rated records writes, a column at a time: ``columns``, the
    values of the rows to upsert for each of :data:`sudokit.bank.rows.BULK_COLUMNS`
    (``hardest_family`` and ``families`` still as names, made bits in the
    transaction), with ``lines``, their input lines; ``seen`` (digest -> copies)
    for the records whose class is held rated and solved, or written by an
    earlier row of the block; the lines of the puzzles that have no solution
    (``failed``). ``source`` and ``date`` are the same for every row."""

    def __init__(self, source: str | None = None, date: str = "") -> None:
        self.columns: list[list[Any]] = [[] for _ in BULK_COLUMNS]
        self.lines: list[int] = []
        self.seen: Counter[bytes] = Counter()
        self.failed: list[int] = []
        self.source = source
        self.date = date

    def __len__(self) -> int:
        return len(self.lines)

    @property
    def digests(self) -> list[bytes]:
        return self.columns[0]

    def rows(self) -> list[list[Any]]:
        """The rows in full, as :data:`sudokit.bank.rows.COLUMNS` orders them (to go
        among rows of the general way)."""
        from .rows import COLUMNS

        named = dict(zip(BULK_COLUMNS, self.columns))
        fixed = {"shape": "3x3", "variant": None, "regions": None, "cages": None, "source": self.source,
                 "added": self.date}
        columns = [named[name] if name in named else [fixed[name]] * len(self) for name in COLUMNS]
        return [list(row) for row in zip(*columns)]


class Rated:
    """A block of rated 9x9 records, taken line by line (:meth:`take`),
    checked together (:meth:`settle`) and made rows (:meth:`rows`)."""

    def __init__(self, source: str = "") -> None:
        self.source = source
        self.lines: list[int] = []
        self.texts: list[str] = []
        self.records: list[dict[str, Any]] = []
        #: After :meth:`settle`: each record's puzzle and given solution (or None), the puzzles' values.
        self.puzzles: list[str] = []
        self.solutions: list[str | None] = []
        self.values: np.ndarray | None = None
        #: A block read by the compiled reader (:meth:`scanned`): its chunk, and the rows of its records there.
        self.chunk: Any = None
        self.at: np.ndarray | None = None
        #: The lines of the puzzles found to have no solution (set when the rows are written).
        self.failed: list[int] = []

    def __len__(self) -> int:
        return len(self.lines)

    def take(self, number: int, text: str) -> bool:
        """Keep line ``number`` (``text``, stripped) if it is a record of the
        common shape; False (nothing kept) for any other line."""
        try:
            record = _loads(text)
        except ValueError:  # orjson's and json's decoding errors
            return False
        if type(record) is not dict:
            return False
        puzzle = record.get("puzzle")
        if (type(puzzle) is not str or len(puzzle) != 81 or record.get("er") is None
                or record.get("status", "rated") != "rated" or "variant" in record or "regions" in record
                or "cages" in record or "shape" in record or "symbols" in record):
            return False
        self.lines.append(number)
        self.texts.append(text)
        self.records.append(record)
        return True

    @classmethod
    def scanned(cls, chunk: Any, source: str = "") -> "Rated":
        """The records of a :class:`sudokit.bank.scan.Chunk` (its lines of kind RECORD)."""
        from .scan import RECORD

        block = cls(source)
        at = np.flatnonzero(chunk.kinds == RECORD)
        block.chunk, block.at = chunk, at
        block.lines = (at + chunk.first).tolist()
        return block

    def detach(self) -> "Rated":
        """A block of what was taken so far, this one left empty to take more."""
        block = Rated(self.source)
        block.lines, block.texts, block.records = self.lines, self.texts, self.records
        self.lines, self.texts, self.records = [], [], []
        return block

    def settle(self) -> list[tuple[int, str]]:
        """Check the block's puzzles and solutions together; the lines that
        fail (line, text), dropped from the block for the general path."""
        if self.chunk is not None:
            return self._settle_scanned()
        n = len(self.lines)
        self.puzzles = [r["puzzle"] for r in self.records]
        # a solution as the general way reads it: a string, else none
        self.solutions = [s if s and type(s) is str else None for s in (r.get("solution") for r in self.records)]
        if not n:
            self.values = np.zeros((0, 81), dtype=np.uint8)
            return []
        values = _values(self.puzzles)
        bad = (values > 9).any(axis=1)
        given = [i for i, s in enumerate(self.solutions) if s is not None]
        if given:
            whole = [i for i in given if len(self.solutions[i]) == 81]
            bad[[i for i in given if len(self.solutions[i]) != 81]] = True
            if whole:
                at = np.array(whole)
                bad[at] |= ~_solutions_fit(_values([self.solutions[i] for i in whole]), values[at])
        self.values = values
        if not bad.any():
            return []
        keep = (~bad).tolist()
        out = [(line, text) for line, text, k in zip(self.lines, self.texts, keep) if not k]
        for name in ("lines", "texts", "records", "puzzles", "solutions"):
            column = getattr(self, name)
            setattr(self, name, [v for v, k in zip(column, keep) if k])
        self.values = values[~bad]
        return out

    def _settle_scanned(self) -> list[tuple[int, str]]:
        """:meth:`settle` of a block read by the compiled reader: the puzzles were
        checked as they were read; a given solution is checked here."""
        chunk, at = self.chunk, self.at
        self.values = chunk.values[at]
        self.solutions = [None] * len(at)
        given = np.flatnonzero(chunk.spans[at, 8] == 1)
        if not len(given):
            return []
        fits = _solutions_fit(chunk.solutions[at[given]], self.values[given])
        texts = _lines(chunk.solutions[at[given]])
        for j, (k, ok) in enumerate(zip(given.tolist(), fits.tolist())):
            if ok:
                self.solutions[k] = texts[j]
        if fits.all():
            return []
        keep = np.ones(len(at), bool)
        keep[given[~fits]] = False
        out = [(self.lines[k], chunk.text(at[k])) for k in given[~fits].tolist()]
        self.at, self.values = at[keep], self.values[keep]
        kept = keep.tolist()
        self.lines = [v for v, k in zip(self.lines, kept) if k]
        self.solutions = [v for v, k in zip(self.solutions, kept) if k]
        return out

    def _ratings(self, full: list[int]) -> list[list[Any]]:
        """The rating columns (:data:`sudokit.bank.rows.RATING_FIELDS`, ``hardest_family``
        and ``families`` as names) of the records ``full``, as
        :func:`sudokit.bank.rows.rating_cells` makes them row by row."""
        from .families import family_of, path_families
        from .rows import rating_cells, rating_of

        if self.chunk is None:
            records = self.records
            return [list(column) for column in zip(*(rating_cells(rating_of(records[i])) for i in full))]
        from .scan import intern

        chunk = self.chunk
        at = self.at[full]
        n = len(at)
        data = chunk.data
        buf = np.frombuffer(data, np.uint8)
        spans = chunk.spans[at]
        numbers = chunk.numbers[at]
        out: list[list[Any]] = []
        for k in range(3):  # er, ep, ed; the ones whose text Python's float must read
            column = numbers[:, k].tolist()
            for i in np.flatnonzero(spans[:, 9 + 2 * k] >= 0).tolist():
                column[i] = float(bytes(data[spans[i, 9 + 2 * k]:spans[i, 10 + 2 * k]]))
            for i in np.flatnonzero(np.isnan(numbers[:, k])).tolist():
                column[i] = None  # absent, or null
            out.append(column)
        ids = np.empty(n, np.int64)
        firsts = np.empty(n, np.int64)
        found: list[tuple[np.ndarray, list[Any]]] = []
        for k in range(4):  # level, score_level, hardest, techniques: each distinct one read once
            count = intern(buf, np.ascontiguousarray(spans[:, 2 * k]), np.ascontiguousarray(spans[:, 2 * k + 1]),
                           ids, firsts)
            texts = [bytes(data[spans[j, 2 * k]:spans[j, 2 * k + 1]]) for j in firsts[:count].tolist()]
            found.append((ids.copy(), [text.decode("ascii") for text in texts] if k < 3
                          else [tuple(json.loads(text)) for text in texts]))
        level, score_level, hardest = (_objects(values + [None])[ids].tolist() for ids, values in found[:3])
        score, steps, lower = (_integers(numbers[:, k]) for k in (3, 4, 5))
        out += [level, score, score_level, lower, steps, hardest]
        # the families, once per pair of (techniques, hardest) met; -1 (none) is a number too
        (hardest_ids, hardest_names), (technique_ids, technique_lists) = found[2], found[3]
        pairs = (technique_ids + 1) * (len(hardest_names) + 1) + hardest_ids + 1
        _, first, inverse = np.unique(pairs, return_index=True, return_inverse=True)
        families, paths = [], []
        for i in first.tolist():
            named = hardest[i]
            steps_named = technique_lists[technique_ids[i]] if technique_ids[i] >= 0 else ()
            families.append(family_of(named) if named else None)
            paths.append(path_families(steps_named if steps_named or not named else (named,)))
        out.append(_objects(families)[inverse].tolist())
        out.append(_objects(paths)[inverse].tolist())
        return out

    def rows(self, bank: Any, date: str) -> Rows:
        """The block's rows (see :class:`Rows`), its solutions found where needed;
        after :meth:`settle`."""
        from .. import batch
        from ..canon import kernel
        from ..grid import CLASSIC, Grid
        from .digest import digests
        from .keys import FORM, kernel_texts, key_bytes, keyed
        from .rows import _SYMMETRY_NAMES, digest_of, symmetry_bits
        from .scan import intern

        out = Rows(self.source or None, date)
        values = self.values
        n = len(self.lines)
        if values is None or not n:
            return out
        forms, transforms, counted = kernel.canonicalise(values, kernel.PATMINLEX if FORM == "patminlex"
                                                         else kernel.MINLEX)
        raw, digested = digests(key_bytes(forms), 81)
        searched: dict[int, Any] = {}
        for i in np.flatnonzero(counted < 0).tolist():  # left to the Python search
            searched[i] = k = keyed(Grid.unchecked(CLASSIC, tuple(values[i].tolist())))
            counted[i] = k.automorphisms
            digested[i] = np.frombuffer(digest_of(k.key), np.uint8)
        if searched:
            raw = digested.tobytes()
        # the classes of the block, numbered in the order first met, each asked of the bank once
        at16 = np.arange(0, 16 * n, 16, dtype=np.int64)
        group = np.empty(n, np.int64)
        firsts = np.empty(n, np.int64)
        classes = intern(digested.reshape(-1), at16, at16 + 16, group, firsts)
        firsts = firsts[:classes]
        names = [raw[16 * i:16 * i + 16] for i in firsts.tolist()]
        held = bank.held(names)
        state = np.array([held.get(name, 0) for name in names], np.int64)
        given = np.bincount(group, minlength=classes)
        # the rows to upsert: the first record of each class the bank does not hold rated and
        # solved; the others are counted (a copy of a class first met here once its row has a solution)
        settled = state == 3
        full = firsts[~settled]
        lines = self.lines
        solutions = self.solutions
        solve = [i for i, k in zip(full.tolist(), state[group[full]].tolist())
                 if solutions[i] is None and not k & 1]
        failed = np.zeros(classes, bool)
        solutions = list(solutions)
        if solve:
            found = batch.solve_many(values[solve], limit=1)
            texts = batch.format_block(found.solutions).decode("ascii")
            for k, (i, ok) in enumerate(zip(solve, (found.counts > 0).tolist())):
                if ok:
                    solutions[i] = texts[82 * k:82 * k + 81]
                else:
                    failed[group[i]] = True
        seen = out.seen
        for k, copies in zip(np.flatnonzero(settled).tolist(), given[settled].tolist()):
            seen[names[k]] += copies
        for k, copies in zip(np.flatnonzero(~settled & ~failed & (given > 1)).tolist(),
                             (given[~settled & ~failed & (given > 1)] - 1).tolist()):
            seen[names[k]] += copies
        if failed.any():
            out.failed = [lines[i] for i in np.flatnonzero(failed[group]).tolist()]
            full = full[~failed[group[full]]]
        if not len(full):
            return out
        full_list = full.tolist()
        keys, moves = kernel_texts(forms[full], transforms[full])
        for j, i in enumerate(full_list if searched else ()):
            if i in searched:
                keys[j], moves[j] = searched[i].key, searched[i].transform
        sub = values[full]
        bits = symmetry_bits(sub)
        digests_of = [names[k] for k in group[full].tolist()]
        out.columns = [
            digests_of, keys, _lines(sub), moves, [solutions[i] for i in full_list],
            (sub != 0).sum(axis=1).tolist(), bits, [_SYMMETRY_NAMES[b] for b in bits], counted[full].tolist(),
            *self._ratings(full_list),
            np.frombuffer(b"".join(digests_of), dtype="<i8")[::2].tolist(),
        ]
        out.lines = [lines[i] for i in full_list]
        return out


def _objects(values: list[Any]) -> np.ndarray:
    """``values`` as a one-dimensional array of objects (tuples stay whole)."""
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        out[i] = value
    return out


def _integers(numbers: np.ndarray) -> list[Any]:
    """A column of integers read as floats, NaN (absent, or null) as None."""
    missing = np.isnan(numbers)
    column = np.where(missing, 0, numbers).astype(np.int64).tolist()
    if missing.any():
        for i in np.flatnonzero(missing).tolist():
            column[i] = None
    return column
