"""The 9x9 kernel over any units: X, hyper (windoku), jigsaw and their combinations.

Contract (the same as :func:`sudokit.engine.kernel9.count9`, with the
geometry's tables after the grid)::

    count9u(grid: uint8[81], peers: int64[81, 3], units: int64[U, 4], partners: int64[K, 6],
            mode: int64, propagate: int64, limit: int64, node_limit: int64,
            solution_out: uint8[81], stats: int64[2]) -> int64

The tables come from :func:`tables_of`, and ``propagate`` is the address
of :func:`propagate9u` (:func:`propagator`): both together, cached per
geometry, from :func:`sudokit.engine.search.tables9u`. The result is the number of
solutions found up to ``limit`` (``<= 0``: all), or -1 when ``node_limit``
(> 0) nodes ran out; ``stats`` as in kernel9. :func:`resume9u` runs the
search in slices that resume, with kernel9's trail layout, and can stop after
each solution (``each``), so that it also enumerates. For the generator,
``count9u(puzzle, *tables9u(geo), 2, node_limit, ...) == 1`` is a uniqueness
verdict, as ``count9`` is for classic puzzles.

Representation
--------------
The board is kernel9's (:mod:`sudokit.engine.board`): per digit three band
words of 27 bits, the open cells per band, the words as the filters last saw
them (``SEEN``) and the bivalue cells. A unit is an 81-cell mask kept as
three band words, so a digit's places in unit ``u`` are three ANDs and their
number three popcounts.

Propagation
-----------
One digit at a time, and only for digits whose words changed since they
were last filtered, as in kernel9:

*Rows, columns and boxes.* With the classic boxes among the units (X,
hyper), kernel9's band and stack filters, unchanged: locked candidates
between rows, columns and boxes, and each band's and stack's permutation
rule, in a few table lookups. For a jigsaw the rows and columns are scanned
instead: a row or column with no place for the digit is a contradiction, one
with one place a hidden single.

*Windows.* Hyper's nine windows (the four, and the five they force) are the
boxes of the grid whose rows and columns are taken in the order 1,5,9, 2-4,
6-8. With the windows among the units, the digit's words are carried there
(a table lookup per 9-bit row), put through the same band and stack filters,
and carried back: the windows get kernel9's whole rule, with the rows and
columns.

*Any other unit* (a diagonal, a jigsaw region): the digit's places in it,
none (a contradiction) or one (a hidden single). Two places: every cell
that sees both loses the digit (their common peers under every unit: the
rest of their row, column or box when they share one, and the cells that
see one through a line and the other through a diagonal or region). Three
or more: places all in one row or one column leave the rest of that line;
places all inside a unit it shares two cells or more with (``partners``: a
diagonal and a box, a region and a window or a diagonal) leave the rest of
that unit. Only units that hold a cell changed since the digit was last
filtered are looked at: for the others nothing changed.

*Placements* clear the digit from every peer of the cell at once (``peers``,
three band words per cell), so that a placed digit is alone in each of its
units; *naked singles* are kernel9's bit-sliced counts per band.

Search
------
kernel9's: branch on the bivalue cell with the most open peers (here every
unit's), else on a cell with the fewest digits; the stored boards (30 words)
on an explicit stack, the digits not tried in the trail. With the diagonals
of X (:data:`DIAGONALS`) it branches first on a digit with two places on a
diagonal (the pair with the most open peers): the digit in one now, and on
the trail the other cell with that digit alone, which kernel9's trail
already holds. The propagation's contract is unchanged (it still names a
cell), so a search compiled before it (the generator's verdict compiles the
search in) runs it correctly.

Tried for X and dropped (2026-11-27; ``benchmarks/RESULTS.md``, "X on
kernel9u: fewer nodes"; CPU time against the code before, on x_dev.tsv ER 7+
and on generated X puzzles):

* claiming from a box into a diagonal (a box's places all on the diagonal
  leave the rest of it), only on changes outside the diagonal: nodes -1% on
  the rated puzzles and -5% on generated ones, time +16 to +20%;
* each digit's exact templates with the diagonals (one cell per row,
  column and box and one on each diagonal: band keys joined over the 216
  column permutations of the stacks), at the root or the top of the tree:
  nodes -30% (the root, once) to -55% (the top four levels), time +1 to
  +10% (the root) to +140%: 0.5 to 1 µs a digit on the dense boards where
  they pay most;
* the bivalue cell whose digits eliminate the most: nodes +13%, time +22%;
  bivalue cells on a diagonal first, the pair with the fewest open peers, a
  digit's three places on a diagonal before a bivalue cell: within 3%;
* the common peers of a row's or column's two places too: nodes -12%, time
  +37%; of a diagonal's three places: no gain.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .board import BAND, BIVALUE, COLS, ONE, OPEN, PERM, ROW, SEEN, STORED, WORDS
from .board import pop, tz
from .compiling import load_numba
from .kernel9 import DONE, FAILED, NEW, RUNNING, SOLVED, T_BAND, T_CELL, T_DEPTH, T_DIGIT, T_FOUND, T_LEFT, \
    T_PHASE, T_WHERE, TRAIL, _filter_band, _fewest, unload9

load_numba()  # before the first kernel loads: numba without its BLAS probe

from .pointers import address_of, compile_for, function_at  # noqa: E402

BOXES = 1      #: mode bit: the nine classic boxes are units (kernel9's filters)
WINDOWS = 2    #: mode bit: the four windows of hyper are units (the same filters in window coordinates)
DIAGONALS = 4  #: mode bit: the two diagonals of X are units, the first two of ``units``

#: The rows (and columns) of the grid in window coordinates: the groups 1,5,9 | 2-4 | 6-8 (0-based here).
WINDOW_ORDER = (0, 4, 8, 1, 2, 3, 5, 6, 7)


def _permuted_rows() -> tuple[np.ndarray, np.ndarray]:
    to = np.zeros(512, dtype=np.int64)
    back = np.zeros(512, dtype=np.int64)
    for chunk in range(512):
        to[chunk] = sum(1 << j for j, c in enumerate(WINDOW_ORDER) if chunk >> c & 1)
        back[to[chunk]] = chunk
    return to, back


#: ``TO_WINDOWS[row]``: a 9-bit row with its columns in window order; ``FROM_WINDOWS`` undoes it.
TO_WINDOWS, FROM_WINDOWS = _permuted_rows()

#: The propagation's signature: the search takes its address
#: (:mod:`sudokit.engine.pointers`), so that the two compile apart.
PROPAGATE_SIG = types.int64(types.int64[::1], types.int64, types.int64, types.int64, types.int64[:, ::1],
                            types.int64[:, ::1], types.int64[:, ::1], types.int64)
_propagation_at = function_at(PROPAGATE_SIG)

__all__ = ["count9u", "resume9u", "tables_of", "TRAIL", "T_PHASE", "T_FOUND", "NEW"]

PLACED = 1
UNSEEN = np.int64(-1)  #: as last seen: never (a typed -1, so that the filter compiles once)


@njit(cache=True)
def _classic_filter(a0, a1, a2, p0, p1, p2):
    """kernel9's band and stack filters of one digit's three band words
    (``p``: as last seen; a band that did not change is not filtered again).
    Returns the words, all 0 on a contradiction."""
    if a0 != p0:
        a0 = _filter_band(a0)
    if a1 != p1:
        a1 = _filter_band(a1)
    if a2 != p2:
        a2 = _filter_band(a2)
    if a0 == 0 or a1 == 0 or a2 == 0:
        return 0, 0, 0
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
                return 0, 0, 0
            n0 = (k0 & 7) | ((k1 & 7) << 3) | ((k2 & 7) << 6)
            n1 = ((k0 >> 3) & 7) | (k1 & 0o70) | ((k2 & 0o70) << 3)
            n2 = ((k0 >> 6) & 7) | ((k1 >> 3) & 0o70) | (k2 & 0o700)
            if n0 == c0 and n1 == c1 and n2 == c2:
                break
            if n0 != c0:
                a0 = _filter_band(a0 & COLS[n0])
                if a0 == 0:
                    return 0, 0, 0
                c0 = (a0 | (a0 >> 9) | (a0 >> 18)) & ROW
            if n1 != c1:
                a1 = _filter_band(a1 & COLS[n1])
                if a1 == 0:
                    return 0, 0, 0
                c1 = (a1 | (a1 >> 9) | (a1 >> 18)) & ROW
            if n2 != c2:
                a2 = _filter_band(a2 & COLS[n2])
                if a2 == 0:
                    return 0, 0, 0
                c2 = (a2 | (a2 >> 9) | (a2 >> 18)) & ROW
            if n0 == c0 and n1 == c1 and n2 == c2:
                break
    return a0, a1, a2


@njit(cache=True, inline="always")
def place_u(g, d, b, low, peers):
    """Place digit ``d`` in the open cell ``low`` (one bit) of band ``b``: the
    cell leaves the other digits and the open cells, its peers (every unit's,
    in all three bands) leave ``d``."""
    cell = 27 * b + tz(low)
    for dd in range(9):
        g[3 * dd + b] &= ~low
    w = 3 * d
    g[w] &= ~peers[cell, 0]
    g[w + 1] &= ~peers[cell, 1]
    g[w + 2] &= ~peers[cell, 2]
    g[w + b] |= low
    g[OPEN + b] &= ~low


@njit(cache=True)
def _naked_singles_u(g, peers):
    """kernel9's naked singles (FAILED, SOLVED, PLACED or 0 with the bivalue
    cells noted), with placements that clear every unit's peers."""
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
                place_u(g, d, b, low, peers)
        else:
            g[BIVALUE + b] = u & r2 & ~r3
    if placed:
        return PLACED
    if solved:
        return SOLVED
    return 0


@njit(cache=True)
def _place_all(g, d, s0, s1, s2, peers):
    """Place ``d`` in the open cells of ``s0..s2`` (band words) still open to
    it; whether it placed any."""
    any_ = False
    for b in range(3):
        s = s0 if b == 0 else (s1 if b == 1 else s2)
        s &= g[OPEN + b]
        while s:
            low = s & -s
            s ^= low
            if g[3 * d + b] & low and g[OPEN + b] & low:
                place_u(g, d, b, low, peers)
                any_ = True
    return any_


@njit(cache=True)
def _pair(x0, x1, x2):
    """The two cells (27*band + bit, the lower first) of three band words that hold two bits."""
    if x0:
        low = x0 & -x0
        rest = x0 ^ low
        return tz(low), (tz(rest) if rest else (27 + tz(x1) if x1 else 54 + tz(x2)))
    if x1:
        low = x1 & -x1
        rest = x1 ^ low
        return 27 + tz(low), (27 + tz(rest) if rest else 54 + tz(x2))
    low = x2 & -x2
    return 54 + tz(low), 54 + tz(x2 ^ low)


@njit(cache=True)
def propagate9u(g, digit, band, cell, peers, units, partners, mode):
    """Place ``digit`` (0-based; none when negative) in ``cell`` of ``band``,
    then filter to a fixpoint. FAILED, SOLVED, or the cell to branch on
    (27*band + bit)."""
    if digit >= 0:
        place_u(g, digit, band, np.int64(1) << cell, peers)
    n_units = units.shape[0]
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
            s0 = np.int64(0)  # hidden singles found, per band
            s1 = np.int64(0)
            s2 = np.int64(0)
            if mode & BOXES:
                a0, a1, a2 = _classic_filter(a0, a1, a2, p0, p1, p2)
                if a0 == 0:
                    return FAILED
                # a row left with one place (a box or column alone ends up alone in its row too)
                if a0 != p0:
                    s0 = a0 & (ONE[a0 & ROW] | (ONE[(a0 >> 9) & ROW] << 9) | (ONE[a0 >> 18] << 18))
                if a1 != p1:
                    s1 = a1 & (ONE[a1 & ROW] | (ONE[(a1 >> 9) & ROW] << 9) | (ONE[a1 >> 18] << 18))
                if a2 != p2:
                    s2 = a2 & (ONE[a2 & ROW] | (ONE[(a2 >> 9) & ROW] << 9) | (ONE[a2 >> 18] << 18))
            else:
                # rows and columns: none left is a contradiction, one a hidden single
                once = np.int64(0)
                twice = np.int64(0)
                for b in range(3):
                    a = a0 if b == 0 else (a1 if b == 1 else a2)
                    for k in range(3):
                        row = (a >> (9 * k)) & ROW
                        if row == 0:
                            return FAILED
                        twice |= once & row
                        once |= row
                if once != ROW:
                    return FAILED
                s0 = a0 & (ONE[a0 & ROW] | (ONE[(a0 >> 9) & ROW] << 9) | (ONE[a0 >> 18] << 18))
                s1 = a1 & (ONE[a1 & ROW] | (ONE[(a1 >> 9) & ROW] << 9) | (ONE[a1 >> 18] << 18))
                s2 = a2 & (ONE[a2 & ROW] | (ONE[(a2 >> 9) & ROW] << 9) | (ONE[a2 >> 18] << 18))
                lone = once & ~twice
                if lone:
                    cols = COLS[lone]
                    s0 |= a0 & cols
                    s1 |= a1 & cols
                    s2 |= a2 & cols
            # the filters' output is what the next visit compares with
            f0 = a0
            f1 = a1
            f2 = a2
            if mode & WINDOWS:
                # the same filters on the grid with its rows and columns in window
                # order, where the nine windows of hyper are its boxes
                q0 = TO_WINDOWS[a0 & ROW] | (TO_WINDOWS[(a1 >> 9) & ROW] << 9) | (TO_WINDOWS[a2 >> 18] << 18)
                q1 = TO_WINDOWS[(a0 >> 9) & ROW] | (TO_WINDOWS[a0 >> 18] << 9) | (TO_WINDOWS[a1 & ROW] << 18)
                q2 = TO_WINDOWS[a1 >> 18] | (TO_WINDOWS[a2 & ROW] << 9) | (TO_WINDOWS[(a2 >> 9) & ROW] << 18)
                q0, q1, q2 = _classic_filter(q0, q1, q2, UNSEEN, UNSEEN, UNSEEN)
                if q0 == 0:
                    return FAILED
                a0 = FROM_WINDOWS[q0 & ROW] | (FROM_WINDOWS[q1 & ROW] << 9) | (FROM_WINDOWS[(q1 >> 9) & ROW] << 18)
                a1 = FROM_WINDOWS[q1 >> 18] | (FROM_WINDOWS[(q0 >> 9) & ROW] << 9) | (FROM_WINDOWS[q2 & ROW] << 18)
                a2 = FROM_WINDOWS[(q2 >> 9) & ROW] | (FROM_WINDOWS[q2 >> 18] << 9) | (FROM_WINDOWS[q0 >> 18] << 18)
                if a0 != f0:
                    s0 |= a0 & (ONE[a0 & ROW] | (ONE[(a0 >> 9) & ROW] << 9) | (ONE[a0 >> 18] << 18))
                if a1 != f1:
                    s1 |= a1 & (ONE[a1 & ROW] | (ONE[(a1 >> 9) & ROW] << 9) | (ONE[a1 >> 18] << 18))
                if a2 != f2:
                    s2 |= a2 & (ONE[a2 & ROW] | (ONE[(a2 >> 9) & ROW] << 9) | (ONE[a2 >> 18] << 18))
            # the cells that changed since the last visit (everything on the first)
            e0 = p0 ^ a0
            e1 = p1 ^ a1
            e2 = p2 ^ a2
            k = 0  # the first partner of unit u
            for u in range(n_units):
                m0 = units[u, 0]
                m1 = units[u, 1]
                m2 = units[u, 2]
                last = units[u, 3]
                if (e0 & m0) | (e1 & m1) | (e2 & m2) == 0:
                    k = last
                    continue
                x0 = a0 & m0
                x1 = a1 & m1
                x2 = a2 & m2
                n = pop(x0) + pop(x1) + pop(x2)
                if n == 0:
                    return FAILED
                if n == 1:
                    s0 |= x0
                    s1 |= x1
                    s2 |= x2
                    k = last
                    continue
                if n == 2:
                    # a cell that sees both places loses the digit (this takes in
                    # the places' row, column or partner when they share one)
                    c, other = _pair(x0, x1, x2)
                    a0 &= ~(peers[c, 0] & peers[other, 0])
                    a1 &= ~(peers[c, 1] & peers[other, 1])
                    a2 &= ~(peers[c, 2] & peers[other, 2])
                    k = last
                    continue
                # locked candidates into a row or a column: the places in u all
                # in one column, or all in one row, leave the rest of it
                cc = x0 | x1 | x2
                cc = (cc | (cc >> 9) | (cc >> 18)) & ROW
                if cc & (cc - 1) == 0:
                    col = COLS[cc]
                    a0 &= ~(col & ~m0)
                    a1 &= ~(col & ~m1)
                    a2 &= ~(col & ~m2)
                if x1 == 0 and x2 == 0:
                    rm = np.int64(ROW) << (9 * (tz(x0) // 9))
                    if x0 & ~rm == 0:
                        a0 &= ~(rm & ~m0)
                elif x0 == 0 and x2 == 0:
                    rm = np.int64(ROW) << (9 * (tz(x1) // 9))
                    if x1 & ~rm == 0:
                        a1 &= ~(rm & ~m1)
                elif x0 == 0 and x1 == 0:
                    rm = np.int64(ROW) << (9 * (tz(x2) // 9))
                    if x2 & ~rm == 0:
                        a2 &= ~(rm & ~m2)
                # locked candidates: the places in u all inside a partner v leave the rest of v
                while k < last:
                    if (x0 & partners[k, 0]) | (x1 & partners[k, 1]) | (x2 & partners[k, 2]) == 0:
                        a0 &= ~partners[k, 3]
                        a1 &= ~partners[k, 4]
                        a2 &= ~partners[k, 5]
                    k += 1
            if a0 == 0 or a1 == 0 or a2 == 0:
                return FAILED
            g[w] = a0
            g[w + 1] = a1
            g[w + 2] = a2
            g[SEEN + w] = f0
            g[SEEN + 1 + w] = f1
            g[SEEN + 2 + w] = f2
            if a0 != f0 or a1 != f1 or a2 != f2:
                again = True
            if (s0 & g[OPEN]) | (s1 & g[OPEN + 1]) | (s2 & g[OPEN + 2]):
                if _place_all(g, d, s0, s1, s2, peers):
                    again = True
        if again:
            continue
        r = _naked_singles_u(g, peers)
        if r == PLACED:
            continue
        if r == FAILED or r == SOLVED:
            return r
        # branch on the bivalue cell with the most open peers
        branch = -1
        most = -1
        o0 = g[OPEN]
        o1 = g[OPEN + 1]
        o2 = g[OPEN + 2]
        for b in range(3):
            two = g[BIVALUE + b]
            while two:
                low = two & -two
                two ^= low
                c = 27 * b + tz(low)
                n = pop(o0 & peers[c, 0]) + pop(o1 & peers[c, 1]) + pop(o2 & peers[c, 2])
                if n > most:
                    most = n
                    branch = c
        if branch >= 0:
            return branch
        return _fewest(g)


@njit(cache=True)
def _diagonal_pair(g, peers, units):
    """A digit with two places on a diagonal (``units[0]`` and ``units[1]``),
    the pair with the most open peers, as ``(81*digit + cell) * 81 + other``
    (the lower cell first); -1 when there is none."""
    o0 = g[OPEN]
    o1 = g[OPEN + 1]
    o2 = g[OPEN + 2]
    most = -1
    pick = -1
    for u in range(2):
        m0 = units[u, 0]
        m1 = units[u, 1]
        m2 = units[u, 2]
        for d in range(9):
            x0 = g[3 * d] & m0
            x1 = g[3 * d + 1] & m1
            x2 = g[3 * d + 2] & m2
            if pop(x0) + pop(x1) + pop(x2) != 2:
                continue
            c, other = _pair(x0, x1, x2)
            n = pop(o0 & peers[c, 0]) + pop(o1 & peers[c, 1]) + pop(o2 & peers[c, 2]) \
                + pop(o0 & peers[other, 0]) + pop(o1 & peers[other, 1]) + pop(o2 & peers[other, 2])
            if n > most:
                most = n
                pick = (81 * d + c) * 81 + other
    return pick


@njit(cache=True)
def load9u(grid, g, peers):
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
            bit = np.int64(1) << (cell % 27)
            if not g[3 * (v - 1) + b] & bit:
                return False
            place_u(g, v - 1, b, bit, peers)
    return True


@njit(cache=True)
def _start9u(grid, g, trail, peers):
    trail[T_DEPTH] = 0
    trail[T_DIGIT] = -1
    trail[T_BAND] = 0
    trail[T_CELL] = 0
    trail[T_FOUND] = 0
    trail[T_PHASE] = RUNNING
    if not load9u(grid, g, peers):
        trail[T_PHASE] = DONE
        return False
    return True


@njit(cache=True)
def _search9u(g, stack, trail, peers, units, partners, mode, propagate, limit, node_limit, each, solution_out, stats):
    """kernel9's resumable search over the tables. With ``each``, it also
    returns after every solution (in ``solution_out``), the trail set to go
    on from the next branch: -2."""
    depth = trail[T_DEPTH]
    digit = trail[T_DIGIT]
    band = trail[T_BAND]
    cell = trail[T_CELL]
    found = trail[T_FOUND]
    step = _propagation_at(propagate)
    nodes = 0
    guesses = 0
    done = True
    stop = False
    while True:
        if node_limit > 0 and nodes >= node_limit:
            done = False
            break
        nodes += 1
        r = step(g, digit, band, cell, peers, units, partners, mode)
        if r == SOLVED:
            if found == 0 or each:
                unload9(g, solution_out)
            found += 1
            if limit > 0 and found >= limit:
                break
            stop = each
        elif r != FAILED:
            guesses += 1
            pair = _diagonal_pair(g, peers, units) if mode & DIAGONALS else -1
            if pair >= 0:
                # the digit in one cell now, in the other (the digit alone) on the trail
                for w in range(STORED):
                    stack[depth, w] = g[w]
                trail[T_WHERE + depth] = pair % 81
                pair //= 81
                digit = pair // 81
                trail[T_LEFT + depth] = np.int64(1) << digit
                depth += 1
                band = (pair % 81) // 27
                cell = pair % 81 - 27 * band
                continue
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
        if stop:
            done = False
            break
    stats[0] += nodes
    stats[1] += guesses
    trail[T_DEPTH] = depth
    trail[T_DIGIT] = digit
    trail[T_BAND] = band
    trail[T_CELL] = cell
    trail[T_FOUND] = found
    if done:
        trail[T_PHASE] = DONE
    if stop:
        return -2
    if not done:
        return -1
    return found


@njit(cache=True)
def count9u(grid, peers, units, partners, mode, propagate, limit, node_limit, solution_out, stats):
    """Count the solutions of a 9x9 ``grid`` under the tables, up to ``limit``
    (see the module docstring)."""
    g = np.empty(WORDS, dtype=np.int64)
    trail = np.empty(TRAIL, dtype=np.int64)
    if not _start9u(grid, g, trail, peers):
        return 0
    stack = np.empty((81, STORED), dtype=np.int64)
    return _search9u(g, stack, trail, peers, units, partners, mode, propagate, limit, node_limit, False, solution_out,
                     stats)


@njit(cache=True)
def resume9u(grid, g, stack, trail, peers, units, partners, mode, propagate, limit, node_limit, each, solution_out,
             stats):
    """count9u in slices, as :func:`~sudokit.engine.kernel9.resume9`: set
    ``trail[T_PHASE] = NEW`` before the first call. Returns the count when the
    search is over, -1 when the slice of ``node_limit`` nodes ran out, and,
    with ``each``, -2 after each solution (in ``solution_out``; the next call
    goes on from there). The count so far is ``trail[T_FOUND]``."""
    if trail[T_PHASE] == NEW:
        if not _start9u(grid, g, trail, peers):
            return 0
    elif trail[T_PHASE] == DONE:
        return trail[T_FOUND]
    return _search9u(g, stack, trail, peers, units, partners, mode, propagate, limit, node_limit, each, solution_out,
                     stats)


# -- loading --------------------------------------------------------------------------

_propagator: list[int] = []


def propagator() -> int:
    """The address of :func:`propagate9u`, as the search takes it (compiled
    or loaded from the cache once per process)."""
    if not _propagator:
        _propagator.append(address_of(propagate9u, PROPAGATE_SIG))
    return _propagator[0]


def load_propagation() -> None:
    """Compile (or load) :func:`propagate9u` (a helper's half of :func:`load`)."""
    propagate9u.compile(PROPAGATE_SIG.args)


def load() -> None:
    """Load the search and its propagation before the first puzzle. On a first
    run a helper process compiles the propagation (the ``variants-propagation``
    kernel group) while this one compiles the search; then it loads the
    helper's machine code. Later calls cost nothing."""
    if _propagator:
        return
    from .compiling import alongside

    with alongside(("variants-propagation",)):
        ints = np.zeros(1, dtype=np.int64)
        table = np.zeros((1, 1), dtype=np.int64)
        compile_for(resume9u, np.zeros(81, dtype=np.uint8), ints, np.zeros((81, STORED), dtype=np.int64), ints,
                    table, table, table, 0, 0, 0, 0, False, np.zeros(81, dtype=np.uint8),
                    ints)
    propagator()


# -- the tables of a geometry (plain Python) --------------------------------------------


_BAND = (1 << 27) - 1
_ROWS = tuple(_BAND >> 18 << (9 * r) for r in range(9))
_COLS = tuple(sum(1 << (9 * r + c) for r in range(9)) for c in range(9))
_BOXES = tuple(sum(1 << (9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3) for i in range(9)) for b in range(9))
_WINDOW_GROUPS = tuple(sum(1 << (9 * r + c) for r in rows for c in cols)
                       for rows in (WINDOW_ORDER[0:3], WINDOW_ORDER[3:6], WINDOW_ORDER[6:9])
                       for cols in (WINDOW_ORDER[0:3], WINDOW_ORDER[3:6], WINDOW_ORDER[6:9]))
#: The four windows of hyper (rows 2-4 and 6-8 by columns 2-4 and 6-8, 1-based): groups 4, 5, 7 and 8 above.
_WINDOWS = frozenset(_WINDOW_GROUPS[k] for k in (4, 5, 7, 8))
_BOX_SET = frozenset(_BOXES)
#: The main diagonal and the other one.
_DIAGONALS_IN_ORDER = (sum(1 << (10 * i) for i in range(9)), sum(1 << (8 * i + 8) for i in range(9)))
_DIAGONALS = frozenset(_DIAGONALS_IN_ORDER)
_WINDOW_SET = frozenset(_WINDOW_GROUPS)


def _words(mask: int) -> tuple[int, int, int]:
    """An 81-cell mask (bit c for cell c) as three band words."""
    return mask & _BAND, (mask >> 27) & _BAND, mask >> 54


def tables_of(geo):
    """``(peers, units, partners, mode)`` for :func:`count9u`, or None when
    the geometry is not a 9x9 whose first 18 units are its rows and columns
    (every variant of :mod:`sudokit.variants` is).

    * ``mode`` has :data:`BOXES` when the nine classic boxes are units
      (kernel9's filters then do rows, columns and boxes; else the rows and
      columns are scanned, as for a jigsaw) and :data:`WINDOWS` when the four
      windows of hyper are (the same filters then take all nine windows, in
      window coordinates).
    * ``peers[cell]``: the cell's peers under every unit, as band words.
    * ``units[u]``: band words 0..2 of a unit the filters do not cover (a
      diagonal, a region); ``units[u, 3]`` ends its partners.
    * ``partners[k]``, for k from ``units[u-1, 3]`` (0 for the first) to
      ``units[u, 3]``: a unit v other than a row or a column that shares two
      cells or more with u, as the band words of the cells outside v (0..2)
      and of v's cells outside u (3..5).

    >>> from sudokit import variants
    >>> peers, units, partners, mode = tables_of(variants.x("3x3"))
    >>> units.shape, partners.shape, mode == BOXES | DIAGONALS      # two diagonals, through three boxes each
    ((2, 4), (6, 6), True)
    """
    if geo.n != 9:
        return None
    masks = geo.unit_mask
    if tuple(masks[:9]) != _ROWS or tuple(masks[9:18]) != _COLS:
        return None
    present = frozenset(masks[18:])
    boxes = _BOX_SET <= present
    windows = _WINDOWS <= present
    covered = (_BOX_SET if boxes else frozenset()) | (_WINDOW_SET if windows else frozenset())
    # the units the filters do not cover, each once: the diagonals first, then in the geometry's order
    others = list(dict.fromkeys(m for m in masks[18:] if m not in covered))
    diagonals = _DIAGONALS <= frozenset(others)
    if diagonals:
        others = list(_DIAGONALS_IN_ORDER) + [m for m in others if m not in _DIAGONALS]
    # pointing only: a unit the filters cover taking the digit out of one of these when its
    # places lie inside it (claiming) finds little more and costs more than it saves
    partners_of: dict[int, list[int]] = {m: [] for m in others}
    for u in others:
        for v in others + sorted(covered):
            if v != u and (u & v).bit_count() >= 2:
                partners_of[u].append(v)
    unit_rows, partner_rows = [], []
    full = (1 << 81) - 1
    for u, vs in partners_of.items():
        for v in vs:
            partner_rows.append(_words(full & ~v) + _words(v & ~u))
        unit_rows.append(_words(u) + (len(partner_rows),))
    peer = [0] * 81
    for m, cells in zip(masks, geo.units):
        for c in cells:
            peer[c] |= m
    peers = np.array([(p & _BAND, (p >> 27) & _BAND, p >> 54) for p in peer], dtype=np.int64)
    for c in range(81):
        peers[c, c // 27] &= ~(1 << (c % 27))
    return (peers, np.array(unit_rows, dtype=np.int64).reshape(-1, 4),
            np.array(partner_rows, dtype=np.int64).reshape(-1, 6),
            BOXES * boxes + WINDOWS * windows + DIAGONALS * diagonals)


def warm() -> None:
    """Load this kernel's count and enumeration through the engine's calls,
    compiling them on a first run (the ``variants`` group of
    :data:`sudokit.engine.compiling.KERNELS`)."""
    from .. import variants
    from ..budget import Budget
    from ..grid import Grid
    from .search import count, solutions

    grid = Grid.empty().with_geometry(variants.x())
    load()
    count(grid, 1, Budget())
    next(solutions(grid, Budget()))
