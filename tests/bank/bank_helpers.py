"""What the bank tests share: puzzles from the shared data as rating records,
random equivalent copies made here (independently of sudokit's canonical
forms), and ``sudoku`` as a real process."""

from __future__ import annotations

import csv
import json
import os
import random
import sqlite3
import subprocess
import sys

from conftest import BENCH, RATED, require_shared

#: ``sudoku`` as a real process, from this interpreter.
SUDOKU = [sys.executable, "-c", "import sys; from sudokit.cli import main; sys.exit(main())"]

LEVELS = ((1.2, "easy"), (1.6, "medium"), (2.5, "hard"), (6.0, "fiendish"), (99.0, "diabolical"))


def level_of(er: float) -> str:
    return next(name for top, name in LEVELS if er <= top + 1e-9)


def shuffled(line: str, rng: random.Random) -> str:
    """A random equivalent copy of a 9x9 puzzle: bands, rows in bands, stacks,
    columns in stacks, maybe a transposition, and a relabelling of the digits."""
    def order() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [3 * b + r for b in bands for r in rng.sample(range(3), 3)]

    rows, cols = order(), order()
    digits = rng.sample("123456789", 9)
    relabel = {str(d + 1): digits[d] for d in range(9)}
    grid = [[line[9 * r + c] for c in cols] for r in rows]
    if rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid)]
    return "".join(relabel.get(ch, ".") for row in grid for ch in row)


def seventeen(count: int) -> list[str]:
    """The first ``count`` puzzles of the 17-clue collection (no two equivalent)."""
    path = require_shared(BENCH / "17_clue.txt")
    out = []
    with open(path) as fh:
        for raw in fh:
            text = raw.strip()
            if text and not text.startswith("#"):
                out.append(text)
                if len(out) == count:
                    break
    return out


def se_rows() -> list[dict[str, str]]:
    """The SE-rated reference puzzles: puzzle, solution, er, ep, ed, er_technique."""
    path = require_shared(RATED / "se_dev.tsv")
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def rating_record(puzzle: str, er: float, hardest: str = "Hidden Single", techniques: list[str] | None = None,
                  **more) -> dict:
    """A record shaped as ``sudoku rate --format jsonl`` writes one."""
    return {"puzzle": puzzle, "status": "rated", "er": er, "ep": min(er, 1.2), "ed": min(er, 1.0),
            "level": level_of(er), "lower_bound": False, "ep_lower_bound": False, "ed_lower_bound": False,
            "hardest": hardest, "techniques": techniques or [hardest], "steps": 40, "score": 500,
            "score_level": "easy", **more}


def write_jsonl(path, records) -> None:
    with open(path, "w") as fh:
        for record in records:
            fh.write(json.dumps(record) + "\n")


def environment() -> dict[str, str]:
    """This process's environment, with PYTHONPATH made absolute (a test may change folder)."""
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    return env


def sudoku(*args: str, input: str | None = None, timeout: float = 300, **kw) -> subprocess.CompletedProcess:
    env = environment()
    return subprocess.run([*SUDOKU, *args], input=input, capture_output=True, text=True, timeout=timeout, env=env,
                          **kw)


def table(path, sql: str, args=()) -> list[tuple]:
    """Rows read straight from the bank file with sqlite3 (not through sudokit)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()
