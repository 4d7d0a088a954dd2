"""Time the puzzle generator and check its clue-count statistics.

    python benchmarks/bench_generate.py            # 9x9 table, 16x16
    python benchmarks/bench_generate.py --big 4    # also 25x25, seeds 1..4 (minutes each)
    python benchmarks/bench_generate.py --only-big --big16 0 --big 4   # 25x25 alone

Prints a markdown table: puzzles/s (wall clock and CPU time of this
process), µs per puzzle, mean and standard deviation of the clue count, and
solution counts needed per puzzle. Compilation is paid before timing starts.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import sys
import time

from sudokit.generation import generate, generate_many


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} CPUs, load average {load:.1f}, Python {platform.python_version()}"


def row(label: str, n: int, **params: object) -> None:
    list(generate_many(2, seed=999_999, **params))  # warm up: compile or load the cached kernels
    wall, cpu = time.perf_counter(), time.process_time()
    made = list(generate_many(n, seed=1, **params))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    clues = [p.clues for p in made]
    counts = statistics.mean(p.extra.get("counts", 0) for p in made)
    jobs = params.get("jobs", 1)
    cpu_rate = f"{n / cpu:,.0f}" if jobs == 1 else "-"
    print(f"| {label} | {n} | {n / wall:,.0f} | {cpu_rate} | {1e6 * wall / n:,.0f} | "
          f"{statistics.mean(clues):.2f} | {statistics.stdev(clues) if n > 1 else 0:.2f} | {counts:.1f} |", flush=True)


def _cpu() -> float:
    """CPU seconds of this process and of the solver processes it waited for."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def big(shape: str, n: int) -> None:
    generate(shape="2x2", seed=1)
    walls, cpus, clues, undecided, counts = [], [], [], 0, []
    for seed in range(1, n + 1):
        wall, cpu = time.perf_counter(), _cpu()
        p = generate(shape=shape, seed=seed)
        walls.append(time.perf_counter() - wall)
        cpus.append(_cpu() - cpu)
        print(f"  seed {seed}: {walls[-1]:.1f} s wall, {cpus[-1]:.1f} s CPU, {p.clues} clues", file=sys.stderr, flush=True)
        clues.append(p.clues)
        counts.append(p.extra.get("counts", 0))
        undecided += p.undecided
    print(f"| {shape} unique, none | {n} | {statistics.mean(walls):.1f} (max {max(walls):.1f}) | "
          f"{statistics.mean(cpus):.1f} (max {max(cpus):.1f}) | {statistics.mean(clues):.1f} | {statistics.mean(counts):.0f} | {undecided} |",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="puzzles per 9x9 row")
    parser.add_argument("--big16", type=int, default=10, help="16x16 puzzles (seeds 1..N)")
    parser.add_argument("--big", type=int, default=0, help="25x25 puzzles (seeds 1..N)")
    parser.add_argument("--only-big", action="store_true", help="skip the 9x9 table")
    args = parser.parse_args()
    print(f"machine: {machine()}\n")
    if not args.only_big:
        print("| 9x9 | puzzles | puzzles/s (wall) | puzzles/s (CPU) | µs/puzzle (wall) | clues mean | clues sd | counts/puzzle |")
        print("|---|---|---|---|---|---|---|---|")
        row("unique, none", args.n)
        row("logic, none", args.n, minimal="logic")
        row("preemptive, none", max(50, args.n // 10), minimal="preemptive")
        row("unique, rotate180", args.n, symmetry="rotate180")
        row("unique, dihedral", args.n, symmetry="dihedral")
        row("unique, none, jobs=2", args.n, jobs=2)
        row("logic, none, jobs=2", args.n, minimal="logic", jobs=2)
        print()
    print("| shape | puzzles | s/puzzle (wall) | s/puzzle (CPU, solver processes included) | clues mean | counts/puzzle | undecided clues |")
    print("|---|---|---|---|---|---|---|")
    if args.big16:
        big("4x4", args.big16)
    if args.big:
        big("5x5", args.big)


if __name__ == "__main__":
    main()
