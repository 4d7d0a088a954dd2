"""The generator's first run: `sudoku generate -n 1` with an empty numba cache, per rule and shape.

Each command runs in a child process with a fresh ``NUMBA_CACHE_DIR``, so it
compiles every kernel it uses, as after a fresh install. Reported: wall
seconds and the child's user CPU seconds (on a shared machine the CPU time is
the fairer figure: the wall clock grows with the other jobs), and then a warm
run of the same command (the cache filled by the cold one).

    python benchmarks/bench_generate_cold.py            # every row
    python benchmarks/bench_generate_cold.py unique     # rows whose label contains "unique"
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROWS = [
    ("unique, 9x9", ["-n", "1"]),
    ("logic, 9x9", ["-n", "1", "--minimal", "logic"]),
    ("preemptive, 9x9", ["-n", "1", "--minimal", "preemptive"]),
    ("unique, 2x3", ["-n", "1", "--box", "2x3"]),
    ("unique, 4x4", ["-n", "1", "--box", "4x4"]),
    ("logic, 2x3", ["-n", "1", "--box", "2x3", "--minimal", "logic"]),
    ("preemptive, 4x4", ["-n", "1", "--box", "4x4", "--minimal", "preemptive"]),
]


def _run(args: list[str], cache: str) -> tuple[float, float]:
    """(wall, user CPU) seconds of one ``sudoku generate`` child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    start = time.perf_counter()
    code = "import sys; from sudokit.cli import main; sys.argv[0] = 'sudoku'; sys.exit(main())"
    subprocess.run([sys.executable, "-c", code, "generate", *args], env=dict(os.environ, NUMBA_CACHE_DIR=cache, SUDOKIT_KERNEL_STORE="off"),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def main() -> None:
    wanted = sys.argv[1:]
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print("| rule, shape | cold wall s | cold user s | warm wall s | warm user s |")
    print("|---|---:|---:|---:|---:|")
    for label, args in ROWS:
        if wanted and not any(w in label for w in wanted):
            continue
        cache = tempfile.mkdtemp(prefix="numba-cold-")
        try:
            cold = _run(args, cache)
            warm = _run(args, cache)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        print(f"| {label} | {cold[0]:.1f} | {cold[1]:.1f} | {warm[0]:.1f} | {warm[1]:.1f} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
