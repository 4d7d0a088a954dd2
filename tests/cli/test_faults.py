"""Every command meets the same faults the same way (docs/cli.md): empty input, a reader that
goes away, a full disk, an endless line, and a format that cannot hold the input."""

from __future__ import annotations

import os
import subprocess

import pytest

from cli_helpers import GOOD as PUZZLE, SUDOKU


def _run(args: list[str], stdin: str | None = None, stdout=subprocess.PIPE, input_file: str | None = None,
         timeout: float = 120) -> subprocess.CompletedProcess:
    feed = open(input_file, "rb") if input_file else None
    try:
        return subprocess.run([*SUDOKU, *args], input=None if feed else (stdin or "").encode(), stdin=feed,
                              stdout=stdout, stderr=subprocess.PIPE, timeout=timeout)
    finally:
        if feed:
            feed.close()


@pytest.mark.parametrize("command", ["solve", "rate", "explain"])
def test_empty_input_is_a_failure_in_every_command(command: str, tmp_path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing but a comment\n\n")
    done = _run([command, str(empty)])
    assert done.returncode == 1
    assert b"no puzzle found" in done.stderr and b"Traceback" not in done.stderr


@pytest.mark.parametrize("args", [["solve", "-"], ["solve", "-", "--format", "jsonl"], ["rate", "-"],
                                  ["explain", "-"], ["generate", "-n", "3", "--seed", "1"]])
def test_a_full_disk_is_named(args: list[str]) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "wb") as full:
        done = _run(args, stdin=PUZZLE + "\n", stdout=full)
    assert done.returncode == 1
    assert b"cannot write output" in done.stderr and b"Traceback" not in done.stderr


@pytest.mark.parametrize("args", [["solve", "{f}"], ["solve", "{f}", "--format", "line"],
                                  ["solve", "{f}", "--format", "jsonl"], ["rate", "{f}"], ["explain", "{f}"],
                                  ["generate", "-n", "100000", "--seed", "1"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(args: list[str], tmp_path) -> None:
    path = tmp_path / "many.txt"
    path.write_text((PUZZLE + "\n") * 3000)
    proc = subprocess.Popen([*SUDOKU, *[a.format(f=path) for a in args]], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    first = proc.stdout.readline()  # type: ignore[union-attr]
    proc.stdout.close()  # type: ignore[union-attr]  # the reader is gone, as with `| head -1`
    code = proc.wait(timeout=120)
    err = proc.stderr.read()  # type: ignore[union-attr]
    proc.stderr.close()  # type: ignore[union-attr]
    assert first and code == 0, (code, err)
    assert b"Traceback" not in err and b"internal error" not in err


def test_an_endless_line_is_refused_naming_it() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    done = _run(["solve", "/dev/zero"], timeout=60)
    assert done.returncode == 1
    assert b"line 1: too long" in done.stderr and b"MemoryError" not in done.stderr


def test_a_picture_of_one_puzzle_writes_nothing_when_given_two() -> None:
    done = _run(["solve", "--example", "gentle", "--example", "easy", "--format", "svg"])
    assert done.returncode == 2 and done.stdout == b""
    assert b"single puzzle" in done.stderr
