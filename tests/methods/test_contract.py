"""The method contract (sudokit.methods.contract): every registered method meets
it, every complete method counts what the independent reference solver counts,
and every method stops at a tiny budget instead of running on."""

from __future__ import annotations

import pytest

from sudokit import Grid, Status, count, deduce, example
from sudokit.budget import Budget
from sudokit.errors import LimitReached
from sudokit.methods import available, contract

from conftest import load_counts
from reference import reference_count

METHODS = sorted(available())
COMPLETE = [name for name in METHODS if available()[name].complete]

#: Small puzzles as (values, box rows, box cols): several solutions, one, none.
SMALL = [
    ([1, 0, 3, 0, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 1], 2, 2),
    ([0] * 12 + [1, 2, 3, 4], 2, 2),
    ([1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0], 2, 2),  # no solution, no clash
    ([1, 0, 0, 0, 0, 6,
      0, 0, 4, 0, 0, 0,
      0, 3, 0, 0, 5, 0,
      0, 0, 0, 2, 0, 0,
      0, 0, 0, 0, 0, 0,
      2, 0, 0, 0, 0, 1], 2, 3),
]


def _nine_by_nine() -> list[tuple[list[int], int, int]]:
    """Two unique puzzles and one without a solution from cases/counts.tsv, the
    ones with the most givens (the quickest for the slow methods)."""
    rows = sorted(load_counts(), key=lambda r: -sum(ch != "." for ch in r["puzzle"]))
    unique = [r for r in rows if r["count"] == "1"][:2]
    none = [r for r in rows if r["count"] == "0"][:1]
    return [([0 if ch == "." else int(ch) for ch in r["puzzle"]], 3, 3) for r in unique + none]


CASES = SMALL + _nine_by_nine()


@pytest.mark.parametrize("name", METHODS)
def test_every_method_meets_the_contract(name: str) -> None:
    spec = available()[name]
    assert contract.problems(spec) == []
    module = spec.load()
    assert isinstance(module, contract.Enumerates if spec.complete else contract.Deduces)
    assert spec.representation and spec.inference  # described for the benchmark table


def test_a_broken_method_is_named() -> None:
    from sudokit.methods import MethodSpec

    not_complete = MethodSpec("x", "sudokit.methods.clauses", summary="", complete=True)
    assert "does not meet Enumerates" in contract.problems(not_complete)[0]
    bad_option = MethodSpec("y", "sudokit.methods.tree", summary="", complete=True, options={"colour": 1})
    assert any("colour" in p for p in contract.problems(bad_option))


@pytest.mark.parametrize("name", COMPLETE)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "".join(map(str, c[0]))[:24])
def test_complete_methods_count_what_the_reference_counts(name: str, case: tuple) -> None:
    values, box_rows, box_cols = case
    if name in ("bfs", "wholemeal-first") and box_rows == 3:
        pytest.skip("too slow on 9x9 for the quick run")
    expected, truth = reference_count(values, box_rows, box_cols, limit=3)
    grid = Grid(values, shape=(box_rows, box_cols))
    spec = available()[name]
    found, first = contract.count(spec, grid, 3, Budget(timeout=60))
    assert found == expected
    solution = contract.first(spec, grid, Budget(timeout=60))
    assert (solution is None) == (expected == 0)
    if expected == 1:
        assert list(first.values) == list(solution.values) == truth
    # and the same through the public functions that call the contract
    assert count(grid, 3, method=name, timeout=60).count == expected


@pytest.mark.parametrize("name", METHODS)
def test_a_tiny_node_budget_is_a_timeout(name: str) -> None:
    spec = available()[name]
    if not spec.complete:  # logic charges a node per step: the easy example takes many
        assert deduce(example("easy"), method=name, nodes=1).status is Status.TIMEOUT
        return
    # the empty grid has too many solutions to count within any budget
    with pytest.raises(LimitReached) as caught:
        contract.count(spec, Grid.empty((3, 3)), None, Budget(nodes=1, timeout=30))
    assert "node limit" in str(caught.value)
    result = count(Grid.empty((3, 3)), None, method=name, nodes=1, timeout=30)
    assert result.status is Status.TIMEOUT and "node limit" in result.message
