"""XY-Wing (4.2), XYZ-Wing (4.4) and WXYZ-Wing (5.5-5.6).

XY-Wing: a pivot with candidates ``{x, y}`` sees two wings ``{x, z}`` and
``{y, z}``. Whatever the pivot holds, one wing holds ``z``, so ``z`` leaves
every cell that sees both wings. XYZ-Wing: the pivot is ``{x, y, z}``; the
pivot itself may hold ``z``, so the cells must see all three.

SE scans pivots in cell order, then pairs of wings among the pivot's peers.
"""

from __future__ import annotations

from typing import Iterator

from .state import Candidates
from .step import Step, Technique, cells_text, elims_text

XY_RATING, XYZ_RATING = 4.2, 4.4


def _popcount(m: int) -> int:
    return bin(m).count("1")


def find_xy_wing(state: Candidates, xyz: bool = False) -> Iterator[Step]:
    geo, mask = state.geo, state.mask
    peers = geo.peers
    size = 3 if xyz else 2
    name, rating = ("XYZ-Wing", XYZ_RATING) if xyz else ("XY-Wing", XY_RATING)
    peer_sets = [set(p) for p in peers]
    for pivot in range(len(mask)):
        pm = mask[pivot]
        if _popcount(pm) != size:
            continue
        wings = [c for c in sorted(peers[pivot]) if _popcount(mask[c]) == 2 and _popcount(mask[c] & pm) == (2 if xyz else 1)]
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
                common = peer_sets[w1] & peer_sets[w2]
                if xyz:
                    common &= peer_sets[pivot]
                elims = tuple(sorted((c, zv) for c in common if c != pivot and mask[c] & z))
                if not elims:
                    continue
                cells = (pivot, w1, w2)
                yield Step(
                    name, rating, eliminations=elims, cells=cells, values=(zv,),
                    text=f"{name}: {cells_text(geo, cells)} on {geo.symbol(zv)} (pivot {geo.cell_name(pivot)}) "
                    f"⇒ {elims_text(geo, elims)}",
                )


def find_wxyz_wing(state: Candidates) -> Iterator[Step]:
    """WXYZ-Wing as SE finds it: an almost locked set of three mutually
    seeing cells with four values, and a bivalue cell ``{x, z}`` whose ``x``
    sees every ``x`` of the set (restricted common): ``z`` is in the set or in
    the bivalue cell, so it leaves the cells that see all those ``z``. When
    ``z`` is restricted too (doubly linked), the set's other two values also
    leave the cells that see all their places in the set.

    SE rates 5.5, or 5.6 when the set's largest cell has three candidates,
    and names it ``WXYZ-Wing <1 or 2 links><largest cell><candidates in the
    set>``; it sorts by rating, removals (most first), name (descending).
    """
    geo, mask = state.geo, state.mask
    peers = geo.peers
    peer_sets = [set(p) for p in peers]
    found: list[tuple[float, int, str, int, Step]] = []
    order = 0
    ncells = len(mask)

    def restricted(value_bit: int, yz: int, als: tuple[int, int, int]) -> bool:
        return all(yz in peer_sets[c] for c in als if mask[c] & value_bit)

    def victims(value_bit: int, cells: list[int], als: tuple[int, int, int], yz: int) -> list[int]:
        common = None
        for c in cells:
            common = set(peer_sets[c]) if common is None else common & peer_sets[c]
        if common is None:
            return []
        common -= set(als)
        common.discard(yz)
        return sorted(c for c in common if mask[c] & value_bit)

    for a in range(ncells):
        ma = mask[a]
        ca = _popcount(ma)
        if not 1 < ca < 5:
            continue
        forward_a = sorted(p for p in peers[a] if p > a)
        for b in forward_a:
            mb = mask[b]
            if _popcount(mb) < 2 or _popcount(ma | mb) > 4:
                continue
            for c in sorted(p for p in peer_sets[b] if p > b and p in peer_sets[a]):
                mc = mask[c]
                union = ma | mb | mc
                if _popcount(mc) < 2 or _popcount(union) != 4:
                    continue
                als = (a, b, c)
                biggest = max(ca, _popcount(mb), _popcount(mc))
                size = ca + _popcount(mb) + _popcount(mc)
                rating = 5.6 if biggest == 3 else 5.5
                for yz in sorted((peer_sets[a] | peer_sets[b] | peer_sets[c]) - set(als)):
                    my = mask[yz]
                    if _popcount(my) != 2 or my & union != my:
                        continue
                    xb = my & -my
                    zb = my ^ xb
                    double = restricted(zb, yz, als)
                    if restricted(xb, yz, als):
                        if double:
                            elims: list[tuple[int, int]] = []
                            weak = strong_x = strong_z = False
                            rest = union & ~my
                            while rest:
                                wb = rest & -rest
                                rest ^= wb
                                hit = victims(wb, [x for x in als if mask[x] & wb], als, yz)
                                elims += [(x, wb.bit_length()) for x in hit]
                                weak = weak or bool(hit)
                            hit = victims(xb, [yz] + [x for x in als if mask[x] & xb], als, yz)
                            elims += [(x, xb.bit_length()) for x in hit]
                            strong_x = bool(hit)
                            hit = victims(zb, [yz] + [x for x in als if mask[x] & zb], als, yz)
                            elims += [(x, zb.bit_length()) for x in hit]
                            strong_z = bool(hit)
                            if not weak and (not strong_z or not strong_x):
                                double = False
                            kept, gone = (xb, zb)
                        else:
                            kept, gone = xb, zb
                            hit = victims(zb, [yz] + [x for x in als if mask[x] & zb], als, yz)
                            elims = [(x, zb.bit_length()) for x in hit]
                    elif double:
                        double = False
                        kept, gone = zb, xb
                        hit = victims(xb, [yz] + [x for x in als if mask[x] & xb], als, yz)
                        elims = [(x, xb.bit_length()) for x in hit]
                    else:
                        continue
                    if not elims:
                        continue
                    suffix = f"{2 if double else 1}{biggest}{size}"
                    name = f"WXYZ-Wing {suffix}"
                    elims_t = tuple(sorted(elims))
                    cells = (a, b, c, yz)
                    link = (f"{geo.symbol(kept.bit_length())} restricted" if not double else
                            f"{geo.symbol(xb.bit_length())},{geo.symbol(zb.bit_length())} both restricted")
                    found.append((rating, -len(elims_t), suffix, order, Step(
                        name, rating, eliminations=elims_t, cells=cells, values=(gone.bit_length(),),
                        text=f"{name}: set {cells_text(geo, als)} and {geo.cell_name(yz)} ({link}) "
                        f"⇒ {elims_text(geo, elims_t)}",
                    )))
                    order += 1
    # rating ascending, removals descending, suffix descending, then found order
    found.sort(key=lambda t: (t[0], t[1], _Desc(t[2]), t[3]))
    for *_, step in found:
        yield step


class _Desc(str):
    """A string that sorts in reverse."""

    def __lt__(self, other: str) -> bool:  # type: ignore[override]
        return str.__gt__(self, other)


XY_WING = Technique("XY-Wing", XY_RATING, "wings", lambda s: find_xy_wing(s, False))
XYZ_WING = Technique("XYZ-Wing", XYZ_RATING, "wings", lambda s: find_xy_wing(s, True))

WXYZ_WING = Technique("WXYZ-Wing", 5.5, "wings", find_wxyz_wing)

TECHNIQUES = (XY_WING, XYZ_WING, WXYZ_WING)
