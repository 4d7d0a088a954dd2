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

from typing import Sequence

from ..errors import BadOption, LimitReached
from ..formats import as_grid
from ..grid import Grid
from . import kernel_groups  # noqa: F401  (registers the package's kernel groups with the engine)
from .explanation import Explanation
from .rating import RATE_TIME_LIMIT, Rating, explain_rated, rate
from . import techniques as catalogue  # noqa: F401  (the module first: the name below stays the function)
from .registry import REGISTRY, register, techniques
from .state import Candidates, geometry
from .step import Step, Technique
from .stepper import next_step, steps


def hint(puzzle: "Grid | str | Candidates", *, givens: "Grid | str | None" = None,
         marks: "Sequence[int] | None" = None, timeout: float | None = RATE_TIME_LIMIT,
         jobs: int = 1) -> Step | None:
    """The next step SE would take, or None when no technique applies.

    Takes a grid (candidates from the placed values; with ``marks``, the
    pencil marks, a bit mask per cell, bit v-1 for v, as
    :func:`~sudokit.formats.parse_candidates` reads them) or a
    :class:`Candidates` state built from pencil marks. A hint leads to the
    grid's one solution, found first by the engine; it is never a step away
    from it:

    * a grid whose values break the rules raises
      :class:`~sudokit.errors.InvalidPuzzle`, one that nothing completes
      :class:`~sudokit.errors.NoSolution`, one with several solutions
      :class:`~sudokit.errors.SeveralSolutions` (as Sudoku Explainer
      refuses it), and one the engine cannot decide in time
      :class:`~sudokit.errors.LimitReached`;
    * with ``givens`` (the puzzle as set; the grid's other values are a
      player's entries), the givens must have one solution, and entries that
      disagree with it raise :class:`~sudokit.errors.WrongEntries`, naming
      each;
    * pencil marks that exclude the solution raise
      :class:`~sudokit.errors.WrongMarks` (a
      :class:`~sudokit.errors.Contradiction`), naming each cell (a blank
      cell without candidates among them).

    The chain searches may take ``timeout`` seconds in all (``None``: no
    limit); when they run out before a step is found it raises
    :class:`~sudokit.errors.LimitReached`. With ``jobs`` above 1 (0: every
    CPU), the hardest searches are shared by that many processes, with the
    same step (:mod:`~sudokit.logic.sharing`). The step is checked against the
    solution (:class:`~sudokit.errors.UnsoundStep` if it is wrong).
    """
    from .. import validate
    from . import chains
    from .sharing import sharing
    from .solution import check_entries, check_marks, one_solution
    from .stepper import check_step

    timeout = validate.timeout(timeout)
    jobs = validate.jobs(jobs)

    state = puzzle if isinstance(puzzle, Candidates) else None
    grid = puzzle.grid() if isinstance(puzzle, Candidates) else as_grid(puzzle)
    if givens is not None:  # the entries first: a wrong one may clash with a given
        givens = as_grid(givens)
        if grid.geometry is not grid.shape.geometry and givens.shape == grid.shape:
            givens = givens.with_geometry(grid.geometry)  # the grid's units and cages hold for its givens
        truth = one_solution(givens, "the givens")
        check_entries(givens, grid, truth)
    else:
        truth = one_solution(grid, "this grid")
    if state is None:
        if marks is not None and len(marks) != len(grid.values):
            raise BadOption(f"marks: {len(marks)} masks for a grid of {len(grid.values)} cells")
        if marks is not None:  # the marks as written, before the values' own eliminations narrow them
            check_marks(grid.geometry, grid.values, marks, truth)
        state = Candidates.from_grid(grid) if marks is None else Candidates.from_masks(grid, marks)
    # (a blank cell without candidates excludes the solution too)
    check_marks(state.geo, state.values, state.mask, truth)
    try:
        with chains.time_limit(timeout), sharing(jobs):
            step = next_step(state)
    except chains.ChainLimit:
        raise LimitReached(f"time limit of {timeout:g} s reached in the chain searches before a step "
                           "was found") from None
    if step is not None:
        check_step(step, truth, grid.line())
        step = step.with_board(state, givens if givens is not None else puzzle if isinstance(puzzle, Grid) else None)
    return step


def explain(grid: "Grid | str", *, timeout: float | None = RATE_TIME_LIMIT, jobs: int = 1) -> Explanation:
    """The full solving path (see :func:`sudokit.logic.rating.explain`), as an
    :class:`Explanation`: a list of steps that draws itself, each step
    carrying the state it applies to, with the puzzle's rating (``.rating``,
    that of :func:`rate`) found in the same pass. ``jobs`` as for :func:`rate`."""
    grid = as_grid(grid)
    path, rating = explain_rated(grid, timeout=timeout, jobs=jobs)
    return Explanation(grid, path, rating=rating)


__all__ = [
    "Candidates", "Explanation", "REGISTRY", "Rating", "Step", "Technique", "explain", "geometry", "hint",
    "next_step", "rate", "register", "steps", "techniques",
]
