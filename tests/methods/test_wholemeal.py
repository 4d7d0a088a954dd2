"""Bird's wholemeal solver (methods 'wholemeal' and 'wholemeal-first') against independent truth.

Its counts and solutions on X, hyper and jigsaw puzzles are held to the independent
variant solver with every other method's in tests/methods/test_variant_methods.py;
here are the pieces: which views a geometry gives, and that pruning and ``blocked``
see a variant's units."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import Budget, Grid, Shape, Status, count, example, solutions, solve, variants
from sudokit.examples import EXAMPLES
from sudokit.geometry import Geometry
from sudokit.methods import wholemeal

import reference_variants as ref
from conftest import load_counts, load_multisize
from reference import reference_count
from puzzles import (check_against_reference, check_count, check_multisize_solution, check_named_example, clues,
                     small_puzzles)

METHODS = ("wholemeal", "wholemeal-first")


# -- the pieces of the pearl ---------------------------------------------------


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2), (3, 3), (3, 5), (4, 4)])
def test_views_are_involutions_and_match_the_units(box: tuple[int, int]) -> None:
    shape = Shape(*box)
    n = shape.size
    m = [[(r * n + c,) for c in range(n)] for r in range(n)]
    for view, units in ((wholemeal.rows, shape.rows), (wholemeal.cols, shape.cols), (wholemeal.boxs, shape.boxes)):
        assert view(view(m, shape), shape) == m
        assert [[cs[0] for cs in row] for row in view(m, shape)] == [list(u) for u in units]


def test_blocked_sees_void_and_unsafe_matrices() -> None:
    shape = Shape(2, 2)
    m = wholemeal.choices(Grid.empty(shape))
    assert not wholemeal.blocked(m, shape)
    void = [row[:] for row in m]
    void[3][3] = ()
    assert wholemeal.blocked(void, shape)
    unsafe = [row[:] for row in m]
    unsafe[0][0], unsafe[1][1] = (2,), (2,)  # same box, different row and column
    assert wholemeal.blocked(unsafe, shape)


def test_a_geometry_gives_birds_views_for_the_shapes_units_and_its_other_units_as_they_are() -> None:
    layout = "1112 1222 3444 3334"
    bird = (wholemeal.rows, wholemeal.cols, wholemeal.boxs)
    assert wholemeal.views(Geometry.of(Shape(3, 3))) == bird
    x = variants.x("2x2")
    assert wholemeal.views(x) == bird + (x.units[-2:],)
    jigsaw = variants.jigsaw(None, layout)
    assert wholemeal.views(jigsaw) == bird[:2] + (tuple(jigsaw.units[u] for u in jigsaw.boxes),)
    hyper = variants.hyper()
    assert wholemeal.views(hyper) == bird + (hyper.units[27:31], hyper.units[31:])


@pytest.mark.parametrize("method", METHODS)
def test_the_diagonals_prune_and_block(method: str) -> None:
    corner = Grid.empty((2, 2)).place(0, 0, 1)  # r3c3 shares no row, column or box with r1c1
    x = corner.with_geometry(variants.x("2x2"))
    assert wholemeal.fix(wholemeal.prune, wholemeal.choices(corner), corner.geometry)[2][2] == (1, 2, 3, 4)
    assert wholemeal.fix(wholemeal.prune, wholemeal.choices(x), x.geometry)[2][2] == (2, 3, 4)
    clash = wholemeal.choices(Grid.empty().place(0, 0, 5).place(8, 8, 5))
    assert not wholemeal.blocked(clash, Shape(3, 3)) and wholemeal.blocked(clash, variants.x())
    assert count(x.place(2, 2, 1), 2, method=method).status is Status.INVALID
    for line in ("...4.3.....2....", "1.............24"):  # the reference counts 3+ and 0, 3+ and 1
        grid = Grid(line, (2, 2))
        for geo in (grid.geometry, x.geometry):
            expected = ref.count(4, [list(u) for u in geo.units], list(grid.values), limit=3)[0]
            assert count(grid.with_geometry(geo), 3, method=method).count == expected, (line, geo)


def test_prune_units_reduces_overlapping_units_in_turn() -> None:
    centre = [[(1, 2, 3)] * 3 for _ in range(3)]
    centre[0][0], centre[0][2] = (1,), (2,)
    pruned = wholemeal.prune_units(variants.diagonals(Shape(1, 3)), centre)
    assert pruned[1][1] == (3,) and pruned[2][2] == (2, 3) and pruned[2][0] == (1, 3)


def test_deduce_on_a_variant_keeps_its_geometry() -> None:
    geo = variants.jigsaw(None, "1112 1222 3444 3334")
    grid = Grid("1..4..2..3..3..2", geometry=geo)
    found, truth = ref.count(4, [list(u) for u in geo.units], list(grid.values), limit=2)
    assert found == 1
    partial = wholemeal.deduce(grid, Budget())  # the regions' singles alone fill it
    assert partial.geometry == geo and list(partial.values) == truth
    assert [s.geometry for s in solutions(grid, method="wholemeal")] == [geo]


def test_prune_alone_solves_easy_but_not_diabolical() -> None:
    for name, solved in (("easy", True), ("diabolical", False)):
        grid = example(name)
        partial = wholemeal.deduce(grid, Budget())
        _, truth = reference_count(list(grid.values), 3, 3)
        assert all(v == 0 or v == t for v, t in zip(partial.values, truth))
        assert partial.is_complete is solved


# -- examples, counts, other sizes ------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_named_examples(method: str, name: str) -> None:
    if method == "wholemeal-first" and name == "minimal":
        pytest.skip("the first-open-cell expansion needs about 6,400 nodes (20 s) here; see test_minimal_first")
    check_named_example(name, method)


_COUNTS = load_counts()


# Pruning by naked singles alone needs thousands of nodes (seconds each batch) on the
# 17-23 clue puzzles; those run in the slow suite.
_FAST_COUNTS = [
    row for row in _COUNTS
    if clues(row["puzzle"]) >= 24 or clues(row["puzzle"]) == 0 or Grid(row["puzzle"]).conflicts()
]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("row", _FAST_COUNTS, ids=lambda r: f"{r['count']}:{r['puzzle'][:12]}")
def test_counts(row: dict[str, str], method: str) -> None:
    check_count(row, method)


@pytest.mark.slow
@pytest.mark.parametrize(
    "row", [r for r in _COUNTS if r not in _FAST_COUNTS], ids=lambda r: f"{r['count']}:{r['puzzle'][:12]}"
)
def test_counts_hard(row: dict[str, str]) -> None:
    check_count(row, "wholemeal")


#: The uniquely solvable multisize entries below 15x15: on the 15x15 and 16x16 ones naked-single
#: pruning alone is too weak (22,336 nodes in 60 s on the 15x15 entry; no first solution within 60 s
#: of wall time either), so they are not asked of this method.
_MULTI = [e for e in load_multisize() if e["count"] in (1, "1") and e["size"] < 15]


@pytest.mark.parametrize("entry", _MULTI, ids=lambda e: e["name"])
def test_multisize(entry: dict) -> None:
    check_multisize_solution(entry, "wholemeal")


# -- random small puzzles -----------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.sampled_from(METHODS))
def test_random_small_puzzles_match_the_reference(case: tuple[list[int], int, int], method: str) -> None:
    check_against_reference(case, method)


# -- fewest versus first, and the budget ---------------------------------------------------


def test_fewest_and_first_find_the_same_solutions() -> None:
    puzzle = Grid.empty((2, 2))
    assert set(solutions(puzzle, method="wholemeal")) == set(solutions(puzzle, method="wholemeal-first"))
    assert len(set(solutions(puzzle, method="wholemeal"))) == 288  # the number of 4x4 grids
    for name in ("gentle", "diabolical", "unsolvable"):
        grid = example(name)
        assert list(solutions(grid, method="wholemeal")) == list(solutions(grid, method="wholemeal-first"))


def test_expansion_order_changes_the_node_count() -> None:
    """Measured, not asserted in a direction: on 'diabolical' Bird's fewest-choices
    expansion takes 27 nodes and the first-open-cell expansion 20; on 'minimal'
    fewest takes 936 and first 6389."""
    fewest = solve(example("diabolical"), method="wholemeal")
    first = solve(example("diabolical"), method="wholemeal-first")
    assert fewest.solution == first.solution
    assert fewest.nodes != first.nodes
    assert fewest.guesses > 0 and first.guesses > 0


def test_a_tiny_node_limit_gives_timeout() -> None:
    result = solve(example("minimal"), method="wholemeal", nodes=3)
    assert result.status is Status.TIMEOUT and "node limit" in result.message
    result = count(Grid.empty(), 100, method="wholemeal-first", nodes=50)
    assert result.status is Status.TIMEOUT


@pytest.mark.slow
def test_minimal_first() -> None:
    grid = example("minimal")
    _, truth = reference_count(list(grid.values), 3, 3)
    assert list(solve(grid, method="wholemeal-first").solution.values) == truth
