"""The 9x9 kernel over any units (engine/kernel9u.py): the engine's counts,
solutions and enumerations of X, hyper, jigsaw and their combinations are
held to the independent solver (tests/reference_variants.py), whose units are
written from the published rules; every solution obeys every reference unit;
the budgets hold as on the other paths; and 9x9 variants really take this
kernel."""

from __future__ import annotations

import csv
import random

import numpy as np
import pytest

import reference_variants as ref
from conftest import RATED, require_shared
from sudokit import engine, solving, variants
from sudokit.budget import Budget
from sudokit.engine.search import tables9u
from sudokit.errors import LimitReached
from sudokit.generation import generate_many
from sudokit.geometry import BOX, COLUMN, ROW, Geometry
from sudokit.grid import CLASSIC, Grid
from sudokit.result import Status

#: 9x9 regions: the boxes with r3c3/r4c1 traded between boxes 1 and 4, and r5c6/r6c7 between 5 and 6.
LAYOUT = "111222333111222333114222333144555666444556666444555566777888999777888999777888999"
#: A layout drawn by the generator (variants.random_layout).
LAYOUT2 = variants.random_layout("3x3", 42)

CLASSIC_UNITS = ref.rows(9) + ref.columns(9) + ref.boxes(3, 3)

#: name -> (the geometry, the --variant names and regions to generate it, the reference's units)
CASES = {
    "x": (variants.x("3x3"), {"variant": "x"}, CLASSIC_UNITS + ref.diagonals(9)),
    "hyper": (variants.hyper(), {"variant": "hyper"}, CLASSIC_UNITS + ref.windows()),
    "hyper, four windows": (variants.hyper(hidden=False), {"variant": "hyper"}, CLASSIC_UNITS + ref.windows()),
    "jigsaw": (variants.jigsaw("3x3", LAYOUT), {"regions": LAYOUT},
               ref.rows(9) + ref.columns(9) + ref.regions_of(LAYOUT)),
    "jigsaw 2": (variants.jigsaw("3x3", LAYOUT2), {"regions": LAYOUT2},
                 ref.rows(9) + ref.columns(9) + ref.regions_of(LAYOUT2)),
    "jigsaw-x": (variants.combine(variants.jigsaw("3x3", LAYOUT), variants.x("3x3")),
                 {"variant": "x", "regions": LAYOUT},
                 ref.rows(9) + ref.columns(9) + ref.regions_of(LAYOUT) + ref.diagonals(9)),
    "hyper-x": (variants.of("3x3", "x,hyper"), {"variant": "x,hyper"},
                CLASSIC_UNITS + ref.diagonals(9) + ref.windows()),
    "jigsaw-hyper": (variants.combine(variants.jigsaw("3x3", LAYOUT), variants.hyper()),
                     {"variant": "hyper", "regions": LAYOUT},
                     ref.rows(9) + ref.columns(9) + ref.regions_of(LAYOUT) + ref.windows()),
}


def _peers(units: list[list[int]]) -> list[set[int]]:
    peers: list[set[int]] = [set() for _ in range(81)]
    for unit in units:
        for a in unit:
            peers[a].update(b for b in unit if b != a)
    return peers


def _puzzles(name: str, seed: int) -> list[tuple[list[int], int]]:
    """Puzzles under the case's units with the reference's count (up to 40),
    cut from a solution the generator made (the reference is too slow for
    minimal puzzles): one with one solution, one with several (givens taken
    out until there is more than one), one with a wrong digit that clashes with
    no given (none), and one whose givens clash (none)."""
    geo, options, units = CASES[name]
    rng = random.Random(seed)
    solution = list(next(generate_many(1, seed=seed, **options)).solution.values)
    order = rng.sample(range(81), 81)
    unique = [0] * 81
    for cell in order[:32]:
        unique[cell] = solution[cell]
    for cell in order[32:]:
        if ref.count(9, units, unique, limit=2)[0] == 1:
            break
        unique[cell] = solution[cell]
    several = list(unique)
    for cell in order:
        several[cell] = 0
        if ref.count(9, units, several, limit=2)[0] > 1:
            break
    peers = _peers(units)
    wrong = list(unique)
    for cell in order[::-1]:
        choices = [v for v in range(1, 10) if v != solution[cell] and all(unique[p] != v for p in peers[cell])]
        if not unique[cell] and choices:
            wrong[cell] = rng.choice(choices)
            break
    clash = list(unique)
    cell = next(c for c in order[::-1] if not unique[c])
    clash[cell] = next(unique[p] for p in sorted(peers[cell]) if unique[p])
    return [(g, ref.count(9, units, g, limit=40)[0]) for g in (unique, several, wrong, clash)]


def _minimal(name: str, seed: int) -> Grid:
    """A minimal unique puzzle of the generator under the case's geometry."""
    geo, options, _ = CASES[name]
    return next(generate_many(1, seed=seed, **options)).puzzle.with_geometry(geo)


@pytest.mark.parametrize("name", sorted(CASES))
def test_counts_and_solutions_are_the_references(name: str) -> None:
    geo, _, units = CASES[name]
    assert tables9u(geo) is not None
    seen = set()
    for seed in (1, 2):
        for givens, expected in _puzzles(name, seed):
            grid = Grid.unchecked(CLASSIC, tuple(givens), geo)
            seen.add(min(expected, 2))
            found, first = engine.count(grid, 40, Budget())
            assert found == expected, (name, grid.line())
            assert engine.count(grid, 2, Budget())[0] == min(expected, 2)
            if expected:
                assert ref.obeys(first.values, 9, units), (name, first.line())
                assert all(g == v for g, v in zip(givens, first.values) if g)
            else:
                assert first is None
            if 1 < expected < 40:
                every = {s.values for s in engine.solutions(grid, Budget())}
                assert every == {tuple(s) for s in ref.solutions(9, units, givens, limit=40)}
    assert seen == {0, 1, 2}


@pytest.mark.parametrize("name", ["x", "jigsaw-x"])
def test_a_blank_grid_has_solutions_that_obey_every_unit(name: str) -> None:
    geo, _, units = CASES[name]
    grid = Grid.empty().with_geometry(geo)
    found, first = engine.count(grid, 500, Budget())
    assert found == 500 and ref.obeys(first.values, 9, units)
    some = []
    for solution in engine.solutions(grid, Budget()):
        some.append(solution.values)
        if len(some) == 300:
            break
    assert len(set(some)) == 300 and all(ref.obeys(s, 9, units) for s in some)


def _general(grid: Grid, limit: int) -> tuple[int, tuple[int, ...]]:
    """The count and first solution of the general N×N search (kernelN) over the geometry's units."""
    from sudokit.engine.generate import arrays_of
    from sudokit.engine.kernelN import count_more_n, new_state

    units, peers = arrays_of(grid.geometry)
    boards, flags, bcell, brem, state = new_state(engine.grid_values(grid), 3, 3)
    solution = np.zeros(81, np.uint8)
    found = count_more_n(boards, flags, bcell, brem, state, units, peers, 9, limit, 0, solution,
                         np.zeros(2, np.int64))[0]
    return found, tuple(solution.tolist())


@pytest.mark.parametrize("name", sorted(CASES))
def test_minimal_puzzles_have_one_solution_as_the_general_search_says(name: str) -> None:
    units = CASES[name][2]
    for seed in range(1, 13):
        grid = _minimal(name, seed)
        found, first = engine.count(grid, 2, Budget())
        assert (found, first.values) == _general(grid, 2), grid.line()
        assert found == 1 and ref.obeys(first.values, 9, units)
        # a given less: the counts still agree, up to 30
        values = list(grid.values)
        values[next(c for c in range(80, -1, -1) if values[c])] = 0
        fewer = grid.like(tuple(values))
        assert engine.count(fewer, 30, Budget())[0] == _general(fewer, 30)[0] >= 1


def _fewer(grid: Grid, rng: random.Random, k: int) -> Grid:
    """The puzzle with ``k`` givens taken out at random."""
    values = list(grid.values)
    for cell in rng.sample([c for c in range(81) if values[c]], k):
        values[cell] = 0
    return grid.like(tuple(values))


@pytest.mark.parametrize("name", ["x", "jigsaw-x", "hyper-x", "jigsaw"])
def test_puzzles_with_several_solutions_count_and_enumerate_as_the_general_search_says(name: str) -> None:
    """The rules of the other units (a digit's two places in a diagonal or a
    region: a cell that sees both loses it) and the branch on a diagonal's
    two places lose no solution and find none twice: minimal puzzles with
    two to five givens taken out count as on the general search, and the
    enumeration gives as many solutions, all different, each obeying every
    reference unit."""
    units = CASES[name][2]
    rng = random.Random(name)
    several = 0
    for seed in range(1, 21):
        grid = _fewer(_minimal(name, seed), rng, 2 + seed % 4)
        found = engine.count(grid, 300, Budget())[0]
        assert found == _general(grid, 300)[0], grid.line()
        several += found > 1
        if found < 300:
            every = [s.values for s in engine.solutions(grid, Budget())]
            assert len(every) == len(set(every)) == found, grid.line()
            assert all(ref.obeys(s, 9, units) for s in every)
    assert several >= 10


def test_the_rated_x_puzzles_with_givens_taken_out_count_as_the_general_search_says() -> None:
    path = require_shared(RATED / "x_dev.tsv")
    geo = CASES["x"][0]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    rng = random.Random(9)
    for row in rows[::2]:
        grid = _fewer(Grid(row["puzzle"]).with_geometry(geo), rng, 1 + len(row["puzzle"]) % 3)
        assert engine.count(grid, 100, Budget())[0] == _general(grid, 100)[0], grid.line()


@pytest.mark.parametrize("name, variant", [("x_dev.tsv", "x"), ("hyper_dev.tsv", "hyper")])
def test_the_shared_rated_puzzles_have_one_solution_that_obeys_every_unit(name: str, variant: str) -> None:
    path = require_shared(RATED / name)
    geo, _, units = CASES[variant]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) >= 100
    for row in rows:
        grid = Grid(row["puzzle"]).with_geometry(geo)
        found, first = engine.count(grid, 2, Budget())
        assert found == 1, row["puzzle"]
        assert ref.obeys(first.values, 9, units)
        assert _general(grid, 2) == (1, first.values)


def test_nine_by_nine_variants_take_this_kernel_not_the_general_search(monkeypatch) -> None:
    from sudokit.engine import kernelN

    def refuse(*args, **kwargs):
        raise AssertionError("the general search was used")

    monkeypatch.setattr(kernelN, "count_more_n", refuse)
    monkeypatch.setattr(kernelN, "search_n", refuse)
    for geo, options, units in CASES.values():
        made = next(generate_many(1, seed=7, **options))
        grid = made.puzzle.with_geometry(geo)
        assert engine.count(grid, 2, Budget())[0] == 1
        assert engine.first(grid, Budget()).values == made.solution.values
        assert [s.values for s in engine.solutions(grid, Budget())] == [made.solution.values]


def test_a_geometry_without_rows_and_columns_first_goes_to_the_general_search() -> None:
    shape = CLASSIC.geometry.shape
    cols_first = Geometry(shape, shape.cols + shape.rows + shape.boxes, (COLUMN,) * 9 + (ROW,) * 9 + (BOX,) * 9)
    assert tables9u(cols_first) is None
    made = next(generate_many(1, seed=3))
    grid = made.puzzle.with_geometry(cols_first)
    assert engine.count(grid, 2, Budget()) == (1, made.solution.with_geometry(cols_first))


def test_the_tables_see_the_classic_boxes_and_the_windows() -> None:
    from sudokit.engine.kernel9u import BOXES, DIAGONALS, WINDOWS, tables_of

    assert tables_of(CASES["x"][0])[3] == BOXES | DIAGONALS
    assert tables_of(CASES["hyper"][0])[3] == BOXES | WINDOWS
    assert tables_of(CASES["hyper, four windows"][0])[3] == BOXES | WINDOWS
    assert tables_of(CASES["jigsaw"][0])[3] == 0
    assert tables_of(CASES["jigsaw-hyper"][0])[3] == WINDOWS
    assert tables_of(CASES["jigsaw-x"][0])[3] == DIAGONALS
    assert tables_of(CASES["hyper-x"][0])[3] == BOXES | WINDOWS | DIAGONALS
    assert tables_of(variants.x("2x3")) is None


# -- budgets ----------------------------------------------------------------------------


def _several(name: str, wanted: int = 60) -> tuple[Grid, int]:
    """A puzzle with more than one and fewer than ``wanted`` solutions, and its reference count."""
    geo, options, units = CASES[name]
    made = next(generate_many(1, seed=11, **options))
    values = list(made.puzzle.values)
    rng = random.Random(5)
    best = None
    for cell in rng.sample([c for c in range(81) if values[c]], sum(1 for v in values if v)):
        values[cell] = 0
        n, _ = ref.count(9, units, values, limit=wanted)
        if n >= wanted:
            break
        if n > 1:
            best = (list(values), n)
    assert best is not None
    return Grid.unchecked(CLASSIC, tuple(best[0]), geo), best[1]


@pytest.mark.parametrize("name", ["x", "jigsaw"])
def test_a_count_resumed_one_node_at_a_time_counts_what_the_reference_counts(name: str) -> None:
    from sudokit.engine import slicing
    from sudokit.engine.board import STORED, WORDS
    from sudokit.engine.kernel9u import NEW, T_FOUND, T_PHASE, TRAIL, resume9u

    grid, truth = _several(name)
    assert engine.count(grid, None, Budget())[0] == truth
    tables = tables9u(grid.geometry)
    values = engine.grid_values(grid)
    g, stack, trail = np.empty(WORDS, np.int64), np.empty((81, STORED), np.int64), np.empty(TRAIL, np.int64)
    trail[T_PHASE] = NEW
    solution = np.zeros(81, np.uint8)
    stats = np.zeros(2, np.int64)
    calls = 0

    def step(cap):
        nonlocal calls
        calls += 1
        stats[:] = 0
        return resume9u(values, g, stack, trail, *tables, 0, cap, False, solution, stats) >= 0, int(stats[0])

    slicing.run_in_slices(step, first=1, seconds=0.0)
    assert int(trail[T_FOUND]) == truth
    assert calls > truth
    assert ref.obeys(solution.tolist(), 9, CASES[name][2])


def test_a_count_out_of_nodes_keeps_a_lower_bound_and_a_solution_that_obeys_every_unit() -> None:
    geo, _, units = CASES["hyper-x"]
    with pytest.raises(LimitReached) as caught:
        engine.count(Grid.empty().with_geometry(geo), 10**12, Budget(nodes=3_000))
    assert caught.value.count > 0
    assert ref.obeys(caught.value.solution.tolist(), 9, units)
    result = solving.count(Grid.empty().with_geometry(geo), limit=10**12, nodes=3_000)
    assert result.status is Status.TIMEOUT and "node limit of 3000" in result.message
    assert 0 < result.count and result.nodes <= 3_000


def test_a_count_out_of_time_reports_the_lower_bound_it_reached() -> None:
    result = solving.count(Grid.empty().with_geometry(CASES["jigsaw-x"][0]), limit=10**15, timeout=0.3)
    assert result.status is Status.TIMEOUT
    assert 0 < result.count < 10**15
    assert f"after {result.count} solution(s)" in result.message
    assert result.solution is not None and ref.obeys(result.solution.values, 9, CASES["jigsaw-x"][2])


def test_an_enumeration_under_a_node_budget_stops_with_limit_reached() -> None:
    grid = Grid.empty().with_geometry(CASES["x"][0])
    budget = Budget(nodes=500)
    got = 0
    with pytest.raises(LimitReached):
        for _ in engine.solutions(grid, budget):
            got += 1
    assert got > 0 and budget.nodes_used >= 500
