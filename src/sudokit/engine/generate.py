"""Numba kernels for generating puzzles: random fill, singles, preemptive sets, minimising.

Representation. A grid is ``uint8[N*N]`` (0 blank). Candidates are one
``uint64`` bit mask per cell (bit ``v-1`` for value ``v``), so every shape up
to 64x64 works. The geometry comes in as two arrays built once per shape by
:func:`geometry`: ``units`` (``int64[3N, N]``: rows, columns, boxes) and
``peers`` (``int64[N*N, P]``).

The kernels draw random numbers from numba's own generator; the caller seeds
it per puzzle (:func:`seed_rng`), so a seed gives the same puzzle on every
machine and in every worker process.

Minimising is top-down: the orbits of cells (one cell each without symmetry)
are visited in random order and an orbit's clues are taken away when the
puzzle still obeys the rule without them:

``RULE_UNIQUE``
    one solution. Up to 9x9 the engine counts with limit 2; from 10x10 up it
    looks, for each removed cell, for a solution with another value there
    (:func:`_unique_without`, :func:`sudokit.engine.kernelN.find_other`).
``RULE_LOGIC``
    naked and hidden singles to a fixpoint fill the grid (9x9: the
    bit-parallel kernel of :mod:`sudokit.engine.singles9`).
``RULE_PREEMPTIVE``
    singles plus preemptive sets (naked subsets of any size, Crook 2009) fill
    the grid without guessing.

Nothing here prints or imports the CLI.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from .kernel9 import count9
from .kernelN import count_n, find_other
from .singles9 import singles9


RULE_UNIQUE = 0
RULE_LOGIC = 1
RULE_PREEMPTIVE = 2

#: Outcomes of :func:`propagate`.
STUCK = 0
COMPLETE = 1
CONTRADICTION = -1

#: Slots of the ``stats`` array the kernels fill in.
STAT_NODES = 0      #: search nodes used by the fill and the counts
STAT_COUNTS = 1     #: how many solution counts were needed
STAT_UNDECIDED = 2  #: clues kept only because a count hit its node limit
STAT_FILL_RESTARTS = 3
STATS = 4

#: From this size up the generator's searches add locked candidates to the singles.
LOCKED_FROM = 16


def geometry(box_rows: int, box_cols: int) -> tuple[np.ndarray, np.ndarray]:
    """``(units, peers)`` for a shape, as int64 arrays for the kernels.

    >>> units, peers = geometry(3, 3)
    >>> units.shape, peers.shape
    ((27, 9), (81, 20))
    """
    n = box_rows * box_cols
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [(br + r) * n + bc + c for r in range(box_rows) for c in range(box_cols)]
        for br in range(0, n, box_rows)
        for bc in range(0, n, box_cols)
    ]
    units = np.array(rows + cols + boxes, dtype=np.int64)
    peer_sets: list[set[int]] = [set() for _ in range(n * n)]
    for unit in units:
        for cell in unit:
            peer_sets[cell].update(int(c) for c in unit)
    for cell in range(n * n):
        peer_sets[cell].discard(cell)
    peers = np.array([sorted(p) for p in peer_sets], dtype=np.int64).reshape(n * n, -1)
    return units, peers


# -- bits -------------------------------------------------------------------


@njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> int:
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _low_index(x: np.uint64) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    low = np.uint64(x) & (~np.uint64(x) + np.uint64(1))
    return _popcount(low - np.uint64(1))


@njit(cache=True)
def seed_rng(seed: int) -> None:
    """Seed numba's generator (the one the kernels draw from)."""
    np.random.seed(seed)


# -- singles ------------------------------------------------------------------


@njit(cache=True)
def _assign(vals, cand, peers, cell, value) -> None:
    bit = np.uint64(1) << np.uint64(value - 1)
    vals[cell] = value
    cand[cell] = bit
    keep = ~bit
    for j in range(peers.shape[1]):
        p = peers[cell, j]
        if vals[p] == 0:
            cand[p] &= keep


@njit(cache=True)
def load(grid, vals, cand, n, peers) -> bool:
    """Fill ``vals`` and the candidate masks from ``grid``; False on clashing givens."""
    full = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    cells = grid.shape[0]
    for c in range(cells):
        vals[c] = 0
        cand[c] = full
    for c in range(cells):
        v = grid[c]
        if v != 0:
            bit = np.uint64(1) << np.uint64(v - 1)
            if (cand[c] & bit) == 0:
                return False
            _assign(vals, cand, peers, c, v)
    return True


@njit(cache=True)
def propagate(vals, cand, n, units, peers) -> int:
    """Naked and hidden singles to a fixpoint.

    A stack holds the cells whose candidates are down to one; assigning one
    removes its value from the open peers, which may push more. When the stack
    runs dry each unit is scanned with two running masks (seen once, seen
    twice) for hidden singles. Returns COMPLETE when every cell is filled,
    STUCK when the singles stall, CONTRADICTION when a cell or a unit runs out
    of candidates.
    """
    cells = vals.shape[0]
    full = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    stack = np.empty(cells, dtype=np.int64)
    top = 0
    open_cells = 0
    for c in range(cells):
        if vals[c] == 0:
            open_cells += 1
            m = cand[c]
            if m == 0:
                return CONTRADICTION
            if (m & (m - np.uint64(1))) == 0:
                stack[top] = c
                top += 1
    open_cells = _drain(vals, cand, peers, stack, top, open_cells)
    if open_cells < 0:
        return CONTRADICTION
    while open_cells > 0:
        progress = False
        for u in range(units.shape[0]):  # hidden singles, each one followed at once
            once = np.uint64(0)
            twice = np.uint64(0)
            placed = np.uint64(0)
            for k in range(n):
                c = units[u, k]
                m = cand[c]
                if vals[c] != 0:
                    placed |= m
                else:
                    twice |= once & m
                    once |= m
            if (once | placed) != full:
                return CONTRADICTION
            hidden = once & ~twice & ~placed
            if hidden == 0:
                continue
            top = 0
            while hidden:
                bit = hidden & (~hidden + np.uint64(1))
                hidden ^= bit
                for k in range(n):
                    c = units[u, k]
                    if vals[c] == 0 and (cand[c] & bit):
                        cand[c] = bit
                        stack[top] = c
                        top += 1
                        break
            open_cells = _drain(vals, cand, peers, stack, top, open_cells)
            if open_cells < 0:
                return CONTRADICTION
            progress = True
            if open_cells == 0:
                break
        if not progress:
            return STUCK
    return COMPLETE


@njit(cache=True)
def _drain(vals, cand, peers, stack, top, open_cells) -> int:
    """Assign the stacked single cells and every naked single they cause.

    Returns the open cells left, or -1 on a contradiction.
    """
    while top > 0:
        top -= 1
        c = stack[top]
        if vals[c] != 0:
            continue
        m = cand[c]
        vals[c] = _low_index(m) + 1
        open_cells -= 1
        keep = ~m
        for j in range(peers.shape[1]):
            p = peers[c, j]
            if vals[p] == 0:
                pm = cand[p]
                if pm & m:
                    pm &= keep
                    cand[p] = pm
                    if pm == 0:
                        return -1
                    if (pm & (pm - np.uint64(1))) == 0:
                        stack[top] = p
                        top += 1
    return open_cells


# -- preemptive sets -----------------------------------------------------------


@njit(cache=True)
def _productive_subset(masks, count, max_size, idx, uni):
    """A set of k masks whose union has exactly k bits and overlaps another mask.

    Returns ``(chosen, union)``: ``chosen`` a bit mask over the indices of
    ``masks`` (0 when there is none). Used both ways round: masks of cells'
    candidates (naked sets) and masks of digits' places (hidden sets).
    """
    if count < 2:
        return np.uint64(0), np.uint64(0)
    depth = 0
    idx[0] = 0
    uni[0] = 0
    while True:
        if idx[depth] >= count:
            depth -= 1
            if depth < 0:
                break
            idx[depth] += 1
            continue
        u = uni[depth] | masks[idx[depth]]
        pc = _popcount(u)
        size = depth + 1
        if pc <= max_size:
            if pc == size:
                chosen = np.uint64(0)
                for d in range(size):
                    chosen |= np.uint64(1) << np.uint64(idx[d])
                for j in range(count):
                    if (chosen >> np.uint64(j)) & np.uint64(1):
                        continue
                    if masks[j] & u:
                        return chosen, u
            elif size < max_size:
                uni[depth + 1] = u
                idx[depth + 1] = idx[depth] + 1
                depth += 1
                continue
        idx[depth] += 1
    return np.uint64(0), np.uint64(0)


@njit(cache=True)
def preemptive(vals, cand, n, units, peers) -> int:
    """Singles plus preemptive sets (naked and hidden subsets) to a fixpoint.

    A preemptive set of m values confined to m cells of a unit removes those
    values from the unit's other cells (Crook). A hidden set of m values in m
    cells is the same thing seen from the unit's other cells, so searching both
    up to half the open cells finds every preemptive set.
    """
    cells_m = np.empty(n, dtype=np.uint64)
    cell_ix = np.empty(n, dtype=np.int64)
    digit_m = np.empty(n, dtype=np.uint64)
    digit_ix = np.empty(n, dtype=np.int64)
    idx = np.empty(n + 1, dtype=np.int64)
    uni = np.empty(n + 2, dtype=np.uint64)
    while True:
        state = propagate(vals, cand, n, units, peers)
        if state != STUCK:
            return state
        progress = False
        for u in range(units.shape[0]):
            count = 0
            placed = np.uint64(0)
            for k in range(n):
                c = units[u, k]
                if vals[c] == 0:
                    cells_m[count] = cand[c]
                    cell_ix[count] = c
                    count += 1
                else:
                    placed |= cand[c]
            if count < 3:
                continue
            half = count // 2
            chosen, union = _productive_subset(cells_m, count, half, idx, uni)
            if chosen:
                for j in range(count):
                    if not ((chosen >> np.uint64(j)) & np.uint64(1)):
                        cand[cell_ix[j]] &= ~union
                progress = True
                break
            digits = 0
            for d in range(n):  # hidden sets: each open digit's places in this unit
                bit = np.uint64(1) << np.uint64(d)
                if placed & bit:
                    continue
                where = np.uint64(0)
                for j in range(count):
                    if cells_m[j] & bit:
                        where |= np.uint64(1) << np.uint64(j)
                digit_m[digits] = where
                digit_ix[digits] = d
                digits += 1
            chosen, union = _productive_subset(digit_m, digits, half, idx, uni)
            if chosen:
                keep = np.uint64(0)
                for j in range(digits):
                    if (chosen >> np.uint64(j)) & np.uint64(1):
                        keep |= np.uint64(1) << np.uint64(digit_ix[j])
                for j in range(count):
                    if (union >> np.uint64(j)) & np.uint64(1):
                        cand[cell_ix[j]] &= keep
                progress = True
                break
        if not progress:
            return STUCK


# -- random complete grids -----------------------------------------------------


@njit(cache=True)
def fill(out, n, units, peers, node_limit, stats) -> bool:
    """A random complete grid into ``out``: backtracking from an empty grid.

    Singles propagate after every choice; the branching cell is an open cell
    with the fewest candidates (the first met from a random starting cell), and its candidates are
    tried in random order. Gives up (False) after ``node_limit`` nodes.
    """
    cells = n * n
    vals_stack = np.zeros((cells + 1, cells), dtype=np.uint8)
    cand_stack = np.zeros((cells + 1, cells), dtype=np.uint64)
    order = np.empty((cells + 1, n), dtype=np.int64)
    tried = np.zeros(cells + 1, dtype=np.int64)
    options = np.zeros(cells + 1, dtype=np.int64)
    branch = np.zeros(cells + 1, dtype=np.int64)
    full = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    for c in range(cells):
        cand_stack[0, c] = full
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
                if vals_stack[depth, c] == 0:
                    pc = _popcount(cand_stack[depth, c])
                    if pc < best_pc:
                        best, best_pc = c, pc
                        if pc == 2:
                            break
            if best < 0:
                for c in range(cells):
                    out[c] = vals_stack[depth, c]
                stats[STAT_NODES] += nodes
                return True
            m = cand_stack[depth, best]
            k = 0
            while m:
                order[depth, k] = _low_index(m) + 1
                m &= m - np.uint64(1)
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
        vals_stack[depth + 1, :] = vals_stack[depth, :]
        cand_stack[depth + 1, :] = cand_stack[depth, :]
        _assign(vals_stack[depth + 1], cand_stack[depth + 1], peers, branch[depth], value)
        state = propagate(vals_stack[depth + 1], cand_stack[depth + 1], n, units, peers)
        if state == CONTRADICTION:
            continue
        depth += 1
        need_branch = True
    stats[STAT_NODES] += nodes
    return False


@njit(cache=True)
def relabel(grid, n) -> None:
    """Apply a random permutation of the values 1..N in place."""
    perm = np.arange(1, n + 1)
    for i in range(n - 1, 0, -1):
        j = np.random.randint(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    for c in range(grid.shape[0]):
        if grid[c]:
            grid[c] = perm[grid[c] - 1]


@njit(cache=True)
def random_grid(out, n, box_rows, box_cols, units, peers, node_limit, stats) -> bool:
    """Fill (restarting when a fill runs past ``node_limit``) and relabel."""
    for attempt in range(1000):
        if fill(out, n, units, peers, node_limit, stats):
            relabel(out, n)
            return True
        stats[STAT_FILL_RESTARTS] += 1
    return False


# -- minimising ------------------------------------------------------------------


@njit(cache=True)
def count_solutions(grid, box_rows, box_cols, limit, node_limit, solution_out, count_stats) -> int:
    """The engine's counter for this shape (9x9 has its own kernel)."""
    if box_rows == 3 and box_cols == 3:
        return count9(grid, limit, node_limit, solution_out, count_stats)
    return count_n(grid, box_rows, box_cols, limit, node_limit, solution_out, count_stats)


# Each rule is a function of the same arguments: 1 when the puzzle, with the orbit
# ``orbit_cells[a:b]`` blank (its clues in ``saved``), still obeys the rule, 0 when
# not, -1 when a count ran out of nodes. The others are scratch arrays.


@njit(cache=True)
def _keeps_unique(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
                  vals, cand, cand9, solved9, masks, scratch, count_stats, stats) -> int:
    if n > 9:
        return _unique_without(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers,
                               node_limit, n >= LOCKED_FROM, masks, scratch, count_stats, stats)
    count_stats[0] = 0
    count_stats[1] = 0
    found = count_solutions(puzzle, box_rows, box_cols, 2, node_limit, scratch, count_stats)
    stats[STAT_COUNTS] += 1
    stats[STAT_NODES] += count_stats[0]
    if found < 0:
        return -1
    return 1 if found == 1 else 0


@njit(cache=True)
def _keeps_logic(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
                 vals, cand, cand9, solved9, masks, scratch, count_stats, stats) -> int:
    if box_rows == 3 and box_cols == 3:
        return 1 if singles9(puzzle, cand9, solved9) == COMPLETE else 0
    if not load(puzzle, vals, cand, n, peers):
        return 0
    return 1 if propagate(vals, cand, n, units, peers) == COMPLETE else 0


@njit(cache=True)
def _keeps_preemptive(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
                      vals, cand, cand9, solved9, masks, scratch, count_stats, stats) -> int:
    if not load(puzzle, vals, cand, n, peers):
        return 0
    return 1 if preemptive(vals, cand, n, units, peers) == COMPLETE else 0


# The rule reaches the kernels as a type, not a value: the width of an integer
# (RULE_TOKENS). numba then compiles minimise and generate_batch once per rule
# with that rule's code alone, so that a first `--minimal logic` run does not
# compile the counting and search kernels that `unique` needs.
RULE_TOKENS = {RULE_UNIQUE: np.int64, RULE_LOGIC: np.int32, RULE_PREEMPTIVE: np.int16}


def _keeps(token, puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
           vals, cand, cand9, solved9, masks, scratch, count_stats, stats) -> int:
    """The verdict of the rule that ``token``'s type stands for (compiled code only)."""
    raise NotImplementedError("called from compiled code only")


@overload(_keeps)
def _keeps_for(token, puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
               vals, cand, cand9, solved9, masks, scratch, count_stats, stats):
    keeps = {types.int64: _keeps_unique, types.int32: _keeps_logic, types.int16: _keeps_preemptive}.get(token)
    if keeps is None:
        return None

    def impl(token, puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
             vals, cand, cand9, solved9, masks, scratch, count_stats, stats):
        return keeps(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers, node_limit,
                     vals, cand, cand9, solved9, masks, scratch, count_stats, stats)

    return impl


@njit(cache=True)
def _unit_masks(puzzle, n, box_rows, box_cols, row_m, col_m, box_m) -> None:
    for i in range(n):
        row_m[i] = 0
        col_m[i] = 0
        box_m[i] = 0
    for c in range(n * n):
        v = puzzle[c]
        if v:
            r = c // n
            k = c % n
            bit = np.uint64(1) << np.uint64(v - 1)
            row_m[r] |= bit
            col_m[k] |= bit
            box_m[(r // box_rows) * box_rows + k // box_cols] |= bit


@njit(cache=True)
def _toggle_masks(saved, orbit_cells, a, b, n, box_rows, box_cols, row_m, col_m, box_m) -> None:
    """Take the orbit's values out of the unit masks, or put them back (a value
    is in a unit at most once, so flipping its bit does either)."""
    for i in range(a, b):
        c = orbit_cells[i]
        v = saved[c]
        if v:
            r = c // n
            k = c % n
            bit = np.uint64(1) << np.uint64(v - 1)
            row_m[r] ^= bit
            col_m[k] ^= bit
            box_m[(r // box_rows) * box_rows + k // box_cols] ^= bit


@njit(cache=True, inline="always")
def _free(cell, n, box_rows, box_cols, row_m, col_m, box_m) -> np.uint64:
    r = cell // n
    k = cell % n
    return ~(row_m[r] | col_m[k] | box_m[(r // box_rows) * box_rows + k // box_cols])


@njit(cache=True)
def _single_at_once(puzzle, cell, value, n, box_rows, box_cols, units, row_m, col_m, box_m) -> bool:
    """True when a blank ``cell`` is a naked or hidden single for ``value`` in ``puzzle`` as it stands.

    Then the puzzle without that clue reaches the puzzle with it in one step
    of singles, so it obeys every rule the puzzle with it obeys.
    """
    full = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    own = _free(cell, n, box_rows, box_cols, row_m, col_m, box_m) & full
    if _popcount(own) == 1:
        return True
    bit = np.uint64(1) << np.uint64(value - 1)
    r = cell // n
    k = cell % n
    b = (r // box_rows) * box_rows + k // box_cols
    for u in (r, n + k, 2 * n + b):
        alone = True
        for j in range(n):
            e = units[u, j]
            if e != cell and puzzle[e] == 0 and (_free(e, n, box_rows, box_cols, row_m, col_m, box_m) & bit):
                alone = False
                break
        if alone:
            return True
    return False


@njit(cache=True)
def _unique_without(puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers,
                    node_limit, locked, masks, scratch, count_stats, stats) -> int:
    """Whether the puzzle, with the orbit ``orbit_cells[a:b]`` blank, still has one solution.

    Another solution would have to differ from the known one in some cell of
    the orbit (else it would solve the puzzle with the orbit, which is
    unique), so for each orbit cell in turn the engine looks for one solution
    in which that cell does not hold its known value (:func:`find_other`,
    trying the known solution's value first at every branch, which meets a
    nearby second solution early). Any hit proves the orbit is needed; no hit
    for any cell proves it is not. 1 unique, 0 not, -1 a search ran out of nodes.
    """
    full = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    cells = n * n
    undecided = False
    for i in range(a, b):
        c = orbit_cells[i]
        if saved[c] == 0:
            continue
        for e in range(cells):
            v = puzzle[e]
            masks[e] = (np.uint64(1) << np.uint64(v - 1)) if v else full
        masks[c] = full & ~(np.uint64(1) << np.uint64(saved[c] - 1))
        count_stats[0] = 0
        count_stats[1] = 0
        found = find_other(masks, units, peers, box_rows, box_cols, solution, locked, node_limit,
                           scratch, count_stats)
        stats[STAT_COUNTS] += 1
        stats[STAT_NODES] += count_stats[0]
        if found > 0:
            return 0
        if found < 0:
            undecided = True
    return -1 if undecided else 1


@njit(cache=True)
def shuffle(order) -> None:
    """Shuffle an int64 array in place (Fisher-Yates with numba's generator)."""
    for i in range(order.shape[0] - 1, 0, -1):
        j = np.random.randint(i + 1)
        order[i], order[j] = order[j], order[i]


@njit(cache=True)
def _minimise(puzzle, solution, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
              order, lo, hi, rule, node_limit, stats) -> None:
    """:func:`minimise`, with the rule as its token."""
    cells = n * n
    vals = np.empty(cells, dtype=np.uint8)
    cand = np.empty(cells, dtype=np.uint64)
    scratch = np.empty(cells, dtype=np.uint8)
    saved = np.empty(cells, dtype=np.uint8)
    count_stats = np.zeros(2, dtype=np.int64)
    row_m = np.empty(n, dtype=np.uint64)
    col_m = np.empty(n, dtype=np.uint64)
    box_m = np.empty(n, dtype=np.uint64)
    masks = np.empty(cells, dtype=np.uint64)
    cand9 = np.empty((9, 3), dtype=np.int64)
    solved9 = np.empty(3, dtype=np.int64)
    _unit_masks(puzzle, n, box_rows, box_cols, row_m, col_m, box_m)
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
        _toggle_masks(saved, orbit_cells, a, b, n, box_rows, box_cols, row_m, col_m, box_m)
        at_once = True
        for i in range(a, b):
            c = orbit_cells[i]
            if saved[c] and not _single_at_once(puzzle, c, saved[c], n, box_rows, box_cols, units,
                                                row_m, col_m, box_m):
                at_once = False
                break
        if at_once:
            continue
        verdict = _keeps(rule, puzzle, orbit_cells, a, b, saved, solution, n, box_rows, box_cols, units, peers,
                         node_limit, vals, cand, cand9, solved9, masks, scratch, count_stats, stats)
        if verdict != 1:
            if verdict < 0:
                stats[STAT_UNDECIDED] += 1
            for i in range(a, b):
                c = orbit_cells[i]
                puzzle[c] = saved[c]
            _toggle_masks(saved, orbit_cells, a, b, n, box_rows, box_cols, row_m, col_m, box_m)


def minimise(puzzle, solution, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
             order, lo, hi, rule, node_limit, stats) -> None:
    """Visit orbits ``order[lo:hi]`` and take each one's clues away when the rule still holds."""
    _minimise(puzzle, solution, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
              order, lo, hi, RULE_TOKENS[rule](rule), node_limit, stats)


def generate_batch(seeds, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
                   rule, node_limit, fill_limit, puzzles, solutions, stats) -> None:
    """One puzzle per seed: seed, random grid, random orbit order, minimise.

    Row i of ``puzzles``/``solutions``/``stats`` belongs to ``seeds[i]`` and
    depends on nothing else, so batches can be split across workers freely.
    """
    _generate_batch(seeds, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
                    RULE_TOKENS[rule](rule), node_limit, fill_limit, puzzles, solutions, stats)


@njit(cache=True)
def _generate_batch(seeds, n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
                    rule, node_limit, fill_limit, puzzles, solutions, stats) -> None:
    """:func:`generate_batch`, with the rule as its token.

    Row i of ``puzzles``/``solutions``/``stats`` belongs to ``seeds[i]`` and
    depends on nothing else, so batches can be split across workers freely.
    """
    orbits = orbit_start.shape[0] - 1
    order = np.empty(orbits, dtype=np.int64)
    for i in range(seeds.shape[0]):
        np.random.seed(seeds[i])
        if not random_grid(solutions[i], n, box_rows, box_cols, units, peers, fill_limit, stats[i]):
            stats[i, STAT_UNDECIDED] = -1
            continue
        puzzles[i, :] = solutions[i, :]
        for o in range(orbits):
            order[o] = o
        shuffle(order)
        _minimise(puzzles[i], solutions[i], n, box_rows, box_cols, units, peers, orbit_cells, orbit_start,
                  order, 0, orbits, rule, node_limit, stats[i])


@njit(cache=True)
def singles_verdicts(grids, n, units, peers) -> np.ndarray:
    """For each row of ``grids``: the :func:`propagate` outcome (for tests and checks)."""
    out = np.empty(grids.shape[0], dtype=np.int64)
    cells = n * n
    vals = np.empty(cells, dtype=np.uint8)
    cand = np.empty(cells, dtype=np.uint64)
    for i in range(grids.shape[0]):
        if not load(grids[i], vals, cand, n, peers):
            out[i] = CONTRADICTION
        else:
            out[i] = propagate(vals, cand, n, units, peers)
    return out


@njit(cache=True)
def preemptive_verdicts(grids, n, units, peers) -> np.ndarray:
    """For each row of ``grids``: the :func:`preemptive` outcome."""
    out = np.empty(grids.shape[0], dtype=np.int64)
    cells = n * n
    vals = np.empty(cells, dtype=np.uint8)
    cand = np.empty(cells, dtype=np.uint64)
    for i in range(grids.shape[0]):
        if not load(grids[i], vals, cand, n, peers):
            out[i] = CONTRADICTION
        else:
            out[i] = preemptive(vals, cand, n, units, peers)
    return out
