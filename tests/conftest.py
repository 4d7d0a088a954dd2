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
#: Ground truth bundled with the repository (see tests/data/README.md).
BUNDLED = ROOT / "tests" / "data"
HAVE_SHARED = SHARED.is_dir()


def _shared_reason(path: Path) -> str:
    shown = path.relative_to(SHARED.parent) if HAVE_SHARED and path.is_relative_to(SHARED.parent) else path.name
    return (f"needs {shown} from the shared data, "
            f"which is not bundled (see tests/data/README.md); looked in: {', '.join(str(p) for p in PLACES)}; "
            "set SUDOKIT_SHARED to the directory that holds data/")


def require_shared(path: Path) -> Path:
    """``path`` under the shared data, or skip the calling test with the reason.

    Every test that reads the shared data asks here (or through a helper below that does), so
    that a skip is decided by the file's presence alone: a misspelt name, or any other
    missing file, fails the test."""
    if not path.exists():
        pytest.skip(_shared_reason(path), allow_module_level=True)
    return path


def load_counts() -> list[dict[str, str]]:
    """Rows of cases/counts.tsv: puzzle, count ('0', '1', ..., '>1'), solution, source.

    The full file from the shared data when it is there, else the bundled tdoku cases.
    """
    if (CASES / "counts.tsv").exists():
        with open(CASES / "counts.tsv", newline="") as fh:
            return list(csv.DictReader(fh, delimiter="\t"))
    with open(BUNDLED / "counts.tsv", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return rows + _clashing(rows)


def _clashing(rows: list[dict[str, str]], count: int = 3) -> list[dict[str, str]]:
    """Cases with clashing givens (no solution, by the rules), made from the first unique
    tdoku puzzles by copying a given into a blank cell of its row: the shared set has
    Sudopedia's, which are not bundled."""
    out = []
    for row in rows:
        if row["count"] != "1" or len(out) == count:
            continue
        cells = list(row["puzzle"])
        for r in range(9):
            line = range(9 * r, 9 * r + 9)
            given = next((c for c in line if cells[c] not in ".0"), None)
            blank = next((c for c in line if cells[c] in ".0"), None)
            if given is not None and blank is not None:
                cells[blank] = cells[given]
                out.append({"puzzle": "".join(cells), "count": "0", "solution": "",
                            "source": f"{row['source']}, a given copied into its row (clashing givens)"})
                break
    return out


@lru_cache(maxsize=None)
def _rated_traces() -> list[dict]:
    with gzip.open(RATED / "se_dev_steps.jsonl.gz", "rt") as fh:
        return [json.loads(line) for line in fh]


def rated_traces() -> list[dict]:
    """Sudoku Explainer's solving paths for the 500 rated puzzles (rated/se_dev_steps.jsonl.gz)."""
    require_shared(RATED / "se_dev_steps.jsonl.gz")
    return _rated_traces()


@lru_cache(maxsize=None)
def _rated_reference() -> list[dict[str, str]]:
    with open(RATED / "se_dev.tsv", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def rated_reference() -> list[dict[str, str]]:
    """Rows of rated/se_dev.tsv: id, puzzle, solution, er, ep, ed, er_technique."""
    require_shared(RATED / "se_dev.tsv")
    return _rated_reference()


def load_multisize() -> list[dict]:
    """Entries of cases/multisize.json: the full file when shared, else the bundled Games-Sudoku-Lite ones."""
    path = CASES / "multisize.json" if (CASES / "multisize.json").exists() else BUNDLED / "multisize.json"
    return json.loads(path.read_text())


def bench_sample(name: str, count: int, step: int | None = None) -> list[str]:
    """Every ``step``-th line of a benchmark file, ``count`` lines in all."""
    lines = require_shared(BENCH / name).read_text().split()
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


#: Under continuous integration (``CI=true``) a missing browser fails the run instead of skipping.
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def require_browser(executable: str):  # type: ignore[no-untyped-def]
    """Playwright's sync API, with ``executable`` (a Chromium) there to drive; otherwise skip
    with the reason, or fail under ``CI=true``, where the browser tests must run."""
    missing = None
    if not Path(executable).exists():
        missing = f"no browser at {executable}: install one with `apt-get install -y chromium`"
    else:
        try:
            import playwright.sync_api as api
        except ImportError as exc:
            missing = f"playwright is not installed ({exc}): pip install -e '.[test]'"
    if missing is not None:
        if IN_CI:
            pytest.fail(f"CI=true: {missing}", pytrace=False)
        pytest.skip(missing)
    return api


@pytest.fixture
def chain_kernels_loaded(monkeypatch):  # type: ignore[no-untyped-def]
    """The chain searches' and the nested levels' kernels compiled (or loaded) before a test
    calls them under a chain budget: on an empty numba cache the first call compiles, and that
    time would count against the budget. The modules' switches are put back afterwards."""
    pytest.importorskip("numba")
    from sudokit.logic import chains, kernel_groups, nested

    monkeypatch.setattr(chains, "_KERNELS", chains._KERNELS)
    monkeypatch.setattr(nested, "_NK", nested._NK)
    kernel_groups.warm_nested()
