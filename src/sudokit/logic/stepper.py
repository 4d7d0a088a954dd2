"""The stepper: apply the easiest available step, again and again.

Runs of singles go through a compiled kernel
(:mod:`sudokit.engine.logic_kernels`) when the registry starts with the six
hidden-single entries; the kernel takes exactly the steps the Python finders
would.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.state import Candidates
>>> state = Candidates.from_grid(Grid("5763894213926148754187526398619472537392..1..2541.89..6435.....9854.....1.78.3..."))
>>> path = list(steps(state))
>>> len(path), state.solved, max(s.rating for s in path)
(22, True, 1.2)
"""

from __future__ import annotations

from typing import Iterable, Iterator

from . import singles
from .registry import REGISTRY
from .state import Candidates
from .step import Step, Technique

#: The registry prefix the kernel replaces.
_SINGLES = singles.TECHNIQUES[:6]


def next_step(state: Candidates, registry: Iterable[Technique] | None = None) -> Step | None:
    """The first step of the first technique (in registry order) that has one."""
    for technique in REGISTRY if registry is None else registry:
        for step in technique.find(state):
            return step
    return None


def broken(state: Candidates) -> bool:
    """True when a blank cell has no candidate left (the state is contradictory)."""
    return any(not m and not v for m, v in zip(state.mask, state.values))


def _kernel():
    try:
        from ..engine.logic_kernels import MAX_KERNEL_SIZE, singles as run
    except Exception:  # numba missing or broken: the Python finders do it all
        return None, 0
    return run, MAX_KERNEL_SIZE


def steps(state: Candidates, registry: Iterable[Technique] | None = None, *, kernel: bool = True) -> Iterator[Step]:
    """Yield and apply steps until the grid is full or no technique applies."""
    techniques = list(REGISTRY if registry is None else registry)
    run, limit = _kernel() if kernel else (None, 0)
    fast = (
        run is not None
        and state.geo.n <= limit
        and len(techniques) >= len(_SINGLES)
        and all(a is b for a, b in zip(techniques, _SINGLES))
    )
    rest = techniques[len(_SINGLES):] if fast else techniques
    geo = state.geo
    while not state.solved and not broken(state):
        if fast:
            for cell, value, unit, alone in run(geo.shape, state.values, state.mask):
                yield singles.single_step(geo, cell, value, unit, bool(alone))
            if state.solved or broken(state):
                return
        step = next_step(state, rest)
        if step is None:
            return
        step.apply(state)
        yield step
