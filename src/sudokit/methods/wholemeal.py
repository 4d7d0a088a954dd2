"""Wholemeal programming: Bird's Sudoku solver, written with Python generators.

Richard Bird, "A program to solve Sudoku" (Functional Pearl, JFP 2006), and
Graham Hutton's lecture version of it. The grid becomes a *matrix of
choices*: N rows of N cells, each cell a tuple of the values it may still
take (a given is a single choice). Whole rows, columns and boxes are then
treated alike, as rows of some *view* of the matrix:

``prune = pruneBy boxs . pruneBy cols . pruneBy rows``
    where ``pruneBy f = f . map reduce . f``: take the view, remove every
    single's value from the other cells of each of its rows, and take the
    view back (each view is its own inverse).
``fix prune``
    prune again until nothing changes.
``blocked``
    *void* (some cell has no choices) or not *safe* (some row, column, box,
    or other unit of a variant, holds the same single twice).
``search``
    expand one open cell into one matrix per choice, prune each, drop the
    blocked ones and go on. Bird expands a cell with the fewest choices
    (``expand="fewest"``, the default); the simple version in Hutton's
    lectures expands the first open cell (``expand="first"``).

The units come from the grid's geometry (:mod:`sudokit.geometry`), and
:func:`views` reads them kind by kind. A kind whose units are the shape's
rows, columns or boxes goes through Bird's view of them, so a classic
puzzle is pruned exactly as in the pearl. Any other kind is pruned unit by
unit, ``reduce`` on each unit's cells (:func:`prune_units`). A jigsaw's
regions replace ``boxs`` so: read as rows they are no view that is its own
inverse, and for units that do not overlap, reducing them in turn is
``pruneBy`` itself. A variant's extra units come after them (the diagonals
of X, the windows of hyper); they need not cover the grid and may overlap
(the two diagonals of an odd size share the centre), so they make no view
at all. ``safe`` checks every unit of the geometry.

Haskell's lazy lists become Python generators, so the first solution
arrives without the others being computed.

>>> from sudokit.budget import Budget
>>> from sudokit.grid import Grid
>>> puzzle = Grid("1.3.....2...4..1", shape=(2, 2))
>>> [g.line() for g in solutions(puzzle, Budget())]
['1234341221434321', '1432321421434321']
>>> m = choices(puzzle)
>>> m[0]
[(1,), (1, 2, 3, 4), (3,), (1, 2, 3, 4)]
>>> fix(prune, m, puzzle.shape)[0]
[(1,), (2, 4), (3,), (2, 4)]

The 4x4 grids: 288 of them, 48 under X (the two diagonals too), and 144 with
the regions of a jigsaw:

>>> from sudokit import variants
>>> blank = Grid.empty((2, 2))
>>> [sum(1 for _ in solutions(blank.with_geometry(geo), Budget()))
...  for geo in (None, variants.x("2x2"), variants.jigsaw(None, "1112 1222 3444 3334"))]
[288, 48, 144]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterator, Literal, Union

from ..budget import Budget
from ..errors import Contradiction
from ..geometry import Geometry
from ..grid import Grid, Shape

#: The values a cell may still take.
Choices = tuple[int, ...]
#: N rows of N cells of choices.
Matrix = list[list[Choices]]
#: A view of a matrix: rows, columns or boxes as the rows of a new matrix.
View = Callable[[Matrix, Shape], Matrix]
#: Units as cells 0..N²-1 (from a geometry): one kind of them.
Units = tuple[tuple[int, ...], ...]
#: The units of a puzzle: a shape's rows, columns and boxes, or a variant's geometry.
Where = Union[Shape, Geometry]

Expand = Literal["fewest", "first"]


# -- the matrix of choices ---------------------------------------------------


def choices(grid: Grid) -> Matrix:
    """A single choice for a given, every value for a blank."""
    n = grid.size
    every = tuple(range(1, n + 1))
    return [[(v,) if v else every for v in grid.row(r)] for r in range(n)]


def single(cs: Choices) -> bool:
    return len(cs) == 1


def geometry(where: Where) -> Geometry:
    """The units: a shape's rows, columns and boxes, or a variant's geometry."""
    return where if isinstance(where, Geometry) else where.geometry


def collapse(m: Matrix, where: Where) -> Grid:
    """The grid of a matrix in which every cell is a single choice."""
    geo = geometry(where)
    return Grid.unchecked(geo.shape, tuple(cs[0] for row in m for cs in row), geo)


# -- views: rows, columns and boxes as rows; the units of a geometry ------------


def rows(m: Matrix, shape: Shape) -> Matrix:
    return m


def cols(m: Matrix, shape: Shape) -> Matrix:
    return [list(col) for col in zip(*m)]


def boxs(m: Matrix, shape: Shape) -> Matrix:
    """Each R x C box, read row by row, becomes one row.

    With N/C = R boxes across and N/R = C boxes down this is its own inverse
    for every box shape, just as Bird's ``boxs . boxs = id`` for 3x3.

    >>> s = Shape(2, 3)
    >>> m = [[(6 * r + c,) for c in range(6)] for r in range(6)]
    >>> boxs(m, s)[1]
    [(3,), (4,), (5,), (9,), (10,), (11,)]
    >>> boxs(boxs(m, s), s) == m
    True
    """
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    return [
        [m[band * br + r][stack * bc + c] for r in range(br) for c in range(bc)]
        for band in range(n // br)
        for stack in range(n // bc)
    ]


@lru_cache(maxsize=256)
def views(geo: Geometry) -> tuple[View | Units, ...]:
    """Each kind of unit of ``geo``, in order: Bird's view when its units are
    the shape's rows, columns or boxes, else the units themselves.

    >>> from sudokit import variants
    >>> views(Shape(2, 2).geometry) == (rows, cols, boxs)
    True
    >>> views(variants.x("2x2"))[3]
    ((0, 5, 10, 15), (3, 6, 9, 12))
    """
    shape = geo.shape
    bird = {shape.rows: rows, shape.cols: cols, shape.boxes: boxs}
    kinds = sorted(set(geo.kind))
    units = [tuple(geo.units[u] for u in geo.of_kind(kind)) for kind in kinds]
    return tuple(bird.get(us, us) for us in units)


# -- pruning -----------------------------------------------------------------


def reduce(row: list[Choices]) -> list[Choices]:
    """Remove the values of the row's singles from its other cells.

    >>> reduce([(1, 2), (2,), (2, 3, 4)])
    [(1,), (2,), (3, 4)]
    """
    singles = {cs[0] for cs in row if len(cs) == 1}
    return [
        cs if len(cs) == 1 or singles.isdisjoint(cs) else tuple([v for v in cs if v not in singles])
        for cs in row
    ]


def prune_by(view: View, m: Matrix, shape: Shape) -> Matrix:
    """``pruneBy f = f . map reduce . f``."""
    return view([reduce(row) for row in view(m, shape)], shape)


def prune_units(units: Units, m: Matrix) -> Matrix:
    """``reduce`` on each unit's cells in turn, for units that make no view.

    The main diagonal of a 2x2 matrix, cells 0 and 3:

    >>> prune_units(((0, 3),), [[(1,), (1, 2)], [(1, 2), (1, 2)]])
    [[(1,), (1, 2)], [(1, 2), (2,)]]
    """
    n = len(m)
    m = [list(row) for row in m]
    for unit in units:
        for cell, cs in zip(unit, reduce([m[c // n][c % n] for c in unit])):
            m[cell // n][cell % n] = cs
    return m


def prune(m: Matrix, where: Where) -> Matrix:
    """``prune = pruneBy boxs . pruneBy cols . pruneBy rows``; a variant's
    other units (regions, diagonals, windows) by :func:`prune_units`."""
    geo = geometry(where)
    for view in views(geo):
        m = prune_by(view, m, geo.shape) if callable(view) else prune_units(view, m)
    return m


def fix(f: Callable[[Matrix, Where], Matrix], m: Matrix, where: Where) -> Matrix:
    """Apply ``f`` until the matrix stops changing."""
    while True:
        m2 = f(m, where)
        if m2 == m:
            return m
        m = m2


# -- blocked matrices ----------------------------------------------------------


def void(m: Matrix) -> bool:
    """Some cell has no choices left."""
    return any(not cs for row in m for cs in row)


def consistent(row: list[Choices]) -> bool:
    """No value is a single twice in the row."""
    singles = [cs[0] for cs in row if single(cs)]
    return len(singles) == len(set(singles))


def safe(m: Matrix, where: Where) -> bool:
    """Every unit (row, column, box, and a variant's others) is consistent."""
    n = len(m)
    return all(consistent([m[c // n][c % n] for c in unit]) for unit in geometry(where).units)


def blocked(m: Matrix, where: Where) -> bool:
    return void(m) or not safe(m, where)


# -- search --------------------------------------------------------------------


def expand(m: Matrix, how: Expand = "fewest") -> Iterator[Matrix]:
    """One matrix per choice of one open cell (the fewest choices, or the first).

    >>> [m2[0] for m2 in expand([[(1, 2), (3,)], [(2,), (1, 2, 3)]])]
    [[(1,), (3,)], [(2,), (3,)]]
    """
    open_cells = [(r, c) for r, row in enumerate(m) for c, cs in enumerate(row) if not single(cs)]
    if how == "first":
        r, c = open_cells[0]
    elif how == "fewest":
        r, c = min(open_cells, key=lambda rc: len(m[rc[0]][rc[1]]))
    else:
        raise ValueError(f"expand must be 'fewest' or 'first', not {how!r}")
    for v in m[r][c]:
        row = list(m[r])
        row[c] = (v,)
        yield m[:r] + [row] + m[r + 1 :]


def search(m: Matrix, where: Where, budget: Budget, how: Expand = "fewest") -> Iterator[Grid]:
    """Every solution below the (already pruned) matrix ``m``, lazily."""
    budget.tick()
    if blocked(m, where):
        return
    if all(single(cs) for row in m for cs in row):
        yield collapse(m, where)
        return
    budget.guess()
    for m2 in expand(m, how):
        yield from search(fix(prune, m2, where), where, budget, how)


def solutions(grid: Grid, budget: Budget, expand: Expand = "fewest") -> Iterator[Grid]:
    """``solve = search . fix prune . choices``, lazily."""
    geo = grid.geometry
    yield from search(fix(prune, choices(grid), geo), geo, budget, expand)


def deduce(grid: Grid, budget: Budget, expand: Expand = "fewest") -> Grid:
    """What ``fix prune`` alone fixes: every single placed, the rest blank.

    Raises Contradiction when the pruned matrix is blocked.
    """
    budget.tick()
    m = fix(prune, choices(grid), grid.geometry)
    if blocked(m, grid.geometry):
        raise Contradiction("pruning leaves a cell with no choices or a value twice in a unit")
    return grid.like(tuple(cs[0] if single(cs) else 0 for row in m for cs in row))
