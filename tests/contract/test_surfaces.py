"""One contract, held everywhere: one corpus through the command line, the Python API, the
HTTP API (a real ``sudoku serve`` on 127.0.0.1) and the page, with the same outcome, the same
record and the exit status or HTTP status that docs/cli.md's tables give.

The default run takes the fixed sample of :func:`contract_corpus.fixed_corpus` (one of each
class); ``-m slow`` draws cases with hypothesis, up to ``SUDOKIT_CONTRACT_EXAMPLES`` (100,000 by
default) through the cheap surfaces: the Python API and the HTTP API in process.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from hypothesis import HealthCheck, given, settings

from contract_corpus import (
    Case, Outcome, bare, cases, documented_exit, documented_http, expected, fixed_corpus,
)
from surfaces import Server, cli_batch, cli_hint, http, http_outcome, python, sudoku

CORPUS = fixed_corpus()


@pytest.fixture(scope="module")
def server():
    s = Server("--time-limit", "30")
    yield s
    s.stop()


def _applies(case: Case, command: str) -> bool:
    if case.kind in ("wrong_entry", "wrong_marks"):
        return command == "hint"  # a player's grid: what a hint is asked of
    if command == "hint":  # one process a puzzle: one of each class
        return case.logic and (case.size == 9 or case.kind == "unique") and "windoku" not in case.name
    if command in ("rate", "explain"):
        return case.logic
    return True


def _same_message(cli: str, other: str) -> bool:
    """The command line's message is the other's reason, after any place it names first
    (``column 5: ...``) or the label of its line."""
    return cli == other or cli.endswith(": " + other)


def check(case: Case, command: str, cli: Outcome, py: Outcome, web: Outcome) -> None:
    want, status = expected(case, command)
    where = f"{case.name} / {command}"
    if want == "unreadable" and command == "hint":
        assert cli.kind in ("failed", "unreadable"), (where, cli)  # hint says it on stderr, exit 1
    else:
        assert cli.kind == want, (where, "command line", cli)
    assert py.kind == want, (where, "Python", py)
    # empty text: the API calls it unreadable (400), as the docs' table says
    assert web.kind == ("unreadable" if want == "empty" else want), (where, "HTTP", web)
    # the documented statuses
    if cli.status is not None:  # one input a run (a run of several: checked by the run)
        assert cli.status == documented_exit(want), (where, cli.status, cli.message)
    assert web.status == documented_http(want), (where, web.status, web.message)
    # the same record
    if want == "ok":
        assert bare(cli.record) == bare(py.record) == bare(web.record), where
        if status is not None:
            assert cli.record["status"] == status, where
    elif want == "failed":
        assert _same_message(cli.message, web.message), (where, cli.message, web.message)
        assert web.message == py.message, (where, web.message, py.message)
        if command != "hint":  # every batch command writes a record of a failed puzzle (hint: stderr only)
            assert cli.record is not None, (where, cli)
            assert bare(cli.record) == bare(py.record), where
            if status is not None:
                assert cli.record["status"] == status, where
        if web.record is not None:
            assert bare(web.record) == bare(py.record), where
    elif want == "unreadable":
        assert _same_message(cli.message, web.message) and web.message == py.message, (where, cli, py, web)
        assert web.extra["place"]["field"] == "puzzle"


@pytest.mark.parametrize("command", ["solve", "count", "rate", "explain"])
def test_every_surface_agrees_on_the_corpus(server: Server, command: str, tmp_path: Path) -> None:
    chosen = [c for c in CORPUS if _applies(c, command)]
    clis, runs = cli_batch(command, chosen, tmp_path)
    with ThreadPoolExecutor(4) as pool:
        webs = list(pool.map(lambda c: http(server, c, command), chosen))
    for case, web in zip(chosen, webs):
        check(case, command, clis[case.name], python(case, command), web)
    # a run's exit status: failed when any of its inputs failed (docs/cli.md); each failure said
    # on stderr as `puzzle N (line L): status: reason`, whatever the command
    for group, run in runs:
        for case, path in group:
            want, status = expected(case, command)
            if want in ("failed", "unreadable") and status is not None:
                said = f"{path}: " * (len(group) > 1) + f"puzzle 1 (line 1): {status}: "
                assert any(line.startswith(said) for line in run.stderr.splitlines()), (said, run.stderr)
        outcomes = {expected(c, command)[0] for c, _ in group}
        worst = "ok" if outcomes == {"ok"} else "failed"
        assert run.returncode == documented_exit(worst), (command, [c.name for c, _ in group], run.stderr)


def test_every_surface_agrees_on_hints(server: Server, tmp_path: Path) -> None:
    chosen = [c for c in CORPUS if _applies(c, "hint")]
    with ThreadPoolExecutor(4) as pool:
        clis = list(pool.map(lambda ic: cli_hint(ic[1], tmp_path, str(ic[0])), enumerate(chosen)))
        webs = list(pool.map(lambda c: http(server, c, "hint"), chosen))
    for case, cli, web in zip(chosen, clis, webs):
        check(case, "hint", cli, python(case, "hint"), web)
        if case.kind in ("wrong_entry", "wrong_marks"):
            assert [w["name"] for w in web.extra["wrong"]] == [("r1c1" if case.kind == "wrong_entry" else "r2c1")]
            assert web.extra["wrong"][0]["name"] in cli.message


# -- every limit, however it is reached -----------------------------------------------------------


def test_the_puzzle_text_limit_holds_on_every_surface(server: Server, tmp_path: Path) -> None:
    """Over-long text: the command line stops at 1 MiB a record (exit 1, the file named); the API
    refuses over 100,000 characters of puzzle (413, field puzzle) and a body over --max-body
    (413), sent plainly or chunked."""
    from sudokit.formats import MAX_RECORD
    from sudokit.web.app import MAX_BODY, MAX_PUZZLE_TEXT

    long = tmp_path / "long.txt"
    long.write_text("." * (MAX_RECORD + 10))
    for args in (["solve"], ["rate"], ["explain"], ["hint"], ["print", "-o", str(tmp_path / "x.pdf")]):
        run = sudoku(*args, str(long))
        assert run.returncode == documented_exit("too_long"), (args, run.stderr)
        assert "long.txt" in run.stderr and str(MAX_RECORD) in run.stderr and "Traceback" not in run.stderr
    for path in ("/api/solve", "/api/count", "/api/rate", "/api/explain", "/api/hint", "/api/parse", "/api/pdf"):
        status, error = server.post(path, {"puzzle": "." * (MAX_PUZZLE_TEXT + 1)})
        assert status == documented_http("too_long") and error["place"] == {"field": "puzzle"}, (path, error)
    status, error = server.post("/api/hint", {"puzzle": "." * 81, "givens": "." * (MAX_PUZZLE_TEXT + 1)})
    assert status == 413 and error["place"] == {"field": "givens"}
    body = json.dumps({"puzzle": "." * 81, "title": "x" * MAX_BODY}).encode()
    assert server.post("/api/pdf", body)[0] == 413
    assert _chunked(server.port, "/api/solve", body).startswith(b"HTTP/1.1 413")
    # under every limit, the same text is answered
    assert server.post("/api/solve", {"puzzle": "." * 81})[0] == 200


def _chunked(port: int, path: str, body: bytes, chunk: int = 4096) -> bytes:
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  f"Transfer-Encoding: chunked\r\n\r\n".encode())
        try:
            for i in range(0, len(body), chunk):
                part = body[i:i + chunk]
                s.sendall(b"%x\r\n" % len(part) + part + b"\r\n")
            s.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        answer = b""
        try:
            while (data := s.recv(1 << 16)):
                answer += data
        except OSError:
            pass
    return answer


def test_the_number_of_puzzles_is_one_a_request_and_any_on_the_command_line(server: Server,
                                                                          tmp_path: Path) -> None:
    """The API takes one puzzle a request (400 naming the count); the command line any number,
    each answered in order."""
    two = CORPUS[0].text + "\n" + CORPUS[1].text + "\n"
    for path in ("/api/solve", "/api/count", "/api/rate", "/api/explain", "/api/hint", "/api/parse", "/api/pdf"):
        status, error = server.post(path, {"puzzle": two})
        assert status == documented_http("unreadable") and "2 puzzles" in error["error"], (path, error)
        assert error["place"] == {"field": "puzzle"}
    many = tmp_path / "many.txt"
    many.write_text(CORPUS[0].text + "\n" * 1 + (CORPUS[0].text + "\n") * 499)
    run = sudoku("solve", "--format", "line", str(many))
    assert run.returncode == 0 and len(run.stdout.splitlines()) == 500


def test_time_limits_cut_work_on_every_surface(server: Server) -> None:
    """A time limit is a record (status timeout; a rating's lower bound) wherever the library's
    own budget cuts the work; the command line exits 1 on a timeout record."""
    from puzzles import HARD_PUZZLE

    hard = "1" + "." * 80  # counting all its solutions never ends
    status, answer = server.post("/api/count", {"puzzle": hard, "limit": 10**9, "timeout": 0.5})
    assert status == documented_http("ok") and answer["status"] == "timeout"
    run = sudoku("solve", "--count", "--limit", str(10**9), "--timeout", "0.5", "--format", "jsonl", "-",
                 input=hard + "\n")
    record = json.loads(run.stdout)
    assert record["status"] == "timeout" and run.returncode == documented_exit("failed")
    assert set(record) - {"line"} == set(answer) - {"line"}  # the same record (its counts are the time's)
    assert (record["count"] is None) == (answer["count"] is None)
    status, rating = server.post("/api/rate", {"puzzle": HARD_PUZZLE, "timeout": 1})
    assert status == 200 and rating["lower_bound"] is True


# -- the page --------------------------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"


def test_the_page_says_what_the_api_says(server: Server) -> None:
    """The classes the page shows: a puzzle loads (one solution: no warning; several: the
    warning), a puzzle with no solution is refused on Solve with the API's message, clashing
    givens and unreadable text with the API's message."""
    from conftest import require_browser

    api = require_browser(CHROMIUM)
    by_kind = {c.kind: c for c in CORPUS if c.size == 9 and c.text.startswith((".", "5", "1"))}
    with api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox",
                                                                   "--disable-gpu"])
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/")

        def load(text: str) -> str:
            page.evaluate("document.querySelector('#message').innerText = ''")
            page.fill("#puzzle-text", text)
            page.click("#load")
            page.wait_for_function("document.querySelector('#message').innerText.trim() !== ''")
            return page.inner_text("#message")

        said = load(by_kind["unique"].text)
        assert page.get_attribute("#message", "class") != "error", said
        said = load(by_kind["several"].text)
        page.wait_for_selector("#message.warn")
        for kind in ("clash", "unreadable"):
            case = next(c for c in CORPUS if c.kind == kind)
            said = load(case.text)
            page.wait_for_selector("#message.error")
            _, answer = server.post("/api/parse", {"puzzle": case.text})
            assert answer["reason"] in page.inner_text("#message"), (kind, said, answer)
        load(by_kind["none"].text)
        page.evaluate("document.querySelector('#message').innerText = ''")
        page.click("#solve")
        page.wait_for_selector("#message.error")
        _, answer = server.post("/api/count", {"puzzle": by_kind["none"].text, "limit": 2})
        assert answer["reason"] in page.inner_text("#message") or "no solution" in page.inner_text("#message")
        browser.close()
    assert not errors


# -- the long run ------------------------------------------------------------------------------------

EXAMPLES = int(os.environ.get("SUDOKIT_CONTRACT_EXAMPLES", "100000"))


@pytest.fixture(scope="module")
def asgi():
    """The API in process (the same application ``sudoku serve`` runs), for the long run."""
    import anyio
    import httpx

    from sudokit.web.app import create_app

    app = create_app(time_limit=30)

    def post(path: str, body: dict) -> tuple[int, object]:
        async def ask():
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
                return await client.post(path, json=body)

        response = anyio.run(ask)
        return response.status_code, response.json()

    return post


@pytest.mark.slow
@pytest.mark.timeout(max(900, EXAMPLES // 20))  # about 10 to 20 ms an example: 100,000 take half an hour
@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(case=cases())
def test_drawn_cases_agree_between_python_and_http(asgi, case: Case) -> None:
    from surfaces import http_body, COMMANDS

    for command in ("solve", "count"):
        py = python(case, command)
        web = http_outcome(*asgi(COMMANDS[command][1], http_body(case, command)))
        if case.kind != "any":
            want, status = expected(case, command)
            assert py.kind == want, (case, command, py)
            if status is not None and py.record is not None:
                assert py.record["status"] == status
        if py.kind == "empty":  # the API says so as unreadable text (400)
            assert web.kind == "unreadable" and web.status == documented_http("empty"), (case, web)
            continue
        assert web.kind == py.kind, (case, command, py, web)
        assert web.status == documented_http(py.kind), (case, command, web)
        if py.kind in ("ok", "failed"):
            assert bare(web.record) == bare(py.record), (case, command)
        else:
            assert web.message == py.message, (case, command, py, web)
