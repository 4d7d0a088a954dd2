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
from .compiling import load_numba

load_numba()  # before the first kernel loads: numba without its BLAS probe

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
 POINTING, CLAIMING, NAKED_PAIR, X_WING, HIDDEN_PAIR, NAKED_TRIPLET, SWORDFISH, HIDDEN_TRIPLET) = range(15)
EASY_RATINGS = (1.0, 1.2, 1.5, 1.7, 2.0, 2.3, 2.5, 2.6, 2.8, 3.0, 3.2, 3.4, 3.6, 3.8, 4.0)

#: How far :func:`easy` goes: up to 2.5, up to claiming (2.8), up to hidden triplet (4.0).
LEVEL_DIRECT, LEVEL_LOCKING, LEVEL_SUBSETS = 0, 1, 2


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
def _next_combo(idx, k, count):
    """Advance ``idx`` (k ascending indices below ``count``) to the next
    combination in lexicographic order; False after the last."""
    i = k - 1
    while i >= 0 and idx[i] == count - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@njit(cache=True)
def _naked_apply(masks, units, order, n, k):
    """SE's first naked set of size k: remove its values from the rest of the unit."""
    cells = np.empty(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    for o in range(order.shape[0]):
        u = order[o]
        count = 0
        for i in range(n):
            c = units[u, i]
            if masks[c] and _popcount(masks[c]) <= k:
                cells[count] = c
                count += 1
        if count < k:
            continue
        for j in range(k):
            idx[j] = j
        while True:
            union = 0
            for j in range(k):
                union |= masks[cells[idx[j]]]
            if _popcount(union) == k:
                hit = False
                for i in range(n):
                    c = units[u, i]
                    inside = False
                    for j in range(k):
                        if cells[idx[j]] == c:
                            inside = True
                    if not inside and masks[c] & union:
                        masks[c] &= ~union
                        hit = True
                if hit:
                    return True
            if not _next_combo(idx, k, count):
                break
    return False


@njit(cache=True)
def _hidden_candidates(masks, units, u, n, k, where, usable):
    """Fill ``where[v]`` (bit i: value v+1 may go in the unit's i-th cell) and
    ``usable`` (the values with at most k places); return how many values are
    usable, or 0 when unit ``u`` cannot hold a hidden set of size k."""
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
    return nu if nu >= k and present > k else 0


@njit(cache=True)
def _hidden_apply(masks, units, order, n, k):
    """SE's first hidden set of size k: remove the other values from its cells."""
    where = np.zeros(n, dtype=np.int64)
    usable = np.empty(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    for o in range(order.shape[0]):
        u = order[o]
        nu = _hidden_candidates(masks, units, u, n, k, where, usable)
        if nu == 0:
            continue
        for j in range(k):
            idx[j] = j
        while True:
            union = 0
            keep = 0
            for j in range(k):
                union |= where[usable[idx[j]]]
                keep |= np.int64(1) << usable[idx[j]]
            if _popcount(union) == k:
                hit = False
                for i in range(n):
                    if (union >> i) & 1:
                        c = units[u, i]
                        if masks[c] & ~keep:
                            masks[c] &= keep
                            hit = True
                if hit:
                    return True
            if not _next_combo(idx, k, nu):
                break
    return False


@njit(cache=True)
def _fish_apply(masks, units, n, k):
    """SE's first fish with k base lines (columns as base first)."""
    lines = np.empty(n, dtype=np.int64)
    pos = np.empty(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    for by_rows in (0, 1):
        base0 = 0 if by_rows else n
        cover0 = n if by_rows else 0
        for v in range(n):
            bit = np.int64(1) << v
            count = 0
            for b in range(n):
                p = 0
                for i in range(n):
                    if masks[units[base0 + b, i]] & bit:
                        p |= np.int64(1) << i
                if p and _popcount(p) <= k:
                    lines[count] = b
                    pos[count] = p
                    count += 1
            if count < k:
                continue
            for j in range(k):
                idx[j] = j
            while True:
                union = 0
                bases = 0
                for j in range(k):
                    union |= pos[idx[j]]
                    bases |= np.int64(1) << lines[idx[j]]
                if _popcount(union) == k:
                    hit = False
                    for i in range(n):
                        if (union >> i) & 1:
                            for j in range(n):
                                c = units[cover0 + i, j]
                                if not (bases >> j) & 1 and masks[c] & bit:
                                    masks[c] &= ~bit
                                    hit = True
                    if hit:
                        return True
                if not _next_combo(idx, k, count):
                    break
    return False


@njit(cache=True)
def _direct_hidden(masks, units, order, n, k):
    """SE's first direct hidden pair (k=2) or triplet (k=3): (cell, value) or (-1, 0)."""
    where = np.zeros(n, dtype=np.int64)
    usable = np.zeros(n, dtype=np.int64)
    for idx in range(order.shape[0]):
        u = order[idx]
        nu = _hidden_candidates(masks, units, u, n, k, where, usable)
        if nu == 0:
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
def _run_easy(values, masks, units, order, units_of, peers, out, level):
    """Apply SE's techniques up to 2.5 (level 0), 2.8 (level 1: pointing and
    claiming too) or 4.0 (level 2: subsets, X-Wing, Swordfish) in SE's order;
    record (code, cell, value), cell -1 for an elimination step."""
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
        if code < 0 and level >= 1:
            if _locked_apply(masks, units, units_of, n, True):
                code = POINTING
            elif _locked_apply(masks, units, units_of, n, False):
                code = CLAIMING
            elif level >= 2:
                if _naked_apply(masks, units, order, n, 2):
                    code = NAKED_PAIR
                elif _fish_apply(masks, units, n, 2):
                    code = X_WING
                elif _hidden_apply(masks, units, order, n, 2):
                    code = HIDDEN_PAIR
                elif _naked_apply(masks, units, order, n, 3):
                    code = NAKED_TRIPLET
                elif _fish_apply(masks, units, n, 3):
                    code = SWORDFISH
                elif _hidden_apply(masks, units, order, n, 3):
                    code = HIDDEN_TRIPLET
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


def easy(shape: Shape, values: list[int], masks: list[int], level: int = LEVEL_SUBSETS) -> list[tuple[int, int, int]]:
    """Apply SE's techniques in place, in SE's order: those rated up to 2.5
    (singles, direct pointing, direct hidden pair, naked single, direct hidden
    triplet); from :data:`LEVEL_LOCKING` also pointing (2.6) and claiming
    (2.8); from :data:`LEVEL_SUBSETS` also naked and hidden pairs and
    triplets, X-Wing and Swordfish (up to 4.0). Return the steps as
    ``(code, cell, value)``, cell -1 for an elimination step;
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
    count = _run_easy(v, m, units, order, _units_of(shape), peers, out, level)
    values[:] = v.tolist()
    masks[:] = m.tolist()
    return [tuple(row) for row in out[:count].tolist()]
