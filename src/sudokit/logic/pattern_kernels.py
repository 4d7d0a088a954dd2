"""Compiled tests of whether a producer has a step at all (numba), for the
producers of :mod:`sudokit.logic` between 4.5 and 7.5.

Most calls of these producers in a rating find nothing: the stepper tries
them in turn at every stuck point and takes the first step of the first one
that has one. Each test here answers, by the very rules of its producer,
whether it would yield anything; the producer then runs its own search (and
names, sorts and explains the steps) only when the answer is yes. A test may
answer yes when it runs out of room; it never answers no when the producer
has a step.

* :func:`unique_any`: :func:`sudokit.logic.uniqueness.find_unique_loops`
  (unique rectangles and loops, types 1 to 4);
* :func:`wing_sizes`: :func:`sudokit.logic.wings.find_als_wing`, every set size
  asked at once (WXYZ- to TUVWXYZ-Wings); :func:`wing_sets`, the same walk, gives
  the sets and bivalue cells that remove something, when there are some;
* :func:`xy_any`: :func:`sudokit.logic.wings.find_xy_wing` (XY- and XYZ-Wings).

:func:`value_words` makes the cells holding each value, which every producer
reads (:func:`sudokit.logic.links.value_boards`).

Throughout: ``masks`` the candidates of each cell (bit ``v-1`` for value
``v``; 0 for a placed cell), ``peer[c, p]`` cells ``c`` and ``p`` see each
other, ``peers[c]`` the same as a set of cells in two 64-bit words (cells 0-63
and 64-127; the tests that take it stop at 128 cells), ``rcb[c]`` the row,
column and box of cell ``c``, ``unit_cells[u]`` the cells of unit ``u`` in
ascending order. This module imports numba when it is first imported.
"""

from __future__ import annotations

import numpy as np

from ..engine.compiling import load_numba

load_numba()

from numba import njit  # noqa: E402

from ..engine.board import pop, tz  # noqa: E402
from ..engine.logic_kernels import _next_combo, top_value, unique_loops  # noqa: E402

__all__ = ["unique_any", "value_words", "wing_sets", "wing_sizes", "xy_any"]


@njit(cache=True, nogil=True)
def _unit_removes(masks, cells, ncells_unit, skip0, skip1, chosen, nchosen, values):
    """Whether a cell of the unit (``cells[:ncells_unit]``), other than
    ``skip0``, ``skip1`` and the ``chosen`` ones, holds one of ``values``."""
    for i in range(ncells_unit):
        c = cells[i]
        if c == skip0 or c == skip1:
            continue
        inside = False
        for j in range(nchosen):
            if chosen[j] == c:
                inside = True
                break
        if not inside and masks[c] & values:
            return True
    return False


@njit(cache=True, nogil=True)
def _type3_any(masks, c1, c2, pair, n, rcb, unit_cells, unit_len, from_two):
    """Whether :func:`sudokit.logic.uniqueness._type3` finds a set that removes
    something (set sizes from the number of extra values, SE 1.18.1's rule, or
    with ``from_two`` from 2)."""
    extra = (masks[c1] | masks[c2]) & ~pair
    others = np.empty(unit_cells.shape[1], dtype=np.int64)
    idx = np.empty(n, dtype=np.int64)
    combo = np.empty(n, dtype=np.int64)
    rem = np.empty(n, dtype=np.int64)
    start = pop(extra)
    if start < 2 or from_two:
        start = 2
    for degree in range(start, n - 1):
        for kind in (2, 0, 1):
            unit = rcb[c1, kind]
            if unit != rcb[c2, kind]:
                continue
            ulen = unit_len[unit]
            empty = 0
            for i in range(ulen):
                if masks[unit_cells[unit, i]]:
                    empty += 1
            if degree * 2 <= empty:
                nothers = 0
                for i in range(ulen):
                    c = unit_cells[unit, i]
                    if c != c1 and c != c2 and masks[c]:
                        others[nothers] = c
                        nothers += 1
                k = degree - 1
                if k <= nothers:
                    for i in range(k):
                        idx[i] = i
                    while True:
                        union = extra
                        naked = extra & masks[c1] & masks[c2]
                        for i in range(k):
                            m = masks[others[idx[i]]]
                            union |= m
                            naked |= m
                            combo[i] = others[idx[i]]
                        if pop(union) == degree and pop(naked) == degree:
                            if _unit_removes(masks, unit_cells[unit], ulen, c1, c2, combo, k, union):
                                return True
                        # the next combination
                        if not _next_combo(idx, k, nothers):
                            break
            if degree * 2 < empty:
                nrem = 0
                for v in range(n):
                    if not ((pair | extra) >> v) & 1:
                        rem[nrem] = v
                        nrem += 1
                k = degree - 2
                if k <= nrem:
                    for i in range(k):
                        idx[i] = i
                    while True:
                        hidden = pair
                        for i in range(k):
                            hidden |= np.int64(1) << rem[idx[i]]
                        # each value's places in the unit (c2 counts as c1), all of them
                        ok = True
                        places = 0
                        h = hidden
                        while h:
                            b = h & -h
                            h ^= b
                            pos = 0
                            for i in range(ulen):
                                c = unit_cells[unit, i]
                                if c != c2 and masks[c] & b:
                                    pos |= np.int64(1) << i
                            if pos == 0:
                                ok = False
                                break
                            places |= pos
                        if ok and pop(places) == degree:
                            for i in range(ulen):
                                c = unit_cells[unit, i]
                                if (places >> i) & 1 and c != c1 and c != c2 and masks[c] & ~hidden:
                                    return True
                        if not _next_combo(idx, k, nrem):
                            break
    return False


@njit(cache=True, nogil=True)
def _loop_hints(masks, loop, size, pair, n, peer, rcb, units_of, nunits_of, unit_cells, unit_len, from_two):
    """Whether the unique loop ``loop[:size]`` gives a hint that removes something
    (types 1 to 4, as :func:`sudokit.logic.uniqueness._loop_steps` makes them)."""
    ncells = masks.shape[0]
    nextra = 0
    c1 = -1
    c2 = -1
    other = 0
    for i in range(size):
        c = loop[i]
        if pop(masks[c]) > 2:
            if nextra == 0:
                c1 = c
            elif nextra == 1:
                c2 = c
            nextra += 1
            other |= masks[c] & ~pair
    if nextra == 1:
        return True  # type 1: the pair leaves the one cell with extras
    if nextra < 2:
        return False
    if pop(other) == 1:  # type 2: the extra value leaves the cells that see every extra cell
        for x in range(ncells):
            if not masks[x] & other:
                continue
            sees = True
            for i in range(size):
                c = loop[i]
                if pop(masks[c]) > 2 and (c == x or not peer[c, x]):
                    sees = False
                    break
            if sees:
                return True
    if nextra != 2:
        return False
    if pop(other) >= 2 and _type3_any(masks, c1, c2, pair, n, rcb, unit_cells, unit_len, from_two):
        return True
    # type 4: one of the pair has no other place in a unit both extra cells share
    v1 = pair & -pair
    v2 = pair ^ v1
    for a in range(nunits_of):
        unit = units_of[c1, a]
        shared = False
        for b in range(nunits_of):
            if units_of[c2, b] == unit:
                shared = True
        if not shared:
            continue
        held = 0
        for i in range(unit_len[unit]):
            c = unit_cells[unit, i]
            if c != c1 and c != c2:
                held |= masks[c]
        if not held & v1 or not held & v2:
            return True
    return False


@njit(cache=True, nogil=True)
def unique_any(masks, plan_kind, plan_unit, plan_len, unit_cells, unit_len, cell_units, peer, rcb, units_of, n,
               out, memo_count, memo_key, memo_loops, from_two):
    """Whether :func:`sudokit.logic.uniqueness.find_unique_loops` yields a step:
    per value pair of a bivalue cell, the cells holding both values, their
    2-core in the peer graph, and from each bivalue cell of the pair in the
    core (ascending; each later walk keeping out of the earlier starts) the
    loops of :func:`sudokit.engine.logic_kernels.unique_loops`, walking the
    core only (``out``: its room); a valid loop (each unit met once at each
    parity, by both parities) with a hint that removes something is a yes.
    Yes too when ``out`` is full.
    ``from_two``: type 3 sets from size 2 up (:data:`sudokit.logic.uniqueness.TYPE3_FROM_TWO`).

    The valid loops of a value pair depend only on the cells holding both
    values and their candidates, so they are kept from call to call, per
    pair (row ``v1 * n + v2``, values from 0): ``memo_key`` the cells and
    their candidates, ``memo_count`` how many loops (-1: none kept),
    ``memo_loops`` each loop's length and cells; a pair with more loops, or
    longer ones, than there is room for is walked every time (no rows: no
    memo). Only the hints, which read the other cells too, are looked for
    again. One memo per thread: this kernel runs without the GIL."""
    ncells = masks.shape[0]
    nunits_of = units_of.shape[1]
    holding = np.zeros(ncells, dtype=np.bool_)
    core = np.zeros(ncells, dtype=np.bool_)
    degree = np.zeros(ncells, dtype=np.int64)
    queue = np.empty(ncells, dtype=np.int64)
    pairs = np.empty(ncells, dtype=np.int64)
    held = np.empty(ncells, dtype=np.int64)
    nvalues = top_value(masks)
    # the cells holding each value, as words of 64 cells
    nw = (ncells + 63) >> 6
    boards = np.zeros((nvalues, nw), dtype=np.uint64)
    for c in range(ncells):
        m = masks[c]
        while m:
            v = tz(m)
            m &= m - 1
            boards[v, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    npairs = 0
    for s in range(ncells):
        pair = masks[s]
        if pop(pair) != 2:
            continue
        done = False
        for i in range(npairs):
            if pairs[i] == pair:
                done = True
                break
        if done:
            continue
        pairs[npairs] = pair
        npairs += 1
        # the cells holding both values (ascending), and their 2-core (cells with two or more
        # such peers); ``holding`` and ``core`` are set for them now and cleared once the pair
        # is done
        v1 = tz(pair)
        v2 = tz(pair & (pair - 1))
        count = 0
        for w in range(nw):
            word = boards[v1, w] & boards[v2, w]
            while word:
                held[count] = (w << 6) + tz(word)
                word &= word - np.uint64(1)
                count += 1
        if count < 4:
            continue
        for i in range(count):
            holding[held[i]] = True
            core[held[i]] = True
        slot = -1
        if memo_count.shape[0]:
            slot = tz(pair) * n + tz(pair & (pair - 1))
            kept = memo_count[slot] >= 0 and memo_key[slot, 0] == count
            if kept:
                for i in range(count):
                    c = held[i]
                    if memo_key[slot, 1 + 2 * i] != c or memo_key[slot, 2 + 2 * i] != masks[c]:
                        kept = False
                        break
            if kept:
                for f in range(memo_count[slot]):
                    size = memo_loops[slot, f, 0]
                    if _loop_hints(masks, memo_loops[slot, f, 1:1 + size], size, pair, n, peer, rcb, units_of,
                                   nunits_of, unit_cells, unit_len, from_two):
                        return True
                for i in range(count):
                    holding[held[i]] = False
                    core[held[i]] = False
                continue
            memo_count[slot] = -1  # (kept again once every walk of the pair is done)
            memo_key[slot, 0] = count
            for i in range(count):
                c = held[i]
                memo_key[slot, 1 + 2 * i] = c
                memo_key[slot, 2 + 2 * i] = masks[c]
        nkept = 0
        nq = 0
        for i in range(count):
            c = held[i]
            d = 0
            for j in range(count):
                if peer[c, held[j]]:
                    d += 1
            degree[c] = d
            if d < 2:
                queue[nq] = c
                nq += 1
        while nq:
            nq -= 1
            c = queue[nq]
            if not core[c]:
                continue
            core[c] = False
            for j in range(count):
                p = held[j]
                if core[p] and peer[c, p]:
                    degree[p] -= 1
                    if degree[p] == 1:
                        queue[nq] = p
                        nq += 1
        for h in range(count):  # (cells holding the pair: ``s``, the first bivalue one, and on)
            start = held[h]
            if start < s or not core[start] or masks[start] != pair:
                continue
            found = unique_loops(masks, start, pair, holding, core, plan_kind, plan_unit, plan_len, unit_cells,
                                 unit_len, cell_units, out)
            if found < 0:
                return True
            for f in range(found):
                size = out[f, 0]
                loop = out[f, 1:1 + size]
                odd = 0
                even = 0
                valid = True
                for i in range(size):
                    units = cell_units[loop[i]]
                    if i & 1:
                        if odd & units:
                            valid = False
                            break
                        odd |= units
                    else:
                        if even & units:
                            valid = False
                            break
                        even |= units
                if not valid or odd != even:
                    continue
                if slot >= 0 and nkept >= 0:
                    if nkept < memo_loops.shape[1] and size < memo_loops.shape[2]:
                        memo_loops[slot, nkept, 0] = size
                        memo_loops[slot, nkept, 1:1 + size] = loop
                        nkept += 1
                    else:
                        nkept = -1  # (no room: the pair is walked every time)
                if _loop_hints(masks, loop, size, pair, n, peer, rcb, units_of, nunits_of, unit_cells, unit_len,
                               from_two):
                    return True
            holding[start] = False  # the later walks keep out of this start
        if slot >= 0:
            memo_count[slot] = nkept
        for i in range(count):
            holding[held[i]] = False
            core[held[i]] = False
    return False


# -- WXYZ- to TUVWXYZ-Wings: which set sizes have a wing ---------------------------------


@njit(inline="always")
def _bit(c):
    """Cell ``c`` as a set of cells: two words, cells 0-63 and 64-127."""
    if c < 64:
        return np.uint64(1) << np.uint64(c), np.uint64(0)
    return np.uint64(0), np.uint64(1) << np.uint64(c - 64)


@njit(cache=True, nogil=True)
def wing_sizes(masks, peers, kmin, kmax):
    """Bit ``k`` set for each set size ``k`` from ``kmin`` to ``kmax`` that has a wing removing
    something (:func:`_wing_walk`)."""
    return _wing_walk(masks, peers, kmin, kmax, np.empty((0, kmax + 1), dtype=np.int64))


@njit(cache=True, nogil=True)
def wing_sets(masks, peers, k, out):
    """The wings of ``k``-cell sets that remove something, in the order of search of
    :func:`sudokit.logic.wings.find_als_wing` (what :func:`sudokit.engine.logic_kernels.als_wings`
    finds, on the peers as two words): rows of ``out``, the set's cells then the bivalue cell.
    Returns the count, or -1 when ``out`` is full (:func:`_wing_walk`)."""
    return _wing_walk(masks, peers, k, k, out)


@njit(cache=True, nogil=True)
def _wing_walk(masks, peers, kmin, kmax, out):
    """Bit ``k`` set for each set size ``k`` from ``kmin`` to ``kmax`` (3: WXYZ-Wing to 6:
    TUVWXYZ-Wing) that has a wing removing something, by the rules of
    :func:`sudokit.logic.wings.find_als_wing`: the sets of ``k`` mutually seeing cells, each
    with two or more candidates, ``k + 1`` values among them, grown through forward peers
    from each cell in turn (one walk answers every size); the bivalue cells ``yz`` inside
    the set's values that see one of its cells; the removals of the restricted values.
    ``peers[c]``: cell ``c``'s peers as two words (at most 128 cells).

    The walk keeps, per depth, the set, its values and the cells its cells see. A set is
    not grown when no size still unanswered can come of it (too many values already for
    the sizes left), nor by a cell whose values would make too many. A set of ``k`` cells
    with ``k + 1`` values is tested only when a bivalue cell qualifies (as words: bivalue,
    seen, outside the set, holding none of the other values); the cells that see all the
    set's places of each value are then made once for all its bivalue cells.

    With rows in ``out`` (``kmin == kmax``): every set and bivalue cell that removes
    something, in the order of search (sets as grown, bivalue cells ascending), as rows
    of ``out`` (the set's cells, then the bivalue cell); returns their count, or -1 when
    ``out`` is full."""
    rows = out.shape[0]
    count = 0
    ncells = masks.shape[0]
    one = np.uint64(1)
    full = ~np.uint64(0)
    pops = np.empty(ncells, dtype=np.int64)
    b2lo = np.uint64(0)  # the bivalue cells
    b2hi = np.uint64(0)
    every = 0
    for c in range(ncells):
        pops[c] = pop(masks[c])
        every |= masks[c]
        if pops[c] == 2:
            lo, hi = _bit(c)
            b2lo |= lo
            b2hi |= hi
    if not (b2lo or b2hi):
        return 0
    nvalues = 0
    top = every
    while top:
        top >>= 1
        nvalues += 1
    blo = np.zeros(nvalues, dtype=np.uint64)  # the cells holding each value (bit v-1)
    bhi = np.zeros(nvalues, dtype=np.uint64)
    for c in range(ncells):
        lo, hi = _bit(c)
        m = masks[c]
        while m:
            v = tz(m)
            m &= m - 1
            blo[v] |= lo
            bhi[v] |= hi
    wanted = 0
    for k in range(kmin, kmax + 1):
        wanted |= 1 << k
    # the cells a set may take (two or more candidates, at most ``kmax + 1``)
    elo = np.uint64(0)
    ehi = np.uint64(0)
    for c in range(ncells):
        if 1 < pops[c] <= kmax + 1:
            lo, hi = _bit(c)
            elo |= lo
            ehi |= hi
    qlo = np.zeros(kmax, dtype=np.uint64)  # per depth: the cells still to try there (ascending)
    qhi = np.zeros(kmax, dtype=np.uint64)
    unions = np.zeros(kmax, dtype=np.int64)
    cells = np.zeros(kmax, dtype=np.int64)  # the set's cells
    slo = np.zeros(kmax, dtype=np.uint64)  # the set up to each depth
    shi = np.zeros(kmax, dtype=np.uint64)
    nlo = np.zeros(kmax, dtype=np.uint64)  # the cells a cell of the set sees
    nhi = np.zeros(kmax, dtype=np.uint64)
    clo = np.empty(nvalues, dtype=np.uint64)  # per value: the cells that see the set's places of it
    chi = np.empty(nvalues, dtype=np.uint64)
    found = 0
    most = kmax  # the largest size still unanswered
    for a in range(ncells):
        if not 1 < pops[a] <= most + 1:
            continue
        unions[0] = masks[a]
        cells[0] = a
        lo, hi = _bit(a)
        slo[0] = lo
        shi[0] = hi
        nlo[0] = peers[a, 0]
        nhi[0] = peers[a, 1]
        # the forward peers of ``a``
        if a < 64:
            after_lo = ~((one << np.uint64(a)) | ((one << np.uint64(a)) - one))
            after_hi = full
        else:
            after_lo = np.uint64(0)
            after_hi = ~((one << np.uint64(a - 64)) | ((one << np.uint64(a - 64)) - one))
        qlo[1] = peers[a, 0] & elo & after_lo
        qhi[1] = peers[a, 1] & ehi & after_hi
        depth = 1
        while depth >= 1:
            if qlo[depth]:
                c = tz(qlo[depth])
                qlo[depth] &= qlo[depth] - one
            elif qhi[depth]:
                c = 64 + tz(qhi[depth])
                qhi[depth] &= qhi[depth] - one
            else:
                depth -= 1
                continue
            m = unions[depth - 1] | masks[c]
            pm = pop(m)
            if pm > most + 1:
                continue
            size = depth + 1
            lo, hi = _bit(c)
            cells[depth] = c
            s_lo = slo[depth - 1] | lo
            s_hi = shi[depth - 1] | hi
            slo[depth] = s_lo
            shi[depth] = s_hi
            nlo[depth] = nlo[depth - 1] | peers[c, 0]
            nhi[depth] = nhi[depth - 1] | peers[c, 1]
            if size >= kmin and pm == size + 1 and not (found >> size) & 1:
                # the bivalue cells seen by the set, outside it, holding only values of the set
                ylo = b2lo & nlo[depth] & ~s_lo
                yhi = b2hi & nhi[depth] & ~s_hi
                rest = every & ~m
                while rest and (ylo or yhi):
                    v = tz(rest)
                    rest &= rest - 1
                    ylo &= ~blo[v]
                    yhi &= ~bhi[v]
                if ylo or yhi:
                    for v in range(nvalues):
                        clo[v] = full
                        chi[v] = full
                    for i in range(size):
                        d = cells[i]
                        md = masks[d]
                        while md:
                            v = tz(md)
                            md &= md - 1
                            clo[v] &= peers[d, 0]
                            chi[v] &= peers[d, 1]
                    removes = False
                    while (ylo or yhi) and (rows or not removes):
                        removes = False
                        if ylo:
                            yz = tz(ylo)
                            ylo &= ylo - one
                        else:
                            yz = 64 + tz(yhi)
                            yhi &= yhi - one
                        my = masks[yz]
                        y_lo, y_hi = _bit(yz)
                        xv = tz(my)
                        zv = tz(my & (my - 1))
                        plo = peers[yz, 0]
                        phi = peers[yz, 1]
                        x_restricted = not (s_lo & blo[xv] & ~plo or s_hi & bhi[xv] & ~phi)
                        z_restricted = not (s_lo & blo[zv] & ~plo or s_hi & bhi[zv] & ~phi)
                        out_lo = ~(s_lo | y_lo)
                        out_hi = ~(s_hi | y_hi)
                        if x_restricted:
                            if z_restricted:
                                others = m & ~my
                                while others:
                                    w = tz(others)
                                    others &= others - 1
                                    if blo[w] & out_lo & clo[w] or bhi[w] & out_hi & chi[w]:
                                        removes = True
                                        break
                                if not removes and (blo[xv] & out_lo & clo[xv] & plo
                                                    or bhi[xv] & out_hi & chi[xv] & phi):
                                    removes = True
                            if not removes and (blo[zv] & out_lo & clo[zv] & plo
                                                or bhi[zv] & out_hi & chi[zv] & phi):
                                removes = True
                        elif z_restricted:
                            removes = bool(blo[xv] & out_lo & clo[xv] & plo
                                           or bhi[xv] & out_hi & chi[xv] & phi)
                        if removes and rows:
                            if count == rows:
                                return -1
                            for i in range(size):
                                out[count, i] = cells[i]
                            out[count, size] = yz
                            count += 1
                    if removes and not rows:
                        found |= 1 << size
                        if found == wanted:
                            return found
                        while not ((wanted & ~found) >> most) & 1:
                            most -= 1
            # grown only when a size still unanswered can come of it: ``k`` cells hold at
            # least the values already in the set, so ``k >= pm - 1``
            least = size + 1 if size + 1 > pm - 1 else pm - 1
            if size < most and (wanted & ~found) >> least:
                unions[depth] = m
                qlo[depth + 1] = qlo[depth] & peers[c, 0]
                qhi[depth + 1] = qhi[depth] & peers[c, 1]
                depth += 1
    return count if rows else found


# -- the cells holding each value ---------------------------------------------------------


@njit(cache=True, nogil=True)
def value_words(masks, n):
    """Per value ``v`` (row ``v``; row 0 unused) the cells holding it as two words (cells
    0-63, 64-127): :func:`sudokit.logic.links.value_boards` for at most 128 cells."""
    out = np.zeros((n + 1, 2), dtype=np.uint64)
    for c in range(masks.shape[0]):
        m = masks[c]
        lo, hi = _bit(c)
        while m:
            v = tz(m) + 1
            m &= m - 1
            out[v, 0] |= lo
            out[v, 1] |= hi
    return out


# -- XY- and XYZ-Wings ----------------------------------------------------------------------


@njit(cache=True, nogil=True)
def xy_any(masks, peers, xyz):
    """Whether the grid has an XY-Wing (``xyz`` False) or an XYZ-Wing that removes
    something, by the rules of :func:`sudokit.logic.wings.find_xy_wing`: a pivot of two
    (three) values, two bivalue wings among its peers sharing one (two) of its values,
    different, with one common value ``z`` (and covering the pivot's values), and a cell
    holding ``z`` that sees both wings (and the pivot), the pivot aside. ``peers[c]``:
    cell ``c``'s peers as ``nw`` words (any number of cells)."""
    ncells = masks.shape[0]
    nw = peers.shape[1]
    one = np.uint64(1)
    size = 3 if xyz else 2
    shared = 2 if xyz else 1
    nvalues = top_value(masks)
    boards = np.zeros((nvalues + 1, nw), dtype=np.uint64)
    two = np.zeros(nw, dtype=np.uint64)  # the bivalue cells
    for c in range(ncells):
        bit = one << np.uint64(c & 63)
        m = masks[c]
        if pop(m) == 2:
            two[c >> 6] |= bit
        while m:
            v = tz(m)
            m &= m - 1
            boards[v, c >> 6] |= bit
    wings = np.empty(ncells, dtype=np.int64)
    for pivot in range(ncells):
        pm = masks[pivot]
        if pop(pm) != size:
            continue
        count = 0
        for w in range(nw):
            word = peers[pivot, w] & two[w]
            while word:
                c = (w << 6) + tz(word)
                word &= word - one
                if pop(masks[c] & pm) == shared:
                    wings[count] = c
                    count += 1
        pw = pivot >> 6
        pbit = one << np.uint64(pivot & 63)
        for i in range(count):
            w1 = wings[i]
            m1 = masks[w1]
            for j in range(i + 1, count):
                w2 = wings[j]
                m2 = masks[w2]
                if m1 == m2:
                    continue
                z = m1 & m2
                if xyz:
                    if m1 | m2 != pm:
                        continue
                elif pop(z) != 1 or z & pm or (m1 | m2) & pm != pm:
                    continue
                if pop(z) != 1:
                    continue
                zv = tz(z)
                for w in range(nw):
                    seen = boards[zv, w] & peers[w1, w] & peers[w2, w]
                    if w == pw:
                        seen &= ~pbit
                    if xyz:
                        seen &= peers[pivot, w]
                    if seen:
                        return True
    return False
