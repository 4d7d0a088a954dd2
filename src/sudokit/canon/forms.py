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
    if not grid.is_consistent:
        from ..errors import InvalidPuzzle

        raise InvalidPuzzle(f"the givens clash ({grid.conflicts()[0]}): a canonical form is for valid puzzles")
    if grid.is_variant:
        geometry = grid.geometry
        group = variant_group(geometry)
        from .search import group_search

        if form == "patminlex":
            pattern = tuple(1 if v else 0 for v in grid.values)
            low, _, _ = group_search(pattern, group, False)
            group = tuple(g for g in group if g.apply_values(pattern) == low)
        values, transform, count = group_search(grid.values, group, not geometry.cages)
    elif shape.size == 9 and _compiled():
        from . import kernel

        out, transforms, counts = kernel.canonicalise(grid.values, FORMS.index(form))
        if counts[0] < 0:  # more candidates than the kernel holds: the Python search
            return _searched(grid, form)
        transform = transform_of(transforms[0])
        return Canonical(grid.like(tuple(out[0].tolist())), form, transform, transform.inverse(), int(counts[0]))
    else:
        return _searched(grid, form)
    return Canonical(grid.like(tuple(values)), form, transform, transform.inverse(), count)


def _searched(grid: "Grid", form: str) -> Canonical:
    from .search import search

    shape = grid.shape
    values, transforms, count = search(grid.values, shape.box_rows, shape.box_cols, form)
    return Canonical(grid.like(tuple(values)), form, transforms[0], transforms[0].inverse(), count)


def transform_of(row) -> Transform:
    """A :class:`Transform` from a row of the kernel's transforms (see ``kernel.TRANSFORM_WIDTH``)."""
    row = [int(v) for v in row]
    return Transform(bool(row[0]), tuple(row[1:10]), tuple(row[10:19]), tuple(row[19:28]))


_READY: list[bool] = []


def _compiled() -> bool:
    """Whether the 9x9 kernel can run without compiling now (loaded, or in numba's cache).
    A single call never waits for the compiler: it takes the Python search, which gives the
    same answers (``sudoku canon`` and :func:`warm` compile the kernel, once per machine)."""
    if not _READY:
        try:
            from ..engine.compiling import is_cached

            _READY.append(is_cached("canon.kernel.canon_batch"))
        except ImportError:  # no numba: the Python search
            _READY.append(False)
    return _READY[0]


def warm() -> None:
    """Compile (or load) the 9x9 kernel now, so that later calls use it."""
    from . import kernel

    kernel.warm()
    _READY[:] = [True]
