"""The preemptive method (Crook's pencil-and-paper algorithm), checked against
the independent reference solver, hand-worked markups and the ground-truth
cases."""

from __future__ import annotations

from itertools import islice

import pytest
from hypothesis import given, settings, strategies as st

from sudokit import Grid, Status
from sudokit.budget import Budget
from sudokit.errors import Contradiction
from sudokit.examples import EXAMPLES, example
from sudokit.grid import Shape
from sudokit.methods import preemptive
from sudokit.solving import count, deduce, solutions, solve

from conftest import load_counts, load_multisize
from reference import obeys_rules, reference_count
from puzzles import agrees, check_count, check_named_example, count_limit, multisize_grid, random_puzzle


# -- the theorem on hand-worked markups ------------------------------------------

NINE = Shape(3, 3)
FULL = (1 << 9) - 1


def bits(*values: int) -> int:
    return sum(1 << (v - 1) for v in values)


def test_a_preemptive_pair_is_crossed_out_of_its_unit() -> None:
    cands = [FULL] * 81
    cands[0], cands[1], cands[2] = bits(1, 2), bits(1, 2), bits(1, 2, 3)
    preemptive.propagate(cands, NINE, Budget())
    assert cands[2] == bits(3)                       # {1,2} crossed out, 3 left alone
    assert all(not cands[c] & bits(1, 2, 3) for c in range(3, 9))
    assert all(not cands[c] & bits(1, 2, 3) for c in (9, 10, 11, 18, 19, 20))  # box 1
    assert cands[29] == FULL & ~bits(3)  # column 3 loses only the single 3
    assert cands[27] == FULL             # column 1 holds no preemptive set


def test_a_preemptive_triple_needs_no_cell_with_all_three() -> None:
    cands = [FULL] * 81
    cands[0], cands[4], cands[8] = bits(1, 2), bits(2, 3), bits(1, 3)
    preemptive.propagate(cands, NINE, Budget())
    assert all(cands[c] == FULL & ~bits(1, 2, 3) for c in (1, 2, 3, 5, 6, 7))
    assert cands[9] == FULL  # another row is untouched


def test_the_complement_of_a_large_set_is_found() -> None:
    # 8 and 9 fit only in r1c8 and r1c9: the other seven cells are a
    # preemptive set of seven values, so r1c8 and r1c9 keep only {8, 9}.
    cands = [FULL] * 81
    for c in range(7):
        cands[c] = FULL & ~bits(8, 9)
    preemptive.propagate(cands, NINE, Budget())
    assert cands[7] == cands[8] == bits(8, 9)


def test_occupancy_is_implied() -> None:
    cands = [FULL] * 81
    for c in range(8):
        cands[c] = FULL & ~bits(9)
    preemptive.propagate(cands, NINE, Budget())
    assert cands[8] == bits(9)
    assert all(not cands[c] & bits(9) for c in (17, 26, 35, 80))


def test_too_few_candidates_is_a_dead_end() -> None:
    cands = [FULL] * 81
    cands[0] = cands[1] = cands[2] = bits(1, 2)
    with pytest.raises(Contradiction, match=r"r1c\d"):
        preemptive.propagate(cands, NINE, Budget())


def test_an_empty_cell_is_a_dead_end_named_by_deduce() -> None:
    grid = Grid("12.." "...." "..3." "..4.", shape=(2, 2))
    assert reference_count(list(grid.values), 2, 2)[0] == 0
    result = deduce(grid, method="preemptive")
    assert result.status is Status.NO_SOLUTION
    assert "r1c" in result.message or "row 1" in result.message, result.message
    assert solve(grid, method="preemptive").status is Status.NO_SOLUTION


# -- the fast fixpoint against Crook's steps as written ------------------------------


def _both_fixpoints(grid: Grid) -> tuple[object, object]:
    """(fast markup or "dead end", plain markup or "dead end")."""
    out = []
    for run in (lambda c: preemptive.propagate(c, grid.shape, Budget()),
                lambda c: preemptive.crook_fixpoint(c, grid.shape)):
        cands = preemptive.markup(grid)
        try:
            run(cands)
            out.append(cands)
        except Contradiction:
            out.append("dead end")
    return out[0], out[1]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 2)]), st.integers(0, 2 ** 32 - 1))
def test_the_fast_fixpoint_is_crooks_fixpoint(shape: tuple[int, int], seed: int) -> None:
    fast, plain = _both_fixpoints(Grid(random_puzzle(shape, seed), shape=shape))
    assert fast == plain


@pytest.mark.parametrize("name", ["gentle", "diabolical", "minimal"])
def test_the_fast_fixpoint_is_crooks_fixpoint_on_9x9(name: str) -> None:
    fast, plain = _both_fixpoints(example(name))
    assert fast == plain


# -- examples and ground truth ------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples(name: str) -> None:
    check_named_example(name, "preemptive")
    grid = example(name)
    if not grid.is_consistent:
        return
    _, truth = reference_count(list(grid.values), 3, 3, limit=2)
    logic = deduce(grid, method="preemptive")
    assert logic.status in (Status.SOLVED, Status.STUCK)
    assert agrees(logic.solution, truth)
    # the markup's fixpoint includes every single the clauses method finds
    singles = deduce(grid, method="clauses")
    assert agrees(singles.solution, logic.solution.values)


def test_easy_needs_no_guess() -> None:
    result = solve(example("easy"), method="preemptive")
    assert result.guesses == 0 and result.nodes == 1


def test_every_4x4_grid_is_enumerated() -> None:
    grids = list(solutions(Grid.empty((2, 2)), method="preemptive"))
    assert len(grids) == 288 == len(set(grids))  # the number of 4x4 Sudoku grids
    assert all(obeys_rules(g.values, [0] * 16, 2, 2) for g in grids)


COUNTS = load_counts()


# every third tdoku case and all of Sudopedia's in the quick run
QUICK = [r for i, r in enumerate(COUNTS) if i % 3 == 0 or "tdoku" not in r["source"]]


@pytest.mark.parametrize("row", QUICK, ids=lambda r: r["puzzle"][:20])
def test_counts_quick(row: dict[str, str]) -> None:
    check_count(row, "preemptive", count_limit(row["count"], cap=20), timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize("row", COUNTS, ids=lambda r: r["puzzle"][:20])
def test_counts_exhaustive(row: dict[str, str]) -> None:
    check_count(row, "preemptive", timeout=120)


@pytest.mark.parametrize("row", [r for r in COUNTS if r["count"] == "1"], ids=lambda r: r["puzzle"][:20])
def test_deduce_never_removes_the_solution(row: dict[str, str]) -> None:
    result = deduce(row["puzzle"], method="preemptive")
    assert result.status in (Status.SOLVED, Status.STUCK)
    assert agrees(result.solution, [int(ch) for ch in row["solution"]])


@pytest.mark.parametrize("case", load_multisize(), ids=lambda e: e["name"])
def test_multisize(case: dict) -> None:
    grid = multisize_grid(case)
    result = count(grid, 2, method="preemptive", timeout=60)
    if case["count"] == 0:
        assert result.status is Status.INVALID
        return
    assert result.status is Status.SOLVED
    assert obeys_rules(result.solution.values, grid.values, case["box_rows"], case["box_cols"])
    if case["count"] == 1:
        assert result.count == 1
        assert result.solution == multisize_grid(case, "solution")
    else:
        assert result.count == 2


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4)]), st.integers(0, 2 ** 32 - 1))
def test_small_shapes_against_the_reference(shape: tuple[int, int], seed: int) -> None:
    values = random_puzzle(shape, seed)
    grid = Grid(values, shape=shape)
    expected, truth = reference_count(values, *shape, limit=3)
    result = count(grid, 3, method="preemptive")
    assert result.count == expected
    if not grid.is_consistent:
        assert result.status is Status.INVALID
        return
    found = list(islice(solutions(grid, method="preemptive"), 3))
    assert len(found) == expected == len(set(found))
    for g in found:
        assert obeys_rules(g.values, values, *shape)
    if expected == 1:
        assert list(found[0].values) == truth
    logic = deduce(grid, method="preemptive")
    if expected == 0:
        assert logic.status in (Status.NO_SOLUTION, Status.STUCK)
    else:
        assert logic.status in (Status.SOLVED, Status.STUCK) and agrees(logic.solution, truth)


# -- budgets ------------------------------------------------------------------------


def test_a_node_limit_on_a_hard_puzzle_is_a_timeout() -> None:
    hard = next(r for r in COUNTS if r["count"] == "0" and "tdoku" in r["source"])
    result = solve(hard["puzzle"], method="preemptive", nodes=3)
    assert result.status is Status.TIMEOUT and "node limit" in result.message
    assert count(hard["puzzle"], None, method="preemptive", nodes=3).status is Status.TIMEOUT


def test_a_time_limit_stops_a_large_grid() -> None:
    result = solve(Grid.empty((5, 5)), method="preemptive", timeout=0.05)
    assert result.status is Status.TIMEOUT and "time limit" in result.message


def test_guesses_are_counted() -> None:
    result = solve(example("diabolical"), method="preemptive")
    assert result.guesses >= 1 and result.nodes > result.guesses
