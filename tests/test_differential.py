"""Every method against independent truth and against each other.

The truth is ``../shared/data/cases`` (counts written by others) and
``tests/reference.py`` (a solver that shares no code with sudokit). Puzzles
of small shapes are made here from a random seed, so the methods meet
puzzles that nobody tuned them on.
"""

from __future__ import annotations

import random

import pytest

from sudokit import Grid, Shape, Status, available_methods, count, deduce, solve
from sudokit.examples import EXAMPLES

from conftest import bench_sample, load_counts, load_multisize
from reference import obeys_rules, reference_count

COMPLETE = [name for name, spec in available_methods().items() if spec.complete]
# Methods too slow for a wide sweep get a smaller one.
SLOW = {"mip", "bfs", "wholemeal", "wholemeal-first"}
# How far each method counts on counts.tsv by default (the stated counts
# reach 847; the run marked slow counts every method up to 1000).
COUNT_CAP = {"fast": 1000}
# Which counts.tsv rows each method takes by default: every k-th row.
COUNT_STRIDE = {"fast": 1, "preemptive": 1, "dfs": 2, "mip": 3, "wholemeal": 5, "bfs": 4}


def stated_limit(count_text: str, cap: int = 1000) -> tuple[int, int]:
    """(limit to count up to, expected count at that limit) for a counts.tsv row."""
    if count_text.startswith(">"):
        return 2, 2
    known = int(count_text)
    limit = min(known + 1, cap)
    return limit, min(known, limit)


def random_grid(shape: Shape, rng: random.Random) -> list[int]:
    """A random complete grid: a reference solution of the empty grid,
    relabelled and with rows, columns, bands and stacks shuffled."""
    n = shape.size
    _, base = reference_count([0] * (n * n), shape.box_rows, shape.box_cols, limit=1)
    assert base is not None
    label = list(range(1, n + 1))
    rng.shuffle(label)

    def order(groups: int, per: int) -> list[int]:
        outer = list(range(groups))
        rng.shuffle(outer)
        result = []
        for g in outer:
            inner = list(range(per))
            rng.shuffle(inner)
            result += [g * per + i for i in inner]
        return result

    rows = order(n // shape.box_rows, shape.box_rows)
    cols = order(n // shape.box_cols, shape.box_cols)
    return [label[base[r * n + c] - 1] for r in rows for c in cols]


def random_puzzles(shape: Shape, seed: int) -> list[list[int]]:
    """Puzzles of four kinds: many clues, few clues, altered (often no
    solution) and clashing givens."""
    rng = random.Random(seed)
    n = shape.size
    full = random_grid(shape, rng)
    out = []
    for keep in (0.6, 0.3):
        out.append([v if rng.random() < keep else 0 for v in full])
    altered = [v if rng.random() < 0.5 else 0 for v in full]
    filled = [i for i, v in enumerate(altered) if v]
    if filled:
        cell = rng.choice(filled)
        altered[cell] = altered[cell] % n + 1
    out.append(altered)
    clash = [v if rng.random() < 0.3 else 0 for v in full]
    clash[0], clash[1] = 1, 1
    out.append(clash)
    return out


@pytest.mark.parametrize("name", sorted(EXAMPLES))
@pytest.mark.parametrize("method", COMPLETE)
def test_every_method_solves_every_example(method: str, name: str) -> None:
    if method == "bfs" and name in {"blank", "minimal"}:
        pytest.skip("breadth-first search holds a whole level of the tree; too wide here")
    if method == "wholemeal-first" and name == "minimal":
        pytest.skip("first-open-cell expansion needs thousands of nodes here: the reason for Bird's improvement")
    grid = EXAMPLES[name].grid
    result = solve(grid, method=method, timeout=60)
    expected, solution = reference_count(list(grid.values), 3, 3, limit=2) if name != "blank" else (2, None)
    if name == "infeasible":
        assert result.status is Status.INVALID
        assert "r5c2" in result.message and "r5c3" in result.message
        return
    assert result.status is Status.SOLVED, result.message
    assert obeys_rules(result.solution.values, grid.values, 3, 3)
    if expected == 1:
        assert list(result.solution.values) == solution


@pytest.mark.parametrize("method", COMPLETE)
def test_counts_match_ground_truth(method: str) -> None:
    rows = load_counts()
    if method == "wholemeal-first":
        # Expanding the first open cell is hopeless on hard puzzles (that is
        # the point of Bird's improvement); keep the cases pruning cracks.
        # (A few puzzles that singles crack still need thousands of nodes
        # here, because Bird's prune removes naked singles only.)
        rows = [r for r in rows if deduce(r["puzzle"], "clauses").status in {Status.SOLVED, Status.INVALID}]
        rows = [r for r in rows if r["count"] == "0"] + [r for r in rows if r["count"] == "1"][:12]
    else:
        rows = rows[:: COUNT_STRIDE.get(method, 1)]
    if method == "bfs":  # a level of the blank grid's tree does not fit in memory
        rows = [r for r in rows if Grid(r["puzzle"]).clues >= 17]
    check_counts(method, rows, COUNT_CAP.get(method, 30))


@pytest.mark.slow
@pytest.mark.parametrize("method", COMPLETE)
def test_counts_match_ground_truth_in_full(method: str) -> None:
    check_counts(method, load_counts(), 1000)


def check_counts(method: str, rows: list[dict[str, str]], cap: int) -> None:
    for row in rows:
        limit, expected = stated_limit(row["count"], cap)
        result = count(row["puzzle"], limit, method=method, timeout=60)
        assert result.status is not Status.TIMEOUT, (method, row["puzzle"])
        assert result.count == expected, (method, row["puzzle"], row["count"], result.message)
        if row["count"] == "1":
            assert result.solution.line() == row["solution"]


@pytest.mark.parametrize("method", COMPLETE)
def test_hard_samples_agree_with_reference(method: str) -> None:
    if method == "wholemeal-first":
        pytest.skip("first-open-cell expansion takes minutes per hard puzzle")
    size = 1 if method == "wholemeal" else 2 if method in SLOW else 12
    puzzles = bench_sample("17_clue.txt", size) + bench_sample("magictour_top1465.txt", size)
    for text in puzzles:
        result = count(text, 2, method=method, timeout=60)
        assert result.count == 1, (method, text, result.status, result.message)
        assert obeys_rules(result.solution.values, Grid(text).values, 3, 3)


SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(3, 3), Shape(3, 4), Shape(4, 3), Shape(4, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("method", COMPLETE)
def test_unseen_shapes_agree_with_reference(method: str, shape: Shape) -> None:
    if method in SLOW and shape.size > 9:
        pytest.skip(f"{method} is too slow for a sweep of {shape} puzzles")
    seeds = range(3) if shape.size > 9 else range(6)
    for seed in seeds:
        for values in random_puzzles(shape, seed * 7919 + shape.size):
            grid = Grid(values, shape)
            if grid.clues < 0.5 * len(values) and (method == "bfs" and shape.size > 4 or shape.size > 9 and method not in {"fast", "dfs", "preemptive"}):
                continue  # sparse puzzles: too wide for breadth-first, too slow for the list-based methods
            truth, _ = reference_count(values, shape.box_rows, shape.box_cols, limit=3) if shape.size <= 9 or grid.clues >= 0.5 * len(values) else (None, None)
            result = count(grid, 3, method=method, timeout=60)
            assert result.status is not Status.TIMEOUT, (method, grid.line())
            if grid.conflicts():
                assert result.status is Status.INVALID
                continue
            if truth is not None:
                assert result.count == truth, (method, str(shape), grid.line())
            if result.count:
                assert obeys_rules(result.solution.values, values, shape.box_rows, shape.box_cols)


@pytest.mark.parametrize("method", COMPLETE)
def test_multisize_cases(method: str) -> None:
    from sudokit.formats import parse

    for case in load_multisize():
        if method in SLOW and case["size"] > 9 or method == "wholemeal-first" and case["count"] == 1:
            continue
        shape = Shape(case["box_rows"], case["box_cols"])
        grid = parse(case["puzzle"], shape=shape, symbols=case["symbols"])
        if str(case["count"]).startswith(">"):
            result = count(grid, 2, method=method, timeout=120)
            assert result.count == 2, (case["name"], result.status, result.message)
            continue
        result = count(grid, 2, method=method, timeout=120)
        if case["count"] == 0:
            assert result.count == 0 and result.status in {Status.INVALID, Status.NO_SOLUTION}
            continue
        assert result.count == 1, (case["name"], method, result.status, result.message)
        expected = parse(case["solution"], shape=shape, symbols=case["symbols"])
        assert result.solution == expected
