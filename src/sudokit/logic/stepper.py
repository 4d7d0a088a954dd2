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

from operator import and_, eq
from typing import Iterable, Iterator, Sequence

from ..errors import UnsoundStep
from . import singles
from .registry import KERNEL_LADDER, REGISTRY, kernel_prefix
from .state import Candidates, is_classic
from .step import Step, Technique



def next_step(state: Candidates, registry: Iterable[Technique] | None = None) -> Step | None:
    """The first step of the first technique (in registry order) that has one."""
    if registry is None:
        registry = _ladder(state)
    for technique in registry:
        for step in technique.find(state):
            return step
    return None


def _ladder(state: Candidates) -> list[Technique]:
    """The techniques for ``state``'s geometry: the registry, SE's variant
    ladder for a geometry with extra units (diagonals, windows), or a killer's
    ladder (:func:`sudokit.logic.cages.killer_ladder`)."""
    from .generalized import ladder
    from .state import extra_units

    return ladder(state.geo) if extra_units(state.geo) or state.geo.cages else REGISTRY


def broken(state: Candidates) -> bool:
    """True when a blank cell has no candidate left (the state is contradictory).

    A placed cell has no candidates either, so the state is broken exactly when
    more cells have none than hold a value (two counts, without a loop here)."""
    values = state.values
    return state.mask.count(0) > len(values) - values.count(0)


def check_step(step: Step, truth: Sequence[int] | None, puzzle: str) -> None:
    """Raise :class:`UnsoundStep` when ``step`` removes a true value or places a wrong one.

    ``truth`` is the puzzle's one solution (None: unknown, nothing checked).
    """
    if truth is None:
        return
    for cell, value in step.eliminations:
        if truth[cell] == value:
            raise UnsoundStep(step.technique, step.text or str(step), puzzle,
                              f"it removes {value} from cell {cell}, its true value")
    for cell, value in step.placements:
        if truth[cell] != value:
            raise UnsoundStep(step.technique, step.text or str(step), puzzle,
                              f"it places {value} in cell {cell}, whose true value is {truth[cell]}")


def check_state(state: Candidates, truth: Sequence[int] | None, puzzle: str, what: str = "singles") -> None:
    """Raise :class:`UnsoundStep` when ``state`` no longer allows ``truth`` (after a run of
    compiled steps, checked as a whole)."""
    if truth is None:
        return
    values, masks = state.values, state.mask
    placed = len(values) - values.count(0)
    if sum(map(eq, values, truth)) == placed and list(map(and_, masks, _truth_bits(truth))).count(0) == placed:
        return  # (the usual case, counted without a loop here; the loop below finds the culprit)
    name = state.geo.cell_name
    for cell, (value, mask) in enumerate(zip(state.values, state.mask)):
        true = truth[cell]
        if value and value != true:
            raise UnsoundStep(what, f"{name(cell)}={value}", puzzle, f"the true value of {name(cell)} is {true}")
        if not value and not mask >> (true - 1) & 1:
            raise UnsoundStep(what, f"{name(cell)}<>{true}", puzzle, f"{name(cell)} lost its true value {true}")


#: The last :func:`_truth_bits` answer: (solution, its bits), replaced whole.
_LAST_TRUTH: tuple = ((), [])


def _truth_bits(truth: Sequence[int]) -> list[int]:
    """Per cell, the bit of its true value in a candidate mask (kept for the last solution).

    With the state's masks (0 for a placed cell), ``mask & bit`` is 0 exactly at the placed
    cells and at the open cells that lost their true value."""
    global _LAST_TRUTH
    last = _LAST_TRUTH
    if last[0] is truth or last[0] == truth:
        return last[1]
    bits = [1 << (t - 1) for t in truth]
    _LAST_TRUTH = (truth, bits)
    return bits


def _kernel(size: int = 9):
    from ..engine import prefer_compiled

    if not prefer_compiled("logic", size):  # one puzzle: the Python finders, without loading numba
        return None, 0
    try:
        from ..engine.logic_kernels import MAX_KERNEL_SIZE, singles as run
    except Exception:  # numba missing or broken: the Python finders do it all
        return None, 0
    return run, MAX_KERNEL_SIZE


def steps(state: Candidates, registry: Iterable[Technique] | None = None, *, kernel: bool = True,
          truth: Sequence[int] | None = None, puzzle: str = "") -> Iterator[Step]:
    """Yield and apply steps until the grid is full or no technique applies.

    With ``truth`` (the puzzle's one solution) every step is checked against it
    and an unsound one raises :class:`~sudokit.errors.UnsoundStep`.
    """
    techniques = list(_ladder(state) if registry is None else registry)
    run, limit = _kernel(state.geo.n) if kernel and is_classic(state.geo) else (None, 0)
    fast = (
        run is not None
        and state.geo.n <= limit
        and kernel_prefix(techniques, most=-1)[0] == -1
    )
    rest = techniques[len(KERNEL_LADDER[0]):] if fast else techniques
    geo = state.geo
    while not state.solved and not broken(state):
        if fast:
            for cell, value, unit, alone in run(geo.shape, state.values, state.mask):
                single = singles.single_step(geo, cell, value, unit, bool(alone))
                check_step(single, truth, puzzle)
                yield single
            if state.solved or broken(state):
                return
        step = next_step(state, rest)
        if step is None:
            return
        check_step(step, truth, puzzle)
        step.apply(state)
        yield step
