"""Solve, enumerate, count and deduce, with any registered method.

These functions take a :class:`~sudokit.grid.Grid` or any text that
:func:`sudokit.formats.parse` reads, and a method name (see
:func:`sudokit.methods.available`). Givens that break the rules are caught
here, once, before any method runs.

>>> from sudokit.examples import example
>>> r = solve(example("easy"), method="dfs")
>>> r.status.value, r.solution.line()[:9]
('solved', '249571638')
>>> count_solutions(Grid.empty((2, 2)), method="dfs")
288
"""

from __future__ import annotations

import time
from typing import Iterator

from . import formats, methods, validate, variants
from .methods import contract
from .budget import Budget
from .errors import Contradiction, InvalidPuzzle, LimitReached, SudokuError
from .grid import Grid, Shape
from .result import Result, Status

DEFAULT_METHOD = "fast"

PuzzleLike = "Grid | str"


def as_grid(puzzle: "Grid | str", shape: "Shape | str | None" = None) -> Grid:
    """Coerce text (any format) or a Grid to a Grid: :func:`sudokit.formats.as_grid`."""
    return formats.as_grid(puzzle, shape)


def _invalid(grid: Grid, method: str) -> Result | None:
    if grid.is_consistent:
        return None
    conflicts = grid.conflicts()
    if not conflicts:
        return None
    message = "; ".join(str(c) for c in conflicts)
    return Result(grid, Status.INVALID, method=method, message=message, extra={"conflicts": conflicts})


def check_givens(puzzle: "Grid | str") -> Grid:
    """The puzzle as a Grid; InvalidPuzzle names the clashing cells if any."""
    grid = as_grid(puzzle)
    conflicts = () if grid.is_consistent else grid.conflicts()
    if conflicts:
        raise InvalidPuzzle("; ".join(str(c) for c in conflicts), conflicts)
    return grid


def _check_units(spec: "methods.MethodSpec", grid: Grid) -> None:
    """Refuse a variant's grid (extra units, regions) to a method that reads
    only a shape's rows, columns and boxes: it would answer for other rules."""
    if grid.geometry.cages and not spec.cages:
        raise SudokuError(f"method {spec.name!r} does not keep killer cages; for this "
                          f"{variants.describe(grid.geometry)} puzzle use one of: {', '.join(methods.reading_cages())}")
    if grid.is_variant and not spec.any_units:
        raise SudokuError(f"method {spec.name!r} takes rows, columns and boxes only, not this puzzle's "
                          f"{variants.describe(grid.geometry)} units; use one of: {', '.join(methods.reading_units())}")


def _budget(timeout: float | None, nodes: int | None) -> Budget:
    """The search budget; the values are checked by :mod:`sudokit.validate` (BadOption)."""
    return Budget(timeout=validate.timeout(timeout), nodes=validate.nodes(nodes))


def solutions(
    puzzle: "Grid | str",
    method: str = DEFAULT_METHOD,
    *,
    timeout: float | None = None,
    nodes: int | None = None,
) -> Iterator[Grid]:
    """Every solution, lazily. Raises InvalidPuzzle for clashing givens and
    LimitReached when the budget runs out.

    >>> next(solutions(Grid.empty((2, 2)), method="dfs")).is_solved
    True
    """
    spec = methods.get(method)
    grid = check_givens(puzzle)
    _check_units(spec, grid)
    if not spec.complete:
        raise SudokuError(f"method {method!r} is logic only and cannot enumerate solutions; use deduce()")
    budget = _budget(timeout, nodes)
    yield from contract.solutions(spec, grid, budget)


def solve(
    puzzle: "Grid | str",
    method: str = DEFAULT_METHOD,
    *,
    timeout: float | None = None,
    nodes: int | None = None,
) -> Result:
    """The first solution, as a :class:`Result` with a status.

    A logic-only method (``clauses``) returns what logic derives, with status
    ``stuck`` when it stalls before the grid is full.
    """
    timeout, nodes = validate.timeout(timeout), validate.nodes(nodes)
    spec = methods.get(method)
    grid = as_grid(puzzle)
    _check_units(spec, grid)
    if not spec.clash_proof or not spec.complete:
        invalid = _invalid(grid, method)
        if invalid is not None:
            return invalid
    if not spec.complete:
        return deduce(grid, method, timeout=timeout, nodes=nodes)
    budget = _budget(timeout, nodes)
    start = time.perf_counter()
    status, solution, message = Status.NO_SOLUTION, None, "no grid completes these givens"
    try:
        solution = contract.first(spec, grid, budget)
        if solution is not None:
            status, message = Status.SOLVED, ""
    except LimitReached as exc:
        status, message = Status.TIMEOUT, str(exc)
    except Contradiction as exc:
        message = str(exc)
    if status is Status.NO_SOLUTION and spec.clash_proof:
        invalid = _invalid(grid, method)  # clashing givens have no solution: say why
        if invalid is not None:
            return invalid
    return Result(
        grid, status, solution, method=method, nodes=budget.nodes_used,
        guesses=budget.guesses, elapsed=time.perf_counter() - start, message=message,
    )


def count(
    puzzle: "Grid | str",
    limit: int | None = None,
    method: str = DEFAULT_METHOD,
    *,
    timeout: float | None = None,
    nodes: int | None = None,
) -> Result:
    """Count solutions up to ``limit`` (None: all), as a :class:`Result`.

    ``result.count`` is exact when below the limit; ``result.solution`` is the
    first solution found.
    """
    limit = validate.limit(limit)
    timeout, nodes = validate.timeout(timeout), validate.nodes(nodes)
    spec = methods.get(method)
    grid = as_grid(puzzle)
    _check_units(spec, grid)

    def clashes() -> Result | None:
        invalid = _invalid(grid, method)
        if invalid is None:
            return None
        return Result(grid, Status.INVALID, method=method, count=0, limit=limit,
                      message=invalid.message, extra=invalid.extra)

    if not spec.clash_proof and (invalid := clashes()) is not None:
        return invalid
    if not spec.complete:
        raise SudokuError(f"method {method!r} is logic only and cannot count solutions")
    budget = _budget(timeout, nodes)
    start = time.perf_counter()
    found = 0
    first: Grid | None = None
    status, message = Status.SOLVED, ""
    try:
        found, first = contract.count(spec, grid, limit, budget)
    except LimitReached as exc:
        # a count keeps what it found before the limit (a lower bound)
        if getattr(exc, "count", None) is not None and exc.count > found:  # type: ignore[attr-defined]
            found = exc.count  # type: ignore[attr-defined]
            kept = getattr(exc, "solution", None)
            if first is None and kept is not None:  # a Grid, or the engine's array
                first = kept if isinstance(kept, Grid) else Grid.unchecked(grid.shape, tuple(kept.tolist()))
        status, message = Status.TIMEOUT, f"{exc} after {found} solution(s)"
    except Contradiction as exc:
        found, first, message = 0, None, str(exc)
    if status is Status.SOLVED and found == 0:
        if spec.clash_proof and (invalid := clashes()) is not None:
            return invalid
        status, message = Status.NO_SOLUTION, message or "no grid completes these givens"
    return Result(
        grid, status, first, method=method, count=found, limit=limit, nodes=budget.nodes_used,
        guesses=budget.guesses, elapsed=time.perf_counter() - start, message=message,
    )


def count_solutions(
    puzzle: "Grid | str",
    limit: int | None = None,
    method: str = DEFAULT_METHOD,
    *,
    timeout: float | None = None,
    nodes: int | None = None,
) -> int:
    """How many solutions, up to ``limit``. Raises LimitReached on timeout and
    InvalidPuzzle for clashing givens (which have no solution).

    >>> count_solutions(Grid.empty((1, 2)), method="dfs")
    2
    """
    result = count(puzzle, limit, method, timeout=timeout, nodes=nodes)
    if result.status is Status.TIMEOUT:
        raise LimitReached(result.message)
    if result.status is Status.INVALID:
        raise InvalidPuzzle(result.message, result.extra.get("conflicts", ()))
    return result.count or 0


def soonest_methods(grid: Grid) -> tuple[str, ...]:
    """The complete methods that count or solve ``grid`` soonest in this
    process, to try in order. The engine, except for a 9x9 grid (or smaller)
    while its kernels are not loaded (the first puzzles of a process, or a
    first run's compilation in the background): then Crook's pure-Python
    ``preemptive`` method first, which gives the same answers with no numba to
    load (:func:`sudokit.engine.prefer_compiled`). ``dfs`` last, should a
    method be missing from this installation."""
    from .engine import prefer_compiled

    if grid.size > 9 or prefer_compiled("count", grid.size):
        return ("fast", "dfs")
    return ("preemptive", "fast", "dfs")


def count_soonest(grid: Grid, limit: int = 2, timeout: float | None = None) -> Result | None:
    """:func:`count` by the first of :func:`soonest_methods` that runs here;
    None when none could."""
    for method in soonest_methods(grid):
        try:
            return count(grid, limit=limit, method=method, timeout=timeout)
        except Exception:  # a method not available in this installation
            continue
    return None


def is_unique(
    puzzle: "Grid | str",
    method: str = DEFAULT_METHOD,
    *,
    timeout: float | None = None,
    nodes: int | None = None,
) -> bool:
    """True when the puzzle has exactly one solution.

    >>> is_unique(Grid.empty((2, 2)), method="dfs")
    False
    """
    try:
        return count_solutions(puzzle, 2, method, timeout=timeout, nodes=nodes) == 1
    except InvalidPuzzle:
        return False


def deduce(
    puzzle: "Grid | str",
    method: str = "clauses",
    *,
    timeout: float | None = None,
    nodes: int | None = None,
) -> Result:
    """What logic alone derives, with no guessing.

    Status ``solved`` when logic fills the grid, ``stuck`` when it stalls
    (``solution`` then holds the partial grid), ``no_solution`` when it finds a
    contradiction, ``invalid`` for clashing givens.
    """
    timeout, nodes = validate.timeout(timeout), validate.nodes(nodes)
    spec = methods.get(method)
    grid = as_grid(puzzle)
    _check_units(spec, grid)
    invalid = _invalid(grid, method)
    if invalid is not None:
        return invalid
    budget = _budget(timeout, nodes)
    start = time.perf_counter()
    try:
        filled = contract.deduce(spec, grid, budget)
    except Contradiction as exc:
        return Result(grid, Status.NO_SOLUTION, method=method, nodes=budget.nodes_used,
                      elapsed=time.perf_counter() - start, message=str(exc))
    except LimitReached as exc:
        return Result(grid, Status.TIMEOUT, method=method, nodes=budget.nodes_used,
                      elapsed=time.perf_counter() - start, message=str(exc))
    status = Status.SOLVED if filled.is_complete else Status.STUCK
    message = "" if filled.is_complete else f"logic stalled with {filled.values.count(0)} cells open"
    return Result(grid, status, filled, method=method, nodes=budget.nodes_used,
                  elapsed=time.perf_counter() - start, message=message)


def solve_all(
    puzzle: "Grid | str",
    limit: int | None = None,
    method: str = DEFAULT_METHOD,
    *,
    timeout: float | None = None,
    nodes: int | None = None,
) -> Result:
    """Every solution up to ``limit`` (None: all), as a :class:`Result` whose
    ``solutions`` lists them; ``count`` is how many were found (a lower bound
    when the status is ``timeout``).

    >>> r = solve_all(Grid.empty((1, 2)), method="dfs")
    >>> r.count, [g.line() for g in r.solutions]
    (2, ['1221', '2112'])
    """
    grid = as_grid(puzzle)
    start = time.perf_counter()
    found: list[Grid] = []
    status, message = Status.SOLVED, ""
    try:
        for solution in solutions(grid, method, timeout=timeout, nodes=nodes):
            found.append(solution)
            if limit is not None and len(found) >= limit:
                break
    except InvalidPuzzle as exc:
        return Result(grid, Status.INVALID, method=method, count=0, limit=limit, message=str(exc),
                      elapsed=time.perf_counter() - start)
    except LimitReached as exc:
        status, message = Status.TIMEOUT, f"{exc} after {len(found)} solution(s)"
    except Contradiction as exc:
        message = str(exc)
    if status is Status.SOLVED and not found:
        status, message = Status.NO_SOLUTION, message or "no grid completes these givens"
    return Result(grid, status, found[0] if found else None, method=method, count=len(found), limit=limit,
                  elapsed=time.perf_counter() - start, message=message, solutions=tuple(found))
