"""Killer logic: the share of killers the killer ladder solves, and the time a rating takes.

    python benchmarks/bench_killer_logic.py            # 100 generated 9x9 killers per row
    python benchmarks/bench_killer_logic.py -n 40

For each killer (the generator's, no givens, seeds 1..n; and the three published killers of
``tests/data/published_killers.jsonl``): ``sudokit.logic.rate`` with its default budget, timed
(CPU of this process and wall clock). ``rate`` checks every step against the one solution the
engine finds, so a wrong step would stop the run. A killer is *solved* when the ladder fills the
grid (the rating is not a lower bound). The rows: the share solved, the mean and median time
per killer (all of them, and the solved ones), the ratings' spread, and which technique set ER.
Then, over the 9x9 row, how often each technique is taken on the path (``solve_path``) and on
how many paths: those using Cage Contradiction are the killers the ladder solves only with its
trial.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_generate import machine  # noqa: E402  (the machine line every benchmark prints)

from sudokit import variants  # noqa: E402
from sudokit.generation.killer import generate_killer  # noqa: E402
from sudokit.grid import Grid, Shape  # noqa: E402
from sudokit.logic import rate  # noqa: E402
from sudokit.logic.rating import solve_path, truth  # noqa: E402

PUBLISHED = HERE.parent / "tests" / "data" / "published_killers.jsonl"


def published() -> list[Grid]:
    out = []
    for line in PUBLISHED.read_text().splitlines():
        record = json.loads(line)
        out.append(Grid(record["puzzle"]).with_geometry(variants.from_fields(Shape(3, 3), record)))
    return out


def measure(label: str, grids: list[Grid]) -> tuple[str, Counter]:
    cpu, wall, solved_cpu = [], [], []
    solved = 0
    ers: list[float] = []
    hardest: Counter = Counter()
    for grid in grids:
        c0, w0 = time.process_time(), time.perf_counter()
        r = rate(grid)
        c1, w1 = time.process_time(), time.perf_counter()
        cpu.append(c1 - c0)
        wall.append(w1 - w0)
        if not r.lower_bound:
            solved += 1
            solved_cpu.append(c1 - c0)
            ers.append(r.er)
            hardest[r.hardest] += 1
    n = len(grids)
    spread = f"{min(ers):.1f}-{statistics.median(ers):.1f}-{max(ers):.1f}" if ers else "-"
    top = ", ".join(f"{name} {k}" for name, k in hardest.most_common(3))
    row = (f"| {label} | {n} | {solved} ({100 * solved / n:.0f}%) | {1000 * statistics.mean(cpu):.0f} | "
           f"{1000 * statistics.median(cpu):.0f} | {1000 * max(cpu):.0f} | "
           f"{1000 * statistics.mean(solved_cpu) if solved_cpu else 0:.0f} | {1000 * statistics.mean(wall):.0f} | "
           f"{spread} | {top} |")
    return row, hardest


def techniques(grids: list[Grid]) -> tuple[Counter, Counter]:
    """How often each technique is taken on the paths, and on how many paths."""
    used: Counter = Counter()
    paths: Counter = Counter()
    for grid in grids:
        path, _, _ = solve_path(grid, truth=truth(grid))
        used.update(step.technique for step in path)
        paths.update({step.technique for step in path})
    return used, paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100, help="generated killers per row")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.n)
    rows = {
        "9x9 killer": [generate_killer(s).puzzle for s in seeds],
        "6x6 killer": [generate_killer(s, shape="2x3").puzzle for s in seeds],
        "9x9 killer-X": [generate_killer(s, variant="x").puzzle for s in seeds[: max(1, args.n // 2)]],
        "published 9x9 killers": published(),
    }
    rate(rows["published 9x9 killers"][0])  # the engine's kernels loaded before timing
    print(machine())
    print()
    print("| killers | n | solved by the ladder | ms CPU mean | median | max | ms CPU mean, solved | ms wall mean "
          "| ER min-median-max (solved) | ER set by (solved) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for label, grids in rows.items():
        row, _ = measure(label, grids)
        print(row, flush=True)
    print()
    used, paths = techniques(rows["9x9 killer"])
    total = sum(used.values())
    print(f"| technique ({len(rows['9x9 killer'])} 9x9 killers' paths) | steps | share of steps | paths using it |")
    print("|---|---:|---:|---:|")
    for name, k in used.most_common():
        print(f"| {name} | {k} | {100 * k / total:.1f}% | {paths[name]} |")
    print()
    print(machine())


if __name__ == "__main__":
    main()
