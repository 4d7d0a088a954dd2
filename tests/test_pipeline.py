"""The one data path: jobs over chunks, the bulk engine path against the per-puzzle path,
the worker pool, and line numbers that stay true across chunks."""

from __future__ import annotations

import json
import os
import time

import pytest

from sudokit import pipeline, records
from sudokit.grid import Grid
from sudokit.pipeline import Job, run, run_items, run_lines
from sudokit.pool import ordered_map

from conftest import load_counts


def _rows():
    return [r for r in load_counts() if len(r["puzzle"]) == 81]


def _mixed_lines() -> list[str]:
    """Known puzzles (unique, several solutions, none, clashing) with bad lines,
    comments and blank lines between them."""
    lines = []
    for k, row in enumerate(_rows()):
        lines.append(row["puzzle"])
        if k % 7 == 3:
            lines.append("# a comment")
        if k % 11 == 5:
            lines.append("")
        if k % 13 == 2:
            lines.append("1" * 80)  # too short
        if k % 17 == 4:
            lines.append("x" + "." * 80)  # a bad character
    return lines


def _per_puzzle(job: Job, lines: list[str]):
    """The same lines, every puzzle done on its own (no bulk path)."""
    items = []
    for number, (line, text) in enumerate(zip(*pipeline._content(lines, 1)), 1):
        items.append(pipeline._read_line(job, text, number, line, ""))
    return run_items(job, items)


@pytest.mark.parametrize("command,fmt", [("solve", "line"), ("solve", "jsonl"), ("count", "line"),
                                         ("count", "jsonl")])
def test_bulk_path_equals_the_per_puzzle_path(command: str, fmt: str) -> None:
    job = Job(command, fmt=fmt, limit=2 if command == "count" else None)
    lines = _mixed_lines()
    bulk = run_lines(job, lines, first_puzzle=1)
    alone = _per_puzzle(job, lines)
    assert bulk.text == alone.text
    assert bulk.notes == alone.notes and bulk.failures == alone.failures > 0


def test_counts_and_solutions_match_the_known_cases() -> None:
    rows = _rows()
    job = Job("count", fmt="jsonl", limit=1000)
    result = run_lines(job, [r["puzzle"] for r in rows], first_puzzle=1)
    out = [json.loads(line) for line in result.text.splitlines()]
    assert len(out) == len(rows)
    for row, record in zip(rows, out):
        if row["count"] == ">1":
            assert record["count"] > 1
        else:  # exact below the limit, the limit itself above it
            assert record["count"] == min(int(row["count"]), 1000)
        if row["count"] == "1":
            assert record["solution"] == row["solution"]
        if record["solution"] is not None:
            assert Grid(record["solution"]).is_solution_of(Grid(row["puzzle"]))


def test_fast_record_writer_is_the_record_schema() -> None:
    args = dict(puzzle="." * 81, status="solved", solution="1" * 81, method="fast", nodes=7, guesses=3,
                message="", line=12, source="a \"b\".txt")
    for counting in (False, True):
        expected = records.dumps(records.solve_record(counting=counting, count=2 if counting else None,
                                                      limit=5 if counting else None, **args))
        [fast] = records.solve_lines([args["puzzle"]], ["solved"], [args["solution"]], [2] if counting else None,
                                     5 if counting else None, "fast", [7], [3], [""], [12], args["source"])
        assert fast == expected


def test_line_numbers_stay_true_across_chunks() -> None:
    """A bad line far into a file is named by its own number, whatever the chunk size."""
    good = _rows()[0]["puzzle"]
    lines = [good] * 2600
    lines[2500] = "not a puzzle"
    lines.insert(10, "# comment")  # the bad line is now line 2502, puzzle 2501
    job = Job("solve", fmt="line")
    notes = [note for chunk in pipeline.stream_chunks(job, [("", lines)])
             for note in pipeline.run_chunk(chunk).notes]
    assert notes == ["puzzle 2501 (line 2502): parse_error: "
                     "12 symbols is too short for a puzzle: the smallest, 4x4, has 16"]
    small = Job("solve", fmt="jsonl", method="dfs")  # chunks of 64
    chunks = list(pipeline.stream_chunks(small, [("", lines[:200])]))
    assert len(chunks) > 3
    out = [json.loads(line) for chunk in chunks for line in pipeline.run_chunk(chunk).text.splitlines()]
    assert [r["line"] for r in out] == [n for n in range(1, 201) if n != 11]


@pytest.mark.parametrize("command", ["count", "rate"])
def test_output_is_the_same_on_two_processes(command: str) -> None:
    from sudokit import generate_many

    if command == "count":
        lines = [r["puzzle"] for r in _rows()[:40]] + ["bad line"]
    else:  # puzzles that singles solve: rating them is quick
        lines = [p.puzzle.line() for p in generate_many(12, minimal="logic", seed=5)] + ["bad line"]
    job = Job(command, fmt="jsonl", limit=3 if command == "count" else None,
              timeout=None if command == "count" else 30)
    one = list(run(job, [("f.txt", lines)], jobs=1))
    two = list(run(job, [("f.txt", lines)], jobs=2))
    assert "".join(c.text for c in one) == "".join(c.text for c in two)
    assert [n for c in one for n in c.notes] == [n for c in two for n in c.notes]
    assert sum(c.puzzles for c in two) == len(lines)


def _slow_square(x: int) -> int:
    time.sleep(0.01 * (x % 3))
    return x * x


def _fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


def _pid(_: int) -> int:
    time.sleep(0.2)
    return os.getpid()


def test_pool_keeps_order_and_passes_errors_on() -> None:
    assert list(ordered_map(_slow_square, range(30), jobs=2, window=4)) == [x * x for x in range(30)]
    with pytest.raises(ValueError, match="three"):
        list(ordered_map(_fail_on_three, range(10), jobs=2))


def test_pool_leaves_no_worker_behind_when_stopped_early() -> None:
    results = ordered_map(_pid, range(50), jobs=2)
    pids = {next(results), next(results)}
    results.close()
    time.sleep(0.3)
    for pid in pids - {os.getpid()}:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_job_refuses_an_unknown_command() -> None:
    from sudokit.errors import SudokuError

    with pytest.raises(SudokuError, match="unknown job"):
        Job("frobnicate")


def test_line_format_keeps_lines_aligned() -> None:
    """Line k of the output answers puzzle k: an empty line where there is no solution."""
    good = [r["puzzle"] for r in _rows() if r["count"] == "1"][:3]
    text = [good[0], "not a puzzle", good[1], "", "11" + good[2][2:], good[2]]
    chunk = run_lines(Job("solve", fmt="line"), text, first_puzzle=1)
    lines = chunk.text.split("\n")[:-1]
    assert len(lines) == 5  # the blank input line is skipped
    assert lines[1] == "" and lines[3] == ""  # bad line, clashing givens
    for puzzle, solution in ((good[0], lines[0]), (good[1], lines[2]), (good[2], lines[4])):
        assert Grid(solution).is_solution_of(Grid(puzzle))
    assert chunk.failures == 2 and [n.split(":")[0] for n in chunk.notes] == ["puzzle 2 (line 2)", "puzzle 4 (line 5)"]


def test_jsonl_records_of_a_stream() -> None:
    several = [r["puzzle"] for r in _rows() if r["count"] == ">1" or r["count"].isdigit() and int(r["count"]) > 1][:2]
    assert len(several) == 2
    clash = "11" + "." * 79
    chunk = run_lines(Job("count", fmt="jsonl", limit=2), [several[0], "bad", several[1], clash])
    out = [json.loads(line) for line in chunk.text.splitlines()]
    assert [r["status"] for r in out] == ["solved", "parse_error", "solved", "invalid"]
    assert [r["line"] for r in out] == [1, 2, 3, 4]
    assert out[0]["count"] == 2 and out[0]["method"] == "fast"
    assert Grid(out[2]["solution"]).is_solution_of(Grid(several[1]))
    assert {"puzzle", "status", "solution", "count", "limit", "method", "nodes", "guesses"} <= set(out[0])
    assert chunk.failures == 2 and chunk.puzzles == 4


@pytest.mark.parametrize("piece_size", [100, 997, 1 << 16])
def test_text_read_in_pieces_gives_what_lines_give(piece_size: int) -> None:
    """A file read in pieces of whole lines (the command line's way) is cut into
    chunks that give the same output and notes as the same file line by line."""
    import io

    from sudokit.formats import bounded_blocks

    lines = _mixed_lines() * 3
    text = "\n".join(lines) + "\n"
    job = Job("count", fmt="jsonl", limit=2)
    by_lines = [pipeline.run_chunk(c) for c in pipeline.chunks(job, lines, size=50)]
    pieces = list(bounded_blocks(io.StringIO(text), size=piece_size))
    assert "".join(pieces) == text
    by_text = [pipeline.run_chunk(c) for c in pipeline.text_chunks(job, pieces, size=50)]
    assert "".join(c.text for c in by_text) == "".join(c.text for c in by_lines)
    assert [n for c in by_text for n in c.notes] == [n for c in by_lines for n in c.notes]
    assert sum(c.puzzles for c in by_text) == sum(c.puzzles for c in by_lines)


@pytest.mark.parametrize("command,fmt,limit", [("solve", "line", None), ("solve", "block", None),
                                               ("solve", "spaced", None), ("count", "line", 2),
                                               ("count", "block", 10), ("count", "boxed", 1)])
def test_a_run_of_a_few_puzzles_writes_what_the_engine_writes(command: str, fmt: str, limit) -> None:
    """A run of a few puzzles is answered by Crook's method when it proves one
    solution, else by the engine: every known case (unique, several solutions,
    none, clashing givens) gives, byte for byte, the engine's text."""
    job = Job(command, fmt=fmt, limit=limit)
    rows = _rows()
    quick_used = 0
    for row in rows:
        few = b"".join(r.text.encode() for r in run(job, [("", [row["puzzle"]])]))
        engine = run_items(job, [pipeline._read_line(job, row["puzzle"], 1, 1, "")])
        assert few.decode() == engine.text, row["puzzle"]
        quick = pipeline._quick_result(pipeline.Job(command, fmt=fmt, limit=limit, quick=True),
                                       Grid(row["puzzle"]))
        if quick is not None:
            quick_used += 1
            assert row["count"] == "1" and quick.solution.line() == row["solution"]
    assert quick_used >= 10  # the unique cases take the quick path


def test_jsonl_and_node_limits_never_take_the_quick_path() -> None:
    grid = Grid(_rows()[0]["puzzle"])
    for job in (Job("solve", fmt="jsonl", quick=True), Job("solve", fmt="line", nodes=100, quick=True),
                Job("solve", method="dfs", quick=True), Job("all", limit=2, quick=True)):
        assert pipeline._quick_result(job, grid) is None


def test_a_failed_rating_is_recorded_by_its_cause() -> None:
    """rate and explain record why a puzzle failed: a count out of time is a timeout, not a
    puzzle without a solution; several solutions and clashing givens are invalid."""
    from sudokit.errors import InvalidPuzzle, LimitReached, NoSolution, ParseError, SeveralSolutions
    from sudokit.pipeline import failure_status
    from sudokit.result import Status

    assert failure_status(LimitReached("the engine could not tell")) is Status.TIMEOUT
    assert failure_status(NoSolution("none")) is Status.NO_SOLUTION
    assert failure_status(SeveralSolutions("two")) is Status.INVALID
    assert failure_status(InvalidPuzzle("clash")) is Status.INVALID
    assert failure_status(ParseError("x")) is Status.PARSE_ERROR
