"""What the generation tests share: the small shapes, clue removal, and
symmetry maps written out again, independent of sudokit.generation.symmetry.

The reference count they use is tests/puzzles.py's ``ref_count``.
"""

from __future__ import annotations

from sudokit.grid import Grid

SMALL_SHAPES = [(2, 2), (2, 3), (3, 2)]


def _without(grid: Grid, cells: tuple[int, ...]) -> Grid:
    for c in cells:
        grid = grid.with_cell(c, 0)
    return grid


# -- independent symmetry maps (not the ones in sudokit.generation.symmetry) -----------------

def _images(name: str, r: int, c: int, n: int) -> set[tuple[int, int]]:
    m = n - 1
    table = {
        "none": [(r, c)],
        "rotate180": [(r, c), (m - r, m - c)],
        "rotate90": [(r, c), (c, m - r), (m - r, m - c), (m - c, r)],
        "mirror": [(r, c), (r, m - c)],
        "flip": [(r, c), (m - r, c)],
        "diagonal": [(r, c), (c, r)],
        "dihedral": [(r, c), (c, m - r), (m - r, m - c), (m - c, r), (r, m - c), (m - r, c), (c, r), (m - c, m - r)],
    }
    return set(table[name])


def _pattern_symmetric(grid: Grid, name: str) -> bool:
    n = grid.size
    clues = {divmod(cell, n) for cell in grid.givens}
    return all(_images(name, r, c, n) <= clues for r, c in clues)


def _orbit(name: str, cell: int, n: int) -> tuple[int, ...]:
    r, c = divmod(cell, n)
    return tuple(sorted(rr * n + cc for rr, cc in _images(name, r, c, n)))
