"""Compiled inner rules of the nested forcing chains (numba), for :mod:`sudokit.logic.nested`.

At level 2 and up (SE's "Nested Forcing Chains"), every fixpoint of every
assumption runs SE's Forcing Chains & Cycles on the grid the assumption has
reduced, and keeps *all* its hints (sorted as SE sorts them, one per set of
removals) as helpers. In Python, each of those runs made a hint object for
every cycle and chain found (a few dozen) and kept a handful.

:func:`cycles_rule` does the whole run at once: for the three kinds of link
(x, y, then both), every candidate's cycle and forcing-chain searches, with
:func:`chain_kernels.run`, so the very same chains; for each chain, its
removals, complexity and rating (the same float arithmetic as
:func:`chains.length_increment`); then SE's order (rating, complexity, kind,
order found) and one hint per set of removals. It returns only the chains
kept, as their potentials; :mod:`nested` makes their hints with the Python
:func:`chains.cycle_hint` and :func:`chains.forcing_hint`, so the hints are
those of the Python rule, in the same order.

Tables (:func:`tables`, per geometry): ``allpeers[cell, k]``, every peer of
the cell (``geo.peers``, so the units of a variant count), ``-1`` padded. The
searches use :mod:`chain_kernels`' tables and work arrays.

This module imports numba when it is first imported; :mod:`nested` imports it
only once :mod:`chain_kernels` is loaded.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..engine.compiling import load_numba

load_numba()

from numba import njit  # noqa: E402

from .chain_kernels import run  # noqa: E402

__all__ = ["tables", "cycles_rule", "CYCLE", "FORCING"]

#: Kinds of a kept record.
CYCLE, FORCING = 0, 1

#: The columns of a record: rating, complexity, kind key, order found, what it is (CYCLE or
#: FORCING), the pass (0: x-links, 1: y-links, 2: both), start and length of its potentials.
_R_KIND, _R_PASS, _R_START, _R_LEN = 0, 1, 2, 3


@lru_cache(maxsize=None)
def tables(geo) -> np.ndarray:
    """``allpeers`` for a geometry."""
    peers = geo.peers
    width = max((len(p) for p in peers), default=1)
    out = np.full((len(peers), max(width, 1)), -1, dtype=np.int64)
    for cell, ps in enumerate(peers):
        out[cell, :len(ps)] = ps
    return out


@njit(inline="always")
def _increment(complexity):
    """:func:`chains.length_increment`, as the same float sum."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 0.1
        if not odd:
            ceil = ceil * 3 // 2
        else:
            ceil = ceil * 4 // 3
        odd = not odd
    return added


@njit(inline="always")
def _popcount(m):
    count = 0
    while m:
        m &= m - 1
        count += 1
    return count


@njit(cache=True, nogil=True)
def _closure(masks, peers, units, y, x, cid, adj_start, adj, comp, reach):
    """The static implication graph of :mod:`chains` for one kind of link
    (``y``: y-links; ``x``: x-links off -> on; on -> off x-links always), on
    the potentials of ``masks`` (potential ``2 * cid[(cell << 5) | value] +
    on``), and what each potential reaches: ``comp`` its strongly connected
    component (numbered sinks first), ``reach[comp]`` a bitset of the
    components it reaches (itself included). Returns the number of components."""
    ncells = masks.shape[0]
    nn = 0
    # the edges, as CSR
    ne = 0
    for cell in range(ncells):
        m = masks[cell]
        v = 1
        while m:
            if m & 1:
                k = cid[(cell << 5) | v]
                bit = 1 << (v - 1)
                for on in range(2):
                    node = 2 * k + on
                    adj_start[node] = ne
                    if on:
                        if y:
                            om = masks[cell] & ~bit
                            w = 1
                            while om:
                                if om & 1:
                                    adj[ne] = 2 * cid[(cell << 5) | w]
                                    ne += 1
                                om >>= 1
                                w += 1
                        for j in range(peers.shape[1]):
                            p = peers[cell, j]
                            if p < 0:
                                break
                            if masks[p] & bit:
                                adj[ne] = 2 * cid[(p << 5) | v]
                                ne += 1
                    else:
                        if y:
                            cm = masks[cell]
                            if _popcount(cm) == 2:
                                other = cm & ~bit
                                w = 0
                                while other:
                                    other >>= 1
                                    w += 1
                                adj[ne] = 2 * cid[(cell << 5) | w] + 1
                                ne += 1
                        if x:
                            for j in range(units.shape[1]):
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
                                if count == 2 and me:
                                    adj[ne] = 2 * cid[(other << 5) | v] + 1
                                    ne += 1
                    nn = node + 1 if node + 1 > nn else nn
            m >>= 1
            v += 1
    adj_start[nn] = ne
    # Tarjan's strongly connected components, without recursion
    index = np.full(nn, -1, dtype=np.int64)
    low = np.zeros(nn, dtype=np.int64)
    onstack = np.zeros(nn, dtype=np.bool_)
    stack = np.empty(nn, dtype=np.int64)
    call = np.empty(nn, dtype=np.int64)
    edge = np.empty(nn, dtype=np.int64)
    sp = 0
    counter = 0
    ncomp = 0
    for root in range(nn):
        if index[root] >= 0:
            continue
        depth = 0
        call[0] = root
        edge[0] = adj_start[root]
        index[root] = low[root] = counter
        counter += 1
        stack[sp] = root
        sp += 1
        onstack[root] = True
        while depth >= 0:
            u = call[depth]
            if edge[depth] < adj_start[u + 1]:
                w = adj[edge[depth]]
                edge[depth] += 1
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack[sp] = w
                    sp += 1
                    onstack[w] = True
                    depth += 1
                    call[depth] = w
                    edge[depth] = adj_start[w]
                elif onstack[w] and index[w] < low[u]:
                    low[u] = index[w]
                continue
            if low[u] == index[u]:
                while True:
                    sp -= 1
                    w = stack[sp]
                    onstack[w] = False
                    comp[w] = ncomp
                    if w == u:
                        break
                ncomp += 1
            depth -= 1
            if depth >= 0:
                parent = call[depth]
                if low[u] < low[parent]:
                    low[parent] = low[u]
    # what each component reaches: its successors are numbered before it
    words = (ncomp + 63) >> 6
    for c in range(ncomp):
        for t in range(words):
            reach[c, t] = 0
    for u in range(nn):
        c = comp[u]
        reach[c, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    order = np.argsort(comp[:nn], kind="mergesort")
    for oi in range(nn):
        u = order[oi]
        c = comp[u]
        for e in range(adj_start[u], adj_start[u + 1]):
            d = comp[adj[e]]
            if d != c:
                for t in range(words):
                    reach[c, t] |= reach[d, t]
    return ncomp


@njit(inline="always")
def _reaches(comp, reach, a, b):
    """Does potential ``a`` reach potential ``b`` (dense numbers)?"""
    d = comp[b]
    return (reach[comp[a], d >> 6] >> np.uint64(d & 63)) & np.uint64(1) != 0


@njit(cache=True, nogil=True)
def cycles_rule(masks, peers, units, allpeers, mark, nodes, parents, found, buf, index, pstart, pflat, pfirst, qon,
                qoff, flags, stamp, path, recs, rems):
    """SE's Forcing Chains & Cycles on ``masks``, every hint, as
    :func:`nested._inner_hints` ("cycles") keeps them.

    Returns ``(kept, searches, stamp)``: ``recs[:kept]`` the kept chains in
    SE's order, each ``(kind, pass, start, length)`` with its potentials at
    ``path[start:start + length]`` (a cycle: ``src, ..., src``, as
    :func:`chains.cycle_nodes` lists it; a forcing chain: from its last
    potential back to ``src``); ``searches`` the searches that found
    something (the units of work the Python rule counts); ``stamp`` the last
    stamp used in ``mark``. ``kept`` is -1 when ``path``, ``recs`` or
    ``rems`` is too small (nothing is kept then). ``recs`` has five columns
    (the fifth is work space)."""
    ncells = masks.shape[0]
    apw = allpeers.shape[1]
    cap_path = path.shape[0]
    cap_rec = recs.shape[0]
    cap_rem = rems.shape[0]
    none = np.zeros(0, dtype=np.int64)
    # per record: rating, complexity, key, order; kind, pass, path start, path length; removals start, length
    nrec = 0
    diff = np.empty(cap_rec, dtype=np.float64)
    cplx = np.empty(cap_rec, dtype=np.int64)
    keys = np.empty(cap_rec, dtype=np.int64)
    rstart = np.empty(cap_rec, dtype=np.int64)
    rlen = np.empty(cap_rec, dtype=np.int64)
    info = np.empty((cap_rec, 4), dtype=np.int64)
    npath = 0
    nrem = 0
    searches = 0
    fw = np.zeros(ncells << 5, dtype=np.int64)
    bk = np.zeros(ncells << 5, dtype=np.int64)
    inside = np.zeros(ncells, dtype=np.int64)
    cs = 0  # the stamp of fw, bk, inside: one per cycle
    # dense numbers of the candidates, for the reachability that skips the searches that cannot find anything
    cid = np.full(ncells << 5, -1, dtype=np.int64)
    ncand = 0
    for cell in range(ncells):
        m = masks[cell]
        v = 1
        while m:
            if m & 1:
                cid[(cell << 5) | v] = ncand
                ncand += 1
            m >>= 1
            v += 1
    nn = 2 * ncand
    adj_start = np.zeros(nn + 1, dtype=np.int64)
    adj = np.empty(nn * (peers.shape[1] + 32 + units.shape[1]) + 1, dtype=np.int64)
    comp = np.zeros(nn, dtype=np.int64)
    radj_start = np.zeros(nn + 1, dtype=np.int64)
    radj = np.empty(adj.shape[0], dtype=np.int64)
    fill = np.empty(nn, dtype=np.int64)
    reach = np.zeros((nn, (nn + 63) >> 6), dtype=np.uint64)
    for pas in range(3):
        y = pas >= 1
        x = pas != 1
        # one graph serves the pass: its cycles (x-links off -> on when x) and its forcing chains (x)
        _closure(masks, peers, units, y, x, cid, adj_start, adj, comp, reach)
        # the edges reversed
        for u in range(nn + 1):
            radj_start[u] = 0
        for e in range(adj_start[nn]):
            radj_start[adj[e] + 1] += 1
        for u in range(nn):
            radj_start[u + 1] += radj_start[u]
        for u in range(nn):
            fill[u] = radj_start[u]
        for u in range(nn):
            for e in range(adj_start[u], adj_start[u + 1]):
                w = adj[e]
                radj[fill[w]] = u
                fill[w] += 1
        cycle_base = 7.0 if x and y else 6.5
        chain_base = 7.0 if y else 6.6
        cycle_key = 4 if x and y else (3 if y else 2)
        chain_key = 4 if y else 2
        for cell in range(ncells):
            m = masks[cell]
            count = 0
            rest = m
            while rest:
                rest &= rest - 1
                count += 1
            if count < 2 or (not x and count > 2):
                continue
            v = 0
            while m >> v:
                if not (m >> v) & 1:
                    v += 1
                    continue
                on = (cell << 6) | ((v + 1) << 1) | 1
                don = 2 * cid[(cell << 5) | (v + 1)] + 1
                v += 1
                # the cycles back to the candidate on: one needs an on potential a other than the
                # candidate, reached from it, that turns off a potential that turns the candidate on
                maybe = False
                for ri in range(radj_start[don], radj_start[don + 1]):
                    p = radj[ri]
                    if not p & 1:  # an off potential that turns the candidate on
                        for rj in range(radj_start[p], radj_start[p + 1]):
                            a = radj[rj]
                            if a != don and _reaches(comp, reach, don, a):
                                maybe = True
                                break
                    if maybe:
                        break
                nfound = 0
                if maybe:
                    stamp += 1
                    r = run(1, masks, masks, peers, units, on, none, y, x, False, 1 << 30, mark, nodes, parents, found,
                            buf, index, pstart, pflat, pfirst, qon, qoff, stamp, flags)
                    nfound = r[1]
                if nfound:
                    searches += 1
                for fi in range(nfound):
                    # the cycle's potentials: src, then its entries back to the root (src again)
                    start = npath
                    if npath >= cap_path:
                        return -1, searches, stamp
                    path[npath] = on
                    npath += 1
                    e = found[fi]
                    while e != -1:
                        if npath >= cap_path:
                            return -1, searches, stamp
                        path[npath] = nodes[e]
                        npath += 1
                        e = parents[e]
                    length = npath - start
                    # its removals (chains.cycle_hint): a cell outside the cycle that holds the value and
                    # sees an on potential and an off potential of it
                    cs += 1
                    for i in range(start, npath):
                        inside[path[i] >> 6] = cs
                    for i in range(start, npath - 1):
                        q = path[i]
                        qc = q >> 6
                        qv = (q >> 1) & 31
                        bit = 1 << (qv - 1)
                        for j in range(apw):
                            p = allpeers[qc, j]
                            if p < 0:
                                break
                            if inside[p] == cs or not masks[p] & bit:
                                continue
                            if q & 1:
                                fw[(p << 5) | qv] = cs
                            else:
                                bk[(p << 5) | qv] = cs
                    rs = nrem
                    for i in range(start, npath - 1):
                        q = path[i]
                        if not q & 1:
                            continue
                        qc = q >> 6
                        qv = (q >> 1) & 31
                        for j in range(apw):
                            p = allpeers[qc, j]
                            if p < 0:
                                break
                            k = (p << 5) | qv
                            if fw[k] == cs and bk[k] == cs:
                                if nrem >= cap_rem:
                                    return -1, searches, stamp
                                rems[nrem] = k
                                nrem += 1
                                bk[k] = 0  # once
                    if nrem == rs:  # removes nothing: not a hint
                        npath = start
                        continue
                    # the removals as a sorted list (a set's canonical form)
                    for i in range(rs + 1, nrem):
                        k = rems[i]
                        j = i - 1
                        while j >= rs and rems[j] > k:
                            rems[j + 1] = rems[j]
                            j -= 1
                        rems[j + 1] = k
                    # complexity: the distinct potentials (src is listed twice)
                    distinct = 0
                    for i in range(start, npath):
                        dup = False
                        for j in range(start, i):
                            if path[j] == path[i]:
                                dup = True
                                break
                        if not dup:
                            distinct += 1
                    if nrec >= cap_rec:
                        return -1, searches, stamp
                    diff[nrec] = cycle_base + _increment(distinct)
                    cplx[nrec] = distinct
                    keys[nrec] = cycle_key
                    rstart[nrec] = rs
                    rlen[nrec] = nrem - rs
                    info[nrec, _R_KIND] = 0
                    info[nrec, _R_PASS] = pas
                    info[nrec, _R_START] = start
                    info[nrec, _R_LEN] = length
                    nrec += 1
                if not x:
                    continue
                # the forcing chains from the candidate on, then off, to its negation
                for src in (on, on ^ 1):
                    if not _reaches(comp, reach, don ^ (src & 1 ^ 1), don ^ (src & 1)):
                        continue  # the negation is out of reach
                    stamp += 1
                    r = run(0, masks, masks, peers, units, src, none, y, True, False, 1 << 30, mark, nodes, parents,
                            found, buf, index, pstart, pflat, pfirst, qon, qoff, stamp, flags)
                    last = r[1]
                    if last < 0:
                        continue
                    searches += 1
                    start = npath
                    e = last
                    while e != -1:
                        if npath >= cap_path:
                            return -1, searches, stamp
                        path[npath] = nodes[e]
                        npath += 1
                        e = parents[e]
                    # complexity: the chain's potentials and its target
                    distinct = npath - start + 1
                    target = src ^ 1
                    tc = target >> 6
                    tv = (target >> 1) & 31
                    rs = nrem
                    if nrem + 32 > cap_rem:
                        return -1, searches, stamp
                    if target & 1:  # the cell's other values go
                        om = masks[tc] & ~(1 << (tv - 1))
                        w = 1
                        while om:
                            if om & 1:
                                rems[nrem] = (tc << 5) | w
                                nrem += 1
                            om >>= 1
                            w += 1
                    else:
                        rems[nrem] = (tc << 5) | tv
                        nrem += 1
                    if nrec >= cap_rec:
                        return -1, searches, stamp
                    diff[nrec] = chain_base + _increment(distinct)
                    cplx[nrec] = distinct
                    keys[nrec] = chain_key
                    rstart[nrec] = rs
                    rlen[nrec] = nrem - rs
                    info[nrec, _R_KIND] = 1
                    info[nrec, _R_PASS] = pas
                    info[nrec, _R_START] = start
                    info[nrec, _R_LEN] = npath - start
                    nrec += 1
    # SE's order: rating, complexity, kind key, order found (a stable sort per key, last key first)
    order = np.arange(nrec)
    for level in range(3):
        if level == 0:
            col = keys[order].astype(np.float64)
        elif level == 1:
            col = cplx[order].astype(np.float64)
        else:
            col = diff[order]
        o = np.argsort(col, kind="mergesort")
        order = order[o]
    # one hint per set of removals: the first in that order
    kept = 0
    for oi in range(nrec):
        i = order[oi]
        a0 = rstart[i]
        alen = rlen[i]
        dup = False
        for ki in range(kept):
            j = recs[ki, 4]
            if rlen[j] != alen:
                continue
            b0 = rstart[j]
            same = True
            for t in range(alen):
                if rems[a0 + t] != rems[b0 + t]:
                    same = False
                    break
            if same:
                dup = True
                break
        if dup:
            continue
        recs[kept, 0] = info[i, _R_KIND]
        recs[kept, 1] = info[i, _R_PASS]
        recs[kept, 2] = info[i, _R_START]
        recs[kept, 3] = info[i, _R_LEN]
        recs[kept, 4] = i
        kept += 1
    return kept, searches, stamp
