"""Start-up and first run of the one-puzzle commands: warm and cold, wall and CPU.

Warm: each command runs once untimed (so numba's cache holds its kernels),
then ``--repeat`` times; the table gives the median wall time and the median
CPU time (user + system of the child), which is steadier than wall time on a
shared machine. Cold: each command runs once with numba pointed at an empty
cache (``NUMBA_CACHE_DIR`` set to a fresh temporary folder), as on the first
run after an install; the table gives its wall and CPU time and the notice it
printed on stderr (the expected time it states).

    python benchmarks/bench_startup.py              # warm and cold
    python benchmarks/bench_startup.py --warm-only
    python benchmarks/bench_startup.py --only solve rate
    python benchmarks/bench_startup.py --first-batch puzzles.txt   # a first batch rating

``--first-batch FILE`` times ``sudoku rate FILE`` four ways: cold in a fresh
cache without the kernel store (its kernels compile in background helpers
while it rates on its pure-Python stand-ins; the helpers' CPU is not the
command's), warm (the same cache once the helpers are done), cold in a fresh
cache with the kernel store (``--store``: built first by ``sudoku warm-up
--store``, timed; ``installed``, the one ``pip install .`` put in the
package; or a folder), alternating ``--rounds`` times, with the ratio of
each cold run's wall time to the warm one's; then after ``sudoku warm-up`` in
another fresh cache (timed too, its compiling processes included;
``--no-warm-up`` skips it), with the load average beside each. The cold runs
without the store set ``SUDOKIT_KERNEL_STORE=off``.

    python benchmarks/bench_startup.py --first-batch g1000.txt --rounds 2
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"
#: An X puzzle (both diagonals hold every digit once) from the shared rated X set.
X_PUZZLE = "......2..1.4............6...4.6.3.9.9...8.1..2.5...........5..9.9....7.....4.....\n"

#: name -> (arguments of `sudoku`, standard input)
COMMANDS: dict[str, tuple[list[str], str | None]] = {
    "solve": (["solve", "--example", "diabolical"], None),
    "count": (["solve", "-", "--count", "--limit", "2"], PUZZLE),
    "rate": (["rate", "-"], PUZZLE),
    "explain": (["explain", "--example", "gentle"], None),
    "hint": (["hint", "--example", "gentle"], None),
    "print": (["print", "--example", "diabolical", "-o", "-"], None),
    "print 4": (["print", "--generate", "4", "--seed", "1", "-o", "-"], None),
    "examples": (["examples"], None),
    "sudoku": ([], None),
    "generate unique": (["generate", "--minimal", "unique"], None),
    "generate 2x3": (["generate", "--box", "2x3"], None),
    "generate 4x4": (["generate", "--box", "4x4"], None),
    "solve 2x3": (["solve", "-", "--box", "2x3"], "1.....\n......\n......\n......\n......\n......\n"),
    "generate logic": (["generate", "--minimal", "logic"], None),
    # more than a few puzzles, or jsonl: the compiled kernels, not the pure-Python quick path
    "solve jsonl": (["solve", "--format", "jsonl", "--example", "diabolical"], None),
    "solve 50": (["solve", "-", "--format", "line"], PUZZLE * 50),
    "count 50": (["solve", "-", "--count", "--format", "line"], PUZZLE * 50),
    "rate 20": (["rate", "-"], PUZZLE * 20),
    "explain 20": (["explain", "-", "--format", "jsonl"], PUZZLE * 20),
    # variants: the 9x9 solver over any units, the generator's verdict for them, the killer search
    "solve x 6": (["solve", "-", "--variant", "x", "--format", "line"], X_PUZZLE * 6),
    "rate x": (["rate", "-", "--variant", "x"], X_PUZZLE),
    "generate x": (["generate", "--variant", "x"], None),
    "generate killer": (["generate", "--variant", "killer"], None),
}


def sudoku() -> str:
    """The console script beside this Python (not a version manager's shim, which adds its own start-up)."""
    beside = Path(sys.executable).parent / "sudoku"
    return str(beside) if beside.exists() else (shutil.which("sudoku") or "sudoku")


def run(args: list[str], stdin: str | None, env: dict[str, str] | None = None) -> tuple[float, float, str, int]:
    """(wall s, CPU s of the child, stderr, exit status) of one run of `sudoku args`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sudoku(), *args], input=stdin, capture_output=True, text=True, errors="replace", env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stderr, done.returncode


def warm(names: list[str], repeat: int) -> dict[str, tuple[float, float]]:
    out = {}
    for name in names:
        args, stdin = COMMANDS[name]
        run(args, stdin)  # fills the cache if needed
        walls, cpus = [], []
        for _ in range(repeat):
            wall, cpu, _, _ = run(args, stdin)
            walls.append(wall)
            cpus.append(cpu)
        out[name] = (statistics.median(walls), statistics.median(cpus))
    return out


def cold(names: list[str]) -> dict[str, tuple[float, float, str, int]]:
    out = {}
    for name in names:
        args, stdin = COMMANDS[name]
        cache = tempfile.mkdtemp(prefix="numba-cold-")
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, SUDOKIT_KERNEL_STORE="off")  # the first run without a store
        try:
            wall, cpu, err, code = run(args, stdin, env)
            # a command that compiles in the background (rate, explain) leaves that
            # compilation running: wait for it, so that it does not share the cores
            # with the next command's first run
            wait_for_background(env)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        notice = next((line for line in err.splitlines() if "compiling" in line), "")
        said = re.search(r"about (\d+) s", notice)
        out[name] = (wall, cpu, said.group(1) + " s" if said else ("(no notice)" if not notice else notice), code)
    return out


def wait_for_background(env: dict[str, str], limit: float = 600.0) -> None:
    """Until no background compilation holds the lock of ``env``'s numba cache."""
    check = "from sudokit.engine.compiling import _compiling_elsewhere as busy; print(busy())"
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env)
        if done.stdout.strip() != "True":
            return
        time.sleep(1.0)


def first_batch(path: str, rounds: int = 1, warm_up: bool = True, store: str = "build", pairs: int = 0) -> None:
    """The first run of a batch rating, alternating in each of ``rounds``:
    cold without the kernel store (a fresh cache, ``SUDOKIT_KERNEL_STORE=off``),
    warm (the same cache once the background compilation is done), and cold
    with the kernel store (another fresh cache); then after ``sudoku
    warm-up`` in a fresh cache (``warm_up``). ``store``: "build" builds one
    first with ``sudoku warm-up --store`` into a temporary folder (timed),
    "installed" uses the package's own (``pip install .`` built it), else the
    folder named. The ratio of each cold run to the warm run of its round is
    in wall time (the target's measure; CPU is the command's, its helpers not
    counted), with the load average beside each. ``pairs``: then that many
    more pairs of a warm run (in the last round's cache) and a cold run with
    the store, alternating, and the medians."""
    def load() -> str:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())

    def fresh(stored: str | None) -> dict[str, str]:
        env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="numba-cold-"))
        env.pop("SUDOKIT_KERNEL_STORE", None)
        if stored != "installed":
            env["SUDOKIT_KERNEL_STORE"] = stored or "off"
        return env

    def said(err: str) -> str:
        return "notice!" if "compiling" in err else ""

    rows = []
    built = None
    if store == "build":
        built = tempfile.mkdtemp(prefix="sudokit-store-")
        env = dict(os.environ, SUDOKIT_KERNEL_STORE=built)
        before = load()
        wall, cpu, err, _ = run(["warm-up", "--store"], None, env)
        rows.append(("`sudoku warm-up --store` (both cores)", wall, cpu, before, "", err.strip().splitlines()[-1]))
        store = built
    warm_cache = None
    try:
        for _ in range(rounds):
            env = fresh(None)
            try:
                before = load()
                start = time.perf_counter()
                cold = run(["rate", path], None, env)
                notice = next((line for line in cold[2].splitlines() if "compiling" in line), "(no notice)")
                about = re.search(r"about (\d+) s", notice)
                wait_for_background(env)
                compiled = time.perf_counter() - start
                before_warm = load()
                warm = run(["rate", path], None, env)
            finally:
                if warm_cache is not None:
                    shutil.rmtree(warm_cache, ignore_errors=True)
                warm_cache = env["NUMBA_CACHE_DIR"]
            env = fresh(store)
            try:
                before_store = load()
                stored = run(["rate", path], None, env)
            finally:
                shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)
            rows.append(("cold, no store", cold[0], cold[1], before, f"{cold[0] / warm[0]:.2f}",
                         (f"notice: about {about.group(1)} s" if about else notice)
                         + f"; helpers done after {compiled:.0f} s"))
            rows.append(("warm", warm[0], warm[1], before_warm, "1", said(warm[2])))
            rows.append(("cold, with the store", stored[0], stored[1], before_store, f"{stored[0] / warm[0]:.2f}",
                         said(stored[2])))
        if warm_cache is not None and pairs:
            walls: dict[str, list[float]] = {"warm": [], "store": []}
            cpus: dict[str, list[float]] = {"warm": [], "store": []}
            loads = [load()]
            for _ in range(pairs):
                env = fresh(None)
                shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)
                env["NUMBA_CACHE_DIR"] = warm_cache
                wall, cpu, _, _ = run(["rate", path], None, env)
                walls["warm"].append(wall)
                cpus["warm"].append(cpu)
                env = fresh(store)
                try:
                    wall, cpu, _, _ = run(["rate", path], None, env)
                finally:
                    shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)
                walls["store"].append(wall)
                cpus["store"].append(cpu)
            loads.append(load())
            for kind, name in (("warm", "warm, median"), ("store", "cold with the store, median")):
                ratio = statistics.median(walls[kind]) / statistics.median(walls["warm"])
                rows.append((f"{name} of {pairs}", statistics.median(walls[kind]), statistics.median(cpus[kind]),
                             " / ".join(loads), f"{ratio:.2f}",
                             "wall " + ", ".join(f"{w:.1f}" for w in walls[kind])))
    finally:
        if built is not None:
            shutil.rmtree(built, ignore_errors=True)
        if warm_cache is not None:
            shutil.rmtree(warm_cache, ignore_errors=True)
    if warm_up:
        env = fresh(None)
        try:
            before = load()
            wall, cpu, err, _ = run(["warm-up"], None, env)
            rows.append(("`sudoku warm-up` (both cores)", wall, cpu, before, "", err.strip().splitlines()[-1]))
            before = load()
            wall, cpu, err, _ = run(["rate", path], None, env)
            rows.append(("first run after warm-up", wall, cpu, before, "", said(err)))
        finally:
            shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)
    print(f"| `sudoku rate {os.path.basename(path)}` | wall s | CPU s | load before | cold/warm (wall) | stderr |")
    print("|---|---:|---:|---|---:|---|")
    for name, wall, cpu, before, ratio, note in rows:
        print(f"| {name} | {wall:.1f} | {cpu:.1f} | {before} | {ratio} | {note} |")


def machine() -> str:
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="+", choices=list(COMMANDS), help="these commands only")
    parser.add_argument("--repeat", type=int, default=5, help="warm runs per command (median)")
    parser.add_argument("--warm-only", action="store_true", help="skip the cold runs")
    parser.add_argument("--cold-only", action="store_true", help="skip the warm runs")
    parser.add_argument("--first-batch", metavar="FILE", help="time a first batch rating of FILE instead")
    parser.add_argument("--rounds", type=int, default=1, help="with --first-batch: cold/warm pairs")
    parser.add_argument("--no-warm-up", action="store_true", help="with --first-batch: skip `sudoku warm-up`")
    parser.add_argument("--pairs", type=int, default=0,
                        help="with --first-batch: then this many more pairs of warm and cold with the store")
    parser.add_argument("--store", default="build", metavar="build|installed|DIR",
                        help="with --first-batch: the kernel store of the cold runs with it: built first by "
                             "`sudoku warm-up --store` (timed), the installed package's own, or a folder")
    args = parser.parse_args()
    names = args.only or list(COMMANDS)
    print(f"machine: {machine()}; command: {sudoku()}")
    if args.first_batch:
        first_batch(args.first_batch, args.rounds, not args.no_warm_up, args.store, args.pairs)
        return
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    hot = {} if args.cold_only else warm(names, args.repeat)
    first = {} if args.warm_only else cold(names)
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print(f"| command | warm wall s | warm CPU s | cold wall s | cold CPU s | notice says |")
    print("|---|---:|---:|---:|---:|---|")
    for name in names:
        shown = "sudoku " + " ".join(COMMANDS[name][0])
        w = hot.get(name)
        c = first.get(name)
        cells = [f"{w[0]:.2f}", f"{w[1]:.2f}"] if w else ["", ""]
        cells += [f"{c[0]:.1f}", f"{c[1]:.1f}", c[2] + ("" if c[3] == 0 else f" (exit {c[3]})")] if c else ["", "", ""]
        print(f"| `{shown.strip()}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
