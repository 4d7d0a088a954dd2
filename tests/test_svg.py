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


# -- variants: what the geometry adds to the picture -------------------------------------

JIGSAW9 = "111222333111222333114222333144555666444556666444555566777888999777888999777888999"


def _groups(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g"))


def _edges(group: ET.Element, n: int, cs: float, margin: float) -> set[tuple[str, int, int]]:
    """The cell edges a group's lines cover: ("v", row, col) left of a cell, ("h", row, col) above it."""
    out = set()
    for line in group.iter("{http://www.w3.org/2000/svg}line"):
        x1, y1, x2, y2 = (float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
        if x1 == x2:  # vertical: every cell edge it covers
            col = round((x1 - margin) / cs)
            for row in range(n):
                if min(y1, y2) <= margin + row * cs + cs / 2 <= max(y1, y2):
                    out.add(("v", row, col))
        elif y1 == y2:
            row = round((y1 - margin) / cs)
            for col in range(n):
                if min(x1, x2) <= margin + col * cs + cs / 2 <= max(x1, x2):
                    out.add(("h", row, col))
    return out


def test_a_jigsaw_is_drawn_with_thick_lines_exactly_round_its_regions() -> None:
    from sudokit import variants

    n, cs = 9, 40
    grid = Grid.empty().with_geometry(variants.jigsaw(None, JIGSAW9))
    svg = grid_svg(grid, cell_size=cs)
    bold = next(g for g in _groups(svg) if g.get("stroke") == "#000000")
    margin = max(2, cs // 13)
    drawn = _edges(bold, n, cs, margin)
    # independent truth: an edge is a border where the layout's letters differ, or at the grid's edge
    expected = set()
    for row in range(n):
        for col in range(n + 1):
            if col in (0, n) or JIGSAW9[row * n + col - 1] != JIGSAW9[row * n + col]:
                expected.add(("v", row, col))
    for row in range(n + 1):
        for col in range(n):
            if row in (0, n) or JIGSAW9[(row - 1) * n + col] != JIGSAW9[row * n + col]:
                expected.add(("h", row, col))
    assert drawn == expected
    assert "jigsaw regions" in ET.fromstring(svg).find("{http://www.w3.org/2000/svg}title").text


def test_x_draws_its_two_diagonals_and_hyper_shades_its_windows() -> None:
    from sudokit import variants

    x = grid_svg(Grid.empty().with_geometry(variants.x()))
    diagonals = [g for g in _groups(x) if g.get("stroke") == "#b0b0b0"]
    assert len(diagonals) == 1 and len(list(diagonals[0])) == 2
    hyper = grid_svg(Grid.empty().with_geometry(variants.hyper()))
    rects = [r for g in _groups(hyper) if g.get("fill") == "#e4e4e4" for r in g]
    cells = {(round((float(r.get("y")) - 3) / 40), round((float(r.get("x")) - 3) / 40)) for r in rects}
    assert cells == {(r, c) for r in (1, 2, 3, 5, 6, 7) for c in (1, 2, 3, 5, 6, 7)}
    plain = grid_svg(Grid.empty())  # a classic grid draws none of it
    assert "#b0b0b0" not in plain and "#e4e4e4" not in plain
