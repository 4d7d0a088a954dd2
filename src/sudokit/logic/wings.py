"""XY-Wing (4.2), XYZ-Wing (4.4), WXYZ-Wing (5.5-5.6), VWXYZ-Wing (6.2-6.4),
UVWXYZ-Wing (6.6) and TUVWXYZ-Wing (7.5).

XY-Wing: a pivot with candidates ``{x, y}`` sees two wings ``{x, z}`` and
``{y, z}``. Whatever the pivot holds, one wing holds ``z``, so ``z`` leaves
every cell that sees both wings. XYZ-Wing: the pivot is ``{x, y, z}``; the
pivot itself may hold ``z``, so the cells must see all three.

SE scans pivots in cell order, then pairs of wings among the pivot's peers.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from .links import cells_of, cell_masks, mask_array, seen_by_all, value_boards
from .state import Candidates
from .step import STRONG, WEAK, Step, Technique, cells_text, elims_text

XY_RATING, XYZ_RATING = 4.2, 4.4


def _popcount(m: int) -> int:
    return m.bit_count()


def _bivalue_cells(mask: Sequence[int]) -> int:
    """The bit set of the cells with exactly two candidates."""
    return sum(1 << c for c, m in enumerate(mask) if m.bit_count() == 2)


def find_xy_wing(state: Candidates, xyz: bool = False) -> Iterator[Step]:
    geo, mask = state.geo, state.mask
    compiled = _compiled(geo)
    if compiled is not None and not _any_xy_wing(mask_array(state.mask), _peer_words(geo), xyz):
        return  # (the compiled test found none: most calls)
    size = 3 if xyz else 2
    name, rating = ("XYZ-Wing", XYZ_RATING) if xyz else ("XY-Wing", XY_RATING)
    peer_bits, _ = cell_masks(geo)
    boards = value_boards(state)
    bivalue = _bivalue_cells(mask)
    shared = 2 if xyz else 1
    for pivot in range(len(mask)):
        pm = mask[pivot]
        if _popcount(pm) != size:
            continue
        wings = [c for c in cells_of(peer_bits[pivot] & bivalue) if (mask[c] & pm).bit_count() == shared]
        for i, w1 in enumerate(wings):
            m1 = mask[w1]
            for w2 in wings[i + 1:]:
                m2 = mask[w2]
                if m1 == m2:
                    continue
                if xyz:
                    if m1 | m2 != pm:
                        continue
                    z = m1 & m2
                else:
                    z = m1 & m2
                    if _popcount(z) != 1 or z & pm or (m1 | m2) & pm != pm:
                        continue
                if _popcount(z) != 1:
                    continue
                zv = z.bit_length()
                common = peer_bits[w1] & peer_bits[w2] & boards[zv] & ~(1 << pivot)
                if xyz:
                    common &= peer_bits[pivot]
                if not common:
                    continue
                elims = tuple((c, zv) for c in cells_of(common))
                cells = (pivot, w1, w2)
                xv, yv = (m1 & ~z).bit_length(), (m2 & ~z).bit_length()
                if xyz:  # each pincer's other value is a weak link to the pivot
                    links = ((w1, zv, w1, xv), (w1, xv, pivot, xv), (w2, zv, w2, yv), (w2, yv, pivot, yv))
                    kinds = (STRONG, WEAK, STRONG, WEAK)
                else:  # the chain from one pincer's z to the other's
                    links = ((w1, zv, w1, xv), (w1, xv, pivot, xv), (pivot, xv, pivot, yv), (pivot, yv, w2, yv),
                             (w2, yv, w2, zv))
                    kinds = (STRONG, WEAK, STRONG, WEAK, STRONG)
                yield Step(
                    name, rating, eliminations=elims, cells=cells, values=(zv,), links=links, link_kinds=kinds,
                    text=f"{name}: {cells_text(geo, cells)} on {geo.symbol(zv)} (pivot {geo.cell_name(pivot)}) "
                    f"⇒ {elims_text(geo, elims)}",
                )


#: Per set size ``k``: SE's name and base rating of the wing.
BIG_WINGS = {3: ("WXYZ-Wing", 5.5), 4: ("VWXYZ-Wing", 6.2), 5: ("UVWXYZ-Wing", 6.6), 6: ("TUVWXYZ-Wing", 7.5)}


def big_wing_rating(k: int, biggest: int) -> float:
    """SE's rating of a wing whose set has ``k`` cells and whose largest cell
    has ``biggest`` candidates. WXYZ and VWXYZ: the base, plus 0.1 for each
    step the largest cell's size is from the extremes (2 and ``k + 1``),
    counted from the middle; UVWXYZ and TUVWXYZ: the base, whatever the sizes.

    >>> [big_wing_rating(3, b) for b in (2, 3, 4)]
    [5.5, 5.6, 5.5]
    >>> [big_wing_rating(4, b) for b in (2, 3, 4, 5)]
    [6.3, 6.4, 6.3, 6.2]
    >>> big_wing_rating(5, 4), big_wing_rating(6, 4)
    (6.6, 7.5)
    """
    base = BIG_WINGS[k][1]
    if k >= 5:
        return base
    values_in_set = k + 1
    middle_size = (values_in_set + 2) // 2
    return round(base + ((values_in_set - middle_size) - abs(middle_size - biggest)) * 0.1, 1)


#: Whether the wing search may run compiled (:func:`sudokit.logic.pattern_kernels.wing_sets`, past 128
#: cells :func:`sudokit.engine.logic_kernels.als_wings`, finds the sets and bivalue cells that remove
#: something; the steps are made here all the same); False: Python only.
COMPILED = True

_PEERS: dict = {}


def _compiled(geo):
    """``(kernel, peer matrix)`` for ``geo``, or None: the Python search then runs."""
    from ..engine import producer_tables

    return producer_tables(COMPILED, geo, compiled_tables)


def compiled_tables(geo):
    """``(kernel, peer matrix)`` for ``geo``, or None where the kernel cannot load."""
    got = _PEERS.get(geo)
    if got is None:
        try:
            import numpy as np

            from ..engine.logic_kernels import als_wings
        except Exception:  # numba missing or broken: the Python search
            return None
        peer = np.zeros((len(geo.peers), len(geo.peers)), dtype=np.bool_)
        for c, ps in enumerate(geo.peers):
            peer[c, list(ps)] = True
        got = _PEERS[geo] = (als_wings, peer)
    return got


def _any_xy_wing(mask, words, xyz: bool) -> bool:
    """Whether the compiled test (:func:`sudokit.logic.pattern_kernels.xy_any`, on the peers as
    words ``words``) finds an XY-Wing (an XYZ-Wing) removing something in the candidates ``mask``
    (a list, or an int64 array); True when it cannot load."""
    try:
        import numpy as np

        from .pattern_kernels import xy_any
    except Exception:  # numba missing or broken: the Python search
        return True
    masks = mask if isinstance(mask, np.ndarray) else np.array(mask, dtype=np.int64)
    return xy_any(masks, words, xyz)


#: Room for the compiled search's answers, per set size (made once, reused).
_OUT: dict = {}

#: The last :func:`_wing_sizes` answer: (candidates as a list, sizes asked, sizes found), replaced whole.
_LAST_SIZES: tuple = ([], (), 0)


#: The set sizes :func:`_wing_sizes` answers at once: WXYZ- to UVWXYZ-Wing (sets of 6 cells
#: with 7 values are many more: TUVWXYZ-Wing, asked on a third of the states, has its own walk).
WING_SIZES = (3, 5)

_WORDS: dict = {}


def _peer_words(geo):
    """Each cell's peers as a set of cells in 64-bit words (numpy, ``(cells, words)``: at least
    two words, as :func:`sudokit.logic.pattern_kernels.wing_sizes` reads up to 128 cells; as
    many as the cells need for :func:`~sudokit.logic.pattern_kernels.xy_any`)."""
    got = _WORDS.get(geo)
    if got is None:
        import numpy as np

        ncells = len(geo.peer_mask)
        nw = max(2, (ncells + 63) >> 6)
        got = np.zeros((ncells, nw), dtype=np.uint64)
        for c, bits in enumerate(geo.peer_mask):
            for w in range(nw):
                got[c, w] = bits >> (64 * w) & (2 ** 64 - 1)
        _WORDS[geo] = got
    return got


def _wing_sizes(state: Candidates, peer, k: int = WING_SIZES[0]) -> int:
    """Bit ``j`` set for each set size ``j`` with a wing that removes something, for the sizes
    of :data:`WING_SIZES` (all at once) when ``k`` is one of them, else for ``k`` alone
    (:func:`sudokit.logic.pattern_kernels.wing_sizes`, on the peers as two words, or past 128 cells
    :func:`sudokit.logic.link_kernels.als_wing_sizes`); -1 (every size) when it cannot load.
    The producers ask in turn on one state, so the last answer is kept, by the candidates
    and sizes it was made from."""
    global _LAST_SIZES
    low, high = WING_SIZES if WING_SIZES[0] <= k <= WING_SIZES[1] else (k, k)
    last = _LAST_SIZES  # (read once: another thread may replace it)
    if last[1] == (low, high) and last[0] == state.mask:
        return last[2]
    key = list(state.mask)
    try:
        from .link_kernels import als_wing_sizes
        from .pattern_kernels import wing_sizes
    except Exception:  # numba missing or broken: the search finds out
        return -1
    if len(state.mask) <= 128:
        sizes = wing_sizes(mask_array(key), _peer_words(state.geo), low, high)
    else:
        sizes = als_wing_sizes(mask_array(key), peer, low, high)
    _LAST_SIZES = (key, (low, high), sizes)
    return sizes


def _als_sets(state: Candidates, k: int) -> Iterator[tuple[tuple[int, ...], int, int]]:
    """``(set, its candidates, bivalue cell)`` in SE's order of search: sets of ``k`` mutually seeing
    cells with ``k + 1`` values, grown through forward peers, then the bivalue cells outside the set
    that see one of its cells and hold only values of the set, ascending."""
    values_in_set = k + 1
    geo, mask = state.geo, state.mask
    peers = geo.peers
    peer_sets = [set(p) for p in peers]
    peer_bits, _ = cell_masks(geo)
    bivalue = _bivalue_cells(mask)

    def sets(prefix: list[int], candidates: list[int], union: int):
        """Mutually seeing cells in increasing order, ``k`` of them with
        ``k + 1`` values (SE grows the set through forward peers)."""
        for c in candidates:
            m = union | mask[c]
            if _popcount(mask[c]) < 2 or _popcount(m) > values_in_set:
                continue
            if len(prefix) + 1 == k:
                if _popcount(m) == values_in_set:
                    yield prefix + [c], m
            else:
                yield from sets(prefix + [c], [d for d in candidates if d > c and d in peer_sets[c]], m)

    for a in range(len(mask)):
        ma = mask[a]
        if not 1 < _popcount(ma) <= values_in_set:
            continue
        for als_list, union in sets([a], sorted(p for p in peers[a] if p > a), ma):
            if union:
                als_bits = 0
                seen_any = 0
                for x in als_list:
                    als_bits |= 1 << x
                    seen_any |= peer_bits[x]
                targets = seen_any & ~als_bits & bivalue
                while targets:
                    low = targets & -targets
                    targets ^= low
                    yz = low.bit_length() - 1
                    my = mask[yz]
                    if my & union == my:
                        yield tuple(als_list), union, yz


def compiled_sets(state: Candidates, k: int, compiled) -> list[tuple[tuple[int, ...], int, int]] | None:
    """What :func:`_als_sets` yields, but only the sets and cells that remove something (the
    compiled search: :func:`sudokit.logic.pattern_kernels.wing_sets` up to 128 cells, else
    ``compiled``'s kernel); None when there are too many to hold."""
    import numpy as np

    kernel, peer = compiled
    mask = state.mask
    out = _OUT.get(k)
    if out is None:
        out = _OUT[k] = np.empty((4096, k + 1), dtype=np.int64)
    if len(mask) <= 128:  # the walk on sets of cells as words
        from .pattern_kernels import wing_sets

        kernel, peer = wing_sets, _peer_words(state.geo)
    count = kernel(mask_array(state.mask), peer, k, out)
    if count < 0:
        return None
    found = []
    for *als, yz in out[:count].tolist():
        union = 0
        for x in als:
            union |= mask[x]
        found.append((tuple(als), union, yz))
    return found


def find_als_wing(state: Candidates, k: int = 3) -> Iterator[Step]:
    """WXYZ-Wing (``k = 3``), VWXYZ-Wing (``k = 4``), UVWXYZ-Wing (``k = 5``)
    and TUVWXYZ-Wing (``k = 6``) as SE finds them: an
    almost locked set of ``k`` mutually seeing cells with ``k + 1`` values, and a bivalue cell ``{x, z}`` whose ``x``
    sees every ``x`` of the set (restricted common): ``z`` is in the set or in
    the bivalue cell, so it leaves the cells that see all those ``z``. When
    ``z`` is restricted too (doubly linked), the set's other two values also
    leave the cells that see all their places in the set.

    SE rates a WXYZ-Wing 5.5, or 5.6 when the set's largest cell has three
    candidates (VWXYZ: 6.2 to 6.4, easiest at the extreme cell sizes;
    UVWXYZ 6.6 and TUVWXYZ 7.5 flat, see :func:`big_wing_rating`), and
    names it ``WXYZ-Wing <1 or 2 links><largest cell><candidates in the
    set>``; it sorts by rating, removals (most first), name (descending).

    The sets and bivalue cells come from :func:`_als_sets`, or from the
    compiled search, which leaves out those that remove nothing.
    """
    name_base = BIG_WINGS[k][0]
    geo, mask = state.geo, state.mask
    found: list[tuple[float, int, str, int, tuple]] = []
    order = 0

    def restricted(value_bit: int, yz: int, als_bits: int) -> bool:
        """Every place of the value in the set sees ``yz``."""
        return not als_bits & boards[value_bit.bit_length()] & ~peer_bits[yz]

    def victims(value_bit: int, cells: int, als_bits: int, yz: int) -> list[int]:
        """The cells holding the value that see all of ``cells``, outside the
        set and ``yz``, ascending."""
        common = seen_by_all(peer_bits, cells) & ~als_bits & ~(1 << yz) & boards[value_bit.bit_length()]
        return cells_of(common)

    compiled = _compiled(geo)
    if compiled is not None and not _wing_sizes(state, compiled[1], k) >> k & 1:
        return  # (no set of this size makes a wing that removes something: most calls)
    # bit sets over the cells: peers, holders of each value
    peer_bits, _ = cell_masks(geo)
    boards = value_boards(state)
    candidates = None if compiled is None else compiled_sets(state, k, compiled)
    if candidates is None:
        candidates = _als_sets(state, k)
    for als, union, yz in candidates:
        biggest = max(_popcount(mask[x]) for x in als)
        size = sum(_popcount(mask[x]) for x in als)
        rating = big_wing_rating(k, biggest)
        als_bits = 0
        for x in als:
            als_bits |= 1 << x
        my = mask[yz]
        xb = my & -my
        zb = my ^ xb
        yzb = 1 << yz
        double = restricted(zb, yz, als_bits)
        if restricted(xb, yz, als_bits):
            if double:
                elims: list[tuple[int, int]] = []
                weak = strong_x = strong_z = False
                rest = union & ~my
                while rest:
                    wb = rest & -rest
                    rest ^= wb
                    hit = victims(wb, als_bits & boards[wb.bit_length()], als_bits, yz)
                    elims += [(x, wb.bit_length()) for x in hit]
                    weak = weak or bool(hit)
                hit = victims(xb, yzb | (als_bits & boards[xb.bit_length()]), als_bits, yz)
                elims += [(x, xb.bit_length()) for x in hit]
                strong_x = bool(hit)
                hit = victims(zb, yzb | (als_bits & boards[zb.bit_length()]), als_bits, yz)
                elims += [(x, zb.bit_length()) for x in hit]
                strong_z = bool(hit)
                if not weak and (not strong_z or not strong_x):
                    double = False
                kept, gone = (xb, zb)
            else:
                kept, gone = xb, zb
                hit = victims(zb, yzb | (als_bits & boards[zb.bit_length()]), als_bits, yz)
                elims = [(x, zb.bit_length()) for x in hit]
        elif double:
            double = False
            kept, gone = zb, xb
            hit = victims(xb, yzb | (als_bits & boards[xb.bit_length()]), als_bits, yz)
            elims = [(x, xb.bit_length()) for x in hit]
        else:
            continue
        if not elims:
            continue
        suffix = f"{2 if double else 1}{biggest}{size}"
        elims_t = tuple(sorted(elims))
        # the bivalue cell's strong link, and weak links from it to the set on the restricted values
        links = [(yz, kept.bit_length(), yz, gone.bit_length())]
        for vb in ((xb, zb) if double else (kept,)):
            links += [(yz, vb.bit_length(), x, vb.bit_length()) for x in als if mask[x] & vb]
        found.append((rating, -len(elims_t), suffix, order, (als, yz, elims_t, double, kept, gone, xb, zb,
                                                              tuple(links))))
        order += 1
    # rating ascending, removals descending, suffix descending, then found order; each step
    # made only when it is asked for (the stepper takes the first)
    found.sort(key=lambda t: (t[0], t[1], _Desc(t[2]), t[3]))
    for rating, _, suffix, _, parts in found:
        yield _wing_step(geo, f"{name_base} {suffix}", rating, *parts)


def _wing_step(geo, name: str, rating: float, als: tuple[int, ...], yz: int, elims: tuple, double: bool,
               kept: int, gone: int, xb: int, zb: int, links: tuple) -> Step:
    """The step of an ALS wing found by :func:`find_als_wing` (its text made here, when asked)."""
    cells = als + (yz,)
    link = (f"{geo.symbol(kept.bit_length())} restricted" if not double else
            f"{geo.symbol(xb.bit_length())},{geo.symbol(zb.bit_length())} both restricted")
    kinds = (STRONG,) + (WEAK,) * (len(links) - 1)
    return Step(
        name, rating, eliminations=elims, cells=cells, values=(gone.bit_length(),),
        links=links, link_kinds=kinds,
        text=f"{name}: set {cells_text(geo, als)} and {geo.cell_name(yz)} ({link}) "
        f"⇒ {elims_text(geo, elims)}",
    )


class _Desc(str):
    """A string that sorts in reverse."""

    def __lt__(self, other: str) -> bool:  # type: ignore[override]
        return str.__gt__(self, other)


XY_WING = Technique("XY-Wing", XY_RATING, "wings", lambda s: find_xy_wing(s, False))
XYZ_WING = Technique("XYZ-Wing", XYZ_RATING, "wings", lambda s: find_xy_wing(s, True))

WXYZ_WING = Technique("WXYZ-Wing", 5.5, "wings", lambda s: find_als_wing(s, 3))
VWXYZ_WING = Technique("VWXYZ-Wing", 6.2, "wings", lambda s: find_als_wing(s, 4))
UVWXYZ_WING = Technique("UVWXYZ-Wing", 6.6, "wings", lambda s: find_als_wing(s, 5))
TUVWXYZ_WING = Technique("TUVWXYZ-Wing", 7.5, "wings", lambda s: find_als_wing(s, 6))

TECHNIQUES = (XY_WING, XYZ_WING, WXYZ_WING, VWXYZ_WING, UVWXYZ_WING, TUVWXYZ_WING)
