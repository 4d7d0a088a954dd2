"""Hints, explanations and ratings never lead away from the solution (the
Python API): a grid with no solution or several is refused, a player's wrong
entries and wrong pencil marks are named, and a path cut by the time budget
says so and carries its lower bound.

The truth comes from tests/reference.py's solver, not from sudokit.
"""

from __future__ import annotations

import pytest

from sudokit import Grid, parse_candidates
from sudokit.errors import (
    Contradiction, InvalidPuzzle, NoSolution, SeveralSolutions, WrongEntries, WrongMarks,
)
from sudokit.logic import explain, hint, rate

from puzzles import HARD_PUZZLE, PLAYED_GIVENS, PLAYED_WRONG, reference_solution, with_marks
from reference import reference_count

#: Many solutions: the last row only.
SEVERAL = "." * 72 + "123456789"


def _name(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def test_the_grids_are_what_they_claim() -> None:
    values = [0 if ch == "." else int(ch) for ch in PLAYED_WRONG]
    assert reference_count(values, 3, 3)[0] == 0
    assert reference_solution(PLAYED_GIVENS)[0] == 2 != int(PLAYED_WRONG[0])
    assert reference_count([0 if ch == "." else int(ch) for ch in SEVERAL], 3, 3)[0] == 2


@pytest.mark.parametrize("call", [hint, explain, rate], ids=["hint", "explain", "rate"])
def test_a_grid_without_a_solution_is_refused(call) -> None:
    with pytest.raises(NoSolution, match="no solution"):
        call(PLAYED_WRONG)


@pytest.mark.parametrize("call", [hint, explain, rate], ids=["hint", "explain", "rate"])
def test_a_grid_with_several_solutions_is_refused(call) -> None:
    with pytest.raises(SeveralSolutions, match="more than one solution"):
        call(SEVERAL)
    assert issubclass(SeveralSolutions, InvalidPuzzle) and issubclass(NoSolution, Contradiction)


def test_hint_names_the_entries_that_disagree_with_the_givens_solution() -> None:
    solution = reference_solution(PLAYED_GIVENS)
    with pytest.raises(WrongEntries) as caught:
        hint(PLAYED_WRONG, givens=PLAYED_GIVENS)
    assert caught.value.wrong == ((0, 4, solution[0]),) and caught.value.names == ("r1c1",)
    assert str(caught.value) == f"r1c1: the entry 4 disagrees with the solution's {solution[0]}"
    # several wrong entries, one clashing with a given: every one is named, none taken for a given
    blanks = [c for c, ch in enumerate(PLAYED_GIVENS) if ch == "."]
    wrong = {c: (solution[c] % 9) + 1 for c in blanks[:3]}
    played = "".join(str(wrong[c]) if c in wrong else ch for c, ch in enumerate(PLAYED_GIVENS))
    right = blanks[5]
    played = played[:right] + str(solution[right]) + played[right + 1:]
    with pytest.raises(WrongEntries) as caught:
        hint(played, givens=PLAYED_GIVENS)
    assert caught.value.names == tuple(_name(c) for c in sorted(wrong))
    # right entries only: the hint is a step toward the solution
    step = hint(PLAYED_GIVENS[:right] + str(solution[right]) + PLAYED_GIVENS[right + 1:], givens=PLAYED_GIVENS)
    assert step is not None
    assert all(solution[c] == v for c, v in step.placements)
    assert all(solution[c] != v for c, v in step.eliminations)


def test_hint_refuses_a_grid_that_drops_a_given() -> None:
    with pytest.raises(InvalidPuzzle, match="does not hold the givens: r1c2"):
        hint("." * 81, givens=PLAYED_GIVENS)


def test_pencil_marks_that_exclude_the_solution_are_named_never_stepped_from() -> None:
    solution = reference_solution(PLAYED_GIVENS)
    assert solution[9] == 4
    # on the grid with the wrong entry: no solution at all, whatever the marks say
    grid, marks = parse_candidates(with_marks(PLAYED_WRONG, {9: "7"}))
    with pytest.raises(NoSolution):
        hint(grid, marks=marks)
    # on the givens: r2c1 marked 7 alone, and r9c9 marked 7 though the givens allow only 2 there
    grid, marks = parse_candidates(with_marks(PLAYED_GIVENS, {9: "7", 80: "13"}))
    for call in (lambda: hint(grid, marks=marks), lambda: hint(grid, marks=marks, givens=PLAYED_GIVENS)):
        with pytest.raises(WrongMarks) as caught:
            call()
        assert caught.value.names == ("r2c1", "r9c9")
        assert [t for _, _, t in caught.value.wrong] == [solution[9], solution[80]]
        assert str(caught.value).startswith(f"r2c1: the pencil marks 7 exclude the solution's {solution[9]}; "
                                            f"r9c9: the pencil marks 13 exclude the solution's {solution[80]}")


def test_marks_that_keep_the_solution_get_a_step_toward_it() -> None:
    solution = reference_solution(PLAYED_GIVENS)
    grid, marks = parse_candidates(with_marks(PLAYED_GIVENS, {9: "4"}))
    step = hint(grid, marks=marks)
    assert step is not None
    assert all(solution[c] == v for c, v in step.placements)
    assert all(solution[c] != v for c, v in step.eliminations)


def test_a_path_cut_by_the_time_budget_says_so_and_carries_its_bound() -> None:
    path = explain(HARD_PUZZLE, timeout=0.05)
    last = path[-1]
    assert last.technique == "Time limit" and last.lower_bound
    assert last.as_dict()["lower_bound"] is True
    # the bound: what the path reached, below SE's 11.9 for this puzzle and above its easy steps
    assert max(s.rating for s in path[:-1]) <= last.rating <= 11.9
    assert "time limit of 0.05 s ran out" in last.text and f"at least {last.rating:.1f}" in last.text
    solution = reference_solution(HARD_PUZZLE)
    assert all(solution[c] == v for c, v in last.placements)
    # the other steps carry no bound
    assert not any(s.lower_bound or "lower_bound" in s.as_dict() for s in path[:-1])
