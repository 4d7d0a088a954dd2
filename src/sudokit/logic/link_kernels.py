"""Compiled tests of the strong-link producers (numba), for :mod:`sudokit.logic.links`,
and of the WXYZ- to TUVWXYZ-Wings past 128 cells, for :mod:`sudokit.logic.wings`.

:func:`link_values` answers, for every value at once, whether the value
has a chain of ``k`` strong links (2, 3 or 4) that removes something, by the
very rules of :func:`links._two_links_of` (``k = 2``) and
:func:`links._chain_links_dfs` (``k = 3, 4``): the same links (single cells,
a line's two box parts, a box's empty rectangle with its heart), the same
weak links and the same removals, loops included. It does not sort, name or
deduplicate; the Python search then runs only for the values it names, and
makes the steps. On the band of chain puzzles nearly every call finds
nothing, so nearly every value is answered here. :func:`als_wing_sizes` does
the same for the WXYZ- to
TUVWXYZ-Wings, several sizes in one walk over the sets; :func:`bug_pattern` says
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


__all__ = ["tables", "link_values", "als_wing_sizes", "bug_pattern"]

#: Most cells and units the kernel's sets hold.
MAX_CELLS, MAX_UNITS = 128, 32


def tables(geo) -> tuple:
    """The arrays :func:`link_values` takes for ``geo`` (a geometry without
    extra units, at most 128 cells and 32 units: the links, two a unit, are a set of one word): the units in the links'
    scan order (boxes, rows, columns) with their kind (0 box, 1 line), the
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


@njit(cache=True, nogil=True)
def link_values(masks, k, todo, units, kinds, unit_cells, rcb, cell_units, peer, unit_set):
    """Bit ``v`` set (values 1..n) when value ``v`` has a chain of ``k`` strong
    links that removes something (see the module's notes); only the values of
    ``todo`` (bit ``v``) with at least ``2 k`` places are looked at (a value's
    answer depends on its places only, so the caller may remember it)."""
    ncells = masks.shape[0]
    n = unit_cells.shape[1]
    nunits = units.shape[0]
    most = 2 * nunits
    # per oriented link: unit, x (start / entry), y (inner / exit), heart, as cell sets
    lu = np.zeros(most, dtype=np.int64)
    xl = np.zeros(most, dtype=np.uint64)
    xh = np.zeros(most, dtype=np.uint64)
    yl = np.zeros(most, dtype=np.uint64)
    yh = np.zeros(most, dtype=np.uint64)
    hl = np.zeros(most, dtype=np.uint64)
    hh = np.zeros(most, dtype=np.uint64)
    entry_u = np.zeros(most, dtype=np.int64)
    exit_u = np.zeros(most, dtype=np.int64)
    sees_l = np.zeros(most, dtype=np.uint64)  # the cells that see every cell of y
    sees_h = np.zeros(most, dtype=np.uint64)
    here = np.zeros(n, dtype=np.int64)
    side = np.zeros(n, dtype=np.int64)
    inner_u = np.zeros(most, dtype=np.int64)  # the units holding y and the heart
    # depth-first state, per level
    stack_j = np.zeros(5, dtype=np.int64)
    cand = np.zeros(5, dtype=np.uint64)  # per level: the links still to try
    want = np.zeros(5, dtype=np.uint64)  # per level: the links that can still lead to a removal
    succ = np.zeros(most, dtype=np.uint64)
    first_succ = np.zeros(most, dtype=np.uint64)
    stack_w = np.zeros(5, dtype=np.int64)
    used_l = np.zeros(5, dtype=np.uint64)
    used_h = np.zeros(5, dtype=np.uint64)
    out = 0
    one = np.uint64(1)
    zero = np.uint64(0)
    for v in range(1, n + 1):
        if not (todo >> v) & 1:
            continue
        bit = 1 << (v - 1)
        hol = zero
        hoh = zero
        places = 0
        for c in range(ncells):
            if masks[c] & bit:
                places += 1
                if c < 64:
                    hol |= one << np.uint64(c)
                else:
                    hoh |= one << np.uint64(c - 64)
        if places < 2 * k:
            continue
        # the links, in the scan order, each in both directions; per part (a, b, heart)
        # the units holding all its cells and the cells seeing all of them
        count = 0
        for t in range(nunits):
            u = units[t]
            m = 0
            for i in range(n):
                c = unit_cells[u, i]
                if masks[c] & bit:
                    here[m] = c
                    m += 1
            if m < 2 or m > 6:
                continue
            side[:m] = 0  # 1: part a, 2: part b
            heart = -1
            if m == 2:
                p0, p1 = here[0], here[1]
                if kinds[t] == 0 and k > 2 and (rcb[p0, 0] == rcb[p1, 0] or rcb[p0, 1] == rcb[p1, 1]):
                    continue
                side[0] = 1
                side[1] = 2
            elif kinds[t] == 0:
                ok = False
                for i in range(n):  # the first heart whose row and column hold every place
                    cell = unit_cells[u, i]
                    r, col = rcb[cell, 0], rcb[cell, 1]
                    cover = True
                    for q in range(m):
                        if rcb[here[q], 0] != r and rcb[here[q], 1] != col:
                            cover = False
                            break
                    if not cover:
                        continue
                    rows = 0
                    cols = 0
                    for q in range(m):
                        c = here[q]
                        if c == cell:
                            continue
                        if rcb[c, 0] == r:
                            rows += 1
                            side[q] = 1
                        else:
                            cols += 1
                            side[q] = 2
                    if rows and cols:
                        ok = True
                        if masks[cell] & bit:
                            heart = cell
                    break
                if not ok:
                    continue
            else:
                b0 = rcb[here[0], 2]
                b1 = -1
                two = True
                for q in range(1, m):
                    b = rcb[here[q], 2]
                    if b == b0:
                        continue
                    if b1 < 0:
                        b1 = b
                    elif b != b1:
                        two = False
                        break
                if not two or b1 < 0:
                    continue
                for q in range(m):
                    side[q] = 1 if rcb[here[q], 2] == b0 else 2
            al = zero
            ah = zero
            bl = zero
            bh = zero
            gl = zero
            gh = zero
            au = -1
            bu = -1
            gu = -1
            asl = ~zero
            ash = ~zero
            bsl = ~zero
            bsh = ~zero
            for q in range(m):
                c = here[q]
                if side[q] == 1:
                    if c < 64:
                        al |= one << np.uint64(c)
                    else:
                        ah |= one << np.uint64(c - 64)
                    au &= cell_units[c]
                    asl &= peer[c, 0]
                    ash &= peer[c, 1]
                elif side[q] == 2:
                    if c < 64:
                        bl |= one << np.uint64(c)
                    else:
                        bh |= one << np.uint64(c - 64)
                    bu &= cell_units[c]
                    bsl &= peer[c, 0]
                    bsh &= peer[c, 1]
            if heart >= 0:
                if heart < 64:
                    gl = one << np.uint64(heart)
                else:
                    gh = one << np.uint64(heart - 64)
                gu = cell_units[heart]
            for o in range(2):
                lu[count] = u
                hl[count] = gl
                hh[count] = gh
                if o == 0:
                    xl[count] = al
                    xh[count] = ah
                    yl[count] = bl
                    yh[count] = bh
                    entry_u[count] = au & gu
                    exit_u[count] = bu
                    inner_u[count] = bu & gu
                    sees_l[count] = bsl
                    sees_h[count] = bsh
                else:
                    xl[count] = bl
                    xh[count] = bh
                    yl[count] = al
                    yh[count] = ah
                    entry_u[count] = bu & gu
                    exit_u[count] = au
                    inner_u[count] = au & gu
                    sees_l[count] = asl
                    sees_h[count] = ash
                count += 1
        if count < 2 * k:
            continue
        found = False
        if k == 2:
            # two sides: a start (x) and an inner end (y and the heart) each; the inner ends share a unit
            for a in range(count):
                if found:
                    break
                ia = inner_u[a] & ~(1 << lu[a])
                if not ia:
                    continue
                start_a = a ^ 1  # the start of a is the exit of its other direction
                for b in range(a + 1, count):
                    if b >> 1 == a >> 1:
                        continue
                    if ((xl[a] | yl[a] | hl[a]) & (xl[b] | yl[b] | hl[b])) or \
                            ((xh[a] | yh[a] | hh[a]) & (xh[b] | yh[b] | hh[b])):
                        continue
                    ib = inner_u[b] & ~(1 << lu[b])
                    if not ia & ib:
                        continue
                    start_b = b ^ 1
                    vl = sees_l[start_a] & sees_l[start_b] & hol & ~(xl[a] | xl[b])
                    vh = sees_h[start_a] & sees_h[start_b] & hoh & ~(xh[a] | xh[b])
                    if vl or vh:
                        found = True
                        break
        else:
            # each link's successors: the links a weak link from its exit can reach
            # (not in its unit, not touching its exit), as a set over the links
            for a in range(count):
                sa = zero
                fa = zero
                for b in range(count):
                    if lu[b] == lu[a]:
                        continue
                    both = (1 << lu[a]) | (1 << lu[b])
                    if not ((xl[b] | yl[b] | hl[b]) & yl[a]) and not ((xh[b] | yh[b] | hh[b]) & yh[a]) and \
                            exit_u[a] & entry_u[b] & ~both:
                        sa |= one << np.uint64(b)
                    if not ((xl[b] | yl[b] | hl[b]) & (yl[a] | hl[a])) and \
                            not ((xh[b] | yh[b] | hh[b]) & (yh[a] | hh[a])) and inner_u[a] & entry_u[b] & ~both:
                        fa |= one << np.uint64(b)
                succ[a] = sa
                first_succ[a] = fa
            for i in range(count):
                if found:
                    break
                # the first link: from its start x, with y and the heart inside
                sl0, sh0 = sees_l[i ^ 1], sees_h[i ^ 1]
                su0 = exit_u[i ^ 1]
                # the last links that could remove something, and per level the links that can lead there
                last = zero
                for j in range(count):
                    if (sl0 & sees_l[j] & hol & ~(xl[i] | yl[j])) or (sh0 & sees_h[j] & hoh & ~(xh[i] | yh[j])) or \
                            su0 & exit_u[j] & ~((1 << lu[i]) | (1 << lu[j])):
                        last |= one << np.uint64(j)
                if not last:
                    continue
                want[k - 1] = last
                for d in range(k - 2, 0, -1):
                    wd = zero
                    for j in range(count):
                        if succ[j] & want[d + 1]:
                            wd |= one << np.uint64(j)
                    want[d] = wd
                stack_j[0] = i
                used_l[0] = xl[i] | yl[i] | hl[i]
                used_h[0] = xh[i] | yh[i] | hh[i]
                cand[1] = first_succ[i] & want[1]
                d = 1
                while d >= 1:
                    if not cand[d]:
                        d -= 1
                        continue
                    low = cand[d] & (~cand[d] + one)
                    cand[d] ^= low
                    j = 0
                    while not (low >> np.uint64(j)) & one:
                        j += 1
                    uj = lu[j]
                    dup = False
                    for e in range(d):
                        if lu[stack_j[e]] == uj:
                            dup = True
                            break
                    if dup or ((xl[j] | hl[j] | yl[j]) & used_l[d - 1]) or ((xh[j] | hh[j] | yh[j]) & used_h[d - 1]):
                        continue
                    prev = stack_j[d - 1]
                    ex_u = inner_u[i] if d == 1 else exit_u[prev]
                    w = ex_u & entry_u[j] & ~((1 << lu[prev]) | (1 << uj))
                    wl = _low_index(w)
                    cl = used_l[d - 1] | xl[j] | hl[j] | yl[j]
                    ch = used_h[d - 1] | xh[j] | hh[j] | yh[j]
                    if d == k - 1:
                        closing = su0 & exit_u[j] & ~((1 << lu[i]) | (1 << uj))
                        if closing:
                            cu = _low_index(closing)
                            el = unit_set[cu, 0] | unit_set[wl, 0]
                            eh = unit_set[cu, 1] | unit_set[wl, 1]
                            for e in range(1, d):
                                el |= unit_set[stack_w[e], 0]
                                eh |= unit_set[stack_w[e], 1]
                            el &= hol & ~cl
                            eh &= hoh & ~ch
                        else:
                            el = sl0 & sees_l[j] & hol & ~(xl[i] | yl[j])
                            eh = sh0 & sees_h[j] & hoh & ~(xh[i] | yh[j])
                        if el or eh:
                            found = True
                            break
                        continue
                    stack_j[d] = j
                    stack_w[d] = wl
                    used_l[d] = cl
                    used_h[d] = ch
                    d += 1
                    cand[d] = succ[j] & want[d]
        if found:
            out |= 1 << v
    return out


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
    nvalues = 0
    for c in range(ncells):
        pops[c] = _count(masks[c])
        if pops[c] == 2:
            bivalue[nbivalue] = c
            nbivalue += 1
        top = masks[c]
        v = 0
        while top:
            top >>= 1
            v += 1
        if v > nvalues:
            nvalues = v
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
