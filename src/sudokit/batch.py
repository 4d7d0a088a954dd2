"""Many puzzles at once: one compiled call per chunk, and bulk text in and out.

The per-puzzle API pays Python's price for every puzzle (a Grid, a Result);
this module works on numpy arrays of values instead, so that a file of a
million 9x9 puzzles costs little more than the search itself.

>>> import numpy as np
>>> values, ok = parse_lines([b"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
>>> result = solve_many(values, limit=2)
>>> int(result.counts[0]), format_lines(result.solutions)[0][:9]
(1, b'534678912')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from .errors import SudokuError
from .grid import Shape, shape_of
from .engine.kernel9 import batch9_parallel, batch9_serial
from .engine.kernelN import batch_n_parallel, batch_n_serial

__all__ = [
    "BatchResult", "solve_many", "count_many", "clashing", "parse_lines", "format_block", "format_lines", "line_problem",
]


@dataclass(frozen=True)
class BatchResult:
    """Per puzzle: the first solution (zeros when none), the count (stopped at
    the limit; 0 none; -1 node limit hit), the nodes and the guesses."""

    solutions: np.ndarray
    counts: np.ndarray
    nodes: np.ndarray
    guesses: np.ndarray

    def __len__(self) -> int:
        return len(self.counts)


def _as_puzzles(puzzles: np.ndarray, shape: "Shape | str | None") -> tuple[np.ndarray, Shape]:
    if isinstance(puzzles, (str, bytes)) or (not isinstance(puzzles, np.ndarray) and any(
            isinstance(p, (str, bytes)) or hasattr(p, "shape") and hasattr(p, "values") for p in puzzles)):
        # text or Grids: read each as a puzzle, naming the first bad one
        from . import validate

        grids = validate.puzzle_array(puzzles)
        if not grids:
            return np.zeros((0, 81), dtype=np.uint8), shape_of(shape, 81)
        first = grids[0].shape
        if any(g.shape != first for g in grids):
            bad = next(i for i, g in enumerate(grids, 1) if g.shape != first)
            raise SudokuError(f"puzzle {bad}: a {grids[bad - 1].shape} grid among {first} grids")
        return np.array([g.values for g in grids], dtype=np.uint8), first
    array = np.asarray(puzzles)
    if array.dtype.kind not in "iub":
        raise SudokuError(f"puzzles must be an integer array of values (0 blank), not {array.dtype} values")
    if array.ndim == 1:
        array = array.reshape(1, -1)
    if array.ndim != 2:
        raise SudokuError(f"puzzles must be a (P, N*N) array, not shape {array.shape}")
    box = shape_of(shape, array.shape[1])
    if array.shape[1] != box.cell_count:
        raise SudokuError(f"a {box} puzzle has {box.cell_count} cells, the array rows have {array.shape[1]}")
    if array.size and (array.min() < 0 or array.max() > box.size):
        bad = int(np.argmax(((array < 0) | (array > box.size)).any(axis=1)))
        raise SudokuError(f"puzzle {bad + 1}: values must be 0 (blank) or 1..{box.size}")
    return np.ascontiguousarray(array, dtype=np.uint8), box


def solve_many(
    puzzles: np.ndarray,
    *,
    shape: "Shape | str | None" = None,
    limit: int = 1,
    jobs: int = 1,
    node_limit: int = 0,
) -> BatchResult:
    """Solve (``limit=1``) or count up to ``limit`` (0: all) every row of
    ``puzzles`` in one compiled call. Results do not depend on ``jobs``."""
    array, box = _as_puzzles(puzzles, shape)
    count = array.shape[0]
    solutions = np.zeros_like(array)
    counts = np.zeros(count, dtype=np.int64)
    stats = np.zeros((count, 2), dtype=np.int64)
    if count:
        parallel = jobs > 1 and count > 1
        if parallel:
            import numba

            numba.set_num_threads(max(1, min(jobs, numba.config.NUMBA_NUM_THREADS)))
        if box.size == 9 and box.box_rows == 3:
            (batch9_parallel if parallel else batch9_serial)(array, limit, node_limit, solutions, counts, stats)
        else:
            kernel = batch_n_parallel if parallel else batch_n_serial
            kernel(array, box.box_rows, box.box_cols, limit, node_limit, solutions, counts, stats)
    return BatchResult(solutions, counts, stats[:, 0].copy(), stats[:, 1].copy())


def count_many(
    puzzles: np.ndarray,
    *,
    shape: "Shape | str | None" = None,
    limit: int = 2,
    jobs: int = 1,
    node_limit: int = 0,
) -> np.ndarray:
    """The number of solutions of every row, up to ``limit`` (-1: node limit)."""
    return solve_many(puzzles, shape=shape, limit=limit, jobs=jobs, node_limit=node_limit).counts


# -- text ----------------------------------------------------------------------------

_DECODE = np.full(256, 255, dtype=np.uint8)
_DECODE[ord(".")] = 0
_DECODE[ord("0")] = 0
for _v in range(1, 10):
    _DECODE[ord(str(_v))] = _v
_ENCODE = np.frombuffer(b".123456789", dtype=np.uint8)


def _as_bytes(line: "bytes | str") -> bytes:
    return line.encode("utf-8", "replace") if isinstance(line, str) else bytes(line)


def parse_lines(lines: "Sequence[bytes | str] | np.ndarray") -> tuple[np.ndarray, np.ndarray]:
    """9x9 puzzles, one per line (``1-9``, ``.`` or ``0``): a (P, 81) uint8
    array and a mask of the lines that were good (bad rows are all zero).

    >>> values, ok = parse_lines([b"1" * 81, b"oops"])
    >>> values.shape, ok.tolist()
    ((2, 81), [True, False])
    """
    if len(lines) and all(type(line) is str for line in lines[:1]):
        joined = "".join(lines)  # type: ignore[arg-type]
        if joined.isascii() and set(map(len, lines)) == {81}:  # type: ignore[arg-type]
            # the common case, a clean data set: one conversion for the whole chunk
            decoded = _DECODE[np.frombuffer(joined.encode("ascii"), dtype=np.uint8).reshape(-1, 81)]
            ok = (decoded != 255).all(axis=1)
            decoded[~ok] = 0
            return decoded, ok
    stripped = [_as_bytes(line).strip() for line in lines]
    lengths = np.fromiter(map(len, stripped), dtype=np.int64, count=len(stripped))
    ok = lengths == 81
    values = np.zeros((len(stripped), 81), dtype=np.uint8)
    if ok.any():
        good = np.flatnonzero(ok)
        raw = np.frombuffer(b"".join(stripped[i] for i in good), dtype=np.uint8).reshape(-1, 81)
        decoded = _DECODE[raw]
        clean = (decoded != 255).all(axis=1)
        decoded[~clean] = 0
        values[good] = decoded
        ok[good[~clean]] = False
    return values, ok


def line_problem(line: "bytes | str") -> str:
    """Why one line is not a 9x9 puzzle ('' when it is one)."""
    text = _as_bytes(line).strip()
    if len(text) != 81:
        return f"expected 81 cells (1-9 and . or 0), found {len(text)} characters"
    for column, byte in enumerate(text, 1):
        if _DECODE[byte] == 255:
            return f"column {column}: {chr(byte)!r} is not 1-9, . or 0"
    return ""


def format_lines(values: np.ndarray, blank: bytes = b".") -> list[bytes]:
    """Each row of a (P, 81) array as one line of bytes (no newline)."""
    return format_block(values, blank).split(b"\n")[:-1] if len(values) else []


def format_block(values: np.ndarray, blank: bytes = b".") -> bytes:
    """Rows of 9x9 values as one block of text, a line per row, in one pass."""
    table = _ENCODE.copy()
    table[0] = blank[0]
    array = np.asarray(values, dtype=np.uint8).reshape(-1, 81)
    out = np.empty((array.shape[0], 82), dtype=np.uint8)
    out[:, :81] = table[array]
    out[:, 81] = ord("\n")
    return out.tobytes()


_UNITS = np.array(
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
)


def clashing(values: np.ndarray) -> np.ndarray:
    """Per 9x9 puzzle, True when a value stands twice in a row, column or box.

    >>> clashing(np.array([[1, 1] + [0] * 79, [1, 2] + [0] * 79])).tolist()
    [True, False]
    """
    array = np.asarray(values, dtype=np.uint8).reshape(-1, 81)
    units = array[:, _UNITS]  # (P, 27, 9)
    seen = np.zeros((array.shape[0], 27, 10), dtype=np.uint8)
    np.add.at(seen, (np.arange(array.shape[0])[:, None, None], np.arange(27)[None, :, None], units), 1)
    return (seen[:, :, 1:] > 1).any(axis=(1, 2))
