"""The immutable :class:`Grid`, and its own line form: ``Grid(line)`` reads it, ``grid.line()`` writes it.

A grid holds N² values, row by row, 0 for a blank, on a
:class:`~sudokit.geometry.Shape` of boxes (the shapes, units and peers are in
:mod:`sudokit.geometry`, re-exported here). Its line form is the data-set
format: N² symbols, ``.`` or ``0`` for a blank. ``Grid(text)`` reads that
form and nothing more, as python-chess's ``Board(fen)`` reads FEN; the
other formats (rows with borders, pencil marks, JSON, streams of many
puzzles) are read by :mod:`sudokit.formats`, which builds on this module.

>>> grid = Grid.empty(Shape(2, 2)).place(0, 0, 3)
>>> grid[0, 0], grid.clues, grid.is_complete
(3, 1, False)
>>> grid.line()
'3...............'
>>> Grid(grid.line()) == grid
True
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence, overload

from .errors import ParseError, ShapeError
from .geometry import CLASSIC, DEFAULT_SYMBOLS, MAX_SIZE, Geometry, Shape, shape_of
from .svg import grid_svg
from .symbols import Codec, alphabet_for, codec

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = [  # with the names of the model that live in geometry.py, as before
    "CLASSIC", "DEFAULT_SYMBOLS", "MAX_CELLS", "MAX_LINE", "MAX_SIZE", "Conflict", "Grid", "Shape",
    "boxed_text", "decode_utf8", "read_line", "shape_of",
]

#: The most cells a puzzle can have (a 64x64 grid).
MAX_CELLS = MAX_SIZE * MAX_SIZE

#: Longer text is refused at once: no puzzle needs it.
MAX_LINE = 1 << 16


def decode_utf8(data: bytes) -> str:
    """Bytes as UTF-8 text; a ParseError names the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(f"byte {exc.start + 1} (0x{data[exc.start]:02x}) is not UTF-8 text") from None


def _whole_numbers(values: object) -> tuple[int, ...]:
    """Cell values as ints; anything else (1.5, "a", None, True) is a ParseError naming its position."""
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


# -- the line form --------------------------------------------------------------


def _shape_for_cells(count: int, shape: "Shape | None", *, line: int | None, column: int | None) -> Shape:
    """The shape of a line of ``count`` symbols: ``shape`` if given (and it fits), else the conventional one."""
    if shape is not None:
        if count != shape.cell_count:
            n = shape.size
            raise ParseError(
                f"{shape.cell_count} symbols expected for a {n}x{n} puzzle ({shape} boxes), got {count}",
                line=line,
                column=column,
            )
        return shape
    if count > MAX_CELLS:
        raise ParseError(
            f"{count} symbols is too many: the largest puzzle is {MAX_SIZE}x{MAX_SIZE} = {MAX_CELLS} cells",
            line=line,
            column=column,
        )
    root = math.isqrt(count)
    if count < 16:  # 1x2 and 1x3 boxes exist, but only when asked for by shape
        raise ParseError(
            f"{count} symbol{'s' if count != 1 else ''} is too short for a puzzle: the smallest, 4x4, has 16"
            + (f" (a {root}x{root} grid needs its box shape given)" if root * root == count and count > 1 else ""),
            line=line,
            column=column,
        )
    if root * root == count:
        return shape_of(None, count)
    low, high = max(root, 1), root + 1
    near, other = (low, high) if count - low * low <= high * high - count else (high, low)
    raise ParseError(
        f"{near * near} symbols expected for a {near}x{near} puzzle, got {count} "
        f"(a puzzle has N² symbols; the other nearest size is {other}x{other} = {other * other})",
        line=line,
        column=column,
    )


_LINE_CODECS: "dict[tuple[int, Shape | None, str | None], tuple[Shape, Codec]]" = {}  # the hot path


def read_line(
    body: str,
    shape: "Shape | None" = None,
    symbols: str | None = None,
    *,
    line: int | None = None,
    col0: int = 0,
) -> "Grid":
    """The line form: exactly N² symbols, no whitespace, ``.`` or ``0`` for a blank.

    ``shape`` (a shared instance, see :func:`shape_of`) defaults to the
    conventional one for N² cells; ``symbols`` is an alphabet spec
    (:func:`sudokit.symbols.parse_alphabet`). An error names ``line`` and the
    column, counted from ``col0``. Every reader of sudokit ends here.

    >>> read_line("1.3..2.13....2..").values[:4]
    (1, 0, 3, 0)
    >>> read_line("1.3..2.x3....2..", line=4)
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: line 4, column 8: unexpected character 'x': a 4x4 puzzle is written with 1-4 and '.' or '0' for a blank
    """
    key = (len(body), shape, symbols)
    known = _LINE_CODECS.get(key)
    if known is None:
        s = _shape_for_cells(len(body), shape, line=line, column=None)
        try:
            cod = codec(alphabet_for(s.size, symbols, body if s.size == 16 else ""))
        except ParseError as exc:
            raise ParseError(exc.reason, line=line) from None
        if s.size != 16 and len(_LINE_CODECS) < 1024:  # 16x16 picks its alphabet per puzzle
            _LINE_CODECS[key] = (s, cod)
    else:
        s, cod = known
    values = cod.decode(body)
    if isinstance(values, int):
        raise ParseError(cod.bad_char(body[values]), line=line, column=col0 + values + 1)
    return Grid.unchecked(s, values)


_SPACE = re.compile(r"\s")

#: Characters that only other formats use: a hint names :func:`sudokit.formats.parse`.
_OTHER_FORMATS = frozenset('{}|+-=,;:"│║─')


def _read_text(text: str, shape: "Shape | None", symbols: str | None) -> "Grid":
    """``Grid(text)``: the line form, whitespace between symbols ignored."""
    if text[:1] == "\ufeff":  # a byte-order mark is not text
        text = text[1:]
    if len(text) > MAX_LINE:
        raise ParseError(f"{len(text)} characters is far too long for one puzzle", line=1)
    body = text.strip()
    try:
        if _SPACE.search(body) is None:
            return read_line(body, shape, symbols, line=1, col0=len(text) - len(text.lstrip()))
        places = [(n, col) for n, row in enumerate(text.split("\n"), 1)
                  for col, ch in enumerate(row, 1) if not ch.isspace()]
        joined = "".join(text.split())
        try:
            return read_line(joined, shape, symbols)
        except ParseError as exc:
            if exc.column is None:
                raise
            line, column = places[exc.column - 1]
            raise ParseError(exc.reason, line=line, column=column) from None
    except ParseError as exc:
        if _OTHER_FORMATS.isdisjoint(body):
            raise
        raise ParseError(f"{exc.reason} (Grid(text) reads N² symbols; sudokit.parse reads every format)",
                         line=exc.line, column=exc.column) from None


def boxed_text(cells: Sequence[Sequence[str]], shape: Shape) -> str:
    """Rows of cell texts, padded per column, framed by the box borders of
    ``shape``: how ``str(grid)`` and the ``boxed`` and ``candidates`` formats
    draw a grid.

    >>> print(boxed_text([["1", "."], [".", "2"]], Shape(1, 2)))
    +-----+
    | 1 . |
    +-----+
    | . 2 |
    +-----+
    """
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    widths = [max(len(cells[r][c]) for r in range(n)) for c in range(n)]
    stacks = [range(s * bc, (s + 1) * bc) for s in range(n // bc)]
    segment = [sum(widths[c] for c in stack) + (len(stack) - 1) * (2 if max(widths) > 1 else 1) + 2 for stack in stacks]
    gap = "  " if max(widths) > 1 else " "
    border = "+" + "+".join("-" * w for w in segment) + "+"
    out = [border]
    for r in range(n):
        parts = [" " + gap.join(cells[r][c].ljust(widths[c]) for c in stack) + " " for stack in stacks]
        out.append("|" + "|".join(parts) + "|")
        if (r + 1) % br == 0:
            out.append(border)
    return "\n".join(out)


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


def _own_geometry(shape: Shape, geometry: "Geometry | None") -> "Geometry | None":
    """What a grid of ``shape`` keeps of ``geometry``: None for the shape's own units."""
    if geometry is None or geometry == shape.geometry:
        return None
    if geometry.shape != shape:
        raise ShapeError(f"a geometry of {geometry.shape} does not fit a {shape} grid")
    return geometry


class Grid:
    """An immutable N×N grid of values, 0 for a blank.

    Build one from its line form (N² symbols, ``.`` or ``0`` for a blank;
    whitespace between symbols is ignored, so rows of symbols read too), from
    a sequence of N² values, or with :meth:`empty`. Text in the other formats
    is read by :func:`sudokit.formats.parse`.

    >>> g = Grid("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    >>> g[0, 0], g[0, 2], g.clues
    (5, 0, 30)
    >>> g.line()[:9]
    '53..7....'
    >>> Grid(g.line()) == g
    True
    >>> Grid("1.3. ..2. 13.. ..2.", shape="2x2").line()
    '1.3...2.13....2.'
    """

    __slots__ = ("_shape", "_values", "_hash", "_geometry")

    def __init__(
        self,
        values: "str | bytes | Sequence[int] | Iterable[int]",
        shape: "Shape | str | tuple[int, int] | None" = None,
        *,
        symbols: str | None = None,
        geometry: "Geometry | None" = None,
    ) -> None:
        if geometry is not None and shape is None:
            shape = geometry.shape
        if isinstance(values, (bytes, bytearray, memoryview)):
            values = decode_utf8(bytes(values))
        if isinstance(values, str):
            read = _read_text(values, None if shape is None else shape_of(shape), symbols)
            self._shape, self._values = read._shape, read._values
            self._hash = None
            self._geometry = _own_geometry(self._shape, geometry)
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
        self._geometry = _own_geometry(grid_shape, geometry)

    # -- construction -------------------------------------------------------

    @classmethod
    def unchecked(cls, shape: Shape, values: tuple[int, ...], geometry: "Geometry | None" = None) -> "Grid":
        """A grid built without any check, for code that made its values itself.

        ``shape`` is a shared instance (from :func:`shape_of`, or another
        grid's ``shape``) and ``values`` a tuple of N² ints in 0..N: a solver's
        answer, a reader's decoded line. Nothing is checked or copied, so this
        is as cheap as a grid can be; wrong input makes a wrong grid, not an
        error. Everything else should call ``Grid(values, shape)``.
        ``geometry``, when given, is a variant's (None or the shape's own for
        the standard one).

        >>> Grid.unchecked(CLASSIC, (0,) * 81) == Grid.empty()
        True
        """
        grid = cls.__new__(cls)
        grid._shape = shape
        grid._values = values
        grid._hash = None
        grid._geometry = None if geometry is None or geometry is shape.geometry else geometry
        return grid

    def like(self, values: tuple[int, ...]) -> "Grid":
        """A grid of this one's shape and geometry holding ``values`` (a tuple
        of N² ints in 0..N, unchecked, as for :meth:`unchecked`): a method's
        answer to this puzzle."""
        return Grid.unchecked(self._shape, values, self._geometry)

    def with_geometry(self, geometry: "Geometry | None") -> "Grid":
        """This grid under ``geometry`` (a variant's units; None: the shape's own).

        >>> from sudokit import variants
        >>> g = Grid.empty().with_geometry(variants.x())
        >>> g.geometry.unit_name(27), g.place(0, 0, 5).place(8, 8, 5).is_consistent
        ('diagonal 1', False)
        """
        return Grid.unchecked(self._shape, self._values, _own_geometry(self._shape, geometry))

    @classmethod
    def empty(cls, shape: "Shape | str | tuple[int, int] | None" = None) -> "Grid":
        """A blank grid."""
        s = shape_of(shape)
        return cls.unchecked(s, (0,) * s.cell_count)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], shape: "Shape | str | None" = None) -> "Grid":
        """A grid from N rows of N values."""
        flat = [v for row in rows for v in row]
        return cls(flat, shape)

    @classmethod
    def from_array(cls, array: "np.ndarray", shape: "Shape | str | None" = None) -> "Grid":
        """A grid from a numpy array of N² (or N×N) integers."""
        return cls([int(v) for v in array.reshape(-1)], shape)

    # -- access -------------------------------------------------------------

    @property
    def geometry(self) -> "Geometry":
        """The units of this puzzle: the shape's rows, columns and boxes, or a
        variant's (:mod:`sudokit.variants`)."""
        return self._shape.geometry if self._geometry is None else self._geometry

    @property
    def is_variant(self) -> bool:
        """True when the units are not just the shape's rows, columns and boxes."""
        return self._geometry is not None

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

    def conflicts(self, geometry: "Geometry | None" = None) -> tuple[Conflict, ...]:
        """Every repeated value in a unit, naming the clashing cells.

        The units are those of ``geometry``, by default the shape's rows,
        columns and boxes.

        >>> g = Grid.empty().place(4, 0, 2).place(4, 1, 2)
        >>> [str(c) for c in g.conflicts()]
        ['2 appears 2 times in row 5: r5c1, r5c2', '2 appears 2 times in box 4: r5c1, r5c2']
        """
        shape, values = self._shape, self._values
        found = []
        geo = self.geometry if geometry is None else geometry
        for name, unit in zip(geo.unit_names, geo.units):
            where: dict[int, list[int]] = {}
            for cell in unit:
                v = values[cell]
                if v:
                    where.setdefault(v, []).append(cell)
            for value, cells in sorted(where.items()):
                if len(cells) > 1:
                    found.append(Conflict(value, name, tuple(cells), shape))
        for number, cage in enumerate(geo.cages, 1):  # a killer cage's digits differ too
            where = {}
            for cell in cage.cells:
                if values[cell]:
                    where.setdefault(values[cell], []).append(cell)
            for value, cells in sorted(where.items()):
                if len(cells) > 1:
                    found.append(Conflict(value, f"cage {number}", tuple(cells), shape))
        return tuple(found)

    @property
    def is_consistent(self) -> bool:
        """True when no unit holds a value twice (cheap: no Conflict is built),
        and every killer cage keeps its rules (:meth:`sudokit.killer.Cage.allows`:
        no digit twice, the total once the cage is full)."""
        n, values = self.size, self._values
        geo = self.geometry
        if geo.cages and not all(cage.allows(values) for cage in geo.cages):
            return False
        if n == 1:
            return True
        for getter in geo.unit_getters:
            unit = getter(values)
            blanks = unit.count(0)
            if len(set(unit)) != n - blanks + (1 if blanks else 0):
                return False
        return True

    def candidate_masks(self) -> tuple[int, ...]:
        """Per cell, a bit mask of the values that no peer holds (bit v-1 for v).

        A filled cell has just its own value's bit. In a killer cage, the
        cage's placed digits are gone too, and so is every digit outside the
        digit sets that make up the rest of its total.
        """
        n = self.size
        full = (1 << n) - 1
        values, peers = self._values, self.geometry.peers
        cages, cage_of = self.geometry.cages, self.geometry.cage_of if self.geometry.cages else None
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
            if cage_of is not None and cage_of[cell] >= 0:  # a killer cage: its digits differ, and its sum
                cage = cages[cage_of[cell]]
                for p in cage.cells:
                    if values[p]:
                        mask &= ~(1 << (values[p] - 1))
                if cage.total is not None:
                    from .killer import sum_mask

                    placed = [values[p] for p in cage.cells if values[p]]
                    mask &= sum_mask(n, len(cage) - len(placed), cage.total - sum(placed))
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
        return Grid.unchecked(self._shape, tuple(values), self._geometry)

    # -- text: the line form --------------------------------------------------

    def line(self, symbols: str | None = None, blank: str = ".") -> str:
        """The line form: the N² symbols on one line, ``.`` for a blank.

        ``symbols`` is an alphabet spec (such as ``0-F``); ``Grid(line, symbols=...)``
        reads it back.
        """
        alphabet = blank + (alphabet_for(self.size, symbols) if symbols else self._shape.symbols)
        return "".join(alphabet[v] for v in self._values)

    def __str__(self) -> str:
        """The grid in box borders (the ``boxed`` format)."""
        cells, n = "." + self._shape.symbols, self.size
        values = self._values
        return boxed_text([[cells[v] for v in values[r * n : (r + 1) * n]] for r in range(n)], self._shape)

    def __repr__(self) -> str:
        if self._shape == CLASSIC:
            return f"Grid({self.line()!r})"
        return f"Grid({self.line()!r}, shape={str(self._shape)!r})"

    def _repr_svg_(self) -> str:  # Jupyter shows a picture of the grid
        return grid_svg(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return self._shape == other._shape and self._values == other._values and self._geometry == other._geometry

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._shape, self._values, self._geometry))
        return self._hash
