"""The clauses method (exactly-one clauses to a fixpoint), checked against the
independent reference solver and the ground-truth cases."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from sudokit import Grid, Status
from sudokit.grid import Shape
from sudokit.budget import Budget
from sudokit.errors import Contradiction
from sudokit.examples import EXAMPLES, example
from sudokit.methods import clauses
from sudokit.solving import deduce

from conftest import load_counts, load_multisize
from reference import obeys_rules, reference_count
from puzzles import agrees, multisize_grid, random_puzzle

DRY = re.compile(r"no value can go in r\d+c\d+|\S+ has no place in (row|column|box) \d+")


def test_the_formula_has_the_published_size() -> None:
    f = clauses.formula(Grid.empty().shape)
    assert len(f.clauses_of) == 729 and len(f.clauses) == 324
    assert all(len(c) == 9 for c in f.clauses)
    assert all(len(ks) == 4 for ks in f.clauses_of)
    # every pair of variables that may not both hold shares a clause
    same_cell = f.clauses_of[f.variable(0, 0, 1)][0] == f.clauses_of[f.variable(0, 0, 2)][0]
    assert same_cell
    f16 = clauses.formula(Grid.empty((4, 4)).shape)
    assert len(f16.clauses_of) == 16 ** 3 and len(f16.clauses) == 4 * 16 ** 2


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples(name: str) -> None:
    grid = example(name)
    result = deduce(grid, method="clauses")
    if not grid.is_consistent:
        assert result.status is Status.INVALID
        return
    count, truth = reference_count(list(grid.values), 3, 3, limit=2)
    if name in ("easy", "gentle"):
        assert result.status is Status.SOLVED
    if name in ("diabolical", "unsolvable", "blank"):
        assert result.status is Status.STUCK
    if result.status is Status.SOLVED:
        assert count == 1 and list(result.solution.values) == truth
        assert obeys_rules(result.solution.values, grid.values, 3, 3)
    else:
        assert result.status is Status.STUCK
        assert agrees(result.solution, truth)
        assert result.solution.agrees_with(grid)


@pytest.mark.parametrize("row", load_counts(), ids=lambda r: r["puzzle"][:20])
def test_counts_cases(row: dict[str, str]) -> None:
    grid = Grid(row["puzzle"])
    result = deduce(grid, method="clauses")
    if result.status is Status.SOLVED:
        assert row["count"] == "1" and result.solution.line() == row["solution"]
    if row["count"] == "0":
        assert result.status in (Status.NO_SOLUTION, Status.STUCK, Status.INVALID)
        if result.status is Status.NO_SOLUTION:
            assert DRY.search(result.message), result.message
    if row["count"] == "1":
        assert result.status in (Status.SOLVED, Status.STUCK)
        assert agrees(result.solution, [int(ch) for ch in row["solution"]])


@pytest.mark.parametrize("case", load_multisize(), ids=lambda e: e["name"])
def test_multisize_never_contradicts_the_solution(case: dict) -> None:
    grid = multisize_grid(case)
    result = deduce(grid, method="clauses")
    if case["count"] == 0:
        assert result.status in (Status.INVALID, Status.NO_SOLUTION)
        return
    assert result.status in (Status.SOLVED, Status.STUCK)
    if case["solution"]:
        truth = multisize_grid(case, "solution")
        assert agrees(result.solution, truth.values)
        assert result.solution.agrees_with(grid)


def test_a_cell_that_runs_dry_is_named() -> None:
    # r1c3 sees 1 and 2 in its row and 3 and 4 in its column
    grid = Grid("12.." "...." "..3." "..4.", shape=(2, 2))
    assert grid.is_consistent
    with pytest.raises(Contradiction) as caught:
        clauses.deduce(grid, Budget())
    assert DRY.search(str(caught.value))
    assert reference_count(list(grid.values), 2, 2)[0] == 0


def test_a_value_without_a_place_is_named() -> None:
    # 1 cannot go in row 1: columns 1-3 hold a 1 lower down and r1c4 is 4
    grid = Grid("...4" "1..." ".1.." "..1.", shape=(2, 2))
    assert grid.is_consistent
    result = deduce(grid, method="clauses")
    assert result.status is Status.NO_SOLUTION
    assert DRY.search(result.message), result.message
    assert reference_count(list(grid.values), 2, 2)[0] == 0


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4)]), st.integers(0, 2 ** 32 - 1))
def test_small_shapes_against_the_reference(shape: tuple[int, int], seed: int) -> None:
    values = random_puzzle(shape, seed)
    grid = Grid(values, shape=shape)
    count, truth = reference_count(values, *shape, limit=3)
    result = deduce(grid, method="clauses")
    if not grid.is_consistent:
        assert result.status is Status.INVALID and count == 0
        return
    if result.status is Status.SOLVED:
        assert count == 1 and list(result.solution.values) == truth
    elif result.status is Status.STUCK:
        assert truth is None or agrees(result.solution, truth)
    else:
        assert result.status is Status.NO_SOLUTION and count == 0
        assert DRY.search(result.message), result.message


def test_deduction_is_quick_enough_to_count_nodes() -> None:
    # one node per assertion: at most N² of them, and a node limit stops it
    budget = Budget()
    clauses.deduce(example("easy"), budget)
    assert 0 < budget.nodes_used <= 81
    result = deduce(example("easy"), method="clauses", nodes=5)
    assert result.status is Status.TIMEOUT


# -- the write-up's generator ------------------------------------------------------------


@pytest.mark.parametrize("box,symmetry", [((3, 3), "none"), ((3, 3), "rotate180"), ((2, 3), "none"),
                                          ((2, 2), "mirror")])
def test_generated_puzzles_need_every_clue_for_logic(box, symmetry) -> None:
    """Each puzzle: its solution obeys the rules, the clauses deduce all of it,
    it is unique by the engine's count (another method), no orbit of clues can
    go without logic getting stuck, the pattern is symmetric, and the seed
    remakes it."""
    from sudokit.methods.clauses import puzzle
    from sudokit.generation.symmetry import is_symmetric, orbits

    shape = Shape(*box)
    for seed in range(6):
        grid, solution = puzzle(shape, seed, symmetry)
        assert solution.is_solution_of(grid) and solution.is_solved
        assert clauses.deduce(grid, Budget()) == solution
        assert reference_count(list(grid.values), *box)[0] == 1
        assert is_symmetric(grid, symmetry, shape)
        values = list(grid.values)
        for orbit in orbits(shape, symmetry):
            if not values[orbit[0]]:
                continue
            fewer = [0 if c in orbit else v for c, v in enumerate(values)]
            assert not clauses.deduce(Grid(fewer, shape=shape), Budget()).is_complete, (seed, orbit)
        assert puzzle(shape, seed, symmetry) == (grid, solution)
    assert len({puzzle(shape, s, symmetry)[0] for s in range(6)}) == 6


def test_the_compiled_generator_agrees_that_they_are_minimal_for_logic() -> None:
    """The compiled generator's verdict kernel (singles alone fill the grid)
    says yes for each puzzle and no for each puzzle less one clue."""
    import numpy as np

    from sudokit.engine import generate as kernels
    from sudokit.methods.clauses import puzzle

    shape = Shape(3, 3)
    units, peers = kernels.geometry(3, 3)
    for seed in range(4):
        grid, _ = puzzle(shape, seed)
        rows = [list(grid.values)]
        for cell in (c for c, v in enumerate(grid.values) if v):
            less = list(grid.values)
            less[cell] = 0
            rows.append(less)
        verdicts = kernels.fixpoint_outcomes(np.array(rows, dtype=np.uint8), 9, units, peers, False)
        assert bool(verdicts[0]) and not any(bool(v) for v in verdicts[1:])
