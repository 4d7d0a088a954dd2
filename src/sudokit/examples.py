"""Named example puzzles from the classic write-ups.

>>> example("diabolical").clues
28
>>> sorted(EXAMPLES)[:3]
['blank', 'diabolical', 'easy']
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SudokuError
from .grid import Grid


@dataclass(frozen=True)
class Example:
    """A named puzzle with where it comes from and what it shows."""

    name: str
    rows: tuple[str, ...]
    source: str
    note: str

    @property
    def grid(self) -> Grid:
        return Grid("".join(self.rows))


def _rows(*rows: str) -> tuple[str, ...]:
    return rows


_BIRD_HUTTON = "Bird and Hutton's wholemeal Sudoku solver"
_MIP = "the integer-programming write-up"

EXAMPLES: dict[str, Example] = {
    e.name: e
    for e in [
        Example("easy", _rows(
            "2....1.38", "........5", ".7...6...", ".......13", ".981..257",
            "31....8..", "9..8...2.", ".5..69784", "4..25....",
        ), _BIRD_HUTTON, "solvable using only the basic rules"),
        Example("gentle", _rows(
            ".1.42...5", "..2.71.39", ".......4.", "2.71....6", "....4....",
            "6....74.3", ".7.......", "12.73.5..", "3...82.7.",
        ), _BIRD_HUTTON, "first gentle example from sudoku.org.uk"),
        Example("diabolical", _rows(
            ".9.7..86.", ".31..5.2.", "8.6......", "..7.5...6", "...3.7...",
            "5...1.7..", "......1.9", ".2.6..35.", ".54..8.7.",
        ), _BIRD_HUTTON, "first diabolical example"),
        Example("unsolvable", _rows(
            "1..9.7..3", ".8.....7.", "..9...6..", "..72.94..", "41.....95",
            "..85.43..", "..3...7..", ".5.....4.", "2..8.6..9",
        ), _BIRD_HUTTON, "'unsolvable' by pruning alone: it needs search (it has one solution)"),
        Example("minimal", _rows(
            ".98......", "....7....", "....15...", "1........", "...2....9",
            "...9.6.82", ".......3.", "5.1......", "...4...2.",
        ), _BIRD_HUTTON, "17 givens with a unique solution"),
        Example("blank", _rows(*(["........."] * 9)), _BIRD_HUTTON, "no givens: every grid is a solution"),
        Example("wikipedia", _rows(
            "53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1",
            "7...2...6", ".6....28.", "...419..5", "....8..79",
        ), _MIP, "the puzzle from Wikipedia's Sudoku article"),
        Example("infeasible", _rows(
            "53..7....", "6..195...", ".98....6.", "8...6...3", "4228.3..1",
            "7...2...6", ".6....28.", "...419..5", "....8..79",
        ), _MIP, "Wikipedia's puzzle with two 2s side by side in row 5"),
    ]
}


def example(name: str) -> Grid:
    """The named example as a Grid."""
    try:
        return EXAMPLES[name].grid
    except KeyError:
        raise SudokuError(f"no example called {name!r}; choose one of: {', '.join(EXAMPLES)}") from None
