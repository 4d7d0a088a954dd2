"""The singles verdict of a 9x9 puzzle, for the generator's ``logic`` rule.

Naked and hidden singles to a fixpoint on the solver's own board words
(:mod:`sudokit.engine.board`): the fixpoint is :func:`sudokit.engine.kernel9.fixpoint9`
with the band filters off, so the 9x9 band words have one propagation, and
the solver and the generator differ only in the rule that finds the hidden
singles (see the docstring of :mod:`sudokit.engine.kernel9`).

A cell with no candidate, or a unit with no place for a value, is a
contradiction. The fixpoint of these rules does not depend on the order in
which they fire, so the verdict (complete, stuck, contradiction) is the one of
:func:`sudokit.engine.generate.propagate` and of the ``clauses`` method; a
test checks this on thousands of partial grids.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import WORDS
from .compiling import load_numba
from .kernel9 import FAILED, SOLVED, fixpoint9, load9

load_numba()  # before the first kernel loads: numba without its BLAS probe

STUCK = 0
COMPLETE = 1
CONTRADICTION = -1


@njit(cache=True)
def singles_verdict9(puzzle, g) -> int:
    """COMPLETE, STUCK or CONTRADICTION for ``puzzle`` (uint8[81]); ``g`` is a
    scratch board of :data:`~sudokit.engine.board.WORDS` int64 words."""
    if not load9(puzzle, g):
        return CONTRADICTION
    r = fixpoint9(g, -1, 0, 0, False)
    if r == SOLVED:
        return COMPLETE
    if r == FAILED:
        return CONTRADICTION
    return STUCK


@njit(cache=True)
def singles9(puzzle, cand, solved) -> int:
    """:func:`singles_verdict9` with a board of its own. (``cand`` and
    ``solved`` are the scratch arrays of an older layout, unused: callers
    should keep a board and call :func:`singles_verdict9`.)"""
    return singles_verdict9(puzzle, np.empty(WORDS, dtype=np.int64))
