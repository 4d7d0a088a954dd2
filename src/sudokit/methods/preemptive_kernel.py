"""Crook's preemptive sets, compiled: the fixpoint the generator's ``preemptive`` rule runs.

:mod:`sudokit.methods.preemptive` states Crook's steps (markup, preemptive
sets, cross out, repeat), and :mod:`sudokit.methods.preemptive_fast` reaches
the same fixpoint quickly in Python for the method's ``solutions`` and
``deduce``. This module is that fixpoint once more as a numba kernel, on the
engine's N×N candidate masks (:mod:`sudokit.engine.kernelN`: one ``uint64``
per cell and an ``assigned`` flag), so that the generator can ask, thousands
of times a second, whether a puzzle still falls to Crook's logic alone
(:func:`sudokit.engine.generate.generate_batch` with ``--minimal
preemptive``). The tests hold all three to the same verdicts.

A preemptive set of ``m`` cells of a unit has ``m`` candidates between them;
they leave the unit's other cells. The same set seen from those other cells
is a hidden set of values confined to them (Crook's "occupancy"), so
searching both ways up to half the open cells finds every preemptive set
(:func:`productive_subset`).
"""

from __future__ import annotations

import numpy as np

from ..engine.compiling import load_numba

load_numba()  # before numba loads: numba without its BLAS probe

from numba import njit  # noqa: E402

from ..engine.board import pop  # noqa: E402
from ..engine.kernelN import ONE, STUCK, ZERO, singles_n  # noqa: E402

__all__ = ["fixpoint", "productive_subset"]


@njit(cache=True)
def productive_subset(masks, count, max_size, idx, uni):
    """A set of k masks whose union has exactly k bits and overlaps another mask.

    Returns ``(chosen, union)``: ``chosen`` a bit mask over the indices of
    ``masks`` (0 when there is none). Used both ways round: masks of cells'
    candidates (naked sets) and masks of digits' places (hidden sets).
    """
    if count < 2:
        return ZERO, ZERO
    depth = 0
    idx[0] = 0
    uni[0] = 0
    while True:
        if idx[depth] >= count:
            depth -= 1
            if depth < 0:
                break
            idx[depth] += 1
            continue
        u = uni[depth] | masks[idx[depth]]
        pc = pop(u)
        size = depth + 1
        if pc <= max_size:
            if pc == size:
                chosen = ZERO
                for d in range(size):
                    chosen |= ONE << np.uint64(idx[d])
                for j in range(count):
                    if (chosen >> np.uint64(j)) & ONE:
                        continue
                    if masks[j] & u:
                        return chosen, u
            elif size < max_size:
                uni[depth + 1] = u
                idx[depth + 1] = idx[depth] + 1
                depth += 1
                continue
        idx[depth] += 1
    return ZERO, ZERO


@njit(cache=True)
def fixpoint(masks, assigned, units, peers, queue) -> int:
    """Singles plus preemptive sets (naked and hidden subsets) to a fixpoint:
    COMPLETE, STUCK or CONTRADICTION.

    A preemptive set of m values confined to m cells of a unit removes those
    values from the unit's other cells (Crook). A hidden set of m values in m
    cells is the same thing seen from the unit's other cells, so searching both
    up to half the open cells finds every preemptive set.
    """
    n = units.shape[1]
    cells_m = np.empty(n, dtype=np.uint64)
    cell_ix = np.empty(n, dtype=np.int64)
    digit_m = np.empty(n, dtype=np.uint64)
    digit_ix = np.empty(n, dtype=np.int64)
    idx = np.empty(n + 1, dtype=np.int64)
    uni = np.empty(n + 2, dtype=np.uint64)
    while True:
        state = singles_n(masks, assigned, units, peers, queue)
        if state != STUCK:
            return state
        progress = False
        for u in range(units.shape[0]):
            count = 0
            placed = ZERO
            for k in range(n):
                c = units[u, k]
                if assigned[c] == 0:
                    cells_m[count] = masks[c]
                    cell_ix[count] = c
                    count += 1
                else:
                    placed |= masks[c]
            if count < 3:
                continue
            half = count // 2
            chosen, union = productive_subset(cells_m, count, half, idx, uni)
            if chosen:
                for j in range(count):
                    if not ((chosen >> np.uint64(j)) & ONE):
                        masks[cell_ix[j]] &= ~union
                progress = True
                break
            digits = 0
            for d in range(n):  # hidden sets: each open digit's places in this unit
                bit = ONE << np.uint64(d)
                if placed & bit:
                    continue
                where = ZERO
                for j in range(count):
                    if cells_m[j] & bit:
                        where |= ONE << np.uint64(j)
                digit_m[digits] = where
                digit_ix[digits] = d
                digits += 1
            chosen, union = productive_subset(digit_m, digits, half, idx, uni)
            if chosen:
                keep = ZERO
                for j in range(digits):
                    if (chosen >> np.uint64(j)) & ONE:
                        keep |= ONE << np.uint64(digit_ix[j])
                for j in range(count):
                    if (union >> np.uint64(j)) & ONE:
                        masks[cell_ix[j]] &= keep
                progress = True
                break
        if not progress:
            return STUCK
