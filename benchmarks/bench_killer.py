"""Killer sudoku: how fast killers are proven unique and made, and what givens buy.

    python benchmarks/bench_killer.py              # 200 generated 9x9 killers per row
    python benchmarks/bench_killer.py -n 500
    python benchmarks/bench_killer.py --only-givens --givens 0,4,8,16 --givens-seeds 20

Two markdown tables, each under the machine line. Solving: ms per puzzle
(CPU time of this process, and wall clock) to prove each killer unique (a
count with limit 2 through ``sudokit.engine.count``, the killer search's
tables built afresh for every puzzle, as a new puzzle needs), mean and
largest search nodes, over the generator's own 9x9 killers (``unique`` and
``minimal="cages"``), killer-X and jigsaw-killer ones, and the published
killers of ``tests/data/published_killers.jsonl`` (each solved 50 times).
Generation: killers per second (wall and CPU, one process) and the counts
each took. Givens: for each number of givens, the cages of the killers of
the same seeds (mean, fewest, most), unique and minimal in their cages, and
the CPU time each took. Compilation is paid before timing starts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_generate import machine  # noqa: E402  (the machine line every benchmark prints)

from sudokit import formats  # noqa: E402
from sudokit.budget import Budget  # noqa: E402
from sudokit.engine import count as engine_count  # noqa: E402
from sudokit.engine import killer as kernel  # noqa: E402
from sudokit.generation.killer import generate_killer  # noqa: E402

PUBLISHED = HERE.parent / "tests" / "data" / "published_killers.jsonl"
LAYOUT = "111222333111222333114222333144555666444556666444555566777888999777888999777888999"

ROWS = {
    "killer, unique": {},
    "killer, minimal in its cages": {"minimal": "cages"},
    "killer-X, unique": {"variant": "x"},
    "jigsaw killer, unique": {"regions": LAYOUT},
}


def solve_row(label: str, grids: list, repeat: int = 1) -> None:
    times, walls, nodes = [], [], []
    for grid in grids:
        for _ in range(repeat):
            kernel.tables.cache_clear()  # a new puzzle builds its tables: count that too
            budget = Budget()
            cpu, wall = time.process_time(), time.perf_counter()
            found, _ = engine_count(grid, 2, budget)
            times.append(time.process_time() - cpu)
            walls.append(time.perf_counter() - wall)
            nodes.append(budget.nodes_used)
            assert found == 1, f"{label}: a killer with {found} solutions"
    print(f"| {label} | {len(grids)} | {1e3 * statistics.mean(times):.2f} | {1e3 * statistics.median(times):.2f} | "
          f"{1e3 * max(times):.1f} | {1e3 * statistics.mean(walls):.2f} | {statistics.mean(nodes):.0f} | "
          f"{max(nodes)} |", flush=True)


def givens_table(counts: list[int], seeds: int) -> None:
    """Cages and time of the killers of seeds 1..``seeds`` with each number of givens."""
    print(f"machine: {machine()}\n")
    print("| 9x9 killer | givens | killers | mean cages | fewest | most | mean cells a cage | s CPU mean | "
          "s CPU median | counts per killer |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for minimal in ("unique", "cages"):
        for k in counts:
            cages, cpu, used = [], [], []
            for seed in range(1, seeds + 1):
                start = time.process_time()
                made = generate_killer(seed, minimal=minimal, givens=k)
                cpu.append(time.process_time() - start)
                cages.append(len(made.puzzle.geometry.cages))
                used.append(made.extra["counts"])
            label = "unique" if minimal == "unique" else "minimal in its cages"
            print(f"| {label} | {k} | {seeds} | {statistics.mean(cages):.2f} | {min(cages)} | {max(cages)} | "
                  f"{81 / statistics.mean(cages):.2f} | {statistics.mean(cpu):.3f} | {statistics.median(cpu):.3f} | "
                  f"{statistics.mean(used):.1f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=200, help="killers per generated row")
    parser.add_argument("--givens", default="0,4,8,16", help="numbers of givens of the givens table")
    parser.add_argument("--givens-seeds", type=int, default=20, help="seeds (1..N) of the givens table")
    parser.add_argument("--only-givens", action="store_true", help="print the givens table alone")
    args = parser.parse_args()
    generate_killer(999_999)  # compile or load the kernels
    givens = [int(k) for k in args.givens.split(",") if k.strip()]
    if args.only_givens:
        givens_table(givens, args.givens_seeds)
        return
    made: dict[str, list] = {}
    print(f"machine: {machine()}\n")
    print("| 9x9 killers, no givens | made | per s (wall) | per s (CPU) | counts per killer | mean cages |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, options in ROWS.items():
        n = args.n if options.get("minimal") != "cages" else max(1, args.n // 4)
        generate_killer(999_998, **options)
        wall, cpu = time.perf_counter(), time.process_time()
        puzzles = [generate_killer(seed, **options) for seed in range(1, n + 1)]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        made[label] = puzzles
        print(f"| {label} | {n} | {n / wall:,.1f} | {n / cpu:,.1f} | "
              f"{statistics.mean(p.extra['counts'] for p in puzzles):.1f} | "
              f"{statistics.mean(len(p.puzzle.geometry.cages) for p in puzzles):.1f} |", flush=True)
    print(f"\nmachine: {machine()}\n")
    print("| proving unique (count to 2) | puzzles | ms CPU mean | ms CPU median | ms CPU max | ms wall mean | "
          "nodes mean | nodes max |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, puzzles in made.items():
        solve_row(label, [p.puzzle for p in puzzles])
    published = [formats.parse(line) for line in PUBLISHED.read_text().splitlines() if line.strip()]
    solve_row("published killers (x50 each)", published, repeat=50)
    print()
    givens_table(givens, args.givens_seeds)


if __name__ == "__main__":
    main()
