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

from .chain_kernels import _conjugate, _value, run  # noqa: E402

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
def _closure(masks, peers, units, y, x, cid, adj_start, adj, comp, reach, reaching):
    """The static implication graph of :mod:`chains` for one kind of link
    (``y``: y-links; ``x``: x-links off -> on; on -> off x-links always), on
    the potentials of ``masks`` (potential ``2 * cid[(cell << 5) | value] +
    on``), and what each potential reaches: ``comp`` its strongly connected
    component (numbered sinks first), ``reach[comp]`` a bitset of the
    components it reaches (itself included), only when ``reaching``. Returns
    the number of components."""
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
    return _components(nn, adj_start, adj, comp, reach, reaching)


@njit(inline="always")
def _components(nn, adj_start, adj, comp, reach, reaching):
    """:func:`_closure`'s components and reach on the graph ``adj_start``/``adj`` (CSR, ``nn``
    potentials). Returns the number of components."""
    # Tarjan's strongly connected components, without recursion
    index = np.full(nn, -1, dtype=np.int64)
    low = np.zeros(nn, dtype=np.int64)
    onstack = np.zeros(nn, dtype=np.bool_)
    stack = np.empty(nn, dtype=np.int64)
    call = np.empty(nn, dtype=np.int64)
    edge = np.empty(nn, dtype=np.int64)
    order = np.empty(nn, dtype=np.int64)  # the nodes as their components are closed: sinks first
    no = 0
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
                    order[no] = w
                    no += 1
                    if w == u:
                        break
                ncomp += 1
            depth -= 1
            if depth >= 0:
                parent = call[depth]
                if low[u] < low[parent]:
                    low[parent] = low[u]
    if not reaching:
        return ncomp
    # what each component reaches: its successors are numbered before it
    words = (ncomp + 63) >> 6
    for c in range(ncomp):
        for t in range(words):
            reach[c, t] = 0
    for u in range(nn):
        c = comp[u]
        reach[c, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
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
def _numbered(masks):
    """The dense numbers of the candidates of ``masks`` (``cid[(cell << 5) | value]``, -1 for
    none), how many there are, and each dense potential's potential (``pot[2 * k + on]``)."""
    ncells = masks.shape[0]
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
    pot = np.empty(2 * ncand, dtype=np.int64)
    for cell in range(ncells):
        m = masks[cell]
        v = 1
        while m:
            if m & 1:
                k = cid[(cell << 5) | v]
                pot[2 * k] = (cell << 6) | (v << 1)
                pot[2 * k + 1] = (cell << 6) | (v << 1) | 1
            m >>= 1
            v += 1
    return cid, ncand, pot


@njit(inline="always")
def _reversed(nn, adj_start, adj, radj_start, radj, fill):
    """The edges of :func:`_closure`'s graph reversed, as CSR (``fill``: room for ``nn``)."""
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


@njit(inline="always")
def _bivalue_masks(masks):
    """``masks`` kept in the cells of two candidates only: the graph of y-links alone holds
    no cycle elsewhere (an off potential turns a candidate on only in such a cell, so a
    cycle's potentials all lie in them)."""
    out = np.zeros_like(masks)
    for cell in range(masks.shape[0]):
        m = masks[cell]
        rest = m & (m - 1)
        if rest and not rest & (rest - 1):
            out[cell] = m
    return out


@njit(inline="always")
def _may_cycle(don, radj_start, radj, comp):
    """Whether a cycle can come back to the on potential ``don``: it needs an on potential
    other than it, reached from it, that turns off a potential that turns it on (``radj``:
    :func:`_reversed`; reached from it and reaching it: its own strongly connected
    component)."""
    for ri in range(radj_start[don], radj_start[don + 1]):
        p = radj[ri]
        if not p & 1:  # an off potential that turns the candidate on
            for rj in range(radj_start[p], radj_start[p + 1]):
                a = radj[rj]
                if a != don and comp[a] == comp[don]:
                    return True
    return False


@njit(inline="always")
def _reaches(comp, reach, a, b):
    """Does potential ``a`` reach potential ``b`` (dense numbers)?"""
    d = comp[b]
    return (reach[comp[a], d >> 6] >> np.uint64(d & 63)) & np.uint64(1) != 0


@njit(inline="always")
def _constants(masks):
    """0, 1, no limit, 3, True and False, as values rather than constants: the calls of
    :func:`chain_kernels.run` then have the types of the calls from Python, and numba
    compiles ``run`` once for all."""
    k = np.empty(4, dtype=np.int64)
    k[0] = 0
    k[1] = 1
    k[2] = 1 << 30
    k[3] = 3
    yes = masks.shape[0] >= 0
    return k, yes, not yes


#: the searches' depth bound that bounds nothing
NO_LIMIT = 1 << 30


@njit(inline="always")
def _cycle_search(src, adj_start, adj, dnodes, dpar, dmark, ds, found, limit, comp):
    """:func:`chain_kernels.run`'s cycle search (op 1) from the on potential ``src`` on the
    graph of :func:`_closure` (dense numbers; the graph's edges are the links the search
    makes, in the same order): the same cycles of at most ``limit`` potentials
    (:data:`NO_LIMIT`: all), found in the same order. ``dmark`` holds no ``ds`` before.
    Returns the cycles found (``found[:count]``).

    A cycle comes back to ``src``, so each of its potentials lies in the strongly connected
    component of ``src`` (``comp``, :func:`_closure`'s): the search makes no entry for a
    potential outside it. Nothing met after such a potential is inside either (it would then
    reach ``src``, and so would the potential), so leaving those entries out changes no other
    entry, nor its level, nor which potentials are marked first; it leaves out most of the
    entries (the off potentials that turn nothing on, and whatever leads away for good)."""
    home = comp[src]
    dnodes[0] = src
    dpar[0] = -1
    dmark[src] = ds
    n = 1
    nfound = 0
    lo = 0
    hi = 1
    depth = 0
    while lo < hi:
        on = dnodes[lo] & 1
        depth += 1
        if depth > limit:
            break
        for e in range(lo, hi):
            node = dnodes[e]
            for ei in range(adj_start[node], adj_start[node + 1]):
                q = adj[ei]
                if comp[q] != home:
                    continue  # (it never leads back to src)
                if on:  # an off entry, unless its potential is already on its own path
                    f = e
                    dup = False
                    while f != -1:
                        if dnodes[f] == q:
                            dup = True
                            break
                        f = dpar[f]
                    if not dup:
                        dnodes[n] = q
                        dpar[n] = e
                        n += 1
                else:
                    if depth >= 4 and q == src:
                        found[nfound] = e
                        nfound += 1
                    if dmark[q] != ds:
                        dmark[q] = ds
                        dnodes[n] = q
                        dpar[n] = e
                        n += 1
        lo = hi
        hi = n
    return nfound


@njit(inline="always")
def _forcing_search(src, adj_start, adj, dnodes, dpar, dmark, ds, limit):
    """:func:`chain_kernels.run`'s forcing-chain search (op 0) from ``src`` on the graph of
    :func:`_closure` with x-links (dense numbers), up to the chains of ``limit`` potentials (an
    entry at level ``L`` ends a chain of ``L + 2``; :data:`NO_LIMIT`: all): the entry whose
    successor is the negation of ``src``, or -1."""
    conj = src ^ 1
    dnodes[0] = src
    dpar[0] = -1
    dmark[src] = ds
    n = 1
    lo = 0
    hi = 1
    level = 0
    while lo < hi and level + 2 <= limit:
        for e in range(lo, hi):
            node = dnodes[e]
            for ei in range(adj_start[node], adj_start[node + 1]):
                q = adj[ei]
                if q == conj:
                    return e
                if dmark[q] != ds:
                    dmark[q] = ds
                    dnodes[n] = q
                    dpar[n] = e
                    n += 1
        lo = hi
        hi = n
        level += 1
    return -1


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
    # a cycle's removals on bitboards (words of 64 cells): each cell's peers, each value's places,
    # and per value of the cycle the cells that see an on potential of it, and an off one
    nw = (ncells + 63) >> 6
    peerb = np.zeros((ncells, nw), dtype=np.uint64)
    for c in range(ncells):
        for j in range(apw):
            p = allpeers[c, j]
            if p < 0:
                break
            peerb[c, p >> 6] |= _bit64(p)
    placeb = np.zeros((32, nw), dtype=np.uint64)
    for c in range(ncells):
        m = masks[c]
        v = 1
        while m:
            if m & 1:
                placeb[v, c >> 6] |= _bit64(c)
            m >>= 1
            v += 1
    fwb = np.zeros((32, nw), dtype=np.uint64)
    bkb = np.zeros((32, nw), dtype=np.uint64)
    insideb = np.zeros(nw, dtype=np.uint64)
    # dense numbers of the candidates, for the reachability that skips the searches that cannot
    # find anything; the searches' work (entries: the root, each on potential once, and each on
    # potential's off entries)
    cid_all, ncand, pot_all = _numbered(masks)
    # the y-links pass's graph: the cells of two candidates only (easiest_cycle says why)
    masks1 = _bivalue_masks(masks)
    cid1, ncand1, pot1 = _numbered(masks1)
    nn = 2 * ncand
    nentries = (ncand + 1) * (peers.shape[1] + 34)
    dnodes = np.empty(nentries, dtype=np.int64)
    dpar = np.empty(nentries, dtype=np.int64)
    dfound = np.empty(nentries, dtype=np.int64)
    dmark = np.zeros(nn, dtype=np.int64)
    ds = 0
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
        if pas == 1:
            pmasks, cid, pot, pnn = masks1, cid1, pot1, 2 * ncand1
        else:
            pmasks, cid, pot, pnn = masks, cid_all, pot_all, nn
        # one graph serves the pass: its cycles (x-links off -> on when x) and its forcing chains (x)
        _closure(pmasks, peers, units, y, x, cid, adj_start, adj, comp, reach, x)
        _reversed(pnn, adj_start, adj, radj_start, radj, fill)
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
                maybe = _may_cycle(don, radj_start, radj, comp)
                nfound = 0
                if maybe:
                    ds += 1
                    nfound = _cycle_search(don, adj_start, adj, dnodes, dpar, dmark, ds, dfound, NO_LIMIT, comp)
                if nfound:
                    searches += 1
                for fi in range(nfound):
                    # the cycle's potentials: src, then its entries back to the root (src again)
                    start = npath
                    if npath >= cap_path:
                        return -1, searches, stamp
                    path[npath] = on
                    npath += 1
                    e = dfound[fi]
                    while e != -1:
                        if npath >= cap_path:
                            return -1, searches, stamp
                        path[npath] = pot[dnodes[e]]
                        npath += 1
                        e = dpar[e]
                    length = npath - start
                    # its removals (chains.cycle_hint): a cell outside the cycle that holds the value and
                    # sees an on potential and an off potential of it (a cell that sees an on potential
                    # of the value is a peer of an on potential of the cycle, as the rule reads it)
                    for t in range(nw):
                        insideb[t] = 0
                    vals = 0
                    for i in range(start, npath):
                        insideb[path[i] >> 12] |= _bit64(path[i] >> 6)
                    for i in range(start, npath - 1):
                        q = path[i]
                        qv = (q >> 1) & 31
                        if not (vals >> qv) & 1:
                            vals |= 1 << qv
                            for t in range(nw):
                                fwb[qv, t] = 0
                                bkb[qv, t] = 0
                        qc = q >> 6
                        if q & 1:
                            for t in range(nw):
                                fwb[qv, t] |= peerb[qc, t]
                        else:
                            for t in range(nw):
                                bkb[qv, t] |= peerb[qc, t]
                    rs = nrem
                    while vals:
                        qv = 0
                        while not (vals >> qv) & 1:
                            qv += 1
                        vals ^= 1 << qv
                        for t in range(nw):
                            r = fwb[qv, t] & bkb[qv, t] & placeb[qv, t] & ~insideb[t]
                            while r:
                                low = r & (~r + np.uint64(1))
                                r ^= low
                                if nrem >= cap_rem:
                                    return -1, searches, stamp
                                rems[nrem] = (((t << 6) + _low_index64(low)) << 5) | qv
                                nrem += 1
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
                    ds += 1
                    last = _forcing_search(don ^ (src & 1 ^ 1), adj_start, adj, dnodes, dpar, dmark, ds, NO_LIMIT)
                    if last < 0:
                        continue
                    searches += 1
                    start = npath
                    e = last
                    while e != -1:
                        if npath >= cap_path:
                            return -1, searches, stamp
                        path[npath] = pot[dnodes[e]]
                        npath += 1
                        e = dpar[e]
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


# -- the four basic helpers of every level ------------------------------------------------------------

#: SE's region types, as :mod:`nested` numbers them.
_BLOCK, _ROW, _COL = 0, 1, 2

#: Rules of :func:`basic_helpers`, in SE's order; 0: none gave a helper.
LOCKING, HIDDEN_PAIR, NAKED_PAIR, X_WING = 1, 2, 3, 4


@lru_cache(maxsize=None)
def helper_tables(geo) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(units, regions, member, meet)`` for a geometry: ``units[u]`` the
    cells of unit ``u`` in the geometry's order (-1 padded); ``regions[t]``
    the units of SE's type ``t`` (block, row, column); ``member[u, cell]``;
    ``meet[u1, u2]`` whether two units share a cell."""
    units = geo.units
    width = max(len(u) for u in units)
    ua = np.full((len(units), width), -1, dtype=np.int64)
    member = np.zeros((len(units), len(geo.units_of)), dtype=np.uint8)
    for u, cells in enumerate(units):
        ua[u, :len(cells)] = cells
        member[u, list(cells)] = 1
    kinds = (geo.boxes, geo.rows, geo.cols)
    regions = np.full((3, max(len(k) for k in kinds)), -1, dtype=np.int64)
    for t, us in enumerate(kinds):
        regions[t, :len(us)] = us
    um = geo.unit_mask
    meet = np.array([[1 if um[a] & um[b] else 0 for b in range(len(units))] for a in range(len(units))],
                    dtype=np.uint8)
    return ua, regions, member, meet


@njit(inline="always")
def _sort_small(buf, lo, hi):
    """Insertion sort of ``buf[lo:hi]``, ascending."""
    for i in range(lo + 1, hi):
        k = buf[i]
        j = i - 1
        while j >= lo and buf[j] > k:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = k


@njit(inline="always")
def _hashmap_sort(buf, lo, hi):
    """:func:`nested._hashmap_order` of the cells ``buf[lo:hi]`` (distinct), in place."""
    k = hi - lo
    cap = 16
    while k > cap * 3 // 4:
        cap *= 2
    mask = cap - 1
    for i in range(lo + 1, hi):
        c = buf[i]
        j = i - 1
        while j >= lo and ((buf[j] & mask) > (c & mask) or ((buf[j] & mask) == (c & mask) and buf[j] > c)):
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = c


@njit(cache=True, nogil=True)
def basic_helpers(masks, base, units, regions, member, meet, empty, occ, n, heads, flat):
    """SE's ``getAdvancedPotentials`` up to X-Wing, as :meth:`nested._LevelChainer.advanced`
    runs it: the helpers (with a parent) of the first of Pointing/Claiming,
    Hidden Pair, Naked Pair and X-Wing that has any, on the reduced grid
    ``masks`` of the state ``base``.

    Returns ``(rule, count)``: helper ``h`` turns off the potentials
    ``flat[heads[h, 0]:heads[h, 1]]`` (in SE's order) with the parents
    ``flat[heads[h, 1]:heads[h, 2]]``; ``heads[h, 3]`` is 1 for a claiming
    (else 0). ``count`` is -1 when ``heads`` or ``flat`` is too small."""
    ncells = masks.shape[0]
    ulen = units.shape[1]
    nreg = regions.shape[1]
    cap_h = heads.shape[0]
    cap_f = flat.shape[0]
    tmp = np.empty(ncells, dtype=np.int64)
    nh = 0
    nf = 0
    # per value: any place left, any place the chain removed
    left = 0
    moved = 0
    for c in range(ncells):
        left |= masks[c]
        moved |= base[c] & ~masks[c]
    # -- Pointing (block -> column, block -> row) and Claiming (column -> block, row -> block)
    for tt in range(4):
        t1 = _BLOCK if tt < 2 else (_COL if tt == 2 else _ROW)
        t2 = (_COL if tt == 0 else _ROW) if tt < 2 else _BLOCK
        for v in range(1, n + 1):
            bit = 1 << (v - 1)
            if not left & bit or not moved & bit:
                continue
            for i1 in range(nreg):
                r1 = regions[t1, i1]
                if r1 < 0:
                    break
                count = 0
                gone_here = False
                for k in range(ulen):
                    c = units[r1, k]
                    if c < 0:
                        break
                    if masks[c] & bit:
                        count += 1
                    elif base[c] & bit:
                        gone_here = True
                if count < 2 or not gone_here:
                    continue
                for i2 in range(nreg):
                    r2 = regions[t2, i2]
                    if r2 < 0:
                        break
                    if not meet[r1, r2]:
                        continue
                    inside = True
                    for k in range(ulen):
                        c = units[r1, k]
                        if c < 0:
                            break
                        if masks[c] & bit and not member[r2, c]:
                            inside = False
                            break
                    if not inside:
                        continue
                    # the removals: the value's places in r2 outside r1
                    nrem = 0
                    for k in range(ulen):
                        c = units[r2, k]
                        if c < 0:
                            break
                        if masks[c] & bit and not member[r1, c]:
                            tmp[nrem] = c
                            nrem += 1
                    if not nrem:
                        continue
                    # the parents: the places the chain removed from r1 outside r2
                    if nf + 2 * ncells > cap_f or nh >= cap_h:
                        return LOCKING, -1
                    p0 = nf + nrem
                    np_ = 0
                    for k in range(ulen):
                        c = units[r1, k]
                        if c < 0:
                            break
                        if base[c] & bit and not masks[c] & bit and not member[r2, c]:
                            flat[p0 + np_] = c
                            np_ += 1
                    if not np_:
                        continue
                    _sort_small(flat, p0, p0 + np_)
                    for k in range(p0, p0 + np_):
                        flat[k] = (flat[k] << 6) | (v << 1)
                    _hashmap_sort(tmp, 0, nrem)
                    for k in range(nrem):
                        flat[nf + k] = (tmp[k] << 6) | (v << 1)
                    heads[nh, 0] = nf
                    heads[nh, 1] = p0
                    heads[nh, 2] = p0 + np_
                    heads[nh, 3] = 0 if t1 == _BLOCK else 1
                    nh += 1
                    nf = p0 + np_
    if nh:
        return LOCKING, nh
    # -- Hidden Pair: blocks, columns, rows; value pairs in colex order
    posu = np.zeros(n, dtype=np.int64)
    for tt in range(3):
        t = _BLOCK if tt == 0 else (_COL if tt == 1 else _ROW)
        for i1 in range(nreg):
            r = regions[t, i1]
            if r < 0:
                break
            if empty[r] <= 4:
                continue
            movedv = 0
            for v0 in range(n):
                posu[v0] = 0
            for k in range(ulen):
                c = units[r, k]
                if c < 0:
                    break
                movedv |= base[c] & ~masks[c]
                m = masks[c]
                v0 = 0
                while m:
                    if m & 1:
                        posu[v0] |= 1 << k
                    m >>= 1
                    v0 += 1
            if not movedv:
                continue
            for b in range(1, n):
                for a in range(b):
                    pa = posu[a]
                    pb = posu[b]
                    if pa & (pa - 1) == 0 or pb & (pb - 1) == 0 or not (movedv >> a & 1 or movedv >> b & 1):
                        continue
                    union = pa | pb
                    if _popcount(union) != 2:
                        continue
                    keep = (1 << a) | (1 << b)
                    nrem = 0
                    for k in range(ulen):
                        if union >> k & 1:
                            c = units[r, k]
                            if masks[c] & ~keep:
                                tmp[nrem] = c
                                nrem += 1
                    if not nrem:
                        continue
                    if nf + ncells * (n + 2) > cap_f or nh >= cap_h:
                        return HIDDEN_PAIR, -1
                    _hashmap_sort(tmp, 0, nrem)
                    o0 = nf
                    for i in range(nrem):
                        c = tmp[i]
                        m = masks[c] & ~keep
                        w = 1
                        while m:
                            if m & 1:
                                flat[nf] = (c << 6) | (w << 1)
                                nf += 1
                            m >>= 1
                            w += 1
                    p0 = nf
                    for k in range(ulen):
                        c = units[r, k]
                        if c < 0:
                            break
                        if not union >> k & 1:
                            if base[c] >> a & 1:
                                flat[nf] = (c << 6) | ((a + 1) << 1)
                                nf += 1
                            if base[c] >> b & 1:
                                flat[nf] = (c << 6) | ((b + 1) << 1)
                                nf += 1
                    if nf == p0:
                        nf = o0
                        continue
                    heads[nh, 0] = o0
                    heads[nh, 1] = p0
                    heads[nh, 2] = nf
                    heads[nh, 3] = 0
                    nh += 1
    if nh:
        return HIDDEN_PAIR, nh
    # -- Naked Pair: blocks, columns, rows; cell pairs in colex order
    for tt in range(3):
        t = _BLOCK if tt == 0 else (_COL if tt == 1 else _ROW)
        for i1 in range(nreg):
            r = regions[t, i1]
            if r < 0:
                break
            if empty[r] < 4:
                continue
            same = True
            for k in range(ulen):
                c = units[r, k]
                if c < 0:
                    break
                if masks[c] != base[c]:
                    same = False
                    break
            if same:
                continue
            for b in range(1, ulen):
                cb = units[r, b]
                if cb < 0:
                    break
                for a in range(b):
                    ca = units[r, a]
                    ma = masks[ca]
                    mb = masks[cb]
                    if ma & (ma - 1) == 0 or mb & (mb - 1) == 0:
                        continue
                    if ma == base[ca] and mb == base[cb]:
                        continue
                    union = ma | mb
                    if _popcount(union) != 2:
                        continue
                    nrem = 0
                    for k in range(ulen):
                        c = units[r, k]
                        if c < 0:
                            break
                        if c != ca and c != cb and masks[c] & union:
                            tmp[nrem] = c
                            nrem += 1
                    if not nrem:
                        continue
                    if nf + ncells * (n + 2) > cap_f or nh >= cap_h:
                        return NAKED_PAIR, -1
                    p0 = nf + 2 * nrem  # the removals come first: at most two a cell
                    np_ = 0
                    for c in (ca, cb):
                        m = base[c] & ~union
                        w = 1
                        while m:
                            if m & 1:
                                flat[p0 + np_] = (c << 6) | (w << 1)
                                np_ += 1
                            m >>= 1
                            w += 1
                    if not np_:
                        continue
                    _hashmap_sort(tmp, 0, nrem)
                    o0 = nf
                    for i in range(nrem):
                        c = tmp[i]
                        m = masks[c] & union
                        w = 1
                        while m:
                            if m & 1:
                                flat[nf] = (c << 6) | (w << 1)
                                nf += 1
                            m >>= 1
                            w += 1
                    # the parents move down to follow the removals
                    for i in range(np_):
                        flat[nf + i] = flat[p0 + i]
                    heads[nh, 0] = o0
                    heads[nh, 1] = nf
                    heads[nh, 2] = nf + np_
                    heads[nh, 3] = 0
                    nh += 1
                    nf += np_
    if nh:
        return NAKED_PAIR, nh
    # -- X-Wing: column bases, then row bases; pairs of bases in colex order, then values ascending
    lines = np.zeros((n + 1, nreg), dtype=np.int64)
    cover = np.full(ncells, -1, dtype=np.int64)  # each cell's cover line (one of each kind a cell)
    for tt in range(2):
        t1 = _COL if tt == 0 else _ROW
        t2 = _ROW if tt == 0 else _COL
        for k2 in range(nreg):
            cu = regions[t2, k2]
            if cu < 0:
                break
            for k in range(ulen):
                c = units[cu, k]
                if c < 0:
                    break
                cover[c] = k2
        for v in range(1, n + 1):
            if occ[v] + 4 > n:
                continue
            bit = 1 << (v - 1)
            for i in range(nreg):
                lines[v, i] = 0
                bu = regions[t1, i]
                if bu < 0:
                    continue
                for k in range(ulen):
                    c = units[bu, k]
                    if c < 0:
                        break
                    if masks[c] & bit and cover[c] >= 0:
                        lines[v, i] |= 1 << cover[c]
        for j in range(1, nreg):
            for i in range(j):
                for v in range(1, n + 1):
                    if occ[v] + 4 > n:
                        continue
                    cov = lines[v, i]
                    if cov != lines[v, j] or _popcount(cov) != 2:
                        continue
                    bit = 1 << (v - 1)
                    b1 = regions[t1, i]
                    b2 = regions[t1, j]
                    nrem = 0
                    for k2 in range(nreg):
                        if not cov >> k2 & 1:
                            continue
                        cu = regions[t2, k2]
                        for k in range(ulen):
                            c = units[cu, k]
                            if c < 0:
                                break
                            if masks[c] & bit and not member[b1, c] and not member[b2, c]:
                                tmp[nrem] = c
                                nrem += 1
                    if not nrem:
                        continue
                    if nf + 2 * ncells > cap_f or nh >= cap_h:
                        return X_WING, -1
                    _sort_small(tmp, 0, nrem)
                    _hashmap_sort(tmp, 0, nrem)
                    o0 = nf
                    for i2 in range(nrem):
                        flat[nf] = (tmp[i2] << 6) | (v << 1)
                        nf += 1
                    p0 = nf
                    for bu in (b1, b2):
                        q0 = nf
                        for k in range(ulen):
                            c = units[bu, k]
                            if c < 0:
                                break
                            if not base[c] & bit or masks[c] & bit:
                                continue
                            covered = False
                            for k2 in range(nreg):
                                if cov >> k2 & 1 and member[regions[t2, k2], c]:
                                    covered = True
                                    break
                            if not covered:
                                flat[nf] = c
                                nf += 1
                        _sort_small(flat, q0, nf)
                        for k in range(q0, nf):
                            flat[k] = (flat[k] << 6) | (v << 1)
                    if nf == p0:
                        nf = o0
                        continue
                    heads[nh, 0] = o0
                    heads[nh, 1] = p0
                    heads[nh, 2] = nf
                    heads[nh, 3] = 0
                    nh += 1
    if nh:
        return X_WING, nh
    return 0, 0


# -- the inner Multiple Forcing Chains (level 3) and Dynamic Forcing Chains (level 4) -------------------

#: What a kept hint of :func:`multiple_rule` is.
CONTRA_ON, CONTRA_OFF, DOUBLE, REGION, CELL = 0, 1, 2, 3, 4


@njit(inline="always")
def _dense(cid, q):
    return 2 * cid[((q >> 6) << 5) | ((q >> 1) & 31)] + (q & 1)


@njit(cache=True, nogil=True)
def _store(g, pnodes, pstart, pflat, count, gbase, gn, gnodes, gps, gpf, gidx, cid, used):
    """Keep the graph just made by op 3 of :func:`chain_kernels.run` (``count``
    entries, the extra entry of a contradiction included) as graph ``g``, at
    ``gnodes[gbase[g]:]``, ``gps``/``gpf`` its parents, ``gidx[g, potential]``
    the entries (-1 elsewhere). Returns the room used in ``gpf``, or -1 when
    there is not enough."""
    # forget the graph held before in this slot
    b0 = gbase[g]
    for i in range(gn[g]):
        gidx[g, _dense(cid, gnodes[b0 + i])] = -1
    b0 = used[0]
    f0 = used[1]
    total = pstart[count] - pstart[0]
    if b0 + count + 1 > gnodes.shape[0] or f0 + total > gpf.shape[0]:
        return -1
    gbase[g] = b0
    gn[g] = count
    for i in range(count):
        gnodes[b0 + i] = pnodes[i]
        gps[b0 + i] = f0 + pstart[i] - pstart[0]
    gps[b0 + count] = f0 + total
    for k in range(total):
        gpf[f0 + k] = pflat[pstart[0] + k]
    used[0] = b0 + count + 1
    used[1] = f0 + total
    return 0


@njit(inline="always")
def _ancestors(g, e, cid, gbase, gnodes, gps, gpf, gidx, seen, stamp, todo):
    """How many distinct potentials the chain ending in entry ``e`` of graph
    ``g`` holds (:func:`chains.chain_nodes` over its parents)."""
    b0 = gbase[g]
    count = 1
    seen[_dense(cid, gnodes[b0 + e])] = stamp
    nt = 0
    for k in range(gps[b0 + e], gps[b0 + e + 1]):
        todo[nt] = gpf[k]
        nt += 1
    while nt:
        nt -= 1
        p = todo[nt]
        d = _dense(cid, p)
        if seen[d] == stamp:
            continue
        seen[d] = stamp
        count += 1
        pe = gidx[g, d]
        for k in range(gps[b0 + pe], gps[b0 + pe + 1]):
            todo[nt] = gpf[k]
            nt += 1
    return count


@njit(inline="always")
def _ancestors_of(g, q, ps0, ps1, cid, gbase, gnodes, gps, gpf, gidx, seen, stamp, todo):
    """As :func:`_ancestors`, for potential ``q`` with the parents ``gpf[ps0:ps1]``
    (the contradiction's second chain, or its extra entry)."""
    count = 1
    seen[_dense(cid, q)] = stamp
    nt = 0
    for k in range(ps0, ps1):
        todo[nt] = gpf[k]
        nt += 1
    while nt:
        nt -= 1
        p = todo[nt]
        d = _dense(cid, p)
        if seen[d] == stamp:
            continue
        seen[d] = stamp
        count += 1
        pe = gidx[g, d]
        b0 = gbase[g]
        for k in range(gps[b0 + pe], gps[b0 + pe + 1]):
            todo[nt] = gpf[k]
            nt += 1
    return count


@njit(inline="always")
def _index_graph(g, count, cid, gbase, gnodes, gps, gpf, gidx, gdep):
    """Index graph ``g`` just kept by :func:`_store` (``count`` entries): its
    entries in ``gidx``, and in ``gdep`` each entry's count of potentials back
    to a start through first parents (at most its chain's count)."""
    b0 = gbase[g]
    for i in range(count):
        gidx[g, _dense(cid, gnodes[b0 + i])] = i
        k = gps[b0 + i]
        if k == gps[b0 + i + 1]:
            gdep[b0 + i] = 1
        else:
            gdep[b0 + i] = 1 + gdep[b0 + gidx[g, _dense(cid, gpf[k])]]


@njit(inline="always")
def _loses(least, key, bestc, bestk):
    """Whether a hint of kind ``key`` whose complexity is at least ``least``
    cannot replace the best hint so far on its removals (complexity ``bestc``,
    kind ``bestk``; -1: none): it comes later, so it must be simpler, or as
    simple and of a smaller kind."""
    return bestc >= 0 and (least > bestc or (least == bestc and key >= bestk))


@njit(inline="always")
def _static_links(masks, peers, units, cid, adj_start, adj):
    """The static implications of :func:`chain_kernels.run` (y- and x-links) on
    ``masks`` as CSR over the dense potentials (``2 * cid + on``), each
    potential's in the order ``run`` makes them: an on potential's the cell's
    other values, then the value's peers; an off one's the y-link, then the
    conjugate places in the box, row and column."""
    ne = 0
    width = peers.shape[1]
    for cell in range(masks.shape[0]):
        cm = masks[cell]
        m = cm
        v = 1
        while m:
            if m & 1:
                k = cid[(cell << 5) | v]
                bit = 1 << (v - 1)
                adj_start[2 * k] = ne
                m2 = cm & (cm - 1)
                if m2 and not m2 & (m2 - 1):
                    adj[ne] = 2 * cid[(cell << 5) | _value(cm & ~bit)] + 1
                    ne += 1
                for j in range(3):
                    other = _conjugate(masks, units, cell, j, bit)
                    if other >= 0:
                        adj[ne] = 2 * cid[(other << 5) | v] + 1
                        ne += 1
                adj_start[2 * k + 1] = ne
                om = cm & ~bit
                w = 1
                while om:
                    if om & 1:
                        adj[ne] = 2 * cid[(cell << 5) | w]
                        ne += 1
                    om >>= 1
                    w += 1
                for j in range(width):
                    c = peers[cell, j]
                    if c < 0:
                        break
                    if masks[c] & bit:
                        adj[ne] = 2 * cid[(c << 5) | v]
                        ne += 1
            m >>= 1
            v += 1
    return ne


@njit(inline="always")
def _static_graph(g, sd, adj_start, adj, pot, cid, gbase, gn, gnodes, gdep, gidx, used, qon, qoff):
    """The static propagation of :func:`chain_kernels.run` (op 3, not dynamic)
    from the dense potential ``sd``, over the links of :func:`_static_links`,
    kept as graph ``g`` as :func:`_store` keeps it, with ``gdep`` each entry's
    count of potentials back to the start (a static potential has one parent,
    so that count is its chain's). Stops where ``run`` stops, at a
    contradiction. Returns 0, or -1 when ``gnodes`` has no room."""
    b0 = gbase[g]
    for i in range(gn[g]):
        gidx[g, _dense(cid, gnodes[b0 + i])] = -1
    b0 = used[0]
    cap = gnodes.shape[0]
    if b0 + 2 > cap:
        return -1
    gbase[g] = b0
    gnodes[b0] = pot[sd]
    gdep[b0] = 1
    gidx[g, sd] = 0
    n = 1
    hon = ton = hoff = toff = 0
    if sd & 1:
        qon[ton] = 0
        ton += 1
    else:
        qoff[toff] = 0
        toff += 1
    stop = False
    while (hon < ton or hoff < toff) and not stop:
        if hon < ton:
            e = qon[hon]
            hon += 1
            on = True
        else:
            e = qoff[hoff]
            hoff += 1
            on = False
        d = _dense(cid, gnodes[b0 + e])
        dep = gdep[b0 + e] + 1
        for t in range(adj_start[d], adj_start[d + 1]):
            qd = adj[t]
            if gidx[g, qd ^ 1] >= 0:  # the potential's negation is in the graph: a contradiction
                stop = True
                break
            if gidx[g, qd] < 0:
                if b0 + n + 2 > cap:
                    return -1
                gidx[g, qd] = n
                gnodes[b0 + n] = pot[qd]
                gdep[b0 + n] = dep
                if on:
                    qoff[toff] = n
                    toff += 1
                else:
                    qon[ton] = n
                    ton += 1
                n += 1
    gn[g] = n
    used[0] = b0 + n + 1
    return 0

@njit(inline="always")
def _static_wanted(masks, adj_start, adj, ulist, cellunits, cid, pot, nn, ncells, ulen):
    """Per cell, whether :func:`multiple_rule` (static) may find a hint from it: whether the
    potentials every value of the cell reaches in the static graph (:func:`_static_links`,
    ``adj_start``/``adj``: the graph of :func:`_closure` with both kinds of link), or
    those every place of one of its values reaches in a unit where it is the first place,
    hold one that removes something (:func:`_removal_id`). A propagation reaches no more than
    that (it may stop sooner, at a contradiction), so a cell without is sure to give none."""
    want = np.zeros(ncells, dtype=np.bool_)
    comp = np.zeros(nn, dtype=np.int64)
    reach = np.zeros((nn, (nn + 63) >> 6), dtype=np.uint64)
    yes = ncells >= 0
    ncomp = _components(nn, adj_start, adj, comp, reach, yes)
    words = (ncomp + 63) >> 6
    # the components that hold a potential that removes something
    removing = np.zeros(words, dtype=np.uint64)
    for d in range(nn):
        if _removal_id(cid, masks, pot[d]) >= 0:
            c = comp[d]
            removing[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    inter = np.empty(words, dtype=np.uint64)
    for cell in range(ncells):
        cm = masks[cell]
        if not cm & (cm - 1) or not (cm & (cm - 1)) & ((cm & (cm - 1)) - 1):
            continue  # (static: cells of three candidates or more)
        for t in range(words):
            inter[t] = removing[t]
        v = 0
        while cm >> v:
            if (cm >> v) & 1:
                c = comp[2 * cid[(cell << 5) | (v + 1)] + 1]
                for t in range(words):
                    inter[t] &= reach[c, t]
            v += 1
        hit = False
        for t in range(words):
            if inter[t]:
                hit = True
        v = 0
        while cm >> v and not hit:
            if (cm >> v) & 1:
                bit = 1 << v
                for ui in range(cellunits.shape[1]):
                    u = cellunits[cell, ui]
                    if u < 0:
                        continue
                    np_ = 0
                    first = -1
                    for t in range(words):
                        inter[t] = removing[t]
                    for k in range(ulen):
                        c = ulist[u, k]
                        if c < 0:
                            break
                        if masks[c] & bit:
                            if first < 0:
                                first = c
                            np_ += 1
                            r = comp[2 * cid[(c << 5) | (v + 1)] + 1]
                            for t in range(words):
                                inter[t] &= reach[r, t]
                    if np_ < 2 or first != cell:
                        continue
                    for t in range(words):
                        if inter[t]:
                            hit = True
                    if hit:
                        break
            v += 1
        want[cell] = hit
    return want


@njit(cache=True, nogil=True)
def multiple_rule(masks, peers, units, ulist, cellunits, dynamic, work, mark, pnodes, parents, found, buf, index,
                  pstart, pflat, pfirst, qon, qoff, flags, stamp, gnodes, gpf, out, lead=False):
    """SE's Multiple Forcing Chains (static, ``dynamic`` False) or Dynamic
    Forcing Chains (level 0) on ``masks``, every hint, as
    :func:`nested._inner_hints` ("multiple", "dynamic" at level 0) keeps
    them: the propagations of :func:`chain_kernels.run`, so the same graphs;
    per hint its complexity and removals; SE's order (complexity, kind key,
    order found; the rating follows the complexity) and one hint per set of
    removals.

    Returns ``(kept, propagations, stamp)``: ``out[:kept]`` the kept hints in
    that order, each ``(what, cell, value, unit, target)`` (``what`` one of
    CONTRA_ON ... CELL; ``unit`` -1 but for a region; a sixth column gets its
    order found, a seventh its complexity), ``propagations`` the
    distinct propagations made (the units of work the Python rule counts),
    ``stamp`` the last stamp used in ``mark``; ``kept`` is -1 when ``gnodes``
    or ``gpf`` is too small, -2 when ``out`` is (or its own room for the
    hints found). ``work`` is work space (a grid of masks).

    ``lead``: only the first hint in that order (``kept`` at most 1), the least (complexity, kind
    key, order found) of all the hints, with no sort; the dynamic rule then counts a hint's
    chains only when the least count they may have does not already put it past the first hint
    so far (rather than the first hint on the same removals)."""
    ncells = masks.shape[0]
    ulen = ulist.shape[1]
    cid, ncand, pot = _numbered(masks)
    nn = 2 * ncand
    # graphs: one per candidate on (slot = its number), and slot ncand for the current candidate off
    nslots = ncand + 1
    gbase = np.zeros(nslots, dtype=np.int64)
    gn = np.zeros(nslots, dtype=np.int64)
    gkind = np.zeros(nslots, dtype=np.int64)
    ge = np.zeros(nslots, dtype=np.int64)
    gp = np.zeros(nslots, dtype=np.int64)
    made = np.zeros(nslots, dtype=np.bool_)
    gidx = np.full((nslots, nn), -1, dtype=np.int32)
    gps = np.empty(gnodes.shape[0] + 1 if dynamic else 1, dtype=np.int64)  # (static: unused)
    used = np.zeros(2, dtype=np.int64)
    seen = np.zeros(nn, dtype=np.int64)
    sstamp = 0
    todo = np.empty(gpf.shape[0] + 1 if dynamic else 1, dtype=np.int64)
    starts = np.zeros(1, dtype=np.int64)
    kc, yes, no = _constants(masks)
    props = 0
    # each entry's count of potentials back to its start through first parents: a static chain's
    # count, and at least a dynamic one's (whose count is then made only when it may be kept)
    gdep = np.empty(gnodes.shape[0] + 1, dtype=np.int64)
    adj_start = np.zeros(nn + 1, dtype=np.int64)
    adj = np.empty(1, dtype=np.int64)
    if not dynamic:  # the static links, once: every propagation walks them
        adj = np.empty(ncand * (peers.shape[1] + 36) + 1, dtype=np.int64)
        adj_start[nn] = _static_links(masks, peers, units, cid, adj_start, adj)
    # which cells may give a hint: a static propagation reaches at most what its potential reaches in
    # the static graph, so a cell whose chains (its cell chain, and the region chains searched from it)
    # have no removal in common over that reach gives none, and is skipped (dynamic: every cell)
    wanted = _static_wanted(masks, adj_start, adj, ulist, cellunits, cid, pot, nn, ncells, ulen) if not dynamic \
        else np.ones(ncells, dtype=np.bool_)
    counted = np.zeros(nslots, dtype=np.bool_)  # the graphs counted as propagations, made or skipped
    # the best hint per set of removals (numbered by a potential, see below): complexity, key, order, record
    bestc = np.full(nn, -1, dtype=np.int64)
    bestk = np.zeros(nn, dtype=np.int64)
    besto = np.zeros(nn, dtype=np.int64)
    recs = np.empty((out.shape[0], 5), dtype=np.int64)
    nrec = 0
    # (lead) the first hint so far: complexity (-1: none), key, record
    fc = -1
    fk = 0
    fo = 0
    # value graphs of the current cell and the common potentials
    vslots = np.empty(32, dtype=np.int64)
    rslots = np.empty(ulen + 1, dtype=np.int64)
    rcells = np.empty(ulen + 1, dtype=np.int64)
    for cell in range(ncells):
        cm = masks[cell]
        card = 0
        rest = cm
        while rest:
            rest &= rest - 1
            card += 1
        if not (card > 2 or (card > 1 and dynamic)):
            continue
        if not wanted[cell]:  # (static) count the propagations the cell would make, as if made
            v = 0
            while cm >> v:
                if (cm >> v) & 1:
                    g = cid[(cell << 5) | (v + 1)]
                    if not counted[g]:
                        counted[g] = True
                        props += 1
                    for ui in range(cellunits.shape[1]):
                        u = cellunits[cell, ui]
                        if u < 0:
                            continue
                        np_ = 0
                        first = -1
                        for k in range(ulen):
                            c = ulist[u, k]
                            if c < 0:
                                break
                            if masks[c] & (1 << v):
                                if first < 0:
                                    first = c
                                rslots[np_] = cid[(c << 5) | (v + 1)]
                                np_ += 1
                        if np_ < 2 or first != cell:
                            continue
                        for k in range(1, np_):
                            if not counted[rslots[k]]:
                                counted[rslots[k]] = True
                                props += 1
                v += 1
            continue
        nv = 0
        v = 0
        while cm >> v:
            if not (cm >> v) & 1:
                v += 1
                continue
            v += 1
            bit = 1 << (v - 1)
            p_on = (cell << 6) | (v << 1) | 1
            p_off = p_on ^ 1
            # the candidate on (and its places' graphs, below), made once each
            gon = cid[(cell << 5) | v]
            for step in range(2 if dynamic else 1):
                if step == 0:
                    g = gon
                    if made[g]:
                        continue
                    starts[0] = p_on
                else:
                    g = ncand
                    starts[0] = p_off
                if not counted[g] or g == ncand:
                    counted[g] = True
                    props += 1
                if not dynamic:
                    if _static_graph(g, _dense(cid, starts[0]), adj_start, adj, pot, cid, gbase, gn, gnodes, gdep,
                                     gidx, used, qon, qoff) < 0:
                        return -1, props, stamp
                    made[g] = True
                    continue
                stamp += 1
                r = run(kc[3], masks, work, peers, units, kc[0], starts, yes, yes, dynamic, kc[2], mark, pnodes,
                        parents, found, buf, index, pstart, pflat, pfirst, qon, qoff, stamp, flags)
                count = r[0] + (1 if r[1] == 2 else 0)
                if _store(g, pnodes, pstart, pflat, count, gbase, gn, gnodes, gps, gpf, gidx, cid, used) < 0:
                    return -1, props, stamp
                gn[g] = r[0]  # the extra entry of a contradiction is not in the graph
                _index_graph(g, r[0], cid, gbase, gnodes, gps, gpf, gidx, gdep)
                gkind[g] = r[1]
                ge[g] = r[2]
                gp[g] = r[3]
                made[g] = True
            for gi in range(2 if dynamic else 0):
                # a contradiction from the candidate on, then off
                g = gon if gi == 0 else ncand
                if gkind[g] == 0:
                    continue
                b0 = gbase[g]
                sstamp += 1
                if gkind[g] == 1:  # (a, graph[a]) and (a ^ 1, (p,)); a ^ 1 is not in the graph
                    c1 = _ancestors(g, ge[g], cid, gbase, gnodes, gps, gpf, gidx, seen, sstamp, todo)
                    sstamp += 1
                    pe = gidx[g, _dense(cid, gp[g])]
                    c2 = 1 + _ancestors(g, pe, cid, gbase, gnodes, gps, gpf, gidx, seen, sstamp, todo)
                else:  # (q, extra parents) and (q ^ 1, graph[q ^ 1]); q is not in the graph
                    n0 = gn[g]
                    q = gnodes[b0 + n0]
                    c1 = _ancestors_of(g, q, gps[b0 + n0], gps[b0 + n0 + 1], cid, gbase, gnodes, gps, gpf, gidx,
                                       seen, sstamp, todo)
                    sstamp += 1
                    c2 = _ancestors(g, ge[g], cid, gbase, gnodes, gps, gpf, gidx, seen, sstamp, todo)
                comp = c1 + c2
                target = p_off if gi == 0 else p_on
                rid = _removal_id(cid, masks, target)
                if nrec >= recs.shape[0]:
                    return -2, props, stamp
                recs[nrec, 0] = CONTRA_ON if gi == 0 else CONTRA_OFF
                recs[nrec, 1] = cell
                recs[nrec, 2] = v
                recs[nrec, 3] = -1
                recs[nrec, 4] = target
                if lead:
                    if fc < 0 or comp < fc or (comp == fc and 7 < fk):
                        fc = comp
                        fk = 7
                        fo = nrec
                elif bestc[rid] < 0 or comp < bestc[rid] or (comp == bestc[rid] and 7 < bestk[rid]):
                    bestc[rid] = comp
                    bestk[rid] = 7
                    besto[rid] = nrec
                nrec += 1
            if dynamic and card >= 3:
                # double chains: potentials both the candidate and its negation give, on ones first
                g1 = gon
                g2 = ncand
                b1 = gbase[g1]
                for want in (1, 0):
                    for i in range(gn[g1]):
                        q = gnodes[b1 + i]
                        if q & 1 != want or q == (p_on if want else p_off):
                            continue
                        e2 = gidx[g2, _dense(cid, q)]
                        if e2 < 0:
                            continue
                        rid = _removal_id(cid, masks, q)
                        if rid < 0:
                            continue
                        comp = gdep[gbase[g1] + i] + gdep[gbase[g2] + e2]
                        fcb, fkb = (fc, fk) if lead else (bestc[rid], bestk[rid])
                        if not _loses(comp, 1, fcb, fkb):
                            sstamp += 1
                            comp = _ancestors(g1, i, cid, gbase, gnodes, gps, gpf, gidx, seen, sstamp, todo)
                            sstamp += 1
                            comp += _ancestors(g2, e2, cid, gbase, gnodes, gps, gpf, gidx, seen, sstamp, todo)
                        if nrec >= recs.shape[0]:
                            return -2, props, stamp
                        recs[nrec, 0] = DOUBLE
                        recs[nrec, 1] = cell
                        recs[nrec, 2] = v
                        recs[nrec, 3] = -1
                        recs[nrec, 4] = q
                        if lead:
                            if fc < 0 or comp < fc or (comp == fc and 1 < fk):
                                fc = comp
                                fk = 1
                                fo = nrec
                        elif bestc[rid] < 0 or comp < bestc[rid] or (comp == bestc[rid] and 1 < bestk[rid]):
                            bestc[rid] = comp
                            bestk[rid] = 1
                            besto[rid] = nrec
                        nrec += 1
            # region chains: the value's places in the cell's units, the cell first of them
            for ui in range(cellunits.shape[1]):
                u = cellunits[cell, ui]
                if u < 0:
                    continue
                np_ = 0
                first = -1
                for k in range(ulen):
                    c = ulist[u, k]
                    if c < 0:
                        break
                    if masks[c] & bit:
                        if first < 0:
                            first = c
                        rslots[np_] = cid[(c << 5) | v]
                        rcells[np_] = c
                        np_ += 1
                if np_ < 2 or first != cell:
                    continue
                for k in range(1, np_):
                    g = rslots[k]
                    if made[g]:
                        continue
                    starts[0] = (rcells[k] << 6) | (v << 1) | 1  # the place's potential on
                    if not counted[g]:
                        counted[g] = True
                        props += 1
                    if not dynamic:
                        if _static_graph(g, _dense(cid, starts[0]), adj_start, adj, pot, cid, gbase, gn, gnodes,
                                         gdep, gidx, used, qon, qoff) < 0:
                            return -1, props, stamp
                        made[g] = True
                        continue
                    stamp += 1
                    r = run(kc[3], masks, work, peers, units, kc[0], starts, yes, yes, dynamic, kc[2], mark, pnodes,
                            parents, found, buf, index, pstart, pflat, pfirst, qon, qoff, stamp, flags)
                    count = r[0] + (1 if r[1] == 2 else 0)
                    if _store(g, pnodes, pstart, pflat, count, gbase, gn, gnodes, gps, gpf, gidx, cid, used) < 0:
                        return -1, props, stamp
                    gn[g] = r[0]
                    _index_graph(g, r[0], cid, gbase, gnodes, gps, gpf, gidx, gdep)
                    gkind[g] = r[1]
                    ge[g] = r[2]
                    gp[g] = r[3]
                    made[g] = True
                b1 = gbase[gon]
                for want in (1, 0):
                    for i in range(gn[gon]):
                        q = gnodes[b1 + i]
                        if q & 1 != want:
                            continue
                        d = _dense(cid, q)
                        common = True
                        for k in range(1, np_):
                            if gidx[rslots[k], d] < 0:
                                common = False
                                break
                        if not common:
                            continue
                        rid = _removal_id(cid, masks, q)
                        if rid < 0:
                            continue
                        comp = 0
                        for k in range(np_):
                            g = rslots[k]
                            comp += gdep[gbase[g] + gidx[g, d]]
                        fcb, fkb = (fc, fk) if lead else (bestc[rid], bestk[rid])
                        if dynamic and not _loses(comp, 6, fcb, fkb):
                            comp = 0
                            for k in range(np_):
                                g = rslots[k]
                                sstamp += 1
                                comp += _ancestors(g, gidx[g, d], cid, gbase, gnodes, gps, gpf, gidx, seen, sstamp,
                                                   todo)
                        if nrec >= recs.shape[0]:
                            return -2, props, stamp
                        recs[nrec, 0] = REGION
                        recs[nrec, 1] = cell
                        recs[nrec, 2] = v
                        recs[nrec, 3] = u
                        recs[nrec, 4] = q
                        if lead:
                            if fc < 0 or comp < fc or (comp == fc and 6 < fk):
                                fc = comp
                                fk = 6
                                fo = nrec
                        elif bestc[rid] < 0 or comp < bestc[rid] or (comp == bestc[rid] and 6 < bestk[rid]):
                            bestc[rid] = comp
                            bestk[rid] = 6
                            besto[rid] = nrec
                        nrec += 1
            vslots[nv] = gon
            nv += 1
        # cell chains: the potentials every value of the cell gives, in the first value's order, on ones first
        b1 = gbase[vslots[0]]
        for want in (1, 0):
            for i in range(gn[vslots[0]]):
                q = gnodes[b1 + i]
                if q & 1 != want:
                    continue
                d = _dense(cid, q)
                common = True
                for k in range(1, nv):
                    if gidx[vslots[k], d] < 0:
                        common = False
                        break
                if not common:
                    continue
                rid = _removal_id(cid, masks, q)
                if rid < 0:
                    continue
                comp = 0
                for k in range(nv):
                    g = vslots[k]
                    comp += gdep[gbase[g] + gidx[g, d]]
                fcb, fkb = (fc, fk) if lead else (bestc[rid], bestk[rid])
                if dynamic and not _loses(comp, 5, fcb, fkb):
                    comp = 0
                    for k in range(nv):
                        g = vslots[k]
                        sstamp += 1
                        comp += _ancestors(g, gidx[g, d], cid, gbase, gnodes, gps, gpf, gidx, seen, sstamp, todo)
                if nrec >= recs.shape[0]:
                    return -2, props, stamp
                recs[nrec, 0] = CELL
                recs[nrec, 1] = cell
                recs[nrec, 2] = 0
                recs[nrec, 3] = -1
                recs[nrec, 4] = q
                if lead:
                    if fc < 0 or comp < fc or (comp == fc and 5 < fk):
                        fc = comp
                        fk = 5
                        fo = nrec
                elif bestc[rid] < 0 or comp < bestc[rid] or (comp == bestc[rid] and 5 < bestk[rid]):
                    bestc[rid] = comp
                    bestk[rid] = 5
                    besto[rid] = nrec
                nrec += 1
    if lead:
        if fc < 0:
            return 0, props, stamp
        for t in range(5):
            out[0, t] = recs[fo, t]
        out[0, 5] = fo
        out[0, 6] = fc
        return 1, props, stamp
    # the kept hints in SE's order: complexity, key, order found
    kept = 0
    if nrec > out.shape[0]:
        return -2, props, stamp
    for rid in range(nn):
        if bestc[rid] >= 0:
            kept += 1
    keys = np.empty(kept, dtype=np.int64)
    which = np.empty(kept, dtype=np.int64)
    wcplx = np.empty(kept, dtype=np.int64)
    j = 0
    for rid in range(nn):
        if bestc[rid] >= 0:
            keys[j] = (bestc[rid] * 16 + bestk[rid]) * (nrec + 1) + besto[rid]
            which[j] = besto[rid]
            wcplx[j] = bestc[rid]
            j += 1
    o = np.argsort(keys, kind="mergesort")
    for j in range(kept):
        i = which[o[j]]
        for t in range(5):
            out[j, t] = recs[i, t]
        out[j, 5] = i
        out[j, 6] = wcplx[o[j]]
    return kept, props, stamp


@njit(inline="always")
def _single_other(m, bit):
    """The value of the one bit of ``m`` other than ``bit``."""
    other = m & ~bit
    w = 0
    while other:
        other >>= 1
        w += 1
    return w


@njit(inline="always")
def _removal_id(cid, masks, q):
    """A number for the removals of a hint on ``q`` (:func:`chains._removals_on`):
    the potential whose removals they are, an on one in a cell of three
    candidates or more, else the one candidate removed as an off potential;
    -1 when it removes nothing."""
    if not q & 1:
        return _dense(cid, q)
    c = q >> 6
    v = (q >> 1) & 31
    m = masks[c]
    bit = 1 << (v - 1)
    rest = m & ~bit
    if not rest:
        return -1
    if rest & (rest - 1):
        return _dense(cid, q)
    return 2 * cid[(c << 5) | _single_other(m, bit)]


# -- the contradictions of Nishio Forcing Chains --------------------------------------------------


@njit(inline="always")
def _bit64(c):
    return np.uint64(1) << np.uint64(c & 63)


@njit(inline="always")
def _low_index64(low):
    """The index of the one bit set in the word ``low``."""
    i = 0
    for shift in (32, 16, 8, 4, 2, 1):
        if low >> np.uint64(shift):
            low >>= np.uint64(shift)
            i += shift
    return i


@njit(inline="always")
def _nishio_contradicts(cell, on, places, ub, ru, nru, peerb, now_on, now_off, new_on):
    """Whether the dynamic x-link propagation of :func:`chain_kernels.run` from ``cell``'s
    candidate of one value, on (``on``) or off, ends in a contradiction, on that value's places
    (``places``, a bitboard of words): its fixpoint, on bitboards. The propagation turns off
    every place that sees an on one, and turns on the last place left in a unit of two places
    or more once the others are off (the unit's last off one found left it two places); it
    runs until a potential is both on and off, which at the fixpoint means: an on place is
    also off, or a unit (``ru[:nru]``, those with two places or more) has every place off."""
    nw = places.shape[0]
    for t in range(nw):
        now_on[t] = 0
        now_off[t] = 0
    if on:
        now_on[cell >> 6] |= _bit64(cell)
        for t in range(nw):
            now_off[t] = peerb[cell, t] & places[t]
    else:
        now_off[cell >> 6] |= _bit64(cell)
    while True:
        for t in range(nw):
            if now_on[t] & now_off[t]:
                return True
        more = False
        for t in range(nw):
            new_on[t] = 0
        for i in range(nru):
            u = ru[i]
            left = 0
            for t in range(nw):
                r = ub[u, t] & places[t] & ~now_off[t]
                while r:
                    r &= r - np.uint64(1)
                    left += 1
            if left == 0:
                return True
            if left == 1:
                for t in range(nw):
                    r = ub[u, t] & places[t] & ~now_off[t] & ~now_on[t]
                    if r:
                        new_on[t] |= r
                        more = True
        if not more:
            return False
        for t in range(nw):
            r = new_on[t]
            now_on[t] |= r
            while r:
                low = r & (~r + np.uint64(1))
                r ^= low
                c = (t << 6) + _low_index64(low)
                for k in range(nw):
                    now_off[k] |= peerb[c, k] & places[k]


@njit(cache=True, nogil=True)
def nishio_rule(masks, peers, units, work, mark, pnodes, parents, found, buf, index, pstart, pflat, pfirst, qon,
                qoff, flags, stamp, one, out, todo):
    """Which assumptions of SE's Nishio Forcing Chains end in a contradiction:
    for every candidate of a cell with two or more (cells row by row, values
    ascending) whose value is in ``todo`` (bit ``v`` for value ``v``), the
    dynamic x-link propagation of :func:`chain_kernels.run` from the candidate
    on, then off. ``out[(cell << 5) | value]`` gets bit 1 when the one from on
    contradicts, bit 2 when the one from off does (the other values' entries
    are left as they are). Returns ``(propagations, stamp)``: the propagations
    asked (the units of work the Python rule counts) and the last stamp used in
    ``mark`` (none is). The work arrays after ``units`` are those of ``run``'s
    callers, unused here.

    The propagation has no y-links, so it reads and removes only the
    assumption's own value: its outcome depends on that value's places alone
    (which :func:`nested._compiled_nishio` remembers per value), and it is
    decided on that value's places as bitboards (:func:`_nishio_contradicts`),
    each propagation's fixpoint at once, rather than potential by potential."""
    ncells = masks.shape[0]
    nw = (ncells + 63) >> 6
    peerb = np.zeros((ncells, nw), dtype=np.uint64)
    for c in range(ncells):
        for j in range(peers.shape[1]):
            p = peers[c, j]
            if p < 0:
                break
            peerb[c, p >> 6] |= _bit64(p)
    # the units (box, row, column), each once: from its first cell
    ub = np.zeros((units.shape[1] * ncells, nw), dtype=np.uint64)
    nu = 0
    for c in range(ncells):
        for j in range(units.shape[1]):
            if units[c, j, 0] != c:
                continue
            for i in range(units.shape[2]):
                d = units[c, j, i]
                if d < 0:
                    break
                ub[nu, d >> 6] |= _bit64(d)
            nu += 1
    places = np.zeros(nw, dtype=np.uint64)
    now_on = np.zeros(nw, dtype=np.uint64)
    now_off = np.zeros(nw, dtype=np.uint64)
    new_on = np.zeros(nw, dtype=np.uint64)
    ru = np.empty(nu, dtype=np.int64)
    props = 0
    for v in range(1, 32):
        if not (todo >> v) & 1:
            continue
        bit = 1 << (v - 1)
        for t in range(nw):
            places[t] = 0
        for c in range(ncells):
            if masks[c] & bit:
                places[c >> 6] |= _bit64(c)
        nru = 0
        for u in range(nu):
            count = 0
            for t in range(nw):
                r = ub[u, t] & places[t]
                while r:
                    r &= r - np.uint64(1)
                    count += 1
            if count >= 2:
                ru[nru] = u
                nru += 1
        for cell in range(ncells):
            m = masks[cell]
            if not m & bit or not m & (m - 1):
                continue
            got = 0
            for k in range(2):
                props += 1
                if _nishio_contradicts(cell, k == 0, places, ub, ru, nru, peerb, now_on, now_off, new_on):
                    got |= 1 << k
            out[(cell << 5) | v] = got
    return props, stamp


@njit(inline="always")
def _group_link_unit(p, q, cur, ulist, cellunits, dynamic, mark, index, stamp):
    """:func:`nested._link_unit` on the propagation of :func:`chain_kernels.run` (op 3) that
    ``mark``, ``index`` and ``stamp`` describe: the unit of the x-link ``p`` (off) -> ``q``
    (on), the first of box, row, column holding both where the value had two places left
    when the link was made (in a dynamic chain, without the places turned off before ``p``)."""
    a, b = p >> 6, q >> 6
    v = (q >> 1) & 31
    bit = 1 << (v - 1)
    first = -1
    count = 0
    for j in range(3):
        if cellunits[a, j] == cellunits[b, j]:
            if first < 0:
                first = cellunits[a, j]
            count += 1
    if count == 1:
        return first
    at = -1
    if dynamic and mark[p] == stamp:
        at = index[p]
    for j in range(3):
        u = cellunits[a, j]
        if u != cellunits[b, j]:
            continue
        left = 0
        for i in range(ulist.shape[1]):
            c = ulist[u, i]
            if c < 0:
                break
            if not cur[c] & bit:
                continue
            if dynamic and c != a and c != b:
                r = (c << 6) | (v << 1)
                if mark[r] == stamp and index[r] < at:
                    continue
            left += 1
        if left == 2:
            return u
    return first


@njit(inline="always")
def _group_add(g, gmark, gstamp, gflat, k, ncells):
    """Append the group ``g`` at ``gflat[k]`` unless this hint has it already; the new end
    (-1 when ``gflat`` is full)."""
    slot = g + ncells
    if gmark[slot] == gstamp:
        return k
    gmark[slot] = gstamp
    if k >= gflat.shape[0]:
        return -1
    gflat[k] = g
    return k + 1


@njit(inline="always")
def _group_walk(target, plo, phi, one, cur, ulist, cellunits, dynamic, init, mark, index, pstart, pflat, stamp, done,
                dstamp, queue, gmark, gstamp, gflat, k, ncells):
    """The groups of one chain (:func:`nested._parent_groups`): ``target`` with its parents
    ``pflat[plo:phi]`` (or the one parent ``one`` when ``plo`` < 0), the others' parents those
    of the propagation. ``init``: the group of an on potential without parents (-1 << 40:
    none). Returns the new end of ``gflat`` (-1 when it is full)."""
    head = 0
    tail = 0
    # the target first (its parents given), then breadth first over the parents, each once
    q = target
    lo, hi = plo, phi
    while True:
        if done[q] != dstamp:
            done[q] = dstamp
            if q & 1:
                if lo < 0:
                    p0 = one
                    has = True
                else:
                    has = hi > lo
                    p0 = pflat[lo] if has else -1
                if not has:
                    if init != -(1 << 40):
                        k = _group_add(init, gmark, gstamp, gflat, k, ncells)
                elif p0 >> 6 == q >> 6:
                    k = _group_add(-1 - (q >> 6), gmark, gstamp, gflat, k, ncells)
                else:
                    u = _group_link_unit(p0, q, cur, ulist, cellunits, dynamic, mark, index, stamp)
                    k = _group_add((u << 5) | ((q >> 1) & 31), gmark, gstamp, gflat, k, ncells)
                if k < 0:
                    return -1
            if lo < 0:
                if done[one] != dstamp:
                    queue[tail] = one
                    tail += 1
            else:
                for i in range(lo, hi):
                    p = pflat[i]
                    if done[p] != dstamp:
                        queue[tail] = p
                        tail += 1
        if head >= tail:
            break
        q = queue[head]
        head += 1
        e = index[q]
        lo, hi = pstart[e], pstart[e + 1]
    return k


@njit(cache=True, nogil=True)
def hint_groups(masks, peers, units, ulist, cellunits, dynamic, recs, work, mark, pnodes, parents, found, buf, index,
                pstart, pflat, pfirst, qon, qoff, flags, stamp, gflat, gstart):
    """The rule-parent groups (:func:`nested._parent_groups`) of the hints of
    :func:`multiple_rule` on ``masks``: for each record of ``recs`` (its first five columns:
    what, cell, value, unit, target), its chains' propagations made again with
    :func:`chain_kernels.run` (the graphs :func:`nested._compiled_multiple` makes), and the
    groups met walking them, in SE's order, each once: ``gflat[gstart[i]:gstart[i + 1]]``
    for record ``i`` (``-1 - cell``: a cell's removed candidates; ``(unit << 5) | value``: a
    unit's removed places of the value). Returns ``(stamp, ok)``: the last stamp used in
    ``mark``; ``ok`` False when ``gflat`` is too small."""
    ncells = masks.shape[0]
    kc, yes, no = _constants(masks)
    done = np.zeros(ncells << 6, dtype=np.int64)
    dstamp = 0
    gmark = np.zeros(ncells + (ulist.shape[0] << 5) + 1, dtype=np.int64)
    queue = np.empty(pflat.shape[0] + 2, dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    none = -(1 << 40)
    k = 0
    gstart[0] = 0
    for i in range(recs.shape[0]):
        what, cell, v, u, q = recs[i, 0], recs[i, 1], recs[i, 2], recs[i, 3], recs[i, 4]
        gstamp = i + 1
        p_on = (cell << 6) | (v << 1) | 1
        if what == CONTRA_ON or what == CONTRA_OFF:
            one[0] = p_on if what == CONTRA_ON else p_on ^ 1
            stamp += 1
            r = run(kc[3], masks, work, peers, units, kc[0], one, yes, yes, dynamic, kc[2], mark, pnodes, parents,
                    found, buf, index, pstart, pflat, pfirst, qon, qoff, stamp, flags)
            n, kind, e, node = r[0], r[1], r[2], r[3]
            if kind == 1:  # (a, graph[a]) and (a ^ 1, (node,))
                a = pnodes[e]
                dstamp += 1
                k = _group_walk(a, pstart[e], pstart[e + 1], 0, masks, ulist, cellunits, dynamic, none, mark, index,
                                pstart, pflat, stamp, done, dstamp, queue, gmark, gstamp, gflat, k, ncells)
                if k < 0:
                    return stamp, False
                dstamp += 1
                k = _group_walk(a ^ 1, -1, -1, node, masks, ulist, cellunits, dynamic, none, mark, index, pstart,
                                pflat, stamp, done, dstamp, queue, gmark, gstamp, gflat, k, ncells)
            else:  # (a, its parents) with a = pnodes[n] not in the graph, and (a ^ 1, graph[a ^ 1])
                a = pnodes[n]
                dstamp += 1
                k = _group_walk(a, pstart[n], pstart[n + 1], 0, masks, ulist, cellunits, dynamic, none, mark, index,
                                pstart, pflat, stamp, done, dstamp, queue, gmark, gstamp, gflat, k, ncells)
                if k < 0:
                    return stamp, False
                dstamp += 1
                k = _group_walk(a ^ 1, pstart[e], pstart[e + 1], 0, masks, ulist, cellunits, dynamic, none, mark,
                                index, pstart, pflat, stamp, done, dstamp, queue, gmark, gstamp, gflat, k, ncells)
            if k < 0:
                return stamp, False
        else:
            # the assumptions, one graph each: the candidate on then off (double), the places of the
            # value in the unit (region), the values of the cell (cell)
            if what == DOUBLE:
                count = 2
                init = none
            elif what == REGION:
                count = 0
                for j in range(ulist.shape[1]):
                    c = ulist[u, j]
                    if c < 0:
                        break
                    if masks[c] & (1 << (v - 1)):
                        count += 1
                init = (u << 5) | v
            else:
                count = 0
                m = masks[cell]
                while m:
                    m &= m - 1
                    count += 1
                init = -1 - cell
            j = 0
            w0 = 0
            for t in range(count):
                if what == DOUBLE:
                    s = p_on if t == 0 else p_on ^ 1
                elif what == REGION:
                    while masks[ulist[u, j]] & (1 << (v - 1)) == 0:
                        j += 1
                    s = (ulist[u, j] << 6) | (v << 1) | 1
                    j += 1
                else:
                    while not (masks[cell] >> w0) & 1:
                        w0 += 1
                    s = (cell << 6) | ((w0 + 1) << 1) | 1
                    w0 += 1
                one[0] = s
                stamp += 1
                run(kc[3], masks, work, peers, units, kc[0], one, yes, yes, dynamic, kc[2], mark, pnodes, parents,
                    found, buf, index, pstart, pflat, pfirst, qon, qoff, stamp, flags)
                e = index[q]
                dstamp += 1
                k = _group_walk(q, pstart[e], pstart[e + 1], 0, masks, ulist, cellunits, dynamic, init, mark, index,
                                pstart, pflat, stamp, done, dstamp, queue, gmark, gstamp, gflat, k, ncells)
                if k < 0:
                    return stamp, False
        gstart[i + 1] = k
    return stamp, True
