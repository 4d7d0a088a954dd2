"""Printable SVG pictures of grids, any box shape.

Givens are bold black, solution values blue, pencil marks small and grey;
box borders are thick. This module reads a grid only through its public
attributes and imports no other part of sudokit but the alphabets, so the
grid can draw itself with it (``Grid._repr_svg_``) without an import circle.

>>> from sudokit.grid import Grid
>>> svg = grid_svg(Grid.empty((2, 3)).place(0, 0, 4))
>>> svg.startswith("<svg") and "font-weight=\\"bold\\"" in svg
True
"""

from __future__ import annotations

import math
from html import escape as _escape
from typing import TYPE_CHECKING

from .drawing import CAGE_COLOUR, DIAGONAL_COLOUR, WINDOW_SHADE, Marks, cage_drawings, marks as drawing_marks
from .symbols import parse_alphabet

if TYPE_CHECKING:  # pragma: no cover
    from .grid import Grid

GIVEN_COLOUR = "#000000"
SOLUTION_COLOUR = "#1a5fb4"
CANDIDATE_COLOUR = "#6b6b6b"
THIN_LINE = "#9a9a9a"
THICK_LINE = "#000000"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def grid_lines(n: int, br: int, bc: int, cs: float, margin: float, thick: float, thin_colour: str = THIN_LINE,
               thick_colour: str = THICK_LINE) -> list[str]:
    """The lines of an n x n grid of ``br`` x ``bc`` boxes, cells ``cs`` wide from
    ``margin``: thin cell lines, then thick box lines over them (two SVG groups)."""
    side = n * cs
    thin = []
    for i in range(1, n):
        pos = margin + i * cs
        if i % bc:
            thin.append(f'<line x1="{pos}" y1="{margin}" x2="{pos}" y2="{margin + side}"/>')
        if i % br:
            thin.append(f'<line x1="{margin}" y1="{pos}" x2="{margin + side}" y2="{pos}"/>')
    bold = []
    for i in range(0, n + 1, bc):
        pos = margin + i * cs
        bold.append(f'<line x1="{pos}" y1="{margin - thick / 2}" x2="{pos}" y2="{margin + side + thick / 2}"/>')
    for i in range(0, n + 1, br):
        pos = margin + i * cs
        bold.append(f'<line x1="{margin - thick / 2}" y1="{pos}" x2="{margin + side + thick / 2}" y2="{pos}"/>')
    return [f'<g stroke="{thin_colour}" stroke-width="1">' + "".join(thin) + "</g>",
            f'<g stroke="{thick_colour}" stroke-width="{thick}">' + "".join(bold) + "</g>"]


def variant_lines(m: Marks, cs: float, margin: float, thick: float, thin_colour: str = THIN_LINE,
                  thick_colour: str = THICK_LINE) -> list[str]:
    """A variant's grid (:func:`sudokit.drawing.marks`): its windows shaded,
    its diagonals, thin cell lines, and thick lines round every box or jigsaw
    region and the grid, edge by edge."""
    n = m.n
    side = n * cs
    out = []
    if m.shaded:
        out.append(f'<g fill="{WINDOW_SHADE}">' + "".join(
            f'<rect x="{_num(margin + (c % n) * cs)}" y="{_num(margin + (c // n) * cs)}" width="{cs}" height="{cs}"/>'
            for c in m.shaded) + "</g>")
    main, anti = m.diagonals
    if main or anti:
        lines = []
        if main:
            lines.append(f'<line x1="{margin}" y1="{margin}" x2="{margin + side}" y2="{margin + side}"/>')
        if anti:
            lines.append(f'<line x1="{margin + side}" y1="{margin}" x2="{margin}" y2="{margin + side}"/>')
        out.append(f'<g stroke="{DIAGONAL_COLOUR}" stroke-width="{max(1, thick / 2)}">' + "".join(lines) + "</g>")
    thin, bold = [], []
    for row in range(n):
        for col in range(n):
            x, y = margin + col * cs, margin + row * cs
            right = f'<line x1="{_num(x + cs)}" y1="{_num(y)}" x2="{_num(x + cs)}" y2="{_num(y + cs)}"/>'
            below = f'<line x1="{_num(x)}" y1="{_num(y + cs)}" x2="{_num(x + cs)}" y2="{_num(y + cs)}"/>'
            (bold if m.thick_right(row, col) else thin).append(right)
            (bold if m.thick_below(row, col) else thin).append(below)
    bold.append(f'<line x1="{margin}" y1="{_num(margin - thick / 2)}" x2="{margin}" y2="{_num(margin + side + thick / 2)}"/>')
    bold.append(f'<line x1="{_num(margin - thick / 2)}" y1="{margin}" x2="{_num(margin + side + thick / 2)}" y2="{margin}"/>')
    out.append(f'<g stroke="{thin_colour}" stroke-width="1">' + "".join(thin) + "</g>")
    out.append(f'<g stroke="{thick_colour}" stroke-width="{thick}" stroke-linecap="square">' + "".join(bold) + "</g>")
    return out


def cage_lines(grid: "Grid", cs: float, margin: float) -> list[str]:
    """A killer's cages (:func:`sudokit.drawing.cage_drawings`): dotted outlines inset
    in their cells, and each total small in the top-left corner of the cage's
    first cell, on a white patch that breaks the outline there."""
    return geometry_cage_lines(grid.geometry, cs, margin)


def geometry_cage_lines(geometry, cs: float, margin: float, *,  # type: ignore[no-untyped-def]
                        total_size: float = 0.24) -> list[str]:
    """:func:`cage_lines` of a geometry's cages (the step pictures draw them on a candidates grid),
    the totals ``total_size`` cells high."""
    drawings = cage_drawings(geometry)
    dash = max(1.5, cs / 16)
    lines = "".join(
        f'<line x1="{_num(margin + x0 * cs)}" y1="{_num(margin + y0 * cs)}" '
        f'x2="{_num(margin + x1 * cs)}" y2="{_num(margin + y1 * cs)}"/>'
        for d in drawings for x0, y0, x1, y1 in d.segments)
    out = [f'<g class="cages" stroke="{CAGE_COLOUR}" stroke-width="{_num(max(1, cs / 40))}" '
           f'stroke-dasharray="{_num(dash)},{_num(dash)}" fill="none">{lines}</g>']
    size = round(cs * total_size, 1)
    sums = []
    for d in drawings:
        if d.total is None:
            continue
        text = str(d.total)
        x, y = margin + d.corner[0] * cs + cs * 0.03, margin + d.corner[1] * cs + cs * 0.03
        width = size * 0.62 * len(text) + cs * 0.04
        sums.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(size * 1.05)}" '
                    f'fill="#ffffff"/><text x="{_num(x + cs * 0.02)}" y="{_num(y + size * 0.5)}">{text}</text>')
    if sums:
        out.append(f'<g class="cage-sums" font-family="{FONT}" font-size="{size}" fill="{CAGE_COLOUR}" '
                   f'dominant-baseline="central">' + "".join(sums) + "</g>")
    return out


def grid_svg(
    grid: Grid,
    *,
    solution: Grid | None = None,
    candidates: bool = False,
    cell_size: int = 40,
    symbols: str | None = None,
) -> str:
    """An SVG picture of ``grid``.

    ``solution`` fills the blanks in another colour; ``candidates`` writes the
    pencil marks of the remaining blank cells. ``symbols`` is the alphabet.
    """
    if solution is not None and solution.shape != grid.shape:
        raise ValueError(f"solution is {solution.shape}, the grid is {grid.shape}")
    if cell_size < 8:
        raise ValueError("cell_size must be at least 8 pixels")
    shape = grid.shape
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    alphabet = parse_alphabet(symbols)[:n] if symbols else shape.symbols
    cs = cell_size
    thick = max(2, cs // 13)
    margin = thick
    side = n * cs
    total = side + 2 * margin
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{total}" '
        f'viewBox="0 0 {total} {total}">',
        f"<title>{escape(_title(grid))}</title>",
        f'<rect x="0" y="0" width="{total}" height="{total}" fill="#ffffff"/>',
    ]
    if grid.is_variant:  # regions, windows, diagonals: what the geometry adds
        out.extend(variant_lines(drawing_marks(grid.geometry), cs, margin, thick))
    else:
        out.extend(grid_lines(n, br, bc, cs, margin, thick))
    if grid.geometry.cages:
        out.extend(cage_lines(grid, cs, margin))

    font = round(cs * 0.62, 1)
    text_attrs = f'text-anchor="middle" dominant-baseline="central" font-family="{FONT}"'
    givens, solved, marks = [], [], []
    masks = grid.candidate_masks() if candidates else None
    sub = math.ceil(math.sqrt(n))
    sub_rows = math.ceil(n / sub)
    pad = cs * 0.06
    small = round((cs - 2 * pad) / max(sub, sub_rows) * 0.75, 1)
    for cell, value in enumerate(grid.values):
        row, col = divmod(cell, n)
        x0, y0 = margin + col * cs, margin + row * cs
        if value:
            givens.append(_text(x0 + cs / 2, y0 + cs / 2, alphabet[value - 1]))
            continue
        if solution is not None and solution.values[cell]:
            solved.append(_text(x0 + cs / 2, y0 + cs / 2, alphabet[solution.values[cell] - 1]))
            continue
        if masks is not None:
            mask = masks[cell]
            for k in range(n):
                if mask >> k & 1:
                    r, c = divmod(k, sub)
                    marks.append(
                        _text(
                            x0 + pad + (c + 0.5) * (cs - 2 * pad) / sub,
                            y0 + pad + (r + 0.5) * (cs - 2 * pad) / sub_rows,
                            alphabet[k],
                        )
                    )
    if givens:
        out.append(f'<g {text_attrs} font-size="{font}" font-weight="bold" fill="{GIVEN_COLOUR}">' + "".join(givens) + "</g>")
    if solved:
        out.append(f'<g {text_attrs} font-size="{font}" fill="{SOLUTION_COLOUR}">' + "".join(solved) + "</g>")
    if marks:
        out.append(f'<g {text_attrs} font-size="{small}" fill="{CANDIDATE_COLOUR}">' + "".join(marks) + "</g>")
    out.append("</svg>")
    return "\n".join(out)


def _title(grid: Grid) -> str:
    n, clues = grid.size, grid.clues
    if grid.is_variant:
        kinds = sorted({grid.geometry.kind_names[k] for k in grid.geometry.kind[3 * n:]})
        jigsaw = drawing_marks(grid.geometry).region != drawing_marks(grid.shape.geometry).region
        regions = " with jigsaw regions" if jigsaw else ""
        extra = f" and {', '.join(kinds)} units" if kinds else ""
        cages = f", {len(grid.geometry.cages)} killer cages" if grid.geometry.cages else ""
        return f"{n}x{n} sudoku{regions}{extra}{cages}, {clues} givens"
    return f"{n}x{n} sudoku ({grid.shape} boxes), {clues} givens"


def _text(x: float, y: float, symbol: str) -> str:
    return f'<text x="{_num(x)}" y="{_num(y)}">{escape(symbol)}</text>'


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities (quotes stay: they only appear in text)."""
    return _escape(text, quote=False)


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")
