"""What a picture of a grid draws besides its digits, from the grid's geometry.

The SVG (:mod:`sudokit.svg`) and the PDF (:mod:`sudokit.pictures.pdf`) draw
the same things: thick lines where two cells lie in different boxes or jigsaw
regions (and round the grid), thin lines elsewhere, the windows of a hyper
puzzle shaded, the diagonals of an X puzzle, and a killer's cages as dotted
outlines inset in their cells with the total in the corner of each cage's
first cell. This module says which, once, from the units and cages; the
renderers only place them on their page. It reads the geometry through its
public attributes and imports nothing else of sudokit.

>>> from sudokit import variants
>>> m = marks(variants.x("2x2"))
>>> m.diagonals, m.thick_right(0, 1), m.thick_right(0, 0), m.shaded
((True, True), True, False, ())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .geometry import Geometry

#: The fill of a hyper window's cells.
WINDOW_SHADE = "#e4e4e4"
#: The colour of an X puzzle's diagonals.
DIAGONAL_COLOUR = "#b0b0b0"
#: The colour of a killer cage's dotted outline and of its total.
CAGE_COLOUR = "#303030"
#: How far a cage's outline lies inside its cells, as a fraction of a cell.
CAGE_INSET = 0.08


@dataclass(frozen=True)
class Marks:
    """The region of every cell, the shaded cells and which diagonals to draw."""

    n: int
    region: tuple[int, ...]
    shaded: tuple[int, ...]
    diagonals: tuple[bool, bool]  #: (main r1c1..rNcN, anti r1cN..rNc1)

    def thick_right(self, row: int, col: int) -> bool:
        """Whether the line right of cell (row, col) is a border (col N-1: the grid's edge)."""
        return col == self.n - 1 or self.region[row * self.n + col] != self.region[row * self.n + col + 1]

    def thick_below(self, row: int, col: int) -> bool:
        """Whether the line below cell (row, col) is a border (row N-1: the grid's edge)."""
        return row == self.n - 1 or self.region[row * self.n + col] != self.region[(row + 1) * self.n + col]


def marks(geometry: "Geometry") -> Marks:
    """The marks of a geometry: its boxes or regions (every geometry's units
    of the box kind), its windows (kind ``window``; the hidden windows stay
    plain) and its diagonals (kind ``diagonal``)."""
    n = geometry.n
    region = [0] * (n * n)
    for number, u in enumerate(geometry.boxes):
        for cell in geometry.units[u]:
            region[cell] = number
    names = geometry.kind_names
    shaded: list[int] = []
    main = anti = False
    for u, kind in enumerate(geometry.kind):
        name = names[kind]
        cells = geometry.units[u]
        if name == "window":
            shaded.extend(cells)
        elif name == "diagonal":
            if all(c // n == c % n for c in cells):
                main = True
            else:
                anti = True
    return Marks(n, tuple(region), tuple(sorted(shaded)), (main, anti))


@dataclass(frozen=True)
class CageDrawing:
    """One killer cage to draw: its outline as segments ``(x0, y0, x1, y1)`` in cells
    (0..N, from the grid's top-left corner), inset in its cells, and its total
    (None: no total) at ``corner``, the top-left corner of its first cell."""

    segments: tuple[tuple[float, float, float, float], ...]
    total: int | None
    corner: tuple[float, float]


def cage_drawings(geometry: "Geometry", inset: float = CAGE_INSET) -> tuple[CageDrawing, ...]:
    """The outlines of ``geometry``'s killer cages, ``inset`` cells inside their borders.

    Each side of a cell whose neighbour is outside the cage gets a segment
    ``inset`` inside it; at its ends the segment stops ``inset`` short of a
    corner that turns outward, reaches ``inset`` past one that turns inward
    (where the next segment starts), and runs to the cell's corner where the
    border goes straight on, so the pieces join into one closed outline.

    >>> from sudokit.geometry import Geometry, Shape
    >>> from sudokit.killer import Cage
    >>> d = cage_drawings(Geometry.of(Shape(2, 2)).with_cages([Cage((0, 1), 3)]), 0.1)[0]
    >>> d.total, d.corner, sorted(d.segments)[:2]
    (3, (0, 0), [(0.1, 0.1, 0.1, 0.9), (0.1, 0.1, 1, 0.1)])
    """
    n = geometry.n
    out = []
    for cage in geometry.cages:
        cells = set(cage.cells)

        def inside(r: int, c: int) -> bool:
            return 0 <= r < n and 0 <= c < n and r * n + c in cells

        segments = []
        for cell in cage.cells:
            r, c = divmod(cell, n)
            # each side: (outward step), (along step), start corner, in cell units
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):  # top, right, bottom, left
                if inside(r + dr, c + dc):
                    continue
                ar, ac = dc, -dr  # "along": perpendicular to the outward step (clockwise)
                # the side's two ends: before (-along) and after (+along)
                ends = []
                for sign in (-1, 1):
                    nr, nc = r + sign * ar, c + sign * ac  # the neighbour along the side
                    if not inside(nr, nc):
                        ends.append(-inset)  # an outward corner: stop short
                    elif inside(nr + dr, nc + dc):
                        ends.append(inset)  # an inward corner: reach into the neighbour's line
                    else:
                        ends.append(0.0)  # the border goes straight on
                cy, cx = r + 0.5, c + 0.5  # the cell's centre, then the side's line inset
                ly, lx = cy + dr * (0.5 - inset), cx + dc * (0.5 - inset)
                y0, x0 = ly - ar * (0.5 + ends[0]), lx - ac * (0.5 + ends[0])
                y1, x1 = ly + ar * (0.5 + ends[1]), lx + ac * (0.5 + ends[1])
                segments.append((_round(min(x0, x1)), _round(min(y0, y1)), _round(max(x0, x1)), _round(max(y0, y1))))
        first = min(cage.cells)
        out.append(CageDrawing(tuple(segments), cage.total, (first % n, first // n)))
    return tuple(out)


def _round(value: float) -> float:
    rounded = round(value, 6)
    return int(rounded) if rounded == int(rounded) else rounded
