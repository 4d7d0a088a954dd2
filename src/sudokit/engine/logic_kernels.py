"""Compiled kernels for :mod:`sudokit.logic`: runs of singles in SE's order.

Most steps of a human solving path are singles. :func:`run_singles` applies
them one at a time, exactly as :mod:`sudokit.logic.singles` would (last value
in a box, column, row; then hidden single in a box, column, row; units in
order; values ascending), and records each step, so the Python stepper only
runs the harder techniques.

The plain-Python wrapper :func:`singles` checks its input and converts lists
to arrays; the numba types stay inside this module.

>>> from sudokit.grid import Grid
>>> g = Grid("5763894213926148754187526398619472537392..1..2541.89..6435.....9854.....1.78.3...")
>>> values, masks = list(g.values), [0 if v else m for v, m in zip(g.values, g.candidate_masks())]
>>> records = singles(g.shape, values, masks)
>>> len(records), records[0], 0 in values
(22, (73, 2, 24, 1), False)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from ..grid import Shape

#: Largest size the kernels take (masks are int64).
MAX_KERNEL_SIZE = 62


@njit(cache=True)
def _first_single(values, masks, units, order):
    """(cell, value, unit, alone) of SE's first single, or cell -1."""
    n = units.shape[1]
    for alone in (1, 0):
        for k in range(order.shape[0]):
            u = order[k]
            once = 0
            twice = 0
            empty = 0
            for i in range(n):
                c = units[u, i]
                m = masks[c]
                twice |= once & m
                once |= m
                if values[c] == 0:
                    empty += 1
            if (empty == 1) != (alone == 1):
                continue
            single = once & ~twice
            if single == 0:
                continue
            v = 0
            while not (single >> v) & 1:
                v += 1
            bit = np.int64(1) << v
            for i in range(n):
                c = units[u, i]
                if masks[c] & bit:
                    return c, v + 1, u, alone
    return -1, 0, -1, 0


@njit(cache=True)
def _run_singles(values, masks, units, order, peers, out):
    """Apply singles until none is left or a blank cell runs dry; record
    (cell, value, unit, alone) rows in ``out``; return how many."""
    count = 0
    ncells = values.shape[0]
    while count < out.shape[0]:
        broken = False
        full = True
        for c in range(ncells):
            if values[c] == 0:
                full = False
                if masks[c] == 0:
                    broken = True
                    break
        if broken or full:
            break
        cell, value, unit, alone = _first_single(values, masks, units, order)
        if cell < 0:
            break
        values[cell] = value
        masks[cell] = 0
        clear = ~(np.int64(1) << (value - 1))
        for j in range(peers.shape[1]):
            p = peers[cell, j]
            masks[p] &= clear
        out[count, 0] = cell
        out[count, 1] = value
        out[count, 2] = unit
        out[count, 3] = alone
        count += 1
    return count


@lru_cache(maxsize=None)
def _tables(shape: Shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = shape.size
    units = np.array(shape.units, dtype=np.int32)
    order = np.array(list(range(2 * n, 3 * n)) + list(range(n, 2 * n)) + list(range(n)), dtype=np.int32)
    peers = np.array(shape.peers, dtype=np.int32)
    return units, order, peers


def singles(shape: Shape, values: list[int], masks: list[int]) -> list[tuple[int, int, int, int]]:
    """Apply SE's singles in place on ``values`` and ``masks`` (lists, one
    entry per cell; a filled cell has mask 0) and return the steps as
    ``(cell, value, unit id, alone)``; ``alone`` is 1 for a last value."""
    if shape.size > MAX_KERNEL_SIZE:
        raise ValueError(f"the logic kernels take sizes up to {MAX_KERNEL_SIZE}, not {shape.size}")
    if len(values) != shape.cell_count or len(masks) != shape.cell_count:
        raise ValueError(f"a {shape} grid has {shape.cell_count} cells")
    units, order, peers = _tables(shape)
    v = np.array(values, dtype=np.int64)
    m = np.array(masks, dtype=np.int64)
    out = np.empty((shape.cell_count, 4), dtype=np.int64)
    count = _run_singles(v, m, units, order, peers, out)
    values[:] = v.tolist()
    masks[:] = m.tolist()
    return [tuple(row) for row in out[:count].tolist()]
