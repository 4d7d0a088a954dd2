"""Shared fixtures: paths to the ground-truth data beside the project."""

from __future__ import annotations

import csv
import gzip
import json
import os
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _shared_places() -> list[Path]:
    """Where the ground truth may be: $SUDOKIT_SHARED, ``../shared`` beside this checkout,
    or beside the repository it was cloned from (a clean clone made elsewhere)."""
    places = [Path(os.environ["SUDOKIT_SHARED"])] if os.environ.get("SUDOKIT_SHARED") else []
    places.append(ROOT.parent / "shared")
    try:
        origin = subprocess.run(["git", "-C", str(ROOT), "config", "--get", "remote.origin.url"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        origin = ""
    if origin and Path(origin).is_dir():
        places.append(Path(origin).resolve().parent / "shared")
    return places


PLACES = _shared_places()
SHARED = next((p for p in PLACES if (p / "data").is_dir()), PLACES[0]) / "data"
CASES = SHARED / "cases"
BENCH = SHARED / "bench"
RATED = SHARED / "rated"


def load_counts() -> list[dict[str, str]]:
    """Rows of cases/counts.tsv: puzzle, count ('0', '1', ..., '>1'), solution, source."""
    with open(CASES / "counts.tsv", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


@lru_cache(maxsize=None)
def rated_traces() -> list[dict]:
    """Sudoku Explainer's solving paths for the 500 rated puzzles (rated/se_dev_steps.jsonl.gz)."""
    with gzip.open(RATED / "se_dev_steps.jsonl.gz", "rt") as fh:
        return [json.loads(line) for line in fh]


@lru_cache(maxsize=None)
def rated_reference() -> list[dict[str, str]]:
    """Rows of rated/se_dev.tsv: id, puzzle, solution, er, ep, ed, er_technique."""
    with open(RATED / "se_dev.tsv", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def load_multisize() -> list[dict]:
    return json.loads((CASES / "multisize.json").read_text())


def bench_sample(name: str, count: int, step: int | None = None) -> list[str]:
    """Every ``step``-th line of a benchmark file, ``count`` lines in all."""
    lines = (BENCH / name).read_text().split()
    step = step or max(1, len(lines) // count)
    return lines[::step][:count]


@pytest.fixture(scope="session")
def counts_cases() -> list[dict[str, str]]:
    return load_counts()


@pytest.fixture(scope="session")
def multisize_cases() -> list[dict]:
    return load_multisize()


def se_step(s: dict) -> tuple[tuple, list]:
    """One step of an SE trace as (placements, sorted removals) of (cell, value)."""
    placements = ((s["cell"], s["value"]),) if s["cell"] is not None and s["cell"] >= 0 else ()
    removals = sorted((r["cell"], v) for r in s["removals"] for v in r["values"])
    return placements, removals


def apply_se_step(state, s: dict) -> None:
    """Make SE's step ``s`` on a :class:`sudokit.logic.Candidates` state."""
    placements, removals = se_step(s)
    for cell, value in removals:
        state.eliminate(cell, value)
    for cell, value in placements:
        state.place(cell, value)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Stop at once, with a clear message, when the ground truth is nowhere to be found."""
    if not SHARED.is_dir():
        looked = ", ".join(str(p) for p in PLACES)
        pytest.exit(f"the shared test data (shared/data) is not in any of: {looked}; "
                    "set SUDOKIT_SHARED to the directory that holds data/", returncode=4)
