"""Where the benchmarks find the shared data, and the one message when it is not there.

The data is ``$SUDOKIT_SHARED/data`` when that variable is set (and only there), else
``../shared/data`` beside this checkout, or beside the main checkout of a git worktree:
the places the tests look too (tests/conftest.py). A benchmark calls :func:`require` on
the files it reads before any work; a missing one prints a single line naming it and where
it was looked for, and exits with status 2.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: The exit status of a benchmark run without its data (as a usage error).
MISSING = 2


def places() -> list[Path]:
    """The folders that may hold ``data/``, first choice first."""
    if os.environ.get("SUDOKIT_SHARED"):
        return [Path(os.environ["SUDOKIT_SHARED"])]
    found = [HERE.parent.parent / "shared"]
    try:
        common = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--git-common-dir"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        common = ""
    if common:
        found.append((HERE / common).resolve().parent.parent / "shared")
    return found


def data_dir() -> Path:
    """The shared ``data`` folder (the first place that has one; else where it should be)."""
    options = places()
    return next((p for p in options if (p / "data").is_dir()), options[0]) / "data"


DATA = data_dir()
BENCH = DATA / "bench"
RATED = DATA / "rated"


def require(*paths: Path) -> None:
    """Exit with one line and status 2 unless every path exists."""
    for path in paths:
        if not path.exists():
            where = ", ".join(str(p) for p in places())
            print(f"{Path(sys.argv[0]).name}: missing shared data {path} (looked in {where}; set "
                  "SUDOKIT_SHARED to the folder that holds data/)", file=sys.stderr)
            raise SystemExit(MISSING)
