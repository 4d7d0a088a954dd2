"""Sudoku as propositional logic: exactly-one clauses simplified to a fixpoint.

The propositional-logic write-up of Sudoku. For an N×N grid there are N³
*variables* ``v(r, c, d)``, "cell ``rRcC`` holds ``d``" (729 for 9x9), and
4N² *clauses* (324 for 9x9), each saying "exactly one of these variables is
true":

* each **cell** holds exactly one value,
* each **row**, each **column** and each **box** holds each value exactly once.

Every variable lies in exactly four clauses: its cell's, and the value's
clause in its row, its column and its box. What is known about a variable is
one of three things: it is *asserted* (true), *denied* (false) or *unknown*.
The givens are asserted, and three rules are applied until nothing changes:

1. an assertion **eliminates** (denies) the other variables of each of its
   clauses;
2. a denial **shrinks** each of its clauses: the variable is removed from it;
3. a clause with **one variable left** asserts it.

A clause left with no variable at all is an inconsistency: no value can go
in some cell, or some value has no place in some unit, and
:class:`~sudokit.errors.Contradiction` says which. The work queue holds the
facts (assertions and denials) not yet propagated; the answer is the grid of
asserted values, complete when the rules alone solve the puzzle.

**The same thing as naked and hidden singles.** Rule 1 on a cell's clause
and its three value clauses is the pencil-and-paper "cross the value out of
the cell and out of its peers". Rule 3 on a *cell* clause is a naked single
(a cell with one candidate left); rule 3 on a *row, column or box* clause is
a hidden single (a value with one place left in a unit). An empty cell
clause is a cell without candidates; an empty unit clause is a value without
a place. So this method reaches exactly the fixpoint of naked singles plus
hidden singles, and its verdict (solved, stuck, or contradiction) is the
verdict of any singles-only solver that checks for both kinds of dry run,
such as the compiled kernel the generator uses. The rules only ever add
facts, so the verdict does not depend on the order in which facts are
propagated: the closure of the givens under the three rules is unique.

>>> from sudokit.budget import Budget
>>> from sudokit.grid import Grid
>>> deduce(Grid("1.3.....2...4..1", shape=(2, 2)), Budget()).line()  # stuck: r1c2 is 2 or 4
'1.3.3.1.21434321'
>>> formula = Formula(Grid.empty((3, 3)).shape)
>>> len(formula.clauses), len(formula.clauses_of), len(formula.clauses_of[0])
(324, 729, 4)
>>> formula.describe(formula.variable(0, 8, 5))
'r1c9=5'

**The generator.** The write-up makes puzzles in which every clue is needed
by these rules alone (:func:`puzzle`): take a complete grid, visit its clues
in random order, and take each away when the rules still deduce the whole
grid without it. What is left is minimal for logic: no clue can go without
the rules getting stuck. It runs in pure Python, a tenth of a second for a
9x9, which is what the bare ``sudoku`` command uses to show a new puzzle at
once; the compiled generator (:mod:`sudokit.generation`) makes the same kind
of puzzle, ``--minimal logic``, by the thousand.

>>> p, solution = puzzle(Shape(2, 2), seed=3)
>>> solution.is_solution_of(p), deduce(p, Budget()) == solution
(True, True)
"""

from __future__ import annotations

import random
from collections import deque
from functools import lru_cache
from typing import Sequence

from ..budget import Budget
from ..errors import Contradiction
from ..geometry import Geometry
from ..grid import DEFAULT_SYMBOLS, Grid, Shape

#: What is known about a variable.
UNKNOWN, ASSERTED, DENIED = 0, 1, -1

#: Clause kinds, in the order their blocks are numbered.
CELL, ROW, COLUMN, BOX = range(4)


class Formula:
    """The variables and exactly-one clauses of one shape (shared, immutable).

    Variable ``v(r, c, d)`` is numbered ``(r*N + c)*N + d - 1``. Clause
    ``kind*N² + i*N + j`` is, for ``kind`` CELL, the cell ``i*N + j``; for
    ROW, COLUMN or BOX, value ``j + 1`` in the ``i``-th row, column or box.
    """

    def __init__(self, shape: "Shape | Geometry") -> None:
        geo = shape if isinstance(shape, Geometry) else shape.geometry
        n = geo.n
        #: The units: a shape's rows, columns and boxes, or a variant's (more units, more clauses).
        self.geometry = geo
        self.shape = geo.shape
        self.size = n
        clauses: list[tuple[int, ...]] = []
        # each cell has exactly one value
        for cell in range(n * n):
            clauses.append(tuple(cell * n + d for d in range(n)))
        # each unit (row, column, box, and a variant's own) has each value exactly once
        for unit in geo.units:
            for d in range(n):
                clauses.append(tuple(cell * n + d for cell in unit))
        self.clauses: tuple[tuple[int, ...], ...] = tuple(clauses)
        clauses_of: list[list[int]] = [[] for _ in range(n ** 3)]
        for k, clause in enumerate(clauses):
            for var in clause:
                clauses_of[var].append(k)
        #: For each variable, the clauses it lies in (four on a plain grid, more in a variant's extra units).
        self.clauses_of: tuple[tuple[int, ...], ...] = tuple(tuple(ks) for ks in clauses_of)

    def variable(self, row: int, col: int, value: int) -> int:
        """The number of ``v(row, col, value)`` (0-based row and column)."""
        return (row * self.size + col) * self.size + value - 1

    def describe(self, var: int) -> str:
        """``rRcC=d`` for a variable."""
        cell, d = divmod(var, self.size)
        return f"{self.shape.cell_name(cell)}={self._symbol(d + 1)}"

    def ran_dry(self, clause: int) -> str:
        """Why an empty clause is impossible, in words."""
        n = self.size
        kind, rest = divmod(clause, n * n)
        i, j = divmod(rest, n)
        if kind == CELL:
            return f"no value can go in {self.shape.cell_name(rest)}"
        unit = (clause - n * n) // n
        return f"{self._symbol(j + 1)} has no place in {self.geometry.unit_name(unit)}"

    def _symbol(self, value: int) -> str:
        return DEFAULT_SYMBOLS[value - 1] if self.size <= len(DEFAULT_SYMBOLS) else str(value)


@lru_cache(maxsize=None)
def formula(shape: "Shape | Geometry") -> Formula:
    """The formula of a shape, built once."""
    return Formula(shape)


class Knowledge:
    """What is known: each variable asserted, denied or unknown, and for each
    clause the variables not yet denied.

    >>> from sudokit.grid import Shape
    >>> k = Knowledge(formula(Shape(1, 2)))
    >>> k.assert_(0)       # r1c1=1
    >>> k.propagate()
    >>> [k.state[v] for v in range(8)]  # r1c1=1, r1c1=2, r1c2=1, ...  r2c2=2
    [1, -1, -1, 1, -1, 1, 1, -1]
    """

    def __init__(self, f: Formula, budget: Budget | None = None) -> None:
        self.formula = f
        self.budget = budget
        self.state: list[int] = [UNKNOWN] * (f.size ** 3)
        #: For each clause, the variables it still has (not denied).
        self.alive: list[set[int]] = [set(clause) for clause in f.clauses]
        #: Facts waiting to be propagated: (variable, ASSERTED or DENIED).
        self.queue: deque[tuple[int, int]] = deque()

    def assert_(self, var: int) -> None:
        """Record ``var`` as true (rule 3 and the givens)."""
        if self.state[var] == UNKNOWN:
            self.state[var] = ASSERTED
            self.queue.append((var, ASSERTED))
        elif self.state[var] == DENIED:
            # Asserted and denied at once: its cell clause is bound to run
            # dry (rule 1 denies the rest of it), so propagate regardless.
            self.queue.append((var, ASSERTED))

    def deny(self, var: int) -> None:
        """Record ``var`` as false (rule 1)."""
        state = self.state[var]
        if state == DENIED:
            return
        self.state[var] = DENIED
        self.queue.append((var, DENIED))

    def propagate(self) -> None:
        """Apply the three rules until the queue is empty.

        Raises Contradiction naming the first clause that runs dry.
        """
        f, alive, state, queue = self.formula, self.alive, self.state, self.queue
        clauses, clauses_of = f.clauses, f.clauses_of
        budget = self.budget
        while queue:
            var, fact = queue.popleft()
            if fact == ASSERTED:
                if budget is not None:
                    budget.tick()
                # rule 1: an assertion eliminates the others of its clauses
                for k in clauses_of[var]:
                    for other in clauses[k]:
                        if other != var and state[other] != DENIED:
                            self.deny(other)
            else:
                # rule 2: a denial shrinks its clauses ...
                for k in clauses_of[var]:
                    left = alive[k]
                    left.discard(var)
                    if not left:
                        raise Contradiction(f.ran_dry(k))
                    # rule 3: ... and a clause with one variable left asserts it
                    if len(left) == 1:
                        (last,) = left
                        if state[last] != ASSERTED:
                            self.assert_(last)

    def grid(self) -> Grid:
        """The grid of asserted values (0 where nothing is asserted)."""
        f = self.formula
        n = f.size
        values = [0] * (n * n)
        for var, s in enumerate(self.state):
            if s == ASSERTED:
                cell, d = divmod(var, n)
                values[cell] = d + 1
        return Grid.unchecked(f.shape, tuple(values), f.geometry)


def deduce(grid: Grid, budget: Budget, **options: object) -> Grid:
    """Assert the givens, propagate to the fixpoint, return the asserted grid.

    Raises Contradiction when a clause runs dry.

    >>> from sudokit.examples import example
    >>> deduce(example("easy"), Budget()).is_solved
    True
    >>> deduce(example("diabolical"), Budget()).is_complete
    False
    """
    f = formula(grid.geometry)
    knowledge = Knowledge(f, budget)
    n = f.size
    for cell, value in enumerate(grid.values):
        if value:
            knowledge.assert_(cell * n + value - 1)
    knowledge.propagate()
    return knowledge.grid()


# -- the generator: puzzles where every clue is needed by the rules -----------------------


def complete_grid(shape: Shape, rng: random.Random, budget: Budget | None = None) -> Grid:
    """A random complete grid: random values in the boxes of the diagonal
    (they share no row, column or box), and the first completion that Crook's
    method (``preemptive``) finds. Some shapes cannot always complete those
    boxes (4x4 for one); then one box fewer is seeded, down to the first
    alone, which any grid completes."""
    from .preemptive import solutions

    n = shape.size
    values = [0] * (n * n)
    boxes = []
    for k in range(min(shape.box_cols, shape.box_rows)):  # box k of band k and stack k
        cells = [(k * shape.box_rows + r) * n + k * shape.box_cols + c
                 for r in range(shape.box_rows) for c in range(shape.box_cols)]
        boxes.append(cells)
        for cell, value in zip(cells, rng.sample(range(1, n + 1), n)):
            values[cell] = value
    while True:
        solution = next(solutions(Grid.unchecked(shape, tuple(values)), budget or Budget()), None)
        if solution is not None:
            return solution
        for cell in boxes.pop():
            values[cell] = 0


def minimal_for_logic(solution: Grid, rng: random.Random, orbits: Sequence[Sequence[int]] | None = None,
                      budget: Budget | None = None) -> Grid:
    """Take the clues of ``solution`` away, orbit by orbit (single cells when
    ``orbits`` is None) in random order, while :func:`deduce` still fills the
    grid: every clue left is needed by the rules."""
    shape = solution.shape
    values = list(solution.values)
    order = [tuple(o) for o in orbits] if orbits is not None else [(c,) for c in range(len(values))]
    rng.shuffle(order)
    for orbit in order:
        saved = [values[c] for c in orbit]
        for c in orbit:
            values[c] = 0
        if not deduce(Grid.unchecked(shape, tuple(values)), budget or Budget()).is_complete:
            for c, v in zip(orbit, saved):
                values[c] = v
    return Grid.unchecked(shape, tuple(values))


def puzzle(shape: Shape, seed: int, symmetry: str = "none", budget: Budget | None = None) -> tuple[Grid, Grid]:
    """A puzzle minimal for logic and its solution, made from ``seed`` alone
    (the same seed, the same puzzle); ``symmetry`` as in :mod:`sudokit.generation.symmetry`."""
    from ..generation.symmetry import orbits

    rng = random.Random(seed)
    solution = complete_grid(shape, rng, budget)
    return minimal_for_logic(solution, rng, None if symmetry == "none" else orbits(shape, symmetry), budget), solution
