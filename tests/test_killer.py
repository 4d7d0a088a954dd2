"""Killer cages (sudokit.killer): sum masks against brute force, the checks, the text form, and the reference solver.

The truths: itertools' combinations for the digit sets of each sum, and
tests/reference_variants.py (no sudokit code) for the solution counts of
killer puzzles whose cages are cut here from a solved grid.
"""

from __future__ import annotations

import itertools
import random

import pytest

import reference_variants as ref

from sudokit.errors import InvalidPuzzle, ParseError
from sudokit.killer import TABLE_MAX, Cage, CageError, check_cages, parse_cages, render_cages, sum_mask, sum_sets, sum_table


def brute(n: int, size: int, total: int) -> list[int]:
    out = []
    for combo in itertools.combinations(range(1, n + 1), size):
        if sum(combo) == total:
            out.append(sum(1 << (d - 1) for d in combo))
    return sorted(out)


# -- the digit sets of each sum ------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, TABLE_MAX + 1))
def test_the_sum_table_equals_brute_force(n):
    by_sum: dict[tuple[int, int], list[int]] = {}
    for size in range(n + 1):
        for combo in itertools.combinations(range(1, n + 1), size):
            by_sum.setdefault((size, sum(combo)), []).append(sum(1 << (d - 1) for d in combo))
    table = sum_table(n)
    top = n * (n + 1) // 2
    for size in range(n + 1):
        for total in range(top + 1):
            expected = sorted(by_sum.get((size, total), []))
            assert list(table[size][total]) == expected, (n, size, total)
            assert list(sum_sets(n, size, total)) == expected
    assert sum(len(t) for row in table for t in row) == 2 ** n


@pytest.mark.parametrize("n, size", [(25, 1), (25, 2), (25, 3), (20, 4), (36, 2)])
def test_sum_sets_beyond_the_table_equal_brute_force(n, size):
    for total in range(0, size * n + 2):
        assert list(sum_sets(n, size, total)) == brute(n, size, total)


def test_sum_masks_are_the_union_of_the_sets():
    assert sum_mask(9, 2, 3) == 0b11 and sum_mask(9, 2, 17) == 0b110000000
    assert sum_mask(9, 3, 15) == 0b111111111 and sum_mask(9, 2, 18) == 0 and sum_mask(9, 10, 55) == 0
    assert sum_mask(9, 4, None) == 0b111111111 and sum_mask(9, 0, None) == 0
    assert sum_mask(4, 2, 5) == 0b1111 and sum_mask(16, 2, 31) == 0b11 << 14
    rng = random.Random(5)
    for _ in range(200):
        n = rng.randint(1, 16)
        size = rng.randint(0, n)
        total = rng.randint(0, n * (n + 1) // 2)
        union = 0
        for digits in brute(n, size, total):
            union |= digits
        assert sum_mask(n, size, total) == union
    assert sum_sets(9, -1, 3) == () and sum_sets(9, 2, -3) == () and sum_sets(9, 2, 99) == ()


def test_the_table_stops_at_16():
    with pytest.raises(ValueError, match="1..16"):
        sum_table(17)


# -- the type and its checks ----------------------------------------------------------------


def test_a_cage_is_its_sorted_cells_and_total():
    assert Cage((10, 1, 0), 12) == Cage((0, 1, 10), 12) and hash(Cage((1, 0), 3)) == hash(Cage((0, 1), 3))
    assert Cage((0, 1)) != Cage((0, 1), 3) and len(Cage((0, 1, 2), 6)) == 3
    assert Cage((0, 1, 9), 7).name(9) == "r1c1 r1c2 r2c1 = 7" and Cage((0,)).name(4) == "r1c1"
    values = [0] * 81
    cage = Cage((0, 1), 5)
    assert cage.allows(values)
    values[0] = 4
    assert cage.allows(values)
    values[0] = 5
    assert not cage.allows(values)  # the other cell would need 0
    values[0], values[1] = 2, 3
    assert cage.allows(values)
    values[1] = 2
    assert not cage.allows(values) and not Cage((0, 1)).allows(values)


@pytest.mark.parametrize(
    "cages, message, number",
    [
        ([Cage(())], "cage 1 has no cells", 1),
        ([Cage((0, 1), 3), Cage((81,), 1)], "cage 2: cell 81 is outside the 9x9 grid", 2),
        ([Cage((0, 0), 3)], "lists r1c1 twice", 1),
        ([Cage(tuple(range(10)))], "has 10 cells, but only 9 different digits exist", 1),
        ([Cage((0, 1), 2)], "2 different digits of 1..9 add up to 3..17, not 2", 1),
        ([Cage((0, 1, 2), 25)], "3 different digits of 1..9 add up to 6..24, not 25", 1),
        ([Cage((0, 2), 5)], r"cage 1 \(r1c1 r1c3 = 5\) is not connected: r1c3 does not touch", 1),
        ([Cage((0, 1), 5), Cage((1, 2), 5)], r"cage 2 \(r1c2 r1c3 = 5\): r1c2 is in cage 1 too", 2),
    ],
)
def test_bad_cages_are_refused_with_a_located_message(cages, message, number):
    with pytest.raises(CageError, match=message) as caught:
        check_cages(cages, 9)
    assert caught.value.cage == number
    assert isinstance(caught.value, InvalidPuzzle) and isinstance(caught.value, ValueError)


def test_good_cages_pass():
    cages = (Cage((0, 1, 10), 24), Cage((2,), 9), Cage(tuple(range(72, 81)), 45), Cage((3, 4, 5, 12, 13, 14)))
    assert check_cages(cages, 9) == cages


# -- the text form ----------------------------------------------------------------------------


def random_cages(n: int, solution: list[int], rng: random.Random, with_totals: float = 1.0) -> list[Cage]:
    """Cover the grid with connected cages of different digits, grown at random from ``solution``."""
    free = set(range(n * n))
    cages = []
    while free:
        start = min(free)
        cells, used = [start], {solution[start]}
        free.discard(start)
        want = rng.randint(1, min(n, 5))
        while len(cells) < want:
            options = []
            for cell in cells:
                r, c = divmod(cell, n)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    nb = rr * n + cc
                    if 0 <= rr < n and 0 <= cc < n and nb in free and solution[nb] not in used:
                        options.append(nb)
            if not options:
                break
            pick = rng.choice(sorted(set(options)))
            cells.append(pick)
            used.add(solution[pick])
            free.discard(pick)
        total = sum(solution[c] for c in cells) if rng.random() < with_totals else None
        cages.append(Cage(tuple(cells), total))
    return cages


def solved(n: int, box_rows: int, box_cols: int, seed: int) -> list[int]:
    units = ref.rows(n) + ref.columns(n) + ref.boxes(box_rows, box_cols)
    rng = random.Random(seed)
    givens = [0] * (n * n)
    givens[: n] = rng.sample(range(1, n + 1), n)
    return ref.count(n, units, givens, limit=1)[1]


@pytest.mark.parametrize("seed", range(5))
def test_the_text_form_round_trips_with_more_than_26_cages(seed):
    rng = random.Random(seed)
    solution = solved(9, 3, 3, seed)
    cages = check_cages(random_cages(9, solution, rng, with_totals=0.8), 9)
    assert len(cages) > 26
    text = render_cages(cages, 9)
    assert len(text.splitlines()) == len(cages)
    assert parse_cages(text, 9) == cages
    assert all(cage.allows(solution) for cage in cages)
    assert ref.obeys(solution, 9, [], [(c.cells, c.total) for c in cages])


def test_the_text_form_reads_commas_comments_case_and_blank_lines():
    text = """
    # a 4x4 killer
    R1C1, r1c2 = 3   # the 1 and the 2
    r2c1 r2c2=7

    r3c1 r4c1
    """
    assert parse_cages(text, 4) == (Cage((0, 1), 3), Cage((4, 5), 7), Cage((8, 12)))
    assert render_cages(parse_cages(text, 4), 4) == "r1c1 r1c2 = 3\nr2c1 r2c2 = 7\nr3c1 r4c1"
    assert parse_cages("", 9) == () and render_cages((), 9) == ""
    wide = parse_cages("r16c16 r16c15 = 31", 16)
    assert wide == (Cage((254, 255), 31),) and render_cages(wide, 16) == "r16c15 r16c16 = 31"


@pytest.mark.parametrize(
    "text, message, line, column",
    [
        ("r1c1 r1c2 = 3\nr2c1 r2c2 = x", "total is a whole number after '=', not 'x'", 2, 13),
        ("r1c1 q1 = 3", "expected a cell such as r1c1, not 'q1'", 1, 6),
        ("r1c1\n\nr10c1 = 4", "r10c1 is outside the 9x9 grid", 3, 1),
        ("= 5", "needs its cells", 1, 1),
        ("r1c1 r1c1 = 2", "lists a cell twice", 1, None),
    ],
)
def test_the_text_form_errors_say_where(text, message, line, column):
    with pytest.raises(ParseError, match=message) as caught:
        parse_cages(text, 9)
    assert caught.value.line == line and caught.value.column == column


def test_parsed_cages_are_checked():
    with pytest.raises(CageError, match="in cage 1 too"):
        parse_cages("r1c1 r1c2 = 3\nr1c2 r1c3 = 5", 9)


# -- killer puzzles by the reference ---------------------------------------------------------------


@pytest.mark.parametrize("n, box_rows, box_cols, seed", [(4, 2, 2, 1), (4, 2, 2, 2), (6, 2, 3, 3), (6, 2, 3, 4)])
def test_cages_cut_from_a_solution_keep_it_and_their_masks_allow_it(n, box_rows, box_cols, seed):
    """A killer with no givens: the reference finds the grid the cages came from among its
    solutions, every solution keeps every cage, and each cell's digit is in its cage's mask."""
    rng = random.Random(seed)
    solution = solved(n, box_rows, box_cols, seed)
    cages = check_cages(random_cages(n, solution, rng), n)
    units = ref.rows(n) + ref.columns(n) + ref.boxes(box_rows, box_cols)
    found = ref.solutions(n, units, [0] * (n * n), [(c.cells, c.total) for c in cages], limit=50)
    assert solution in found
    for other in found:
        assert all(cage.allows(other) for cage in cages)
        for cage in cages:
            mask = sum_mask(n, len(cage), cage.total)
            assert all(mask >> (other[c] - 1) & 1 for c in cage.cells)
    wrong = list(solution)
    wrong[0], wrong[1] = wrong[1], wrong[0]
    broken = [c for c in cages if not c.allows(wrong)]
    assert broken or not ref.obeys(wrong, n, units)  # a swap breaks a cage, or a unit


# -- cages on the geometry --------------------------------------------------------------------------


def test_cages_ride_on_the_geometry_through_combine_under_pickling_and_records():
    import json
    import pickle

    from sudokit import formats, variants
    from sudokit.geometry import Geometry, Shape
    from sudokit.grid import Grid

    cages = (Cage((0, 1), 3), Cage((2, 3), 7))
    plain = Geometry.of(Shape(2, 2))
    geo = plain.with_cages(cages)
    assert geo.cages == cages and geo != plain and hash(geo) != hash(plain)
    assert geo.units == plain.units and geo.peers == plain.peers  # cages are not units
    assert geo.with_cages(()) is plain and geo.with_cages(cages) is geo
    assert geo.cage_of[:5] == (0, 0, 1, 1, -1)
    x = variants.combine(geo, variants.x("2x2"))
    assert x.cages == cages and variants.describe(x) == "x,killer"
    assert variants.of("2x2", "x,killer", cages=cages) == x
    with pytest.raises(ValueError, match="two different sets of killer cages"):
        variants.combine(geo, plain.with_cages([Cage((0, 4), 3)]))
    grid = Grid.empty("2x2").with_geometry(x)
    assert pickle.loads(pickle.dumps(grid)) == grid
    assert variants.under(grid, None, None) is grid  # nothing named: as it is
    assert variants.under(Grid.empty("2x2"), None, None, cages).geometry == geo
    assert variants.under(grid, "x", None).geometry == x  # units named, no cages given: the grid's kept
    assert variants.under(grid, "", None, ()).geometry == plain  # the named units (none), no cages
    record = json.loads(formats.render(grid, "jsonl"))
    assert record["variant"] == "x,killer" and record["cages"] == ["r1c1 r1c2 = 3", "r1c3 r1c4 = 7"]
    assert formats.parse(json.dumps(record)) == grid
    record["cages"] = "r1c1 r1c2 = 3\nr1c3 r1c4 = 7"  # the text form as one string reads too
    assert formats.parse(json.dumps(record)) == grid
    assert Grid([1, 2] + [0] * 14, "2x2", geometry=geo).is_consistent
    assert not Grid([2, 2] + [0] * 14, "2x2", geometry=geo).is_consistent
    assert not Grid([2, 3] + [0] * 14, "2x2", geometry=geo).is_consistent  # 2 + 3 is not 3
    assert Grid.empty("2x2").with_geometry(geo).candidates()[:4] == (frozenset({1, 2}),) * 2 + (frozenset({3, 4}),) * 2
