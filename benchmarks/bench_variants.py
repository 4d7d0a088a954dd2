"""Variants: how fast X, hyper and jigsaw puzzles are made and solved, beside classic ones.

    python benchmarks/bench_variants.py            # 9x9, 500 puzzles per row
    python benchmarks/bench_variants.py -n 2000
    python benchmarks/bench_variants.py --solve-only --repeat 5
    python benchmarks/bench_variants.py --rated-only --repeat 7   # only the rated sets, by ER
    python benchmarks/bench_variants.py --against /path/to/other/src --repeat 11   # kernel9u A B A B

Three markdown tables. Generation: puzzles per second (wall clock and CPU
time of this process, one process), mean clue count, for minimal unique 9x9
puzzles of each variant (jigsaw with one fixed layout, and with a fresh
random layout per puzzle). Solving the generated puzzles: CPU µs per puzzle
to prove them unique (count with limit 2, through ``sudokit.engine.count``)
on the engine, which takes 9x9 variants to the 9x9 kernel over any units
(kernel9u), on the general N×N search (kernelN, the engine's path for
variants before it) and with Crook's method, with the ratios to classic
puzzles made the same way and the search nodes per puzzle. Engine times
are the fastest of ``--repeat`` rounds, the sets interleaved, so that a busy
host skews them less. Compilation is paid before timing starts.

Solving puzzles of the same difficulty: the shared X and windoku puzzles
rated by Sudoku Explainer (``../shared/data/rated/x_dev.tsv``,
``hyper_dev.tsv``) against the classic ones of ``se_dev.tsv``, by SE's
rating (ER). First the coarse bands recorded before (ER 1-2, 2-4, 4-7, 7+,
the classic times weighted by the variant's bands), kept so that the
figures compare with the recorded ones. Their top band is badly matched:
half the X puzzles there are rated 9.0 or more, against 4 of the 112
classic ones (none above 9.0), so it flatters the classic kernel.

The fair comparison ("similar difficulty") is the second and third table.
Bands of 0.5 of ER ([1.0, 1.5), [1.5, 2.0), ...) up to the highest classic
ER (9.0), which is a band of its own; each set is timed band by band (every
band a set of its own, interleaved with the others), and a variant is held
against the classic times of its bands weighted by its own puzzles per band:
(a) over the ERs that both sets have, the main figure (and, as a check on the
width of the bands, the same with bands of 1.0, two classic bands of 0.5
pooled); (b) the variant's puzzles above every classic one, against the
classic puzzles of the top ER (easier: this overstates the ratio) and, as a
bracket, against ``hard_dev.tsv`` (classic, ER 10.4-11.9, harder than any
variant puzzle: this understates it); then all the variant's puzzles, (b)
each way. Every variant row is reported the same way, with nodes/puzzle
(search nodes: calls of the propagation) beside the times.

``--against SRC`` compares this tree's kernel9u with another tree's (the
``src`` folder of another checkout or worktree), both in this one process,
set by set A B A B, as ``bench_engine.py --against`` does for the classic
kernel: the rated X and windoku sets and ``-n`` generated X, hyper, jigsaw
and jigsaw-X puzzles.
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


from shared_data import RATED  # noqa: E402  (benchmarks/shared_data.py; the rated sets are optional here)

#: Bands of Sudoku Explainer's rating (ER): [low, high), the coarse ones recorded first.
BANDS = ((1.0, 2.0), (2.0, 4.0), (4.0, 7.0), (7.0, 12.0))
#: The width of the fair comparison's bands of ER.
FINE = 0.5


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


def band_of(er: float, bands=BANDS) -> int:
    return next(i for i, (low, high) in enumerate(bands) if low <= er < high)


def fine_bands(top: float) -> tuple[tuple[float, float], ...]:
    """Bands of 0.5 of ER from 1.0 up to ``top`` (the highest classic ER),
    and ``top`` alone as the last band: [1.0, 1.5), ..., [top - 0.5, top), [top, top]."""
    bands = []
    low = 1.0
    while low < top:
        bands.append((low, min(low + FINE, top)))
        low += FINE
    return tuple(bands) + ((top, top + 1e-9),)


def _mean(pairs: list[tuple[int, float]]) -> float:
    """The mean of per-band values, ``(puzzles, value)`` pairs weighted by their puzzles."""
    return sum(n * v for n, v in pairs) / sum(n for n, _ in pairs)


def same_difficulty(repeat: int) -> None:
    """The shared rated X and windoku puzzles against the classic ones, band by band of ER:
    the coarse bands recorded before, then the fair comparison (see the module docstring)."""
    if not (RATED / "se_dev.tsv").exists():
        print(f"\n(no rated puzzles in {RATED}: set SUDOKIT_SHARED)")
        return
    puzzles = {"classic": rated("se_dev.tsv", "puzzle", None), "x": rated("x_dev.tsv", "puzzle", variants.x()),
               "hyper": rated("hyper_dev.tsv", "puzzle", variants.hyper())}
    top = max(er for _, er in puzzles["classic"])
    fine = fine_bands(top)
    sets: dict = {}
    for label, rows in puzzles.items():
        for kind, bands in (("coarse", BANDS), ("fine", fine)):
            for i in range(len(bands)):
                grids = [g for g, er in rows if bands[i][0] <= er < bands[i][1]]
                if grids:
                    sets[(kind, label, i)] = grids
        above = [g for g, er in rows if er > top]
        if above:
            sets[("above", label)] = above
    if (RATED / "hard_dev.tsv").exists():
        sets[("hard",)] = [g for g, _ in rated("hard_dev.tsv", "puzzle", None)]
    times = engine_times(sets, repeat)  # type: ignore[arg-type]
    print(f"\nmachine: {machine()}, load {os.getloadavg()[0]:.1f}\n")
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
            us, nodes = times[("coarse", label, i)]
            cells.append(f"{us:,.1f} ({n}, {nodes:.1f})")
            total += n * us
            weighted += n * times[("coarse", "classic", i)][0]
        print(f"| {label} | {' | '.join(cells)} | {total / len(rows):,.1f} | {total / weighted:.2f} |", flush=True)

    # the fair comparison: bands of 0.5 up to the top classic ER
    others = [label for label in puzzles if label != "classic"]
    counts = {(label, i): sum(1 for _, er in rows if fine[i][0] <= er < fine[i][1])
              for label, rows in puzzles.items() for i in range(len(fine))}
    print(f"\nThe same by bands of {FINE:g} of ER up to the highest classic ER ({top:g}, a band of its own), "
          "µs/puzzle (puzzles, nodes/puzzle):\n")
    print("| ER | classic | " + " | ".join(f"{v} | {v} / classic" for v in others) + " |")
    print("|---|---:|" + "---:|---:|" * len(others))
    for i, (low, high) in enumerate(fine):
        classic = times.get(("fine", "classic", i))
        cells = [f"{classic[0]:,.1f} ({counts[('classic', i)]}, {classic[1]:.1f})" if classic else "-"]
        for v in others:
            mine = times.get(("fine", v, i))
            cells.append(f"{mine[0]:,.1f} ({counts[(v, i)]}, {mine[1]:.1f})" if mine else "-")
            cells.append(f"{mine[0] / classic[0]:.2f}" if mine and classic else "-")
        print(f"| {low:g}{'' if i == len(fine) - 1 else f'-{high:g}'} | {' | '.join(cells)} |")
    summary(puzzles, fine, top, times, counts, others)


def summary(puzzles, fine, top, times, counts, others) -> None:
    """Per variant: (a) its puzzles within the classic ERs against the classic
    times weighted by its bands (of 0.5, and of 1.0 of ER: two bands of 0.5
    pooled); (b) its puzzles above every classic one against the classic ones
    of the top ER and, as a bracket, against hard_dev's; then all of them,
    (b) each way."""
    print("\nPer variant, µs/puzzle and nodes/puzzle, the classic figures weighted by the variant's bands:\n")
    print("| set | puzzles | µs/puzzle | nodes/puzzle | classic µs (weighted) | classic nodes (weighted) | "
          "/ classic |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    # the classic bands of 1.0 (the top ER alone stays alone): (puzzles, µs, nodes)
    whole: dict[float, list] = {}
    for i, (low, _) in enumerate(fine):
        if ("fine", "classic", i) in times:
            key = low if i == len(fine) - 1 else float(int(low))
            whole.setdefault(key, []).append((counts[("classic", i)], *times[("fine", "classic", i)]))
    for v in others:
        common = [i for i in range(len(fine)) if counts[(v, i)] and ("fine", "classic", i) in times]
        left = sum(counts[(v, i)] for i in range(len(fine)) if counts[(v, i)]) - sum(counts[(v, i)] for i in common)
        n = sum(counts[(v, i)] for i in common)
        us = _mean([(counts[(v, i)], times[("fine", v, i)][0]) for i in common])
        nodes = _mean([(counts[(v, i)], times[("fine", v, i)][1]) for i in common])
        c_us = _mean([(counts[(v, i)], times[("fine", "classic", i)][0]) for i in common])
        c_nodes = _mean([(counts[(v, i)], times[("fine", "classic", i)][1]) for i in common])
        span = f"ER {min(er for _, er in puzzles[v]):.1f} to {top:.1f}"
        print(f"| {v}, {span} (bands of {FINE:g}) | {n} | {us:,.1f} | {nodes:.1f} | {c_us:,.1f} | {c_nodes:.1f} | "
              f"**{us / c_us:.2f}** |")
        keys = [fine[i][0] if i == len(fine) - 1 else float(int(fine[i][0])) for i in common]
        w_us = _mean([(counts[(v, i)], _mean([(m, t) for m, t, _ in whole[k]])) for i, k in zip(common, keys)])
        w_nodes = _mean([(counts[(v, i)], _mean([(m, x) for m, _, x in whole[k]])) for i, k in zip(common, keys)])
        print(f"| {v}, {span} (bands of 1) | {n} | {us:,.1f} | {nodes:.1f} | {w_us:,.1f} | {w_nodes:.1f} | "
              f"{us / w_us:.2f} |")
        if left:
            print(f"| {v}: {left} puzzles within the classic ERs but in bands without classic ones, left out "
                  "| | | | | | |")
        if ("above", v) not in times:
            continue
        a_n = sum(1 for _, er in puzzles[v] if er > top)
        a_us, a_nodes = times[("above", v)]
        brackets = [(f"the classic ones of ER {top:g}", times[("fine", "classic", len(fine) - 1)])]
        if ("hard",) in times:
            brackets.append(("hard_dev (ER 10.4-11.9)", times[("hard",)]))
        for name, (b_us, b_nodes) in brackets:
            print(f"| {v}, ER above {top:g}, against {name} | {a_n} | {a_us:,.1f} | {a_nodes:.1f} | {b_us:,.1f} | "
                  f"{b_nodes:.1f} | {a_us / b_us:.2f} |")
        for name, (b_us, b_nodes) in brackets:
            all_us = _mean([(n, us), (a_n, a_us)])
            all_c = _mean([(n, c_us), (a_n, b_us)])
            print(f"| {v}, all (above {top:g}: against {name}) | {n + a_n} | {all_us:,.1f} | "
                  f"{_mean([(n, nodes), (a_n, a_nodes)]):.1f} | {all_c:,.1f} | "
                  f"{_mean([(n, c_nodes), (a_n, b_nodes)]):.1f} | {all_us / all_c:.2f} |", flush=True)


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


def against(other: Path, rounds: int, n: int) -> None:
    """This tree's kernel9u (A) against ``other``'s (B, the ``src`` folder of
    another checkout), both loaded in this process from copies of their
    ``engine`` folders: count with limit 2 (``count9u`` called from Python,
    once a puzzle) on the rated X and windoku sets and on generated X, hyper,
    jigsaw and jigsaw-X puzzles, every set A B A B (B A B A every other
    round); per set the best CPU µs/puzzle of each, the median of the ratios
    A/B of the pairs and their range, and the nodes/puzzle of each. Both must
    find one solution to every puzzle."""
    import tempfile

    import numpy as np

    from bench_engine import kernel_of

    geometries = {"x": variants.x(), "hyper": variants.hyper(), "jigsaw": variants.jigsaw("3x3", LAYOUT),
                  "x + jigsaw": variants.combine(variants.jigsaw("3x3", LAYOUT), variants.x())}
    sets: dict[str, tuple] = {}
    if (RATED / "x_dev.tsv").exists():
        for name, geo in (("x_dev.tsv", "x"), ("hyper_dev.tsv", "hyper")):
            rows = rated(name, "puzzle", None)
            sets[name] = (geo, [g for g, _ in rows])
            if geo == "x":
                sets[f"{name} ER < 7"] = (geo, [g for g, er in rows if er < 7])
                sets[f"{name} ER 7+"] = (geo, [g for g, er in rows if er >= 7])
    for geo, options in (("x", ROWS["x"]), ("hyper", ROWS["hyper"]), ("jigsaw", ROWS["jigsaw (one layout)"]),
                         ("x + jigsaw", ROWS["x + jigsaw (one layout)"])):
        sets[f"generated {geo}"] = (geo, [p.puzzle for p in generate_many(n, seed=1, **options)])
    with tempfile.TemporaryDirectory() as into:
        kernels = {"A": kernel_of(Path(__file__).resolve().parents[1] / "src", "bench_a", Path(into), "kernel9u"),
                   "B": kernel_of(other, "bench_b", Path(into), "kernel9u")}
        for k in kernels.values():
            k.load()
        calls = {(tag, geo): (*k.tables_of(g), k.propagator()) for tag, k in kernels.items()
                 for geo, g in geometries.items()}
        values = {name: [np.array(grid.values, dtype=np.uint8) for grid in grids] for name, (_, grids) in sets.items()}

        def run(tag: str, name: str) -> tuple[float, float]:
            count9u, args = kernels[tag].count9u, calls[(tag, sets[name][0])]
            out, stats = np.zeros(81, dtype=np.uint8), np.zeros(2, dtype=np.int64)
            start = time.process_time()
            for grid in values[name]:
                if count9u(grid, *args, 2, 0, out, stats) != 1:
                    raise SystemExit(f"{tag}: not one solution in {name}")
            return 1e6 * (time.process_time() - start) / len(values[name]), stats[0] / len(values[name])

        for name in sets:
            run("A", name), run("B", name)  # compiled and loaded before timing
        times: dict[tuple[str, str], list[float]] = {}
        nodes = {}
        gc.collect()
        for r in range(rounds):
            for name in sets:
                for tag in ("AB" if r % 2 == 0 else "BA"):
                    us, nodes[(tag, name)] = run(tag, name)
                    times.setdefault((tag, name), []).append(us)
    print(f"\nmachine: {machine()}, load {os.getloadavg()[0]:.1f}\nA: this tree; B: {other}\n")
    print("| set | puzzles | A µs/puzzle (best) | B µs/puzzle (best) | A/B (median of pairs) | range | A nodes | "
          "B nodes |")
    print("|---|---:|---:|---:|---:|---|---:|---:|")
    for name in sets:
        ratios = sorted(a / b for a, b in zip(times[("A", name)], times[("B", name)]))
        print(f"| {name} | {len(values[name])} | {min(times[('A', name)]):.1f} | {min(times[('B', name)]):.1f} | "
              f"{statistics.median(ratios):.3f} | {ratios[0]:.3f} to {ratios[-1]:.3f} | {nodes[('A', name)]:.1f} | "
              f"{nodes[('B', name)]:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=500, help="puzzles per row")
    parser.add_argument("--crook", type=int, default=50, help="puzzles per row solved by Crook's method")
    parser.add_argument("--repeat", type=int, default=5, help="rounds of the engine's timings (the fastest is kept)")
    parser.add_argument("--solve-only", action="store_true", help="make the puzzles untimed, time only the solving")
    parser.add_argument("--rated-only", action="store_true", help="only the rated sets of the same difficulty")
    parser.add_argument("--against", type=Path, metavar="SRC", help="this tree's kernel9u against another tree's "
                        "(its src folder), A B A B, on the rated and generated sets (-n of each)")
    parser.add_argument("--verdicts", type=int, default=30, help="solutions whose minimisation paths time the "
                        "generator's uniqueness verdict (0: none)")
    args = parser.parse_args()
    if args.rated_only:
        same_difficulty(args.repeat)
        return
    if args.against is not None:
        against(args.against.resolve(), args.repeat, args.n)
        return
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
