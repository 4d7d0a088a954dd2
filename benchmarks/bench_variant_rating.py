"""Rate the X and windoku reference sets and compare with SukakuExplainer.

``../shared/data/rated/x_dev.tsv`` and ``hyper_dev.tsv`` hold puzzles that
SukakuExplainer 1.18.1 rated with its X and Windows options
(``shared/data/rated/README.md``). This script rates each one with
``sudokit.logic.rate`` under the variant's geometry and counts how many agree
on ER, EP and ED, how many are rated above SE, and the CPU time.

    python benchmarks/bench_variant_rating.py                  # both sets, SE's ER <= 9.0
    python benchmarks/bench_variant_rating.py --set x --limit 20 --all
    python benchmarks/bench_variant_rating.py --show-misses    # list each disagreement

The target (docs/variants.md): ER, EP and ED exact on at least 95% of the
puzzles SE rates 9.0 or less, and none rated above SE.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from sudokit import variants  # noqa: E402
from sudokit.grid import Grid  # noqa: E402
from sudokit.logic import rate  # noqa: E402

from shared_data import RATED as DATA, require  # noqa: E402  (benchmarks/shared_data.py)

SETS = {"x": ("x_dev.tsv", variants.x), "hyper": ("hyper_dev.tsv", variants.hyper)}


def load(name: str) -> list[dict]:
    path = DATA / SETS[name][0]
    lines = path.read_text().splitlines()
    head = lines[0].split("\t")
    return [dict(zip(head, line.split("\t"))) for line in lines[1:] if line.strip()]


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=sorted(SETS), action="append", help="x, hyper (default: both)")
    ap.add_argument("--all", action="store_true", help="also the puzzles SE rates above 9.0")
    ap.add_argument("--limit", type=int, default=0, help="at most this many puzzles a set")
    ap.add_argument("--timeout", type=float, default=60.0, help="rate()'s chain budget per puzzle (s)")
    ap.add_argument("--show-misses", action="store_true")
    args = ap.parse_args(argv)
    require(*(DATA / SETS[name][0] for name in args.set or sorted(SETS)))
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    for name in args.set or sorted(SETS):
        geo = SETS[name][1]()
        rows = [r for r in load(name) if args.all or float(r["er"]) <= 9.0]
        if args.limit:
            rows = rows[: args.limit]
        exact = above = bounds = 0
        er_ok = ep_ok = ed_ok = 0
        times: list[float] = []
        for i, row in enumerate(rows):
            grid = Grid(row["puzzle"]).with_geometry(geo)
            t0 = time.process_time()
            r = rate(grid, timeout=args.timeout)
            times.append(time.process_time() - t0)
            want = (float(row["er"]), float(row["ep"]), float(row["ed"]))
            got = (r.er, r.ep, r.ed)
            ok = [abs(a - b) < 1e-9 for a, b in zip(got, want)]
            er_ok += ok[0]
            ep_ok += ok[1]
            ed_ok += ok[2]
            exact += all(ok)
            bounds += r.lower_bound
            if any(g > w + 1e-9 for g, w in zip(got, want)):
                above += 1
            if args.show_misses and not all(ok):
                print(f"  {name} #{i}: SE {want[0]}/{want[1]}/{want[2]} {row['er_technique']!r} | ours {r} "
                      f"{r.hardest!r}{' (bound)' if r.lower_bound else ''} {times[-1]:.2f}s {row['puzzle']}",
                      flush=True)
        n = len(rows)
        times.sort()
        mean = sum(times) / n if n else 0.0
        print(f"{name}: {n} puzzles; ER/EP/ED all exact {exact} ({100 * exact / max(n, 1):.1f}%), "
              f"ER {er_ok}, EP {ep_ok}, ED {ed_ok}; above SE {above}; lower bounds {bounds}; "
              f"CPU mean {mean:.2f} s, median {times[n // 2] if n else 0:.2f} s, max {times[-1] if n else 0:.2f} s, "
              f"total {sum(times):.0f} s", flush=True)
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
