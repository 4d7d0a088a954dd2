"""``sudoku serve`` tested through a real server: the JSON API (records,
4xx errors, size and time limits) over HTTP, and the page in a real browser
(Debian's Chromium driven by Playwright)."""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

import sudokit
from sudokit import records
from sudokit.logic import Candidates

from conftest import load_counts
from puzzles import HARD_PUZZLE, PLAYED_GIVENS, PLAYED_WRONG, reference_solution, with_marks
from reference import obeys_rules
from serving import ServeProcess

CHROMIUM = "/usr/bin/chromium"


class Server(ServeProcess):
    """``sudoku serve`` in its own process group; ``url`` is its address."""

    def post(self, path: str, body: "dict | bytes") -> tuple[int, object, str]:
        status, raw, kind = self.send(path, body)
        return status, (json.loads(raw) if "json" in kind else raw), kind


@pytest.fixture(scope="module")
def server():
    s = Server("--time-limit", "3")
    yield s
    s.stop()


def _unique_cases(k: int) -> list[dict]:
    return [row for row in load_counts() if row["count"] == "1"][:k]


# -- the JSON API -----------------------------------------------------------------------------


def test_server_announces_its_address_and_serves_the_page(server: Server) -> None:
    with urllib.request.urlopen(server.url + "/") as response:
        page = response.read().decode()
    assert '<div id="board"' in page and "/static/app.js" in page
    with urllib.request.urlopen(server.url + "/static/app.js") as response:
        assert b"/api/hint" in response.read()
    with urllib.request.urlopen(server.url + "/openapi.json") as response:
        spec = json.loads(response.read())
    assert {"/api/solve", "/api/count", "/api/rate", "/api/explain", "/api/hint", "/api/generate"} <= set(spec["paths"])


def test_solve_and_count_return_the_cli_records(server: Server) -> None:
    rows = _unique_cases(3)
    cli = subprocess.run(["sudoku", "solve", "-", "--format", "jsonl"], input="".join(r["puzzle"] + "\n" for r in rows),
                         capture_output=True, text=True, timeout=120)
    for row, line in zip(rows, cli.stdout.splitlines(), strict=True):
        status, record, _ = server.post("/api/solve", {"puzzle": row["puzzle"]})
        assert status == 200
        assert record["status"] == "solved" and record["solution"] == row["solution"]  # the data's own answer
        expected = json.loads(line)
        assert {k: record[k] for k in ("puzzle", "status", "solution", "method")} == \
            {k: expected[k] for k in ("puzzle", "status", "solution", "method")}
    several = next(row for row in load_counts() if row["count"] not in ("0", "1", ">1") and 2 <= int(row["count"]) <= 50)
    status, record, _ = server.post("/api/count", {"puzzle": several["puzzle"], "limit": 1000})
    assert status == 200 and record["count"] == int(several["count"])


def test_rate_explain_hint_generate(server: Server) -> None:
    grid = sudokit.example("diabolical")
    status, record, _ = server.post("/api/rate", {"puzzle": sudokit.render(grid, "boxed")})  # any readable format
    assert status == 200 and record == records.rating_record(grid, sudokit.rate(grid))
    status, steps, _ = server.post("/api/explain", {"puzzle": grid.line()})
    path = sudokit.explain(grid)
    geo = Candidates.from_grid(grid).geo
    assert status == 200 and steps == [records.step_record(grid, i, s, geo) for i, s in enumerate(path, 1)]
    status, hint, _ = server.post("/api/hint", {"puzzle": grid.line()})
    assert status == 200 and hint["text"] == path[0].text and hint["svg"].startswith("<svg")
    assert hint["moves"]["place"] == [list(p) for p in path[0].placements]
    status, made, _ = server.post("/api/generate", {"box": "2x3", "seed": 5})
    assert status == 200 and made == records.generated_record(sudokit.generate(shape="2x3", seed=5))
    status, pdf, kind = server.post("/api/pdf", {"puzzle": grid.line(), "per_page": 1})
    assert status == 200 and kind == "application/pdf" and pdf[:5] == b"%PDF-"


def test_hint_works_on_pencil_marks_and_eliminations(server: Server) -> None:
    """After an elimination step, the next hint differs; the server gives the library's next step
    both from a pencil-mark grid and from the grid plus the list of removed candidates."""
    from sudokit.formats import render_marks

    grid = sudokit.example("diabolical")
    path = sudokit.explain(grid)
    k = next(i for i, s in enumerate(path) if s.eliminations and not s.placements)
    state = Candidates.from_grid(grid)
    for step in path[:k + 1]:
        step.apply(state)
    expected = sudokit.hint(state)
    status, hint, _ = server.post("/api/hint", {"puzzle": render_marks(state.grid(), state.mask), "svg": False})
    assert status == 200 and hint["text"] == expected.text == path[k + 1].text
    eliminated = [[c, v] for step in path[:k + 1] for c, v in step.eliminations]
    status, hint, _ = server.post("/api/hint", {"puzzle": state.grid().line(), "eliminated": eliminated,
                                                "svg": False})
    assert status == 200 and hint["text"] == expected.text


def test_bad_input_gets_a_located_4xx(server: Server) -> None:
    status, error, _ = server.post("/api/solve", {"puzzle": "53..7....6..195....98....6.8...6"})
    assert status == 400 and error["place"]["line"] == 1 and "symbols" in error["reason"]
    status, error, _ = server.post("/api/hint", {"puzzle": "55" + "." * 79})
    assert status == 422 and "r1c1, r1c2" in error["error"]
    status, error, _ = server.post("/api/solve", {"puzzle": "." * 81, "method": "no-such-method"})
    assert status == 400 and "no-such-method" in error["error"]
    status, error, _ = server.post("/api/solve", b"{not json")
    assert status == 400 and "error" in error
    status, error, _ = server.post("/api/count", {"puzzle": "." * 81, "limit": 0})
    assert status == 400 and error["place"]["field"] == "limit"
    status, error, _ = server.post("/api/solve", {"puzzle": "x" * 300_000})
    assert status == 413
    assert server.alive()


def test_rate_explain_hint_refuse_a_grid_without_one_solution(server: Server) -> None:
    for grid, said in ((PLAYED_WRONG, "no solution"), ("." * 72 + "123456789", "more than one solution")):
        for endpoint in ("/api/hint", "/api/explain", "/api/rate"):
            status, error, _ = server.post(endpoint, {"puzzle": grid})
            assert status == 422 and said in error["error"], (endpoint, grid, error)


def test_hint_takes_the_givens_apart_and_names_wrong_entries_and_marks(server: Server) -> None:
    solution = reference_solution(PLAYED_GIVENS)
    status, error, _ = server.post("/api/hint", {"puzzle": PLAYED_WRONG, "givens": PLAYED_GIVENS})
    assert status == 422 and "r1c1: the entry 4" in error["error"]
    assert error["wrong"] == [{"cell": 0, "name": "r1c1", "entry": 4, "solution": solution[0]}]
    # a wrong entry that clashes with a given is named as wrong, not only as a clash
    clash = PLAYED_GIVENS[:2] + "9" + PLAYED_GIVENS[3:]
    status, error, _ = server.post("/api/hint", {"puzzle": clash, "givens": PLAYED_GIVENS, "eliminated": [[9, 1]]})
    assert status == 422 and [w["name"] for w in error["wrong"]] == ["r1c3"]
    # right entries: a step toward the solution
    status, hint, _ = server.post("/api/hint", {"puzzle": PLAYED_GIVENS, "givens": PLAYED_GIVENS, "svg": False})
    assert status == 200 and all(solution[c] == v for c, v in hint["moves"]["place"])
    assert all(solution[c] != v for c, v in hint["moves"]["remove"])
    # pencil marks that exclude the solution: named, no step
    status, error, _ = server.post("/api/hint", {"puzzle": with_marks(PLAYED_GIVENS, {9: "7"})})
    assert status == 422 and error["wrong"] == [{"cell": 9, "name": "r2c1", "marks": [7], "solution": solution[9]}]
    status, error, _ = server.post("/api/hint", {"puzzle": PLAYED_GIVENS, "eliminated": [[9, solution[9]]]})
    assert status == 422 and [w["name"] for w in error["wrong"]] == ["r2c1"]
    status, error, _ = server.post("/api/hint", {"puzzle": PLAYED_GIVENS, "givens": "x"})
    assert status == 400 and error["place"]["field"] == "givens"


def test_explain_cut_by_the_time_budget_ends_in_a_bounded_step(server: Server) -> None:
    status, steps, _ = server.post("/api/explain", {"puzzle": HARD_PUZZLE, "timeout": 0.05})
    assert status == 200
    last = steps[-1]
    assert last["technique"] == "Time limit" and last["lower_bound"] is True and last["rating"] < 11.9
    assert f"the rating is at least {last['rating']:.1f}" in last["text"]
    assert not any("lower_bound" in step for step in steps[:-1])


def test_time_limit_uses_the_library_budget(server: Server) -> None:
    started = time.monotonic()
    status, record, _ = server.post("/api/count", {"puzzle": "." * 81, "limit": 10**9})
    assert status == 200 and record["status"] == "timeout"
    assert time.monotonic() - started < 3 + 5


def test_work_over_the_time_limit_is_cut_short_and_the_server_goes_on() -> None:
    s = Server("--time-limit", "1")
    try:
        started = time.monotonic()
        status, error, _ = s.post("/api/generate", {"box": "5x5", "seed": 1})  # ~30 s of work
        assert status == 503 and "time limit" in error["error"]
        assert time.monotonic() - started < 10
        status, parsed, _ = s.post("/api/parse", {"puzzle": sudokit.example("easy").line()})
        assert status == 200 and parsed["size"] == 9
    finally:
        s.stop()


# -- the page, in a real browser ------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser_page(server: Server):
    from conftest import require_browser

    playwright = require_browser(CHROMIUM)  # a skip with the reason; under CI=true a failure
    with playwright.sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, accept_downloads=True,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
            viewport={"width": 1300, "height": 1000})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/")
        yield page, errors
        context.close()


def _board(page) -> dict[str, str]:
    return {c.get_attribute("data-name"): c.inner_text().strip() for c in page.query_selector_all("#board .cell")}


def test_page_paste_hint_apply_check_solve_print(browser_page, tmp_path: Path) -> None:
    page, errors = browser_page
    row = _unique_cases(1)[0]
    page.fill("#puzzle-text", sudokit.render(sudokit.Grid(row["puzzle"]), "boxed"))
    page.click("#load")
    page.wait_for_selector("#board .cell")
    board = _board(page)
    assert len(board) == 81
    assert board["r1c2"] == row["puzzle"][1] and board["r1c1"] == ""
    # the hint is the library's next step, drawn
    step = sudokit.hint(sudokit.Grid(row["puzzle"]))
    page.click("#hint")
    page.wait_for_selector("#hint-picture svg")
    assert step.text in page.inner_text("#hint-text")
    shaded = {r.get_attribute("data-cell") for r in page.query_selector_all("#hint-picture rect.cell-hl")}
    assert shaded == {f"r{c // 9 + 1}c{c % 9 + 1}" for c in step.cells}
    page.click("#apply")
    (cell, value), = step.placements
    page.wait_for_function(f"document.querySelector('#board .cell[data-cell=\"{cell}\"]').innerText.trim() === '{value}'")
    # a wrong entry is caught by Check
    blank = next(i for i, ch in enumerate(row["puzzle"]) if ch == "." and i != cell)
    wrong = next(d for d in "123456789" if d != row["solution"][blank])
    page.click(f'#board .cell[data-cell="{blank}"]')
    page.keyboard.press(wrong)
    page.click("#check")
    page.wait_for_selector(f'#board .cell.wrong[data-cell="{blank}"]')
    assert "mistake" in page.inner_text("#message")
    page.keyboard.press("Control+z")
    assert page.inner_text(f'#board .cell[data-cell="{blank}"]').strip() == ""
    # pencil marks
    page.keyboard.press("Shift+Digit3")
    assert "3" in page.inner_text(f'#board .cell[data-cell="{blank}"]')
    # solve: the data's solution appears
    page.click("#solve")
    page.wait_for_function("document.querySelector('#message').innerText.includes('solution')")
    board = _board(page)
    assert "".join(board[f"r{r}c{c}"] for r in range(1, 10) for c in range(1, 10)) == row["solution"]
    page.wait_for_function("document.querySelector('#rating').innerText.includes('ER')")
    # print
    with page.expect_download() as download:
        page.click("#pdf")
    path = tmp_path / "page.pdf"
    download.value.save_as(path)
    assert path.read_bytes()[:5] == b"%PDF-"
    assert not errors


def test_page_hint_marks_wrong_entries_instead_of_a_hint(browser_page) -> None:
    page, errors = browser_page
    page.fill("#puzzle-text", PLAYED_GIVENS)
    page.click("#load")
    page.wait_for_function("document.querySelector('#message').innerText.includes('givens')")
    page.click('#board .cell[data-cell="0"]')
    page.keyboard.press("4")  # wrong: the solution has 2 (it clashes with nothing)
    page.click("#hint")
    page.wait_for_selector('#board .cell.wrong[data-cell="0"]')
    assert "r1c1" in page.inner_text("#message") and "disagree" in page.inner_text("#message")
    assert page.query_selector("#hint-panel").is_hidden()
    assert len(page.query_selector_all("#board .cell.wrong")) == 1
    assert not errors


def test_page_hint_reads_the_players_pencil_marks(browser_page) -> None:
    """The page sends the player's pencil marks as the cells' candidates: marks that keep the
    solution's digit alone give the library's hint on that state (not the one without marks);
    marks that exclude it name the cell instead of giving a hint."""
    from conftest import rated_reference

    page, errors = browser_page
    row = next(r for r in rated_reference() if sudokit.hint(sudokit.Grid(r["puzzle"])).rating > 2.3)
    puzzle = row["puzzle"].replace("0", ".")
    solution = reference_solution(puzzle)
    blank = puzzle.index(".")
    right = solution[blank]
    state = Candidates.from_grid(sudokit.Grid(puzzle))
    state.mask[blank] &= 1 << (right - 1)
    expected = sudokit.hint(state)
    assert expected.text != sudokit.hint(sudokit.Grid(puzzle)).text  # the marks must matter
    page.fill("#puzzle-text", puzzle)
    page.click("#load")
    page.wait_for_selector("#board .cell")
    page.click(f'#board .cell[data-cell="{blank}"]')
    page.keyboard.press(f"Shift+Digit{right}")
    page.click("#hint")
    page.wait_for_selector("#hint-picture svg")
    assert expected.text in page.inner_text("#hint-text")
    page.keyboard.press("Control+z")
    wrong = next(d for d in range(1, 10) if d != right)
    page.click(f'#board .cell[data-cell="{blank}"]')
    page.keyboard.press(f"Shift+Digit{wrong}")
    page.click("#hint")
    page.wait_for_selector(f'#board .cell.wrong[data-cell="{blank}"]')
    message = page.inner_text("#message")
    assert "pencil marks" in message and f"r{blank // 9 + 1}c{blank % 9 + 1}" in message
    assert page.query_selector("#hint-panel").is_hidden()
    assert not errors


def test_page_shows_bad_input(browser_page) -> None:
    page, errors = browser_page
    page.fill("#puzzle-text", "12345")
    page.click("#load")
    page.wait_for_selector("#message.error")
    assert "symbols" in page.inner_text("#message")
    page.fill("#puzzle-text", "55" + "." * 79)
    page.click("#load")
    page.wait_for_function("document.querySelector('#message').innerText.includes('r1c1, r1c2')")
    assert not errors


def test_page_generates_a_new_puzzle_when_the_seed_box_is_empty(browser_page) -> None:
    page, errors = browser_page
    page.select_option("#gen-box", "2x2")
    page.fill("#gen-seed", "")
    seen = []
    for _ in range(3):
        page.click("#generate")
        try:
            page.wait_for_function("document.querySelector('#message').innerText.startsWith('new ')")
        except Exception:
            raise AssertionError(page.inner_text("#message")) from None
        seen.append(page.input_value("#puzzle-text"))
        assert page.input_value("#gen-seed") == ""  # still empty: the next one is random again
        page.evaluate("document.querySelector('#message').innerText = ''")
    assert len(set(seen)) > 1, seen
    page.fill("#gen-seed", "7")
    page.click("#generate")
    page.wait_for_function("document.querySelector('#message').innerText.includes('seed 7')")
    assert page.input_value("#puzzle-text") == sudokit.generate(shape="2x2", seed=7).puzzle.line()
    page.select_option("#gen-box", "3x3")
    page.fill("#gen-seed", "")
    assert not errors


def test_page_wraps_a_long_error_inside_its_panel(browser_page, tmp_path: Path) -> None:
    page, errors = browser_page
    page.fill("#puzzle-text", "." * 81)
    page.fill("#puzzle-box", "x" * 400)  # an error message with a 400-character word in it
    page.click("#load")
    page.wait_for_selector("#message.error")
    message = page.inner_text("#message")
    assert "x" * 400 in message
    panel = page.eval_on_selector("#input-panel", "e => e.getBoundingClientRect().toJSON()")
    box = page.eval_on_selector("#message", "e => e.getBoundingClientRect().toJSON()")
    assert panel["left"] <= box["left"] and box["right"] <= panel["right"], (panel, box)
    assert page.eval_on_selector("#message", "e => e.scrollWidth <= e.clientWidth")
    page.screenshot(path=str(tmp_path / "long-error.png"))
    page.fill("#puzzle-box", "")
    assert not errors


def test_page_warns_of_a_puzzle_with_several_solutions(browser_page) -> None:
    page, errors = browser_page
    row = next(r for r in load_counts() if r["count"] not in ("0", "1"))
    assert sudokit.count_solutions(sudokit.Grid(row["puzzle"]), limit=2) == 2  # the library agrees
    page.fill("#puzzle-text", row["puzzle"])
    page.click("#load")
    page.wait_for_selector("#message.warn")
    assert "more than one solution" in page.inner_text("#message")
    page.click("#solve")
    page.wait_for_function("document.querySelector('#message').innerText.includes('one of them')")
    assert page.get_attribute("#message", "class") == "warn"
    board = _board(page)
    shown = "".join(board[f"r{r}c{c}"] for r in range(1, 10) for c in range(1, 10))
    assert all(g in (".", v) for g, v in zip(row["puzzle"], shown))  # the givens kept
    assert obeys_rules([int(v) for v in shown], [0 if g == "." else int(g) for g in row["puzzle"]], 3, 3)
    # a unique puzzle gets no warning
    unique = _unique_cases(1)[0]
    page.fill("#puzzle-text", unique["puzzle"])
    page.click("#load")
    page.wait_for_function("document.querySelector('#message').innerText.includes('givens')")
    page.wait_for_timeout(500)
    assert page.get_attribute("#message", "class") == "ok"
    assert not errors


# -- one hard puzzle shared by the server's processes (serve --jobs) ---------------------------


def test_hint_on_two_processes_takes_se_step() -> None:
    """The page's hint on SE's candidates before a Dynamic Forcing Chains (+) step (hd-0475, step
    26): with ``serve --jobs 2`` it is the library's step on one process, rated as SE rates it."""
    import gzip

    from conftest import RATED, require_shared
    from sudokit.formats import render_marks
    from sudokit.grid import Grid

    with gzip.open(require_shared(RATED / "hard_dev_traces.jsonl.gz"), "rt") as f:
        row = next(r for r in map(json.loads, f) if r["id"] == "hd-0475")
    se = row["steps"][25]
    marks = [sum(1 << k for k, ch in enumerate(se["candidates"][9 * c:9 * c + 9]) if ch != ".") for c in range(81)]
    grid = Grid("".join(str(m.bit_length()) if m & (m - 1) == 0 else "." for m in marks))
    open_marks = [0 if m & (m - 1) == 0 else m for m in marks]
    alone = sudokit.hint(Candidates.from_masks(grid, open_marks), timeout=None)
    s = Server("--time-limit", "60", "--jobs", "2")
    try:
        status, hint, _ = s.post("/api/hint", {"puzzle": render_marks(grid, open_marks), "svg": False})
    finally:
        s.stop()
    assert status == 200, hint
    assert hint["text"] == alone.text and hint["rating"] == alone.rating == se["rating"]


@pytest.mark.slow
def test_rate_and_explain_on_two_processes_give_se_rating() -> None:
    """``serve --jobs 2``: a hard puzzle's rating is SE's, and its path the library's on one process."""
    import csv

    from conftest import RATED, require_shared

    with open(require_shared(RATED / "hard_dev.tsv"), newline="") as fh:
        row = next(r for r in csv.DictReader(fh, delimiter="\t") if r["id"] == "hd-0433")
    s = Server("--time-limit", "120", "--jobs", "2")
    try:
        status, record, _ = s.post("/api/rate", {"puzzle": row["puzzle"]})
        status_explain, steps, _ = s.post("/api/explain", {"puzzle": row["puzzle"]})
    finally:
        s.stop()
    assert status == 200 and (record["er"], record["ep"], record["ed"]) == (
        float(row["er"]), float(row["ep"]), float(row["ed"]))
    path = sudokit.explain(row["puzzle"], timeout=None)
    assert status_explain == 200 and [step["text"] for step in steps] == [step.text for step in path]
