"""Naked and hidden subsets (pairs, triplets, quads) and the direct hidden
pair and triplet.

A *naked set*: k cells of a unit whose candidates together are k values; those
values leave the other cells of the unit. A *hidden set*: k values whose
places in a unit are together k cells; every other value leaves those cells.
The *direct hidden* forms (SE 2.0 and 2.5) are used only when the removals
leave a hidden single in the unit, which the step then places.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from .state import BOX, COLUMN, ROW, Candidates, extra_units, is_classic
from .step import Step, Technique, cells_text, elims_text, values_text

NAMES = {2: "Pair", 3: "Triplet", 4: "Quad"}
NAKED_RATING = {2: 3.0, 3: 3.6, 4: 5.0}
HIDDEN_RATING = {2: 3.4, 3: 4.0, 4: 5.4}
DIRECT_HIDDEN_RATING = {2: 2.0, 3: 2.5}

#: The order unit kinds are scanned in.
KIND_ORDER = (BOX, COLUMN, ROW)


def _units(state: Candidates):
    """Boxes, columns, rows, then a variant's extra units (SE's HiddenSet and NakedSet order)."""
    geo = state.geo
    for kind in KIND_ORDER:
        yield from (geo.rows, geo.cols, geo.boxes)[kind]
    yield from extra_units(geo)


def _bits(mask: int) -> list[int]:
    out, v = [], 1
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


#: The kinds of search :func:`none_compiled` asks about (the kernel's ``NAKED_SET``, ``HIDDEN_SET``, ``FISH``).
NAKED_KIND, HIDDEN_KIND, FISH_KIND = range(3)

#: Whether a search may first ask the compiled one if it has any step (False: never).
COMPILED = True


def none_compiled(state: Candidates, kind: int, k: int) -> bool:
    """True when the compiled search (:func:`sudokit.engine.logic_kernels.has_step`, the easy ladder's
    own) says that the naked sets, hidden sets or fish (``kind``) of size ``k`` remove nothing here;
    False when they do, or where it does not run (numba not loaded yet, a variant's units)."""
    geo = state.geo
    if not is_classic(geo):
        return False
    from ..engine import producer_tables

    global _LAST_KINDS
    compiled = producer_tables(COMPILED, geo, _any_step)
    if compiled is None:
        return False
    last = _LAST_KINDS  # (read once: another thread may replace it)
    if last[1] == k and last[0] == state.mask:
        return not last[2] >> kind & 1
    from .links import mask_array

    kernel, tables = compiled
    found = kernel(mask_array(state.mask), *tables, k)  # (every kind at once: they are asked in turn)
    _LAST_KINDS = (list(state.mask), k, found)
    return not found >> kind & 1


#: The last answer of :func:`none_compiled`'s search: (candidates as a list, size, kinds found).
_LAST_KINDS: tuple = ([], 0, 0)

_ANY_STEP: dict = {}


def _any_step(geo):
    """The compiled "any step?" search of every kind and the shape's tables, or None where
    it cannot load."""
    got = _ANY_STEP.get(geo)
    if got is None:
        try:
            from ..engine.logic_kernels import _tables, has_steps
        except Exception:  # numba missing or broken
            return None
        got = _ANY_STEP[geo] = (has_steps, tuple(_tables(geo.shape)))
    return got


def find_naked(state: Candidates, k: int) -> Iterator[Step]:
    if none_compiled(state, NAKED_KIND, k):
        return
    geo, mask = state.geo, state.mask
    name, rating = f"Naked {NAMES[k]}", NAKED_RATING[k]
    for unit in _units(state):
        cells = geo.units[unit]
        usable = [c for c in cells if mask[c] and bin(mask[c]).count("1") <= k]
        if len(usable) < k:
            continue
        for combo in combinations(usable, k):
            union = 0
            for c in combo:
                union |= mask[c]
            if bin(union).count("1") != k:
                continue
            elims = tuple(
                (c, v) for c in cells if c not in combo and mask[c] & union for v in _bits(mask[c] & union)
            )
            if elims:
                vals = tuple(_bits(union))
                yield Step(
                    name, rating, eliminations=elims, cells=combo, units=(unit,), values=vals,
                    text=f"{name}: {values_text(geo, vals)} in {cells_text(geo, combo)} ({geo.unit_name(unit)}) "
                    f"⇒ {elims_text(geo, elims)}",
                )


def _hidden_sets(state: Candidates, k: int):
    """(unit, values, set cells as a list, cell bitset by unit position)."""
    geo, mask = state.geo, state.mask
    for unit in _units(state):
        cells = geo.units[unit]
        where: dict[int, int] = {}  # value -> bitset of positions in the unit
        for i, c in enumerate(cells):
            m = mask[c]
            v = 1
            while m:
                if m & 1:
                    where[v] = where.get(v, 0) | (1 << i)
                m >>= 1
                v += 1
        usable = [v for v in sorted(where) if bin(where[v]).count("1") <= k]
        if len(usable) < k or len(where) <= k:
            continue
        for combo in combinations(usable, k):
            union = 0
            for v in combo:
                union |= where[v]
            if bin(union).count("1") != k:
                continue
            yield unit, combo, [cells[i] for i in range(len(cells)) if union >> i & 1], union, where


def find_hidden(state: Candidates, k: int) -> Iterator[Step]:
    if none_compiled(state, HIDDEN_KIND, k):
        return
    geo, mask = state.geo, state.mask
    name, rating = f"Hidden {NAMES[k]}", HIDDEN_RATING[k]
    for unit, combo, set_cells, _, _ in _hidden_sets(state, k):
        keep = 0
        for v in combo:
            keep |= 1 << (v - 1)
        elims = tuple((c, v) for c in set_cells for v in _bits(mask[c] & ~keep))
        if elims:
            yield Step(
                name, rating, eliminations=elims, cells=tuple(set_cells), units=(unit,), values=combo,
                text=f"{name}: {values_text(geo, combo)} only in {cells_text(geo, set_cells)} ({geo.unit_name(unit)}) "
                f"⇒ {elims_text(geo, elims)}",
            )


def find_direct_hidden(state: Candidates, k: int) -> Iterator[Step]:
    geo = state.geo
    name, rating = f"Direct Hidden {NAMES[k]}", DIRECT_HIDDEN_RATING[k]
    for unit, combo, set_cells, union, where in _hidden_sets(state, k):
        cells = geo.units[unit]
        for v in sorted(where):
            if v in combo:
                continue
            pos = where[v]
            if pos & (pos - 1) == 0:
                continue
            rest = pos & ~union
            if rest and rest & (rest - 1) == 0 and rest != pos:
                cell = cells[rest.bit_length() - 1]
                yield Step(
                    name, rating, placements=((cell, v),), cells=tuple(set_cells), units=(unit,), values=combo,
                    text=f"{name}: {values_text(geo, combo)} only in {cells_text(geo, set_cells)} "
                    f"({geo.unit_name(unit)}) ⇒ {geo.cell_name(cell)}={geo.symbol(v)} "
                    f"(only place left for {geo.symbol(v)} in {geo.unit_name(unit)})",
                )


def _technique(kind: str, k: int) -> Technique:
    if kind == "naked":
        return Technique(f"Naked {NAMES[k]}", NAKED_RATING[k], "subsets", lambda s: find_naked(s, k))
    if kind == "hidden":
        return Technique(f"Hidden {NAMES[k]}", HIDDEN_RATING[k], "subsets", lambda s: find_hidden(s, k))
    return Technique(f"Direct Hidden {NAMES[k]}", DIRECT_HIDDEN_RATING[k], "subsets", lambda s: find_direct_hidden(s, k))


DIRECT_HIDDEN_PAIR = _technique("direct", 2)
DIRECT_HIDDEN_TRIPLET = _technique("direct", 3)
NAKED_PAIR = _technique("naked", 2)
HIDDEN_PAIR = _technique("hidden", 2)
NAKED_TRIPLET = _technique("naked", 3)
HIDDEN_TRIPLET = _technique("hidden", 3)
NAKED_QUAD = _technique("naked", 4)
HIDDEN_QUAD = _technique("hidden", 4)

TECHNIQUES = (
    DIRECT_HIDDEN_PAIR, DIRECT_HIDDEN_TRIPLET, NAKED_PAIR, HIDDEN_PAIR,
    NAKED_TRIPLET, HIDDEN_TRIPLET, NAKED_QUAD, HIDDEN_QUAD,
)
