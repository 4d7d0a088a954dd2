"""The fast engine (method ``fast``): numba-compiled bitboard search.

Three kernels do the work, all behind the plain-Python functions of this
module, which check their input and keep the numba types inside ``engine/``:

* :mod:`sudokit.engine.kernel9` is built for the classic 9x9. Candidates are
  kept per digit as an 81-bit set split into three band words of 27 bits, so
  one machine word covers a band of three rows. A band word is cut into nine
  row-by-box segments of three cells; a table lookup keeps only the segments
  that can be part of a placement of the digit in the band (one cell per row
  and per box of the band), which does the pointing and claiming of locked
  candidates and the band's hidden singles in one step. The same table does
  the columns of each stack (one column per band, one band per column).
  Naked singles and bivalue cells come from counting digits per cell
  bit-parallel over the nine digit words.
  The search branches on the bivalue cell with the most open peers and keeps
  its boards on an explicit stack, as tdoku and JCZSolve do.
* :mod:`sudokit.engine.kernel9u` takes a 9x9 variant (X, hyper, jigsaw and
  their combinations) on the same board and search: kernel9's filters for
  rows, columns and boxes (and, in reordered coordinates, hyper's windows),
  and for any other unit (a diagonal, a region) hidden singles, a digit's two
  places taking it from the cells that see both, and pointing into the lines
  and units it crosses; with X's diagonals it branches on a digit's two
  places on a diagonal first.
* :mod:`sudokit.engine.kernelN` handles every shape up to 64x64 with one
  64-bit candidate mask per cell, queue-driven naked singles, hidden singles
  by unit scans, and the same explicit-stack search. Its search can stop and
  resume, which makes :func:`solutions` lazy.

Budgets: both kernels' searches can stop after a slice of nodes and resume
(:func:`sudokit.engine.kernel9.resume9`, :func:`sudokit.engine.kernelN.count_more_n`),
so every search here runs in slices of about 50 ms
(:func:`sudokit.engine.slicing.run_in_slices`): between two slices Python
reads the clock, charges the node budget and takes a Ctrl-C, and a count that
reaches a limit keeps what it found (``LimitReached.count``, a lower bound).
Limits above the kernels' int64 mean no limit.

Compiling: :mod:`sudokit.engine.compiling` loads only the kernels a command
uses (:func:`warm_up` with the groups of :data:`KERNELS`) and says once, with
the expected time, when a first run compiles (:func:`compiling`).

numba caches compiled code per source file: code elsewhere that calls
``count9`` or ``count_n`` from its own ``cache=True`` function keeps the kernel
it was compiled with until its own cache is refreshed.

The calls themselves live in :mod:`sudokit.engine.search`; this package
names them lazily, so that importing :mod:`sudokit.engine.compiling` (which
every command does for its first-run notice) loads neither numpy nor numba.

>>> from sudokit.examples import example
>>> from sudokit.budget import Budget
>>> from sudokit.engine import count
>>> count(example("easy"), 2, Budget())[0]
1
"""

from __future__ import annotations

import sys
from typing import Any, Callable

__all__ = ["first", "solutions", "count", "deduce", "warm_up", "compiling", "KERNELS", "grid_values",
           "prefer_compiled"]

#: The names served by :mod:`sudokit.engine.search`, loaded on first use.
_SEARCH = frozenset({"first", "solutions", "count", "deduce", "grid_values", "count_values", "enumerate_values",
                     "_grid", "_state9", "_scratch"})


def __getattr__(name: str) -> Any:
    if name in _SEARCH:
        from . import search

        return getattr(search, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- compilation -----------------------------------------------------------------------

#: Requests of each kind that :func:`prefer_compiled` answers with "no" in a fresh process.
PYTHON_FIRST = 2
_requests: dict[str, int] = {}


def prefer_compiled(kind: str, size: int = 9) -> bool:
    """Whether code that also has a pure-Python path (the logic finders; the
    ``preemptive`` method for a count) should use the compiled kernels now.

    Importing numba and loading a kernel costs more (about 0.4 s) than the
    Python path spends on one 9x9 puzzle, so a command on one puzzle is
    faster without them. Yes once numba is loaded in this process, for grids
    above 9x9, and from the third request of a ``kind`` on (a batch); no for
    the first two. On a first run (the kernels not yet in numba's cache), the
    third request starts their compilation in a child process instead
    (:func:`~sudokit.engine.compiling.compile_in_background`), and the answer
    stays no until it is done. Both paths give the same answers; only the
    time differs.
    """
    if kind in _loaded:  # (first: the producers ask on every step)
        return True
    from .compiling import background_ready, compile_in_background

    groups = (kind,) if kind in KERNELS else ()  # each kind is the kernel group of that name
    if not background_ready(groups):
        return False
    if size <= 9 and "numba" not in sys.modules:
        _requests[kind] = _requests.get(kind, 0) + 1
        if _requests[kind] <= PYTHON_FIRST:
            return False
    if groups and compile_in_background(groups):
        return False
    _loaded.add(kind)
    return True


def prefer_compiled_after(kind: str, size: int = 9) -> bool:
    """:func:`prefer_compiled` for code called many times per puzzle (the
    logic producers): never the one to load numba for a 9x9 grid, which the
    rating's own kernels do from the third puzzle on; once they have, as
    :func:`prefer_compiled`."""
    if size <= 9 and kind not in _loaded and "numba" not in sys.modules:
        return False
    return prefer_compiled(kind, size)


def producer_tables(enabled: bool, geo, tables: Callable[[Any], Any], units: int = 0):
    """``tables(geo)`` (a logic producer's compiled search and its tables)
    when that search should answer now, else None: the Python search runs.
    Not when ``enabled`` is off (a module's ``COMPILED`` switch), for a grid
    or ``units`` count past the kernels' 62-bit sets, or before the rating's
    own kernels have loaded numba (:func:`prefer_compiled_after`)."""
    if not enabled or geo.n > 62 or units > 62:
        return None
    if "producers" not in _loaded and not prefer_compiled_after("producers", geo.n):
        return None
    return tables(geo)


#: The kinds whose kernels this process has loaded.
_loaded: set[str] = set()


from .compiling import KERNELS, compiling, warm_up  # noqa: E402  (numba is imported only when used)
