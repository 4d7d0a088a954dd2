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


# -- the easy ladder: every SE technique rated up to 2.5 ------------------------------

#: Codes of the steps :func:`easy` records, and their SE ratings.
(LAST_VALUE, HIDDEN_BOX, HIDDEN_LINE, DIRECT_POINTING, DIRECT_HIDDEN_PAIR, NAKED_SINGLE, DIRECT_HIDDEN_TRIPLET,
 POINTING, CLAIMING) = range(9)
EASY_RATINGS = (1.0, 1.2, 1.5, 1.7, 2.0, 2.3, 2.5, 2.6, 2.8)


@njit(cache=True)
def _popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def _lowbit_index(x):
    i = 0
    while not (x >> i) & 1:
        i += 1
    return i


@njit(cache=True)
def _direct_pointing(masks, units, units_of, n):
    """SE's first direct pointing: (single cell, value) or (-1, 0)."""
    for kind2 in (1, 0):  # box -> column, then box -> row
        for v in range(n):
            bit = np.int64(1) << v
            for b in range(n):
                box = 2 * n + b
                count = 0
                first = -1
                same = True
                line = -1
                for i in range(n):
                    c = units[box, i]
                    if masks[c] & bit:
                        count += 1
                        u2 = units_of[c, kind2]
                        if first < 0:
                            first = c
                            line = u2
                        elif u2 != line:
                            same = False
                if count < 2 or not same:
                    continue
                # boxes (ascending) that lose the value on the line
                for tb in range(n):
                    tbox = 2 * n + tb
                    if tbox == box:
                        continue
                    touched = False
                    left = 0
                    last = -1
                    for i in range(n):
                        c = units[tbox, i]
                        if masks[c] & bit:
                            if units_of[c, kind2] == line:
                                touched = True
                            else:
                                left += 1
                                last = c
                    if touched and left == 1:
                        return last, v + 1
    return -1, 0


@njit(cache=True)
def _locked_apply(masks, units, units_of, n, pointing):
    """Apply SE's first pointing (or claiming) elimination; return True if one."""
    for p in range(2):
        if pointing:
            kind1, kind2 = 2, 1 - p  # box -> column, box -> row
        else:
            kind1, kind2 = 1 - p, 2  # column -> box, row -> box
        for v in range(n):
            bit = np.int64(1) << v
            for k in range(n):
                u1 = kind1 * n + k
                count = 0
                u2 = -1
                same = True
                for i in range(n):
                    c = units[u1, i]
                    if masks[c] & bit:
                        count += 1
                        if u2 < 0:
                            u2 = units_of[c, kind2]
                        elif units_of[c, kind2] != u2:
                            same = False
                if count < 2 or not same:
                    continue
                hit = False
                for i in range(n):
                    c = units[u2, i]
                    if masks[c] & bit and units_of[c, kind1] != u1:
                        masks[c] &= ~bit
                        hit = True
                if hit:
                    return True
    return False


@njit(cache=True)
def _direct_hidden(masks, units, order, n, k):
    """SE's first direct hidden pair (k=2) or triplet (k=3): (cell, value) or (-1, 0)."""
    where = np.zeros(n, dtype=np.int64)
    usable = np.zeros(n, dtype=np.int64)
    for idx in range(order.shape[0]):
        u = order[idx]
        for v in range(n):
            where[v] = 0
        for i in range(n):
            m = masks[units[u, i]]
            for v in range(n):
                if (m >> v) & 1:
                    where[v] |= np.int64(1) << i
        present = 0
        nu = 0
        for v in range(n):
            if where[v]:
                present += 1
                if _popcount(where[v]) <= k:
                    usable[nu] = v
                    nu += 1
        if nu < k or present <= k:
            continue
        for a in range(nu):
            for b in range(a + 1, nu):
                if k == 2:
                    union = where[usable[a]] | where[usable[b]]
                    if _popcount(union) != 2:
                        continue
                    for v in range(n):
                        if v == usable[a] or v == usable[b] or where[v] == 0:
                            continue
                        pos = where[v]
                        if _popcount(pos) < 2:
                            continue
                        rest = pos & ~union
                        if rest and _popcount(rest) == 1:
                            return units[u, _lowbit_index(rest)], v + 1
                else:
                    for c3 in range(b + 1, nu):
                        union = where[usable[a]] | where[usable[b]] | where[usable[c3]]
                        if _popcount(union) != 3:
                            continue
                        for v in range(n):
                            if v == usable[a] or v == usable[b] or v == usable[c3] or where[v] == 0:
                                continue
                            pos = where[v]
                            if _popcount(pos) < 2:
                                continue
                            rest = pos & ~union
                            if rest and _popcount(rest) == 1:
                                return units[u, _lowbit_index(rest)], v + 1
    return -1, 0


@njit(cache=True)
def _run_easy(values, masks, units, order, units_of, peers, out, locking):
    """Apply SE's techniques up to 2.5 (2.8 with ``locking``: pointing and
    claiming too) in SE's order; record (code, cell, value), cell -1 for an
    elimination step."""
    n = units.shape[1]
    ncells = values.shape[0]
    count = 0
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
        code = -1
        if cell >= 0:
            if alone:
                code = LAST_VALUE
            elif unit >= 2 * n:
                code = HIDDEN_BOX
            else:
                code = HIDDEN_LINE
        else:
            cell, value = _direct_pointing(masks, units, units_of, n)
            if cell >= 0:
                code = DIRECT_POINTING
            else:
                cell, value = _direct_hidden(masks, units, order, n, 2)
                if cell >= 0:
                    code = DIRECT_HIDDEN_PAIR
                else:
                    for c in range(ncells):
                        m = masks[c]
                        if m and not (m & (m - 1)):
                            cell = c
                            value = _lowbit_index(m) + 1
                            code = NAKED_SINGLE
                            break
                    if code < 0:
                        cell, value = _direct_hidden(masks, units, order, n, 3)
                        if cell >= 0:
                            code = DIRECT_HIDDEN_TRIPLET
        if code < 0 and locking:
            if _locked_apply(masks, units, units_of, n, True):
                code = POINTING
            elif _locked_apply(masks, units, units_of, n, False):
                code = CLAIMING
            if code >= 0:
                out[count, 0] = code
                out[count, 1] = -1
                out[count, 2] = 0
                count += 1
                continue
        if code < 0:
            break
        values[cell] = value
        masks[cell] = 0
        clear = ~(np.int64(1) << (value - 1))
        for j in range(peers.shape[1]):
            masks[peers[cell, j]] &= clear
        out[count, 0] = code
        out[count, 1] = cell
        out[count, 2] = value
        count += 1
    return count


@lru_cache(maxsize=None)
def _units_of(shape: Shape) -> np.ndarray:
    return np.array(shape.units_of, dtype=np.int32)


def easy(shape: Shape, values: list[int], masks: list[int], locking: bool = True) -> list[tuple[int, int, int]]:
    """Apply SE's techniques rated up to 2.5 (singles, direct pointing, direct
    hidden pair, naked single, direct hidden triplet), and with ``locking``
    pointing (2.6) and claiming (2.8), in place, in SE's order. Return the
    steps as ``(code, cell, value)``, cell -1 for pointing and claiming;
    :data:`EASY_RATINGS` gives each code's rating. (Direct claiming, 1.9,
    never fires in SE.)"""
    if shape.size > MAX_KERNEL_SIZE:
        raise ValueError(f"the logic kernels take sizes up to {MAX_KERNEL_SIZE}, not {shape.size}")
    if len(values) != shape.cell_count or len(masks) != shape.cell_count:
        raise ValueError(f"a {shape} grid has {shape.cell_count} cells")
    units, order, peers = _tables(shape)
    v = np.array(values, dtype=np.int64)
    m = np.array(masks, dtype=np.int64)
    out = np.empty((shape.cell_count * (shape.size + 1), 3), dtype=np.int64)
    count = _run_easy(v, m, units, order, _units_of(shape), peers, out, locking)
    values[:] = v.tolist()
    masks[:] = m.tolist()
    return [tuple(row) for row in out[:count].tolist()]
