"""The killer search (sudokit.engine.killer) and mip's cage rows, held to the independent reference solver.

The truth is tests/reference_variants.py: a plain backtracking search over
units and cages written from the rules, sharing no code with sudokit. The
killers here are random ones on 4x4 and 6x6 (cages cut from a solution, with
one or several solutions; totals pushed off, with none), under the classic
units, X and a jigsaw, and published 9x9 killers with their published
solutions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import reference_variants as ref
from sudokit import formats, solving, variants
from sudokit.budget import Budget
from sudokit.engine import search
from sudokit.errors import LimitReached, SudokuError
from sudokit.geometry import Geometry, Shape
from sudokit.grid import Grid
from sudokit.killer import Cage, CageError

PUBLISHED = Path(__file__).parent.parent / "data" / "published_killers.jsonl"


def published() -> list[tuple[Grid, Grid, str]]:
    out = []
    for line in PUBLISHED.read_text().splitlines():
        puzzle, solution = _read(line)
        out.append((puzzle, solution, json.loads(line)["source"]))
    return out


def _read(line: str) -> tuple[Grid, Grid]:
    return formats._parse_json(line, None, None, line=1)  # the jsonl reader, with its solution


def ref_units(geo: Geometry) -> list[list[int]]:
    return [list(u) for u in geo.units]


def random_solution(n_shape: Shape, geo: Geometry, rng: random.Random) -> list[int]:
    """A solution of the units by the reference solver, from random givens on the diagonal cells shuffled."""
    n = n_shape.size
    values = list(range(1, n + 1))
    rng.shuffle(values)
    givens = [0] * (n * n)
    for i, v in enumerate(values[: n // 2]):
        givens[i] = v  # part of row 1, all different
    found = ref.solutions(n, ref_units(geo), givens, (), limit=1)
    assert found
    return found[0]


def random_cages(solution: list[int], n: int, rng: random.Random, cover: float = 1.0) -> list[Cage]:
    """Connected cages of 1..4 cells with different digits, over about ``cover`` of the cells."""
    owner = [-1] * (n * n)
    cages = []
    cells = list(range(n * n))
    rng.shuffle(cells)
    for start in cells[: int(len(cells) * cover)]:
        if owner[start] >= 0:
            continue
        group = [start]
        owner[start] = len(cages)
        for _ in range(rng.randint(0, 3)):
            free = sorted({nb for c in group for nb in _around(c, n)
                           if owner[nb] < 0 and solution[nb] not in {solution[g] for g in group}})
            if not free:
                break
            nb = rng.choice(free)
            owner[nb] = len(cages)
            group.append(nb)
        cages.append(Cage(tuple(group), sum(solution[c] for c in group)))
    return cages


def _around(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def geometries() -> list[tuple[str, Geometry]]:
    return [
        ("4x4", Geometry.of(Shape(2, 2))),
        ("6x6", Geometry.of(Shape(2, 3))),
        ("6x6 X", variants.x("2x3")),
        ("4x4 jigsaw-X", variants.combine(variants.jigsaw("2x2", "1112122233343444"), variants.x("2x2"))),
    ]


def cases(seed: int):
    """(name, puzzle, reference args) for random killers: cut from a solution, some cells given, some totals off."""
    rng = random.Random(seed)
    out = []
    for name, geo in geometries():
        n = geo.n
        solution = random_solution(geo.shape, geo, rng)
        for kind in ("cut", "sparse", "off", "none-total"):
            cages = random_cages(solution, n, rng, cover=1.0 if kind in ("cut", "off") else 0.5)
            if kind == "off":  # a total pushed by one, where it stays possible: often no solution left
                i = rng.randrange(len(cages))
                cage = cages[i]
                low, high = len(cage) * (len(cage) + 1) // 2, len(cage) * (2 * n - len(cage) + 1) // 2
                total = cage.total + 1 if cage.total < high else cage.total - 1
                if low <= total <= high:
                    cages[i] = Cage(cage.cells, total)
            if kind == "none-total":
                cages = [Cage(c.cells, None if j % 2 else c.total) for j, c in enumerate(cages)]
            givens = [solution[c] if kind == "sparse" and rng.random() < 0.15 else 0 for c in range(n * n)]
            puzzle = Grid(givens, geo.shape, geometry=geo.with_cages(cages))
            out.append((f"{name} {kind}", puzzle))
    return out


def reference_solutions(puzzle: Grid, limit: int) -> list[tuple[int, ...]]:
    geo = puzzle.geometry
    found = ref.solutions(geo.n, ref_units(geo), list(puzzle.values), [(c.cells, c.total) for c in geo.cages], limit)
    return [tuple(s) for s in found]


@pytest.mark.parametrize("seed", range(6))
def test_the_engine_counts_and_enumerates_as_the_reference(seed):
    counts = set()
    for name, puzzle in cases(seed):
        truth = reference_solutions(puzzle, 40)
        counts.add(min(len(truth), 2))
        found, first = search.count(puzzle, 40, Budget())
        assert found == len(truth), name
        if truth:
            assert first.is_solution_of(puzzle) and first.geometry == puzzle.geometry, name
            assert first.values in truth or len(truth) == 40, name
        else:
            assert first is None
        listed = [g.values for g in search.solutions(puzzle, Budget())][:40]
        assert sorted(listed) == sorted(truth) if len(truth) < 40 else len(listed) == 40, name
        result = solving.count(puzzle, 2)
        assert result.count == min(len(truth), 2), name
    assert counts >= {0, 1, 2} or seed > 2  # the cases reach none, one and several solutions


@pytest.mark.parametrize("seed", range(3))
def test_mip_keeps_the_cages_as_the_reference_does(seed):
    for name, puzzle in cases(seed)[::2]:
        truth = reference_solutions(puzzle, 4)
        result = solving.count(puzzle, 3, method="mip")
        assert result.count == min(len(truth), 3), name
        if truth:
            assert result.solution.is_solution_of(puzzle), name
            assert result.solution.values in truth or len(truth) > 3, name
        else:
            assert result.status.value in ("no_solution", "invalid"), name


def test_published_killers_have_their_published_solution():
    for puzzle, solution, source in published():
        assert puzzle.clues == 0 and len(puzzle.geometry.cages) >= 25, source
        found, first = search.count(puzzle, 2, Budget())
        assert found == 1 and first == solution, source
        assert solution.is_solved  # every cage adds up (Grid.is_consistent reads the cages)


def test_the_reference_agrees_on_a_published_killer():
    puzzle, solution, _ = published()[0]
    assert reference_solutions(puzzle, 2) == [solution.values]


@pytest.mark.slow
def test_the_reference_agrees_on_every_published_killer():
    for puzzle, solution, source in published():
        assert reference_solutions(puzzle, 2) == [solution.values], source


def test_mip_solves_a_published_killer():
    puzzle, solution, _ = published()[0]
    result = solving.count(puzzle, 2, method="mip")
    assert result.count == 1 and result.solution == solution


def test_every_other_method_refuses_a_killer_by_name():
    puzzle = published()[0][0]
    for method in ("dfs", "bfs", "preemptive", "wholemeal", "wholemeal-first", "clauses"):
        with pytest.raises(SudokuError, match=f"method '{method}' does not keep killer cages.*fast, mip"):
            solving.solve(puzzle, method=method)


def test_budgets_stop_a_killer_search():
    blank = Grid.empty("3x3").with_geometry(Geometry.of(Shape(3, 3)).with_cages([Cage((0, 1), 3)]))
    with pytest.raises(LimitReached):
        search.count(blank, None, Budget(nodes=50))
    result = solving.count(blank, None, nodes=50)
    assert result.status.value == "timeout" and result.count >= 0
    result = solving.count(blank, 5)
    assert result.count == 5 and result.solution.values[:2] in ((1, 2), (2, 1))


def test_singles_and_sums_deduce_a_published_killer_whole():
    puzzle, solution, _ = published()[0]
    assert search.deduce(puzzle, Budget()) == solution


def test_cages_that_cannot_be_are_refused():
    geo = Geometry.of(Shape(2, 2))
    for cages, message in [
        ([Cage((0, 2), 3)], "not connected"),
        ([Cage((0, 1), 8)], "add up to 3..7, not 8"),
        ([Cage((0, 1), 3), Cage((1, 2), 5)], "r1c2 is in cage 1 too"),
        ([Cage((0, 1, 2, 3, 4), None)], "5 cells"),
    ]:
        with pytest.raises(CageError, match=message):
            geo.with_cages(cages)


def test_givens_that_break_a_cage_have_no_solution():
    geo = Geometry.of(Shape(2, 2)).with_cages([Cage((0, 1), 3)])
    clash = Grid([1, 1] + [0] * 14, "2x2", geometry=geo)  # a digit twice in the cage (and the row)
    wrong_sum = Grid([1, 3] + [0] * 14, "2x2", geometry=geo)  # 1 + 3 is not 3
    assert not clash.is_consistent and not wrong_sum.is_consistent
    assert any(c.unit == "cage 1" for c in clash.conflicts())
    for grid in (clash, wrong_sum):
        assert search.count(grid, 2, Budget())[0] == 0
        assert solving.count(grid, 2).count == 0
        assert reference_solutions(grid, 2) == []


def test_the_engine_refuses_killers_above_16x16():
    geo = Geometry.of(Shape(5, 5)).with_cages([Cage((0, 1), 3)])
    with pytest.raises(SudokuError, match="up to 16x16"):
        search.count(Grid.empty("5x5").with_geometry(geo), 2, Budget())
