"""The bank's numbers: adding rated puzzles, and querying a big bank.

Two measurements, each printed as a table:

1. **add**: N records shaped as ``sudoku rate --format jsonl`` writes them
   (default 1,000,000) go into a new bank through :func:`sudokit.bank.add`,
   in a fresh process: CPU time, puzzles/s, peak memory (max RSS), and the
   part of the CPU time the canonical form takes (measured on its own).
2. **query**: a bank of M rows (default 10,000,000) is filled straight
   through SQL with synthetic rows of realistic sizes and distributions
   (ER, technique families), indexed as the bank indexes; then queries by
   ER range and technique, by hardest technique, by level with ``unused``,
   each returning 100 puzzles, are timed (median of 5 seeds, wall and CPU).

The records of (1) are made quickly from real rated puzzles (SE's reference
set, ``../shared/data/rated/se_dev_steps.jsonl.gz``, with their ratings and
the techniques of their paths): each record is one of them with one to four
clues of its solution added and a random validity-preserving transformation
applied, so the records are distinct puzzles (nearly all new classes) that
keep one solution. Their ratings are the source's: a benchmark of the store,
not of the rater.

    python benchmarks/bench_bank.py                 # both, full size
    python benchmarks/bench_bank.py --add 100000 --rows 1000000
    python benchmarks/bench_bank.py --add 200000 --rows 0 --against ../main --rounds 2

``--against TREE`` alternates the add with another checkout's code (its
``src``), each run in a fresh process on the same records, for a ratio taken
under the same load; the load average (1 min) at each start is printed beside.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
from shared_data import DATA, require  # noqa: E402  (benchmarks/shared_data.py)


def sources() -> list[dict]:
    """SE's reference puzzles with solution, rating and the techniques on the path."""
    out = []
    with gzip.open(DATA / "rated" / "se_dev_steps.jsonl.gz", "rt") as fh:
        for raw in fh:
            obj = json.loads(raw)
            if not obj.get("solution"):
                continue
            r = obj["rating"]
            out.append({"puzzle": obj["puzzle"], "solution": obj["solution"], "er": r["er"], "ep": r["ep"],
                        "ed": r["ed"], "hardest": r["erTechnique"],
                        "techniques": list(dict.fromkeys(s["technique"] for s in obj["steps"]))})
    return out


LEVELS = ((1.2, "easy"), (1.6, "medium"), (2.5, "hard"), (6.0, "fiendish"), (99.0, "diabolical"))


def _digits(lines: list[str]) -> np.ndarray:
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(len(lines), 81)
    return np.where(raw == ord("."), 0, raw - ord("0")).astype(np.uint8)


def _orders(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random orders of 9 lines that keep bands (or stacks) together."""
    bands = np.argsort(rng.random((n, 3)), axis=1)
    inner = np.argsort(rng.random((n, 3, 3)), axis=2)
    return (bands[:, :, None] * 3 + np.take_along_axis(inner, bands[:, :, None].repeat(3, 2), 1)).reshape(n, 9)


def make_records(path: Path, count: int, seed: int = 26) -> float:
    """Write ``count`` rating records into ``path``; seconds taken."""
    began = time.perf_counter()
    src = sources()
    puzzles, solutions = _digits([s["puzzle"] for s in src]), _digits([s["solution"] for s in src])
    tails = []
    for s in src:
        level = next(name for top, name in LEVELS if s["er"] <= top + 1e-9)
        tails.append(
            f', "status": "rated", "er": {s["er"]}, "ep": {s["ep"]}, "ed": {s["ed"]}, "level": "{level}", '
            f'"lower_bound": false, "ep_lower_bound": false, "ed_lower_bound": false, '
            f'"hardest": {json.dumps(s["hardest"])}, "techniques": {json.dumps(s["techniques"])}, '
            f'"steps": 60, "score": 900, "score_level": "medium", "line": ')
    rng = np.random.default_rng(seed)
    blank = ord(".")
    with open(path, "w") as fh:
        done = 0
        while done < count:
            n = min(200_000, count - done)
            pick = rng.integers(0, len(src), n)
            grid = puzzles[pick].copy()
            sol = solutions[pick]
            for _ in range(4):  # one to four clues of the solution added
                cell = rng.integers(0, 81, n)
                take = rng.random(n) < 0.7
                rows = np.flatnonzero(take)
                grid[rows, cell[rows]] = sol[rows, cell[rows]]
            rows9, cols9 = _orders(rng, n), _orders(rng, n)
            cells = (rows9[:, :, None] * 9 + cols9[:, None, :]).reshape(n, 81)
            grid = np.take_along_axis(grid, cells, 1)
            flip = rng.random(n) < 0.5
            grid[flip] = grid[flip].reshape(-1, 9, 9).transpose(0, 2, 1).reshape(-1, 81)
            labels = np.concatenate([np.zeros((n, 1), np.uint8),
                                     np.argsort(rng.random((n, 9)), axis=1).astype(np.uint8) + 1], axis=1)
            grid = np.take_along_axis(labels, grid.astype(np.intp), 1)
            text = np.where(grid == 0, blank, grid + ord("0")).astype(np.uint8).tobytes().decode()
            fh.write("".join(f'{{"puzzle": "{text[81 * i:81 * i + 81]}"{tails[p]}{done + i + 1}}}\n'
                             for i, p in enumerate(pick.tolist())))
            done += n
    return time.perf_counter() - began


_ADD = r"""
import json, os, resource, sys, time
import numpy as np
from sudokit import batch
from sudokit.bank import Bank, add
from sudokit.canon import kernel
kernel.warm()  # the compiled kernels loaded (or compiled) before the clock starts
batch.solve_many(np.zeros((1, 81), np.uint8))
try:
    from sudokit.bank import warm  # the bank's own kernels: the reader of rating records, digests
    warm()
except ImportError:  # code from before them
    pass
bank = Bank(sys.argv[1])
load = os.getloadavg()[0]
began, wall = time.process_time(), time.perf_counter()
report = add(bank, [sys.argv[2]])
cpu, wall = time.process_time() - began, time.perf_counter() - wall
bank.close()
# the peak of this process's own memory: VmHWM starts again at exec, ru_maxrss (kept across
# exec on Linux) would count the parent's peak, the records made in memory, too
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
try:
    with open("/proc/self/status") as fh:
        peak = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM")) / 1024
except (OSError, StopIteration):
    pass
print(json.dumps({"cpu": cpu, "wall": wall, "new": report.new, "repeats": report.repeats, "failed": report.failed,
                  "rss_mb": peak, "load": load}))
"""

_CANON = r"""
import json, sys, time
from sudokit.bank.intake import parse_line
from sudokit.bank.keys import keyed_many
from sudokit.canon import kernel
kernel.warm()
items = []
with open(sys.argv[1]) as fh:
    for number, raw in enumerate(fh, 1):
        items.append(parse_line(raw.strip(), number, ""))
        if number >= int(sys.argv[2]):
            break
grids = [it.grid for it in items]
began = time.process_time()
for i in range(0, len(grids), 8192):
    keyed_many(grids[i:i + 8192])
print(json.dumps({"canon_cpu": time.process_time() - began, "n": len(grids)}))
"""


def _added(folder: Path, records: Path, src: Path | None = None) -> dict:
    """One add into a new bank, in a fresh process (``src``: another checkout's code)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    bank = folder / "add.sqlite"
    for name in (bank, Path(f"{bank}-wal"), Path(f"{bank}-shm")):
        name.unlink(missing_ok=True)
    out = subprocess.run([sys.executable, "-c", _ADD, str(bank), str(records)],
                         capture_output=True, text=True, check=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def bench_pairs(count: int, folder: Path, others: list[Path], rounds: int) -> None:
    """The add of this code and of each of ``others`` (checkouts), alternately, ``rounds`` times."""
    records = folder / "records.jsonl"
    make_records(records, count)
    trees = [("this", None)] + [(str(tree), tree.resolve() / "src") for tree in others]
    print()
    print("| code | run | load | CPU s | wall s | puzzles/s (CPU) | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for run in range(1, rounds + 1):
        for name, src in trees:
            out = _added(folder, records, src)
            print(f"| {name} | {run} | {out['load']:.1f} | {out['cpu']:.1f} | {out['wall']:.1f} | "
                  f"{count / out['cpu']:,.0f} | {out['rss_mb']:.0f} |", flush=True)


def bench_add(count: int, folder: Path) -> None:
    records = folder / "records.jsonl"
    made = make_records(records, count)
    print(f"made {count:,} records in {made:.1f} s ({records.stat().st_size / 2**20:.0f} MiB)")
    env = dict(os.environ)
    out = _added(folder, records)
    sample = min(count, 200_000)
    canon = json.loads(subprocess.run([sys.executable, "-c", _CANON, str(records), str(sample)],
                                      capture_output=True, text=True, check=True, env=env).stdout)
    canon_share = canon["canon_cpu"] / canon["n"] * count
    print()
    print("| puzzles | new | repeats | CPU s | wall s | puzzles/s (CPU) | peak RSS MB | of which canonical form, CPU s |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {count:,} | {out['new']:,} | {out['repeats']:,} | {out['cpu']:.1f} | {out['wall']:.1f} | "
          f"{count / out['cpu']:,.0f} | {out['rss_mb']:.0f} | {canon_share:.1f} "
          f"({count / canon_share:,.0f}/s alone) |")
    print(f"without the canonical form: {count / max(1e-9, out['cpu'] - canon_share):,.0f} puzzles/s (CPU)")


def build_rows(path: Path, rows: int, seed: int = 7) -> float:
    """A bank of ``rows`` synthetic rows, filled straight through SQL; seconds taken."""
    from sudokit.bank import Bank, schema
    from sudokit.bank.rows import digest_of

    began = time.perf_counter()
    Bank(path).close()
    import sqlite3

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -262144")
    for name in schema.INDEXES:
        conn.execute(f"DROP INDEX IF EXISTS {name}")
    families = 40
    conn.executemany("INSERT INTO family(bit, name) VALUES (?, ?)", [(b, f"family {b}") for b in range(families)])
    conn.execute("INSERT INTO book(id, name, created) VALUES (1, 'Book 1', '2026-01-01')")
    rng = np.random.default_rng(seed)
    # a family b is on a path with probability 0.85 * 0.8**b: common easy ones, rare hard ones
    chance = 0.85 * 0.8 ** np.arange(families)
    sql = ("INSERT INTO puzzle(digest, key, puzzle, transform, solution, shape, clues, symmetries, symmetry, automorphisms, "
           "er, ep, ed, level, score, score_level, lower_bound, steps, hardest, hardest_family, families, source, "
           "added, seen, rnd) VALUES (?, ?, ?, '0:012345678:012345678:123456789', ?, '3x3', ?, 0, 'none', 1, ?, ?, ?, "
           "?, 900, 'medium', 0, 60, ?, ?, ?, 'synthetic', '2026-01-01', 1, ?)")
    done = 0
    digits = np.frombuffer(b".123456789", dtype=np.uint8)
    while done < rows:
        n = min(250_000, rows - done)
        grid = rng.integers(0, 10, (n, 81), dtype=np.uint8)
        grid[rng.random((n, 81)) < 0.7] = 0
        lines = digits[grid].tobytes().decode()
        sol = digits[rng.integers(1, 10, (n, 81))].tobytes().decode()
        bits = rng.random((n, families)) < chance
        masks = (bits * (1 << np.arange(families, dtype=np.int64))).sum(axis=1)
        hardest = np.where(bits.any(axis=1), families - 1 - np.argmax(bits[:, ::-1], axis=1), 0)
        er = np.round(np.clip(1.0 + hardest * 0.25 + rng.normal(0, 0.4, n), 1.0, 11.9), 1)
        level = np.select([er <= 1.2, er <= 1.6, er <= 2.5, er <= 6.0], ["easy", "medium", "hard", "fiendish"],
                          "diabolical")
        rnd = rng.integers(-(1 << 62), 1 << 62, n)
        conn.execute("BEGIN")
        keys = [f"{done + i:012d}" + lines[81 * i + 12:81 * i + 81] for i in range(n)]
        conn.executemany(sql, ((digest_of(keys[i]), keys[i], lines[81 * i:81 * i + 81],
                                sol[81 * i:81 * i + 81], 25, float(er[i]), 1.2, 1.0, str(level[i]), "hardest",
                                int(hardest[i]), int(masks[i]), int(rnd[i])) for i in range(n)))
        conn.execute("COMMIT")
        done += n
    for sql_index in schema.INDEXES.values():
        conn.execute(sql_index)
    # a book that used 1% of the puzzles
    conn.execute("INSERT INTO used(book, puzzle, at) SELECT 1, id, '2026-01-01' FROM puzzle WHERE id % 100 = 0")
    conn.execute("ANALYZE")
    conn.close()
    return time.perf_counter() - began


def bench_query(rows: int, folder: Path, keep: Path | None = None) -> None:
    from sudokit.bank import Bank, Query, choose

    path = keep or folder / "big.sqlite"
    if not path.exists():
        took = build_rows(path, rows)
        print(f"built a bank of {rows:,} synthetic rows in {took:.0f} s ({path.stat().st_size / 2**30:.1f} GiB)")
    bank = Bank(path, readonly=True)
    held = bank.count()
    cases = [
        ("ER 6.2-9.0 and a common technique (family 3)", dict(rating=(6.2, 9.0), technique="family 3")),
        ("ER 6.2-9.0 and a rarer technique (family 12)", dict(rating=(6.2, 9.0), technique="family 12")),
        ("ER 2.0-4.0 and a common technique (family 1)", dict(rating=(2.0, 4.0), technique="family 1")),
        ("ER 6.2-9.0 and the hardest technique (family 20)", dict(rating=(6.2, 9.0), hardest="family 20")),
        ("level fiendish, unused", dict(level="fiendish", unused=True)),
        ("ER 4.0-6.0, technique (family 8), not in Book 1", dict(rating=(4.0, 6.0), technique="family 8",
                                                              not_in="Book 1")),
    ]
    print()
    print(f"bank of {held:,} puzzles; each query returns 100 (median of 5 seeds)")
    print()
    print("| query | order | wall ms | CPU ms | returned |")
    print("|---|---|---:|---:|---:|")
    for label, filters in cases:
        for order in ("random", "rating"):
            walls, cpus, got = [], [], 0
            for seed in range(5):
                q = Query(n=100, order=order, seed=seed, **filters)
                w, c = time.perf_counter(), time.process_time()
                got = len(choose(bank, q))
                walls.append((time.perf_counter() - w) * 1000)
                cpus.append((time.process_time() - c) * 1000)
            print(f"| {label} | {order} | {statistics.median(walls):.1f} | {statistics.median(cpus):.1f} | {got} |")
    bank.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--add", type=int, default=1_000_000, help="records to add (0: skip)")
    parser.add_argument("--rows", type=int, default=10_000_000, help="rows of the query bank (0: skip)")
    parser.add_argument("--keep", type=Path, default=None, help="build (or reuse) the query bank at this path")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the files (default: a temporary folder)")
    parser.add_argument("--against", type=Path, action="append", default=[],
                        help="another checkout whose add alternates with this one's (repeatable)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each code with --against")
    args = parser.parse_args()
    require(DATA / "rated" / "se_dev_steps.jsonl.gz")
    import platform

    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        if args.add and args.against:
            bench_pairs(args.add, Path(folder), args.against, args.rounds)
        elif args.add:
            bench_add(args.add, Path(folder))
        if args.rows:
            bench_query(args.rows, Path(folder), args.keep)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
