"""Numba kernels for generating puzzles: random fill, preemptive sets, minimising.

Representation. A grid is ``uint8[N*N]`` (0 blank). Candidates are the masks
of :mod:`sudokit.engine.kernelN`: one ``uint64`` per cell (bit ``v-1`` for
value ``v``) and an ``assigned`` flag per cell, so every shape up to 64x64
works, and the singles are that module's one propagation on the masks
(:func:`~sudokit.engine.kernelN.propagate_n`). The geometry comes in as two
int32 arrays built once per shape by :func:`geometry` (the layout of
:func:`sudokit.engine.kernelN.geometry`): ``units`` (``[3N, N]``: rows,
columns, boxes) and ``peers`` (``[N*N, P]``).

The kernels draw random numbers from numba's own generator; the caller seeds
it per puzzle (:func:`seed_rng`), so a seed gives the same puzzle on every
machine and in every worker process.

Minimising is top-down: the orbits of cells (one cell each without symmetry)
are visited in random order and an orbit's clues are taken away when the
puzzle still obeys the rule without them. Each rule's verdict is one of these
kernels, picked in Python by :func:`verdict_of` from the rule and the shape:

``COUNT9`` (``unique``, 9x9)
    the solver's own count with limit 2 (:func:`sudokit.engine.kernel9.resume9`,
    the very function and types ``sudoku solve`` uses, so each command finds
    it compiled when the other ran first).
``COUNT9U`` (``unique``, a 9x9 variant: X, hyper, jigsaw and their combinations)
    the count with limit 2 of the 9x9 solver over any units
    (:func:`sudokit.engine.kernel9u.resume9u`), its tables and the address of
    its propagation packed in one array (:func:`verdict_tables`). The search
    is compiled into this verdict, and numba's cache of it is keyed on this
    file alone: a change of kernel9u's search reaches the generator when this
    file changes too (an older search runs the newer propagation correctly,
    only without the newer search's choices).
``OTHER`` (``unique``, other shapes and variants), ``OTHER_LOCKED`` (from 16x16 up)
    for each removed cell, a search for a solution with another value there
    (:func:`unique_without`, :func:`sudokit.engine.kernelN.find_other`), with
    locked candidates beside the singles on the big grids.
``SINGLES9`` (``logic``, 9x9)
    naked and hidden singles to a fixpoint on the solver's band words
    (:func:`sudokit.engine.singles9.singles_verdict9`).
``SINGLES`` (``logic``, other shapes)
    the same fixpoint on the masks (:func:`sudokit.engine.kernelN.singles_n`).
``PREEMPTIVE`` (``preemptive``)
    singles plus preemptive sets (naked subsets of any size, Crook 2009) fill
    the grid without guessing: the ``preemptive`` method's compiled fixpoint
    (:func:`sudokit.methods.preemptive_kernel.fixpoint`).

Each verdict is a kernel of its own with one signature (:data:`VERDICT_SIG`),
and the minimiser (:func:`minimise_rows`) calls it through a function pointer
(its address, :func:`verdict`; :mod:`sudokit.engine.pointers`): numba
compiles the minimiser once for every rule and shape, and each verdict once.
A first run compiles the verdict in a helper process while this one compiles
the random grids and the minimiser (:func:`load`): both cores work, and no
kernel waits to link another.

Nothing here prints or imports the CLI.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..geometry import Geometry, Shape
from .compiling import load_numba

load_numba()  # before numba loads: numba without its BLAS probe

from numba import njit, types  # noqa: E402

from .board import WORDS, pop, tz  # noqa: E402
from .pointers import address_of, compile_for, function_at  # noqa: E402
from .kernel9 import NEW, STORED, T_PHASE, TRAIL, resume9  # noqa: E402
from .kernel9u import resume9u  # noqa: E402
from ..methods.preemptive_kernel import fixpoint as preemptive_fixpoint  # noqa: E402
from .kernelN import COMPLETE, find_other, load_n, locked_candidates, propagate_n, singles_n  # noqa: E402
from .singles9 import singles_verdict9  # noqa: E402

RULE_UNIQUE = 0
RULE_LOGIC = 1
RULE_PREEMPTIVE = 2

#: The verdict kernels (see the module docstring).
COUNT9 = 0
OTHER = 1
SINGLES9 = 2
SINGLES = 3
PREEMPTIVE = 4
OTHER_LOCKED = 5
COUNT9U = 6

#: Slots of the ``stats`` array the kernels fill in.
STAT_NODES = 0      #: search nodes used by the fill and the counts
STAT_COUNTS = 1     #: how many solution counts were needed
STAT_UNDECIDED = 2  #: clues kept only because a count hit its node limit
STAT_FILL_RESTARTS = 3
STATS = 4

#: From this size up the generator's searches add locked candidates to the singles.
LOCKED_FROM = 16

ONE = np.uint64(1)
ZERO = np.uint64(0)


def geometry(box_rows: int, box_cols: int) -> tuple[np.ndarray, np.ndarray]:
    """``(units, peers)`` for a shape, as int32 arrays for the kernels.

    >>> units, peers = geometry(3, 3)
    >>> units.shape, peers.shape, units.dtype.name
    ((27, 9), (81, 20), 'int32')
    """
    return arrays_of(Geometry.of(Shape(box_rows, box_cols)))


def arrays_of(geo: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """``(units, peers)`` of any geometry (:mod:`sudokit.geometry`, the one
    source of units and peers) as int32 arrays: ``units`` ``[U, N]``, rows,
    columns, boxes or regions, then a variant's extra units; ``peers``
    ``[N*N, P]``. A variant's cells can have different numbers of peers (the
    cells of a diagonal more); each row is padded by repeating its first peer,
    which the propagation then reads twice, to no effect.

    >>> from sudokit import variants
    >>> units, peers = arrays_of(variants.x("3x3"))
    >>> units.shape, peers.shape, sorted(set(peers[1].tolist())) == list(variants.x("3x3").peers[1])
    ((29, 9), (81, 32), True)
    """
    width = max(len(p) for p in geo.peers)
    units = np.array(geo.units, dtype=np.int32)
    peers = np.array([p + (p[0],) * (width - len(p)) for p in geo.peers], dtype=np.int32).reshape(geo.cell_count, -1)
    return units, peers


def verdict_of(rule: int, box_rows: int, box_cols: int, geometry=None) -> int:
    """The verdict kernel of a rule on a shape (``geometry``: a variant's
    units; None for the shape's own).

    >>> verdict_of(RULE_UNIQUE, 3, 3) == COUNT9, verdict_of(RULE_LOGIC, 2, 3) == SINGLES
    (True, True)
    >>> verdict_of(RULE_UNIQUE, 2, 3) == OTHER, verdict_of(RULE_UNIQUE, 4, 4) == OTHER_LOCKED
    (True, True)
    """
    variant = geometry is not None
    classic = box_rows == 3 and box_cols == 3 and not variant
    if rule == RULE_UNIQUE:
        if classic:
            return COUNT9
        if variant and _tables9u(geometry) is not None:
            return COUNT9U
        # locked candidates work on a shape's boxes: a variant's search keeps to the singles
        return OTHER_LOCKED if box_rows * box_cols >= LOCKED_FROM and not variant else OTHER
    if rule == RULE_LOGIC:
        return SINGLES9 if classic else SINGLES
    return PREEMPTIVE


@njit(cache=True)
def seed_rng(seed: int) -> None:
    """Seed numba's generator (the one the kernels draw from)."""
    np.random.seed(seed)


# -- random complete grids -----------------------------------------------------


# fill, relabel and random_grid are kernels of their own, compiled once and
# called from grids_kernel and from Python alike (not inlined: numba would copy
# and type their code again inside each caller).


@njit(cache=True)
def fill(out, n, units, peers, node_limit, stats) -> bool:
    """A random complete grid into ``out``: backtracking from an empty grid.

    Singles propagate after every choice; the branching cell is an open cell
    with the fewest candidates (the first met from a random starting cell), and its candidates are
    tried in random order. Gives up (False) after ``node_limit`` nodes.
    """
    cells = n * n
    masks = np.empty((cells + 1, cells), dtype=np.uint64)
    assigned = np.zeros((cells + 1, cells), dtype=np.uint8)
    queue = np.empty(cells, dtype=np.int64)
    order = np.empty((cells + 1, n), dtype=np.int64)
    tried = np.zeros(cells + 1, dtype=np.int64)
    options = np.zeros(cells + 1, dtype=np.int64)
    branch = np.zeros(cells + 1, dtype=np.int64)
    full = (ONE << np.uint64(n)) - ONE
    for c in range(cells):
        masks[0, c] = full
    depth = 0
    nodes = 0
    need_branch = True
    while depth >= 0:
        if need_branch:
            best = -1
            best_pc = 65
            start = np.random.randint(cells)
            for i in range(cells):
                c = start + i
                if c >= cells:
                    c -= cells
                if assigned[depth, c] == 0:
                    pc = pop(masks[depth, c])
                    if pc < best_pc:
                        best, best_pc = c, pc
                        if pc == 2:
                            break
            if best < 0:
                for c in range(cells):
                    out[c] = tz(masks[depth, c]) + 1
                stats[STAT_NODES] += nodes
                return True
            m = masks[depth, best]
            k = 0
            while m:
                order[depth, k] = tz(m) + 1
                m &= m - ONE
                k += 1
            for i in range(k - 1, 0, -1):  # shuffle the values to try
                j = np.random.randint(i + 1)
                order[depth, i], order[depth, j] = order[depth, j], order[depth, i]
            options[depth] = k
            tried[depth] = 0
            branch[depth] = best
            need_branch = False
        if tried[depth] >= options[depth]:
            depth -= 1
            continue
        value = order[depth, tried[depth]]
        tried[depth] += 1
        nodes += 1
        if node_limit > 0 and nodes > node_limit:
            stats[STAT_NODES] += nodes
            return False
        for c in range(cells):
            masks[depth + 1, c] = masks[depth, c]
            assigned[depth + 1, c] = assigned[depth, c]
        masks[depth + 1, branch[depth]] = ONE << np.uint64(value - 1)
        if not propagate_n(masks[depth + 1], assigned[depth + 1], units, peers, queue):
            continue
        depth += 1
        need_branch = True
    stats[STAT_NODES] += nodes
    return False


@njit(cache=True)
def relabel(grid, n) -> None:
    """Apply a random permutation of the values 1..N in place."""
    perm = np.empty(n, dtype=np.int64)
    for i in range(n):
        perm[i] = i + 1
    for i in range(n - 1, 0, -1):
        j = np.random.randint(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    for c in range(grid.shape[0]):
        if grid[c]:
            grid[c] = perm[grid[c] - 1]


@njit(cache=True)
def random_grid(out, n, units, peers, node_limit, stats) -> bool:
    """Fill (restarting when a fill runs past ``node_limit``) and relabel."""
    for attempt in range(1000):
        if fill(out, n, units, peers, node_limit, stats):
            relabel(out, n)
            return True
        stats[STAT_FILL_RESTARTS] += 1
    return False


# -- minimising ------------------------------------------------------------------


@njit(inline="always")  # inlined into its verdict, other_verdict
def unique_without(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers,
                    node_limit, lk, masks, scratch, count_stats, stats) -> int:
    """Whether the puzzle, with the orbit ``orbit_cells[a:b]`` blank, still has one solution.

    Another solution would have to differ from the known one in some cell of
    the orbit (else it would solve the puzzle with the orbit, which is
    unique), so for each orbit cell in turn the engine looks for one solution
    in which that cell does not hold its known value (:func:`find_other`,
    trying the known solution's value first at every branch, which meets a
    nearby second solution early). Any hit proves the orbit is needed; no hit
    for any cell proves it is not. 1 unique, 0 not, -1 a search ran out of nodes.
    """
    full = (ONE << np.uint64(n)) - ONE
    cells = n * n
    undecided = False
    for i in range(a, b):
        c = orbit_cells[i]
        if saved[c] == 0:
            continue
        for e in range(cells):
            v = puzzle[e]
            masks[e] = (ONE << np.uint64(v - 1)) if v else full
        masks[c] = full & ~(ONE << np.uint64(saved[c] - 1))
        count_stats[0] = 0
        count_stats[1] = 0
        found = find_other(masks, units, peers, box_rows, box_cols, solution, lk, node_limit,
                           scratch, count_stats)
        stats[STAT_COUNTS] += 1
        stats[STAT_NODES] += count_stats[0]
        if found > 0:
            return 0
        if found < 0:
            undecided = True
    return -1 if undecided else 1


# Each verdict is a kernel of its own, with one signature (:data:`VERDICT_SIG`):
# the minimising loop calls it through a function pointer, so that numba
# compiles the loop once for every rule and shape, and each verdict (with the
# search or fixpoint it runs) once, in a helper process on a first run
# (:func:`load`). Each takes the same arguments: 1 when the puzzle, with the orbit
# ``orbit_cells[a:b]`` blank (its clues in ``saved``), still obeys the rule, 0 when
# not, -1 when a search ran out of nodes. The others are scratch: ``masks``,
# ``assigned`` and ``queue`` for the masks, ``board``, ``stack`` and ``trail`` for
# the 9x9 band words, ``scratch`` a grid.

_GRID = types.uint8[::1]
_INTS = types.int64[::1]
#: The signature of every verdict kernel.
VERDICT_SIG = types.int64(
    _GRID, _INTS, types.int64, types.int64, _GRID, _GRID, types.int64, types.int64, types.int64,
    types.int32[:, ::1], types.int32[:, ::1], types.int64, types.uint64[::1], _GRID, _INTS, _INTS,
    types.int64[:, ::1], _INTS, _GRID, types.int64, _INTS, _INTS, types.int64[:, ::1])
_verdict_at = function_at(VERDICT_SIG)


@njit(inline="always")
def _unique(found, count_stats, stats):
    """A count to 2 as a verdict (1 unique, 0 not, -1 out of nodes), with its work in ``stats``."""
    stats[STAT_COUNTS] += 1
    stats[STAT_NODES] += count_stats[0]
    if found < 0:
        return -1
    return 1 if found == 1 else 0


@njit(cache=True)
def count9_verdict(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
                    masks, assigned, queue, board, stack, trail, scratch, limit, count_stats, stats, tables):
    count_stats[:] = 0
    trail[T_PHASE] = NEW
    return _unique(resume9(puzzle, board, stack, trail, limit, node_limit, scratch, count_stats), count_stats, stats)


@njit(cache=True)
def count9u_verdict(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
                    masks, assigned, queue, board, stack, trail, scratch, limit, count_stats, stats, tables):
    count_stats[:] = 0
    trail[T_PHASE] = NEW
    u = tables[0, 2]
    k = tables[0, 3]
    each = count_stats[0] < 0  # False, as a bool (a literal would compile resume9u again for it)
    found = resume9u(puzzle, board, stack, trail, tables[1:82], tables[82:82 + u], tables[82 + u:82 + u + k],
                     tables[0, 0], tables[0, 1], limit, node_limit, each, scratch, count_stats)
    return _unique(found, count_stats, stats)


@njit(cache=True)
def other_verdict(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
                   masks, assigned, queue, board, stack, trail, scratch, limit, count_stats, stats, tables):
    return unique_without(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers,
                          node_limit, None, masks, scratch, count_stats, stats)


@njit(cache=True)
def other_locked_verdict(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers,
                          node_limit, masks, assigned, queue, board, stack, trail, scratch, limit, count_stats,
                          stats, tables):
    return unique_without(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers,
                          node_limit, locked_candidates(box_rows, box_cols), masks, scratch, count_stats, stats)


@njit(cache=True)
def singles9_verdict(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
                      masks, assigned, queue, board, stack, trail, scratch, limit, count_stats, stats, tables):
    return 1 if singles_verdict9(puzzle, board) == COMPLETE else 0


@njit(cache=True)
def singles_verdict(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
                     masks, assigned, queue, board, stack, trail, scratch, limit, count_stats, stats, tables):
    load_n(puzzle, n, masks, assigned)
    return 1 if singles_n(masks, assigned, units, peers, queue) == COMPLETE else 0


@njit(cache=True)
def preemptive_verdict(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers,
                        node_limit, masks, assigned, queue, board, stack, trail, scratch, limit, count_stats, stats,
                        tables):
    load_n(puzzle, n, masks, assigned)
    return 1 if preemptive_fixpoint(masks, assigned, units, peers, queue) == COMPLETE else 0


_VERDICT_KERNELS = {COUNT9: count9_verdict, COUNT9U: count9u_verdict, OTHER: other_verdict,
                    OTHER_LOCKED: other_locked_verdict,
                    SINGLES9: singles9_verdict, SINGLES: singles_verdict, PREEMPTIVE: preemptive_verdict}


_NO_TABLES = np.zeros((0, 6), dtype=np.int64)


@lru_cache(maxsize=64)  # bounded: random jigsaw layouts bring a new geometry each
def _tables9u(geometry) -> np.ndarray | None:
    """The tables of the 9x9 solver over any units
    (:func:`sudokit.engine.kernel9u.tables_of`) for a 9x9 variant, packed in
    one array of 6 columns for :func:`count9u_verdict`: a header (the mode,
    the propagation's address, the number of units, of partners), then the
    peers, the units and the partners; None for another geometry."""
    from .kernel9u import tables_of

    tables = tables_of(geometry)
    if tables is None:
        return None
    peers, units, partners, mode = tables
    u, k = units.shape[0], partners.shape[0]
    out = np.zeros((82 + u + k, 6), dtype=np.int64)
    out[0, 0], out[0, 2], out[0, 3] = mode, u, k
    out[1:82, :3] = peers
    out[82:82 + u, :4] = units
    out[82 + u:] = partners
    return out


def verdict_tables(code: int, geometry=None) -> np.ndarray:
    """The last argument of verdict ``code``: for ``COUNT9U`` the packed
    tables of ``geometry`` with the address of the propagation (loaded or
    compiled here), else an empty array."""
    if code != COUNT9U:
        return _NO_TABLES
    from .kernel9u import propagator

    tables = _tables9u(geometry)
    tables[0, 1] = propagator()
    return tables


def verdict(code: int) -> int:
    """The verdict kernel ``code`` (COUNT9, OTHER...) as the minimiser takes
    it: its address (:func:`~sudokit.engine.pointers.address_of`), compiled
    or loaded from the cache once per process."""
    return address_of(_VERDICT_KERNELS[code], VERDICT_SIG)


@njit(cache=True)
def _cell_units(units, cell_units) -> None:
    """``cell_units[c]``: the row, column and box (or jigsaw region) units of
    cell ``c``, read from the first 3N units (every geometry lists those
    first)."""
    n = units.shape[1]
    for kind in range(3):
        for u in range(kind * n, (kind + 1) * n):
            for i in range(n):
                cell_units[units[u, i], kind] = u


@njit(cache=True)
def _unit_masks(puzzle, cell_units, unit_m) -> None:
    """``unit_m[u]``: the values placed in unit ``u`` (the rows, columns and boxes or regions)."""
    for u in range(unit_m.shape[0]):
        unit_m[u] = 0
    for c in range(puzzle.shape[0]):
        v = puzzle[c]
        if v:
            bit = ONE << np.uint64(v - 1)
            for kind in range(3):
                unit_m[cell_units[c, kind]] |= bit


@njit(cache=True)
def _toggle_masks(saved, orbit_cells, a, b, cell_units, unit_m) -> None:
    """Take the orbit's values out of the unit masks, or put them back (a value
    is in a unit at most once, so flipping its bit does either)."""
    for i in range(a, b):
        c = orbit_cells[i]
        v = saved[c]
        if v:
            bit = ONE << np.uint64(v - 1)
            for kind in range(3):
                unit_m[cell_units[c, kind]] ^= bit


@njit(cache=True)
def _single_at_once(puzzle, cell, value, n, units, cell_units, unit_m) -> bool:
    """True when a blank ``cell`` is a naked or hidden single for ``value`` in
    ``puzzle`` as it stands, in its row, column and box (or jigsaw region).

    Then the puzzle without that clue reaches the puzzle with it in one step
    of singles, so it obeys every rule the puzzle with it obeys (a variant's
    extra units only take more candidates away).
    """
    full = (ONE << np.uint64(n)) - ONE
    own = ~(unit_m[cell_units[cell, 0]] | unit_m[cell_units[cell, 1]] | unit_m[cell_units[cell, 2]]) & full
    if pop(own) == 1:
        return True
    bit = ONE << np.uint64(value - 1)
    for kind in range(3):
        u = cell_units[cell, kind]
        alone = True
        for j in range(n):
            e = units[u, j]
            if e != cell and puzzle[e] == 0:
                if not ((unit_m[cell_units[e, 0]] | unit_m[cell_units[e, 1]] | unit_m[cell_units[e, 2]]) & bit):
                    alone = False
                    break
        if alone:
            return True
    return False


@njit(cache=True)
def shuffle(order) -> None:
    """Shuffle an int64 array in place (Fisher-Yates with numba's generator)."""
    for i in range(order.shape[0] - 1, 0, -1):
        j = np.random.randint(i + 1)
        order[i], order[j] = order[j], order[i]


@njit(cache=True)
def minimise_rows(puzzles, solutions, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
                  orders, lo, hi, keeps, node_limit, stats, tables) -> None:
    """Minimise each row of ``puzzles`` (its solution the same row of
    ``solutions``), visiting orbits ``orders[i, lo:hi]``, with the verdict at
    the address ``keeps`` (:func:`verdict`, its last argument ``tables``,
    :func:`verdict_tables`): one kernel for every rule and shape, for a
    batch (:func:`generate_batch`) and for one puzzle in slices
    (:func:`minimise`).
    A row whose grid could not be filled (``stats[i, STAT_UNDECIDED] < 0``)
    is skipped."""
    rule = _verdict_at(keeps)
    for i in range(puzzles.shape[0]):
        if stats[i, STAT_UNDECIDED] >= 0:
            _minimise_loop(puzzles[i], solutions[i], n, box_rows, box_cols, units, peers, orbit_cells,
                           orbit_start, orders[i], lo, hi, rule, node_limit, stats[i], tables)


@njit(inline="always")
def _minimise_loop(puzzle, solution, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
                   order, lo, hi, keeps, node_limit, stats, tables) -> None:
    """The minimising pass over one puzzle (inlined into :func:`minimise_rows`,
    its one caller, so that numba compiles it once, there)."""
    cells = n * n
    masks = np.empty(cells, dtype=np.uint64)
    assigned = np.empty(cells, dtype=np.uint8)
    queue = np.empty(cells, dtype=np.int64)
    scratch = np.empty(cells, dtype=np.uint8)
    saved = np.empty(cells, dtype=np.uint8)
    count_stats = np.zeros(2, dtype=np.int64)
    cell_units = np.empty((cells, 3), dtype=np.int64)
    unit_m = np.empty(3 * n, dtype=np.uint64)
    board = np.empty(WORDS, dtype=np.int64)
    stack = np.empty((81, STORED), dtype=np.int64)
    trail = np.empty(TRAIL, dtype=np.int64)
    limit = count_stats[0] + 2  # an int64 (a literal 2 would make numba compile resume9 for it alone)
    _cell_units(units, cell_units)
    _unit_masks(puzzle, cell_units, unit_m)
    for k in range(lo, hi):
        o = order[k]
        a = orbit_start[o]
        b = orbit_start[o + 1]
        any_clue = False
        for i in range(a, b):
            c = orbit_cells[i]
            saved[c] = puzzle[c]
            if puzzle[c]:
                any_clue = True
            puzzle[c] = 0
        if not any_clue:
            continue
        _toggle_masks(saved, orbit_cells, a, b, cell_units, unit_m)
        at_once = True
        for i in range(a, b):
            c = orbit_cells[i]
            if saved[c] and not _single_at_once(puzzle, c, saved[c], n, units, cell_units, unit_m):
                at_once = False
                break
        if at_once:
            continue
        verdict = keeps(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers,
                         node_limit, masks, assigned, queue, board, stack, trail, scratch, limit, count_stats,
                         stats, tables)
        if verdict != 1:
            if verdict < 0:
                stats[STAT_UNDECIDED] += 1
            for i in range(a, b):
                c = orbit_cells[i]
                puzzle[c] = saved[c]
            _toggle_masks(saved, orbit_cells, a, b, cell_units, unit_m)


def minimise(puzzle, solution, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
             order, lo, hi, rule, node_limit, stats, geometry=None) -> None:
    """Visit orbits ``order[lo:hi]`` and take each one's clues away when the rule still holds.

    ``geometry``: a variant's, whose units ``units`` and ``peers`` are. A clue that a single in its row,
    column or box (or jigsaw region) puts back is taken away without asking
    the verdict."""
    code = _in_use(verdict_of(rule, box_rows, box_cols, geometry))
    minimise_rows(puzzle.reshape(1, -1), solution.reshape(1, -1), n, box_rows, box_cols, units, peers,
                  orbit_cells, orbit_start, order.reshape(1, -1), lo, hi, verdict(code), node_limit,
                  stats.reshape(1, -1), verdict_tables(code, geometry))


def generate_batch(seeds, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
                   rule, node_limit, fill_limit, puzzles, solutions, stats, geometry=None) -> None:
    """One puzzle per seed: seed, random grid, random orbit order, minimise.

    Row i of ``puzzles``/``solutions``/``stats`` belongs to ``seeds[i]`` and
    depends on nothing else, so batches can be split across workers freely.
    The random grids and orders come first for all seeds (:func:`grids_kernel`),
    then the minimising (:func:`minimise_rows`); nothing random happens while
    minimising, so a seed gives the same puzzle as :func:`minimise` on its own.
    ``geometry`` as in :func:`minimise`.
    """
    code = _in_use(verdict_of(rule, box_rows, box_cols, geometry))
    orbits = orbit_start.shape[0] - 1
    orders = np.empty((seeds.shape[0], orbits), dtype=np.int64)
    grids_kernel(seeds, n, units, peers, fill_limit, solutions, puzzles, orders, stats)
    minimise_rows(puzzles, solutions, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start, orders,
                  0, orbits, verdict(code), node_limit, stats, verdict_tables(code, geometry))


@njit(cache=True)
def grids_kernel(seeds, n, units, peers, fill_limit, solutions, puzzles, orders, stats) -> None:
    """For each seed: seed numba's generator, a random complete grid into
    ``solutions`` (and ``puzzles``), and a random order of the orbits into
    ``orders`` (the draws :func:`sudokit.generation.minimising.make_one` makes
    one call at a time). A grid that cannot be filled within ``fill_limit``
    nodes is marked ``stats[i, STAT_UNDECIDED] = -1``."""
    orbits = orders.shape[1]
    for i in range(seeds.shape[0]):
        np.random.seed(seeds[i])
        if not random_grid(solutions[i], n, units, peers, fill_limit, stats[i]):
            stats[i, STAT_UNDECIDED] = -1
            continue
        for c in range(n * n):
            puzzles[i, c] = solutions[i, c]
        for o in range(orbits):
            orders[i, o] = o
        shuffle(orders[i])


# -- loading ---------------------------------------------------------------------------

#: The kernel group (:data:`~sudokit.engine.compiling.KERNELS`) of each verdict.
VERDICT_GROUPS = {COUNT9: "unique-9x9", COUNT9U: "unique-9x9-variant", OTHER: "unique-other",
                  OTHER_LOCKED: "unique-16x16", SINGLES9: "logic-9x9", SINGLES: "logic-other", PREEMPTIVE: "preemptive"}
#: The (verdict, batch) pairs this process has loaded.
_loaded: set[tuple[int, bool]] = set()
#: Verdicts that another makes the same puzzles as, which compiles in about half
#: the time: {verdict: (stand-in, the verdict's kernel groups)}. Both count to 2
#: exactly, so they take the same clues away.
_INSTEAD = {COUNT9: (OTHER, ("unique-9x9",)), COUNT9U: (OTHER, ("unique-9x9-variant", "variants-propagation"))}
#: Those this process leaves to their stand-in while they compile in the background,
#: and those it found cached.
_instead: set[int] = set()
_ready: set[int] = set()


def _in_use(code: int) -> int:
    """The verdict this process runs for ``code``: its stand-in while ``code`` compiles in the background."""
    return _INSTEAD[code][0] if code in _instead else code


def load(rule: int, box_rows: int, box_cols: int, batch: bool = True, geometry=None) -> None:
    """Load the kernels that generate many puzzles (``batch``) or one in
    slices, for ``rule`` on this shape, before the first puzzle.

    On a first run they compile on both cores: a helper process compiles the
    rule's verdict (with the solver's :func:`~sudokit.engine.kernel9.resume9`,
    kernelN's search, or a fixpoint) while this one compiles the random grids
    and the minimiser (the same for every rule and shape); then it loads the
    helper's machine code. Later calls cost nothing. (``geometry``: a
    variant's.)

    The 9x9 uniqueness verdicts (``COUNT9``, ``COUNT9U``) count on a solver
    whose compilation takes twice as long as ``OTHER``'s search, which takes
    the same clues away: until they are cached, this process uses ``OTHER``
    and they compile in the background, for the next run.
    """
    from .compiling import KERNELS, alongside, background_ready, compile_in_background, is_cached

    code = verdict_of(rule, box_rows, box_cols, geometry)
    later: tuple[str, ...] = ()
    if code in _INSTEAD and code not in _ready:
        groups = _INSTEAD[code][1]
        if code in _instead and background_ready(groups):
            _instead.discard(code)
        if code not in _instead:
            if all(is_cached(e) for g in groups for e in KERNELS[g][1]):
                _ready.add(code)
            else:
                # a first run: the general search's verdict, which takes the same clues
                # away and compiles in half the time, while these compile in the background
                _instead.add(code)
                later = groups
        code = _in_use(code)
    if (code, batch) in _loaded:
        return
    with alongside((VERDICT_GROUPS[code],)):
        load_grids(batch)
        load_minimiser()
    verdict(code)
    verdict_tables(code, geometry)
    if later:
        compile_in_background(later)
    _loaded.add((code, batch))


def load_grids(batch: bool = True) -> None:
    """Compile (or load) the random grids: :func:`grids_kernel` for a batch,
    else the kernels :func:`sudokit.generation.minimising.make_one` calls one
    at a time, with the types the real calls have."""
    n = 4
    units, peers = geometry(2, 2)
    if batch:
        grids = np.zeros((0, n * n), dtype=np.uint8)
        compile_for(grids_kernel, np.zeros(0, dtype=np.int64), n, units, peers, 0, grids, grids,
                 np.zeros((0, 0), dtype=np.int64), np.zeros((0, STATS), dtype=np.int64))
        return
    grid = np.zeros(n * n, dtype=np.uint8)
    compile_for(seed_rng, 1)
    compile_for(random_grid, grid, n, units, peers, 0, np.zeros(STATS, dtype=np.int64))
    compile_for(shuffle, np.zeros(2, dtype=np.int64))


def load_minimiser() -> None:
    """Compile (or load) :func:`minimise_rows`, with the types the real calls have."""
    n = 4
    units, peers = geometry(2, 2)
    grids = np.zeros((0, n * n), dtype=np.uint8)
    ints = np.zeros(0, dtype=np.int64)
    compile_for(minimise_rows, grids, grids, n, 2, 2, units, peers, ints, ints, np.zeros((0, 0), dtype=np.int64), 0,
             0, 0, 0, np.zeros((0, STATS), dtype=np.int64), _NO_TABLES)


def load_verdict(name: str) -> None:
    """Compile (or load) the verdict kernel named ("COUNT9", "OTHER"...; for a
    helper process, see :func:`load`)."""
    _VERDICT_KERNELS[globals()[name]].compile(VERDICT_SIG.args)


@njit(cache=True)
def fixpoint_outcomes(grids, n, units, peers, preemptive) -> np.ndarray:
    """For each row of ``grids``: the outcome (COMPLETE, STUCK or
    CONTRADICTION) of the singles, or with ``preemptive`` of Crook's fixpoint
    (:func:`sudokit.methods.preemptive_kernel.fixpoint`): what the ``logic``
    and ``preemptive`` rules ask of a puzzle on the masks."""
    out = np.empty(grids.shape[0], dtype=np.int64)
    cells = n * n
    masks = np.empty(cells, dtype=np.uint64)
    assigned = np.empty(cells, dtype=np.uint8)
    queue = np.empty(cells, dtype=np.int64)
    for i in range(grids.shape[0]):
        load_n(grids[i], n, masks, assigned)
        if preemptive:
            out[i] = preemptive_fixpoint(masks, assigned, units, peers, queue)
        else:
            out[i] = singles_n(masks, assigned, units, peers, queue)
    return out
