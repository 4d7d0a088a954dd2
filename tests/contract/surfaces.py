"""The surfaces of the contract: the command line (``sudoku`` as a process), the Python API and
the HTTP API (a real ``sudoku serve``), each brought to one :class:`Outcome` per case."""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sudokit
from sudokit import records
from sudokit.errors import SudokuError

from contract_corpus import Case, Outcome
from serving import ServeProcess

#: The commands of the contract: (command line, HTTP path).
COMMANDS = {
    "solve": (["solve"], "/api/solve"),
    "count": (["solve", "--count", "--limit", "2"], "/api/count"),
    "rate": (["rate"], "/api/rate"),
    "explain": (["explain"], "/api/explain"),
    "hint": (["hint"], "/api/hint"),
}


def shape_of(box: str | None) -> Any:
    if box is None:
        return None
    r, c = box.split("x")
    return sudokit.Shape(int(r), int(c))


def failure_status(exc: BaseException) -> str:
    from sudokit.pipeline import failure_status as status

    return status(exc).value


# -- the Python API -----------------------------------------------------------------------------


def python(case: Case, command: str) -> Outcome:
    """The case through the public Python API, and the records built from what it returns."""
    from sudokit.logic import Candidates

    masks = None
    try:
        if case.kind == "wrong_marks":
            grid, masks = sudokit.parse_candidates(case.text)
        else:
            entries = list(sudokit.read_puzzles(case.text, shape=shape_of(case.box)))
            if not entries:
                return Outcome("empty")
            if len(entries) > 1:  # the API's rule: one puzzle a request
                return Outcome("unreadable", message=f"the text holds {len(entries)} puzzles; send one at a time")
            if entries[0].error is not None:
                return Outcome("unreadable", message=entries[0].error.reason)
            grid = entries[0].grid
    except SudokuError as exc:
        return Outcome("unreadable", message=getattr(exc, "reason", str(exc)))
    if command in ("solve", "count"):
        result = sudokit.solve(grid) if command == "solve" else sudokit.count(grid, limit=2)
        record = records.result_record(result, counting=command == "count")
        return Outcome("ok" if result.ok else "failed", record, result.message)
    try:
        if command == "rate":
            return Outcome("ok", records.rating_record(grid, sudokit.rate(grid, timeout=20)))
        geo = Candidates.from_grid(grid).geo
        if command == "explain":
            path = sudokit.explain(grid, timeout=20)
            return Outcome("ok", [records.step_record(grid, k, step, geo) for k, step in enumerate(path, 1)])
        givens = None if case.givens is None else sudokit.parse(case.givens)
        step = sudokit.hint(grid, givens=givens, marks=masks, timeout=20)
        if step is None:
            return Outcome("failed", message="no technique applies")
        return Outcome("ok", records.step_record(grid, 1, step, geo))
    except SudokuError as exc:
        record = {"puzzle": grid.line(), "status": failure_status(exc), "message": str(exc)}
        return Outcome("failed", record, str(exc))


# -- the HTTP API --------------------------------------------------------------------------------


class Server(ServeProcess):
    """``sudoku serve`` on 127.0.0.1, in its own process group."""

    def post(self, path: str, body: "dict | bytes", headers: dict | None = None) -> tuple[int, Any]:
        status, raw, _ = self.send(path, body, headers, timeout=120)
        return status, json.loads(raw)


def http_body(case: Case, command: str) -> dict:
    body: dict[str, Any] = {"puzzle": case.text}
    if case.box is not None:
        body["box"] = case.box
    if command == "count":
        body["limit"] = 2
    if command == "hint":
        body["svg"] = False
        if case.givens is not None:
            body["givens"] = case.givens
    return body


def http_outcome(status: int, answer: Any) -> Outcome:
    """An HTTP answer as an outcome (the status kept, to be checked against the docs)."""
    if status == 200:
        return Outcome("ok", answer, status=status)
    assert isinstance(answer, dict) and {"error", "reason", "place"} <= set(answer), answer
    kind = {422: "failed", 400: "unreadable", 413: "too_long"}.get(status, f"HTTP {status}")
    extra = {k: v for k, v in answer.items() if k not in ("error", "reason", "place", "record")}
    return Outcome(kind, answer.get("record"), answer["reason"], status=status, extra={"place": answer["place"],
                                                                                       **extra})


def http(server: Server, case: Case, command: str) -> Outcome:
    return http_outcome(*server.post(COMMANDS[command][1], http_body(case, command)))


# -- the command line ---------------------------------------------------------------------------


def sudoku(*args: str, input: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``sudoku ARGS`` as a user runs it."""
    return subprocess.run(["sudoku", *args], input=input, capture_output=True, text=True, timeout=timeout)


def cli_batch(command: str, cases: list[Case], folder: Path) -> tuple[dict[str, Outcome], subprocess.CompletedProcess]:
    """Every case in its own file, through one ``sudoku COMMAND --format jsonl FILE...`` per box
    option; the outcome of each file (by its records and its lines on stderr) and the runs."""
    by_box: dict[str | None, list[tuple[Case, Path]]] = {}
    for i, case in enumerate(cases):
        path = folder / f"{command}-{i}.txt"
        path.write_text(case.text, encoding="utf-8", errors="surrogateescape")
        by_box.setdefault(case.box, []).append((case, path))
    outcomes: dict[str, Outcome] = {}
    runs = []

    def one(box: str | None, group: list[tuple[Case, Path]]) -> tuple:
        args = [*COMMANDS[command][0], "--format", "jsonl", *(["--box", box] if box else [])]
        run = sudoku(*args, *[str(p) for _, p in group])
        return group, run

    with ThreadPoolExecutor(4) as pool:
        for group, run in pool.map(lambda item: one(*item), by_box.items()):
            runs.append((group, run))
            several = len(group) > 1
            found: dict[str, list[dict]] = {}
            for line in run.stdout.splitlines():
                record = json.loads(line)
                found.setdefault(record.get("source", str(group[0][1])) if several else str(group[0][1]),
                                 []).append(record)
            for case, path in group:
                recs = found.get(str(path), [])
                outcomes[case.name] = cli_outcome(command, recs, run.stderr, str(path), several,
                                                  None if several else run.returncode)
    return outcomes, runs


def cli_outcome(command: str, recs: list[dict], stderr: str, path: str, several: bool, code: int) -> Outcome:
    """One input's outcome from its records and the stderr of the run."""
    prefix = f"{path}: " if several else ""
    if not recs:
        said = [line for line in stderr.splitlines() if line.startswith(prefix + "puzzle 1")]
        if f"no puzzle found in {path!r}" in stderr:
            return Outcome("empty", status=code)
        if said:  # explain writes no record of a failed puzzle (it did before the contract)
            return Outcome("failed", None, said[0].split(": ", 2 if several else 1)[-1], status=code)
        return Outcome(f"nothing for {path}", status=code, message=stderr)
    record = recs if command == "explain" and recs[0].get("step") else recs[0]
    first = recs[0]
    status = first.get("status")
    if status == "parse_error":
        return Outcome("unreadable", first, first["message"], status=code)
    ok = {"solve": ("solved",), "count": ("solved",), "rate": ("rated",), "explain": (None,)}[command]
    kind = "ok" if status in ok else "failed"
    return Outcome(kind, record, first.get("message", ""), status=code)


def cli_hint(case: Case, folder: Path, name: str) -> Outcome:
    """One case through ``sudoku hint --format jsonl FILE`` (and ``--givens FILE``)."""
    path = folder / f"hint-{name}.txt"
    path.write_text(case.text, encoding="utf-8", errors="surrogateescape")
    args = ["hint", "--format", "jsonl", str(path), *(["--box", case.box] if case.box else [])]
    if case.givens is not None:
        givens = folder / f"givens-{name}.txt"
        givens.write_text(case.givens)
        args += ["--givens", str(givens)]
    run = sudoku(*args)
    if run.returncode == 0:
        return Outcome("ok", json.loads(run.stdout), status=0)
    said = [line for line in run.stderr.splitlines() if line.startswith("puzzle 1: ")]
    if f"no puzzle found in {str(path)!r}" in run.stderr:
        return Outcome("empty", status=run.returncode)
    message = said[0].removeprefix("puzzle 1: ") if said else run.stderr.strip()
    return Outcome("failed", None, message, status=run.returncode)
