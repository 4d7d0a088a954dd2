"""The domain model: a :class:`Shape` of boxes and an immutable :class:`Grid`.

A shape is ``R x C``: boxes of R rows by C columns, so the grid has
``N = R*C`` rows, columns, boxes and values. Cells are numbered 0..N²-1 row by
row; in text they are written ``rNcM``, 1-based, as HoDoKu and Sudoku
Explainer write them.

>>> shape = Shape(3, 3)
>>> shape.size, len(shape.units), len(shape.peers[0])
(9, 27, 20)
>>> shape.cell_name(5)
'r1c6'
>>> grid = Grid.empty(Shape(2, 2)).place(0, 0, 3)
>>> grid[0, 0], grid.clues, grid.is_complete
(3, 1, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence, overload

from .errors import ParseError, ShapeError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: The default alphabet: values 1..N are written with the first N symbols.
DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: The largest size sudokit accepts (candidate sets must fit in 64 bits).
MAX_SIZE = 64


def _decode(data: bytes) -> str:
    """Bytes as UTF-8 text; a ParseError names the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(f"byte {exc.start + 1} (0x{data[exc.start]:02x}) is not UTF-8 text") from None


def _whole_numbers(values: object) -> tuple[int, ...]:
    """Cell values as ints; anything else (1.5, "a", None, True) is a ParseError naming its position."""
    import numbers

    try:
        items = tuple(values)  # type: ignore[arg-type]
    except TypeError:
        raise ParseError(f"a grid is text or a sequence of cell values, not {type(values).__name__}") from None
    out = []
    for i, v in enumerate(items):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise ParseError(f"value {i + 1} of the grid, {v!r}, is not a whole number")
        out.append(int(v))
    return tuple(out)


@dataclass(frozen=True)
class Shape:
    """Box rows by box columns. ``Shape(3, 3)`` is the classic 9x9.

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

    # -- geometry -------------------------------------------------------------

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
        n = self.size
        return tuple(tuple(r * n + c for c in range(n)) for r in range(n))

    @cached_property
    def cols(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(r * n + c for r in range(n)) for c in range(n))

    @cached_property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
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

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """All 3N units: rows, then columns, then boxes."""
        return self.rows + self.cols + self.boxes

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        n = self.size
        return (
            tuple(f"row {i + 1}" for i in range(n))
            + tuple(f"column {i + 1}" for i in range(n))
            + tuple(f"box {i + 1}" for i in range(n))
        )

    @cached_property
    def units_of(self) -> tuple[tuple[int, int, int], ...]:
        """For each cell, the indices into :attr:`units` of its row, column and box."""
        n = self.size
        return tuple(
            (self.row_of(cell), n + self.col_of(cell), 2 * n + self.box_of(cell))
            for cell in range(self.cell_count)
        )

    @cached_property
    def unit_getters(self) -> tuple["itemgetter[tuple[int, ...]]", ...]:
        """Per unit, a getter that gathers its values from a tuple of N² values."""
        return tuple(itemgetter(*unit) for unit in self.units)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the other cells that share a unit with it, sorted."""
        result = []
        for cell in range(self.cell_count):
            seen: set[int] = set()
            for unit in self.units_of[cell]:
                seen.update(self.units[unit])
            seen.discard(cell)
            result.append(tuple(sorted(seen)))
        return tuple(result)


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


@dataclass(frozen=True)
class Conflict:
    """Two or more cells of one unit that hold the same value."""

    value: int
    unit: str
    cells: tuple[int, ...]
    shape: Shape

    def __str__(self) -> str:
        names = [self.shape.cell_name(c) for c in self.cells]
        symbol = self.shape.symbols[self.value - 1] if self.shape.size <= len(DEFAULT_SYMBOLS) else str(self.value)
        return f"{symbol} appears {len(names)} times in {self.unit}: {', '.join(names)}"


class Grid:
    """An immutable N×N grid of values, 0 for a blank.

    Build one from text (any format :func:`sudokit.formats.parse` reads), from
    a sequence of N² values, or with :meth:`empty`:

    >>> g = Grid("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    >>> g[0, 0], g[0, 2], g.clues
    (5, 0, 30)
    >>> g.line()[:9]
    '53..7....'
    >>> Grid(g.line()) == g
    True
    """

    __slots__ = ("_shape", "_values", "_hash")

    def __init__(
        self,
        values: "str | Sequence[int] | Iterable[int]",
        shape: "Shape | str | tuple[int, int] | None" = None,
    ) -> None:
        if isinstance(values, (bytes, bytearray, memoryview)):
            values = _decode(bytes(values))
        if isinstance(values, str):
            from .formats import parse  # local: formats builds on this module

            parsed = parse(values, shape=shape)
            self._shape, self._values = parsed._shape, parsed._values
            self._hash = None
            return
        vals = _whole_numbers(values)
        grid_shape = shape_of(shape, len(vals))
        if len(vals) != grid_shape.cell_count:
            raise ShapeError(f"a {grid_shape} grid has {grid_shape.cell_count} cells, got {len(vals)} values")
        n = grid_shape.size
        for cell, value in enumerate(vals):
            if not 0 <= value <= n:
                raise ParseError(f"{grid_shape.cell_name(cell)}: value {value} is outside 0..{n}")
        self._shape = grid_shape
        self._values = vals
        self._hash: int | None = None

    # -- construction -------------------------------------------------------

    @classmethod
    def empty(cls, shape: "Shape | str | tuple[int, int] | None" = None) -> "Grid":
        """A blank grid."""
        s = shape_of(shape)
        return cls._trusted(s, (0,) * s.cell_count)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], shape: "Shape | str | None" = None) -> "Grid":
        """A grid from N rows of N values."""
        flat = [v for row in rows for v in row]
        return cls(flat, shape)

    @classmethod
    def from_array(cls, array: "np.ndarray", shape: "Shape | str | None" = None) -> "Grid":
        """A grid from a numpy array of N² (or N×N) integers."""
        return cls([int(v) for v in array.reshape(-1)], shape)

    @classmethod
    def _trusted(cls, shape: Shape, values: tuple[int, ...]) -> "Grid":
        """Build without validation; for internal callers that already checked."""
        grid = cls.__new__(cls)
        grid._shape = shape
        grid._values = values
        grid._hash = None
        return grid

    # -- access -------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        return self._shape

    @property
    def size(self) -> int:
        return self._shape.size

    @property
    def values(self) -> tuple[int, ...]:
        """The N² values, row by row, 0 for a blank."""
        return self._values

    @overload
    def __getitem__(self, key: int) -> int: ...
    @overload
    def __getitem__(self, key: tuple[int, int]) -> int: ...
    def __getitem__(self, key: "int | tuple[int, int]") -> int:
        """``grid[row, col]`` (0-based) or ``grid[cell]``."""
        if isinstance(key, tuple):
            row, col = key
            return self._values[self._shape.cell(row, col)]
        return self._values[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def row(self, index: int) -> tuple[int, ...]:
        n = self.size
        return self._values[index * n : (index + 1) * n]

    def to_array(self) -> "np.ndarray":
        """The values as an N×N numpy array of int8 (int16 above 127)."""
        import numpy as np

        dtype = np.int8 if self.size < 128 else np.int16
        return np.array(self._values, dtype=dtype).reshape(self.size, self.size)

    # -- facts --------------------------------------------------------------

    @property
    def givens(self) -> tuple[int, ...]:
        """The cells that hold a value."""
        return tuple(i for i, v in enumerate(self._values) if v)

    @property
    def clues(self) -> int:
        """How many cells hold a value."""
        return sum(1 for v in self._values if v)

    @property
    def is_complete(self) -> bool:
        """True when no cell is blank (it may still break the rules)."""
        return 0 not in self._values

    @property
    def is_solved(self) -> bool:
        """Complete and consistent."""
        return self.is_complete and self.is_consistent

    def conflicts(self) -> tuple[Conflict, ...]:
        """Every repeated value in a unit, naming the clashing cells.

        >>> g = Grid.empty().place(4, 0, 2).place(4, 1, 2)
        >>> [str(c) for c in g.conflicts()]
        ['2 appears 2 times in row 5: r5c1, r5c2', '2 appears 2 times in box 4: r5c1, r5c2']
        """
        shape, values = self._shape, self._values
        found = []
        for name, unit in zip(shape.unit_names, shape.units):
            where: dict[int, list[int]] = {}
            for cell in unit:
                v = values[cell]
                if v:
                    where.setdefault(v, []).append(cell)
            for value, cells in sorted(where.items()):
                if len(cells) > 1:
                    found.append(Conflict(value, name, tuple(cells), shape))
        return tuple(found)

    @property
    def is_consistent(self) -> bool:
        """True when no unit holds a value twice (cheap: no Conflict is built)."""
        n, values = self.size, self._values
        if n == 1:
            return True
        for getter in self._shape.unit_getters:
            unit = getter(values)
            blanks = unit.count(0)
            if len(set(unit)) != n - blanks + (1 if blanks else 0):
                return False
        return True

    def candidate_masks(self) -> tuple[int, ...]:
        """Per cell, a bit mask of the values that no peer holds (bit v-1 for v).

        A filled cell has just its own value's bit.
        """
        full = (1 << self.size) - 1
        values, peers = self._values, self._shape.peers
        masks = []
        for cell, value in enumerate(values):
            if value:
                masks.append(1 << (value - 1))
                continue
            mask = full
            for p in peers[cell]:
                pv = values[p]
                if pv:
                    mask &= ~(1 << (pv - 1))
            masks.append(mask)
        return tuple(masks)

    def candidates(self) -> tuple[frozenset[int], ...]:
        """Per cell, the values that no peer holds (the markup).

        >>> Grid.empty((2, 2)).place(0, 0, 1).candidates()[1]
        frozenset({2, 3, 4})
        """
        n = self.size
        return tuple(
            frozenset(v + 1 for v in range(n) if mask >> v & 1) for mask in self.candidate_masks()
        )

    def agrees_with(self, puzzle: "Grid") -> bool:
        """True when every given of ``puzzle`` stands in this grid."""
        return self._shape == puzzle._shape and all(
            p == 0 or p == v for p, v in zip(puzzle._values, self._values)
        )

    def is_solution_of(self, puzzle: "Grid") -> bool:
        """Complete, consistent, and keeps every given of ``puzzle``."""
        return self.is_solved and self.agrees_with(puzzle)

    # -- change -------------------------------------------------------------

    def place(self, row: int, col: int, value: int) -> "Grid":
        """A copy with ``value`` at ``row``, ``col`` (0 clears the cell)."""
        return self.with_cell(self._shape.cell(row, col), value)

    def with_cell(self, cell: int, value: int) -> "Grid":
        """A copy with ``value`` at cell index ``cell``."""
        if not 0 <= value <= self.size:
            raise ValueError(f"value {value} is outside 0..{self.size}")
        values = list(self._values)
        values[cell] = value
        return Grid._trusted(self._shape, tuple(values))

    # -- text ---------------------------------------------------------------

    def line(self, symbols: str | None = None, blank: str = ".") -> str:
        """The N² symbols on one line, ``.`` for a blank."""
        alphabet = blank + (symbols or self._shape.symbols)
        return "".join(alphabet[v] for v in self._values)

    def __str__(self) -> str:
        from .formats import render

        return render(self, "boxed")

    def __repr__(self) -> str:
        if self._shape == CLASSIC:
            return f"Grid({self.line()!r})"
        return f"Grid({self.line()!r}, shape={str(self._shape)!r})"

    def _repr_svg_(self) -> str:  # Jupyter shows a picture of the grid
        from .svg import grid_svg

        return grid_svg(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return self._shape == other._shape and self._values == other._values

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._shape, self._values))
        return self._hash
