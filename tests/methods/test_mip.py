"""The 0-1 integer program (method 'mip') against independent truth."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from sudokit import Budget, Grid, Shape, Status, count, example, solve
from sudokit.examples import EXAMPLES
from sudokit.methods import mip

from conftest import load_counts, load_multisize
from puzzles import (check_against_reference, check_count, check_multisize_solution, check_named_example, clues,
                     small_puzzles)


def test_the_matrix_has_one_exactly_one_row_per_cell_and_unit_value() -> None:
    shape = Shape(2, 3)
    a = mip.constraint_matrix(shape).toarray()
    n = shape.size
    assert a.shape == (4 * n * n, n**3)
    assert (a.sum(axis=1) == n).all()  # each row covers N variables
    assert (a.sum(axis=0) == 4).all()  # each variable is in 4 rows: cell, row, column, box


def test_infeasible_example_gives_a_clear_outcome() -> None:
    grid = example("infeasible")
    assert solve(grid, method="mip").status is Status.INVALID
    assert list(mip.solutions(grid, Budget())) == []  # robust even without solving.py's check
    assert "r5c2, r5c3" in mip.infeasibility_message(grid)
    unsat = Grid([1, 2, 0, 0, 0, 0, 0, 4] + [0] * 8, (2, 2))  # row 1 cannot take its 4
    assert solve(unsat, method="mip").status is Status.NO_SOLUTION
    assert "infeasible" in mip.infeasibility_message(unsat)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_named_examples(name: str) -> None:
    check_named_example(name, "mip")


_COUNTS = load_counts()


def _is_fast(row: dict[str, str]) -> bool:
    """Each no-good cut makes the next solve harder: big counts take minutes,
    and proving a 17-23 clue puzzle unique takes seconds."""
    stated, given = row["count"], clues(row["puzzle"])
    if Grid(row["puzzle"]).conflicts():
        return True
    if stated in ("0", "1", ">1"):
        return given >= 24 or given == 0
    return int(stated) <= 20


@pytest.mark.parametrize("row", [r for r in _COUNTS if _is_fast(r)], ids=lambda r: f"{r['count']}:{r['puzzle'][:12]}")
def test_counts(row: dict[str, str]) -> None:
    check_count(row, "mip")


@pytest.mark.parametrize("row", [r for r in _COUNTS if not _is_fast(r) and r["count"] not in ("0", "1")][:3],
                         ids=lambda r: f"{r['count']}:{r['puzzle'][:12]}")
def test_big_counts_up_to_a_limit(row: dict[str, str]) -> None:
    check_count(row, "mip", limit=10)  # every big count is more than 10


@pytest.mark.slow
@pytest.mark.parametrize("row", [r for r in _COUNTS if not _is_fast(r)], ids=lambda r: f"{r['count']}:{r['puzzle'][:12]}")
def test_counts_full(row: dict[str, str]) -> None:
    check_count(row, "mip")


@pytest.mark.parametrize("entry", [e for e in load_multisize() if e["count"] in (1, "1")], ids=lambda e: e["name"])
def test_multisize(entry: dict) -> None:
    check_multisize_solution(entry, "mip")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_random_small_puzzles_match_the_reference(case: tuple[list[int], int, int]) -> None:
    check_against_reference(case, "mip")


def test_budget_limits_give_timeout() -> None:
    result = count(Grid.empty(), 10, method="mip", nodes=3)  # one node per HiGHS solve
    assert result.status is Status.TIMEOUT and result.count == 3
    hard = next(r for r in _COUNTS if r["count"] == "1" and clues(r["puzzle"]) < 24)
    result = count(hard["puzzle"], 2, method="mip", timeout=0.05)
    assert result.status is Status.TIMEOUT
