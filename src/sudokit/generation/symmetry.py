"""Symmetries of a clue pattern, and the orbits of cells they make.

A generator that keeps a pattern symmetric takes clues away one *orbit* at a
time: the set of cells a cell visits under every map of the symmetry group.

=============  ==================================================  ============
name           maps                                                 shapes
=============  ==================================================  ============
``none``       identity                                             all
``rotate180``  half turn about the centre                           all
``mirror``     left-right reflection                                all
``flip``       top-bottom reflection                                all
``rotate90``   quarter turns                                        square boxes
``diagonal``   reflection in the main diagonal (r1c1 to rNcN)       square boxes
``dihedral``   all eight rotations and reflections of the square    square boxes
=============  ==================================================  ============

A quarter turn or a diagonal reflection maps a box of R rows and C columns
onto a box of C rows and R columns, so for R != C the turned pattern no longer
lines up with the boxes; those symmetries are refused for such shapes.

>>> from sudokit.grid import Shape
>>> len(orbits(Shape(3, 3), "none")), len(orbits(Shape(3, 3), "rotate180"))
(81, 41)
>>> len(orbits(Shape(3, 3), "dihedral"))
15
>>> orbits(Shape(2, 2), "rotate90")[0]
(0, 3, 12, 15)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable

from ..errors import SudokuError
from ..grid import Grid, Shape

SYMMETRIES: tuple[str, ...] = ("none", "rotate180", "rotate90", "mirror", "flip", "diagonal", "dihedral")

#: Symmetries that need square boxes.
SQUARE_ONLY = frozenset({"rotate90", "diagonal", "dihedral"})


class SymmetryError(SudokuError, ValueError):
    """An unknown symmetry, or one the shape's geometry does not allow."""


Map = Callable[[int, int, int], tuple[int, int]]


def _maps(name: str) -> tuple[Map, ...]:
    """The group's maps of (row, col) in an n x n grid, identity first."""
    ident: Map = lambda r, c, n: (r, c)
    rot180: Map = lambda r, c, n: (n - 1 - r, n - 1 - c)
    rot90: Map = lambda r, c, n: (c, n - 1 - r)
    rot270: Map = lambda r, c, n: (n - 1 - c, r)
    mirror: Map = lambda r, c, n: (r, n - 1 - c)
    flip: Map = lambda r, c, n: (n - 1 - r, c)
    diag: Map = lambda r, c, n: (c, r)
    anti: Map = lambda r, c, n: (n - 1 - c, n - 1 - r)
    return {
        "none": (ident,),
        "rotate180": (ident, rot180),
        "rotate90": (ident, rot90, rot180, rot270),
        "mirror": (ident, mirror),
        "flip": (ident, flip),
        "diagonal": (ident, diag),
        "dihedral": (ident, rot90, rot180, rot270, mirror, flip, diag, anti),
    }[name]


def check(shape: Shape, name: str) -> str:
    """``name`` when it is a known symmetry that ``shape`` allows; else SymmetryError.

    >>> check(Shape(2, 3), "rotate90")
    Traceback (most recent call last):
    ...
    sudokit.generation.symmetry.SymmetryError: symmetry 'rotate90' needs square boxes; a 2x3 box turns into a 3x2 box. Use one of: none, rotate180, mirror, flip
    """
    if name not in SYMMETRIES:
        raise SymmetryError(f"unknown symmetry {name!r}; choose one of: {', '.join(SYMMETRIES)}")
    if name in SQUARE_ONLY and shape.box_rows != shape.box_cols:
        allowed = ", ".join(s for s in SYMMETRIES if s not in SQUARE_ONLY)
        raise SymmetryError(
            f"symmetry {name!r} needs square boxes; a {shape.box_rows}x{shape.box_cols} box turns "
            f"into a {shape.box_cols}x{shape.box_rows} box. Use one of: {allowed}"
        )
    return name


@lru_cache(maxsize=None)
def orbits(shape: Shape, name: str) -> tuple[tuple[int, ...], ...]:
    """The cells grouped into orbits, each sorted, ordered by their first cell."""
    check(shape, name)
    n = shape.size
    maps = _maps(name)
    seen = [False] * (n * n)
    result = []
    for cell in range(n * n):
        if seen[cell]:
            continue
        r, c = divmod(cell, n)
        orbit = sorted({rr * n + cc for rr, cc in (m(r, c, n) for m in maps)})
        for o in orbit:
            seen[o] = True
        result.append(tuple(orbit))
    return tuple(result)


def is_symmetric(cells: "Grid | Iterable[int]", name: str, shape: Shape | None = None) -> bool:
    """True when the set of clue cells is a union of orbits of ``name``.

    >>> g = Grid.empty((2, 2)).with_cell(0, 1).with_cell(15, 2)
    >>> is_symmetric(g, "rotate180"), is_symmetric(g, "mirror")
    (True, False)
    """
    if isinstance(cells, Grid):
        shape = cells.shape
        clue_cells = set(cells.givens)
    else:
        if shape is None:
            raise ValueError("give the shape with a set of cells")
        clue_cells = set(cells)
    return all(
        all(c in clue_cells for c in orbit) or not any(c in clue_cells for c in orbit)
        for orbit in orbits(shape, name)
    )
