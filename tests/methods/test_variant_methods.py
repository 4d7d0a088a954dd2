"""The methods on variants: every method that reads its units from the
grid's geometry (the engine, dfs, bfs, preemptive, mip, wholemeal; clauses for
logic) gives the status and the solution of an independent solver
(tests/reference_variants.py) on X, hyper and jigsaw puzzles, with one, several
or no solutions, and clashing givens; the puzzles are chosen so that some count
differs under the shape's own rows, columns and boxes, so a method that missed a
variant's units would fail. A method that read only a shape's rows, columns and
boxes would refuse such a grid by name."""

from __future__ import annotations

import csv
import dataclasses
import random
from functools import lru_cache

import pytest

import reference_variants as ref
from conftest import RATED, require_shared
from sudokit import methods, variants
from sudokit.errors import SudokuError
from sudokit.geometry import Geometry
from sudokit.grid import Grid
from sudokit.methods import available
from sudokit.solving import count, deduce, solve

COMPLETE = sorted(name for name, spec in available().items() if spec.any_units and spec.complete)

#: 6x6 regions: the 2x3 boxes, with r2c1/r3c3 traded between regions 1 and 3.
JIGSAW6 = "111222 311222 331444 333444 555666 555666"


def _cases(geo, seed: int, count_: int) -> list[tuple[list[int], int, int]]:
    """Part-grids of a reference solution under ``geo``'s units, each with
    the reference's count up to 2 under those units and under the shape's own
    rows, columns and boxes: minimal unique ones, ones with fewer givens
    (several solutions), and ones with a wrong given (none; every other one
    is free to clash)."""
    n = geo.n
    units = [list(u) for u in geo.units]
    plain = [list(u) for u in Geometry.of(geo.shape).units]
    rng = random.Random(seed)
    out = []
    for rep in range(count_):
        order = list(range(n * n))
        rng.shuffle(order)
        start = [0] * (n * n)
        start[order[0]] = rng.randint(1, n)
        _, full = ref.count(n, units, start, limit=1)
        givens = list(full)
        for cell in order:
            trial = list(givens)
            trial[cell] = 0
            if ref.count(n, units, trial)[0] == 1:
                givens = trial
        out.append(givens)
        fewer = list(givens)
        for cell in rng.sample([c for c in range(n * n) if givens[c]], 2):
            fewer[cell] = 0
        out.append(fewer)
        wrong = list(givens)
        cell = rng.choice([c for c in range(n * n) if not givens[c]])
        others = [v for v in range(1, n + 1) if v != full[cell]]
        clash_free = [v for v in others if all(givens[p] != v for p in geo.peers[cell])]
        wrong[cell] = rng.choice(clash_free if rep % 2 and clash_free else others)
        out.append(wrong)
    return [(g, ref.count(n, units, g, limit=2)[0], ref.count(n, plain, g, limit=2)[0]) for g in out]


GEOMETRIES = {
    "x 6x6": variants.x("2x3"),
    "jigsaw 6x6": variants.jigsaw(None, JIGSAW6),
    "jigsaw-x 6x6": variants.combine(variants.jigsaw(None, JIGSAW6), variants.x("2x3")),
    "hyper 9x9": variants.hyper(),
}


@lru_cache(maxsize=None)
def _cases_of(name: str) -> list[tuple[list[int], int, int]]:
    """The cases of one geometry, made once for every method: four rounds, two for a 9x9."""
    geo = GEOMETRIES[name]
    return _cases(geo, len(name), 2 if geo.n == 9 else 4)


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
@pytest.mark.parametrize("method", COMPLETE)
def test_every_method_counts_as_the_reference_does(name: str, method: str) -> None:
    geo = GEOMETRIES[name]
    if method == "bfs" and geo.n == 9:
        pytest.skip("breadth-first search needs minutes on these 9x9 hyper puzzles (measured 265 s for six)")
    units = [list(u) for u in geo.units]
    seen, differs = set(), False
    for givens, expected, classic in _cases_of(name):
        grid = Grid(givens, geometry=geo)
        result = count(grid, limit=2, method=method, timeout=60)
        seen.add(expected)
        if not grid.is_consistent:
            assert result.status.value == "invalid", (name, givens)
            continue
        assert result.count == expected, (name, method, givens)
        differs |= classic != expected
        if expected:
            solution = result.solution
            assert solution.geometry == geo and solution.is_solution_of(grid)
            assert ref.obeys(solution.values, geo.n, units)
    assert seen >= {0, 1, 2}
    assert differs  # a method that kept only a shape's rows, columns and boxes would miscount


def _rated(name: str, count_: int) -> list[str]:
    with open(require_shared(RATED / name), newline="") as fh:
        return [row["puzzle"] for row in csv.DictReader(fh, delimiter="\t")][:count_]


@pytest.mark.parametrize("variant, data", [("x", "x_dev.tsv"), ("hyper", "hyper_dev.tsv")])
def test_the_shared_9x9_puzzles_solve_to_the_references_solution(variant: str, data: str) -> None:
    geo = variants.of("3x3", variant)
    units = [list(u) for u in geo.units]
    for line in _rated(data, 4):
        grid = Grid(line, geometry=geo)
        expected, truth = ref.count(9, units, list(grid.values), limit=2)
        assert expected == 1
        for method in COMPLETE:
            if method == "wholemeal-first":  # measured up to 41,664 nodes (18 s) on these
                continue
            result = solve(grid, method=method, timeout=60)
            assert result.solution is not None and list(result.solution.values) == truth, (variant, method)
        for method in ("clauses", "fast"):  # what logic places stands in the solution
            logic = deduce(grid, method=method).solution
            assert logic.geometry == geo and all(v in (0, t) for v, t in zip(logic.values, truth)), method


def test_a_method_for_rows_columns_and_boxes_refuses_a_variant(monkeypatch) -> None:
    """Every registered method reads the geometry's units; one that did not would be refused."""
    assert all(spec.any_units for spec in available().values())
    narrow = dataclasses.replace(methods.get("dfs"), name="rows-only", any_units=False)
    monkeypatch.setitem(methods._REGISTRY, narrow.name, narrow)
    grid = Grid.empty().with_geometry(variants.x())
    with pytest.raises(SudokuError, match="method 'rows-only' takes rows, columns and boxes only.*dfs"):
        solve(grid, method="rows-only")


def test_a_clash_on_a_diagonal_is_a_clash_only_under_x() -> None:
    plain = Grid.empty().place(0, 0, 5).place(8, 8, 5)
    assert plain.is_consistent
    under_x = plain.with_geometry(variants.x())
    assert not under_x.is_consistent
    assert [str(c) for c in under_x.conflicts()] == ["5 appears 2 times in diagonal 1: r1c1, r9c9"]
    assert solve(under_x, method="dfs").status.value == "invalid"
