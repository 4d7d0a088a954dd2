"""Human-style solving with Sudoku Explainer-compatible ratings.

Techniques live one family per module (:mod:`.singles`,
:mod:`.intersections`, :mod:`.subsets`, :mod:`.fish`, ...); each finds
:class:`Step` objects on a :class:`Candidates` state. :mod:`.registry` lists
them in SE's order and :mod:`.stepper` applies the easiest step each time.

>>> from sudokit.examples import example
>>> r = rate(example("easy"))
>>> r.er <= 2.0, r.lower_bound
(True, False)
>>> str(hint("5763894213926148754187526398619472537392..1..2541.89..6435.....9854.....1.78.3..."))
'Hidden Single: r9c2=2 (last empty cell of box 7)'
"""

from __future__ import annotations

from ..errors import Contradiction
from ..grid import Grid
from .rating import Rating, explain, rate
from .registry import REGISTRY, register, techniques
from .state import Candidates, geometry
from .step import Step, Technique
from .stepper import next_step, steps


def hint(puzzle: "Grid | str | Candidates") -> Step | None:
    """The next step SE would take, or None when no technique applies.

    Takes a grid (candidates from the placed values) or a :class:`Candidates`
    state built from pencil marks. A blank cell without candidates raises
    :class:`~sudokit.errors.Contradiction`.
    """
    state = puzzle if isinstance(puzzle, Candidates) else Candidates.from_grid(
        puzzle if isinstance(puzzle, Grid) else Grid(puzzle))
    for cell, (mask, value) in enumerate(zip(state.mask, state.values)):
        if not mask and not value:
            raise Contradiction(f"{state.geo.cell_name(cell)} has no candidate left")
    return next_step(state)


__all__ = [
    "Candidates", "REGISTRY", "Rating", "Step", "Technique", "explain", "geometry", "hint",
    "next_step", "rate", "register", "steps", "techniques",
]
