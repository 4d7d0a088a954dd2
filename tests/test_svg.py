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


def _killer():
    import json
    from pathlib import Path

    from sudokit import formats

    line = (Path(__file__).parent / "data" / "published_killers.jsonl").read_text().splitlines()[0]
    return formats.parse(line), json.loads(line)


def test_killer_cages_are_dotted_outlines_inset_along_every_cage_border() -> None:
    """Independent truth: a cell side is a cage border where the cell across is in another
    cage or outside the grid; each is drawn once, as a dashed line parallel to it and a
    little inside the cage, over the middle of the side."""
    grid, record = _killer()
    n, cs = 9, 40
    margin = max(2, cs // 13)
    svg = grid_svg(grid, cell_size=cs)
    (cages,) = [g for g in _groups(svg) if g.get("class") == "cages"]
    assert cages.get("stroke-dasharray") and cages.get("fill") == "none"
    owner = {}
    for number, text in enumerate(record["cages"]):
        for name in text.split("=")[0].split():
            r, c = name[1:].split("c")
            owner[(int(r) - 1, int(c) - 1)] = number
    expected = set()
    for (r, c), k in owner.items():
        for side, (dr, dc) in (("top", (-1, 0)), ("bottom", (1, 0)), ("left", (0, -1)), ("right", (0, 1))):
            if owner.get((r + dr, c + dc)) != k:
                expected.add((r, c, side))
    drawn = set()
    for line in cages:
        x1, y1, x2, y2 = (float(line.get(a)) for a in ("x1", "y1", "x2", "y2"))
        if y1 == y2:  # horizontal: the side of the cell whose middle it covers, nearest in y
            col = int((min(x1, x2) + max(x1, x2)) / 2 - margin) // cs
            row, offset = divmod(y1 - margin, cs)
            side = "top" if offset < cs / 2 else "bottom"
            assert min(offset, cs - offset) < cs / 4  # inset, not on the grid line
            assert offset != 0
        else:
            assert x1 == x2
            row = int((min(y1, y2) + max(y1, y2)) / 2 - margin) // cs
            col, offset = divmod(x1 - margin, cs)
            side = "left" if offset < cs / 2 else "right"
            assert 0 < min(offset, cs - offset) < cs / 4
        drawn.add((int(row), int(col), side))
    assert drawn == expected and len(list(cages)) == len(expected)
    (sums,) = [g for g in _groups(svg) if g.get("class") == "cage-sums"]
    texts = [t for t in sums if t.tag.endswith("text")]
    totals = sorted(int(text.split("=")[1]) for text in record["cages"])
    assert sorted(int(t.text) for t in texts) == totals
    firsts = set()
    for text in record["cages"]:
        cells = [tuple(int(v) - 1 for v in name[1:].split("c")) for name in text.split("=")[0].split()]
        firsts.add(min(cells))
    corners = {(int((float(t.get("y")) - margin) // cs), int((float(t.get("x")) - margin) // cs)) for t in texts}
    assert corners == firsts  # each total sits in its cage's first cell
    for t in texts:  # ... in its top-left quarter
        assert (float(t.get("x")) - margin) % cs < cs / 3 and (float(t.get("y")) - margin) % cs < cs / 3
    assert "killer cages" in ET.fromstring(svg).find("{http://www.w3.org/2000/svg}title").text
    assert 'class="cages"' not in grid_svg(Grid.empty())
