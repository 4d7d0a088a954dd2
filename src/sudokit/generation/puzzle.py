"""What the generator hands back: a generated :class:`Puzzle` with everything
needed to remake it, and the errors of a request that cannot be met."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import LimitReached, SudokuError
from ..grid import Grid

__all__ = ["GenerationError", "GenerationTimeout", "Puzzle"]


class GenerationError(SudokuError):
    """A generation request that cannot be met, or whose budget ran out."""


class GenerationTimeout(GenerationError, LimitReached):
    """The time limit ran out; the message says how many puzzles were made and how far the
    current one had got."""


@dataclass(frozen=True)
class Puzzle:
    """One generated puzzle with everything needed to remake it.

    ``undecided`` counts clues kept only because a solution count hit its node
    limit (always 0 for 9x9); when it is 0 the puzzle is proven minimal.
    """

    puzzle: Grid
    solution: Grid
    seed: int
    shape: str
    minimal: str
    symmetry: str
    clues: int
    undecided: int = 0
    er: float | None = None
    ep: float | None = None
    ed: float | None = None
    level: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def record(self) -> dict[str, Any]:
        """The jsonl record (:func:`sudokit.records.generated_record`): puzzle,
        solution, clues, seed, shape, minimal, symmetry (+ rating)."""
        from ..records import generated_record

        return generated_record(self)
