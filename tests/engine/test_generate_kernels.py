"""The generation kernels (sudokit.engine.generate, singles9, kernelN's
find_other) give the verdicts of the methods and the reference solver.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from reference import obeys_rules, reference_count
from sudokit.generation import complete_grid
from sudokit.grid import Grid
from sudokit.solving import deduce


# -- the singles kernel gives the clauses method's verdicts ------------------------------

def _random_partials(count: int, seed: int) -> list[Grid]:
    rng = random.Random(seed)
    grids = []
    for i in range(count):
        solution = complete_grid("3x3", seed=seed + i)
        keep = rng.randint(17, 45)
        cells = rng.sample(range(81), keep)
        values = [solution[c] if c in cells else 0 for c in range(81)]
        if i % 5 == 4:  # sometimes a wrong clue: no solution or a contradiction
            c = rng.choice(cells)
            values[c] = values[c] % 9 + 1
        grids.append(Grid(values))
    return grids


def test_singles_kernel_agrees_with_clauses() -> None:
    from sudokit.engine.generate import COMPLETE, fixpoint_outcomes, geometry

    grids = [g for g in _random_partials(300, 500) if g.is_consistent]
    units, peers = geometry(3, 3)
    verdicts = fixpoint_outcomes(np.array([g.values for g in grids], dtype=np.uint8), 9, units, peers, False)
    solved_both = 0
    for grid, verdict in zip(grids, verdicts):
        clauses = deduce(grid, "clauses").status.value == "solved"
        assert (verdict == COMPLETE) == clauses, grid.line()
        solved_both += clauses
    assert 20 < solved_both < len(grids) - 20  # both outcomes are exercised


def test_bit_parallel_singles_agree_with_clauses() -> None:
    """The 9x9 kernel the ``logic`` rule uses gives the clauses method's verdict."""
    from sudokit.engine.singles9 import COMPLETE, CONTRADICTION, singles9

    cand = np.zeros((9, 3), dtype=np.int64)
    solved = np.zeros(3, dtype=np.int64)
    grids = _random_partials(300, 700)
    outcomes = set()
    for grid in grids:
        verdict = singles9(np.array(grid.values, dtype=np.uint8), cand, solved)
        outcomes.add(int(verdict))
        if not grid.is_consistent:
            assert verdict == CONTRADICTION, grid.line()
            continue
        clauses = deduce(grid, "clauses").status.value == "solved"
        assert (verdict == COMPLETE) == clauses, grid.line()
    assert outcomes == {-1, 0, 1}


def test_bit_parallel_singles_agree_with_the_general_kernel() -> None:
    from sudokit.engine.generate import fixpoint_outcomes, geometry
    from sudokit.engine.singles9 import singles9

    grids = np.array([g.values for g in _random_partials(1000, 1300)], dtype=np.uint8)
    units, peers = geometry(3, 3)
    general = fixpoint_outcomes(grids, 9, units, peers, False)
    cand = np.zeros((9, 3), dtype=np.int64)
    solved = np.zeros(3, dtype=np.int64)
    assert [int(singles9(g, cand, solved)) for g in grids] == [int(v) for v in general]


@pytest.mark.parametrize("box", [(2, 3), (3, 2), (2, 4), (3, 3)])
@pytest.mark.parametrize("locked", [False, True])
def test_find_other_agrees_with_count(box: tuple[int, int], locked: bool) -> None:
    """The big-grid uniqueness search, on small shapes where counting is cheap:
    a solution with a cell kept off one value exists exactly when a count finds one."""
    from sudokit.engine.generate import geometry
    from sudokit.engine.kernelN import find_other, locked_candidates

    rng = random.Random(box[0] * 10 + box[1] + 2 * locked)
    n = box[0] * box[1]
    units, peers = geometry(*box)
    full = (1 << n) - 1
    scratch = np.zeros(n * n, dtype=np.uint8)
    outcomes = set()
    for seed in range(40):
        solution = complete_grid(box, seed=seed)
        values = [v if rng.random() < 0.4 else 0 for v in solution.values]
        cell = rng.randrange(n * n)
        values[cell] = 0
        avoid = solution.values[cell]
        masks = np.array([(1 << (v - 1)) if v else full for v in values], dtype=np.uint64)
        masks[cell] &= np.uint64(full & ~(1 << (avoid - 1)))
        stats = np.zeros(2, dtype=np.int64)
        found = find_other(masks, units, peers, box[0], box[1], np.array(solution.values, dtype=np.uint8),
                           locked_candidates(*box) if locked else None, 0, scratch, stats)
        # independent truth: the reference solver, with each other value in the cell
        expected = int(any(
            reference_count(values[:cell] + [other] + values[cell + 1:], box[0], box[1], 1)[0] > 0
            for other in range(1, n + 1) if other != avoid
        ))
        assert found == expected, (seed, values, cell)
        outcomes.add(int(found))
        if found:
            other = [int(v) for v in scratch]
            assert other[cell] != avoid
            assert obeys_rules(other, values, box[0], box[1])
    assert outcomes == {0, 1}


