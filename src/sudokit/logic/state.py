"""The candidate state the techniques read and the stepper changes.

A :class:`Candidates` holds, per cell, the placed value (0 for a blank) and a
bit mask of the values still possible there (bit ``v-1`` for value ``v``; 0
for a filled cell). Placing a value clears it from every peer, as Sudoku
Explainer does. The geometry (units, peers, which unit is a row, column or
box, and their bit masks) is :class:`sudokit.geometry.Geometry`, built once
per shape; ``state.geo`` holds it.

>>> from sudokit.grid import Grid
>>> state = Candidates.from_grid(Grid("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"))
>>> state.values_of(2)          # r1c3
[1, 2, 4]
>>> state.place(2, 4); state.values[2], state.mask[3] & 0b1000
(4, 0)
"""

from __future__ import annotations

from typing import Iterator

from ..errors import InvalidPuzzle, SudokuError
from ..geometry import BOX, COLUMN, KIND_NAMES, ROW, Geometry
from ..grid import Grid, Shape

#: The unit kinds and Geometry come from :mod:`sudokit.geometry`; the techniques import them from here.
__all__ = ["BOX", "COLUMN", "KIND_NAMES", "ROW", "Candidates", "Geometry", "geometry", "iter_bits"]


def geometry(shape: Shape) -> Geometry:
    """The (cached) unit tables of ``shape``: :meth:`Geometry.of`, under the name the techniques use."""
    return shape.geometry


def iter_bits(mask: int) -> "Iterator[int]":
    """The indices of the set bits of ``mask``, ascending.

    >>> list(iter_bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Candidates:
    """Values and candidate masks of every cell; mutable.

    ``values[c]`` is the placed value (0 for blank); ``mask[c]`` the bit set
    of candidates (0 once a value is placed).
    """

    __slots__ = ("geo", "values", "mask")

    def __init__(self, geo: Geometry, values: list[int], mask: list[int]) -> None:
        self.geo = geo
        self.values = values
        self.mask = mask

    @classmethod
    def from_grid(cls, grid: Grid, geo: Geometry | None = None) -> "Candidates":
        """The candidates every blank cell has given the placed values.

        ``geo`` is the geometry whose units count (default: the shape's rows,
        columns and boxes). Raises :class:`InvalidPuzzle` when givens clash
        in one of its units.
        """
        if geo is None:
            if grid.is_variant:  # the techniques' ladder and SE's variant rules are not wired yet
                from .. import variants

                raise SudokuError(f"the logic (rate, explain, hint) does not take {variants.describe(grid.geometry)} "
                                  "puzzles yet; solve them with a method that reads their units (docs/variants.md)")
            geo = grid.shape.geometry
        values = list(grid.values)
        used = [0] * len(geo.units)  # per unit: the values placed in it
        clash = False
        for unit, cells in enumerate(geo.units):
            seen = 0
            for c in cells:
                v = values[c]
                if v:
                    bit = 1 << (v - 1)
                    if seen & bit:
                        clash = True
                    seen |= bit
            used[unit] = seen
        if clash:
            conflicts = grid.conflicts(geo)
            raise InvalidPuzzle("; ".join(str(c) for c in conflicts), conflicts)
        full = (1 << geo.n) - 1
        if len(geo.units) == 3 * geo.n:  # rows, columns and boxes only: three units a cell
            masks = [0 if v else full & ~(used[r] | used[c] | used[b]) for v, (r, c, b) in zip(values, geo.units_of)]
        else:  # extra units: however many hold the cell
            masks = [0] * len(values)
            for cell, (v, units) in enumerate(zip(values, geo.units_of)):
                if not v:
                    m = full
                    for u in units:
                        m &= ~used[u]
                    masks[cell] = m
        return cls(geo, values, masks)

    @classmethod
    def from_masks(cls, grid: Grid, masks: "list[int] | tuple[int, ...]") -> "Candidates":
        """A state from pencil marks: ``masks`` per cell (ignored where a value
        is placed), intersected with what the placed values allow."""
        state = cls.from_grid(grid)
        for cell, m in enumerate(masks):
            if not state.values[cell]:
                state.mask[cell] &= m
        return state

    def copy(self) -> "Candidates":
        return Candidates(self.geo, list(self.values), list(self.mask))

    # -- reading --------------------------------------------------------------

    def values_of(self, cell: int) -> list[int]:
        """The candidate values of ``cell``, ascending."""
        m = self.mask[cell]
        return [v + 1 for v in range(self.geo.n) if m >> v & 1]

    def cells_with(self, value: int) -> int:
        """Bitboard (bit c for cell c) of the cells where ``value`` is a candidate.

        With :attr:`Geometry.unit_mask` and :attr:`Geometry.peer_mask` this
        answers "where in row 3", "which cells see both" with ``&``.
        """
        bit = 1 << (value - 1)
        board = 0
        for c, m in enumerate(self.mask):
            if m & bit:
                board |= 1 << c
        return board

    def positions(self, unit: int, value: int) -> list[int]:
        """The cells of ``unit`` where ``value`` is still a candidate."""
        bit = 1 << (value - 1)
        mask = self.mask
        return [c for c in self.geo.units[unit] if mask[c] & bit]

    @property
    def solved(self) -> bool:
        return 0 not in self.values

    def grid(self) -> Grid:
        """The placed values as a :class:`Grid`."""
        return Grid.unchecked(self.geo.shape, tuple(self.values))

    # -- changing -------------------------------------------------------------

    def place(self, cell: int, value: int) -> None:
        """Set ``value`` at ``cell`` and clear it from the peers."""
        self.values[cell] = value
        self.mask[cell] = 0
        clear = ~(1 << (value - 1))
        mask = self.mask
        for p in self.geo.peers[cell]:
            mask[p] &= clear

    def eliminate(self, cell: int, value: int) -> None:
        self.mask[cell] &= ~(1 << (value - 1))
