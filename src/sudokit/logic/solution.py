"""The one solution every logical step leads to, and what in a grid disagrees with it.

``rate``, ``explain`` and ``hint`` first ask the engine for the grid's
solutions (up to two, once per puzzle: microseconds on a 9x9 grid). A grid
with none or with several is refused before any logic runs, since a step
on it would lead nowhere (:class:`~sudokit.errors.NoSolution`,
:class:`~sudokit.errors.SeveralSolutions`). Where the grid is a player's
(givens plus entries, maybe pencil marks), the entries and the marks are
held against the givens' solution and the ones that disagree are named
(:class:`~sudokit.errors.WrongEntries`, :class:`~sudokit.errors.WrongMarks`).

>>> from sudokit.grid import Grid
>>> givens = Grid(".9.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7.")
>>> solution = one_solution(givens)
>>> played = Grid("49.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7.")
>>> one_solution(played, "the grid")
Traceback (most recent call last):
...
sudokit.errors.NoSolution: no solution completes the grid
>>> check_entries(givens, played, solution)
Traceback (most recent call last):
...
sudokit.errors.WrongEntries: r1c1: the entry 4 disagrees with the solution's 2
"""

from __future__ import annotations

from typing import Sequence

from ..errors import InvalidPuzzle, LimitReached, NoSolution, SeveralSolutions, WrongEntries, WrongMarks
from ..grid import Grid

#: Seconds the engine may spend finding the solution that every step is checked against.
TRUTH_TIME_LIMIT = 10.0

#: Mistakes named in one message (all of them are in the exception's ``wrong``).
SHOWN = 6


def _count(grid: Grid):  # type: ignore[no-untyped-def]
    from ..solving import count_soonest

    result = count_soonest(grid, timeout=TRUTH_TIME_LIMIT)
    if result is None or result.count is None or result.status.value == "timeout":
        return None
    return result


def one_solution(grid: Grid, what: str = "") -> tuple[int, ...]:
    """The values of ``grid``'s one solution.

    Raises :class:`InvalidPuzzle` for clashing values,
    :class:`NoSolution` when nothing completes the grid,
    :class:`SeveralSolutions` when more than one grid does, and
    :class:`LimitReached` when the engine cannot tell within
    :data:`TRUTH_TIME_LIMIT` seconds. ``what`` names the grid in the
    messages (``"the givens"``; default: the messages start with its line).
    """
    result = _count(grid)
    if result is None:
        raise LimitReached(f"{what or grid.line()}: the engine could not tell within {TRUTH_TIME_LIMIT:g} s "
                           "whether it has one solution")
    if result.status.value == "invalid":
        raise InvalidPuzzle(f"{what or grid.line()}: {result.message}", tuple(result.extra.get("conflicts", ())))
    if result.count == 0:
        raise NoSolution(f"no solution completes {what}" if what
                         else f"{grid.line()}: no solution completes this puzzle")
    if result.count > 1 or result.solution is None:
        raise SeveralSolutions(
            f"more than one solution completes {what}; a logical path needs one solution to lead to" if what
            else f"{grid.line()}: more than one solution; a logical path needs a puzzle with one solution")
    return result.solution.values


def truth(grid: Grid, *, unique: bool = False) -> "tuple[int, ...] | None":
    """The one solution of ``grid`` as values, or None (none, several, or not found in time).

    With ``unique`` a grid that breaks the rules raises :class:`InvalidPuzzle`,
    one without a solution :class:`NoSolution` and one with several
    :class:`SeveralSolutions` at once, before any logic runs (sound logic
    could only end stuck on them); a count out of time still gives None.
    """
    if unique:
        try:
            return one_solution(grid)
        except LimitReached:
            return None
    result = _count(grid)
    if result is None or result.count != 1 or result.solution is None:
        return None
    return result.solution.values


def check_unique(grid: Grid) -> None:
    """Raise as :func:`one_solution` does, with no time limit on the count."""
    from ..solving import count_soonest

    result = count_soonest(grid)
    if result is None or result.count is None:
        return
    if result.status.value == "invalid":
        raise InvalidPuzzle(f"{grid.line()}: {result.message}", tuple(result.extra.get("conflicts", ())))
    if result.count == 0:
        raise NoSolution(f"{grid.line()}: no solution completes this puzzle")
    if result.count > 1:
        raise SeveralSolutions(f"{grid.line()}: more than one solution; a logical path needs a puzzle with one "
                               "solution")


def _listed(parts: list[str]) -> str:
    more = len(parts) - SHOWN
    return "; ".join(parts[:SHOWN]) + (f"; and {more} more" if more > 0 else "")


def check_entries(givens: Grid, grid: Grid, solution: Sequence[int]) -> None:
    """Raise :class:`WrongEntries` naming every value of ``grid`` that is not
    a given and disagrees with ``solution`` (the givens' one solution), and
    :class:`InvalidPuzzle` when ``grid`` does not hold the givens."""
    if givens.size != grid.size:
        raise InvalidPuzzle(f"the givens are {givens.size}x{givens.size}, the grid {grid.size}x{grid.size}")
    geo = grid.geometry
    lost = [c for c, (g, v) in enumerate(zip(givens.values, grid.values)) if g and v != g]
    if lost:
        raise InvalidPuzzle("the grid does not hold the givens: " + _listed(
            [f"{geo.cell_name(c)} is {geo.symbol(givens.values[c])} in the givens and "
             f"{geo.symbol(grid.values[c]) if grid.values[c] else 'blank'} in the grid" for c in lost]))
    wrong = tuple((c, v, solution[c]) for c, (g, v) in enumerate(zip(givens.values, grid.values))
                  if v and not g and v != solution[c])
    if wrong:
        names = tuple(geo.cell_name(c) for c, _, _ in wrong)
        raise WrongEntries(_listed([f"{name}: the entry {geo.symbol(v)} disagrees with the solution's {geo.symbol(t)}"
                                    for name, (_, v, t) in zip(names, wrong)]), wrong, names)


def check_marks(geo, values: Sequence[int], marks: Sequence[int], solution: Sequence[int]) -> None:  # type: ignore[no-untyped-def]
    """Raise :class:`WrongMarks` naming every blank cell (no value in
    ``values``) whose pencil marks (``marks``, a bit mask per cell) exclude
    its value in ``solution``; ``geo`` names the cells and symbols."""
    wrong = tuple((c, m, solution[c]) for c, (m, v) in enumerate(zip(marks, values))
                  if not v and not m >> (solution[c] - 1) & 1)
    if wrong:
        names = tuple(geo.cell_name(c) for c, _, _ in wrong)

        def shown(mask: int) -> str:
            return "".join(geo.symbol(v + 1) for v in range(geo.n) if mask >> v & 1) or "none"

        raise WrongMarks(_listed([f"{name}: the pencil marks {shown(m)} exclude the solution's {geo.symbol(t)}"
                                  for name, (_, m, t) in zip(names, wrong)]), wrong, names)


__all__ = ["TRUTH_TIME_LIMIT", "check_entries", "check_marks", "check_unique", "one_solution", "truth"]
