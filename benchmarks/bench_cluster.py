"""Rating on a Dask LocalCluster with 1 and 2 single-threaded workers: speed-up, overhead, model.

    python benchmarks/bench_cluster.py [--sample 2] [--copies 1] [--per-partition K] [--workers 1 2]

The input mixes Sudoku Explainer bands: every ``sample``-th puzzle of
rated/se_dev.tsv (ER 1.2 to 9.x), one per line, the whole sample
``copies`` times over (the file is sorted by ER, so one copy ends in its
hardest partitions; more copies make a bigger file of the same mix). For each number of workers
N, a fresh ``LocalCluster(n_workers=N, threads_per_worker=1)`` starts and
warms up (not timed: the plugin, then a few easy puzzles a worker, whose
first ratings load the logic kernels); then :func:`sudokit.distributed.run`
rates the file with the default block size for the largest N (or ``K``
puzzles a partition), the same partitions for every N,
into a fresh output directory, timed: wall, and CPU of the worker processes.
"CPU share" is that CPU over wall x N: the part of N cores the workers
actually got. On a shared machine it says how far the other load bounds the
speed-up (with the kernel's autogroup scheduling, all the processes of one
command share one slice of the CPU, however many workers it starts).

The overhead per partition is timed on a file of partitions that hold only
comment lines (counting pass, scheduling, reading, an empty run, the ordered
return), per worker.

Model, fitted on N = 1: T(N) = fixed + (P x overhead + W) / N, with W the
worker CPU of the rating (the manifest's per-partition seconds) and fixed
the rest of T(1). A second prediction replaces W / N by the makespan of the
partitions dealt in order to N workers (each to the first free one, as the
scheduler does with a window of 2N): it adds the tail, where the last
partitions leave workers idle. Both are checked against the measured T(2).
"Idle cores" drops ``fixed`` (on a loaded machine it is mostly the wait for
the CPU) and gives the makespan alone: what N idle cores would take for the
same CPU work, the figure that the load cannot distort.
"""

from __future__ import annotations

import argparse
import csv
import heapq
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from sudokit import distributed as dist
from sudokit import pipeline

from shared_data import RATED, require  # noqa: E402  (benchmarks/shared_data.py)

DATA = RATED / "se_dev.tsv"


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def worker_cpu(client) -> float:  # type: ignore[no-untyped-def]
    return sum(client.run(time.process_time).values())


def timed(client, job, path: Path, blocksize: int | None, out: Path | None = None):  # type: ignore[no-untyped-def]
    cpu0, t0 = worker_cpu(client), time.perf_counter()
    summary = dist.run(job, [str(path)], client=client, blocksize=blocksize, write=lambda text: None,
                       out_dir=None if out is None else str(out))
    return time.perf_counter() - t0, worker_cpu(client) - cpu0, summary


def makespan(costs: list[float], workers: int) -> float:
    """Partitions dealt in order, each to the worker that is free first."""
    free = [0.0] * workers
    for cost in costs:
        heapq.heappush(free, heapq.heappop(free) + cost)
    return max(free)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=2, help="take every SAMPLE-th puzzle of se_dev.tsv")
    ap.add_argument("--copies", type=int, default=1,
                    help="the sample written COPIES times one after the other (a bigger file of the same mix)")
    ap.add_argument("--per-partition", type=int, default=None, help="puzzles per partition (default: automatic)")
    ap.add_argument("--empty", type=int, default=40, help="partitions of the overhead run")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()
    require(DATA)

    rows = list(csv.DictReader(open(DATA), delimiter="\t"))
    sample = rows[:: args.sample]
    tmp = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    rated = tmp / "rated.txt"
    rated.write_text("".join(r["puzzle"] + "\n" for r in sample) * args.copies)
    job = pipeline.Job("rate")
    # the same partitions for every N (the default size for the largest N), so that the model,
    # fitted on N = 1, predicts the others from the same pieces of work
    blocksize = (dist._auto_blocksize(rated.stat().st_size, max(args.workers), job)
                 if args.per_partition is None else dist.LINE_BYTES * args.per_partition)
    empty = tmp / "empty.txt"
    empty.write_text(("#" * 80 + "\n") * args.empty)
    warm = tmp / "warm.txt"
    easy = [r["puzzle"] for r in rows if float(r["er"]) <= 1.5]
    warm.write_text("".join(p + "\n" for p in easy[: 4 * max(args.workers)]))

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}; load average before: {load()}")
    print(f"input: {len(sample) * args.copies} puzzles: {args.copies} x every {args.sample}th puzzle of se_dev.tsv (ER "
          f"{min(float(r['er']) for r in sample)}-{max(float(r['er']) for r in sample)}), "
          f"partitions of {blocksize} bytes")
    print()
    print("| workers | partitions | wall s | worker CPU s | CPU share | puzzles/s | overhead ms/partition | load |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    walls: dict[int, float] = {}
    costs: dict[int, list[float]] = {}
    overheads = []
    for n in args.workers:
        with dist.cluster(f"local:{n}") as client:
            client.register_plugin(dist.WarmUp(job))
            timed(client, job, warm, 82)
            wall_empty, _, s_empty = timed(client, job, empty, 81)
            overhead = wall_empty / s_empty.partitions * n
            overheads.append(overhead)
            wall, cpu, summary = timed(client, job, rated, blocksize, tmp / f"out-{n}")
        manifest = json.loads((tmp / f"out-{n}" / "manifest.json").read_text())
        costs[n] = [p["seconds"] for p in manifest["partitions"]]
        walls[n] = wall
        print(f"| {n} | {summary.partitions} | {wall:.1f} | {cpu:.1f} | {cpu / (wall * n):.0%} | "
              f"{summary.puzzles / wall:.2f} | {overhead * 1000:.0f} | {load()} |", flush=True)

    if 1 in walls and 2 in walls:
        print()
        print(f"speed-up with 2 workers: {walls[1] / walls[2]:.2f}x (measured, wall)")
        work = costs[1]
        parts = len(work)
        overhead = overheads[0]
        fixed = max(0.0, walls[1] - sum(work) - parts * overhead)
        print(f"model: T(N) = {fixed:.1f} s + ({parts} x {overhead * 1000:.0f} ms + {sum(work):.1f} s) / N; "
              f"largest partition {max(work):.1f} s CPU")
        print()
        print("| N | T(N) model s | with the tail s | speed-up (model) | speed-up (with tail) "
              "| idle cores s | speed-up (idle) |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        idle1 = makespan([c + overhead for c in work], 1)
        for n in (1, 2, 4, 8, 16):
            flat = fixed + (parts * overhead + sum(work)) / n
            idle = makespan([c + overhead for c in work], n)
            tail = fixed + idle
            print(f"| {n} | {flat:.1f} | {tail:.1f} | {walls[1] / flat:.2f}x | {walls[1] / tail:.2f}x "
                  f"| {idle:.1f} | {idle1 / idle:.2f}x |")
        if 2 in costs:
            extra = sum(costs[2]) / sum(work)
            print(f"\nworker CPU of the same partitions with 2 workers: {extra:.2f} x that with 1; "
                  f"idle-core speed-up with that CPU: {idle1 / makespan([c + overhead for c in costs[2]], 2):.2f}x")
        print(f"\nmeasured T(2) = {walls[2]:.1f} s")


if __name__ == "__main__":
    main()
