"""One set of checks for the values a user sets, in the API and on the command line.

Regression tests for issue 13's items 4 (huge numbers), 8 (options not
checked) and 10 (Python API rough edges). The expected counts come from the
reference depth-first method, not from the engine under test.
"""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner

import sudokit
from sudokit import validate
from sudokit.cli import cli
from sudokit.errors import BadOption, ParseError, SudokuError
from sudokit.examples import example
from sudokit.formats import read_puzzles, render
from sudokit.grid import Grid, Shape

EASY = example("easy").line()


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, -1, 0, "nan", "abc", True, "-2"])
def test_bad_timeouts_are_refused_everywhere(value) -> None:
    with pytest.raises(BadOption, match="timeout"):
        validate.timeout(value)
    with pytest.raises(BadOption):
        sudokit.solve(EASY, timeout=value)
    with pytest.raises(BadOption):
        sudokit.rate(EASY, timeout=value)
    with pytest.raises(BadOption):
        sudokit.generate(shape="2x2", seed=1, timeout=value)


def test_huge_limits_mean_no_limit_in_the_api() -> None:
    truth = sudokit.count_solutions(Grid.empty("2x2"), method="dfs")
    assert truth == 288
    for huge in (2**70, 99999999999999999999, 2**62):
        assert sudokit.count_solutions(Grid.empty("2x2"), limit=huge) == truth
        assert sudokit.solve(EASY, nodes=huge).status.value == "solved"
    assert validate.limit(2**62 - 1) == 2**62 - 1 and validate.limit(2**70) == validate.NO_LIMIT
    for bad in (0, -5, 1.5, "x", False):
        with pytest.raises(BadOption):
            validate.limit(bad)


@pytest.mark.parametrize("seed", [-1, 1.5, True, "x"])
def test_bad_seeds_are_refused(seed) -> None:
    with pytest.raises(BadOption, match="seed"):
        sudokit.generate(shape="2x2", seed=seed)


def test_jobs_zero_is_every_core_and_a_cap_holds() -> None:
    assert validate.jobs(0) >= 1
    assert validate.jobs(validate.MAX_JOBS) == validate.MAX_JOBS
    with pytest.raises(BadOption, match=str(validate.MAX_JOBS)):
        validate.jobs(validate.MAX_JOBS + 1)
    with pytest.raises(BadOption):
        validate.jobs(-1)


def test_box_text_means_the_same_everywhere() -> None:
    assert validate.box("3x3") == Shape(3, 3) and validate.box("2×3") == Shape(2, 3)
    with pytest.raises(BadOption, match="give RxC"):
        validate.box("3")


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


@pytest.mark.parametrize("args", [
    ["generate", "--timeout", "nan"],
    ["generate", "--timeout", "-1"],
    ["rate", "--example", "easy", "--timeout", "nan"],
    ["explain", "--example", "easy", "--timeout", "inf"],
    ["generate", "--jobs", "1000"],
    ["rate", "--example", "easy", "--jobs", "1000"],
    ["generate", "--box", "3"],
    ["solve", "--example", "easy", "--box", "3"],
    ["solve", "--example", "easy", "--symbols", "12"],
    ["generate", "--seed", "-1"],
])
def test_cli_refuses_bad_options_with_usage_status(args) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_unknown_technique_is_refused_before_any_work() -> None:
    result = run("generate", "--technique", "nosuch", "--attempts", "100000")
    assert result.exit_code == 2
    assert "nosuch" in result.output and "X-Wing" in result.output and "BUG" in result.output


def test_grid_from_bytes_and_bad_values() -> None:
    assert Grid(EASY.encode()) == Grid(EASY)
    for bad in ([10] * 81, [1.5] * 81, 5, None, b"\xff" * 81):
        with pytest.raises(ParseError) as info:
            Grid(bad)
        assert isinstance(info.value, ValueError) and isinstance(info.value, SudokuError)


def test_render_and_read_puzzles_take_text() -> None:
    assert render(EASY, "boxed") == render(Grid(EASY), "boxed")
    with pytest.raises(SudokuError):
        render(5, "boxed")  # type: ignore[arg-type]
    entries = list(read_puzzles((EASY + "\n" + EASY + "\n").encode()))
    assert [e.grid for e in entries] == [Grid(EASY), Grid(EASY)]


def test_puzzle_array_names_the_bad_puzzle() -> None:
    grids = validate.puzzle_array([EASY, EASY.encode(), list(Grid(EASY).values)])
    assert grids == [Grid(EASY)] * 3
    with pytest.raises(BadOption, match="wrap one puzzle in a list"):
        validate.puzzle_array(EASY)
    with pytest.raises(ParseError, match="puzzle 2"):
        validate.puzzle_array([EASY, ".."])
