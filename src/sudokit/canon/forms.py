"""The public face of canonical forms: :func:`canonical` and its :class:`Canonical` result.

>>> from sudokit import Grid, canonical
>>> puzzle = Grid("...........1.....2..3.4........5.6.....2.....1.......7...8..9.....4.........2....")
>>> form = canonical(puzzle)
>>> form.line == canonical(form.transform.apply(puzzle)).line
True
>>> form.inverse.apply(form.grid) == puzzle
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import SudokuError
from .transforms import Transform, variant_group

if TYPE_CHECKING:  # pragma: no cover
    from ..grid import Grid

#: The canonical forms, the default first.
FORMS = ("minlex", "patminlex")


@dataclass(frozen=True)
class Canonical:
    """A puzzle's canonical form and how to get there and back.

    ``grid`` is the canonical grid (same shape and geometry as the input),
    ``form`` its name, ``transform`` maps the input onto ``grid`` and
    ``inverse`` maps ``grid`` (or a solution of it, or any grid of its
    orientation) back onto the input's. ``automorphisms`` is the number of
    arrangements (transformations without their relabelling) that reach the
    form: the size of the puzzle's symmetry group, 1 for most puzzles.
    """

    grid: "Grid"
    form: str
    transform: Transform
    inverse: Transform
    automorphisms: int

    @property
    def line(self) -> str:
        """The canonical form in the line format (``.`` for a blank)."""
        return self.grid.line()

    @property
    def is_asymmetric(self) -> bool:
        """True when the only automorphism is the identity."""
        return self.automorphisms == 1

    def to_dict(self) -> dict:
        """A JSON-ready record: the form's line, name, both transforms and the count."""
        return {"canonical": self.line, "form": self.form, "transform": str(self.transform),
                "inverse": str(self.inverse), "automorphisms": self.automorphisms}


def canonical(grid: "Grid", form: str = "minlex") -> Canonical:
    """The canonical form of a puzzle or solution grid, with its transformation.

    ``form`` is ``"minlex"`` (the smallest line over every validity-preserving
    transformation, blanks counted as 0) or ``"patminlex"`` (the smallest
    pattern of givens first, then the smallest digits in it). Variants keep
    their own groups: X and windoku the transformations that keep their extra
    units, a jigsaw's regions and a killer's cages the symmetries of the square
    that map them onto themselves (a killer's digits are never relabelled).
    """
    if form not in FORMS:
        raise SudokuError(f"unknown canonical form {form!r}: choose {' or '.join(FORMS)}")
    shape = grid.shape
    if grid.is_variant:
        geometry = grid.geometry
        group = variant_group(geometry)
        from .search import group_search

        if form == "patminlex":
            pattern = tuple(1 if v else 0 for v in grid.values)
            low, _, _ = group_search(pattern, group, False)
            group = tuple(g for g in group if g.apply_values(pattern) == low)
        values, transform, count = group_search(grid.values, group, not geometry.cages)
    else:
        from .search import search

        values, transforms, count = search(grid.values, shape.box_rows, shape.box_cols, form)
        transform = transforms[0]
    return Canonical(grid.like(tuple(values)), form, transform, transform.inverse(), count)
