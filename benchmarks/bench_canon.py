"""Canonical forms: puzzles per second of the 9x9 kernel, one core, on the shared data sets.

Each set is read once, then each form runs over the whole set in one compiled call (the path
of ``sudoku canon``), ``--repeat`` times; the best CPU time (``time.process_time``) is kept.
Grids are the solutions of ``magictour_top1465`` (solved first, not timed). The table gives
µs/puzzle, puzzles/s, and the share of puzzles that a set's own line already has in that form.

    python benchmarks/bench_canon.py            # every set, both forms
    python benchmarks/bench_canon.py --quick    # 2,000 puzzles of each
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
from shared_data import DATA as SHARED, require  # noqa: E402  (benchmarks/shared_data.py)


def _lines(path: Path, column: int | None = None) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("id\t"):
            continue
        out.append(line.split("\t")[column] if column is not None else line.split()[0])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2,000 puzzles of each set")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    require(*(SHARED / part for part in ("bench/17_clue.txt", "bench/forum_hardest_1905_11plus.txt",
                                         "rated/hard_dev.tsv", "bench/magictour_top1465.txt")))

    sys.path.insert(0, str(ROOT / "src"))
    from sudokit.batch import parse_lines, solve_many
    from sudokit.canon.kernel import MINLEX, PATMINLEX, canonicalise, warm

    start = time.perf_counter()
    warm()
    print(f"kernel loaded in {time.perf_counter() - start:.1f} s")
    sets = {
        "17_clue": _lines(SHARED / "bench" / "17_clue.txt"),
        "forum_hardest_1905_11plus": _lines(SHARED / "bench" / "forum_hardest_1905_11plus.txt"),
        "hard_dev": _lines(SHARED / "rated" / "hard_dev.tsv", column=1),
    }
    tops, _ = parse_lines(_lines(SHARED / "bench" / "magictour_top1465.txt"))
    grids = solve_many(tops, limit=1).solutions
    rows = []
    for name, lines in sets.items():
        if args.quick:
            lines = lines[:2000]
        values, ok = parse_lines(lines)
        values = values[ok]
        own = np.array([[0 if ch in ".0" else int(ch) for ch in line] for line, good in zip(lines, ok) if good],
                       dtype=np.uint8)
        for form, label in ((PATMINLEX, "patminlex"), (MINLEX, "minlex")):
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.process_time()
                forms, _, counts = canonicalise(values, form)
                best = min(best, time.process_time() - t0)
            same = float((forms == own).all(axis=1).mean())
            rows.append((name, label, len(values), best, same))
    grid_values = grids if not args.quick else grids[:2000]
    best = float("inf")
    for _ in range(args.repeat):
        t0 = time.process_time()
        canonicalise(grid_values, MINLEX)
        best = min(best, time.process_time() - t0)
    rows.append(("magictour_top1465 solutions", "grid minlex", len(grid_values), best, float("nan")))

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}, Python {platform.python_version()}")
    print()
    print("| set | form | puzzles | µs/puzzle | puzzles/s | already in this form |")
    print("|---|---|---:|---:|---:|---:|")
    for name, label, count, seconds, same in rows:
        share = "" if same != same else f"{100 * same:.1f}%"
        print(f"| {name} | {label} | {count:,} | {1e6 * seconds / count:.1f} | {count / seconds:,.0f} | {share} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
