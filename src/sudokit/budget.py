"""Limits for searches that can run long: a time budget and a node budget.

Every search in sudokit takes a :class:`Budget` and calls :meth:`Budget.tick`
once per node it expands. When either limit is used up, ``tick`` raises
:class:`~sudokit.errors.LimitReached` and the caller reports status
``timeout`` instead of hanging.

>>> b = Budget(nodes=2)
>>> b.tick(); b.tick()
>>> b.tick()
Traceback (most recent call last):
...
sudokit.errors.LimitReached: node limit of 2 reached
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .errors import LimitReached

# Checking the clock costs more than counting, so the clock is read once per
# this many nodes.
_CLOCK_EVERY = 64


@dataclass
class Budget:
    """A time limit in seconds and/or a node limit; ``None`` means no limit.

    ``nodes_used`` and ``guesses`` count what the search did, for reports.
    """

    timeout: float | None = None
    nodes: int | None = None
    nodes_used: int = 0
    guesses: int = 0
    started: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        if self.timeout is not None and self.timeout <= 0:
            raise ValueError(f"timeout must be positive, not {self.timeout}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"node limit must be at least 1, not {self.nodes}")
        self._deadline = None if self.timeout is None else self.started + self.timeout

    def tick(self, count: int = 1) -> None:
        """Charge ``count`` nodes; raise LimitReached when a limit is used up."""
        self.nodes_used += count
        if self.nodes is not None and self.nodes_used > self.nodes:
            raise LimitReached(f"node limit of {self.nodes} reached")
        if self._deadline is not None and (self.nodes_used % _CLOCK_EVERY < count or count > 1):
            if time.perf_counter() > self._deadline:
                raise LimitReached(f"time limit of {self.timeout:g} s reached")

    def guess(self) -> None:
        """Record one guess (a branch with more than one child)."""
        self.guesses += 1

    def check_time(self) -> None:
        """Raise LimitReached if the time limit has passed (no node charged)."""
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise LimitReached(f"time limit of {self.timeout:g} s reached")

    @property
    def remaining_time(self) -> float | None:
        """Seconds left, or None without a time limit."""
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.perf_counter())

    @property
    def remaining_nodes(self) -> int | None:
        if self.nodes is None:
            return None
        return max(0, self.nodes - self.nodes_used)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started
