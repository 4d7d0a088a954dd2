"""What a solve, count or deduction reports: a :class:`Status` and a :class:`Result`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .grid import Grid


class Status(str, Enum):
    """The outcome of working on one puzzle.

    The values are the strings used in jsonl records.
    """

    SOLVED = "solved"            #: a solution was found (see ``count`` for how many)
    NO_SOLUTION = "no_solution"  #: the givens are consistent but no grid completes them
    INVALID = "invalid"          #: the givens break the rules (a value twice in a unit)
    STUCK = "stuck"              #: logic alone stalled before the grid was full
    TIMEOUT = "timeout"          #: the time or node limit ran out first
    PARSE_ERROR = "parse_error"  #: the text could not be read as a puzzle

    def __str__(self) -> str:
        return self.value

    @property
    def ok(self) -> bool:
        """True only for ``solved``."""
        return self is Status.SOLVED


@dataclass(frozen=True)
class Result:
    """The result of one method on one puzzle.

    ``solution`` is the first solution found, or for a logic-only method the
    grid as far as logic filled it (status ``stuck``). ``count`` is set when
    solutions were counted: exact below the limit, equal to the limit when
    the count stopped there, and a lower bound when the status is
    ``timeout``. ``solutions`` lists every solution found when they were
    enumerated (:func:`sudokit.solving.solve_all`).
    """

    puzzle: Grid | None
    status: Status
    solution: Grid | None = None
    method: str = ""
    count: int | None = None
    limit: int | None = None
    nodes: int = 0
    guesses: int = 0
    elapsed: float = 0.0
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    solutions: tuple[Grid, ...] = ()

    def record(self, **where: Any) -> dict[str, Any]:
        """The jsonl record of this result (:func:`sudokit.records.result_record`);
        ``where`` may give ``line``, ``source``, ``example``, ``counting`` and ``symbols``."""
        from .records import result_record

        return result_record(self, **where)

    @property
    def ok(self) -> bool:
        return self.status.ok

    @property
    def unique(self) -> bool | None:
        """True/False when counted with a limit of at least 2, else None."""
        if self.count is None or (self.limit is not None and self.limit < 2):
            return None
        return self.count == 1
