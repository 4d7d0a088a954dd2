"""End-to-end batch throughput of the ``sudoku`` command, as a user runs it.

Every figure is a whole ``sudoku`` process, timed from outside (wall clock,
best of ``--repeat`` runs), and the process start is measured too (the same
command on a one-puzzle file) so that per-puzzle costs can be given "beyond
the process start". Tables:

1. solving and counting 17_clue repeated 20 times (196,640 puzzles): ``line``
   against ``jsonl``, and ``--count --limit 2`` against a plain solve;
2. ``--jobs 2`` against ``--jobs 1`` for ``solve --count`` (forum_hardest
   repeated 10 times), ``rate`` (the SE-rated puzzles of se_dev.tsv, every
   band) and ``generate -n 50000``;
3. peak memory of ``solve --count`` on a long stream (10 million lines by
   default), fed through a pipe so that nothing is kept on disk.

    python benchmarks/bench_batch.py                 # everything
    python benchmarks/bench_batch.py --quick         # smaller inputs
    python benchmarks/bench_batch.py --data DIR      # where the bench sets are

The sets come from ``../shared/data`` (``bench/`` and ``rated/``) or ``--data``.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from shared_data import DATA, require  # noqa: E402  (benchmarks/shared_data.py)
SUDOKU = shutil.which("sudoku") or "sudoku"


def machine() -> str:
    from bench_engine import machine as versions

    info = versions()
    load = os.getloadavg()
    return (f"{info['cpu'] or platform.processor()}, {info['nproc']} CPUs, Python {info['python']}, "
            f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def wall(args: list[str], stdin: Path | None = None, repeat: int = 3) -> float:
    """The best wall time of ``repeat`` runs of ``sudoku ARGS`` (output thrown away)."""
    best = float("inf")
    for _ in range(repeat):
        with open(stdin or os.devnull, "rb") as feed:
            start = time.perf_counter()
            done = subprocess.run([SUDOKU, *args], stdin=feed, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
            elapsed = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise SystemExit(f"sudoku {' '.join(args)} exited {done.returncode}")
        best = min(best, elapsed)
    return best


def repeated(source: Path, times: int, folder: Path, name: str) -> Path:
    path = folder / name
    text = source.read_text()
    with open(path, "w") as fh:
        for _ in range(times):
            fh.write(text)
    return path


def se_puzzles(data: Path, folder: Path) -> Path | None:
    table = data / "rated" / "se_dev.tsv"
    if not table.exists():
        return None
    rows = table.read_text().splitlines()
    head = rows[0].split("\t")
    column = head.index("puzzle")
    path = folder / "se_dev.txt"
    path.write_text("\n".join(r.split("\t")[column] for r in rows[1:]) + "\n")
    return path


def row(label: str, seconds: float, start: float, puzzles: int) -> str:
    beyond = max(seconds - start, 1e-9)
    return f"| {label} | {seconds:.2f} | {beyond:.2f} | {beyond * 1e6 / puzzles:.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA, help="the folder holding bench/ and rated/")
    parser.add_argument("--quick", action="store_true", help="smaller inputs, one run each")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (the best is kept)")
    parser.add_argument("--rss-lines", type=int, default=None, help="lines of the long stream (10,000,000)")
    parser.add_argument("--only", choices=["count", "jobs", "rss"], default=None)
    args = parser.parse_args()
    bench = args.data / "bench"
    require(bench / "17_clue.txt")
    repeat = 1 if args.quick else args.repeat
    print(f"machine: {machine()}")
    folder = Path(tempfile.mkdtemp(prefix="sudokit-bench-"))
    try:
        one = folder / "one.txt"
        one.write_text((bench / "17_clue.txt").read_text().splitlines()[0] + "\n")
        if args.only in (None, "count"):
            times = 4 if args.quick else 20
            clue = repeated(bench / "17_clue.txt", times, folder, "clue.txt")
            count = 9832 * times
            print(f"\n### 17_clue x{times} ({count:,} puzzles), one process\n")
            print("| command | wall s | beyond start s | µs/puzzle |\n|---|---:|---:|---:|")
            figures = {}
            for label, extra in (("solve --format line", ["--format", "line"]),
                                 ("solve --format jsonl", ["--format", "jsonl"]),
                                 ("solve --count --limit 2 --format line", ["--count", "--limit", "2", "--format", "line"]),
                                 ("solve --count --limit 2 --format jsonl", ["--count", "--limit", "2", "--format", "jsonl"])):
                start = wall(["solve", str(one), *extra], repeat=repeat)
                seconds = wall(["solve", str(clue), *extra], repeat=repeat)
                figures[label] = (seconds, start)
                print(row(label, seconds, start, count))
            base = figures["solve --format line"][0]
            print(f"\ncount/solve (line): {figures['solve --count --limit 2 --format line'][0] / base:.2f}; "
                  f"jsonl/line (solve): {figures['solve --format jsonl'][0] / base:.2f}; "
                  f"jsonl/line (count): {figures['solve --count --limit 2 --format jsonl'][0] / figures['solve --count --limit 2 --format line'][0]:.2f}")
        if args.only in (None, "jobs"):
            hard_times = 2 if args.quick else 10
            hard = repeated(bench / "forum_hardest_1905_11plus.txt", hard_times, folder, "hard.txt")
            rated = se_puzzles(args.data, folder)
            n = 5000 if args.quick else 50000
            cases = [(f"solve --count (forum_hardest x{hard_times})", ["solve", str(hard), "--count", "--limit", "2",
                                                                     "--format", "line"], ["solve", str(one), "--count", "--format", "line"])]
            if rated is not None:
                cases.append(("rate (se_dev.tsv, 500 puzzles, every band)", ["rate", str(rated)], ["rate", str(one)]))
            else:
                print(f"(no {args.data / 'rated' / 'se_dev.tsv'}: the rate row is left out)")
            cases.append((f"generate -n {n}", ["generate", "-n", str(n), "--seed", "1"],
                          ["generate", "-n", "1", "--seed", "1"]))
            print("\n### --jobs 2 against --jobs 1\n")
            print("| command | jobs 1 s | jobs 2 s | start 1 s | start 2 s | speed-up beyond start |\n"
                  "|---|---:|---:|---:|---:|---:|")
            for label, command, small in cases:
                runs = repeat if "rate" not in label else 1
                t1 = wall([*command, "--jobs", "1"], repeat=runs)
                t2 = wall([*command, "--jobs", "2"], repeat=runs)
                s1 = wall([*small, "--jobs", "1"], repeat=repeat)
                s2 = wall([*small, "--jobs", "2"], repeat=repeat)
                print(f"| {label} | {t1:.2f} | {t2:.2f} | {s1:.2f} | {s2:.2f} | {(t1 - s1) / max(t2 - s2, 1e-9):.2f} |")
        if args.only in (None, "rss"):
            lines = args.rss_lines or (1_000_000 if args.quick else 10_000_000)
            feeder = (f"import sys,itertools\nsrc=open({str(bench / '17_clue.txt')!r}).read().splitlines()\n"
                      f"out=sys.stdout\nfor line in itertools.islice(itertools.cycle(src), {lines}):\n"
                      f"    out.write(line + '\\n')\n")
            time_tool = shutil.which("time") or "/usr/bin/time"
            print(f"\n### peak memory, solve --count --limit 2 --format line on {lines:,} lines (a pipe)\n")
            print("| lines | wall s | peak RSS MB |\n|---:|---:|---:|")
            for size in (lines // 10, lines):
                script = feeder.replace(str(lines), str(size))
                start = time.perf_counter()
                feed = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
                done = subprocess.run([time_tool, "-f", "%M", SUDOKU, "solve", "-", "--count", "--limit", "2",
                                       "--format", "line"], stdin=feed.stdout, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True)
                feed.wait()
                elapsed = time.perf_counter() - start
                peak = int(done.stderr.strip().splitlines()[-1]) / 1024
                print(f"| {size:,} | {elapsed:.1f} | {peak:.0f} |")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"\nmachine after: {machine()}")


if __name__ == "__main__":
    main()
