"""One exception tree for everything sudokit can refuse.

Every error carries a message a person can act on: *where* the problem is
(puzzle number, line, column, cell) and *what* is wrong.

>>> from sudokit.errors import SudokuError, ParseError
>>> issubclass(ParseError, SudokuError)
True
"""

from __future__ import annotations


class SudokuError(Exception):
    """Base class of every error sudokit raises on purpose."""


class ParseError(SudokuError, ValueError):
    """Text that cannot be read as a puzzle.

    ``puzzle``, ``line`` and ``column`` are 1-based and may be ``None`` when
    unknown. ``str(error)`` gives the full located message.
    """

    def __init__(
        self,
        reason: str,
        *,
        puzzle: int | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.reason = reason
        self.puzzle = puzzle
        self.line = line
        self.column = column
        super().__init__(self.located())

    def located(self) -> str:
        where = []
        if self.puzzle is not None:
            where.append(f"puzzle {self.puzzle}")
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def at(self, *, puzzle: int | None = None, line_offset: int = 0) -> "ParseError":
        """The same error, placed in a larger stream."""
        return ParseError(
            self.reason,
            puzzle=puzzle if puzzle is not None else self.puzzle,
            line=None if self.line is None else self.line + line_offset,
            column=self.column,
        )


class ShapeError(SudokuError, ValueError):
    """A box shape or size that sudokit cannot use."""


class InvalidPuzzle(SudokuError):
    """Givens that break the rules, such as two 5s in one row.

    ``conflicts`` holds :class:`sudokit.grid.Conflict` records naming the
    clashing cells.
    """

    def __init__(self, message: str, conflicts: tuple = ()) -> None:
        self.conflicts = conflicts
        super().__init__(message)


class Contradiction(SudokuError):
    """Logic derived that the puzzle has no solution (a cell or unit ran dry)."""


class NoSolution(Contradiction):
    """A grid that nothing completes, found by counting its solutions: ``rate``,
    ``explain`` and ``hint`` refuse it before any logic runs."""


class SeveralSolutions(InvalidPuzzle):
    """A grid with more than one solution. ``rate``, ``explain`` and ``hint``
    refuse it, as Sudoku Explainer does: a logical path needs one solution to
    lead to, and the uniqueness techniques assume it."""


class WrongEntries(NoSolution):
    """A player's entries that disagree with the one solution of the givens.

    ``wrong`` holds ``(cell, entered, solution)`` per wrong entry (cell
    0-based, values 1..N) and ``names`` each cell's ``rNcM`` name.
    """

    def __init__(self, message: str, wrong: tuple = (), names: tuple = ()) -> None:
        self.wrong, self.names = tuple(wrong), tuple(names)
        super().__init__(message)


class WrongMarks(Contradiction):
    """Pencil marks that rule out the grid's one solution: the user's mistake,
    never a step to take.

    ``wrong`` holds ``(cell, marks, solution)`` per cell (``marks`` the
    candidates left, as a bit mask, bit v-1 for v) and ``names`` each cell's
    ``rNcM`` name.
    """

    def __init__(self, message: str, wrong: tuple = (), names: tuple = ()) -> None:
        self.wrong, self.names = tuple(wrong), tuple(names)
        super().__init__(message)


class LimitReached(SudokuError):
    """A search used up its time or node budget before it finished."""


class UnknownMethod(SudokuError, ValueError):
    """A method name that is not registered."""


class UnknownTechnique(SudokuError, ValueError):
    """A technique name that names no family of :mod:`sudokit.logic.techniques`; the message lists them."""


class BadOption(SudokuError, ValueError):
    """An option or argument outside what it may be (a negative timeout, a seed of 1.5...).

    The message names the option; :mod:`sudokit.validate` raises it for the
    Python API and the command line alike.
    """


class UnsoundStep(SudokuError):
    """Internal error: a logic step removed the puzzle's true value or placed a wrong one.

    Every step of ``rate``, ``explain`` and ``hint`` on a puzzle with one
    solution is checked against that solution; this names the technique, the
    step and the puzzle, so the fault can be reproduced. It is never a rating.
    """

    def __init__(self, technique: str, step: str, puzzle: str, detail: str) -> None:
        self.technique, self.step, self.puzzle, self.detail = technique, step, puzzle, detail
        super().__init__(f"internal error: unsound {technique} step ({detail}): {step} — puzzle {puzzle}")
