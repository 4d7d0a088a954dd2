"""``sudoku bank add`` and ``bank query`` against truth made outside the bank:
the 17-clue collection (no two equivalent puzzles), random equivalent copies
made by the test, and Sudoku Explainer's ratings of the reference set."""

from __future__ import annotations

import json
import random

import pytest

from sudokit import Grid, canonical
from sudokit.bank import Bank, Query, add, choose
from sudokit.bank.schema import ROW

from bank_helpers import rating_record, se_rows, seventeen, shuffled, sudoku, table, write_jsonl


@pytest.fixture(scope="module")
def copies_bank(tmp_path_factory):
    """300 17-clue puzzles as rating records, then a random copy of each, and of 50 a second copy."""
    folder = tmp_path_factory.mktemp("copies")
    rng = random.Random(26)
    puzzles = seventeen(300)
    first = [rating_record(p, round(1.0 + (i % 90) / 10, 1)) for i, p in enumerate(puzzles)]
    again = [rating_record(shuffled(p, rng), 9.9) for p in puzzles] + \
            [rating_record(shuffled(p, rng), 9.9) for p in puzzles[:50]]
    write_jsonl(folder / "first.jsonl", first)
    write_jsonl(folder / "again.jsonl", again)
    path = folder / "bank.sqlite"
    with Bank(path) as bank:
        one = add(bank, [str(folder / "first.jsonl")])
        two = add(bank, [str(folder / "again.jsonl")])
    return path, puzzles, first, one, two


def test_a_repeat_is_counted_not_stored_twice(copies_bank):
    path, puzzles, first, one, two = copies_bank
    assert (one.new, one.repeats) == (300, 0)
    assert (two.new, two.repeats) == (0, 350)
    rows = table(path, f"SELECT puzzle, seen, er FROM ({ROW}) ORDER BY id")
    assert [r[0] for r in rows] == puzzles  # the puzzle as first given
    seen = {r[0]: r[1] for r in rows}
    assert all(seen[p] == (3 if i < 50 else 2) for i, p in enumerate(puzzles))
    # the first rating stays: a repeat brings nothing the bank lacked
    assert [r[2] for r in rows] == [rec["er"] for rec in first]


def test_kept_fields_are_right(copies_bank):
    path, puzzles, *_ = copies_bank
    rows = table(path, "SELECT puzzle, solution, clues, transform, key, symmetry FROM puzzle LIMIT 40")
    from sudokit.canon import Transform

    for puzzle, solution, clues, transform, key, symmetry in rows:
        grid, sol = Grid(puzzle), Grid(solution)
        assert sol.is_solution_of(grid) and clues == 17 == grid.clues
        assert Transform.parse(transform).apply(grid).line() == key  # the transformation reaches the key
        assert symmetry in ("none", "rotate180", "mirror", "flip", "diagonal", "rotate90", "dihedral")


def test_symmetry_is_found():
    from sudokit.bank.rows import symmetries, symmetry_name

    grids = [Grid("........1" + "." * 63 + "1........"), Grid("1" + "." * 80),
             Grid("1.......1" + "." * 63 + "1.......1"), Grid("12" + "." * 79)]
    assert [symmetry_name(b) for b in symmetries(grids)] == ["rotate180", "diagonal", "dihedral", "none"]


@pytest.fixture(scope="module")
def se_bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("se")
    rows = se_rows()
    write_jsonl(folder / "se.jsonl", [rating_record(r["puzzle"], float(r["er"]), r["er_technique"]) for r in rows])
    path = folder / "bank.sqlite"
    result = sudoku("bank", "add", "--bank", str(path), str(folder / "se.jsonl"))
    assert result.returncode == 0, result.stderr
    return path, rows


def test_query_by_rating_matches_the_reference(se_bank):
    path, rows = se_bank
    result = sudoku("bank", "query", "--bank", str(path), "--rating", "2.0-4.5", "--all", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    got = [json.loads(line) for line in result.stdout.splitlines()]
    assert got and all(2.0 <= r["er"] <= 4.5 for r in got)
    keys = {r["key"] for r in got}
    wanted = [r["puzzle"] for r in rows if 2.0 <= float(r["er"]) <= 4.5]
    # every reference puzzle in range is there, as itself or as an equivalent one
    assert {canonical(Grid(p), "patminlex").line for p in wanted} == keys


def test_query_by_level_and_hardest_technique(se_bank):
    path, rows = se_bank
    result = sudoku("bank", "query", "--bank", str(path), "--level", "fiendish", "--all", "--format", "jsonl")
    got = [json.loads(line) for line in result.stdout.splitlines()]
    assert got and all(r["level"] == "fiendish" and 2.5 < r["er"] <= 6.0 for r in got)
    technique = next(r["er_technique"] for r in rows if r["er_technique"] not in ("Hidden Single", "Naked Single"))
    result = sudoku("bank", "query", "--bank", str(path), "--hardest", technique, "--all", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    got = [json.loads(line) for line in result.stdout.splitlines()]
    expected = {r["puzzle"] for r in rows if r["er_technique"] == technique}
    assert got and {r["puzzle"] for r in got} <= expected


def test_seeded_random_order_and_books(se_bank, tmp_path):
    path, _ = se_bank
    copy = tmp_path / "bank.sqlite"
    copy.write_bytes(path.read_bytes())
    base = ["bank", "query", "--bank", str(copy), "--rating", "1.0-3.0", "-n", "7"]
    a = sudoku(*base, "--seed", "5").stdout.split()
    b = sudoku(*base, "--seed", "5").stdout.split()
    c = sudoku(*base, "--seed", "6").stdout.split()
    assert len(a) == 7 and a == b and a != c
    marked = sudoku(*base, "--seed", "5", "--unused", "--mark-used", "Book 1")
    assert marked.returncode == 0 and marked.stdout.split() == a
    used = table(copy, "SELECT p.puzzle FROM used u JOIN puzzle p ON p.id = u.puzzle JOIN book b ON b.id = u.book "
                       "WHERE b.name = 'Book 1'")
    assert sorted(r[0] for r in used) == sorted(a)
    after = sudoku(*base, "--seed", "5", "--unused").stdout.split()
    assert len(after) == 7 and not set(after) & set(a)
    assert set(sudoku(*base, "--seed", "5", "--not-in", "Book 2").stdout.split()) == set(a)


@pytest.mark.slow
def test_mark_used_by_two_processes_at_once_never_gives_a_puzzle_twice(se_bank, tmp_path):
    import subprocess

    from bank_helpers import SUDOKU

    path, _ = se_bank
    copy = tmp_path / "bank.sqlite"
    copy.write_bytes(path.read_bytes())
    args = ["bank", "query", "--bank", str(copy), "--not-in", "Book", "-n", "30", "--seed", "1",
            "--mark-used", "Book"]
    procs = [subprocess.Popen([*SUDOKU, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=120)[0].split() for p in procs]
    assert all(len(o) == 30 for o in outs)
    assert not set(outs[0]) & set(outs[1])


def test_unrated_puzzles_are_rated_on_the_way_in(tmp_path):
    rows = se_rows()[:6]
    (tmp_path / "p.txt").write_text("\n".join(r["puzzle"] for r in rows) + "\n")
    with Bank(tmp_path / "b.sqlite") as bank:
        report = add(bank, [str(tmp_path / "p.txt")], jobs=2)
        assert (report.new, report.rated, report.failed) == (6, 6, 0)
        got = {r["puzzle"]: r for r in choose(bank, Query(n=None))}
    for r in rows:
        assert got[r["puzzle"]]["er"] == pytest.approx(float(r["er"]))
        assert got[r["puzzle"]]["solution"] == r["solution"]


def test_records_of_rate_go_in_rated_with_the_techniques_of_their_path(tmp_path):
    from sudokit.logic import Rating

    if "techniques" not in Rating.__dataclass_fields__:
        pytest.skip("ratings do not carry their path's techniques in this build")
    rows = [r for r in se_rows() if 2.5 < float(r["er"]) < 4.5][:4]
    (tmp_path / "p.txt").write_text("\n".join(r["puzzle"] for r in rows) + "\n")
    rated = sudoku("rate", "--format", "jsonl", str(tmp_path / "p.txt"))
    assert rated.returncode == 0, rated.stderr
    (tmp_path / "r.jsonl").write_text(rated.stdout)
    records = [json.loads(line) for line in rated.stdout.splitlines()]
    assert all(r["hardest"] in r["techniques"] for r in records)
    path = tmp_path / "b.sqlite"
    assert sudoku("bank", "add", "--bank", str(path), str(tmp_path / "r.jsonl")).returncode == 0
    from sudokit.logic.techniques import family_of

    for record in records:
        family = family_of(record["hardest"])
        got = sudoku("bank", "query", "--bank", str(path), "--technique", family, "--all").stdout.split()
        assert record["puzzle"] in got
    assert table(path, "SELECT count(*) FROM puzzle WHERE er IS NULL")[0][0] == 0
