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
  cell of the cage, and the open cells can take the rest one digit each (a
  small search for a perfect matching, :func:`_matchable`). An open cell
  keeps only the digits of the possible sets' rests; a digit that every
  possible set needs and only one open cell can take goes there (a hidden
  single of the cage).
* **the 45 rule** (N(N+1)/2 for other sizes): the cells of a unit outside the
  cages that lie wholly inside it add up to the unit's total less those
  cages' totals. They are in one unit, so their digits differ: they are
  pruned as one more cage (an *innie* cage) by the same combinations.
* **sums over several units.** For every run of 2 to :data:`RUNS`
  consecutive rows and of consecutive columns the same count gives the sum of
  the cells left over inside it (innies), and for every unit and run wholly
  covered by cages, the sum of the cells outside it of the cages that cross
  it (outies). Those cells may repeat a digit, so they are pruned by bounds
  only: a cell's digit is at least the total less the largest the others can
  make, and at most the total less the least they can make.

When neither singles nor sums narrow anything, **locked digits**
(:func:`_locked_pass`): a digit whose places in one unit all lie in another
leaves the rest of that one (pointing and claiming for any pair of units),
and a digit every possible set of a cage needs, whose places in the cage lie
in one unit, leaves the rest of that unit.

The search is kernelN's: an explicit stack of boards, resumable in slices of
nodes (a node is a board propagated), so budgets, Ctrl-C and lazy
enumeration work as for the other searches (:mod:`sudokit.engine.search`).
It branches on the open cell with the fewest candidates, and of those the
one with the most open peers (cage-mates included). The tables come from a
geometry with cages (:func:`tables`, cached per geometry; the generator,
whose geometries change at every step, calls :func:`build_tables`). Sizes up
to 16x16 (the sum tables').

>>> from sudokit.grid import Grid
>>> from sudokit.killer import Cage
>>> from sudokit.geometry import Geometry, Shape
>>> geo = Geometry.of(Shape(2, 2)).with_cages([Cage((0, 1), 3), Cage((2, 3), 7), Cage((4, 8), 7)])
>>> import numpy as np
>>> t = tables(geo)
>>> count_values(np.zeros(16, dtype=np.uint8), t, 0, 0, np.zeros(16, dtype=np.uint8), np.zeros(2, dtype=np.int64))
24
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

from .kernelN import DONE, PROPAGATE, copy_board, grow_stack, new_state, propagate_n  # noqa: E402
from .pointers import compile_for  # noqa: E402

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

#: The largest N the killer search takes (the sum tables' :data:`sudokit.killer.TABLE_MAX`).
MAX_N = 16

#: The widest run of consecutive rows (or columns) whose innies and outies the search sums.
RUNS = 4


class Tables(NamedTuple):
    """The arrays the killer kernel reads, made by :func:`tables` from a geometry with cages."""

    units: np.ndarray    #: int32[U, N]: the geometry's units
    peers: np.ndarray    #: int32[N*N, P]: unit peers and cage-mates, rows padded by repeating a peer
    cunits: np.ndarray   #: int32[N*N, K]: the units of each cell, -1 padded
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

    full = n * (n + 1) // 2
    if summed:
        # 0-1 matrices as floats: small whole numbers stay exact, and numpy multiplies floats
        # (by BLAS) several times faster than ints
        cage = np.zeros((len(summed), cells))
        lengths = [len(c.cells) for c in summed]
        cage[np.repeat(np.arange(len(summed)), lengths), [cell for c in summed for cell in c.cells]] = 1.0
        totals = np.array([c.total for c in summed], dtype=np.float64)
        region = base.regions  # float64[R, cells]
        inregion = region > 0
        sizes = base.sizes
        meets = region @ cage.T                      # cells of cage k in region r
        inside = (meets == cage.sum(axis=1)[None, :]).astype(np.float64)
        rest = inregion & ~((inside @ cage) > 0)  # less the cages inside
        rest_total = np.rint(base.times * full - inside @ totals).astype(np.int64)
        crossing = (meets > 0).astype(np.float64)
        whole = (inregion & ~(cage.sum(axis=0) > 0)[None, :]).sum(axis=1) == 0  # every cell in a summed cage
        out_cells = ((crossing @ cage) > 0) & ~inregion  # outies
        out_total = np.rint(crossing @ totals - base.times * full).astype(np.int64)
        count = rest.sum(axis=1)
        useful = (count > 0) & (count < sizes)
        one = useful & (base.times == 1)
        many = useful & (base.times > 1) & (count <= 2 * n)
        outs = whole & (out_cells.sum(axis=1) > 0) & (out_cells.sum(axis=1) <= 2 * n)
        groups = np.concatenate([cage > 0, rest[one], rest[many], out_cells[outs]])
        group_totals = np.concatenate([totals, rest_total[one], rest_total[many], out_total[outs]])
        distinct_upto = len(summed) + int(one.sum())
        keys = np.packbits(groups, axis=1)
        keep = np.zeros(len(groups), dtype=bool)
        seen: set[bytes] = set()
        for i in range(len(groups)):  # a group met before (a cage, an innie of two units) once
            key = keys[i].tobytes()
            if key not in seen:
                seen.add(key)
                keep[i] = True
        kept_distinct = keep.copy()
        kept_distinct[distinct_upto:] = False
        kept_bounded = keep.copy()
        kept_bounded[:distinct_upto] = False
        dgroups, dtotals = groups[kept_distinct], group_totals[kept_distinct]
        bgroups, btotals = groups[kept_bounded], group_totals[kept_bounded]
    else:
        dgroups = bgroups = np.zeros((0, cells), dtype=bool)
        dtotals = btotals = np.zeros(0, dtype=np.int64)
    ccells, csize = _rows_of(dgroups)
    lcells, lsize = _rows_of(bgroups)
    ltotal = btotals.astype(np.int64)
    cstart = np.zeros(len(dgroups), dtype=np.int64)
    cend = np.zeros(len(dgroups), dtype=np.int64)
    combos: list[int] = []
    for i in range(len(dgroups)):
        cstart[i] = len(combos)
        combos.extend(sum_sets(n, int(csize[i]), int(dtotals[i])))
        cend[i] = len(combos)
    return Tables(base.units, peer_rows, base.cunits, ccells, csize, cstart, cend, np.array(combos, dtype=np.uint64),
                  lcells, lsize, ltotal, n)


def _rows_of(groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """0-1 rows of cells as (cells int32[G, S] padded with -1, sizes int32[G])."""
    sizes = groups.sum(axis=1).astype(np.int32)
    out = np.full((len(groups), max(1, int(sizes.max(initial=1)))), -1, dtype=np.int32)
    rows, cols = np.nonzero(groups)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]) if len(groups) else np.zeros(0, dtype=np.int64)
    out[rows, np.arange(len(rows)) - np.repeat(starts, sizes)] = cols
    return out, sizes


class _Base(NamedTuple):
    units: np.ndarray    # int32[U, N]
    peers: np.ndarray    # int32[N*N, P]: unit peers, padded (engine.generate.arrays_of)
    cunits: np.ndarray   # int32[N*N, K]: the units of each cell, -1 padded
    regions: np.ndarray  # float64[R, N*N]: 1 for the cells of each group whose total is known
    sizes: np.ndarray    # int64[R]: the cells of each group
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
        for run in range(2, min(n, RUNS + 1)):
            for start in range(0, n - run + 1):
                groups.append((set().union(*map(set, cells_of[start:start + run])), run))
    regions = np.zeros((len(groups), n * n))
    for r, (cells, _) in enumerate(groups):
        regions[r, list(cells)] = 1.0
    holding = [[u for u, unit in enumerate(units) if c in unit] for c in range(n * n)]
    cunits = np.full((n * n, max(len(h) for h in holding)), -1, dtype=np.int32)
    for c, h in enumerate(holding):
        cunits[c, : len(h)] = h
    return _Base(unit_array, peers, cunits, regions, np.array([len(c) for c, _ in groups], dtype=np.int64),
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
def _matchable(opened, k, rest, rem, pick):
    """Whether the open cells (their masks ``opened[:k]``) can take the digits of
    ``rest`` (k of them) one each: a small search for a perfect matching."""
    used = ZERO
    d = 0
    rem[0] = opened[0] & rest
    pick[0] = ZERO
    while True:
        if pick[d]:
            used ^= pick[d]
            pick[d] = ZERO
        if rem[d] == ZERO:
            d -= 1
            if d < 0:
                return False
            continue
        b = rem[d] & (ZERO - rem[d])
        rem[d] ^= b
        pick[d] = b
        used |= b
        if d == k - 1:
            return True
        d += 1
        rem[d] = opened[d] & rest & ~used
        pick[d] = ZERO


@njit(cache=True)
def _sum_pass(masks, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal, creq):
    """One pass of the sum rules over every group: -1 on a contradiction, else
    the number of masks it narrowed."""
    changed = 0
    opened = np.empty(ccells.shape[1], dtype=np.uint64)
    rem = np.empty(ccells.shape[1], dtype=np.uint64)
    pick = np.empty(ccells.shape[1], dtype=np.uint64)
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
            k = 0
            for i in range(size):
                m = masks[ccells[g, i]]
                if (m & (m - ONE)) != ZERO:
                    if (m & rest) == ZERO:
                        ok = False
                        break
                    opened[k] = m
                    k += 1
            if ok and k > 2:
                ok = _matchable(opened, k, rest, rem, pick)
            if ok:
                allowed |= rest
                required &= rest
        creq[g] = required & ~placed if allowed != ZERO else ZERO
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


@njit(cache=True, inline="always")
def _has_unit(cunits, cell, unit):
    for k in range(cunits.shape[1]):
        if cunits[cell, k] == unit:
            return True
    return False


@njit(cache=True, inline="always")  # inlined: about 2 s less to compile the search
def _confine(masks, units, cunits, cells, count, b, skip, mark, stamp):
    """Digit bit ``b`` lies in ``cells[:count]``: remove it from the rest of every unit
    (other than ``skip``) that holds them all; cells marked ``stamp`` keep it. The
    number of masks narrowed, or -1 when a cell empties."""
    changed = 0
    c0 = cells[0]
    for k in range(cunits.shape[1]):
        u = cunits[c0, k]
        if u < 0 or u == skip:
            continue
        common = True
        for i in range(1, count):
            if not _has_unit(cunits, cells[i], u):
                common = False
                break
        if not common:
            continue
        for i in range(units.shape[1]):
            x = units[u, i]
            if mark[x] == stamp:
                continue
            m = masks[x]
            if m & b:
                m &= ~b
                if m == ZERO:
                    return -1
                masks[x] = m
                changed += 1
    return changed


@njit(cache=True)
def _locked_pass(masks, units, cunits, ccells, csize, creq, mark):
    """Locked digits, over any units and the cages: a digit whose places in a unit
    all lie in another unit leaves the rest of that one (pointing and claiming, for
    every pair of units), and a digit that every possible set of a cage needs,
    whose places in the cage all lie in one unit, leaves the rest of that unit.
    The number of masks narrowed, or -1 on a contradiction."""
    n = units.shape[1]
    cells = np.empty(max(n, ccells.shape[1]), dtype=np.int64)
    changed = 0
    stamp = mark[0]
    for c in range(mark.shape[0]):  # a loop: numba's max() reduction costs about a second to compile
        if mark[c] > stamp:
            stamp = mark[c]
    stamp += 1
    for u in range(units.shape[0]):
        stamp += 1
        for i in range(n):
            mark[units[u, i]] = stamp
        for d in range(n):
            b = ONE << np.uint64(d)
            count = 0
            placed = False
            for i in range(n):
                c = units[u, i]
                m = masks[c]
                if m & b:
                    if m == b:
                        placed = True
                        break
                    cells[count] = c
                    count += 1
            if placed or count < 2:
                continue
            got = _confine(masks, units, cunits, cells, count, b, u, mark, stamp)
            if got < 0:
                return -1
            changed += got
    for g in range(ccells.shape[0]):
        req = creq[g]
        if req == ZERO:
            continue
        stamp += 1
        size = csize[g]
        for i in range(size):
            mark[ccells[g, i]] = stamp
        while req:
            b = req & (ZERO - req)
            req ^= b
            count = 0
            for i in range(size):  # a cell that became b's since the sums were summed counts too
                c = ccells[g, i]
                if masks[c] & b:
                    cells[count] = c
                    count += 1
            if count < 1:
                continue
            got = _confine(masks, units, cunits, cells, count, b, -1, mark, stamp)
            if got < 0:
                return -1
            changed += got
    return changed


@njit(cache=True)
def propagate_k(masks, assigned, units, peers, cunits, queue, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal,
                creq, mark):
    """Singles and sums to a fixpoint; False on a contradiction. ``masks`` and
    ``assigned`` change in place (as :func:`~sudokit.engine.kernelN.propagate_n`)."""
    while True:
        if not propagate_n(masks, assigned, units, peers, queue):
            return False
        changed = _sum_pass(masks, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal, creq)
        if changed < 0:
            return False
        if changed == 0:
            changed = _locked_pass(masks, units, cunits, ccells, csize, creq, mark)
            if changed < 0:
                return False
            if changed == 0:
                return True


# -- search ------------------------------------------------------------------------------------


@njit(cache=True)
def _pick(masks, assigned, peers, nn):
    """The open cell with the fewest candidates; of those, the one with the most open peers
    (cage-mates included), as the 9x9 kernel picks its bivalue cell. -1 when all are assigned."""
    best = -1
    best_count = 65
    best_open = -1
    for c in range(nn):
        if assigned[c] == 0:
            k = pop(masks[c])
            if k > best_count:
                continue
            opened = 0
            for j in range(peers.shape[1]):
                if assigned[peers[c, j]] == 0:
                    opened += 1
            if k < best_count or opened > best_open:
                best = c
                best_count = k
                best_open = opened
    return best


@njit(cache=True)
def search_k(boards, flags, bcell, brem, state, units, peers, cunits, ccells, csize, cstart, cend, combos,
             lcells, lsize, ltotal, n, node_limit, solution_out, stats):
    """:func:`sudokit.engine.kernelN.search_n` with :func:`propagate_k`: run
    from ``state`` to the next solution (1), the end of the tree (0) or
    ``node_limit`` nodes (> 0) used in this call (-1); returns (status, boards,
    flags, bcell, brem), the stack possibly grown."""
    nn = n * n
    queue = np.empty(nn, dtype=np.int64)
    creq = np.zeros(max(1, ccells.shape[0]), dtype=np.uint64)
    mark = np.zeros(nn, dtype=np.int64)
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
            if propagate_k(cur, fl, units, peers, cunits, queue, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal,
                           creq, mark):
                cell = _pick(cur, fl, peers, nn)
                if cell < 0:
                    for c in range(nn):
                        solution_out[c] = tz(cur[c]) + 1
                    state[1] = 1  # BACKTRACK
                    return 1, boards, flags, bcell, brem
                if depth + 1 >= boards.shape[0]:
                    boards, flags, bcell, brem = grow_stack(boards, flags, bcell, brem)
                    cur = boards[depth]
                    fl = flags[depth]
                stats[1] += 1
                m = cur[cell]
                low = m & (ZERO - m)
                bcell[depth] = cell
                brem[depth] = m ^ low
                copy_board(boards, flags, depth, depth + 1)
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
        copy_board(boards, flags, d, d + 1)
        boards[d + 1, bcell[d]] = low
        state[0] = d + 1
        state[1] = PROPAGATE


@njit(cache=True)
def count_more_k(boards, flags, bcell, brem, state, units, peers, cunits, ccells, csize, cstart, cend, combos,
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
            boards, flags, bcell, brem, state, units, peers, cunits, ccells, csize, cstart, cend, combos,
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
def count_k(grid, units, peers, cunits, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal, n, limit,
            node_limit, solution_out, stats):
    """Count the solutions of ``grid`` (uint8[N*N], 0 blank) up to ``limit``
    (<= 0: all), in one call: the count, or -1 when ``node_limit`` (> 0) nodes
    ran out first. For compiled callers (the generator)."""
    boards, flags, bcell, brem, state = new_state(grid, 1, n)
    return count_more_k(boards, flags, bcell, brem, state, units, peers, cunits, ccells, csize, cstart, cend, combos,
                        lcells, lsize, ltotal, n, limit, node_limit, solution_out, stats)[0]


def two(grid, t: "Tables", node_limit: int, first_out, second_out, stats) -> int:
    """The first two solutions of ``grid`` under the tables ``t``: how many
    were found (0, 1 or 2; -1 when ``node_limit`` (> 0) nodes ran out first),
    into ``first_out`` and ``second_out``. The generator cuts cages finer
    where the two differ. Two calls of :func:`search_k` from Python (a kernel
    around them would be one more to compile on a first run, for nothing)."""
    boards, flags, bcell, brem, state = new_state(grid, 1, t.n)
    before = stats[0]
    status, boards, flags, bcell, brem = search_k(boards, flags, bcell, brem, state, *args(t), t.n, node_limit,
                                                  first_out, stats)
    if status != 1:
        return int(status)
    left = 0
    if node_limit > 0:
        left = node_limit - int(stats[0] - before)
        if left <= 0:
            return -1
    status, boards, flags, bcell, brem = search_k(boards, flags, bcell, brem, state, *args(t), t.n, left,
                                                  second_out, stats)
    if status == 1:
        return 2
    return 1 if status == 0 else -1


def warm(part: str = "search") -> None:
    """Compile (or load) the search the generator runs, with the types of its
    calls, without running it. A first killer splits the work over two
    processes: a helper compiles ``"search"`` (the locked digits first, then
    :func:`search_k` and the rest of its propagation) while the command
    compiles ``"parts"`` (the sum rules, which the helper then finds in the
    cache, and the search's first state)."""
    t = tables(_example())
    grid = np.zeros(16, dtype=np.uint8)
    masks = np.zeros(16, dtype=np.uint64)
    mark = np.zeros(16, dtype=np.int64)
    creq = np.zeros(1, dtype=np.uint64)
    if part == "parts":
        compile_for(_sum_pass, masks, t.ccells, t.csize, t.cstart, t.cend, t.combos, t.lcells, t.lsize, t.ltotal, creq)
        compile_for(new_state, grid, 1, t.n)
        return
    compile_for(_locked_pass, masks, t.units, t.cunits, t.ccells, t.csize, creq, mark)
    state = new_state(grid, 1, t.n)
    compile_for(search_k, *state, *args(t), t.n, 0, grid, np.zeros(2, dtype=np.int64))


_loaded: set[bool] = set()


def load(count: bool = False, beside=None) -> None:
    """Load the killer search (``count``: and the count around it, for
    ``solve``) before the first killer. On a first run the search compiles in
    a helper process (:func:`warm`, ``"search"``) while this one compiles the
    sum rules and the first state, and runs ``beside`` (more of its own
    loading, such as the generator's random grid)."""
    from .compiling import alongside

    if count in _loaded:
        return
    with alongside(("killer-search",)):
        warm("parts")
        if beside is not None:
            beside()
    if count:
        geo = _example()
        t = tables(geo)
        grid = np.zeros(16, dtype=np.uint8)
        compile_for(count_more_k, *new_state(grid, 1, t.n), *args(t), t.n, 0, 0, grid, np.zeros(2, dtype=np.int64))
    _loaded.add(count)


def _example():
    """A small killer's geometry, for compiling."""
    from ..geometry import Shape
    from ..killer import Cage

    return Shape(2, 2).geometry.with_cages((Cage((0, 1), 3),))


@njit(cache=True)
def deduce_k(grid, units, peers, cunits, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal, n, out):
    """What singles and sums derive from ``grid`` into ``out`` (0 where open);
    False on a contradiction."""
    nn = n * n
    full = ALL >> np.uint64(64 - n)
    masks = np.empty(nn, dtype=np.uint64)
    assigned = np.zeros(nn, dtype=np.uint8)
    queue = np.empty(nn, dtype=np.int64)
    creq = np.zeros(max(1, ccells.shape[0]), dtype=np.uint64)
    mark = np.zeros(nn, dtype=np.int64)
    for c in range(nn):
        v = grid[c]
        masks[c] = (ONE << np.uint64(v - 1)) if v else full
    if not propagate_k(masks, assigned, units, peers, cunits, queue, ccells, csize, cstart, cend, combos, lcells, lsize, ltotal,
                       creq, mark):
        return False
    for c in range(nn):
        m = masks[c]
        out[c] = tz(m) + 1 if (m & (m - ONE)) == ZERO else 0
    return True


# -- plain-Python calls --------------------------------------------------------------------------


def count_values(values: np.ndarray, t: Tables, limit: int, node_limit: int, solution: np.ndarray,
                 stats: np.ndarray) -> int:
    """:func:`count_k` on the arrays of ``t`` (see :func:`tables`)."""
    return int(count_k(values, t.units, t.peers, t.cunits, t.ccells, t.csize, t.cstart, t.cend, t.combos, t.lcells, t.lsize,
                       t.ltotal, t.n, limit, node_limit, solution, stats))


def args(t: Tables) -> tuple:
    """The tables as the kernels' positional arguments, after the state."""
    return (t.units, t.peers, t.cunits, t.ccells, t.csize, t.cstart, t.cend, t.combos, t.lcells, t.lsize, t.ltotal)
