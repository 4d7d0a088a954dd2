"""sudokit: solve, count, generate, rate and explain Sudoku puzzles of any box shape.

>>> import sudokit
>>> puzzle = sudokit.example("diabolical")
>>> sudokit.solve(puzzle, method="dfs").solution.line()[:9]
'295743861'
"""

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
from .formats import parse, render
from .grid import CLASSIC, Conflict, Grid, Shape
from .methods import available as available_methods
from .result import Result, Status
from .solving import count, count_solutions, deduce, is_unique, solutions, solve

__version__ = "0.1.0"

__all__ = [
    "Budget",
    "CLASSIC",
    "Conflict",
    "Contradiction",
    "EXAMPLES",
    "Grid",
    "InvalidPuzzle",
    "LimitReached",
    "ParseError",
    "Result",
    "Shape",
    "ShapeError",
    "Status",
    "SudokuError",
    "UnknownMethod",
    "available_methods",
    "count",
    "count_solutions",
    "deduce",
    "example",
    "is_unique",
    "parse",
    "render",
    "solutions",
    "solve",
]
