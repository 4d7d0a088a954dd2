"""``sudoku print --bank`` (booklets that never repeat a puzzle of an earlier
book) and ``sudoku serve --bank`` (the API in a real server, the page's button
in a real browser)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bank_helpers import SUDOKU, environment, rating_record, se_rows, sudoku, table, write_jsonl

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def bank_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bank")
    rows = se_rows()[:120]
    write_jsonl(folder / "se.jsonl", [rating_record(r["puzzle"], float(r["er"]), r["er_technique"]) for r in rows])
    path = folder / "bank.sqlite"
    assert sudoku("bank", "add", "--bank", str(path), str(folder / "se.jsonl")).returncode == 0
    return path, rows


def _used(path, book: str) -> set[str]:
    return {r[0] for r in table(path, "SELECT p.puzzle FROM used u JOIN puzzle p ON p.id = u.puzzle "
                                      "JOIN book b ON b.id = u.book WHERE b.name = ?", (book,))}


def test_booklets_from_the_bank_never_repeat_a_puzzle(bank_file, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    path, rows = bank_file
    copy = tmp_path / "bank.sqlite"
    copy.write_bytes(path.read_bytes())
    ers = {r["puzzle"]: float(r["er"]) for r in rows}
    books = []
    for number in (1, 2, 3):
        out = tmp_path / f"book{number}.pdf"
        result = sudoku("print", "--bank", str(copy), "--rating", "1.0-2.0", "-n", "8", "--mark-used",
                        f"Book {number}", "-o", str(out), "--no-solutions")
        assert result.returncode == 0, result.stderr
        assert len(pypdf.PdfReader(str(out)).pages) == 2  # 8 puzzles, 4 a page
        books.append(_used(copy, f"Book {number}"))
    assert all(len(b) == 8 for b in books)
    assert not (books[0] & books[1] or books[0] & books[2] or books[1] & books[2])
    assert all(1.0 <= ers[p] <= 2.0 for b in books for p in b)
    # a booklet that cannot be written marks nothing
    result = sudoku("print", "--bank", str(copy), "-n", "4", "--mark-used", "Book 4", "-o",
                    str(tmp_path / "missing" / "book.pdf"))
    assert result.returncode == 1 and "nothing was marked" in result.stderr
    assert _used(copy, "Book 4") == set()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(bank_file, tmp_path_factory):
    path, _ = bank_file
    copy = tmp_path_factory.mktemp("served") / "bank.sqlite"
    copy.write_bytes(path.read_bytes())
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([*SUDOKU, "serve", "--port", str(port), "--bank", str(copy)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True, env=environment())
    deadline = time.monotonic() + 90
    while True:
        assert proc.poll() is None, proc.stdout.read()
        try:
            with urllib.request.urlopen(url + "/api/bank", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            assert time.monotonic() < deadline, "sudoku serve did not answer"
            time.sleep(0.3)
    yield url, copy
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(20)


def _post(url: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_api_queries_marks_and_adds(server, bank_file):
    url, copy = server
    _, rows = bank_file
    status, got = _post(url + "/api/bank/query", {"rating": "1.5-2.5", "n": 5, "seed": 3})
    assert status == 200 and len(got["puzzles"]) == 5
    assert all(1.5 <= p["er"] <= 2.5 for p in got["puzzles"])
    status, again = _post(url + "/api/bank/query", {"rating": "1.5-2.5", "n": 5, "seed": 3})
    assert [p["puzzle"] for p in again["puzzles"]] == [p["puzzle"] for p in got["puzzles"]]
    status, marked = _post(url + "/api/bank/query", {"n": 3, "mark_used": "Web book", "seed": 1})
    assert status == 200 and _used(copy, "Web book") == {p["puzzle"] for p in marked["puzzles"]}
    assert _post(url + "/api/bank/query", {"level": "impossible"})[0] == 400
    fresh = se_rows()[200:203]
    text = "\n".join(json.dumps(rating_record(r["puzzle"], float(r["er"]))) for r in fresh) + "\nnot a puzzle\n"
    status, report = _post(url + "/api/bank/add", {"puzzles": text, "source": "api test"})
    assert status == 200 and (report["new"], report["failed"]) == (3, 1)
    assert "line 4" in report["notes"][0]
    assert table(copy, "SELECT count(*) FROM puzzle WHERE source = 'api test'")[0][0] == 3


def test_without_a_bank_the_endpoints_are_absent():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from sudokit.web.app import create_app

    client = TestClient(create_app())
    assert client.get("/api/bank").status_code == 404
    assert client.post("/api/bank/query", json={}).status_code in (404, 405)


@pytest.mark.slow
def test_the_page_draws_an_unplayed_puzzle_of_the_level_and_marks_it_played(server):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser at {CHROMIUM}")
    playwright = pytest.importorskip("playwright.sync_api")
    url, copy = server
    fiendish = {r[0] for r in table(copy, "SELECT puzzle FROM puzzle WHERE level = 'fiendish'")}
    assert len(fiendish) >= 3
    with playwright.sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + "/")
        page.wait_for_selector("#bank-new", state="visible")
        page.select_option("#gen-level", "fiendish")
        drawn = []
        for _ in range(3):
            page.click("#bank-new")
            page.wait_for_function("document.querySelector('#message').textContent.includes('marked played')")
            drawn.append(page.input_value("#puzzle-text"))
            cells = page.query_selector_all("#board .cell")
            assert len(cells) == 81
        context.close()
    assert not errors
    assert len(set(drawn)) == 3 and set(drawn) <= fiendish
    assert _used(copy, "played") >= set(drawn)
