"""The batch module: bulk results equal per-puzzle results, text in and out."""

from __future__ import annotations


import numpy as np
import pytest

from sudokit import batch, engine
from sudokit.budget import Budget
from sudokit.grid import Grid

from conftest import bench_sample, load_counts
from reference import obeys_rules


def _lines(name: str, count: int) -> list[bytes]:
    return [line.encode() for line in bench_sample(name, count)]


def test_parse_and_format_round_trip() -> None:
    lines = _lines("17_clue.txt", 50) + [b"  " + _lines("kaggle.txt", 1)[0].replace(b".", b"0") + b"\r\n"]
    values, ok = batch.parse_lines(lines)
    assert ok.all() and values.shape == (51, 81)
    for line, row in zip(lines, values):
        assert Grid(line.decode().strip()).values == tuple(row.tolist())
    back = batch.format_lines(values)
    assert back[:50] == lines[:50]
    assert back[50] == lines[50].strip().replace(b"0", b".")


def test_parse_marks_bad_lines() -> None:
    good = _lines("kaggle.txt", 1)[0]
    lines = [good, good[:80], good[:40] + b"x" + good[41:], "é" * 81, good + b"1", good]
    values, ok = batch.parse_lines(lines)
    assert ok.tolist() == [True, False, False, False, False, True]
    assert not values[~ok].any()
    assert "column 41" in batch.line_problem(lines[2])
    assert "81" in batch.line_problem(lines[1])
    assert batch.line_problem(good) == ""


def test_solve_many_equals_one_by_one_and_ignores_jobs() -> None:
    rows = load_counts()
    lines = _lines("magictour_top1465.txt", 40) + _lines("serg_benchmark.txt", 40) + [
        r["puzzle"].encode() for r in rows]
    values, ok = batch.parse_lines(lines)
    assert ok.all()
    one = batch.solve_many(values, limit=3)
    two = batch.solve_many(values, limit=3, jobs=2)
    for field in ("solutions", "counts", "nodes", "guesses"):
        assert np.array_equal(getattr(one, field), getattr(two, field))
    for line, found, solution in zip(lines, one.counts, one.solutions):
        grid = Grid(line.decode())
        expected, first = engine.count(grid, 3, Budget())
        assert found == expected
        if found:
            assert obeys_rules(solution.tolist(), grid.values, 3, 3)
            assert tuple(solution.tolist()) == first.values
    assert np.array_equal(batch.count_many(values, limit=3), one.counts)


def test_solve_many_other_shapes_and_node_limit() -> None:
    puzzles = np.zeros((3, 16), dtype=np.uint8)
    puzzles[1, 0] = puzzles[1, 1] = 1  # clash
    result = batch.solve_many(puzzles, limit=0)
    assert result.counts.tolist() == [288, 0, 288]
    capped = batch.solve_many(np.zeros((2, 81), dtype=np.uint8), limit=0, node_limit=50)
    assert capped.counts.tolist() == [-1, -1]
    with pytest.raises(Exception, match="puzzle 2"):
        batch.solve_many(np.array([[0] * 16, [0] * 15 + [5]]), shape="2x2")


def test_clashing_matches_the_grid_rules() -> None:
    rows = load_counts()
    values, ok = batch.parse_lines([r["puzzle"].encode() for r in rows])
    expected = [not Grid(r["puzzle"]).is_consistent for r in rows]
    assert batch.clashing(values).tolist() == expected and any(expected)


def test_solve_many_reads_text_and_names_a_bad_puzzle() -> None:
    from sudokit.errors import SudokuError

    rows = [r for r in load_counts() if r["count"] == "1"][:3]
    result = batch.solve_many([r["puzzle"] for r in rows])
    assert [line.decode() for line in batch.format_lines(result.solutions)] == [r["solution"] for r in rows]
    with pytest.raises(SudokuError, match="puzzle 2"):
        batch.solve_many([rows[0]["puzzle"], "..."])
    with pytest.raises(SudokuError, match="not one str"):
        batch.solve_many(rows[0]["puzzle"])
