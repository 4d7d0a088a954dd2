"""One logic step drawn on its grid, as Sudoku Explainer and HoDoKu show it.

The picture holds every candidate of the state the step applies to. The
cells of the step's pattern are shaded, its units (lines and boxes) tinted;
the candidates it names are ringed, a value it places is shown large in a
green cell, and the candidates it removes are ringed in red and struck out.
Links (chains, wings, fish) are drawn from candidate to candidate with an
arrow: strong links solid, weak links dashed.

Everything is plain SVG 1.1 with no script or external resource. Parts that
tests and style sheets may look for carry classes: ``cell-hl`` (a shaded
cell, ``data-cell="r1c2"``), ``unit-hl`` (``data-unit``), ``elim`` and
``place`` (``data-cand="r1c2:4"``), ``link strong`` / ``link weak``.

>>> from sudokit.logic import Candidates, hint
>>> from sudokit.examples import example
>>> state = Candidates.from_grid(example("gentle"))
>>> svg = step_svg(hint(state), state)
>>> svg.startswith("<svg") and 'class="cell-hl"' in svg
True
"""

from __future__ import annotations

import math
from typing import Any, Sequence
from xml.sax.saxutils import escape, quoteattr

from ..grid import Grid
from ..svg import grid_lines

GIVEN = "#000000"
SOLVED = "#1a5fb4"
CANDIDATE = "#5e5e5e"
CELL_FILL = "#fff1a8"       # cells of the pattern
UNIT_FILL = "#e6eefc"       # units of the pattern
NAMED_FILL = "#a5d8ff"      # candidates the step names (its values, link ends)
PLACE_FILL = "#b2f2bb"      # a placement
PLACE_TEXT = "#2b8a3e"
ELIM_FILL = "#ffc9c9"       # removed candidates
ELIM_STROKE = "#c92a2a"
LINK = "#d9480f"
THIN, THICK = "#9a9a9a", "#000000"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def board_of(state: Any, givens: "Grid | Sequence[int] | None" = None) -> tuple:
    """A picture's snapshot of a :class:`~sudokit.logic.Candidates` state:
    ``(shape, givens, values, masks)``, and the geometry last for a killer (its cages are drawn)."""
    if givens is None:
        given_values = tuple(state.values)
    else:
        given_values = tuple(givens.values if isinstance(givens, Grid) else givens)
    board = (state.geo.shape, given_values, tuple(state.values), tuple(state.mask))
    return board + (state.geo,) if state.geo.cages else board  # a killer's cages are drawn too


#: Where the candidates sit in a cell: its margins left, top, right, bottom, in cells.
PADS = (0.05, 0.05, 0.05, 0.05)
#: A killer's candidates keep clear of its cages: of the dotted outlines, inset
#: :data:`sudokit.drawing.CAGE_INSET` inside the cell at the sides and the bottom, and
#: of the cage's total (font size :data:`KILLER_TOTAL` cells) in the top-left corner; the
#: cells are :data:`KILLER_SCALE` times larger so that the candidates stay readable.
KILLER_PADS = (0.13, 0.25, 0.13, 0.11)
KILLER_TOTAL = 0.2
KILLER_SCALE = 1.25


def cell_size_for(n: int) -> int:
    return 46 if n <= 9 else 36 if n <= 16 else 30


def step_svg(step: Any, state: Any = None, *, givens: "Grid | Sequence[int] | None" = None,
             cell_size: int | None = None, title: str | None = None) -> str:
    """An SVG picture of ``step`` on ``state`` (a Candidates state, or a
    board from :func:`board_of`). Without a state, the board the step
    carries (``step.board``, set by :func:`sudokit.hint` and
    :func:`sudokit.explain`) is used. ``givens`` tells the puzzle's givens
    (bold black) from values found since (blue)."""
    board = _board(step, state, givens)
    return board_svg(board, step=step, cell_size=cell_size, title=title)


def _board(step: Any, state: Any, givens: Any) -> tuple:
    if state is None:
        board = getattr(step, "board", None) if step is not None else None
        if board is None:
            raise ValueError("this step does not carry its grid; pass the state it applies to")
        return board
    if isinstance(state, tuple):
        return state
    return board_of(state, givens)


def board_svg(board: tuple, *, step: Any = None, cell_size: int | None = None, title: str | None = None) -> str:
    """The candidates grid of ``board`` with ``step`` (if any) drawn on it."""
    shape, givens, values, masks = board[:4]
    cages_of = board[4] if len(board) > 4 else None
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    symbols = shape.symbols
    cs = cell_size or (round(cell_size_for(n) * KILLER_SCALE) if cages_of is not None else cell_size_for(n))
    thick = max(2, cs // 15)
    margin = thick + 1
    side = n * cs
    total = side + 2 * margin
    sub = math.ceil(math.sqrt(n))
    sub_rows = math.ceil(n / sub)
    left, top, right, bottom = (cs * f for f in (KILLER_PADS if cages_of is not None else PADS))
    pitch_x, pitch_y = (cs - left - right) / sub, (cs - top - bottom) / sub_rows
    small = round(min(pitch_x, pitch_y) * 0.78, 1)
    radius = min(pitch_x, pitch_y) * 0.48

    def name(cell: int) -> str:
        return f"r{cell // n + 1}c{cell % n + 1}"

    def centre(cell: int) -> tuple[float, float]:
        row, col = divmod(cell, n)
        return margin + (col + 0.5) * cs, margin + (row + 0.5) * cs

    def cand_xy(cell: int, value: int) -> tuple[float, float]:
        row, col = divmod(cell, n)
        r, c = divmod(value - 1, sub)
        return (margin + col * cs + left + (c + 0.5) * pitch_x, margin + row * cs + top + (r + 0.5) * pitch_y)

    cells = tuple(getattr(step, "cells", ()) or ())
    units = tuple(getattr(step, "units", ()) or ())
    placements = tuple(getattr(step, "placements", ()) or ())
    eliminations = tuple(getattr(step, "eliminations", ()) or ())
    step_values = set(getattr(step, "values", ()) or ())
    links = step.kinded_links() if step is not None and hasattr(step, "kinded_links") else tuple(
        (*link, "") for link in getattr(step, "links", ()) or ())
    placed = {c: v for c, v in placements}
    removed = set(eliminations)
    named: set[tuple[int, int]] = set()
    for a, va, b, vb, _ in links:
        named.update(((a, va), (b, vb)))
    if step_values:
        for c in cells:
            for v in step_values:
                if masks[c] >> (v - 1) & 1:
                    named.add((c, v))
    named -= removed

    label = title or (f"{step.technique} [{step.rating:.1f}]" if step is not None else f"{n}x{n} grid")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{total}" viewBox="0 0 {total} {total}" '
        f'class="sudoku-step" font-family="{FONT}">',
        f"<title>{escape(label)}</title>",
        "<defs>"
        f'<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{LINK}"/></marker>'
        "</defs>",
        f'<rect x="0" y="0" width="{total}" height="{total}" fill="#ffffff"/>',
    ]
    # unit tints, then cell shading
    if units:
        unit_cells = shape.units
        unit_names = shape.unit_names if hasattr(shape, "unit_names") else None
        for u in dict.fromkeys(units):
            if not 0 <= u < len(unit_cells):
                continue
            members = unit_cells[u]
            rows = [c // n for c in members]
            cols = [c % n for c in members]
            x0, y0 = margin + min(cols) * cs, margin + min(rows) * cs
            w, h = (max(cols) - min(cols) + 1) * cs, (max(rows) - min(rows) + 1) * cs
            uname = unit_names[u] if unit_names else str(u)
            out.append(f'<rect class="unit-hl" data-unit={quoteattr(str(uname))} x="{x0}" y="{y0}" width="{w}" '
                       f'height="{h}" fill="{UNIT_FILL}"/>')
    for c in dict.fromkeys(cells):
        x, y = margin + (c % n) * cs, margin + (c // n) * cs
        fill = PLACE_FILL if c in placed else CELL_FILL
        out.append(f'<rect class="cell-hl" data-cell="{name(c)}" x="{x}" y="{y}" width="{cs}" height="{cs}" '
                   f'fill="{fill}"/>')
    for c in placed:
        if c in cells:
            continue
        x, y = margin + (c % n) * cs, margin + (c // n) * cs
        out.append(f'<rect class="place-hl" data-cell="{name(c)}" x="{x}" y="{y}" width="{cs}" height="{cs}" '
                   f'fill="{PLACE_FILL}"/>')
    # grid lines
    out.extend(grid_lines(n, br, bc, cs, margin, thick, THIN, THICK))
    if cages_of is not None:
        from ..svg import geometry_cage_lines

        out.extend(geometry_cage_lines(cages_of, cs, margin, total_size=KILLER_TOTAL))
    # candidate rings: named (blue), placed (green), removed (red)
    rings = []
    for (c, v) in sorted(named):
        if masks[c] >> (v - 1) & 1 and c not in placed:
            x, y = cand_xy(c, v)
            rings.append(f'<circle class="named" cx="{_n(x)}" cy="{_n(y)}" r="{_n(radius)}" fill="{NAMED_FILL}"/>')
    for (c, v) in sorted(removed):
        x, y = cand_xy(c, v)
        rings.append(f'<circle class="elim" data-cand="{name(c)}:{symbols[v - 1]}" cx="{_n(x)}" cy="{_n(y)}" '
                     f'r="{_n(radius)}" fill="{ELIM_FILL}" stroke="{ELIM_STROKE}" stroke-width="1"/>')
    out.extend(rings)
    # values and candidates
    big = round(cs * 0.6, 1)
    attrs = 'text-anchor="middle" dominant-baseline="central"'
    given_text, solved_text, placed_text, cand_text = [], [], [], []
    for cell in range(n * n):
        x, y = centre(cell)
        if values[cell]:
            target = given_text if givens[cell] else solved_text
            target.append(_t(x, y, symbols[values[cell] - 1]))
            continue
        if cell in placed:
            placed_text.append(f'<text class="place" data-cand="{name(cell)}:{symbols[placed[cell] - 1]}" '
                               f'x="{_n(x)}" y="{_n(y)}">{escape(symbols[placed[cell] - 1])}</text>')
            continue
        for v in range(1, n + 1):
            if masks[cell] >> (v - 1) & 1:
                cx, cy = cand_xy(cell, v)
                cand_text.append(_t(cx, cy, symbols[v - 1]))
    if given_text:
        out.append(f'<g {attrs} font-size="{big}" font-weight="bold" fill="{GIVEN}">' + "".join(given_text) + "</g>")
    if solved_text:
        out.append(f'<g {attrs} font-size="{big}" fill="{SOLVED}">' + "".join(solved_text) + "</g>")
    if cand_text:
        out.append(f'<g {attrs} font-size="{small}" fill="{CANDIDATE}">' + "".join(cand_text) + "</g>")
    if placed_text:
        out.append(f'<g {attrs} font-size="{big}" font-weight="bold" fill="{PLACE_TEXT}">' + "".join(placed_text)
                   + "</g>")
    # strike-outs over removed candidates
    strikes = []
    for (c, v) in sorted(removed):
        x, y = cand_xy(c, v)
        d = radius * 0.8
        strikes.append(f'<line x1="{_n(x - d)}" y1="{_n(y + d)}" x2="{_n(x + d)}" y2="{_n(y - d)}"/>')
    if strikes:
        out.append(f'<g stroke="{ELIM_STROKE}" stroke-width="1.6">' + "".join(strikes) + "</g>")
    # links, last, so they lie over everything
    drawn = []
    for a, va, b, vb, kind in links:
        (x1, y1), (x2, y2) = cand_xy(a, va), cand_xy(b, vb)
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        if length < 1e-6:
            continue
        ux, uy = dx / length, dy / length
        # bend the line a little, so links along one row or column stay apart from the candidates between
        bend = min(cs * 0.35, length * 0.15)
        mx, my = (x1 + x2) / 2 - uy * bend, (y1 + y2) / 2 + ux * bend
        sx, sy = x1 + ux * radius, y1 + uy * radius
        ex, ey = x2 - ux * radius, y2 - uy * radius
        dash = ' stroke-dasharray="5 3"' if kind != "strong" else ""
        klass = f"link {kind or 'unknown'}"
        drawn.append(f'<path class="{klass}" data-link="{name(a)}:{symbols[va - 1]}-{name(b)}:{symbols[vb - 1]}" '
                     f'd="M{_n(sx)},{_n(sy)} Q{_n(mx)},{_n(my)} {_n(ex)},{_n(ey)}" fill="none" stroke="{LINK}" '
                     f'stroke-width="1.8"{dash} marker-end="url(#arrow)"/>')
    out.extend(drawn)
    out.append("</svg>")
    return "\n".join(out)


def _t(x: float, y: float, symbol: str) -> str:
    return f'<text x="{_n(x)}" y="{_n(y)}">{escape(symbol)}</text>'


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


__all__ = ["board_of", "board_svg", "step_svg"]
