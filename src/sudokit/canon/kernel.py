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


@njit(cache=True)
def _pattern_rounds(mats, pbest, pwhich, perm3, a_t, a_rows, a_stacks, a_open,
                    b_t, b_rows, b_stacks, b_open, trips, score):
    """The rounds of the pattern alone (the first stage of patminlex), with tables: a stack's
    best is one look-up, and a row's key is 9 bits. The survivors end in the ``a_`` arrays;
    returns their number, or -1 on overflow."""
    cap = a_t.shape[0]
    low_score = 1 << 30
    for t in range(2):
        for r in range(9):
            for s in range(3):
                tr = 0
                for i in range(3):
                    tr = tr << 1
                    if mats[t, r, 3 * s + i]:
                        tr |= 1
                trips[t, r, s] = tr
            a = (trips[t, r, 0] & 1) + ((trips[t, r, 0] >> 1) & 1) + (trips[t, r, 0] >> 2)
            b = (trips[t, r, 1] & 1) + ((trips[t, r, 1] >> 1) & 1) + (trips[t, r, 1] >> 2)
            c = (trips[t, r, 2] & 1) + ((trips[t, r, 2] >> 1) & 1) + (trips[t, r, 2] >> 2)
            score[t, r] = _count_score(a, b, c)
            if score[t, r] < low_score:
                low_score = score[t, r]
    # round 0: the rows of the lowest score, stacks sorted by their count (ties in any order)
    n_cur = 0
    for t in range(2):
        for r in range(9):
            if score[t, r] != low_score:
                continue
            for so in range(6):
                ok = True
                prev = -1
                for q in range(3):
                    tr = trips[t, r, perm3[so, q]]
                    c = (tr & 1) + ((tr >> 1) & 1) + (tr >> 2)
                    if c < prev:
                        ok = False
                    prev = c
                if not ok:
                    continue
                if n_cur >= cap:
                    return -1
                a_t[n_cur] = t
                a_rows[n_cur, 0] = r
                for q in range(3):
                    a_stacks[n_cur, q] = perm3[so, q]
                    a_open[n_cur, q] = pwhich[trips[t, r, perm3[so, q]], 63]
                n_cur += 1
    cur = 0
    for d in range(1, 9):
        if cur == 0:
            c_t, c_rows, c_stacks, c_open = a_t, a_rows, a_stacks, a_open
            o_t, o_rows, o_stacks, o_open = b_t, b_rows, b_stacks, b_open
        else:
            c_t, c_rows, c_stacks, c_open = b_t, b_rows, b_stacks, b_open
            o_t, o_rows, o_stacks, o_open = a_t, a_rows, a_stacks, a_open
        best = np.int64(1) << 20
        n_out = 0
        for ci in range(n_cur):
            t = c_t[ci]
            s0, s1, s2 = c_stacks[ci, 0], c_stacks[ci, 1], c_stacks[ci, 2]
            m0, m1, m2 = c_open[ci, 0], c_open[ci, 1], c_open[ci, 2]
            if d % 3 == 0:
                used = 0
                for e in range(d):
                    used |= 1 << (c_rows[ci, e] // 3)
                lo_r, hi_r = 0, 9
            else:
                first = c_rows[ci, d - d % 3]
                used = 0
                lo_r, hi_r = (first // 3) * 3, (first // 3) * 3 + 3
            for r in range(lo_r, hi_r):
                if d % 3 == 0:
                    if (used >> (r // 3)) & 1:
                        continue
                else:
                    taken = False
                    for e in range(d - d % 3, d):
                        if c_rows[ci, e] == r:
                            taken = True
                    if taken:
                        continue
                k0 = pbest[trips[t, r, s0], m0]
                if (k0 << 6) > best:
                    continue
                k1 = pbest[trips[t, r, s1], m1]
                key = (k0 << 6) | (k1 << 3)
                if key > best:
                    continue
                key |= pbest[trips[t, r, s2], m2]
                if key > best:
                    continue
                if key < best:
                    best = key
                    n_out = 0
                if n_out >= cap:
                    return -1
                o_t[n_out] = t
                for e in range(d):
                    o_rows[n_out, e] = c_rows[ci, e]
                o_rows[n_out, d] = r
                o_stacks[n_out, 0] = s0
                o_stacks[n_out, 1] = s1
                o_stacks[n_out, 2] = s2
                o_open[n_out, 0] = pwhich[trips[t, r, s0], m0]
                o_open[n_out, 1] = pwhich[trips[t, r, s1], m1]
                o_open[n_out, 2] = pwhich[trips[t, r, s2], m2]
                n_out += 1
        n_cur = n_out
        cur = 1 - cur
    if cur == 1:
        for i in range(n_cur):
            a_t[i] = b_t[i]
            a_rows[i] = b_rows[i]
            a_stacks[i] = b_stacks[i]
            a_open[i] = b_open[i]
    return n_cur


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


@njit(cache=True)
def _direct(mats, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next, form_rows):
    """The form of the one arrangement in the first candidate (every column order fixed)."""
    t = a_t[0]
    nxt = 1
    for d in range(9):
        r = a_rows[0, d]
        row = np.int64(0)
        for q in range(3):
            m = a_open[0, q]
            k = 0
            while not (m >> k) & 1:
                k += 1
            base = a_stacks[0, q] * 3
            for i in range(3):
                v = mats[t, r, base + perm3[k, i]]
                if v and a_labels[0, v] == 0:
                    a_labels[0, v] = nxt
                    nxt += 1
                row = (row << 4) | a_labels[0, v]
        form_rows[d] = row
    a_next[0] = nxt


@njit(cache=True)
def _one(values, form, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
         b_t, b_rows, b_stacks, b_open, b_labels, b_next, out, transform, work, mats, form_rows, gwork,
         pbest, pwhich):
    """One puzzle: its form into ``out`` (81), its transform into ``transform``; returns the
    automorphism count, or -1 on overflow."""
    full = True
    for r in range(9):
        for c in range(9):
            mats[0, r, c] = values[r * 9 + c]
            mats[1, c, r] = values[r * 9 + c]
            if values[r * 9 + c] == 0:
                full = False
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
    elif form == 1:
        n = _pattern_rounds(mats, pbest, pwhich, perm3, a_t, a_rows, a_stacks, a_open,
                            b_t, b_rows, b_stacks, b_open, work[11], work[12])
        if n < 0:
            return -1
        for i in range(n):
            for v in range(10):
                a_labels[i, v] = 0
            a_next[i] = 1
        if n == 1 and _popcount6(a_open[0, 0]) == 1 and _popcount6(a_open[0, 1]) == 1 and _popcount6(
                a_open[0, 2]) == 1:
            # one arrangement makes the pattern: its digits, labelled as they come, are the form
            _direct(mats, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next, form_rows)
        else:
            n = _rounds(mats, False, True, n, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
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
    ``counts`` (automorphisms, -1 for a puzzle left to the caller)."""
    work = (np.zeros((4, 10), np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros((4, 3), np.int64),
            np.zeros((3, 6), np.int64), np.zeros((3, 6), np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64),
            np.zeros(3, np.int64), np.zeros(9, np.int64), np.zeros(3, np.int64), np.zeros((2, 9, 3), np.int64),
            np.zeros((2, 9), np.int64))
    gwork = (np.full((10, 24), -1, np.int64), np.zeros((9, 9), np.int64), np.zeros(9, np.int64),
             np.zeros(9, np.int64), np.zeros(10, np.int64), np.zeros(10, np.int64), np.zeros(9, np.int64))
    mats = np.zeros((2, 9, 9), np.uint8)
    form_rows = np.zeros(9, np.int64)
    for p in range(puzzles.shape[0]):
        counts[p] = _one(puzzles[p], form, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                         b_t, b_rows, b_stacks, b_open, b_labels, b_next, out[p], transforms[p], work, mats,
                         form_rows, gwork, pbest, pwhich)


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
