"""Rating on a Dask LocalCluster with 1 and 2 single-threaded workers: speed-up, overhead, model.

    python benchmarks/bench_cluster.py [--sample 4] [--per-partition 6] [--workers 1 2]

The input mixes Sudoku Explainer bands: every ``sample``-th puzzle of
rated/se_dev.tsv (ER 1.2 to 9.x). For each number of workers N, a fresh
``LocalCluster(n_workers=N, threads_per_worker=1)`` starts and warms up
(not timed: the plugin, then a few easy puzzles a worker, whose first
ratings load the logic kernels), then :func:`sudokit.distributed.run` rates the file to memory
(timed: wall, and CPU of the worker processes; "CPU share" is that CPU over
wall x N, the part of N cores the workers actually got: on a loaded machine
it says how far the speed-up is bounded by the other load). The overhead per partition
is timed on a file of P partitions that hold only comment lines (the count
pass, scheduling, reading, an empty run_lines, the ordered return).

Model: T(N) = fixed + (P * overhead + work) / N, where ``work`` is the
rating itself; fitted on N = 1 and 2 (two points, two unknowns: fixed and
P * overhead + work), then used to predict N = 4, 8, 16. It ignores the
tail: with P partitions of unequal cost, the last partitions leave workers
idle, which is why partitions should be many (P >> N) and small for slow
work.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import tempfile
import time
from pathlib import Path

from sudokit import distributed as dist
from sudokit import pipeline

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "rated" / "se_dev.tsv"


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def worker_cpu(client) -> float:  # type: ignore[no-untyped-def]
    return sum(client.run(time.process_time).values())


def timed(client, job, path: str, blocksize: int) -> tuple[float, float, dist.Summary]:  # type: ignore[no-untyped-def]
    cpu0, t0 = worker_cpu(client), time.perf_counter()
    out: list[str] = []
    summary = dist.run(job, [path], client=client, blocksize=blocksize, write=out.append)
    return time.perf_counter() - t0, worker_cpu(client) - cpu0, summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=4, help="take every SAMPLE-th puzzle of se_dev.tsv")
    ap.add_argument("--per-partition", type=int, default=3, help="puzzles per partition")
    ap.add_argument("--empty", type=int, default=40, help="partitions of the overhead run")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()

    rows = list(csv.DictReader(open(DATA), delimiter="\t"))[:: args.sample]
    tmp = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    rated = tmp / "rated.txt"
    rated.write_text("".join(r["puzzle"] + "\n" for r in rows))
    blocksize = 82 * args.per_partition
    empty = tmp / "empty.txt"
    empty.write_text(("#" * 80 + "\n") * args.empty)
    warm = tmp / "warm.txt"
    easy = [r["puzzle"] for r in csv.DictReader(open(DATA), delimiter="\t") if float(r["er"]) <= 1.5]
    warm.write_text("".join(p + "\n" for p in easy[: 4 * max(args.workers)]))
    job = pipeline.Job("rate")

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}; load average before: {load()}")
    print(f"input: {len(rows)} puzzles of se_dev.tsv (every {args.sample}th, ER "
          f"{min(float(r['er']) for r in rows)}-{max(float(r['er']) for r in rows)}), "
          f"{args.per_partition} a partition ({blocksize} bytes)")
    print()
    print("| workers | partitions | wall s | worker CPU s | CPU share | puzzles/s | overhead ms/partition | load |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    walls: dict[int, float] = {}
    parts = 0
    overheads = []
    for n in args.workers:
        with dist.cluster(f"local:{n}") as client:
            client.register_plugin(dist.WarmUp(job))  # warm-up is not timed
            timed(client, job, str(warm), 82)  # each worker's first ratings load the logic kernels
            wall_empty, _, s_empty = timed(client, job, str(empty), 81)
            overhead = wall_empty / s_empty.partitions * n  # per partition, per worker
            overheads.append(overhead)
            wall, cpu, summary = timed(client, job, str(rated), blocksize)
        walls[n] = wall
        parts = summary.partitions
        print(f"| {n} | {summary.partitions} | {wall:.1f} | {cpu:.1f} | {cpu / (wall * n):.0%} | "
              f"{summary.puzzles / wall:.2f} | "
              f"{overhead * 1000:.0f} | {load()} |", flush=True)

    if 1 in walls and 2 in walls:
        t1, t2 = walls[1], walls[2]
        fixed = 2 * t2 - t1  # T(1) = f + W, T(2) = f + W/2
        spread = t1 - fixed
        overhead = sum(overheads) / len(overheads)
        print()
        print(f"speed-up with 2 workers: {t1 / t2:.2f}x")
        print(f"model: T(N) = {fixed:.1f} s + ({parts} x {overhead * 1000:.0f} ms + "
              f"{spread - parts * overhead:.1f} s) / N")
        print()
        print("| N | predicted wall s | predicted speed-up |")
        print("|---:|---:|---:|")
        for n in (1, 2, 4, 8, 16):
            t = fixed + spread / n
            print(f"| {n} | {t:.1f} | {t1 / t:.2f}x |")


if __name__ == "__main__":
    main()
