"""Killer techniques: cage combinations, the 45 rule, cage pointing and claiming, combination
clash, and a trial.

A killer cage (:class:`sudokit.killer.Cage`) holds different digits that add
up to its total. The candidate state already keeps only each cage's sum
digits (:meth:`Candidates.from_grid`) and a placed digit leaves its cage
(:meth:`Candidates.place`); these techniques do the rest, as steps of the
ladder (:func:`killer_ladder`; docs/variants.md, "Killer logic"):

* **Cage Combinations** (1.6): a digit set of the cage's size and total is
  *possible* when the open cells can take its digits one each from their
  candidates; a candidate that no possible set can put in its cell (given
  the others) goes. It covers a cage's own naked and hidden subsets and its
  hidden single.
* **45 Rule** (2.0 for one unit, 2.4 / 2.8 / 3.2 for two / three / four;
  innies less outies 0.2 more): a unit adds up to N(N+1)/2 (45 on a 9x9), k
  units to k times that. The cages wholly inside a group of units leave its
  other cells, the *innies*, a known sum; when every cell of the group is
  caged, the cells of its cages that stick out, the *outies*, have a known
  sum too; a crossing cage with fewer cells outside than inside may count as
  its total less its outer cells (*innies less outies*). One cell is placed;
  several are a virtual cage, pruned like a cage when they all see each
  other, by trying every assignment when they are at most :data:`MAX_LOOSE`,
  by bounds beyond. The groups are each unit, runs of 2 to 4 consecutive
  rows or columns, and two neighbouring boxes.
* **Cage Pointing** (2.6): a digit that every possible set of a cage needs,
  whose places in the cage all see some cells outside it (they lie in one
  unit), leaves those cells.
* **Cage Claiming** (2.8): a digit whose places in a unit all lie in one
  cage must be in that cage: the cage's sets without it are impossible, and
  it leaves the cage's cells outside the unit.
* **Combination Clash** (3.0): the cages wholly inside a unit and the rest
  of its open cells (a known sum) take different digits; a set of one part
  that leaves the others nothing that fits goes.
* **Cage Contradiction** (8.8), a trial: a candidate whose placing makes the
  killer search's propagation (:func:`sudokit.engine.killer.propagate_k`)
  meet a contradiction goes.

The classic techniques keep running over the geometry's units; the
uniqueness techniques do not (a cage can tell the two halves of a deadly
pattern apart), nor the nested forcing chains (their helpers read units
only). Ratings are sudokit's own: SE has no killer ladder.

>>> from sudokit.geometry import Geometry, Shape
>>> from sudokit.grid import Grid
>>> from sudokit.killer import Cage
>>> from sudokit.logic.state import Candidates
>>> geo = Geometry.of(Shape(2, 2)).with_cages([Cage((0, 1), 3), Cage((2, 6), 4), Cage((3, 7), 6)])
>>> state = Candidates.from_grid(Grid.empty((2, 2)).with_geometry(geo))
>>> print(next(RULE_45[1, False].find(state)))
45 Rule: row 1 adds up to 10, so the innies r1c3+r1c4 = 10 - 3 (cages inside) = 7 ({3,4}) ⇒ r1c3<>1, r1c4<>2
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Iterator, Sequence

from ..killer import sum_sets
from .state import Candidates, iter_bits
from .step import Step, Technique, cells_text, elims_text

RATING_COMBINATIONS = 1.6
RATING_45 = {1: 2.0, 2: 2.4, 3: 2.8, 4: 3.2}
#: The 45 rule's innies less outies (a crossing cage's inner cells traded for its outer ones).
RATING_45_MIXED = {1: 2.2, 2: 2.6, 3: 3.0, 4: 3.4}
RATING_POINTING = 2.6
RATING_CLAIMING = 2.8
RATING_CLASH = 3.0
#: A trial of the killer rules' propagation: after the classic chains, below :data:`KILLER_FLOOR`.
RATING_CONTRADICTION = 8.8

#: The most work (digit sets times the widest layer of partial sets) a cage or remainder of
#: different digits is matched with; beyond it, each cell keeps its digits of the possible sets.
MATCH_WORK = 2000

#: The most cells of a 45-rule remainder whose digits may repeat (cells that do not all see each
#: other) that is pruned by trying every assignment; a remainder of cells that all see each other
#: has no limit.
MAX_LOOSE = 4


# -- sums over cells ------------------------------------------------------------------------


def distinct_support(cands: Sequence[int], total: int, n: int) -> tuple[list[int], list[int]]:
    """For open cells with candidate masks ``cands`` that take different digits adding up to
    ``total``: the possible digit sets (masks) and, per cell, the digits some possible
    assignment puts there (:func:`set_support` for each set of that size and total).

    >>> distinct_support([0b111, 0b011], 4, 3)     # two cells, 4 = 1+3: the second cannot be 3
    ([5], [4, 1])
    """
    possible, support = _distinct(tuple(cands), total, n)
    return list(possible), list(support)


@lru_cache(maxsize=1 << 16)
def _distinct(cands: tuple[int, ...], total: int, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`distinct_support`, cached: a cage's candidates seldom change from one step to the next."""
    union = 0
    for m in cands:
        union |= m
    support = [0] * len(cands)
    possible = []
    sets = [d for d in sum_sets(n, len(cands), total) if not d & ~union and all(m & d for m in cands)]
    if len(sets) * comb(len(cands), len(cands) // 2) > MATCH_WORK:
        # too many to match (a long remainder on a big grid): each cell keeps its digits of the sets
        # that every cell meets, a superset of what the matching would keep
        every = 0
        for d in sets:
            every |= d
        return tuple(sets), tuple(m & every for m in cands)
    for digits in sets:
        got = set_support(cands, digits)
        if got is not None:
            possible.append(digits)
            support = [a | b for a, b in zip(support, got)]
    return tuple(possible), tuple(support)


def set_support(cands: Sequence[int], digits: int) -> list[int] | None:
    """Per cell, the digits of the set ``digits`` it can hold when the cells take them one each
    from their candidates ``cands``; None when they cannot.

    The layers ``ahead[i]`` (the digit sets the first i cells can take) and ``behind[i]`` (the
    last ones) tell which cell can hold which digit.
    """
    k = len(cands)
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
        return None
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
    support = [0] * k
    for i in range(k):
        got = 0
        for s in ahead[i]:
            avail = cands[i] & digits & ~s & ~got
            while avail:
                b = avail & -avail
                if digits & ~s & ~b in behind[i + 1]:
                    got |= b
                avail ^= b
        support[i] = got
    return support


def loose_support(cands: Sequence[int], total: int, apart: Sequence[int],
                  signs: Sequence[int] | None = None) -> list[int]:
    """Per cell, the digits some assignment puts there, for cells whose digits, each times its
    sign (+1 by default, -1 for a cell taken away), add up to ``total``, where cell i differs
    only from the cells in the bit set ``apart[i]`` (those it sees): every assignment is tried,
    cut by the least and most the cells left can make.

    >>> [bin(m) for m in loose_support([0b1111, 0b1111], 2, [0, 0])]   # 2 = 1+1: both may be 1
    ['0b1', '0b1']
    >>> [bin(m) for m in loose_support([0b1111, 0b0011], 2, [0, 0], [1, -1])]  # a - b = 2
    ['0b1100', '0b11']
    """
    return list(_loose(tuple(cands), total, tuple(apart), tuple([1] * len(cands) if signs is None else signs)))


@lru_cache(maxsize=1 << 14)
def _loose(cands: tuple[int, ...], total: int, apart: tuple[int, ...], signs: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`loose_support`, cached."""
    k = len(cands)
    lo = [min(s * (m & -m).bit_length(), s * m.bit_length()) for m, s in zip(cands, signs)]
    hi = [max(s * (m & -m).bit_length(), s * m.bit_length()) for m, s in zip(cands, signs)]
    low_after = [0] * (k + 1)
    high_after = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        low_after[i] = low_after[i + 1] + lo[i]
        high_after[i] = high_after[i + 1] + hi[i]
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
            if walk(i + 1, left - signs[i] * (b + 1)):
                support[i] |= 1 << b
                found = True
        return found

    walk(0, total)
    return tuple(support)


def bound_support(cands: Sequence[int], total: int, signs: Sequence[int]) -> list[int]:
    """Per cell, its candidates whose value, each cell times its sign, leaves the rest a total
    between the least and the most they can make (digits may repeat).

    >>> [bin(m) for m in bound_support([0b111111111] * 5, 41, [1] * 5)]   # 41 = 9+9+9+9+5 at least 5
    ['0b111110000', '0b111110000', '0b111110000', '0b111110000', '0b111110000']
    """
    lo = [min(s * (m & -m).bit_length(), s * m.bit_length()) for m, s in zip(cands, signs)]
    hi = [max(s * (m & -m).bit_length(), s * m.bit_length()) for m, s in zip(cands, signs)]
    low, high = sum(lo), sum(hi)
    out = []
    for m, s, a, b in zip(cands, signs, lo, hi):
        keep = 0
        for bit in iter_bits(m):
            v = s * (bit + 1)
            if low - a <= total - v <= high - b:
                keep |= 1 << bit
        out.append(keep)
    return out


def _combos_text(possible: Sequence[int], limit: int = 6) -> str:
    """``{1,5} {2,4}``: the possible digit sets in the order of their digits, the first ``limit``."""
    ordered = sorted(tuple(b + 1 for b in iter_bits(d)) for d in possible)
    shown = ["{" + ",".join(map(str, digits)) + "}" for digits in ordered[:limit]]
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


# -- combination clash ---------------------------------------------------------------------


def _unit_parts(state: Candidates, unit: int) -> list[tuple[str, list[int], list[int]]]:
    """The parts of a unit's open cells whose digits sets are known: each cage wholly inside it
    (with a total and an open cell) and the rest of its open cells, whose sum the 45 rule gives:
    ``(name, open cells, possible digit sets)``."""
    geo, values = state.geo, state.values
    cage_of, cages = geo.cage_of, geo.cages
    cells = geo.units[unit]
    here = set(cells)
    parts = []
    done = set()
    rest_cells = []
    rest = geo.n * (geo.n + 1) // 2
    for c in cells:
        number = cage_of[c]
        if number >= 0 and cages[number].total is not None and all(x in here for x in cages[number].cells):
            if number not in done:
                done.add(number)
                cage = cages[number]
                rest -= cage.total
                open_cells, possible, _, _ = _cage_support(state, cage)
                if open_cells:
                    parts.append((_cage_text(geo, cage), open_cells, possible))
        elif values[c]:
            rest -= values[c]
        else:
            rest_cells.append(c)
    if rest_cells:
        possible, _ = distinct_support([state.mask[c] for c in rest_cells], rest, geo.n)
        parts.append((f"the rest {'+'.join(geo.cell_name(c) for c in rest_cells)}={rest}", rest_cells, possible))
    return parts


def find_combination_clash(state: Candidates) -> Iterator[Step]:
    """Units in order: the cages wholly inside a unit and the rest of its open cells (a known sum
    by the 45 rule) take different digits: a digit set of one that leaves the others no sets that
    fit beside it goes, and with it the candidates only it gave."""
    geo, mask, values = state.geo, state.mask, state.values
    full = (1 << geo.n) - 1
    for unit, cells in enumerate(geo.units):
        if sum(1 for c in cells if not values[c]) < 3:
            continue
        parts = _unit_parts(state, unit)
        if len(parts) < 2 or any(not possible for _, _, possible in parts):
            continue
        if all(len(possible) == 1 for _, _, possible in parts):
            continue
        free = full
        for c in cells:
            if values[c]:
                free &= ~(1 << (values[c] - 1))
        ahead = [{0}]
        for _, _, possible in parts:
            ahead.append({s | d for s in ahead[-1] for d in possible if not s & d})
            if len(ahead[-1]) * len(possible) > MATCH_WORK:
                break
        else:
            ahead.append(set())  # marks a unit followed to the end
        if len(ahead) != len(parts) + 2:
            continue  # too many partial sets to follow (a big grid's open unit)
        ahead.pop()
        behind = [set() for _ in parts] + [{0}]
        for i in range(len(parts) - 1, -1, -1):
            behind[i] = {s | d for s in behind[i + 1] for d in parts[i][2] if not s & d}
        elims: set[tuple[int, int]] = set()
        dropped = []
        for i, (name, open_cells, possible) in enumerate(parts):
            kept = [d for d in possible if any(not s & d and free & ~s & ~d in behind[i + 1] for s in ahead[i])]
            if len(kept) == len(possible):
                continue
            dropped.append(f"{name}: {_combos_text(kept) if kept else 'no set'}")
            support = [0] * len(open_cells)
            for d in kept:
                got = set_support([mask[c] for c in open_cells], d)
                if got is not None:
                    support = [a | b for a, b in zip(support, got)]
            for c, sup in zip(open_cells, support):
                for b in iter_bits(mask[c] & ~sup):
                    elims.add((c, b + 1))
        if elims:
            out = tuple(sorted(elims))
            yield Step(
                "Combination Clash", RATING_CLASH, eliminations=out, cells=tuple(c for _, oc, _ in parts for c in oc),
                units=(unit,), values=tuple(sorted({v for _, v in out})),
                text=f"Combination Clash: in {geo.unit_name(unit)}, "
                f"{'; '.join(f'{name} {_combos_text(p)}' for name, _, p in parts)} take different digits, "
                f"which leaves {'; '.join(dropped)} ⇒ {elims_text(geo, out)}",
            )


# -- cage contradiction (a trial) ------------------------------------------------------------


def _propagator(geo):
    """A function ``(masks) -> bool`` running the killer search's propagation
    (:func:`sudokit.engine.killer.propagate_k`: singles with cage-mates as peers, cage
    combinations, the 45 rule's innie cages and bounded sums, locked digits) on a copy of the
    masks; False on a contradiction. None when the compiled search is not available here."""
    try:
        import numpy as np

        from ..engine import killer as kernel
    except Exception:  # numba missing or broken: no trial
        return None
    if geo.n > kernel.MAX_N:
        return None
    t = kernel.tables(geo)
    nn = geo.n * geo.n

    def run(masks) -> "tuple[bool, list[int]]":
        work = np.array(masks, dtype=np.uint64)
        return bool(kernel.propagate_k(
            work, np.zeros(nn, dtype=np.uint8), t.units, t.peers, t.cunits, np.empty(nn, dtype=np.int64), t.ccells,
            t.csize, t.cstart, t.cend, t.combos, t.lcells, t.lsize, t.ltotal,
            np.zeros(max(1, t.ccells.shape[0]), dtype=np.uint64), np.zeros(nn, dtype=np.int64))), \
            [int(m) for m in work]

    return run


def _emptied(geo, masks: list[int]) -> str:
    """What a propagation that failed left empty, as far as its masks show: a cell without a
    digit, a unit without a place for one, or a cage without a digit set."""
    for cell, m in enumerate(masks):
        if not m:
            return f"{geo.cell_name(cell)} has no digit left"
    for unit, cells in enumerate(geo.units):
        seen = 0
        for c in cells:
            seen |= masks[c]
        missing = ((1 << geo.n) - 1) & ~seen
        if missing:
            return f"{geo.unit_name(unit)} has no place left for {(missing & -missing).bit_length()}"
    for cage in geo.cages:
        if cage.total is not None:
            if not distinct_support([masks[c] for c in cage.cells], cage.total, geo.n)[0]:
                return f"{_cage_text(geo, cage)} has no digit set left"
    return "the digits left contradict each other"


def find_cage_contradiction(state: Candidates) -> Iterator[Step]:
    """A trial: a candidate that, placed, leads the propagation of the killer rules (singles,
    cage combinations, the 45 rule, locked digits) to a cell or unit with no digit left goes.
    Cells with the fewest candidates first, then in order; digits ascending."""
    geo, mask, values = state.geo, state.mask, state.values
    if not geo.cages:
        return
    run = _propagator(geo)
    if run is None:
        return
    base = [1 << (v - 1) if v else m for v, m in zip(values, mask)]
    order = sorted((c for c in range(len(values)) if not values[c] and mask[c]),
                   key=lambda c: (mask[c].bit_count(), c))
    for cell in order:
        for b in iter_bits(mask[cell]):
            trial = list(base)
            trial[cell] = 1 << b
            ok, after = run(trial)
            if not ok:
                yield Step(
                    "Cage Contradiction", RATING_CONTRADICTION, eliminations=((cell, b + 1),), cells=(cell,),
                    values=(b + 1,),
                    text=f"Cage Contradiction: if {geo.cell_name(cell)}={b + 1}, the singles, cage sums, 45 rule "
                    f"and locked digits that follow leave a contradiction ({_emptied(geo, after)}) ⇒ "
                    f"{geo.cell_name(cell)}<>{b + 1}",
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


def _sum_eliminations(state: Candidates, plus: list[int], minus: list[int], total: int) -> tuple[tuple, str] | None:
    """What the cells of ``plus`` less those of ``minus`` adding up to ``total`` removes, and the
    digit sets when there is no minus and the cells all differ (pruned by bounds alone when they
    are more than :data:`MAX_LOOSE` cells that may repeat a digit)."""
    mask, geo = state.mask, state.geo
    cells = plus + minus
    cands = [mask[c] for c in cells]
    apart = _apart(geo, cells)
    every = (1 << len(cells)) - 1
    sets = ""
    if not minus and all(a | 1 << i == every for i, a in enumerate(apart)):
        possible, support = distinct_support(cands, total, geo.n)
        sets = _combos_text(possible) if possible else "no digit set fits"
    elif len(cells) <= MAX_LOOSE:
        support = loose_support(cands, total, apart, [1] * len(plus) + [-1] * len(minus))
    else:  # too many to try: bounds, each cell between the total less the most and the least the rest make
        support = bound_support(cands, total, [1] * len(plus) + [-1] * len(minus))
    elims = tuple(sorted((c, b + 1) for c, m, s in zip(cells, cands, support) for b in iter_bits(m & ~s)))
    return elims, sets


def _remainders(state: Candidates, k: int, name: str, cells: tuple[int, ...]):
    """The 45 rule's remainders of one group of ``k`` units: ``(kind, plus, minus, total, why)``,
    open cells whose digits (less those of ``minus``) add up to ``total``: the innies; the outies
    when every open cell of the group is caged; and, when some crossing cage has fewer open cells
    outside the group than inside, the innies with those cages' inner cells traded for their
    outer ones (innies less outies)."""
    geo, values = state.geo, state.values
    cage_of, cages = geo.cage_of, geo.cages
    whole = geo.n * (geo.n + 1) // 2
    group = set(cells)
    touched: dict[int, int] = {}  # cage -> its cells in the group
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
    crossing = sorted(i for i, count in touched.items() if count < len(cages[i].cells))
    total = whole * k
    inside_sum = sum(cages[i].total for i in inside)
    # per crossing cage: (open cells in, placed sum in, open cells out, placed sum out)
    parts = {}
    for i in crossing:
        o_in, p_in, o_out, p_out = [], 0, [], 0
        for c in cages[i].cells:
            if c in group:
                if values[c]:
                    p_in += values[c]
                else:
                    o_in.append(c)
            elif values[c]:
                p_out += values[c]
            else:
                o_out.append(c)
        parts[i] = (o_in, p_in, o_out, p_out)
    lead = f"{name} {'adds' if k == 1 else 'add'} up to {total}"

    def form(switched: list[int]) -> tuple[list[int], list[int], int, str]:
        """The cells, the total and its sum as text, with the cages of ``switched`` counted by
        their outer cells (a crossing cage's inner cells add up to its total less its outer ones)."""
        plus, minus = list(free_open), []
        traded = placed = 0
        for i in crossing:
            o_in, p_in, o_out, p_out = parts[i]
            if i in switched:
                minus += o_out
                traded += cages[i].total
                placed -= p_out
            else:
                plus += o_in
                placed += p_in
        placed += free_sum
        rest = total - inside_sum - traded - placed
        return sorted(plus), sorted(minus), rest, _terms(
            (total, ""), (-inside_sum, "cages inside"), (-traded, "cages traded"), (-placed, "placed"))

    plus, minus, rest, arith = form([])
    if plus:
        yield "innies", plus, minus, rest, lead, arith
    if not free_open and crossing:
        plus, minus, rest, _ = form(crossing)
        if minus:
            over = inside_sum + sum(cages[i].total for i in crossing)
            placed_out = -rest - (over - total + free_sum)
            arith = _terms((over, "cages over it"), (-total, ""), (free_sum, "placed in no cage"),
                           (placed_out, "placed"))
            yield "outies", minus, [], -rest, lead, arith
    switched = [i for i in crossing if 0 < len(parts[i][2]) < len(parts[i][0])]
    if switched and len(switched) < len(crossing) or switched and free_open:
        plus, minus, rest, arith = form(switched)
        if plus and minus:
            traded = ", ".join(_cage_text(geo, cages[i]) for i in switched)
            word = "counts" if len(switched) == 1 else "count"
            yield ("innies less outies", plus, minus, rest, f"{lead}; {traded} {word} as its total less its "
                   "outer cells", arith)


def _terms(*terms: tuple[int, str]) -> str:
    """``90 - 70 (cages inside) - 4 (placed)``: the non-zero terms of a sum, signed."""
    out = ""
    for value, what in terms:
        if not value and out:
            continue
        sign = "-" if value < 0 else "+"
        text = f"{abs(value)}{f' ({what})' if what else ''}"
        out = (f"-{text}" if value < 0 else text) if not out else f"{out} {sign} {text}"
    return out


def _find_45(state: Candidates, units: int, mixed: bool) -> Iterator[Step]:
    geo = state.geo
    if not geo.cages:
        return
    rating = (RATING_45_MIXED if mixed else RATING_45)[units]
    for k, name, cells in _groups(geo):
        if k != units:
            continue
        for kind, plus, minus, total, lead, arith in _remainders(state, k, name, cells):
            if (kind == "innies less outies") != mixed:
                continue
            step = _remainder_step(state, kind, plus, minus, total, lead, arith, rating)
            if step is not None:
                yield step


def _remainder_step(state: Candidates, what: str, plus: list[int], minus: list[int], total: int, lead: str,
                    arith: str, rating: float) -> Step | None:
    geo, mask = state.geo, state.mask
    if not minus and len(plus) == 1:
        cell = plus[0]
        if not 1 <= total <= geo.n or not mask[cell] >> (total - 1) & 1:
            return None  # impossible: a contradiction other steps will meet
        return Step(
            "45 Rule", rating, placements=((cell, total),), cells=(cell,), values=(total,),
            text=f"45 Rule: {lead}, so the one cell of the {what} {geo.cell_name(cell)} = {arith} = {total}",
        )
    got = _sum_eliminations(state, plus, minus, total)
    if got is None or not got[0]:
        return None
    elims, sets = got
    expr = "+".join(geo.cell_name(c) for c in plus) + "".join(f"-{geo.cell_name(c)}" for c in minus)
    return Step(
        "45 Rule", rating, eliminations=elims, cells=tuple(plus + minus), values=tuple(sorted({v for _, v in elims})),
        text=f"45 Rule: {lead}, so the {what} {expr} = {arith} = {total}{' (' + sets + ')' if sets else ''} ⇒ "
        f"{elims_text(geo, elims)}",
    )


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _rule_45(units: int, mixed: bool) -> Technique:
    def find(state: Candidates) -> Iterator[Step]:
        return _find_45(state, units, mixed)

    find.__name__ = f"find_45_{_WORDS[units]}{'_mixed' if mixed else ''}"
    where = f"{_WORDS[units]} unit{'s' if units > 1 else ''}"
    return Technique("45 Rule", (RATING_45_MIXED if mixed else RATING_45)[units], "cages", find,
                     f"{where}, innies less outies" if mixed else where)


CAGE_COMBINATIONS = Technique("Cage Combinations", RATING_COMBINATIONS, "cages", find_cage_combinations)
RULE_45 = {(k, mixed): _rule_45(k, mixed) for k in RATING_45 for mixed in (False, True)}
CAGE_POINTING = Technique("Cage Pointing", RATING_POINTING, "cages", find_cage_pointing)
CAGE_CLAIMING = Technique("Cage Claiming", RATING_CLAIMING, "cages", find_cage_claiming)
COMBINATION_CLASH = Technique("Combination Clash", RATING_CLASH, "cages", find_combination_clash)
CAGE_CONTRADICTION = Technique("Cage Contradiction", RATING_CONTRADICTION, "cages", find_cage_contradiction)

#: The killer techniques, each inserted in a killer's ladder after the techniques rated the same or lower.
TECHNIQUES = tuple(sorted((CAGE_COMBINATIONS, *RULE_45.values(), CAGE_POINTING, CAGE_CLAIMING, COMBINATION_CLASH,
                           CAGE_CONTRADICTION),
                          key=lambda t: t.rating))

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
