"""The easiest step of SE's "Forcing Chains & Cycles" (numba), for :mod:`sudokit.logic.chains`.

:func:`nested_kernels.cycles_rule` finds *every* cycle and forcing chain of
the producer's three passes (x-links, y-links, both), sorts them as SE sorts
them (rating, complexity, kind key, order found) and keeps one per set of
removals: the nested levels keep them all as helpers. The producer itself
applies only the first. :func:`easiest_cycle` looks for that one alone, with
the same graph, reachability test and breadth-first searches, and prunes:

* a chain found later comes first only when its (rating, complexity) is
  smaller than the best's so far (the kind key never falls from one pass to
  the next, and the order found breaks the last ties);
* the second pass (y-links) links only the cells of two candidates;
* a search meets its chains level by level, and a chain met at a deeper level
  has more potentials (a cycle met at depth ``d`` holds ``d``, a forcing chain
  ``d + 2``), so each search stops at the depth past which nothing can beat the
  best (:func:`_most`), and a pass whose least rating cannot is skipped whole;
* a cycle search follows only the links inside a strongly connected component
  (:func:`_inside`), and a forcing-chain search makes no entry for a potential
  that does not reach its goal (:func:`_forcing`): the entries they leave out
  lead nowhere they look for.

Its arrays are kept between calls (:func:`work`, with stamps in place of
clearing), the units' conjugate places are found once for the passes that read
them, and a cycle's removals are tested on bitsets. A cycle search in a
component where no cycle can remove anything (:func:`_may_remove`) stops at its
first cycle: it counts as a search that found one all the same.

The result is the record :func:`cycles_rule` sorts first, as its potentials.

This module imports numba (and :mod:`nested_kernels`) when it is first imported.
"""

from __future__ import annotations

import numpy as np

from ..engine.compiling import load_numba

load_numba()

from numba import njit  # noqa: E402

from .nested_kernels import CYCLE, FORCING, NO_LIMIT, _bivalue_masks, _increment  # noqa: E402

__all__ = ["easiest_cycle", "work", "CYCLE", "FORCING"]

#: The header of :func:`work`'s integer array: the search stamp, the cycle-test stamp, whether
#: the peers' bitsets are made, then the sizes :func:`_parts` cuts by.
_STAMP, _MSTAMP, _PEERBITS, _MAXCAND, _NADJ, _NENTRIES, _UNITS, _HEAD = 0, 1, 2, 3, 4, 5, 6, 8


def work(ncells: int, n: int, peers_width: int, nunits: int, maxcand: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The work arrays of :func:`easiest_cycle` for states of at most ``maxcand`` candidates
    on a grid of ``ncells`` cells and ``n`` values whose tables (:func:`chain_kernels.tables`)
    list ``peers_width`` peers and ``nunits`` units a cell, kept between calls: an integer
    array (a header, then the parts :func:`_parts` cuts), the reach bitsets of
    :func:`_components` and the cell bitsets of :func:`_cycle_removes`."""
    nn = 2 * maxcand
    nadj = maxcand * (n + peers_width + nunits) + 1  # (an on potential's links, and an off one's)
    nentries = (maxcand + 1) * (n + peers_width + 4)
    c32 = ncells << 5
    size = _HEAD + c32 + nn + nunits * c32 + 2 * (nn + 1) + 2 * nadj + 2 * nn + 10 * nn + 3 * nentries + 3 * nn \
        + nentries + 2
    iw = np.zeros(size, dtype=np.int64)
    iw[_MAXCAND] = maxcand
    iw[_NADJ] = nadj
    iw[_NENTRIES] = nentries
    iw[_UNITS] = nunits
    return (iw, np.zeros((nn, (nn + 63) >> 6), dtype=np.uint64),
            np.zeros((ncells + 97, (ncells + 63) >> 6), dtype=np.uint64))


@njit(inline="always")
def _parts(iw, ncells):
    """:func:`work`'s integer array cut into its parts."""
    nn = 2 * iw[_MAXCAND]
    nadj = iw[_NADJ]
    nentries = iw[_NENTRIES]
    c32 = ncells << 5
    o = _HEAD
    cid = iw[o:o + c32]
    o += c32
    pot = iw[o:o + nn]
    o += nn
    conj = iw[o:o + iw[_UNITS] * c32]
    o += iw[_UNITS] * c32
    adj_start = iw[o:o + nn + 1]
    o += nn + 1
    adj = iw[o:o + nadj]
    o += nadj
    cadj_start = iw[o:o + nn + 1]
    o += nn + 1
    cadj = iw[o:o + nadj]
    o += nadj
    comp = iw[o:o + nn]
    o += nn
    may = iw[o:o + nn]
    o += nn
    tarjan = iw[o:o + 10 * nn].reshape((10, nn))
    o += 10 * nn
    dnodes = iw[o:o + nentries]
    o += nentries
    dpar = iw[o:o + nentries]
    o += nentries
    dfound = iw[o:o + nentries]
    o += nentries
    dmark = iw[o:o + nn]
    o += nn
    offmark = iw[o:o + nn]
    o += nn
    offfirst = iw[o:o + nn]
    o += nn
    path = iw[o:o + nentries + 2]
    return cid, pot, conj, adj_start, adj, cadj_start, cadj, comp, may, tarjan, dnodes, dpar, dfound, dmark, \
        offmark, offfirst, path


@njit(inline="always")
def _most(base, have, best_r, best_c):
    """The largest complexity a chain of ``base`` found now may have and still come first:
    its (rating, complexity) must be smaller than the best's."""
    if not have:
        return NO_LIMIT  # no bound yet
    c = 0
    while c < 4096:
        r = base + _increment(c + 1)
        if r < best_r or (r == best_r and c + 1 < best_c):
            c += 1
        else:
            break
    return c


@njit(inline="always")
def _numbered(masks, cid, pot):
    """The dense numbers of the candidates of ``masks`` into ``cid[(cell << 5) | value]``
    (set only for the candidates), each dense potential's potential into ``pot[2 * k + on]``.
    Returns how many candidates there are."""
    ncand = 0
    for cell in range(masks.shape[0]):
        m = masks[cell]
        v = 1
        while m:
            if m & 1:
                cid[(cell << 5) | v] = ncand
                pot[2 * ncand] = (cell << 6) | (v << 1)
                pot[2 * ncand + 1] = (cell << 6) | (v << 1) | 1
                ncand += 1
            m >>= 1
            v += 1
    return ncand


@njit(inline="always")
def _conjugates(masks, units, conj):
    """``conj[((cell * 3 + j) << 5) | value]``: the other place of the value in the ``j``-th
    unit of the cell when the unit holds it in two places (the cell one of them), else -1
    (set only for the cell's candidates)."""
    nu = units.shape[1]
    for cell in range(masks.shape[0]):
        cm = masks[cell]
        if not cm:
            continue
        for j in range(nu):
            ones = 0
            twos = 0
            more = 0
            for i in range(units.shape[2]):
                c = units[cell, j, i]
                if c < 0:
                    break
                m = masks[c]
                more |= twos & m
                twos |= ones & m
                ones |= m
            two = twos & ~more & cm
            base = (cell * nu + j) << 5
            rest = cm
            v = 1
            while rest:
                if rest & 1:
                    conj[base | v] = -1
                rest >>= 1
                v += 1
            while two:
                bit = two & -two
                two ^= bit
                v = 0
                b = bit
                while b:
                    b >>= 1
                    v += 1
                for i in range(units.shape[2]):
                    c = units[cell, j, i]
                    if c < 0:
                        break
                    if c != cell and masks[c] & bit:
                        conj[base | v] = c
                        break


@njit(inline="always")
def _graph(masks, peers, nu, y, x, cid, conj, adj_start, adj):
    """:func:`nested_kernels._closure`'s graph (its edges in the same order), with the
    conjugates of :func:`_conjugates`. Returns the number of potentials."""
    ncells = masks.shape[0]
    nn = 0
    ne = 0
    pw = peers.shape[1]
    for cell in range(ncells):
        cm = masks[cell]
        m = cm
        v = 1
        while m:
            if m & 1:
                k = cid[(cell << 5) | v]
                bit = 1 << (v - 1)
                node = 2 * k
                # off
                adj_start[node] = ne
                if y:
                    rest = cm & (cm - 1)
                    if rest and not rest & (rest - 1):
                        other = cm & ~bit
                        w = 0
                        while other:
                            other >>= 1
                            w += 1
                        adj[ne] = 2 * cid[(cell << 5) | w] + 1
                        ne += 1
                if x:
                    base = (cell * nu) << 5
                    for j in range(nu):
                        c = conj[base + (j << 5) + v]
                        if c >= 0:
                            adj[ne] = 2 * cid[(c << 5) | v] + 1
                            ne += 1
                # on
                adj_start[node + 1] = ne
                if y:
                    om = cm & ~bit
                    w = 1
                    while om:
                        if om & 1:
                            adj[ne] = 2 * cid[(cell << 5) | w]
                            ne += 1
                        om >>= 1
                        w += 1
                for j in range(pw):
                    p = peers[cell, j]
                    if p < 0:
                        break
                    if masks[p] & bit:
                        adj[ne] = 2 * cid[(p << 5) | v]
                        ne += 1
                nn = node + 2
            m >>= 1
            v += 1
    adj_start[nn] = ne
    return nn


@njit(inline="always")
def _components(nn, adj_start, adj, comp, reach, reaching, tarjan):
    """:func:`nested_kernels._components` on work arrays (``tarjan``: rows of ``nn``): the
    same components, numbered sinks first (the potentials that lead nowhere first of all), and
    ``reach[c]`` only as far as word ``c >> 6`` (a component reaches none numbered after it).
    The potentials of component ``nsinks + k`` are ``tarjan[6][tarjan[7][k - 1]:tarjan[7][k]]``
    (from 0 for the first). Returns the number of sinks, ``nsinks``."""
    index = tarjan[0]
    low = tarjan[1]
    onstack = tarjan[2]
    stack = tarjan[3]
    call = tarjan[4]
    edge = tarjan[5]
    order = tarjan[6]
    ends = tarjan[7]
    ncomp = 0
    for u in range(nn):
        onstack[u] = 0
        if adj_start[u] == adj_start[u + 1]:
            index[u] = 0  # (a component of its own, closed)
            comp[u] = ncomp
            ncomp += 1
        else:
            index[u] = -1
    nsinks = ncomp
    no = 0
    sp = 0
    counter = 0
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
        onstack[root] = 1
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
                    onstack[w] = 1
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
                    onstack[w] = 0
                    comp[w] = ncomp
                    order[no] = w
                    no += 1
                    if w == u:
                        break
                ends[ncomp - nsinks] = no
                ncomp += 1
            depth -= 1
            if depth >= 0:
                parent = call[depth]
                if low[u] < low[parent]:
                    low[parent] = low[u]
    if not reaching:
        return nsinks
    for c in range(ncomp):
        for t in range((c >> 6) + 1):
            reach[c, t] = 0
        reach[c, c >> 6] = np.uint64(1) << np.uint64(c & 63)
    for oi in range(no):
        u = order[oi]
        c = comp[u]
        for e in range(adj_start[u], adj_start[u + 1]):
            d = comp[adj[e]]
            if d == c:
                continue
            if d < nsinks:
                reach[c, d >> 6] |= np.uint64(1) << np.uint64(d & 63)
            else:
                for t in range((d >> 6) + 1):
                    reach[c, t] |= reach[d, t]
    return nsinks


@njit(inline="always")
def _reaches(comp, reach, a, b):
    """Does potential ``a`` reach potential ``b`` (:func:`_components`)?"""
    c = comp[a]
    d = comp[b]
    return d <= c and (reach[c, d >> 6] >> np.uint64(d & 63)) & np.uint64(1) != 0


@njit(inline="always")
def _inside(nn, adj_start, adj, comp, cadj_start, cadj):
    """The links of ``adj`` (CSR) between potentials of one strongly connected component, in
    their order, into ``cadj_start``/``cadj``."""
    ne = 0
    for u in range(nn):
        cadj_start[u] = ne
        c = comp[u]
        for e in range(adj_start[u], adj_start[u + 1]):
            w = adj[e]
            if comp[w] == c:
                cadj[ne] = w
                ne += 1
    cadj_start[nn] = ne


@njit(inline="always")
def _peer_bits(allpeers, bits):
    """``bits[cell]``: the cell's peers as a bitset."""
    for cell in range(allpeers.shape[0]):
        for t in range(bits.shape[1]):
            bits[cell, t] = 0
        for j in range(allpeers.shape[1]):
            p = allpeers[cell, j]
            if p < 0:
                break
            bits[cell, p >> 6] |= np.uint64(1) << np.uint64(p & 63)


@njit(inline="always")
def _boards(masks, bits):
    """``bits[ncells + value]``: the value's places on ``masks``, as a bitset."""
    ncells = masks.shape[0]
    for v in range(32):
        for t in range(bits.shape[1]):
            bits[ncells + v, t] = 0
    for cell in range(ncells):
        m = masks[cell]
        v = 1
        while m:
            if m & 1:
                bits[ncells + v, cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
            m >>= 1
            v += 1


@njit(inline="always")
def _cycle_removes(path, length, bits, ncells):
    """Whether the cycle ``path[:length]`` (src first and last) removes anything, as
    :func:`chains.cycle_hint` finds: a cell outside the cycle that holds a value and sees an on
    potential and an off potential of the value on it (``bits``: :func:`_peer_bits`,
    :func:`_boards`, then room for the peers of the on and of the off potentials of each value,
    and for the cycle's cells)."""
    words = bits.shape[1]
    ons = ncells + 32
    offs = ncells + 64
    cells = ncells + 96
    used = 0
    for t in range(words):
        bits[cells, t] = 0
    for i in range(length):
        q = path[i]
        qc = q >> 6
        qv = (q >> 1) & 31
        bits[cells, qc >> 6] |= np.uint64(1) << np.uint64(qc & 63)
        if not (used >> qv) & 1:
            used |= 1 << qv
            for t in range(words):
                bits[ons + qv, t] = 0
                bits[offs + qv, t] = 0
    for i in range(length - 1):
        q = path[i]
        qc = q >> 6
        qv = (q >> 1) & 31
        row = ons + qv if q & 1 else offs + qv
        for t in range(words):
            bits[row, t] |= bits[qc, t]
    v = 0
    while used:
        if used & 1:
            for t in range(words):
                if bits[ons + v, t] & bits[offs + v, t] & bits[ncells + v, t] & ~bits[cells, t]:
                    return True
        used >>= 1
        v += 1
    return False


@njit(inline="always")
def _may_remove(k, order, ends, pot, bits, ncells):
    """Whether a cycle in the ``k``-th component that is not a sink (:func:`_components`) may
    remove anything (:func:`_cycle_removes`, on all its potentials: a cell of the value that
    sees an on and an off potential of it)."""
    words = bits.shape[1]
    ons = ncells + 32
    offs = ncells + 64
    lo = ends[k - 1] if k else 0
    used = 0
    for i in range(lo, ends[k]):
        q = pot[order[i]]
        qv = (q >> 1) & 31
        if not (used >> qv) & 1:
            used |= 1 << qv
            for t in range(words):
                bits[ons + qv, t] = 0
                bits[offs + qv, t] = 0
        qc = q >> 6
        row = ons + qv if q & 1 else offs + qv
        for t in range(words):
            bits[row, t] |= bits[qc, t]
    v = 0
    while used:
        if used & 1:
            for t in range(words):
                if bits[ons + v, t] & bits[offs + v, t] & bits[ncells + v, t]:
                    return True
        used >>= 1
        v += 1
    return False


@njit(inline="always")
def _cycles(src, adj_start, adj, dnodes, dpar, dmark, ds, found, limit, offmark, offfirst, first):
    """:func:`nested_kernels._cycle_search` on the links inside the component of ``src``
    (:func:`_inside`): the same entries, cycles and order. An off entry's potential is looked
    for on its own path only when the potential has an entry at a lower level (``offmark``,
    ``offfirst``: the search stamp and level of its first entry), as one on the path has.
    With ``first``, returns at the first cycle found."""
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
                if on:  # an off entry, unless its potential is already on its own path
                    if offmark[q] != ds:
                        offmark[q] = ds
                        offfirst[q] = depth
                    elif offfirst[q] < depth:
                        f = e
                        dup = False
                        while f != -1:
                            if dnodes[f] == q:
                                dup = True
                                break
                            f = dpar[f]
                        if dup:
                            continue
                    dnodes[n] = q
                    dpar[n] = e
                    n += 1
                else:
                    if depth >= 4 and q == src:
                        found[nfound] = e
                        nfound += 1
                        if first:
                            return nfound
                    if dmark[q] != ds:
                        dmark[q] = ds
                        dnodes[n] = q
                        dpar[n] = e
                        n += 1
        lo = hi
        hi = n
    return nfound


@njit(inline="always")
def _may_cycles(nn, cadj_start, cadj, may, ms):
    """``may[don] = ms`` for the on potentials a cycle can come back to
    (:func:`nested_kernels._may_cycle`): those an off potential turns on that an on potential
    other than it turns off, all in one component (``cadj``: :func:`_inside`)."""
    for a in range(1, nn, 2):
        for e in range(cadj_start[a], cadj_start[a + 1]):
            p = cadj[e]
            for f in range(cadj_start[p], cadj_start[p + 1]):
                d = cadj[f]
                if d != a:
                    may[d] = ms


@njit(inline="always")
def _forcing(src, adj_start, adj, dnodes, dpar, dmark, ds, limit, comp, reach):
    """:func:`nested_kernels._forcing_search`, making no entry for a potential that does not
    reach the negation of ``src`` (``reach``: :func:`_components`'): nothing met after it
    does either, so the entries left are those that lead to the negation, in the same order
    and with the same parents, and the entry found is the same."""
    conj = src ^ 1
    dnodes[0] = src
    dpar[0] = -1
    dmark[src] = ds
    n = 1
    lo = 0
    hi = 1
    level = 0
    d = comp[conj]
    word = d >> 6
    bit = np.uint64(1) << np.uint64(d & 63)
    while lo < hi and level + 2 <= limit:
        for e in range(lo, hi):
            node = dnodes[e]
            for ei in range(adj_start[node], adj_start[node + 1]):
                q = adj[ei]
                if q == conj:
                    return e
                if dmark[q] != ds:
                    dmark[q] = ds
                    c = comp[q]
                    if c >= d and reach[c, word] & bit:
                        dnodes[n] = q
                        dpar[n] = e
                        n += 1
        lo = hi
        hi = n
        level += 1
    return -1


@njit(cache=True, nogil=True)
def easiest_cycle(masks, peers, units, allpeers, best_path, todo0, searches0, iw, reach, bits):
    """The step SE's Forcing Chains & Cycles applies on ``masks``: the record
    :func:`nested_kernels.cycles_rule` sorts first. Returns ``(what, pass, length,
    searches, found0)``: ``what`` -1 when there is none, else CYCLE or FORCING, its potentials at
    ``best_path[:length]`` as ``cycles_rule`` lists them, ``searches`` the searches
    that found a chain within their bound, and ``found0`` whether the first pass found one.
    ``iw``, ``reach`` and ``bits``: :func:`work`'s arrays; when they hold fewer candidates than
    ``masks``, returns ``(-2, candidates, 0, 0, False)`` having changed nothing.

    The first pass (x-links only) reads and links only the candidates of one value at a
    time, so a value's chains there depend on its places alone: it searches only the
    values of ``todo0`` (bit ``v`` for value ``v``; the caller knows the others have none),
    and adds each value's searches to ``searches0[v]``."""
    ncells = masks.shape[0]
    ncand = 0
    for cell in range(ncells):
        m = masks[cell]
        while m:
            m &= m - 1
            ncand += 1
    if ncand > iw[_MAXCAND]:
        return -2, ncand, 0, 0, False
    nu = units.shape[1]
    cid, pot, conj, adj_start, adj, cadj_start, cadj, comp, may, tarjan, dnodes, dpar, dfound, dmark, offmark, \
        offfirst, path = _parts(iw, ncells)
    searches = 0
    found0 = False
    # the first pass's candidates: those of the values to search
    keep = 0
    for v in range(1, 32):
        if (todo0 >> v) & 1:
            keep |= 1 << (v - 1)
    masks0 = masks & keep
    # the second pass's (y-links only): those of the cells of two candidates. Its cycles start
    # in those cells, and an off potential elsewhere turns nothing on nor is an on one there
    # ever turned on, so the rest of the graph holds no cycle (and the cycle search, which
    # stays in the strongly connected component of its start, never makes an entry there)
    masks1 = _bivalue_masks(masks)
    _conjugates(masks, units, conj)
    if not iw[_PEERBITS]:
        _peer_bits(allpeers, bits)
        iw[_PEERBITS] = 1
    _boards(masks, bits)
    ds = iw[_STAMP]
    ms = iw[_MSTAMP]
    have = False
    best_r = 0.0
    best_c = 0
    best_what = -1
    best_pass = 0
    best_len = 0
    for pas in range(3):
        y = pas >= 1
        x = pas != 1
        if pas == 0:
            if not keep:
                continue
            pmasks = masks0
        elif pas == 1:
            pmasks = masks1
        else:
            pmasks = masks
        cycle_base = 7.0 if x and y else 6.5
        chain_base = 7.0 if y else 6.6
        most_cycle = _most(cycle_base, have, best_r, best_c)
        most_chain = _most(chain_base, have, best_r, best_c) if x else 0
        if most_cycle < 4 and most_chain < 3:
            continue  # (a cycle holds 4 potentials or more, a forcing chain 3)
        _numbered(pmasks, cid, pot)
        pnn = _graph(pmasks, peers, nu, y, x, cid, conj, adj_start, adj)
        # (reach: for the forcing chains only)
        nsinks = _components(pnn, adj_start, adj, comp, reach, x and most_chain >= 3, tarjan)
        # the cycle searches' graph: the links inside a strongly connected component (a cycle
        # search makes no entry outside the component of its start)
        _inside(pnn, adj_start, adj, comp, cadj_start, cadj)
        ms += 1
        _may_cycles(pnn, cadj_start, cadj, may, ms)
        for cell in range(ncells):
            m = masks[cell]
            count = 0
            rest = m
            while rest:
                rest &= rest - 1
                count += 1
            if count < 2 or (not x and count > 2):
                continue
            m = pmasks[cell]
            v = 0
            while m >> v:
                if not (m >> v) & 1:
                    v += 1
                    continue
                on = (cell << 6) | ((v + 1) << 1) | 1
                don = 2 * cid[(cell << 5) | (v + 1)] + 1
                v += 1
                maybe = most_cycle >= 4 and may[don] == ms
                nfound = 0
                barren = False
                if maybe:
                    ds += 1
                    # a component none of whose cycles can remove anything: its cycles count only
                    # as found, and the search stops at the first
                    c = comp[don]
                    if tarjan[8, c] != ms:
                        tarjan[8, c] = ms
                        tarjan[9, c] = not _may_remove(c - nsinks, tarjan[6], tarjan[7], pot, bits, ncells)
                    barren = tarjan[9, c] != 0
                    nfound = _cycles(don, cadj_start, cadj, dnodes, dpar, dmark, ds, dfound, most_cycle, offmark,
                                     offfirst, barren)
                if nfound:
                    searches += 1
                    if pas == 0:
                        searches0[v] += 1
                for fi in range(0 if barren else nfound):
                    e = dfound[fi]
                    # the cycle's potentials: src, then its entries back to the root (src again)
                    length = 1
                    path[0] = on
                    while e != -1:
                        path[length] = pot[dnodes[e]]
                        length += 1
                        e = dpar[e]
                    # (src is listed twice; the others differ: on potentials have one entry, and
                    # an off entry's potential is not on its own path)
                    distinct = length - 1
                    r = cycle_base + _increment(distinct)
                    if have and not (r < best_r or (r == best_r and distinct < best_c)):
                        continue
                    removes = _cycle_removes(path, length, bits, ncells)
                    if not removes:
                        continue
                    have = True
                    best_r = r
                    best_c = distinct
                    best_what = CYCLE
                    best_pass = pas
                    best_len = length
                    for i in range(length):
                        best_path[i] = path[i]
                    most_cycle = _most(cycle_base, have, best_r, best_c)
                    most_chain = _most(chain_base, have, best_r, best_c) if x else 0
                if not x:
                    continue
                # the forcing chains from the candidate on, then off, to its negation
                for src in (on, on ^ 1):
                    if most_chain < 3:
                        break
                    if not _reaches(comp, reach, don ^ (src & 1 ^ 1), don ^ (src & 1)):
                        continue
                    ds += 1
                    last = _forcing(don ^ (src & 1 ^ 1), adj_start, adj, dnodes, dpar, dmark, ds, most_chain, comp,
                                    reach)
                    if last < 0:
                        continue
                    searches += 1
                    if pas == 0:
                        searches0[v] += 1
                    length = 0
                    e = last
                    while e != -1:
                        path[length] = pot[dnodes[e]]
                        length += 1
                        e = dpar[e]
                    distinct = length + 1
                    r = chain_base + _increment(distinct)
                    if have and not (r < best_r or (r == best_r and distinct < best_c)):
                        continue  # (a forcing chain always removes something)
                    have = True
                    best_r = r
                    best_c = distinct
                    best_what = FORCING
                    best_pass = pas
                    best_len = length
                    for i in range(length):
                        best_path[i] = path[i]
                    most_cycle = _most(cycle_base, have, best_r, best_c)
                    most_chain = _most(chain_base, have, best_r, best_c)
        if pas == 0:
            found0 = have
    iw[_STAMP] = ds
    iw[_MSTAMP] = ms
    return best_what, best_pass, best_len, searches, found0
