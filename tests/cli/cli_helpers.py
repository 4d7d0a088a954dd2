"""What the command-line tests share: running ``sudoku`` in process (click's
runner) or as a real process, and reading its output independently of sudokit."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from reference import units

from sudokit.cli import cli

DIGITS = "123456789"

#: A well-formed puzzle with one solution.
GOOD = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

#: ``sudoku`` as a real process, from this interpreter (no installed script needed).
SUDOKU = [sys.executable, "-c", "import sys; from sudokit.cli import main; sys.exit(main())"]


def run(*args: str, input: str | bytes | None = None):
    """``sudoku ARGS`` in process: never a traceback, never an exception but an exit."""
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def sudoku(*args: str, input: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """The installed ``sudoku`` script, as a user runs it."""
    return subprocess.run(["sudoku", *args], input=input, capture_output=True, text=True, timeout=timeout)


def records(result) -> list[dict]:
    """The jsonl records a command wrote on stdout."""
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def values_of(text: str, alphabet: str = DIGITS) -> list[int]:
    """A puzzle line as values, read independently of sudokit."""
    return [alphabet.index(ch) + 1 if ch in alphabet else 0 for ch in text]


def clashes(puzzle: str) -> bool:
    """True when two givens of a 9x9 puzzle share a unit (checked here, not by sudokit)."""
    vals = values_of(puzzle)
    for unit in units(3, 3):
        seen = [vals[c] for c in unit if vals[c]]
        if len(seen) != len(set(seen)):
            return True
    return False


def blocks(output: str) -> list[tuple[list[str], list[str]]]:
    """(puzzle rows, solution rows) of every classic ===/---/=== block."""
    found, lines, i = [], output.splitlines(), 0
    while i < len(lines):
        if lines[i].startswith("="):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("="))
            body = lines[i + 1:end]
            cut = next(k for k, line in enumerate(body) if line.startswith("-"))
            found.append((body[:cut], body[cut + 1:]))
            i = end + 1
        else:
            i += 1
    return found


def spaced_to_line(rows: list[str]) -> str:
    """The spaced rows of a block as one puzzle line."""
    return "".join("".join(row.split()) for row in rows)
