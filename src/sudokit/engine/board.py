"""The 9x9 board words, named, and the bit helpers every kernel shares.

Throughout the 9x9 kernels (:mod:`~sudokit.engine.kernel9`,
:mod:`~sudokit.engine.singles9`) we have:

* ``d`` is a digit, 0..8 (the value ``d + 1``);
* ``b`` is a band, 0..2: a row of boxes, grid rows ``3b .. 3b+2``;
* ``i`` is a cell of a band, ``9*r + c`` for row ``r`` (0..2) of the band and
  column ``c`` (0..8); bit ``i`` of a band word stands for that cell, and the
  grid cell is ``27*b + i``;
* a *band word* is an int64 whose 27 low bits are cells of one band;
* ``g`` is a board: :data:`WORDS` band words. ``g[digit_word(d, b)]`` holds the
  cells of band ``b`` where ``d`` may still go (a placed digit keeps its
  bit), ``g[OPEN + b]`` the cells of band ``b`` not placed yet, ``g[SEEN +
  digit_word(d, b)]`` the digit word as the band filters last saw it, and
  ``g[BIVALUE + b]`` the open cells of band ``b`` left with two digits;
* a search stores the first :data:`STORED` words of a board (digits and open
  cells): the rest is the filters' memory, rebuilt from them.

The masks: :data:`BAND` is every cell of a band, :data:`ROW` row 0 of a band
(``ROW << 9*r``), :data:`COLUMN` column 0 (``COLUMN << c``), :data:`BOX` the
box of columns 0..2 (``BOX << 3*j`` for box ``j`` of the band).

The bit helpers (:func:`tz`, :func:`pop`) take int64 and uint64 words alike
and compile to one instruction each; every kernel of the engine uses these
two and no other copy.

numba keys its on-disk cache on the file of the function it compiled, and
copies the tables below into the machine code: after an edit here, clear the
cache (``__pycache__/*.nbi``) of the kernels that use them.

>>> digit_word(4, 2), OPEN, SEEN + digit_word(4, 2), BIVALUE
(14, 27, 46, 60)
>>> bin(COLUMN << 4).count("1"), hex(int(PEERS[0]) & ROW)
(3, '0x1fe')
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .compiling import load_numba

load_numba()  # before the first kernel loads: numba without its BLAS probe

__all__ = [
    "DIGITS", "OPEN", "STORED", "SEEN", "BIVALUE", "WORDS", "BAND", "ROW", "COLUMN", "BOX",
    "SHRINK", "COMPLEX", "PERM", "ONE", "COLS", "PEERS", "digit_word", "tz", "pop",
]

# -- the layout of a board ------------------------------------------------------------

DIGITS = 0      #: words 0..26: ``g[3*d + b]``, the cells of band b where digit d may go
OPEN = 27       #: words 27..29: ``g[OPEN + b]``, the cells of band b not placed yet
STORED = 30     #: the words a search stores per branch point (digits and open cells)
SEEN = 32       #: words 32..58: ``g[SEEN + 3*d + b]``, the digit word as the filters last saw it
BIVALUE = 60    #: words 60..62: ``g[BIVALUE + b]``, band b's open cells with two digits left
WORDS = 64      #: the length of a working board

BAND = (1 << 27) - 1                 #: every cell of a band
ROW = (1 << 9) - 1                   #: row 0 of a band; row r is ``ROW << 9*r``
COLUMN = 1 | 1 << 9 | 1 << 18        #: column 0 of a band; column c is ``COLUMN << c``
BOX = 7 | 7 << 9 | 7 << 18           #: box 0 of a band; box j is ``BOX << 3*j``


def digit_word(d: int, b: int) -> int:
    """The index of digit ``d``'s word for band ``b`` (the kernels write ``3*d + b``)."""
    return DIGITS + 3 * d + b


# -- the tables of the band filters -----------------------------------------------------


def _tables() -> tuple[np.ndarray, ...]:
    # SHRINK: the occupied segments (boxes) of a 9-bit row of a band
    shrink = np.zeros(512, dtype=np.int64)
    for chunk in range(512):
        shrink[chunk] = sum(1 << k for k in range(3) if chunk & (7 << (3 * k)))
    # PERM: the entries of a 3x3 bit matrix (bit 3*r + c) that lie on a
    # permutation whose three entries are all set
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    perm = np.zeros(512, dtype=np.int64)
    for occupied in range(512):
        keep = 0
        for sigma in perms:
            bits = sum(1 << (3 * r + sigma[r]) for r in range(3))
            if occupied & bits == bits:
                keep |= bits
        perm[occupied] = keep
    # COMPLEX: the cells of the segments PERM keeps, from the occupied segments
    complex_ = np.zeros(512, dtype=np.int64)
    for segs in range(512):
        keep = perm[segs]
        complex_[segs] = sum(7 << (9 * (s // 3) + 3 * (s % 3)) for s in range(9) if keep >> s & 1)
    # ONE: a row of a band holding exactly one bit (all ones), else 0
    one = np.array([ROW if bin(chunk).count("1") == 1 else 0 for chunk in range(512)], dtype=np.int64)
    # COLS: the cells of a band in a set of columns
    cols = np.array([sum(COLUMN << c for c in range(9) if s >> c & 1) for s in range(512)], dtype=np.int64)
    # PEERS: the cells of the band sharing a row, box or column with a cell, not the cell
    peers = np.zeros(27, dtype=np.int64)
    for i in range(27):
        r, c = divmod(i, 9)
        peers[i] = ((ROW << (9 * r)) | (BOX << (3 * (c // 3))) | (COLUMN << c)) & ~(1 << i)
    return shrink, complex_, perm, one, cols, peers


#: ``SHRINK[row]``: the boxes (3 bits) in which a 9-bit row of a band word has cells.
#: ``PERM[m]``: the entries of a 3x3 bit matrix ``m`` that lie on a permutation all of whose entries are set.
#: ``COMPLEX[s]``: the cells of the row-by-box segments that ``PERM[s]`` keeps.
#: ``ONE[row]``: ``ROW`` when a 9-bit row holds exactly one bit, else 0.
#: ``COLS[s]``: the cells of a band in the set of columns ``s`` (9 bits).
#: ``PEERS[i]``: the cells of the band that share a row, box or column with cell ``i``.
SHRINK, COMPLEX, PERM, ONE, COLS, PEERS = _tables()


# -- bits ---------------------------------------------------------------------------------

_WORD_TYPES = (types.int64, types.uint64)


@intrinsic
def tz(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 or uint64 word (one instruction)."""
    if x not in _WORD_TYPES:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(x), codegen


@intrinsic
def pop(typingctx, x):
    """The number of set bits of an int64 or uint64 word (one instruction)."""
    if x not in _WORD_TYPES:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(x), codegen
