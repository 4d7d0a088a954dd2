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
:func:`resume9` runs the same search in slices of nodes that resume where the
last one stopped, so that a count keeps what it found when a limit ends it and
Python can take a Ctrl-C between slices.

Representation
--------------
A board is :data:`~sudokit.engine.board.STORED` (30) words; the names and a
glossary are in :mod:`sudokit.engine.board`. Word ``3*d + b`` holds the cells
of band ``b`` (rows ``3b..3b+2``) where digit ``d+1`` may still go: 27 bits,
bit ``9*r + c`` for row ``r`` of the band and column ``c``. A placed digit
keeps its own bit, so in every band each digit always needs exactly one cell
per row, one per box and, across the three bands, one per column. Words
``OPEN + b`` (27..29) hold the cells of each band not placed yet. The working
board has ``WORDS`` (64) words: words ``SEEN + 3*d + b`` (32..58) remember
each digit word as it was last filtered, so that only words that changed are
looked at again, and words ``BIVALUE + b`` (60..62) note each band's bivalue
cells.

Propagation
-----------
One digit at a time, and only for digits whose words changed:

*Band filter.* Cut a band word into nine segments (a row of the band inside a
box: three cells) and note which segments are occupied: a 3x3 matrix of rows
by boxes. The digit must take one segment per row and one per box, a
permutation; a table of 512 entries gives the cells of the segments that lie
on some permutation whose segments are all occupied (none: contradiction).
This one lookup does pointing and claiming between rows and boxes, and a box
left with one cell leaves its row with one cell.

*Stack filter.* The same rule along the columns: inside a stack (three
columns of boxes) the digit takes one column per band and one band per
column, again a permutation of a 3x3 matrix (bands by columns of the stack,
occupied when the band word has a bit in that column). The same table keeps
the possible pairs, and the columns a band loses are cleared from its word
with one mask. The two filters alternate until neither changes the digit's
three words.

*Hidden singles.* A row of a band word left with one bit fixes the digit
there (a lone cell in a box or a column ends up alone in its row too). When
that cell is still open it is closed and cleared from the other eight digit
words of the band; the digit's own peers are already gone.

*Naked singles.* When no digit changes any more, each band counts, bit-sliced
over its nine digit words, the open cells with at least one, two and three
digits. An open cell with none ends the node; a cell with one is placed
(cleared from the peers in its own band word and from the other digits; the
filters do the other bands), and propagation starts again.

*Singles only.* The generator's ``logic`` rule (:mod:`sudokit.engine.singles9`)
runs the same propagation with another rule for the hidden singles: each
digit whose words changed has its columns cleared below and above its
placed cells, then its rows, boxes and columns scanned for one place left
(none: contradiction). The placements (:func:`place`) and the naked
singles (:func:`naked_singles`) are these ones.

Search
------
When propagation stops with cells open, the board is at a fixpoint and the
search branches on a bivalue cell (the counters above find them for free;
without one, on a cell with the fewest digits). Among the bivalue cells it
takes the one with the most open peers (in its band, and in its column in
the other bands), the degree rule of constraint solvers: a placement there
reaches the most open cells. This halves the trees of the hardest sets
against taking the first bivalue cell. It stores the STORED words of the board
on an explicit stack with the digits not yet tried, places the first digit
and goes on. A dead end goes back to the last stored board (at a fixpoint,
so its words are also the filters' memory) and places its next digit; the
last digit of a cell frees its stack entry. A node is one call of the
propagation, after a placement.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .board import BAND, BIVALUE, COLUMN, COLS, COMPLEX, ONE, OPEN, PEERS, PERM, ROW, SEEN, SHRINK, STORED, WORDS
from .board import pop, tz
from .compiling import load_numba

load_numba()  # before the first kernel loads: numba without its BLAS probe

SOLVED = 81   # what propagation returns when no cell is open
FAILED = -1   # ... and on a contradiction


@njit(cache=True, inline="always")
def _filter_band(a):
    """The band filter of one band word (0: contradiction)."""
    s = SHRINK[a & ROW] | (SHRINK[(a >> 9) & ROW] << 3) | (SHRINK[a >> 18] << 6)
    return a & COMPLEX[s]


@njit(cache=True)
def _fewest(g):
    """An open cell (27*b + i) with the fewest digits; the slow path
    when no cell is bivalue."""
    best = -1
    best_n = 10
    for b in range(3):
        rest = g[OPEN + b]
        while rest:
            low = rest & -rest
            rest ^= low
            n = 0
            for d in range(9):
                if g[3 * d + b] & low:
                    n += 1
            if n < best_n:
                best_n = n
                best = 27 * b + tz(low)
    return best


@njit(cache=True, inline="always")
def place(g, d, b, low):
    """Place digit ``d`` in the open cell ``low`` (one bit) of band ``b``: the
    cell leaves the other digits' words and the open cells, and its peers in
    the band leave ``d``'s word. (The column in the other bands is left to
    the rule that finds the hidden singles: the stack filter, or the column
    pass of :mod:`sudokit.engine.singles9`.)"""
    for dd in range(9):
        g[3 * dd + b] &= ~low
    g[3 * d + b] = (g[3 * d + b] & ~PEERS[tz(low)]) | low
    g[OPEN + b] &= ~low


PLACED = 1  #: what :func:`naked_singles` returns when it placed a digit (0: at a fixpoint)


@njit(cache=True, inline="always")
def naked_singles(g):
    """The naked singles of every band, counted bit-sliced over its nine digit
    words: FAILED when an open cell has no digit left, SOLVED when no cell is
    open, PLACED when it placed digits (each with :func:`place`), else 0, the
    board at a fixpoint with its bivalue cells noted (words BIVALUE + b)."""
    placed = False
    solved = True
    for b in range(3):
        u = g[OPEN + b]
        g[BIVALUE + b] = 0
        if u == 0:
            continue
        solved = False
        r1 = np.int64(0)
        r2 = np.int64(0)
        r3 = np.int64(0)
        for d in range(9):
            x = g[3 * d + b]
            r3 |= r2 & x
            r2 |= r1 & x
            r1 |= x
        if u & ~r1:
            return FAILED
        single = u & ~r2
        if single:
            placed = True
            while single:
                low = single & -single
                single ^= low
                d = 0
                while d < 9 and not g[3 * d + b] & low:
                    d += 1
                if d == 9:
                    return FAILED
                place(g, d, b, low)
        else:
            g[BIVALUE + b] = u & r2 & ~r3
    if placed:
        return PLACED
    if solved:
        return SOLVED
    return 0


@njit(cache=True)
def propagate9(g, digit, band, cell):
    """Place ``digit`` (0-based; none when negative) in ``cell`` of ``band``,
    then run the filters and singles to a fixpoint. Returns FAILED on a
    contradiction, SOLVED when every cell is placed, else the cell to branch
    on (27*band + bit)."""
    if digit >= 0:
        place(g, digit, band, np.int64(1) << cell)
    while True:
        again = False
        for d in range(9):
            w = 3 * d
            a0 = g[w]
            a1 = g[w + 1]
            a2 = g[w + 2]
            p0 = g[SEEN + w]
            p1 = g[SEEN + 1 + w]
            p2 = g[SEEN + 2 + w]
            if a0 == p0 and a1 == p1 and a2 == p2:
                continue
            if a0 != p0:
                a0 = _filter_band(a0)
            if a1 != p1:
                a1 = _filter_band(a1)
            if a2 != p2:
                a2 = _filter_band(a2)
            if a0 == 0 or a1 == 0 or a2 == 0:
                return FAILED
            # stack filter on c_b, the columns band b still uses; nothing to
            # do while they are those of the last fixpoint
            c0 = (a0 | (a0 >> 9) | (a0 >> 18)) & ROW
            c1 = (a1 | (a1 >> 9) | (a1 >> 18)) & ROW
            c2 = (a2 | (a2 >> 9) | (a2 >> 18)) & ROW
            if c0 != (p0 | (p0 >> 9) | (p0 >> 18)) & ROW or c1 != (p1 | (p1 >> 9) | (p1 >> 18)) & ROW \
                    or c2 != (p2 | (p2 >> 9) | (p2 >> 18)) & ROW:
                while True:
                    k0 = PERM[(c0 & 7) | ((c1 & 7) << 3) | ((c2 & 7) << 6)]
                    k1 = PERM[((c0 >> 3) & 7) | (c1 & 0o70) | ((c2 & 0o70) << 3)]
                    k2 = PERM[((c0 >> 6) & 7) | ((c1 >> 3) & 0o70) | (c2 & 0o700)]
                    if k0 == 0 or k1 == 0 or k2 == 0:
                        return FAILED
                    n0 = (k0 & 7) | ((k1 & 7) << 3) | ((k2 & 7) << 6)
                    n1 = ((k0 >> 3) & 7) | (k1 & 0o70) | ((k2 & 0o70) << 3)
                    n2 = ((k0 >> 6) & 7) | ((k1 >> 3) & 0o70) | (k2 & 0o700)
                    if n0 == c0 and n1 == c1 and n2 == c2:
                        break
                    # a band that lost columns is filtered again; the stack
                    # filter keeps what it keeps, so unless a band filter
                    # takes more columns this is the fixpoint
                    if n0 != c0:
                        a0 = _filter_band(a0 & COLS[n0])
                        if a0 == 0:
                            return FAILED
                        c0 = (a0 | (a0 >> 9) | (a0 >> 18)) & ROW
                    if n1 != c1:
                        a1 = _filter_band(a1 & COLS[n1])
                        if a1 == 0:
                            return FAILED
                        c1 = (a1 | (a1 >> 9) | (a1 >> 18)) & ROW
                    if n2 != c2:
                        a2 = _filter_band(a2 & COLS[n2])
                        if a2 == 0:
                            return FAILED
                        c2 = (a2 | (a2 >> 9) | (a2 >> 18)) & ROW
                    if n0 == c0 and n1 == c1 and n2 == c2:
                        break
            g[w] = a0
            g[w + 1] = a1
            g[w + 2] = a2
            g[SEEN + w] = a0
            g[SEEN + 1 + w] = a1
            g[SEEN + 2 + w] = a2
            # hidden singles: open cells alone in their row of the band (a
            # word that did not change has none that are new)
            changed = (1 if a0 != p0 else 0) | (2 if a1 != p1 else 0) | (4 if a2 != p2 else 0)
            for b in range(3):
                if not (changed >> b) & 1:
                    continue
                a = g[w + b]
                new = a & (ONE[a & ROW] | (ONE[(a >> 9) & ROW] << 9) | (ONE[a >> 18] << 18)) & g[OPEN + b]
                if new:
                    again = True
                    g[OPEN + b] &= ~new
                    for dd in range(9):
                        if dd != d:
                            g[3 * dd + b] &= ~new
        if again:
            continue
        r = naked_singles(g)
        if r == PLACED:
            continue
        if r == FAILED or r == SOLVED:
            return r
        # branch on the bivalue cell with the most open peers
        branch = -1
        most = -1
        for b in range(3):
            two = g[BIVALUE + b]
            u = g[OPEN + b]
            while two:
                low = two & -two
                two ^= low
                i = tz(low)
                col = np.int64(COLUMN) << (i % 9)
                n = pop(u & PEERS[i]) + pop(g[OPEN] & col) + pop(g[OPEN + 1] & col) + pop(g[OPEN + 2] & col) \
                    - pop(u & col)
                if n > most:
                    most = n
                    branch = 27 * b + i
        if branch >= 0:
            return branch
        return _fewest(g)


@njit(cache=True)
def load9(grid, g):
    """Fill board ``g`` (WORDS words) from 81 values; False when two givens clash."""
    for w in range(WORDS):
        g[w] = 0
    for w in range(27):
        g[w] = BAND
        g[SEEN + w] = -1
    for b in range(3):
        g[OPEN + b] = BAND
    for cell in range(81):
        v = np.int64(grid[cell])
        if v:
            b = cell // 27
            i = cell % 27
            w = 3 * (v - 1) + b
            bit = np.int64(1) << i
            if not g[w] & bit:
                return False
            for d in range(9):
                g[3 * d + b] &= ~bit
            col = np.int64(COLUMN) << (i % 9)
            for bb in range(3):
                g[w - b + bb] &= ~col
            g[w] = (g[w] & ~PEERS[i]) | bit
            g[OPEN + b] &= ~bit
    return True


@njit(cache=True)
def unload9(g, out):
    """Write a complete board's values to ``out`` (81 cells)."""
    for d in range(9):
        for b in range(3):
            f = g[3 * d + b]
            while f:
                low = f & -f
                f ^= low
                out[27 * b + tz(low)] = d + 1


# -- the search, resumable ------------------------------------------------------------
#
# The search keeps everything it needs to go on in three arrays, so that it can
# stop after a slice of nodes and resume later (time limits, Ctrl-C, partial
# counts): the board ``g`` (WORDS words), the ``stack`` of stored boards (81 x STORED)
# and the ``trail``: the cell branched on and the digits not tried yet at each
# depth, then a few scalars.

T_WHERE = 0     #: trail[T_WHERE + k]: the cell branched on at depth k (27*band + bit)
T_LEFT = 81     #: trail[T_LEFT + k]: the digits not tried yet at depth k, one bit each
T_DEPTH = 162   #: the number of branch points on the stack
T_DIGIT = 163   #: the placement that starts the next node: digit (-1: none), ...
T_BAND = 164    #: ... its band
T_CELL = 165    #: ... and its cell in the band
T_FOUND = 166   #: the solutions found so far
T_PHASE = 167   #: NEW (load the grid first), RUNNING or DONE
TRAIL = 168     #: the length of the trail
NEW = 0
RUNNING = 1
DONE = 2


@njit(cache=True)
def _start9(grid, g, trail):
    """Load ``grid`` into ``g`` and set the trail at the root; False when two givens clash."""
    trail[T_DEPTH] = 0
    trail[T_DIGIT] = -1
    trail[T_BAND] = 0
    trail[T_CELL] = 0
    trail[T_FOUND] = 0
    trail[T_PHASE] = RUNNING
    if not load9(grid, g):
        trail[T_PHASE] = DONE
        return False
    return True


@njit(cache=True)
def _search9(g, stack, trail, limit, node_limit, solution_out, stats):
    """Run the search from where the trail says until ``limit`` solutions, the
    end of the tree (both: the count, trail DONE) or ``node_limit`` (> 0) nodes
    in this call (-1; the count so far stays in ``trail[T_FOUND]``)."""
    depth = trail[T_DEPTH]
    digit = trail[T_DIGIT]
    band = trail[T_BAND]
    cell = trail[T_CELL]
    found = trail[T_FOUND]
    nodes = 0
    guesses = 0
    done = True
    while True:
        if node_limit > 0 and nodes >= node_limit:
            done = False
            break
        nodes += 1
        r = propagate9(g, digit, band, cell)
        if r == SOLVED:
            if found == 0:
                unload9(g, solution_out)
            found += 1
            if limit > 0 and found >= limit:
                break
        elif r != FAILED:
            guesses += 1
            band = r // 27
            cell = r - 27 * band
            digits = np.int64(0)
            for d in range(9):
                if (g[3 * d + band] >> cell) & 1:
                    digits |= np.int64(1) << d
            for w in range(STORED):
                stack[depth, w] = g[w]
            trail[T_WHERE + depth] = r
            low = digits & -digits
            trail[T_LEFT + depth] = digits ^ low
            depth += 1
            digit = tz(low)
            continue
        # a solution or a dead end: the next digit of the last branch point
        if depth == 0:
            break
        k = depth - 1
        for w in range(27):
            x = stack[k, w]
            g[w] = x
            g[SEEN + w] = x
        for w in range(OPEN, STORED):
            g[w] = stack[k, w]
        rest = trail[T_LEFT + k]
        low = rest & -rest
        rest ^= low
        trail[T_LEFT + k] = rest
        if rest == 0:
            depth = k
        digit = tz(low)
        band = trail[T_WHERE + k] // 27
        cell = trail[T_WHERE + k] - 27 * band
    stats[0] += nodes
    stats[1] += guesses
    trail[T_DEPTH] = depth
    trail[T_DIGIT] = digit
    trail[T_BAND] = band
    trail[T_CELL] = cell
    trail[T_FOUND] = found
    if not done:
        return -1
    trail[T_PHASE] = DONE
    return found


@njit(cache=True)
def count9(grid, limit, node_limit, solution_out, stats):
    """Count the solutions of a 9x9 ``grid`` up to ``limit`` (see the module docstring)."""
    g = np.empty(WORDS, dtype=np.int64)
    trail = np.empty(TRAIL, dtype=np.int64)
    if not _start9(grid, g, trail):
        return 0
    stack = np.empty((81, STORED), dtype=np.int64)
    return _search9(g, stack, trail, limit, node_limit, solution_out, stats)


@njit(cache=True)
def resume9(grid, g, stack, trail, limit, node_limit, solution_out, stats):
    """count9 in slices. Set ``trail[T_PHASE] = NEW`` before the first call;
    each call goes on for at most ``node_limit`` (> 0) nodes and returns the
    count when the search is over, or -1 when the slice ran out (the count so
    far: ``trail[T_FOUND]``). ``g`` (WORDS), ``stack`` (81 x STORED) and ``trail``
    (TRAIL) hold the search between calls; ``grid`` is read at the first."""
    if trail[T_PHASE] == NEW:
        if not _start9(grid, g, trail):
            return 0
    elif trail[T_PHASE] == DONE:
        return trail[T_FOUND]
    return _search9(g, stack, trail, limit, node_limit, solution_out, stats)


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
