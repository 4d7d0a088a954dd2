"""XY-Wing (4.2) and XYZ-Wing (4.4).

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


XY_WING = Technique("XY-Wing", XY_RATING, "wings", lambda s: find_xy_wing(s, False))
XYZ_WING = Technique("XYZ-Wing", XYZ_RATING, "wings", lambda s: find_xy_wing(s, True))

TECHNIQUES = (XY_WING, XYZ_WING)
