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

Budgets: both kernels' searches can stop after a slice of nodes and resume
(:func:`sudokit.engine.kernel9.resume9`, :func:`sudokit.engine.kernelN.count_more_n`),
so every search here runs in slices of about 50 ms
(:func:`sudokit.engine.slicing.run_in_slices`): between two slices Python
reads the clock, charges the node budget and takes a Ctrl-C, and a count that
reaches a limit keeps what it found (``LimitReached.count``, a lower bound).
Limits above the kernels' int64 mean no limit.

Compiling: :mod:`sudokit.engine.compiling` loads only the kernels a command
uses (:func:`warm_up` with the groups of :data:`KERNELS`) and says once, with
the expected time, when a first run compiles (:func:`compiling`).

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

import sys
import threading
from typing import Iterator

import numpy as np

from ..budget import Budget
from ..errors import Contradiction, LimitReached, SudokuError
from ..grid import CLASSIC, Grid
from .slicing import FIRST_SLICE, run_in_slices

__all__ = ["first", "solutions", "count", "deduce", "warm_up", "compiling", "KERNELS", "grid_values",
           "prefer_compiled"]

# Where kernel9's trail keeps the phase of a search and its count (kernel9.T_PHASE,
# T_FOUND; read here without importing numba).
_T_PHASE = 167
_T_FOUND = 166
# The largest count or node limit a kernel takes (its int64); above it, no limit.
_INT64 = (1 << 63) - 1


def grid_values(grid: Grid) -> np.ndarray:
    """The values of ``grid`` as a fresh uint8 array of N² cells."""
    if not isinstance(grid, Grid):
        raise SudokuError(f"the engine works on a Grid, not {type(grid).__name__}")
    if grid.size < 256:
        return np.frombuffer(bytearray(grid.values), dtype=np.uint8)
    return np.array(grid.values, dtype=np.uint8)


_local = threading.local()


def _scratch(cells: int) -> tuple[np.ndarray, np.ndarray]:
    """A per-thread (solution, stats) pair, reused between calls."""
    pair = getattr(_local, "pair", None)
    if pair is None or pair[0].shape[0] != cells:
        pair = (np.zeros(cells, dtype=np.uint8), np.zeros(2, dtype=np.int64))
        _local.pair = pair
    return pair


def _state9() -> tuple:
    """The 9x9 kernel and a per-thread search state for it: (resume9, g, stack, trail)."""
    state = getattr(_local, "state9", None)
    if state is None:
        from . import kernel9

        if kernel9.T_PHASE != _T_PHASE or kernel9.T_FOUND != _T_FOUND or kernel9.NEW != 0:
            raise AssertionError("the trail layout of kernel9 changed")
        state = (kernel9.resume9, np.empty(64, dtype=np.int64), np.empty((81, 30), dtype=np.int64),
                 np.empty(kernel9.TRAIL, dtype=np.int64))
        _local.state9 = state
    return state


def _grid(shape, values: np.ndarray) -> Grid:
    return Grid._trusted(shape, tuple(values.tolist()))


def _count_values(values: np.ndarray, shape, limit: int, budget: Budget) -> tuple[int, np.ndarray | None]:
    """Run the counting kernel under ``budget``: (count, first solution or
    None, a scratch array: copy it before the next call).

    The kernel runs in slices (:func:`~sudokit.engine.slicing.run_in_slices`),
    so Ctrl-C is taken within about 50 ms and a limit keeps what was found:
    the :class:`~sudokit.errors.LimitReached` raised carries ``count`` (the
    solutions found, a lower bound) and ``solution`` (the first one, or None).
    """
    solution, stats = _scratch(values.shape[0])
    kernel_limit = limit if 0 < limit <= _INT64 else 0
    if shape is CLASSIC or shape == CLASSIC:
        resume9, g, stack, trail = _state9()
        trail[_T_PHASE] = 0  # NEW
        if budget.timeout is None and budget.nodes is None:  # the common case, kept short
            stats[0] = stats[1] = 0
            found = resume9(values, g, stack, trail, kernel_limit, FIRST_SLICE, solution, stats)
            budget.nodes_used += int(stats[0])
            budget.guesses += int(stats[1])
            if found >= 0:
                return found, (solution if found > 0 else None)

        def step(cap: int) -> tuple[bool, int]:
            stats[0] = stats[1] = 0
            found = resume9(values, g, stack, trail, kernel_limit, cap, solution, stats)
            budget.guesses += int(stats[1])
            return found >= 0, int(stats[0])

        def so_far() -> int:
            return int(trail[_T_FOUND])
    else:
        from .kernelN import count_more_n, geometry, new_state

        n = shape.size
        units, peers = geometry(shape.box_rows, shape.box_cols)
        arrays = list(new_state(values, shape.box_rows, shape.box_cols))
        state = arrays[4]

        def step(cap: int) -> tuple[bool, int]:
            stats[0] = stats[1] = 0
            boards, flags, bcell, brem, _ = arrays
            found, *grown = count_more_n(boards, flags, bcell, brem, state, units, peers, n, kernel_limit,
                                         cap, solution, stats)
            arrays[:4] = grown
            budget.guesses += int(stats[1])
            return found >= 0, int(stats[0])

        def so_far() -> int:
            return int(state[2])
    try:
        run_in_slices(step, budget)
    except LimitReached as exc:
        found = so_far()
        exc.count = found  # type: ignore[attr-defined]
        exc.solution = solution.copy() if found > 0 else None  # type: ignore[attr-defined]
        raise
    found = so_far()
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
    arrays = list(new_state(values, shape.box_rows, shape.box_cols))
    state = arrays[4]
    solution = np.zeros_like(values)
    stats = np.zeros(2, dtype=np.int64)
    status = [0]

    def step(cap: int) -> tuple[bool, int]:
        # up to the next solution or the end of the tree, in slices
        stats[:] = 0
        boards, flags, bcell, brem, _ = arrays
        status[0], *grown = search_n(boards, flags, bcell, brem, state, units, peers, n, cap, solution, stats)
        arrays[:4] = grown
        budget.guesses += int(stats[1])
        return status[0] >= 0, int(stats[0])

    while True:
        budget.check_time()  # a slice that ends on a solution does not look at the clock
        run_in_slices(step, budget)  # raises LimitReached when a limit is used up
        if status[0] == 0:
            return
        found = tuple(solution.tolist())
        if found != skip:
            yield Grid._trusted(shape, found)


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

#: Requests of each kind that :func:`prefer_compiled` answers with "no" in a fresh process.
PYTHON_FIRST = 2
_requests: dict[str, int] = {}


def prefer_compiled(kind: str, size: int = 9) -> bool:
    """Whether code that also has a pure-Python path (the logic finders; the
    ``preemptive`` method for a count) should use the compiled kernels now.

    Importing numba and loading a kernel costs more (about 0.4 s) than the
    Python path spends on one 9x9 puzzle, so a command on one puzzle is
    faster without them. Yes once numba is loaded in this process, for grids
    above 9x9, and from the third request of a ``kind`` on (a batch); no for
    the first two. Both paths give the same answers; only the time differs.
    """
    if size > 9 or "numba" in sys.modules:
        return True
    _requests[kind] = _requests.get(kind, 0) + 1
    return _requests[kind] > PYTHON_FIRST


from .compiling import KERNELS, compiling, warm_up  # noqa: E402  (numba is imported only when used)
