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
def _rounds(mats, pattern, fixed, n_in, perm3,
            a_t, a_rows, a_stacks, a_open, a_labels, a_next,
            b_t, b_rows, b_stacks, b_open, b_labels, b_next, form_rows):
    """Nine rounds from the ``n_in`` candidates in the ``a_`` arrays. Returns the number of
    candidates left (they end in the ``a_`` arrays: the buffers are swapped in place by copying
    back when needed), or -1 on overflow. ``form_rows[d]`` gets row ``d``'s packed keys."""
    cap = a_t.shape[0]
    n_cur = n_in
    cur = 0  # 0: the a_ arrays hold the current candidates; 1: the b_ arrays
    lab = np.zeros((4, 10), np.int64)
    nx = np.zeros(4, np.int64)
    pre = np.zeros(4, np.int64)
    om = np.zeros((4, 3), np.int64)
    g_mask = np.zeros((3, 6), np.int64)
    g_new = np.zeros((3, 6), np.int64)
    g_cnt = np.zeros(3, np.int64)
    g_idx = np.zeros(3, np.int64)
    low = np.zeros(3, np.int64)
    choices = np.zeros(9, np.int64)
    stk = np.zeros(3, np.int64)
    for d in range(9):
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
                for so in range(n_so):
                    if start:
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
def _one(values, form, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
         b_t, b_rows, b_stacks, b_open, b_labels, b_next, out, transform):
    """One puzzle: its form into ``out`` (81), its transform into ``transform``; returns the
    automorphism count, or -1 on overflow."""
    mats = np.zeros((2, 9, 9), np.uint8)
    for r in range(9):
        for c in range(9):
            mats[0, r, c] = values[r * 9 + c]
            mats[1, c, r] = values[r * 9 + c]
    form_rows = np.zeros(9, np.int64)
    for t in range(2):
        a_t[t] = t
        for v in range(10):
            a_labels[t, v] = 0
        a_next[t] = 1
    if form == 1:
        n = _rounds(mats, True, False, 2, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                    b_t, b_rows, b_stacks, b_open, b_labels, b_next, form_rows)
        if n < 0:
            return -1
        for i in range(n):
            for v in range(10):
                a_labels[i, v] = 0
            a_next[i] = 1
        n = _rounds(mats, False, True, n, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                    b_t, b_rows, b_stacks, b_open, b_labels, b_next, form_rows)
    else:
        n = _rounds(mats, False, False, 2, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                    b_t, b_rows, b_stacks, b_open, b_labels, b_next, form_rows)
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
                b_t, b_rows, b_stacks, b_open, b_labels, b_next, out, transforms, counts):
    """Every puzzle (rows of 81 values, 0 = blank) to its form (``form`` 0: minlex,
    1: patminlex): ``out`` rows, ``transforms`` rows (see :data:`TRANSFORM_WIDTH`),
    ``counts`` (automorphisms, -1 for a puzzle left to the caller)."""
    for p in range(puzzles.shape[0]):
        counts[p] = _one(puzzles[p], form, perm3, a_t, a_rows, a_stacks, a_open, a_labels, a_next,
                         b_t, b_rows, b_stacks, b_open, b_labels, b_next, out[p], transforms[p])


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
    canon_batch(puzzles, int(form), PERM3, *_buffers(), out, transforms, counts)
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
