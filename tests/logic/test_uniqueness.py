"""Every logic step is checked against the puzzle's one solution.

The truth here is the engine's solution (an independent search, not logic),
and Sudoku Explainer's rating of the regression puzzle.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sudokit import solving
from sudokit.cli import cli
from sudokit.errors import Contradiction, UnsoundStep
from sudokit.examples import example
from sudokit.grid import Grid
from sudokit.logic import Candidates, explain, hint, rate
from sudokit.logic import rating as rating_module
from sudokit.logic.step import Step, Technique
from sudokit.logic.stepper import steps

#: A BUG type 3 once padded its naked set with a placed cell and removed r2c3's true 3
#: (step 61). Sudoku Explainer rates it 8.4/8.4/2.6 (Cell Forcing Chains).
BUG3_PUZZLE = "....5493.........2...39.1..678....4..95.8.62..1....7.8..6.75...7.........8492...."
BUG3_SE = (8.4, 8.4, 2.6)


def _truth(puzzle: str) -> tuple[int, ...]:
    result = solving.count(Grid(puzzle), limit=2)
    assert result.count == 1
    return result.solution.values


def test_bug3_regression_every_step_keeps_the_solution() -> None:
    truth = _truth(BUG3_PUZZLE)
    state = Candidates.from_grid(Grid(BUG3_PUZZLE))
    bug_steps = 0
    for step in steps(state):  # no truth given: check here, independently
        bug_steps += step.technique.startswith("BUG")
        assert all(truth[c] != v for c, v in step.eliminations), step.text
        assert all(truth[c] == v for c, v in step.placements), step.text
    assert state.solved and tuple(state.values) == truth


def test_bug3_regression_rating_matches_sudoku_explainer() -> None:
    r = rate(BUG3_PUZZLE)
    assert (r.er, r.ep, r.ed) == BUG3_SE and not r.lower_bound
    path = explain(BUG3_PUZZLE)
    assert path[-1].technique != "Search"


def _wrong_finder(state: Candidates):
    """A broken technique: removes the true value of the first open cell."""
    truth = _WRONG["truth"]
    cell = next(c for c, v in enumerate(state.values) if not v)
    yield Step("Deliberately Wrong", 1.0, eliminations=((cell, truth[cell]),), cells=(cell,),
               text=f"Deliberately Wrong: cell {cell}<>{truth[cell]}")


_WRONG: dict = {}
WRONG = Technique("Deliberately Wrong", 1.0, "test", _wrong_finder)


def test_a_wrong_step_is_caught_in_rate_explain_and_hint(monkeypatch) -> None:
    puzzle = example("easy")
    _WRONG["truth"] = _truth(puzzle.line())
    with pytest.raises(UnsoundStep) as info:
        list(steps(Candidates.from_grid(puzzle), [WRONG], truth=_WRONG["truth"], puzzle=puzzle.line()))
    assert "Deliberately Wrong" in str(info.value) and puzzle.line() in str(info.value)
    monkeypatch.setattr(rating_module, "exact_registry", lambda: [WRONG])
    with pytest.raises(UnsoundStep):
        rate(puzzle)
    from sudokit.logic import registry, stepper

    monkeypatch.setattr(stepper, "REGISTRY", [WRONG])
    with pytest.raises(UnsoundStep):
        explain(puzzle)
    with pytest.raises(UnsoundStep):
        hint(puzzle)
    assert registry.REGISTRY[0] is not WRONG


def test_hint_says_when_pencil_marks_rule_out_the_solution() -> None:
    puzzle = example("easy")
    truth = _truth(puzzle.line())
    state = Candidates.from_grid(puzzle)
    cell = next(c for c, v in enumerate(puzzle.values) if not v)
    state.eliminate(cell, truth[cell])
    with pytest.raises(Contradiction, match="pencil marks rule out the solution"):
        hint(state)


def test_cli_hint_on_contradicting_candidates_exits_1() -> None:
    text = "12345678.........9" + "." * 63 + "\n"
    result = CliRunner().invoke(cli, ["hint", "-"], input=text)
    assert result.exit_code == 1
    assert "no candidate" in result.output and "Pointing" not in result.output
    with pytest.raises(Contradiction):
        hint(text.strip())


def test_cli_hint_and_solve_agree_on_ten_rows(tmp_path) -> None:
    path = tmp_path / "ten.txt"
    path.write_text("123456789\n" * 10)
    said = {}
    for command in ("hint", "solve"):
        result = CliRunner().invoke(cli, [command, str(path)])
        assert result.exit_code == 1
        said[command] = result.output
    assert "10 rows; a 9x9 puzzle has only 9" in said["hint"]
    assert "10 rows; a 9x9 puzzle has only 9" in said["solve"]
