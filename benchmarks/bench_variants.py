"""Variants: how fast X, hyper and jigsaw puzzles are made and solved, beside classic ones.

    python benchmarks/bench_variants.py            # 9x9, 500 puzzles per row
    python benchmarks/bench_variants.py -n 2000

Two markdown tables. Generation: puzzles per second (wall clock and CPU time
of this process, one process), mean clue count, for minimal unique 9x9
puzzles of each variant (jigsaw with one fixed layout, and with a fresh
random layout per puzzle). Solving: µs per puzzle to prove the generated
puzzles unique (count with limit 2) on the engine and with Crook's method,
and the engine's ratio to classic puzzles made the same way. Compilation is
paid before timing starts.
"""

from __future__ import annotations

import argparse
import statistics
import time

from sudokit.budget import Budget
from sudokit.engine import count as engine_count
from sudokit.generation import generate_many
from sudokit.solving import count

from bench_generate import machine  # the machine line every benchmark prints (this folder is on the path)

#: 9x9 regions: the boxes with r3c3/r4c1 traded between boxes 1 and 4, and r5c6/r6c7 between 5 and 6.
LAYOUT = "111222333111222333114222333144555666444556666444555566777888999777888999777888999"

ROWS = {
    "classic": {},
    "x": {"variant": "x"},
    "hyper": {"variant": "hyper"},
    "jigsaw (one layout)": {"regions": LAYOUT},
    "jigsaw (a layout per puzzle)": {"regions": "random"},
    "x + jigsaw (one layout)": {"variant": "x", "regions": LAYOUT},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=500, help="puzzles per row")
    parser.add_argument("--crook", type=int, default=50, help="puzzles per row solved by Crook's method")
    args = parser.parse_args()
    print(f"machine: {machine()}\n")
    made = {}
    print("| 9x9, minimal unique | puzzles | per s (wall) | per s (CPU) | mean clues |")
    print("|---|---:|---:|---:|---:|")
    for label, options in ROWS.items():
        list(generate_many(2, seed=999_999, **options))  # compile or load the kernels first
        wall, cpu = time.perf_counter(), time.process_time()
        puzzles = list(generate_many(args.n, seed=1, **options))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        made[label] = puzzles
        print(f"| {label} | {args.n} | {args.n / wall:,.0f} | {args.n / cpu:,.0f} | "
              f"{statistics.mean(p.clues for p in puzzles):.1f} |", flush=True)
    print(f"\nmachine: {machine()}\n")
    print("| 9x9 puzzles made above | engine µs/puzzle | engine / classic | Crook's method µs/puzzle |")
    print("|---|---:|---:|---:|")
    classic = None
    for label, puzzles in made.items():
        grids = [p.puzzle for p in puzzles]
        for grid in grids[:3]:
            engine_count(grid, 2, Budget())
        start = time.process_time()
        for grid in grids:
            found, _ = engine_count(grid, 2, Budget())
            assert found == 1, (label, grid.line())
        engine = 1e6 * (time.process_time() - start) / len(grids)
        classic = engine if classic is None else classic
        start = time.process_time()
        for grid in grids[: args.crook]:
            assert count(grid, limit=2, method="preemptive").count == 1
        crook = 1e6 * (time.process_time() - start) / min(len(grids), args.crook)
        print(f"| {label} | {engine:,.1f} | {engine / classic:.1f} | {crook:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
