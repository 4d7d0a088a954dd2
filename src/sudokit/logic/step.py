"""What one technique finds: a :class:`Step`; and what a technique is.

A technique is a :class:`Technique`: a name, Sudoku Explainer's rating, a
family (the module it lives in) and a ``find`` function. ``find(state)``
yields :class:`Step` objects in Sudoku Explainer's scan order, without
changing the state; the stepper takes the first one. Every step is checked by
construction: it only removes candidates (or places values) that follow from
the pattern it names.

Writing a new technique (one module per family)::

    def find_my_pattern(state: Candidates) -> Iterator[Step]:
        ...
        yield Step("My Pattern", 4.2, eliminations=((cell, value),), cells=(...),
                   text=f"My Pattern: ... ⇒ {elims_text(state.geo, elims)}")

    MY_PATTERN = Technique("My Pattern", 4.2, "wings", find_my_pattern)

then add ``MY_PATTERN`` to :data:`sudokit.logic.registry.REGISTRY` at its
place in Sudoku Explainer's order (ascending rating), or call
:func:`sudokit.logic.registry.register`.

Tools on the state: ``state.mask[c]`` (candidates of cell c, bit v-1 for v),
``state.values[c]``, ``state.cells_with(v)`` (bitboard of cells, bit c),
``state.geo.units`` / ``rows`` / ``cols`` / ``boxes`` / ``units_of`` /
``peers``, ``state.geo.unit_mask[u]`` and ``state.geo.peer_mask[c]``
(bitboards), :func:`sudokit.logic.state.iter_bits`, ``int.bit_count()``.
Cells that see both ``a`` and ``b``: ``geo.peer_mask[a] & geo.peer_mask[b]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .state import Candidates, Geometry

Pair = tuple[int, int]  # (cell, value)

#: Kinds of link (:attr:`Step.link_kinds`), drawn solid and dashed.
STRONG, WEAK = "strong", "weak"


@dataclass(frozen=True)
class Step:
    """One deduction: the values it places and the candidates it removes.

    ``cells``, ``units`` (ids into :attr:`Shape.units`) and ``values`` name the
    pattern; ``links`` holds the links of chains, wings and fish as
    ``(cell, value, cell, value)``, and ``link_kinds`` the kind of each, in
    the same order: :data:`STRONG` (if the first candidate is false, the
    second is true: the only two places in a unit or a cell) or :data:`WEAK`
    (if the first is true, the second is false). ``text`` is a one-line
    explanation in ``rNcM`` notation.
    """

    technique: str
    rating: float
    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    cells: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    values: tuple[int, ...] = ()
    links: tuple[tuple[int, int, int, int], ...] = ()
    text: str = ""
    link_kinds: tuple[str, ...] = ()
    #: The state the step applies to, for pictures: ``(shape, givens, values,
    #: masks)`` (see :func:`sudokit.pictures.steps.board_of`); set by
    #: :func:`sudokit.hint` and :func:`sudokit.explain`, None otherwise.
    board: Any = field(default=None, compare=False, repr=False)
    #: True when ``rating`` is only a lower bound: the last step of a path that
    #: the techniques or the time budget did not finish, which the engine fills.
    lower_bound: bool = False

    def __str__(self) -> str:
        return self.text or self.technique

    def details(self) -> str:
        """The step's text and, for a nested forcing chain, the inner chains
        it relies on on the lines after it (:class:`sudokit.logic.nested.NestedStep`)."""
        return self.text

    def kinded_links(self) -> tuple[tuple[int, int, int, int, str], ...]:
        """``(cell, value, cell, value, kind)`` per link; kind ``""`` when unknown."""
        kinds = self.link_kinds + ("",) * (len(self.links) - len(self.link_kinds))
        return tuple((*link, kind) for link, kind in zip(self.links, kinds))

    def _repr_svg_(self) -> str | None:  # Jupyter draws the step on the grid it applies to, when known
        if self.board is None:
            return None
        from ..pictures.steps import step_svg

        return step_svg(self)

    def with_board(self, state: "Candidates", givens: Any = None) -> "Step":
        """This step carrying a snapshot of ``state`` (before the step), for pictures."""
        from dataclasses import replace

        from ..pictures.steps import board_of

        return replace(self, board=board_of(state, givens))

    def apply(self, state: "Candidates") -> None:
        """Make the step's changes in ``state``."""
        for cell, value in self.eliminations:
            state.eliminate(cell, value)
        for cell, value in self.placements:
            state.place(cell, value)

    def as_dict(self, geo: "Geometry | None" = None) -> dict:
        """A JSON-friendly view (cells by name when ``geo`` is given)."""
        name = geo.cell_name if geo is not None else str
        unit = geo.unit_name if geo is not None else str
        return {
            "technique": self.technique,
            "rating": self.rating,
            "placements": [f"{name(c)}={v}" for c, v in self.placements],
            "eliminations": [f"{name(c)}<>{v}" for c, v in self.eliminations],
            "cells": [name(c) for c in self.cells],
            "units": [unit(u) for u in self.units],
            "values": list(self.values),
            "links": [[name(a), va, name(b), vb] for a, va, b, vb in self.links],
            "link_kinds": [kind for *_, kind in self.kinded_links()],
            "text": self.text,
            **({"lower_bound": True} if self.lower_bound else {}),
        }


@dataclass(frozen=True)
class Technique:
    """A named technique at one Sudoku Explainer rating.

    ``variant`` tells apart entries sharing one name (Hidden Single in a box
    vs in a row or column). ``find`` yields steps in scan order.
    """

    name: str
    rating: float
    family: str
    find: Callable[["Candidates"], Iterator[Step]] = field(compare=False, repr=False)
    variant: str = ""

    @property
    def label(self) -> str:
        return f"{self.name} ({self.variant})" if self.variant else self.name


# -- explanation helpers shared by the families ------------------------------


def cells_text(geo: "Geometry", cells) -> str:
    """``r1c2,r1c5``."""
    return ",".join(geo.cell_name(c) for c in cells)


def elims_text(geo: "Geometry", eliminations) -> str:
    """``r5c3<>4, r6c3<>4,9``: removals grouped by cell."""
    by_cell: dict[int, list[int]] = {}
    for cell, value in eliminations:
        by_cell.setdefault(cell, []).append(value)
    return ", ".join(
        f"{geo.cell_name(c)}<>{','.join(geo.symbol(v) for v in sorted(vs))}" for c, vs in sorted(by_cell.items())
    )


def values_text(geo: "Geometry", values) -> str:
    return ",".join(geo.symbol(v) for v in values)
