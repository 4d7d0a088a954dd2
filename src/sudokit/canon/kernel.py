"""The search of :mod:`sudokit.canon.search`, compiled by numba, for 9x9 grids in bulk.

The same rounds as the Python search, with the candidates in flat arrays
(two buffers that swap each round) and a row's keys packed into one integer:
a stack's three keys are three 4-bit nibbles, a row's three stacks 36 bits,
so comparing rows (and a row's first stacks with the best row's) is
comparing integers. A candidate holds: transposed or not, its source rows,
its stack order, per output stack a 6-bit mask of the column orders still
open, its digit labels and the next free label. A puzzle whose candidates
overflow the buffers (none of the test sets comes near) is flagged, and the
caller runs the Python search on it.

patminlex of a puzzle takes a shorter way. Its pattern's stage (:func:`_pattern`)
packs a candidate into one integer (no per-candidate arrays to copy), and
leaves a few candidates whose rows are fixed and whose column orders are the
products of their open masks: a few arrangements, as a rule (one for about
70% of rated puzzles). :func:`_digits` then labels each arrangement's givens
as they come and keeps the smallest line, an arrangement stopping at its first
given above the best; only when there are more than :data:`ARRANGEMENTS` do
the rounds narrow them row by row instead.

Only :func:`canon_batch` is called from outside (through ``search.py``'s
caller, ``forms.py``); nothing here checks its input.
"""

from __future__ import annotations

import numpy as np

from ..engine.compiling import load_numba

load_numba()
from numba import njit  # noqa: E402

#: The six orders of three things (for stacks, and columns within a stack).
PERM3 = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], dtype=np.int64)
#: Candidates a round may hold; a puzzle that needs more goes to the Python search.
CAPACITY = 1 << 16
MINLEX, PATMINLEX = 0, 1
#: Columns of a transform row: transposed, 9 source rows, 9 source columns, 9 labels.
TRANSFORM_WIDTH = 28


def _pattern_tables():
    """For a stack's three cells as a 3-bit pattern (first column the high bit) and a 6-bit mask
    of open column orders: the smallest pattern the open orders make, and the orders that make it."""
    best = np.zeros((8, 64), np.int64)
    which = np.zeros((8, 64), np.int64)
    for trip in range(8):
        bits = [(trip >> (2 - i)) & 1 for i in range(3)]
        for mask in range(1, 64):
            low = None
            for k in range(6):
                if not (mask >> k) & 1:
                    continue
                key = (bits[PERM3[k, 0]] << 2) | (bits[PERM3[k, 1]] << 1) | bits[PERM3[k, 2]]
                if low is None or key < low:
                    low, ks = key, 1 << k
                elif key == low:
                    ks |= 1 << k
            best[trip, mask] = low
            which[trip, mask] = ks
    return best, which


#: :func:`_pattern_tables`, made once.
PATTERN_BEST, PATTERN_WHICH = _pattern_tables()


def buffers(capacity: int = CAPACITY):
    """The two candidate buffers (made once per batch)."""
    def one():
        return (np.zeros(capacity, np.uint8), np.zeros((capacity, 9), np.uint8), np.zeros((capacity, 3), np.uint8),
                np.zeros((capacity, 3), np.uint8), np.zeros((capacity, 10), np.uint8), np.zeros(capacity, np.uint8))
    return one() + one()


@njit(cache=True)
def _popcount6(m):
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@njit(cache=True)
def _count_score(a, b, c):
    """A row's score from its three stacks' counts of givens: the counts sorted, fewest first,
    packed in base 4 (smaller is better)."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a * 16 + b * 4 + c


@njit(cache=True)
def _rounds(mats, pattern, fixed, n_in, perm3,
            a_t, a_rows, a_stacks, a_open, a_labels, a_next,
            b_t, b_rows, b_stacks, b_open, b_labels, b_next, form_rows, first, work):
    """Nine rounds from the ``n_in`` candidates in the ``a_`` arrays. Returns the number of
    candidates left (they end in the ``a_`` arrays: the buffers are swapped in place by copying
    back when needed), or -1 on overflow. ``form_rows[d]`` gets row ``d``'s packed keys."""
    cap = a_t.shape[0]
    n_cur = n_in
    cur = 0  # 0: the a_ arrays hold the current candidates; 1: the b_ arrays
    lab, nx, pre, om, g_mask, g_new, g_cnt, g_idx, low, choices, stk, cnt, score = work
    # the first row: every given is a new label, so a row's best is its givens pushed right,
    # stacks by their count of givens (fewest first); only the rows whose sorted counts are
    # smallest, in the stack orders that sort them, can win
    low_score = 1 << 30
    if first == 0 and not fixed:
        for t in range(2):
            for r in range(9):
                for s in range(3):
                    cnt[t, r, s] = 0
                    for i in range(3):
                        if mats[t, r, s * 3 + i]:
                            cnt[t, r, s] += 1
                score[t, r] = _count_score(cnt[t, r, 0], cnt[t, r, 1], cnt[t, r, 2])
                if score[t, r] < low_score:
                    low_score = score[t, r]
    for d in range(first, 9):
        if cur == 0:
            c_t, c_rows, c_stacks, c_open, c_labels, c_next = a_t, a_rows, a_stacks, a_open, a_labels, a_next
            o_t, o_rows, o_stacks, o_open, o_labels, o_next = b_t, b_rows, b_stacks, b_open, b_labels, b_next
        else:
            c_t, c_rows, c_stacks, c_open, c_labels, c_next = b_t, b_rows, b_stacks, b_open, b_labels, b_next
            o_t, o_rows, o_stacks, o_open, o_labels, o_next = a_t, a_rows, a_stacks, a_open, a_labels, a_next
        has_best = False
        best = np.int64(0)
        n_out = 0
        for ci in range(n_cur):
            t = c_t[ci]
            # the rows this candidate may take next
            n_ch = 0
            if fixed:
                choices[0] = c_rows[ci, d]
                n_ch = 1
            elif d % 3 == 0:
                used = 0
                for e in range(d):
                    used |= 1 << (c_rows[ci, e] // 3)
                for r in range(9):
                    if not (used >> (r // 3)) & 1:
                        choices[n_ch] = r
                        n_ch += 1
            else:
                first = c_rows[ci, d - d % 3]
                band = first // 3
                for r in range(band * 3, band * 3 + 3):
                    taken = False
                    for e in range(d - d % 3, d):
                        if c_rows[ci, e] == r:
                            taken = True
                    if not taken:
                        choices[n_ch] = r
                        n_ch += 1
            start = d == 0 and not fixed
            n_so = 6 if start else 1
            for chi in range(n_ch):
                r = choices[chi]
                if start and score[t, r] != low_score:
                    continue
                for so in range(n_so):
                    if start:
                        if not (cnt[t, r, perm3[so, 0]] <= cnt[t, r, perm3[so, 1]] <= cnt[t, r, perm3[so, 2]]):
                            continue
                        for s in range(3):
                            stk[s] = perm3[so, s]
                            om[0, s] = 63
                    else:
                        for s in range(3):
                            stk[s] = c_stacks[ci, s]
                            om[0, s] = c_open[ci, s]
                    for v in range(10):
                        lab[0, v] = c_labels[ci, v]
                    nx[0] = c_next[ci]
                    pre[0] = 0
                    # depth-first over the stacks, splitting on labellings that tie
                    s = 0
                    fresh = True
                    while True:
                        if fresh:
                            # the branches of stack position s
                            base = stk[s] * 3
                            m = om[s, s]
                            lo = np.int64(1) << 40
                            g_cnt[s] = 0
                            for k in range(6):
                                if not (m >> k) & 1:
                                    continue
                                key = np.int64(0)
                                newc = np.int64(0)
                                nn = 0
                                for i in range(3):
                                    v = mats[t, r, base + perm3[k, i]]
                                    if pattern:
                                        kv = 1 if v else 0
                                    elif v == 0:
                                        kv = 0
                                    elif lab[s, v]:
                                        kv = lab[s, v]
                                    else:
                                        kv = nx[s] + nn
                                        newc |= np.int64(v) << (4 * nn)
                                        nn += 1
                                    key = (key << 4) | kv
                                newc |= np.int64(nn) << 12
                                if key < lo:
                                    lo = key
                                    g_cnt[s] = 1
                                    g_mask[s, 0] = 1 << k
                                    g_new[s, 0] = newc
                                elif key == lo:
                                    found = False
                                    for g in range(g_cnt[s]):
                                        if g_new[s, g] == newc:
                                            g_mask[s, g] |= 1 << k
                                            found = True
                                    if not found:
                                        g_mask[s, g_cnt[s]] = 1 << k
                                        g_new[s, g_cnt[s]] = newc
                                        g_cnt[s] += 1
                            low[s] = lo
                            g_idx[s] = 0
                            fresh = False
                        if g_idx[s] >= g_cnt[s]:
                            s -= 1
                            if s < 0:
                                break
                            continue
                        g = g_idx[s]
                        g_idx[s] += 1
                        newpre = (pre[s] << 12) | low[s]
                        if has_best:
                            head = best >> (12 * (2 - s))
                            if newpre > head:
                                g_idx[s] = g_cnt[s]  # every branch here has the same keys
                                continue
                            if newpre < head:
                                has_best = False
                                n_out = 0
                        for v in range(10):
                            lab[s + 1, v] = lab[s, v]
                        newc = g_new[s, g]
                        nn = newc >> 12
                        for i in range(nn):
                            lab[s + 1, (newc >> (4 * i)) & 15] = nx[s] + i
                        nx[s + 1] = nx[s] + nn
                        for q in range(3):
                            om[s + 1, q] = om[s, q]
                        om[s + 1, s] = g_mask[s, g]
                        pre[s + 1] = newpre
                        if s == 2:
                            if not has_best:
                                has_best = True
                                best = newpre
                            if n_out >= cap:
                                return -1
                            o_t[n_out] = t
                            for e in range(9):
                                o_rows[n_out, e] = c_rows[ci, e]
                            o_rows[n_out, d] = r
                            for q in range(3):
                                o_stacks[n_out, q] = stk[q]
                                o_open[n_out, q] = om[3, q]
                            for v in range(10):
                                o_labels[n_out, v] = lab[3, v]
                            o_next[n_out] = nx[3]
                            n_out += 1
                        else:
                            s += 1
                            fresh = True
        form_rows[d] = best
        n_cur = n_out
        cur = 1 - cur
    if cur == 1:  # the survivors are in the b_ arrays: copy them to the a_ arrays
        for i in range(n_cur):
            a_t[i] = b_t[i]
            a_rows[i] = b_rows[i]
            a_stacks[i] = b_stacks[i]
            a_open[i] = b_open[i]
            a_labels[i] = b_labels[i]
            a_next[i] = b_next[i]
    return n_cur


#: Where a packed pattern candidate keeps its parts (:func:`_pattern`): 4 bits per source row
#: (output row d at bits 4d), 2 bits per stack, 6 bits per open mask, then the transposition.
_ROWS, _STACKS, _OPEN, _TBIT = 0, 36, 42, 60


@njit(cache=True)
def _pattern(values, cand, trips, pbest, pwhich, perm3):
    """The rounds of the pattern alone (the first stage of patminlex), with tables: a stack's
    best is one look-up, and a row's key is 9 bits. A candidate is one integer (see
    :data:`_ROWS`): its transposition, its source rows, its stack order and per output stack
    the 6-bit mask of the column orders still open; ``cand`` is two rows of them that take
    turns. Returns (survivors, the row of ``cand`` that holds them), or (-1, 0) on overflow.

    ``trips`` gets, per orientation, row and stack, the stack's three cells as a 3-bit
    pattern (first column the high bit)."""
    cap = cand.shape[1]
    for r in range(9):
        for s in range(3):
            trips[r * 3 + s] = ((4 if values[r * 9 + 3 * s] else 0) | (2 if values[r * 9 + 3 * s + 1] else 0)
                                | (1 if values[r * 9 + 3 * s + 2] else 0))
            trips[27 + r * 3 + s] = ((4 if values[27 * s + r] else 0) | (2 if values[27 * s + 9 + r] else 0)
                                     | (1 if values[27 * s + 18 + r] else 0))
    # round 0: every given of the first row is new, so a row's best is its givens pushed right,
    # stacks by their count of givens (fewest first): only the rows whose sorted counts are
    # smallest, in the stack orders that sort them, can win
    n = 0
    low_score = 1 << 30
    for t in range(2):
        for r in range(9):
            x, y, z = trips[t * 27 + r * 3], trips[t * 27 + r * 3 + 1], trips[t * 27 + r * 3 + 2]
            ca = (x & 1) + ((x >> 1) & 1) + (x >> 2)
            cb = (y & 1) + ((y >> 1) & 1) + (y >> 2)
            cc = (z & 1) + ((z >> 1) & 1) + (z >> 2)
            sc = _count_score(ca, cb, cc)
            if sc > low_score:
                continue
            if sc < low_score:
                low_score = sc
                n = 0
            for so in range(6):
                s0, s1, s2 = perm3[so, 0], perm3[so, 1], perm3[so, 2]
                c0 = ca if s0 == 0 else (cb if s0 == 1 else cc)
                c1 = ca if s1 == 0 else (cb if s1 == 1 else cc)
                c2 = ca if s2 == 0 else (cb if s2 == 1 else cc)
                if c0 > c1 or c1 > c2:
                    continue
                if n >= cap:
                    return -1, 0
                m0 = pwhich[trips[t * 27 + r * 3 + s0], 63]
                m1 = pwhich[trips[t * 27 + r * 3 + s1], 63]
                m2 = pwhich[trips[t * 27 + r * 3 + s2], 63]
                cand[0, n] = ((np.int64(t) << _TBIT) | np.int64(r) | (np.int64(s0 | (s1 << 2) | (s2 << 4)) << _STACKS)
                              | (np.int64(m0 | (m1 << 6) | (m2 << 12)) << _OPEN))
                n += 1
    side = 0
    for d in range(1, 9):
        best = np.int64(1) << 20
        n_out = 0
        other = 1 - side
        for ci in range(n):
            c = cand[side, ci]
            base = (c >> _TBIT) * 27
            st = c >> _STACKS
            s0, s1, s2 = st & 3, (st >> 2) & 3, (st >> 4) & 3
            op = c >> _OPEN
            m0, m1, m2 = op & 63, (op >> 6) & 63, (op >> 12) & 63
            if d % 3 == 0:  # a band's first row: any row of a band not used yet
                used = 0
                for e in range(0, d, 3):
                    used |= 1 << (((c >> (4 * e)) & 15) // 3)
                lo_r, hi_r = 0, 9
                taken = 0
            else:  # the other rows of the band
                r0 = (c >> (4 * (d - d % 3))) & 15
                used = 0
                lo_r = (r0 // 3) * 3
                hi_r = lo_r + 3
                taken = 1 << r0
                if d % 3 == 2:
                    taken |= 1 << ((c >> (4 * (d - 1))) & 15)
            for r in range(lo_r, hi_r):
                if (used >> (r // 3)) & 1 or (taken >> r) & 1:
                    continue
                at = base + r * 3
                key = pbest[trips[at + s0], m0] << 6
                if key > best:
                    continue
                key |= pbest[trips[at + s1], m1] << 3
                if key > best:
                    continue
                key |= pbest[trips[at + s2], m2]
                if key > best:
                    continue
                if key < best:
                    best = key
                    n_out = 0
                if n_out >= cap:
                    return -1, 0
                w = pwhich[trips[at + s0], m0] | (pwhich[trips[at + s1], m1] << 6) | (pwhich[trips[at + s2], m2] << 12)
                cand[other, n_out] = (c & ~(np.int64(0x3FFFF) << _OPEN)) | (np.int64(r) << (4 * d)) | (np.int64(w) << _OPEN)
                n_out += 1
        n = n_out
        side = other
    return n, side


@njit(cache=True)
def _arrangements(cand, side, n):
    """How many arrangements the pattern's ``n`` candidates leave (each the product of its open masks)."""
    total = 0
    for i in range(n):
        op = cand[side, i] >> _OPEN
        total += _popcount6(op & 63) * _popcount6((op >> 6) & 63) * _popcount6((op >> 12) & 63)
    return total


@njit(cache=True)
def _unpack(cand, side, n, a_t, a_rows, a_stacks, a_open, a_labels, a_next):
    """The pattern's candidates into the arrays of :func:`_rounds`, their digits not labelled yet."""
    for i in range(n):
        c = cand[side, i]
        a_t[i] = c >> _TBIT
        for d in range(9):
            a_rows[i, d] = (c >> (4 * d)) & 15
        for q in range(3):
            a_stacks[i, q] = (c >> (_STACKS + 2 * q)) & 3
            a_open[i, q] = (c >> (_OPEN + 6 * q)) & 63
        for v in range(10):
            a_labels[i, v] = 0
        a_next[i] = 1


@njit(cache=True)
def _digits(values, cand, side, n, perm3, out, transform, rows, cols, lab, at, cur, best):
    """The digits' stage of patminlex over every arrangement the pattern's ``n`` candidates
    leave (each candidate's rows fixed, its column orders the product of its open masks):
    each arrangement labels its digits as they come, and the smallest line wins. The givens
    sit in the same cells in all of them (the minimal pattern's), so only they are compared,
    and an arrangement stops at its first given above the best. The form goes into ``out``,
    the first smallest arrangement into ``transform``; returns how many arrangements make it
    (the automorphism count).

    A cell of the arrangement is ``values[rows[d] + cols[j]]``: the source row times 9 and
    the source column (the other way round when transposed). ``at`` gets each given's
    output row and column (0..80, then 81..161)."""
    givens = 0
    count = 0
    for i in range(n):
        c = cand[side, i]
        t = c >> _TBIT
        st = c >> _STACKS
        op = c >> _OPEN
        row_step = 1 if t else 9
        col_step = 9 if t else 1
        for d in range(9):
            rows[d] = ((c >> (4 * d)) & 15) * row_step
        for k0 in range(6):
            if not ((op & 63) >> k0) & 1:
                continue
            for k1 in range(6):
                if not (((op >> 6) & 63) >> k1) & 1:
                    continue
                for k2 in range(6):
                    if not (((op >> 12) & 63) >> k2) & 1:
                        continue
                    for j in range(3):
                        cols[j] = ((st & 3) * 3 + perm3[k0, j]) * col_step
                        cols[3 + j] = (((st >> 2) & 3) * 3 + perm3[k1, j]) * col_step
                        cols[6 + j] = (((st >> 4) & 3) * 3 + perm3[k2, j]) * col_step
                    for v in range(10):
                        lab[v] = 0
                    nxt = 1
                    below = givens == 0
                    if below:  # the first arrangement: where the givens are
                        for d in range(9):
                            for j in range(9):
                                if values[rows[d] + cols[j]]:
                                    at[givens] = d
                                    at[81 + givens] = j
                                    givens += 1
                    worse = False
                    for k in range(givens):
                        v = values[rows[at[k]] + cols[at[81 + k]]]
                        x = lab[v]
                        if x == 0:
                            x = lab[v] = nxt
                            nxt += 1
                        cur[k] = x
                        if not below:
                            if x > best[k]:
                                worse = True
                                break
                            if x < best[k]:
                                below = True
                    if worse:
                        continue
                    if not below:
                        count += 1
                        continue
                    for k in range(givens):  # a new best
                        best[k] = cur[k]
                    count = 1
                    transform[0] = t
                    for d in range(9):
                        transform[1 + d] = (c >> (4 * d)) & 15
                    for j in range(9):
                        transform[10 + j] = cols[j] // col_step
                    for v in range(1, 10):
                        if lab[v] == 0:
                            lab[v] = nxt
                            nxt += 1
                        transform[18 + v] = lab[v]
    for q in range(81):
        out[q] = 0
    for k in range(givens):
        out[at[k] * 9 + at[81 + k]] = best[k]
    return count


@njit(cache=True)
def _box_set(mats, t, r, s):
    m = 0
    for i in range(3):
        m |= 1 << mats[t, r, 3 * s + i]
    return m


@njit(cache=True)
def _pure_band(mats, t, band):
    """Whether the band's second row holds, box by box, the digits of one box of its first
    row (then so does its third): the only bands whose second row can start 456."""
    first = _box_set(mats, t, band * 3, 0)
    return first == _box_set(mats, t, band * 3 + 1, 1) or first == _box_set(mats, t, band * 3 + 1, 2)


#: Bounds on a grid's second row: every grid with a pure band (see :func:`_pure_band`) has a
#: minimal second row 456789abc, every other one starts 457 and, in every grid met so far, 457189;
#: 9s are the loosest digits a bound may end with (a row of distinct digits never reaches them).
PURE_BOUND = 0x456789999
PURE_FIRST_BOUND = 0x456789199
MIXED_BOUND = 0x457189999


@njit(cache=True)
def _grid_start(mats, perm3, o_t, o_rows, o_stacks, o_open, o_labels, o_next, form_rows, gwork, bound, pure_only):
    """The first two rows of a solution grid, whose first row is always 123456789: for each
    first row and second row of its band, the column order that makes the second row smallest.

    With the labels fixed by the positions of the first row, the second row's value at output
    column j is 1 + the output position of pi(column j), where pi(c) is the column of the
    first row holding the second row's digit at c. Column by column: where pi(c) is not placed
    yet, the smallest value puts it in the first free slot it may take (its stack's block, or the
    first block without a stack), and nothing else reaches that value, so only the choice of
    the column itself branches. The candidates that tie go on to the rounds from row 3.

    ``bound`` (0 for none) is a second row no larger than the minimum, known beforehand: the
    search prunes against it from the first node instead of against the first pair's row, and
    finds nothing (returns 0) when the minimum is larger. With ``pure_only`` only the bands
    whose rows hold the same three digit sets per box are tried (see :func:`_grid_bound`)."""
    cap = o_t.shape[0]
    # the first column's image takes slot 3 (value 4), and that column's image the value of row
    # 2's fourth cell: 1 only when it is the first column itself. In a grid without a pure band
    # (row 2 then starts 457), a bound below 4572 so leaves only the columns in a 2-cycle of pi.
    two_cycle = bound != 0 and not pure_only and (bound >> 20) < 0x4572
    # with a pure band, row 2 starts 456789 and the first column's image's image's image gives
    # the seventh cell: 1 only when it is the first column itself (a 3-cycle of pi)
    three_cycle = pure_only and (bound >> 8) < 0x4567892
    # every bound starts 45: the second column's image must join the first one's stack
    bounded = bound != 0
    has_best = bound != 0
    best = np.int64(bound)
    n_out = 0
    # per level: slot_col[9], col_slot[9], block_stack[3], stack_block[3]
    st, ch, nch, idx, pre, where1, pi = gwork
    for t in range(2):
        for r1 in range(9):
            for v in range(9):
                where1[mats[t, r1, v]] = v
            band = r1 // 3
            if pure_only and not _pure_band(mats, t, band):
                continue
            for r2 in range(band * 3, band * 3 + 3):
                if r2 == r1:
                    continue
                for c in range(9):
                    pi[c] = where1[mats[t, r2, c]]
                for q in range(24):
                    st[0, q] = -1
                pre[0] = 0
                j = 0
                fresh = True
                while True:
                    if fresh:
                        nch[j] = 0
                        if st[j, j] >= 0:
                            ch[j, 0] = st[j, j]
                            nch[j] = 1
                        else:
                            blk = j // 3
                            s_in = st[j, 18 + blk]
                            for c in range(9):
                                if st[j, 9 + c] >= 0:
                                    continue
                                if j == 0 and two_cycle and pi[pi[c]] != c:
                                    continue
                                if j == 0 and three_cycle and pi[pi[pi[c]]] != c:
                                    continue
                                if j == 1 and bounded and pi[c] // 3 != pi[st[1, 0]] // 3:
                                    continue  # its image would not take slot 5 (value 5)
                                if s_in >= 0:
                                    if c // 3 == s_in:
                                        ch[j, nch[j]] = c
                                        nch[j] += 1
                                elif st[j, 21 + c // 3] < 0:
                                    ch[j, nch[j]] = c
                                    nch[j] += 1
                        idx[j] = 0
                        fresh = False
                    if idx[j] >= nch[j]:
                        j -= 1
                        if j < 0:
                            break
                        continue
                    col = ch[j, idx[j]]
                    idx[j] += 1
                    for q in range(24):
                        st[j + 1, q] = st[j, q]
                    if st[j + 1, j] < 0:  # place the chosen column at slot j
                        st[j + 1, j] = col
                        st[j + 1, 9 + col] = j
                        blk = j // 3
                        if st[j + 1, 18 + blk] < 0:
                            st[j + 1, 18 + blk] = col // 3
                            st[j + 1, 21 + col // 3] = blk
                    img = pi[col]
                    slot = st[j + 1, 9 + img]
                    if slot < 0:  # place the image as early as it may go
                        blk = st[j + 1, 21 + img // 3]
                        if blk < 0:
                            blk = 0
                            while st[j + 1, 18 + blk] >= 0:
                                blk += 1
                            st[j + 1, 18 + blk] = img // 3
                            st[j + 1, 21 + img // 3] = blk
                        slot = blk * 3
                        while st[j + 1, slot] >= 0:
                            slot += 1
                        st[j + 1, slot] = img
                        st[j + 1, 9 + img] = slot
                    key = (pre[j] << 4) | (slot + 1)
                    if has_best:
                        head = best >> (4 * (8 - j))
                        if key > head:
                            continue
                        if key < head:
                            has_best = False
                            n_out = 0
                    pre[j + 1] = key
                    if j == 8:
                        if not has_best:
                            has_best = True
                            best = key
                        if n_out >= cap:
                            return -1
                        o_t[n_out] = t
                        o_rows[n_out, 0] = r1
                        o_rows[n_out, 1] = r2
                        for blk in range(3):
                            s_in = st[9, 18 + blk]
                            o_stacks[n_out, blk] = s_in
                            for k in range(6):
                                if (perm3[k, 0] == st[9, blk * 3] - s_in * 3
                                        and perm3[k, 1] == st[9, blk * 3 + 1] - s_in * 3):
                                    o_open[n_out, blk] = 1 << k
                        o_labels[n_out, 0] = 0
                        for q in range(9):
                            o_labels[n_out, mats[t, r1, st[9, q]]] = q + 1
                        o_next[n_out] = 10
                        n_out += 1
                    else:
                        j += 1
                        fresh = True
    form_rows[0] = 0x123456789
    form_rows[1] = best
    return n_out


#: The most arrangements of the minimal pattern that :func:`_digits` tries one by one; beyond,
#: the rounds (:func:`_rounds`) prune them row by row.
ARRANGEMENTS = 128


@njit(cache=True)
def _one(values, form, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
         b_t, b_rows, b_stacks, b_open, b_labels, b_next, out, transform, work, mats, form_rows, gwork, ready):
    """One puzzle: its form into ``out`` (81), its transform into ``transform``; returns the
    automorphism count, or -1 on overflow. For patminlex, the ``ready`` candidates of the
    pattern's stage are in the ``a_`` arrays already (:func:`_unpack`)."""
    full = True
    for r in range(9):
        for c in range(9):
            mats[0, r, c] = values[r * 9 + c]
            mats[1, c, r] = values[r * 9 + c]
            if values[r * 9 + c] == 0:
                full = False
    if not ready:  # the two orientations, nothing labelled yet
        for t in range(2):
            a_t[t] = t
            for v in range(10):
                a_labels[t, v] = 0
            a_next[t] = 1
    if full:  # a solution grid (both forms agree): the first two rows by their own search
        pure = False
        for t in range(2):
            for band in range(3):
                if _pure_band(mats, t, band):
                    pure = True
        n = 0
        if pure:  # most grids with a pure band have the second row 4567891..
            n = _grid_start(mats, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next, form_rows, gwork,
                            PURE_FIRST_BOUND, True)
        if n == 0:
            n = _grid_start(mats, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next, form_rows, gwork,
                            PURE_BOUND if pure else MIXED_BOUND, pure)
        if n == 0:  # the bound was too tight (never seen): the search without it
            n = _grid_start(mats, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next, form_rows, gwork,
                            0, False)
        if n < 0:
            return -1
        n = _rounds(mats, False, False, n, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                    b_t, b_rows, b_stacks, b_open, b_labels, b_next, form_rows, 2, work)
    elif form == 1:  # many arrangements of the minimal pattern: the rounds narrow them row by row
        n = _rounds(mats, False, True, ready, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                    b_t, b_rows, b_stacks, b_open, b_labels, b_next, form_rows, 0, work)
    else:
        n = _rounds(mats, False, False, 2, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                    b_t, b_rows, b_stacks, b_open, b_labels, b_next, form_rows, 0, work)
    if n < 0:
        return -1
    for d in range(9):
        row = form_rows[d]
        for j in range(9):
            out[d * 9 + j] = (row >> (4 * (8 - j))) & 15
    count = 0
    for i in range(n):
        count += _popcount6(a_open[i, 0]) * _popcount6(a_open[i, 1]) * _popcount6(a_open[i, 2])
    # the first survivor's transform: its rows, its columns (first open order), its labels
    transform[0] = a_t[0]
    for d in range(9):
        transform[1 + d] = a_rows[0, d]
    for s in range(3):
        m = a_open[0, s]
        k = 0
        while not (m >> k) & 1:
            k += 1
        for i in range(3):
            transform[10 + s * 3 + i] = a_stacks[0, s] * 3 + perm3[k, i]
    nxt = a_next[0]
    for v in range(1, 10):
        lab = a_labels[0, v]
        if lab == 0:
            lab = nxt
            nxt += 1
        transform[18 + v] = lab
    return count


@njit(cache=True)
def canon_batch(puzzles, form, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                b_t, b_rows, b_stacks, b_open, b_labels, b_next, out, transforms, counts, pbest, pwhich):
    """Every puzzle (rows of 81 values, 0 = blank) to its form (``form`` 0: minlex,
    1: patminlex): ``out`` rows, ``transforms`` rows (see :data:`TRANSFORM_WIDTH`),
    ``counts`` (automorphisms, -1 for a puzzle left to the caller).

    A puzzle's patminlex: the pattern's stage (:func:`_pattern`), then its arrangements one
    by one (:func:`_digits`), or the rounds (:func:`_rounds`) when they are many. A solution
    grid (no blank) has one form, found by :func:`_one`'s own search."""
    work = (np.zeros((4, 10), np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros((4, 3), np.int64),
            np.zeros((3, 6), np.int64), np.zeros((3, 6), np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64),
            np.zeros(3, np.int64), np.zeros(9, np.int64), np.zeros(3, np.int64), np.zeros((2, 9, 3), np.int64),
            np.zeros((2, 9), np.int64))
    gwork = (np.full((10, 24), -1, np.int64), np.zeros((9, 9), np.int64), np.zeros(9, np.int64),
             np.zeros(9, np.int64), np.zeros(10, np.int64), np.zeros(10, np.int64), np.zeros(9, np.int64))
    mats = np.zeros((2, 9, 9), np.uint8)
    form_rows = np.zeros(9, np.int64)
    cand = np.zeros((2, a_t.shape[0]), np.int64)
    trips = np.zeros(54, np.int64)
    rows, cols, lab = np.zeros(9, np.int64), np.zeros(9, np.int64), np.zeros(10, np.int64)
    at, cur, best = np.zeros(162, np.int64), np.zeros(81, np.int64), np.zeros(81, np.int64)
    for p in range(puzzles.shape[0]):
        values = puzzles[p]
        ready = 0
        if form == 1:
            blank = False
            for c in range(81):
                if values[c] == 0:
                    blank = True
                    break
            if blank:
                n, side = _pattern(values, cand, trips, pbest, pwhich, perm3)
                if n < 0:
                    counts[p] = -1
                    continue
                if _arrangements(cand, side, n) <= ARRANGEMENTS:
                    counts[p] = _digits(values, cand, side, n, perm3, out[p], transforms[p], rows, cols, lab, at,
                                        cur, best)
                    continue
                _unpack(cand, side, n, a_t, a_rows, a_stacks, a_open, a_labels, a_next)
                ready = n
        counts[p] = _one(values, form, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                         b_t, b_rows, b_stacks, b_open, b_labels, b_next, out[p], transforms[p], work, mats,
                         form_rows, gwork, ready)


def canonicalise(puzzles: np.ndarray, form: int):
    """Plain-Python face of :func:`canon_batch`: (forms, transforms, counts) for an array of
    9x9 puzzles (P x 81, uint8, 0 = blank)."""
    puzzles = np.ascontiguousarray(puzzles, dtype=np.uint8).reshape(-1, 81)
    if puzzles.size and int(puzzles.max()) > 9:
        raise ValueError("9x9 values are 0..9")
    p = puzzles.shape[0]
    out = np.zeros((p, 81), np.uint8)
    transforms = np.zeros((p, TRANSFORM_WIDTH), np.int64)
    counts = np.zeros(p, np.int64)
    canon_batch(puzzles, int(form), PERM3, *_buffers(), out, transforms, counts, PATTERN_BEST, PATTERN_WHICH)
    return out, transforms, counts


_BUF: list = []


def _buffers():
    if not _BUF:
        _BUF.extend(buffers())
    return _BUF


def warm() -> None:
    """Compile (or load) the kernel: one blank puzzle in each form."""
    blank = np.zeros((1, 81), np.uint8)
    canonicalise(blank, MINLEX)
    canonicalise(blank, PATMINLEX)
