"""The validity-preserving transformations of a grid, as values: :class:`Transform`.

A transformation is a transposition (or none), then a permutation of the
rows and of the columns, then a relabelling of the digits. Read it as

    ``out[i, j] = digits[in_t[rows[i], cols[j]]]``

where ``in_t`` is the input, transposed when ``transpose`` is set, ``rows[i]``
the row of ``in_t`` that becomes row ``i`` (0-based), ``cols[j]`` likewise for
the columns, and ``digits[v - 1]`` the new value of ``v`` (blanks stay blank).
A permutation keeps the puzzle valid when it moves whole bands and stacks,
and rows (columns) only within their band (stack): :func:`is_valid` checks
that for a shape. The variants' smaller groups (the diagonals of X, the
windows of windoku, a jigsaw's regions, a killer's cages) are lists of such
transformations, filtered by :func:`preserves`.

>>> t = Transform(True, (2, 1, 0, 3), (0, 1, 3, 2), (2, 1, 3, 4))
>>> t.inverse().then(t) == Transform.identity(4)
True
>>> Transform.parse(str(t)) == t
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations, product
from typing import TYPE_CHECKING, Sequence

from ..errors import ParseError

if TYPE_CHECKING:  # pragma: no cover
    from ..geometry import Geometry
    from ..grid import Grid

_SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@#"


def _inverse(perm: Sequence[int]) -> tuple[int, ...]:
    out = [0] * len(perm)
    for i, p in enumerate(perm):
        out[p] = i
    return tuple(out)


@dataclass(frozen=True)
class Transform:
    """Transpose (or not), permute rows and columns, relabel digits: see the module text.

    ``rows`` and ``cols`` are 0-based (``rows[i]`` is the source of row ``i``);
    ``digits[v - 1]`` is the new value of ``v``. Serialise with :meth:`to_dict`
    / :meth:`from_dict` or ``str(t)`` / :meth:`parse`
    (``"t:rows:cols:digits"``, one symbol per entry: ``0-9A-Za-z@#``).
    """

    transpose: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    digits: tuple[int, ...]

    def __post_init__(self) -> None:
        n = len(self.rows)
        object.__setattr__(self, "transpose", bool(self.transpose))
        for name in ("rows", "cols", "digits"):
            object.__setattr__(self, name, tuple(int(v) for v in getattr(self, name)))
        if sorted(self.rows) != list(range(n)) or sorted(self.cols) != list(range(n)):
            raise ValueError(f"rows and cols must each be a permutation of 0..{n - 1}")
        if sorted(self.digits) != list(range(1, n + 1)):
            raise ValueError(f"digits must be a permutation of 1..{n}")

    @staticmethod
    def identity(n: int) -> "Transform":
        return Transform(False, tuple(range(n)), tuple(range(n)), tuple(range(1, n + 1)))

    @property
    def size(self) -> int:
        return len(self.rows)

    @property
    def is_identity(self) -> bool:
        return self == Transform.identity(self.size)

    def cell_map(self) -> tuple[int, ...]:
        """``source[k]``: the input cell whose value lands in output cell ``k``."""
        n, rows, cols = self.size, self.rows, self.cols
        if self.transpose:
            return tuple(cols[j] * n + rows[i] for i in range(n) for j in range(n))
        return tuple(rows[i] * n + cols[j] for i in range(n) for j in range(n))

    def apply_values(self, values: Sequence[int]) -> tuple[int, ...]:
        """The transformed values of a grid of N² values (0 = blank)."""
        if len(values) != self.size * self.size:
            raise ValueError(f"a transform of size {self.size} needs {self.size ** 2} values, got {len(values)}")
        label = (0,) + self.digits
        return tuple(label[values[k]] for k in self.cell_map())

    def apply_cells(self, cells: Sequence[int]) -> tuple[int, ...]:
        """Where input cells go: the output cell of each (for regions, cages, paths)."""
        where = _inverse(self.cell_map())
        return tuple(where[c] for c in cells)

    def apply(self, grid: "Grid") -> "Grid":
        """The grid transformed: values moved and relabelled, its geometry kept.

        Meant for a puzzle and its solution, or any grid of the same
        orientation (a stored solution mapped back with :meth:`inverse`).
        """
        if grid.size != self.size:
            raise ValueError(f"a transform of size {self.size} cannot apply to a {grid.size}x{grid.size} grid")
        return grid.like(self.apply_values(grid.values))

    def inverse(self) -> "Transform":
        """The transform that undoes this one: ``t.inverse().apply(t.apply(g)) == g``."""
        rinv, cinv, dinv = _inverse(self.rows), _inverse(self.cols), _inverse([d - 1 for d in self.digits])
        digits = tuple(d + 1 for d in dinv)
        if self.transpose:
            return Transform(True, cinv, rinv, digits)
        return Transform(False, rinv, cinv, digits)

    def then(self, other: "Transform") -> "Transform":
        """This transform followed by ``other``, as one."""
        n = self.size
        cells = self.cell_map()
        second = other.cell_map()
        source = [cells[k] for k in second]  # output cell -> input cell
        transpose = self.transpose != other.transpose
        first_row = [source[i * n] for i in range(n)]
        if transpose:
            rows = tuple(c % n for c in first_row)
            cols = tuple(source[j] // n for j in range(n))
        else:
            rows = tuple(c // n for c in first_row)
            cols = tuple(source[j] % n for j in range(n))
        digits = tuple(other.digits[d - 1] for d in self.digits)
        made = Transform(transpose, rows, cols, digits)
        assert made.cell_map() == tuple(source), "a composition of grid transforms is one"
        return made

    # -- text ---------------------------------------------------------------------

    def to_dict(self) -> dict:
        """``{"transpose": bool, "rows": [...], "cols": [...], "digits": [...]}`` (JSON-ready)."""
        return {"transpose": self.transpose, "rows": list(self.rows), "cols": list(self.cols),
                "digits": list(self.digits)}

    @staticmethod
    def from_dict(data: dict) -> "Transform":
        try:
            return Transform(bool(data["transpose"]), tuple(data["rows"]), tuple(data["cols"]),
                             tuple(data["digits"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ParseError(f"not a transform: {exc}") from None

    def __str__(self) -> str:
        """``"t:rows:cols:digits"``: ``0`` or ``1``, then one symbol per entry (``0-9A-Za-z@#``)."""
        enc = _SYMBOLS
        return ":".join((str(int(self.transpose)), "".join(enc[v] for v in self.rows),
                         "".join(enc[v] for v in self.cols), "".join(enc[v] for v in self.digits)))

    @staticmethod
    def parse(text: str) -> "Transform":
        parts = text.strip().split(":")
        if len(parts) != 4 or parts[0] not in ("0", "1"):
            raise ParseError(f"not a transform: {text!r} (expected t:rows:cols:digits)")
        try:
            rows, cols, digits = ([_SYMBOLS.index(ch) for ch in part] for part in parts[1:])
            return Transform(parts[0] == "1", rows, cols, digits)
        except ValueError as exc:
            raise ParseError(f"not a transform: {text!r}: {exc}") from None


# -- which transforms keep a puzzle valid --------------------------------------------


def is_valid(t: Transform, box_rows: int, box_cols: int) -> bool:
    """Whether ``t`` keeps rows, columns and boxes of an ``box_rows x box_cols`` shape."""
    if t.transpose and box_rows != box_cols:
        return False
    return _keeps_groups(t.rows, box_rows) and _keeps_groups(t.cols, box_cols)


def _keeps_groups(perm: Sequence[int], size: int) -> bool:
    for start in range(0, len(perm), size):
        block = {p // size for p in perm[start:start + size]}
        if len(block) != 1:
            return False
    return True


@lru_cache(maxsize=16)
def line_perms(n: int, group: int) -> tuple[tuple[int, ...], ...]:
    """Every permutation of ``n`` lines that moves groups of ``group`` whole (bands, or stacks)."""
    blocks = n // group
    out = []
    for order in permutations(range(blocks)):
        for inner in product(permutations(range(group)), repeat=blocks):
            out.append(tuple(order[b] * group + inner[b][k] for b in range(blocks) for k in range(group)))
    return tuple(out)


def dihedral(n: int, box_rows: int, box_cols: int, *, square_boxes: bool | None = None) -> list[Transform]:
    """The symmetries of the square: turns and mirrors (without the transposing four
    when the boxes are not square). Every one keeps rows, columns and boxes."""
    ident = tuple(range(n))
    rev = tuple(reversed(ident))
    digits = tuple(range(1, n + 1))
    flips = [(r, c) for r in (ident, rev) for c in (ident, rev)]
    square = box_rows == box_cols if square_boxes is None else square_boxes
    return [Transform(t, r, c, digits) for t in ((False, True) if square else (False,)) for r, c in flips]


def _row_group_perms(n: int, box: int, keep: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The permutations of :func:`line_perms` that map the set of line groups ``keep`` onto itself."""
    want = {frozenset(g) for g in keep}
    return [p for p in line_perms(n, box) if {frozenset(p[i] for i in g) for g in want} == want]


@lru_cache(maxsize=None)
def x_group(n: int) -> tuple[Transform, ...]:
    """The transforms of an N x N grid with square boxes that keep both diagonals as units.

    The main diagonal goes to a diagonal only when the column permutation equals the row
    permutation or its mirror image; the other diagonal then follows only when the row
    permutation commutes with the mirror (``rho(n-1-i) == n-1-rho(i)``). With transposition
    that is 2 x 2 x (such row permutations): 96 for 9x9. ``tests/canon`` checks this against
    a search of the whole group.
    """
    box = int(round(n ** 0.5))
    digits = tuple(range(1, n + 1))
    out = []
    for rho in line_perms(n, box):
        if all(rho[n - 1 - i] == n - 1 - rho[i] for i in range(n)):
            mirror = tuple(n - 1 - v for v in rho)
            for t in (False, True):
                out.append(Transform(t, rho, rho, digits))
                out.append(Transform(t, rho, mirror, digits))
    return tuple(out)


@lru_cache(maxsize=None)
def hyper_group() -> tuple[Transform, ...]:
    """The transforms of 9x9 windoku that keep its row groups {2,3,4}, {6,7,8}, {1,5,9} (and the
    same for columns) as groups, with {1,5,9} in place, and so map windows to windows:
    the units of windoku are exactly the blocks of a row group by a column group."""
    groups = ((1, 2, 3), (5, 6, 7), (0, 4, 8))
    lines = [p for p in _row_group_perms(9, 3, groups) if {p[i] for i in groups[2]} == set(groups[2])]
    digits = tuple(range(1, 10))
    return tuple(Transform(t, r, c, digits) for t in (False, True) for r in lines for c in lines)


def _unit_key(units) -> frozenset:
    return frozenset(frozenset(u) for u in units)


def preserves(t: Transform, geometry: "Geometry") -> bool:
    """Whether ``t`` maps every unit of ``geometry`` onto a unit, and every killer cage onto a
    cage with the same total."""
    where = _inverse(t.cell_map())
    units = _unit_key(geometry.units)
    if _unit_key(tuple(where[c] for c in u) for u in geometry.units) != units:
        return False
    if geometry.cages:
        cages = {(frozenset(c.cells), c.total) for c in geometry.cages}
        moved = {(frozenset(where[x] for x in c.cells), c.total) for c in geometry.cages}
        if moved != cages:
            return False
    return True


def variant_group(geometry: "Geometry") -> tuple[Transform, ...]:
    """The transforms (without relabelling) that a variant puzzle keeps: for X and windoku
    their own groups; for a jigsaw's regions and a killer's cages the symmetries of the
    square that map them onto themselves; each list filtered by :func:`preserves`."""
    from ..variants import DIAGONAL, HIDDEN_WINDOW, WINDOW

    shape = geometry.shape
    n = shape.size
    kinds = set(geometry.kind)
    if DIAGONAL in kinds and shape.box_rows == shape.box_cols:
        candidates = list(x_group(n))
    elif (WINDOW in kinds or HIDDEN_WINDOW in kinds) and n == 9:
        candidates = list(hyper_group())
    else:
        candidates = dihedral(n, shape.box_rows, shape.box_cols, square_boxes=True)
    seen = set()
    out = []
    for t in candidates:
        if t not in seen and preserves(t, geometry):
            seen.add(t)
            out.append(t)
    return tuple(out)
