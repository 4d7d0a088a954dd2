"""The solving API itself: statuses, limits, invalid givens, results."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 3), (4, 4)]), st.data())
def test_the_engine_reports_every_clash_as_invalid(shape: tuple[int, int], data: st.DataObject) -> None:
    # the engine looks for clashes only once it finds no solution
    n = shape[0] * shape[1]
    cells = data.draw(st.lists(st.integers(0, n * n - 1), min_size=2, max_size=2 * n, unique=True))
    values = [0] * (n * n)
    for cell in cells:
        values[cell] = data.draw(st.integers(1, n))
    grid = Grid(values, shape)
    for result in (solve(grid), count(grid, 2)):
        if grid.conflicts():
            assert result.status is Status.INVALID
            assert result.extra["conflicts"] == grid.conflicts()
        else:
            assert result.status in (Status.SOLVED, Status.NO_SOLUTION)
            assert result.status is not Status.SOLVED or obeys_rules(
                result.solution.values, values, *shape)


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
