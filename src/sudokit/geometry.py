"""Which cells belong together: a :class:`Shape` of boxes, and the :class:`Geometry` of units it makes.

A shape is ``R x C``: boxes of R rows by C columns, so the grid has
``N = R*C`` rows, columns, boxes and values. Cells are numbered 0..N²-1 row
by row; in text they are written ``rNcM``, 1-based, as HoDoKu and Sudoku
Explainer write them. A geometry is the puzzle's units as data: each unit a
tuple of cells with a kind (row, column, box) and a number within its kind.
Everything else follows from the units in one place, here: which units hold
a cell, its peers, and the bit masks the logic works with. Solvers, the
logic and the pictures read these tables; none builds its own.

Throughout: ``n`` is the size N, ``cell`` an index 0..N²-1, ``unit`` an
index into :attr:`Geometry.units` (rows first, then columns, then boxes, so
unit ``u`` of a 9x9 is row ``u``, column ``u - 9`` or box ``u - 18``).

>>> shape = Shape(3, 3)
>>> shape.size, len(shape.units), len(shape.peers[0])
(9, 27, 20)
>>> shape.cell_name(5)
'r1c6'
>>> geo = shape.geometry
>>> geo.unit_names[geo.units_of[80][BOX]], geo.units[geo.rows[0]][:3]
('box 9', (0, 1, 2))

Variants add units as data: ``Geometry(shape, units, kinds)`` takes any
units of N cells (say the two diagonals, as a new kind), and peers, masks
and names follow without a change to the code that reads them.

Why :class:`Shape` lives here and not beside the grid: the shape and the
units are one idea (which cells belong together), and the grid, the logic,
the readers and the pictures all read it; ``sudokit.grid`` re-exports
``Shape``, ``shape_of`` and ``CLASSIC``, so ``from sudokit.grid import Shape``
keeps working.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Iterable, Sequence

from .errors import ShapeError

if TYPE_CHECKING:  # pragma: no cover
    from .killer import Cage

#: The largest size sudokit accepts (candidate sets must fit in 64 bits).
MAX_SIZE = 64

#: The default alphabet: values 1..N are written with the first N symbols
#: (other alphabets: :mod:`sudokit.symbols`).
DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: Unit kinds: :attr:`Geometry.kind` holds one per unit.
ROW, COLUMN, BOX = 0, 1, 2
#: The name of each kind, indexed by kind (a new kind appends its name).
KIND_NAMES = ("row", "column", "box")


@dataclass(frozen=True)
class Shape:
    """Box rows by box columns. ``Shape(3, 3)`` is the classic 9x9.

    The cell arithmetic (row, column and box of a cell) lives here; the unit
    tables (:attr:`units`, :attr:`units_of`, :attr:`peers`, ...) are those of
    :attr:`geometry`, the shape's rows, columns and boxes.

    >>> Shape.parse("2x3").size
    6
    >>> Shape.for_size(6), Shape.for_size(16)
    (Shape(2, 3), Shape(4, 4))
    """

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        if not (isinstance(self.box_rows, int) and isinstance(self.box_cols, int)):
            raise ShapeError("box rows and columns must be whole numbers")
        if self.box_rows < 1 or self.box_cols < 1:
            raise ShapeError(f"a box needs at least one row and one column, not {self.box_rows}x{self.box_cols}")
        if self.box_rows * self.box_cols > MAX_SIZE:
            raise ShapeError(
                f"a {self.box_rows}x{self.box_cols} box makes a {self.box_rows * self.box_cols}x"
                f"{self.box_rows * self.box_cols} grid; the largest supported size is {MAX_SIZE}"
            )

    def __repr__(self) -> str:
        return f"Shape({self.box_rows}, {self.box_cols})"

    def __str__(self) -> str:
        return f"{self.box_rows}x{self.box_cols}"

    def __reduce__(self):  # pickles as its two numbers, not its cached tables
        return (_shape, (self.box_rows, self.box_cols))

    # -- construction -------------------------------------------------------

    @staticmethod
    def parse(text: str) -> "Shape":
        """Read ``"RxC"`` (box rows x box columns), or a bare size ``"N"``."""
        cleaned = text.strip().lower().replace("×", "x")
        try:
            if "x" in cleaned:
                rows, cols = cleaned.split("x")
                return Shape(int(rows), int(cols))
            return Shape.for_size(int(cleaned))
        except ShapeError:
            raise
        except ValueError:
            raise ShapeError(f"cannot read box shape {text!r}: expected RxC such as 3x3 or 2x3") from None

    @staticmethod
    def for_size(size: int) -> "Shape":
        """The conventional shape for a size N.

        A square N gets square boxes; otherwise the box has the most rows R
        with R ≤ √N that divide N.
        """
        if size < 1 or size > MAX_SIZE:
            raise ShapeError(f"size {size} is out of range 1..{MAX_SIZE}")
        root = math.isqrt(size)
        for rows in range(root, 0, -1):
            if size % rows == 0:
                return _shape(rows, size // rows)
        raise AssertionError("unreachable: 1 divides every size")

    @staticmethod
    def for_cells(count: int) -> "Shape":
        """The conventional shape of a grid with ``count`` cells (N²)."""
        size = math.isqrt(count)
        if size * size != count or count == 0:
            raise ShapeError(f"{count} cells is not a square grid (N² cells)")
        return Shape.for_size(size)

    # -- cells ----------------------------------------------------------------

    @property
    def size(self) -> int:
        """N: the number of rows, columns, boxes and values."""
        return self.box_rows * self.box_cols

    @property
    def cell_count(self) -> int:
        """N²."""
        return self.size * self.size

    @property
    def symbols(self) -> str:
        """The default alphabet for this size (``1-9`` then ``A-Z``)."""
        if self.size > len(DEFAULT_SYMBOLS):
            raise ShapeError(f"size {self.size} needs an explicit alphabet (symbols=...)")
        return DEFAULT_SYMBOLS[: self.size]

    def row_of(self, cell: int) -> int:
        return cell // self.size

    def col_of(self, cell: int) -> int:
        return cell % self.size

    def box_of(self, cell: int) -> int:
        row, col = divmod(cell, self.size)
        return (row // self.box_rows) * self.box_rows + col // self.box_cols

    def cell(self, row: int, col: int) -> int:
        """The index of the cell at 0-based ``row`` and ``col``."""
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise IndexError(f"cell ({row}, {col}) is outside a {self.size}x{self.size} grid")
        return row * self.size + col

    def cell_name(self, cell: int) -> str:
        """``rNcM``, 1-based: ``Shape(3, 3).cell_name(80) == 'r9c9'``."""
        row, col = divmod(cell, self.size)
        return f"r{row + 1}c{col + 1}"

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The cells of each row."""
        n = self.size
        return tuple(tuple(r * n + c for c in range(n)) for r in range(n))

    @cached_property
    def cols(self) -> tuple[tuple[int, ...], ...]:
        """The cells of each column."""
        n = self.size
        return tuple(tuple(r * n + c for r in range(n)) for c in range(n))

    @cached_property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        """The cells of each box, boxes numbered row by row, cells row by row."""
        n, br, bc = self.size, self.box_rows, self.box_cols
        boxes = []
        for band in range(n // br):  # box rows stacked down the grid
            for stack in range(n // bc):
                boxes.append(
                    tuple(
                        (band * br + r) * n + stack * bc + c
                        for r in range(br)
                        for c in range(bc)
                    )
                )
        return tuple(boxes)

    # -- units: the geometry's tables ------------------------------------------

    @cached_property
    def geometry(self) -> "Geometry":
        """The units of this shape: its rows, columns and boxes."""
        return Geometry.of(self)

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """All 3N units: rows, then columns, then boxes."""
        return self.geometry.units

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        return self.geometry.unit_names

    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices into :attr:`units` of its row, column and box."""
        return self.geometry.units_of

    @cached_property
    def unit_getters(self) -> tuple["itemgetter[tuple[int, ...]]", ...]:
        """Per unit, a getter that gathers its values from a tuple of N² values."""
        return self.geometry.unit_getters

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the other cells that share a unit with it, sorted."""
        return self.geometry.peers


@lru_cache(maxsize=None)
def _shape(box_rows: int, box_cols: int) -> Shape:
    return Shape(box_rows, box_cols)


#: The classic 9x9 shape.
CLASSIC = _shape(3, 3)


def shape_of(value: "Shape | str | tuple[int, int] | None", cells: int | None = None) -> Shape:
    """Coerce ``value`` to a shared :class:`Shape` instance (cached geometry).

    ``None`` picks the conventional shape for ``cells`` cells, or 9x9.
    """
    if value is None:
        return CLASSIC if cells is None else _canonical(Shape.for_cells(cells))
    if isinstance(value, Shape):
        return _canonical(value)
    if isinstance(value, str):
        return _canonical(Shape.parse(value))
    rows, cols = value
    return _shape(rows, cols)


def _canonical(shape: Shape) -> Shape:
    return _shape(shape.box_rows, shape.box_cols)


class Geometry:
    """The units of a puzzle, and the tables that follow from them.

    ``units[u]`` are the cells of unit ``u``, ``kind[u]`` its kind
    (:data:`ROW`, :data:`COLUMN`, :data:`BOX`; variants add kinds) and
    ``index[u]`` its number within its kind, 0-based. A shape's geometry
    (:meth:`of`) lists its rows, then its columns, then its boxes; units
    added later come after them, so the first three units of every cell
    (:attr:`units_of`) stay its row, column and box.

    Derived once, on first use: :attr:`units_of`, :attr:`peers`,
    :attr:`unit_mask` and :attr:`peer_mask` (bit ``c`` for cell ``c``),
    :attr:`unit_names`, and the unit ids of each kind (:attr:`rows`,
    :attr:`cols`, :attr:`boxes`, :meth:`of_kind`).

    >>> geo = Geometry.of(Shape(2, 2))
    >>> geo.unit_name(9), geo.units_of[5], geo.peers[0]
    ('box 2', (1, 5, 8), (1, 2, 3, 4, 5, 8, 12))
    >>> diagonal = Geometry(Shape(2, 2), geo.units + ((0, 5, 10, 15),), geo.kind + (3,), names=KIND_NAMES + ("diagonal",))
    >>> diagonal.unit_name(12), diagonal.units_of[5], len(diagonal.peers[0])
    ('diagonal 1', (1, 5, 8, 12), 9)
    """

    def __init__(
        self,
        shape: Shape,
        units: Sequence[Sequence[int]],
        kinds: Sequence[int],
        *,
        names: Sequence[str] = KIND_NAMES,
        cages: Sequence["Cage"] = (),
    ) -> None:
        n = shape.size
        cells = n * n
        units = tuple(tuple(u) for u in units)
        kinds = tuple(kinds)
        if len(kinds) != len(units):
            raise ShapeError(f"{len(units)} units need {len(units)} kinds, got {len(kinds)}")
        for u, unit in enumerate(units):
            if len(unit) != n or len(set(unit)) != n or not all(0 <= c < cells for c in unit):
                raise ShapeError(f"unit {u + 1} must hold {n} different cells of the {n}x{n} grid")
            if not 0 <= kinds[u] < len(names):
                raise ShapeError(f"unit {u + 1} has kind {kinds[u]}, which has no name")
        counts: dict[int, int] = {}
        index = []
        for k in kinds:
            index.append(counts.get(k, 0))
            counts[k] = index[-1] + 1
        #: The box shape: cell arithmetic, names and the default alphabet.
        self.shape = shape
        #: N, the size.
        self.n = n
        self.units = units
        self.kind = kinds
        self.index = tuple(index)
        self.kind_names = tuple(names)
        #: Killer cages (:class:`sudokit.killer.Cage`), checked; ``()`` for none.
        #: They are not units: the units and peers above do not see them.
        self.cages: tuple = ()
        if cages:
            from .killer import check_cages

            self.cages = tuple(check_cages(cages, n))
        self._key = (shape, units, kinds, self.kind_names, self.cages)
        self._hash = hash(self._key)

    @staticmethod
    def of(shape: Shape) -> "Geometry":
        """The (cached) geometry of ``shape``: its rows, columns and boxes."""
        return _standard(_canonical(shape))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Geometry):
            return NotImplemented
        return self is other or self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        cages = f", {len(self.cages)} cages" if self.cages else ""
        return f"Geometry({self.shape!r}, {len(self.units)} units{cages})"

    def __reduce__(self):
        if self is Geometry.of(self.shape):
            return (Geometry.of, (self.shape,))
        return (_rebuild, (self.shape, self.units, self.kind, self.kind_names, self.cages))

    def with_cages(self, cages: Sequence["Cage"]) -> "Geometry":
        """The same units with ``cages`` (killer cages, checked) in place of this geometry's;
        ``()`` takes the cages away (the shape's own geometry when no other unit is left).

        >>> from sudokit.killer import Cage
        >>> geo = Geometry.of(Shape(2, 2)).with_cages([Cage((0, 1), 3)])
        >>> geo.cages, geo.with_cages(()) is Geometry.of(Shape(2, 2))
        ((Cage(cells=(0, 1), total=3),), True)
        """
        cages = tuple(cages)
        if cages == self.cages:
            return self
        plain = Geometry(self.shape, self.units, self.kind, names=self.kind_names, cages=cages)
        if not cages and plain == Geometry.of(self.shape):
            return Geometry.of(self.shape)
        return plain

    @cached_property
    def cage_of(self) -> tuple[int, ...]:
        """Per cell, the index of its cage in :attr:`cages`, or -1."""
        owner = [-1] * self.cell_count
        for i, cage in enumerate(self.cages):
            for cell in cage.cells:
                owner[cell] = i
        return tuple(owner)

    # -- derived tables ---------------------------------------------------------

    @property
    def size(self) -> int:
        """N, as :attr:`Shape.size` (code written for a shape reads a geometry too)."""
        return self.n

    @cached_property
    def cell_count(self) -> int:
        return self.n * self.n

    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the ids of the units that hold it, ascending: its
        row, column and box first (``units_of[cell][BOX]`` is its box)."""
        holding: list[list[int]] = [[] for _ in range(self.cell_count)]
        for u, unit in enumerate(self.units):
            for cell in unit:
                holding[cell].append(u)
        return tuple(tuple(h) for h in holding)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the other cells that share a unit with it, sorted."""
        units = self.units
        result = []
        for cell, holding in enumerate(self.units_of):
            seen: set[int] = set()
            for u in holding:
                seen.update(units[u])
            seen.discard(cell)
            result.append(tuple(sorted(seen)))
        return tuple(result)

    @cached_property
    def unit_mask(self) -> tuple[int, ...]:
        """Per unit: a bitboard of its cells (bit ``c`` for cell ``c``)."""
        return tuple(_bits(unit) for unit in self.units)

    @cached_property
    def peer_mask(self) -> tuple[int, ...]:
        """Per cell: a bitboard of its peers."""
        return tuple(_bits(peers) for peers in self.peers)

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        """``'row 3'``, ``'column 1'``, ``'box 7'`` (1-based), per unit."""
        return tuple(f"{self.kind_names[k]} {i + 1}" for k, i in zip(self.kind, self.index))

    @cached_property
    def unit_getters(self) -> tuple["itemgetter[tuple[int, ...]]", ...]:
        """Per unit, a getter that gathers its values from a tuple of N² values."""
        return tuple(itemgetter(*unit) for unit in self.units)

    def of_kind(self, kind: int) -> tuple[int, ...]:
        """The ids of the units of ``kind``, in order."""
        return tuple(u for u, k in enumerate(self.kind) if k == kind)

    @cached_property
    def rows(self) -> tuple[int, ...]:
        """The unit ids of the rows, in order (ids, not cells: see :attr:`Shape.rows`)."""
        return self.of_kind(ROW)

    @cached_property
    def cols(self) -> tuple[int, ...]:
        """The unit ids of the columns, in order."""
        return self.of_kind(COLUMN)

    @cached_property
    def boxes(self) -> tuple[int, ...]:
        """The unit ids of the boxes, in order."""
        return self.of_kind(BOX)

    # -- names ------------------------------------------------------------------

    def unit_name(self, unit: int) -> str:
        """``'row 3'``, ``'column 1'``, ``'box 7'`` (1-based)."""
        return self.unit_names[unit]

    def cell_name(self, cell: int) -> str:
        """``rNcM``, 1-based."""
        return self.shape.cell_name(cell)

    def symbol(self, value: int) -> str:
        """The default symbol of ``value`` (its number above 35)."""
        return self.shape.symbols[value - 1] if self.n <= len(DEFAULT_SYMBOLS) else str(value)


def _bits(cells: Iterable[int]) -> int:
    mask = 0
    for c in cells:
        mask |= 1 << c
    return mask


@lru_cache(maxsize=None)
def _standard(shape: Shape) -> Geometry:
    n = shape.size
    return Geometry(shape, shape.rows + shape.cols + shape.boxes, (ROW,) * n + (COLUMN,) * n + (BOX,) * n)


def _rebuild(shape: Shape, units, kinds, names, cages=()) -> Geometry:
    return Geometry(shape, units, kinds, names=names, cages=cages)
