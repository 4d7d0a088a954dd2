"""Ctrl-C on every long command: it stops within the bound, exits 130, and every line
written before it is whole.

Each command runs as a real process on work far longer than the test; SIGINT comes once it
has written some output, and the process must end soon after (a generous bound: these
machines are shared)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from sudokit.grid import Grid

from cli_helpers import SUDOKU

#: Seconds from SIGINT to the end of the process (the rule is 1 s; the margin is for load).
BOUND = 3.0


def _interrupt(args: list[str], tmp_path: Path, wait_for: int = 1, stdin: Path | None = None) -> tuple[int, float, list[str]]:
    """Run ``sudoku ARGS``; once stdout holds ``wait_for`` lines (or 60 s passed), send SIGINT.
    Returns (exit status, seconds from the signal to the end, the lines written)."""
    out_path = tmp_path / "out.txt"
    with open(out_path, "w") as out, open(stdin or os.devnull) as feed:
        proc = subprocess.Popen([*SUDOKU, *args], stdin=feed, stdout=out, stderr=subprocess.PIPE)
        start = time.perf_counter()
        while time.perf_counter() - start < 60 and proc.poll() is None:
            if out_path.read_text().count("\n") >= wait_for:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the command ended before it could be interrupted"
        took = _ctrl_c(proc)
        proc.stderr.close()  # type: ignore[union-attr]
    return proc.returncode, took, out_path.read_text().splitlines()


def _ctrl_c(proc: subprocess.Popen) -> float:
    """Send Ctrl-C to ``proc`` and wait for it (killed after 30 s): the seconds it took to end."""
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    return time.perf_counter() - sent


def _big_file(tmp_path: Path, lines: int) -> Path:
    from sudokit import generate_many

    puzzles = [p.puzzle.line() for p in generate_many(50, minimal="logic", seed=1)]
    path = tmp_path / "big.txt"
    with open(path, "w") as fh:
        for i in range(lines):
            fh.write(puzzles[i % len(puzzles)] + "\n")
    return path


def test_ctrl_c_stops_solving_a_big_file(tmp_path) -> None:
    path = _big_file(tmp_path, 3_000_000)
    code, took, lines = _interrupt(["solve", str(path), "--count", "--limit", "2", "--format", "line"], tmp_path,
                                   wait_for=10_000)
    assert code == 130 and took < BOUND
    assert lines and all(line == "1" for line in lines)  # whole lines only: every puzzle has one solution


def test_ctrl_c_stops_generating(tmp_path) -> None:
    code, took, lines = _interrupt(["generate", "-n", "10000000", "--seed", "3"], tmp_path, wait_for=20)
    assert code == 130 and took < BOUND
    assert lines and all(len(line) == 81 and Grid(line).clues >= 17 for line in lines)


def test_ctrl_c_stops_rating(tmp_path) -> None:
    path = _big_file(tmp_path, 200_000)
    code, took, lines = _interrupt(["rate", str(path)], tmp_path, wait_for=5)
    assert code == 130 and took < BOUND
    assert lines and all(line.split()[0] in path.read_text()[:5_000_000] and "/" in line for line in lines)


@pytest.mark.parametrize("jobs", ["2"])
def test_ctrl_c_stops_the_worker_pool(tmp_path, jobs: str) -> None:
    path = _big_file(tmp_path, 3_000_000)
    code, took, lines = _interrupt(["solve", str(path), "--format", "line", "--jobs", jobs], tmp_path,
                                   wait_for=10_000)
    assert code == 130 and took < BOUND
    assert lines and all(len(line) == 81 and Grid(line).is_solved for line in lines)


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []


def _forked_children(pid: int) -> list[int]:
    """The children of ``pid`` forked from it (its command line), not the helpers it starts
    as new programs (a first run's background compilation, which is meant to run on)."""
    def cmdline(p: int) -> bytes:
        try:
            with open(f"/proc/{p}/cmdline", "rb") as fh:
                return fh.read()
        except OSError:
            return b""
    own = cmdline(pid)
    return [c for c in _children(pid) if own and cmdline(c) == own]


def test_ctrl_c_stops_one_puzzle_shared_by_two_processes(tmp_path) -> None:
    """``rate --jobs 2`` on one hard puzzle: Ctrl-C once the worker that shares its searches is
    running stops both, at once."""
    import csv

    from conftest import RATED, require_shared

    if not os.path.exists("/proc/self/task"):
        pytest.skip("needs /proc")
    with open(require_shared(RATED / "hard_dev.tsv"), newline="") as fh:
        puzzle = next(r for r in csv.DictReader(fh, delimiter="\t") if r["id"] == "hd-0001")["puzzle"]  # 11.9
    path = tmp_path / "one.txt"
    path.write_text(puzzle + "\n")
    proc = subprocess.Popen([*SUDOKU, "rate", "--jobs", "2", "--timeout", "600", str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    start = time.perf_counter()
    workers: list[int] = []
    while not workers and time.perf_counter() - start < 120 and proc.poll() is None:
        time.sleep(0.1)
        workers = _forked_children(proc.pid)
    assert workers and proc.poll() is None, "the worker never started"
    time.sleep(0.5)
    took = _ctrl_c(proc)
    assert proc.returncode == 130 and took < BOUND, proc.stderr.read()
    time.sleep(0.5)
    for pid in workers:
        assert not os.path.exists(f"/proc/{pid}") or "Z" in open(f"/proc/{pid}/stat").read().split()[2], pid
