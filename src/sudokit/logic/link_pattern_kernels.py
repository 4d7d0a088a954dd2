"""The strong-link searches of :mod:`sudokit.logic.links` compiled (numba): every chain of
``k`` strong links on one value (2, 3 or 4) that removes something, for all values and
for several ``k`` at once, on a grid of rows, columns and boxes of at most 128 cells and
32 units.

:func:`strong_links` finds exactly what the Python searches find
(:func:`links._two_link_hits` for two links, :func:`links._chain_links_dfs` for three
and four), by the same rules: the same links (two places of a unit; a line's places
in two boxes; a box's empty rectangle, with its heart cell), the same weak links and
the same removals, loops included. It does not name, sort or deduplicate: it writes
one row a chain, and :mod:`sudokit.logic.links` makes the steps from the rows, with the
code the Python searches use, so the steps and their order are the same. It answers
for ``k`` from ``kmin`` to 4 in one call: the stepper asks the three producers in turn
on the same state, and a value's links are found once for all three.

Throughout: cell sets are two 64-bit words (cells 0-63, 64-127), unit sets one word
(bit ``u`` for unit ``u``), sets of oriented links one word (bit ``j`` for link
``j // 2`` taken in direction ``j % 2``: a unit holds at most one link, so 32 units
make at most 64). A *link* is numbered in the producers' scan order (boxes, rows,
columns); its *kind* is 0 for a box, 1 for a row, 2 for a column; its parts ``a`` and
``b`` are cell sets, and its heart (an empty rectangle's centre when it holds the
value) is a cell or -1. Chains of three and four links leave out a box's two places
in one line (SE's longer chains leave them to the line), so their oriented links are
numbered over the other links.

The rows (``out``, uint64, :data:`WIDTH` columns; a row the array has no room for is
counted but not written, and the caller asks again with room for all) start with ``k``
and the value; the values come in order, and per value the ``k`` in order:

* two links (``k = 2``), one row per pair of sides: per side its kind, its index
  among the links of its kind and its direction (0: from ``a``, 1: from ``b``), the
  two units, the unit shared by the inner ends, the start, the first side's far part
  and heart + 1 (0: none), the second side's, the end, the removals and the number of
  grouped links (:data:`TWO_COLUMNS`);
* three and four links, one row per chain in the depth-first search's order (the
  chains of a value in the lexicographic order of their links): whether it is a loop,
  the removals, the chain's cells, then per link its unit, kind, whether it is
  grouped, and its entry, exit and heart as cell sets (:data:`CHAIN_COLUMNS`).

This module imports numba when it is first imported.
"""

from __future__ import annotations

import numpy as np

from ..engine.compiling import load_numba

load_numba()

from numba import njit  # noqa: E402

from ..engine.board import pop, tz  # noqa: E402

__all__ = ["CHAIN_COLUMNS", "TWO_COLUMNS", "WIDTH", "strong_links", "tables"]

#: The columns of a two-link row (:func:`strong_links`).
TWO_COLUMNS = ("k", "value", "kind1", "index1", "direction1", "kind2", "index2", "direction2", "unit1", "unit2",
               "shared", "start", "start_hi", "bridge1", "bridge1_hi", "heart1", "bridge2", "bridge2_hi", "heart2",
               "end", "end_hi", "removals", "removals_hi", "grouped")
#: The columns of a chain row before its links, and the columns of each link.
CHAIN_COLUMNS = (("k", "value", "loop", "removals", "removals_hi", "cells", "cells_hi"),
                 ("unit", "kind", "grouped", "entry", "entry_hi", "exit", "exit_hi", "heart", "heart_hi"))
#: The columns of a row: room for four links.
WIDTH = len(CHAIN_COLUMNS[0]) + 4 * len(CHAIN_COLUMNS[1])


def tables(geo) -> tuple:
    """The arrays :func:`strong_links` takes for ``geo`` (rows, columns and boxes only, at
    most 128 cells and 32 units): ``scan``, the units in the scan order (boxes, rows,
    columns), their kinds (0, 1, 2) and, for a line, the number of its parts in the
    boxes; each unit's cells as a set; each scanned line's parts in the boxes, as sets,
    by their lowest cell; each unit's cells in order; each cell's row and column; each
    cell's units as a set; each cell's peers as a set."""
    n = geo.n
    order = list(geo.boxes) + list(geo.rows) + list(geo.cols)
    kinds = np.array([0] * len(geo.boxes) + [1] * len(geo.rows) + [2] * len(geo.cols), dtype=np.int64)
    units = np.array(order, dtype=np.int64)

    def words(bits: int) -> tuple[int, int]:
        return bits & (2 ** 64 - 1), bits >> 64

    unit_set = np.array([words(bits) for bits in geo.unit_mask], dtype=np.uint64)
    segs = np.zeros((len(order), n, 2), dtype=np.uint64)
    nseg = np.zeros(len(order), dtype=np.int64)
    for t, u in enumerate(order):
        if kinds[t] == 0:
            continue
        parts = [geo.unit_mask[u] & geo.unit_mask[b] for b in geo.boxes]
        parts = sorted((p for p in parts if p), key=lambda p: p & -p)
        for s, p in enumerate(parts):
            segs[t, s] = words(p)
        nseg[t] = len(parts)
    unit_cells = np.array([list(cells) for cells in geo.units], dtype=np.int64)
    rc = np.array([tuple(x[:2]) for x in geo.units_of], dtype=np.int64)
    cell_units = np.array([sum(1 << u for u in x) for x in geo.units_of], dtype=np.int64)
    peer = np.array([words(bits) for bits in geo.peer_mask], dtype=np.uint64)
    scan = np.array([units, kinds, nseg], dtype=np.int64)
    return scan, unit_set, segs, unit_cells, rc, cell_units, peer


@njit(inline="always")
def _cell(lo, hi):
    """The lowest cell of a non-empty set."""
    if lo:
        return tz(lo)
    return 64 + tz(hi)


@njit(inline="always")
def _meet_peers(lo, hi, peer):
    """The cells that see every cell of the set (both words)."""
    one = np.uint64(1)
    sl = ~np.uint64(0)
    sh = ~np.uint64(0)
    while lo:
        c = tz(lo)
        lo &= lo - one
        sl &= peer[c, 0]
        sh &= peer[c, 1]
    while hi:
        c = 64 + tz(hi)
        hi &= hi - one
        sl &= peer[c, 0]
        sh &= peer[c, 1]
    return sl, sh


@njit(inline="always")
def _meet_units(lo, hi, cell_units):
    """The units holding every cell of the set."""
    one = np.uint64(1)
    m = -1
    while lo:
        m &= cell_units[tz(lo)]
        lo &= lo - one
    while hi:
        m &= cell_units[64 + tz(hi)]
        hi &= hi - one
    return m


@njit(inline="always")
def _bit(c):
    """Cell ``c`` as a set: two words."""
    if c < 64:
        return np.uint64(1) << np.uint64(c), np.uint64(0)
    return np.uint64(0), np.uint64(1) << np.uint64(c - 64)


@njit(inline="always")
def _grouped(la, lb, lc, L):
    """1 when link ``L`` has more than two cells (its parts and heart), else 0."""
    cells = pop(la[L, 0]) + pop(la[L, 1]) + pop(lb[L, 0]) + pop(lb[L, 1])
    if lc[L] >= 0:
        cells += 1
    return 1 if cells > 2 else 0


@njit(cache=True, nogil=True)
def _links(hol, hoh, scan, unit_set, segs, unit_cells, rc, la, lb, lh, lu, lk, li, lc, aligned, per_kind):
    """The links of the value on cells ``hol | hoh << 64``, in the scan order, into
    the link tables; ``aligned[L]`` 1 for a box's two places in one line. Returns
    their number."""
    n = unit_cells.shape[1]
    nscan = scan.shape[1]
    zero = np.uint64(0)
    nl = 0
    per_kind[:] = 0
    for t in range(nscan):
        u = scan[0, t]
        el = hol & unit_set[u, 0]
        eh = hoh & unit_set[u, 1]
        cnt = pop(el) + pop(eh)
        if cnt < 2 or cnt > 6:
            continue
        kd = scan[1, t]
        heart = -1
        flat = 0
        if cnt == 2:
            p0 = _cell(el, eh)
            al, ah = _bit(p0)
            bl, bh = el & ~al, eh & ~ah
            if kd == 0:
                p1 = _cell(bl, bh)
                if rc[p0, 0] == rc[p1, 0] or rc[p0, 1] == rc[p1, 1]:
                    flat = 1
        elif kd == 0:
            # an empty rectangle: every place in the row or column of the first such heart
            ok = False
            al = ah = bl = bh = zero
            for i in range(n):
                h = unit_cells[u, i]
                r, col = rc[h, 0], rc[h, 1]
                rl, rh = el & unit_set[r, 0], eh & unit_set[r, 1]
                cl, ch = el & unit_set[col, 0], eh & unit_set[col, 1]
                if (el & ~(rl | cl)) or (eh & ~(rh | ch)):
                    continue
                hbl, hbh = _bit(h)
                al, ah = rl & ~hbl, rh & ~hbh
                bl, bh = cl & ~hbl, ch & ~hbh
                if (al or ah) and (bl or bh):
                    ok = True
                    if (hol & hbl) or (hoh & hbh):
                        heart = h
                break
            if not ok:
                continue
        else:
            first = -1
            second = -1
            more = False
            for s in range(scan[2, t]):
                if (el & segs[t, s, 0]) or (eh & segs[t, s, 1]):
                    if first < 0:
                        first = s
                    elif second < 0:
                        second = s
                    else:
                        more = True
                        break
            if more or second < 0:
                continue
            al, ah = el & segs[t, first, 0], eh & segs[t, first, 1]
            bl, bh = el & segs[t, second, 0], eh & segs[t, second, 1]
        lu[nl] = u
        lk[nl] = kd
        li[nl] = per_kind[kd]
        per_kind[kd] += 1
        la[nl, 0] = al
        la[nl, 1] = ah
        lb[nl, 0] = bl
        lb[nl, 1] = bh
        lc[nl] = heart
        aligned[nl] = flat
        if heart < 0:
            lh[nl, 0] = zero
            lh[nl, 1] = zero
        else:
            lh[nl, 0], lh[nl, 1] = _bit(heart)
        nl += 1
    return nl


@njit(cache=True, nogil=True)
def _orient(nl, skip_aligned, la, lb, lh, aligned, sel, xs, ys, every):
    """The links (those not aligned when ``skip_aligned``) in both directions, as
    oriented links: ``sel[j // 2]`` the link, ``xs``/``ys`` the start (entry) and the
    far part (exit), ``every`` the cells. Returns their number."""
    count = 0
    for L in range(nl):
        if skip_aligned and aligned[L]:
            continue
        sel[count >> 1] = L
        for o in range(2):
            if o == 0:
                xs[count, 0], xs[count, 1] = la[L, 0], la[L, 1]
                ys[count, 0], ys[count, 1] = lb[L, 0], lb[L, 1]
            else:
                xs[count, 0], xs[count, 1] = lb[L, 0], lb[L, 1]
                ys[count, 0], ys[count, 1] = la[L, 0], la[L, 1]
            every[count, 0] = la[L, 0] | lb[L, 0] | lh[L, 0]
            every[count, 1] = la[L, 1] | lb[L, 1] | lh[L, 1]
            count += 1
    return count


@njit(inline="always")
def _part_tables(count, sel, xs, ys, lu, lc, cell_units, peer, inner_u, entry_u, exit_u, sees, from_start):
    """Per oriented link (a link's two directions at once, from the units and peers of
    its two parts): the units of its inner end (y and the heart, but its own unit), of
    its entry (x and the heart) and of its exit (y), and the cells that see every cell
    of its start (``from_start``) or of its exit."""
    for j in range(0, count, 2):  # j from part a to part b, j + 1 back
        L = sel[j >> 1]
        own = np.int64(1) << lu[L]
        heart = cell_units[lc[L]] if lc[L] >= 0 else np.int64(-1)
        ua = _meet_units(xs[j, 0], xs[j, 1], cell_units)
        ub = _meet_units(ys[j, 0], ys[j, 1], cell_units)
        inner_u[j] = ub & heart & ~own
        inner_u[j + 1] = ua & heart & ~own
        if not from_start:
            entry_u[j] = ua & heart
            entry_u[j + 1] = ub & heart
            exit_u[j] = ub
            exit_u[j + 1] = ua
        al, ah = _meet_peers(xs[j, 0], xs[j, 1], peer)
        bl, bh = _meet_peers(ys[j, 0], ys[j, 1], peer)
        if from_start:
            sees[j, 0], sees[j, 1], sees[j + 1, 0], sees[j + 1, 1] = al, ah, bl, bh
        else:
            sees[j, 0], sees[j, 1], sees[j + 1, 0], sees[j + 1, 1] = bl, bh, al, ah


@njit(cache=True, nogil=True)
def _two_link_rows(v, hol, hoh, count, sel, xs, ys, every, la, lb, lh, lu, lk, li, lc, cell_units, peer,
                   inner_u, sees, bucket, nbucket, out, rows):
    """The rows of two links on the value (its oriented links all of them): two sides
    whose inner ends share a unit (but their own) and whose starts see a common place.
    Returns the number of rows so far."""
    room = out.shape[0]
    _part_tables(count, sel, xs, ys, lu, lc, cell_units, peer, inner_u, inner_u, inner_u, sees, True)
    for j in range(count):
        m = inner_u[j]
        while m:  # a bucket a unit
            U = tz(m)
            m &= m - 1
            bucket[U, nbucket[U]] = j
            nbucket[U] += 1
    for U in range(bucket.shape[0]):
        for q1 in range(nbucket[U] - 1):
            s1 = bucket[U, q1]
            for q in range(q1 + 1, nbucket[U]):
                s2 = bucket[U, q]  # (after s1: the buckets are filled in order)
                if s2 >> 1 == s1 >> 1:
                    continue
                if tz(inner_u[s1] & inner_u[s2]) != U:  # (the pair is met at its lowest shared unit)
                    continue
                if (every[s1, 0] & every[s2, 0]) or (every[s1, 1] & every[s2, 1]):
                    continue
                vl = sees[s1, 0] & sees[s2, 0] & hol & ~(xs[s1, 0] | xs[s2, 0])
                vh = sees[s1, 1] & sees[s2, 1] & hoh & ~(xs[s1, 1] | xs[s2, 1])
                if not (vl or vh):
                    continue
                if rows < room:
                    L1, L2 = sel[s1 >> 1], sel[s2 >> 1]
                    row = out[rows]
                    row[0] = 2
                    row[1] = v
                    row[2] = lk[L1]
                    row[3] = li[L1]
                    row[4] = s1 & 1
                    row[5] = lk[L2]
                    row[6] = li[L2]
                    row[7] = s2 & 1
                    row[8] = lu[L1]
                    row[9] = lu[L2]
                    row[10] = U
                    row[11] = xs[s1, 0]
                    row[12] = xs[s1, 1]
                    row[13] = ys[s1, 0]
                    row[14] = ys[s1, 1]
                    row[15] = lc[L1] + 1
                    row[16] = ys[s2, 0]
                    row[17] = ys[s2, 1]
                    row[18] = lc[L2] + 1
                    row[19] = xs[s2, 0]
                    row[20] = xs[s2, 1]
                    row[21] = vl
                    row[22] = vh
                    row[23] = _grouped(la, lb, lc, L1) + _grouped(la, lb, lc, L2)
                rows += 1
    for j in range(count):
        m = inner_u[j]
        while m:
            nbucket[tz(m)] = 0
            m &= m - 1
    return rows


@njit(cache=True, nogil=True)
def _chain_tables(hol, hoh, count, sel, xs, ys, every, lu, lc, cell_units, peer, inner_u, entry_u, exit_u, sees,
                  entering, exiting, seeing, touching, succ, first_succ, before):
    """The tables of the chains of three and four links: per oriented link the units
    of its entry, its exit and its inner end (as a first link), the cells seeing its
    exit, its successors (the links a weak link from its exit reaches, not sharing a
    cell with it: as a later link, and as the first), and the links it follows; per
    unit the links entered from it and those whose exit lies in it (not through their
    own unit); per place the links whose exit it sees (``touching``, per cell the links
    holding it, is used here and left empty)."""
    one = np.uint64(1)
    zero = np.uint64(0)
    _part_tables(count, sel, xs, ys, lu, lc, cell_units, peer, inner_u, entry_u, exit_u, sees, False)
    for j in range(count):
        own = np.int64(1) << lu[sel[j >> 1]]
        sl, sh = sees[j, 0], sees[j, 1]
        jb = one << np.uint64(j)
        m = entry_u[j] & ~own
        while m:
            entering[tz(m)] |= jb
            m &= m - 1
        m = exit_u[j] & ~own
        while m:
            exiting[tz(m)] |= jb
            m &= m - 1
        sl &= hol
        sh &= hoh
        while sl:
            seeing[tz(sl)] |= jb
            sl &= sl - one
        while sh:
            seeing[64 + tz(sh)] |= jb
            sh &= sh - one
    for j in range(0, count, 2):  # the links holding each place (both directions)
        jb = np.uint64(3) << np.uint64(j)
        cl, ch = every[j, 0], every[j, 1]
        while cl:
            touching[tz(cl)] |= jb
            cl &= cl - one
        while ch:
            touching[64 + tz(ch)] |= jb
            ch &= ch - one
    for j in range(count):
        before[j] = zero
    for j in range(count):
        own = np.int64(1) << lu[sel[j >> 1]]
        pair = np.uint64(3) << np.uint64(j & ~1)
        for first in range(2):
            # after j as a later link: from its exit; as the first link: from its inner end; not
            # through a link sharing a cell with that end (or, first, with the link)
            reach = zero
            m = inner_u[j] if first else exit_u[j] & ~own
            while m:
                reach |= entering[tz(m)]
                m &= m - 1
            reach &= ~pair
            if first:
                cl, ch = every[j, 0], every[j, 1]
            else:
                cl, ch = ys[j, 0], ys[j, 1]
            while cl:
                reach &= ~touching[tz(cl)]
                cl &= cl - one
            while ch:
                reach &= ~touching[64 + tz(ch)]
                ch &= ch - one
            if first:
                first_succ[j] = reach
            else:
                succ[j] = reach
                while reach:
                    before[tz(reach)] |= one << np.uint64(j)
                    reach &= reach - one
    for j in range(0, count, 2):
        cl, ch = every[j, 0], every[j, 1]
        while cl:
            touching[tz(cl)] = zero
            cl &= cl - one
        while ch:
            touching[64 + tz(ch)] = zero
            ch &= ch - one


@njit(cache=True, nogil=True)
def _clear_chain_tables(hol, hoh, count, inner_u, entry_u, exit_u, sees, entering, exiting, seeing):
    """Set the per-unit and per-place tables of :func:`_chain_tables` back to empty."""
    one = np.uint64(1)
    zero = np.uint64(0)
    for j in range(count):
        m = entry_u[j]
        while m:
            entering[tz(m)] = zero
            m &= m - 1
        m = exit_u[j]
        while m:
            exiting[tz(m)] = zero
            m &= m - 1
        sl, sh = sees[j, 0] & hol, sees[j, 1] & hoh
        while sl:
            seeing[tz(sl)] = zero
            sl &= sl - one
        while sh:
            seeing[64 + tz(sh)] = zero
            sh &= sh - one


@njit(cache=True, nogil=True)
def _chain_rows(k, v, hol, hoh, count, sel, xs, ys, every, la, lb, lh, lu, lk, lc, unit_set, inner_u, entry_u,
                exit_u, sees, exiting, seeing, succ, first_succ, before, want, cand, path, weak, used_l, used_h,
                used_u, out, rows):
    """The rows of the chains of ``k`` links (3 or 4) on the value, depth-first from each
    first link, visiting only links that can still lead to a last link that could
    remove something. Returns the number of rows so far."""
    one = np.uint64(1)
    zero = np.uint64(0)
    room = out.shape[0]
    for i in range(count):
        if not first_succ[i]:
            continue
        own_i = np.int64(1) << lu[sel[i >> 1]]
        start_l, start_h = xs[i, 0], xs[i, 1]
        # the start of direction i is the exit of the other direction
        su0 = exit_u[i ^ 1]
        sl0, sh0 = sees[i ^ 1, 0], sees[i ^ 1, 1]
        # the last links that could remove something: their exit and the start see a
        # common place, or share a unit (a loop)
        last = zero
        cl, ch = sl0 & hol, sh0 & hoh
        while cl:
            last |= seeing[tz(cl)]
            cl &= cl - one
        while ch:
            last |= seeing[64 + tz(ch)]
            ch &= ch - one
        m = su0 & ~own_i
        while m:
            last |= exiting[tz(m)]
            m &= m - 1
        if not last:
            continue
        want[k - 1] = last
        for d in range(k - 2, 0, -1):
            wd = zero
            r = want[d + 1]
            while r:
                wd |= before[tz(r)]
                r &= r - one
            want[d] = wd
        cand[1] = first_succ[i] & want[1]
        if not cand[1]:
            continue
        path[0] = i
        used_l[0] = every[i, 0]
        used_h[0] = every[i, 1]
        used_u[0] = own_i
        d = 1
        while d >= 1:
            if not cand[d]:
                d -= 1
                continue
            j = tz(cand[d])
            cand[d] &= cand[d] - one
            uj = np.int64(1) << lu[sel[j >> 1]]
            if (uj & used_u[d - 1]) or (every[j, 0] & used_l[d - 1]) or (every[j, 1] & used_h[d - 1]):
                continue
            prev = path[d - 1]
            ex_u = inner_u[i] if d == 1 else exit_u[prev]
            w = ex_u & entry_u[j] & ~((np.int64(1) << lu[sel[prev >> 1]]) | uj)
            cbl = used_l[d - 1] | every[j, 0]
            cbh = used_h[d - 1] | every[j, 1]
            if d < k - 1:
                path[d] = j
                weak[d] = tz(w)
                used_l[d] = cbl
                used_h[d] = cbh
                used_u[d] = used_u[d - 1] | uj
                d += 1
                cand[d] = succ[j] & want[d]
                continue
            closing = su0 & exit_u[j] & ~(own_i | uj)
            if closing:  # a loop: every weak link's unit loses the value
                cu = tz(closing)
                wl = tz(w)
                el = unit_set[cu, 0] | unit_set[wl, 0]
                eh = unit_set[cu, 1] | unit_set[wl, 1]
                for e in range(1, d):
                    el |= unit_set[weak[e], 0]
                    eh |= unit_set[weak[e], 1]
                el &= hol & ~cbl
                eh &= hoh & ~cbh
            else:
                el = sl0 & sees[j, 0] & hol & ~(start_l | ys[j, 0])
                eh = sh0 & sees[j, 1] & hoh & ~(start_h | ys[j, 1])
            if not (el or eh):
                continue
            if rows < room:
                row = out[rows]
                row[0] = k
                row[1] = v
                row[2] = 1 if closing else 0
                row[3] = el
                row[4] = eh
                row[5] = cbl
                row[6] = cbh
                path[d] = j
                for p in range(k):
                    o = path[p]
                    L = sel[o >> 1]
                    base = 7 + 9 * p
                    row[base] = lu[L]
                    row[base + 1] = lk[L]
                    row[base + 2] = _grouped(la, lb, lc, L)
                    row[base + 3] = xs[o, 0]
                    row[base + 4] = xs[o, 1]
                    row[base + 5] = ys[o, 0]
                    row[base + 6] = ys[o, 1]
                    row[base + 7] = lh[L, 0]
                    row[base + 8] = lh[L, 1]
            rows += 1
    return rows


@njit(inline="always")
def _set_known(known, k, v, hol, hoh, state):
    known[k, v, 0] = hol
    known[k, v, 1] = hoh
    known[k, v, 2] = np.uint64(state)


@njit(cache=True, nogil=True)
def strong_links(masks, kmin, known, chained, out, scan, unit_set, segs, unit_cells, rc, cell_units, peer):
    """The chains of ``k`` strong links removing something, for ``k`` from ``kmin`` (2, 3
    or 4) to 4 and the values with at least ``2 k`` places, as rows of ``out`` (see the
    module's notes); returns the number of rows, which may pass ``out``'s room.

    ``known[k, v]``: the cells last seen holding ``v`` (two words) and what they had
    (third word): 0 not looked at, 1 no chain of ``k`` links, 2 chains, whose rows the
    caller keeps (rows of ``k`` and ``v`` replace the kept ones). A value whose cells
    are the known ones is passed over (a value's chains depend only on its cells; from
    one step to the next most values keep theirs). ``chained[k]``: set to the values
    with chains of ``k`` links (bit ``v``), found now or known."""
    ncells = masks.shape[0]
    n = unit_cells.shape[1]
    nscan = scan.shape[1]
    nunits = unit_set.shape[0]
    one = np.uint64(1)
    room = out.shape[0]
    boards = np.zeros((n + 1, 2), dtype=np.uint64)
    for c in range(ncells):
        m = masks[c]
        w = c >> 6
        b = one << np.uint64(c & 63)
        while m:
            boards[tz(m) + 1, w] |= b
            m &= m - 1
    # the work space, in four arrays (one allocation each), cut into the tables below
    most = 2 * nscan
    pairs = np.empty((3 * nscan + 4 * most, 2), dtype=np.uint64)
    la = pairs[:nscan]  # the links of a value: parts a and b, heart (as a set)
    lb = pairs[nscan:2 * nscan]
    lh = pairs[2 * nscan:3 * nscan]
    at = 3 * nscan
    xs = pairs[at:at + most]  # per oriented link: x (start / entry), y (inner / exit), its cells,
    ys = pairs[at + most:at + 2 * most]  # and who sees its start (two links) or its exit (more)
    every = pairs[at + 2 * most:at + 3 * most]
    sees = pairs[at + 3 * most:]
    ints = np.zeros(6 * nscan + 3 * most + nunits + 18, dtype=np.int64)
    lu = ints[:nscan]  # per link: unit, kind, index among its kind, heart (cell or -1), aligned
    lk = ints[nscan:2 * nscan]
    li = ints[2 * nscan:3 * nscan]
    lc = ints[3 * nscan:4 * nscan]
    aligned = ints[4 * nscan:5 * nscan]
    sel = ints[5 * nscan:6 * nscan]  # per oriented link j: its link, sel[j // 2]
    at = 6 * nscan
    inner_u = ints[at:at + most]
    entry_u = ints[at + most:at + 2 * most]
    exit_u = ints[at + 2 * most:at + 3 * most]
    at += 3 * most
    nbucket = ints[at:at + nunits]
    per_kind = ints[at + nunits:at + nunits + 3]
    path = ints[at + nunits + 3:at + nunits + 8]
    weak = ints[at + nunits + 8:at + nunits + 13]
    used_u = ints[at + nunits + 13:at + nunits + 18]
    bucket = np.empty((nunits, most), dtype=np.int64)
    sets = np.zeros(3 * most + 2 * nunits + 2 * ncells + 20, dtype=np.uint64)  # sets over the oriented links
    succ = sets[:most]
    first_succ = sets[most:2 * most]
    before = sets[2 * most:3 * most]
    at = 3 * most
    entering = sets[at:at + nunits]
    exiting = sets[at + nunits:at + 2 * nunits]
    seeing = sets[at + 2 * nunits:at + 2 * nunits + ncells]
    touching = sets[at + 2 * nunits + ncells:at + 2 * nunits + 2 * ncells]
    at += 2 * nunits + 2 * ncells
    want = sets[at:at + 5]
    cand = sets[at + 5:at + 10]
    used_l = sets[at + 10:at + 15]
    used_h = sets[at + 15:at + 20]
    for k in range(kmin, 5):
        chained[k] = 0
    rows = 0
    for v in range(1, n + 1):
        hol = boards[v, 0]
        hoh = boards[v, 1]
        places = pop(hol) + pop(hoh)
        need = 0
        for k in range(kmin, 5):
            if places < 2 * k:
                continue
            if known[k, v, 2] and known[k, v, 0] == hol and known[k, v, 1] == hoh:
                if known[k, v, 2] == 2:
                    chained[k] |= np.int64(1) << v
            else:
                need |= 1 << k
        if not need:
            continue
        nl = _links(hol, hoh, scan, unit_set, segs, unit_cells, rc, la, lb, lh, lu, lk, li, lc, aligned, per_kind)
        if need & 4:
            before_rows = rows
            count = _orient(nl, False, la, lb, lh, aligned, sel, xs, ys, every)
            if count >= 4:
                rows = _two_link_rows(v, hol, hoh, count, sel, xs, ys, every, la, lb, lh, lu, lk, li, lc,
                                      cell_units, peer, inner_u, sees, bucket, nbucket, out, rows)
            _found(known, chained, 2, v, hol, hoh, before_rows, rows, room)
        if need & 24:
            count = _orient(nl, True, la, lb, lh, aligned, sel, xs, ys, every)
            if count >= 6:
                _chain_tables(hol, hoh, count, sel, xs, ys, every, lu, lc, cell_units, peer, inner_u, entry_u,
                              exit_u, sees, entering, exiting, seeing, touching, succ, first_succ, before)
            for k in range(3, 5):
                if need >> k & 1:
                    before_rows = rows
                    if count >= 2 * k:
                        rows = _chain_rows(k, v, hol, hoh, count, sel, xs, ys, every, la, lb, lh, lu, lk, lc,
                                           unit_set, inner_u, entry_u, exit_u, sees, exiting, seeing, succ,
                                           first_succ, before, want, cand, path, weak, used_l, used_h, used_u,
                                           out, rows)
                    _found(known, chained, k, v, hol, hoh, before_rows, rows, room)
            if count >= 6:
                _clear_chain_tables(hol, hoh, count, inner_u, entry_u, exit_u, sees, entering, exiting, seeing)
    return rows


@njit(inline="always")
def _found(known, chained, k, v, hol, hoh, before_rows, rows, room):
    """What the search of ``k`` links on ``v`` found, into ``known`` and ``chained``
    (chains whose rows did not all fit are not known: the caller asks again)."""
    if rows == before_rows:
        _set_known(known, k, v, hol, hoh, 1)
        return
    chained[k] |= np.int64(1) << v
    if rows <= room:
        _set_known(known, k, v, hol, hoh, 2)
