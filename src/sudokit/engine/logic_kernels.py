"""Compiled kernels for :mod:`sudokit.logic`: runs of SE's easy steps, in SE's order.

Most steps of a human solving path are singles, and most of the rest are
rated up to 4.0. One stepping loop (:func:`run_steps`) applies them one at a
time, exactly as :mod:`sudokit.logic` would (last value in a box, column,
row; then hidden single in a box, column, row; units in order; values
ascending; then the easy ladder up to the level asked for), and records each
step, so the Python stepper only runs the harder techniques. :func:`singles`
stops after the singles (:data:`LEVEL_SINGLES`); :func:`easy` goes up the
ladder.

Throughout this module we have: ``values`` the grid (0 blank), ``masks`` the
candidates of each cell (bit ``v-1`` for value ``v``; 0 for a filled cell),
``n`` the size, ``u`` a unit (rows ``0..n-1``, columns ``n..2n-1``, boxes
``2n..3n-1``) and ``t`` the shape's :class:`Tables`.

The plain-Python wrappers :func:`singles` and :func:`easy` check their input
and convert lists to arrays; the numba types stay inside this module.

>>> from sudokit.grid import Grid
>>> g = Grid("5763894213926148754187526398619472537392..1..2541.89..6435.....9854.....1.78.3...")
>>> values, masks = list(g.values), [0 if v else m for v, m in zip(g.values, g.candidate_masks())]
>>> records = singles(g.shape, values, masks)
>>> len(records), records[0], 0 in values
(22, (73, 2, 24, 1), False)
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from ..grid import Shape
from .board import pop, tz
from .compiling import load_numba

load_numba()  # before the first kernel loads: numba without its BLAS probe

#: Largest size the kernels take (masks are int64).
MAX_KERNEL_SIZE = 62


class Tables(NamedTuple):
    """A shape's cell tables, as the kernels take them (int32 arrays)."""

    units: np.ndarray     #: ``units[u, i]``: the i-th cell of unit u
    order: np.ndarray     #: the units in SE's order: boxes, columns, rows
    units_of: np.ndarray  #: ``units_of[c, kind]``: the row (0), column (1) or box (2) unit of cell c
    peers: np.ndarray     #: ``peers[c, j]``: the j-th peer of cell c


@lru_cache(maxsize=None)
def _tables(shape: Shape) -> Tables:
    n = shape.size
    return Tables(
        units=np.array(shape.units, dtype=np.int32),
        order=np.array(list(range(2 * n, 3 * n)) + list(range(n, 2 * n)) + list(range(n)), dtype=np.int32),
        units_of=np.array(shape.units_of, dtype=np.int32),
        peers=np.array(shape.peers, dtype=np.int32),
    )


@njit(cache=True)
def _first_single(values, masks, t):
    """(cell, value, unit, alone) of SE's first single, or cell -1."""
    units = t.units
    order = t.order
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
            v = tz(single)
            bit = np.int64(1) << v
            for i in range(n):
                c = units[u, i]
                if masks[c] & bit:
                    return c, v + 1, u, alone
    return -1, 0, -1, 0


def _check(shape: Shape, values: list[int], masks: list[int]) -> None:
    if shape.size > MAX_KERNEL_SIZE:
        raise ValueError(f"the logic kernels take sizes up to {MAX_KERNEL_SIZE}, not {shape.size}")
    if len(values) != shape.cell_count or len(masks) != shape.cell_count:
        raise ValueError(f"a {shape} grid has {shape.cell_count} cells")


def _run(shape: Shape, values: list[int], masks: list[int], level: int, rows: int, width: int) -> list[tuple]:
    """:func:`run_steps` on lists, changed in place; the records as tuples."""
    _check(shape, values, masks)
    v = np.array(values, dtype=np.int64)
    m = np.array(masks, dtype=np.int64)
    out = np.empty((rows, width), dtype=np.int64)
    count = run_steps(v, m, *_tables(shape), out, level)
    values[:] = v.tolist()
    masks[:] = m.tolist()
    return [tuple(row) for row in out[:count].tolist()]


def singles(shape: Shape, values: list[int], masks: list[int]) -> list[tuple[int, int, int, int]]:
    """Apply SE's singles in place on ``values`` and ``masks`` (lists, one
    entry per cell; a filled cell has mask 0) and return the steps as
    ``(cell, value, unit id, alone)``; ``alone`` is 1 for a last value."""
    return _run(shape, values, masks, LEVEL_SINGLES, shape.cell_count, 4)


# -- the easy ladder: every SE technique rated up to 2.5 ------------------------------

#: Codes of the steps :func:`easy` records, and their SE ratings.
(LAST_VALUE, HIDDEN_BOX, HIDDEN_LINE, DIRECT_POINTING, DIRECT_HIDDEN_PAIR, NAKED_SINGLE, DIRECT_HIDDEN_TRIPLET,
 POINTING, CLAIMING, NAKED_PAIR, X_WING, HIDDEN_PAIR, NAKED_TRIPLET, SWORDFISH, HIDDEN_TRIPLET) = range(15)
EASY_RATINGS = (1.0, 1.2, 1.5, 1.7, 2.0, 2.3, 2.5, 2.6, 2.8, 3.0, 3.2, 3.4, 3.6, 3.8, 4.0)

#: How far :func:`run_steps` goes: singles only, up to 2.5, up to claiming (2.8), up to hidden triplet (4.0).
LEVEL_SINGLES, LEVEL_DIRECT, LEVEL_LOCKING, LEVEL_SUBSETS = -1, 0, 1, 2


@njit(cache=True)
def _direct_pointing(masks, t, pos):
    """SE's first direct pointing: (single cell, value) or (-1, 0); ``pos``: :func:`_positions`."""
    units = t.units
    units_of = t.units_of
    n = units.shape[1]
    for kind2 in (1, 0):  # box -> column, then box -> row
        for v in range(n):
            for b in range(n):
                box = 2 * n + b
                here = pos[box, v]
                if pop(here) < 2:
                    continue
                line = units_of[units[box, tz(here)], kind2]
                same = True
                while here:
                    if units_of[units[box, tz(here)], kind2] != line:
                        same = False
                        break
                    here &= here - 1
                if not same:
                    continue
                # boxes (ascending) that lose the value on the line
                for tb in range(n):
                    tbox = 2 * n + tb
                    if tbox == box:
                        continue
                    touched = False
                    left = 0
                    last = -1
                    there = pos[tbox, v]
                    while there:
                        c = units[tbox, tz(there)]
                        there &= there - 1
                        if units_of[c, kind2] == line:
                            touched = True
                        else:
                            left += 1
                            last = c
                    if touched and left == 1:
                        return last, v + 1
    return -1, 0


@njit(cache=True)
def _locked_apply(masks, t, pointing, pos):
    """Apply SE's first pointing (or claiming) elimination; return True if one
    (``pos``: :func:`_positions`, read up to the change)."""
    units = t.units
    units_of = t.units_of
    n = units.shape[1]
    for p in range(2):
        if pointing:
            kind1, kind2 = 2, 1 - p  # box -> column, box -> row
        else:
            kind1, kind2 = 1 - p, 2  # column -> box, row -> box
        for v in range(n):
            bit = np.int64(1) << v
            for k in range(n):
                u1 = kind1 * n + k
                here = pos[u1, v]
                if pop(here) < 2:
                    continue
                u2 = units_of[units[u1, tz(here)], kind2]
                same = True
                while here:
                    if units_of[units[u1, tz(here)], kind2] != u2:
                        same = False
                        break
                    here &= here - 1
                if not same:
                    continue
                hit = False
                there = pos[u2, v]
                while there:
                    c = units[u2, tz(there)]
                    there &= there - 1
                    if units_of[c, kind1] != u1:
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
def _naked_apply(masks, t, k):
    """SE's first naked set of size k: remove its values from the rest of the unit."""
    units = t.units
    order = t.order
    n = units.shape[1]
    cells = np.empty(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    for o in range(order.shape[0]):
        u = order[o]
        count = np.int64(0)  # typed: see run_steps
        for i in range(n):
            c = units[u, i]
            if masks[c] and pop(masks[c]) <= k:
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
            if pop(union) == k:
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
def _positions(masks, units, pos):
    """Fill ``pos[u, v]``: bit i set when value v+1 may go in unit u's i-th cell, for
    every unit (one pass over the cells' values, shared by the searches of a pass:
    they change ``masks`` only just before they return)."""
    n = units.shape[1]
    for u in range(units.shape[0]):
        for v in range(n):
            pos[u, v] = 0
        for i in range(n):
            m = masks[units[u, i]]
            while m:
                pos[u, tz(m)] |= np.int64(1) << i
                m &= m - 1


@njit(cache=True)
def _hidden_candidates(where, n, k, usable):
    """Fill ``usable`` with the values of a unit (``where[v]``: bit i when value
    v+1 may go in its i-th cell) with at most k places; return how many values
    are usable, or 0 when the unit cannot hold a hidden set of size k."""
    present = 0
    nu = np.int64(0)  # typed: see run_steps
    for v in range(n):
        if where[v]:
            present += 1
            if pop(where[v]) <= k:
                usable[nu] = v
                nu += 1
    return nu if nu >= k and present > k else 0


@njit(cache=True, inline="always")
def top_value(masks):
    """The highest value that any cell of ``masks`` (one candidate mask per cell) holds; 0 for none."""
    top = 0
    for c in range(masks.shape[0]):
        m = masks[c]
        v = 0
        while m:
            m >>= 1
            v += 1
        if v > top:
            top = v
    return top


@njit(cache=True, inline="always")
def _combo_places(where, usable, idx, k):
    """For the values ``usable[idx[0..k-1]]`` of a unit: the union of their
    places (bits over the unit's cells) and the values themselves (bits v)."""
    union = 0
    keep = 0
    for j in range(k):
        union |= where[usable[idx[j]]]
        keep |= np.int64(1) << usable[idx[j]]
    return union, keep


@njit(cache=True)
def _hidden(masks, t, k, direct, pos):
    """SE's first hidden set of size k, unit by unit in SE's order, value sets
    in lexicographic order. Plain (``direct`` False): remove the other values
    from its cells; (1, 0) when it removed some, else (-1, 0). Direct (k = 2
    or 3): the first hidden set that leaves another value one place in its
    unit, nothing removed: (cell, value) of that hidden single, or (-1, 0)."""
    units = t.units
    order = t.order
    n = units.shape[1]
    usable = np.zeros(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    for o in range(order.shape[0]):
        u = order[o]
        where = pos[u]
        nu = _hidden_candidates(where, n, k, usable)
        if nu == 0:
            continue
        for j in range(k):
            idx[j] = j
        while True:
            union, keep = _combo_places(where, usable, idx, k)
            if pop(union) == k:
                if direct:
                    for v in range(n):
                        if (keep >> v) & 1 or where[v] == 0:
                            continue
                        here = where[v]
                        if pop(here) < 2:
                            continue
                        rest = here & ~union
                        if rest and pop(rest) == 1:
                            return units[u, tz(rest)], v + 1
                else:
                    hit = False
                    for i in range(n):
                        if (union >> i) & 1:
                            c = units[u, i]
                            if masks[c] & ~keep:
                                masks[c] &= keep
                                hit = True
                    if hit:
                        return 1, 0
            if not _next_combo(idx, k, nu):
                break
    return -1, 0


@njit(cache=True)
def _fish_apply(masks, t, k, pos):
    """SE's first fish with k base lines (columns as base first); ``pos``: :func:`_positions`."""
    units = t.units
    n = units.shape[1]
    lines = np.empty(n, dtype=np.int64)
    places = np.empty(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    for by_rows in (0, 1):
        base0 = 0 if by_rows else n
        cover0 = n if by_rows else 0
        for v in range(n):
            bit = np.int64(1) << v
            count = np.int64(0)  # typed: see run_steps
            for b in range(n):
                p = pos[base0 + b, v]
                if p and pop(p) <= k:
                    lines[count] = b
                    places[count] = p
                    count += 1
            if count < k:
                continue
            for j in range(k):
                idx[j] = j
            while True:
                union = 0
                bases = 0
                for j in range(k):
                    union |= places[idx[j]]
                    bases |= np.int64(1) << lines[idx[j]]
                if pop(union) == k:
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


@njit(cache=True, inline="always")
def _record(out, k, level, code, cell, value, unit):
    """Row ``k`` of ``out`` as the caller returns it: ``(cell, value, unit,
    alone)`` for the singles alone, ``(code, cell, value)`` up the ladder."""
    if level == LEVEL_SINGLES:
        out[k, 0] = cell
        out[k, 1] = value
        out[k, 2] = unit
        out[k, 3] = 1 if code == LAST_VALUE else 0
    else:
        out[k, 0] = code
        out[k, 1] = cell
        out[k, 2] = value


@njit(cache=True)
def run_steps(values, masks, units, order, units_of, peers, out, level):
    """Apply SE's steps one at a time, in SE's order, until none is left, a
    blank cell runs dry or ``out`` is full: the singles, and up the ladder to
    ``level`` (:data:`LEVEL_SINGLES`: singles only; :data:`LEVEL_DIRECT`: the
    techniques up to 2.5; :data:`LEVEL_LOCKING`: pointing and claiming too;
    :data:`LEVEL_SUBSETS`: subsets, X-Wing and Swordfish too). Records the
    steps in ``out`` (:func:`_record`; cell -1 for an elimination step) and
    returns how many. (The tables come in one by one and are grouped here: numba
    dispatches a call from Python on a tuple of arrays several µs more
    slowly than on the arrays.)"""
    t = Tables(units, order, units_of, peers)
    n = units.shape[1]
    ncells = values.shape[0]
    count = 0
    # typed constants, not literals: numba would compile each search once per literal
    # size and flag (a dozen copies), for no measurable speed
    two, three, yes, no = np.int64(2), np.int64(3), np.bool_(True), np.bool_(False)
    pos = np.empty((units.shape[0], n), dtype=np.int64)
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
        cell, value, unit, alone = _first_single(values, masks, t)
        code = -1
        fresh = False  # whether ``pos`` holds this pass's places
        if cell >= 0:
            if alone:
                code = LAST_VALUE
            elif unit >= 2 * n:
                code = HIDDEN_BOX
            else:
                code = HIDDEN_LINE
        elif level >= LEVEL_DIRECT:
            _positions(masks, units, pos)
            fresh = True
            cell, value = _direct_pointing(masks, t, pos)
            if cell >= 0:
                code = DIRECT_POINTING
            else:
                cell, value = _hidden(masks, t, two, yes, pos)
                if cell >= 0:
                    code = DIRECT_HIDDEN_PAIR
                else:
                    for c in range(ncells):
                        m = masks[c]
                        if m and not (m & (m - 1)):
                            cell = c
                            value = tz(m) + 1
                            code = NAKED_SINGLE
                            break
                    if code < 0:
                        cell, value = _hidden(masks, t, three, yes, pos)
                        if cell >= 0:
                            code = DIRECT_HIDDEN_TRIPLET
        if code < 0 and level >= LEVEL_LOCKING:
            if not fresh:  # (the searches below only read it, up to the one that changes masks)
                _positions(masks, units, pos)
            if _locked_apply(masks, t, yes, pos):
                code = POINTING
            elif _locked_apply(masks, t, no, pos):
                code = CLAIMING
            elif level >= LEVEL_SUBSETS:
                if _naked_apply(masks, t, two):
                    code = NAKED_PAIR
                elif _fish_apply(masks, t, two, pos):
                    code = X_WING
                elif _hidden(masks, t, two, no, pos)[0] > 0:
                    code = HIDDEN_PAIR
                elif _naked_apply(masks, t, three):
                    code = NAKED_TRIPLET
                elif _fish_apply(masks, t, three, pos):
                    code = SWORDFISH
                elif _hidden(masks, t, three, no, pos)[0] > 0:
                    code = HIDDEN_TRIPLET
            if code >= 0:
                _record(out, count, level, code, -1, 0, -1)
                count += 1
                continue
        if code < 0:
            break
        values[cell] = value
        masks[cell] = 0
        clear = ~(np.int64(1) << (value - 1))
        for j in range(peers.shape[1]):
            masks[peers[cell, j]] &= clear
        _record(out, count, level, code, cell, value, unit)
        count += 1
    return count


def easy(shape: Shape, values: list[int], masks: list[int], level: int = LEVEL_SUBSETS) -> list[tuple[int, int, int]]:
    """Apply SE's techniques in place, in SE's order: those rated up to 2.5
    (singles, direct pointing, direct hidden pair, naked single, direct hidden
    triplet); from :data:`LEVEL_LOCKING` also pointing (2.6) and claiming
    (2.8); from :data:`LEVEL_SUBSETS` also naked and hidden pairs and
    triplets, X-Wing and Swordfish (up to 4.0). Return the steps as
    ``(code, cell, value)``, cell -1 for an elimination step;
    :data:`EASY_RATINGS` gives each code's rating. (Direct claiming, 1.9,
    never fires in SE.)"""
    return _run(shape, values, masks, level, shape.cell_count * (shape.size + 1), 3)


# -- aligned exclusions (6.2, 7.5) ---------------------------------------------------
# (``houses[c, :hlen[c]]``: the cells of cell ``c``'s units in SE's order, box, row, column,
# then a variant's units, without ``c``; ``inh[c, p]``: ``p`` is one of them; see
# :mod:`sudokit.logic.aligned`)


@njit(cache=True)
def _aligned_check(masks, inh, cells, k, usable, nusable, allowed, pairs):
    """The candidates of the aligned set ``cells[:k]`` that some possible
    combination uses, per cell, into ``allowed`` (the removals are the rest).
    A combination is possible when no two cells that see each other take
    one value and it holds every value of no excluder in ``usable[:nusable]``
    (the common excluders whose values all lie in the set's candidates: the
    others always keep a value). Per value of the first cell: the values
    either other cell may not take with it (an excluder of two values holding
    it leaves the other one), then the pairs the other two may not take
    together (an excluder of two values without it, or of three with it)."""
    c0 = cells[0]
    c1 = cells[1]
    m0 = masks[c0]
    m1 = masks[c1]
    for i in range(k):
        allowed[i] = 0
    if k == 2:
        see = inh[c0, c1]
        rest0 = m0
        while rest0:
            b0 = rest0 & -rest0
            rest0 ^= b0
            free = m1
            if see:
                free &= ~b0
            for j in range(nusable):
                rest = usable[j] & ~b0
                if not rest & (rest - 1):
                    free &= ~rest
            if free:
                allowed[0] |= b0
                allowed[1] |= free
        return
    c2 = cells[2]
    m2 = masks[c2]
    s01 = inh[c0, c1]
    s02 = inh[c0, c2]
    s12 = inh[c1, c2]
    rest0 = m0
    while rest0:
        b0 = rest0 & -rest0
        rest0 ^= b0
        gone = np.int64(0)  # the values neither other cell may take with b0
        npairs = 0
        for j in range(nusable):
            e = usable[j]
            if e & b0:
                r = e & ~b0
                if r & (r - 1):
                    pairs[npairs] = r
                    npairs += 1
                else:
                    gone |= r
            elif pop(e) == 2:
                pairs[npairs] = e  # two values, both left to the other cells
                npairs += 1
        a1 = m1 & ~gone
        a2 = m2 & ~gone
        if s01:
            a1 &= ~b0
        if s02:
            a2 &= ~b0
        if not a1 or not a2:
            continue
        any_ok = False
        rest1 = a1
        while rest1:
            b1 = rest1 & -rest1
            rest1 ^= b1
            kill = b1 if s12 else np.int64(0)
            for j in range(npairs):
                if pairs[j] & b1:
                    kill |= pairs[j] & ~b1
            partners = a2 & ~kill
            if partners:
                any_ok = True
                allowed[1] |= b1
                allowed[2] |= partners
        if any_ok:
            allowed[0] |= b0
            if allowed[0] == m0 and allowed[1] == m1 and allowed[2] == m2:
                return


@njit(cache=True)
def aligned_next(masks, houses, hlen, inh, hpos, hbits, memo, degree, start, out):
    """The first aligned pair (``degree`` 2) or triplet (3) exclusion that
    removes something, in SE's order, from the position ``start`` on (pair
    ``start[0]``, ``start[1]`` of the base cells, tail key ``start[2]``).
    Returns the number of common excluders, 0 when there is none; ``out``:
    the position found (the tail's key: its place among the first cell's
    house cells, or past them among the second's; 0 for a pair), the cells
    (third -1 for a pair), then per cell the candidates some combination
    uses, then the excluders, ascending. ``hpos[c, p]``: the place of ``p``
    in ``houses[c]``; ``hbits[c]``: the house cells of ``c`` as 64-bit words.
    The tails of a pair are the base cells among its cells' excluders that
    have two of the pair's common excluders as excluders too (a cell is an
    excluder of every cell it sees: the cells seeing two of them, a word at
    a time); each is checked, and the one first in SE's order is the step.
    ``memo``: the sets checked before that removed nothing, by their cells,
    candidates and usable excluders' candidates, which is all a check reads
    (rows of three words, a slot each by a hash; kept from call to call,
    with up to 1024 cells, 16 values and 4 usable excluders; no rows: none).
    The kernel holds the GIL, so no two calls write one memo at once."""
    ncells = masks.shape[0]
    width = houses.shape[1]
    nw = (ncells + 63) >> 6
    pops = np.empty(ncells, dtype=np.int64)
    for c in range(ncells):
        pops[c] = pop(masks[c])
    cands = np.empty(ncells, dtype=np.int64)
    candb = np.zeros(nw, dtype=np.uint64)
    exb = np.zeros((ncells, nw), dtype=np.uint64)
    ncands = 0
    for c in range(ncells):
        if pops[c] < 2:
            continue
        single = False
        any_ex = False
        for j in range(hlen[c]):
            p = houses[c, j]
            if pops[p] == 1:
                single = True
                break
            if 2 <= pops[p] <= degree:
                any_ex = True
        if single or not any_ex:
            continue
        for j in range(hlen[c]):
            p = houses[c, j]
            if 2 <= pops[p] <= degree:
                exb[c, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        cands[ncands] = c
        candb[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
        ncands += 1
    both = np.empty(nw, dtype=np.uint64)
    once = np.empty(nw, dtype=np.uint64)
    twice = np.empty(nw, dtype=np.uint64)
    cells = np.empty(3, dtype=np.int64)
    usable = np.empty(ncells, dtype=np.int64)
    pairs = np.empty(ncells, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    best_allowed = np.zeros(3, dtype=np.int64)
    for i2 in range(max(1, start[0]), ncands):
        c1 = cands[i2]
        for i1 in range(start[1] if i2 == start[0] else 0, i2):
            c0 = cands[i1]
            n01 = 0
            for w in range(nw):
                word = exb[c0, w] & exb[c1, w]
                both[w] = word
                n01 += pop(word)
            if n01 < 2:
                continue
            first = start[2] if (i2 == start[0] and i1 == start[1]) else 0
            best = -1  # the SE order key of the first tail found that removes something
            best_t = -1
            u01 = masks[c0] | masks[c1]
            if degree == 3:
                # the base cells two of the pair's common excluders have as excluders too
                for x in range(nw):
                    once[x] = 0
                    twice[x] = 0
                for x in range(nw):
                    word = both[x]
                    while word:
                        e = (x << 6) + tz(word)
                        word &= word - np.uint64(1)
                        for y in range(nw):
                            s = hbits[e, y] & candb[y]
                            twice[y] |= once[y] & s
                            once[y] |= s
            for w in range(nw):
                if degree == 2:
                    tails = np.uint64(1) if w == 0 and first == 0 else np.uint64(0)
                else:
                    tails = (exb[c0, w] | exb[c1, w]) & twice[w]
                while tails:
                    if degree == 2:
                        t = -1
                        key = 0
                        tails = np.uint64(0)
                        k = 2
                        union = u01
                    else:
                        t = (w << 6) + tz(tails)
                        tails &= tails - np.uint64(1)
                        if t == c0 or t == c1:
                            continue
                        key = hpos[c0, t] if inh[c0, t] else width + hpos[c1, t]
                        if key < first or (best >= 0 and key > best):
                            continue
                        k = 3
                        union = u01 | masks[t]
                    # the common excluders; the ones the set can use up (the others never run dry)
                    nusable = 0
                    ncommon = 0
                    for x in range(nw):
                        word = both[x]
                        if k == 3:
                            word &= exb[t, x]
                        ncommon += pop(word)
                        while word:
                            e = (x << 6) + tz(word)
                            word &= word - np.uint64(1)
                            if not masks[e] & ~union:
                                usable[nusable] = masks[e]
                                nusable += 1
                    if nusable == 0 or ncommon < 2:
                        continue
                    row = -1  # the set's slot in the memo
                    if memo.shape[0] and nusable <= 4:
                        key0 = np.uint64(c0 | c1 << 10 | (t + 1) << 20 | nusable << 31)
                        key1 = np.uint64(masks[c0] | masks[c1] << 16 | (masks[t] if k == 3 else 0) << 32)
                        key2 = np.uint64(0)
                        for i in range(nusable):
                            key2 |= np.uint64(usable[i]) << np.uint64(16 * i)
                        h = (key0 * np.uint64(0x9E3779B97F4A7C15) ^ key1 * np.uint64(0xC2B2AE3D27D4EB4F)
                             ^ key2 * np.uint64(0x165667B19E3779F9))
                        row = np.int64((h >> np.uint64(40)) & np.uint64(memo.shape[0] - 1))
                        if memo[row, 0] == key0 and memo[row, 1] == key1 and memo[row, 2] == key2:
                            continue  # (checked before: removes nothing)
                    cells[0] = c0
                    cells[1] = c1
                    cells[2] = t
                    _aligned_check(masks, inh, cells, k, usable, nusable, allowed, pairs)
                    removes = False
                    for i in range(k):
                        if masks[cells[i]] & ~allowed[i]:
                            removes = True
                    if not removes:
                        if row >= 0:
                            memo[row, 0] = key0
                            memo[row, 1] = key1
                            memo[row, 2] = key2
                        continue
                    best = key
                    best_t = t
                    for i in range(3):
                        best_allowed[i] = allowed[i]
            if best < 0:
                continue
            t = best_t
            out[0] = i2
            out[1] = i1
            out[2] = best
            out[3] = c0
            out[4] = c1
            out[5] = t
            for i in range(3):
                out[6 + i] = best_allowed[i]
            ncommon = 0
            for x in range(nw):
                word = both[x]
                if t >= 0:
                    word &= exb[t, x]
                while word:
                    out[9 + ncommon] = (x << 6) + tz(word)
                    ncommon += 1
                    word &= word - np.uint64(1)
            return ncommon
    return 0


# -- WXYZ- to TUVWXYZ-Wings (5.5 to 7.5) -----------------------------------------------
# (``peer[c, p]``: cells ``c`` and ``p`` see each other; see :func:`sudokit.logic.wings.find_als_wing`)


@njit(cache=True)
def _sees_all(masks, peer, bit, inset, yz, cells, ncells_in):
    """Whether a cell holding ``bit`` outside the set and ``yz`` sees every cell of ``cells[:ncells_in]``."""
    for x in range(masks.shape[0]):
        if not masks[x] & bit or inset[x] or x == yz:
            continue
        ok = True
        for i in range(ncells_in):
            if not peer[cells[i], x]:
                ok = False
                break
        if ok:
            return True
    return False


@njit(cache=True)
def _restricted(masks, peer, bit, yz, als, k):
    """Every place of the value ``bit`` in the set sees ``yz``."""
    for i in range(k):
        if masks[als[i]] & bit and not peer[yz, als[i]]:
            return False
    return True


@njit(cache=True)
def _wing_removes(masks, peer, als, k, union, inset, yz, work):
    """Whether the set ``als[:k]`` (candidates ``union``) and the bivalue cell
    ``yz`` make a wing that removes something (SE's rules, as
    :func:`sudokit.logic.wings.find_als_wing` applies them)."""
    my = masks[yz]
    xb = my & -my
    zb = my ^ xb
    double = _restricted(masks, peer, zb, yz, als, k)
    if _restricted(masks, peer, xb, yz, als, k):
        if double:
            rest = union & ~my
            while rest:
                wb = rest & -rest
                rest ^= wb
                n = np.int64(0)  # typed: see run_steps
                for i in range(k):
                    if masks[als[i]] & wb:
                        work[n] = als[i]
                        n += 1
                if _sees_all(masks, peer, wb, inset, yz, work, n):
                    return True
        for j in range(2 if double else 1):
            vb = zb if j == 0 else xb
            n = np.int64(0)  # typed: see run_steps
            for i in range(k):
                if masks[als[i]] & vb:
                    work[n] = als[i]
                    n += 1
            work[n] = yz
            if _sees_all(masks, peer, vb, inset, yz, work, n + 1):
                return True
        return False
    if double:
        n = np.int64(0)  # typed: see run_steps
        for i in range(k):
            if masks[als[i]] & xb:
                work[n] = als[i]
                n += 1
        work[n] = yz
        return _sees_all(masks, peer, xb, inset, yz, work, n + 1)
    return False


@njit(cache=True)
def als_wings(masks, peer, k, out):
    """The wings of SE's ``k``-cell sets (WXYZ ``k`` = 3 to TUVWXYZ 6) that
    remove something, in SE's order of search: the sets of ``k`` mutually
    seeing cells, each with two or more candidates, ``k + 1`` values among
    them, grown through forward peers from each cell in turn; then the
    bivalue cells ``yz`` that see one of the set, ascending. Rows of ``out``:
    the set's cells, then ``yz``. Returns the count, or -1 when ``out`` is full."""
    ncells = masks.shape[0]
    pops = np.empty(ncells, dtype=np.int64)
    for c in range(ncells):
        pops[c] = pop(masks[c])
    most = k + 1
    cand = np.empty((k, ncells), dtype=np.int64)
    ncand = np.zeros(k, dtype=np.int64)
    pos = np.zeros(k, dtype=np.int64)
    chosen = np.empty(k, dtype=np.int64)
    unions = np.zeros(k, dtype=np.int64)
    inset = np.zeros(ncells, dtype=np.bool_)
    work = np.empty(k + 1, dtype=np.int64)
    count = 0
    for a in range(ncells):
        if not 1 < pops[a] <= most:
            continue
        chosen[0] = a
        unions[0] = masks[a]
        n = 0
        for p in range(a + 1, ncells):
            if peer[a, p]:
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
            if pops[c] < 2 or pop(m) > most:
                continue
            chosen[depth] = c
            if depth + 1 < k:
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
                continue
            if pop(m) != most:
                continue
            # a set: the bivalue cells outside it that see one of its cells
            for i in range(k):
                inset[chosen[i]] = True
            for yz in range(ncells):
                if pops[yz] != 2 or inset[yz] or masks[yz] & m != masks[yz]:
                    continue
                near = False
                for i in range(k):
                    if peer[chosen[i], yz]:
                        near = True
                        break
                if not near or not _wing_removes(masks, peer, chosen, k, m, inset, yz, work):
                    continue
                if count >= out.shape[0]:
                    for i in range(k):
                        inset[chosen[i]] = False
                    return -1
                for i in range(k):
                    out[count, i] = chosen[i]
                out[count, k] = yz
                count += 1
            for i in range(k):
                inset[chosen[i]] = False
    return count


# -- whether a subset or fish of any size has a step ------------------------------------


@njit(cache=True)
def _positions_of(masks, units):
    """:func:`_positions` into a new table."""
    pos = np.empty((units.shape[0], units.shape[1]), dtype=np.int64)
    _positions(masks, units, pos)
    return pos


#: The kinds :func:`has_step` answers for.
NAKED_SET, HIDDEN_SET, FISH = range(3)


@njit(cache=True)
def has_step(masks, units, order, units_of, peers, kind, k):
    """Whether a naked set, hidden set or fish (``kind``) of size ``k``
    removes something, as SE scans them (the same searches as the easy
    ladder's); ``masks`` is changed."""
    t = Tables(units, order, units_of, peers)
    if kind == NAKED_SET:
        return _naked_apply(masks, t, k)
    if kind == HIDDEN_SET:
        return _hidden(masks, t, k, np.bool_(False), _positions_of(masks, units))[0] > 0
    return _fish_apply(masks, t, k, _positions_of(masks, units))


@njit(cache=True)
def _tight_sets(items, count, k, out):
    """Every choice of ``k`` of ``items[:count]`` (bit sets) whose union has exactly ``k``
    bits, as bit sets over the indices, into ``out``; a choice is not grown past ``k``
    bits (the union only grows). Returns how many, or -1 when ``out`` is full."""
    idx = np.zeros(k, dtype=np.int64)
    unions = np.zeros(k, dtype=np.int64)
    sel = np.zeros(k, dtype=np.int64)
    found = 0
    depth = 0
    idx[0] = 0
    while depth >= 0:
        i = idx[depth]
        if i > count - (k - depth):  # too few items left for this depth: back to the one before
            depth -= 1
            continue
        u = items[i] | (unions[depth - 1] if depth > 0 else 0)
        idx[depth] = i + 1
        if pop(u) > k:
            continue
        sel[depth] = (sel[depth - 1] if depth > 0 else 0) | (np.int64(1) << i)
        if depth == k - 1:
            if pop(u) == k:
                if found >= out.shape[0]:
                    return -1
                out[found] = sel[depth]
                found += 1
            continue
        unions[depth] = u
        depth += 1
        idx[depth] = i + 1
    return found


@njit(cache=True)
def has_steps(masks, units, order, units_of, peers, k):
    """Bit ``kind`` set when the naked sets, hidden sets or fish (``kind``: :data:`NAKED_SET`,
    :data:`HIDDEN_SET`, :data:`FISH`) of size ``k`` remove something, as :func:`has_step`
    would say for each (the producers of one size ask in turn on one state): the same
    sets, looked for without order and without growing a choice past ``k`` values, lines
    or cells (:func:`_tight_sets`); a kind whose choices overflow counts as having one."""
    n = units.shape[1]
    pos = _positions_of(masks, units)
    items = np.empty(n, dtype=np.int64)
    where = np.empty(n, dtype=np.int64)  # per item: its unit position, value or line
    out = np.empty(4096, dtype=np.int64)
    found = 0
    # naked sets: k cells of a unit with k values among them, which another cell holds
    for u in range(units.shape[0]):
        count = 0
        for i in range(n):
            m = masks[units[u, i]]
            if m and pop(m) <= k:
                items[count] = m
                where[count] = i
                count += 1
        if count < k:
            continue
        nsets = _tight_sets(items, count, k, out)
        if nsets < 0:
            found |= 1 << NAKED_SET
            break
        for x in range(nsets):
            union = 0
            inside = 0
            sel = out[x]
            while sel:
                j = tz(sel)
                sel &= sel - 1
                union |= items[j]
                inside |= np.int64(1) << where[j]
            for i in range(n):
                if not (inside >> i) & 1 and masks[units[u, i]] & union:
                    found |= 1 << NAKED_SET
                    break
            if found >> NAKED_SET & 1:
                break
        if found >> NAKED_SET & 1:
            break
    # hidden sets: k values of a unit with k places among them, one of which holds another value
    for u in range(units.shape[0]):
        count = 0
        present = 0
        for v in range(n):
            if pos[u, v]:
                present += 1
                if pop(pos[u, v]) <= k:
                    items[count] = pos[u, v]
                    where[count] = v
                    count += 1
        if count < k or present <= k:
            continue
        nsets = _tight_sets(items, count, k, out)
        if nsets < 0:
            found |= 1 << HIDDEN_SET
            break
        for x in range(nsets):
            union = 0
            keep = 0
            sel = out[x]
            while sel:
                j = tz(sel)
                sel &= sel - 1
                union |= items[j]
                keep |= np.int64(1) << where[j]
            places = union
            while places:
                if masks[units[u, tz(places)]] & ~keep:
                    found |= 1 << HIDDEN_SET
                    break
                places &= places - 1
            if found >> HIDDEN_SET & 1:
                break
        if found >> HIDDEN_SET & 1:
            break
    # fish: k base lines whose places of a value lie in k cover lines, which hold it elsewhere
    for by_rows in range(2):
        base0 = 0 if by_rows else n
        cover0 = n if by_rows else 0
        for v in range(n):
            bit = np.int64(1) << v
            count = 0
            for b in range(n):
                p = pos[base0 + b, v]
                if p and pop(p) <= k:
                    items[count] = p
                    where[count] = b
                    count += 1
            if count < k:
                continue
            nsets = _tight_sets(items, count, k, out)
            if nsets < 0:
                found |= 1 << FISH
                break
            for x in range(nsets):
                union = 0
                bases = 0
                sel = out[x]
                while sel:
                    j = tz(sel)
                    sel &= sel - 1
                    union |= items[j]
                    bases |= np.int64(1) << where[j]
                covers = union
                while covers:
                    i = tz(covers)
                    covers &= covers - 1
                    for j in range(n):
                        if not (bases >> j) & 1 and masks[units[cover0 + i, j]] & bit:
                            found |= 1 << FISH
                            break
                    if found >> FISH & 1:
                        break
                if found >> FISH & 1:
                    break
            if found >> FISH & 1:
                break
        if found >> FISH & 1:
            break
    return found


def any_step(shape: Shape, masks: list[int], kind: int, k: int) -> bool:
    """:func:`has_step` on a list of masks (left as it is)."""
    return has_step(np.array(masks, dtype=np.int64), *_tables(shape), kind, k)


# -- unique loops: the walk from one bivalue cell (4.5 and up) ---------------------------


@njit(cache=True)
def unique_loops(masks, start, pair, holding, core, plan_kind, plan_unit, plan_len, unit_cells, unit_len,
                 cell_units, out):
    """The closed paths of :func:`sudokit.logic.uniqueness._find_loops` from
    ``start``, in its order: cells holding both values of ``pair``
    (``holding``), through the units of ``plan_*`` (per cell: kind and unit
    in SE's order; a step never leaves by the kind it came in by), at most
    two cells with extra candidates (more while their extras are one value),
    never meeting a unit twice at the same parity (``cell_units``: bits over
    the units). Row ``i`` of ``out``: the loop's length, then its cells.
    Returns the count, or -1 when ``out`` is full. ``core``: the cells
    that may lie on a loop (``holding`` itself, or its 2-core in the peer
    graph): the walk goes on only through them, the others' extras counting
    all the same."""
    ncells = masks.shape[0]
    f_cell = np.empty(ncells + 1, dtype=np.int64)
    f_allowed = np.empty(ncells + 1, dtype=np.int64)
    f_extra = np.empty(ncells + 1, dtype=np.int64)
    f_last = np.empty(ncells + 1, dtype=np.int64)
    f_plan = np.empty(ncells + 1, dtype=np.int64)
    f_pos = np.empty(ncells + 1, dtype=np.int64)
    f_units = np.empty(ncells + 1, dtype=np.int64)  # the units the frame's cell added to its parity
    in_loop = np.zeros(ncells, dtype=np.bool_)
    met = np.zeros(2, dtype=np.int64)
    met[0] = cell_units[start]
    in_loop[start] = True
    f_cell[0] = start
    f_allowed[0] = 2
    f_extra[0] = 0
    f_last[0] = -1
    f_plan[0] = 0
    f_pos[0] = 0
    depth = 0
    count = 0
    while depth >= 0:
        cell = f_cell[depth]
        j = f_plan[depth]
        if j >= plan_len[cell]:
            # back to the parent: undo this cell
            if depth > 0:
                in_loop[cell] = False
                met[depth & 1] &= ~f_units[depth]  # the cell at place ``depth`` of the loop
            depth -= 1
            continue
        if plan_kind[cell, j] == f_last[depth]:
            f_plan[depth] = j + 1
            f_pos[depth] = 0
            continue
        unit = plan_unit[cell, j]
        i = f_pos[depth]
        ulen = unit_len[unit]
        while i < ulen and not holding[unit_cells[unit, i]]:
            i += 1  # (the unit's cells holding both values only)
        if i >= ulen:
            f_plan[depth] = j + 1
            f_pos[depth] = 0
            continue
        f_pos[depth] = i + 1
        nxt = unit_cells[unit, i]
        size = depth + 1  # cells on the loop
        if nxt == start and size >= 4:
            if count >= out.shape[0]:
                return -1
            out[count, 0] = size
            for k in range(size):
                out[count, 1 + k] = f_cell[k]
            count += 1
            continue
        if in_loop[nxt]:
            continue
        m = masks[nxt]
        f_extra[depth] |= m & ~pair
        if not core[nxt]:
            continue  # (on no loop: no closed path passes through it)
        card = pop(m)
        if card == 2 or pop(f_extra[depth]) == 1 or f_allowed[depth] > 0:
            parity = size & 1
            units = cell_units[nxt]
            if met[parity] & units:
                continue
            met[parity] |= units
            in_loop[nxt] = True
            d = depth + 1
            f_cell[d] = nxt
            f_allowed[d] = f_allowed[depth] - (1 if card > 2 else 0)
            f_extra[d] = f_extra[depth]
            f_last[d] = plan_kind[cell, j]
            f_plan[d] = 0
            f_pos[d] = 0
            f_units[d] = units
            depth = d
    return count
