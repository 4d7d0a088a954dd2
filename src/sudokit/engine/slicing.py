"""Run a resumable kernel in slices: limits, partial results and Ctrl-C.

A signal cannot reach compiled code: while a numba kernel runs, Ctrl-C only
sets a flag, and Python raises :class:`KeyboardInterrupt` when the kernel
returns. So a kernel that may run long is written to stop after a budget of
nodes (work units) and resume from its saved state, and :func:`run_in_slices`
calls it again and again, each call sized to take about
:data:`SLICE_SECONDS`. Between two calls it charges the nodes to a
:class:`~sudokit.budget.Budget`, reads the clock, and Python takes any pending
Ctrl-C. The caller keeps the kernel's state, so whatever it found before a
limit or an interrupt (a partial count, say) is still there.

The slices grow from :data:`FIRST_SLICE` nodes, so a short search pays for
one call, and adapt to the measured speed, so that a slice takes about
:data:`SLICE_SECONDS` whatever a node costs.

>>> from sudokit.budget import Budget
>>> work = {"left": 10_000}
>>> def step(cap):            # a stand-in for a kernel: 10,000 nodes of work
...     used = min(cap, work["left"])
...     work["left"] -= used
...     return work["left"] == 0, used
>>> budget = Budget()
>>> run_in_slices(step, budget)
>>> budget.nodes_used
10000
>>> work["left"] = 10_000
>>> run_in_slices(step, Budget(nodes=5_000))
Traceback (most recent call last):
...
sudokit.errors.LimitReached: node limit of 5000 reached
"""

from __future__ import annotations

import time
from typing import Callable

from ..budget import Budget
from ..errors import LimitReached

__all__ = ["run_in_slices", "FIRST_SLICE", "SLICE_SECONDS"]

#: Nodes of the first slice: most searches end inside it, in one call.
FIRST_SLICE = 1 << 12
#: Wall time a slice aims at; Ctrl-C and the clock are seen this often.
SLICE_SECONDS = 0.05
#: The largest slice, whatever the speed.
MAX_SLICE = 1 << 40


def run_in_slices(
    step: Callable[[int], tuple[bool, int]],
    budget: Budget | None = None,
    *,
    deadline: float | None = None,
    first: int = FIRST_SLICE,
    seconds: float = SLICE_SECONDS,
) -> None:
    """Call ``step(cap)`` until it reports that it is done.

    ``step(cap)`` runs a resumable kernel for at most ``cap`` (> 0) nodes from
    where the last call stopped and returns ``(done, used)``: whether the work
    is finished and how many nodes this call used. After each call the nodes
    are charged to ``budget`` (``budget.nodes_used``); then, unless the work
    is done, :class:`~sudokit.errors.LimitReached` is raised when the budget's
    node limit is used up or its time limit, or ``deadline`` (a
    :func:`time.perf_counter` value), has passed. A Ctrl-C during a call is
    raised as :class:`KeyboardInterrupt` when the call returns.

    Returns when the work is done; the results are in the kernel's state.
    """
    cap = max(1, first)
    while True:
        remaining = None if budget is None else budget.remaining_nodes
        if remaining is not None and remaining <= 0:
            raise LimitReached(f"node limit of {budget.nodes} reached")  # type: ignore[union-attr]
        this = cap if remaining is None else min(cap, remaining)
        started = time.perf_counter()
        done, used = step(this)
        now = time.perf_counter()
        if budget is not None:
            budget.nodes_used += used
        if done:
            return
        if budget is not None:
            budget.check_time()
            if budget.nodes is not None and budget.nodes_used >= budget.nodes:
                raise LimitReached(f"node limit of {budget.nodes} reached")
        if deadline is not None and now > deadline:
            raise LimitReached("time limit reached")
        # size the next slice to take about `seconds`
        elapsed = now - started
        if used >= this:
            if elapsed <= 0:
                cap = min(cap * 4, MAX_SLICE)
            else:
                cap = int(min(max(cap * seconds / elapsed, cap / 2), cap * 4, MAX_SLICE))
            cap = max(cap, 1)
