"""SVG pictures (sudokit.svg): well-formed on every shape, with givens, the
solution and pencil marks where asked, and symbols escaped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from puzzles import SHAPES
from sudokit.formats import render
from sudokit.grid import Grid
from sudokit.svg import grid_svg


@pytest.mark.parametrize("shape", SHAPES)
def test_svg_is_well_formed(shape):
    n = shape[0] * shape[1]
    full = [((r * shape[1] + r // shape[0] + c) % n) + 1 for r in range(n) for c in range(n)]
    solution = Grid(full, shape)
    assert solution.is_solved
    puzzle = Grid([v if i % 3 == 0 else 0 for i, v in enumerate(full)], shape)
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(grid_svg(puzzle, solution=solution))
    texts = root.findall(f".//{ns}text")
    assert len(texts) == n * n
    bold = [g for g in root.iter(f"{ns}g") if g.get("font-weight") == "bold"]
    assert len(bold) == 1 and len(bold[0]) == puzzle.clues
    root = ET.fromstring(grid_svg(puzzle, candidates=True))
    marks = sum(bin(m).count("1") for m, v in zip(puzzle.candidate_masks(), puzzle.values) if not v)
    assert len(root.findall(f".//{ns}text")) == puzzle.clues + marks
    assert ET.fromstring(render(puzzle, "svg")).tag == f"{ns}svg"
    assert puzzle._repr_svg_().startswith("<svg")


def test_svg_escapes_symbols():
    grid = Grid([1, 2, 0, 0] * 4, (2, 2))
    root = ET.fromstring(grid_svg(grid, symbols="<&>\""))
    assert "<" in [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
