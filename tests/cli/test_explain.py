"""``sudoku rate``, ``sudoku explain`` and ``sudoku hint`` (sudokit.cli.explain)
from the outside.

Expected values come from Sudoku Explainer's ratings in se_dev.tsv and from
the puzzles' solutions, not from this code.
"""

from __future__ import annotations

import json

import pytest

from conftest import rated_reference
from sudokit.errors import Contradiction
from sudokit.logic import hint

from cli_helpers import GOOD, run


def _rows(n: int = 400) -> list[dict[str, str]]:
    return rated_reference()[:n]


@pytest.fixture(scope="module")
def easy_rows() -> list[dict[str, str]]:
    return [r for r in _rows() if float(r["er"]) <= 2.5][:6]


def test_rate_text_lines_match_se(easy_rows, tmp_path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("\n".join(r["puzzle"] for r in easy_rows) + "\n")
    result = run("rate", str(path))
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == len(easy_rows)
    for line, row in zip(lines, easy_rows):
        puzzle, rating, level = line.split()
        assert puzzle == row["puzzle"]
        assert rating == f"{float(row['er']):.1f}/{float(row['ep']):.1f}/{float(row['ed']):.1f}"
        assert level in ("easy", "medium", "hard")


def test_rate_jsonl_from_stdin(easy_rows) -> None:
    result = run("rate", "-", "--format", "jsonl", input="\n".join(r["puzzle"] for r in easy_rows))
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [(r["er"], r["ep"], r["ed"]) for r in records] == [
        (float(r["er"]), float(r["ep"]), float(r["ed"])) for r in easy_rows
    ]
    assert all(r["lower_bound"] is False for r in records)


def test_rate_marks_lower_bounds() -> None:
    # Easter Monster needs nested forcing chains (SE 11.6): a budget of one
    # second's chain work ends there, and the rating says it is a lower bound,
    # never above SE's
    hard = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    result = run("rate", "-", "--timeout", "1", input=hard + "\n")
    assert result.exit_code == 0
    assert "≥" in result.output
    er = float(result.output.split()[1].split("/")[0].lstrip("≥"))
    assert 9.0 <= er <= 11.6


def test_rate_reports_bad_puzzles_and_goes_on(easy_rows) -> None:
    text = easy_rows[0]["puzzle"] + "\n" + "11" + "." * 79 + "\n" + easy_rows[1]["puzzle"] + "\n"
    result = run("rate", "-", input=text)
    assert result.exit_code == 1
    assert result.output.count("/") >= 4  # two rated lines (stderr is mixed in by the runner)
    assert "puzzle 2" in result.output


def test_explain_steps_solve_the_puzzle(easy_rows) -> None:
    row = easy_rows[0]
    result = run("explain", "-", "--format", "jsonl", input=row["puzzle"] + "\n")
    assert result.exit_code == 0, result.output
    grid = list(row["puzzle"])
    for line in result.output.splitlines():
        record = json.loads(line)
        for placement in record["placements"]:
            cell, value = placement.split("=")
            r, c = int(cell[1]) - 1, int(cell[3]) - 1
            grid[r * 9 + c] = value
    assert "".join(grid) == row["solution"]


def test_explain_text_numbers_steps_and_shows_grids() -> None:
    result = run("explain", "--example", "easy", "--grids")
    assert result.exit_code == 0, result.output
    assert "  1. [" in result.output
    assert "+-------+" in result.output or result.output.count("\n") > 20


def test_hint_for_an_example() -> None:
    result = run("hint", "--example", "easy")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Hidden Single: r")


def test_hint_reads_pencil_marks(tmp_path) -> None:
    """Pencil marks narrower than the givens allow: every blank cell keeps
    only its solution value and one other. The hint must work on those marks
    (it differs from the hint of the bare grid) and stay sound."""
    row = next(r for r in _rows() if float(r["er"]) >= 3)
    grid_line = row["puzzle"]
    solution = row["solution"]
    cells = []
    for i, ch in enumerate(grid_line):
        if ch != ".":
            cells.append(ch)
        else:
            sol = int(solution[i])
            other = sol % 9 + 1
            cells.append("".join(sorted(f"{sol}{other}")))
    rows = [" ".join(cells[r * 9:(r + 1) * 9]) for r in range(9)]
    path = tmp_path / "marks.txt"
    path.write_text("\n".join(rows) + "\n")
    result = run("hint", str(path), "--format", "jsonl")
    assert result.exit_code == 0, result.output
    step = json.loads(result.output)
    bare = run("hint", "-", "--format", "jsonl", input=grid_line + "\n")
    assert json.loads(bare.output) != step
    for p in step["placements"]:
        cell, value = p.split("=")
        assert solution[(int(cell[1]) - 1) * 9 + int(cell[3]) - 1] == value
    for e in step["eliminations"]:
        cell, value = e.split("<>")
        assert solution[(int(cell[1]) - 1) * 9 + int(cell[3]) - 1] != value


def test_hint_on_a_solved_grid_fails_cleanly(easy_rows) -> None:
    result = run("hint", "-", input=easy_rows[0]["solution"] + "\n")
    assert result.exit_code == 1
    assert "Traceback" not in result.output


def test_explain_marks_read_back_as_candidates() -> None:
    """The pencil-mark grid that --marks prints is the candidates format: it
    reads back to the puzzle and the candidates its givens allow."""
    from sudokit import examples, formats

    result = run("explain", "--example", "gentle", "--grids", "--marks")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    block = "\n".join(lines[1:14])
    grid, masks = formats.parse_candidates(block)
    puzzle = examples.example("gentle")
    assert grid == puzzle
    assert [m for m, v in zip(masks, grid.values) if not v] == [
        m for m, v in zip(puzzle.candidate_masks(), puzzle.values) if not v]


def test_explain_jsonl_names_the_pattern(easy_rows) -> None:
    result = run("explain", "-", "--format", "jsonl", input=easy_rows[0]["puzzle"] + "\n")
    record = json.loads(result.output.splitlines()[0])
    assert set(record) >= {"technique", "rating", "placements", "eliminations", "cells", "units", "text"}
    assert record["cells"] and record["units"]


def test_rate_jobs_keeps_order_and_results(easy_rows, tmp_path) -> None:
    path = tmp_path / "p.txt"
    bad = "11" + "." * 79
    path.write_text("\n".join([r["puzzle"] for r in easy_rows[:3]] + [bad] + [r["puzzle"] for r in easy_rows[3:]]) + "\n")
    one = run("rate", str(path))
    two = run("rate", "-j", "2", str(path))
    assert one.exit_code == two.exit_code == 1
    assert one.output == two.output


@pytest.mark.parametrize("command", ["rate", "explain"])
def test_a_bad_puzzle_is_named_once_and_the_batch_goes_on(command: str, tmp_path) -> None:
    good = GOOD
    path = tmp_path / "p.txt"
    path.write_text(good[:8] + "x" + good[9:] + "\n" + good + "\n")
    result = run(command, str(path))
    assert result.exit_code == 1
    # named once, as `solve` names it, then the count of failures
    assert result.stderr.strip().splitlines() == [
        "puzzle 1 (line 1): parse_error: column 9: unexpected character 'x': "
        "a 9x9 puzzle is written with 1-9 and '.' or '0' for a blank",
        "1 of 2 puzzles failed"]
    assert good in result.stdout


def test_cli_hint_on_contradicting_candidates_exits_1() -> None:
    text = "12345678.........9" + "." * 63 + "\n"
    result = run("hint", "-", input=text)
    assert result.exit_code == 1
    # the values alone have no solution: said before any candidate is looked at
    assert "no solution completes this grid" in result.output and "Pointing" not in result.output
    with pytest.raises(Contradiction):
        hint(text.strip())


def test_cli_hint_and_solve_agree_on_ten_rows(tmp_path) -> None:
    path = tmp_path / "ten.txt"
    path.write_text("123456789\n" * 10)
    said = {}
    for command in ("hint", "solve"):
        result = run(command, str(path))
        assert result.exit_code == 1
        said[command] = result.output
    assert "10 rows; a 9x9 puzzle has only 9" in said["hint"]
    assert "10 rows; a 9x9 puzzle has only 9" in said["solve"]


def _hard_trace(puzzle_id: str) -> dict:
    import gzip

    from conftest import RATED, require_shared

    with gzip.open(require_shared(RATED / "hard_dev_traces.jsonl.gz"), "rt") as fh:
        return next(row for row in map(json.loads, fh) if row["id"] == puzzle_id)


def test_hint_inner_shows_the_inner_chains_of_se_nested_step() -> None:
    # SE's step 5 of hd-0361 is a level-2 Dynamic Region Forcing Chains (+ Forcing Chains), 10.0:
    # --inner puts the inner chains under its line, indented; the record carries the same chains
    from sudokit.formats import render_marks
    from sudokit.grid import Grid
    from sudokit.logic.state import Candidates, geometry

    se = _hard_trace("hd-0361")["steps"][4]
    values, masks = [], []
    for c in range(81):
        m = sum(1 << k for k, ch in enumerate(se["candidates"][9 * c:9 * c + 9]) if ch != ".")
        single = m & (m - 1) == 0
        values.append(m.bit_length() if single else 0)
        masks.append(0 if single else m)
    state = Candidates(geometry(Grid("." * 81).shape), values, masks)
    marks = render_marks(state.grid(), state.mask) + "\n"
    plain = run("hint", "-", input=marks)
    inner = run("hint", "-", "--inner", input=marks)
    record = json.loads(run("hint", "-", "--format", "jsonl", input=marks).output)
    assert plain.exit_code == inner.exit_code == 0
    first, *rest = inner.output.strip().splitlines()
    assert plain.output.strip() == first and "(+ Forcing Chains)" in first and record["rating"] == se["rating"]
    assert rest and [line.strip() for line in rest] == [f"[{d['rating']:.1f}] {d['text']}" for d in record["nested"]]
    assert all(line.startswith("  [") for line in rest)


@pytest.mark.slow
def test_explain_inner_lists_inner_chains_under_nested_steps(tmp_path) -> None:
    # a whole hard puzzle (about 10 s): every nested step's inner chains follow its line, indented
    puzzle = _hard_trace("hd-0361")["puzzle"]
    plain = run("explain", "-", input=puzzle + "\n")
    inner = run("explain", "-", "--inner", input=puzzle + "\n")
    assert plain.exit_code == inner.exit_code == 0
    numbered = [line for line in inner.output.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    assert numbered == [line for line in plain.output.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    # under its step, past the step's number and rating ("  12. [10.5] "), indented by depth
    extra = [line for line in inner.output.splitlines()
             if line.startswith(" " * 13) and line.lstrip().startswith("[")]
    assert extra, "no inner chain shown under a nested step"


# -- no step away from the solution (issue: hints on grids without one) ----------------------------

from puzzles import HARD_PUZZLE, PLAYED_GIVENS, PLAYED_WRONG, reference_solution, with_marks  # noqa: E402

SEVERAL = "." * 72 + "123456789"


@pytest.mark.parametrize("command", ["hint", "explain", "rate"])
@pytest.mark.parametrize("grid, said", [(PLAYED_WRONG, "no solution"), (SEVERAL, "more than one solution")],
                         ids=["none", "several"])
def test_a_grid_without_one_solution_gets_no_step_and_exit_1(command: str, grid: str, said: str) -> None:
    result = run(command, "-", input=grid + "\n")
    assert result.exit_code == 1
    assert said in result.stderr and result.stdout == ""


def test_hint_givens_names_the_wrong_entries(tmp_path) -> None:
    givens = tmp_path / "givens.txt"
    givens.write_text(PLAYED_GIVENS + "\n")
    solution = reference_solution(PLAYED_GIVENS)
    result = run("hint", "--givens", str(givens), "-", input=PLAYED_WRONG + "\n")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.strip() == f"puzzle 1: r1c1: the entry 4 disagrees with the solution's {solution[0]}"
    # the givens alone: a hint toward the solution
    result = run("hint", "--givens", str(givens), "-f", "jsonl", "-", input=PLAYED_GIVENS + "\n")
    assert result.exit_code == 0
    step = json.loads(result.stdout)
    for placement in step["placements"]:
        cell, value = placement.split("=")
        r, c = cell[1:].split("c")
        assert solution[(int(r) - 1) * 9 + int(c) - 1] == int(value)
    # givens that are not the grid's
    result = run("hint", "--givens", str(givens), "-", input="." * 81 + "\n")
    assert result.exit_code == 1 and "does not hold the givens: r1c2" in result.stderr


def test_hint_names_pencil_marks_that_exclude_the_solution(tmp_path) -> None:
    solution = reference_solution(PLAYED_GIVENS)
    result = run("hint", "-", input=with_marks(PLAYED_GIVENS, {9: "7"}))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.strip() == f"puzzle 1: r2c1: the pencil marks 7 exclude the solution's {solution[9]}"
    # the case: the wrong entry 4 in r1c1 and r2c1 marked 7 gave a step; the grid has no solution
    result = run("hint", "-", input=with_marks(PLAYED_WRONG, {9: "7"}))
    assert result.exit_code == 1 and "no solution" in result.stderr and result.stdout == ""


def test_explain_cut_by_the_time_budget_says_so_in_text_and_jsonl() -> None:
    result = run("explain", "--timeout", "0.05", "-", input=HARD_PUZZLE + "\n")
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    bound = lines[0].split()[-2].split("/")[0]  # the heading's ER, "≥7.5"
    assert bound.startswith("≥")
    assert "Time limit: the time limit of 0.05 s ran out" in lines[-1]
    assert f"[{bound}]" in lines[-1] and f"the rating is at least {bound[1:]}" in lines[-1]
    assert float(bound[1:]) < 11.9  # SE's rating of this puzzle: a bound below it
    result = run("explain", "--timeout", "0.05", "-f", "jsonl", "-", input=HARD_PUZZLE + "\n")
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert last["technique"] == "Time limit" and last["lower_bound"] is True and last["rating"] < 11.9
    assert f"the rating is at least {last['rating']:.1f}" in last["text"]
