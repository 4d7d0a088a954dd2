"""Sudoku as a 0-1 integer program, solved by HiGHS.

The integer-programming write-up states the puzzle with one binary variable
per cell and value: ``x[i, j, k] = 1`` exactly when cell ``(i, j)`` holds
``k``. Four families of "exactly one" constraints say that

* each cell holds exactly one value,
* each value appears exactly once in each row,
* ... once in each column,
* ... once in each box,

and each given fixes its variable to 1. There is nothing to optimise, so the
objective is 0: any feasible point is a solution. An infeasible program
means the puzzle has no solution.

A killer's cages add two families of linear rows over the same variables:

* each value at most once in each cage: ``sum of x[cell, k] over the cage's cells <= 1``;
* each cage with a total adds up to it: ``sum of k * x[cell, k] over its cells and k = total``.

To enumerate solutions, each solution found is cut off by a *no-good*
constraint, ``sum of x over the solution's ones <= N² - 1`` (at least one
cell must differ), and the program is solved again.

The model goes to HiGHS through :func:`scipy.optimize.milp` with a sparse
constraint matrix. Givens are fixed by bounds (``lb = ub = 1``), and, as a
small presolve, every variable that clashes with a given (another value in
the given's cell, the given's value in one of its peers) gets ``ub = 0``.

Variable ``x[i, j, k]`` is column ``(i*N + j)*N + (k-1)`` of the matrix.

>>> from sudokit.budget import Budget
>>> from sudokit.grid import Grid
>>> puzzle = Grid("1.3.....2....3.1", shape=(2, 2))
>>> sorted(g.line() for g in solutions(puzzle, Budget()))
['1234341221434321', '1432321421434321']
>>> constraint_matrix(puzzle.shape).shape  # 4 N² rows, N³ columns
(64, 64)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Iterator

from ..budget import Budget
from ..errors import LimitReached
from ..geometry import Geometry
from ..grid import Grid, Shape

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import scipy.sparse


def variable(shape: Shape, cell: int, value: int) -> int:
    """The column of ``x[cell, value]``."""
    return cell * shape.size + value - 1


@lru_cache(maxsize=16)
def constraint_matrix(shape: "Shape | Geometry") -> "scipy.sparse.csr_array":
    """The "exactly one" rows over the N³ variables (cached per shape or geometry).

    Rows: one per cell, then one per (unit, value): 4N² rows for the rows,
    columns and boxes of a shape, more for a variant's extra units.
    """
    import numpy as np
    import scipy.sparse

    geometry = shape if isinstance(shape, Geometry) else shape.geometry
    n = geometry.n
    row_ids: list[int] = []
    col_ids: list[int] = []
    constraint = 0
    for cell in range(n * n):  # each cell holds one value
        for value in range(1, n + 1):
            row_ids.append(constraint)
            col_ids.append(variable(shape, cell, value))
        constraint += 1
    for unit in geometry.units:  # each value once per unit (a variant's extra units too)
        for value in range(1, n + 1):
            for cell in unit:
                row_ids.append(constraint)
                col_ids.append(variable(shape, cell, value))
            constraint += 1
    data = np.ones(len(row_ids))
    return scipy.sparse.csr_array((data, (row_ids, col_ids)), shape=(constraint, n**3))


def bounds(grid: Grid) -> "tuple[np.ndarray, np.ndarray]":
    """(lb, ub): givens fixed to 1, variables that clash with a given fixed to 0."""
    import numpy as np

    shape, n = grid.shape, grid.size
    lb = np.zeros(n**3)
    ub = np.ones(n**3)
    for cell in grid.givens:
        given = grid[cell]
        for value in range(1, n + 1):
            if value != given:
                ub[variable(shape, cell, value)] = 0
        for peer in grid.geometry.peers[cell]:
            ub[variable(shape, peer, given)] = 0
    for cell in grid.givens:  # after the clashes, so clashing givens stay infeasible
        lb[variable(shape, cell, grid[cell])] = 1
    return lb, ub


@lru_cache(maxsize=16)
def cage_rows(geometry: Geometry) -> "tuple[scipy.sparse.csr_array, np.ndarray, np.ndarray] | None":
    """The killer rows of ``geometry``'s cages as (matrix, lower, upper), or None without cages:
    per (cage, value) ``sum x <= 1``, then per cage with a total ``sum k * x[cell, k] == total``."""
    import numpy as np
    import scipy.sparse

    if not geometry.cages:
        return None
    n = geometry.n
    shape = geometry.shape
    row_ids: list[int] = []
    col_ids: list[int] = []
    data: list[float] = []
    lower: list[float] = []
    upper: list[float] = []
    for cage in geometry.cages:  # different digits
        for value in range(1, n + 1):
            for cell in cage.cells:
                row_ids.append(len(lower))
                col_ids.append(variable(shape, cell, value))
                data.append(1.0)
            lower.append(0.0)
            upper.append(1.0)
    for cage in geometry.cages:  # the total
        if cage.total is None:
            continue
        for cell in cage.cells:
            for value in range(1, n + 1):
                row_ids.append(len(lower))
                col_ids.append(variable(shape, cell, value))
                data.append(float(value))
        lower.append(float(cage.total))
        upper.append(float(cage.total))
    matrix = scipy.sparse.csr_array((data, (row_ids, col_ids)), shape=(len(lower), n**3))
    return matrix, np.array(lower), np.array(upper)


def _solve(grid: Grid, cuts: "list[np.ndarray]", budget: Budget) -> Grid | None:
    """One solution of the program with the no-good ``cuts``, or None if infeasible."""
    import numpy as np
    import scipy.sparse
    from scipy.optimize import Bounds, LinearConstraint, milp

    budget.tick()
    budget.check_time()
    n = grid.size
    a = constraint_matrix(grid.geometry)
    constraints = [LinearConstraint(a, 1, 1)]
    killer = cage_rows(grid.geometry)
    if killer is not None:
        constraints.append(LinearConstraint(*killer))
    if cuts:
        cut_rows = scipy.sparse.csr_array(np.vstack(cuts))
        constraints.append(LinearConstraint(cut_rows, -np.inf, n * n - 1))
    lb, ub = bounds(grid)
    options: dict[str, float | bool] = {"disp": False}
    if budget.remaining_time is not None:
        options["time_limit"] = max(budget.remaining_time, 1e-3)
    result = milp(
        c=np.zeros(n**3),
        constraints=constraints,
        integrality=np.ones(n**3),
        bounds=Bounds(lb, ub),
        options=options,
    )
    if result.status == 2:  # infeasible
        return None
    if result.status == 0:
        x = np.rint(result.x).astype(int).reshape(n * n, n)
        return grid.like(tuple(int(row.argmax()) + 1 for row in x))
    if result.status == 1:  # time or iteration limit
        raise LimitReached(f"time limit of {budget.timeout:g} s reached in HiGHS")
    raise RuntimeError(f"HiGHS stopped with status {result.status}: {result.message}")


def no_good(solution: Grid) -> "np.ndarray":
    """The cut row: 1 at each variable that is 1 in ``solution``."""
    import numpy as np

    n = solution.size
    row = np.zeros(n**3)
    for cell, value in enumerate(solution.values):
        row[variable(solution.shape, cell, value)] = 1
    return row


def solutions(grid: Grid, budget: Budget) -> Iterator[Grid]:
    """Every solution, one HiGHS solve each, cutting off each one found."""
    cuts: list[np.ndarray] = []
    while (solution := _solve(grid, cuts, budget)) is not None:
        yield solution
        cuts.append(no_good(solution))


def infeasibility_message(grid: Grid) -> str:
    """Why the program for ``grid`` has no solution, in words.

    >>> from sudokit.examples import example
    >>> infeasibility_message(example("infeasible"))
    'infeasible: the givens break the rules (2 appears 2 times in row 5: r5c2, r5c3; 2 appears 2 times in box 4: r5c2, r5c3)'
    """
    conflicts = grid.conflicts()
    if conflicts:
        return "infeasible: the givens break the rules (" + "; ".join(str(c) for c in conflicts) + ")"
    n = grid.size
    rows = n * n + len(grid.geometry.units) * n  # a cell's, then each (unit, value)'s
    units = "row/value, column/value, box/value" + (", and the variant's units" if grid.is_variant else "")
    if grid.geometry.cages:
        extra = cage_rows(grid.geometry)[0].shape[0]  # type: ignore[index]
        return (f"infeasible: no 0-1 assignment meets the {rows} exactly-one constraints ({units}) and the "
                f"{extra} rows of the {len(grid.geometry.cages)} killer cages with these {grid.clues} givens")
    return (
        f"infeasible: no 0-1 assignment meets the {rows} exactly-one constraints "
        f"(cells, {units}) with these {grid.clues} givens"
    )
