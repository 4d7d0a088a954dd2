"""The benchmarks without the shared data: each one that reads it prints one line naming what is
missing and exits 2 (no traceback), and every one finds the data through benchmarks/shared_data.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
#: The scripts that need the shared data, with arguments that keep a run short if it had it.
NEEDS_DATA = {
    "bench_engine.py": ["--quick"],
    "bench_rating.py": [],
    "bench_cluster.py": [],
    "bench_batch.py": ["--quick"],
    "bench_methods.py": [],
    "bench_variant_rating.py": [],
    "bench_bank.py": ["--add", "1000", "--rows", "0"],
    "bench_canon.py": [],
}


def test_every_script_that_reads_the_data_is_listed_and_uses_the_helper() -> None:
    users = set()
    for script in BENCHMARKS.glob("*.py"):
        if script.name == "shared_data.py":
            continue
        text = script.read_text()
        assert "SUDOKIT_SHARED\"]" not in text and '"shared" /' not in text and "/ \"shared\"" not in text, \
            f"{script.name} looks for the shared data itself: use shared_data.py"
        if re.search(r"^from shared_data import .*\brequire\b", text, re.M):
            users.add(script.name)
    assert users == set(NEEDS_DATA)


@pytest.mark.parametrize("script", sorted(NEEDS_DATA))
def test_a_benchmark_without_the_data_says_so_in_one_line(script: str, tmp_path: Path) -> None:
    env = dict(os.environ, SUDOKIT_SHARED=str(tmp_path))
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *NEEDS_DATA[script]], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"{script}: missing shared data {tmp_path}" in lines[0] and "SUDOKIT_SHARED" in lines[0]
