"""What a picture of a grid draws besides its digits, from the grid's geometry.

The SVG (:mod:`sudokit.svg`) and the PDF (:mod:`sudokit.pictures.pdf`) draw
the same things: thick lines where two cells lie in different boxes or jigsaw
regions (and round the grid), thin lines elsewhere, the windows of a hyper
puzzle shaded, and the diagonals of an X puzzle. This module says which, once,
from the units; the renderers only place them on their page. It reads the
geometry through its public attributes and imports nothing else of sudokit.

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
