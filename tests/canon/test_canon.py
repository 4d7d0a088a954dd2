"""Canonical forms against truth: the shared reference forms, brute force over the whole group,
random transformations, and puzzles known to be different."""

from __future__ import annotations

import csv
import random
from collections import defaultdict

import pytest

from conftest import BENCH, SHARED, load_counts, require_shared

import exhaustive

import sudokit
from sudokit import Grid, canonical
from sudokit.canon import Transform
from sudokit.canon.forms import warm
from sudokit.canon.search import search
from sudokit.canon.transforms import is_valid, line_perms

CANON = SHARED / "canon"


def _rows(name: str) -> list[dict[str, str]]:
    with open(require_shared(CANON / name), newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def random_transform(rng: random.Random, n: int, box_rows: int, box_cols: int) -> Transform:
    rows = rng.choice(line_perms(n, box_rows))
    cols = rng.choice(line_perms(n, box_cols))
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    return Transform(box_rows == box_cols and rng.random() < 0.5, rows, cols, digits)


def _line(values) -> str:
    return "".join("." if v == 0 else "123456789ABCDEFG"[v - 1] for v in values)


@pytest.fixture(scope="module")
def compiled():
    warm()  # the 9x9 kernel, so that canonical() below runs it


def test_reference_puzzles_both_forms_and_automorphisms(compiled):
    rows = _rows("minlex_dev.tsv")
    for row in rows:
        grid = Grid(row["puzzle"])
        found = canonical(grid)
        assert found.line == row["minlex"], row["source"]
        assert found.automorphisms == int(row["automorphisms"]), row["source"]
        assert canonical(grid, "patminlex").line == row["patminlex"], row["source"]
        assert found.transform.apply(grid) == found.grid
        assert found.inverse.apply(found.grid) == grid


def test_reference_puzzles_in_plain_python():
    """The Python search (every shape's) agrees with the reference on a sample."""
    for row in _rows("minlex_dev.tsv")[::20]:
        grid = Grid(row["puzzle"])
        for form in ("minlex", "patminlex"):
            values, transforms, count = search(grid.values, 3, 3, form)
            assert _line(values) == row[form]
            assert transforms[0].apply(grid).values == values
        assert count == int(row["automorphisms"])


def test_reference_grids(compiled):
    for row in _rows("grids_dev.tsv"):
        grid = Grid(row["grid"])
        found = canonical(grid)
        assert found.line == row["minlex"]
        assert found.automorphisms == int(row["automorphisms"])
        assert canonical(grid, "patminlex").line == row["minlex"]  # for full grids the two agree
        assert found.transform.apply(grid) == found.grid


def test_a_thousand_random_transformations_share_one_form(compiled):
    rng = random.Random(26)
    puzzle = Grid(open(require_shared(BENCH / "17_clue.txt")).readline().strip())
    want = canonical(puzzle)
    wanted_pattern = canonical(puzzle, "patminlex").line
    for _ in range(1000):
        t = random_transform(rng, 9, 3, 3)
        moved = t.apply(puzzle)
        found = canonical(moved)
        assert found.line == want.line
        assert found.transform.apply(moved) == found.grid
        assert canonical(moved, "patminlex").line == wanted_pattern


def test_forms_part_puzzles_that_differ(compiled):
    """Equivalent puzzles have the same clue and solution counts: puzzles that share a form
    must too."""
    by_form = defaultdict(set)
    for row in load_counts():
        try:
            grid = Grid(row["puzzle"])
        except sudokit.SudokuError:
            continue
        if grid.size != 9 or not grid.is_consistent:
            continue
        by_form[canonical(grid).line].add((grid.clues, row["count"]))
        by_form["p" + canonical(grid, "patminlex").line].add((grid.clues, row["count"]))
    assert by_form and all(len(kinds) == 1 for kinds in by_form.values())


def test_the_17_clue_collection_has_no_two_equivalent_puzzles(compiled):
    from sudokit.batch import parse_lines
    from sudokit.canon.kernel import canonicalise

    lines = [line.strip() for line in open(require_shared(BENCH / "17_clue.txt")) if line.strip()]
    values, ok = parse_lines(lines)
    assert ok.all()
    for form in (0, 1):
        forms, _, counts = canonicalise(values, form)
        assert (counts > 0).all()
        assert len({row.tobytes() for row in forms}) == len(lines)


@pytest.mark.parametrize("shape", ["2x2", "2x3", "3x2"])
def test_small_shapes_against_the_whole_group(shape):
    rng = random.Random(shape)
    solution = sudokit.solve(Grid.empty(shape)).solution
    box = Grid.empty(shape).shape
    for trial in range(12):
        keep = rng.choice([0.3, 0.5, 1.0])
        grid = random_transform(rng, box.size, box.box_rows, box.box_cols).apply(
            Grid([v if rng.random() < keep else 0 for v in solution.values], shape))
        low, count = exhaustive.minlex(grid.values, box.box_rows, box.box_cols)
        found = canonical(grid)
        assert found.grid.values == low and found.automorphisms == count, grid.line()
        assert canonical(grid, "patminlex").grid.values == exhaustive.patminlex(grid.values, box.box_rows,
                                                                                 box.box_cols)
        assert found.transform.apply(grid) == found.grid and found.inverse.apply(found.grid) == grid
        assert is_valid(found.transform, box.box_rows, box.box_cols)


@pytest.mark.slow
def test_random_9x9_against_the_whole_group(compiled):
    rng = random.Random(9)
    lines = [line.strip() for line in open(require_shared(BENCH / "serg_benchmark.txt")) if line.strip()]
    for line in rng.sample(lines, 3):
        grid = random_transform(rng, 9, 3, 3).apply(Grid(line))
        low, count = exhaustive.minlex(grid.values, 3, 3)
        found = canonical(grid)
        assert found.grid.values == low and found.automorphisms == count
        assert canonical(grid, "patminlex").grid.values == exhaustive.patminlex(grid.values, 3, 3)


@pytest.mark.slow
def test_random_grids_against_the_whole_group(compiled):
    """One grid with a pure band and one without (the second row's bounds), against all
    3,359,232 arrangements."""
    rng = random.Random(27)
    lines = [line.strip() for line in open(require_shared(BENCH / "17_clue.txt")) if line.strip()]
    kinds = set()
    for line in rng.sample(lines, 20):
        grid = random_transform(rng, 9, 3, 3).apply(sudokit.solve(Grid(line)).solution)
        found = canonical(grid)
        if found.line[9:12] in kinds:
            continue
        kinds.add(found.line[9:12])
        low, count = exhaustive.minlex(grid.values, 3, 3)
        assert found.grid.values == low and found.automorphisms == count
        if len(kinds) == 2:
            break
    assert kinds == {"456", "457"}


def test_symmetric_puzzles_count_their_automorphisms(compiled):
    # a blank grid: every arrangement keeps it
    assert canonical(Grid.empty()).automorphisms == 2 * 6 ** 8
    # one given: the arrangements that keep its cell
    assert canonical(Grid.empty().place(0, 0, 5)).automorphisms == 2 * 6 ** 8 // 81
    assert canonical(Grid.empty().place(4, 4, 5), "patminlex").line == "." * 80 + "1"
    # the Python search agrees on a 4x4 with a symmetry
    assert canonical(Grid("1..." "...." "...." "...2")).automorphisms == exhaustive.minlex(
        (1,) + (0,) * 14 + (2,), 2, 2)[1]


def test_a_solution_maps_back_onto_the_puzzle(compiled):
    puzzle = sudokit.example("diabolical")
    found = canonical(puzzle)
    solved = sudokit.solve(found.grid).solution
    assert found.inverse.apply(solved) == sudokit.solve(puzzle).solution


def test_bad_input_is_refused():
    with pytest.raises(sudokit.InvalidPuzzle, match="clash"):
        canonical(Grid("11" + "." * 79))
    with pytest.raises(sudokit.SudokuError, match="minlex or patminlex"):
        canonical(Grid.empty(), "maxlex")


def test_grids_against_the_python_search(compiled):
    """The kernel's grid search (bounds on the second row, with and without a pure band) agrees
    with the plain search, which has no bound, on solutions of random puzzles moved at random."""
    rng = random.Random(45)
    lines = [line.strip() for line in open(require_shared(BENCH / "17_clue.txt")) if line.strip()]
    kinds = set()
    for line in rng.sample(lines, 12):
        solution = sudokit.solve(Grid(line)).solution
        grid = random_transform(rng, 9, 3, 3).apply(solution)
        values, transforms, count = search(grid.values, 3, 3, "minlex")
        found = canonical(grid)
        assert found.line == _line(values) and found.automorphisms == count
        kinds.add(found.line[9:15])
    assert kinds == {"456789", "457189"}  # both kinds of grid were met


def test_patminlex_of_symmetric_puzzles_against_the_python_search(compiled):
    """The kernel's two ways through the digits of patminlex -- each arrangement of the minimal
    pattern in turn, or the rounds when there are more than ``ARRANGEMENTS`` -- agree with the
    plain search on sparse puzzles with a half-turn symmetry (many arrangements, and many
    automorphisms), and a random transformation of each gets the same form."""
    import numpy as np

    from sudokit.canon import kernel

    cand = np.zeros((2, kernel.CAPACITY), np.int64)
    trips = np.zeros(54, np.int64)
    rng = random.Random(26)
    solution = sudokit.solve(sudokit.example("diabolical")).solution.values
    few = many = 0
    for trial in range(120):
        values = [0] * 81
        for _ in range(rng.choice([2, 3, 4, 5, 7])):  # cells of a solution, in pairs a half-turn apart
            cell = rng.randrange(81)
            values[cell], values[80 - cell] = solution[cell], solution[80 - cell]
        n, side = kernel._pattern(np.array(values, np.uint8), cand, trips, kernel.PATTERN_BEST,
                                  kernel.PATTERN_WHICH, kernel.PERM3)
        if n < 0:
            continue
        arrangements = kernel._arrangements(cand, side, n)
        few += 1 < arrangements <= kernel.ARRANGEMENTS
        many += arrangements > kernel.ARRANGEMENTS
        grid = Grid.unchecked(Grid.empty().shape, tuple(values))
        moved = random_transform(rng, 9, 3, 3).apply(grid)
        expected, _, count = search(values, 3, 3, "patminlex")
        forms, transforms, counts = kernel.canonicalise(np.array([values, moved.values], np.uint8), kernel.PATMINLEX)
        assert _line(forms[0]) == _line(expected) == _line(forms[1]), values
        assert counts[0] == counts[1] == count, values
        found = canonical(moved, "patminlex")
        assert found.line == _line(expected) and found.transform.apply(moved) == found.grid
    assert few > 20 and many > 5  # both ways were taken
