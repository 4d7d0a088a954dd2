"""Crook's pencil-and-paper algorithm: markup, preemptive sets, cross out, repeat, then guess.

J. F. Crook, "A pencil-and-paper algorithm for solving Sudoku puzzles",
Notices of the AMS 56(4), 2009, pp. 460-468. His steps, as functions:

1. :func:`markup` lists the candidates of each cell: a given is its own
   value, a blank starts with every value.
2. :func:`preemptive_sets`: a *preemptive set* is a set of ``m`` cells of
   one unit (row, column or box) whose candidates, together, number exactly
   ``m``. A cell with one candidate is one (``m = 1``); so are naked pairs,
   triples and so on.
3. :func:`cross_out`: Crook's theorem says those ``m`` values must fill those
   ``m`` cells, so they are crossed out of every other cell of the unit.
4. :func:`crook_fixpoint`: steps 2 and 3 in every unit, until nothing changes.
   ``m`` cells with fewer than ``m`` candidates between them is a dead end.
5. :func:`solutions`: when the preemptive sets run out, pick a cell and try
   its candidates one at a time, backtracking from dead ends. Here the cell is
   one with the fewest candidates (Crook chooses at random), and the values are
   tried in increasing order, so the search is repeatable.

Steps 2 to 4 as written try every subset of every unit. :func:`propagate`
reaches the same fixpoint with work queues, complement search and a clock
(:mod:`sudokit.methods.preemptive_fast`); :func:`solutions` and :func:`deduce`
use it, and the tests check that it agrees with :func:`crook_fixpoint`. The
generator's ``preemptive`` rule runs the same fixpoint compiled
(:mod:`sudokit.methods.preemptive_kernel`), held to the same candidates.

>>> from sudokit.budget import Budget
>>> from sudokit.grid import Grid
>>> puzzle = Grid("1.3.....2...4..1", shape=(2, 2))
>>> deduce(puzzle, Budget()).line()   # r1c2 and r1c4 keep the pair {2, 4}
'1.3.3.1.21434321'
>>> [g.line() for g in solutions(puzzle, Budget())]
['1234341221434321', '1432321421434321']
"""

from __future__ import annotations

from functools import reduce
from itertools import combinations
from operator import or_
from typing import Iterable, Iterator

from ..budget import Budget
from ..errors import Contradiction
from ..geometry import Geometry
from ..grid import Grid, Shape
from .preemptive_fast import Markup, fixpoint, values_of

__all__ = ["Markup", "markup", "preemptive_sets", "cross_out", "crook_fixpoint", "propagate",
           "solutions", "deduce", "values_of"]


def markup(grid: Grid) -> Markup:
    """Step 1: a single candidate for each given, every value for each blank.

    Crossing the givens out of their peers is the first round of the fixpoint
    (preemptive sets of one cell).

    >>> markup(Grid("1...............", shape=(2, 2)))[:2]
    [1, 15]
    """
    full = (1 << grid.size) - 1
    return [1 << (v - 1) if v else full for v in grid.values]


def preemptive_sets(cands: Markup, cells: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
    """Step 2: each set of ``m`` cells of the unit ``cells`` whose candidates,
    together, number at most ``m``; with their candidates (a mask).

    >>> [(cs, bin(u)) for cs, u in preemptive_sets([0b11, 0b11, 0b111, 0b1111], (0, 1, 2, 3))][:2]
    [((0, 1), '0b11'), ((0, 1, 2), '0b111')]
    """
    for m in range(1, len(cells) + 1):
        for subset in combinations(cells, m):
            union = reduce(or_, (cands[c] for c in subset))
            if union.bit_count() <= m:
                yield subset, union


def cross_out(cands: Markup, cells: tuple[int, ...], subset: tuple[int, ...], values: int) -> bool:
    """Step 3: remove ``values`` from the cells of the unit outside ``subset``; True if any went."""
    changed = False
    for c in cells:
        if c not in subset and cands[c] & values:
            cands[c] &= ~values
            changed = True
    return changed


def crook_fixpoint(cands: Markup, shape: "Shape | Geometry") -> None:
    """Step 4: steps 2 and 3 in every unit until nothing changes. Raises
    Contradiction when some ``m`` cells have fewer than ``m`` candidates.
    It tries all 2^N subsets of each unit: fine for reading and for checking
    :func:`propagate` up to 9x9, hopeless from 16x16.

    >>> cands = markup(Grid("1.3.............", shape=(2, 2)))
    >>> crook_fixpoint(cands, Shape(2, 2))
    >>> values_of(cands[1]), values_of(cands[3])
    ([2, 4], [2, 4])
    """
    changed = True
    while changed:
        changed = False
        for cells, name in zip(shape.units, shape.unit_names):
            for subset, values in preemptive_sets(cands, cells):
                if values.bit_count() < len(subset):
                    where = ", ".join(shape.cell_name(c) for c in subset)
                    raise Contradiction(f"{where} have only {values.bit_count()} candidates between them in {name}")
                changed |= cross_out(cands, cells, subset, values)


def propagate(cands: Markup, shape: "Shape | Geometry", budget: Budget, units: Iterable[int] | None = None) -> None:
    """Steps 2 to 4, fast: the fixpoint of :func:`crook_fixpoint`, found by
    :func:`sudokit.methods.preemptive_fast.fixpoint`. ``units`` (indices into
    ``shape.units``) are the ones to look at first, after a guess. Changes
    ``cands`` in place; raises Contradiction at a dead end."""
    fixpoint(cands, shape, budget, units)


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


def _grid(cands: Markup, puzzle: Grid) -> Grid:
    """The cells with a single candidate, as a grid of the puzzle's shape and units (0 elsewhere)."""
    return puzzle.like(tuple(m.bit_length() if not m & (m - 1) else 0 for m in cands))


def solutions(grid: Grid, budget: Budget, **options: object) -> Iterator[Grid]:
    """Step 5, every solution, lazily: the fixpoint at each node, then a guess
    at a cell with the fewest candidates, values in increasing order.

    >>> sum(1 for _ in solutions(Grid.empty((1, 2)), Budget()))
    2
    """
    geo = grid.geometry  # the units: a variant's extra units count as any other
    cands = markup(grid)
    budget.tick()
    try:
        propagate(cands, geo, budget)
    except Contradiction:
        return
    cell = _fewest(cands)
    if cell is None:
        yield _grid(cands, grid)
        return
    budget.guess()
    # Each frame: the markup at a fixpoint, the guessed cell, its values, the next one to try.
    stack: list[tuple[Markup, int, list[int], list[int]]] = [(cands, cell, values_of(cands[cell]), [0])]
    while stack:
        parent, cell, values, index = stack[-1]
        if index[0] == len(values):
            stack.pop()  # every value tried: backtrack
            continue
        value = values[index[0]]
        index[0] += 1
        budget.tick()
        child = parent.copy()
        child[cell] = 1 << (value - 1)
        try:
            propagate(child, geo, budget, geo.units_of[cell])
        except Contradiction:
            continue  # a dead end: try the next value
        nxt = _fewest(child)
        if nxt is None:
            yield _grid(child, grid)
            continue
        budget.guess()
        stack.append((child, nxt, values_of(child[nxt]), [0]))


def deduce(grid: Grid, budget: Budget, **options: object) -> Grid:
    """Steps 1 to 4 without guessing: the cells left with one candidate.
    Raises Contradiction at a dead end.

    >>> from sudokit.examples import example
    >>> deduce(example("gentle"), Budget()).is_solved
    True
    """
    cands = markup(grid)
    budget.tick()
    propagate(cands, grid.geometry, budget)
    return _grid(cands, grid)
