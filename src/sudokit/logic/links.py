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
removals (most first), then by suffix."""

from __future__ import annotations

from typing import Iterator

from .state import BOX, Candidates, Geometry
from .step import Step, Technique, elims_text

SKYSCRAPER_RATING, KITE_RATING, TURBOT_RATING, GROUPED_RATING = 4.0, 4.1, 4.1, 4.3


def _see_all(geo: Geometry, cells: tuple[int, ...]) -> set[int]:
    """Cells (outside ``cells``) that see every cell of ``cells``."""
    peers = geo.peers
    common = set(peers[cells[0]])
    for c in cells[1:]:
        common &= set(peers[c])
    return common - set(cells)


def _common_unit(geo: Geometry, cells: tuple[int, ...]) -> list[int]:
    """The units holding every cell of ``cells``."""
    units = set(geo.units_of[cells[0]])
    for c in cells[1:]:
        units &= set(geo.units_of[c])
    return sorted(units)


Link = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _links(state: Candidates, v: int) -> tuple[list[Link], list[Link], list[Link]]:
    """Strong links on ``v`` in boxes, rows and columns: (unit, end A, end B,
    heart). ``heart`` is the centre cell of an empty rectangle when it holds
    ``v``: it lies in both lines, so it joins whichever end is the inner one."""
    geo, mask = state.geo, state.mask
    bit = 1 << (v - 1)
    out: tuple[list[Link], list[Link], list[Link]] = ([], [], [])
    units_of = geo.units_of
    for kind, units in ((0, geo.boxes), (1, geo.rows), (2, geo.cols)):
        found = out[kind]
        for unit in units:
            pos = [c for c in geo.units[unit] if mask[c] & bit]
            if len(pos) < 2:
                continue
            if len(pos) == 2:
                found.append((unit, (pos[0],), (pos[1],), ()))
                continue
            if len(pos) > 6:
                continue
            if kind == 0:
                # empty rectangle: every place in the row or column of one heart cell
                for heart in geo.units[unit]:
                    r, c = units_of[heart][0], units_of[heart][1]
                    if all(units_of[p][0] == r or units_of[p][1] == c for p in pos):
                        row_part = tuple(p for p in pos if units_of[p][0] == r and p != heart)
                        col_part = tuple(p for p in pos if units_of[p][1] == c and p != heart)
                        if row_part and col_part:
                            found.append((unit, row_part, col_part, (heart,) if mask[heart] & bit else ()))
                        break
            else:
                boxes: dict[int, list[int]] = {}
                for p in pos:
                    boxes.setdefault(units_of[p][2], []).append(p)
                if len(boxes) == 2:
                    a, b = (tuple(g) for g in boxes.values())
                    found.append((unit, a, b, ()))
    return out


#: SE's order of link kinds for two links (0 box, 1 row, 2 column).
KIND_PAIRS = ((0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2))


def _kind_code(geo: Geometry, units: list[int]) -> str:
    codes, first_line = [], None
    for u in units:
        k = geo.kind[u]
        if k == BOX:
            codes.append("0")
        else:
            if first_line is None:
                first_line = k
            codes.append("1" if k == first_line else "2")
    return "".join(codes)


def _name(geo: Geometry, units: list[int], grouped: int) -> tuple[str, float]:
    kinds = [geo.kind[u] for u in units]
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


def find_two_links(state: Candidates) -> Iterator[Step]:
    """Every two-strong-link step, in SE's order (rating, removals, suffix,
    then SE's generation order: kinds of links, value, units)."""
    geo, mask = state.geo, state.mask
    found: list[tuple[float, int, str, int, Step]] = []
    seen: set = set()
    by_value = [_links(state, v) if v else None for v in range(geo.n + 1)]
    order = 0
    for k1, k2 in KIND_PAIRS:
        for v in range(1, geo.n + 1):
            bit = 1 << (v - 1)
            links = by_value[v]
            first, second = links[k1], links[k2]
            for i, (u1, a1, b1, h1) in enumerate(first):
                for u2, a2, b2, h2 in second[i + 1:] if k1 == k2 else second:
                    for start, bridge1 in ((a1, b1 + h1), (b1, a1 + h1)):
                        for bridge2, end in ((a2 + h2, b2), (b2 + h2, a2)):
                            cells = start + bridge1 + bridge2 + end
                            if len(set(cells)) != len(cells):
                                continue
                            shared = [u for u in _common_unit(geo, bridge1 + bridge2) if u != u1 and u != u2]
                            if not shared:
                                continue
                            victims = _see_all(geo, start + end)
                            elims = tuple(sorted((c, v) for c in victims if mask[c] & bit))
                            if not elims:
                                continue
                            key = (v, frozenset(cells), elims)
                            if key in seen:
                                continue
                            seen.add(key)
                            grouped = int(len(a1) + len(b1) + len(h1) > 2) + int(len(a2) + len(b2) + len(h2) > 2)
                            name, rating = _name(geo, [u1, u2], grouped)
                            chain = ",".join(
                                "{" + ",".join(geo.cell_name(c) for c in part) + "}" if len(part) > 1
                                else geo.cell_name(part[0])
                                for part in (start, bridge1, bridge2, end)
                            )
                            step = Step(
                                name, rating, eliminations=elims, cells=tuple(sorted(set(cells))),
                                units=(u1, u2, shared[0]), values=(v,),
                                links=((start[0], v, bridge1[0], v), (bridge1[0], v, bridge2[0], v),
                                       (bridge2[0], v, end[0], v)),
                                text=f"{name}: {chain} on {geo.symbol(v)} ({geo.unit_name(u1)}, "
                                f"{geo.unit_name(u2)}) ⇒ {elims_text(geo, elims)}",
                            )
                            found.append((rating, -len(elims), name.rsplit(" ", 1)[1], order, step))
                            order += 1
    found.sort(key=lambda t: t[:4])
    for *_, step in found:
        yield step


#: SE runs all two-link forms as one producer (4.0-4.3) right after Hidden Triplet.
TWO_STRONG_LINKS = Technique("Skyscraper", SKYSCRAPER_RATING, "links", find_two_links)

TECHNIQUES = (TWO_STRONG_LINKS,)
