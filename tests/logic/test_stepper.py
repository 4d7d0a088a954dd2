"""The stepper (sudokit.logic.stepper) and the paths it makes: ``explain``,
``hint`` and ``steps`` against Sudoku Explainer's own solving paths and the
puzzles' solutions.

The truth here is independent of the code: SE's step traces and ratings
(se_dev_steps.jsonl.gz, se_dev.tsv), the puzzles' solutions, and the
engine's solution (an independent search, not logic).
"""

from __future__ import annotations

import pytest

from sudokit.errors import Contradiction, UnsoundStep
from sudokit.examples import example
from sudokit.grid import Grid
from sudokit.logic import REGISTRY, Candidates, explain, hint, rate
from sudokit.logic import rating as rating_module
from sudokit.logic.step import Step, Technique
from sudokit.logic.stepper import steps

from conftest import rated_reference as reference, rated_traces as traces, se_step
from se_replay import implemented, reference_sample, replay, solution_of, state_before


# -- whole paths -----------------------------------------------------------------------


def test_replay_agrees_with_se_on_a_sample() -> None:
    """At every SE step made with a technique we have, our stepper (on SE's
    state) takes exactly SE's step: same technique, rating, placement, removals."""
    checked, failures = replay(traces()[::5])
    assert checked > 1500
    assert failures == [], failures[:5]


@pytest.mark.slow
def test_replay_agrees_with_se_everywhere() -> None:
    checked, failures = replay(traces())
    assert failures == [], failures[:5]


#: SE's names of the families from 4.0 up that the registry covers under one producer's name.
FAMILIES = (
    "Skyscraper", "2-String Kite", "2 Strong links", "Grouped 2", "Grouped Skyscraper",
    "Unique Rectangle", "Unique Loop", "WXYZ-Wing", "3 ", "3-String Kite", "Grouped 3", "(3 Strong Links)",
    "4 ", "Grouped 4", "BUG", "VWXYZ-Wing", "UVWXYZ-Wing", "TUVWXYZ-Wing",
)


def _in_a_family(s: dict) -> bool:
    """Is SE's step a registered technique, or of one of :data:`FAMILIES`?"""
    return s["technique"] in {t.name for t in REGISTRY} or s["technique"].startswith(FAMILIES)


def test_replay_from_4_0_agrees_with_se_on_a_sample() -> None:
    """Every SE step from 4.0 up with a registered technique family, replayed
    on SE's state: our step must be SE's."""
    checked, failures = replay(traces()[::4], known=_in_a_family, lowest=4.0)
    assert checked > 50
    assert failures == []


@pytest.mark.slow
def test_replay_from_4_0_agrees_with_se_everywhere() -> None:
    checked, failures = replay(traces(), known=_in_a_family, lowest=4.0)
    assert failures == []


# -- every step keeps the solution ---------------------------------------------------


def test_direct_steps_place_solution_values() -> None:
    """Direct techniques place a value: it must be the solution's."""
    for row in traces()[:100]:
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for step in steps(state):
            if step.technique.startswith("Direct"):
                (cell, value), = step.placements
                assert row["solution"][cell] == str(value)


def _check_steps_keep_the_solution(rows: list[dict[str, str]], path) -> None:
    """Every placement of ``path(puzzle)`` is the solution's value and no
    elimination removes it."""
    for row in rows:
        solution = row["solution"]
        for step in path(row["puzzle"]):
            for cell, value in step.placements:
                assert solution[cell] == str(value), (row["id"], str(step))
            for cell, value in step.eliminations:
                assert solution[cell] != str(value), (row["id"], str(step))


def _stepper_path(puzzle: str):
    return steps(Candidates.from_grid(Grid(puzzle)))


def test_no_step_removes_the_solution() -> None:
    """Every placement is the solution's value and no elimination removes it,
    with every technique in the registry (a sample of the chain puzzles)."""
    _check_steps_keep_the_solution(reference_sample(reference(), full=False), explain)


@pytest.mark.slow
def test_no_step_removes_the_solution_on_every_puzzle() -> None:
    _check_steps_keep_the_solution(reference_sample(reference(), full=True), explain)


def test_no_stepper_step_removes_the_solution_sample() -> None:
    _check_steps_keep_the_solution(reference()[1::5], _stepper_path)


@pytest.mark.slow
def test_no_stepper_step_removes_the_solution() -> None:
    _check_steps_keep_the_solution(reference(), _stepper_path)


def test_steps_are_sound_on_other_shapes(multisize_cases) -> None:
    """On every uniquely solvable puzzle of another shape, each step keeps the
    solution (placements agree, eliminations miss it) and the path ends solved."""
    from sudokit.formats import parse
    from sudokit.grid import Shape

    checked = 0
    for case in multisize_cases:
        if str(case["count"]) != "1" or case["size"] > 16:
            continue
        shape = Shape(case["box_rows"], case["box_cols"])
        grid = parse(case["puzzle"], shape=shape, symbols=case["symbols"] or None)
        solution = parse(case["solution"], shape=shape, symbols=case["symbols"] or None).values
        state = Candidates.from_grid(grid)
        for step in explain(grid):
            for cell, value in step.placements:
                assert solution[cell] == value, (case["name"], str(step))
            for cell, value in step.eliminations:
                assert solution[cell] != value, (case["name"], str(step))
            step.apply(state)
        assert tuple(state.values) == solution
        checked += 1
    assert checked >= 3


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
    _WRONG["truth"] = solution_of(puzzle.line())
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


# -- explain and hint ----------------------------------------------------------------


def test_explain_finishes_with_search_when_stuck() -> None:
    # the full registry solves every reference puzzle, so leave out the chains
    row = next(row for row in reference() if float(row["er"]) >= 7)
    saved = REGISTRY[:]
    REGISTRY[:] = [t for t in saved if t.rating < 6.6]
    try:
        path = explain(row["puzzle"])
    finally:
        REGISTRY[:] = saved
    state = Candidates.from_grid(Grid(row["puzzle"]))
    for step in path:
        step.apply(state)
    assert state.grid().line() == row["solution"]
    assert path[-1].technique == "Search"


def test_hint_on_pencil_marks() -> None:
    """A hint works on a candidate state, not just on placed values: take SE's
    state after its first elimination step and ask for the next step."""
    for row in traces():
        idx = next((i for i, s in enumerate(row["steps"]) if s["removals"] and s["rating"] < 3), None)
        if idx is None or idx + 1 >= len(row["steps"]):
            continue
        nxt = row["steps"][idx + 1]
        if not implemented(nxt):
            continue
        state = state_before(row, idx + 1)
        grid = state.grid()
        masks = [m if not v else 0 for m, v in zip(state.mask, state.values)]
        step = hint(Candidates.from_masks(grid, masks))
        assert step is not None
        assert step.placements == se_step(nxt)[0]
        assert sorted(step.eliminations) == se_step(nxt)[1]
        return
    pytest.fail("no suitable trace")


def test_hint_none_when_solved() -> None:
    assert hint(reference()[0]["solution"]) is None


def test_hint_refuses_a_cell_without_candidates() -> None:
    from sudokit.errors import Contradiction

    grid = Grid(reference()[0]["puzzle"])
    masks = list(grid.candidate_masks())
    blank = grid.values.index(0)
    masks[blank] = 0
    with pytest.raises(Contradiction, match=_cell_name(blank)):
        hint(Candidates.from_masks(grid, masks))


def _cell_name(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def test_hint_says_when_pencil_marks_rule_out_the_solution() -> None:
    puzzle = example("easy")
    truth = solution_of(puzzle.line())
    state = Candidates.from_grid(puzzle)
    cell = next(c for c, v in enumerate(puzzle.values) if not v)
    state.eliminate(cell, truth[cell])
    with pytest.raises(Contradiction, match=f"{_cell_name(cell)}: the pencil marks .* exclude the solution's "
                                            f"{truth[cell]}") as caught:
        hint(state)
    assert caught.value.names == (_cell_name(cell),) and caught.value.wrong[0][2] == truth[cell]
