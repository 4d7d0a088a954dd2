"""Variants: how fast X, hyper and jigsaw puzzles are made and solved, beside classic ones.

    python benchmarks/bench_variants.py            # 9x9, 500 puzzles per row
    python benchmarks/bench_variants.py -n 2000
    python benchmarks/bench_variants.py --solve-only --repeat 5

Three markdown tables. Generation: puzzles per second (wall clock and CPU
time of this process, one process), mean clue count, for minimal unique 9x9
puzzles of each variant (jigsaw with one fixed layout, and with a fresh
random layout per puzzle). Solving the generated puzzles: CPU µs per puzzle
to prove them unique (count with limit 2, through ``sudokit.engine.count``)
on the engine, which takes 9x9 variants to the 9x9 kernel over any units
(kernel9u), on the general N×N search (kernelN, the engine's path for
variants before it) and with Crook's method, with the ratios to classic
puzzles made the same way and the search nodes per puzzle. Solving puzzles of
the same difficulty: the shared X and windoku puzzles rated by Sudoku
Explainer (``../shared/data/rated/x_dev.tsv``, ``hyper_dev.tsv``) against the
classic ones of ``se_dev.tsv``, per band of SE rating (ER), and overall with
the classic times weighted to the variant's bands. Engine times are the
fastest of ``--repeat`` rounds, the sets interleaved, so that a busy host
skews them less. Compilation is paid before timing starts.
"""

from __future__ import annotations

import argparse
import csv
import gc
import os
import statistics
import time
from pathlib import Path

from sudokit import variants
from sudokit.budget import Budget
from sudokit.engine import count as engine_count
from sudokit.engine import search
from sudokit.generation import generate_many
from sudokit.grid import Grid
from sudokit.solving import count

from bench_generate import machine  # the machine line every benchmark prints (this folder is on the path)

#: 9x9 regions: the boxes with r3c3/r4c1 traded between boxes 1 and 4, and r5c6/r6c7 between 5 and 6.
LAYOUT = "111222333111222333114222333144555666444556666444555566777888999777888999777888999"

ROWS = {
    "classic": {},
    "x": {"variant": "x"},
    "hyper": {"variant": "hyper"},
    "jigsaw (one layout)": {"regions": LAYOUT},
    "jigsaw (a layout per puzzle)": {"regions": "random"},
    "x + jigsaw (one layout)": {"variant": "x", "regions": LAYOUT},
}


RATED = Path(os.environ.get("SUDOKIT_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "data" / "rated"

#: Bands of Sudoku Explainer's rating (ER): [low, high).
BANDS = ((1.0, 2.0), (2.0, 4.0), (4.0, 7.0), (7.0, 12.0))


def engine_times(sets: dict[str, list[Grid]], repeat: int, general: bool = False) -> dict[str, tuple[float, float]]:
    """Per set: (CPU µs per puzzle, the fastest of ``repeat`` interleaved
    rounds; search nodes per puzzle) to prove each puzzle unique on the engine.
    ``general``: the variants on the general N×N search instead of kernel9u."""
    tables = search.tables9u
    gc.collect()
    gc.freeze()  # the puzzles stay: the collector need not walk them again while a set is timed
    if general:
        search.tables9u = lambda geometry: None  # type: ignore[assignment]
    try:
        best = {label: float("inf") for label in sets}
        nodes = {}
        for grids in sets.values():
            for grid in grids[:3]:
                engine_count(grid, 2, Budget())
        for _ in range(repeat):
            for label, grids in sets.items():
                budget = Budget()
                start = time.process_time()
                for grid in grids:
                    found, _ = engine_count(grid, 2, budget)
                    assert found == 1, (label, grid.line())
                best[label] = min(best[label], 1e6 * (time.process_time() - start) / len(grids))
                nodes[label] = budget.nodes_used / len(grids)
        return {label: (best[label], nodes[label]) for label in sets}
    finally:
        search.tables9u = tables


def rated(name: str, column: str, geometry) -> list[tuple[Grid, float]]:
    with open(RATED / name, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(Grid(r[column]) if geometry is None else Grid(r[column]).with_geometry(geometry), float(r["er"]))
            for r in rows]


def band_of(er: float) -> int:
    return next(i for i, (low, high) in enumerate(BANDS) if low <= er < high)


def same_difficulty(repeat: int) -> None:
    """The shared rated X and windoku puzzles against the classic ones, band by band of ER."""
    if not (RATED / "se_dev.tsv").exists():
        print(f"\n(no rated puzzles in {RATED}: set SUDOKIT_SHARED)")
        return
    puzzles = {"classic": rated("se_dev.tsv", "puzzle", None), "x": rated("x_dev.tsv", "puzzle", variants.x()),
               "hyper": rated("hyper_dev.tsv", "puzzle", variants.hyper())}
    sets = {}
    for label, rows in puzzles.items():
        for i in range(len(BANDS)):
            grids = [g for g, er in rows if band_of(er) == i]
            if grids:
                sets[(label, i)] = grids
    times = engine_times(sets, repeat)  # type: ignore[arg-type]
    print(f"\nmachine: {machine()}\n")
    print("Puzzles of the same difficulty: the shared rated sets, µs/puzzle (count with limit 2) per band of "
          "SE rating (ER), puzzles and nodes/puzzle in brackets.\n")
    heads = " | ".join(f"ER {low:g}-{high:g}" if high < 12 else f"ER {low:g}+" for low, high in BANDS)
    print(f"| set | {heads} | overall | / classic of the same ERs |")
    print("|---|" + "---:|" * (len(BANDS) + 2))
    for label, rows in puzzles.items():
        cells = []
        total = weighted = 0.0
        for i in range(len(BANDS)):
            n = sum(1 for _, er in rows if band_of(er) == i)
            if not n:
                cells.append("-")
                continue
            us, nodes = times[(label, i)]
            cells.append(f"{us:,.1f} ({n}, {nodes:.1f})")
            total += n * us
            weighted += n * times[("classic", i)][0]
        print(f"| {label} | {' | '.join(cells)} | {total / len(rows):,.1f} | {total / weighted:.2f} |", flush=True)


def verdicts(made: dict[str, list[Grid]], count: int) -> None:
    """The generator's uniqueness verdict on a minimisation path: from each
    solution, clues are taken out in a random order while the puzzle stays
    unique. Each step asks one verdict, answered by the general search
    looking for a solution without the known value in the cell taken out
    (``kernelN.find_other``, the generator's verdict for variants today), and
    by counting to 2 on kernel9u (``kernel9u.count9u``). Both are called from
    Python here, once per verdict."""
    import random

    import numpy as np

    from sudokit.engine.generate import arrays_of
    from sudokit.engine.kernel9u import count9u
    from sudokit.engine.search import tables9u
    from sudokit.engine.kernelN import find_other

    print(f"\nmachine: {machine()}\n")
    print(f"The generator's uniqueness verdict for variants, on the minimisation paths of {count} solutions "
          "(CPU µs per verdict):\n")
    print("| 9x9 | verdicts | find_other (kernelN) | count to 2 (kernel9u) | speed-up |")
    print("|---|---:|---:|---:|---:|")
    full = np.uint64((1 << 9) - 1)
    for label, grids in made.items():
        if label == "classic" or "per puzzle" in label:
            continue
        geo = grids[0].geometry
        units, peers = arrays_of(geo)
        tables = tables9u(geo)
        stats = np.zeros(2, dtype=np.int64)
        out = np.zeros(81, dtype=np.uint8)
        masks = np.zeros(81, dtype=np.uint64)
        times = [0.0, 0.0]
        asked = 0
        blank = np.zeros(81, dtype=np.uint8)
        masks[:] = full
        find_other(masks, units, peers, 3, 3, blank + 1, None, 0, out, stats)  # load both before timing
        count9u(blank, *tables, 2, 0, out, stats)
        for k, grid in enumerate(grids[:count]):
            solution = np.array(engine_count(grid, 2, Budget())[1].values, dtype=np.uint8)
            puzzle = solution.copy()
            order = list(range(81))
            random.Random(k).shuffle(order)
            for cell in order:
                puzzle[cell] = 0
                for e in range(81):
                    masks[e] = np.uint64(1 << (int(puzzle[e]) - 1)) if puzzle[e] else full
                masks[cell] = full & ~np.uint64(1 << (int(solution[cell]) - 1))
                start = time.process_time()
                other = find_other(masks, units, peers, 3, 3, solution, None, 0, out, stats)
                middle = time.process_time()
                found = count9u(puzzle, *tables, 2, 0, out, stats)
                times[0] += middle - start
                times[1] += time.process_time() - middle
                asked += 1
                assert (other == 0) == (found == 1), (label, cell)
                if found != 1:
                    puzzle[cell] = solution[cell]
        print(f"| {label} | {asked} | {1e6 * times[0] / asked:,.1f} | {1e6 * times[1] / asked:,.1f} | "
              f"{times[0] / times[1]:.1f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=500, help="puzzles per row")
    parser.add_argument("--crook", type=int, default=50, help="puzzles per row solved by Crook's method")
    parser.add_argument("--repeat", type=int, default=5, help="rounds of the engine's timings (the fastest is kept)")
    parser.add_argument("--solve-only", action="store_true", help="make the puzzles untimed, time only the solving")
    parser.add_argument("--verdicts", type=int, default=30, help="solutions whose minimisation paths time the "
                        "generator's uniqueness verdict (0: none)")
    args = parser.parse_args()
    print(f"machine: {machine()}\n")
    made = {}
    if not args.solve_only:
        print("| 9x9, minimal unique | puzzles | per s (wall) | per s (CPU) | mean clues |")
        print("|---|---:|---:|---:|---:|")
    for label, options in ROWS.items():
        list(generate_many(2, seed=999_999, **options))  # compile or load the kernels first
        wall, cpu = time.perf_counter(), time.process_time()
        puzzles = list(generate_many(args.n, seed=1, **options))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        made[label] = [p.puzzle for p in puzzles]
        if not args.solve_only:
            print(f"| {label} | {args.n} | {args.n / wall:,.0f} | {args.n / cpu:,.0f} | "
                  f"{statistics.mean(p.clues for p in puzzles):.1f} |", flush=True)
    print(f"\nmachine: {machine()}\n")
    print("Proving the puzzles made above unique (count with limit 2), CPU µs/puzzle:\n")
    print("| 9x9 puzzles made above | mean clues | engine µs/puzzle | engine / classic | nodes/puzzle | "
          "general search µs/puzzle | general / classic | Crook's method µs/puzzle |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    fast = engine_times(made, args.repeat)
    general = engine_times(made, args.repeat, general=True)
    classic, classic_general = fast["classic"][0], general["classic"][0]
    for label, grids in made.items():
        start = time.process_time()
        for grid in grids[: args.crook]:
            assert count(grid, limit=2, method="preemptive").count == 1
        crook = 1e6 * (time.process_time() - start) / min(len(grids), args.crook)
        clues = statistics.mean(sum(1 for v in g.values if v) for g in grids)
        us, nodes = fast[label]
        print(f"| {label} | {clues:.1f} | {us:,.1f} | {us / classic:.1f} | {nodes:.1f} | {general[label][0]:,.1f} | "
              f"{general[label][0] / classic_general:.1f} | {crook:,.0f} |", flush=True)
    same_difficulty(args.repeat)
    if args.verdicts:
        verdicts(made, args.verdicts)


if __name__ == "__main__":
    main()
