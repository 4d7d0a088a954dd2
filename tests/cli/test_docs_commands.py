"""Every ``sudoku ...`` command line in README.md and docs/*.md runs, and ends with status 0 (or
the status the docs show for it).

The lines come from the documents' code blocks (in ``console`` blocks, the ``$ `` lines). Each
runs with bash in a fresh folder holding small inputs made for it: the files it names
(``puzzles.txt``, ``cages.txt``, ``killers.jsonl``...), and standard input when it reads ``-``
from no pipe. Which puzzles depends on the rules the line names (X, windoku, a jigsaw layout for
``LAYOUT``, a killer's cages), so that every line can succeed. The exceptions are listed in
:data:`SKIPPED`, each with its reason; the lines that take long run under ``-m slow``; a fast
sample (the README's first steps) runs in the default suite.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: Lines not run, with why (reviewed: nothing else may be left out).
SKIPPED = {
    "sudoku serve": "runs until Ctrl-C (its port check is tests/cli/test_alike.py)",
    "--cluster tcp://": "needs a dask scheduler on another machine",
    "sudoku generate [-n N]": "a synopsis, not a command",
}

#: Lines that take long (a local cluster starting, filters that try many puzzles).
LONG = ("--cluster local", "--difficulty fiendish", "--generate 24")

#: The status the docs show for a line (default 0).
EXPECTED = {
    "sudoku bad.txt --format jsonl --timeout 10": 1,  # the docs' three bad puzzles
    "sudoku --method nosuch -": 2,
    "sudoku solve --example minimal --method dfs --nodes 50": 1,  # the node limit is reached
    "sudoku solve --example diabolical --method clauses --format candidates": 1,  # logic only: stuck
}

#: The three puzzles docs/cli.md shows failing in three ways.
BAD = ["53..7....6..195....98....6.8...6...34228.3..17...2...6.6....28....419..5....8..79",
       "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.", "12345"]


def _lines() -> list[tuple[str, int, str]]:
    """(document, line number, command) of every command line in a code block."""
    found = []
    for path in DOCUMENTS:
        inside, console = False, False
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = raw.strip()
            if text.startswith("```"):
                inside, console = not inside, text[3:].strip() == "console"
                continue
            if not inside:
                continue
            if console:
                if not text.startswith("$ "):
                    continue
                text = text[2:]
            if not (text.startswith("sudoku") or re.search(r"\|\s*sudoku\b", text)):
                continue
            command = re.sub(r"\s+#\s.*$", "", text).strip()  # a trailing comment
            found.append((path.relative_to(ROOT).as_posix(), number, command))
    return found


LINES = _lines()


def _skip_reason(command: str) -> str | None:
    return next((why for key, why in SKIPPED.items() if key in command), None)


def _marks(command: str) -> list:
    if _skip_reason(command):
        return [pytest.mark.skip(reason=_skip_reason(command))]
    if any(key in command for key in LONG):
        return [pytest.mark.slow]
    return []


# -- inputs -----------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _made(variant: str | None, regions: str | None, n: int = 2) -> tuple[str, ...]:
    """Puzzle lines of these rules, made by the generator (quick to rate: minimal for logic)."""
    from sudokit import generate_many

    minimal = "unique" if variant and "killer" in variant else "logic"
    return tuple(p.puzzle.line() for p in generate_many(n, variant=variant, regions=regions, minimal=minimal,
                                                         seed=5))


@lru_cache(maxsize=None)
def _layout() -> str:
    from sudokit.variants import random_layout

    return random_layout("3x3", 3)


@lru_cache(maxsize=None)
def _killer(variant: str) -> tuple[str, str]:
    """(cages text, its blank puzzle) of a generated killer with no givens."""
    from sudokit import generate_many
    from sudokit.killer import render_cages

    puzzle = next(iter(generate_many(1, variant=variant, seed=1))).puzzle
    return render_cages(puzzle.geometry.cages, 9), puzzle.line()


@lru_cache(maxsize=None)
def _marks_grid() -> str:
    """A pencil-mark grid a hint steps from (the candidates of the diabolical example)."""
    from sudokit.examples import example
    from sudokit.formats import render

    return render(example("diabolical"), "candidates")


def _prepare(command: str, folder: Path) -> tuple[str, str | None]:
    """Write the files ``command`` names into ``folder``; the command as run, and its stdin."""
    x = re.search(r"--variant\s+\S*x", command) is not None
    hyper = "--variant hyper" in command
    jigsaw = "LAYOUT" in command
    killer = "--cages" in command
    layout = _layout() if jigsaw else None
    command = command.replace("LAYOUT", layout) if layout else command
    names = ",".join(n for n, on in (("x", x), ("hyper", hyper)) if on) or None
    if killer:
        cages, blank = _killer("killer,x" if x else "killer")
        (folder / "cages.txt").write_text(cages + "\n")
        puzzles = [blank]
    else:
        puzzles = list(_made(names, layout))
    text = "\n".join(puzzles) + "\n"
    for name in ("puzzles.txt", "big.txt"):
        (folder / name).write_text(text)
    (folder / "puzzle.txt").write_text(puzzles[0] + "\n")
    (folder / "grid.txt").write_text(puzzles[0] + "\n")
    (folder / "blank.txt").write_text("." * 81 + "\n")
    (folder / "bad.txt").write_text("\n".join(BAD) + "\n")
    (folder / "marks.txt").write_text(_marks_grid() + "\n")
    (folder / "data").mkdir()
    (folder / "data" / "a.txt").write_text(text)
    if "killers.jsonl" in command and "> killers.jsonl" not in command:
        from sudokit import generate_many
        from sudokit.formats import render

        killers = [render(p.puzzle, "jsonl") for p in generate_many(2, variant="killer", seed=1)]
        (folder / "killers.jsonl").write_text("\n".join(killers) + "\n")
    reads_dash = re.search(r"(^|\s)-(\s|$)", command.split("|")[-1]) is not None
    # `sudoku solve --variant x --regions LAYOUT --count`: no file named, so standard input
    names_none = command.startswith("sudoku solve") and not re.search(r"\.(txt|jsonl)\b|--example", command)
    piped = "|" in command or "<" in command
    stdin = text if (reads_dash or names_none) and not piped else None
    return command, stdin


def _shell_with_sudoku(folder: Path) -> dict[str, str]:
    """An environment whose ``sudoku`` is this interpreter running this checkout's command line."""
    bin_dir = folder / ".bin"
    bin_dir.mkdir()
    script = bin_dir / "sudoku"
    script.write_text(f'#!/bin/sh\nexec {sys.executable} -c "import sys; from sudokit.cli import main; '
                      f'sys.exit(main())" "$@"\n')
    script.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return env


def _run(command: str, folder: Path) -> subprocess.CompletedProcess:
    command, stdin = _prepare(command, folder)
    feed = {"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=folder, text=True, capture_output=True,
                          env=_shell_with_sudoku(folder), timeout=600, **feed)


# -- the tests ----------------------------------------------------------------------------


def test_the_documents_hold_the_command_lines() -> None:
    """The extraction finds the lines (a broken pattern would test nothing)."""
    assert len(LINES) >= 60
    commands = {c for _, _, c in LINES}
    assert "sudoku | sudoku -" in commands
    assert any(c.startswith("sudoku print puzzles.txt --paper letter") for c in commands)
    skipped = [c for c in commands if _skip_reason(c)]
    assert all(c.startswith(("sudoku serve", "sudoku rate", "sudoku generate [", "sudoku bank add --cluster tcp"))
               for c in skipped), skipped


#: The default suite's sample: the README's first steps.
SAMPLE = {"sudoku", "sudoku | sudoku -", "sudoku rate puzzles.txt", "sudoku hint < grid.txt",
          "sudoku solve --cages cages.txt blank.txt"}


@pytest.mark.parametrize("where, number, command", [
    pytest.param(w, n, c, marks=_marks(c) + ([] if c in SAMPLE else [pytest.mark.slow]), id=f"{w}:{n}")
    for w, n, c in LINES])
def test_every_documented_command_runs(where: str, number: int, command: str, tmp_path) -> None:
    done = _run(command, tmp_path)
    expected = EXPECTED.get(command, 0)
    assert done.returncode == expected, f"{where}:{number}: {command}\n{done.stderr[-2000:]}"
    for word in ("Traceback", "internal error"):
        assert word not in done.stderr, f"{where}:{number}: {command}\n{done.stderr[-2000:]}"


def test_pictures_without_a_booklet_refuse_booklet_options(tmp_path) -> None:
    """``--paper``/``--per-page`` with only ``--svg-dir`` would be ignored: refused, naming them;
    with ``-o`` the booklet and the pictures are both written."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    done = _run("sudoku print puzzles.txt --paper letter --per-page 6 --svg-dir pictures", first)
    assert done.returncode == 2 and "--paper, --per-page" in done.stderr and "-o FILE" in done.stderr
    assert not (first / "pictures").exists()
    done = _run("sudoku print puzzles.txt --no-rate --paper letter --per-page 6 -o book.pdf --svg-dir pictures",
                second)
    assert done.returncode == 0, done.stderr
    assert (second / "book.pdf").read_bytes().startswith(b"%PDF")
    assert "puzzle-0001.svg" in {p.name for p in (second / "pictures").iterdir()}
