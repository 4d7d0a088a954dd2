"""Print-ready PDF booklets, and one picture file per puzzle.

A booklet has puzzle pages (1, 2, 4 or 6 grids a page, each with a label:
its number, level and Sudoku Explainer rating) and, at the back, smaller
solution pages (6 to 12 a page, fewer for big grids). Every page has the
title, a page number and a footer that says where its puzzles came from: the
source file and puzzle numbers, or the generator's seeds, so that a page can
be made again. Any box shape up to 25x25 is drawn with thick box lines and
thin cell lines scaled to the grid, in black and grey only (safe in
grayscale), as vector lines. The symbols are set in DejaVu Sans, which ships
with sudokit (``sudokit/fonts``, Bitstream Vera licence) and is embedded
(as a subset) in every PDF, as print shops require.

The PDF is written by fpdf2 (the ``pdf`` extra: ``pip install 'sudokit[pdf]'``);
PNG pictures are PDF pages rendered by pypdfium2 (in the same extra, pip
only, no system cairo needed); SVG pictures come from :mod:`sudokit.svg`.

>>> from sudokit.examples import example
>>> data = booklet([example("diabolical")], per_page=1, rate=False)
>>> data[:5]
b'%PDF-'
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..errors import BadOption, InvalidPuzzle, SudokuError
from ..formats import parse, parse_alphabet
from ..drawing import CAGE_COLOUR, DIAGONAL_COLOUR, WINDOW_SHADE, Marks, cage_drawings, marks
from ..grid import Grid

#: Paper sizes in millimetres (portrait) and their margins.
PAPERS: dict[str, tuple[float, float, float]] = {
    "a4": (210.0, 297.0, 15.0),
    "letter": (215.9, 279.4, 15.0),
    "a5": (148.0, 210.0, 10.0),
}
#: Puzzles per page -> (columns, rows).
PUZZLE_LAYOUTS: dict[int, tuple[int, int]] = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
#: Solutions per page -> (columns, rows).
SOLUTION_LAYOUTS: dict[int, tuple[int, int]] = {6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4)}
#: Grids bigger than this are not rated by default (the chain searches of
#: Sudoku Explainer's techniques do not finish on them in useful time).
RATE_MAX_SIZE = 16
#: The smallest cell (mm) a solution grid gets when the layout is chosen.
MIN_SOLUTION_CELL = 3.3

HEADER, FOOTER, LABEL_GAP, GAP = 11.0, 8.0, 1.5, 16.0
THIN_GREY, FILLED_GREY = 150, 90  # DeviceGray levels (0 black, 255 white)
CAP_HEIGHT = 0.729  # DejaVu Sans: height of digits and capitals, in em
MM_PER_PT = 25.4 / 72


class MissingExtra(SudokuError):
    """An optional dependency (an extra of the package) is not installed."""


@dataclass(frozen=True)
class Item:
    """One puzzle of a booklet, with what its label and footer show.

    ``number`` is its number in the source (1-based); ``er`` is the rating as
    text (``4.4``, ``≥8.9``) and ``note`` replaces the rating when there is
    none (``not rated (25x25)``); ``seed`` remakes a generated puzzle.
    """

    puzzle: Grid
    solution: Grid | None = None
    number: int = 0
    level: str | None = None
    er: str | None = None
    note: str = ""
    seed: int | None = None

    @property
    def label(self) -> str:
        parts = [f"No. {self.number}"]
        if self.level:
            parts.append(self.level)
        if self.er:
            parts.append(f"ER {self.er}")
        if self.note:
            parts.append(self.note)
        return " · ".join(parts)


def _fpdf() -> Any:
    try:
        import fpdf
    except ImportError:
        raise MissingExtra("PDF output needs fpdf2: pip install 'sudokit[pdf]'") from None
    return fpdf


def font_path(bold: bool = False) -> str:
    """The shipped TrueType font (DejaVu Sans, or its bold face)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return str(resources.files("sudokit.fonts").joinpath(name))


# -- items: puzzles, solutions, labels ------------------------------------------------


def _er_text(er: float | None, bound: bool = False) -> str | None:
    return None if er is None else f"{'≥' if bound else ''}{er:.1f}"


def items(puzzles: Iterable[Any], *, rate: bool = True, rate_timeout: float | None = 3.0,
          solve_timeout: float | None = 60.0, start: int = 1) -> list[Item]:
    """:class:`Item` objects for grids, puzzle strings, generated
    :class:`~sudokit.generation.Puzzle` objects or items, numbered from 1,
    each with its solution (the puzzle must have exactly one) and, with
    ``rate``, its level and ER (``rate_timeout`` seconds for the chain
    searches of one puzzle; grids above 16x16 are not rated). Numbers
    start at ``start`` where an item has none."""
    out = []
    for number, entry in enumerate(puzzles, start):
        out.append(_item(entry, number, rate, rate_timeout, solve_timeout))
    return out


def _item(entry: Any, number: int, rate: bool, rate_timeout: float | None, solve_timeout: float | None) -> Item:
    if isinstance(entry, Item):
        item = entry if entry.number else replace(entry, number=number)
    elif isinstance(entry, Grid):
        item = Item(entry, number=number)
    elif isinstance(entry, str):
        item = Item(parse(entry), number=number)
    elif hasattr(entry, "puzzle") and hasattr(entry, "solution") and hasattr(entry, "seed"):
        item = Item(entry.puzzle, entry.solution, number=number, level=getattr(entry, "level", None),
                    er=_er_text(getattr(entry, "er", None)), seed=entry.seed)
    else:
        raise BadOption(f"puzzle {number}: cannot print a {type(entry).__name__}")
    if item.solution is None or not item.solution.is_solution_of(item.puzzle):
        item = replace(item, solution=_solution(item.puzzle, item.number, solve_timeout))
    if rate and item.level is None and item.er is None and not item.note:
        item = _rated(item, rate_timeout)
    elif not rate and item.level is None and item.er is None and not item.note:
        item = replace(item, note="not rated")
    return item


def _solution(grid: Grid, number: int, timeout: float | None) -> Grid:
    from ..solving import count_soonest

    if not grid.is_consistent:
        clash = "; ".join(str(c) for c in grid.conflicts()[:3])
        raise InvalidPuzzle(f"puzzle {number}: the givens break the rules: {clash}")
    result = count_soonest(grid, timeout=timeout)
    if result is None or result.count is None or (result.count < 2 and result.status.value == "timeout"):
        raise InvalidPuzzle(f"puzzle {number}: could not count its solutions in {timeout} s")
    if result.count == 0:
        raise InvalidPuzzle(f"puzzle {number}: no solution")
    if result.count > 1:
        raise InvalidPuzzle(f"puzzle {number}: more than one solution, not fit to print")
    solution = result.solution
    if solution is None:
        from ..solving import solve

        solution = solve(grid, timeout=timeout).solution
    if solution is None:
        raise InvalidPuzzle(f"puzzle {number}: could not solve it in {timeout} s")
    return solution


def _rated(item: Item, timeout: float | None) -> Item:
    n = item.puzzle.size
    if n > RATE_MAX_SIZE:
        return replace(item, note=f"not rated ({n}x{n})")
    from ..logic import rate as rate_grid

    try:
        r = rate_grid(item.puzzle, timeout=timeout)
    except SudokuError:
        return replace(item, note="not rated")
    return replace(item, level=r.level, er=_er_text(r.er, r.lower_bound))


# -- page geometry ------------------------------------------------------------------


def _paper(paper: str) -> tuple[float, float, float]:
    key = paper.lower()
    if key not in PAPERS:
        raise BadOption(f"paper {paper!r}: choose one of {', '.join(PAPERS)}")
    return PAPERS[key]


def solutions_layout(size: int, paper: str = "a4", per_page: int | None = None) -> int:
    """How many solutions go on a page: the most of 12, 9, 8, 6 whose cells
    stay at least :data:`MIN_SOLUTION_CELL` mm wide (6 at the fewest)."""
    if per_page is not None:
        if per_page not in SOLUTION_LAYOUTS:
            raise BadOption(f"solutions per page must be one of {', '.join(map(str, SOLUTION_LAYOUTS))}, "
                            f"not {per_page}")
        return per_page
    width, height, margin = _paper(paper)
    for count in sorted(SOLUTION_LAYOUTS, reverse=True):
        cols, rows = SOLUTION_LAYOUTS[count]
        side = _slot_side(width, height, margin, cols, rows, 3.0)
        if side / size >= MIN_SOLUTION_CELL:
            return count
    return min(SOLUTION_LAYOUTS)


def _slot_side(width: float, height: float, margin: float, cols: int, rows: int, label: float) -> float:
    area_w = width - 2 * margin
    area_h = height - 2 * margin - HEADER - FOOTER
    slot_w = (area_w - GAP * (cols - 1)) / cols
    slot_h = (area_h - GAP * (rows - 1)) / rows
    return min(slot_w, slot_h - label - LABEL_GAP)


def _slots(width: float, height: float, margin: float, cols: int, rows: int,
           label: float) -> tuple[float, list[tuple[float, float]]]:
    """The grid side and the top-left corner of every grid, row by row."""
    side = _slot_side(width, height, margin, cols, rows, label)
    area_w = width - 2 * margin
    area_h = height - 2 * margin - HEADER - FOOTER
    block_h = label + LABEL_GAP + side
    gap_x = (area_w - cols * side) / cols  # spread the grids evenly
    gap_y = (area_h - rows * block_h) / rows
    corners = []
    for r in range(rows):
        for c in range(cols):
            x = margin + gap_x / 2 + c * (side + gap_x)
            y = margin + HEADER + gap_y / 2 + r * (block_h + gap_y) + label + LABEL_GAP
            corners.append((x, y))
    return side, corners


def _ranges(numbers: Sequence[int]) -> str:
    """``1–4, 7, 9–10``."""
    parts: list[str] = []
    run: list[int] = []
    for n in numbers:
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            parts.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [n]
    if run:
        parts.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(parts)


def provenance(page_items: Sequence[Item], source: str | None) -> str:
    """The footer's origin of a page: source, puzzle numbers, seeds."""
    parts = []
    if source:
        parts.append(source)
    parts.append(f"puzzle{'s' if len(page_items) > 1 else ''} {_ranges([i.number for i in page_items])}")
    seeds = [i.seed for i in page_items if i.seed is not None]
    if seeds:
        parts.append(f"seed{'s' if len(seeds) > 1 else ''} {_ranges(seeds)}")
    return " · ".join(parts)


# -- drawing -------------------------------------------------------------------------


class _Pdf:
    """An fpdf2 document with the shipped fonts registered."""

    def __init__(self, width: float, height: float, title: str) -> None:
        fpdf = _fpdf()
        self.doc = fpdf.FPDF(orientation="P", unit="mm", format=(width, height))
        self.doc.set_auto_page_break(False)
        self.doc.set_margin(0)
        self.doc.add_font("DejaVu", "", font_path(False))
        self.doc.add_font("DejaVu", "B", font_path(True))
        self.doc.set_title(title)
        self.doc.set_creator("sudokit")
        self.doc.set_author("sudokit")
        self.width, self.height = width, height

    def text(self, x: float, y: float, text: str, size: float, *, bold: bool = False, gray: int = 0,
             align: str = "left") -> None:
        self.doc.set_font("DejaVu", "B" if bold else "", size)
        self.doc.set_text_color(gray)
        w = self.doc.get_string_width(text)
        if align == "center":
            x -= w / 2
        elif align == "right":
            x -= w
        self.doc.text(x, y, text)

    def fit(self, text: str, size: float, width: float, bold: bool = False) -> float:
        """The font size (at most ``size``) at which ``text`` fits in ``width``."""
        self.doc.set_font("DejaVu", "B" if bold else "", size)
        w = self.doc.get_string_width(text)
        return size if w <= width else max(4.0, size * width / w)

    def _variant_lines(self, m: Marks, x: float, y: float, cs: float, thin: float, thick: float) -> None:
        """A variant's grid (:func:`sudokit.drawing.marks`), as the SVG draws it:
        windows shaded, diagonals, thin cell lines, thick borders edge by edge."""
        doc, n = self.doc, m.n
        side = n * cs
        if m.shaded:
            doc.set_fill_color(*_rgb(WINDOW_SHADE))
            for c in m.shaded:
                doc.rect(x + (c % n) * cs, y + (c // n) * cs, cs, cs, style="F")
        main, anti = m.diagonals
        if main or anti:
            doc.set_draw_color(*_rgb(DIAGONAL_COLOUR))
            doc.set_line_width(thin * 1.5)
            if main:
                doc.line(x, y, x + side, y + side)
            if anti:
                doc.line(x + side, y, x, y + side)
        for bold in (False, True):
            doc.set_draw_color(0 if bold else THIN_GREY)
            doc.set_line_width(thick if bold else thin)
            for row in range(n):
                for col in range(n):
                    x0, y0 = x + col * cs, y + row * cs
                    if m.thick_right(row, col) == bold:
                        doc.line(x0 + cs, y0, x0 + cs, y0 + cs)
                    if m.thick_below(row, col) == bold:
                        doc.line(x0, y0 + cs, x0 + cs, y0 + cs)
        doc.line(x, y, x, y + side)
        doc.line(x, y, x + side, y)

    def _cages(self, grid: Grid, x: float, y: float, cs: float, thin: float) -> None:
        """A killer's cages (:func:`sudokit.drawing.cage_drawings`), as the SVG draws them:
        dotted outlines inset in their cells, each total small in the top-left
        corner of the cage's first cell on a white patch."""
        doc = self.doc
        drawings = cage_drawings(grid.geometry)
        doc.set_draw_color(*_rgb(CAGE_COLOUR))
        doc.set_line_width(max(thin, cs * 0.03))
        dash = max(0.3, cs / 16)
        doc.set_dash_pattern(dash=dash, gap=dash)
        for d in drawings:
            for x0, y0, x1, y1 in d.segments:
                doc.line(x + x0 * cs, y + y0 * cs, x + x1 * cs, y + y1 * cs)
        doc.set_dash_pattern()
        size_pt = cs * 0.2 / CAP_HEIGHT / MM_PER_PT
        doc.set_font("DejaVu", "", size_pt)
        doc.set_text_color(*_rgb(CAGE_COLOUR))
        doc.set_fill_color(255)
        height = CAP_HEIGHT * size_pt * MM_PER_PT
        for d in drawings:
            if d.total is None:
                continue
            text = str(d.total)
            left, top = x + d.corner[0] * cs + cs * 0.03, y + d.corner[1] * cs + cs * 0.03
            doc.rect(left, top, doc.get_string_width(text) + cs * 0.05, height + cs * 0.06, style="F")
            doc.text(left + cs * 0.025, top + cs * 0.03 + height, text)

    def grid(self, grid: Grid, x: float, y: float, side: float, *, solution: Grid | None = None,
             alphabet: str | None = None) -> None:
        """Draw ``grid`` with its top-left corner at (x, y), ``side`` mm wide;
        with ``solution`` its blanks are filled in grey."""
        doc = self.doc
        shape = grid.shape
        n, br, bc = shape.size, shape.box_rows, shape.box_cols
        alphabet = alphabet or shape.symbols
        cs = side / n
        thin = min(0.25, max(0.08, cs * 0.022))
        thick = min(0.8, max(0.3, cs * 0.07))
        if grid.is_variant:
            self._variant_lines(marks(grid.geometry), x, y, cs, thin, thick)
        else:
            doc.set_draw_color(THIN_GREY)
            doc.set_line_width(thin)
            for i in range(1, n):
                pos = i * cs
                if i % bc:
                    doc.line(x + pos, y, x + pos, y + side)
                if i % br:
                    doc.line(x, y + pos, x + side, y + pos)
            doc.set_draw_color(0)
            doc.set_line_width(thick)
            half = thick / 2
            for i in range(0, n + 1, bc):
                doc.line(x + i * cs, y - half, x + i * cs, y + side + half)
            for i in range(0, n + 1, br):
                doc.line(x - half, y + i * cs, x + side + half, y + i * cs)
        if grid.geometry.cages:
            self._cages(grid, x, y, cs, thin)
        size_pt = cs * 0.56 / CAP_HEIGHT / MM_PER_PT
        rise = CAP_HEIGHT * size_pt * MM_PER_PT / 2
        for bold, gray, source in ((True, 0, grid), (False, FILLED_GREY, solution)):
            if source is None:
                continue
            doc.set_font("DejaVu", "B" if bold else "", size_pt)
            doc.set_text_color(gray)
            for cell, value in enumerate(source.values):
                if not value or (source is solution and grid.values[cell]):
                    continue
                row, col = divmod(cell, n)
                symbol = alphabet[value - 1]
                w = doc.get_string_width(symbol)
                doc.text(x + (col + 0.5) * cs - w / 2, y + (row + 0.5) * cs + rise, symbol)


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _page_frame(pdf: _Pdf, margin: float, title: str, right: str, footer: str, page: int, pages: int) -> None:
    pdf.doc.add_page()
    width, height = pdf.width, pdf.height
    size = pdf.fit(title, 14, (width - 2 * margin) * 0.6, bold=True)
    pdf.text(margin, margin + 6, title, size, bold=True)
    pdf.text(width - margin, margin + 6, right, 9, gray=60, align="right")
    pdf.doc.set_draw_color(0)
    pdf.doc.set_line_width(0.3)
    pdf.doc.line(margin, margin + HEADER - 2.5, width - margin, margin + HEADER - 2.5)
    base = height - margin
    number = f"page {page} of {pages}"
    room = width - 2 * margin - 25
    pdf.text(margin, base, footer, pdf.fit(footer, 7.5, room), gray=60)
    pdf.text(width - margin, base, number, 7.5, gray=60, align="right")


def booklet(
    puzzles: Iterable[Any],
    output: "str | os.PathLike[str] | None" = None,
    *,
    paper: str = "a4",
    per_page: int = 4,
    solutions: bool = True,
    solutions_per_page: int | None = None,
    title: str = "Sudoku",
    source: str | None = None,
    rate: bool = True,
    rate_timeout: float | None = 3.0,
    symbols: str | None = None,
) -> bytes:
    """A PDF booklet of ``puzzles`` (grids, puzzle strings, generated
    :class:`~sudokit.generation.Puzzle` objects or :class:`Item` objects), as
    bytes, also written to ``output`` when given.

    ``paper`` is ``a4``, ``letter`` or ``a5``; ``per_page`` 1, 2, 4 or 6.
    ``solutions`` adds solution pages at the back, ``solutions_per_page``
    (6, 8, 9 or 12) of them a page; by default as many as stay readable.
    ``source`` names where the puzzles come from (a file name, the generator's
    options) for the footer. ``rate`` labels each puzzle with its level and ER
    (``rate_timeout`` seconds of chain search a puzzle; a generated puzzle
    keeps the rating it was made with; grids above 16x16 say ``not rated``).
    All puzzles must have the same shape.
    """
    if per_page not in PUZZLE_LAYOUTS:
        raise BadOption(f"puzzles per page must be one of {', '.join(map(str, PUZZLE_LAYOUTS))}, not {per_page}")
    width, height, margin = _paper(paper)
    entries = items(puzzles, rate=rate, rate_timeout=rate_timeout)
    if not entries:
        raise BadOption("no puzzles to print")
    alphabet = None
    if symbols:
        alphabet = parse_alphabet(symbols)
    sizes = {e.puzzle.size for e in entries}
    for e in entries:
        if alphabet is not None and len(alphabet) < e.puzzle.size:
            raise BadOption(f"symbols {symbols!r} have {len(alphabet)} symbols, puzzle {e.number} needs "
                            f"{e.puzzle.size}")
    pdf = _Pdf(width, height, title)
    cols, rows = PUZZLE_LAYOUTS[per_page]
    label_size = 10.0 if per_page <= 2 else 9.0
    label_h = label_size * MM_PER_PT
    side, corners = _slots(width, height, margin, cols, rows, label_h)
    puzzle_pages = [entries[i:i + per_page] for i in range(0, len(entries), per_page)]
    sol_pages: list[list[Item]] = []
    sol_count = 0
    if solutions:
        sol_count = solutions_layout(max(sizes), paper, solutions_per_page)
        sol_pages = [entries[i:i + sol_count] for i in range(0, len(entries), sol_count)]
    total = len(puzzle_pages) + len(sol_pages)
    page = 0
    for chunk in puzzle_pages:
        page += 1
        right = f"puzzle{'s' if len(chunk) > 1 else ''} {_ranges([e.number for e in chunk])}"
        _page_frame(pdf, margin, title, right, provenance(chunk, source), page, total)
        for entry, (x, y) in zip(chunk, corners):
            size = pdf.fit(entry.label, label_size, side)
            pdf.text(x, y - LABEL_GAP - 0.5, entry.label, size, gray=0)
            pdf.grid(entry.puzzle, x, y, side, alphabet=alphabet)
    if sol_pages:
        s_cols, s_rows = SOLUTION_LAYOUTS[sol_count]
        s_label = 7.5
        s_side, s_corners = _slots(width, height, margin, s_cols, s_rows, s_label * MM_PER_PT)
        for chunk in sol_pages:
            page += 1
            right = f"solution{'s' if len(chunk) > 1 else ''} {_ranges([e.number for e in chunk])}"
            _page_frame(pdf, margin, title, right, "solutions · " + provenance(chunk, source), page, total)
            for entry, (x, y) in zip(chunk, s_corners):
                pdf.text(x, y - LABEL_GAP - 0.3, f"No. {entry.number}", s_label, bold=True)
                pdf.grid(entry.puzzle, x, y, s_side, solution=entry.solution, alphabet=alphabet)
    data = bytes(pdf.doc.output())
    if output is not None:
        Path(output).write_bytes(data)
    return data


# -- one picture per puzzle -----------------------------------------------------------


def grid_pdf(grid: Grid, *, solution: Grid | None = None, cell: float = 9.0, symbols: str | None = None) -> bytes:
    """A one-page PDF of one grid, the page just around it (``cell`` mm per cell)."""
    alphabet = None
    if symbols:
        alphabet = parse_alphabet(symbols)
    side = cell * grid.size
    pad = 2.0
    pdf = _Pdf(side + 2 * pad, side + 2 * pad, f"{grid.size}x{grid.size} sudoku")
    pdf.doc.add_page()
    pdf.grid(grid, pad, pad, side, solution=solution, alphabet=alphabet)
    return bytes(pdf.doc.output())


def grid_png(grid: Grid, *, solution: Grid | None = None, dpi: int = 150, symbols: str | None = None) -> bytes:
    """A PNG picture of one grid: its PDF page rendered by pypdfium2."""
    try:
        import pypdfium2 as pdfium
    except ImportError:
        raise MissingExtra("PNG output needs pypdfium2: pip install 'sudokit[pdf]'") from None
    import io

    document = pdfium.PdfDocument(grid_pdf(grid, solution=solution, symbols=symbols))
    try:
        image = document[0].render(scale=dpi / 72, grayscale=True).to_pil()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()
    finally:
        document.close()


def write_pictures(entries: Sequence[Item], directory: "str | os.PathLike[str]", fmt: str = "svg", *,
                   solutions: bool = False, symbols: str | None = None, dpi: int = 150) -> list[Path]:
    """One picture file per puzzle in ``directory`` (made if missing):
    ``puzzle-0001.svg`` ... (``fmt`` is ``svg`` or ``png``); with
    ``solutions`` also ``solution-0001.svg`` .... Returns the paths written."""
    if fmt not in ("svg", "png"):
        raise BadOption(f"picture format {fmt!r}: choose svg or png")
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    digits = max(4, len(str(max((e.number for e in entries), default=1))))
    written = []
    for entry in entries:
        pairs = [("puzzle", None)]
        if solutions and entry.solution is not None:
            pairs.append(("solution", entry.solution))
        for kind, solution in pairs:
            path = folder / f"{kind}-{entry.number:0{digits}d}.{fmt}"
            if fmt == "svg":
                from ..svg import grid_svg

                cell = 40 if entry.puzzle.size <= 16 else 30
                path.write_text(grid_svg(entry.puzzle, solution=solution, symbols=symbols, cell_size=cell) + "\n",
                                encoding="utf-8")
            else:
                path.write_bytes(grid_png(entry.puzzle, solution=solution, symbols=symbols, dpi=dpi))
            written.append(path)
    return written


__all__ = ["Item", "MissingExtra", "PAPERS", "booklet", "font_path", "grid_pdf", "grid_png", "items",
           "provenance", "solutions_layout", "write_pictures"]
