"""Naked and hidden singles for 9x9, bit-parallel, for the generator's ``logic`` rule.

Representation. For each value ``d`` (0..8) the cells where it is still a
candidate form a bit board of 81 cells, kept as three 27-bit words, one per
band of three rows (bit ``9*r + c`` of band word ``b`` is cell ``(3*b + r, c)``).
A solved cell keeps its own value's bit and loses every other value's.
Placing value ``d`` in a cell clears that cell in the eight other boards and
clears the cell's peers (row, column, box: three precomputed band masks) in
board ``d``.

The rules, to a fixpoint:

* **naked single**: per band, two running masks over the nine boards (seen
  once, seen twice) give the open cells with exactly one candidate at once;
* **hidden single**: per value, a row or a box is a 9-bit slice of a band
  word; the columns are folded from the nine row slices with the same
  once/twice masks, so all nine columns are tested together.

A cell with no candidate, or a unit with no place for a value, is a
contradiction. The fixpoint of these rules does not depend on the order in
which they fire, so the verdict (complete, stuck, contradiction) is the one of
:func:`sudokit.engine.generate.propagate` and of the ``clauses`` method; a
test checks this on thousands of partial grids.

Plain int64 words throughout (27 bits used), so numba never mixes signed and
unsigned arithmetic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .compiling import load_numba

load_numba()  # before the first kernel loads: numba without its BLAS probe

STUCK = 0
COMPLETE = 1
CONTRADICTION = -1

ROW9 = 0x1FF
BAND = (1 << 27) - 1


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    band = np.empty(81, dtype=np.int64)
    bit = np.empty(81, dtype=np.int64)
    peers = np.zeros((81, 3), dtype=np.int64)   # the cell's row, column and box, itself included
    for cell in range(81):
        r, c = divmod(cell, 9)
        band[cell] = r // 3
        bit[cell] = 1 << (9 * (r % 3) + c)
        for other in range(81):
            r2, c2 = divmod(other, 9)
            if r2 == r or c2 == c or (r2 // 3 == r // 3 and c2 // 3 == c // 3):
                peers[cell, r2 // 3] |= 1 << (9 * (r2 % 3) + c2)
    return band, bit, peers


CELL_BAND, CELL_BIT, PEERS = _tables()
#: The three boxes of a band, as band-word masks.
BOX_MASKS = np.array([sum(7 << (9 * r + 3 * j) for r in range(3)) for j in range(3)], dtype=np.int64)


@njit(cache=True, inline="always")
def _place(cand, solved, d, cell) -> bool:
    """Value ``d`` (0..8) into ``cell``; False when ``d`` is no longer possible there."""
    b = CELL_BAND[cell]
    bit = CELL_BIT[cell]
    if (cand[d, b] & bit) == 0:
        return False
    for e in range(9):
        cand[e, b] &= ~bit
    for x in range(3):
        cand[d, x] &= ~PEERS[cell, x]
    cand[d, b] |= bit
    solved[b] |= bit
    return True


@njit(cache=True, inline="always")
def _popcount(x) -> int:
    """Set bits of a word of < 32 bits."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return (x * 0x01010101 & 0xFFFFFFFF) >> 24


@njit(cache=True, inline="always")
def _bit_index(x) -> int:
    """Index of the lowest set bit of a non-zero word (< 32 bits)."""
    x = (x & -x) - 1
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return (x * 0x01010101 & 0xFFFFFFFF) >> 24


@njit(cache=True)
def load9(puzzle, cand, solved) -> bool:
    """Candidates of ``puzzle`` (uint8[81]) before any deduction; False on clashing givens."""
    for d in range(9):
        for b in range(3):
            cand[d, b] = BAND
    for b in range(3):
        solved[b] = 0
    for cell in range(81):
        v = puzzle[cell]
        if v:
            if not _place(cand, solved, v - 1, cell):
                return False
    return True


@njit(cache=True)
def propagate9(cand, solved) -> int:
    """Naked and hidden singles to a fixpoint: COMPLETE, STUCK or CONTRADICTION."""
    while True:
        placed = False
        # naked singles, band by band
        for b in range(3):
            once = 0
            twice = 0
            for d in range(9):
                x = cand[d, b]
                twice |= once & x
                once |= x
            open_cells = BAND & ~solved[b]
            if open_cells & ~once:
                return CONTRADICTION
            naked = once & ~twice & open_cells
            while naked:
                bit = naked & -naked
                naked ^= bit
                pos = _bit_index(bit)
                cell = 27 * b + pos
                value = -1
                for d in range(9):
                    if cand[d, b] & bit:
                        value = d
                        break
                if value < 0 or not _place(cand, solved, value, cell):
                    return CONTRADICTION
                placed = True
        if placed:
            continue
        # hidden singles, value by value
        for d in range(9):
            if (((cand[d, 0] & ~solved[0]) | (cand[d, 1] & ~solved[1]) | (cand[d, 2] & ~solved[2])) == 0
                    and _popcount(cand[d, 0]) + _popcount(cand[d, 1]) + _popcount(cand[d, 2]) == 9):
                continue  # placed nine times (never twice in a unit): nothing can happen
            once = 0
            twice = 0
            for b in range(3):
                w = cand[d, b]
                for k in range(3):
                    row = (w >> (9 * k)) & ROW9
                    if row == 0:
                        return CONTRADICTION
                    twice |= once & row
                    once |= row
                    if (row & (row - 1)) == 0:
                        bit = row << (9 * k)
                        if (solved[b] & bit) == 0:
                            if not _place(cand, solved, d, 27 * b + 9 * k + _bit_index(row)):
                                return CONTRADICTION
                            placed = True
                            w = cand[d, b]
                for j in range(3):
                    box = w & BOX_MASKS[j]
                    if box == 0:
                        return CONTRADICTION
                    if (box & (box - 1)) == 0 and (solved[b] & box) == 0:
                        if not _place(cand, solved, d, 27 * b + _bit_index(box)):
                            return CONTRADICTION
                        placed = True
                        w = cand[d, b]
            if once != ROW9:
                return CONTRADICTION
            cols = once & ~twice
            while cols:
                cbit = cols & -cols
                cols ^= cbit
                # the one row holding this column's candidate (the boards may have
                # shrunk since the fold; a vanished candidate is a contradiction)
                where = -1
                for b in range(3):
                    w = cand[d, b]
                    for k in range(3):
                        if (w >> (9 * k)) & cbit:
                            where = 27 * b + 9 * k + _bit_index(cbit)
                if where < 0:
                    return CONTRADICTION
                if (solved[CELL_BAND[where]] & CELL_BIT[where]) == 0:
                    if not _place(cand, solved, d, where):
                        return CONTRADICTION
                    placed = True
        if not placed:
            break
    for b in range(3):
        if solved[b] != BAND:
            return STUCK
    return COMPLETE


@njit(cache=True)
def singles9(puzzle, cand, solved) -> int:
    """The singles verdict of ``puzzle`` (uint8[81]); ``cand`` int64[9, 3] and ``solved`` int64[3] are scratch."""
    if not load9(puzzle, cand, solved):
        return CONTRADICTION
    return propagate9(cand, solved)
