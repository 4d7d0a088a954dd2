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
  best (:func:`_most`), and a pass whose least rating cannot is skipped whole.

The result is the record :func:`cycles_rule` sorts first, as its potentials.

This module imports numba (and :mod:`nested_kernels`) when it is first imported.
"""

from __future__ import annotations

import numpy as np

from ..engine.compiling import load_numba

load_numba()

from numba import njit  # noqa: E402

from .nested_kernels import (  # noqa: E402
    CYCLE, FORCING, NO_LIMIT, _closure, _cycle_search, _forcing_search, _bivalue_masks, _increment, _may_cycle, _numbered,
    _reaches, _reversed)

__all__ = ["easiest_cycle", "CYCLE", "FORCING"]

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


@njit(cache=True, nogil=True)
def easiest_cycle(masks, peers, units, allpeers, best_path, todo0, searches0):
    """The step SE's Forcing Chains & Cycles applies on ``masks``: the record
    :func:`nested_kernels.cycles_rule` sorts first. Returns ``(what, pass, length,
    searches, found0)``: ``what`` -1 when there is none, else CYCLE or FORCING, its potentials at
    ``best_path[:length]`` as ``cycles_rule`` lists them, ``searches`` the searches
    that found a chain within their bound, and ``found0`` whether the first pass found one.

    The first pass (x-links only) reads and links only the candidates of one value at a
    time, so a value's chains there depend on its places alone: it searches only the
    values of ``todo0`` (bit ``v`` for value ``v``; the caller knows the others have none),
    and adds each value's searches to ``searches0[v]``."""
    ncells = masks.shape[0]
    apw = allpeers.shape[1]
    searches = 0
    found0 = False
    cid_all, ncand, pot_all = _numbered(masks)
    # the first pass's candidates: those of the values to search
    keep = 0
    for v in range(1, 32):
        if (todo0 >> v) & 1:
            keep |= 1 << (v - 1)
    masks0 = masks & keep
    cid0, ncand0, pot0 = _numbered(masks0)
    # the second pass's (y-links only): those of the cells of two candidates. Its cycles start
    # in those cells, and an off potential elsewhere turns nothing on nor is an on one there
    # ever turned on, so the rest of the graph holds no cycle (and the cycle search, which
    # stays in the strongly connected component of its start, never makes an entry there)
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
    path = np.empty(nentries + 2, dtype=np.int64)
    fw = np.zeros(ncells << 5, dtype=np.int64)
    bk = np.zeros(ncells << 5, dtype=np.int64)
    inside = np.zeros(ncells, dtype=np.int64)
    cs = 0
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
            pmasks, cid, pot, pcand = masks0, cid0, pot0, ncand0
        elif pas == 1:
            pmasks, cid, pot, pcand = masks1, cid1, pot1, ncand1
        else:
            pmasks, cid, pot, pcand = masks, cid_all, pot_all, ncand
        cycle_base = 7.0 if x and y else 6.5
        chain_base = 7.0 if y else 6.6
        most_cycle = _most(cycle_base, have, best_r, best_c)
        most_chain = _most(chain_base, have, best_r, best_c) if x else 0
        if most_cycle < 4 and most_chain < 3:
            continue  # (a cycle holds 4 potentials or more, a forcing chain 3)
        pnn = 2 * pcand
        _closure(pmasks, peers, units, y, x, cid, adj_start, adj, comp, reach, x)  # reach: forcing chains only
        _reversed(pnn, adj_start, adj, radj_start, radj, fill)
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
                maybe = most_cycle >= 4 and _may_cycle(don, radj_start, radj, comp)
                nfound = 0
                if maybe:
                    ds += 1
                    nfound = _cycle_search(don, adj_start, adj, dnodes, dpar, dmark, ds, dfound, most_cycle, comp)
                if nfound:
                    searches += 1
                    if pas == 0:
                        searches0[v] += 1
                for fi in range(nfound):
                    e = dfound[fi]
                    # the cycle's potentials: src, then its entries back to the root (src again)
                    length = 1
                    path[0] = on
                    while e != -1:
                        path[length] = pot[dnodes[e]]
                        length += 1
                        e = dpar[e]
                    distinct = 0  # (src is listed twice; the others differ, so this is the depth)
                    for i in range(length):
                        dup = False
                        for j in range(i):
                            if path[j] == path[i]:
                                dup = True
                                break
                        if not dup:
                            distinct += 1
                    r = cycle_base + _increment(distinct)
                    if have and not (r < best_r or (r == best_r and distinct < best_c)):
                        continue
                    # does it remove anything (chains.cycle_hint): a cell outside the cycle that
                    # holds the value and sees an on potential and an off potential of it
                    cs += 1
                    for i in range(length):
                        inside[path[i] >> 6] = cs
                    for i in range(length - 1):
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
                    removes = False
                    for i in range(length - 1):
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
                                removes = True
                                break
                        if removes:
                            break
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
                    last = _forcing_search(don ^ (src & 1 ^ 1), adj_start, adj, dnodes, dpar, dmark, ds, most_chain)
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
    return best_what, best_pass, best_len, searches, found0
