"""The killer search: the general kernel's singles plus cage-sum pruning, over any units.

A killer puzzle's rules are its geometry's units (each digit once) and its
cages (different digits adding up to a total; :mod:`sudokit.killer`). This
kernel keeps the representation of :mod:`sudokit.engine.kernelN`, one 64-bit
candidate mask per cell, and its singles (:func:`~sudokit.engine.kernelN.propagate_n`,
with each cell's cage-mates added to its peers, so a placed digit leaves its
cage as it leaves its row). Between two rounds of singles it prunes with sums:

* **cage combinations.** Each cage with a total has the digit sets that make
  it (:func:`sudokit.killer.sum_table`). A set is still possible when it holds
  every digit placed in the cage, each digit of the rest can go in some open
  cell of the cage, and each open cell can take some digit of the rest. An
  open cell keeps only the digits of the possible sets' rests; a digit that
  every possible set needs and only one open cell can take goes there (a
  hidden single of the cage).
* **the 45 rule** (N(N+1)/2 for other sizes): the cells of a unit outside the
  cages that lie wholly inside it add up to the unit's total less those
  cages' totals. They are in one unit, so their digits differ: they are
  pruned as one more cage (an *innie* cage) by the same combinations.
* **sums over several units.** For every run of consecutive rows and of
  consecutive columns, and every unit, the same count gives the sum of the
  cells left over inside it (innies), and the cells outside it of the cages
  that cross it (outies). Those cells may repeat a digit, so they are pruned
  by bounds only: a cell's digit is at least the total less the largest the
  others can make, and at most the total less the least they can make.

The search is kernelN's: an explicit stack of boards, the open cell with the
fewest candidates first, resumable in slices of nodes (a node is a board
propagated), so budgets, Ctrl-C and lazy enumeration work as for the other
searches (:mod:`sudokit.engine.search`). The tables come from a geometry with
cages (:func:`tables`), once per geometry. Sizes up to 16x16 (the sum tables').

>>> from sudokit.grid import Grid
>>> from sudokit.killer import Cage
>>> from sudokit.geometry import Geometry, Shape
>>> geo = Geometry.of(Shape(2, 2)).with_cages([Cage((0, 1), 3), Cage((2, 3), 7), Cage((4, 8), 7)])
>>> import numpy as np
>>> t = tables(geo)
>>> count_values(np.zeros(16, dtype=np.uint8), t, 0, 0, np.zeros(16, dtype=np.uint8), np.zeros(2, dtype=np.int64))
4
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..errors import SudokuError
from .board import pop, tz
from .compiling import load_numba

load_numba()  # before the first kernel loads: numba without its BLAS probe

from .kernelN import DONE, PROPAGATE, _copy_board, _grow, new_state, pick_cell, propagate_n  # noqa: E402

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

#: The largest N the killer search takes (the sum tables' :data:`sudokit.killer.TABLE_MAX`).
MAX_N = 16


class Tables(NamedTuple):
    """The arrays the killer kernel reads, made by :func:`tables` from a geometry with cages."""

    units: np.ndarray    #: int32[U, N]: the geometry's units
    peers: np.ndarray    #: int32[N*N, P]: unit peers and cage-mates, rows padded by repeating a peer
    ccells: np.ndarray   #: int32[C, S]: each summed group's cells (cages with totals, then innie cages), -1 padded
    csize: np.ndarray    #: int32[C]
    cstart: np.ndarray   #: int64[C]: where its digit sets start in ``combos``
    cend: np.ndarray     #: int64[C]
    combos: np.ndarray   #: uint64[K]: digit sets (bit d-1 for d)
    lcells: np.ndarray   #: int32[L, S]: cells of each bounded sum (digits may repeat), -1 padded
    lsize: np.ndarray    #: int32[L]
    ltotal: np.ndarray   #: int64[L]
    n: int


# -- tables ------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def tables(geometry) -> Tables:
    """The kernel's arrays for ``geometry`` (a :class:`~sudokit.geometry.Geometry`, with cages or not),
    cached: :func:`build_tables` once per geometry."""
    return build_tables(geometry)


def build_tables(geometry) -> Tables:
    """The kernel's arrays for ``geometry``, made anew (the generator's geometries change at every step).

    The sums of the 45 rule are found with 0-1 matrices: ``inside[r, k]`` says
    that cage ``k`` lies wholly in region ``r``, ``crossing[r, k]`` that it
    meets it."""
    from ..killer import sum_sets

    n = geometry.n
    if n > MAX_N:
        raise SudokuError(f"the killer search takes grids up to {MAX_N}x{MAX_N}, not {n}x{n}")
    cells = n * n
    base = _base(geometry.shape, geometry.units)
    summed = [c for c in geometry.cages if c.total is not None]
    extra = max([len(c) - 1 for c in geometry.cages] + [0])
    peer_rows = np.empty((cells, base.peers.shape[1] + extra), dtype=np.int32)
    peer_rows[:, : base.peers.shape[1]] = base.peers
    peer_rows[:, base.peers.shape[1]:] = base.peers[:, :1]  # padding: the first peer again
    for cage in geometry.cages:  # cage-mates are peers too (a repeat of a unit peer does no harm)
        for i, a in enumerate(cage.cells):
            mates = cage.cells[:i] + cage.cells[i + 1:]
            peer_rows[a, base.peers.shape[1]: base.peers.shape[1] + len(mates)] = mates

    distinct: list[tuple[np.ndarray, int]] = [(np.array(c.cells), c.total) for c in summed]
    bounded: list[tuple[np.ndarray, int]] = []
    if summed:
        cage = np.zeros((len(summed), cells), dtype=np.int32)
        for k, c in enumerate(summed):
            cage[k, list(c.cells)] = 1
        totals = np.array([c.total for c in summed], dtype=np.int64)
        region = base.regions  # int32[R, cells]
        sizes = region.sum(axis=1)
        meets = region @ cage.T                      # cells of cage k in region r
        inside = meets == cage.sum(axis=1)[None, :]
        covered = (inside.astype(np.int32) @ cage) > 0  # cells of the cages inside
        rest = (region > 0) & ~covered
        rest_total = base.times * (n * (n + 1) // 2) - inside.astype(np.int64) @ totals
        crossing = meets > 0
        caged = cage.sum(axis=0) > 0
        whole = ((region > 0) & ~caged[None, :]).sum(axis=1) == 0  # every cell of the region in a summed cage
        out_cells = ((crossing.astype(np.int32) @ cage) > 0) & ~(region > 0)
        out_total = crossing.astype(np.int64) @ totals - base.times * (n * (n + 1) // 2)
        seen = {c.cells for c in summed}
        count = rest.sum(axis=1)
        for r in np.flatnonzero((count > 0) & (count < sizes)).tolist():
            left = np.flatnonzero(rest[r])
            key = tuple(left.tolist())
            if key not in seen:
                seen.add(key)
                if base.times[r] == 1:
                    distinct.append((left, int(rest_total[r])))
                elif len(left) <= 2 * n:
                    bounded.append((left, int(rest_total[r])))
        count = out_cells.sum(axis=1)
        for r in np.flatnonzero(whole & (count > 0) & (count <= 2 * n)).tolist():
            outside = np.flatnonzero(out_cells[r])
            key = tuple(outside.tolist())
            if key not in seen:
                seen.add(key)
                bounded.append((outside, int(out_total[r])))

    width_c = max([len(c) for c, _ in distinct] + [1])
    ccells = np.full((len(distinct), width_c), -1, dtype=np.int32)
    csize = np.zeros(len(distinct), dtype=np.int32)
    cstart = np.zeros(len(distinct), dtype=np.int64)
    cend = np.zeros(len(distinct), dtype=np.int64)
    combos: list[int] = []
    for i, (group, total) in enumerate(distinct):
        ccells[i, : len(group)] = group
        csize[i] = len(group)
        cstart[i] = len(combos)
        combos.extend(sum_sets(n, len(group), total))
        cend[i] = len(combos)
    width_l = max([len(c) for c, _ in bounded] + [1])
    lcells = np.full((len(bounded), width_l), -1, dtype=np.int32)
    lsize = np.zeros(len(bounded), dtype=np.int32)
    ltotal = np.zeros(len(bounded), dtype=np.int64)
    for i, (group, total) in enumerate(bounded):
        lcells[i, : len(group)] = group
        lsize[i] = len(group)
        ltotal[i] = total
    return Tables(base.units, peer_rows, ccells, csize, cstart, cend, np.array(combos, dtype=np.uint64),
                  lcells, lsize, ltotal, n)


class _Base(NamedTuple):
    units: np.ndarray    # int32[U, N]
    peers: np.ndarray    # int32[N*N, P]: unit peers, padded (engine.generate.arrays_of)
    regions: np.ndarray  # int32[R, N*N]: 1 for the cells of each group whose total is known
    times: np.ndarray    # int64[R]: how many units each group is (its total is times * N(N+1)/2)


@lru_cache(maxsize=64)
def _base(shape, units: tuple) -> _Base:
    """What does not depend on the cages: the units, their peers, and the groups
    of cells whose total the 45 rule knows (each unit, each run of 2..N-1
    consecutive rows or columns)."""
    from ..geometry import Geometry
    from .generate import arrays_of

    n = shape.size
    unit_array, peers = arrays_of(Geometry(shape, units, [0] * len(units)))
    groups = [(set(u), 1) for u in units]
    lines = [(shape.rows, 1), (shape.cols, 1)]
    for cells_of, _ in lines:
        for run in range(2, n):
            for start in range(0, n - run + 1):
                groups.append((set().union(*map(set, cells_of[start:start + run])), run))
    regions = np.zeros((len(groups), n * n), dtype=np.int32)
    for r, (cells, _) in enumerate(groups):
        regions[r, list(cells)] = 1
    return _Base(unit_array, peers, regions,
                 np.array([t for _, t in groups], dtype=np.int64))


# -- propagation -----------------------------------------------------------------------------


@intrinsic
def _lz(typingctx, x):
    """Leading zeros of a non-zero uint64 word (one instruction): ``64 - _lz(m)`` is the largest digit of ``m``."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(x), codegen


@njit(cache=True)
def _sum_pass(masks, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal):
    """One pass of the sum rules over every group: -1 on a contradiction, else
    the number of masks it narrowed."""
    changed = 0
    for g in range(ccells.shape[0]):
        size = csize[g]
        placed = ZERO
        nplaced = 0
        union = ZERO
        for i in range(size):
            m = masks[ccells[g, i]]
            if (m & (m - ONE)) == ZERO:
                placed |= m
                nplaced += 1
            else:
                union |= m
        if pop(placed) != nplaced:  # a digit twice
            return -1
        allowed = ZERO
        required = ALL
        for k in range(cstart[g], cend[g]):
            combo = combos[k]
            if (combo & placed) != placed:
                continue
            rest = combo & ~placed
            if (union & rest) != rest:
                continue
            ok = True
            for i in range(size):
                m = masks[ccells[g, i]]
                if (m & (m - ONE)) != ZERO and (m & rest) == ZERO:
                    ok = False
                    break
            if ok:
                allowed |= rest
                required &= rest
        if nplaced == size:
            if allowed == ZERO:  # no open cell: the placed digits must be one of the sets
                found = False
                for k in range(cstart[g], cend[g]):
                    if combos[k] == placed:
                        found = True
                        break
                if not found:
                    return -1
            continue
        if allowed == ZERO:
            return -1
        once = ZERO
        twice = ZERO
        for i in range(size):
            c = ccells[g, i]
            m = masks[c]
            if (m & (m - ONE)) == ZERO:
                continue
            nm = m & allowed
            if nm == ZERO:
                return -1
            twice |= once & nm
            once |= nm
            if nm != m:
                masks[c] = nm
                changed += 1
        lone = required & once & ~twice  # needed by every set, and one open cell takes it
        if lone:
            for i in range(size):
                c = ccells[g, i]
                m = masks[c]
                if (m & (m - ONE)) == ZERO:
                    continue
                b = m & lone
                if b:
                    if b & (b - ONE):
                        return -1
                    masks[c] = b
                    changed += 1
    for g in range(lcells.shape[0]):
        size = lsize[g]
        low = 0
        high = 0
        for i in range(size):
            m = masks[lcells[g, i]]
            low += tz(m) + 1
            high += 64 - _lz(m)
        total = ltotal[g]
        if low > total or high < total:
            return -1
        if low == total and high == total:
            continue
        for i in range(size):
            c = lcells[g, i]
            m = masks[c]
            lo = tz(m) + 1
            hi = 64 - _lz(m)
            top = total - (low - lo)   # the most this cell can hold
            bottom = total - (high - hi)  # the least
            nm = m
            if top < hi:
                if top < 1:
                    return -1
                nm &= ALL >> np.uint64(64 - top)
            if bottom > lo:
                if bottom > 64:
                    return -1
                nm &= ~(ALL >> np.uint64(64 - (bottom - 1))) if bottom > 1 else ALL
            if nm != m:
                if nm == ZERO:
                    return -1
                masks[c] = nm
                changed += 1
                low += tz(nm) + 1 - lo
                high += 64 - _lz(nm) - hi
    return changed


@njit(cache=True)
def propagate_k(masks, assigned, units, peers, queue, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal):
    """Singles and sums to a fixpoint; False on a contradiction. ``masks`` and
    ``assigned`` change in place (as :func:`~sudokit.engine.kernelN.propagate_n`)."""
    while True:
        if not propagate_n(masks, assigned, units, peers, queue):
            return False
        changed = _sum_pass(masks, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal)
        if changed < 0:
            return False
        if changed == 0:
            return True


# -- search ------------------------------------------------------------------------------------


@njit(cache=True)
def search_k(boards, flags, bcell, brem, state, units, peers, ccells, csize, cstart, cend, combos,
             lcells, lsize, ltotal, n, node_limit, solution_out, stats):
    """:func:`sudokit.engine.kernelN.search_n` with :func:`propagate_k`: run
    from ``state`` to the next solution (1), the end of the tree (0) or
    ``node_limit`` nodes (> 0) used in this call (-1); returns (status, boards,
    flags, bcell, brem), the stack possibly grown."""
    nn = n * n
    queue = np.empty(nn, dtype=np.int64)
    used = 0
    while True:
        depth = state[0]
        mode = state[1]
        if mode == DONE:
            return 0, boards, flags, bcell, brem
        if mode == PROPAGATE:
            if node_limit > 0 and used >= node_limit:
                return -1, boards, flags, bcell, brem
            used += 1
            stats[0] += 1
            cur = boards[depth]
            fl = flags[depth]
            if propagate_k(cur, fl, units, peers, queue, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal):
                cell = pick_cell(cur, fl, nn)
                if cell < 0:
                    for c in range(nn):
                        solution_out[c] = tz(cur[c]) + 1
                    state[1] = 1  # BACKTRACK
                    return 1, boards, flags, bcell, brem
                if depth + 1 >= boards.shape[0]:
                    boards, flags, bcell, brem = _grow(boards, flags, bcell, brem)
                    cur = boards[depth]
                    fl = flags[depth]
                stats[1] += 1
                m = cur[cell]
                low = m & (ZERO - m)
                bcell[depth] = cell
                brem[depth] = m ^ low
                _copy_board(boards, flags, depth, depth + 1)
                boards[depth + 1, cell] = low
                state[0] = depth + 1
                continue
            state[1] = 1  # BACKTRACK
        d = depth - 1
        while d >= 0 and brem[d] == ZERO:
            d -= 1
        if d < 0:
            state[1] = DONE
            return 0, boards, flags, bcell, brem
        m = brem[d]
        low = m & (ZERO - m)
        brem[d] = m ^ low
        _copy_board(boards, flags, d, d + 1)
        boards[d + 1, bcell[d]] = low
        state[0] = d + 1
        state[1] = PROPAGATE


@njit(cache=True)
def count_more_k(boards, flags, bcell, brem, state, units, peers, ccells, csize, cstart, cend, combos,
                 lcells, lsize, ltotal, n, limit, node_limit, solution_out, stats):
    """Go on counting from ``state`` (``state[2]``: the count so far) until
    ``limit`` solutions (> 0) or the end of the tree (status: the count), or
    ``node_limit`` nodes (> 0) used in this call (status -1). Returns (status,
    boards, flags, bcell, brem): keep the arrays to resume."""
    scratch = np.empty(n * n, dtype=np.uint8)
    found = state[2]
    left = node_limit
    while True:
        before = stats[0]
        status, boards, flags, bcell, brem = search_k(
            boards, flags, bcell, brem, state, units, peers, ccells, csize, cstart, cend, combos,
            lcells, lsize, ltotal, n, left, solution_out if found == 0 else scratch, stats,
        )
        if node_limit > 0:
            left -= stats[0] - before
        if status == 1:
            found += 1
            state[2] = found
            if limit > 0 and found >= limit:
                state[1] = DONE
                return found, boards, flags, bcell, brem
            if node_limit > 0 and left <= 0:
                return -1, boards, flags, bcell, brem
            continue
        if status == 0:
            return found, boards, flags, bcell, brem
        return -1, boards, flags, bcell, brem


@njit(cache=True)
def count_k(grid, units, peers, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal, n, limit,
            node_limit, solution_out, stats):
    """Count the solutions of ``grid`` (uint8[N*N], 0 blank) up to ``limit``
    (<= 0: all), in one call: the count, or -1 when ``node_limit`` (> 0) nodes
    ran out first. For compiled callers (the generator)."""
    boards, flags, bcell, brem, state = new_state(grid, 1, n)
    return count_more_k(boards, flags, bcell, brem, state, units, peers, ccells, csize, cstart, cend, combos,
                        lcells, lsize, ltotal, n, limit, node_limit, solution_out, stats)[0]


@njit(cache=True)
def two_k(grid, units, peers, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal, n, node_limit,
          first_out, second_out, stats):
    """The first two solutions of ``grid``: how many were found (0, 1 or 2; -1
    when ``node_limit`` (> 0) nodes ran out first), into ``first_out`` and
    ``second_out``. The generator cuts cages finer where the two differ."""
    boards, flags, bcell, brem, state = new_state(grid, 1, n)
    before = stats[0]
    status, boards, flags, bcell, brem = search_k(boards, flags, bcell, brem, state, units, peers, ccells, csize,
                                                  cstart, cend, combos, lcells, lsize, ltotal, n, node_limit,
                                                  first_out, stats)
    if status != 1:
        return status
    left = 0
    if node_limit > 0:
        left = node_limit - (stats[0] - before)
        if left <= 0:
            return -1
    status, boards, flags, bcell, brem = search_k(boards, flags, bcell, brem, state, units, peers, ccells, csize,
                                                  cstart, cend, combos, lcells, lsize, ltotal, n, left,
                                                  second_out, stats)
    if status == 1:
        return 2
    return 1 if status == 0 else -1


@njit(cache=True)
def deduce_k(grid, units, peers, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal, n, out):
    """What singles and sums derive from ``grid`` into ``out`` (0 where open);
    False on a contradiction."""
    nn = n * n
    full = ALL >> np.uint64(64 - n)
    masks = np.empty(nn, dtype=np.uint64)
    assigned = np.zeros(nn, dtype=np.uint8)
    queue = np.empty(nn, dtype=np.int64)
    for c in range(nn):
        v = grid[c]
        masks[c] = (ONE << np.uint64(v - 1)) if v else full
    if not propagate_k(masks, assigned, units, peers, queue, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal):
        return False
    for c in range(nn):
        m = masks[c]
        out[c] = tz(m) + 1 if (m & (m - ONE)) == ZERO else 0
    return True


# -- plain-Python calls --------------------------------------------------------------------------


def count_values(values: np.ndarray, t: Tables, limit: int, node_limit: int, solution: np.ndarray,
                 stats: np.ndarray) -> int:
    """:func:`count_k` on the arrays of ``t`` (see :func:`tables`)."""
    return int(count_k(values, t.units, t.peers, t.ccells, t.csize, t.cstart, t.cend, t.combos, t.lcells, t.lsize,
                       t.ltotal, t.n, limit, node_limit, solution, stats))


def args(t: Tables) -> tuple:
    """The tables as the kernels' positional arguments, after the state."""
    return (t.units, t.peers, t.ccells, t.csize, t.cstart, t.cend, t.combos, t.lcells, t.lsize, t.ltotal)
