"""Killer techniques: cage combinations, cage locked digits and the 45 rule.

A killer cage (:class:`sudokit.killer.Cage`) holds different digits that add
up to its total. The candidate state already keeps only each cage's sum
digits (:meth:`Candidates.from_grid`) and a placed digit leaves its cage
(:meth:`Candidates.place`); these techniques do the rest, as steps of the
ladder (:func:`killer_ladder`):

* **Cage Combinations** (1.6): a digit set of the cage's size and total is
  *possible* when the open cells can take its digits one each from their
  candidates; a candidate that no possible set can put in its cell (given
  the others) goes. It covers a cage's own naked and hidden subsets and its
  hidden single.
* **45 Rule** (2.0 for one unit, 2.4 / 2.8 / 3.2 for two / three / four):
  a unit adds up to N(N+1)/2 (45 on a 9x9), k units to k times that. The
  cages wholly inside a group of units leave its other cells, the *innies*,
  a known sum; when every cell of the group is caged, the cells of its
  cages that stick out, the *outies*, have a known sum too. One such cell is
  placed; several are a virtual cage (different digits where they see each
  other) pruned like a cage. The groups are each unit, runs of 2 to 4
  consecutive rows or columns, and two neighbouring boxes.
* **Cage Pointing** (2.6): a digit that every possible set of a cage needs,
  whose places in the cage all see some cells outside it (they lie in one
  unit), leaves those cells.
* **Cage Claiming** (2.8): a digit whose places in a unit all lie in one
  cage must be in that cage: the cage's sets without it are impossible, and
  it leaves the cage's cells outside the unit.

The classic techniques keep running over the geometry's units; the
uniqueness techniques do not (a cage can tell the two halves of a deadly
pattern apart), nor the nested forcing chains (their helpers read units
only). Ratings are sudokit's own: SE has no killer ladder (docs/variants.md,
"Killer logic").

>>> from sudokit.geometry import Geometry, Shape
>>> from sudokit.grid import Grid
>>> from sudokit.killer import Cage
>>> from sudokit.logic.state import Candidates
>>> geo = Geometry.of(Shape(2, 2)).with_cages([Cage((0, 1), 3), Cage((2, 3), 7)])
>>> state = Candidates.from_grid(Grid.empty((2, 2)).with_geometry(geo))
>>> str(next(find_innies_one(state)))
'45 Rule: row 1 adds up to 10; no cage lies inside... '
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Sequence

from ..killer import sum_sets
from .state import Candidates, iter_bits
from .step import Step, Technique, cells_text, elims_text

RATING_COMBINATIONS = 1.6
RATING_45 = {1: 2.0, 2: 2.4, 3: 2.8, 4: 3.2}
RATING_POINTING = 2.6
RATING_CLAIMING = 2.8

#: The most cells of a 45-rule remainder whose digits may repeat (cells that do not all see each
#: other) that is pruned by trying every assignment; a remainder of cells that all see each other
#: has no limit.
MAX_LOOSE = 4


# -- sums over cells ------------------------------------------------------------------------


def distinct_support(cands: Sequence[int], total: int, n: int) -> tuple[list[int], list[int]]:
    """For open cells with candidate masks ``cands`` that take different digits adding up to
    ``total``: the possible digit sets (masks) and, per cell, the digits some possible
    assignment puts there.

    A set D is possible when the cells can take its digits one each; the layers ``ahead[i]``
    (the digit sets the first i cells can take) and ``behind[i]`` (the last ones) tell which
    cell can hold which digit of D.

    >>> distinct_support([0b111, 0b011], 4, 3)     # two cells, 4 = 1+3: the second cannot be 3
    ([5], [4, 1])
    """
    k = len(cands)
    union = 0
    for m in cands:
        union |= m
    support = [0] * k
    possible = []
    for digits in sum_sets(n, k, total):
        if digits & ~union:
            continue
        ahead = [{0}]
        for m in cands:
            layer = set()
            for s in ahead[-1]:
                avail = m & digits & ~s
                while avail:
                    b = avail & -avail
                    layer.add(s | b)
                    avail ^= b
            ahead.append(layer)
        if digits not in ahead[k]:
            continue
        possible.append(digits)
        behind = [set() for _ in range(k + 1)]
        behind[k] = {0}
        for i in range(k - 1, -1, -1):
            layer = behind[i]
            for s in behind[i + 1]:
                avail = cands[i] & digits & ~s
                while avail:
                    b = avail & -avail
                    layer.add(s | b)
                    avail ^= b
        for i in range(k):
            got = support[i]
            for s in ahead[i]:
                avail = cands[i] & digits & ~s & ~got
                while avail:
                    b = avail & -avail
                    if digits & ~s & ~b in behind[i + 1]:
                        got |= b
                    avail ^= b
            support[i] = got
    return possible, support


def loose_support(cands: Sequence[int], total: int, apart: Sequence[int]) -> list[int]:
    """Per cell, the digits some assignment puts there, for cells adding up to ``total`` where
    cell i differs only from the cells in the bit set ``apart[i]`` (those it sees): every
    assignment is tried, cut by the least and most the cells left can make.

    >>> [bin(m) for m in loose_support([0b1111, 0b1111], 2, [0, 0])]   # 2 = 1+1: both may be 1
    ['0b1', '0b1']
    """
    k = len(cands)
    lows = [(m & -m).bit_length() for m in cands]
    highs = [m.bit_length() for m in cands]
    low_after = [0] * (k + 1)
    high_after = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        low_after[i] = low_after[i + 1] + lows[i]
        high_after[i] = high_after[i + 1] + highs[i]
    support = [0] * k
    chosen = [0] * k

    def walk(i: int, left: int) -> bool:
        if i == k:
            return left == 0
        if not low_after[i] <= left <= high_after[i]:
            return False
        m = cands[i]
        for j in iter_bits(apart[i]):
            if j < i:
                m &= ~(1 << (chosen[j] - 1))
        found = False
        for b in iter_bits(m):
            chosen[i] = b + 1
            if walk(i + 1, left - b - 1):
                support[i] |= 1 << b
                found = True
        return found

    walk(0, total)
    return support


def _combos_text(possible: Sequence[int], limit: int = 6) -> str:
    """``{1,5} {2,4}``: the possible digit sets, the first ``limit``."""
    shown = ["{" + ",".join(str(b + 1) for b in iter_bits(d)) + "}" for d in possible[:limit]]
    return " ".join(shown) + (" ..." if len(possible) > limit else "")


def _cage_text(geo, cage) -> str:
    """``cage r1c1+r1c2=15``."""
    return f"cage {'+'.join(geo.cell_name(c) for c in cage.cells)}={cage.total}"


def _open_rest(state: Candidates, cage) -> tuple[list[int], int]:
    """The cage's open cells and what they add up to."""
    values = state.values
    open_cells = [c for c in cage.cells if not values[c]]
    return open_cells, cage.total - sum(values[c] for c in cage.cells)


def _cage_support(state: Candidates, cage, need: int = 0) -> tuple[list[int], list[int], list[int], int]:
    """The cage's open cells, its possible digit sets (holding every digit of ``need``), each
    open cell's supported digits under them, and the rest of its total."""
    open_cells, rest = _open_rest(state, cage)
    cands = [state.mask[c] for c in open_cells]
    n = state.geo.n
    if not need:
        possible, support = distinct_support(cands, rest, n)
        return open_cells, possible, support, rest
    possible, support = [], [0] * len(open_cells)
    for digits in sum_sets(n, len(open_cells), rest):
        if digits & need != need:
            continue
        got, sup = distinct_support([m & digits for m in cands], rest, n)
        if got:
            possible.append(digits)
            support = [a | b for a, b in zip(support, sup)]
    return open_cells, possible, support, rest


# -- cage combinations ----------------------------------------------------------------------


def find_cage_combinations(state: Candidates) -> Iterator[Step]:
    """Cages in order: the candidates no possible digit set of the cage can hold."""
    geo, mask = state.geo, state.mask
    for number, cage in enumerate(geo.cages):
        if cage.total is None:
            continue
        open_cells, possible, support, rest = _cage_support(state, cage)
        if not open_cells:
            continue
        elims = tuple((c, b + 1) for c, s in zip(open_cells, support) for b in iter_bits(mask[c] & ~s))
        if not elims:
            continue
        placed = len(open_cells) < len(cage.cells)
        where = f"; its open cells {cells_text(geo, open_cells)} make {rest}" if placed else ""
        sets = _combos_text(possible) if possible else "no digit set fits"
        yield Step(
            "Cage Combinations", RATING_COMBINATIONS, eliminations=elims, cells=tuple(cage.cells),
            values=tuple(sorted({v for _, v in elims})),
            text=f"Cage Combinations: {_cage_text(geo, cage)}{where}: {sets} ⇒ {elims_text(geo, elims)}",
        )


# -- cage pointing and claiming -------------------------------------------------------------


def _unit_holding(geo, cells: Sequence[int]) -> int | None:
    """A unit holding every cell of ``cells`` (the first in unit order), or None."""
    common = set(geo.units_of[cells[0]])
    for c in cells[1:]:
        common &= set(geo.units_of[c])
    return min(common) if common else None


def find_cage_pointing(state: Candidates) -> Iterator[Step]:
    """A digit every possible set of a cage holds, whose places in the cage all see some other
    cells: it leaves them."""
    geo, mask = state.geo, state.mask
    peer_mask = geo.peer_mask
    for cage in geo.cages:
        if cage.total is None:
            continue
        open_cells, possible, _, _ = _cage_support(state, cage)
        if len(open_cells) < 2 or not possible:
            continue
        need = -1
        for d in possible:
            need &= d
        inside = 0
        for c in cage.cells:
            inside |= 1 << c
        for b in iter_bits(need):
            bit = 1 << b
            places = [c for c in open_cells if mask[c] & bit]
            if len(places) < 2:
                continue
            seen = peer_mask[places[0]]
            for c in places[1:]:
                seen &= peer_mask[c]
            elims = tuple((c, b + 1) for c in iter_bits(seen & ~inside) if mask[c] & bit)
            if not elims:
                continue
            unit = _unit_holding(geo, places)
            within = f" ({geo.unit_name(unit)})" if unit is not None else ""
            yield Step(
                "Cage Pointing", RATING_POINTING, eliminations=elims, cells=tuple(places),
                units=() if unit is None else (unit,), values=(b + 1,),
                text=f"Cage Pointing: every set of {_cage_text(geo, cage)} ({_combos_text(possible)}) holds "
                f"{b + 1}, which it can place only in {cells_text(geo, places)}{within} ⇒ {elims_text(geo, elims)}",
            )


def find_cage_claiming(state: Candidates) -> Iterator[Step]:
    """A digit whose places in a unit all lie in one cage: the cage holds it, so its sets
    without it go, and it leaves the cage's cells outside the unit."""
    geo, mask, values = state.geo, state.mask, state.values
    cage_of = geo.cage_of
    for v in range(1, geo.n + 1):
        bit = 1 << (v - 1)
        for unit, cells in enumerate(geo.units):
            places = [c for c in cells if mask[c] & bit]
            if not places:
                continue
            number = cage_of[places[0]]
            if number < 0 or any(cage_of[c] != number for c in places):
                continue
            cage = geo.cages[number]
            if cage.total is None or any(values[c] == v for c in cage.cells):
                continue
            open_cells, possible, support, rest = _cage_support(state, cage, need=bit)
            unit_cells = set(cells)
            elims = set()
            for c, s in zip(open_cells, support):
                gone = mask[c] & ~s
                if c not in unit_cells:
                    gone |= mask[c] & bit
                for b in iter_bits(gone):
                    elims.add((c, b + 1))
            if not elims:
                continue
            out = tuple(sorted(elims))
            yield Step(
                "Cage Claiming", RATING_CLAIMING, eliminations=out, cells=tuple(places), units=(unit,),
                values=(v,),
                text=f"Cage Claiming: {v} in {geo.unit_name(unit)} lies only in {_cage_text(geo, cage)} "
                f"({cells_text(geo, places)}), so the cage holds {v}"
                f"{': ' + _combos_text(possible) if possible else ''} ⇒ {elims_text(geo, out)}",
            )


# -- the 45 rule ----------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _groups(geo) -> tuple[tuple[int, str, tuple[int, ...]], ...]:
    """The groups of whole units the 45 rule reads: ``(units, name, cells)``, the single units
    first, then runs of 2 to 4 consecutive rows or columns, then pairs of neighbouring boxes
    (on a shape's own boxes)."""
    out: list[tuple[int, str, tuple[int, ...]]] = []
    for u, cells in enumerate(geo.units):
        out.append((1, geo.unit_name(u), tuple(cells)))
    n = geo.n
    for k in range(2, 5):
        if k >= n:
            break
        for kind, lines in (("rows", geo.rows), ("columns", geo.cols)):
            for first in range(n - k + 1):
                cells = tuple(sorted(c for u in lines[first:first + k] for c in geo.units[u]))
                out.append((k, f"{kind} {first + 1}-{first + k}", cells))
    shape = geo.shape
    boxes = [tuple(sorted(geo.units[u])) for u in geo.boxes]
    if boxes == [tuple(sorted(b)) for b in (shape.geometry.units[u] for u in shape.geometry.boxes)]:
        across = n // shape.box_cols  # boxes per band
        for i in range(n):
            right, below = i + 1, i + across
            if right % across and right < n:
                out.append((2, f"boxes {i + 1},{right + 1}", tuple(sorted(boxes[i] + boxes[right]))))
            if below < n:
                out.append((2, f"boxes {i + 1},{below + 1}", tuple(sorted(boxes[i] + boxes[below]))))
    return tuple(out)


def _apart(geo, cells: Sequence[int]) -> list[int]:
    """Per cell of ``cells``, the bit set of the others (by position) it must differ from: those it
    sees through a unit or shares a cage with."""
    peer_mask, cage_of = geo.peer_mask, geo.cage_of
    out = []
    for i, a in enumerate(cells):
        m = 0
        for j, b in enumerate(cells):
            if i != j and (peer_mask[a] >> b & 1 or (cage_of[a] >= 0 and cage_of[a] == cage_of[b])):
                m |= 1 << j
        out.append(m)
    return out


def _sum_eliminations(state: Candidates, cells: list[int], total: int) -> tuple[tuple, str] | None:
    """What ``cells`` adding up to ``total`` removes, and the digit sets when they all differ; None when
    they are too many to try."""
    mask, geo = state.mask, state.geo
    cands = [mask[c] for c in cells]
    apart = _apart(geo, cells)
    every = (1 << len(cells)) - 1
    sets = ""
    if all(a | 1 << i == every for i, a in enumerate(apart)):
        possible, support = distinct_support(cands, total, geo.n)
        sets = _combos_text(possible) if possible else "no digit set fits"
    elif len(cells) <= MAX_LOOSE:
        support = loose_support(cands, total, apart)
    else:
        return None
    elims = tuple((c, b + 1) for c, m, s in zip(cells, cands, support) for b in iter_bits(m & ~s))
    return elims, sets


def _find_45(state: Candidates, units: int) -> Iterator[Step]:
    geo, mask, values = state.geo, state.mask, state.values
    if not geo.cages:
        return
    cage_of, cages = geo.cage_of, geo.cages
    whole = geo.n * (geo.n + 1) // 2
    rating = RATING_45[units]
    for k, name, cells in _groups(geo):
        if k != units:
            continue
        group = set(cells)
        touched: dict[int, int] = {}  # cage -> cells inside the group
        free_open: list[int] = []  # open cells of the group in no cage with a total
        free_sum = 0
        for c in cells:
            number = cage_of[c]
            if number >= 0 and cages[number].total is not None:
                touched[number] = touched.get(number, 0) + 1
            elif values[c]:
                free_sum += values[c]
            else:
                free_open.append(c)
        inside = [i for i, count in touched.items() if count == len(cages[i].cells)]
        crossing = [i for i, count in touched.items() if count < len(cages[i].cells)]
        total = whole * k
        # innies: the group less its cages wholly inside
        inside_sum = sum(cages[i].total for i in inside)
        innies = list(free_open)
        known = free_sum
        for i in crossing:
            for c in cages[i].cells:
                if c in group:
                    if values[c]:
                        known += values[c]
                    else:
                        innies.append(c)
        innies.sort()
        if innies:
            rest = total - inside_sum - known
            why = (f"{name} adds up to {total}; "
                   + (f"the cages inside make {inside_sum}" if inside else "no cage lies inside")
                   + (f", placed digits {known}" if known else ""))
            step = _remainder_step(state, "innies", innies, rest, why, rating, k)
            if step is not None:
                yield step
        # outies: every open cell of the group caged; the cages' cells outside it
        if not free_open and crossing:
            over = sum(cages[i].total for i in touched)
            outies = []
            placed_out = 0
            for i in crossing:
                for c in cages[i].cells:
                    if c not in group:
                        if values[c]:
                            placed_out += values[c]
                        else:
                            outies.append(c)
            outies.sort()
            if outies:
                rest = over - (total - free_sum) - placed_out
                why = (f"the cages over {name} add up to {over}, {name} to {total}"
                       + (f", placed digits {free_sum + placed_out}" if free_sum + placed_out else ""))
                step = _remainder_step(state, "outies", outies, rest, why, rating, k)
                if step is not None:
                    yield step


def _remainder_step(state: Candidates, what: str, cells: list[int], total: int, why: str, rating: float,
                    units: int) -> Step | None:
    geo, mask = state.geo, state.mask
    label = "45 Rule"
    if len(cells) == 1:
        cell = cells[0]
        if not 1 <= total <= geo.n or not mask[cell] >> (total - 1) & 1:
            return None  # impossible: a contradiction other steps will meet
        return Step(
            label, rating, placements=((cell, total),), cells=(cell,), values=(total,),
            text=f"45 Rule: {why}, so the one cell of the {what} {geo.cell_name(cell)}={total}",
        )
    got = _sum_eliminations(state, cells, total)
    if got is None or not got[0]:
        return None
    elims, sets = got
    return Step(
        label, rating, eliminations=elims, cells=tuple(cells), values=tuple(sorted({v for _, v in elims})),
        text=f"45 Rule: {why}, so the {what} {'+'.join(geo.cell_name(c) for c in cells)} = {total}"
        f"{' (' + sets + ')' if sets else ''} ⇒ {elims_text(geo, elims)}",
    )


def find_innies_one(state: Candidates) -> Iterator[Step]:
    return _find_45(state, 1)


def find_innies_two(state: Candidates) -> Iterator[Step]:
    return _find_45(state, 2)


def find_innies_three(state: Candidates) -> Iterator[Step]:
    return _find_45(state, 3)


def find_innies_four(state: Candidates) -> Iterator[Step]:
    return _find_45(state, 4)


CAGE_COMBINATIONS = Technique("Cage Combinations", RATING_COMBINATIONS, "cages", find_cage_combinations)
RULE_45_ONE = Technique("45 Rule", RATING_45[1], "cages", find_innies_one, "one unit")
RULE_45_TWO = Technique("45 Rule", RATING_45[2], "cages", find_innies_two, "two units")
RULE_45_THREE = Technique("45 Rule", RATING_45[3], "cages", find_innies_three, "three units")
RULE_45_FOUR = Technique("45 Rule", RATING_45[4], "cages", find_innies_four, "four units")
CAGE_POINTING = Technique("Cage Pointing", RATING_POINTING, "cages", find_cage_pointing)
CAGE_CLAIMING = Technique("Cage Claiming", RATING_CLAIMING, "cages", find_cage_claiming)

#: The killer techniques, each inserted in a killer's ladder after the techniques rated the same or lower.
TECHNIQUES = (CAGE_COMBINATIONS, RULE_45_ONE, RULE_45_TWO, CAGE_POINTING, RULE_45_THREE, CAGE_CLAIMING,
              RULE_45_FOUR)

#: Families and techniques a killer's ladder leaves out: the uniqueness patterns (a deadly
#: pattern's two solutions may differ in a cage's sum) and the nested forcing chains (their
#: helpers read units only, at a cost far above what they find here).
LEFT_OUT_FAMILIES = ("uniqueness",)
#: The first rating a killer's ladder no longer reaches: a killer it cannot finish rates at least this.
KILLER_FLOOR = 9.0

_LADDERS: dict = {}


def killer_ladder(base: "list[Technique]") -> list[Technique]:
    """The ladder of a killer from ``base`` (the ladder of its units): the killer techniques at
    their ratings, without the uniqueness techniques and without the tiers from
    :data:`KILLER_FLOOR` up. Cached per base list."""
    key = (id(base), tuple(id(t) for t in base))
    got = _LADDERS.get(key)
    if got is not None:
        return got
    out = [t for t in base if t.family not in LEFT_OUT_FAMILIES and t.rating < KILLER_FLOOR]
    for technique in TECHNIQUES:
        i = len(out)
        while i > 0 and out[i - 1].rating > technique.rating:
            i -= 1
        out.insert(i, technique)
    _LADDERS[key] = out
    return out
