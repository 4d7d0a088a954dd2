"""Variant geometries (sudokit.variants) against units written from the rules and the reference solver.

The truth here is tests/reference_variants.py, which shares no code with
sudokit: its units come from the published rules, and its backtracking
solver counts solutions. The X and windoku puzzles are the shared data's
(x_dev.tsv, hyper_dev.tsv: made by an independent CP-SAT model, unique
under their variant's rules); the jigsaw layouts are drawn here by hand.
"""

from __future__ import annotations

import csv
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference_variants as ref
from conftest import RATED, require_shared

from sudokit.errors import ShapeError
from sudokit.geometry import BOX, COLUMN, ROW, Geometry, Shape
from sudokit.variants import (
    DIAGONAL,
    HIDDEN_WINDOW,
    WINDOW,
    LayoutError,
    combine,
    describe,
    hyper,
    is_jigsaw,
    jigsaw,
    layout,
    of,
    parse,
    read_layout,
    x,
)

SHAPES = [(1, 2), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 4)]

#: 9x9: the boxes, with r3c3/r4c1 traded between boxes 1 and 4, and r5c6/r6c7 between 5 and 6.
JIGSAW9 = """
111222333
111222333
114222333
144555666
444556666
444555566
777888999
777888999
777888999
"""
#: 6x6: the 2x3 boxes, with r2c1/r3c3 traded between boxes 1 and 3.
JIGSAW6 = """
111222
311222
331444
333444
555666
555666
"""


def unit_sets(units) -> set[frozenset[int]]:
    return {frozenset(u) for u in units}


def kinds(geo: Geometry, kind: int) -> set[frozenset[int]]:
    return unit_sets(geo.units[u] for u in geo.of_kind(kind))


def digits(text: str) -> list[int]:
    return [0 if ch in ".0" else int(ch) for ch in text]


def rated(name: str, rows: slice) -> list[dict[str, str]]:
    path = require_shared(RATED / name)
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))[rows]


# -- X ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rows, cols", SHAPES)
def test_x_is_rows_columns_boxes_and_the_two_diagonals(rows, cols):
    shape = Shape(rows, cols)
    n = shape.size
    geo = x(shape)
    assert kinds(geo, ROW) == unit_sets(ref.rows(n))
    assert kinds(geo, COLUMN) == unit_sets(ref.columns(n))
    assert kinds(geo, BOX) == unit_sets(ref.boxes(rows, cols))
    assert kinds(geo, DIAGONAL) == unit_sets(ref.diagonals(n))
    for cell in range(n * n):  # the first three units of a cell stay its row, column and box
        row, col, box = geo.units_of[cell][:3]
        assert cell in geo.units[row] and geo.kind[row] == ROW
        assert cell in geo.units[col] and geo.kind[col] == COLUMN
        assert cell in geo.units[box] and geo.kind[box] == BOX
        expected = set()
        for unit in ref.rows(n) + ref.columns(n) + ref.boxes(rows, cols) + ref.diagonals(n):
            if cell in unit:
                expected.update(unit)
        assert set(geo.peers[cell]) == expected - {cell}


def test_x_names_and_peers_on_9x9():
    geo = x()
    assert geo.unit_names[27:] == ("diagonal 1", "diagonal 2")
    assert len(geo.peers[0]) == 20 + 6 and len(geo.peers[40]) == 20 + 12 and len(geo.peers[1]) == 20
    assert pickle.loads(pickle.dumps(geo)) == geo and hash(x()) == hash(geo)


def test_x_puzzles_from_the_shared_data_are_unique_under_the_x_geometry():
    """The X geometry's units give each puzzle one solution, and it obeys both diagonals."""
    geo = x()
    for row in rated("x_dev.tsv", slice(0, 3)) + rated("x_dev.tsv", slice(-60, None, 12)):
        givens = digits(row["puzzle"])
        count, solution = ref.count(9, geo.units, givens)
        assert count == 1, row["puzzle"]
        assert ref.obeys(solution, 9, ref.rows(9) + ref.columns(9) + ref.boxes(3, 3) + ref.diagonals(9))
        assert all(g in (0, v) for g, v in zip(givens, solution))
    for row in rated("x_dev.tsv", slice(0, 3)):  # minimal: without the diagonals they have more solutions
        assert ref.count(9, Geometry.of(Shape(3, 3)).units, digits(row["puzzle"]))[0] == 2


# -- hyper -----------------------------------------------------------------------------


def test_hyper_windows_and_hidden_windows():
    geo = hyper()
    assert kinds(geo, WINDOW) == unit_sets(ref.windows())
    assert kinds(geo, WINDOW) | kinds(geo, HIDDEN_WINDOW) == unit_sets(ref.window_groups())
    assert len(geo.of_kind(HIDDEN_WINDOW)) == 5 and len(geo.units) == 27 + 9
    assert geo.unit_name(27) == "window 1" and geo.unit_name(31) == "hidden window 1"
    without = hyper(hidden=False)
    assert len(without.units) == 31 and not without.of_kind(HIDDEN_WINDOW)


@pytest.mark.parametrize("shape", ["2x2", "2x3", "4x4", "3x4"])
def test_hyper_is_9x9_only(shape):
    with pytest.raises(ShapeError, match="9x9"):
        hyper(shape)


def test_the_four_windows_force_the_hidden_ones():
    """Every solution found with only the four windows keeps the five hidden windows too."""
    units = ref.rows(9) + ref.columns(9) + ref.boxes(3, 3) + ref.windows()
    rng = random.Random(17)
    for _ in range(4):
        givens = [0] * 81
        count, solution = ref.count(9, units, givens, limit=1)
        assert count == 1
        keep = rng.sample(range(81), 12)  # a sparse puzzle of many solutions, from a valid grid
        sparse = [solution[c] if c in keep else 0 for c in range(81)]
        found = ref.solutions(9, units, sparse, limit=15)
        assert len(found) == 15
        for solution in found:
            assert ref.obeys(solution, 9, ref.window_groups())


def test_hyper_puzzles_from_the_shared_data_agree_with_and_without_the_hidden_windows():
    geo = hyper()
    four = ref.rows(9) + ref.columns(9) + ref.boxes(3, 3) + ref.windows()
    for row in rated("hyper_dev.tsv", slice(-60, None, 6)):
        givens = digits(row["puzzle"])
        count, solution = ref.count(9, geo.units, givens)
        assert count == 1, row["puzzle"]
        assert ref.count(9, four, givens) == (1, solution)
        assert ref.obeys(solution, 9, four + ref.window_groups())


# -- jigsaw ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [JIGSAW9, JIGSAW6])
def test_jigsaw_regions_replace_the_boxes(text):
    flat = "".join(text.split())
    geo = jigsaw(None, text)
    n = geo.n
    assert kinds(geo, ROW) == unit_sets(ref.rows(n)) and kinds(geo, COLUMN) == unit_sets(ref.columns(n))
    assert kinds(geo, BOX) == unit_sets(ref.regions_of(flat))
    assert len(geo.units) == 3 * n and is_jigsaw(geo)
    for cell in range(n * n):
        region = geo.units_of[cell][BOX]
        assert geo.kind[region] == BOX and cell in geo.units[region]
        assert set(geo.units[region]) == set(next(r for r in ref.regions_of(flat) if cell in r))
    assert geo.unit_name(geo.boxes[0]) == "region 1"
    assert jigsaw(None, layout(geo)) == geo  # the layout string round-trips
    relabelled = flat.translate(str.maketrans("123456789", "ihgfedcba"))
    assert jigsaw(None, relabelled) == geo  # the letters do not matter, only the regions
    assert pickle.loads(pickle.dumps(geo)) == geo


def test_a_jigsaw_of_the_shapes_own_boxes_is_no_jigsaw():
    geo = jigsaw("3x3", layout(Geometry.of(Shape(3, 3))))
    assert not is_jigsaw(geo) and geo is Geometry.of(Shape(3, 3)) and combine(geo) is geo
    assert jigsaw("2x3", "aaabbb aaabbb cccddd cccddd eeefff eeefff") is Geometry.of(Shape(2, 3))


def test_a_hand_made_jigsaw_puzzle_has_one_solution_under_its_regions():
    """A puzzle cut from a solution of the 6x6 jigsaw by the reference alone; the geometry agrees."""
    flat = "".join(JIGSAW6.split())
    units = ref.rows(6) + ref.columns(6) + ref.regions_of(flat)
    count, full = ref.count(6, units, [0] * 36, limit=1)
    givens = list(full)
    for cell in random.Random(6).sample(range(36), 36):
        trial = list(givens)
        trial[cell] = 0
        if ref.count(6, units, trial)[0] == 1:
            givens = trial
    geo = jigsaw(None, JIGSAW6)
    assert ref.count(6, geo.units, givens) == (1, full)
    both = combine(geo, x(geo.shape))  # jigsaw-X: the same puzzle, with the diagonals as units
    assert unit_sets(both.units) == unit_sets(units + ref.diagonals(6))
    assert ref.count(6, both.units, givens)[0] == (1 if ref.obeys(full, 6, ref.diagonals(6)) else 0)


@pytest.mark.parametrize(
    "text, size, message, cell",
    [
        ("1" * 80, 9, "81 characters, one per cell; got 80", None),
        ("12" * 40 + "1", None, "needs 9 regions; the layout has 2", None),
        ("1111 1222 3334 3444".replace("1111", "1112").replace("1222", "1122"), None, "region '1' has 5 cells", 0),
        ("1221 1221 3344 3344", None, "region '1' is not connected", 3),
        ("1234 1234 1234 1234", 4, None, None),  # columns as regions: valid
        ("11x", None, "3 is not a square", None),
    ],
)
def test_jigsaw_layouts_are_checked(text, size, message, cell):
    shape = None if size is None else Shape.for_size(size)
    if message is None:
        assert len(jigsaw(shape, text).boxes) == 4
        return
    with pytest.raises(LayoutError, match=message) as caught:
        jigsaw(shape, text)
    assert caught.value.cell == cell
    assert isinstance(caught.value, ShapeError)


@st.composite
def walked_layouts(draw, n: int = 4):
    """4x4 layouts: a random walk over valid ones (swaps of two cells that the reference accepts),
    from the boxes, rows or columns; then maybe one unchecked swap or move, which may break it."""
    owner = list(draw(st.sampled_from(["aabbaabbccddccdd", "aaaabbbbccccdddd", "abcdabcdabcdabcd"])))
    for _ in range(draw(st.integers(0, 12))):
        a, b = draw(st.integers(0, n * n - 1)), draw(st.integers(0, n * n - 1))
        trial = list(owner)
        trial[a], trial[b] = trial[b], trial[a]
        if ref.layout_ok("".join(trial), n):
            owner = trial
    change = draw(st.sampled_from(["none", "swap", "move"]))
    a, b = draw(st.integers(0, n * n - 1)), draw(st.integers(0, n * n - 1))
    if change == "swap":
        owner[a], owner[b] = owner[b], owner[a]
    elif change == "move":
        owner[a] = owner[b]
    return "".join(owner)


@settings(max_examples=300, deadline=None)
@given(st.one_of(walked_layouts(), st.text("abcd", min_size=16, max_size=16), st.text("ab", min_size=15, max_size=17)))
def test_layout_checks_agree_with_the_reference(text):
    if ref.layout_ok(text, 4):
        geo = jigsaw(Shape(2, 2), text)
        assert kinds(geo, BOX) == unit_sets(ref.regions_of(text))
    else:
        with pytest.raises(LayoutError):
            jigsaw(Shape(2, 2), text)


def test_a_layout_error_names_the_cells():
    with pytest.raises(LayoutError) as caught:
        read_layout("1221 1221 3344 3344")
    assert "r1c1 r2c1" in str(caught.value) and "r1c4 r2c4" in str(caught.value)
    with pytest.raises(LayoutError, match="region '3' has 3 cells .r3c1 r3c2 r4c1.; each region of a 4x4 needs 4"):
        read_layout("1122 1122 3344 3444")


# -- combinations and names ---------------------------------------------------------------


def test_combinations_add_unit_sets_and_drop_duplicates():
    shape = Shape(3, 3)
    hx = combine(hyper(shape), x(shape))
    assert len(hx.units) == 27 + 2 + 9 and unit_sets(hx.units) == unit_sets(x(shape).units) | unit_sets(hyper(shape).units)
    assert combine(x(shape), x(shape)) == x(shape) and combine(x(shape), hyper(shape)) == hx
    assert combine(Geometry.of(shape)) is Geometry.of(shape)
    jx = combine(jigsaw(shape, JIGSAW9), x(shape))
    assert unit_sets(jx.units) == unit_sets(ref.rows(9) + ref.columns(9) + ref.regions_of("".join(JIGSAW9.split())) + ref.diagonals(9))
    assert describe(jx) == "x,jigsaw" and jx.unit_name(jx.boxes[3]) == "region 4"
    jh = combine(jigsaw(shape, JIGSAW9), hyper(shape))
    assert len(jh.units) == 27 + 9 and describe(jh) == "hyper,jigsaw"
    with pytest.raises(ShapeError, match="two different jigsaw"):
        combine(jigsaw(shape, JIGSAW9), jigsaw(shape, "".join(JIGSAW9.split())[::-1]))
    with pytest.raises(ShapeError, match="a 4x4 geometry with a 9x9 one"):
        combine(x(shape), x(Shape(2, 2)))
    with pytest.raises(ShapeError, match="different box shapes: 2x3, 3x2"):
        combine(x(Shape(2, 3)), x(Shape(3, 2)))
    six = jigsaw(Shape(3, 2), JIGSAW6)  # a jigsaw's regions replace the boxes, whatever their shape
    assert combine(six, x(Shape(2, 3))).units[12:18] == six.units[12:18]


def test_a_unit_kind_that_is_no_variant_is_refused():
    geo = Geometry.of(Shape(2, 2))
    odd = Geometry(geo.shape, geo.units + ((0, 5, 10, 15),), geo.kind + (3,), names=("row", "column", "box", "spiral"))
    with pytest.raises(ShapeError, match="spiral"):
        combine(odd)


@pytest.mark.parametrize(
    "names",
    ["", "x", "hyper", "jigsaw", "killer", "x,hyper", "x,jigsaw", "hyper,jigsaw", "x,hyper,jigsaw", "x,killer", "x,hyper,jigsaw,killer"],
)
def test_describe_and_parse_are_inverse(names):
    shape = Shape(3, 3)
    killer = "killer" in names
    geo = of(shape, names, regions="".join(JIGSAW9.split()) if "jigsaw" in names else None)
    assert describe(geo, killer=killer) == names
    assert parse(names) == (tuple(names.split(",")) if names else ())
    again = of(shape, parse(describe(geo, killer=killer)), regions=layout(geo) if is_jigsaw(geo) else None)
    assert again == geo


def test_parse_reads_aliases_and_refuses_unknown_names():
    assert parse("Windoku + Diagonal, KILLER,x") == ("x", "hyper", "killer")
    assert parse("classic") == ()
    with pytest.raises(ValueError, match="unknown variant 'thermo'"):
        parse("x,thermo")


def test_regions_imply_jigsaw_and_jigsaw_needs_regions():
    flat = "".join(JIGSAW6.split())
    assert of(None, "", regions=flat) == jigsaw(None, flat)
    assert of(None, "x", regions=flat).shape.size == 6
    with pytest.raises(ValueError, match="--regions"):
        of("3x3", "jigsaw")


@pytest.mark.parametrize("shape", ["2x2", "2x3", "3x2", "3x3", "2x4"])
def test_random_layouts_are_valid_solvable_and_the_same_for_a_seed(shape) -> None:
    from sudokit.variants import random_layout

    s = Shape.parse(shape)
    n = s.size
    drawn = [random_layout(shape, seed) for seed in range(8)]
    assert drawn == [random_layout(shape, seed) for seed in range(8)]
    assert len(set(drawn)) > 1
    for layout in drawn:
        assert ref.layout_ok(layout, n)
        units = ref.rows(n) + ref.columns(n) + ref.regions_of(layout)
        if n < 9:  # it has a solution: the reference's plain search is quick below 9x9
            assert ref.count(n, units, [0] * (n * n), limit=1)[0] == 1
        else:  # the engine, checked against the reference's rules
            from sudokit.grid import Grid
            from sudokit.solving import solve

            found = solve(Grid.empty(s).with_geometry(jigsaw(s, layout))).solution
            assert found is not None and ref.obeys(found.values, n, units)
