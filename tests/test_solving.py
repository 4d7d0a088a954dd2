"""The solving API itself: statuses, limits, invalid givens, results."""

from __future__ import annotations

import pytest

from sudokit import (
    Budget, Grid, InvalidPuzzle, LimitReached, Status, UnknownMethod, count, count_solutions,
    deduce, example, is_unique, solutions, solve,
)

from reference import obeys_rules, reference_count


def test_invalid_givens_name_the_clashing_cells() -> None:
    result = solve(example("infeasible"), method="dfs")
    assert result.status is Status.INVALID
    assert "row 5" in result.message and "r5c2, r5c3" in result.message
    with pytest.raises(InvalidPuzzle):
        count_solutions(example("infeasible"), method="dfs")
    assert not is_unique(example("infeasible"), method="dfs")


def test_unknown_method_lists_the_known_ones() -> None:
    with pytest.raises(UnknownMethod, match="dfs"):
        solve(example("easy"), method="nope")


def test_node_limit_gives_timeout_not_a_hang() -> None:
    result = solve(Grid.empty(), method="dfs", nodes=5)
    assert result.status is Status.TIMEOUT
    assert "node limit" in result.message
    with pytest.raises(LimitReached):
        count_solutions(Grid.empty(), method="dfs", timeout=0.05)


def test_count_stops_at_the_limit_and_reports_it() -> None:
    result = count(Grid.empty((2, 2)), 10, method="dfs")
    assert result.count == 10 and result.limit == 10 and result.unique is False
    assert count_solutions(Grid.empty((2, 2)), method="dfs") == 288  # the number of 4x4 Sudoku grids


def test_solutions_are_lazy_and_distinct() -> None:
    it = solutions(Grid.empty((2, 2)), method="dfs")
    first = [next(it) for _ in range(5)]
    assert len(set(first)) == 5
    assert all(obeys_rules(g.values, [0] * 16, 2, 2) for g in first)


def test_solve_matches_reference_on_examples() -> None:
    for name in ("easy", "gentle", "diabolical", "unsolvable", "minimal", "wikipedia"):
        grid = example(name)
        _, truth = reference_count(list(grid.values), 3, 3, limit=2)
        assert list(solve(grid, method="dfs").solution.values) == truth


def test_deduce_reports_stuck_with_the_partial_grid() -> None:
    result = deduce(example("diabolical"), method="clauses")
    assert result.status is Status.STUCK
    _, truth = reference_count(list(example("diabolical").values), 3, 3, limit=2)
    assert all(v == 0 or v == t for v, t in zip(result.solution.values, truth))
    assert deduce(example("easy"), method="clauses").status is Status.SOLVED


def test_budget_rejects_nonsense_limits() -> None:
    with pytest.raises(ValueError):
        Budget(timeout=0)
    with pytest.raises(ValueError):
        Budget(nodes=0)
