"""The method contract: the functions every solving method provides, and one way to call them.

A method is a module (found through the registry, :mod:`sudokit.methods`)
that meets some of the protocols below. A *complete* method meets
:class:`Enumerates`; a logic-only one meets :class:`Deduces`. :class:`Counts`
and :class:`FindsFirst` are optional fast paths: when a method lacks them,
:func:`count` and :func:`first` build them from ``solutions``. Every function
takes the grid, a :class:`~sudokit.budget.Budget` and the options the registry
gives the method (such as ``expand="first"`` for ``wholemeal-first``). It
calls ``budget.tick()`` once per search node and ``budget.guess()`` once per
branch with more than one child, and lets
:class:`~sudokit.errors.LimitReached` propagate, so a spent budget gives
status ``timeout``, never a hang. The methods may assume the givens do not
clash, except that a *clash-proof* method simply finds no solution for them.
This is what :mod:`sudokit.solving` calls and what ``benchmarks/bench_methods.py``
times, as tdoku's ``SolverFn`` serves every solver in its benchmark.

>>> from sudokit.budget import Budget
>>> from sudokit.grid import Grid
>>> from sudokit.methods import get
>>> puzzle = Grid("1.3.....2...4..1", shape=(2, 2))
>>> count(get("wholemeal"), puzzle, None, Budget())[0]
2
>>> first(get("dfs"), puzzle, Budget()).line()
'1234341221434321'
>>> problems(get("clauses"))
[]
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Iterator, Protocol, runtime_checkable

from ..budget import Budget
from ..errors import LimitReached, SudokuError
from ..grid import Grid

if TYPE_CHECKING:  # pragma: no cover
    from . import MethodSpec


@runtime_checkable
class Enumerates(Protocol):
    """A complete method: every solution, lazily (none for a puzzle without one)."""

    def solutions(self, grid: Grid, budget: Budget, /, **options: Any) -> Iterator[Grid]: ...


@runtime_checkable
class Deduces(Protocol):
    """What logic alone derives, without guessing: the grid of the cells it
    fixes. Raises :class:`~sudokit.errors.Contradiction` when logic finds the
    puzzle has no solution."""

    def deduce(self, grid: Grid, budget: Budget, /, **options: Any) -> Grid: ...


@runtime_checkable
class Counts(Protocol):
    """Optional: the number of solutions up to ``limit`` (None: no limit) and the first one."""

    def count(self, grid: Grid, limit: int | None, budget: Budget, /,
              **options: Any) -> tuple[int, Grid | None]: ...


@runtime_checkable
class FindsFirst(Protocol):
    """Optional: the first solution, or None when there is none."""

    def first(self, grid: Grid, budget: Budget, /, **options: Any) -> Grid | None: ...


#: Each protocol and the arguments (before the options) its function takes.
PROTOCOLS: dict[str, tuple[type, tuple[str, ...]]] = {
    "solutions": (Enumerates, ("grid", "budget")),
    "deduce": (Deduces, ("grid", "budget")),
    "count": (Counts, ("grid", "limit", "budget")),
    "first": (FindsFirst, ("grid", "budget")),
}


def problems(spec: "MethodSpec") -> list[str]:
    """How the method named by ``spec`` breaks the contract (empty when it keeps it).

    A complete method must enumerate, a logic-only one must deduce, and each
    function the module has must accept its arguments and the spec's options.
    """
    module = spec.load()
    found: list[str] = []
    needed = Enumerates if spec.complete else Deduces
    if not isinstance(module, needed):
        found.append(f"{spec.name}: {spec.module} does not meet {needed.__name__}")
    for name, (protocol, args) in PROTOCOLS.items():
        if not isinstance(module, protocol):
            continue
        try:
            inspect.signature(getattr(module, name)).bind(*args, **spec.options)
        except TypeError as exc:
            found.append(f"{spec.name}: {spec.module}.{name}{args} with {spec.options}: {exc}")
    return found


def solutions(spec: "MethodSpec", grid: Grid, budget: Budget) -> Iterator[Grid]:
    """Every solution by the method, lazily; SudokuError for a logic-only method."""
    enumerate_ = spec.function("solutions")
    if not spec.complete or enumerate_ is None:
        raise SudokuError(f"method {spec.name!r} is logic only and cannot enumerate solutions")
    return enumerate_(grid, budget, **spec.options)


def first(spec: "MethodSpec", grid: Grid, budget: Budget) -> Grid | None:
    """The method's first solution (its fast path when it has one), or None."""
    fast = spec.function("first")
    if fast is not None:
        return fast(grid, budget, **spec.options)
    return next(iter(solutions(spec, grid, budget)), None)


def count(spec: "MethodSpec", grid: Grid, limit: int | None, budget: Budget) -> tuple[int, Grid | None]:
    """How many solutions up to ``limit`` (None: all) and the first one, by the
    method's fast path when it has one. A LimitReached carries the count so far
    (``count``, a lower bound) and the first solution (``solution``)."""
    fast = spec.function("count")
    if fast is not None:
        return fast(grid, limit, budget, **spec.options)
    found, first_found = 0, None
    try:
        for solution in solutions(spec, grid, budget):
            if first_found is None:
                first_found = solution
            found += 1
            if limit is not None and found >= limit:
                break
    except LimitReached as exc:  # keep what was found, as the engine's count does
        exc.count, exc.solution = found, first_found  # type: ignore[attr-defined]
        raise
    return found, first_found


def deduce(spec: "MethodSpec", grid: Grid, budget: Budget) -> Grid:
    """What the method's logic alone derives; SudokuError when it has no logic-only mode."""
    logic = spec.function("deduce")
    if logic is None:
        raise SudokuError(f"method {spec.name!r} has no logic-only mode; try 'clauses' or 'preemptive'")
    return logic(grid, budget, **spec.options)
