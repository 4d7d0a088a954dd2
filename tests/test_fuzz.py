"""Property-based fuzzing of every public entry point.

Over ``Grid``, ``parse``/``read_puzzles``, ``solve``/``count_solutions``,
``rate``, ``explain``, ``hint``, ``generate`` and the command line (through
click's ``CliRunner``) it asserts:

* no foreign exception: only :class:`~sudokit.errors.SudokuError` subclasses;
* every call that can search runs under a time limit (no wall-clock asserts
  here: a call that ignored its limit shows as a run that does not end, and
  speed is the benchmarks' business);
* every "solved" result obeys the rules and keeps the givens, checked by
  :meth:`Grid.is_solution_of`, and by a count from the independent reference
  solver (tests/reference.py) where a puzzle claims one solution.

The default run is modest (a few hundred examples in all). Under the slow
marker each property runs at least 100,000 examples:
``pytest -m slow tests/test_fuzz.py``.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

import sudokit
from sudokit import formats, solving
from sudokit.cli import cli
from sudokit.errors import SudokuError
from sudokit.generation import complete_grid
from sudokit.grid import Grid

from reference import reference_count

#: Seconds given to a search or a rating.
BUDGET = 1.0

QUICK = settings(max_examples=40, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW = settings(max_examples=100_000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# -- inputs ------------------------------------------------------------------------

SYMBOLS = ".0123456789ABCDEFG#|-+= \n\r\t\x00\x1e\x85\u2028{}\":,"
noise = st.text(alphabet=st.sampled_from(SYMBOLS), max_size=300) | st.text(max_size=200)


@st.composite
def puzzle_values(draw: Any, shapes: tuple[str, ...] = ("3x3", "2x2", "2x3")) -> tuple[str, list[int], Grid]:
    """(shape, values, solution): a complete grid with cells blanked, sometimes one cell changed."""
    shape = draw(st.sampled_from(shapes))
    solution = complete_grid(shape, seed=draw(st.integers(0, 30)))
    n = solution.size
    keep = draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    values = [v if k else 0 for v, k in zip(solution.values, keep)]
    if draw(st.booleans()) and draw(st.booleans()):  # one cell changed: often a clash or no solution
        cell = draw(st.integers(0, n * n - 1))
        values[cell] = draw(st.integers(0, n))
    return shape, values, solution


@st.composite
def puzzle_texts(draw: Any) -> str:
    """Text near a puzzle: a line, rows, with noise spliced in."""
    shape, values, _ = draw(puzzle_values())
    grid = Grid(values, shape)
    text = formats.render(grid, draw(st.sampled_from(["line", "rows", "spaced", "boxed", "jsonl", "candidates"])))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(noise) + text[at:]
    return text


def ours(call: Callable[[], Any]) -> Any:
    """Run ``call``; a SudokuError is an accepted outcome (None), anything else fails the test."""
    try:
        return call()
    except SudokuError:
        return None


def unique_by_reference(grid: Grid) -> bool:
    """One solution, by the reference solver that shares no code with sudokit."""
    shape = grid.shape
    return reference_count(list(grid.values), shape.box_rows, shape.box_cols, limit=2)[0] == 1


@pytest.fixture(scope="module", autouse=True)
def warm_kernels() -> None:
    """Load (or compile) the kernels once, before the examples."""
    for minimal in ("unique", "logic", "preemptive"):
        for shape in ("2x2", "3x3"):
            sudokit.generate(shape=shape, seed=1, minimal=minimal, symmetry="mirror")
    sudokit.rate(sudokit.example("easy"))
    solving.count_solutions(Grid.empty("2x2"), 3)


# -- the properties (each runs quick by default and slow under the marker) ----------


def _grid_and_readers(data: Any) -> None:
    for item in data:
        grid = ours(lambda: Grid(item))
        if grid is not None:
            assert formats.parse(formats.render(grid, "line"), shape=grid.shape) == grid
    text = data[0] if isinstance(data[0], str) else ""
    ours(lambda: formats.parse(text))
    ours(lambda: formats.parse_candidates(text))
    entries = ours(lambda: list(formats.read_puzzles(text)))
    for entry in entries or ():
        assert (entry.grid is None) != (entry.error is None)
        assert entry.error is None or isinstance(entry.error, SudokuError)


def _solve_and_count(case: tuple[str, list[int], Grid]) -> None:
    shape, values, _ = case
    grid = Grid(values, shape)
    result = ours(lambda: solving.solve(grid, timeout=BUDGET))
    if result is not None and result.status.value == "solved":
        assert result.solution.is_solved and result.solution.is_solution_of(grid)
    count = ours(lambda: solving.count_solutions(grid, limit=3, timeout=BUDGET))
    if count is not None and result is not None:
        assert (count == 0) == (result.status.value in ("no_solution", "invalid"))
    if count == 1:
        assert unique_by_reference(grid)


def _logic(case: tuple[str, list[int], Grid]) -> None:
    shape, values, _ = case
    grid = Grid(values, shape)
    rating = ours(lambda: sudokit.rate(grid, timeout=BUDGET))
    path = ours(lambda: sudokit.explain(grid, timeout=BUDGET))
    if rating is not None:
        assert 0 <= rating.ed <= rating.er and rating.ep <= rating.er
    if path is not None:  # a full path: the steps fill the grid with its one solution
        from sudokit.logic import Candidates

        state = Candidates.from_grid(grid)
        for step in path:
            step.apply(state)
        assert state.solved and state.grid().is_solution_of(grid)
        assert unique_by_reference(grid)
    step = ours(lambda: sudokit.hint(grid, timeout=BUDGET))
    if step is not None:  # a hint only where it leads somewhere: a grid with one solution
        assert unique_by_reference(grid)
    if step is not None and (solution := ours(lambda: solving.solve(grid).solution)) is not None:
        assert all(solution.values[c] == v for c, v in step.placements)
        assert all(solution.values[c] != v for c, v in step.eliminations)


def _generate(shape: str, seed: int, symmetry: str, minimal: str) -> None:
    puzzle = ours(lambda: sudokit.generate(shape=shape, seed=seed, symmetry=symmetry, minimal=minimal,
                                           timeout=2 * BUDGET))
    if puzzle is not None:
        assert puzzle.solution.is_solution_of(puzzle.puzzle)
        assert unique_by_reference(puzzle.puzzle)


OPTIONS = ["--timeout", "--jobs", "--box", "--symbols", "--limit", "--seed", "-n", "--format", "--example",
           "--count", "--all", "--nodes", "--method", "--technique", "--size", "--rating", "--minimal"]
VALUES = ["nan", "inf", "-1", "0", "1", "3", "2x2", "3x3", "3", "12", "0-F", "99999999999999999999",
          "easy", "blank", "line", "jsonl", "x", "", "1e400", "2.5-4"]
COMMANDS = ["solve", "rate", "explain", "hint", "generate"]


@st.composite
def command_lines(draw: Any) -> tuple[list[str], str]:
    args = [draw(st.sampled_from(COMMANDS))]
    for _ in range(draw(st.integers(0, 4))):
        args.append(draw(st.sampled_from(OPTIONS)))
        if draw(st.integers(0, 4)):
            args.append(draw(st.sampled_from(VALUES)))
    if args[0] == "generate" and "--timeout" not in args:
        args += ["--timeout", "3"]
    if args[0] != "generate" and "--example" not in args:
        args.append("-")
    if args[0] in ("rate", "explain", "hint") and "--timeout" not in args:
        args += ["--timeout", "2"]
    if "-n" in args:  # keep a run short
        args[args.index("-n") + 1:args.index("-n") + 2] = ["2"]
    stdin = draw(puzzle_texts() | noise)
    return args, stdin


def _cli(case: tuple[list[str], str]) -> None:
    args, stdin = case
    result = CliRunner().invoke(cli, args, input=stdin)
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert "Traceback" not in result.output and "internal error" not in result.output, (args, result.output)


inputs = st.lists(noise | puzzle_texts() | st.binary(max_size=200)
                  | st.lists(st.integers(-3, 20), max_size=100), min_size=1, max_size=3)
logic_cases = puzzle_values(("3x3",))
gen_args = (st.sampled_from(["2x2", "2x3", "3x3", "3x2"]), st.integers(0, 2**31), st.sampled_from(
    ["none", "rotate180", "rotate90", "mirror", "diagonal"]), st.sampled_from(["unique", "logic", "preemptive"]))


@QUICK
@given(inputs)
def test_grid_and_readers(data) -> None:
    _grid_and_readers(data)


@QUICK
@given(puzzle_values())
def test_solve_and_count(case) -> None:
    _solve_and_count(case)


@settings(QUICK, max_examples=25)
@given(logic_cases)
def test_rate_explain_hint(case) -> None:
    _logic(case)


@settings(QUICK, max_examples=15)
@given(*gen_args)
def test_generate(shape, seed, symmetry, minimal) -> None:
    _generate(shape, seed, symmetry, minimal)


@settings(QUICK, max_examples=40)
@given(command_lines())
def test_cli(case) -> None:
    _cli(case)


@pytest.mark.slow
@SLOW
@given(inputs)
def test_grid_and_readers_long(data) -> None:
    _grid_and_readers(data)


@pytest.mark.slow
@SLOW
@given(puzzle_values())
def test_solve_and_count_long(case) -> None:
    _solve_and_count(case)


@pytest.mark.slow
@SLOW
@given(logic_cases)
def test_rate_explain_hint_long(case) -> None:
    _logic(case)


@pytest.mark.slow
@SLOW
@given(*gen_args)
def test_generate_long(shape, seed, symmetry, minimal) -> None:
    _generate(shape, seed, symmetry, minimal)


@pytest.mark.slow
@SLOW
@given(command_lines())
def test_cli_long(case) -> None:
    _cli(case)
