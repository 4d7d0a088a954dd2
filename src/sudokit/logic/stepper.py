"""The stepper: apply the easiest available step, again and again.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.state import Candidates
>>> state = Candidates.from_grid(Grid("5763894213926148754187526398619472537392..1..2541.89..6435.....9854.....1.78.3..."))
>>> path = list(steps(state))
>>> len(path), state.solved, max(s.rating for s in path)
(22, True, 1.2)
"""

from __future__ import annotations

from typing import Iterable, Iterator

from .registry import REGISTRY
from .state import Candidates
from .step import Step, Technique


def next_step(state: Candidates, registry: Iterable[Technique] | None = None) -> Step | None:
    """The first step of the first technique (in registry order) that has one."""
    for technique in REGISTRY if registry is None else registry:
        for step in technique.find(state):
            return step
    return None


def broken(state: Candidates) -> bool:
    """True when a blank cell has no candidate left (the state is contradictory)."""
    return any(not m and not v for m, v in zip(state.mask, state.values))


def steps(state: Candidates, registry: Iterable[Technique] | None = None) -> Iterator[Step]:
    """Yield and apply steps until the grid is full or no technique applies."""
    techniques = list(REGISTRY if registry is None else registry)
    while not state.solved and not broken(state):
        step = next_step(state, techniques)
        if step is None:
            return
        step.apply(state)
        yield step
