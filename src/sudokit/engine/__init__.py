"""The fast engine (method ``fast``): numba-compiled bitboard search.

Two kernels do the work, both behind the plain-Python functions of this
module, which check their input and keep the numba types inside ``engine/``:

* :mod:`sudokit.engine.kernel9` is built for the classic 9x9. Candidates are
  kept per digit as an 81-bit set split into three band words of 27 bits, so
  one machine word covers a band of three rows. A band word is cut into nine
  row-by-box segments of three cells; a table lookup keeps only the segments
  that can be part of a placement of the digit in the band (one cell per row
  and per box of the band), which does the pointing and claiming of locked
  candidates and the band's hidden singles in one step. The same table does
  the columns of each stack (one column per band, one band per column).
  Naked singles and bivalue cells come from counting digits per cell
  bit-parallel over the nine digit words.
  The search branches on the bivalue cell with the most open peers and keeps
  its boards on an explicit stack, as tdoku and JCZSolve do.
* :mod:`sudokit.engine.kernelN` handles every shape up to 64x64 with one
  64-bit candidate mask per cell, queue-driven naked singles, hidden singles
  by unit scans, and the same explicit-stack search. Its search can stop and
  resume, which makes :func:`solutions` lazy.

Budgets: a node limit is passed to the kernel; a time limit is honoured by
running the kernel with doubling node limits (counting) or in resumable
slices of nodes (enumeration) and reading the clock in between.

numba caches compiled code per source file: code elsewhere that calls
``count9`` or ``count_n`` from its own ``cache=True`` function keeps the kernel
it was compiled with until its own cache is refreshed.

>>> from sudokit.examples import example
>>> from sudokit.budget import Budget
>>> n, first = count(example("easy"), 2, Budget())
>>> n, first.is_solved
(1, True)
>>> next(solutions(Grid.empty((2, 2)), Budget())).is_solved
True
"""

from __future__ import annotations

import os
import threading
import time
from typing import Callable, Iterator

import numpy as np

from ..budget import Budget
from ..errors import Contradiction, LimitReached, SudokuError
from ..grid import CLASSIC, Grid

__all__ = ["first", "solutions", "count", "deduce", "warm_up", "grid_values"]

# Node slices when a time limit must be watched: start small, then grow.
_FIRST_SLICE = 1 << 12
_MAX_SLICE = 1 << 20


def grid_values(grid: Grid) -> np.ndarray:
    """The values of ``grid`` as a fresh uint8 array of N² cells."""
    if not isinstance(grid, Grid):
        raise SudokuError(f"the engine works on a Grid, not {type(grid).__name__}")
    if grid.size < 256:
        return np.frombuffer(bytearray(grid.values), dtype=np.uint8)
    return np.array(grid.values, dtype=np.uint8)


_local = threading.local()
_count9 = None
_count_n = None


def _scratch(cells: int) -> tuple[np.ndarray, np.ndarray]:
    """A per-thread (solution, stats) pair, reused between calls."""
    pair = getattr(_local, "pair", None)
    if pair is None or pair[0].shape[0] != cells:
        pair = (np.zeros(cells, dtype=np.uint8), np.zeros(2, dtype=np.int64))
        _local.pair = pair
    return pair


def _grid(shape, values: np.ndarray) -> Grid:
    return Grid._trusted(shape, tuple(values.tolist()))


def _kernels():
    global _count9, _count_n
    if _count9 is None:
        from .kernel9 import count9
        from .kernelN import count_n

        _count9, _count_n = count9, count_n
    return _count9, _count_n


def _count_values(values: np.ndarray, shape, limit: int, budget: Budget) -> tuple[int, np.ndarray | None]:
    """Run the counting kernel under ``budget``; (count, first solution or
    None, a scratch array: copy it before the next call)."""
    count9, count_n = _count9, _count_n
    if count9 is None:
        count9, count_n = _kernels()
    solution, stats = _scratch(values.shape[0])
    classic = shape is CLASSIC or shape == CLASSIC
    if classic and budget.timeout is None and budget.nodes is None:  # the common case, kept short
        stats[0] = stats[1] = 0
        found = count9(values, limit, 0, solution, stats)
        budget.nodes_used += int(stats[0])
        budget.guesses += int(stats[1])
        return found, (solution if found > 0 else None)

    def run(node_limit: int) -> int:
        stats[:] = 0
        if classic:
            return count9(values, limit, node_limit, solution, stats)
        return count_n(values, shape.box_rows, shape.box_cols, limit, node_limit, solution, stats)

    remaining = budget.remaining_nodes
    if budget.timeout is None:
        found = run(0 if remaining is None else remaining)
    else:
        # Time limit: restart with doubling node limits and check the clock
        # in between. Work repeated is at most the work of the last run.
        step = _FIRST_SLICE
        while True:
            cap = step if remaining is None else min(step, remaining)
            found = run(cap)
            if found >= 0 or (remaining is not None and cap >= remaining):
                break
            budget.check_time()
            step = min(step * 2, 1 << 40)
    budget.nodes_used += int(stats[0])
    budget.guesses += int(stats[1])
    if found < 0:
        raise LimitReached(f"node limit of {budget.nodes} reached")
    budget.check_time()
    return found, (solution if found > 0 else None)


def count(grid: Grid, limit: int | None, budget: Budget) -> tuple[int, Grid | None]:
    """The number of solutions up to ``limit`` (None: all) and the first one.

    ``count(grid, 2, budget)[0] == 1`` says the puzzle is unique.
    """
    values = grid_values(grid)
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    found, solution = _count_values(values, grid.shape, 0 if limit is None else int(limit), budget)
    return found, (None if solution is None else _grid(grid.shape, solution))


def first(grid: Grid, budget: Budget) -> Grid | None:
    """The first solution found, or None when there is none."""
    found, solution = _count_values(grid_values(grid), grid.shape, 1, budget)
    return _grid(grid.shape, solution) if found else None


def solutions(grid: Grid, budget: Budget) -> Iterator[Grid]:
    """Every solution of ``grid``, lazily.

    The first solution of a 9x9 comes from the fast kernel; when more are
    asked for, a resumable search enumerates them all (skipping the one
    already given).
    """
    values = grid_values(grid)
    shape = grid.shape
    first: tuple[int, ...] | None = None
    if shape == CLASSIC:
        found, solution = _count_values(values, shape, 1, budget)
        if not found:
            return
        first = tuple(solution.tolist())
        yield Grid._trusted(shape, first)
    yield from _enumerate(values, shape, budget, skip=first)


def _enumerate(values: np.ndarray, shape, budget: Budget, skip: tuple[int, ...] | None) -> Iterator[Grid]:
    from .kernelN import geometry, new_state, search_n

    n = shape.size
    units, peers = geometry(shape.box_rows, shape.box_cols)
    boards, flags, bcell, brem, state = new_state(values, shape.box_rows, shape.box_cols)
    solution = np.zeros_like(values)
    stats = np.zeros(2, dtype=np.int64)
    step = _FIRST_SLICE
    while True:
        remaining = budget.remaining_nodes
        cap = step if remaining is None else max(1, min(step, remaining + 1))
        stats[:] = 0
        status, boards, flags, bcell, brem = search_n(
            boards, flags, bcell, brem, state, units, peers, n, cap, solution, stats)
        budget.guesses += int(stats[1])
        budget.tick(int(stats[0]))  # raises LimitReached when a limit is used up
        if status == 0:
            return
        if status == 1:
            found = tuple(solution.tolist())
            if found != skip:
                yield Grid._trusted(shape, found)
        else:
            step = min(step * 2, _MAX_SLICE)


def deduce(grid: Grid, budget: Budget) -> Grid:
    """What naked and hidden singles and locked candidates derive, without
    guessing. Raises :class:`~sudokit.errors.Contradiction` on a dead end."""
    from .kernelN import deduce_n

    values = grid_values(grid)
    out = np.zeros_like(values)
    budget.tick()
    if not deduce_n(values, grid.shape.box_rows, grid.shape.box_cols, out):
        raise Contradiction("singles and locked candidates empty a cell or a unit: no solution")
    return _grid(grid.shape, out)


# -- compilation -----------------------------------------------------------------------


def _cache_is_warm() -> bool:
    """True when numba's cache holds compiled code for the 9x9 kernel."""
    from numba.core.config import CACHE_DIR

    here = os.path.dirname(os.path.abspath(__file__))
    places = [os.path.join(here, "__pycache__")]
    if CACHE_DIR:
        places.append(CACHE_DIR)
    wanted = {"kernel9.count9-", "kernel9.batch9_serial-"}
    found: set[str] = set()
    for place in places:
        try:
            for _root, _dirs, files in os.walk(place):
                for name in files:
                    if name.endswith(".nbc"):
                        found.update(w for w in wanted if name.startswith(w))
        except OSError:
            continue
    return found == wanted


#: Rough time of a cold compilation of every engine kernel, in seconds.
COMPILE_SECONDS = 30


def warm_up(notice: Callable[[str], None] | None = None) -> float:
    """Compile (or load from numba's cache) the kernels; returns the seconds
    it took. ``notice`` is called once with a message when the cache is cold,
    so that a command line can say why the first run is slow."""
    start = time.perf_counter()
    if notice is not None and not _cache_is_warm():
        notice(f"compiling the solver engine (first run only, about {COMPILE_SECONDS} s)…")
    values = np.zeros(81, dtype=np.uint8)
    values[0] = 1
    _count_values(values, CLASSIC, 1, Budget())
    from ..batch import solve_many  # the bulk path compiles its own loop

    solve_many(values.reshape(1, 81))
    return time.perf_counter() - start
