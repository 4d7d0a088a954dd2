"""PDF booklets, checked from the outside: pypdf reads the pages and their
text, pypdfium2 renders them, and the pictures are measured: grids per page,
thick lines where the boxes are, and every drawn symbol in its cell."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf")
pdfium = pytest.importorskip("pypdfium2")
pytest.importorskip("fpdf")
np = pytest.importorskip("numpy")
ndimage = pytest.importorskip("scipy.ndimage")

import sudokit
from sudokit.grid import Grid
from sudokit.pictures.pdf import booklet

from click.testing import CliRunner

from conftest import rated_reference
from sudokit.cli import cli


def sudoku(*args: str):
    """The command line, in this process; (exit status, stderr)."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr

MM = 72 / 25.4  # points per millimetre
#: Paper sizes by their ISO / ANSI definitions, in points.
PAPER_POINTS = {"a4": (210 * MM, 297 * MM), "letter": (612.0, 792.0), "a5": (148 * MM, 210 * MM)}
SCALE = 2.0  # render at 144 dpi


def _with_blanks(full: Grid, blanks: int, seed: int) -> Grid:
    """``full`` with ``blanks`` random cells emptied, kept only if its solution stays unique."""
    rng = random.Random(seed)
    while True:
        values = list(full.values)
        for cell in rng.sample(range(len(values)), blanks):
            values[cell] = 0
        n = full.size
        grid = Grid.from_rows([values[r * n:(r + 1) * n] for r in range(n)], shape=full.shape)
        if sudokit.count_solutions(grid, limit=2) == 1:
            return grid


def _puzzles(shape: str, count: int) -> list[Grid]:
    if shape == "5x5":  # generating 25x25 puzzles takes too long for the default suite
        return [_with_blanks(sudokit.complete_grid("5x5", seed=s), 200, s) for s in range(count)]
    return [p.puzzle for p in sudokit.generate_many(count, shape=shape, seed=11)]


def _render(data: bytes) -> list[tuple[np.ndarray, list[tuple[str, float, float]], float]]:
    """Per page: the grey image, the characters with their centres (pixels), the page height (pt)."""
    doc = pdfium.PdfDocument(data)
    pages = []
    try:
        for page in doc:
            height = page.get_height()
            image = np.asarray(page.render(scale=SCALE, grayscale=True).to_pil().convert("L"), dtype=np.uint8)
            text = page.get_textpage()
            chars = []
            for i in range(text.count_chars()):
                ch = text.get_text_range(i, 1)
                if not ch.strip():
                    continue
                left, bottom, right, top = text.get_charbox(i)
                chars.append((ch, (left + right) / 2 * SCALE, (height - (top + bottom) / 2) * SCALE))
            pages.append((image, chars, height))
    finally:
        doc.close()
    return pages


def _grids(image: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Bounding boxes (top, left, bottom, right) of the black frames: the grids, read in order."""
    labels, _ = ndimage.label(image < 100)
    boxes = []
    for sl in ndimage.find_objects(labels):
        height, width = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
        if width > 25 * MM * SCALE and height > 25 * MM * SCALE:  # far bigger than any glyph or rule
            boxes.append((sl[0].start, sl[1].start, sl[0].stop, sl[1].stop))
    return sorted(boxes)


def _lines(mask: np.ndarray, axis: int, fill: float) -> list[float]:
    """Centres of the runs of rows (axis 1) or columns (axis 0) where ``mask`` covers ``fill`` of the span."""
    covered = mask.mean(axis=axis) >= fill
    centres, start = [], None
    for i, on in enumerate(list(covered) + [False]):
        if on and start is None:
            start = i
        elif not on and start is not None:
            centres.append((start + i - 1) / 2)
            start = None
    return centres


def _check_grid(image, chars, box, grid: Grid, solution: Grid | None = None) -> None:
    top, left, bottom, right = box
    n, br, bc = grid.size, grid.shape.box_rows, grid.shape.box_cols
    region = image[top:bottom, left:right]
    # thick lines: black across the whole grid, one per box boundary, evenly spaced
    rows = _lines(region < 100, 1, 0.95)
    cols = _lines(region < 100, 0, 0.95)
    assert len(rows) == n // br + 1, (rows, grid.shape)
    assert len(cols) == n // bc + 1, (cols, grid.shape)
    cell = (cols[-1] - cols[0]) / n
    assert rows[-1] - rows[0] == pytest.approx(cols[-1] - cols[0], abs=2.5)  # a square grid
    assert np.allclose(np.diff(rows), br * cell, atol=2.0)  # a box every br cells down
    assert np.allclose(np.diff(cols), bc * cell, atol=2.0)  # and every bc cells across
    y0, x0 = top + rows[0], left + cols[0]
    # thin lines: every cell boundary is drawn (grey), and nothing else spans the grid
    if solution is None:
        assert len(_lines(region < 235, 1, 0.9)) == n + 1
        assert len(_lines(region < 235, 0, 0.9)) == n + 1
    # every symbol drawn in its own cell, and only the right ones
    expected = {c: v for c, v in enumerate((solution or grid).values) if v}
    drawn = {}
    for ch, x, y in chars:
        if left <= x < right and top <= y < bottom:
            cell_id = int((y - y0) / cell) * n + int((x - x0) / cell)
            assert cell_id not in drawn, f"two symbols in one cell: {ch}"
            drawn[cell_id] = grid.shape.symbols.index(ch) + 1
    assert drawn == expected


@pytest.mark.parametrize("shape, per_page", [("3x3", 4), ("2x3", 6), ("4x4", 2), ("5x5", 1)])
def test_booklet_draws_every_grid_its_boxes_and_symbols(shape: str, per_page: int) -> None:
    puzzles = _puzzles(shape, 2 if shape in ("4x4", "5x5") else per_page + 1)
    data = booklet(puzzles, per_page=per_page, rate=False)
    pages = _render(data)
    puzzle_pages = -(-len(puzzles) // per_page)
    assert len(pages) == puzzle_pages + 1  # the solutions fit on one page
    solutions = [sudokit.solve(p).solution for p in puzzles]
    for index, (image, chars, _) in enumerate(pages):
        boxes = _grids(image)
        if index < puzzle_pages:
            on_page = puzzles[index * per_page:(index + 1) * per_page]
            assert len(boxes) == len(on_page)
            for box, grid in zip(_reading_order(boxes), on_page):
                _check_grid(image, chars, box, grid)
        else:
            assert len(boxes) == len(puzzles)
            for box, grid, solution in zip(_reading_order(boxes), puzzles, solutions):
                _check_grid(image, chars, box, grid, solution)


def _reading_order(boxes):
    """Row by row (tops within a few pixels are one row), left to right."""
    rows: list[list] = []
    for box in sorted(boxes):
        if rows and abs(rows[-1][0][0] - box[0]) < 10:
            rows[-1].append(box)
        else:
            rows.append([box])
    return [b for row in rows for b in sorted(row, key=lambda b: b[1])]


def test_solution_pages_hold_fewer_big_grids() -> None:
    """12 solutions a page for 9x9, fewer for 16x16 and 25x25, never fewer than 6."""
    from sudokit.pictures.pdf import solutions_layout

    counts = [solutions_layout(n) for n in (6, 9, 16, 25)]
    assert counts[0] == counts[1] == 12
    assert 6 <= counts[3] <= counts[2] < 12


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_page_size(paper: str) -> None:
    data = booklet([sudokit.example("diabolical")] * 3, paper=paper, per_page=2, rate=False)
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2 + 1
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (width, height) == pytest.approx(PAPER_POINTS[paper], abs=0.5)


def test_labels_footer_and_embedded_font(tmp_path: Path) -> None:
    paper = "letter"
    rows = [r for r in rated_reference() if float(r["er"]) <= 2.0][:5]
    source = tmp_path / "rated.txt"
    source.write_text("".join(r["puzzle"] + "\n" for r in rows))
    out = tmp_path / "book.pdf"
    code, err = sudoku("print", str(source), "--paper", paper, "--per-page", "2", "--title", "Weekend puzzles",
                       "-o", str(out))
    assert code == 0, err
    reader = pypdf.PdfReader(io.BytesIO(out.read_bytes()))
    assert len(reader.pages) == 3 + 1
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (width, height) == pytest.approx(PAPER_POINTS[paper], abs=0.5)
    texts = [page.extract_text() for page in reader.pages]
    for number, row in enumerate(rows, 1):
        page = texts[(number - 1) // 2]
        # the label carries the number, the level and Sudoku Explainer's own ER for the puzzle
        assert re.search(rf"No\. {number} · \w+ · ER {float(row['er']):.1f}", page), page
    for i, text in enumerate(texts, 1):
        assert "Weekend puzzles" in text
        assert f"page {i} of 4" in text
    assert "rated.txt · puzzles 1–2" in texts[0] and "rated.txt · puzzle 5" in texts[2]
    assert "solutions" in texts[3]
    fonts = reader.pages[0]["/Resources"]["/Font"]
    for ref in fonts.values():
        font = ref.get_object()
        descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor  # the TrueType program is inside the PDF
        assert "DejaVu" in str(font["/BaseFont"])


def test_generated_booklet_footer_remakes_its_puzzles(tmp_path: Path) -> None:
    out = tmp_path / "gen.pdf"
    code, err = sudoku("print", "--generate", "3", "--box", "2x3", "--seed", "40", "--per-page", "1",
                       "--no-solutions", "-o", str(out), "--svg-dir", str(tmp_path / "svg"),
                       "--png-dir", str(tmp_path / "png"))
    assert code == 0, err
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == 3
    for page in reader.pages:
        text = page.extract_text()
        seed = int(re.search(r"· seed (\d+)", text).group(1))  # the seed of this page's puzzle
        again = sudokit.generate(shape="2x3", seed=seed).puzzle
        image, chars, _ = _render_page(out, reader.pages.index(page))
        (box,) = _grids(image)
        _check_grid(image, chars, box, again)
    assert sorted(p.name for p in (tmp_path / "svg").iterdir()) == [f"puzzle-000{i}.svg" for i in (1, 2, 3)]
    svg = (tmp_path / "svg" / "puzzle-0001.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<text") == sudokit.generate(shape="2x3", seed=40).puzzle.clues
    from PIL import Image

    with Image.open(tmp_path / "png" / "puzzle-0002.png") as png:
        assert png.format == "PNG" and png.size[0] > 100


def _render_page(path: Path, index: int):
    return _render(path.read_bytes())[index]


def test_bad_puzzles_are_reported_and_the_rest_printed(tmp_path: Path) -> None:
    good = sudokit.example("diabolical").line()
    twice = "11" + good[2:]  # two 1s in the first row
    source = tmp_path / "mixed.txt"
    source.write_text(f"{good}\n{'1' * 80}\n{twice}\n")
    out = tmp_path / "mixed.pdf"
    code, err = sudoku("print", str(source), "-o", str(out), "--no-rate")
    assert code == 1
    assert "line 2" in err and "puzzle 3" in err
    assert "Traceback" not in err
    text = pypdf.PdfReader(str(out)).pages[0].extract_text()
    assert "No. 1" in text and "No. 3" not in text


def test_a_variant_booklet_draws_its_diagonals_windows_and_regions() -> None:
    """The PDF's pictures, rendered: an X grid has ink along its diagonals where
    the classic grid has none, a hyper grid is shaded inside its windows, and a
    jigsaw's thick border follows its regions, not the boxes."""
    import io

    from PIL import Image

    from sudokit import variants
    from sudokit.pictures.pdf import grid_png

    from PIL import ImageOps

    def picture(grid):
        image = Image.open(io.BytesIO(grid_png(grid, dpi=100))).convert("L")
        left, top, right, bottom = ImageOps.invert(image).getbbox()  # the grid's outer border
        return image, (left, top, (right - left) / 9)

    def ink(image, frame, x, y):  # the darkest pixel near (x, y), in cells from the grid's corner
        left, top, cell = frame
        px, py = int(left + x * cell), int(top + y * cell)
        return min(image.getpixel((i, j)) for i in range(px - 1, px + 2) for j in range(py - 1, py + 2))

    classic, cs = picture(Grid.empty())
    x_grid, _ = picture(Grid.empty().with_geometry(variants.x()))
    # the middle of r2c2's and r2c8's diagonals: blank and white in a classic grid
    assert ink(classic, cs, 1.5, 1.5) > 240 and ink(classic, cs, 7.5, 1.5) > 240
    assert ink(x_grid, cs, 1.5, 1.5) < 220 and ink(x_grid, cs, 7.5, 1.5) < 220
    hyper, _ = picture(Grid.empty().with_geometry(variants.hyper()))
    assert 180 < ink(hyper, cs, 2.3, 2.3) < 245 and ink(hyper, cs, 4.3, 4.3) > 245  # r3c3 shaded, r5c5 not
    layout = "111222333111222333114222333144555666444556666444555566777888999777888999777888999"
    jigsaw, _ = picture(Grid.empty().with_geometry(variants.jigsaw(None, layout)))
    # r3c3 belongs to region 4 below it: a thick line right of r3c2, none below r3c3
    assert ink(jigsaw, cs, 2.0, 2.5) < 60 and ink(classic, cs, 2.0, 2.5) > 60
    assert ink(jigsaw, cs, 2.5, 3.0) > 60 and ink(classic, cs, 2.5, 3.0) < 60


def test_print_reads_and_generates_variants(tmp_path: Path) -> None:
    from sudokit.cli import cli

    made = CliRunner().invoke(cli, ["print", "--generate", "2", "--variant", "x", "--seed", "3", "--no-rate",
                                    "-o", str(tmp_path / "x.pdf"), "--svg-dir", str(tmp_path / "svg")])
    assert made.exit_code == 0, made.output
    assert (tmp_path / "x.pdf").read_bytes().startswith(b"%PDF")
    svg = (tmp_path / "svg" / "puzzle-0001.svg").read_text()
    assert "diagonal units" in svg and "#b0b0b0" in svg
    puzzles = tmp_path / "x.txt"
    puzzles.write_text("......2..1.4............6...4.6.3.9.9...8.1..2.5...........5..9.9....7.....4.....\n")
    read = CliRunner().invoke(cli, ["print", str(puzzles), "--variant", "x", "--no-rate", "-o", str(tmp_path / "r.pdf"),
                                    "--svg-dir", str(tmp_path / "r")])
    assert read.exit_code == 0, read.output  # one solution under X (several without the diagonals)
    plain = CliRunner().invoke(cli, ["print", str(puzzles), "--no-rate", "-o", str(tmp_path / "p.pdf")])
    assert plain.exit_code != 0 and "more than one solution" in plain.output


def test_a_killer_booklet_draws_dotted_cages_and_their_totals() -> None:
    """The PDF's picture of a published killer, rendered: dashes along the inside of a cage's
    border where a classic grid is white, none across the middle of a cage, and ink in the
    corner of a cage's first cell (its total) where a cell inside a cage has none."""
    import io
    import json

    from PIL import Image, ImageOps

    from sudokit import formats
    from sudokit.pictures.pdf import grid_png

    line = (Path(__file__).parent.parent / "data" / "published_killers.jsonl").read_text().splitlines()[0]
    killer = formats.parse(line)
    assert json.loads(line)["cages"][0] == "r1c1 r1c2 = 3"

    def picture(grid):
        image = Image.open(io.BytesIO(grid_png(grid, dpi=150))).convert("L")
        left, top, right, bottom = ImageOps.invert(image).getbbox()
        return image, (left, top, (right - left) / 9)

    def darkest(image, frame, x0, y0, x1, y1):  # over a box, in cells from the grid's corner
        left, top, cell = frame
        return min(image.getpixel((i, j))
                   for i in range(int(left + x0 * cell), int(left + x1 * cell) + 1)
                   for j in range(int(top + y0 * cell), int(top + y1 * cell) + 1))

    classic, frame = picture(Grid.empty())
    drawn, _ = picture(killer)
    # r1c1 r1c2 = 3: its bottom border runs along y = 1 - inset (dashes: some ink over r1c1's width)
    below = (0.3, 0.88, 0.85, 0.975)
    assert darkest(drawn, frame, *below) < 200 and darkest(classic, frame, *below) > 240
    # no outline across the middle of the cage, beside the thin line between r1c1 and r1c2 ...
    assert darkest(drawn, frame, 0.85, 0.45, 0.9, 0.55) > 230 and darkest(drawn, frame, 1.1, 0.45, 1.15, 0.55) > 230
    # ... and the total 17 of r2c3 r2c4 in r2c3's top-left corner; r2c4, in the same cage, has none
    assert "r2c3 r2c4 = 17" in json.loads(line)["cages"]
    corner = (2.13, 1.13, 2.3, 1.3)
    assert darkest(drawn, frame, *corner) < 120 and darkest(classic, frame, *corner) > 240
    assert darkest(drawn, frame, 3.15, 1.15, 3.3, 1.3) > 230
