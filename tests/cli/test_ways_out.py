"""Every way out of every command meets a full disk and a reader that went away the same way
(docs/cli.md): ``cannot write output: ...`` with status 1, or a quiet end with status 0.

The commands come from the click group itself, so a new command without a row in
:data:`RUN` fails here instead of being missed. The ways out: standard output, ``-o FILE``
where the command has one, and the help text."""

from __future__ import annotations

import os
import socket
import subprocess

import click
import pytest

from sudokit.cli import cli

from cli_helpers import GOOD, SUDOKU

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")


def _free_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return str(sock.getsockname()[1])


#: A small run of each command that writes to standard output ({puzzles}: a file of one puzzle).
RUN: dict[str, list[str]] = {
    "solve": ["solve", "{puzzles}"],
    "examples": ["examples"],
    "generate": ["generate", "-n", "2", "--seed", "1", "--size", "4"],
    "rate": ["rate", "{puzzles}"],
    "explain": ["explain", "{puzzles}"],
    "hint": ["hint", "{puzzles}"],
    "print": ["print", "{puzzles}", "--no-rate", "-o", "-"],
    "serve": ["serve", "--port", "{port}"],  # the address it announces is its output
    "canon": ["canon", "{puzzles}"],
    "bank": ["bank", "stats", "--bank", "{bank}"],
    "warm-up": ["warm-up", "--list"],
}

#: The same commands writing into ``-o FILE`` (``{out}``), for those that have it.
TO_FILE: dict[str, list[str]] = {
    "solve": ["solve", "{puzzles}", "--cluster", "local:1", "-o", "{out}"],
    "rate": ["rate", "{puzzles}", "--cluster", "local:1", "-o", "{out}"],
    "generate": ["generate", "-n", "1", "--cluster", "local:1", "-o", "{out}"],
    "print": ["print", "{puzzles}", "--no-rate", "-o", "{out}"],
    "canon": ["canon", "{puzzles}", "--cluster", "local:1", "-o", "{out}"],
}


def _commands() -> list[str]:
    return cli.list_commands(click.Context(cli))


def _has_output_option(name: str) -> bool:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    return any("-o" in param.opts for param in command.params)


def _args(template: list[str], tmp_path, out: str = "/dev/full") -> list[str]:
    puzzles = tmp_path / "one.txt"
    puzzles.write_text(GOOD + "\n")
    bank = tmp_path / "bank.sqlite"
    if "{bank}" in template and not bank.exists():  # a bank holding that puzzle
        subprocess.run([*SUDOKU, "bank", "add", "--bank", str(bank), str(puzzles)], check=True, capture_output=True,
                       timeout=120)
    return [a.format(puzzles=puzzles, port=_free_port(), out=out, bank=bank) for a in template]


def _to_full(args: list[str]) -> subprocess.CompletedProcess:
    with open("/dev/full", "wb") as full:
        return subprocess.run([*SUDOKU, *args], stdin=subprocess.DEVNULL, stdout=full, stderr=subprocess.PIPE,
                              timeout=120)


def _to_closed_pipe(args: list[str]) -> subprocess.CompletedProcess:
    """``sudoku ARGS | head -0``: the reader is gone before the first byte."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([*SUDOKU, *args], stdin=subprocess.DEVNULL, stdout=write, stderr=subprocess.PIPE,
                              timeout=120)
    finally:
        os.close(write)


def _clean(err: bytes) -> None:
    for word in (b"Traceback", b"internal error", b"Exception ignored", b"Error in atexit"):
        assert word not in err, err.decode(errors="replace")


def _full(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert b"cannot write output: " in done.stderr, done.stderr
    _clean(done.stderr)


def _quiet(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 0, (done.returncode, done.stderr)
    _clean(done.stderr)


def test_every_command_has_its_runs() -> None:
    commands = _commands()
    assert set(RUN) == set(commands), "a command without a row in RUN"
    assert set(TO_FILE) == {name for name in commands if _has_output_option(name)}, "-o without a row in TO_FILE"


@pytest.mark.parametrize("name", sorted(RUN))
def test_stdout_to_a_full_disk(name: str, tmp_path) -> None:
    _full(_to_full(_args(RUN[name], tmp_path)))


@pytest.mark.parametrize("name", sorted(TO_FILE))
def test_output_file_on_a_full_disk(name: str, tmp_path) -> None:
    done = subprocess.run([*SUDOKU, *_args(TO_FILE[name], tmp_path)], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=120)
    _full(done)
    assert b"/dev/full" in done.stderr  # the file is named
    assert done.stdout == b""


@pytest.mark.parametrize("name", [None, *sorted(RUN)])
def test_help_to_a_full_disk(name: str | None) -> None:
    _full(_to_full([name, "--help"] if name else ["--help"]))


@pytest.mark.parametrize("name", sorted(RUN))
def test_stdout_to_a_closed_pipe(name: str, tmp_path) -> None:
    _quiet(_to_closed_pipe(_args(RUN[name], tmp_path)))


@pytest.mark.parametrize("name", [None, *sorted(RUN)])
def test_help_to_a_closed_pipe(name: str | None) -> None:
    _quiet(_to_closed_pipe([name, "--help"] if name else ["--help"]))


def test_version_both_ways() -> None:
    _full(_to_full(["--version"]))
    _quiet(_to_closed_pipe(["--version"]))


@pytest.mark.slow
def test_a_merge_into_a_device_writes_into_it(tmp_path) -> None:
    """``--merge FILE`` into something that is not a regular file (a named pipe here, /dev/full or
    /dev/stdout for a user) writes into it; it is never replaced by a file."""
    import stat
    import threading

    fifo = tmp_path / "merged"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    args = _args(["solve", "{puzzles}", "--cluster", "local:1", "--format", "line", "-o", str(tmp_path / "out"),
                  "--merge", str(fifo)], tmp_path)
    done = subprocess.run([*SUDOKU, *args], stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    from reference import obeys_rules

    line = got[0].decode().strip()
    puzzle = [int(c) if c != "." else 0 for c in GOOD]
    assert len(line) == 81 and obeys_rules([int(c) for c in line], puzzle, 3, 3)
