"""sudokit: solve, count, generate, rate and explain Sudoku puzzles of any box shape.

>>> import sudokit
>>> puzzle = sudokit.example("diabolical")
>>> sudokit.solve(puzzle).solution.line()[:9]
'295743861'
>>> sudokit.count_solutions(puzzle, limit=2), sudokit.is_unique(puzzle)
(1, True)
>>> str(sudokit.rate(puzzle))
'4.4/1.2/1.2 fiendish'

The parts that load numba (the engine, generators, batches) or the human
solver load on first use, so ``import sudokit`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .budget import Budget
from .errors import (
    Contradiction,
    InvalidPuzzle,
    LimitReached,
    ParseError,
    ShapeError,
    SudokuError,
    UnknownMethod,
)
from .examples import EXAMPLES, example
from .formats import parse, parse_candidates, read_puzzles, render
from .grid import CLASSIC, Conflict, Grid, Shape
from .methods import available as available_methods
from .result import Result, Status
from .solving import count, count_solutions, deduce, is_unique, solutions, solve

if TYPE_CHECKING:  # pragma: no cover
    from .batch import BatchResult, count_many, solve_many
    from .generation import GenerationError, Puzzle, complete_grid, generate, generate_many
    from .logic import Rating, Step, explain, hint, rate, techniques
    from .generation.sat import UniquenessProver
    from .svg import grid_svg
    from .pictures.pdf import booklet
    from .canon import Canonical, Transform, canonical

__version__ = "0.1.0"

#: Public names that load their module on first use: name -> module.
_LAZY = {
    "BatchResult": "sudokit.batch",
    "count_many": "sudokit.batch",
    "solve_many": "sudokit.batch",
    "GenerationError": "sudokit.generation",
    "Puzzle": "sudokit.generation",
    "complete_grid": "sudokit.generation",
    "generate": "sudokit.generation",
    "generate_many": "sudokit.generation",
    "Rating": "sudokit.logic",
    "Step": "sudokit.logic",
    "explain": "sudokit.logic",
    "hint": "sudokit.logic",
    "rate": "sudokit.logic",
    "techniques": "sudokit.logic",
    "UniquenessProver": "sudokit.generation.sat",
    "Canonical": "sudokit.canon",
    "Transform": "sudokit.canon",
    "canonical": "sudokit.canon",
    "grid_svg": "sudokit.svg",
    "booklet": "sudokit.pictures.pdf",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sudokit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "BatchResult",
    "Canonical",
    "booklet",
    "Budget",
    "CLASSIC",
    "Conflict",
    "Contradiction",
    "EXAMPLES",
    "GenerationError",
    "Grid",
    "InvalidPuzzle",
    "LimitReached",
    "ParseError",
    "Puzzle",
    "Rating",
    "Result",
    "Shape",
    "ShapeError",
    "Status",
    "Step",
    "SudokuError",
    "UniquenessProver",
    "UnknownMethod",
    "Transform",
    "available_methods",
    "canonical",
    "complete_grid",
    "count",
    "count_many",
    "count_solutions",
    "deduce",
    "example",
    "explain",
    "generate",
    "generate_many",
    "grid_svg",
    "hint",
    "is_unique",
    "parse",
    "parse_candidates",
    "rate",
    "read_puzzles",
    "render",
    "solutions",
    "solve",
    "solve_many",
    "techniques",
]
