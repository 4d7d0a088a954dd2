"""Top-down minimising by each rule: a random complete grid, its orbits of cells
visited in random order, an orbit's clues taken away when the puzzle still
obeys the rule without them (``unique``, ``logic`` or ``preemptive``, each a
verdict kernel of :mod:`sudokit.engine.generate`), and for the big grids'
``unique`` rule the last clues settled by SAT solvers
(:mod:`sudokit.generation.sat_finish`). One puzzle at a time in slices, with
progress and a deadline (:func:`make_one`), or many seeds in one kernel call
(:func:`make_batch`); both draw the same random numbers, so a seed gives the
same puzzle either way.

>>> from sudokit.generation.plan import make_plan
>>> plan = make_plan("2x2", "unique", "none")
>>> make_one(plan, 7).puzzle == make_batch(plan, [7])[0].puzzle
True
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import LimitReached
from ..grid import Grid
from .grids import random_grid
from .plan import (DEADLINE_SLICES, Plan, Stopped, arrays, by_sat, default_jobs, engine_limit, kernel_seed,
                   out_of_time)
from .puzzle import GenerationError, Puzzle
from .sat_finish import settle

__all__ = ["make_batch", "make_one"]


def make_one(plan: Plan, seed: int, progress: Callable[[float], None] | None = None,
             deadline: float | None = None) -> Puzzle:
    """One puzzle from one seed, minimising in slices so progress can be reported
    and ``deadline`` (a ``time.perf_counter()`` instant) is kept.

    Raises :class:`~sudokit.generation.plan.Stopped` when the deadline passes, with how far it got.
    """
    from ..engine import generate as kernels

    plan = plan.for_seed(seed)
    shape = plan.shape
    n = shape.size
    kernels.load(plan.rule, shape.box_rows, shape.box_cols, batch=False, geometry=plan.geometry)
    units, peers, cells, starts = arrays(shape, plan.symmetry, plan.geometry)
    stats = np.zeros(kernels.STATS, dtype=np.int64)
    solution = np.zeros(n * n, dtype=np.uint8)
    kernels.seed_rng(kernel_seed(seed))
    if not random_grid(plan, solution, units, peers, stats, deadline):
        raise GenerationError(f"could not fill a {shape} grid within the node budget (seed {seed})")
    orbits = len(starts) - 1
    order = np.arange(orbits, dtype=np.int64)
    kernels.shuffle(order)
    puzzle = solution.copy()
    share = 0.1 if by_sat(plan) else 1.0  # of the progress bar, for the engine's pass
    step = orbits if progress is None else max(1, orbits // 50)
    if deadline is not None:
        step = min(step, max(1, orbits // DEADLINE_SLICES))
    if out_of_time(deadline):
        raise Stopped("the solution grid was filled")
    for lo in range(0, orbits, step):
        hi = min(orbits, lo + step)
        kernels.minimise(puzzle, solution, n, shape.box_rows, shape.box_cols, units, peers, cells, starts,
                         order, lo, hi, plan.rule, engine_limit(plan), stats, plan.geometry)
        if progress is not None:
            progress(share * hi / orbits)
        if out_of_time(deadline) and hi < orbits:
            raise Stopped(f"{hi} of {orbits} clue groups visited")
    if by_sat(plan):
        try:
            settle(plan, seed, puzzle, solution, stats,
                   None if progress is None else (lambda f: progress(share + (1 - share) * f)),
                   parallel=default_jobs() > 1, deadline=deadline)
        except LimitReached:
            raise Stopped("the quick pass done, the SAT proofs of the last clues unfinished") from None
    return _puzzle(plan, seed, puzzle, solution, stats)


def make_batch(plan: Plan, seeds: list[int], deadline: float | None = None) -> list[Puzzle]:
    """Puzzles for many seeds in one kernel call (each depends on its seed alone)."""
    from ..engine import generate as kernels

    if plan.random_regions is not None:  # a layout per seed: one kernel call each
        return [make_batch(plan.for_seed(seed), [seed], deadline)[0] for seed in seeds]
    shape = plan.shape
    n = shape.size
    kernels.load(plan.rule, shape.box_rows, shape.box_cols, geometry=plan.geometry)
    units, peers, cells, starts = arrays(shape, plan.symmetry, plan.geometry)
    k = len(seeds)
    puzzles = np.zeros((k, n * n), dtype=np.uint8)
    solutions = np.zeros((k, n * n), dtype=np.uint8)
    stats = np.zeros((k, kernels.STATS), dtype=np.int64)
    kernel_seeds = np.array([kernel_seed(s) for s in seeds], dtype=np.int64)
    kernels.generate_batch(kernel_seeds, n, shape.box_rows, shape.box_cols, units, peers, cells, starts,
                           plan.rule, engine_limit(plan), plan.fill_limit, puzzles, solutions, stats,
                           plan.geometry)
    out = []
    for i, seed in enumerate(seeds):
        if stats[i, kernels.STAT_UNDECIDED] < 0:
            raise GenerationError(f"could not fill a {shape} grid within the node budget (seed {seed})")
        if by_sat(plan):
            try:
                settle(plan, seed, puzzles[i], solutions[i], stats[i], deadline=deadline)
            except LimitReached:
                raise Stopped("the SAT proofs of the last clues unfinished") from None
        out.append(_puzzle(plan, seed, puzzles[i], solutions[i], stats[i]))
    return out


def _puzzle(plan: Plan, seed: int, puzzle: np.ndarray, solution: np.ndarray, stats: np.ndarray) -> Puzzle:
    from ..engine.generate import STAT_COUNTS, STAT_NODES, STAT_UNDECIDED

    grid = Grid.unchecked(plan.shape, tuple(int(v) for v in puzzle), plan.geometry)
    return Puzzle(
        puzzle=grid,
        solution=Grid.unchecked(plan.shape, tuple(int(v) for v in solution), plan.geometry),
        seed=int(seed),
        shape=str(plan.shape),
        minimal=plan.minimal,
        symmetry=plan.symmetry,
        clues=grid.clues,
        undecided=int(stats[STAT_UNDECIDED]),
        extra={"nodes": int(stats[STAT_NODES]), "counts": int(stats[STAT_COUNTS])},
    )
