"""Compiled chain searches and propagation (numba), for :mod:`sudokit.logic.chains`.

The forcing-chain and cycle searches of "Forcing Chains & Cycles" run once per
candidate and per kind of link, on every state that reaches that tier, and
again at every fixpoint of every assumption inside Nested Forcing Chains
(level 2 and up); the propagation from one assumption is the core of the
Nishio, multiple and dynamic forcing chains and of the inner rules of the
nested levels. In Python each walks dictionaries of implication lists; here
they walk the candidate masks directly.

:func:`run` is the one compiled function (so numba compiles once): it
reproduces :meth:`chains.Chainer.forcing`, :meth:`chains.Chainer.cycles` and
:meth:`chains.Chainer._propagate` exactly (the same potentials, found in the
same order, with the same parents, so the same chains, complexities, ratings
and choice among equals), and a *scan* that tells, for every candidate at
once, which of those searches find anything, so that Python asks again only
for those. :func:`search`, :func:`scan` and :func:`propagate` call it.

Potentials are encoded as in :mod:`sudokit.logic.chains`:
``(cell << 6) | (value << 1) | on``.

Tables, per geometry (:func:`tables`):

* ``peers[cell, k]``: the cells an "on" potential turns off for its value, in
  SE's order (the box, then the row and the column outside the box, each by
  ascending cell), ``-1`` padded;
* ``units[cell, k, j]``: the cells of the box, row and column of ``cell``
  (the order of the off -> on x-links).

Work arrays (:func:`work`) are made once per geometry and thread; a
``stamp`` that grows with every call marks the potentials a call has seen,
so that nothing is cleared between calls.

This module imports numba when it is first imported; :mod:`chains` imports
it only when a puzzle reaches the chain tiers.
"""

from __future__ import annotations

import numpy as np

from ..engine.compiling import load_numba

load_numba()

from numba import njit  # noqa: E402

__all__ = ["tables", "work", "run", "search", "scan", "propagate"]

_SIZE_SHIFT = 6


def tables(t) -> tuple[np.ndarray, np.ndarray]:
    """``(peers, units)`` arrays for a :class:`chains._Tables`."""
    geo = t.geo
    ncells = len(geo.units_of)
    width = max(sum(p.bit_count() for p in parts) for parts in t.off_parts)
    peers = np.full((ncells, max(width, 1)), -1, dtype=np.int64)
    for cell, parts in enumerate(t.off_parts):
        k = 0
        for part in parts:
            b = part
            while b:
                low = b & -b
                peers[cell, k] = low.bit_length() - 1
                k += 1
                b ^= low
    n = geo.n
    units = np.full((ncells, 3, n), -1, dtype=np.int64)
    for cell, us in enumerate(t.on_units):
        for j, um in enumerate(us):
            k = 0
            b = um
            while b:
                low = b & -b
                units[cell, j, k] = low.bit_length() - 1
                k += 1
                b ^= low
    return peers, units


def work(ncells: int, n: int, width: int) -> dict[str, np.ndarray]:
    """Work arrays for :func:`run` on a grid of
    ``ncells`` cells and ``n`` values, whose on potentials turn off at most
    ``width`` peers."""
    size = ncells << 6
    links = n + width + 4  # the most potentials one potential leads to, and some
    entries = 1 + (ncells * n + 1) * (1 + links)
    out = {
        "mark": np.zeros(size, dtype=np.int64), "buf": np.empty(links, dtype=np.int64),
        "nodes": np.empty(entries, dtype=np.int64), "parents": np.empty(entries, dtype=np.int64),
        "found": np.empty(entries, dtype=np.int64),
        "masks": np.empty(ncells, dtype=np.int64), "index": np.empty(size, dtype=np.int64),
        "pnodes": np.empty(size, dtype=np.int64), "pstart": np.empty(size + 2, dtype=np.int64),
        "pflat": np.empty(size * (n + 2), dtype=np.int64), "pfirst": np.empty(size + 1, dtype=np.int64),
        "qon": np.empty(size, dtype=np.int64), "qoff": np.empty(size, dtype=np.int64),
        # the scan's flags, then op 3's bitboard tables
        "flags": np.zeros((ncells << 5) + 1 + _TABLE_WORDS * ncells, dtype=np.int64),
        "one": np.zeros(1, dtype=np.int64),
    }
    out["prop"] = tuple(out[k] for k in ("mark", "pnodes", "parents", "found", "buf", "index", "pstart", "pflat",
                                         "pfirst", "qon", "qoff", "flags"))
    return out


@njit(inline="always")
def _value(bit):
    """The value whose bit is the one bit set in ``bit``."""
    v = 0
    while bit:
        bit >>= 1
        v += 1
    return v


@njit(inline="always")
def _push_offs(buf, k, cell, m):
    """Write the off-nodes of ``cell`` for each value in the mask ``m`` at
    ``buf[k:]``, in increasing order; return the new end."""
    v = 1
    while m:
        if m & 1:
            buf[k] = (cell << 6) | (v << 1)
            k += 1
        m >>= 1
        v += 1
    return k


@njit(inline="always")
def _conjugate(masks, units, cell, j, bit):
    """The other place of the value ``bit`` in unit ``j`` of ``cell`` (box,
    row, column) when the value has exactly two places there, ``cell`` one of
    them; else -1."""
    count = 0
    me = False
    other = -1
    for i in range(units.shape[2]):
        c = units[cell, j, i]
        if c < 0:
            break
        if masks[c] & bit:
            count += 1
            if c == cell:
                me = True
            else:
                other = c
    return other if count == 2 and me else -1


#: Op 3's bitboard tables, per cell (up to 128 cells: two 64-bit words, ``lo`` for cells 0-63,
#: ``hi`` for 64-127, each a plain int64): the three parts of its peers in SE's order (the box
#: but the cell, then the row and the column outside the box), then its box, row and column;
#: kept in the ``out`` work array after the scan's flags, under a mark.
_TABLE_WORDS = 12
_TABLE_MARK = 0x5EED << 20


@njit(inline="always")
def _low_index(low):
    """The index of the one bit set in the int64 word ``low`` (bit 63 included)."""
    i = 0
    for shift in (32, 16, 8, 4, 2, 1):
        if low >> shift:
            low >>= shift
            i += shift
    return i


@njit(inline="always")
def _ones(r):
    count = 0
    while r:
        r &= r - 1
        count += 1
    return count


@njit(inline="always")
def _set_bit(tab, at, c):
    if c < 64:
        tab[at] |= 1 << c
    else:
        tab[at + 1] |= 1 << (c - 64)


@njit(cache=True, nogil=True)
def _bit_tables(units, tab, t1):
    """Fill op 3's bitboard tables (:data:`_TABLE_WORDS`) at ``tab[t1:]`` from ``units``."""
    ncells = units.shape[0]
    for c in range(ncells):
        tb = t1 + _TABLE_WORDS * c
        for k in range(_TABLE_WORDS):
            tab[tb + k] = 0
        for j in range(3):
            for i in range(units.shape[2]):
                d = units[c, j, i]
                if d < 0:
                    break
                _set_bit(tab, tb + 6 + 2 * j, d)
        for h in range(2):
            box = tab[tb + 6 + h]
            tab[tb + h] = box
            tab[tb + 2 + h] = tab[tb + 8 + h] & ~box
            tab[tb + 4 + h] = tab[tb + 10 + h] & ~box
        if c < 64:
            tab[tb] &= ~(1 << c)
        else:
            tab[tb + 1] &= ~(1 << (c - 64))


@njit(inline="always")
def _y_link(masks, base, cell, bit, p, pflat, k, dynamic):
    """The y-link from the off potential ``p`` (value ``bit`` of ``cell``): the
    cell's other value on when two are left, its parents written from
    ``pflat[k]`` (``p``, then in a dynamic chain the cell's values this
    propagation removed). Returns the on potential (-1: none) and the parents' end."""
    m = masks[cell]
    m2 = m & (m - 1)
    if not m2 or m2 & (m2 - 1):
        return -1, k
    pflat[k] = p
    k += 1
    if dynamic:
        k = _push_offs(pflat, k, cell, base[cell] & ~m)
    return (cell << 6) | (_value(m & ~bit) << 1) | 1, k


@njit(inline="always")
def _seed(starts, stamp, mark, index, nodes, pstart, pfirst, qon, qoff):
    """A propagation's first nodes: the potentials ``starts``, each without a
    parent, queued as on or off. Returns the node count and the two queues' tails."""
    n = 0
    pstart[0] = 0
    ton = toff = 0
    for i in range(starts.shape[0]):
        s = starts[i]
        mark[s] = stamp
        index[s] = n
        nodes[n] = s
        pfirst[n] = -1
        n += 1
        pstart[n] = pstart[n - 1]
        if s & 1:
            qon[ton] = n - 1
            ton += 1
        else:
            qoff[toff] = n - 1
            toff += 1
    return n, ton, toff


@njit(inline="always")
def _enqueue(q, p, k, stamp, mark, index, nodes, pstart, pfirst, n, queue, tail):
    """Potential ``q``, reached from ``p`` (its parents in ``pflat`` end before
    ``k``), made node ``n`` and put on ``queue``. Returns the node count and the
    queue's tail."""
    mark[q] = stamp
    index[q] = n
    nodes[n] = q
    pfirst[n] = p
    pstart[n + 1] = k
    queue[tail] = n
    return n + 1, tail + 1


@njit(inline="always")
def _propagate_bits(base, masks, starts, y, dynamic, mark, nodes, index, pstart, pflat, pfirst, qon, qoff, stamp,
                    tab, t1, bd):
    """Op 3 of :func:`run` on grids of up to 128 cells, each value's places kept as a
    bitboard of two words (``bd[2 * value]``, ``bd[2 * value + 1]``; the start's at
    ``bd[64 + ...]``): a value's peers come as the places in the three parts of the cell's
    peers (:data:`_TABLE_WORDS`), ascending, and a unit's other place from the unit's places
    counted on the board, rather than each cell read in turn. The same potentials, parents,
    order and result as the loop over the cells."""
    ncells = base.shape[0]
    for k in range(128):
        bd[k] = 0
    for c in range(ncells):
        m = base[c]
        masks[c] = m
        v = 1
        while m:
            if m & 1:
                _set_bit(bd, 2 * v, c)
            m >>= 1
            v += 1
    for k in range(64):
        bd[64 + k] = bd[k]
    n, ton, toff = _seed(starts, stamp, mark, index, nodes, pstart, pfirst, qon, qoff)
    hon = hoff = 0
    while hon < ton or hoff < toff:
        if hon < ton:
            e = qon[hon]
            hon += 1
            p = nodes[e]
            cell = p >> 6
            value = (p >> 1) & 31
            bit = 1 << (value - 1)
            tb = t1 + _TABLE_WORDS * cell
            # on -> off: the cell's other values, then the value's peers (three parts, two words each)
            m = masks[cell] & ~bit if y else 0
            v = 1
            part = 0
            r = 0
            while True:
                if m:
                    if not m & 1:
                        m >>= 1
                        v += 1
                        continue
                    q = (cell << 6) | (v << 1)
                    m >>= 1
                    v += 1
                else:
                    while not r and part < 6:
                        r = tab[tb + part] & bd[2 * value + (part & 1)]
                        part += 1
                    if not r:
                        break
                    low = r & -r
                    r ^= low
                    c = _low_index(low) + (64 if not part & 1 else 0)
                    q = (c << 6) | (value << 1)
                if mark[q | 1] == stamp:
                    return n, 1, index[q | 1], p
                if mark[q] != stamp:
                    pflat[pstart[n]] = p
                    n, toff = _enqueue(q, p, pstart[n] + 1, stamp, mark, index, nodes, pstart, pfirst, n, qoff, toff)
        else:
            e = qoff[hoff]
            hoff += 1
            p = nodes[e]
            cell = p >> 6
            value = (p >> 1) & 31
            bit = 1 << (value - 1)
            tb = t1 + _TABLE_WORDS * cell
            blo = bd[2 * value]
            bhi = bd[2 * value + 1]
            for step in range(4):  # the y-link, then the box, row and column
                if step == 0:
                    if not y:
                        continue
                    q, k = _y_link(masks, base, cell, bit, p, pflat, pstart[n], dynamic)
                    if q < 0:
                        continue
                else:
                    ulo = tab[tb + 4 + 2 * step] & blo
                    uhi = tab[tb + 5 + 2 * step] & bhi
                    if _ones(ulo) + _ones(uhi) != 2:
                        continue
                    if cell < 64:
                        if not ulo >> cell & 1:
                            continue
                        ulo &= ~(1 << cell)
                    else:
                        if not uhi >> (cell - 64) & 1:
                            continue
                        uhi &= ~(1 << (cell - 64))
                    other = _low_index(ulo) if ulo else 64 + _low_index(uhi)
                    q = (other << 6) | (value << 1) | 1
                    k = pstart[n]
                    pflat[k] = p
                    k += 1
                    if dynamic:  # the places of the unit this propagation removed, ascending
                        for h in range(2):
                            gone = tab[tb + 4 + 2 * step + h] & bd[64 + 2 * value + h] & ~bd[2 * value + h]
                            while gone:
                                low = gone & -gone
                                gone ^= low
                                pflat[k] = ((_low_index(low) + 64 * h) << 6) | (value << 1)
                                k += 1
                # the link made q (parents in pflat[pstart[n]:k])
                if mark[q ^ 1] == stamp:
                    nodes[n] = q
                    pstart[n + 1] = k
                    return n, 2, index[q ^ 1], p
                if mark[q] != stamp:
                    n, ton = _enqueue(q, p, k, stamp, mark, index, nodes, pstart, pfirst, n, qon, ton)
            if dynamic:
                masks[cell] &= ~bit
                if cell < 64:
                    bd[2 * value] &= ~(1 << cell)
                else:
                    bd[2 * value + 1] &= ~(1 << (cell - 64))
    return n, 0, -1, -1


@njit(cache=True, nogil=True)
def run(op, base, masks, peers, units, src, starts, y, x, dynamic, limit, mark, nodes, parents, found, buf, index,
        pstart, pflat, pfirst, qon, qoff, stamp, out):
    """The one compiled entry point (one compilation): ``op`` says what to do.

    * 0, :meth:`Chainer.forcing` from ``src`` (x-links always on): returns
      ``(entries, last, ., .)``, ``last`` the entry whose successor is the
      negation of ``src``, or -1;
    * 1, :meth:`Chainer.cycles` from ``src``: returns ``(entries, cycles
      found, ., .)``; ``found[:count]`` holds, per cycle, the entry whose off
      potential leads back to ``src``;
    * 2, the scan: for every candidate of the cells the producers search
      from (two candidates or more, exactly two without ``x``),
      ``out[(cell << 5) | value]`` gets bit 1 when op 1 from it (on) finds a
      cycle, and with ``x`` bits 2 and 4 when op 0 from it on, and off, finds
      a chain; no limit (a search with one finds a subset); returns
      ``(last stamp used, ., ., .)``;
    * 3, :meth:`Chainer._propagate` from ``starts``, see below.

    Ops 0-2 make entries (``nodes[i]``, and ``parents[i]`` the index of its
    parent entry, ``-1`` at the root) level by level. ``mark`` is work space
    that no earlier call marked with ``stamp`` (op 2 uses the stamps after it).

    Op 3: the graph is ``nodes[:count]`` in the order found, the parents of
    entry ``i`` being ``pflat[pstart[i]:pstart[i + 1]]`` (the first also in
    ``pfirst[i]``, -1 for a start); ``index[node]`` is a node's entry where
    ``mark[node] == stamp``. ``masks`` is work space (a dynamic chain removes
    from it each candidate that turns off). Returns ``(count, kind, entry,
    node)``: kind 0, no contradiction; kind 1, the on potential of entry
    ``entry`` is turned off by ``node``; kind 2, entry ``count`` (its parents
    after ``pstart[count]``, not counted) is the on potential whose negation
    is entry ``entry``. On a grid of up to 128 cells op 3 runs on bitboards
    (:func:`_propagate_bits`, the same result), its tables made once in ``out``
    after the scan's flags (room for them: :func:`work`), ``found`` its work space."""
    width = peers.shape[1]
    ulen = units.shape[2]
    if op == 3:
        ncells = base.shape[0]
        t0 = ncells << 5
        if ncells <= 128 and units.shape[1] == 3 and out.shape[0] >= t0 + 1 + _TABLE_WORDS * ncells \
                and found.shape[0] >= 128:
            if out[t0] != _TABLE_MARK + ncells:
                _bit_tables(units, out, t0 + 1)
                out[t0] = _TABLE_MARK + ncells
            return _propagate_bits(base, masks, starts, y, dynamic, mark, nodes, index, pstart, pflat, pfirst, qon,
                                   qoff, stamp, out, t0 + 1, found)
        for c in range(base.shape[0]):
            masks[c] = base[c]
        n, ton, toff = _seed(starts, stamp, mark, index, nodes, pstart, pfirst, qon, qoff)
        hon = hoff = 0
        while hon < ton or hoff < toff:
            if hon < ton:
                e = qon[hon]
                hon += 1
                p = nodes[e]
                cell = p >> 6
                value = (p >> 1) & 31
                bit = 1 << (value - 1)
                # on -> off: the cell's other values, then the value's peers
                m = masks[cell] & ~bit if y else 0
                v = 1
                j = 0
                while True:
                    if m:
                        if not m & 1:
                            m >>= 1
                            v += 1
                            continue
                        q = (cell << 6) | (v << 1)
                        m >>= 1
                        v += 1
                    else:
                        if j >= width:
                            break
                        c = peers[cell, j]
                        j += 1
                        if c < 0:
                            break
                        if not masks[c] & bit:
                            continue
                        q = (c << 6) | (value << 1)
                    if mark[q | 1] == stamp:
                        return n, 1, index[q | 1], p
                    if mark[q] != stamp:
                        pflat[pstart[n]] = p
                        n, toff = _enqueue(q, p, pstart[n] + 1, stamp, mark, index, nodes, pstart, pfirst, n, qoff, toff)
            else:
                e = qoff[hoff]
                hoff += 1
                p = nodes[e]
                cell = p >> 6
                value = (p >> 1) & 31
                bit = 1 << (value - 1)
                for step in range(4):  # the y-link, then the box, row and column
                    if step == 0:
                        if not y:
                            continue
                        q, k = _y_link(masks, base, cell, bit, p, pflat, pstart[n], dynamic)
                        if q < 0:
                            continue
                    else:
                        other = _conjugate(masks, units, cell, step - 1, bit)
                        if other < 0:
                            continue
                        q = (other << 6) | (value << 1) | 1
                        k = pstart[n]
                        pflat[k] = p
                        k += 1
                        if dynamic:
                            for i in range(ulen):
                                c = units[cell, step - 1, i]
                                if c < 0:
                                    break
                                if base[c] & bit and not masks[c] & bit:
                                    pflat[k] = (c << 6) | (value << 1)
                                    k += 1
                    # the link made q (parents in pflat[pstart[n]:k])
                    if mark[q ^ 1] == stamp:
                        nodes[n] = q
                        pstart[n + 1] = k
                        return n, 2, index[q ^ 1], p
                    if mark[q] != stamp:
                        n, ton = _enqueue(q, p, k, stamp, mark, index, nodes, pstart, pfirst, n, qon, ton)
                if dynamic:
                    masks[cell] &= ~bit
        return n, 0, -1, -1



    # ops 0-2: one search, or the scan's searches (jobs: the source in qon, the kind in qoff: 0 cycles,
    # 1 forcing from on, 2 forcing from off)
    njobs = 0
    if op == 2:
        for cell in range(masks.shape[0]):
            m = masks[cell]
            count = 0
            rest = m
            while rest:
                rest &= rest - 1
                count += 1
            if count < 2 or (not x and count > 2):
                continue
            v = 1
            while m:
                if m & 1:
                    on = (cell << 6) | (v << 1) | 1
                    out[(cell << 5) | v] = 0
                    qon[njobs] = on
                    qoff[njobs] = 0
                    njobs += 1
                    if x:
                        qon[njobs] = on
                        qoff[njobs] = 1
                        qon[njobs + 1] = on ^ 1
                        qoff[njobs + 1] = 2
                        njobs += 2
                m >>= 1
                v += 1
    else:
        qon[0] = src
        qoff[0] = 0 if op == 1 else 1
        njobs = 1
    for jb in range(njobs):
        src = qon[jb]
        kind = qoff[jb]
        cycle = kind == 0
        if op == 2:
            stamp += 1
            limit = 1 << 30
        conj = src ^ 1
        nodes[0] = src
        parents[0] = -1
        mark[src] = stamp
        n = 1
        nfound = 0
        last = -1
        lo, hi = 0, 1
        depth = 0
        if cycle:
            xx = x
        else:
            xx = True
        width = peers.shape[1]
        while lo < hi:
            on = nodes[lo] & 1
            if not cycle or on:
                if depth + 2 > limit:
                    break
            depth += 1
            for e in range(lo, hi):
                node = nodes[e]
                cell = node >> 6
                value = (node >> 1) & 31
                bit = 1 << (value - 1)
                k = 0
                if on:  # on -> off: the cell's other values, then the value's peers
                    if y:
                        k = _push_offs(buf, k, cell, masks[cell] & ~bit)
                    for j in range(width):
                        p = peers[cell, j]
                        if p < 0:
                            break
                        if masks[p] & bit:
                            buf[k] = (p << 6) | (value << 1)
                            k += 1
                else:  # off -> on: the bivalue cell's other value, then each unit's other place
                    if y:
                        m = masks[cell]
                        m2 = m & (m - 1)
                        if m2 and not m2 & (m2 - 1):
                            buf[k] = (cell << 6) | (_value(m & ~bit) << 1) | 1
                            k += 1
                    if xx:
                        for j in range(3):
                            other = _conjugate(masks, units, cell, j, bit)
                            if other >= 0:
                                buf[k] = (other << 6) | (value << 1) | 1
                                k += 1
                for i in range(k):
                    q = buf[i]
                    if not cycle:
                        if q == conj:
                            last = e
                            break
                        if mark[q] != stamp:
                            mark[q] = stamp
                            nodes[n] = q
                            parents[n] = e
                            n += 1
                    elif on:  # an off entry, unless its potential is already on its own path
                        f = e
                        dup = False
                        while f != -1:
                            if nodes[f] == q:
                                dup = True
                                break
                            f = parents[f]
                        if not dup:
                            nodes[n] = q
                            parents[n] = e
                            n += 1
                    else:
                        if depth >= 4 and q == src:
                            found[nfound] = e
                            nfound += 1
                        if mark[q] != stamp:
                            mark[q] = stamp
                            nodes[n] = q
                            parents[n] = e
                            n += 1
                if last >= 0:
                    break
            if last >= 0:
                break
            lo, hi = hi, n
        if op == 2:
            hit = nfound > 0 if cycle else last >= 0
            if hit:
                out[((src >> 6) << 5) | ((src >> 1) & 31)] |= 1 << kind
        elif cycle:
            return n, nfound, 0, 0
        else:
            return n, last, 0, 0
    return stamp, 0, 0, 0


_NONE = np.zeros(0, dtype=np.int64)


def search(cycle: bool, masks, peers, units, src: int, y: bool, x: bool, limit: int, w: dict) -> tuple[int, int]:
    """Ops 0 and 1 of :func:`run` with the work arrays ``w`` of :func:`work`
    (``w["stamp"]`` is advanced)."""
    w["stamp"] += 1
    r = run(1 if cycle else 0, masks, masks, peers, units, src, _NONE, y, x, False, limit, w["mark"], w["nodes"],
            w["parents"], w["found"], w["buf"], w["index"], w["pstart"], w["pflat"], w["pfirst"], w["qon"],
            w["qoff"], w["stamp"], w["flags"])
    return r[0], r[1]


def scan(masks, peers, units, y: bool, x: bool, w: dict) -> np.ndarray:
    """Op 2 of :func:`run`: the flags, in ``w["flags"]``."""
    r = run(2, masks, masks, peers, units, 0, _NONE, y, x, False, 1 << 30, w["mark"], w["nodes"],
            w["parents"], w["found"], w["buf"], w["index"], w["pstart"], w["pflat"], w["pfirst"], w["qon"],
            w["qoff"], w["stamp"], w["flags"])
    w["stamp"] = r[0]
    return w["flags"][:len(masks) << 5]


def propagate(base, peers, units, starts, y: bool, dynamic: bool, w: dict) -> tuple[int, int, int, int]:
    """Op 3 of :func:`run`; ``starts`` a list of potentials."""
    w["stamp"] += 1
    if len(starts) == 1:
        array = w["one"]
        array[0] = starts[0]
    else:
        array = np.array(starts, dtype=np.int64)
    mark, pnodes, parents, found, buf, index, pstart, pflat, pfirst, qon, qoff, flags = w["prop"]
    return run(3, base, w["masks"], peers, units, 0, array, y, True, dynamic, 1 << 30, mark, pnodes, parents, found,
               buf, index, pstart, pflat, pfirst, qon, qoff, w["stamp"], flags)
