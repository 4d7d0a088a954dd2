"""What sudokit writes, it reads back: every text format, for every shape and variant, reads
back to the same grid, box shape, units and cages (``Grid ==`` compares all of them).

A format that records the box shape or the units (:data:`sudokit.formats.RECORDS`) must read
back with no option at all; one that does not is read with the options a user gives again
(``--box``, ``--variant``, ``--regions``, ``--cages``), as the command line does. The fixed
sample runs in the default suite; ``-m slow`` runs thousands of examples.

The geometry is built independently of the code under test where it matters: a killer's cage
totals come from a valid filled grid made by a formula, jigsaw layouts from the library's
seeded drawer (checked by the reader), and every grid compared is the one written.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import variants
from sudokit.formats import FORMATS, RECORDS, parse, parse_candidates, read_puzzles, render, render_block, render_marks
from sudokit.grid import Grid, Shape
from sudokit.killer import Cage

#: Every box shape from 4x4 to 25x25 that the readers meet: square, wide, tall, and boxes of one row.
SHAPES = [(2, 2), (1, 4), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (5, 2), (3, 4), (4, 3), (1, 7),
          (4, 4), (3, 5), (5, 4), (4, 5), (5, 5)]

VARIANTS = ["", "x", "hyper", "jigsaw", "killer", "x,jigsaw", "x,killer", "hyper,killer"]


def filled(shape: Shape) -> list[int]:
    """A valid full grid of ``shape`` by the classic pattern (not by sudokit)."""
    r, c, n = shape.box_rows, shape.box_cols, shape.size
    return [((row % r) * c + row // r + col) % n + 1 for row in range(n) for col in range(n)]


def cages_of(shape: Shape, rng: random.Random) -> tuple[Cage, ...]:
    """Cages covering some of the grid: connected pieces of 1 to 4 cells, their totals from
    :func:`filled` (some without a total)."""
    n = shape.size
    values = filled(shape)
    free = set(range(n * n))
    cages = []
    for start in rng.sample(range(n * n), k=min(n * n, rng.randint(1, 2 * n))):
        if start not in free:
            continue
        cells, seen = [start], {values[start]}
        free.discard(start)
        for _ in range(rng.randint(0, 3)):
            r, c = divmod(rng.choice(cells), n)
            options = [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                       if 0 <= rr < n and 0 <= cc < n and rr * n + cc in free and values[rr * n + cc] not in seen]
            if options:
                cell = rng.choice(options)
                cells.append(cell)
                seen.add(values[cell])
                free.discard(cell)
        total = None if rng.random() < 0.1 else sum(values[c] for c in cells)
        cages.append(Cage(tuple(cells), total))
    return tuple(cages)


@st.composite
def puzzles(draw, shapes=SHAPES, names=VARIANTS) -> tuple[Grid, str, str | None, tuple[Cage, ...]]:
    """A grid (random values, mostly blank) under a variant: the grid, the variant's names, the
    jigsaw layout and the cages that give it."""
    box_rows, box_cols = draw(st.sampled_from(shapes))
    shape = Shape(box_rows, box_cols)
    n = shape.size
    names = draw(st.sampled_from([v for v in names if "hyper" not in v or n == 9]))
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    density = draw(st.sampled_from([0.0, 0.2, 0.6, 1.0]))
    values = [rng.randint(1, n) if rng.random() < density else 0 for _ in range(n * n)]
    layout = variants.random_layout(shape, seed) if "jigsaw" in names else None
    cages = cages_of(shape, rng) if "killer" in names else ()
    plain = ",".join(v for v in names.split(",") if v not in ("jigsaw", "killer"))
    grid = variants.under(Grid(values, shape), plain or None, layout, cages or None)
    return grid, plain, layout, cages


def _again(grid: Grid, plain: str, layout: str | None, cages: tuple[Cage, ...]) -> Grid:
    """The grid read back under the options a user gives again: ``--variant``, ``--regions``, ``--cages``."""
    return variants.under(grid, plain or None, layout, cages or None)


def _check(fmt: str, puzzle: tuple[Grid, str, str | None, tuple[Cage, ...]]) -> None:
    grid, plain, layout, cages = puzzle
    text = render(grid, fmt)
    records = RECORDS[fmt]
    shape = None if "shape" in records else grid.shape
    units = "units" in records

    def finish(back: Grid) -> Grid:
        return back if units else _again(back, plain, layout, cages)

    assert finish(parse(text, shape=shape)) == grid, text
    assert finish(parse(text, shape=shape, format=fmt)) == grid, text
    streamed = list(read_puzzles(text + "\n\n" + text + "\n", shape=shape))
    assert [e.error for e in streamed] == [None, None], (text, streamed)
    assert [finish(e.grid) for e in streamed] == [grid, grid], text
    if grid.shape == Shape.for_size(grid.size) and not grid.is_variant and not _ambiguous(fmt, grid):
        assert parse(text) == grid  # the usual shape, no variant: nothing to give again


def _ambiguous(fmt: str, grid: Grid) -> bool:
    """The one text the readers take for something else when given no shape (formats' module doc):
    N rows of N symbols, N a square of 16 and up, whose symbols all fit a √N x √N puzzle (16 rows of
    blanks and 1..4) are also N small puzzles, one a line, and read as such."""
    import math

    root = math.isqrt(grid.size)
    return fmt == "rows" and grid.size >= 16 and root * root == grid.size and max(grid.values) <= root


def _check_block(puzzle: tuple[Grid, str, str | None, tuple[Cage, ...]]) -> None:
    """The classic ===/---/=== block of a puzzle and its solution (``sudoku solve``'s default)."""
    grid, plain, layout, cages = puzzle
    solution = Grid(filled(grid.shape), grid.shape)
    text = render_block(grid, solution) + "\n" + render_block(grid, None, message="no solution")
    entries = list(read_puzzles(text, shape=grid.shape))
    assert [e.error for e in entries] == [None, None]
    assert [_again(e.grid, plain, layout, cages) for e in entries] == [grid, grid]
    assert entries[0].solution == solution and entries[1].solution is None


def _check_marks(puzzle: tuple[Grid, str, str | None, tuple[Cage, ...]], seed: int) -> None:
    """A pencil-mark grid (``hint``'s input, ``solve --format candidates``): givens and marks."""
    grid = puzzle[0]
    rng = random.Random(seed)
    n = grid.size
    masks = [0 if v else rng.randrange(1 << n) for v in grid.values]
    back, marks = parse_candidates(render_marks(grid, masks))
    assert back == Grid(grid.values, grid.shape)
    expected = [1 << (v - 1) if v else m for v, m in zip(grid.values, masks)]
    if any(bin(m).count("1") > 1 for m in masks):  # cells of one mark or none alone are written ".5", "."
        assert list(marks) == expected


_FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_LONG = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("fmt", FORMATS)
@_FAST
@given(puzzle=puzzles())
def test_every_format_reads_back(fmt: str, puzzle) -> None:
    _check(fmt, puzzle)


@_FAST
@given(puzzle=puzzles())
def test_the_classic_block_reads_back(puzzle) -> None:
    _check_block(puzzle)


@_FAST
@given(puzzle=puzzles(names=[""]), seed=st.integers(0, 2**32))
def test_pencil_marks_read_back(puzzle, seed: int) -> None:
    _check_marks(puzzle, seed)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_shape_in_every_format(shape: tuple[int, int], fmt: str) -> None:
    """The fixed sample: each shape once in each format, under each variant it can take."""
    for names in VARIANTS:
        if "hyper" in names and shape != (3, 3):
            continue
        rng = random.Random(hash((shape, fmt, names)) & 0xFFFF)
        s = Shape(*shape)
        values = [rng.randint(0, s.size) if rng.random() < 0.4 else 0 for _ in range(s.cell_count)]
        layout = variants.random_layout(s, 5) if "jigsaw" in names else None
        cages = cages_of(s, rng) if "killer" in names else ()
        plain = ",".join(v for v in names.split(",") if v not in ("jigsaw", "killer"))
        _check(fmt, (variants.under(Grid(values, s), plain or None, layout, cages or None), plain, layout, cages))


def test_the_records_table_is_what_the_readers_do() -> None:
    """A format said not to record the shape really loses it (else the table undersells it)."""
    grid = Grid.empty((3, 2)).place(0, 0, 1).place(1, 3, 2)
    for fmt in FORMATS:
        back = parse(render(grid, fmt))
        assert (back.shape == Shape(3, 2)) == ("shape" in RECORDS[fmt]), fmt
    x = variants.under(grid, "x", None)
    for fmt in FORMATS:
        assert parse(render(x, fmt), shape=x.shape).is_variant == ("units" in RECORDS[fmt]), fmt


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
@_LONG
@given(puzzle=puzzles())
def test_every_format_reads_back_long(fmt: str, puzzle) -> None:
    _check(fmt, puzzle)


@pytest.mark.slow
@_LONG
@given(puzzle=puzzles())
def test_the_classic_block_reads_back_long(puzzle) -> None:
    _check_block(puzzle)
