"""Uniqueness questions put to a SAT solver, for minimising the big grids.

Near the end of top-down minimising a 25x25 puzzle, whether a clue can go
is a hard question either way: a second solution, when there is one, lies far
from the known one, and a proof that there is none needs a large search tree.
The engine's depth-first searches (:mod:`sudokit.engine.generate`) settle the
easy questions; a conflict-driven SAT solver (CaDiCaL 1.9.5 through PySAT)
settles the hard ones, where learning from conflicts beats plain search.

The encoding is the textbook one: a variable per (cell, value), exactly one
value per cell and exactly one place per value in each unit (an at-least-one
clause and pairwise at-most-one clauses). One incremental solver serves a
whole puzzle:

* the clues are *assumptions*, so a clue can be taken away between questions;
* a clue proven necessary stays necessary for every puzzle with fewer clues
  (its second solution still solves them), so it becomes a unit clause;
* the solver prefers the known solution's values (phases), which meets nearby
  second solutions first; after a second solution is found it prefers that
  one's values, since the next question's second solution tends to lie near
  it (this cut the time of whole 25x25 puzzles by 15 to 25 %).

>>> from sudokit import Grid
>>> with UniquenessProver(Grid("1234341221434321")) as prover:
...     prover.needed([0], clues=range(16)), prover.needed([0, 1, 2, 3], clues=range(16))
(False, False)
>>> with UniquenessProver(Grid("1234341221434321")) as prover:
...     prover.needed([0, 1, 8, 9], clues=range(16))  # rows 1 and 3 read 1 2 and 2 1 there
True
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from .errors import InvalidPuzzle
from .grid import Grid


def _exactly_one_groups(box_rows: int, box_cols: int) -> np.ndarray:
    """The (cell, value) variables of every exactly-one constraint, as rows of an array.

    Variable of cell ``c`` (0-based) and value ``v`` (1-based): ``c * n + v``.
    Rows: each cell's values, then each unit's places for each value.
    """
    n = box_rows * box_cols
    cells = np.arange(n * n).reshape(n, n)
    boxes = (cells.reshape(n // box_rows, box_rows, n // box_cols, box_cols)
             .transpose(0, 2, 1, 3).reshape(n, n))
    units = np.concatenate([cells, cells.T, boxes])  # 3n units of n cells
    values = np.arange(1, n + 1)
    by_cell = cells.reshape(-1, 1) * n + values.reshape(1, -1)
    by_unit = (units[:, None, :] * n + values[None, :, None]).reshape(-1, n)
    return np.concatenate([by_cell, by_unit])


def _clauses(box_rows: int, box_cols: int) -> Iterable[list[int]]:
    groups = _exactly_one_groups(box_rows, box_cols)
    yield from groups.tolist()
    i, j = np.triu_indices(groups.shape[1], k=1)
    pairs = -np.stack([groups[:, i], groups[:, j]], axis=2).reshape(-1, 2)
    yield from pairs.tolist()


#: CaDiCaL in "stable mode only" (its setting for satisfiable instances): most
#: questions near the end of minimising have a second solution to find. On
#: four 25x25 seeds it took 117 s on average against 190 s with the defaults
#: (but one seed took 236 s against 60 s); taking turns between both
#: configurations was no better.
CONFIGURATION: dict[str, int] = {"stabilizeonly": 1}


class UniquenessProver:
    """Answers "does the puzzle without these clues have another solution?" for one solution grid.

    Every question is about a subset of ``solution``'s cells as clues; the
    answer is True (another solution exists: the cells are needed), False (no
    other solution: they can go), or None when ``conflicts`` conflicts (0: no
    limit) did not settle it.
    """

    def __init__(self, solution: Grid, conflicts: int = 0) -> None:
        from pysat.solvers import Solver

        if not solution.is_solved:
            raise InvalidPuzzle("the prover needs a complete, valid solution grid")
        shape = solution.shape
        self.n = shape.size
        self.values = np.array(solution.values, dtype=np.int64)
        self.conflicts = conflicts
        self._literal = np.arange(self.values.size) * self.n + self.values  # "cell has its value"
        self._cell_vars = self.values.size * self.n
        self._solver = Solver(name="cadical195")
        self._solver.configure(CONFIGURATION)
        self._solver.append_formula(_clauses(shape.box_rows, shape.box_cols))
        self._solver.set_phases(self._literal.tolist())
        self._fixed = np.zeros(self.values.size, dtype=bool)
        self._next_var = self._cell_vars + 1
        #: conflicts the last question took (a deterministic measure of its difficulty)
        self.last_conflicts = 0

    def close(self) -> None:
        """Free the solver."""
        self._solver.delete()

    def __enter__(self) -> "UniquenessProver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def keep(self, cells: Sequence[int]) -> None:
        """Make ``cells`` clues for every later question (they were proven needed)."""
        for c in cells:
            if not self._fixed[c]:
                self._fixed[c] = True
                self._solver.add_clause([int(self._literal[c])])

    def needed(self, cells: Sequence[int], clues: Iterable[int]) -> bool | None:
        """Whether the puzzle with ``clues`` loses its unique solution when ``cells`` are blanked.

        ``clues`` are the cells given (``cells`` among them or not); a second
        solution must differ from the known one in one of ``cells``.
        """
        skip = set(int(c) for c in cells)
        clues = [int(c) for c in clues]
        outside = [c for c in skip.union(clues) if not 0 <= c < self.values.size]
        if outside:
            raise IndexError(f"cell {outside[0]} is not on a grid of {self.values.size} cells")
        assumptions = [int(self._literal[c]) for c in clues if c not in skip and not self._fixed[c]]
        differ = [-int(self._literal[c]) for c in skip]
        guard = 0
        if len(differ) == 1:
            assumptions += differ
        else:
            guard = self._next_var
            self._next_var += 1
            self._solver.add_clause(differ + [-guard])
            assumptions.append(guard)
        before = self._solver.accum_stats().get("conflicts", 0)
        if self.conflicts > 0:
            self._solver.conf_budget(self.conflicts)
            answer = self._solver.solve_limited(assumptions=assumptions)
        else:
            answer = self._solver.solve(assumptions=assumptions)
        self.last_conflicts = self._solver.accum_stats().get("conflicts", 0) - before
        if answer:
            # the next second solution tends to lie near this one: start the search there
            self._solver.set_phases([lit for lit in self._solver.get_model() if 0 < lit <= self._cell_vars])
        if guard:
            self._solver.add_clause([-guard])  # retire the guarded clause
        return answer
