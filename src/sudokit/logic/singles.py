"""Singles: the last value of a unit, hidden singles and naked singles.

Sudoku Explainer rates a hidden single 1.0 when its cell is the last empty
cell of the unit ("last value", also called full house), 1.2 in a box and 1.5
in a row or column; a naked single (a cell with one candidate left) 2.3.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.state import Candidates
>>> s = Candidates.from_grid(Grid("5763894213926148754187526398619472537392..1..2541.89..6435.....9854.....1.78.3..."))
>>> str(next(find_last_value_box(s)))
'Hidden Single: r9c2=2 (last empty cell of box 7)'
"""

from __future__ import annotations

from typing import Callable, Iterator

from .state import BOX, COLUMN, ROW, Candidates, KIND_NAMES
from .step import Step, Technique

RATING_LAST = 1.0
RATING_BOX = 1.2
RATING_LINE = 1.5
RATING_NAKED = 2.3


def _hidden_singles(state: Candidates, kind: int, alone: bool) -> Iterator[Step]:
    """Hidden singles in the units of ``kind``; ``alone`` picks only those
    whose cell is the unit's last empty cell (and only those: else the rest)."""
    geo = state.geo
    units = (geo.rows, geo.cols, geo.boxes)[kind]
    rating = RATING_LAST if alone else (RATING_BOX if kind == BOX else RATING_LINE)
    return hidden_singles_in(state, units, rating, alone)


def hidden_singles_in(state: Candidates, units, rating: float, alone: bool) -> Iterator[Step]:
    """Hidden singles in ``units`` (indices into the geometry's units), each
    rated ``rating``; ``alone`` as in :func:`_hidden_singles` (a variant's
    extra units use it too, :mod:`~sudokit.logic.generalized`)."""
    geo, mask, values = state.geo, state.mask, state.values
    for unit in units:
        cells = geo.units[unit]
        once = twice = 0
        empty = 0
        for c in cells:
            m = mask[c]
            twice |= once & m
            once |= m
            if not values[c]:
                empty += 1
        if (empty == 1) != alone:
            continue
        single = once & ~twice
        v = 0
        while single:
            if single & 1:
                cell = next(c for c in cells if mask[c] & (1 << v))
                yield single_step(geo, cell, v + 1, unit, alone, rating)
            single >>= 1
            v += 1


def single_step(geo, cell: int, value: int, unit: int, alone: bool, rating: float | None = None) -> Step:
    """The Step of a hidden single (or last value): ``rating`` by default
    the one of the unit's kind (a kernel finds them too)."""
    if rating is None:
        kind = geo.kind[unit]
        rating = RATING_LAST if alone else (RATING_BOX if kind == BOX else RATING_LINE)
    where = (
        f"last empty cell of {geo.unit_name(unit)}"
        if alone
        else f"only place for {geo.symbol(value)} in {geo.unit_name(unit)}"
    )
    return Step(
        "Hidden Single", rating, placements=((cell, value),), cells=(cell,), units=(unit,), values=(value,),
        text=f"Hidden Single: {geo.cell_name(cell)}={geo.symbol(value)} ({where})",
    )


def _finder(kind: int, alone: bool) -> Callable[[Candidates], Iterator[Step]]:
    def find(state: Candidates) -> Iterator[Step]:
        return _hidden_singles(state, kind, alone)

    find.__name__ = f"find_{'last_value' if alone else 'hidden_single'}_{KIND_NAMES[kind]}"
    return find


find_last_value_box = _finder(BOX, True)
find_last_value_column = _finder(COLUMN, True)
find_last_value_row = _finder(ROW, True)
find_hidden_single_box = _finder(BOX, False)
find_hidden_single_column = _finder(COLUMN, False)
find_hidden_single_row = _finder(ROW, False)


def find_naked_single(state: Candidates) -> Iterator[Step]:
    """Cells with a single candidate, in cell order."""
    geo, mask = state.geo, state.mask
    for cell, m in enumerate(mask):
        if m and not m & (m - 1):
            v = m.bit_length()
            yield Step(
                "Naked Single", RATING_NAKED, placements=((cell, v),), cells=(cell,), values=(v,),
                text=f"Naked Single: {geo.cell_name(cell)}={geo.symbol(v)} (only candidate left in the cell)",
            )


LAST_VALUE_BOX = Technique("Hidden Single", RATING_LAST, "singles", find_last_value_box, "last value in box")
LAST_VALUE_COLUMN = Technique("Hidden Single", RATING_LAST, "singles", find_last_value_column, "last value in column")
LAST_VALUE_ROW = Technique("Hidden Single", RATING_LAST, "singles", find_last_value_row, "last value in row")
HIDDEN_SINGLE_BOX = Technique("Hidden Single", RATING_BOX, "singles", find_hidden_single_box, "box")
HIDDEN_SINGLE_COLUMN = Technique("Hidden Single", RATING_LINE, "singles", find_hidden_single_column, "column")
HIDDEN_SINGLE_ROW = Technique("Hidden Single", RATING_LINE, "singles", find_hidden_single_row, "row")
NAKED_SINGLE = Technique("Naked Single", RATING_NAKED, "singles", find_naked_single)

TECHNIQUES = (
    LAST_VALUE_BOX, LAST_VALUE_COLUMN, LAST_VALUE_ROW,
    HIDDEN_SINGLE_BOX, HIDDEN_SINGLE_COLUMN, HIDDEN_SINGLE_ROW,
    NAKED_SINGLE,
)
