"""Time every solving method through the method contract, on the same sets, tdoku style.

Every registered method (``sudokit.methods.available()``) is called through
:mod:`sudokit.methods.contract` on the same sample of each
``../shared/data/bench/*.txt`` set: evenly spaced lines, ``--sample`` of them
(``--slow-sample`` for the slow methods), one puzzle at a time, each with a
time limit (``--limit`` seconds). A complete method is asked for the first
solution (``contract.first``; ``--unique`` counts to 2 instead); a logic-only
method is asked what it deduces (``contract.deduce``). The first table gives,
per method and set, µs/puzzle (CPU time of this process, the mean over the
sample, a timed-out puzzle counting its time), puzzles/s, % solved without
guessing, guesses per puzzle (over the puzzles solved; none for ``mip``, whose
branching happens inside HiGHS) and how many puzzles ran out of time. The
second table sets each method's representation and inference side by side,
from the registry. ``fast`` here pays one Python call per puzzle;
``bench_engine.py`` times its kernel on whole sets at once.

    python benchmarks/bench_methods.py                      # every method, every set
    python benchmarks/bench_methods.py --methods fast,preemptive --sample 100
    python benchmarks/bench_methods.py --data /path/to/bench --json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from shared_data import BENCH, require  # noqa: E402  (benchmarks/shared_data.py)
ORDER = ["kaggle", "unbiased", "17_clue", "magictour_top1465", "forum_hardest_1905_11plus",
         "forum_hardest_1106", "serg_benchmark"]
#: Methods that take seconds on a hard 9x9; they get the smaller sample.
SLOW = {"bfs", "wholemeal-first", "mip"}
#: Methods whose branching is not seen by the budget (HiGHS branches inside):
#: no figures for guessing.
UNSEEN_GUESSES = {"mip"}


def machine() -> str:
    """The machine as bench_engine.py describes it, and the load now."""
    from bench_engine import machine as described

    m = described()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{m['cpu'] or platform.machine()}, nproc {m['nproc']}, python {m['python']}, load {load}"


def sample(path: Path, count: int) -> list[str]:
    """``count`` evenly spaced lines of a set."""
    lines = path.read_text().split()
    return lines[:: max(1, len(lines) // count)][:count]


def time_method(name: str, puzzles: list[str], limit: float, unique: bool) -> dict:
    """One method on one sample: the figures of one table row."""
    from sudokit import Grid
    from sudokit.budget import Budget
    from sudokit.errors import Contradiction, LimitReached
    from sudokit.methods import contract, get

    spec = get(name)
    cpu_total, solved, clean, guesses, timeouts = 0.0, 0, 0, 0, 0
    for line in puzzles:
        grid = Grid(line)
        budget = Budget(timeout=limit)
        cpu = time.process_time()
        try:
            if not spec.complete:
                done = contract.deduce(spec, grid, budget).is_complete
            elif unique:
                done = contract.count(spec, grid, 2, budget)[0] > 0
            else:
                done = contract.first(spec, grid, budget) is not None
        except LimitReached:
            done, timeouts = False, timeouts + 1
        except Contradiction:
            done = False
        cpu_total += time.process_time() - cpu
        if done:
            solved += 1
            clean += budget.guesses == 0
            guesses += budget.guesses
    n = len(puzzles)
    seen = name not in UNSEEN_GUESSES
    return {"method": name, "puzzles": n, "solved": solved, "timeouts": timeouts,
            "us_per_puzzle": round(cpu_total / n * 1e6, 1),
            "puzzles_per_s": round(n / cpu_total, 1) if cpu_total else None,
            "no_guess_pct": round(100 * clean / n, 1) if seen else None,
            "guesses_per_puzzle": round(guesses / solved, 2) if solved and seen else None}


def warm_up(names: list[str]) -> None:
    """One easy puzzle per method first: numba's cache, scipy and the tables load outside the timing."""
    from sudokit.examples import example

    for name in names:
        time_method(name, [example("easy").line()], 60, unique=False)


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def results_table(rows: list[dict]) -> str:
    head = ("| method | set | puzzles | µs/puzzle | puzzles/s | % no guess | guesses/puzzle | timeouts |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|")
    body = [f"| {r['method']} | {r['set']} | {r['puzzles']} | {r['us_per_puzzle']:,} | {r['puzzles_per_s']} | "
            f"{_cell(r['no_guess_pct'])} | {_cell(r['guesses_per_puzzle'])} | "
            f"{r['timeouts']} |" for r in rows]
    return "\n".join([head, *body])


def methods_table(names: list[str]) -> str:
    from sudokit.methods import get

    head = "| method | kind | representation | inference |\n|---|---|---|---|"
    body = []
    for name in names:
        spec = get(name)
        kind = "complete" if spec.complete else "logic only"
        body.append(f"| {name} | {kind} | {spec.representation} | {spec.inference} |")
    return "\n".join([head, *body])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=BENCH, help=f"the folder of the sets (default {BENCH})")
    parser.add_argument("--methods", help="comma-separated method names (default: every registered method)")
    parser.add_argument("--sets", help="comma-separated set names (default: " + ",".join(ORDER) + ")")
    parser.add_argument("--sample", type=int, default=20, help="puzzles per set (default 20)")
    parser.add_argument("--slow-sample", type=int, default=3,
                        help=f"puzzles per set for {', '.join(sorted(SLOW))} (default 3)")
    parser.add_argument("--limit", type=float, default=2.0, help="seconds per puzzle (default 2)")
    parser.add_argument("--unique", action="store_true", help="count to 2 (prove uniqueness) instead of solving")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()

    from sudokit.methods import available

    names = args.methods.split(",") if args.methods else sorted(available(), key=lambda n: (n != "fast", n))
    unknown = [n for n in names if n not in available()]
    if unknown:
        parser.error(f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(sorted(available()))}")
    sets = args.sets.split(",") if args.sets else ORDER
    paths = [(s, args.data / f"{s}.txt") for s in sets if (args.data / f"{s}.txt").exists()]
    if not paths:
        require(*(args.data / f"{s}.txt" for s in sets))

    warm_up(names)
    rows = []
    for set_name, path in paths:
        for name in names:
            puzzles = sample(path, args.slow_sample if name in SLOW else args.sample)
            row = time_method(name, puzzles, args.limit, args.unique)
            rows.append({"set": set_name, **row})
            print(f"{set_name} {name}: {row['us_per_puzzle']:,} µs/puzzle", file=sys.stderr, flush=True)
    report = {"machine": machine(), "mode": "unique" if args.unique else "first",
              "limit_s": args.limit, "rows": rows}
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"machine: {report['machine']}; mode: {report['mode']}; limit {args.limit:g} s per puzzle\n")
    print(results_table(rows))
    print()
    print(methods_table(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
