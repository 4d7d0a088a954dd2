"""Generating: uniqueness, minimality for each rule, symmetry, seeds, shapes, clue counts.

Truth comes from outside the generator: tests/reference.py for the small
shapes, the ``dfs`` tree search and the ``clauses`` and ``preemptive``
methods for 9x9, and symmetry maps written out here again.
"""

from __future__ import annotations

import json
import random
import statistics

import numpy as np
import pytest
from click.testing import CliRunner

from reference import obeys_rules, reference_count
from sudokit.errors import SudokuError
from sudokit.generation import GenerationError, complete_grid, generate, generate_many
from sudokit.grid import Grid, Shape
from sudokit.solving import count_solutions, deduce
from sudokit.generation.symmetry import SymmetryError, is_symmetric

SMALL_SHAPES = [(2, 2), (2, 3), (3, 2)]


def _ref_count(grid: Grid, limit: int = 2) -> int:
    return reference_count(list(grid.values), grid.shape.box_rows, grid.shape.box_cols, limit)[0]


def _without(grid: Grid, cells: tuple[int, ...]) -> Grid:
    for c in cells:
        grid = grid.with_cell(c, 0)
    return grid


# -- independent symmetry maps (not the ones in sudokit.generation.symmetry) -----------------

def _images(name: str, r: int, c: int, n: int) -> set[tuple[int, int]]:
    m = n - 1
    table = {
        "none": [(r, c)],
        "rotate180": [(r, c), (m - r, m - c)],
        "rotate90": [(r, c), (c, m - r), (m - r, m - c), (m - c, r)],
        "mirror": [(r, c), (r, m - c)],
        "flip": [(r, c), (m - r, c)],
        "diagonal": [(r, c), (c, r)],
        "dihedral": [(r, c), (c, m - r), (m - r, m - c), (m - c, r), (r, m - c), (m - r, c), (c, r), (m - c, m - r)],
    }
    return set(table[name])


def _pattern_symmetric(grid: Grid, name: str) -> bool:
    n = grid.size
    clues = {divmod(cell, n) for cell in grid.givens}
    return all(_images(name, r, c, n) <= clues for r, c in clues)


def _orbit(name: str, cell: int, n: int) -> tuple[int, ...]:
    r, c = divmod(cell, n)
    return tuple(sorted(rr * n + cc for rr, cc in _images(name, r, c, n)))


# -- complete grids ------------------------------------------------------------------

@pytest.mark.parametrize("shape", ["1x2", "2x2", "2x3", "3x2", "3x3", "2x4", "3x4", "4x4", "5x5"])
def test_complete_grid_obeys_the_rules(shape: str) -> None:
    grid = complete_grid(shape, seed=11)
    s = Shape.parse(shape)
    assert obeys_rules(grid.values, [0] * s.cell_count, s.box_rows, s.box_cols)


def test_complete_grids_reach_every_4x4_grid() -> None:
    seen = {complete_grid("2x2", seed=s).values for s in range(3000)}
    assert len(seen) == 288  # every 4x4 grid (288 of them) turns up


def test_complete_grid_is_the_puzzles_solution() -> None:
    assert complete_grid("3x3", seed=5) == generate(seed=5).solution


# -- uniqueness and minimality ---------------------------------------------------------

@pytest.mark.parametrize("box", SMALL_SHAPES)
@pytest.mark.parametrize("symmetry", ["none", "rotate180", "mirror", "flip"])
def test_small_unique_puzzles_are_minimal(box: tuple[int, int], symmetry: str) -> None:
    for p in generate_many(6, shape=box, symmetry=symmetry, seed=100):
        assert _ref_count(p.puzzle) == 1
        assert obeys_rules(p.solution.values, p.puzzle.values, *box)
        n = p.puzzle.size
        done: set[int] = set()
        for cell in p.puzzle.givens:
            orbit = _orbit(symmetry, cell, n)
            if orbit in done:
                continue
            done.add(orbit)
            assert _ref_count(_without(p.puzzle, orbit)) >= 2, (p.puzzle.line(), orbit)
        assert _pattern_symmetric(p.puzzle, symmetry)


def test_9x9_unique_puzzles_are_minimal() -> None:
    for p in generate_many(2, seed=2024):
        assert count_solutions(p.puzzle, 3, method="dfs") == 1
        assert p.solution.is_solution_of(p.puzzle)
        for cell in p.puzzle.givens:
            assert count_solutions(p.puzzle.with_cell(cell, 0), 2, method="dfs") == 2


def test_9x9_unique_puzzles_are_minimal_by_the_engine() -> None:
    for p in generate_many(15, seed=77):
        assert count_solutions(p.puzzle, 2) == 1
        assert all(count_solutions(p.puzzle.with_cell(c, 0), 2) == 2 for c in p.puzzle.givens)


def test_logic_minimal_puzzles_need_every_clue() -> None:
    for p in generate_many(8, minimal="logic", seed=31):
        solved = deduce(p.puzzle, "clauses")
        assert solved.status.value == "solved" and solved.solution == p.solution
        for cell in p.puzzle.givens:
            assert deduce(p.puzzle.with_cell(cell, 0), "clauses").status.value == "stuck"


def test_preemptive_minimal_puzzles_need_every_clue() -> None:
    for p in generate_many(3, minimal="preemptive", seed=8):
        assert deduce(p.puzzle, "preemptive").status.value == "solved"
        assert count_solutions(p.puzzle, 2, method="dfs") == 1
        for cell in p.puzzle.givens:
            assert deduce(p.puzzle.with_cell(cell, 0), "preemptive").status.value == "stuck"


def test_logic_minimal_small_shapes() -> None:
    for box in SMALL_SHAPES:
        for p in generate_many(5, shape=box, minimal="logic", seed=4):
            assert deduce(p.puzzle, "clauses").status.value == "solved"
            assert _ref_count(p.puzzle) == 1
            for cell in p.puzzle.givens:
                assert deduce(p.puzzle.with_cell(cell, 0), "clauses").status.value == "stuck"


def test_16x16_puzzle_is_unique() -> None:
    p = generate(shape="4x4", seed=1)
    assert p.undecided == 0
    assert count_solutions(p.puzzle, 2) == 1
    assert p.solution.is_solution_of(p.puzzle)
    # minimal: a sample of clues, each needed
    for cell in random.Random(0).sample(p.puzzle.givens, 8):
        assert count_solutions(p.puzzle.with_cell(cell, 0), 2) == 2


@pytest.mark.parametrize("box", [(2, 5), (3, 4)])
def test_mid_size_unique_puzzles_are_proven_minimal(box: tuple[int, int]) -> None:
    """10x10 and 12x12 go through the differing-solution search; a count checks every clue."""
    p = generate(shape=box, seed=2)
    assert p.undecided == 0
    assert count_solutions(p.puzzle, 2) == 1
    assert p.solution.is_solution_of(p.puzzle)
    for cell in p.puzzle.givens:
        assert count_solutions(p.puzzle.with_cell(cell, 0), 2) == 2, cell


@pytest.mark.parametrize("seed", [3, 8])
def test_16x16_puzzle_is_proven_minimal_clue_by_clue(seed: int) -> None:
    """Every clue of a 16x16 puzzle, taken away alone, lets the engine's count find two solutions."""
    p = generate(shape="4x4", seed=seed)
    assert p.undecided == 0
    assert count_solutions(p.puzzle, 2) == 1
    for cell in p.puzzle.givens:
        assert count_solutions(p.puzzle.with_cell(cell, 0), 2) == 2, cell


# -- the singles kernel gives the clauses method's verdicts ------------------------------

def _random_partials(count: int, seed: int) -> list[Grid]:
    rng = random.Random(seed)
    grids = []
    for i in range(count):
        solution = complete_grid("3x3", seed=seed + i)
        keep = rng.randint(17, 45)
        cells = rng.sample(range(81), keep)
        values = [solution[c] if c in cells else 0 for c in range(81)]
        if i % 5 == 4:  # sometimes a wrong clue: no solution or a contradiction
            c = rng.choice(cells)
            values[c] = values[c] % 9 + 1
        grids.append(Grid(values))
    return grids


def test_singles_kernel_agrees_with_clauses() -> None:
    from sudokit.engine.generate import COMPLETE, geometry, singles_verdicts

    grids = [g for g in _random_partials(300, 500) if g.is_consistent]
    units, peers = geometry(3, 3)
    verdicts = singles_verdicts(np.array([g.values for g in grids], dtype=np.uint8), 9, units, peers)
    solved_both = 0
    for grid, verdict in zip(grids, verdicts):
        clauses = deduce(grid, "clauses").status.value == "solved"
        assert (verdict == COMPLETE) == clauses, grid.line()
        solved_both += clauses
    assert 20 < solved_both < len(grids) - 20  # both outcomes are exercised


def test_bit_parallel_singles_agree_with_clauses() -> None:
    """The 9x9 kernel the ``logic`` rule uses gives the clauses method's verdict."""
    from sudokit.engine.singles9 import COMPLETE, CONTRADICTION, singles9

    cand = np.zeros((9, 3), dtype=np.int64)
    solved = np.zeros(3, dtype=np.int64)
    grids = _random_partials(300, 700)
    outcomes = set()
    for grid in grids:
        verdict = singles9(np.array(grid.values, dtype=np.uint8), cand, solved)
        outcomes.add(int(verdict))
        if not grid.is_consistent:
            assert verdict == CONTRADICTION, grid.line()
            continue
        clauses = deduce(grid, "clauses").status.value == "solved"
        assert (verdict == COMPLETE) == clauses, grid.line()
    assert outcomes == {-1, 0, 1}


def test_bit_parallel_singles_agree_with_the_general_kernel() -> None:
    from sudokit.engine.generate import geometry, singles_verdicts
    from sudokit.engine.singles9 import singles9

    grids = np.array([g.values for g in _random_partials(1000, 1300)], dtype=np.uint8)
    units, peers = geometry(3, 3)
    general = singles_verdicts(grids, 9, units, peers)
    cand = np.zeros((9, 3), dtype=np.int64)
    solved = np.zeros(3, dtype=np.int64)
    assert [int(singles9(g, cand, solved)) for g in grids] == [int(v) for v in general]


@pytest.mark.parametrize("box", [(2, 3), (3, 2), (2, 4), (3, 3)])
@pytest.mark.parametrize("locked", [False, True])
def test_find_other_agrees_with_count(box: tuple[int, int], locked: bool) -> None:
    """The big-grid uniqueness search, on small shapes where counting is cheap:
    a solution with a cell kept off one value exists exactly when a count finds one."""
    from sudokit.engine.generate import geometry
    from sudokit.engine.kernelN import find_other

    rng = random.Random(box[0] * 10 + box[1] + 2 * locked)
    n = box[0] * box[1]
    units, peers = geometry(*box)
    full = (1 << n) - 1
    scratch = np.zeros(n * n, dtype=np.uint8)
    outcomes = set()
    for seed in range(40):
        solution = complete_grid(box, seed=seed)
        values = [v if rng.random() < 0.4 else 0 for v in solution.values]
        cell = rng.randrange(n * n)
        values[cell] = 0
        avoid = solution.values[cell]
        masks = np.array([(1 << (v - 1)) if v else full for v in values], dtype=np.uint64)
        masks[cell] &= np.uint64(full & ~(1 << (avoid - 1)))
        stats = np.zeros(2, dtype=np.int64)
        found = find_other(masks, units, peers, box[0], box[1], np.array(solution.values, dtype=np.uint8),
                           locked, 0, scratch, stats)
        # independent truth: the reference solver, with each other value in the cell
        expected = int(any(
            reference_count(values[:cell] + [other] + values[cell + 1:], box[0], box[1], 1)[0] > 0
            for other in range(1, n + 1) if other != avoid
        ))
        assert found == expected, (seed, values, cell)
        outcomes.add(int(found))
        if found:
            other = [int(v) for v in scratch]
            assert other[cell] != avoid
            assert obeys_rules(other, values, box[0], box[1])
    assert outcomes == {0, 1}


def test_preemptive_kernel_agrees_with_preemptive_method() -> None:
    from sudokit.engine.generate import COMPLETE, geometry, preemptive_verdicts

    grids = [g for g in _random_partials(120, 900) if g.is_consistent]
    units, peers = geometry(3, 3)
    verdicts = preemptive_verdicts(np.array([g.values for g in grids], dtype=np.uint8), 9, units, peers)
    for grid, verdict in zip(grids, verdicts):
        method = deduce(grid, "preemptive").status.value == "solved"
        assert (verdict == COMPLETE) == method, grid.line()


# -- symmetry ----------------------------------------------------------------------------

@pytest.mark.parametrize("symmetry", ["none", "rotate180", "rotate90", "mirror", "flip", "diagonal", "dihedral"])
def test_symmetric_patterns_9x9(symmetry: str) -> None:
    for p in generate_many(3, symmetry=symmetry, seed=3):
        assert _pattern_symmetric(p.puzzle, symmetry) and is_symmetric(p.puzzle, symmetry)
        assert count_solutions(p.puzzle, 2) == 1
        for cell in p.puzzle.givens:  # minimal within the symmetry: no orbit can go
            assert count_solutions(_without(p.puzzle, _orbit(symmetry, cell, 9)), 2) == 2


@pytest.mark.parametrize("symmetry", ["rotate90", "diagonal", "dihedral"])
def test_square_only_symmetries_refused_for_oblong_boxes(symmetry: str) -> None:
    with pytest.raises(SymmetryError, match="square boxes"):
        generate(shape="2x3", symmetry=symmetry, seed=1)


def test_unknown_names_are_refused() -> None:
    with pytest.raises(SymmetryError, match="unknown symmetry"):
        generate(symmetry="spiral", seed=1)
    with pytest.raises(GenerationError, match="unknown minimality"):
        generate(minimal="pretty", seed=1)
    with pytest.raises(SudokuError):
        generate(shape="0x3", seed=1)


# -- seeds -------------------------------------------------------------------------------

def test_same_seed_same_puzzles_and_single_reproduction() -> None:
    a = [p.puzzle for p in generate_many(5, seed=42)]
    b = [p.puzzle for p in generate_many(5, seed=42)]
    assert a == b
    assert generate(seed=44).puzzle == a[2]  # a record's seed remakes that puzzle alone


def test_same_seed_whatever_the_jobs() -> None:
    one = [p.record() for p in generate_many(40, seed=7, minimal="logic", jobs=1)]
    two = [p.record() for p in generate_many(40, seed=7, minimal="logic", jobs=2)]
    assert one == two


def test_no_seed_differs() -> None:
    a = [p.puzzle for p in generate_many(3)]
    b = [p.puzzle for p in generate_many(3)]
    assert a != b


# -- clue counts ---------------------------------------------------------------------------

def _clue_stats(n: int, seed: int) -> tuple[float, float]:
    clues = [p.clues for p in generate_many(n, seed=seed)]
    return statistics.mean(clues), statistics.stdev(clues)


def test_clue_count_mean_in_a_loose_band() -> None:
    mean, sd = _clue_stats(300, 123456)
    assert 23.9 <= mean <= 24.9, mean  # published: 24.38 for top-down random removal
    assert 0.8 <= sd <= 1.5, sd


@pytest.mark.slow
def test_clue_count_mean_1000() -> None:
    mean, sd = _clue_stats(1000, 1)
    assert abs(mean - 24.38) <= 0.3, mean
    assert 0.9 <= sd <= 1.35, sd


# -- difficulty filters ----------------------------------------------------------------------

def test_difficulty_filter_matches_rating() -> None:
    from sudokit.logic import rate

    p = generate(seed=5, difficulty="easy", attempts=200)
    assert p.level == "easy" == rate(p.puzzle).level
    assert generate(seed=p.seed).puzzle == p.puzzle


def test_filter_budget_runs_out_with_a_message() -> None:
    with pytest.raises(GenerationError, match="in 2 attempts"):
        list(generate_many(1, seed=1, rating="11.5-12.0", attempts=2))


# -- the command line ------------------------------------------------------------------------

def test_cli_jsonl_records() -> None:
    from sudokit.cli.generate import generate as command

    result = CliRunner().invoke(command, ["-n", "3", "--seed", "9", "--format", "jsonl",
                                          "--symmetry", "rotate180", "--box", "2x3"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [r["seed"] for r in records] == [9, 10, 11]
    for r in records:
        assert set(r) >= {"puzzle", "solution", "clues", "seed", "shape", "minimal", "symmetry"}
        assert r["shape"] == "2x3" and r["minimal"] == "unique" and r["symmetry"] == "rotate180"
        puzzle = Grid(r["puzzle"], "2x3")
        assert puzzle.clues == r["clues"] and _ref_count(puzzle) == 1
        again = CliRunner().invoke(command, ["--seed", str(r["seed"]), "--box", "2x3", "--symmetry", "rotate180"])
        assert again.output.strip() == r["puzzle"]


def test_cli_line_with_solution_and_usage_errors() -> None:
    from sudokit.cli.generate import generate as command

    result = CliRunner().invoke(command, ["--seed", "3", "--with-solution"])
    puzzle, solution = result.output.split()
    assert Grid(solution).is_solution_of(Grid(puzzle))
    bad = CliRunner().invoke(command, ["--box", "2x3", "--symmetry", "rotate90"])
    assert bad.exit_code == 2 and "square boxes" in bad.output
