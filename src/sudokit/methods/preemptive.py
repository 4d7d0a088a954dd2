"""Crook's pencil-and-paper algorithm: markup, preemptive sets, then a guess.

J. F. Crook, "A pencil-and-paper algorithm for solving Sudoku puzzles",
Notices of the AMS 56(4), 2009, pp. 460-468.

The **markup** lists the candidates of each cell: a given is its own value,
a blank starts with every value. A **preemptive set** is a set of ``m``
cells of one unit (row, column or box) whose candidates, together, number
exactly ``m``. Crook's theorem: those ``m`` values must fill those ``m``
cells, so they can be crossed out of every other cell of the unit. This
module applies the theorem for every size, in every unit, until nothing
changes:

* ``m = 1`` is a cell with one candidate; its value is crossed out of the
  rest of the unit (a given starts as such a cell, which builds the markup).
* ``2 <= m`` are naked pairs, triples and so on. Among ``k`` open cells of a
  unit, a preemptive set of ``m > k/2`` cells is found through its
  complement: the ``k - m`` values that fit only in the other ``k - m``
  cells. Keeping just those values in those cells has the same effect as
  crossing the set's values out of them. With ``k - m = 1`` this is Crook's
  "occupancy" step (a value with one place in a unit), which his theorem
  implies.

Subsets are grown cell by cell (value by value for complements) and dropped
as soon as their candidates outnumber half the open cells, so no unit pass
looks at more than the subsets of at most ``k/2`` open cells, and usually
at very few. ``m`` cells with fewer than ``m`` candidates between them, a
cell with none, or a value with no place in a unit, is a **dead end**.

When the preemptive sets run out, Crook picks a cell and tries its
candidates one at a time, backtracking from dead ends. Here the cell is one
with the fewest candidates (Crook chooses at random), and the values are
tried in increasing order, so the search is repeatable.

>>> from sudokit.budget import Budget
>>> from sudokit.grid import Grid
>>> puzzle = Grid("1.3.....2...4..1", shape=(2, 2))
>>> deduce(puzzle, Budget()).line()   # r1c2 and r1c4 keep the pair {2, 4}
'1.3.3.1.21434321'
>>> [g.line() for g in solutions(puzzle, Budget())]
['1234341221434321', '1432321421434321']
"""

from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator

from ..budget import Budget
from ..errors import Contradiction
from ..grid import DEFAULT_SYMBOLS, Grid, Shape

#: Per cell, a bit mask of its candidates: bit ``v - 1`` for value ``v``.
Markup = list[int]

# How many subset steps between two looks at the clock.
_CLOCK_EVERY = 256


def markup(grid: Grid) -> Markup:
    """A single candidate for each given, every value for each blank.

    Crossing the givens out of their peers is the first round of
    :func:`propagate` (preemptive sets of one cell).

    >>> markup(Grid("1...............", shape=(2, 2)))[:2]
    [1, 15]
    """
    full = (1 << grid.size) - 1
    return [1 << (v - 1) if v else full for v in grid.values]


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


def propagate(cands: Markup, shape: Shape, budget: Budget, units: Iterable[int] | None = None) -> None:
    """Apply preemptive sets in every unit until none crosses anything out.

    ``units`` are the indices (into ``shape.units``) to look at first; every
    unit whose cells change is looked at again. The cheap sets (single cells,
    single places) go first; a unit is searched for sets of every size only
    when they have run out everywhere. The order does not change the
    fixpoint: a preemptive set stays preemptive as candidates disappear.
    Changes ``cands`` in place. Raises Contradiction at a dead end.

    >>> shape = Shape(2, 2)
    >>> cands = markup(Grid("1.3.............", shape=shape))
    >>> propagate(cands, shape, Budget())
    >>> values_of(cands[1]), values_of(cands[3])
    ([2, 4], [2, 4])
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


def _fewest(cands: Markup) -> int | None:
    """An open cell with the fewest candidates (the first such), or None."""
    best, best_count = None, 1 << 30
    for c, m in enumerate(cands):
        if m & (m - 1):
            n = m.bit_count()
            if n < best_count:
                best, best_count = c, n
                if n == 2:
                    break
    return best


def _grid(cands: Markup, shape: Shape) -> Grid:
    """The cells with a single candidate, as a grid (0 elsewhere)."""
    return Grid._trusted(shape, tuple(m.bit_length() if not m & (m - 1) else 0 for m in cands))


def solutions(grid: Grid, budget: Budget, **options: object) -> Iterator[Grid]:
    """Every solution, lazily: preemptive sets at each node, then a guess at a
    cell with the fewest candidates, values in increasing order.

    >>> sum(1 for _ in solutions(Grid.empty((1, 2)), Budget()))
    2
    """
    shape = grid.shape
    units_of = shape.units_of
    cands = markup(grid)
    budget.tick()
    try:
        propagate(cands, shape, budget)
    except Contradiction:
        return
    cell = _fewest(cands)
    if cell is None:
        yield _grid(cands, shape)
        return
    budget.guess()
    # Each frame: the markup at a fixpoint, the guessed cell, its values, the next one to try.
    stack: list[tuple[Markup, int, list[int], list[int]]] = [(cands, cell, values_of(cands[cell]), [0])]
    while stack:
        parent, cell, values, index = stack[-1]
        if index[0] == len(values):
            stack.pop()
            continue
        value = values[index[0]]
        index[0] += 1
        budget.tick()
        child = parent.copy()
        child[cell] = 1 << (value - 1)
        try:
            propagate(child, shape, budget, units_of[cell])
        except Contradiction:
            continue
        nxt = _fewest(child)
        if nxt is None:
            yield _grid(child, shape)
            continue
        budget.guess()
        stack.append((child, nxt, values_of(child[nxt]), [0]))


def deduce(grid: Grid, budget: Budget, **options: object) -> Grid:
    """The markup's fixpoint under preemptive sets, without guessing: the
    cells left with one candidate. Raises Contradiction at a dead end.

    >>> from sudokit.examples import example
    >>> deduce(example("gentle"), Budget()).is_solved
    True
    """
    cands = markup(grid)
    budget.tick()
    propagate(cands, grid.shape, budget)
    return _grid(cands, grid.shape)
