"""The singles verdict of a 9x9 puzzle, for the generator's ``logic`` rule.

Naked and hidden singles to a fixpoint on the solver's own board words
(:mod:`sudokit.engine.board`), with the solver's placements and naked singles
(:func:`sudokit.engine.kernel9.naked_singles`): the solver and the generator
differ only in the rule that finds the hidden singles. The solver's band and
stack filters do locked candidates too, which a singles verdict must not;
here each changed digit's placed cells clear their columns in the other
bands, and its rows, boxes and columns are scanned for one place left.

numba caches this module's kernels by this file: after an edit of
:mod:`~sudokit.engine.kernel9` or :mod:`~sudokit.engine.board`, clear its
cache too.

A cell with no candidate, or a unit with no place for a value, is a
contradiction. The fixpoint of these rules does not depend on the order in
which they fire, so the verdict (complete, stuck, contradiction) is the one of
the masks' propagation (:func:`sudokit.engine.kernelN.singles_n`, for the
other shapes) and of the ``clauses`` method; tests check this on thousands of
partial grids.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import BOX, COLS, COLUMN, ONE, OPEN, ROW, SEEN, WORDS
from .compiling import load_numba
from .kernel9 import FAILED, PLACED, SOLVED, place, load9, naked_singles

load_numba()  # before the first kernel loads: numba without its BLAS probe

STUCK = 0
COMPLETE = 1
CONTRADICTION = -1


@njit(cache=True, inline="always")
def _hidden_singles(g, d):
    """The singles rule for digit ``d``: its placed cells take their columns
    out of its words in the other bands; then a row, box or column with one
    place left for it gets it. FAILED when a unit has no place, else whether
    it placed."""
    w = 3 * d
    for b in range(3):
        placed = g[w + b] & ~g[OPEN + b]
        if placed:
            cols = COLS[(placed | (placed >> 9) | (placed >> 18)) & ROW]
            for bb in range(3):
                if bb != b:
                    g[w + bb] &= ~cols
    placed_any = False
    once = np.int64(0)
    twice = np.int64(0)
    for b in range(3):
        a = g[w + b]
        new = a & (ONE[a & ROW] | (ONE[(a >> 9) & ROW] << 9) | (ONE[a >> 18] << 18))
        for k in range(3):
            row = (a >> (9 * k)) & ROW
            if row == 0:
                return FAILED
            twice |= once & row
            once |= row
            box = a & (np.int64(BOX) << (3 * k))
            if box == 0:
                return FAILED
            if box & (box - 1) == 0:
                new |= box
        new &= g[OPEN + b]
        while new:
            low = new & -new
            new ^= low
            if g[w + b] & low:  # not taken away by the placements before it
                place(g, d, b, low)
                placed_any = True
    if once != ROW:
        return FAILED
    cols = once & ~twice
    while cols:
        c = cols & -cols
        cols ^= c
        col = np.int64(COLUMN) * c
        for b in range(3):
            low = g[w + b] & col & g[OPEN + b]
            if low:
                place(g, d, b, low)
                placed_any = True
    return 1 if placed_any else 0


@njit(cache=True)
def propagate_singles9(g):
    """Naked and hidden singles to a fixpoint on board ``g`` (from
    :func:`~sudokit.engine.kernel9.load9`): FAILED, SOLVED or 0 (stuck).
    Only digits whose words changed since they were last seen are looked at
    again, as in the solver."""
    while True:
        again = False
        for d in range(9):
            w = 3 * d
            if g[w] == g[SEEN + w] and g[w + 1] == g[SEEN + w + 1] and g[w + 2] == g[SEEN + w + 2]:
                continue
            # seen before the rule runs, so that what the rule changes brings the digit back
            g[SEEN + w] = g[w]
            g[SEEN + w + 1] = g[w + 1]
            g[SEEN + w + 2] = g[w + 2]
            found = _hidden_singles(g, d)
            if found == FAILED:
                return FAILED
            if found:
                # a cell placed alone in its row, box and column of the band
                # leaves the digit's words as they were: look again anyway,
                # for the column it takes in the other bands
                g[SEEN + w] = -1
                again = True
        if again:
            continue
        r = naked_singles(g)
        if r != PLACED:
            return r


@njit(cache=True)
def singles_verdict9(puzzle, g) -> int:
    """COMPLETE, STUCK or CONTRADICTION for ``puzzle`` (uint8[81]); ``g`` is a
    scratch board of :data:`~sudokit.engine.board.WORDS` int64 words."""
    if not load9(puzzle, g):
        return CONTRADICTION
    r = propagate_singles9(g)
    if r == SOLVED:
        return COMPLETE
    if r == FAILED:
        return CONTRADICTION
    return STUCK


@njit(cache=True)
def singles9(puzzle, cand, solved) -> int:
    """:func:`singles_verdict9` with a board of its own, for callers that
    still pass the scratch arrays of the older layout (``cand`` int64[9, 3],
    ``solved`` int64[3], unused): keep a board and call
    :func:`singles_verdict9` instead."""
    return singles_verdict9(puzzle, np.empty(WORDS, dtype=np.int64))
