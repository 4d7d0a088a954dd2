"""The registry of solving methods: each method's name, module, kind and description.

Each method lives in its own module and is loaded only when first used, so
that importing sudokit stays cheap (numba and scipy load on demand). What a
method module provides, and how it is called, is the contract of
:mod:`sudokit.methods.contract`: ``solutions(grid, budget, **options)`` for a
*complete* method, ``deduce(grid, budget, **options)`` for logic, and the
optional fast paths ``count`` and ``first``. Each entry also says, in a few
words, how the method represents a puzzle and what it infers, for the table of
``benchmarks/bench_methods.py``.

>>> sorted(available())[:3]
['bfs', 'clauses', 'dfs']
>>> get("wholemeal").representation
'a matrix of choices: N rows of N tuples of values'
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
    #: True when the method reads the units from the grid's geometry, so that it
    #: takes variants (X, hyper, jigsaw); the others read a shape's rows,
    #: columns and boxes, and refuse a variant's grid.
    any_units: bool = False
    #: True when the method keeps killer cages (:attr:`sudokit.geometry.Geometry.cages`):
    #: their digits differ and add up to their totals. The others refuse a killer.
    cages: bool = False
    #: How the method holds a puzzle while it works, in a few words.
    representation: str = ""
    #: What it infers between guesses (or instead of them), in a few words.
    inference: str = ""

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


def reading_units() -> list[str]:
    """The names of the methods that read a grid's units from its geometry
    (:attr:`MethodSpec.any_units`), which a variant's puzzle needs."""
    return sorted(name for name, spec in _REGISTRY.items() if spec.any_units)


def reading_cages() -> list[str]:
    """The names of the methods that keep killer cages (:attr:`MethodSpec.cages`)."""
    return sorted(name for name, spec in _REGISTRY.items() if spec.cages)


def available() -> dict[str, MethodSpec]:
    """Every registered method by name."""
    return dict(_REGISTRY)


register(MethodSpec(
    "fast", "sudokit.engine", complete=True, any_units=True, cages=True,
    summary="numba-compiled bitboard search with singles and locked candidates (the default)",
    source="after tdoku and JCZSolve",
    clash_proof=True,
    representation="per digit, 81-bit candidate sets in three band words (9x9); a 64-bit mask per cell (other shapes)",
    inference="naked and hidden singles and locked candidates by band tables, to a fixpoint; guess a bivalue cell",
))
register(MethodSpec(
    "clauses", "sudokit.methods.clauses", complete=False, any_units=True,
    summary="exactly-one clauses over 729 propositions, simplified to a fixpoint; logic only",
    source="the propositional-logic Sudoku write-up",
    representation="729 variables (asserted, denied, unknown) in 324 exactly-one clauses",
    inference="assert, deny, a clause with one variable left asserts it (naked and hidden singles); no guessing",
))
register(MethodSpec(
    "wholemeal", "sudokit.methods.wholemeal", complete=True, any_units=True,
    summary="matrix of choices, prune, expand the cell with the fewest choices",
    source="Bird, 'A program to solve Sudoku' (JFP 2006); Hutton's lecture version",
    representation="a matrix of choices: N rows of N tuples of values",
    inference="prune the singles out of rows, columns and boxes to a fixpoint; expand the cell with the fewest choices",
))
register(MethodSpec(
    "wholemeal-first", "sudokit.methods.wholemeal", complete=True, any_units=True,
    summary="wholemeal with the original expansion of the first open cell",
    source="Bird, 'A program to solve Sudoku' (JFP 2006)",
    options={"expand": "first"},
    representation="a matrix of choices: N rows of N tuples of values",
    inference="prune the singles out of rows, columns and boxes to a fixpoint; expand the first open cell",
))
register(MethodSpec(
    "mip", "sudokit.methods.mip", complete=True, any_units=True, cages=True,
    summary="0-1 integer program solved by HiGHS; no-good cuts to enumerate",
    source="the integer-programming Sudoku write-up",
    representation="N³ binary variables under 4N² exactly-one rows (a sparse matrix)",
    inference="HiGHS's presolve, LP relaxation and branch and bound; a no-good cut per solution found",
))
register(MethodSpec(
    "dfs", "sudokit.methods.tree", complete=True, any_units=True,
    summary="depth-first search over (grid, open constraints), fewest candidates first",
    source="the search-tree Sudoku write-up",
    options={"order": "depth"},
    representation="a grid of values (bytes); candidates recomputed at each node",
    inference="none between nodes; branch on the cell or unit-value with the fewest candidates, depth first",
))
register(MethodSpec(
    "bfs", "sudokit.methods.tree", complete=True, any_units=True,
    summary="breadth-first search over (grid, open constraints), fewest candidates first",
    source="the search-tree Sudoku write-up",
    options={"order": "breadth"},
    representation="a grid of values (bytes); candidates recomputed at each node",
    inference="none between nodes; branch on the cell or unit-value with the fewest candidates, level by level",
))
register(MethodSpec(
    "preemptive", "sudokit.methods.preemptive", complete=True, any_units=True,
    summary="markup, preemptive sets to a fixpoint, then guess at the fewest candidates",
    source="J. F. Crook, 'A pencil-and-paper algorithm for solving Sudoku puzzles' (Notices AMS, 2009)",
    representation="a markup: one candidate bit mask per cell",
    inference="preemptive sets of every size (naked subsets and their hidden complements) to a fixpoint; guess the fewest",
))
