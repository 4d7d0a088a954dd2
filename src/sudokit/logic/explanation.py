"""An explanation: the solving path of a puzzle, as a list of steps that
also knows its grid, so that it (and each of its steps) can draw itself.

:func:`sudokit.explain` returns one. It is a ``list`` of :class:`Step`
objects (indexing, ``len``, iteration, equality with a list all work as
before); each step carries the state it applies to (``step.board``), so in
Jupyter ``path[3]`` shows the step drawn on its grid and ``path`` shows the
whole page of drawn steps.

>>> from sudokit.logic import explain
>>> path = explain("5763894213926148754187526398619472537392..1..2541.89..6435.....9854.....1.78.3...")
>>> isinstance(path, list), path[0].board is not None, path.grid.clues, str(path.rating)
(True, True, 59, '1.2/1.0/1.0 easy')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..grid import Grid
from .state import Candidates
from .step import Step

if TYPE_CHECKING:
    from .rating import Rating


class Explanation(list):
    """The steps of a solving path (a list), with the ``grid`` they start from
    and the puzzle's ``rating`` (:class:`~sudokit.logic.rating.Rating`, found
    in the same pass; None when not given)."""

    def __init__(self, grid: Grid, steps: Iterable[Step] = (), *, boards: bool = True,
                 rating: "Rating | None" = None) -> None:
        self.grid = grid
        self.rating = rating
        if boards:
            steps = with_boards(grid, steps)
        super().__init__(steps)

    def __reduce__(self):  # pickles as (grid, steps) and the rating, boards included
        return (Explanation, (self.grid, list(self)), {"rating": self.rating})

    def html(self, rating: object = None, *, title: str | None = None) -> str:
        """The whole explanation as one self-contained HTML page
        (:func:`sudokit.pictures.html.explanation_page`), headed by ``rating``
        (default: its own)."""
        from ..pictures.html import explanation_page

        return explanation_page(self.grid, list(self), self.rating if rating is None else rating, title=title)

    def _repr_html_(self) -> str:
        from ..pictures.html import explanation_fragment

        return explanation_fragment(self.grid, list(self))


def with_boards(grid: Grid, steps: Iterable[Step]) -> list[Step]:
    """The steps, each carrying a snapshot of the state it applies to."""
    state = Candidates.from_grid(grid)
    out = []
    for step in steps:
        out.append(step.with_board(state, grid) if step.board is None else step)
        step.apply(state)
    return out


__all__ = ["Explanation", "with_boards"]
