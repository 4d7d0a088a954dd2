"""Complete grids (sudokit.generation.grids): each obeys the rules, every 4x4
grid turns up, and a seed's grid is that seed's puzzle's solution.
"""

from __future__ import annotations

import pytest

from reference import obeys_rules
from sudokit.generation import complete_grid, generate
from sudokit.grid import Shape


@pytest.mark.parametrize("shape", ["1x2", "2x2", "2x3", "3x2", "3x3", "2x4", "3x4", "4x4", "5x5"])
def test_complete_grid_obeys_the_rules(shape: str) -> None:
    grid = complete_grid(shape, seed=11)
    s = Shape.parse(shape)
    assert obeys_rules(grid.values, [0] * s.cell_count, s.box_rows, s.box_cols)


def test_complete_grids_reach_every_4x4_grid() -> None:
    seen = {complete_grid("2x2", seed=s).values for s in range(3000)}
    assert len(seen) == 288  # every 4x4 grid (288 of them) turns up


def test_complete_grid_is_the_puzzles_solution() -> None:
    assert complete_grid("3x3", seed=5) == generate(seed=5).solution
