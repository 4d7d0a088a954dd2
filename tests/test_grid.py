"""Shape geometry and the immutable Grid, checked against tests/reference.py's own geometry."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import units as reference_units

from sudokit.errors import ShapeError
from sudokit.grid import CLASSIC, MAX_SIZE, Grid, Shape, shape_of

SHAPES = [(1, 2), (2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3), (2, 5), (4, 4), (3, 5), (5, 5), (8, 8)]


def latin(shape: tuple[int, int]) -> list[int]:
    """A solved grid by the shifting pattern (valid for every box shape)."""
    r, c = shape
    n = r * c
    return [((row * c + row // r + col) % n) + 1 for row in range(n) for col in range(n)]


@pytest.mark.parametrize("rows, cols", SHAPES)
def test_geometry_matches_the_reference(rows, cols):
    shape = Shape(rows, cols)
    n = rows * cols
    assert shape.size == n and shape.cell_count == n * n
    ours = [sorted(u) for u in shape.units]
    theirs = [sorted(u) for u in reference_units(rows, cols)]
    assert ours == theirs  # rows, then columns, then boxes, in the same order
    assert len(shape.units) == 3 * n and all(len(u) == n for u in shape.units)
    for cell in range(n * n):
        containing = [i for i, u in enumerate(shape.units) if cell in u]
        assert tuple(containing) == shape.units_of[cell]
        assert len(shape.peers[cell]) == 3 * n - rows - cols - 1
        assert cell not in shape.peers[cell]
        assert shape.box_of(cell) == containing[2] - 2 * n
        assert shape.cell(shape.row_of(cell), shape.col_of(cell)) == cell
    # boxes partition the grid
    assert sorted(c for box in shape.boxes for c in box) == list(range(n * n))


def conventional(n: int) -> tuple[int, int]:
    """GUIDE.md: square N -> square boxes; else the most rows R <= sqrt(N) dividing N."""
    best = max(r for r in range(1, n + 1) if n % r == 0 and r * r <= n)
    return best, n // best


@pytest.mark.parametrize("n", range(1, MAX_SIZE + 1))
def test_for_size_convention(n):
    shape = Shape.for_size(n)
    assert (shape.box_rows, shape.box_cols) == conventional(n)
    assert Shape.for_cells(n * n) == shape
    assert shape_of(None, n * n) is shape_of(shape)  # shared instance


def test_named_conventions():
    assert Shape.for_size(9) == Shape(3, 3) == CLASSIC
    assert Shape.for_size(6) == Shape(2, 3)
    assert Shape.for_size(4) == Shape(2, 2)
    assert Shape.for_size(16) == Shape(4, 4)
    assert Shape.for_size(25) == Shape(5, 5)
    assert Shape.for_size(12) == Shape(3, 4)
    assert Shape.parse("3x2") == Shape(3, 2) and Shape.parse("9") == CLASSIC
    assert str(Shape(2, 3)) == "2x3"


@pytest.mark.parametrize("text", ["0x3", "3x", "axb", "9x9", "", "65"])
def test_bad_shapes(text):
    with pytest.raises(ShapeError):
        Shape.parse(text)


def test_bad_cell_counts():
    for count in (0, 80, 82):
        with pytest.raises(ShapeError):
            Shape.for_cells(count)
    with pytest.raises(IndexError):
        CLASSIC.cell(9, 0)


def test_cell_names():
    assert CLASSIC.cell_name(0) == "r1c1"
    assert CLASSIC.cell_name(80) == "r9c9"
    assert Shape(2, 3).cell_name(7) == "r2c2"


# -- Grid ------------------------------------------------------------------------


def test_conflicts_name_the_cells():
    grid = Grid.empty().place(0, 0, 5).place(0, 8, 5).place(2, 2, 5)
    found = {(c.unit, c.value, tuple(CLASSIC.cell_name(x) for x in c.cells)) for c in grid.conflicts()}
    assert found == {("row 1", 5, ("r1c1", "r1c9")), ("box 1", 5, ("r1c1", "r3c3"))}
    messages = [str(c) for c in grid.conflicts()]
    assert "5 appears 2 times in row 1: r1c1, r1c9" in messages
    assert not grid.is_consistent and not grid.is_solved


@pytest.mark.parametrize("shape", SHAPES)
def test_solved_grid(shape):
    grid = Grid(latin(shape), shape)
    assert grid.is_complete and grid.is_solved and grid.conflicts() == ()
    puzzle = Grid([v if i % 2 else 0 for i, v in enumerate(grid.values)], shape)
    assert grid.is_solution_of(puzzle) and not puzzle.is_complete
    other = grid.with_cell(0, grid.values[1])
    assert not other.is_solved and other.conflicts()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SHAPES[:9]), st.data())
def test_candidates_against_brute_force(shape, data):
    n = shape[0] * shape[1]
    values = data.draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    grid = Grid(values, shape)
    rows, cols = shape
    cands = grid.candidates()
    for cell, v in enumerate(values):
        if v:
            assert cands[cell] == {v}
            continue
        r, c = divmod(cell, n)
        seen = set()
        for other, w in enumerate(values):
            r2, c2 = divmod(other, n)
            same_box = r2 // rows == r // rows and c2 // cols == c // cols
            if other != cell and (r2 == r or c2 == c or same_box):
                seen.add(w)
        assert cands[cell] == set(range(1, n + 1)) - seen
    assert grid.candidate_masks() == tuple(sum(1 << (k - 1) for k in s) for s in cands)
    # conflicts: every repeated value in a unit, and nothing else
    repeated = set()
    for unit in reference_units(rows, cols):
        vals = [values[c] for c in unit if values[c]]
        repeated |= {v for v in vals if vals.count(v) > 1}
    assert {c.value for c in grid.conflicts()} == repeated


def test_immutability():
    grid = Grid.empty()
    changed = grid.place(4, 4, 7)
    assert grid[4, 4] == 0 and changed[4, 4] == 7 and changed[40] == 7
    with pytest.raises(TypeError):
        grid[0] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        grid.extra = 1  # type: ignore[attr-defined]
    assert isinstance(grid.values, tuple)
    with pytest.raises(ValueError):
        grid.place(0, 0, 10)


def test_equality_and_hash():
    a = Grid("1.3..2.13....2..")
    b = Grid([1, 0, 3, 0, 0, 2, 0, 1, 3, 0, 0, 0, 0, 2, 0, 0], (2, 2))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != a.with_cell(1, 2)
    wide, tall = Grid([0] * 64, (2, 4)), Grid([0] * 64, (4, 2))
    assert wide != tall  # same values, other boxes
    assert Grid.from_rows([a.row(i) for i in range(4)]) == a
    assert a != "1.3..2.13....2.."


def test_construction_errors():
    with pytest.raises(ShapeError):
        Grid([0] * 80)
    with pytest.raises(ValueError, match="r1c1"):
        Grid([10] + [0] * 80)
    with pytest.raises(ShapeError):
        Grid([0] * 81, (2, 3))


def test_text_and_arrays():
    grid = Grid(latin((2, 3)), (2, 3))
    assert Grid(grid.line(), (2, 3)) == grid
    assert Grid.from_array(grid.to_array(), (2, 3)) == grid
    assert grid.to_array().shape == (6, 6)
    assert "Grid(" in repr(grid) and "2x3" in repr(grid)
    assert str(grid).startswith("+")
    assert grid.clues == 36 and len(grid.givens) == 36
    assert math.isqrt(len(grid)) == 6


# -- one geometry ------------------------------------------------------------------


@pytest.mark.parametrize("rows, cols", SHAPES)
def test_one_geometry_serves_the_shape_and_the_logic(rows, cols):
    from sudokit.geometry import BOX, COLUMN, ROW, Geometry
    from sudokit.logic.state import geometry

    shape = shape_of((rows, cols))
    geo = shape.geometry
    assert geo is Geometry.of(Shape(rows, cols)) is geometry(shape)  # one object, built once
    assert geo.units is shape.units and geo.peers is shape.peers and geo.units_of is shape.units_of
    n = shape.size
    assert geo.kind == (ROW,) * n + (COLUMN,) * n + (BOX,) * n
    assert geo.rows == tuple(range(n)) and geo.cols == tuple(range(n, 2 * n)) and geo.boxes == tuple(range(2 * n, 3 * n))
    assert geo.unit_names[0] == "row 1" and geo.unit_names[-1] == f"box {n}"
    for cell in range(shape.cell_count):
        r, c, b = geo.units_of[cell]
        assert (r, c - n, b - 2 * n) == (shape.row_of(cell), shape.col_of(cell), shape.box_of(cell))
        assert geo.peer_mask[cell] == sum(1 << p for p in geo.peers[cell])
    assert all(geo.unit_mask[u] == sum(1 << c for c in cells) for u, cells in enumerate(geo.units))


def test_a_geometry_takes_extra_units_as_data():
    """What the variants will do: add the two diagonals as units of a new
    kind; peers, masks, names and the candidates follow, nothing else changes."""
    from sudokit.geometry import KIND_NAMES, Geometry
    from sudokit.logic.state import Candidates

    shape = CLASSIC
    base = shape.geometry
    diagonals = (tuple(range(0, 81, 10)), tuple(range(8, 73, 8)))
    geo = Geometry(shape, base.units + diagonals, base.kind + (3, 3), names=KIND_NAMES + ("diagonal",))
    assert geo.unit_names[-2:] == ("diagonal 1", "diagonal 2")
    assert geo.units_of[40] == (4, 13, 22, 27, 28)  # the centre: row, column, box, both diagonals
    assert geo.units_of[1] == base.units_of[1]
    assert len(geo.peers[0]) == 20 + 6 and 80 in geo.peers[0]
    assert geo.of_kind(3) == (27, 28) and geo.boxes == base.boxes
    assert geo == Geometry(shape, base.units + diagonals, base.kind + (3, 3), names=KIND_NAMES + ("diagonal",))
    assert geo != base and hash(geo) != hash(base)
    state = Candidates(geo, [5] + [0] * 80, [0] + [511] * 80)
    state.place(0, 5)
    assert not state.mask[80] & 1 << 4 and state.mask[79] & 1 << 4  # r9c9 sees r1c1 on the diagonal
    with pytest.raises(ShapeError):
        Geometry(shape, base.units + ((0, 1, 2),), base.kind + (0,))  # a unit holds N cells
    with pytest.raises(ShapeError):
        Geometry(shape, base.units + diagonals[:1], base.kind + (7,))  # a kind needs a name


def test_shapes_and_geometries_pickle_to_the_shared_instance():
    import pickle

    from sudokit.geometry import Geometry

    shape = Shape(2, 3)
    shape.peers  # noqa: B018  (the cached tables are not pickled)
    data = pickle.dumps(shape)
    assert len(data) < 100 and pickle.loads(data) is shape_of((2, 3))
    assert pickle.loads(pickle.dumps(CLASSIC.geometry)) is CLASSIC.geometry
    grid = Grid(latin((2, 3)), (2, 3))
    assert pickle.loads(pickle.dumps(grid)) == grid
    extra = Geometry(CLASSIC, CLASSIC.units, CLASSIC.geometry.kind)
    assert pickle.loads(pickle.dumps(extra)) == extra


# -- the line form: Grid(text) and grid.line() ------------------------------------------


def test_grid_reads_its_line_form_and_writes_it_back():
    line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    grid = Grid(line)
    assert grid.line() == line and Grid(grid.line()) == grid
    rows = "\n".join(line[i : i + 9] for i in range(0, 81, 9))
    assert Grid(rows) == grid == Grid(" ".join(line)) == Grid(line.replace(".", "0"))
    assert Grid("\ufeff" + line + "\n") == grid
    hexa = Grid("1" + "." * 255, symbols="0-F")
    assert hexa[0] == 2 and hexa.line("0-F")[0] == "1"
    assert Grid(hexa.line("0-F"), symbols="0-F") == hexa


def test_grid_text_errors_say_where_and_point_to_the_readers():
    from sudokit.errors import ParseError

    with pytest.raises(ParseError, match="line 1, column 3: unexpected character 'x'"):
        Grid("12x" + "." * 78)
    with pytest.raises(ParseError, match="line 2, column 2: unexpected character 'x'"):
        Grid("." * 9 + "\n" + ".x" + "." * 7 + "\n" + "." * 63)
    with pytest.raises(ParseError, match="81 symbols expected for a 9x9 puzzle, got 80"):
        Grid("." * 80)
    boxed = str(Grid.empty((2, 2)))
    with pytest.raises(ParseError, match="sudokit.parse reads every format"):
        Grid(boxed)
    from sudokit.formats import as_grid

    assert as_grid(boxed) == Grid.empty((2, 2)) == as_grid(boxed.encode())


def test_unchecked_is_the_public_fast_constructor():
    grid = Grid.unchecked(CLASSIC, (0,) * 81)
    assert grid == Grid.empty() and grid.shape is CLASSIC
    assert not hasattr(Grid, "_trusted")  # every caller uses the public name


def test_the_model_imports_no_reader():
    """grid, geometry, symbols and svg never import formats, not even inside a
    function: the circle grid <-> formats <-> svg stays gone."""
    import ast
    import pathlib

    import sudokit

    root = pathlib.Path(sudokit.__file__).parent
    allowed = {
        "geometry.py": {"errors", "killer"},  # a geometry carries killer cages
        "killer.py": {"errors"},
        "symbols.py": {"errors", "geometry"},
        "svg.py": {"symbols", "grid", "drawing"},  # grid only for type names
        "drawing.py": {"geometry"},  # only for type names
        "grid.py": {"errors", "geometry", "svg", "symbols", "killer"},  # cage sums in the candidates
    }
    for name, ok in allowed.items():
        tree = ast.parse((root / name).read_text())
        used = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level}
        assert used <= ok, (name, used - ok)


def test_candidates_and_conflicts_follow_a_geometry_with_extra_units():
    from sudokit.errors import InvalidPuzzle
    from sudokit.geometry import KIND_NAMES, Geometry
    from sudokit.logic.state import Candidates

    base = CLASSIC.geometry
    diagonal = (tuple(range(0, 81, 10)),)
    geo = Geometry(CLASSIC, base.units + diagonal, base.kind + (3,), names=KIND_NAMES + ("diagonal",))
    grid = Grid.empty().place(0, 0, 5)
    plain, x = Candidates.from_grid(grid), Candidates.from_grid(grid, geo)
    assert plain.geo is base and x.geo is geo
    assert plain.mask[80] & 1 << 4 and not x.mask[80] & 1 << 4  # r9c9 sees r1c1 on the diagonal
    assert [m for c, m in enumerate(x.mask) if c not in diagonal[0]] == [m for c, m in enumerate(plain.mask) if c not in diagonal[0]]
    clash = grid.place(8, 8, 5)
    assert clash.conflicts() == () and Candidates.from_grid(clash).values[80] == 5
    assert [str(c) for c in clash.conflicts(geo)] == ["5 appears 2 times in diagonal 1: r1c1, r9c9"]
    with pytest.raises(InvalidPuzzle, match="diagonal 1"):
        Candidates.from_grid(clash, geo)
