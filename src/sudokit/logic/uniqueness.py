"""Uniqueness techniques: Unique Rectangles and Loops (types 1 to 4) and
the Bivalue Universal Grave (types 1, 2).

They assume the puzzle has one solution. A *unique loop* on values ``{a, b}``
is a closed path of cells, each holding both values, in which every unit met
is met by exactly two cells, one at an even and one at an odd place. If every
cell held only ``{a, b}`` the two values could swap around the loop: a second
solution. So some extra candidate must be true:

* type 1: one cell has extras: ``a`` and ``b`` leave it;
* type 2: all cells with extras share one extra value ``x``: ``x`` leaves
  every cell that sees all of them;
* type 3: the extras of two cells, taken as one cell, form a naked set with
  other cells of a unit they share (or ``a``, ``b`` and other values form a
  hidden set there): the set's values leave the unit's other cells;
* type 4: two extra cells share a unit where ``a`` has no other place: one of
  them is ``a``, so ``b`` leaves both.

A rectangle rates 4.5, a loop of 6 cells 4.6, of 8 cells 4.7, of 10 or more
5.0. Sudoku Explainer finds loops from each bivalue cell in cell order, walking
box, row, column; it sorts its hints by rating, then type.

BUG: when every open cell but a few has two candidates and each value has two
places in every unit once the extras are removed, the extras cannot all be
false (else the grid would have 0 or 2 solutions). Type 1 (5.6): one extra
cell keeps only its extra value. Type 2 (5.7): several extra cells with one
common extra value: it leaves the cells that see them all. Type 3 (5.8+):
the extras act as one cell of a naked set. Type 4 (5.7): two extra cells in
one unit.
"""

from __future__ import annotations

import threading
from itertools import combinations
from typing import Iterator

from .links import _memo, boards_of, cell_masks, mask_array, recalled, remember, unit_sets
from .state import Candidates, Geometry, extra_units
from .step import Step, Technique, cells_text, elims_text

UR_RATING, BUG1_RATING, BUG2_RATING = 4.5, 5.6, 5.7


def _popcount(m: int) -> int:
    return m.bit_count()


def loop_rating(size: int) -> float:
    """SE's rating of a unique loop of ``size`` cells."""
    r = 4.5
    if size >= 10:
        r += 0.3
    if size >= 8:
        r += 0.2
    elif size >= 6:
        r += 0.1
    return round(r, 1)


def _find_loops(geo: Geometry, mask: list[int], start: int, pair: int, holding: int | None = None) -> list[list[int]]:
    """Loops of cells holding both values of ``pair`` from ``start``, at most
    two cells with extra candidates (more when they share one extra value),
    in SE's walk order (box, row, column at each cell). ``holding``: the
    cells holding both values (bit set), when the caller has it."""
    results: list[list[int]] = []
    loop: list[int] = [start]
    in_loop = {start}
    plan = _walk_plan(geo)
    cell_units = _unit_sets(geo)
    _, unit_bits = _cell_masks(geo)
    if holding is None:
        holding = _holding(mask, pair)
    # units met by the cells at even and at odd places: a loop meets each
    # unit once at each parity, so a path meeting one twice at the same
    # parity never closes into a valid loop and is not walked further
    met = [cell_units[start], 0]

    def walk(cell: int, allowed: int, extra: int, last_kind: int) -> None:
        extra_here = extra
        for kind, unit in plan[cell]:
            if kind == last_kind:
                continue
            # the unit's cells holding both values, in cell order (no other
            # cell can join the loop or add to the extras)
            rest = unit_bits[unit] & holding
            while rest:
                low = rest & -rest
                rest ^= low
                nxt = low.bit_length() - 1
                if nxt == start and len(loop) >= 4:
                    results.append(list(loop))
                elif nxt not in in_loop:
                    m = mask[nxt]
                    extra_here |= m & ~pair
                    card = m.bit_count()
                    if card == 2 or extra_here.bit_count() == 1 or allowed > 0:
                        parity = len(loop) & 1
                        units = cell_units[nxt]
                        if met[parity] & units:
                            continue
                        met[parity] |= units
                        loop.append(nxt)
                        in_loop.add(nxt)
                        walk(nxt, allowed - (card > 2), extra_here, kind)
                        loop.pop()
                        in_loop.discard(nxt)
                        met[parity] &= ~units

    walk(start, 2, 0, -1)
    return results


_PLANS: dict = {}


def _walk_plan(geo: Geometry) -> list[tuple[tuple[int, int], ...]]:
    """Per cell, the units a loop walks through from it, as (kind, unit), in
    SE's order: box, row, column, then a variant's window group and diagonals
    (SE walks every region type; the kind keys its rule of not leaving by
    the kind it came in by)."""
    plan = _PLANS.get(geo)
    if plan is None:
        from .links import link_kinds

        extra = extra_units(geo)
        groups, digits, _ = link_kinds(geo)
        key = {u: int(d) for group, d in zip(groups[3:], digits[3:]) for u in group}
        plan = []
        for held in geo.units_of:
            r, c, b = held[:3]
            steps = [(2, b), (0, r), (1, c)]
            steps += [(key.get(u, 9), u) for u in extra if u in held]
            plan.append(tuple(steps))
        _PLANS[geo] = plan
    return plan


def _holding(mask: list[int], pair: int) -> int:
    """The cells holding both values of ``pair``, as a bit set."""
    cells = 0
    for c, m in enumerate(mask):
        if m & pair == pair:
            cells |= 1 << c
    return cells


def _unit_sets(geo: Geometry) -> tuple[int, ...]:
    return unit_sets(geo)


def _valid_loop(geo: Geometry, loop: list[int]) -> bool:
    """Whether the cells at the loop's even places meet each unit at most once, those at
    its odd places too, and both meet the same units (units as bit sets)."""
    cell_units = _unit_sets(geo)
    odd = even = 0
    for i, cell in enumerate(loop):
        units = cell_units[cell]
        if i & 1:
            if odd & units:
                return False
            odd |= units
        else:
            if even & units:
                return False
            even |= units
    return odd == even


def _common_peers(geo: Geometry, cells: list[int]) -> set[int]:
    common = set(geo.peers[cells[0]])
    for c in cells[1:]:
        common &= set(geo.peers[c])
    return common - set(cells)


def _loop_cores(geo: Geometry, mask: list[int],
                boards: "tuple[int, ...] | None" = None) -> dict[int, tuple[int, int]]:
    """Per value pair (bit mask) of a bivalue cell: the cells holding both
    values that may lie on a loop, and all the cells holding both values: every loop cell has two loop neighbours among its peers, so
    cells with fewer than two peers holding the pair are peeled off until
    none is left (the 2-core of the peer graph). ``boards``: the cells holding
    each value (:func:`sudokit.logic.links.boards_of`), when the caller has them."""
    peer_bits, _ = _cell_masks(geo)
    if boards is None:
        boards = boards_of(mask, geo.n)
    pairs = {m for m in mask if m.bit_count() == 2}
    cores: dict[int, tuple[int, int]] = {}
    for pair in pairs:
        low = pair & -pair
        holding = boards[low.bit_length()] & boards[(pair ^ low).bit_length()]
        cores[pair] = _memo(("core", geo, holding), _core, peer_bits, holding), holding
    return cores


def _core(peer_bits: tuple[int, ...], cells: int) -> int:
    """The 2-core of ``cells`` in the peer graph (a function of the cells only, so remembered)."""
    while True:
        keep = 0
        rest = cells
        while rest:
            low = rest & -rest
            rest ^= low
            if (peer_bits[low.bit_length() - 1] & cells).bit_count() >= 2:
                keep |= low
        if keep == cells:
            return cells
        cells = keep


def _pair_loops(geo: Geometry, mask: list[int], pair: int, core: int, holding: int,
                first: bool = False) -> dict[int, list[list[int]]]:
    """Per bivalue cell of ``pair`` that may lie on a loop (``core``): its valid loops
    (:func:`_find_loops`). They depend only on the cells holding both values and their
    candidates, so they are remembered by those (:func:`sudokit.logic.links.clear_caches`
    forgets them). With ``first``, only the loops whose first bivalue cell of the pair
    (in cell order) is the start: the walk from a start leaves out the starts before it,
    whose walks found every valid loop through them already."""
    loops: dict[int, list[list[int]]] = {}
    compiled = _compiled(geo)
    arrays = None if compiled is None else loop_arrays(mask, pair)
    rest = core
    while rest:
        low = rest & -rest
        rest ^= low
        start = low.bit_length() - 1
        if mask[start] == pair:
            found = None if compiled is None else compiled_loops(compiled, arrays, start, pair)
            if found is None:
                found = _find_loops(geo, mask, start, pair, holding)
            loops[start] = [loop for loop in found if _valid_loop(geo, loop)]
            if first:  # the later walks keep out of this start
                holding &= ~low
                if arrays is not None:
                    arrays[1][start] = False
    return loops


#: Whether the loops may be walked compiled (:func:`sudokit.engine.logic_kernels.unique_loops`, the
#: same loops in the same order); False: always :func:`_find_loops`.
COMPILED = True

_TABLES: dict = {}


def _compiled(geo: Geometry):
    """The compiled walk and its tables for ``geo``, or None (numba not loaded yet, or not here)."""
    from ..engine import producer_tables

    return producer_tables(COMPILED, geo, compiled_tables, len(geo.units))


def compiled_tables(geo: Geometry):
    """``(kernel, tables...)`` of the compiled walk for ``geo``, or None where it cannot load."""
    got = _TABLES.get(geo)
    if got is None:
        try:
            import numpy as np

            from ..engine.logic_kernels import unique_loops
        except Exception:  # numba missing or broken: the Python walk
            return None
        plan = _walk_plan(geo)
        ncells = len(plan)
        width = max(len(p) for p in plan)
        kinds = np.full((ncells, width), -2, dtype=np.int64)
        units = np.zeros((ncells, width), dtype=np.int64)
        for c, steps in enumerate(plan):
            for j, (kind, unit) in enumerate(steps):
                kinds[c, j], units[c, j] = kind, unit
        lengths = np.array([len(p) for p in plan], dtype=np.int64)
        cells = np.zeros((len(geo.units), max(len(u) for u in geo.units)), dtype=np.int64)
        for u, members in enumerate(geo.units):
            cells[u, :len(members)] = sorted(members)  # ascending, as the walk takes them
        unit_len = np.array([len(u) for u in geo.units], dtype=np.int64)
        cell_units = np.array(_unit_sets(geo), dtype=np.int64)
        got = _TABLES[geo] = (unique_loops, kinds, units, lengths, cells, unit_len, cell_units)
    return got


def loop_arrays(mask: list[int], pair: int) -> tuple:
    """The candidates, the cells holding both values of ``pair`` (as flags) and room for
    the loops found, as :func:`compiled_loops` takes them (the room is made once per grid
    size and reused)."""
    import numpy as np

    masks = mask_array(mask)
    out = _LOOP_ROOM.get(len(mask))
    if out is None:
        out = _LOOP_ROOM[len(mask)] = np.empty((1024, len(mask) + 1), dtype=np.int64)
    return masks, (masks & pair) == pair, out


#: Room for the compiled walk's loops, per number of cells.
_LOOP_ROOM: dict = {}


def compiled_loops(compiled, arrays: tuple, start: int, pair: int) -> list[list[int]] | None:
    """What :func:`_find_loops` finds from ``start``, walked by the compiled kernel on
    :func:`loop_arrays`; None when there are too many."""
    kernel, kinds, units, lengths, cells, unit_len, cell_units = compiled
    masks, held, out = arrays
    count = kernel(masks, start, pair, held, held, kinds, units, lengths, cells, unit_len, cell_units, out)
    if count < 0:
        return None
    return [row[1:1 + row[0]] for row in out[:count].tolist()]


def find_unique_loops(state: Candidates) -> Iterator[Step]:
    """SE's unique rectangles and loops, types 1 to 4, sorted as SE sorts them (rating,
    type, order found).

    A loop is found again from each of its bivalue cells and in both directions, and
    each time gives the same hints (the same removals and ratings; only the order of
    its extra cells in the text differs), which sort after the first time's. So the
    first step is looked for on each loop once (:func:`_loop_steps` with ``first``);
    only a caller that asks for more gets the full list, made again. The compiled test
    (:func:`sudokit.logic.pattern_kernels.unique_any`) first says whether there is any."""
    if not _any_loop_step(state):
        return
    found = _loop_steps(state, True)
    if not found:
        return
    yield found[0]
    yield from _loop_steps(state, False)[1:]


#: Whether :func:`find_unique_loops` first asks the compiled test whether it has a step; False: never.
PRETEST = True

_PRETEST_TABLES: dict = {}


def pretest_tables(geo: Geometry):
    """``(kernel, tables...)`` of the compiled test :func:`sudokit.logic.pattern_kernels.unique_any`
    for ``geo``, or None where it cannot load or does not apply (a geometry with extra units)."""
    got = _PRETEST_TABLES.get(geo)
    if got is None:
        got = ()
        walk = compiled_tables(geo) if not extra_units(geo) and len(geo.units) <= 62 else None
        if walk is not None:
            try:
                import numpy as np

                from .pattern_kernels import unique_any
            except Exception:  # numba missing or broken: the Python search
                return None
            _, kinds, units, lengths, cells, unit_len, cell_units = walk
            ncells = len(geo.units_of)
            peer = np.zeros((ncells, ncells), dtype=np.bool_)
            for c, ps in enumerate(geo.peers):
                peer[c, list(ps)] = True
            units_of = np.array([held[:3] for held in geo.units_of], dtype=np.int64)
            out = np.empty((1024, ncells + 1), dtype=np.int64)
            got = (unique_any, kinds, units, lengths, cells, unit_len, cell_units, peer, units_of, units_of,
                   geo.n, out)
        _PRETEST_TABLES[geo] = got
    return got or None


def _any_loop_step(state: Candidates) -> bool:
    """Whether :func:`find_unique_loops` may have a step: the compiled test's answer, or True
    when it does not answer."""
    from ..engine import producer_tables

    geo = state.geo
    tables = producer_tables(PRETEST, geo, pretest_tables, len(geo.units))
    if tables is None:
        return True
    return bool(tables[0](mask_array(state.mask), *tables[1:], *_loop_memo(geo), TYPE3_FROM_TWO))


#: Loops a value pair may have, at most, and cells a loop may have, at most, in the compiled
#: test's memo (:func:`_loop_memo`).
MEMO_LOOPS, MEMO_SIZE = 32, 31

_MEMOS = threading.local()


def _loop_memo(geo: Geometry) -> tuple:
    """The compiled test's memo of each value pair's loops (see
    :func:`sudokit.logic.pattern_kernels.unique_any`), one per thread and geometry, empty
    again whenever :func:`sudokit.logic.links.clear_caches` has forgotten the remembered
    results (a mark kept among them tells); no rows past 16 values."""
    import numpy as np

    memos = getattr(_MEMOS, "by_geo", None)
    if memos is None:
        memos = _MEMOS.by_geo = {}
    mark = ("unique loop memo", threading.get_ident(), geo)
    got = memos.get(geo)
    if got is None:
        rows = geo.n * geo.n if geo.n <= 16 else 0
        ncells = len(geo.units_of)
        got = memos[geo] = (np.full(rows, -1, dtype=np.int64), np.zeros((rows, 1 + 2 * ncells), dtype=np.int64),
                            np.zeros((rows, MEMO_LOOPS, MEMO_SIZE + 1), dtype=np.int64))
        remember([(mark, True)])
    elif recalled(mark) is None:
        got[0][:] = -1
        remember([(mark, True)])
    return got


def _loop_steps(state: Candidates, first: bool) -> list[Step]:
    """The steps of :func:`find_unique_loops`, in its order; with ``first``, each loop
    (a set of links) is looked at once, from its first bivalue cell, and only the first
    step is sure to be the full list's first."""
    geo, mask = state.geo, state.mask
    found: list[tuple[float, int, int, Step]] = []
    keys: set = set()
    seen_loops: set = set()
    order = 0
    boards = boards_of(mask, geo.n)
    cores = _loop_cores(geo, mask, boards)
    type3: dict[tuple[int, int, int], list] = {}
    by_pair: dict[int, dict[int, list[list[int]]]] = {}
    for start in range(len(mask)):
        pair = mask[start]
        if pair.bit_count() != 2 or not cores[pair][0] >> start & 1:
            continue
        v1 = (pair & -pair).bit_length()
        v2 = (pair & ~(pair & -pair)).bit_length()
        loops = by_pair.get(pair)
        if loops is None:
            core, holding = cores[pair]
            key = ("loops", geo, pair, holding, tuple(b & holding for b in boards), first)
            loops = by_pair[pair] = _memo(key, _pair_loops, geo, mask, pair, core, holding, first)
        for loop in loops.get(start, ()):
            if first:
                links = frozenset((a, b) if a < b else (b, a) for a, b in zip(loop, loop[1:] + loop[:1]))
                if links in seen_loops:
                    continue
                seen_loops.add(links)
            extras = [c for c in loop if mask[c].bit_count() > 2]
            hints: list[tuple[int, tuple, str, float]] = []
            if len(extras) == 1:
                c = extras[0]
                hints.append((1, ((c, v1), (c, v2)), f"{geo.cell_name(c)} must hold an extra value", 0.0))
            elif len(extras) >= 2:
                other = 0
                for c in extras:
                    other |= mask[c] & ~pair
                if _popcount(other) == 1:
                    x = other.bit_length()
                    elims = tuple((c, x) for c in sorted(_common_peers(geo, extras)) if mask[c] & other)
                    hints.append((2, elims, f"{geo.symbol(x)} is in one of {cells_text(geo, extras)}", 0.0))
                if len(extras) == 2 and _popcount(other) >= 2:
                    t3 = type3.get((extras[0], extras[1], pair))
                    if t3 is None:
                        t3 = type3[extras[0], extras[1], pair] = _type3(geo, mask, extras[0], extras[1], pair)
                    hints.extend(t3)
                if len(extras) == 2:
                    c1, c2 = extras
                    r1 = r2 = None
                    for unit in geo.units_of[c1]:
                        if unit not in geo.units_of[c2]:
                            continue
                        rest = [c for c in geo.units[unit] if c != c1 and c != c2]
                        if not any(mask[c] >> (v1 - 1) & 1 for c in rest):
                            r1 = unit
                        if not any(mask[c] >> (v2 - 1) & 1 for c in rest):
                            r2 = unit
                    if r1 is not None:
                        hints.append((4, ((c1, v2), (c2, v2)),
                                      f"{geo.symbol(v1)} locked in {cells_text(geo, extras)} ({geo.unit_name(r1)})", 0.0))
                    elif r2 is not None:
                        hints.append((4, ((c1, v1), (c2, v1)),
                                      f"{geo.symbol(v2)} locked in {cells_text(geo, extras)} ({geo.unit_name(r2)})", 0.0))
            for kind, elims, why, bonus in hints:
                elims = tuple(sorted((c, v) for c, v in elims if mask[c] >> (v - 1) & 1))
                if not elims:
                    continue
                key = (kind, len(loop), frozenset(loop), why)
                if key in keys:
                    continue
                keys.add(key)
                rating = round(loop_rating(len(loop)) + bonus, 1)
                shape = "Rectangle" if len(loop) == 4 else f"Loop {len(loop)}"
                name = f"Unique {shape} type {kind}"
                found.append((rating, kind, order, Step(
                    name, rating, eliminations=elims, cells=tuple(loop), values=(v1, v2),
                    text=f"{name}: {cells_text(geo, loop)} on {geo.symbol(v1)},{geo.symbol(v2)} ({why}) "
                    f"⇒ {elims_text(geo, elims)}",
                )))
                order += 1
    found.sort(key=lambda t: t[:3])
    return [step for *_, step in found]


#: Whether a type 3 looks for sets from size 2 up, as SukakuExplainer builds
#: after 1.18.1 do with their lkSudoku UR option on (they made the step
#: traces of se_dev: ``se_dev_steps.jsonl.gz``), rather than from the number
#: of extra values, as 1.18.1 does (the reference of the ratings: on se_dev's
#: 500 ratings the two agree; on hard_dev's they differ, and 1.18.1's rule
#: gives SE's). The two differ only for a hidden set smaller than the extras.
TYPE3_FROM_TWO = False


def _type3(geo: Geometry, mask: list[int], c1: int, c2: int, pair: int) -> list:
    """Type 3, as SE searches it: by growing set size, in each unit ``c1``
    and ``c2`` share (box, row, column), first a naked set (the extras of
    ``c1``/``c2`` act as one cell with ``size - 1`` other cells), then a hidden
    set (``{a, b}`` and ``size - 2`` other values confined to ``size`` cells
    counting ``c1``/``c2`` as one). A naked set of ``k`` values adds
    ``0.1 * (k - 1)`` to the loop's rating, a hidden one ``0.1 * (cells - 1)``.

    The set size starts at the number of extra values, as in SukakuExplainer
    1.18.1 (``UniqueLoops.createType3Hints``: ``for (int degree =
    extra.cardinality(); degree <= 7; degree++)``). A naked set needs that
    many values anyway; a hidden set smaller than the extras is not looked
    for. With :data:`TYPE3_FROM_TWO` it starts at 2, as later builds do with
    their lkSudoku UR option on."""
    extra = (mask[c1] | mask[c2]) & ~pair
    n = geo.n
    out = []
    for degree in range(2 if TYPE3_FROM_TWO else max(2, _popcount(extra)), n - 1):
        for kind in (2, 0, 1):
            unit = geo.units_of[c1][kind]
            if unit != geo.units_of[c2][kind]:
                continue
            cells = geo.units[unit]
            empty = sum(1 for c in cells if mask[c])
            if degree * 2 <= empty:
                others = [c for c in cells if c != c1 and c != c2 and mask[c]]
                for combo in combinations(others, degree - 1):
                    union = extra
                    naked = extra & mask[c1] & mask[c2]
                    for c in combo:
                        union |= mask[c]
                        naked |= mask[c]
                    if _popcount(union) != degree or _popcount(naked) != degree:
                        continue
                    elims = tuple(
                        (c, v) for c in cells if c not in combo and c != c1 and c != c2
                        for v in range(1, n + 1) if (mask[c] & union) >> (v - 1) & 1
                    )
                    if elims:
                        vals = ",".join(geo.symbol(v) for v in range(1, n + 1) if union >> (v - 1) & 1)
                        out.append((3, elims, f"extras of {cells_text(geo, (c1, c2))} and {cells_text(geo, combo)}: "
                                    f"naked set {vals} in {geo.unit_name(unit)}", 0.1 * (degree - 1)))
            if degree * 2 < empty:
                rem = [v for v in range(1, n + 1) if not (pair | extra) >> (v - 1) & 1]
                for chosen in combinations(rem, degree - 2):
                    vals = chosen + tuple(v for v in range(1, n + 1) if pair >> (v - 1) & 1)
                    places = 0
                    ok = True
                    for v in vals:
                        pos = 0
                        for i, c in enumerate(cells):
                            if c != c2 and mask[c] >> (v - 1) & 1:
                                pos |= 1 << i
                        if not pos:
                            ok = False
                            break
                        places |= pos
                    if not ok or _popcount(places) != degree:
                        continue
                    hidden = sum(1 << (v - 1) for v in vals)
                    set_cells = [c for i, c in enumerate(cells) if places >> i & 1 and c != c1 and c != c2]
                    elims = tuple(
                        (c, v) for c in set_cells for v in range(1, n + 1) if mask[c] >> (v - 1) & 1 and not hidden >> (v - 1) & 1
                    )
                    if elims:
                        out.append((3, elims, f"{','.join(geo.symbol(v) for v in sorted(vals))} hidden in "
                                    f"{cells_text(geo, (c1, c2))} and {cells_text(geo, set_cells)} ({geo.unit_name(unit)})",
                                    0.1 * (len(set_cells) - 1)))
    return out


def _bug(state: Candidates) -> tuple[list[int], dict[int, int], int, list[int]] | None:
    """SE's BUG test: (BUG cells in order found, their BUG values, all BUG
    values, cells that see every BUG cell), or None when the open cells are
    not a BUG plus extras.

    A value with a count other than 0 or 2 in a unit (boxes, rows, columns)
    marks the one cell there with three or more candidates as a BUG cell;
    without the BUG values every open cell must be bivalue and every value
    have two places (or none) in every unit.
    """
    geo, mask, values = state.geo, state.mask, state.values
    compiled = _bug_compiled(geo)
    if compiled is not None and not compiled[0](mask_array(mask), *compiled[1:]):
        return None  # (the compiled test of the pattern says no: most calls)
    peer_bits, unit_bits = _cell_masks(geo)
    from .links import value_boards

    boards = value_boards(state)
    big_cells = 0
    for c, m in enumerate(mask):
        if m.bit_count() >= 3:
            big_cells |= 1 << c
    temp = list(mask)
    cells: list[int] = []
    extras: dict[int, int] = {}
    every = 0
    common = -1
    for unit in geo.boxes + geo.rows + geo.cols:
        in_unit = unit_bits[unit]
        for v in range(1, geo.n + 1):
            here = boards[v] & in_unit
            if not here or here.bit_count() == 2:
                continue
            big = here & big_cells
            if not big:
                return None
            if not big & (big - 1):
                c = big.bit_length() - 1
                bit = 1 << (v - 1)
                if c not in extras:
                    cells.append(c)
                    extras[c] = 0
                extras[c] |= bit
                every |= bit
                temp[c] &= ~bit
                common &= peer_bits[c]
                for b in cells:
                    common &= ~(1 << b)
                if len(cells) > 1 and _popcount(every) > 1 and not common:
                    return None
    if not cells:
        return None
    if any(not values[c] and _popcount(temp[c]) != 2 for c in range(len(mask))):
        return None
    left = list(boards)  # the places of each value once the BUG values are out
    for c, bits in extras.items():
        while bits:
            low = bits & -bits
            bits ^= low
            left[low.bit_length()] &= ~(1 << c)
    for in_unit in unit_bits:
        for v in range(1, geo.n + 1):
            if (left[v] & in_unit).bit_count() not in (0, 2):
                return None
    common_cells = [c for c in range(len(mask)) if common >> c & 1] if common != -1 else []
    return cells, extras, every, common_cells


_BUG_TABLES: dict = {}


def _bug_compiled(geo: Geometry):
    """``(kernel, units' cells, peers)`` of the compiled BUG pattern test
    (:func:`sudokit.logic.link_kernels.bug_pattern`) for ``geo``, or None: :func:`_bug`
    then tests in Python alone."""
    from ..engine import producer_tables

    return producer_tables(COMPILED, geo, bug_tables, len(geo.units))


def bug_tables(geo: Geometry):
    """The compiled BUG pattern test and its tables for ``geo``, or None where it cannot
    load or does not apply (the strong-link test's geometries)."""
    got = _BUG_TABLES.get(geo)
    if got is None:
        from .links import strong_tables

        if strong_tables(geo) is None:
            return None
        from .link_kernels import bug_pattern, tables

        units, _, unit_cells, _, _, peer, _ = tables(geo)
        got = _BUG_TABLES[geo] = (bug_pattern, unit_cells[units].copy(), peer)
    return got


def _cell_masks(geo: Geometry):
    return cell_masks(geo)


def _shared_units(geo: Geometry, cells: list[int]) -> list[int]:
    """Units (box, row, column order) holding every cell of ``cells``."""
    out = []
    for kind in (2, 0, 1):
        unit = geo.units_of[cells[0]][kind]
        if all(geo.units_of[c][kind] == unit for c in cells):
            out.append(unit)
    return out


def find_bug(state: Candidates) -> Iterator[Step]:
    """BUG types 1 to 4 in SE's order: type 1; or type 2 then type 4 (one BUG
    value); or type 4 then type 3 (several BUG values)."""
    found = _bug(state)
    if found is None:
        return
    geo, mask = state.geo, state.mask
    cells, extras, every, common = found
    sym = geo.symbol
    if len(cells) == 1:
        c = cells[0]
        elims = tuple((c, v) for v in range(1, geo.n + 1) if mask[c] >> (v - 1) & 1 and not every >> (v - 1) & 1)
        if elims:
            yield Step(
                "BUG type 1", BUG1_RATING, eliminations=elims, cells=(c,), values=tuple(_values(every)),
                text=f"BUG type 1: {geo.cell_name(c)} (all other cells bivalue) must be "
                f"{','.join(sym(v) for v in _values(every))} ⇒ {elims_text(geo, elims)}",
            )
        return
    if _popcount(every) == 1:
        x = every.bit_length()
        elims = tuple((c, x) for c in common if mask[c] & every)
        if elims:
            yield Step(
                "BUG type 2", BUG2_RATING, eliminations=elims, cells=tuple(cells), values=(x,),
                text=f"BUG type 2: {cells_text(geo, cells)} on {sym(x)} (one of them holds it) "
                f"⇒ {elims_text(geo, elims)}",
            )
        if len(cells) == 2:
            yield from _bug4(state, cells, extras, every)
    elif common:
        if len(cells) == 2:
            yield from _bug4(state, cells, extras, every)
        yield from _bug3(state, cells, every, common)


def _values(bits: int) -> list[int]:
    return [v + 1 for v in range(bits.bit_length()) if bits >> v & 1]


def _bug4(state: Candidates, cells: list[int], extras: dict[int, int], every: int) -> Iterator[Step]:
    """Type 4 (5.7): the two BUG cells share a unit and exactly one non-BUG
    value ``x``; as SE does, each keeps only its BUG values and ``x``."""
    geo, mask = state.geo, state.mask
    c1, c2 = cells
    common = mask[c1] & mask[c2] & ~every
    if _popcount(common) != 1:
        return
    x = common.bit_length()
    for unit in _shared_units(geo, cells):
        elims = tuple(
            (c, v) for c in (c1, c2) for v in _values(mask[c] & ~extras[c] & ~common)
        )
        if elims:
            yield Step(
                "BUG type 4", 5.7, eliminations=tuple(sorted(elims)), cells=(c1, c2), units=(unit,), values=(x,),
                text=f"BUG type 4: {cells_text(geo, cells)} on {geo.symbol(x)} ({geo.unit_name(unit)}) "
                f"⇒ {elims_text(geo, elims)}",
            )


def _bug3(state: Candidates, cells: list[int], every: int, common: list[int]) -> Iterator[Step]:
    """Type 3 (5.7 + 0.1 per extra value of the set): the BUG values, as one
    cell, form a naked set with other cells of a unit all BUG cells share."""
    geo, mask = state.geo, state.mask
    for unit in _shared_units(geo, cells):
        unit_cells = set(geo.units[unit])
        # open cells only: a placed cell has no candidates and would pad the set
        region = [c for c in common if c in unit_cells and not state.values[c]]
        for degree in range(2, 7):
            if len(region) < degree:
                continue
            for naked in combinations(region, degree - 1):
                other = 0
                for c in naked:
                    other |= mask[c]
                if _popcount(other) != degree or every & ~other:
                    continue
                elims = tuple(
                    (c, v) for c in region if c not in naked and c not in cells for v in _values(mask[c] & other)
                )
                if elims:
                    vals = _values(other)
                    yield Step(
                        "BUG type 3", round(5.7 + 0.1 * (len(vals) - 1), 1), eliminations=tuple(sorted(elims)),
                        cells=tuple(cells), units=(unit,), values=tuple(vals),
                        text=f"BUG type 3: {cells_text(geo, cells)} with {cells_text(geo, naked)}: naked set "
                        f"{','.join(geo.symbol(v) for v in vals)} ({geo.unit_name(unit)}) ⇒ {elims_text(geo, elims)}",
                    )


UNIQUE_LOOPS = Technique("Unique Rectangle", UR_RATING, "uniqueness", find_unique_loops)
#: SE's one BUG producer, types 1 to 4 (5.6-6.2).
BUG = Technique("BUG", BUG1_RATING, "uniqueness", find_bug)

TECHNIQUES = (UNIQUE_LOOPS, BUG)
