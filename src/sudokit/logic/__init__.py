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

from ..errors import Contradiction, LimitReached
from ..formats import as_grid
from ..grid import Grid
from . import kernel_groups  # noqa: F401  (registers the package's kernel groups with the engine)
from .explanation import Explanation
from .rating import RATE_TIME_LIMIT, Rating, explain_rated, rate
from .registry import REGISTRY, register, techniques
from .state import Candidates, geometry
from .step import Step, Technique
from .stepper import next_step, steps


def hint(puzzle: "Grid | str | Candidates", *, timeout: float | None = RATE_TIME_LIMIT) -> Step | None:
    """The next step SE would take, or None when no technique applies.

    The chain searches may take ``timeout`` seconds in all (``None``: no
    limit); when they run out before a step is found it raises
    :class:`~sudokit.errors.LimitReached`.

    Takes a grid (candidates from the placed values) or a :class:`Candidates`
    state built from pencil marks. Raises :class:`~sudokit.errors.Contradiction`
    when the candidates contradict (a blank cell without candidates, a value
    with no place left in a unit, or pencil marks that rule out the puzzle's
    one solution). The step is checked against that solution
    (:class:`~sudokit.errors.UnsoundStep` if it is wrong).
    """
    from .. import validate
    from . import chains
    from .rating import truth as solution_of
    from .stepper import check_step

    timeout = validate.timeout(timeout)

    state = puzzle if isinstance(puzzle, Candidates) else Candidates.from_grid(
        as_grid(puzzle))
    geo = state.geo
    for cell, (mask, value) in enumerate(zip(state.mask, state.values)):
        if not mask and not value:
            raise Contradiction(f"{geo.cell_name(cell)} has no candidate left")
    full = (1 << geo.n) - 1
    for unit, cells in enumerate(geo.units):
        seen = 0
        for c in cells:
            seen |= state.mask[c] | (1 << (state.values[c] - 1) if state.values[c] else 0)
        if seen != full:
            missing = (full & ~seen).bit_length()
            raise Contradiction(f"{geo.symbol(missing)} has no place left in {geo.unit_name(unit)}")
    grid = state.grid()
    truth = solution_of(grid)
    if truth is not None:
        for cell, (mask, value) in enumerate(zip(state.mask, state.values)):
            if not value and not mask >> (truth[cell] - 1) & 1:
                raise Contradiction(f"your pencil marks rule out the solution: {geo.cell_name(cell)} "
                                    f"lost {geo.symbol(truth[cell])}")
    try:
        with chains.time_limit(timeout):
            step = next_step(state)
    except chains.ChainLimit:
        raise LimitReached(f"time limit of {timeout:g} s reached in the chain searches before a step "
                           "was found") from None
    if step is not None:
        check_step(step, truth, grid.line())
        step = step.with_board(state, puzzle if isinstance(puzzle, Grid) else None)
    return step


def explain(grid: "Grid | str", *, timeout: float | None = RATE_TIME_LIMIT) -> Explanation:
    """The full solving path (see :func:`sudokit.logic.rating.explain`), as an
    :class:`Explanation`: a list of steps that draws itself, each step
    carrying the state it applies to, with the puzzle's rating (``.rating``,
    that of :func:`rate`) found in the same pass."""
    grid = as_grid(grid)
    path, rating = explain_rated(grid, timeout=timeout)
    return Explanation(grid, path, rating=rating)


__all__ = [
    "Candidates", "Explanation", "REGISTRY", "Rating", "Step", "Technique", "explain", "geometry", "hint",
    "next_step", "rate", "register", "steps", "techniques",
]
