"""Human-style logic against Sudoku Explainer's own solving paths.

The truth here is independent of the code: SE's step traces and ratings
(se_dev_steps.jsonl.gz, se_dev.tsv) and the puzzles' solutions.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from sudokit.grid import Grid
from sudokit.logic import REGISTRY, Candidates, explain, hint, next_step, rate, techniques
from sudokit.logic.rating import exact_registry, se_level
from sudokit.logic.registry import rating_floor
from sudokit.logic.stepper import steps

from conftest import apply_se_step, rated_reference as reference, rated_traces as traces, se_step


def _implemented(s: dict) -> bool:
    """Is SE's step made by a registered technique? SE's names may carry a
    suffix (``Skyscraper 011``, ``WXYZ-Wing 137``, ``BUG type 2``)."""
    name = s["technique"]
    for t in REGISTRY:
        if name == t.name or name.startswith(t.name + " ") or name.startswith("Grouped " + t.name):
            return True
    return False


def _replay_check(rows: list[dict]) -> tuple[int, int, list[str]]:
    """At every SE step made with a technique we have, our stepper (on SE's
    state) must take exactly SE's step. Returns (checked, agreed, failures)."""
    checked = agreed = 0
    failures = []
    for row in rows:
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"]:
            if _implemented(s) and s["rating"] <= max(t.rating for t in REGISTRY):
                mine = next_step(state)
                checked += 1
                placements, removals = se_step(s)
                if (
                    mine is not None
                    and mine.technique == s["technique"]
                    and abs(mine.rating - s["rating"]) < 1e-9
                    and tuple(mine.placements) == placements
                    and sorted(mine.eliminations) == removals
                ):
                    agreed += 1
                else:
                    failures.append(f"{row['id']}: SE {s['toString']!r}, ours {mine}")
            elif not _implemented(s):
                break  # SE used a technique we lack: our path would differ from here
            apply_se_step(state, s)
    return checked, agreed, failures


# -- one regression per technique: the first place SE uses it -----------------------


def _first_use(technique: str, rating: float) -> tuple[dict, int]:
    for row in traces():
        for i, s in enumerate(row["steps"]):
            if s["technique"] == technique and abs(s["rating"] - rating) < 1e-9:
                return row, i
    raise LookupError(technique)


SE_USED = [
    ("Hidden Single", 1.0), ("Hidden Single", 1.2), ("Hidden Single", 1.5), ("Direct Pointing", 1.7),
    ("Direct Hidden Pair", 2.0), ("Naked Single", 2.3), ("Direct Hidden Triplet", 2.5), ("Pointing", 2.6),
    ("Claiming", 2.8), ("Naked Pair", 3.0), ("X-Wing", 3.2), ("Hidden Pair", 3.4), ("Naked Triplet", 3.6),
    ("Swordfish", 3.8), ("Hidden Triplet", 4.0), ("Naked Quad", 5.0), ("Jellyfish", 5.2), ("Hidden Quad", 5.4),
]


@pytest.mark.parametrize("technique,rating", SE_USED, ids=[f"{t} {r}" for t, r in SE_USED])
def test_technique_takesse_step(technique: str, rating: float) -> None:
    """Replay SE's path up to its first use of the technique; from that state
    our stepper must find that very step (same placement and removals)."""
    row, index = _first_use(technique, rating)
    state = Candidates.from_grid(Grid(row["puzzle"]))
    for s in row["steps"][:index]:
        apply_se_step(state, s)
    target = row["steps"][index]
    assert state.grid().line() == target["gridBefore"]
    mine = next_step(state)
    placements, removals = se_step(target)
    assert mine is not None, target["toString"]
    assert (mine.technique, mine.rating) == (technique, rating)
    assert mine.placements == placements
    assert sorted(mine.eliminations) == removals
    assert mine.text.startswith(technique)


def test_direct_steps_place_solution_values() -> None:
    """Direct techniques place a value: it must be the solution's."""
    for row in traces()[:100]:
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for step in steps(state):
            if step.technique.startswith("Direct"):
                (cell, value), = step.placements
                assert row["solution"][cell] == str(value)


# -- whole paths -----------------------------------------------------------------------


def test_replay_agrees_with_se_on_a_sample() -> None:
    checked, agreed, failures = _replay_check(traces()[::5])
    assert checked > 1500
    assert agreed == checked, failures[:5]


@pytest.mark.slow
def test_replay_agrees_with_se_everywhere() -> None:
    checked, agreed, failures = _replay_check(traces())
    assert agreed == checked, failures[:5]


def _sample(rows: list[dict[str, str]], full: bool) -> list[dict[str, str]]:
    """Every reference puzzle up to ER 6.2 and a fifth of the harder ones (the
    chain searches take about half a second each); all of them when ``full``."""
    return [row for i, row in enumerate(rows) if full or float(row["er"]) <= 6.2 or i % 5 == 0]


def _check_no_step_removes_the_solution(full: bool) -> None:
    for row in _sample(reference(), full):
        solution = row["solution"]
        for step in explain(row["puzzle"]):
            for cell, value in step.placements:
                assert solution[cell] == str(value), (row["id"], str(step))
            for cell, value in step.eliminations:
                assert solution[cell] != str(value), (row["id"], str(step))


def test_no_step_removes_the_solution() -> None:
    """Every placement is the solution's value and no elimination removes it,
    with every technique in the registry (a sample of the chain puzzles)."""
    _check_no_step_removes_the_solution(full=False)


@pytest.mark.slow
def test_no_step_removes_the_solution_on_every_puzzle() -> None:
    _check_no_step_removes_the_solution(full=True)


# -- ratings -------------------------------------------------------------------------


@lru_cache(maxsize=None)
def ratings(full: bool = False) -> list[tuple[dict[str, str], object]]:
    return [(row, rate(row["puzzle"])) for row in _sample(reference(), full)]


def _check_ratings_against_the_reference(full: bool) -> None:
    rows = ratings(full)
    for row, r in rows:
        assert r.er <= float(row["er"]) + 1e-9, (row["id"], str(r), row["er"])
        if not r.lower_bound:
            assert r.er == pytest.approx(float(row["er"])), (row["id"], str(r), row["er"])
    # the targets are 95% (ER up to 6.2) and 90% (EP, ED); all 500 are exact today
    for name in ("er", "ep", "ed"):
        exact = sum(getattr(r, name) == pytest.approx(float(row[name])) for row, r in rows)
        assert exact / len(rows) >= 0.98, (name, exact, len(rows))


def test_never_rated_above_the_reference() -> None:
    _check_ratings_against_the_reference(full=False)


@pytest.mark.slow
def test_every_reference_rating() -> None:
    _check_ratings_against_the_reference(full=True)


def test_er_agreement() -> None:
    """Exact ER on all the puzzles SE rates up to 6.2."""
    low = [(row, r) for row, r in ratings(False) if float(row["er"]) <= 6.2]
    exact = sum(r.er == pytest.approx(float(row["er"])) for row, r in low)
    assert exact == len(low) == 365


def test_lower_bound_is_a_bound() -> None:
    for row, r in ratings(False):
        if r.lower_bound:
            assert float(row["er"]) >= r.er - 1e-9
            assert r.er >= rating_floor() - 1e-9 or r.tier  # stuck, or a budget ran out in a tier


def test_ratings_follow_se_definitions_on_traces() -> None:
    """ER, EP, ED from SE's own step ratings equal SE's reported ones, and our
    rating on a fully-implemented path equals both."""
    for row in traces()[:60]:
        r = rate(row["puzzle"])
        if r.lower_bound:
            continue
        assert (r.er, r.ep, r.ed) == (row["rating"]["er"], row["rating"]["ep"], row["rating"]["ed"])


def test_levels() -> None:
    assert [se_level(x) for x in (1.0, 1.2, 1.5, 2.0, 2.6, 6.0, 6.2, 9.0)] == [
        "easy", "easy", "medium", "hard", "fiendish", "fiendish", "diabolical", "diabolical"]


def test_rate_of_an_easy_puzzle() -> None:
    row = reference()[0]
    r = rate(row["puzzle"])
    assert (r.er, r.ep, r.ed) == (float(row["er"]), float(row["ep"]), float(row["ed"]))
    assert not r.lower_bound and r.level == "easy" and r.steps == row["puzzle"].count(".")
    assert r.score > 0 and r.score_level == "easy"


# -- the API -------------------------------------------------------------------------


def test_registry_is_in_rating_order() -> None:
    listed = techniques()
    assert [r for _, r, _ in listed] == sorted(r for _, r, _ in listed)
    assert {f for _, _, f in listed} >= {"singles", "intersections", "subsets", "fish"}
    assert all(t.rating <= rating_floor() for t in exact_registry())


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
        if not _implemented(nxt):
            continue
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"][: idx + 1]:
            apply_se_step(state, s)
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


def test_invalid_puzzle_is_refused() -> None:
    from sudokit.errors import SudokuError

    with pytest.raises(SudokuError):
        rate("11" + "." * 79)


def test_kernels_take_the_python_steps() -> None:
    """The compiled easy ladder and singles runs make exactly the steps the
    Python finders make (same codes, cells and values, same final state)."""
    from sudokit.engine.logic_kernels import EASY_RATINGS, easy
    from sudokit.logic.rating import EASY_NAMES, EASY_PREFIX, KERNEL_STAGES, _until_floor, rate_path

    ladder = list(EASY_PREFIX) + [t for stage in KERNEL_STAGES for t in stage]
    for row in reference()[::7]:
        grid = Grid(row["puzzle"])
        slow = Candidates.from_grid(grid)
        python_steps = list(steps(slow, ladder, kernel=False))
        fast = Candidates.from_grid(grid)
        records = easy(grid.shape, fast.values, fast.mask)
        assert [(EASY_NAMES[code], EASY_RATINGS[code]) for code, _, _ in records] == [
            (s.technique, s.rating) for s in python_steps
        ], row["id"]
        assert [(c, v) for _, c, v in records if c >= 0] == [s.placements[0] for s in python_steps if s.placements]
        assert (fast.values, fast.mask) == (slow.values, slow.mask)
        # and the whole rating agrees with the plain path
        plain = Candidates.from_grid(grid)
        path = list(_until_floor(plain, exact_registry(), rating_floor()))
        assert rate(grid) == rate_path(path, not plain.solved), row["id"]


def test_rate_refuses_puzzles_without_one_solution() -> None:
    from sudokit.errors import Contradiction, InvalidPuzzle

    with pytest.raises(InvalidPuzzle, match="more than one solution"):
        rate("." * 81)
    # r1c9 must be 9 (the row lacks it) but r2c9 already holds 9
    dead = "12345678." + "........9" + "." * 63
    with pytest.raises(Contradiction):
        rate(dead)
    with pytest.raises(Contradiction):
        explain(dead)


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
