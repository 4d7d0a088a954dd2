"""Crook's preemptive sets, fast: work queues, complement search and a clock.

:mod:`sudokit.methods.preemptive` states Crook's steps plainly; this module
reaches the same fixpoint quickly, and is what that module's ``solutions`` and
``deduce`` run. Three speed-ups:

* **Work queues.** Only a unit whose cells changed is looked at again, and the
  cheap sets go first: single cells (m = 1) and single values with one place
  (m = k - 1, Crook's "occupancy") in every unit before a unit is searched for
  sets of every size. The order does not change the fixpoint: a preemptive set
  stays preemptive as candidates disappear.
* **Complement search.** Among ``k`` open cells of a unit, a preemptive set of
  ``m > k/2`` cells is found through its complement: the ``k - m`` values that
  fit only in the other ``k - m`` cells, which then keep only those values
  (the same effect as crossing the set's values out of them). Subsets are
  grown cell by cell (value by value for complements) and dropped as soon as
  their candidates outnumber half the open cells, so no unit pass looks at
  more than the subsets of at most ``k/2`` open cells, and usually at very few.
* **A clock.** The subset search reads the budget's clock every
  :data:`_CLOCK_EVERY` steps, so a time limit stops even one long pass.

``m`` cells with fewer than ``m`` candidates between them, a cell with none,
or a value with no place in a unit is a dead end
(:class:`~sudokit.errors.Contradiction`, with the cells or values named).

>>> from sudokit.budget import Budget
>>> from sudokit.grid import Shape
>>> shape = Shape(2, 2)
>>> cands = [1, 15, 4, 15] + [15] * 12   # r1c1 = 1, r1c3 = 3
>>> fixpoint(cands, shape, Budget())
>>> values_of(cands[1]), values_of(cands[3])
([2, 4], [2, 4])
"""

from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator

from ..budget import Budget
from ..errors import Contradiction
from ..geometry import Geometry
from ..grid import DEFAULT_SYMBOLS, Shape

#: Per cell, a bit mask of its candidates: bit ``v - 1`` for value ``v``.
Markup = list[int]

# How many subset steps between two looks at the clock.
_CLOCK_EVERY = 256


def values_of(mask: int) -> list[int]:
    """The values in a candidate mask, in increasing order.

    >>> values_of(0b1010)
    [2, 4]
    """
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length())
        mask ^= low
    return found


def _symbol(shape: Shape, value: int) -> str:
    return DEFAULT_SYMBOLS[value - 1] if shape.size <= len(DEFAULT_SYMBOLS) else str(value)


class _Clock:
    """Counts subset steps so the budget's clock is read every so many."""

    __slots__ = ("budget", "steps")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.steps = 0


def _locked_subsets(masks: list[int], most: int, clock: _Clock) -> Iterator[tuple[int, int, int]]:
    """Subsets of ``masks`` with at most ``most`` members whose union has at
    most as many bits as the subset has members.

    Yields ``(members, union, size)``, ``members`` a bit mask over the
    indices of ``masks``. The subsets grow in index order; one is dropped,
    with all its supersets, once its union has more than ``most`` bits.

    >>> [(bin(m), bin(u), s) for m, u, s in _locked_subsets([0b011, 0b110, 0b011], 2, _Clock(Budget()))]
    [('0b101', '0b11', 2)]
    """

    def grow(start: int, members: int, union: int, size: int) -> Iterator[tuple[int, int, int]]:
        clock.steps += 1
        if not clock.steps % _CLOCK_EVERY:
            clock.budget.check_time()
        for i in range(start, len(masks)):
            joined = union | masks[i]
            bits = joined.bit_count()
            if bits > most:
                continue
            with_i = members | 1 << i
            if bits <= size + 1:
                yield with_i, joined, size + 1
            if size + 1 < most:
                yield from grow(i + 1, with_i, joined, size + 1)

    return grow(0, 0, 0, 0)


def _unit_pass(cands: Markup, cells: tuple[int, ...], name: str, shape: Shape, clock: _Clock,
               deep: bool) -> set[int]:
    """Apply preemptive sets in one unit until none is left; the changed cells.

    A shallow pass (``deep=False``) looks only for the cheap sets: single
    cells (m = 1) and single values with one place (m = k - 1). A deep pass
    looks for sets of every size.
    """
    changed: set[int] = set()
    full = (1 << shape.size) - 1
    while True:
        # m = 1: a cell with one candidate crosses it out of the rest of the unit
        settled = 0
        for c in cells:
            m = cands[c]
            if not m & (m - 1):
                if settled & m:
                    raise Contradiction(
                        f"{_symbol(shape, m.bit_length())} is the only candidate of two cells "
                        f"in {name}, so {shape.cell_name(c)} is left with none"
                    )
                settled |= m
        again = False
        opens: list[int] = []
        masks: list[int] = []
        once = twice = 0  # the values seen in at least one / two open cells
        for c in cells:
            m = cands[c]
            if m & (m - 1):
                if m & settled:
                    m &= ~settled
                    if not m:
                        raise Contradiction(f"no candidate is left for {shape.cell_name(c)} in {name}")
                    cands[c] = m
                    changed.add(c)
                    if not m & (m - 1):
                        again = True
                        continue
                opens.append(c)
                masks.append(m)
                twice |= once & m
                once |= m
        if again:
            continue
        k = len(opens)
        if k == 0:
            return changed
        missing = full & ~settled & ~once
        if missing:
            value = (missing & -missing).bit_length()
            raise Contradiction(f"{_symbol(shape, value)} has no place in {name}")
        # m = k - 1: a value with one place; the other k - 1 cells are preemptive
        lonely = once & ~twice
        if lonely:
            for c, m in zip(opens, masks):
                only = m & lonely
                if only:
                    if only & (only - 1):
                        both = " and ".join(_symbol(shape, v) for v in values_of(only))
                        raise Contradiction(f"{shape.cell_name(c)} is the only place for both {both} in {name}")
                    cands[c] = only
                    changed.add(c)
            continue
        if not deep or k < 4:  # fewer open cells hold no set that singles miss
            return changed
        if _naked(cands, opens, masks, k // 2, name, shape, clock, changed):
            continue
        if _hidden(cands, opens, masks, full & ~settled, (k - 1) // 2, name, shape, clock, changed):
            continue
        return changed


def _naked(cands: Markup, opens: list[int], masks: list[int], most: int, name: str,
           shape: Shape, clock: _Clock, changed: set[int]) -> bool:
    """Find a preemptive set of 2..most open cells that crosses something out."""
    if most < 2:
        return False
    for members, union, size in _locked_subsets(masks, most, clock):
        if union.bit_count() < size:
            cells = ", ".join(shape.cell_name(opens[j]) for j in range(len(opens)) if members >> j & 1)
            raise Contradiction(f"{cells} have only {union.bit_count()} candidates between them in {name}")
        others = [j for j in range(len(opens)) if not members >> j & 1 and masks[j] & union]
        if others:
            for j in others:
                left = masks[j] & ~union
                if not left:
                    raise Contradiction(f"no candidate is left for {shape.cell_name(opens[j])} in {name}")
                cands[opens[j]] = left
                changed.add(opens[j])
            return True
    return False


def _hidden(cands: Markup, opens: list[int], masks: list[int], open_values: int, most: int,
            name: str, shape: Shape, clock: _Clock, changed: set[int]) -> bool:
    """Find the complement of a preemptive set: 1..most values that fit only
    in as many open cells, which then keep only those values.

    Single values (one place) are handled before, in :func:`_unit_pass`."""
    if most < 2:
        return False
    values = values_of(open_values)
    places = []
    for v in values:
        bit = 1 << (v - 1)
        places.append(sum(1 << j for j, m in enumerate(masks) if m & bit))
    for members, where, size in _locked_subsets(places, most, clock):
        keep = 0
        for i, v in enumerate(values):
            if members >> i & 1:
                keep |= 1 << (v - 1)
        if where.bit_count() < size:
            names = ", ".join(_symbol(shape, v) for v in values_of(keep))
            raise Contradiction(f"{names} have only {where.bit_count()} places between them in {name}")
        spots = [j for j in range(len(opens)) if where >> j & 1 and masks[j] & ~keep]
        if spots:
            for j in spots:
                cands[opens[j]] = masks[j] & keep
                changed.add(opens[j])
            return True
    return False


def fixpoint(cands: Markup, shape: "Shape | Geometry", budget: Budget, units: Iterable[int] | None = None) -> None:
    """Apply preemptive sets in every unit until none crosses anything out.
    ``shape`` gives the units: a shape's, or a variant's geometry.

    ``units`` are the indices (into ``shape.units``) to look at first; every
    unit whose cells change is looked at again, shallow passes first. Changes
    ``cands`` in place. Raises Contradiction at a dead end.
    """
    all_units, units_of, names = shape.units, shape.units_of, shape.unit_names
    start = list(range(len(all_units)) if units is None else units)
    shallow, deep = deque(start), deque(start)
    in_shallow = [False] * len(all_units)
    in_deep = [False] * len(all_units)
    for u in start:
        in_shallow[u] = in_deep[u] = True
    clock = _Clock(budget)
    while shallow or deep:
        if shallow:
            u = shallow.popleft()
            in_shallow[u] = False
            thorough = False
        else:
            u = deep.popleft()
            in_deep[u] = False
            thorough = True
        budget.check_time()
        for c in _unit_pass(cands, all_units[u], names[u], shape, clock, thorough):
            for w in units_of[c]:
                if w != u:
                    if not in_shallow[w]:
                        in_shallow[w] = True
                        shallow.append(w)
                    if not in_deep[w]:
                        in_deep[w] = True
                        deep.append(w)

