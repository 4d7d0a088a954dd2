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

from ..errors import InvalidPuzzle
from ..geometry import BOX, COLUMN, KIND_NAMES, ROW, Geometry
from ..grid import Grid, Shape

#: The unit kinds and Geometry come from :mod:`sudokit.geometry`; the techniques import them from here.
__all__ = ["BOX", "COLUMN", "KIND_NAMES", "ROW", "Candidates", "Geometry", "extra_units", "geometry", "is_classic",
           "iter_bits", "se_cells"]


def geometry(shape: Shape) -> Geometry:
    """The (cached) unit tables of ``shape``: :meth:`Geometry.of`, under the name the techniques use."""
    return shape.geometry


def is_classic(geo: Geometry) -> bool:
    """True for a shape's own rows, columns and boxes: the geometry the
    compiled kernels and the specialised tables are written for. A variant
    with extra units, or a jigsaw's regions, is not."""
    return geo is geo.shape.geometry or geo == geo.shape.geometry


#: SukakuExplainer's numbering of the nine window groups of its Windows
#: option (its ``Grid.Window`` regions), cell by cell on the 9x9 grid: the
#: four windows are 0 to 3, the hidden groups 4 to 8. SE lists the cells of
#: groups 6 and 7 (rows 2-4 and 6-8 by columns 1, 5, 9) column by column,
#: the others row by row.
_SE_WINDOWS = (
    "844485558" "600061116" "600061116" "600061116" "844485558"
    "722273337" "722273337" "722273337" "844485558"
)

_EXTRA: dict = {}


def extra_units(geo: Geometry) -> tuple[int, ...]:
    """The units beyond rows, columns and boxes (or regions), in the order
    SukakuExplainer scans its variant regions: the window groups (by SE's
    numbering, the hidden centre group first), then the diagonals (main,
    anti). Other extra kinds follow in unit order. Empty for a classic or
    jigsaw geometry.

    >>> from sudokit import variants
    >>> [variants.hyper().unit_name(u) for u in extra_units(variants.hyper())][3:6]
    ['window 4', 'hidden window 1', 'hidden window 5']
    """
    got = _EXTRA.get(geo)
    if got is None:
        from ..geometry import BOX as _BOX

        extra = [u for u, k in enumerate(geo.kind) if k > _BOX]

        def key(u: int) -> tuple[int, int, int]:
            cells = geo.units[u]
            if geo.n == 9 and geo.kind_names[geo.kind[u]] in ("window", "hidden window"):
                return (0, int(_SE_WINDOWS[min(cells)]), u)
            if geo.kind_names[geo.kind[u]] == "diagonal":
                return (1, 0, u)
            return (2, 0, u)

        got = _EXTRA[geo] = tuple(sorted(extra, key=key))
    return got


def se_cells(geo: Geometry, unit: int) -> tuple[int, ...]:
    """The cells of ``unit`` in SukakuExplainer's order: the unit's own order,
    except for SE's window groups 6 and 7, which it lists column by column."""
    cells = geo.units[unit]
    if geo.n == 9 and geo.kind_names[geo.kind[unit]] == "hidden window" and _SE_WINDOWS[min(cells)] in "67":
        return tuple(sorted(cells, key=lambda c: (c % 9, c // 9)))
    return cells


def _cage_masks(geo: Geometry, values: list[int], masks: list[int]) -> None:
    """Narrow ``masks`` (in place) by the killer cages of ``geo``: a digit placed in a cage
    leaves its other cells, and an open cell keeps only the digits of the sets of different
    digits that make up the rest of its cage's total (:func:`sudokit.killer.sum_mask`)."""
    from ..killer import sum_mask

    for cage in geo.cages:
        placed = [values[c] for c in cage.cells if values[c]]
        keep = (1 << geo.n) - 1
        for v in placed:
            keep &= ~(1 << (v - 1))
        if cage.total is not None:
            keep &= sum_mask(geo.n, len(cage.cells) - len(placed), cage.total - sum(placed))
        for c in cage.cells:
            if not values[c]:
                masks[c] &= keep


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
            geo = grid.geometry
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
        if geo.cages and not clash:  # a killer: no digit twice in a cage, no full cage off its total
            clash = not all(cage.allows(values) for cage in geo.cages)
        if clash:
            conflicts = grid.conflicts(geo)
            if not conflicts:  # a cage whose digits differ but miss its total
                bad = next(i for i, cage in enumerate(geo.cages, 1) if not cage.allows(values))
                raise InvalidPuzzle(f"cage {bad} ({geo.cages[bad - 1].name(geo.n)}) does not add up to its total")
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
        if geo.cages:  # a killer: each cage's digits differ and its open cells make the rest of its total
            _cage_masks(geo, values, masks)
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
        return Grid.unchecked(self.geo.shape, tuple(self.values),
                              None if self.geo is self.geo.shape.geometry else self.geo)

    # -- changing -------------------------------------------------------------

    def place(self, cell: int, value: int) -> None:
        """Set ``value`` at ``cell`` and clear it from the peers (and, in a killer, from the
        cell's cage: a cage's digits differ too)."""
        self.values[cell] = value
        self.mask[cell] = 0
        clear = ~(1 << (value - 1))
        mask = self.mask
        for p in self.geo.peers[cell]:
            mask[p] &= clear
        geo = self.geo
        if geo.cages:
            cage = geo.cage_of[cell]
            if cage >= 0:
                for p in geo.cages[cage].cells:
                    mask[p] &= clear

    def eliminate(self, cell: int, value: int) -> None:
        self.mask[cell] &= ~(1 << (value - 1))
