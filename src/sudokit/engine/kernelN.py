"""The general kernel: any box shape up to 64x64, one 64-bit candidate mask per cell.

Contract (stable; the generator imports :func:`count_n` from its own njit code)::

    count_n(grid: uint8[N*N], box_rows: int64, box_cols: int64, limit: int64,
            node_limit: int64, solution_out: uint8[N*N], stats: int64[2]) -> int64

``grid`` holds 0 for a blank and 1..N for a given (N = box_rows*box_cols); it
is not modified. The result is the number of solutions found, stopping at
``limit`` (``limit <= 0``: count them all), or -1 when ``node_limit`` (> 0;
0 means no limit) search nodes were used first. ``solution_out`` receives the
first solution found. ``stats[0]`` is increased by the nodes expanded (one per
board propagated) and ``stats[1]`` by the guesses (branch points: cells with
two or more candidates where the search had to choose). :func:`count_more_n`
counts in slices of nodes that resume where the last one stopped.

Representation and search
-------------------------
Bit ``v-1`` of ``masks[cell]`` says that value ``v`` is still possible there.
A cell whose mask has one bit is *assigned* once that bit has been removed
from all its peers; assignment is queue driven: every cell that becomes single
is queued and, when taken from the queue, eliminates its value from its peers
(naked singles). When the queue runs dry each unit is scanned with two
running masks, *seen once* and *seen twice*; a value seen once is a hidden
single, a value never seen is a contradiction. The loop stops when neither
rule fires. This is the one singles propagation of the masks
(:func:`propagate_n`): the search, :func:`deduce_n` and :func:`find_other` use
it, and :func:`singles_n` gives its verdict (COMPLETE, STUCK, CONTRADICTION)
for the generator's ``logic`` rule.

Locked candidates (:func:`_locked_pass`, for :func:`deduce_n` and, on big
grids, :func:`find_other`) are bit-parallel over the values: the union of the
candidates of each row inside each box (a *segment*) tells at once which
values of a box lie in one row (pointing) and which values of a row lie in
one box (claiming). Columns are the same pass with the strides swapped.

The search is a depth-first walk with an explicit stack instead of
recursion: level ``d`` of the stack keeps the propagated board where the
``d``-th choice was made, the cell chosen (the open cell with the fewest
candidates) and the candidates not tried yet. Backtracking copies the stored
board back and tries the next candidate. Because the whole state lives in
arrays, :func:`search_n` can stop after a solution or a slice of nodes and
resume later; that makes lazy enumeration and time limits possible.

The generator (:mod:`sudokit.engine.generate`) takes the same propagation
for its ``logic`` rule, its preemptive sets and its random fill::

    units, peers = geometry(box_rows, box_cols)      # once per shape
    load_n(grid, n, masks, assigned)                 # masks uint64[N*N], assigned uint8[N*N]
    verdict = singles_n(masks, assigned, units, peers, queue)   # queue int64[N*N]

and ``propagate_n(masks, assigned, units, peers, queue)`` is the same
propagation inside a search (False: contradiction; a cell's value is
``tz(masks[c]) + 1`` once ``assigned[c]``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .board import pop, tz
from .compiling import load_numba

load_numba()  # before the first kernel loads: numba without its BLAS probe

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

#: Verdicts of :func:`singles_n` (the same values as the generator's).
STUCK = 0
COMPLETE = 1
CONTRADICTION = -1

# search modes kept in state[1]
PROPAGATE = 0
BACKTRACK = 1
DONE = 2


@njit(cache=True)
def geometry(box_rows: np.int64, box_cols: np.int64):
    """(units[3N, N], peers[N*N, P]) cell tables for a shape."""
    n = box_rows * box_cols
    units = np.empty((3 * n, n), dtype=np.int32)
    for r in range(n):
        for c in range(n):
            units[r, c] = r * n + c
            units[n + c, r] = r * n + c
            box = (r // box_rows) * box_rows + c // box_cols
            pos = (r % box_rows) * box_cols + c % box_cols
            units[2 * n + box, pos] = r * n + c
    npeers = 2 * (n - 1) + (box_rows - 1) * (box_cols - 1)
    peers = np.empty((n * n, npeers), dtype=np.int32)
    for cell in range(n * n):
        r = cell // n
        c = cell % n
        k = 0
        for i in range(n):
            if i != c:
                peers[cell, k] = r * n + i
                k += 1
            if i != r:
                peers[cell, k] = i * n + c
                k += 1
        r0 = (r // box_rows) * box_rows
        c0 = (c // box_cols) * box_cols
        for rr in range(r0, r0 + box_rows):
            for cc in range(c0, c0 + box_cols):
                if rr != r and cc != c:
                    peers[cell, k] = rr * n + cc
                    k += 1
    return units, peers


@njit(cache=True)
def propagate_n(masks, assigned, units, peers, queue):
    """Naked and hidden singles to a fixpoint: the one singles propagation
    of the N×N masks, for the search, :func:`deduce_n` and :func:`find_other`.
    False on a contradiction. ``masks`` and ``assigned`` change in place;
    ``queue`` is scratch (N*N int64)."""
    nn = masks.shape[0]
    n = units.shape[1]
    full = ALL >> np.uint64(64 - n)
    qlen = 0
    for c in range(nn):
        m = masks[c]
        if m == ZERO:
            return False
        if assigned[c] == 0 and (m & (m - ONE)) == ZERO:
            assigned[c] = 1
            queue[qlen] = c
            qlen += 1
    qhead = 0
    npeers = peers.shape[1]
    while True:
        while qhead < qlen:
            c = queue[qhead]
            qhead += 1
            m = masks[c]
            for k in range(npeers):
                p = peers[c, k]
                pm = masks[p]
                if pm & m:
                    pm &= ~m
                    if pm == ZERO:
                        return False
                    masks[p] = pm
                    if assigned[p] == 0 and (pm & (pm - ONE)) == ZERO:
                        assigned[p] = 1
                        queue[qlen] = p
                        qlen += 1
        # hidden singles
        for u in range(units.shape[0]):
            once = ZERO
            twice = ZERO
            for i in range(n):
                m = masks[units[u, i]]
                twice |= once & m
                once |= m
            if once != full:
                return False
            exact = once & ~twice
            if exact:
                for i in range(n):
                    c = units[u, i]
                    if assigned[c] == 0:
                        b = masks[c] & exact
                        if b:
                            if b & (b - ONE):
                                return False
                            masks[c] = b
                            assigned[c] = 1
                            queue[qlen] = c
                            qlen += 1
        if qhead == qlen:
            return True


@njit(cache=True)
def singles_n(masks, assigned, units, peers, queue):
    """The singles verdict of candidate masks: :func:`propagate_n`, then
    COMPLETE (every cell assigned), STUCK or CONTRADICTION. For the generator:
    ``masks`` (uint64[N*N]) from a grid by :func:`load_n`, ``assigned``
    (uint8[N*N]) zero, ``units``/``peers`` from :func:`geometry` (or any
    integer arrays of the same layout), ``queue`` int64[N*N] scratch."""
    if not propagate_n(masks, assigned, units, peers, queue):
        return CONTRADICTION
    for c in range(masks.shape[0]):
        if assigned[c] == 0:
            return STUCK
    return COMPLETE


@njit(cache=True)
def load_n(grid, n, masks, assigned):
    """The masks of ``grid`` (uint8[N*N], 0 blank) before any deduction: a
    given is its value's bit, a blank every value. ``assigned`` is cleared."""
    full = ALL >> np.uint64(64 - n)
    for c in range(grid.shape[0]):
        v = grid[c]
        masks[c] = (ONE << np.uint64(v - 1)) if v else full
        assigned[c] = 0


@njit(cache=True)
def pick_cell(masks, assigned, nn):
    """The open cell with the fewest candidates, or -1 when all are assigned."""
    best = -1
    best_count = 65
    for c in range(nn):
        if assigned[c] == 0:
            k = pop(masks[c])
            if k < best_count:
                best = c
                best_count = k
                if k == 2:
                    break
    return best


@njit(cache=True)
def new_state(grid, box_rows, box_cols):
    """A fresh search state for ``grid``: (board stack, assigned stack, branch
    cells, untried candidates, state[depth, mode, count])."""
    n = box_rows * box_cols
    nn = n * n
    full = ALL >> np.uint64(64 - n)
    cap = min(nn, 64) + 1
    boards = np.empty((cap, nn), dtype=np.uint64)
    flags = np.zeros((cap, nn), dtype=np.uint8)
    for c in range(nn):
        v = grid[c]
        boards[0, c] = (ONE << np.uint64(v - 1)) if v else full
    bcell = np.zeros(cap, dtype=np.int64)
    brem = np.zeros(cap, dtype=np.uint64)
    state = np.zeros(3, dtype=np.int64)  # depth, mode, solutions counted (count_more_n)
    return boards, flags, bcell, brem, state


@njit(cache=True, inline="always")
def copy_board(boards, flags, src, dst):
    """Row ``src`` of the board stack onto row ``dst`` (an element loop: a
    slice copy makes numba compile its shape-mismatch message, seconds of a
    first run)."""
    for c in range(boards.shape[1]):
        boards[dst, c] = boards[src, c]
        flags[dst, c] = flags[src, c]


@njit(cache=True)
def grow_stack(boards, flags, bcell, brem):
    """The search's stacks at twice their depth, the rows so far copied (a search
    that branches deeper than it first allowed)."""
    cap = boards.shape[0]
    nb = np.empty((2 * cap, boards.shape[1]), dtype=np.uint64)
    nf = np.zeros((2 * cap, boards.shape[1]), dtype=np.uint8)
    nc = np.zeros(2 * cap, dtype=np.int64)
    nr = np.zeros(2 * cap, dtype=np.uint64)
    for d in range(cap):
        for c in range(boards.shape[1]):
            nb[d, c] = boards[d, c]
            nf[d, c] = flags[d, c]
        nc[d] = bcell[d]
        nr[d] = brem[d]
    return nb, nf, nc, nr


@njit(cache=True)
def search_n(boards, flags, bcell, brem, state, units, peers, n, node_limit, solution_out, stats):
    """Run the search from ``state`` until the next solution (returns 1, the
    solution in ``solution_out``), the end of the tree (0) or ``node_limit``
    nodes (> 0) used in this call (-1). Returns the (possibly grown) stack
    arrays too, so that the caller can resume: (status, boards, flags, bcell, brem).

    Board ``boards[depth]`` is the one being worked on; ``boards[d]`` for
    ``d < depth`` is the propagated board where choice ``d`` was made.
    """
    nn = n * n
    queue = np.empty(nn, dtype=np.int64)
    used = 0
    while True:
        depth = state[0]
        mode = state[1]
        if mode == DONE:
            return 0, boards, flags, bcell, brem
        if mode == PROPAGATE:
            if node_limit > 0 and used >= node_limit:
                return -1, boards, flags, bcell, brem
            used += 1
            stats[0] += 1
            cur = boards[depth]
            fl = flags[depth]
            if propagate_n(cur, fl, units, peers, queue):
                cell = pick_cell(cur, fl, nn)
                if cell < 0:
                    for c in range(nn):
                        solution_out[c] = tz(cur[c]) + 1
                    state[1] = BACKTRACK
                    return 1, boards, flags, bcell, brem
                if depth + 1 >= boards.shape[0]:
                    boards, flags, bcell, brem = grow_stack(boards, flags, bcell, brem)
                    cur = boards[depth]
                    fl = flags[depth]
                stats[1] += 1
                m = cur[cell]
                low = m & (ZERO - m)
                bcell[depth] = cell
                brem[depth] = m ^ low
                copy_board(boards, flags, depth, depth + 1)
                boards[depth + 1, cell] = low
                state[0] = depth + 1
                continue
            state[1] = BACKTRACK
        # BACKTRACK: go up to the deepest choice with candidates left
        d = depth - 1
        while d >= 0 and brem[d] == ZERO:
            d -= 1
        if d < 0:
            state[1] = DONE
            return 0, boards, flags, bcell, brem
        m = brem[d]
        low = m & (ZERO - m)
        brem[d] = m ^ low
        copy_board(boards, flags, d, d + 1)
        boards[d + 1, bcell[d]] = low
        state[0] = d + 1
        state[1] = PROPAGATE


@njit(cache=True)
def count_more_n(boards, flags, bcell, brem, state, units, peers, n, limit, node_limit, solution_out, stats):
    """Go on counting from ``state`` (from :func:`new_state`; ``state[2]`` holds
    the count so far) until ``limit`` solutions or the end of the tree (status:
    the count) or ``node_limit`` (> 0) nodes used in this call (status -1).
    Returns (status, boards, flags, bcell, brem): keep the arrays to resume."""
    scratch = np.empty(n * n, dtype=np.uint8)
    found = state[2]
    left = node_limit
    while True:
        before = stats[0]
        status, boards, flags, bcell, brem = search_n(
            boards, flags, bcell, brem, state, units, peers, n, left,
            solution_out if found == 0 else scratch, stats,
        )
        if node_limit > 0:
            left -= stats[0] - before
        if status == 1:
            found += 1
            state[2] = found
            if limit > 0 and found >= limit:
                state[1] = DONE
                return found, boards, flags, bcell, brem
            if node_limit > 0 and left <= 0:
                return -1, boards, flags, bcell, brem
            continue
        if status == 0:
            return found, boards, flags, bcell, brem
        return -1, boards, flags, bcell, brem


@njit(cache=True)
def count_n(grid, box_rows, box_cols, limit, node_limit, solution_out, stats):
    """Count the solutions of ``grid`` up to ``limit`` (see the module docstring)."""
    n = box_rows * box_cols
    units, peers = geometry(box_rows, box_cols)
    boards, flags, bcell, brem, state = new_state(grid, box_rows, box_cols)
    return count_more_n(boards, flags, bcell, brem, state, units, peers, n, limit, node_limit,
                        solution_out, stats)[0]


@njit(cache=True)
def deduce_n(grid, box_rows, box_cols, out):
    """Singles and locked candidates without guessing. Writes the assigned
    values (0 elsewhere) to ``out``; returns False on a contradiction."""
    n = box_rows * box_cols
    nn = n * n
    units, peers = geometry(box_rows, box_cols)
    masks = np.empty(nn, dtype=np.uint64)
    assigned = np.empty(nn, dtype=np.uint8)
    load_n(grid, n, masks, assigned)
    queue = np.empty(nn, dtype=np.int64)
    if not propagate_fast(masks, assigned, units, peers, queue, locked_candidates(box_rows, box_cols)):
        return False
    for c in range(nn):
        out[c] = tz(masks[c]) + 1 if assigned[c] else 0
    return True


@njit(cache=True)
def deduce_singles(grid, units, peers, out):
    """Naked and hidden singles over any units (a variant's tables), without
    guessing: as :func:`deduce_n` without the locked candidates."""
    nn = grid.shape[0]
    masks = np.empty(nn, dtype=np.uint64)
    assigned = np.empty(nn, dtype=np.uint8)
    load_n(grid, units.shape[1], masks, assigned)
    queue = np.empty(nn, dtype=np.int64)
    if not propagate_n(masks, assigned, units, peers, queue):
        return False
    for c in range(nn):
        out[c] = tz(masks[c]) + 1 if assigned[c] else 0
    return True


# The batch loops live beside the kernel so that numba's cache, which is
# keyed on this file, is refreshed whenever the kernel changes.


@njit(cache=True)
def batch_n_serial(puzzles, box_rows, box_cols, limit, node_limit, solutions, counts, stats):
    """count_n over every row of ``puzzles`` (P, N*N)."""
    for i in range(puzzles.shape[0]):
        counts[i] = count_n(puzzles[i], box_rows, box_cols, limit, node_limit, solutions[i], stats[i])


@njit(cache=True, parallel=True)
def batch_n_parallel(puzzles, box_rows, box_cols, limit, node_limit, solutions, counts, stats):
    """count_n over every row of ``puzzles``, rows spread over threads."""
    for i in prange(puzzles.shape[0]):
        counts[i] = count_n(puzzles[i], box_rows, box_cols, limit, node_limit, solutions[i], stats[i])


# -- looking for a solution that differs from a known one (generator) ---------------
#
# The generator asks, for a puzzle whose solution S it knows, "is there a solution
# with a value other than S[c] in cell c?". The search below starts from candidate
# masks (so the cell can start without S[c]), propagates singles and, on big grids,
# locked candidates, and tries the value S has first at every branch: another
# solution usually agrees with S almost everywhere, so it is met early, and when
# there is none the whole tree is walked anyway (the order does not change its size).


@njit(cache=True)
def _segments(masks, n, along, step, length, seg):
    """``seg[l, j]``: the union of the candidates of line ``l`` inside its
    ``j``-th box (``length`` cells). A line's cells are ``l*along + p*step``
    for ``p`` in 0..n-1: rows have ``along = n, step = 1``, columns ``along = 1,
    step = n``."""
    for line in range(n):
        for j in range(n // length):
            u = ZERO
            base = line * along + j * length * step
            for k in range(length):
                u |= masks[base + k * step]
            seg[line, j] = u


@njit(cache=True, inline="always")
def _take(masks, base, step, length, values):
    """Take ``values`` from the ``length`` cells ``base + k*step`` that are not
    single: how many masks shrank, or -1 when one runs dry."""
    changed = 0
    for k in range(length):
        m = masks[base + k * step]
        if m & values and (m & (m - ONE)):
            m &= ~values
            if m == ZERO:
                return -1
            masks[base + k * step] = m
            changed += 1
    return changed


@njit(cache=True)
def _locked_lines(masks, n, along, step, length, group, seg):
    """Locked candidates between the lines of one direction and the boxes,
    from the segments ``seg`` (:func:`_segments`); a box spans ``group`` lines.
    A value whose places in a line all lie in one segment leaves the rest of
    the box (claiming); a value whose places in a box all lie in one line's
    segment leaves the rest of the line (pointing). -1 on a contradiction,
    else how many masks shrank."""
    boxes = n // length
    changed = 0
    for line in range(n):
        first = line - line % group
        for j in range(boxes):
            other = ZERO
            for jj in range(boxes):
                if jj != j:
                    other |= seg[line, jj]
            claim = seg[line, j] & ~other
            rest = ZERO
            for ll in range(first, first + group):
                if ll != line:
                    rest |= seg[ll, j]
            point = seg[line, j] & ~rest
            if claim:
                for ll in range(first, first + group):
                    if ll != line:
                        k = _take(masks, ll * along + j * length * step, step, length, claim)
                        if k < 0:
                            return -1
                        changed += k
            if point:
                for jj in range(boxes):
                    if jj != j:
                        k = _take(masks, line * along + jj * length * step, step, length, point)
                        if k < 0:
                            return -1
                        changed += k
    return changed


class Locked(NamedTuple):
    """What a propagation needs to add locked candidates to the singles: the
    box shape and scratch (:func:`locked_candidates` makes one). Where a
    :class:`Locked` may go, None means singles alone, and numba then compiles
    no locked-candidates code at all (``lk is None`` is decided by type)."""

    box_rows: int
    box_cols: int
    seg_r: np.ndarray  #: ``seg_r[r, j]``: the candidates of row r inside box column j (uint64)
    seg_c: np.ndarray  #: ``seg_c[k, i]``: the candidates of column k inside box row i (uint64)


@njit(cache=True)
def locked_candidates(box_rows, box_cols):
    """A :class:`Locked` for the shape, with its scratch."""
    n = box_rows * box_cols
    return Locked(box_rows, box_cols, np.empty((n, n // box_cols), dtype=np.uint64),
                  np.empty((n, n // box_rows), dtype=np.uint64))


@njit(cache=True)
def _locked_pass(masks, lk):
    """Locked candidates, bit-parallel over the values: one pass over every
    line-box intersection, the rows' segments and the columns' both taken
    before either direction eliminates. Returns -1 on a contradiction, else
    how many masks shrank. Rows and columns are the same pass
    (:func:`_locked_lines`) with the strides swapped."""
    box_rows = lk.box_rows
    box_cols = lk.box_cols
    n = box_rows * box_cols
    one = n // n  # an int64: a literal 1 would make numba compile each helper twice
    _segments(masks, n, n, one, box_cols, lk.seg_r)
    _segments(masks, n, one, n, box_rows, lk.seg_c)
    rows = _locked_lines(masks, n, n, one, box_cols, box_rows, lk.seg_r)
    if rows < 0:
        return -1
    cols = _locked_lines(masks, n, one, n, box_rows, box_cols, lk.seg_c)
    if cols < 0:
        return -1
    return rows + cols


@njit(cache=True)
def propagate_fast(masks, assigned, units, peers, queue, lk):
    """Singles to a fixpoint, then (unless ``lk`` is None) bit-parallel locked
    candidates, repeated while they remove anything. False on a contradiction."""
    while True:
        if not propagate_n(masks, assigned, units, peers, queue):
            return False
        if lk is None:
            return True
        k = _locked_pass(masks, lk)
        if k < 0:
            return False
        if k == 0:
            return True


@njit(cache=True)
def _pick_branch(masks, assigned, units, n, prefer):
    """Where to branch: ``(cell, first)``, the cell and the candidate bit to try
    first; the other child keeps the cell's remaining candidates. A cell with
    two candidates is taken at once; otherwise a value with two places in a
    unit (placing it at the place ``prefer`` has it, else the first), and only
    then the open cell with the fewest candidates. ``cell`` is -1 when every
    cell is assigned."""
    nn = n * n
    best = pick_cell(masks, assigned, nn)
    if best < 0:
        return -1, ZERO
    best_count = pop(masks[best])
    if best_count > 2:
        for u in range(units.shape[0]):
            once = ZERO
            twice = ZERO
            thrice = ZERO
            for i in range(n):
                c = units[u, i]
                if assigned[c] == 0:
                    m = masks[c]
                    thrice |= twice & m
                    twice |= once & m
                    once |= m
            pair = twice & ~thrice
            if pair:
                bit = pair & (ZERO - pair)
                v = tz(bit) + 1
                cell = -1
                for i in range(n):
                    c = units[u, i]
                    if assigned[c] == 0 and (masks[c] & bit):
                        if cell < 0 or prefer[c] == v:
                            cell = c
                return cell, bit
    m = masks[best]
    pbit = ONE << np.uint64(prefer[best] - 1)
    return best, (pbit if (m & pbit) else (m & (ZERO - m)))


@njit(cache=True)
def find_other(masks0, units, peers, box_rows, box_cols, prefer, lk, node_limit,
               solution_out, stats):
    """One solution of the candidate masks ``masks0`` (not modified), trying the
    value ``prefer[cell]`` first at every branch. 1 found (in ``solution_out``),
    0 none, -1 when ``node_limit`` (> 0) nodes ran out. ``stats`` as in count_n.
    ``lk``: a :class:`Locked` to add locked candidates to the singles, or None.

    Branches are binary: one value in a cell, or the cell without it."""
    n = box_rows * box_cols
    nn = n * n
    cap = nn + 1
    boards = np.empty((cap, nn), dtype=np.uint64)
    flags = np.zeros((cap, nn), dtype=np.uint8)
    bcell = np.zeros(cap, dtype=np.int64)
    brem = np.zeros(cap, dtype=np.uint64)
    queue = np.empty(nn, dtype=np.int64)
    for c in range(nn):
        boards[0, c] = masks0[c]
    depth = 0
    used = 0
    while True:
        # propagate boards[depth]
        if node_limit > 0 and used >= node_limit:
            return -1
        used += 1
        stats[0] += 1
        cur = boards[depth]
        fl = flags[depth]
        ok = propagate_fast(cur, fl, units, peers, queue, lk)
        if ok:
            cell, first = _pick_branch(cur, fl, units, n, prefer)
            if cell < 0:
                for c in range(nn):
                    solution_out[c] = tz(cur[c]) + 1
                return 1
            if depth + 1 >= cap:
                return -1
            stats[1] += 1
            bcell[depth] = cell
            brem[depth] = cur[cell] ^ first
            copy_board(boards, flags, depth, depth + 1)
            boards[depth + 1, cell] = first
            depth += 1
            continue
        # backtrack to the deepest choice whose second child is still to do
        d = depth - 1
        while d >= 0 and brem[d] == ZERO:
            d -= 1
        if d < 0:
            return 0
        copy_board(boards, flags, d, d + 1)
        boards[d + 1, bcell[d]] = brem[d]
        brem[d] = ZERO
        depth = d + 1
