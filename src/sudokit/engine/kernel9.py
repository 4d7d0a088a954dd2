"""The 9x9 kernel, built for speed.

Contract (stable; the generator imports :func:`count9` from its own njit code)::

    count9(grid: uint8[81], limit: int64, node_limit: int64,
           solution_out: uint8[81], stats: int64[2]) -> int64

``grid`` holds 0 for a blank and 1..9 for a given; it is not modified. The
result is the number of solutions found, stopping at ``limit`` (``limit <= 0``:
count them all), or -1 when ``node_limit`` (> 0; 0 means no limit) search
nodes were used first. ``solution_out`` receives the first solution found.
``stats[0]`` is increased by the nodes expanded (boards propagated) and
``stats[1]`` by the guesses (branch points: cells where the search chose).

Representation
--------------
A board is 57 words. Words ``3*d + b`` hold the cells of band ``b`` (rows
``3b..3b+2``) where digit ``d+1`` may still go, 27 bits, bit ``9*r + c`` for
row ``r`` of the band and column ``c``. A placed digit keeps its own bit, so in
every band each digit always needs exactly one cell per row and one per box.
Words 27..29 hold the cells of each band not placed yet, and words 30..56
remember each digit word as it was last filtered.

Propagation
-----------
*Band filter.* Cut a digit's band word into nine segments (a row of the band
inside a box: three cells) and note which segments are occupied. A digit
must take one segment per row and per box of the band, a permutation of three;
a table of 512 entries keeps only the segments that lie on some permutation
whose segments are all occupied (zero: contradiction). This one lookup does
the pointing and claiming of locked candidates inside the band and finds
rows and boxes left with one segment.

*Locked candidates along columns.* A box whose digit lies in one column
clears that column in the other bands; a column whose digit lies in one band
clears the rest of that box. (Rows are covered by the band filter.)

*Singles.* A cell where a digit word has the only bit of a row, a box or a
column (across the three bands) is a hidden single; a cell where one digit
word alone has its bit is a naked single, found for the whole band at once by
counting bits with two running words (seen once, seen twice). Placing a
digit clears its row, box and column from its own words and the cell from
the other eight digits. The loop runs until no rule fires; a digit word with
no permutation or a cell with no digit ends the node.

Search
------
If cells remain open the search picks one with the fewest candidates
(a bivalue cell when there is one, found by counting candidates per cell
with a bit-sliced adder over the nine digit words), stores the board on an
explicit stack with the digits not yet tried, and goes on with the first
digit. A dead end goes back to the last stored board and its next digit.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange


def _tables() -> tuple[np.ndarray, ...]:
    rowseg = np.zeros(512, dtype=np.int64)
    for chunk in range(512):
        rowseg[chunk] = sum(1 << k for k in range(3) if chunk & (7 << (3 * k)))
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    perm = np.zeros(512, dtype=np.int64)
    for occupied in range(512):
        keep = 0
        for sigma in perms:
            bits = sum(1 << (3 * r + sigma[r]) for r in range(3))
            if occupied & bits == bits:
                keep |= bits
        perm[occupied] = keep
    segmask = np.zeros(512, dtype=np.int64)
    for segs in range(512):
        segmask[segs] = sum(7 << (9 * (s // 3) + 3 * (s % 3)) for s in range(9) if segs >> s & 1)
    peers = np.zeros(27, dtype=np.int64)   # same row, box or column inside the band, not the cell
    boxmask = np.zeros(3, dtype=np.int64)
    for k in range(3):
        boxmask[k] = sum(7 << (9 * r + 3 * k) for r in range(3))
    for i in range(27):
        r, c = divmod(i, 9)
        m = (511 << (9 * r)) | boxmask[c // 3] | (1 | 1 << 9 | 1 << 18) << c
        peers[i] = m & ~(1 << i)
    colmask = np.array([(1 | 1 << 9 | 1 << 18) << c for c in range(9)], dtype=np.int64)
    return rowseg, perm, segmask, peers, boxmask, colmask


ROWSEG, PERM, SEGMASK, BAND_PEERS, BOXMASK, COLMASK = _tables()
BAND = (1 << 27) - 1
NWORDS = 57


@njit(cache=True)
def _tz(x):
    """Index of the lowest set bit of a non-zero word (below 2**32)."""
    x = (x & -x) - 1
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True)
def _place(board, d, b, i):
    """Put digit ``d`` (0-based) in cell ``i`` of band ``b``."""
    bit = np.int64(1) << i
    board[3 * d + b] &= ~BAND_PEERS[i]
    col = COLMASK[i % 9]
    for bb in range(3):
        if bb != b:
            board[3 * d + bb] &= ~col
    for dd in range(9):
        if dd != d:
            board[3 * dd + b] &= ~bit
    board[27 + b] &= ~bit


@njit(cache=True)
def _naked_singles(board):
    """Place every cell with one digit left, band by band, until none is left.
    Returns -1 on a cell with no digit, else the number of cells placed."""
    placed = 0
    again = True
    while again:
        again = False
        for b in range(3):
            open_cells = board[27 + b]
            while open_cells:
                once = 0
                twice = 0
                for d in range(9):
                    x = board[3 * d + b]
                    twice |= once & x
                    once |= x
                if once != BAND:
                    return -1
                single = once & ~twice & open_cells
                if single == 0:
                    break
                while single:
                    low = single & -single
                    single ^= low
                    i = _tz(low)
                    for d in range(9):
                        if board[3 * d + b] & low:
                            _place(board, d, b, i)
                            break
                    placed += 1
                again = True
                open_cells = board[27 + b]
    return placed


@njit(cache=True)
def propagate9(board, seen):
    """Apply singles and the band filter to a fixpoint; False on a contradiction.

    Words 30..56 of the board remember each digit word as last filtered, so
    only changed words are filtered again (-1 filters all). ``seen`` (27
    words, -1 at first) does the same for the column rules."""
    while True:
        if _naked_singles(board) < 0:
            return False
        # band filter on changed words, with hidden singles in rows and boxes
        progress = False
        for w in range(27):
            f = board[w]
            if f == board[30 + w]:
                continue
            s = ROWSEG[f & 511] | (ROWSEG[(f >> 9) & 511] << 3) | (ROWSEG[(f >> 18) & 511] << 6)
            keep = PERM[s]
            if keep == 0:
                return False
            f &= SEGMASK[keep]
            board[w] = f
            b = w % 3
            if f & board[27 + b]:
                d = w // 3
                for r in range(3):
                    chunk = (f >> (9 * r)) & 511
                    if chunk & (chunk - 1) == 0:
                        i = 9 * r + _tz(chunk)
                        if board[27 + b] >> i & 1:
                            _place(board, d, b, i)
                            progress = True
                for k in range(3):
                    x = f & BOXMASK[k]
                    if x & (x - 1) == 0:
                        i = _tz(x)
                        if board[27 + b] >> i & 1:
                            _place(board, d, b, i)
                            progress = True
                f = board[w]
            board[30 + w] = f
        if progress:
            continue
        # columns: hidden singles, then locked candidates along the columns:
        # a box whose digit lies in one column clears that column in the
        # other bands (pointing), and a column whose digit lies in one band
        # clears the rest of that box's cells in the band (claiming). A digit
        # whose words did not change since its last column pass is skipped.
        for d in range(9):
            w0 = 3 * d
            if board[w0] == seen[w0] and board[w0 + 1] == seen[w0 + 1] and board[w0 + 2] == seen[w0 + 2]:
                continue
            once = 0
            twice = 0
            multi = 0
            for b in range(3):
                f = board[w0 + b]
                r0 = f & 511
                r1 = (f >> 9) & 511
                r2 = f >> 18
                occ = r0 | r1 | r2
                multi |= (r0 & r1) | (r0 & r2) | (r1 & r2)
                twice |= once & occ
                once |= occ
            if once != 511:
                return False
            cols = once & ~twice & ~multi
            placed = False
            while cols:
                low = cols & -cols
                cols ^= low
                for b in range(3):
                    x = board[w0 + b] & (low | (low << 9) | (low << 18))
                    if x:
                        if board[27 + b] & x:
                            _place(board, d, b, _tz(x))
                            placed = True
                        break
            if placed:
                progress = True
                continue  # words changed: look again in the next round
            lone = once & ~twice
            for b in range(3):
                f = board[w0 + b]
                occ = (f | (f >> 9) | (f >> 18)) & 511
                for k in range(3):
                    cs = occ & (7 << (3 * k))
                    if cs & (cs - 1) == 0:
                        col = COLMASK[_tz(cs)]
                        for bb in range(3):
                            if bb != b and board[w0 + bb] & col:
                                board[w0 + bb] &= ~col
                                progress = True
                mine = lone & occ
                while mine:
                    low = mine & -mine
                    mine ^= low
                    c = _tz(low)
                    drop = BOXMASK[c // 3] & ~COLMASK[c]
                    if board[w0 + b] & drop:
                        board[w0 + b] &= ~drop
                        progress = True
            seen[w0] = board[w0]
            seen[w0 + 1] = board[w0 + 1]
            seen[w0 + 2] = board[w0 + 2]
        if not progress:
            return True


@njit(cache=True)
def _pick(board):
    """(band, cell bit index) of an open cell with the fewest candidates;
    band -1 when every cell is placed. Bivalue cells are looked for in all
    three bands first; counting per cell is the slow fallback."""
    counts = np.empty(12, dtype=np.int64)  # c0..c3 of each band
    any_open = False
    for b in range(3):
        open_cells = board[27 + b]
        c0 = 0
        c1 = 0
        c2 = 0
        c3 = 0
        if open_cells:
            any_open = True
            for d in range(9):
                x = board[3 * d + b]
                k0 = c0 & x
                c0 ^= x
                k1 = c1 & k0
                c1 ^= k0
                k2 = c2 & k1
                c2 ^= k1
                c3 |= k2
            two = open_cells & ~c0 & c1 & ~c2 & ~c3
            if two:
                return b, _tz(two)
        counts[4 * b] = c0
        counts[4 * b + 1] = c1
        counts[4 * b + 2] = c2
        counts[4 * b + 3] = c3
    if not any_open:
        return -1, -1
    best_b = -1
    best_i = -1
    best_n = 10
    for b in range(3):
        rest = board[27 + b]
        c0 = counts[4 * b]
        c1 = counts[4 * b + 1]
        c2 = counts[4 * b + 2]
        c3 = counts[4 * b + 3]
        while rest:
            low = rest & -rest
            rest ^= low
            n = (1 if c0 & low else 0) + (2 if c1 & low else 0) + (4 if c2 & low else 0) + (8 if c3 & low else 0)
            if n < best_n:
                best_n = n
                best_b = b
                best_i = _tz(low)
    return best_b, best_i


@njit(cache=True)
def load9(grid, board):
    """Fill ``board`` from 81 values; False when two givens clash."""
    for w in range(27):
        board[w] = BAND
    for b in range(3):
        board[27 + b] = BAND
    for w in range(27):
        board[30 + w] = -1
    for cell in range(81):
        v = grid[cell]
        if v:
            b = cell // 27
            i = cell % 27
            if not (board[3 * (v - 1) + b] >> i & 1):
                return False
            _place(board, v - 1, b, i)
    return True


@njit(cache=True)
def unload9(board, out):
    """Write a complete board's values to ``out`` (81 cells)."""
    for d in range(9):
        for b in range(3):
            f = board[3 * d + b]
            while f:
                low = f & -f
                f ^= low
                out[27 * b + _tz(low)] = d + 1


@njit(cache=True)
def count9(grid, limit, node_limit, solution_out, stats):
    """Count the solutions of a 9x9 ``grid`` up to ``limit`` (see the module docstring)."""
    stack = np.empty((82, NWORDS), dtype=np.int64)
    bband = np.empty(82, dtype=np.int64)
    bcell = np.empty(82, dtype=np.int64)
    brem = np.empty(82, dtype=np.int64)
    board = np.empty(NWORDS, dtype=np.int64)
    seen = np.empty(27, dtype=np.int64)
    if not load9(grid, board):
        return 0
    found = 0
    nodes = 0
    depth = 0
    while True:
        # propagate the current board
        if node_limit > 0 and nodes >= node_limit:
            stats[0] += nodes
            return -1
        nodes += 1
        seen[:] = -1
        alive = propagate9(board, seen)
        if alive:
            b, i = _pick(board)
            if b < 0:
                if found == 0:
                    unload9(board, solution_out)
                found += 1
                if limit > 0 and found >= limit:
                    break
                alive = False
            else:
                stats[1] += 1
                bit = np.int64(1) << i
                digits = 0
                for d in range(9):
                    if board[3 * d + b] & bit:
                        digits |= 1 << d
                stack[depth, :] = board
                bband[depth] = b
                bcell[depth] = i
                low = digits & -digits
                brem[depth] = digits ^ low
                depth += 1
                for d in range(9):
                    if not (low >> d & 1):
                        board[3 * d + b] &= ~bit
                continue
        # backtrack to the deepest choice with digits left
        while depth > 0 and brem[depth - 1] == 0:
            depth -= 1
        if depth == 0:
            break
        k = depth - 1
        rem = brem[k]
        low = rem & -rem
        brem[k] = rem ^ low
        board[:] = stack[k]
        b = bband[k]
        bit = np.int64(1) << bcell[k]
        for d in range(9):
            if not (low >> d & 1):
                board[3 * d + b] &= ~bit
    stats[0] += nodes
    return found


# The batch loops live beside the kernel so that numba's cache, which is
# keyed on this file, is refreshed whenever the kernel changes.


@njit(cache=True)
def batch9_serial(puzzles, limit, node_limit, solutions, counts, stats):
    """count9 over every row of ``puzzles`` (P, 81)."""
    for i in range(puzzles.shape[0]):
        counts[i] = count9(puzzles[i], limit, node_limit, solutions[i], stats[i])


@njit(cache=True, parallel=True)
def batch9_parallel(puzzles, limit, node_limit, solutions, counts, stats):
    """count9 over every row of ``puzzles``, rows spread over threads."""
    for i in prange(puzzles.shape[0]):
        counts[i] = count9(puzzles[i], limit, node_limit, solutions[i], stats[i])
