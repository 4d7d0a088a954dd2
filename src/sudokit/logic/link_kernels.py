"""Compiled tests of the WXYZ- to TUVWXYZ-Wings past 128 cells, for
:mod:`sudokit.logic.wings`, and of the BUG pattern, for :mod:`sudokit.logic.uniqueness`
(numba). (The strong-link searches are :mod:`sudokit.logic.link_pattern_kernels`.)

:func:`als_wing_sizes` answers, for several sizes in one walk over the sets, whether
the WXYZ- to TUVWXYZ-Wings of each size remove something; :func:`bug_pattern` says
whether the grid can be a BUG at all (the BUG producer's test of its pattern).

Cell sets are two 64-bit words (cells 0-63, 64-127), unit sets one word;
:func:`tables` builds the geometry's arrays. This module imports numba when
it is first imported.
"""

from __future__ import annotations

import numpy as np

from ..engine.compiling import load_numba

load_numba()

from numba import njit  # noqa: E402

from ..engine.logic_kernels import top_value  # noqa: E402


__all__ = ["tables", "als_wing_sizes", "bug_pattern"]

#: Most cells and units the kernel's sets hold.
MAX_CELLS, MAX_UNITS = 128, 32


def tables(geo) -> tuple:
    """The arrays of ``geo`` (a geometry without extra units, at most 128 cells and 32
    units) the BUG test reads from: the units in the strong links' scan order
    (boxes, rows, columns) with their kind (0 box, 1 line), the
    units' cells, each cell's row, column and box, each cell's units and
    peers as sets, each unit's cells as a set."""
    ncells, n = len(geo.units_of), geo.n
    order = list(geo.boxes) + list(geo.rows) + list(geo.cols)
    kinds = np.array([0] * len(geo.boxes) + [1] * (len(geo.rows) + len(geo.cols)), dtype=np.int64)
    units = np.array(order, dtype=np.int64)
    unit_cells = np.zeros((len(geo.units), n), dtype=np.int64)
    for u, cells in enumerate(geo.units):
        unit_cells[u, :] = cells
    rcb = np.array([tuple(x[:3]) for x in geo.units_of], dtype=np.int64)
    cell_units = np.array([sum(1 << u for u in x) for x in geo.units_of], dtype=np.int64)
    peer = np.zeros((ncells, 2), dtype=np.uint64)
    for c, bits in enumerate(geo.peer_mask):
        peer[c, 0] = bits & (2 ** 64 - 1)
        peer[c, 1] = bits >> 64
    unit_set = np.zeros((len(geo.units), 2), dtype=np.uint64)
    for u, bits in enumerate(geo.unit_mask):
        unit_set[u, 0] = bits & (2 ** 64 - 1)
        unit_set[u, 1] = bits >> 64
    return units, kinds, unit_cells, rcb, cell_units, peer, unit_set


@njit(inline="always")
def _low_index(m):
    """Index of the lowest set bit of a non-zero int64."""
    i = 0
    while not (m >> i) & 1:
        i += 1
    return i


@njit(inline="always")
def _count(m):
    k = 0
    while m:
        m &= m - 1
        k += 1
    return k


@njit(inline="always")
def _sees_all_bits(board, inset, peers, cells, count, nw, work):
    """Whether a cell of ``board`` (a set of cells, ``nw`` words) outside ``inset`` sees
    every cell of ``cells[:count]`` (``peers``: each cell's peers as a set)."""
    for w in range(nw):
        work[w] = board[w] & ~inset[w]
    for i in range(count):
        c = cells[i]
        for w in range(nw):
            work[w] &= peers[c, w]
    for w in range(nw):
        if work[w]:
            return True
    return False


@njit(inline="always")
def _wing_removes_bits(masks, peers, boards, als, k, union, inset, yz, nw, cells, work):
    """:func:`sudokit.engine.logic_kernels._wing_removes` on sets of cells (``inset``: the
    set and ``yz``; ``boards[v]``: the cells holding ``v``): whether the set ``als[:k]``
    (candidates ``union``) and the bivalue cell ``yz`` make a wing that removes something."""
    my = masks[yz]
    xb = my & -my
    zb = my ^ xb
    xv = _low_index(xb) + 1
    zv = _low_index(zb) + 1
    # restricted: every place of the value in the set sees yz
    x_restricted = True
    z_restricted = True
    for i in range(k):
        c = als[i]
        seen = (peers[yz, c >> 6] >> np.uint64(c & 63)) & np.uint64(1)
        if not seen:
            if masks[c] & xb:
                x_restricted = False
            if masks[c] & zb:
                z_restricted = False
    double = z_restricted
    if x_restricted:
        if double:
            rest = union & ~my
            while rest:
                wb = rest & -rest
                rest ^= wb
                n = 0
                for i in range(k):
                    if masks[als[i]] & wb:
                        cells[n] = als[i]
                        n += 1
                if _sees_all_bits(boards[_low_index(wb) + 1], inset, peers, cells, n, nw, work):
                    return True
        for j in range(2 if double else 1):
            vb = zb if j == 0 else xb
            v = zv if j == 0 else xv
            n = 0
            for i in range(k):
                if masks[als[i]] & vb:
                    cells[n] = als[i]
                    n += 1
            cells[n] = yz
            if _sees_all_bits(boards[v], inset, peers, cells, n + 1, nw, work):
                return True
        return False
    if double:
        n = 0
        for i in range(k):
            if masks[als[i]] & xb:
                cells[n] = als[i]
                n += 1
        cells[n] = yz
        return _sees_all_bits(boards[xv], inset, peers, cells, n + 1, nw, work)
    return False


@njit(cache=True, nogil=True)
def als_wing_sizes(masks, peer, kmin, kmax):
    """Bit ``k`` set for each set size ``k`` from ``kmin`` to ``kmax`` (3: WXYZ-Wing to 6:
    TUVWXYZ-Wing) that has a wing removing something, by the rules of
    :func:`sudokit.engine.logic_kernels.als_wings`: the same sets (``k`` mutually seeing
    cells, each with two or more candidates, ``k + 1`` values among them), the same
    bivalue cells and the same removals (looked for on sets of cells, a word at a time).
    One walk grows the sets up to ``kmax`` cells (``kmax + 1`` values at most): a set of
    ``k`` cells and ``k + 1`` values is met on the way whatever its size, so each size is
    answered at once."""
    ncells = masks.shape[0]
    nw = (ncells + 63) >> 6
    one = np.uint64(1)
    pops = np.empty(ncells, dtype=np.int64)
    bivalue = np.empty(ncells, dtype=np.int64)
    nbivalue = 0
    nvalues = top_value(masks)
    for c in range(ncells):
        pops[c] = _count(masks[c])
        if pops[c] == 2:
            bivalue[nbivalue] = c
            nbivalue += 1
    peers = np.zeros((ncells, nw), dtype=np.uint64)
    for c in range(ncells):
        for p in range(ncells):
            if peer[c, p]:
                peers[c, p >> 6] |= one << np.uint64(p & 63)
    boards = np.zeros((nvalues + 1, nw), dtype=np.uint64)
    for c in range(ncells):
        m = masks[c]
        v = 1
        while m:
            if m & 1:
                boards[v, c >> 6] |= one << np.uint64(c & 63)
            m >>= 1
            v += 1
    inset = np.zeros(nw, dtype=np.uint64)
    work = np.empty(nw, dtype=np.uint64)
    most = kmax + 1
    cand = np.empty((kmax, ncells), dtype=np.int64)
    ncand = np.zeros(kmax, dtype=np.int64)
    pos = np.zeros(kmax, dtype=np.int64)
    chosen = np.empty(kmax, dtype=np.int64)
    unions = np.zeros(kmax, dtype=np.int64)
    cells = np.empty(kmax + 1, dtype=np.int64)
    wanted = 0
    for k in range(kmin, kmax + 1):
        wanted |= 1 << k
    found = 0
    for a in range(ncells):
        if not 1 < pops[a] <= most:
            continue
        chosen[0] = a
        unions[0] = masks[a]
        n = 0
        for p in range(a + 1, ncells):
            if peer[a, p] and 1 < pops[p] <= most:  # (the others are skipped below anyway)
                cand[1, n] = p
                n += 1
        ncand[1] = n
        pos[1] = 0
        depth = 1
        while depth >= 1:
            if pos[depth] >= ncand[depth]:
                depth -= 1
                continue
            c = cand[depth, pos[depth]]
            pos[depth] += 1
            m = unions[depth - 1] | masks[c]
            if pops[c] < 2 or _count(m) > most:
                continue
            chosen[depth] = c
            size = depth + 1
            if size >= kmin and not (found >> size) & 1 and _count(m) == size + 1:
                # a set of this size: the bivalue cells outside it that see one of its cells
                for w in range(nw):
                    inset[w] = 0
                for i in range(size):
                    x = chosen[i]
                    inset[x >> 6] |= one << np.uint64(x & 63)
                for b in range(nbivalue):
                    yz = bivalue[b]
                    if (inset[yz >> 6] >> np.uint64(yz & 63)) & one or masks[yz] & m != masks[yz]:
                        continue
                    near = False
                    for i in range(size):
                        if peer[chosen[i], yz]:
                            near = True
                            break
                    if not near:
                        continue
                    inset[yz >> 6] |= one << np.uint64(yz & 63)
                    removes = _wing_removes_bits(masks, peers, boards, chosen, size, m, inset, yz, nw, cells, work)
                    inset[yz >> 6] &= ~(one << np.uint64(yz & 63))
                    if removes:
                        found |= 1 << size
                        break
                if found == wanted:
                    return found
            if size < kmax:
                nn = 0
                for j in range(pos[depth], ncand[depth]):
                    d = cand[depth, j]
                    if peer[c, d]:
                        cand[depth + 1, nn] = d
                        nn += 1
                unions[depth] = m
                ncand[depth + 1] = nn
                pos[depth + 1] = 0
                depth += 1
    return found


@njit(cache=True, nogil=True)
def bug_pattern(masks, unit_cells, peer):
    """Whether the candidates may be a BUG with extras, by the test of
    :func:`sudokit.logic.uniqueness._bug`, units in its order (``unit_cells``: boxes,
    rows, columns, one row of cells each): False exactly where that test answers None
    (a cell with no candidate left counts as placed here, so such a grid gets True and
    the test itself)."""
    ncells = masks.shape[0]
    nunits = unit_cells.shape[0]
    n = unit_cells.shape[1]
    temp = masks.copy()
    is_bug = np.zeros(ncells, dtype=np.bool_)
    cells = np.empty(ncells, dtype=np.int64)
    ncells_bug = 0
    every = 0
    common_l = ~np.uint64(0)
    common_h = ~np.uint64(0)
    one = np.uint64(1)
    for t in range(nunits):
        for v in range(1, n + 1):
            bit = 1 << (v - 1)
            count = 0
            nbig = 0
            big = -1
            for i in range(n):
                c = unit_cells[t, i]
                if masks[c] & bit:
                    count += 1
                    if _count(masks[c]) >= 3:
                        nbig += 1
                        big = c
            if count == 0 or count == 2:
                continue
            if nbig == 0:
                return False
            if nbig == 1:
                if not is_bug[big]:
                    is_bug[big] = True
                    cells[ncells_bug] = big
                    ncells_bug += 1
                every |= bit
                temp[big] &= ~bit
                common_l &= peer[big, 0]
                common_h &= peer[big, 1]
                for j in range(ncells_bug):
                    b = cells[j]
                    if b < 64:
                        common_l &= ~(one << np.uint64(b))
                    else:
                        common_h &= ~(one << np.uint64(b - 64))
                if ncells_bug > 1 and _count(every) > 1 and common_l == 0 and common_h == 0:
                    return False
    if ncells_bug == 0:
        return False
    for c in range(ncells):
        if masks[c] and _count(temp[c]) != 2:
            return False
    for t in range(nunits):
        for v in range(1, n + 1):
            bit = 1 << (v - 1)
            count = 0
            for i in range(n):
                if temp[unit_cells[t, i]] & bit:
                    count += 1
            if count != 0 and count != 2:
                return False
    return True
