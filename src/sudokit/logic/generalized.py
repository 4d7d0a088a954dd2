"""SukakuExplainer's techniques for variants with extra units (X, windoku).

With its X or Windows option, SukakuExplainer (SE) adds the diagonals or
the nine window groups to its regions and changes its ladder
(``Settings.initVariants``): Pointing & Claiming and the plain naked sets
give way to two generalized producers that read every region.

* **Generalized Intersections** (SE's ``VLocking``, 2.9): the places of a
  value in one region (two to six of them) all see some cells outside it;
  the value leaves those cells. It covers pointing and claiming, and the
  meetings of a diagonal or window with a row, column or box.
* **Generalized Naked Pair / Triplet / Quad** (SE's ``NakedSetGen``, 3.0,
  3.6, 5.0): k cells of a region, at least 2k of its cells still empty,
  hold k values between them; each value leaves every cell that sees all of
  the set's cells holding it (not only the region's).

The hidden single counts the extra regions too: the last empty cell of any
region rates 1.0, a hidden single in a box 1.2 and in any other region 1.5.
Hidden sets scan them after boxes, columns and rows
(:func:`sudokit.logic.subsets._units`), chains link through them
(:mod:`sudokit.logic.chains`), and the wings see through them, since they
read :attr:`~sudokit.geometry.Geometry.peers`.

:func:`ladder` is the whole list in SE's order for a geometry.

>>> from sudokit import variants
>>> [t.name for t in ladder(variants.x())][13:16]
['Generalized Intersections', 'Generalized Naked Pair', 'X-Wing']
"""

from __future__ import annotations

from typing import Iterator

from .state import BOX, COLUMN, ROW, Candidates, extra_units, iter_bits
from .step import Step, Technique, cells_text, elims_text, values_text
from .singles import RATING_LAST, RATING_LINE

GI_RATING = 2.9
NAKED_GEN_RATING = {2: 3.0, 3: 3.6, 4: 5.0}
NAMES = {2: "Pair", 3: "Triplet", 4: "Quad"}


def _scan(geo, kinds: tuple[int, ...]) -> list[int]:
    """The units of ``kinds`` (ROW, COLUMN, BOX, in the order given), then the extra units."""
    units: list[int] = []
    for kind in kinds:
        units.extend((geo.rows, geo.cols, geo.boxes)[kind])
    units.extend(extra_units(geo))
    return units


def _extra_singles(state: Candidates, alone: bool) -> Iterator[Step]:
    """Hidden singles (or last values, with ``alone``) in the extra units."""
    from .singles import hidden_singles_in

    return hidden_singles_in(state, extra_units(state.geo), RATING_LAST if alone else RATING_LINE, alone)


def find_last_value_extra(state: Candidates) -> Iterator[Step]:
    return _extra_singles(state, True)


def find_hidden_single_extra(state: Candidates) -> Iterator[Step]:
    return _extra_singles(state, False)


def find_generalized_intersections(state: Candidates) -> Iterator[Step]:
    """SE's VLocking: region kinds box, row, column, then the extra units;
    within a kind values ascending, then regions in order."""
    geo, mask = state.geo, state.mask
    peer_mask = geo.peer_mask
    groups = [geo.boxes, geo.rows, geo.cols]
    extra = extra_units(geo)
    # SE scans one region type at a time: the windows, then each diagonal
    by_type: dict[str, list[int]] = {}
    for u in extra:
        name = geo.kind_names[geo.kind[u]]
        key = "window" if name in ("window", "hidden window") else f"{name} {u}" if name == "diagonal" else name
        by_type.setdefault(key, []).append(u)
    groups.extend(by_type.values())
    for units in groups:
        for v in range(1, geo.n + 1):
            bit = 1 << (v - 1)
            for unit in units:
                where = [c for c in geo.units[unit] if mask[c] & bit]
                if not 2 <= len(where) <= 6:
                    continue
                seen = peer_mask[where[0]]
                for c in where[1:]:
                    seen &= peer_mask[c]
                elims = tuple((c, v) for c in iter_bits(seen) if mask[c] & bit)
                if elims:
                    yield Step(
                        "Generalized Intersections", GI_RATING, eliminations=elims, cells=tuple(where),
                        units=(unit,), values=(v,),
                        text=f"Generalized Intersections: {geo.symbol(v)} in {geo.unit_name(unit)} only in "
                        f"{cells_text(geo, where)} ⇒ {elims_text(geo, elims)}",
                    )


def _windows(geo) -> tuple[int, ...]:
    """The window groups (windows and hidden windows) in SE's numbering."""
    return tuple(u for u in extra_units(geo) if geo.kind_names[geo.kind[u]] in ("window", "hidden window"))


def find_direct_window_locking(state: Candidates) -> Iterator[Step]:
    """SE's Direct Pointing / Claiming between a window group and a row,
    column or box (its ``Locking(true)`` with the Windows option): a value's
    places in a region of the first kind all lie in one region of the
    second; the value would leave the rest of that region, which leaves one
    place in another region of the first kind crossing it: that place is
    placed. Rated 1.7 when the first region is a box, else 1.9."""
    geo, mask = state.geo, state.mask
    windows = _windows(geo)
    if not windows:
        return
    um = geo.unit_mask
    kinds = {"box": geo.boxes, "row": geo.rows, "column": geo.cols, "window": windows}
    for k1, k2 in (("window", "column"), ("window", "row"), ("column", "window"), ("row", "window"),
                   ("box", "window"), ("window", "box")):
        first, second = kinds[k1], kinds[k2]
        rating, name = (1.7, "Direct Pointing") if k1 == "box" else (1.9, "Direct Claiming")
        for v in range(1, geo.n + 1):
            bit = 1 << (v - 1)
            for u1 in first:
                where = [c for c in geo.units[u1] if mask[c] & bit]
                if len(where) < 2:
                    continue
                for u2 in second:
                    if not um[u1] & um[u2]:
                        continue
                    if any(not um[u2] >> c & 1 for c in where):
                        continue
                    for u3 in first:
                        if u3 == u1 or not um[u3] & um[u2]:
                            continue
                        places = [c for c in geo.units[u3] if mask[c] & bit]
                        if len(places) < 2:
                            continue
                        left = [c for c in places if not um[u2] >> c & 1]
                        if len(left) != 1:
                            continue
                        cell = left[0]
                        yield Step(
                            name, rating, placements=((cell, v),), cells=tuple(where), units=(u1, u2, u3),
                            values=(v,),
                            text=f"{name}: {geo.symbol(v)} in {geo.unit_name(u1)} lies only in "
                            f"{geo.unit_name(u2)} ({cells_text(geo, where)}) ⇒ {geo.cell_name(cell)}="
                            f"{geo.symbol(v)} (only place for {geo.symbol(v)} in {geo.unit_name(u3)})",
                        )


def _colex(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """The k-subsets of range(n) in SE's ``Permutations`` order (colex)."""
    if k == 0:
        yield ()
        return
    for top in range(k - 1, n):
        for rest in _colex(top, k - 1):
            yield rest + (top,)


def find_generalized_naked(state: Candidates, k: int) -> Iterator[Step]:
    """SE's NakedSetGen(k): boxes, columns, rows, then the extra units."""
    geo, mask, values = state.geo, state.mask, state.values
    peer_mask = geo.peer_mask
    name, rating = f"Generalized Naked {NAMES[k]}", NAKED_GEN_RATING[k]
    for unit in _scan(geo, (BOX, COLUMN, ROW)):
        cells = geo.units[unit]
        if sum(1 for c in cells if not values[c]) < 2 * k:
            continue
        for combo in _colex(len(cells), k):
            union = 0
            ok = True
            for i in combo:
                m = mask[cells[i]]
                if not m:
                    ok = False
                    break
                union |= m
            if not ok or union.bit_count() != k:
                continue
            chosen = [cells[i] for i in combo]
            elims = []
            for vb in iter_bits(union):
                bit = 1 << vb
                seen = -1
                for c in chosen:
                    if mask[c] & bit:
                        seen &= peer_mask[c]
                for c in iter_bits(seen & ((1 << len(mask)) - 1)):
                    if mask[c] & bit:
                        elims.append((c, vb + 1))
            if elims:
                elims.sort()
                vals = tuple(v + 1 for v in iter_bits(union))
                elims_t = tuple(elims)
                yield Step(
                    name, rating, eliminations=elims_t, cells=tuple(chosen), units=(unit,), values=vals,
                    text=f"{name}: {values_text(geo, vals)} in {cells_text(geo, chosen)} ({geo.unit_name(unit)}) "
                    f"⇒ {elims_text(geo, elims_t)}",
                )


LAST_VALUE_EXTRA = Technique("Hidden Single", RATING_LAST, "singles", find_last_value_extra,
                             "last value in a diagonal or window")
HIDDEN_SINGLE_EXTRA = Technique("Hidden Single", RATING_LINE, "singles", find_hidden_single_extra,
                                "diagonal or window")
DIRECT_WINDOW_LOCKING = Technique("Direct Pointing", 1.7, "intersections", find_direct_window_locking,
                                  "windows")
GENERALIZED_INTERSECTIONS = Technique("Generalized Intersections", GI_RATING, "intersections",
                                      find_generalized_intersections)
GENERALIZED_NAKED_PAIR = Technique("Generalized Naked Pair", 3.0, "subsets",
                                   lambda s: find_generalized_naked(s, 2))
GENERALIZED_NAKED_TRIPLET = Technique("Generalized Naked Triplet", 3.6, "subsets",
                                      lambda s: find_generalized_naked(s, 3))
GENERALIZED_NAKED_QUAD = Technique("Generalized Naked Quad", 5.0, "subsets",
                                   lambda s: find_generalized_naked(s, 4))


_LADDERS: dict = {}
_KILLERS: dict = {}


def ladder(geo) -> list[Technique]:
    """SE's techniques in its order for ``geo`` (do not change the list): the registry itself for a
    geometry without extra units (classic, jigsaw); for a killer, the ladder of its units with
    the killer techniques (:func:`sudokit.logic.cages.killer_ladder`); else SE's variant ladder
    (``Settings.initVariants``): the singles over every region, no Pointing &
    Claiming and no plain naked sets, Generalized Intersections and the
    generalized naked sets at their places."""
    from . import registry, singles, subsets, intersections

    if geo.cages:  # a killer: the ladder of its units with the cage techniques (logic.cages)
        from .cages import killer_ladder

        key = (geo, tuple(id(t) for t in registry.REGISTRY))
        got = _KILLERS.get(key)
        if got is None:
            if len(_KILLERS) > 256:  # a stream of killers: each brings its cages
                _KILLERS.clear()
            got = _KILLERS[key] = killer_ladder(ladder(geo.with_cages(())) if extra_units(geo)
                                                else registry.REGISTRY)
        return got
    if not extra_units(geo):
        return registry.REGISTRY
    key = (geo, tuple(id(t) for t in registry.REGISTRY))
    got = _LADDERS.get(key)
    if got is not None:
        return got
    out: list[Technique] = []
    for t in registry.REGISTRY:
        if t is singles.LAST_VALUE_ROW:
            out += [t, LAST_VALUE_EXTRA]
        elif t is singles.HIDDEN_SINGLE_ROW:
            out += [t, HIDDEN_SINGLE_EXTRA]
        elif t is intersections.DIRECT_CLAIMING:
            out.append(t)
            if _windows(geo):
                out.append(DIRECT_WINDOW_LOCKING)
        elif t is intersections.POINTING:
            out.append(GENERALIZED_INTERSECTIONS)
        elif t is intersections.CLAIMING:
            continue
        elif t is subsets.NAKED_PAIR:
            out.append(GENERALIZED_NAKED_PAIR)
        elif t is subsets.NAKED_TRIPLET:
            out.append(GENERALIZED_NAKED_TRIPLET)
        elif t is subsets.NAKED_QUAD:
            out.append(GENERALIZED_NAKED_QUAD)
        else:
            out.append(t)
    _LADDERS[key] = out
    return out
