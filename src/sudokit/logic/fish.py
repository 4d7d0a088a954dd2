"""Basic fish: X-Wing (2 lines), Swordfish (3), Jellyfish (4).

For one value, k base rows whose candidates lie together in k columns: the
value leaves every other cell of those columns (and the same with rows and
columns swapped). The text names the base lines first:
``X-Wing: 4 in r2,r7 c3,c8 ⇒ r5c3<>4`` has rows 2 and 7 as base.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from .state import Candidates, iter_bits
from .step import STRONG, WEAK, Step, Technique, elims_text
from .subsets import FISH_KIND, none_compiled

NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
RATINGS = {2: 3.2, 3: 3.8, 4: 5.2}


def find_fish(state: Candidates, k: int) -> Iterator[Step]:
    """Fish of ``k`` base lines: columns as base first, then rows (SE's order);
    values ascending; base-line combinations in lexicographic order."""
    if none_compiled(state, FISH_KIND, k):
        return
    geo = state.geo
    n = geo.n
    name, rating = NAMES[k], RATINGS[k]
    boards = [state.cells_with(v) for v in range(1, n + 1)]
    for by_rows in (False, True):
        base_units = geo.rows if by_rows else geo.cols
        cover_units = geo.cols if by_rows else geo.rows
        for v in range(1, n + 1):
            board = boards[v - 1]
            if not board:
                continue
            lines: list[tuple[int, int, int]] = []  # (base index, cover-index bitset, cells)
            for b, unit in enumerate(base_units):
                cells = board & geo.unit_mask[unit]
                if not cells or cells.bit_count() > k:
                    continue
                covers = 0
                for c in iter_bits(cells):
                    covers |= 1 << (c % n if by_rows else c // n)
                lines.append((b, covers, cells))
            if len(lines) < k:
                continue
            for combo in combinations(lines, k):
                union = 0
                for _, covers, _ in combo:
                    union |= covers
                if union.bit_count() != k:
                    continue
                base_cells = 0
                fish_cells = 0
                for b, _, cells in combo:
                    base_cells |= geo.unit_mask[base_units[b]]
                    fish_cells |= cells
                cover_cells = 0
                covers = list(iter_bits(union))
                for i in covers:
                    cover_cells |= geo.unit_mask[cover_units[i]]
                removable = board & cover_cells & ~base_cells
                if not removable:
                    continue
                elims = tuple((c, v) for c in iter_bits(removable))
                bases = [b for b, _, _ in combo]
                base_tag, cover_tag = ("r", "c") if by_rows else ("c", "r")
                where = (
                    f"{','.join(f'{base_tag}{b + 1}' for b in bases)} "
                    f"{','.join(f'{cover_tag}{i + 1}' for i in covers)}"
                )
                links, kinds = _fish_links(geo, combo, [cover_units[i] for i in covers], base_units, fish_cells, v)
                yield Step(
                    name, rating, eliminations=elims, cells=tuple(iter_bits(fish_cells)), links=links,
                    link_kinds=kinds,
                    units=tuple(base_units[b] for b in bases) + tuple(cover_units[i] for i in covers), values=(v,),
                    text=f"{name}: {geo.symbol(v)} in {where} ⇒ {elims_text(geo, elims)}",
                )


def _fish_links(geo, combo, covers, base_units, fish_cells: int, v: int) -> tuple[tuple, tuple]:
    """The fish drawn as links on ``v``: strong between the two places of a
    base line that has only two, weak between neighbouring places along each
    cover line."""
    links, kinds = [], []
    for b, _, cells in combo:
        places = list(iter_bits(cells))
        if len(places) == 2:
            links.append((places[0], v, places[1], v))
            kinds.append(STRONG)
    for unit in covers:
        places = list(iter_bits(fish_cells & geo.unit_mask[unit]))
        for a, b in zip(places, places[1:]):
            links.append((a, v, b, v))
            kinds.append(WEAK)
    return tuple(links), tuple(kinds)


X_WING = Technique("X-Wing", 3.2, "fish", lambda s: find_fish(s, 2))
SWORDFISH = Technique("Swordfish", 3.8, "fish", lambda s: find_fish(s, 3))
JELLYFISH = Technique("Jellyfish", 5.2, "fish", lambda s: find_fish(s, 4))

TECHNIQUES = (X_WING, SWORDFISH, JELLYFISH)
