"""Intersections (locked candidates): pointing and claiming, and their
"direct" forms.

*Pointing*: the candidates for a value in a box all lie in one row or
column, so the value leaves the rest of that line (SE 2.6). *Claiming*: the
candidates for a value in a row or column all lie in one box, so the value
leaves the rest of that box (SE 2.8). The *direct* forms (SE 1.7 and 1.9)
are the same patterns used only when the removals leave a hidden single; the
step then places that single.
"""

from __future__ import annotations

from typing import Iterator

from .state import BOX, COLUMN, ROW, Candidates
from .step import Step, Technique, cells_text, elims_text

RATING_DIRECT_POINTING = 1.7
RATING_DIRECT_CLAIMING = 1.9
RATING_POINTING = 2.6
RATING_CLAIMING = 2.8


def _locked(state: Candidates, pairs: tuple[tuple[int, int], ...]) -> Iterator[tuple[int, int, int, list[int], list[int]]]:
    """(unit1, unit2, value, pattern cells, removal cells) for each value whose
    candidates in a unit of kind1 all lie in one unit of kind2, for each
    (kind1, kind2) in ``pairs``; then by value, then by unit, as SE scans."""
    geo, mask = state.geo, state.mask
    for kind1, kind2 in pairs:
        for v in range(geo.n):
            bit = 1 << v
            for unit1 in (geo.rows, geo.cols, geo.boxes)[kind1]:
                where = [c for c in geo.units[unit1] if mask[c] & bit]
                if len(where) < 2:
                    continue
                unit2 = geo.units_of[where[0]][kind2]
                if any(geo.units_of[c][kind2] != unit2 for c in where[1:]):
                    continue
                removable = [c for c in geo.units[unit2] if mask[c] & bit and c not in where]
                if removable:
                    yield unit1, unit2, v + 1, where, removable


def _hidden_single_after(state: Candidates, value: int, removed: list[int]) -> tuple[int, int] | None:
    """A (cell, unit) that becomes the only place for ``value`` in some unit
    once ``value`` leaves the ``removed`` cells. Like SE, only boxes are
    checked (so a direct claiming, whose removals lie in one box, never fires
    in practice)."""
    geo, mask = state.geo, state.mask
    bit = 1 << (value - 1)
    gone = set(removed)
    touched = sorted({geo.units_of[c][BOX] for c in removed})
    for unit in touched:
        left = [c for c in geo.units[unit] if mask[c] & bit and c not in gone]
        if len(left) == 1:
            return left[0], unit
    return None


def _finder(pairs: tuple[tuple[int, int], ...], direct: bool, name: str, rating: float):
    def find(state: Candidates) -> Iterator[Step]:
        geo = state.geo
        for unit1, unit2, value, where, removable in _locked(state, pairs):
            pattern = (
                f"{geo.symbol(value)} in {geo.unit_name(unit1)} lies only in {geo.unit_name(unit2)} "
                f"({cells_text(geo, where)})"
            )
            if direct:
                single = _hidden_single_after(state, value, removable)
                if single is None:
                    continue
                cell, unit = single
                yield Step(
                    name, rating, placements=((cell, value),), cells=tuple(where), units=(unit1, unit2, unit),
                    values=(value,),
                    text=f"{name}: {pattern} ⇒ {geo.cell_name(cell)}={geo.symbol(value)} "
                    f"(only place for {geo.symbol(value)} in {geo.unit_name(unit)})",
                )
            else:
                elims = tuple((c, value) for c in removable)
                yield Step(
                    name, rating, eliminations=elims, cells=tuple(where), units=(unit1, unit2), values=(value,),
                    text=f"{name}: {pattern} ⇒ {elims_text(geo, elims)}",
                )

    find.__name__ = f"find_{name.lower().replace(' ', '_')}"
    return find


POINTING_PAIRS = ((BOX, COLUMN), (BOX, ROW))
CLAIMING_PAIRS = ((COLUMN, BOX), (ROW, BOX))
find_direct_pointing = _finder(POINTING_PAIRS, True, "Direct Pointing", RATING_DIRECT_POINTING)
find_direct_claiming = _finder(CLAIMING_PAIRS, True, "Direct Claiming", RATING_DIRECT_CLAIMING)
find_pointing = _finder(POINTING_PAIRS, False, "Pointing", RATING_POINTING)
find_claiming = _finder(CLAIMING_PAIRS, False, "Claiming", RATING_CLAIMING)

DIRECT_POINTING = Technique("Direct Pointing", RATING_DIRECT_POINTING, "intersections", find_direct_pointing)
DIRECT_CLAIMING = Technique("Direct Claiming", RATING_DIRECT_CLAIMING, "intersections", find_direct_claiming)
POINTING = Technique("Pointing", RATING_POINTING, "intersections", find_pointing)
CLAIMING = Technique("Claiming", RATING_CLAIMING, "intersections", find_claiming)

TECHNIQUES = (DIRECT_POINTING, DIRECT_CLAIMING, POINTING, CLAIMING)
