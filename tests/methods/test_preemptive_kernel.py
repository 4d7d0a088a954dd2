"""Crook's compiled fixpoint (sudokit.methods.preemptive_kernel), which the
generator's ``preemptive`` rule runs, reaches the very candidates the
``preemptive`` method reaches in Python, and the same verdicts."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sudokit.budget import Budget
from sudokit.errors import Contradiction
from sudokit.generation import complete_grid
from sudokit.grid import Grid, Shape
from sudokit.methods.preemptive import markup, propagate
from sudokit.solving import deduce


def _partials(count: int, seed: int, box: str = "3x3") -> list[Grid]:
    """Random consistent part-grids of random complete grids, some with a wrong clue."""
    rng = random.Random(seed)
    grids = []
    for i in range(count):
        solution = complete_grid(box, seed=seed + i)
        cells = solution.size ** 2
        keep = rng.randint(cells // 5, cells // 2)
        chosen = set(rng.sample(range(cells), keep))
        values = [solution[c] if c in chosen else 0 for c in range(cells)]
        if i % 5 == 4:
            c = rng.choice(sorted(chosen))
            values[c] = values[c] % solution.size + 1
        grid = Grid(values, shape=solution.shape)
        if grid.is_consistent:
            grids.append(grid)
    return grids


def _compiled(grid: Grid) -> tuple[int, list[int]]:
    from sudokit.engine.generate import geometry
    from sudokit.engine.kernelN import load_n
    from sudokit.methods.preemptive_kernel import fixpoint

    n = grid.size
    units, peers = geometry(grid.shape.box_rows, grid.shape.box_cols)
    masks = np.empty(n * n, dtype=np.uint64)
    assigned = np.empty(n * n, dtype=np.uint8)
    load_n(np.array(grid.values, dtype=np.uint8), n, masks, assigned)
    state = fixpoint(masks, assigned, units, peers, np.empty(n * n, dtype=np.int64))
    return int(state), [int(m) for m in masks]


@pytest.mark.parametrize("box, seed", [("3x3", 900), ("2x3", 40), ("3x4", 70)])
def test_the_compiled_fixpoint_keeps_the_candidates_the_method_keeps(box: str, seed: int) -> None:
    from sudokit.engine.kernelN import CONTRADICTION

    agreed = 0
    for grid in _partials(60, seed, box):
        state, masks = _compiled(grid)
        cands = markup(grid)
        try:
            propagate(cands, grid.shape, Budget())
        except Contradiction:
            assert state == CONTRADICTION, grid.line()
            continue
        if state == CONTRADICTION:  # the Python fixpoint may leave a dead end for the search to find
            assert any(c == 0 for c in cands) or deduce(grid, "preemptive").status.value != "solved"
            continue
        assert masks == cands, grid.line()
        agreed += 1
    assert agreed >= 20


def test_the_generators_verdicts_are_the_methods() -> None:
    from sudokit.engine.generate import COMPLETE, fixpoint_outcomes, geometry

    grids = _partials(120, 900)
    units, peers = geometry(3, 3)
    verdicts = fixpoint_outcomes(np.array([g.values for g in grids], dtype=np.uint8), 9, units, peers, True)
    for grid, verdict in zip(grids, verdicts):
        method = deduce(grid, "preemptive").status.value == "solved"
        assert (verdict == COMPLETE) == method, grid.line()
