"""The candidate state the techniques read and the stepper changes.

A :class:`Candidates` holds, per cell, the placed value (0 for a blank) and a
bit mask of the values still possible there (bit ``v-1`` for value ``v``; 0
for a filled cell). Placing a value clears it from every peer, as Sudoku
Explainer does. The geometry (units, peers, which unit is a row, column or
box) is precomputed once per shape in a :class:`Geometry`.

>>> from sudokit.grid import Grid
>>> state = Candidates.from_grid(Grid("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"))
>>> state.values_of(2)          # r1c3
[1, 2, 4]
>>> state.place(2, 4); state.values[2], state.mask[3] & 0b1000
(4, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from ..errors import InvalidPuzzle
from ..grid import Grid, Shape

#: Unit kinds, in the order :attr:`Shape.units` lists them.
ROW, COLUMN, BOX = 0, 1, 2
KIND_NAMES = ("row", "column", "box")


@dataclass(frozen=True)
class Geometry:
    """Precomputed unit tables for one shape (rows, then columns, then boxes)."""

    shape: Shape
    n: int
    units: tuple[tuple[int, ...], ...]
    kind: tuple[int, ...]            # per unit: ROW, COLUMN or BOX
    index: tuple[int, ...]           # per unit: its number within its kind (0-based)
    units_of: tuple[tuple[int, int, int], ...]  # per cell: row, column, box unit ids
    peers: tuple[tuple[int, ...], ...]
    rows: tuple[int, ...]            # unit ids of kind ROW in order
    cols: tuple[int, ...]
    boxes: tuple[int, ...]
    unit_mask: tuple[int, ...]       # per unit: bitboard of its cells (bit c for cell c)
    peer_mask: tuple[int, ...]       # per cell: bitboard of its peers

    def unit_name(self, unit: int) -> str:
        """``'row 3'``, ``'column 1'``, ``'box 7'`` (1-based)."""
        return f"{KIND_NAMES[self.kind[unit]]} {self.index[unit] + 1}"

    def cell_name(self, cell: int) -> str:
        return self.shape.cell_name(cell)

    def symbol(self, value: int) -> str:
        return self.shape.symbols[value - 1] if self.n <= 35 else str(value)


@lru_cache(maxsize=None)
def geometry(shape: Shape) -> Geometry:
    """The (cached) unit tables of ``shape``."""
    n = shape.size
    units = shape.units
    kind = tuple([ROW] * n + [COLUMN] * n + [BOX] * n)
    index = tuple(list(range(n)) * 3)
    return Geometry(
        shape=shape,
        n=n,
        units=units,
        kind=kind,
        index=index,
        units_of=shape.units_of,
        peers=shape.peers,
        rows=tuple(range(n)),
        cols=tuple(range(n, 2 * n)),
        boxes=tuple(range(2 * n, 3 * n)),
        unit_mask=tuple(sum(1 << c for c in unit) for unit in units),
        peer_mask=tuple(sum(1 << p for p in peers) for peers in shape.peers),
    )


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
    def from_grid(cls, grid: Grid) -> "Candidates":
        """The candidates every blank cell has given the placed values.

        Raises :class:`InvalidPuzzle` when givens clash.
        """
        geo = geometry(grid.shape)
        values = list(grid.values)
        used = [0] * len(geo.units)
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
            conflicts = grid.conflicts()
            raise InvalidPuzzle("; ".join(str(c) for c in conflicts), conflicts)
        full = (1 << geo.n) - 1
        masks = [
            0 if v else full & ~(used[r] | used[c] | used[b])
            for v, (r, c, b) in zip(values, geo.units_of)
        ]
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
        return Grid._trusted(self.geo.shape, tuple(self.values))

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
