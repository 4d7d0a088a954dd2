"""The engine's calls: first solution, every solution, a count and singles, over the kernels.

These plain-Python functions check their input, turn a :class:`~sudokit.grid.Grid`
into the uint8 array the kernels read and back, and run every search in
resumable slices under a :class:`~sudokit.budget.Budget`
(:func:`sudokit.engine.slicing.run_in_slices`). numpy and numba are imported
here and in the kernel modules only, so that ``import sudokit.engine`` stays
light until one of these is called.

>>> from sudokit.examples import example
>>> from sudokit.budget import Budget
>>> n, first = count(example("easy"), 2, Budget())
>>> n, first.is_solved
(1, True)
>>> next(solutions(Grid.empty((2, 2)), Budget())).is_solved
True
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Iterator

import numpy as np

from ..budget import Budget
from ..errors import Contradiction, LimitReached, SudokuError
from ..grid import CLASSIC, Grid
from .slicing import FIRST_SLICE, run_in_slices

__all__ = ["first", "solutions", "count", "deduce", "grid_values", "count_values", "enumerate_values", "tables9u"]

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
    return _search_state("kernel9", "resume9")


def _state9u() -> tuple:
    """The 9x9 kernel over any units and a per-thread search state for it:
    (resume9u, g, stack, trail), the shapes of kernel9's."""
    return _search_state("kernel9u", "resume9u")


def _search_state(module: str, entry: str) -> tuple:
    """A 9x9 kernel's resumable search (``module.entry``) and a per-thread
    state for it: a working board, one stored board per cell a search may
    branch on, and the trail."""
    state = getattr(_local, module, None)
    if state is None:
        import importlib

        from .board import STORED, WORDS

        kernel = importlib.import_module(f"{__package__}.{module}")
        if kernel.T_PHASE != _T_PHASE or kernel.T_FOUND != _T_FOUND or kernel.NEW != 0:
            raise AssertionError(f"the trail layout of {module} changed")
        state = (getattr(kernel, entry), np.empty(WORDS, dtype=np.int64), np.empty((81, STORED), dtype=np.int64),
                 np.empty(kernel.TRAIL, dtype=np.int64))
        setattr(_local, module, state)
    return state


@lru_cache(maxsize=64)  # bounded: random jigsaw layouts bring a new geometry each
def tables9u(geometry) -> tuple | None:
    """The tables of the 9x9 kernel over any units
    (:func:`sudokit.engine.kernel9u.tables_of`) for a 9x9 variant's geometry,
    and its propagation (:func:`~sudokit.engine.kernel9u.propagator`),
    or None when it is not one (another size, or units without the rows and
    columns first), or a killer's (its cages go to the killer search): such
    a geometry goes to the general search."""
    if geometry is None or geometry.n != 9 or geometry.cages:
        return None
    from .kernel9u import load, propagator, tables_of

    tables = tables_of(geometry)
    if tables is None:
        return None
    load()  # the search and its propagation: on a first run, both cores compile
    return (*tables, propagator())


def count_values(values: np.ndarray, shape, limit: int, budget: Budget,
                 geometry=None) -> tuple[int, np.ndarray | None]:
    """Run the counting kernel under ``budget``: (count, first solution or
    None, a scratch array: copy it before the next call). ``geometry``: a
    variant's units (:mod:`sudokit.variants`): a 9x9 goes to the 9x9 kernel
    over any units (:mod:`~sudokit.engine.kernel9u`, :func:`tables9u`), other
    sizes to the general search, which reads them as arrays; None for the
    shape's rows, columns and boxes.

    The kernel runs in slices (:func:`~sudokit.engine.slicing.run_in_slices`),
    so Ctrl-C is taken within about 50 ms and a limit keeps what was found:
    the :class:`~sudokit.errors.LimitReached` raised carries ``count`` (the
    solutions found, a lower bound) and ``solution`` (the first one, or None).
    """
    solution, stats = _scratch(values.shape[0])
    kernel_limit = limit if 0 < limit <= _INT64 else 0
    trail = None
    if geometry is None and (shape is CLASSIC or shape == CLASSIC):
        resume9, g, stack, trail = _state9()

        def run(cap: int) -> int:
            return resume9(values, g, stack, trail, kernel_limit, cap, solution, stats)
    elif (tables := tables9u(geometry)) is not None:
        resume9u, g, stack, trail = _state9u()

        def run(cap: int) -> int:
            return resume9u(values, g, stack, trail, *tables, kernel_limit, cap, False, solution, stats)
    else:  # the searches on masks: a killer's (cage sums), else kernelN's
        from .kernelN import new_state

        n = shape.size
        if geometry is not None and geometry.cages:
            from . import killer

            killer.load(count=True)  # a first run compiles on both cores
            more, more_args = killer.count_more_k, killer.args(killer.tables(geometry))
        else:
            from .kernelN import count_more_n

            more, more_args = count_more_n, _tables(shape, geometry)
        arrays = list(new_state(values, shape.box_rows, shape.box_cols))
        state = arrays[4]

        def run(cap: int) -> int:
            boards, flags, bcell, brem, _ = arrays
            found, *grown = more(boards, flags, bcell, brem, state, *more_args, n, kernel_limit, cap, solution,
                                 stats)
            arrays[:4] = grown
            return found

    if trail is not None:  # the 9x9 kernels' resumable search
        trail[_T_PHASE] = 0  # NEW
        if budget.timeout is None and budget.nodes is None:  # the common case, kept short
            stats[0] = stats[1] = 0
            found = run(FIRST_SLICE)
            budget.nodes_used += int(stats[0])
            budget.guesses += int(stats[1])
            if found >= 0:
                return found, (solution if found > 0 else None)

    def step(cap: int) -> tuple[bool, int]:
        stats[0] = stats[1] = 0
        found = run(cap)
        budget.guesses += int(stats[1])
        return found >= 0, int(stats[0])

    def so_far() -> int:
        return int(trail[_T_FOUND] if trail is not None else state[2])

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
    found, solution = count_values(values, grid.shape, 0 if limit is None else int(limit), budget,
                                   _variant(grid))
    return found, (None if solution is None else grid.like(tuple(solution.tolist())))


def first(grid: Grid, budget: Budget) -> Grid | None:
    """The first solution found, or None when there is none."""
    found, solution = count_values(grid_values(grid), grid.shape, 1, budget, _variant(grid))
    return grid.like(tuple(solution.tolist())) if found else None


def _variant(grid: Grid):
    """The grid's geometry when it is a variant's, else None (the shape's own units)."""
    return grid.geometry if grid.is_variant else None


def _tables(shape, geometry) -> tuple[np.ndarray, np.ndarray]:
    """(units, peers) for kernelN: the shape's, or a variant geometry's
    (:func:`sudokit.engine.generate.arrays_of`, the same layout)."""
    if geometry is None:
        from .kernelN import geometry as shape_tables

        return shape_tables(shape.box_rows, shape.box_cols)
    return _variant_tables(geometry)


@lru_cache(maxsize=64)  # bounded: random jigsaw layouts bring a new geometry each
def _variant_tables(geometry) -> tuple[np.ndarray, np.ndarray]:
    from .generate import arrays_of

    return arrays_of(geometry)


def solutions(grid: Grid, budget: Budget) -> Iterator[Grid]:
    """Every solution of ``grid``, lazily.

    The first solution of a 9x9 comes from the fast kernel; when more are
    asked for, a resumable search enumerates them all (skipping the one
    already given).
    """
    values = grid_values(grid)
    shape = grid.shape
    first: tuple[int, ...] | None = None
    if shape == CLASSIC and not grid.is_variant:
        found, solution = count_values(values, shape, 1, budget)
        if not found:
            return
        first = tuple(solution.tolist())
        yield Grid.unchecked(shape, first)
    for found in enumerate_values(values, shape, budget, skip=first, geometry=_variant(grid)):
        yield grid.like(found.values)


def enumerate_values(values: np.ndarray, shape, budget: Budget, skip: tuple[int, ...] | None,
                     geometry=None) -> Iterator[Grid]:
    """Every solution of the values (any shape; ``geometry`` as in
    :func:`count_values`) through a resumable search (kernel9u's for a 9x9
    variant, else kernelN's), in slices under ``budget``; ``skip`` is one
    already given."""
    tables = tables9u(geometry)
    if tables is not None:
        yield from _enumerate9u(values, shape, budget, skip, tables)
        return
    from .kernelN import new_state, search_n

    n = shape.size
    if geometry is not None and geometry.cages:  # killer: the search with cage sums
        from . import killer

        tables = killer.args(killer.tables(geometry))

        def search(boards, flags, bcell, brem, state, cap, solution, stats):
            return killer.search_k(boards, flags, bcell, brem, state, *tables, n, cap, solution, stats)
    else:
        units, peers = _tables(shape, geometry)

        def search(boards, flags, bcell, brem, state, cap, solution, stats):
            return search_n(boards, flags, bcell, brem, state, units, peers, n, cap, solution, stats)
    arrays = list(new_state(values, shape.box_rows, shape.box_cols))
    state = arrays[4]
    solution = np.zeros_like(values)
    stats = np.zeros(2, dtype=np.int64)
    status = [0]

    def step(cap: int) -> tuple[bool, int]:
        # up to the next solution or the end of the tree, in slices
        stats[:] = 0
        boards, flags, bcell, brem, _ = arrays
        status[0], *grown = search(boards, flags, bcell, brem, state, cap, solution, stats)
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
            yield Grid.unchecked(shape, found)


def _enumerate9u(values: np.ndarray, shape, budget: Budget, skip: tuple[int, ...] | None,
                 tables: tuple) -> Iterator[Grid]:
    """:func:`enumerate_values` on the 9x9 kernel over any units: its search
    stops after each solution and goes on from there."""
    from .board import STORED, WORDS
    from .kernel9u import NEW, T_PHASE, TRAIL, resume9u

    g = np.empty(WORDS, dtype=np.int64)
    stack = np.empty((81, STORED), dtype=np.int64)
    trail = np.empty(TRAIL, dtype=np.int64)
    trail[T_PHASE] = NEW
    solution = np.zeros_like(values)
    stats = np.zeros(2, dtype=np.int64)
    status = [0]

    def step(cap: int) -> tuple[bool, int]:
        stats[:] = 0
        status[0] = resume9u(values, g, stack, trail, *tables, 0, cap, True, solution, stats)
        budget.guesses += int(stats[1])
        return status[0] != -1, int(stats[0])

    while True:
        budget.check_time()
        run_in_slices(step, budget)
        if status[0] != -2:  # the end of the tree
            return
        found = tuple(solution.tolist())
        if found != skip:
            yield Grid.unchecked(shape, found)


def deduce(grid: Grid, budget: Budget) -> Grid:
    """What naked and hidden singles and locked candidates derive, without
    guessing. Raises :class:`~sudokit.errors.Contradiction` on a dead end."""
    from .kernelN import deduce_n, deduce_singles

    values = grid_values(grid)
    out = np.zeros_like(values)
    budget.tick()
    if grid.geometry.cages:  # killer: singles and cage sums
        from . import killer

        if not killer.deduce_k(values, *killer.args(killer.tables(grid.geometry)), grid.size, out):
            raise Contradiction("singles and cage sums empty a cell, a unit or a cage: no solution")
    elif grid.is_variant:  # locked candidates work on a shape's boxes: a variant's deduction keeps to the singles
        units, peers = _variant_tables(grid.geometry)
        if not deduce_singles(values, units, peers, out):
            raise Contradiction("singles empty a cell or a unit: no solution")
    elif not deduce_n(values, grid.shape.box_rows, grid.shape.box_cols, out):
        raise Contradiction("singles and locked candidates empty a cell or a unit: no solution")
    return grid.like(tuple(out.tolist()))


