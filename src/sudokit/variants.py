"""Variant geometries as data: X (diagonals), hyper (windoku), jigsaw regions, and their mixes.

Each variant is a :class:`~sudokit.geometry.Geometry`: the rows, columns and
boxes of a shape, with the boxes replaced by irregular regions (jigsaw) or
extra units appended (the two diagonals of X, the windows of hyper). Peers,
masks and unit names then follow from the units as for any geometry. The
unit kinds keep their places: rows, columns and boxes (or regions) are kinds
0, 1 and 2 and come first, so ``units_of[cell][BOX]`` is still a cell's box or
region; the diagonals, windows and hidden windows are the kinds
:data:`DIAGONAL`, :data:`WINDOW` and :data:`HIDDEN_WINDOW`. Killer cages are
not units: the :class:`~sudokit.killer.Cage` type is :mod:`sudokit.killer`'s,
and a geometry carries a puzzle's cages beside its units
(:attr:`Geometry.cages <sudokit.geometry.Geometry.cages>`). This module also
reads and writes the ``--variant`` names (``"x,hyper"``) and jigsaw layout
strings, and the record fields of all of them.

>>> from sudokit.geometry import Shape
>>> geo = x(Shape(3, 3))
>>> len(geo.units), geo.unit_name(27), len(geo.peers[0])
(29, 'diagonal 1', 26)
>>> describe(combine(x(Shape(3, 3)), hyper(Shape(3, 3))))
'x,hyper'
>>> parse("hyper, X")
('x', 'hyper')
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterable, Sequence

from typing import TYPE_CHECKING

from .errors import ParseError, ShapeError
from .geometry import BOX, COLUMN, KIND_NAMES, ROW, Geometry, Shape, shape_of

if TYPE_CHECKING:  # pragma: no cover
    from .killer import Cage

#: The kinds variants add (after :data:`~sudokit.geometry.ROW`, ``COLUMN``, ``BOX``).
DIAGONAL, WINDOW, HIDDEN_WINDOW = 3, 4, 5
#: The kind names of every variant geometry (index = kind).
VARIANT_KIND_NAMES = KIND_NAMES + ("diagonal", "window", "hidden window")
#: The same with kind 2 named "region": a jigsaw's irregular boxes.
JIGSAW_KIND_NAMES = ("row", "column", "region") + VARIANT_KIND_NAMES[3:]

#: The ``--variant`` names, in their canonical order.
NAMES = ("x", "hyper", "jigsaw", "killer")
_ALIASES = {
    "x": "x", "diagonal": "x", "diagonals": "x", "sudoku-x": "x",
    "hyper": "hyper", "windoku": "hyper", "windows": "hyper",
    "jigsaw": "jigsaw", "irregular": "jigsaw",
    "killer": "killer",
}

#: Symbols :func:`layout` writes region ``i`` with (64 of them, for every size).
LAYOUT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0@#$"


class LayoutError(ShapeError):
    """A jigsaw layout that cannot be a puzzle's regions.

    ``cell`` is the 0-based cell the message is about (``None`` when the
    fault is the whole string, such as its length); the message names it
    as ``rNcM``.
    """

    def __init__(self, message: str, cell: int | None = None) -> None:
        self.cell = cell
        super().__init__(message)


# -- the extra units -------------------------------------------------------------


def diagonals(shape: Shape) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The main diagonal (r1c1 to rNcN) and the anti-diagonal (r1cN to rNc1)."""
    n = shape.size
    return (tuple(i * n + i for i in range(n)), tuple(i * n + (n - 1 - i) for i in range(n)))


def _block(n: int, rows: Sequence[int], cols: Sequence[int]) -> tuple[int, ...]:
    return tuple(r * n + c for r in rows for c in cols)


# 0-based row (and column) groups of windoku: the windows' two bands, and the rest.
_WINDOW_BANDS = ((1, 2, 3), (5, 6, 7))
_HIDDEN_BAND = (0, 4, 8)


def windows(shape: Shape) -> tuple[tuple[int, ...], ...]:
    """The four windows of a 9x9 windoku: rows 2-4 and 6-8 by columns 2-4 and 6-8 (1-based)."""
    _require_9x9(shape)
    return tuple(_block(9, rows, cols) for rows in _WINDOW_BANDS for cols in _WINDOW_BANDS)


def hidden_windows(shape: Shape) -> tuple[tuple[int, ...], ...]:
    """The five windows the four force (1-based): rows 1, 5, 9 by columns 2-4; rows 2-4 by
    columns 1, 5, 9; rows 1, 5, 9 by columns 1, 5, 9; rows 6-8 by columns 1, 5, 9; and rows
    1, 5, 9 by columns 6-8. Each row group (2-4, 6-8, or 1, 5, 9) crossed with each column
    group gives nine windows: these five and the four of :func:`windows`."""
    _require_9x9(shape)
    a, b = _WINDOW_BANDS
    h = _HIDDEN_BAND
    return (_block(9, h, a), _block(9, a, h), _block(9, h, h), _block(9, b, h), _block(9, h, b))


def _require_9x9(shape: Shape) -> None:
    if shape.size != 9:
        raise ShapeError(f"hyper (windoku) is defined for 9x9 grids only, not {shape.size}x{shape.size}")


# -- geometries --------------------------------------------------------------------


def x(shape: "Shape | str | None" = None) -> Geometry:
    """Rows, columns and boxes, and the two main diagonals (kind :data:`DIAGONAL`).

    >>> x().unit_names[-2:]
    ('diagonal 1', 'diagonal 2')
    """
    shape = shape_of(shape)
    return _build(shape, None, [(DIAGONAL, d) for d in diagonals(shape)])


def hyper(shape: "Shape | str | None" = None, *, hidden: bool = True) -> Geometry:
    """Windoku: rows, columns, boxes, the four windows and (with ``hidden``) the five hidden ones.

    The hidden windows are sound units, forced by the rows, columns and four
    windows alone: rows 2-4 hold each digit three times, and the two windows
    in those rows hold it once each, so the other cells of rows 2-4 (columns
    1, 5 and 9) hold it exactly once. The same holds for rows 6-8, and for
    columns 2-4 and 6-8 read across rows 1, 5 and 9. Last, columns 1, 5 and 9
    hold each digit three times, of which the two hidden windows in rows 2-4
    and 6-8 take one each, so rows 1, 5 and 9 of those columns take the last.
    SukakuExplainer's Windows option uses the same nine window groups; the
    solutions do not change, but the logic sees all nine. Boxes play no part,
    so the argument holds for jigsaw regions too.

    >>> geo = hyper()
    >>> len(geo.units), geo.unit_name(30), geo.unit_name(35)
    (36, 'window 4', 'hidden window 5')
    """
    shape = shape_of(shape)
    extra = [(WINDOW, w) for w in windows(shape)]
    if hidden:
        extra += [(HIDDEN_WINDOW, w) for w in hidden_windows(shape)]
    return _build(shape, None, extra)


def jigsaw(shape: "Shape | str | None", layout: str) -> Geometry:
    """Rows, columns, and the irregular regions of ``layout`` in place of the boxes.

    ``layout`` has one character per cell, row by row (whitespace is ignored,
    so it may be written as N lines); each distinct character is a region.
    Regions are numbered by their first cell in reading order, so two layouts
    that draw the same regions with other letters give the same geometry.
    The regions keep the box position: kind :data:`~sudokit.geometry.BOX`,
    named "region", and ``units_of[cell][BOX]`` is the cell's region.
    ``shape`` may be ``None``: the size then follows from the layout's length.
    A layout of the shape's own boxes gives the classic ``Geometry.of(shape)``.

    Raises :class:`LayoutError` when the length is not N², when there are not
    N regions, when a region has not N cells, or when a region is not
    connected (orthogonally).

    >>> geo = jigsaw(None, "1112 1122 3344 3344")
    Traceback (most recent call last):
    ...
    sudokit.variants.LayoutError: region '1' has 5 cells (r1c1 r1c2 r1c3 r2c1 r2c2); each region of a 4x4 needs 4
    >>> geo = jigsaw(None, "1112 1222 3444 3334")
    >>> geo.unit_name(geo.units_of[3][2]), geo.units[geo.units_of[3][2]]
    ('region 2', (3, 5, 6, 7))
    """
    regions = read_layout(layout, None if shape is None else shape_of(shape).size)
    shape = shape_of(Shape.for_size(len(regions)) if shape is None else shape)
    if {frozenset(r) for r in regions} == {frozenset(b) for b in shape.boxes}:
        return Geometry.of(shape)  # the shape's own boxes: the classic geometry
    return _build(shape, regions, [])


def random_layout(shape: "Shape | str", seed: int, moves: int | None = None) -> str:
    """A random jigsaw layout of ``shape``'s size that has a solution, the same for the same seed.

    >>> random_layout("3x3", 7) == random_layout("3x3", 7), random_layout("3x3", 7) != random_layout("3x3", 8)
    (True, True)
    """
    shape = shape_of(shape)
    boxes = layout(Geometry.of(shape))
    for attempt in range(1000):  # now and then no trade takes: draw again, until the regions differ from the boxes
        drawn = _trade_regions(shape, seed * 1_000_003 + attempt, moves)
        if drawn != boxes or shape.box_rows == 1 or shape.box_cols == 1:
            return drawn
    return drawn


def _trade_regions(shape: Shape, seed: int, moves: int | None) -> str:
    """:func:`random_layout`'s one draw.

    Not every layout of N connected regions of N cells can be filled. This one
    starts from the shape's boxes and one of their solutions (a pattern, its
    rows shuffled within bands and bands among themselves, the same for the
    columns), and makes ``moves`` trades (default N²): a cell on the border
    of its region A joins a neighbouring region B, and a cell of B with the
    same digit that touches A joins A. Every region keeps N cells and one of
    each digit, so that solution stays a solution; a trade that leaves either
    region in pieces is undone. Every layout it makes passes :func:`read_layout`.
    """
    import random

    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    cells = n * n
    rng = random.Random(seed)

    def order(groups: int, size: int) -> list[int]:  # lines shuffled within their groups, groups shuffled
        bands = list(range(groups))
        rng.shuffle(bands)
        out = []
        for g in bands:
            inside = list(range(g * size, (g + 1) * size))
            rng.shuffle(inside)
            out.extend(inside)
        return out

    rows, cols = order(n // br, br), order(n // bc, bc)
    digit = [0] * cells
    for r in range(n):
        for c in range(n):
            rr, cc = rows[r], cols[c]
            digit[r * n + c] = (bc * (rr % br) + rr // br + cc) % n
    region = [0] * cells
    members = []
    for number, box in enumerate(shape.boxes):
        members.append(set(box))
        for cell in box:
            region[cell] = number
    around = [[x for x in (c - n if c >= n else -1, c + n if c < cells - n else -1,
                           c - 1 if c % n else -1, c + 1 if c % n < n - 1 else -1) if x >= 0] for c in range(cells)]

    def connected(k: int) -> bool:
        start = next(iter(members[k]))
        seen = {start}
        todo = [start]
        while todo:
            for x in around[todo.pop()]:
                if region[x] == k and x not in seen:
                    seen.add(x)
                    todo.append(x)
        return len(seen) == len(members[k])

    def move(cell: int, k: int) -> None:
        members[region[cell]].discard(cell)
        members[k].add(cell)
        region[cell] = k

    for _ in range(cells if moves is None else moves):
        a = rng.randrange(cells)
        home = region[a]
        others = sorted({region[x] for x in around[a]} - {home})
        if not others:
            continue
        away = rng.choice(others)
        back = sorted(c for c in members[away]
                      if digit[c] == digit[a] and any(region[x] == home for x in around[c] if x != a))
        if not back:
            continue
        c = rng.choice(back)
        move(a, away)
        move(c, home)
        if not (connected(home) and connected(away)):
            move(a, home)
            move(c, away)
    return "".join(LAYOUT_SYMBOLS[k] for k in region)


def layout_size(layout: str) -> int:
    """N, for a layout of N² characters (whitespace ignored); :func:`read_layout` checks the rest.

    >>> layout_size("111222 311222 331444 333444 555666 555666")
    6
    """
    return math.isqrt(len("".join(layout.split())))


def read_layout(layout: str, size: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The regions of a layout string, checked: N connected regions of N cells each.

    Regions come in the order of their first cell, each sorted. ``size`` is
    N when it is known (else it follows from the length).
    """
    text = "".join(layout.split())
    count = len(text)
    if size is None:
        size = math.isqrt(count)
        if size * size != count or count == 0:
            raise LayoutError(f"a jigsaw layout has N² characters, one per cell; {count} is not a square")
    if count != size * size:
        raise LayoutError(f"a jigsaw layout of a {size}x{size} grid has {size * size} characters, one per cell; got {count}")
    cells_of: dict[str, list[int]] = {}
    for cell, ch in enumerate(text):
        cells_of.setdefault(ch, []).append(cell)
    if len(cells_of) != size:
        names = " ".join(repr(ch) for ch in cells_of)
        raise LayoutError(f"a {size}x{size} jigsaw needs {size} regions; the layout has {len(cells_of)}: {names}")
    for ch, cells in cells_of.items():
        where = " ".join(_name(size, c) for c in cells)
        if len(cells) != size:
            raise LayoutError(
                f"region {ch!r} has {len(cells)} cells ({where}); each region of a {size}x{size} needs {size}", cells[0]
            )
        parts = _components(size, cells)
        if len(parts) > 1:
            pieces = "; ".join(" ".join(_name(size, c) for c in part) for part in parts)
            raise LayoutError(f"region {ch!r} is not connected: it falls into {len(parts)} pieces ({pieces})", parts[1][0])
    return tuple(tuple(cells) for cells in cells_of.values())


def layout(geometry: Geometry) -> str:
    """The layout string of a geometry's boxes or regions (region ``i`` as ``LAYOUT_SYMBOLS[i]``).

    >>> layout(Geometry.of(Shape(2, 2)))
    '1122112233443344'
    """
    out = [""] * geometry.cell_count
    for number, u in enumerate(geometry.boxes):
        for cell in geometry.units[u]:
            out[cell] = LAYOUT_SYMBOLS[number]
    return "".join(out)


def is_jigsaw(geometry: Geometry) -> bool:
    """Whether the geometry's boxes are irregular regions rather than the shape's boxes."""
    standard = {frozenset(box) for box in geometry.shape.boxes}
    return {frozenset(geometry.units[u]) for u in geometry.boxes} != standard


def combine(*geometries: Geometry) -> Geometry:
    """One geometry with the units of all: jigsaw-X is ``combine(jigsaw(...), x(shape))``.

    All must share a size, and, unless a jigsaw's regions replace the boxes,
    a box shape (two different jigsaw layouts cannot combine); the extra units of every
    geometry are added, and a unit that repeats another's cells is kept once.
    With no extra units and no jigsaw, the result is ``Geometry.of(shape)``.
    Killer cages ride along: the geometries may carry cages, all the same ones.

    >>> g = combine(jigsaw(None, "1112 1222 3444 3334"), x("2x2"))
    >>> describe(g), g.unit_names[-1]
    ('x,jigsaw', 'diagonal 2')
    """
    if not geometries:
        raise ValueError("combine needs at least one geometry")
    shape = next((g.shape for g in geometries if not is_jigsaw(g)), geometries[0].shape)
    regions = None
    extra: list[tuple[int, tuple[int, ...]]] = []
    for geo in geometries:
        if geo.shape.size != shape.size:
            raise ShapeError(f"cannot combine a {geo.shape.size}x{geo.shape.size} geometry with a {shape.size}x{shape.size} one")
        if is_jigsaw(geo):
            mine = tuple(geo.units[u] for u in geo.boxes)
            if regions is not None and {frozenset(r) for r in regions} != {frozenset(r) for r in mine}:
                raise ShapeError("cannot combine two different jigsaw layouts")
            regions = mine
        for u, kind in enumerate(geo.kind):
            if kind not in (ROW, COLUMN, BOX):
                extra.append((_variant_kind(geo, kind), geo.units[u]))
    if regions is None and len({g.shape for g in geometries}) > 1:
        raise ShapeError(f"cannot combine geometries of different box shapes: {', '.join(sorted({str(g.shape) for g in geometries}))}")
    cages = {g.cages for g in geometries if g.cages}
    if len(cages) > 1:
        raise ShapeError("cannot combine two different sets of killer cages")
    built = _build(shape, regions, extra)
    return built.with_cages(cages.pop()) if cages else built


def _variant_kind(geo: Geometry, kind: int) -> int:
    """The kind number in :data:`VARIANT_KIND_NAMES` of ``geo``'s kind ``kind`` (by name)."""
    name = geo.kind_names[kind]
    if name not in VARIANT_KIND_NAMES[3:]:
        raise ShapeError(f"unit kind {name!r} is not one sudokit's variants know")
    return VARIANT_KIND_NAMES.index(name)


def _build(shape: Shape, regions, extra: Iterable[tuple[int, Sequence[int]]]) -> Geometry:
    n = shape.size
    boxes = shape.boxes if regions is None else tuple(tuple(r) for r in regions)
    units = list(shape.rows + shape.cols + boxes)
    kinds = [ROW] * n + [COLUMN] * n + [BOX] * n
    seen = {frozenset(u) for u in units}
    for kind, unit in sorted(extra, key=lambda ku: ku[0]):  # stable: each kind keeps its order
        key = frozenset(unit)
        if key not in seen:
            seen.add(key)
            units.append(tuple(unit))
            kinds.append(kind)
    if regions is None and len(units) == 3 * n:
        return Geometry.of(shape)
    names = VARIANT_KIND_NAMES if regions is None else JIGSAW_KIND_NAMES
    return Geometry(shape, units, kinds, names=names)


# -- the --variant names -------------------------------------------------------------


def parse(text: str) -> tuple[str, ...]:
    """The variant names in ``text`` (comma- or plus-separated, any case), canonical and once each.

    An empty string (or "classic") is the classic puzzle, ``()``.

    >>> parse("Killer+x"), parse("windoku"), parse("")
    (('x', 'killer'), ('hyper',), ())
    """
    found = set()
    for word in text.replace("+", ",").split(","):
        word = word.strip().lower()
        if not word or word in ("classic", "none", "sudoku"):
            continue
        if word not in _ALIASES:
            raise ValueError(f"unknown variant {word!r}: expected some of {', '.join(NAMES)}, separated by commas")
        found.add(_ALIASES[word])
    return tuple(name for name in NAMES if name in found)


def describe(geometry: Geometry, *, killer: bool = False) -> str:
    """The ``--variant`` names of a geometry (with "killer" when it has cages): the inverse of
    :func:`parse` and :func:`of`. The classic geometry is ``""``.

    >>> describe(x("3x3")), describe(Geometry.of(Shape(3, 3)), killer=True)
    ('x', 'killer')
    """
    names = {geometry.kind_names[k] for k in set(geometry.kind)}
    found = set()
    if "diagonal" in names:
        found.add("x")
    if "window" in names:
        found.add("hyper")
    if is_jigsaw(geometry):
        found.add("jigsaw")
    if killer or geometry.cages:
        found.add("killer")
    return ",".join(name for name in NAMES if name in found)


def of(shape: "Shape | str | None", variants: "str | Iterable[str]" = (), *, regions: str | None = None,
       cages: "Sequence[Cage] | None" = None) -> Geometry:
    """The geometry of the named variants: ``of("3x3", "x,jigsaw", regions=LAYOUT)``.

    ``regions`` implies jigsaw; jigsaw without ``regions`` is an error.
    "killer" adds no units; ``cages`` (:class:`~sudokit.killer.Cage`, checked:
    :class:`~sudokit.killer.CageError`) ride on the geometry.

    >>> of("3x3", "x,hyper") == combine(x("3x3"), hyper("3x3"))
    True
    """
    names = parse(variants) if isinstance(variants, str) else parse(",".join(variants))
    if regions is not None and "jigsaw" not in names:
        names = names + ("jigsaw",)
    shape = shape_of(shape, None if regions is None else len("".join(regions.split())))
    parts = [Geometry.of(shape)]
    if "jigsaw" in names:
        if regions is None:
            raise ValueError("a jigsaw needs its regions: a layout of N² region letters (--regions LAYOUT)")
        parts.append(jigsaw(shape, regions))
    if "x" in names:
        parts.append(x(shape))
    if "hyper" in names:
        parts.append(hyper(shape))
    built = combine(*parts)
    return built.with_cages(cages) if cages else built


def under(grid, variant: str | None, regions: str | None, cages: "Sequence[Cage] | None" = None):
    """``grid`` (a :class:`~sudokit.grid.Grid`) under the named units: the
    ``--variant`` names and the ``regions`` layout, as :func:`of` makes them
    for its shape, with ``cages`` (killer cages; None keeps the grid's own);
    the grid as it is when none is given (it may carry its own units and
    cages, read from a record). One geometry per shape and names, so that
    its tables are derived once for a stream of puzzles. Raises ShapeError (a
    :class:`LayoutError`), ValueError, or :class:`~sudokit.killer.CageError`
    for cages that do not fit the grid, when the names do not fit the grid.

    >>> from sudokit.grid import Grid
    >>> under(Grid.empty(), "x", None).geometry == x("3x3"), under(Grid.empty(), None, None).is_variant
    (True, False)
    """
    if not variant and regions is None and cages is None:
        return grid
    if cages is None:
        cages = grid.geometry.cages
        if not variant and regions is None:
            return grid
    return grid.with_geometry(_named(grid.shape, variant or "", regions, tuple(cages)))


@lru_cache(maxsize=32)
def _named(shape: Shape, variant: str, regions: str | None, cages: tuple = ()) -> Geometry:
    return of(shape, variant, regions=regions, cages=cages)


# -- records ---------------------------------------------------------------------------


class CageFieldError(ValueError):
    """A record's ``"cages"`` that cannot be read or cannot be a puzzle's: the message names the cage."""


def fields(geometry: Geometry) -> dict:
    """What a record says of a geometry: ``{"variant": names}``, with
    ``"regions": layout`` for a jigsaw and ``"cages"``, a list of cage lines
    (:func:`sudokit.killer.render_cages`), for a killer; ``"shape"`` first
    when the box shape is not the conventional one for the size (a line of
    N² symbols cannot say it); nothing for the classic geometry.

    >>> from sudokit.killer import Cage
    >>> fields(x("3x3")), fields(Geometry.of(Shape(3, 3))), fields(Geometry.of(Shape(3, 2)))
    ({'variant': 'x'}, {}, {'shape': '3x2'})
    >>> fields(Geometry.of(Shape(2, 2)).with_cages([Cage((0, 1), 3)]))
    {'variant': 'killer', 'cages': ['r1c1 r1c2 = 3']}
    """
    out: dict = {}
    if geometry.shape != Shape.for_size(geometry.shape.size):
        out["shape"] = str(geometry.shape)
    names = describe(geometry)
    if not names:
        return out
    out["variant"] = names
    if is_jigsaw(geometry):
        out["regions"] = layout(geometry)
    if geometry.cages:
        out["cages"] = [cage.name(geometry.n) for cage in geometry.cages]
    return out


def from_fields(shape: Shape, record: dict) -> "Geometry | None":
    """The geometry a record's ``variant`` and ``regions`` fields name (see
    :func:`fields`), or None when it names none. Raises ShapeError (a
    :class:`LayoutError` for the regions) or ValueError for bad fields, a
    :class:`CageFieldError` naming the cage for bad cages.

    ``"cages"`` is a list of cage lines, or one string in the cage text form."""
    variant, regions, cages = record.get("variant"), record.get("regions"), record.get("cages")
    if variant is None and regions is None and cages is None:
        return None
    if variant is not None and not isinstance(variant, str) or regions is not None and not isinstance(regions, str):
        raise ValueError('"variant" and "regions" must be strings')
    read = None
    if cages is not None:
        from .killer import parse_cages

        if isinstance(cages, list) and all(isinstance(c, str) for c in cages):
            cages = "\n".join(cages)
        if not isinstance(cages, str):
            raise CageFieldError('a list of cage lines such as "r1c1 r1c2 = 3" is expected')
        try:
            read = parse_cages(cages, shape.size)
        except ParseError as exc:
            raise CageFieldError(f"cage {exc.line}: {exc.reason}") from None
        except ValueError as exc:  # a CageError: it names the cage
            raise CageFieldError(str(exc)) from None
        if variant is not None and "killer" not in parse(variant):
            raise CageFieldError(f'given, but "variant" {variant!r} does not name killer')
    elif variant is not None and "killer" in parse(variant):
        raise CageFieldError('missing: a killer needs its cages')
    return of(shape, variant or "", regions=regions, cages=read)


# -- helpers -------------------------------------------------------------------------


def _name(n: int, cell: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def _components(n: int, cells: Sequence[int]) -> list[list[int]]:
    """The orthogonally connected pieces of ``cells``, each sorted, in order of their first cell."""
    left = set(cells)
    parts = []
    for start in sorted(cells):
        if start not in left:
            continue
        left.discard(start)
        stack, part = [start], [start]
        while stack:
            cell = stack.pop()
            r, c = divmod(cell, n)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                nb = rr * n + cc
                if 0 <= rr < n and 0 <= cc < n and nb in left:
                    left.discard(nb)
                    stack.append(nb)
                    part.append(nb)
        parts.append(sorted(part))
    return parts
