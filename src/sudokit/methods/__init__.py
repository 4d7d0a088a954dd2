"""The registry of solving methods, selectable by name.

Each method lives in its own module and is loaded only when first used, so
that importing sudokit stays cheap (numba and scipy load on demand).

A method module provides some of these functions:

``solutions(grid, budget, **options) -> Iterator[Grid]``
    Every solution, lazily, for a *complete* method. It may assume the givens
    are consistent; it calls ``budget.tick()`` once per search node and lets
    :class:`~sudokit.errors.LimitReached` propagate.
``count(grid, limit, budget, **options) -> tuple[int, Grid | None]``
    Optional fast path for counting up to ``limit`` (None: no limit); the
    count and the first solution.
``first(grid, budget, **options) -> Grid | None``
    Optional fast path for the first solution, None when there is none.
``deduce(grid, budget, **options) -> Grid``
    What logic alone derives, without guessing. Raises
    :class:`~sudokit.errors.Contradiction` when logic finds the puzzle has no
    solution.

>>> sorted(available())[:3]
['bfs', 'clauses', 'dfs']
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

from ..errors import UnknownMethod


@dataclass(frozen=True)
class MethodSpec:
    """How to find and call one named method."""

    name: str
    module: str
    summary: str
    complete: bool
    source: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    #: True when the method finds no solution for givens that clash, so the
    #: callers may look for clashes only after it reports none.
    clash_proof: bool = False

    def load(self) -> ModuleType:
        return importlib.import_module(self.module)

    def function(self, attr: str) -> Callable[..., Any] | None:
        key = (self.module, attr)
        if key not in _FUNCTIONS:
            _FUNCTIONS[key] = getattr(self.load(), attr, None)
        return _FUNCTIONS[key]


_FUNCTIONS: dict[tuple[str, str], Callable[..., Any] | None] = {}


_REGISTRY: dict[str, MethodSpec] = {}


def register(spec: MethodSpec) -> MethodSpec:
    _REGISTRY[spec.name] = spec
    return spec


def get(name: str) -> MethodSpec:
    """The method called ``name``; UnknownMethod lists the known names."""
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownMethod(f"unknown method {name!r}; choose one of: {known}") from None


def available() -> dict[str, MethodSpec]:
    """Every registered method by name."""
    return dict(_REGISTRY)


register(MethodSpec(
    "fast", "sudokit.engine", complete=True,
    summary="numba-compiled bitboard search with singles and locked candidates (the default)",
    source="after tdoku and JCZSolve",
    clash_proof=True,
))
register(MethodSpec(
    "clauses", "sudokit.methods.clauses", complete=False,
    summary="exactly-one clauses over 729 propositions, simplified to a fixpoint; logic only",
    source="the propositional-logic Sudoku write-up",
))
register(MethodSpec(
    "wholemeal", "sudokit.methods.wholemeal", complete=True,
    summary="matrix of choices, prune, expand the cell with the fewest choices",
    source="Bird, 'A program to solve Sudoku' (JFP 2006); Hutton's lecture version",
))
register(MethodSpec(
    "wholemeal-first", "sudokit.methods.wholemeal", complete=True,
    summary="wholemeal with the original expansion of the first open cell",
    source="Bird, 'A program to solve Sudoku' (JFP 2006)",
    options={"expand": "first"},
))
register(MethodSpec(
    "mip", "sudokit.methods.mip", complete=True,
    summary="0-1 integer program solved by HiGHS; no-good cuts to enumerate",
    source="the integer-programming Sudoku write-up",
))
register(MethodSpec(
    "dfs", "sudokit.methods.tree", complete=True,
    summary="depth-first search over (grid, open constraints), fewest candidates first",
    source="the search-tree Sudoku write-up",
    options={"order": "depth"},
))
register(MethodSpec(
    "bfs", "sudokit.methods.tree", complete=True,
    summary="breadth-first search over (grid, open constraints), fewest candidates first",
    source="the search-tree Sudoku write-up",
    options={"order": "breadth"},
))
register(MethodSpec(
    "preemptive", "sudokit.methods.preemptive", complete=True,
    summary="markup, preemptive sets to a fixpoint, then guess at the fewest candidates",
    source="J. F. Crook, 'A pencil-and-paper algorithm for solving Sudoku puzzles' (Notices AMS, 2009)",
))
