"""Time :func:`sudokit.logic.rate` on the SE reference set, by ER band.

    python benchmarks/bench_rating.py [--repeat 3] [--every K] [--min-er 6.2]
    python benchmarks/bench_rating.py --hard 10 [--timeout 60]   # a sample of hard_dev.tsv (10.4-11.9)
    python benchmarks/bench_rating.py --ids hd-0475,hd-0361      # chosen puzzles of hard_dev.tsv
    python benchmarks/bench_rating.py --jobs-table 4 [--repeat 2]  # one hard puzzle on 1 and 2 processes

Prints ms/puzzle per band (ER <= 2.5, 2.5 < ER <= 6.2, 6.2 < ER <= 9.0,
using the reference ER) and, per band, how many puzzles get SE's ER, EP and
ED exactly (a lower bound never counts).

Times are CPU time of this process (``time.process_time``), so other jobs on
a shared machine inflate them less than wall time; the load average is
printed with them. The link producers remember per-value results; the cache
is cleared before every timed run, so a repeated puzzle starts from scratch.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import time
from pathlib import Path

from sudokit.grid import Grid
from sudokit.logic import aligned, links, nested, rate

from shared_data import RATED, require  # noqa: E402  (benchmarks/shared_data.py)

DATA = RATED / "se_dev.tsv"
HARD = RATED / "hard_dev.tsv"


def hard(count: int, timeout: float | None, ids: list[str] | None = None) -> None:
    """Rate ``count`` puzzles spread evenly over hard_dev.tsv (or those of
    ``ids``), once each, under the per-puzzle budget; print one line a
    puzzle and the agreement."""
    from sudokit.logic.rating import RATE_TIME_LIMIT

    rows = list(csv.DictReader(open(HARD), delimiter="\t"))
    if ids:
        by_id = {r["id"]: r for r in rows}
        sample = [by_id[i] for i in ids]
    else:
        step = max(1, len(rows) // count)
        sample = rows[::step][:count]
    budget = RATE_TIME_LIMIT if timeout is None else timeout
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; "
          f"budget {budget} s a puzzle; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| id | SE ER/EP/ED | ours | tier out of budget | CPU s | wall s |")
    print("|---|---|---|---|---:|---:|")
    exact = {"er": 0, "ep": 0, "ed": 0}
    above = 0
    cpu_total = wall_total = 0.0
    for row in sample:
        links.clear_caches()
        aligned._CHECKED.clear()
        nested.clear_caches()
        t0, w0 = time.process_time(), time.perf_counter()
        r = rate(Grid(row["puzzle"]), timeout=budget)
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        cpu_total += cpu
        wall_total += wall
        for k in exact:
            bound = {"er": r.lower_bound, "ep": r.ep_lower_bound, "ed": r.ed_lower_bound}[k]
            exact[k] += abs(getattr(r, k) - float(row[k])) < 1e-6 and not bound
        above += r.er > float(row["er"]) + 1e-6
        print(f"| {row['id']} | {row['er']}/{row['ep']}/{row['ed']} | {r} | {r.tier or '-'} | {cpu:.1f} | "
              f"{wall:.1f} |", flush=True)
    n = len(sample)
    print()
    print(f"exact: ER {exact['er']}/{n}, EP {exact['ep']}/{n}, ED {exact['ed']}/{n}; rated above SE: {above}; "
          f"mean CPU {cpu_total / n:.1f} s, mean wall {wall_total / n:.1f} s")


def jobs_table(count: int, repeat: int, ids: list[str] | None = None) -> None:
    """``sudoku rate --jobs 1`` and ``--jobs 2`` on a file of one puzzle
    (ER >= 10, spread over hard_dev.tsv, or ``ids``), alternated ``repeat``
    times: the wall times (the commands' own, start-up included), their
    ratio, the ratings, and the load beside them. Then, in this process, the
    work model: the chain work of one rating on 2 processes, and the part of
    it on the longest share of each shared search; ``model`` is the wall time
    a machine with a free core for each process would take, as a fraction of
    one process's (the work outside the shared searches plus the longest
    shares, over all the work)."""
    import subprocess
    import tempfile

    from sudokit.logic import chains, sharing

    rows = [r for r in csv.DictReader(open(HARD), delimiter="\t") if float(r["er"]) >= 10]
    if ids:
        by_id = {r["id"]: r for r in rows}
        sample = [by_id[i] for i in ids]
    else:
        sample = rows[::max(1, len(rows) // count)][:count]
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}; wall seconds of `sudoku rate --jobs N` on one puzzle, alternated")
    print("| id | SE ER/EP/ED | --jobs 1 | --jobs 2 | wall 1 (s) | wall 2 (s) | ratio | model | load |")
    print("|---|---|---|---|---:|---:|---:|---:|---|")
    ratios = []
    models = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "one.txt"
        for row in sample:
            path.write_text(row["puzzle"] + "\n")
            walls: dict[str, list[float]] = {"1": [], "2": []}
            lines: dict[str, str] = {}
            loads = []
            for _ in range(repeat):
                for jobs in ("1", "2"):
                    loads.append(os.getloadavg()[0])
                    t0 = time.perf_counter()
                    done = subprocess.run(["sudoku", "rate", "--jobs", jobs, "--timeout", "600", str(path)],
                                          capture_output=True, text=True)
                    walls[jobs].append(time.perf_counter() - t0)
                    lines[jobs] = done.stdout.split()[-2] if done.returncode == 0 else f"failed ({done.returncode})"
            w1, w2 = sum(walls["1"]) / repeat, sum(walls["2"]) / repeat
            ratio = sum(b / a for a, b in zip(walls["1"], walls["2"])) / repeat  # paired runs
            links.clear_caches()
            aligned._CHECKED.clear()
            nested.clear_caches()
            done0 = chains.WORK_DONE
            paused = getattr(sharing, "PAUSE_BELOW", None)
            if paused is not None:
                sharing.PAUSE_BELOW = None  # (the model: every search shared, whatever the load)
            try:
                rate(Grid(row["puzzle"]), timeout=None, jobs=2)
            finally:
                if paused is not None:
                    sharing.PAUSE_BELOW = paused
            work = chains.WORK_DONE - done0
            shared, longest = sharing.span()
            model = (work - shared + longest) / work
            ratios.append(ratio)
            models.append(model)
            print(f"| {row['id']} | {row['er']}/{row['ep']}/{row['ed']} | {lines['1']} | {lines['2']} | {w1:.1f} | "
                  f"{w2:.1f} | {ratio:.2f} | {model:.2f} | {min(loads):.1f}-{max(loads):.1f} |", flush=True)
    print()
    print(f"mean ratio of paired wall times {sum(ratios) / len(ratios):.2f}; mean model {sum(models) / len(models):.2f}; "
          f"load average now {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-er", type=float, default=None,
                        help="time only the puzzles whose reference ER is at most this (e.g. 6.2)")
    parser.add_argument("--hard", type=int, default=0, metavar="N",
                        help="rate N puzzles of hard_dev.tsv (SE 10.4-11.9) instead, once each")
    parser.add_argument("--min-er", type=float, default=None,
                        help="time only the puzzles whose reference ER is above this (e.g. 6.2)")
    parser.add_argument("--every", type=int, default=1, metavar="K", help="take every K-th puzzle only")
    parser.add_argument("--timeout", type=float, default=None, help="per-puzzle budget for --hard (s)")
    parser.add_argument("--ids", default="", help="comma-separated hard_dev.tsv ids to rate (like --hard)")
    parser.add_argument("--jobs-table", type=int, default=0, metavar="N",
                        help="N puzzles of hard_dev.tsv (ER >= 10), each alone in a file: `sudoku rate --jobs 1` "
                             "against `--jobs 2` (wall time, alternated --repeat times), and the work model")
    args = parser.parse_args()
    require(HARD if args.hard or args.ids or args.jobs_table else DATA)
    if args.jobs_table:
        jobs_table(args.jobs_table, args.repeat, [i for i in args.ids.split(",") if i] or None)
        return
    if args.hard or args.ids:
        hard(args.hard, args.timeout, [i for i in args.ids.split(",") if i] or None)
        return
    rows = list(csv.DictReader(open(DATA), delimiter="\t"))
    if args.min_er is not None:
        rows = [r for r in rows if float(r["er"]) > args.min_er + 1e-9]
    if args.max_er is not None:
        warm = next((r for r in rows if float(r["er"]) > 7), None)
        rows = [r for r in rows if float(r["er"]) <= args.max_er + 1e-9]
        if warm is not None:  # still compile the solution count's kernel before timing
            rate(Grid(warm["puzzle"]))
    grids = [Grid(r["puzzle"]) for r in rows]
    for row, grid in zip(rows, grids):  # compile and load every kernel (the solution count too)
        if float(row["er"]) > 7:
            rate(grid)
            break
    for grid in grids[::25]:  # and the kernels only some paths reach, so --repeat 1 times no compiling
        rate(grid)
    rows, grids = rows[::args.every], grids[::args.every]
    bands: dict[str, list[float]] = {"ER <= 2.5": [], "2.5 < ER <= 6.2": [], "6.2 < ER <= 9.0": [], "ER > 9.0": []}
    exact: dict[str, int] = {band: 0 for band in bands}
    results = []
    for row, grid in zip(rows, grids):
        best = float("inf")
        for _ in range(args.repeat):
            links.clear_caches()
            aligned._CHECKED.clear()
            nested.clear_caches()
            t0 = time.process_time()
            r = rate(grid)
            best = min(best, time.process_time() - t0)
        results.append(r)
        er = float(row["er"])
        band = "ER <= 2.5" if er <= 2.5 else "2.5 < ER <= 6.2" if er <= 6.2 else "6.2 < ER <= 9.0" if er <= 9.0 \
            else "ER > 9.0"
        bands[band].append(best)
        exact[band] += (not r.lower_bound and all(abs(getattr(r, k) - float(row[k])) < 1e-6 for k in ("er", "ep", "ed")))
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; "
          f"CPU time, best of {args.repeat}; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| band | puzzles | ms/puzzle | puzzles/s | ER/EP/ED exact |")
    print("|---|---:|---:|---:|---:|")
    for band, times in bands.items():
        if times:
            mean = sum(times) / len(times)
            print(f"| {band} | {len(times)} | {1000 * mean:.2f} | {1 / mean:.0f} | {exact[band]}/{len(times)} |")
    er_ok = sum(abs(r.er - float(row["er"])) < 1e-6 for row, r in zip(rows, results))
    ep_ok = sum(abs(r.ep - float(row["ep"])) < 1e-6 for row, r in zip(rows, results))
    ed_ok = sum(abs(r.ed - float(row["ed"])) < 1e-6 for row, r in zip(rows, results))
    above = sum(r.er > float(row["er"]) + 1e-6 for row, r in zip(rows, results))
    bound = sum(r.lower_bound for r in results)
    total = sum(sum(t) for t in bands.values())
    print()
    print(f"ER exact: {er_ok}/{len(rows)}; EP exact: {ep_ok}/{len(rows)}; ED exact: {ed_ok}/{len(rows)}; "
          f"rated above the reference: {above}; lower bounds: {bound}/{len(rows)}; CPU {total:.1f} s in all; "
          f"load average now {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
