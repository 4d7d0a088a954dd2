"""Two strong links on one value: Skyscraper, 2-String Kite, Turbot Fish
("2 Strong links") and their grouped forms, as Sudoku Explainer's
``StrongLinks(2)`` producer finds them.

A *strong link* on value ``v`` in a unit: the unit's places for ``v`` split
into two ends, one of which must hold ``v``. An end is one cell, or (grouped)
the cells of a line that fall in one box, or the row part / column part of an
"empty rectangle" in a box. Two strong links whose inner ends share a unit
(a weak link: at most one of them holds ``v``) force ``v`` into one of the
outer ends, so ``v`` leaves every cell that sees both outer ends.

SE names the step by its links: two parallel lines make a Skyscraper (4.0), a
row and a column a 2-String Kite (4.1), anything with a box "2 Strong links"
(4.1); a grouped end makes it "Grouped ..." (4.3). The name carries SE's
suffix: the number of grouped links, then the link kinds in chain order
(0 box, 1 the first line direction, 2 the other), the lexically smaller of
the two directions. SE sorts its hints by rating, then by number of
removals (most first), then by suffix. Chains of three and four strong links
(SE's ``StrongLinks(3)`` and ``(4)``) follow the same rules.

On grids of rows, columns and boxes up to 128 cells and 32 units the
compiled search (:mod:`sudokit.logic.link_pattern_kernels`) finds the
chains of every value; the Python searches here stay the reference (and
serve every other grid), and the steps are made from either by the same code."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any, Iterable, Iterator, Sequence

from .state import BOX, Candidates, Geometry, extra_units, geometry, is_classic, se_cells
from .step import STRONG, WEAK, Step, Technique, elims_text

SKYSCRAPER_RATING, KITE_RATING, TURBOT_RATING, GROUPED_RATING = 4.0, 4.1, 4.1, 4.3


@lru_cache(maxsize=None)
def cell_masks(shape) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per shape: each cell's peers and each unit's cells as bit sets over
    the cells (bit ``c`` for cell ``c``). Takes a shape or a geometry."""
    geo = shape if isinstance(shape, Geometry) else geometry(shape)
    return geo.peer_mask, geo.unit_mask


def cells_of(bits: int) -> list[int]:
    """The cells of a bitboard (bit ``c`` for cell ``c``), ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


@lru_cache(maxsize=None)
def unit_sets(shape) -> tuple[int, ...]:
    """Per cell: its units (row, column, box) as a bit set over the unit ids."""
    geo = shape if isinstance(shape, Geometry) else geometry(shape)
    return tuple(sum(1 << u for u in units) for units in geo.units_of)


def units_holding(cell_units: tuple[int, ...], bits: int) -> int:
    """The units holding every cell of ``bits``, as a bit set over unit ids.

    >>> from sudokit.grid import Shape
    >>> cu = unit_sets(Shape(3, 3))
    >>> bin(units_holding(cu, 0b11))     # r1c1, r1c2: row 1 (id 0) and box 1 (id 18)
    '0b1000000000000000001'
    >>> units_holding(cu, 1 | 1 << 80)   # r1c1 and r9c9 share no unit
    0
    """
    return _meet(cell_units, bits)


def seen_by_all(peer_bits: tuple[int, ...], bits: int) -> int:
    """The cells that see every cell of ``bits``.

    >>> from sudokit.grid import Shape
    >>> peers, _ = cell_masks(Shape(3, 3))
    >>> cells_of(seen_by_all(peers, 1 | 1 << 80))   # r1c1 and r9c9: r1c9 and r9c1
    [8, 72]
    """
    return _meet(peer_bits, bits)


def _meet(table: Sequence[int], bits: int) -> int:
    """The AND of ``table[c]`` over the cells ``c`` of ``bits`` (-1, every bit, for none)."""
    if not bits & (bits - 1):  # one cell, or none
        return table[bits.bit_length() - 1] if bits else -1
    m = -1
    while bits:
        low = bits & -bits
        m &= table[low.bit_length() - 1]
        bits ^= low
    return m


def _bits(cells) -> int:
    b = 0
    for c in cells:
        b |= 1 << c
    return b


def value_boards(state: Candidates) -> "tuple[int, ...]":
    """Per value ``v`` (index ``v``; 0 unused): the bit set of the cells
    holding ``v`` as a candidate (:func:`boards_of`; made by the compiled
    :func:`sudokit.logic.pattern_kernels.value_words` where the producers'
    kernels run)."""
    mask, geo = state.mask, state.geo
    last = _LAST_BOARDS
    if last[1] == geo.n and last[0] == mask:
        return last[2]
    from ..engine import producer_tables

    kernel = producer_tables(COMPILED, geo, _words_kernel) if len(mask) <= 128 else None
    if kernel is None:
        return boards_of(mask, geo.n)
    got = tuple(lo | hi << 64 for lo, hi in kernel(mask_array(mask), geo.n).tolist())
    _remember_boards((list(mask), geo.n, got))
    return got


def one_and_more(boards: "Sequence[int]", n: int) -> tuple[int, int]:
    """The cells of exactly one candidate, and those of two or more, as bitboards, from the value
    bitboards ``boards`` (index 1 to ``n``)."""
    once = twice = 0
    for v in range(1, n + 1):
        twice |= once & boards[v]
        once |= boards[v]
    return once & ~twice, twice


def _words_kernel(geo: Geometry):
    """The compiled :func:`sudokit.logic.pattern_kernels.value_words`, or None where it cannot load."""
    try:
        from .pattern_kernels import value_words
    except Exception:  # numba missing or broken: the Python loop
        return None
    return value_words


def boards_of(mask: "Sequence[int]", n: int) -> "tuple[int, ...]":
    """:func:`value_boards` of the candidates ``mask`` (values 1 to ``n``).
    The producers of one state all ask, so the last answer is kept, by a
    copy of the candidates it was made from (compared as a list: no key to
    build on each call)."""
    if type(mask) is not list:
        mask = list(mask)
    last = _LAST_BOARDS
    if last[1] == n and last[0] == mask:
        return last[2]
    key = list(mask)
    boards = [0] * (n + 1)
    for c, m in enumerate(key):
        while m:
            low = m & -m
            boards[low.bit_length()] |= 1 << c
            m ^= low
    got = tuple(boards)
    _remember_boards((key, n, got))
    return got


#: The last :func:`value_boards` answer: (candidates as a list, size, boards), replaced whole.
_LAST_BOARDS: tuple = ([], 0, ())


def _remember_boards(entry: tuple) -> None:
    global _LAST_BOARDS
    _LAST_BOARDS = entry


Link = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]

_KINDS: dict = {}


def link_kinds(geo: Geometry) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...], tuple[bool, ...]]:
    """The region kinds SE's strong-link producers scan, in its order, as
    ``(units per kind, SE's digit per kind, box-like per kind)``: boxes
    ``0``, rows ``1``, columns ``2``, then a variant's window groups ``4``
    (box-like: empty rectangles) and diagonals ``5`` and ``6`` (lines)."""
    got = _KINDS.get(geo)
    if got is None:
        units = [geo.boxes, geo.rows, geo.cols]
        digits = ["0", "1", "2"]
        boxy = [True, False, False]
        windows = tuple(u for u in extra_units(geo) if geo.kind_names[geo.kind[u]] in ("window", "hidden window"))
        if windows:
            units.append(windows)
            digits.append("4")
            boxy.append(True)
        diagonals = [u for u in extra_units(geo) if geo.kind_names[geo.kind[u]] == "diagonal"]
        for i, u in enumerate(diagonals):
            units.append((u,))
            digits.append(str(5 + i))
            boxy.append(False)
        got = _KINDS[geo] = (tuple(units), tuple(digits), tuple(boxy))
    return got


@lru_cache(maxsize=None)
def kind_pairs(count: int) -> tuple[tuple[int, int], ...]:
    """SE's order of the kinds of two links over ``count`` kinds: ``(a, b)``
    with ``a <= b``, by ``b`` then ``a``."""
    return tuple(sorted(((a, b) for b in range(count) for a in range(b + 1)), key=lambda t: (t[1], t[0])))


def _links(state: Candidates, v: int, aligned_boxes: bool = True, board: int | None = None
           ) -> tuple[list[Link], ...]:
    """Strong links on ``v`` in boxes, rows and columns: (unit, end A, end B,
    heart). ``heart`` is the centre cell of an empty rectangle when it holds
    ``v``: it lies in both lines, so it joins whichever end is the inner one.
    Without ``aligned_boxes``, a box whose two places share a line is left to
    that line (SE's longer chains do so). ``board``: the cells holding ``v``
    (bit set), when the caller has it."""
    geo = state.geo
    if board is None:
        board = state.cells_with(v)
    _, unit_bits = cell_masks(geo)
    kinds, _, boxy = link_kinds(geo)
    out: tuple[list[Link], ...] = tuple([] for _ in kinds)
    units_of = geo.units_of
    for kind, units in enumerate(kinds):
        found = out[kind]
        for unit in units:
            here = board & unit_bits[unit]
            count = here.bit_count()
            if count < 2 or count > 6:
                continue
            if count == 2:
                low = here & -here
                p0, p1 = low.bit_length() - 1, (here ^ low).bit_length() - 1
                if boxy[kind] and not aligned_boxes and (
                    units_of[p0][0] == units_of[p1][0] or units_of[p0][1] == units_of[p1][1]
                ):
                    continue
                found.append((unit, (p0,), (p1,), ()))
                continue
            if boxy[kind]:
                # empty rectangle: every place in the row or column of one heart cell
                # (SE tries every heart of a box, but only the first three of a window)
                for heart in (geo.units[unit] if kind == 0 else se_cells(geo, unit)[:3]):
                    r, c = units_of[heart][0], units_of[heart][1]
                    row_bits, col_bits = here & unit_bits[r], here & unit_bits[c]
                    if here & ~(row_bits | col_bits) == 0:
                        hb = 1 << heart
                        row_part = tuple(cells_of(row_bits & ~hb))
                        col_part = tuple(cells_of(col_bits & ~hb))
                        if row_part and col_part:
                            found.append((unit, row_part, col_part, (heart,) if board & hb else ()))
                        break
            else:
                parts = [here & unit_bits[b] for b in geo.boxes if here & unit_bits[b]]
                if len(parts) == 2:
                    # in cell order: the part holding the lowest cell first
                    a, b = sorted(parts, key=lambda x: x & -x)
                    found.append((unit, tuple(cells_of(a)), tuple(cells_of(b)), ()))
    return out


#: SE's order of link kinds for two links (0 box, 1 row, 2 column).
KIND_PAIRS = ((0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2))


def _kind_code(geo: Geometry, units: list[int]) -> str:
    codes, first_line = [], None
    for u in units:
        k = geo.kind[u]
        if k > BOX:  # a variant's unit: SE's digit for its region type
            codes.append(_extra_digit(geo, u))
        elif k == BOX:
            codes.append("0")
        else:
            if first_line is None:
                first_line = k
            codes.append("1" if k == first_line else "2")
    return "".join(codes)


def _extra_digit(geo: Geometry, unit: int) -> str:
    units, digits, _ = link_kinds(geo)
    for group, digit in zip(units, digits):
        if unit in group:
            return digit
    return "9"


def _se_name(geo: Geometry, units: list[int], grouped: int, loop: bool) -> tuple[str, float, str]:
    """SE's name, rating and suffix (``StrongLinksHint``) of a chain of
    strong links one of whose units is a variant's (a window or a diagonal):
    the base rating (4.0, 5.4, 5.8 for two, three, four links) plus 0.3."""
    k = len(units)
    suffix = f"{grouped}{min(_kind_code(geo, units), _kind_code(geo, units[::-1]))}"
    tail = suffix[1:]
    if loop:
        base = f"({k} Strong Links) {'Grouped ' if grouped else ''}X-Loop"
    else:
        if "0" not in tail and "2" not in tail:
            base = "Skyscraper" if k < 3 else f"{k} Skyscrapers"
        elif "0" in tail or k > 3:
            base = f"{k} Strong links"
        else:
            base = f"{k}-String Kite"
        if grouped:
            base = "Grouped " + base
    return f"{base} {suffix}", round({2: 4.0, 3: 5.4, 4: 5.8}[k] + 0.3, 1), suffix


def _name(geo: Geometry, units: list[int], grouped: int, loop: bool = False) -> tuple[str, float]:
    kinds = [geo.kind[u] for u in units]
    if loop or any(k > BOX for k in kinds):
        name, rating, _ = _se_name(geo, units, grouped, loop)
        return name, rating
    forward = _kind_code(geo, units)
    backward = _kind_code(geo, units[::-1])
    suffix = f"{grouped}{min(forward, backward)}"
    if BOX in kinds:
        base, rating = "2 Strong links", TURBOT_RATING
    elif kinds[0] == kinds[1]:
        base, rating = "Skyscraper", SKYSCRAPER_RATING
    else:
        base, rating = "2-String Kite", KITE_RATING
    if grouped:
        return f"Grouped {base} {suffix}", GROUPED_RATING
    return f"{base} {suffix}", rating


def _two_links_of(state: Candidates, v: int, holders: int) -> list[tuple]:
    """The two-link steps on ``v`` as sort keys and parts, deduplicated in
    SE's generation order."""
    return _two_link_steps(state.geo, v, _two_link_hits(state, v, holders))


def _two_link_hits(state: Candidates, v: int, holders: int) -> list[tuple]:
    """Every pair of strong links on ``v`` that removes something, as
    ``(order, start, bridge 1, bridge 2, end, unit 1, unit 2, shared unit,
    chain cells, removals, grouped links, loop)``, ``order`` SE's generation
    order, in no particular order."""
    geo = state.geo
    peer_bits, unit_bits = cell_masks(geo)
    cell_units = unit_sets(geo)
    extra = bool(extra_units(geo))
    hits: list[tuple] = []
    links = _links(state, v, board=holders)
    # sides, numbered in SE's generation order (kind, link, orientation):
    # side // 2 is the link; buckets: unit -> sides whose inner end lies in it
    info: list[tuple] = []  # (kind, index, orientation, unit, start, bridge, grouped)
    start_bits: list[int] = []
    inner_bits: list[int] = []
    sees: list[int] = []
    cells: list[int] = []
    buckets: dict[int, list[int]] = {}
    for kind in range(len(links)):
        for index, (u, a, b, h) in enumerate(links[kind]):
            ab, bb, hb = _bits(a), _bits(b), _bits(h)
            grouped = len(a) + len(b) + len(h) > 2
            for orientation, (start, bridge, sb, ib) in enumerate(((a, b + h, ab, bb | hb), (b, a + h, bb, ab | hb))):
                side = len(info)
                info.append((kind, index, orientation, u, start, bridge, grouped))
                start_bits.append(sb)
                inner_bits.append(ib)
                sees.append(_meet(peer_bits, sb))
                cells.append(ab | bb | hb)
                inner_units = _meet(cell_units, ib) & ~(1 << u)
                while inner_units:
                    low = inner_units & -inner_units
                    buckets.setdefault(low, []).append(side)
                    inner_units ^= low
    tried: set = set()
    pairs = kind_pairs(len(links))
    for sides in buckets.values():
        for x in range(len(sides) - 1):
            one = sides[x]
            link, sb, s_see, link_cells = one >> 1, start_bits[one], sees[one], cells[one]
            for y in range(x + 1, len(sides)):
                two = sides[y]  # numbered after ``one``: the second link
                if two >> 1 == link or cells[two] & link_cells:
                    continue
                eb = start_bits[two]
                victims = s_see & sees[two] & holders & ~(sb | eb)
                closing = 0
                if extra:  # a variant: the outer ends may share a unit too (an X-Loop)
                    u1, u2 = info[one][3], info[two][3]
                    closing = _meet(cell_units, sb | eb) & ~((1 << u1) | (1 << u2))
                    if closing:
                        b1b, b2b = inner_bits[one], inner_bits[two]
                        shared = _meet(cell_units, b1b | b2b) & ~((1 << u1) | (1 << u2))
                        low_s, low_c = shared & -shared, closing & -closing
                        victims = ((unit_bits[low_s.bit_length() - 1] | unit_bits[low_c.bit_length() - 1])
                                   & holders & ~(sb | b1b | b2b | eb))
                if not victims:
                    continue
                if (one, two) in tried:  # found through another shared unit
                    continue
                tried.add((one, two))
                k1, i1, o1, u1, start, bridge1, g1 = info[one]
                k2, i2, o2, u2, end, bridge2, g2 = info[two]
                b1b, b2b = inner_bits[one], inner_bits[two]
                shared = _meet(cell_units, b1b | b2b) & ~((1 << u1) | (1 << u2))
                order = (pairs.index((k1, k2)), v, i1, i2, o1, o2)
                hits.append((order, start, bridge1, bridge2, end, u1, u2,
                             (shared & -shared).bit_length() - 1, sb | b1b | b2b | eb, victims, int(g1) + int(g2),
                             bool(closing)))
    return hits


def _two_link_steps(geo: Geometry, v: int, hits: list[tuple]) -> list[tuple]:
    """The two-link steps of ``hits`` (:func:`_two_link_hits`) as sort keys and
    parts, deduplicated in SE's generation order."""
    hits.sort(key=lambda t: t[0])
    found: list[tuple] = []
    seen: set = set()
    for order, start, bridge1, bridge2, end, u1, u2, shared, chain_bits, victims, grouped, loop in hits:
        elims = tuple((c, v) for c in cells_of(victims))
        key = (chain_bits, elims)
        if key in seen:
            continue
        seen.add(key)
        name, rating = _name(geo, [u1, u2], grouped, loop)
        found.append((rating, -len(elims), name.rsplit(" ", 1)[1], order,
                      (name, v, start, bridge1, bridge2, end, u1, u2, shared, elims)))
    return found


#: Per-value results of the link searches, keyed by the producer, the
#: shape, the value and the cells holding it: a step's eliminations change
#: few values, so most values look the same at the next stuck point.
_BY_VALUE: dict[tuple, list] = {}
_BY_VALUE_LIMIT = 50_000



def clear_caches() -> None:
    """Forget the remembered per-value results (benchmarks call this so a
    repeated puzzle is timed from scratch)."""
    _BY_VALUE.clear()
    _CLEARED[0] += 1


def recalled(key: tuple) -> Any:
    """The per-value result remembered under ``key`` (None: none)."""
    return _BY_VALUE.get(key)


def remember(entries: Iterable[tuple[tuple, Any]]) -> None:
    """Remember per-value results, ``(key, result)`` pairs (the whole memory
    is forgotten first when it is full)."""
    if len(_BY_VALUE) >= _BY_VALUE_LIMIT:
        _BY_VALUE.clear()
    _BY_VALUE.update(entries)


def _memo(key: tuple, compute, *args) -> list:
    found = _BY_VALUE.get(key)
    if found is None:
        found = compute(*args)
        remember([(key, found)])
    return found


#: Whether the link producers run the compiled search
#: (:func:`sudokit.logic.link_pattern_kernels.strong_links`) where it applies; False: the
#: Python searches, value by value.
COMPILED = True


_STRONG: dict = {}


def strong_tables(geo: Geometry):
    """``(kernel, row width, tables...)`` of the compiled search
    (:func:`sudokit.logic.link_pattern_kernels.strong_links`) for ``geo``, or None
    where it cannot load or does not apply (a variant's or a jigsaw's geometry,
    or past 128 cells or 32 units)."""
    got = _STRONG.get(geo)
    if got is None:
        got = ()
        if is_classic(geo) and len(geo.units_of) <= 128 and len(geo.units) <= 32:
            try:
                from .link_pattern_kernels import WIDTH, strong_links, tables
            except Exception:  # numba missing or broken: the Python search
                return None
            got = (strong_links, WIDTH, *tables(geo))
        _STRONG[geo] = got
    return got or None


def _compiled(geo: Geometry):
    """:func:`strong_tables` when the compiled search should answer now
    (:func:`sudokit.engine.producer_tables`; once it has, always), else None."""
    if COMPILED:
        got = _READY.get(geo)
        if got is not None:
            return got
    from ..engine import producer_tables

    got = producer_tables(COMPILED, geo, strong_tables, len(geo.units))
    if got is not None:
        _READY[geo] = got
    return got


#: The geometries the compiled search answers for now.
_READY: dict = {}


#: The rows the compiled search first has room for (it asks again with room for all).
_ROOM = 64


def _compiled_found(state: Candidates, k: int) -> "list[tuple] | None":
    """The chains of ``k`` strong links of every value as sort keys and parts,
    as the Python searches give them (:func:`_two_links_of`,
    :func:`_chain_links_dfs`), from the compiled search; None where it does not
    answer (then the Python searches run).

    A value's chains depend only on the cells holding it, and from one step to
    the next most values keep theirs: the search looks only at the values whose
    cells changed, and the chains of the others are kept (:func:`_memory`). It
    answers for ``k`` to 4 at once, since the stepper asks the three producers
    in turn on the same candidates (the same array of :func:`mask_array`, which
    is made anew when they change)."""
    geo = state.geo
    compiled = _compiled(geo)
    if compiled is None:
        return None
    kernel, width, *tables = compiled
    masks = mask_array(state.mask)
    memory = _memory(geo, width)
    known, chained, out, last, kept = memory
    if last is None or last[0] is not masks or last[1] > k:
        rows = kernel(masks, k, known, chained, out, *tables)
        while rows > len(out):  # (all of it again, with room for all)
            import numpy as np

            out = memory[2] = np.empty((2 * rows, width), dtype=np.uint64)
            known.fill(0)
            rows = kernel(masks, k, known, chained, out, *tables)
        if rows:  # the rows of each number of links and value, in a row: kept as they are
            start = 0
            heads = out[:rows, :2].tolist()
            for i in range(1, rows + 1):
                if i == rows or heads[i] != heads[start]:
                    kept[tuple(heads[start])] = [out[start:i].copy(), None]
                    start = i
        memory[3] = (masks, k)
    found: list[tuple] = []
    values = int(chained[k])
    while values:
        v = (values & -values).bit_length() - 1
        values &= values - 1
        entry = kept[(k, v)]
        if entry[1] is None:
            if k == 2:
                entry[1] = _two_link_steps(geo, v, _two_link_rows(v, entry[0].tolist()))
            else:
                entry[1] = _chain_rows(geo, k, v, entry[0].tolist())
        found += entry[1]
    return found


#: Per thread: the compiled search's memory (:func:`_memory`), and the
#: :func:`clear_caches` count it was made after.
_MEMORY = threading.local()
_CLEARED = [0]


def _memory(geo: Geometry, width: int) -> list:
    """This thread's memory of the compiled search on ``geo``: ``[known, chained,
    rows, last, kept]``: per number of links and value, the cells last seen holding
    it and whether they had chains, and the values with chains at the last call (the
    ``known`` and ``chained`` arrays of
    :func:`sudokit.logic.link_pattern_kernels.strong_links`); the array the rows are
    written to; the last candidates' array and the least number of links asked for
    them; per number of links and value with chains, their rows and their steps (made
    when first asked for)."""
    import numpy as np

    store = getattr(_MEMORY, "store", None)
    if store is None or store[0] != _CLEARED[0]:
        store = _MEMORY.store = (_CLEARED[0], {})
    got = store[1].get(geo)
    if got is None:
        got = store[1][geo] = [np.zeros((5, geo.n + 1, 3), dtype=np.uint64), np.zeros(5, dtype=np.int64),
                               np.empty((_ROOM, width), dtype=np.uint64), None, {}]
    return got


def _words(lo: int, hi: int) -> int:
    return lo | hi << 64


def _two_link_rows(v: int, rows: list) -> list[tuple]:
    """:func:`_two_link_hits` from the compiled search's rows of value ``v``."""
    pairs = kind_pairs(3)
    hits = []
    for (_, _, k1, i1, o1, k2, i2, o2, u1, u2, shared, s_lo, s_hi, b1_lo, b1_hi, h1, b2_lo, b2_hi, h2,
         e_lo, e_hi, x_lo, x_hi, grouped, *_) in rows:
        sb, b1b, b2b, eb = _words(s_lo, s_hi), _words(b1_lo, b1_hi), _words(b2_lo, b2_hi), _words(e_lo, e_hi)
        bridge1, bridge2 = tuple(cells_of(b1b)), tuple(cells_of(b2b))
        if h1:
            bridge1 += (h1 - 1,)
            b1b |= 1 << (h1 - 1)
        if h2:
            bridge2 += (h2 - 1,)
            b2b |= 1 << (h2 - 1)
        hits.append(((pairs.index((k1, k2)), v, i1, i2, o1, o2), tuple(cells_of(sb)), bridge1, bridge2,
                     tuple(cells_of(eb)), u1, u2, shared, sb | b1b | b2b | eb, _words(x_lo, x_hi), grouped, False))
    return hits


def _chain_rows(geo: Geometry, k: int, v: int, rows: list) -> list[tuple]:
    """The chains of ``k`` links on ``v`` as :func:`_chain_links_dfs` gives them, from
    the compiled search's rows of value ``v`` (in the search's order)."""
    kind_sets = _kind_sets(k, 3)
    found: list[tuple] = []
    seen: set = set()
    for row in rows:
        chain = [(row[b], row[b + 1], row[b + 2], _words(row[b + 3], row[b + 4]), _words(row[b + 5], row[b + 6]),
                  _words(row[b + 7], row[b + 8])) for b in range(7, 7 + 9 * k, 9)]
        _keep_chain(found, seen, geo, v, kind_sets, chain, bool(row[2]), _words(row[5], row[6]), _words(row[3], row[4]))
    return found


def mask_array(mask: "Sequence[int]"):
    """The candidates ``mask`` as a numpy int64 array, for the compiled producers, which
    only read it: the producers of one state all ask, so the last one made is kept, by a
    copy of the candidates it was made from (compared as a list)."""
    global _LAST_ARRAY
    if type(mask) is not list:
        mask = list(mask)
    last = _LAST_ARRAY
    if last[0] == mask:
        return last[1]
    import numpy as np

    key = list(mask)
    arr = np.array(key, dtype=np.int64)  # (a writeable array: the kernels are compiled for that type)
    _LAST_ARRAY = (key, arr)
    return arr


#: The last :func:`mask_array` answer: (candidates as a list, array), replaced whole.
_LAST_ARRAY: tuple = ([], None)


def find_two_links(state: Candidates) -> Iterator[Step]:
    """Every two-strong-link step, in SE's order (rating, removals, suffix,
    then SE's generation order: kinds of links, value, units).

    Only links whose inner ends share a unit can pair, so the links of a
    value are bucketed by the units holding each inner end, and only pairs
    within a bucket are tried; SE's generation order is then restored by
    sorting the hits on it. What a value yields depends only on the cells
    holding it, so it is remembered per value and bit set. On the grids the
    compiled search covers, it finds the pairs (:func:`_compiled_found`)."""
    geo = state.geo
    found = _compiled_found(state, 2)
    if found is None:
        boards = value_boards(state)
        found = []
        for v in range(1, geo.n + 1):
            holders = boards[v]
            if holders.bit_count() >= 4:
                found += _memo(("two", geo, v, holders), _two_links_of, state, v, holders)
    found.sort(key=lambda t: t[:4])
    for rating, *_, (name, v, start, bridge1, bridge2, end, u1, u2, shared, elims) in found:
        chain = ",".join(
            "{" + ",".join(geo.cell_name(c) for c in part) + "}" if len(part) > 1 else geo.cell_name(part[0])
            for part in (start, bridge1, bridge2, end)
        )
        yield Step(
            name, rating, eliminations=elims, cells=tuple(sorted(set(start + bridge1 + bridge2 + end))),
            units=(u1, u2, shared), values=(v,),
            links=((start[0], v, bridge1[0], v), (bridge1[0], v, bridge2[0], v), (bridge2[0], v, end[0], v)),
            link_kinds=(STRONG, WEAK, STRONG),
            text=f"{name}: {chain} on {geo.symbol(v)} ({geo.unit_name(u1)}, {geo.unit_name(u2)}) "
            f"⇒ {elims_text(geo, elims)}",
        )


_BASE_RATING = {3: 5.4, 4: 5.8}
_GROUPED_RATING = {3: 5.7, 4: 6.1}


def _name_k(geo: Geometry, units: list[int], grouped: int, loop: bool) -> tuple[str, float, str]:
    """SE's name, rating and suffix of a chain of ``len(units)`` strong links."""
    k = len(units)
    kinds = [geo.kind[u] for u in units]
    if any(x > BOX for x in kinds):
        return _se_name(geo, units, grouped, loop)
    suffix = f"{grouped}{min(_kind_code(geo, units), _kind_code(geo, units[::-1]))}"
    lines = {x for x in kinds if x != BOX}
    rating = _GROUPED_RATING[k] if grouped else _BASE_RATING[k] + 0.1 * (BOX in kinds) + 0.1 * (len(lines) == 2)
    if loop:
        base = f"({k} Strong Links) {'Grouped ' if grouped else ''}X-Loop"
    else:
        base = f"{k} Strong links" if BOX in kinds else f"{k} Skyscrapers" if len(lines) == 1 else f"{k}-String Kite"
        if grouped:
            base = "Grouped " + base
    return f"{base} {suffix}", round(rating, 1), suffix


@lru_cache(maxsize=None)
def _kind_sets(k: int, count: int = 3) -> tuple[tuple[int, ...], ...]:
    """SE's order of the kinds of ``k`` links over ``count`` kinds: non-decreasing kind tuples,
    ordered by their last kind, then the one before, and so on."""
    from itertools import combinations_with_replacement

    return tuple(sorted(combinations_with_replacement(range(count), k), key=lambda t: t[::-1]))


def _chain_links_dfs(state: Candidates, k: int, v: int, holders: int) -> list[tuple]:
    """The chains of ``k`` strong links on ``v`` as sort keys and parts,
    deduplicated in SE's generation order."""
    geo = state.geo
    peer_bits, unit_bits = cell_masks(geo)
    cell_units = unit_sets(geo)
    found: list[tuple] = []
    seen: set = set()
    by_kind = _links(state, v, aligned_boxes=False, board=holders)
    kind_sets = _kind_sets(k, len(by_kind))
    oriented = _oriented(by_kind)
    count = len(oriented)
    if count < 2 * k:
        return []
    ubit = [1 << o[0] for o in oriented]
    every = [o[3] | o[4] | o[5] for o in oriented]
    entry_units = [_meet(cell_units, o[3] | o[5]) for o in oriented]
    exit_units = [_meet(cell_units, o[4]) for o in oriented]
    entering: dict[int, list[int]] = {}  # unit -> links whose entry lies in it
    for j, m in enumerate(entry_units):
        while m:
            low = m & -m
            m ^= low
            entering.setdefault(low, []).append(j)

    def successors(from_bit: int, exit_bits: int, exit_u: int) -> list[tuple[int, int]]:
        """The links a weak link from ``exit_bits`` can reach, ascending,
        with the weak link's unit."""
        near: set[int] = set()
        m = exit_u & ~from_bit
        while m:
            low = m & -m
            m ^= low
            near.update(entering.get(low, ()))
        out = []
        for j in sorted(near):
            if ubit[j] == from_bit or every[j] & exit_bits:
                continue
            m = exit_u & entry_units[j] & ~(from_bit | ubit[j])
            if m:
                out.append((j, (m & -m).bit_length() - 1))
        return out

    middle: list = [None] * count
    exit_sees = [_meet(peer_bits, o[4]) for o in oriented]
    path: list[int] = []
    weak: list[int] = []
    units: list[int] = []

    def grow(nexts: list[tuple[int, int]], used: int, start: int, start_units: int, start_sees: int) -> None:
        """Depth-first chains in SE's order (``path``: the chain's links so far)."""
        last_level = len(path) + 1 == k
        for j, w in nexts:
            u2, k2, g2, x2, y2, h2 = oriented[j]
            entry = x2 | h2
            if u2 in units or (entry | y2) & used:
                continue
            chain_bits = used | entry | y2
            if last_level:
                closing = start_units & exit_units[j] & ~((1 << units[0]) | ubit[j])
                if closing:
                    elim_bits = unit_bits[(closing & -closing).bit_length() - 1] | unit_bits[w]
                    for x in weak:
                        elim_bits |= unit_bits[x]
                    elim_bits &= holders & ~chain_bits
                else:
                    elim_bits = start_sees & exit_sees[j] & holders & ~(start | y2)
                if elim_bits:
                    _keep_chain(found, seen, geo, v, kind_sets, [oriented[i] for i in path + [j]], bool(closing),
                                chain_bits, elim_bits)
                continue
            after = middle[j]
            if after is None:
                after = middle[j] = successors(ubit[j], y2, exit_units[j])
            path.append(j)
            weak.append(w)
            units.append(u2)
            grow(after, chain_bits, start, start_units, start_sees)
            path.pop()
            weak.pop()
            units.pop()

    for i, (u1, k1, g1, x1, y1, h1) in enumerate(oriented):
        start, inner = x1, y1 | h1
        path[:] = [i]
        weak.clear()
        units[:] = [u1]
        grow(successors(ubit[i], inner, _meet(cell_units, inner)), start | inner,
             start, _meet(cell_units, start), _meet(peer_bits, start))
    return found


def _keep_chain(found: list, seen: set, geo: Geometry, v: int, kind_sets: tuple, chain: list[tuple], loop: bool,
                chain_bits: int, elim_bits: int) -> None:
    """Append to ``found`` a chain of strong links on ``v`` (its oriented links
    (:func:`_oriented`), first to last) as a sort key and parts, unless a chain
    on the same cells with the same removals is in ``seen`` already: the
    searches call this in SE's generation order, one value at a time."""
    elims = tuple((c, v) for c in cells_of(elim_bits))
    key = (chain_bits, elims)
    if key in seen:
        return
    seen.add(key)
    chain_units = [o[0] for o in chain]
    grouped = sum(1 for o in chain if o[2])
    name, rating, suffix = _name_k(geo, chain_units, grouped, loop)
    kinds = tuple(sorted(o[1] for o in chain))
    first = chain[0]
    parts = [first[3], first[4] | first[5]]
    for o in chain[1:]:
        parts += (o[3] | o[5], o[4])
    found.append((rating, -len(elims), suffix, kind_sets.index(kinds), (v, len(found)),
                  name, v, tuple(parts), tuple(chain_units), elims, chain_bits))


def _oriented(by_kind: list) -> list[tuple]:
    """One entry per link and direction: (unit, kind, grouped, x, y, heart) as
    bit sets; a first link goes from its start x, with y and the heart inside;
    a later one enters at x (and the heart) and leaves at y."""
    oriented = []
    for kind in range(len(by_kind)):
        for u, a, b, h in by_kind[kind]:
            ab, bb, hb = _bits(a), _bits(b), _bits(h)
            g = len(a) + len(b) + len(h) > 2
            oriented.append((u, kind, g, ab, bb, hb))
            oriented.append((u, kind, g, bb, ab, hb))
    return oriented


class _LinkGraph:
    """The strong links of one value (SE's longer chains' links, each in both
    directions) as bit sets over the oriented links, shared by the searches
    of three and four links on the same cells."""

    __slots__ = ("oriented", "ubit", "every", "entry_units", "exit_units", "exit_sees", "middle",
                 "before", "starts")

    def __init__(self, state: Candidates, v: int, holders: int) -> None:
        geo = state.geo
        peer_bits, _ = cell_masks(geo)
        cell_units = unit_sets(geo)
        by_kind = _links(state, v, aligned_boxes=False, board=holders)
        self.oriented = oriented = _oriented(by_kind)
        count = len(oriented)
        self.ubit = ubit = [1 << o[0] for o in oriented]
        self.every = [o[3] | o[4] | o[5] for o in oriented]
        self.entry_units = entry_units = [_meet(cell_units, o[3] | o[5]) for o in oriented]
        self.exit_units = exit_units = [_meet(cell_units, o[4]) for o in oriented]
        self.exit_sees = exit_sees = [_meet(peer_bits, o[4]) for o in oriented]
        entering: dict[int, int] = {}  # unit bit -> links entered from it (not through their own unit)
        exiting: dict[int, int] = {}  # unit bit -> links whose exit lies in it (not only through their own unit)
        in_unit: dict[int, int] = {}  # unit bit -> the unit's links
        seeing: dict[int, int] = {}  # cell bit (a holder) -> links whose exit it sees
        for j in range(count):
            jb, own = 1 << j, ubit[j]
            in_unit[own] = in_unit.get(own, 0) | jb
            m = entry_units[j] & ~own
            while m:
                low = m & -m
                m ^= low
                entering[low] = entering.get(low, 0) | jb
            m = exit_units[j] & ~own
            while m:
                low = m & -m
                m ^= low
                exiting[low] = exiting.get(low, 0) | jb
            m = exit_sees[j] & holders
            while m:
                low = m & -m
                m ^= low
                seeing[low] = seeing.get(low, 0) | jb

        def reach(exit_u: int) -> int:
            out = 0
            while exit_u:
                low = exit_u & -exit_u
                exit_u ^= low
                out |= entering.get(low, 0)
            return out

        # the links a weak link can reach from each link's exit, and back
        self.middle = middle = [reach(exit_units[j] & ~ubit[j]) for j in range(count)]
        self.before = before = [0] * count
        for j in range(count):
            m, jb = middle[j], 1 << j
            while m:
                low = m & -m
                m ^= low
                before[low.bit_length() - 1] |= jb
        # per first link: its start's units and seers, its inner end's units, the
        # second links it reaches, and the last links that could remove anything
        self.starts = starts = []
        for i in range(count):
            start, inner = oriented[i][3], oriented[i][4] | oriented[i][5]
            # the start of one direction is the exit of the other
            start_units, start_sees = exit_units[i ^ 1], exit_sees[i ^ 1]
            last = 0
            m = start_sees & holders & ~start
            while m:
                low = m & -m
                m ^= low
                last |= seeing.get(low, 0)
            m = start_units & ~ubit[i]
            while m:
                low = m & -m
                m ^= low
                last |= exiting.get(low, 0)
            first_u = _meet(cell_units, inner) if oriented[i][5] else exit_units[i]
            starts.append([start, inner, start_units, start_sees, first_u,
                           reach(first_u & ~ubit[i]) & ~in_unit[ubit[i]] if last else 0, last])

    def wanted(self, i: int, levels: int) -> list[int]:
        """Per link of the chain after the first: the links that can still lead
        to one of the last links that could remove anything (from start ``i``)."""
        entry = self.starts[i]
        if len(entry) < 6 + levels:
            # extended in a copy, then swapped in whole: threads may share the graph
            entry, before = list(entry), self.before
            while len(entry) < 6 + levels:
                m, prev = entry[-1], 0
                while m:
                    low = m & -m
                    m ^= low
                    prev |= before[low.bit_length() - 1]
                entry.append(prev)
            self.starts[i] = entry
        return entry[5 + levels:5:-1]


def _chain_links_bits(state: Candidates, k: int, v: int, holders: int) -> list[tuple]:
    """The same chains as :func:`_chain_links_dfs`, in the same order, from
    bit sets over the oriented links (:class:`_LinkGraph`): each link's
    successors, the links it bars (same unit, a shared cell) and, per first
    link, the last links that could remove anything are each one bit set, so
    the search visits only links that can still complete a chain removing
    something. Paths are visited in the same (lexicographic) order as the
    depth-first search, so the kept chains and their order are the same."""
    geo = state.geo
    graph = _memo(("graph", geo, v, holders), _LinkGraph, state, v, holders)
    oriented = graph.oriented
    count = len(oriented)
    if count < 2 * k:
        return []
    _, unit_bits = cell_masks(geo)
    kind_sets = _kind_sets(k, len(link_kinds(geo)[0]))
    ubit, every, middle = graph.ubit, graph.every, graph.middle
    entry_units, exit_units, exit_sees = graph.entry_units, graph.exit_units, graph.exit_sees
    found: list[tuple] = []
    seen: set = set()

    for i in range(count):
        start, inner, start_units, start_sees, first_u, cand, _ = graph.starts[i][:7]
        if not cand:
            continue
        wanted = graph.wanted(i, k - 1)  # wanted[d]: link d + 2 of the chain
        cand &= wanted[0]
        if not cand:
            continue
        # depth-first, one entry a level: (links still to try, cells used, units used)
        stack = [(cand, start | inner, ubit[i])]
        path = [i]
        while stack:
            cand, used, units = stack[-1]
            if len(stack) == k - 1:  # these are last links
                stack.pop()
                while cand:
                    low = cand & -cand
                    cand ^= low
                    j = low.bit_length() - 1
                    if ubit[j] & units or every[j] & used:
                        continue
                    chain_bits = used | every[j]
                    closing = start_units & exit_units[j] & ~(ubit[i] | ubit[j])
                    if closing:  # a loop: every weak link's unit loses the value
                        chain = path + [j]
                        elim_bits = unit_bits[(closing & -closing).bit_length() - 1]
                        exit_u = first_u
                        for a, b in zip(chain, chain[1:]):
                            w = exit_u & entry_units[b] & ~(ubit[a] | ubit[b])
                            elim_bits |= unit_bits[(w & -w).bit_length() - 1]
                            exit_u = exit_units[b]
                        elim_bits &= holders & ~chain_bits
                    else:
                        elim_bits = start_sees & exit_sees[j] & holders & ~(start | oriented[j][4])
                    if elim_bits:
                        _keep_chain(found, seen, geo, v, kind_sets, [oriented[x] for x in path + [j]], bool(closing),
                                    chain_bits, elim_bits)
                path.pop()
                continue
            if not cand:
                stack.pop()
                path.pop()
                continue
            low = cand & -cand
            j = low.bit_length() - 1
            stack[-1] = (cand ^ low, used, units)
            if ubit[j] & units or every[j] & used:
                continue
            path.append(j)
            stack.append((middle[j] & wanted[len(stack)], used | every[j], units | ubit[j]))
    return found


#: Which search finds the chains of three and four links: the bit-set search
#: (:func:`_chain_links_bits`) or the plain depth-first one (:func:`_chain_links_dfs`);
#: both give the same chains in the same order.
BIT_SET_CHAINS = True


def find_chain_links(state: Candidates, k: int) -> Iterator[Step]:
    """Chains of ``k`` strong links on one value (SE's ``StrongLinks(k)``):
    the outer ends cannot both be false, so the value leaves every cell that
    sees both. When the outer ends share a unit too, the chain is a loop
    (X-Loop) and the value leaves every other cell of each weak link's unit.
    Sorted as SE sorts: rating, removals (most first), suffix.

    Which units hold a set of cells is a bit set over the unit ids
    (:func:`units_holding`); a weak link between two ends is the lowest unit
    id holding both, other than the two strong links' own units. What a
    value yields depends only on the cells holding it, so it is remembered
    per value and bit set. On the grids the compiled search covers, it finds
    the chains (:func:`_compiled_found`)."""
    geo = state.geo
    found = _compiled_found(state, k)
    if found is None:
        boards = value_boards(state)
        found = []
        for v in range(1, geo.n + 1):
            holders = boards[v]
            if holders.bit_count() >= 2 * k:
                search = _chain_links_bits if BIT_SET_CHAINS else _chain_links_dfs
                found += _memo(("chain", k, geo, v, holders, search), search, state, k, v, holders)
    found.sort(key=lambda t: t[:5])
    for rating, _, _, _, _, name, v, parts, units, elims, chain_bits in found:
        chain = ",".join(
            "{" + ",".join(geo.cell_name(c) for c in cells_of(p)) + "}" if p & (p - 1) else geo.cell_name(p.bit_length() - 1)
            for p in parts
        )
        # the parts alternate: strong link, weak link, strong link, ... (a group is drawn from its first cell)
        ends = [(p & -p).bit_length() - 1 for p in parts]
        links = tuple((a, v, b, v) for a, b in zip(ends, ends[1:]))
        yield Step(
            name, rating, eliminations=elims, cells=tuple(c for p in parts for c in cells_of(p)), units=units,
            values=(v,), links=links, link_kinds=tuple(STRONG if i % 2 == 0 else WEAK for i in range(len(links))),
            text=f"{name}: {chain} on {geo.symbol(v)} ({', '.join(geo.unit_name(u) for u in units)}) "
            f"⇒ {elims_text(geo, elims)}",
        )


#: SE runs all two-link forms as one producer (4.0-4.3) right after Hidden Triplet.
TWO_STRONG_LINKS = Technique("Skyscraper", SKYSCRAPER_RATING, "links", find_two_links)

#: SE's ``StrongLinks(3)``: 3 Skyscrapers, 3-String Kite, 3 Strong links, X-Loops, grouped (5.4-5.7).
THREE_STRONG_LINKS = Technique("3 Skyscrapers", 5.4, "links", lambda s: find_chain_links(s, 3))
#: SE's ``StrongLinks(4)``: the same with four links (5.8-6.1).
FOUR_STRONG_LINKS = Technique("4 Skyscrapers", 5.8, "links", lambda s: find_chain_links(s, 4))

TECHNIQUES = (TWO_STRONG_LINKS, THREE_STRONG_LINKS, FOUR_STRONG_LINKS)
