"""Depth-first and breadth-first tree search (methods 'dfs' and 'bfs') against independent truth."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import Budget, Grid, LimitReached, Status, example, solutions, solve
from sudokit.examples import EXAMPLES
from sudokit.methods import tree

from conftest import load_counts, load_multisize
from reference import obeys_rules, reference_count
from puzzles import (check_against_reference, check_count, check_multisize_solution, check_named_example, clues,
                     small_puzzles)

METHODS = ("dfs", "bfs")


# -- constraints ---------------------------------------------------------------------------


def test_constraints_are_sorted_and_agree_with_the_markup() -> None:
    grid = example("diabolical")
    constraints = tree.open_constraints(grid)
    assert [c.candidates for c in constraints] == sorted(c.candidates for c in constraints)
    markup = grid.candidates()
    cells = [c for c in constraints if c.unit is None]
    assert {c.cell for c in cells} == {i for i, v in enumerate(grid.values) if v == 0}
    assert all(set(c.options) == markup[c.cell] for c in cells)
    for c in constraints:
        if c.unit is not None:  # every candidate cell of a unit-value constraint allows the value
            assert c.value not in {grid[i] for i in grid.shape.units[c.unit]}
            assert all(c.value in markup[i] for i in c.options)


def test_the_first_constraint_is_the_head_of_the_sorted_list() -> None:
    for name in ("easy", "diabolical", "minimal", "blank"):
        grid = example(name)
        # walk down one search path: each step places the first constraint's last option
        values = bytes(grid.values)
        for _ in range(30):
            full = tree._constraints(values, grid.shape)
            first = tree._first_constraint(values, grid.shape)
            assert first == (full[0] if full else None)
            if first is None or first.candidates == 0:
                break
            values = list(first.children(values))[-1]


def test_a_dead_unit_value_constraint_ends_the_branch() -> None:
    # row 1 of a 4x4 needs a 4, but both its open cells share box 2 with the 4 at r2c4
    grid = Grid([1, 2, 0, 0,
                 0, 0, 0, 4,
                 0, 0, 0, 0,
                 0, 0, 0, 0], (2, 2))
    first = tree.open_constraints(grid)[0]
    assert first.candidates == 0 and first.value == 4 and first.unit == 0
    assert solve(grid, method="dfs").status is Status.NO_SOLUTION
    assert reference_count(list(grid.values), 2, 2)[0] == 0


# -- examples, counts, other sizes ---------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_named_examples(method: str, name: str) -> None:
    if method == "bfs" and name == "blank":
        pytest.skip("breadth-first search of a blank 9x9 grid reaches its first solution only at depth 81; "
                    "the frontier limit stops it (see test_bfs_frontier_limit_gives_timeout)")
    check_named_example(name, method)


_COUNTS = load_counts()


def _is_big(row: dict[str, str]) -> bool:
    """The 17-23 clue puzzles take thousands of nodes (seconds each) without deeper logic."""
    clues_ = clues(row["puzzle"])
    return 0 < clues_ < 24 and not Grid(row["puzzle"]).conflicts()


@pytest.mark.parametrize(
    "row",
    [pytest.param(r, marks=[pytest.mark.slow] if _is_big(r) else []) for r in _COUNTS],
    ids=lambda r: f"{r['count']}:{r['puzzle'][:12]}",
)
def test_counts_dfs(row: dict[str, str]) -> None:
    check_count(row, "dfs")


@pytest.mark.slow
@pytest.mark.parametrize("row", _COUNTS, ids=lambda r: f"{r['count']}:{r['puzzle'][:12]}")
def test_counts_bfs(row: dict[str, str]) -> None:
    if row["puzzle"].count(".") + row["puzzle"].count("0") == 81:
        pytest.skip("breadth-first search of a blank grid only hits its frontier limit")
    check_count(row, "bfs")


_MULTI = [e for e in load_multisize() if e["count"] in (1, "1")]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    "entry",
    [pytest.param(e, marks=[pytest.mark.slow] if e["size"] >= 15 else []) for e in _MULTI],
    ids=lambda e: e["name"],
)
def test_multisize(entry: dict, method: str) -> None:
    check_multisize_solution(entry, method)


# -- random small puzzles -------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.sampled_from(METHODS))
def test_random_small_puzzles_match_the_reference(case: tuple[list[int], int, int], method: str) -> None:
    check_against_reference(case, method)


def test_dfs_and_bfs_enumerate_the_same_4x4_grids() -> None:
    depth = list(solutions(Grid.empty((2, 2)), method="dfs"))
    breadth = list(solutions(Grid.empty((2, 2)), method="bfs"))
    assert len(depth) == len(set(depth)) == 288  # the number of 4x4 Sudoku grids
    assert set(depth) == set(breadth)
    assert all(obeys_rules(g.values, [0] * 16, 2, 2) for g in depth)


# -- budgets ----------------------------------------------------------------------------------


def test_a_tiny_node_limit_gives_timeout() -> None:
    for method in METHODS:
        result = solve(example("diabolical"), method=method, nodes=5)
        assert result.status is Status.TIMEOUT and "node limit" in result.message


def test_bfs_frontier_limit_gives_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree, "FRONTIER_LIMIT", 2_000)
    result = solve(Grid.empty(), method="bfs", timeout=60)
    assert result.status is Status.TIMEOUT
    assert "frontier limit of 2,000" in result.message
    with pytest.raises(LimitReached, match="frontier"):
        next(tree.solutions(Grid.empty(), Budget(), order="breadth", frontier=50))


def test_dfs_is_lazy() -> None:
    budget = Budget()
    next(tree.solutions(Grid.empty(), budget, order="depth"))
    assert budget.nodes_used <= 200  # one path down, not the whole tree
