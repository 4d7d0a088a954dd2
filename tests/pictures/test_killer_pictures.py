"""A killer's step picture keeps its cage totals and dotted outlines off the candidates: read
back from the SVG itself, the total's box does not meet candidate 1 of the cage's first cell, and
no cage line meets any candidate's box."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from sudokit import variants
from sudokit.geometry import Shape
from sudokit.grid import Grid
from sudokit import hint

PUBLISHED = Path(__file__).resolve().parent.parent / "data" / "published_killers.jsonl"
NS = "{http://www.w3.org/2000/svg}"


def _killer() -> Grid:
    record = json.loads(PUBLISHED.read_text().splitlines()[0])
    return Grid(record["puzzle"]).with_geometry(variants.from_fields(Shape(3, 3), record))


def _boxes(svg: str):
    """(total boxes, candidate boxes by cell and symbol, cage segments, cell size) read from the SVG."""
    root = ET.fromstring(svg)
    totals, cands, lines = [], {}, []
    for group in root.iter(f"{NS}g"):
        cls = group.get("class", "")
        if cls == "cage-sums":
            size = float(group.get("font-size"))
            for rect, text in zip(group.iter(f"{NS}rect"), group.iter(f"{NS}text")):
                x, y = float(rect.get("x")), float(rect.get("y"))
                totals.append(((x, y, x + float(rect.get("width")), y + float(rect.get("height"))), text.text,
                               size))
        elif cls == "cages":
            for line in group.iter(f"{NS}line"):
                lines.append(tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2")))
        elif group.get("font-size") and group.get("fill") and group.get("text-anchor") == "middle":
            size = float(group.get("font-size"))
            for text in group.iter(f"{NS}text"):
                if text.get("class") is None and text.text and len(text.text) == 1:
                    x, y = float(text.get("x")), float(text.get("y"))
                    # a glyph is about 0.6 em wide; dominant-baseline central puts its middle at y
                    cands.setdefault((round(x, 1), round(y, 1)), []).append(
                        ((x - 0.3 * size, y - 0.5 * size, x + 0.3 * size, y + 0.5 * size), text.text))
    return totals, [c for v in cands.values() for c in v], lines


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _segment_box(seg, half: float):
    x1, y1, x2, y2 = seg
    return (min(x1, x2) - half, min(y1, y2) - half, max(x1, x2) + half, max(y1, y2) + half)


def test_cage_totals_and_lines_keep_off_the_candidates() -> None:
    grid = _killer()
    step = hint(grid)  # the first step, on the board with every candidate open
    svg = step._repr_svg_()
    root = ET.fromstring(svg)
    candidate_size = max(float(g.get("font-size")) for g in root.iter(f"{NS}g")
                         if g.get("text-anchor") == "middle" and g.get("font-size")
                         and any(t.text in "123" for t in g.iter(f"{NS}text")) and g.get("class") is None)
    totals, candidates, lines = _boxes(svg)
    assert len(totals) == len(grid.geometry.cages) and lines and len(candidates) > 81 * 4
    ones = [box for box, symbol in candidates if symbol == "1"]
    for box, text, _ in totals:
        assert re.fullmatch(r"\d+", text)
        # the candidate 1 of the cage's first cell sits just below and right of the total's corner
        near = [c for c in ones if abs(c[0] - box[0]) < 40 and abs(c[1] - box[1]) < 40]
        for c in near:
            assert not _overlap(box, c), (text, box, c)
    for seg in lines:
        area = _segment_box(seg, 0.5)
        for box, symbol in candidates:
            assert not _overlap(area, box), (seg, symbol, box)
    assert candidate_size >= 7  # still readable


def test_candidates_are_inset_from_the_cage_lines() -> None:
    """Every candidate's box keeps a gap of at least a pixel from every cage line."""
    totals, candidates, lines = _boxes(hint(_killer())._repr_svg_())
    for seg in lines:
        area = _segment_box(seg, 1.5)
        assert not any(_overlap(area, box) for box, _ in candidates)
