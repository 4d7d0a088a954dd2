"""Basic fish: X-Wing (2 lines), Swordfish (3), Jellyfish (4).

For one value, k base rows whose candidates lie together in k columns: the
value leaves every other cell of those columns (and the same with rows and
columns swapped). The text names the base lines first:
``X-Wing: 4 in r2,r7 c3,c8 ⇒ r5c3<>4`` has rows 2 and 7 as base.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from .state import Candidates
from .step import Step, Technique, elims_text

NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
RATINGS = {2: 3.2, 3: 3.8, 4: 5.2}


def find_fish(state: Candidates, k: int) -> Iterator[Step]:
    geo, mask = state.geo, state.mask
    n = geo.n
    name, rating = NAMES[k], RATINGS[k]
    for by_rows in (False, True):
        base_units = geo.rows if by_rows else geo.cols
        cover_units = geo.cols if by_rows else geo.rows
        for v in range(1, n + 1):
            bit = 1 << (v - 1)
            lines: list[tuple[int, int]] = []  # (base index, bitset of cover indices)
            for b, unit in enumerate(base_units):
                pos = 0
                for i, c in enumerate(geo.units[unit]):
                    if mask[c] & bit:
                        pos |= 1 << i
                if pos and bin(pos).count("1") <= k:
                    lines.append((b, pos))
            if len(lines) < k:
                continue
            for combo in combinations(lines, k):
                union = 0
                for _, pos in combo:
                    union |= pos
                if bin(union).count("1") != k:
                    continue
                bases = [b for b, _ in combo]
                covers = [i for i in range(n) if union >> i & 1]
                base_cells = {c for b in bases for c in geo.units[base_units[b]]}
                elims = tuple(
                    (c, v)
                    for i in covers
                    for c in geo.units[cover_units[i]]
                    if mask[c] & bit and c not in base_cells
                )
                if not elims:
                    continue
                cells = tuple(sorted(c for b in bases for c in geo.units[base_units[b]] if mask[c] & bit))
                base_tag, cover_tag = ("r", "c") if by_rows else ("c", "r")
                where = (
                    f"{','.join(f'{base_tag}{b + 1}' for b in bases)} "
                    f"{','.join(f'{cover_tag}{i + 1}' for i in covers)}"
                )
                yield Step(
                    name, rating, eliminations=elims, cells=cells,
                    units=tuple(base_units[b] for b in bases) + tuple(cover_units[i] for i in covers), values=(v,),
                    text=f"{name}: {geo.symbol(v)} in {where} ⇒ {elims_text(geo, elims)}",
                )


X_WING = Technique("X-Wing", 3.2, "fish", lambda s: find_fish(s, 2))
SWORDFISH = Technique("Swordfish", 3.8, "fish", lambda s: find_fish(s, 3))
JELLYFISH = Technique("Jellyfish", 5.2, "fish", lambda s: find_fish(s, 4))

TECHNIQUES = (X_WING, SWORDFISH, JELLYFISH)
