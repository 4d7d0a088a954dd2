"""Unique rectangles, unique loops and BUG (sudokit.logic.uniqueness) against Sudoku
Explainer's steps, the puzzles' solutions and SE's rating of a regression puzzle.

The truth is Sudoku Explainer's own solving paths (se_dev_steps.jsonl.gz),
not the code under test.
"""

from __future__ import annotations

import pytest

from sudokit.grid import Grid
from sudokit.logic import Candidates, explain, rate, uniqueness
from sudokit.logic.stepper import next_step, steps

from conftest import rated_traces as traces, se_step
from se_replay import check_first_use, se_states, solution_of, state_before

#: SE's names and ratings of the forms sudokit.logic.uniqueness finds.
UNIQUENESS = [
    ("Unique Rectangle type 1", 4.5), ("Unique Rectangle type 2", 4.5), ("Unique Rectangle type 4", 4.5),
    ("Unique Rectangle type 3", 4.5), ("Unique Rectangle type 3", 4.6), ("Unique Rectangle type 3", 4.7),
    ("Unique Loop 6 type 1", 4.6), ("Unique Loop 6 type 2", 4.6), ("BUG type 1", 5.6), ("BUG type 2", 5.7),
]


@pytest.mark.parametrize("technique,rating", UNIQUENESS, ids=[f"{t} {r}" for t, r in UNIQUENESS])
def test_first_se_use_is_our_step(technique: str, rating: float) -> None:
    """Replay SE's path to its first use of the form: our stepper, on that
    state, must take SE's step (name, rating, placement, removals)."""
    check_first_use(technique, rating)


def test_unique_rectangle_type3_naked_set_removes_every_value() -> None:
    """rl-0840, after SE's UVWXYZ-Wing: r1c3 {1,5,6,7} and r5c3 {5,6,7} are
    the extra cells of the rectangle r1c1,r1c3,r5c3,r5c1 on 6,7; their extras
    {1,5} with r2c3 {1,5} make a naked pair in column 3, so 5 leaves r3c3
    (SE: Unique Rectangle type 3, 4.6). The set's values leave a cell whether
    or not it holds the value 1."""
    row = next(r for r in traces() if r["id"] == "rl-0840")
    index = next(i for i, s in enumerate(row["steps"]) if s["technique"] == "Unique Rectangle type 3")
    state = state_before(row, index)
    target = row["steps"][index]
    mine = next_step(state)
    assert (mine.technique, mine.rating) == ("Unique Rectangle type 3", 4.6)
    assert sorted(mine.eliminations) == se_step(target)[1] == [(20, 5)]


def test_unique_loops_lie_in_the_pair_core() -> None:
    """The loop search skips starts outside the 2-core of the cells holding
    the pair; every valid loop found from any start must lie in that core."""
    from sudokit.logic import uniqueness

    loops = 0
    for state in se_states(traces()[::10], 4.5):
        cores = uniqueness._loop_cores(state.geo, state.mask)
        for start, pair in enumerate(state.mask):
            if pair.bit_count() != 2:
                continue
            core = cores[pair][0]
            for loop in uniqueness._find_loops(state.geo, state.mask, start, pair):
                if uniqueness._valid_loop(state.geo, loop):
                    loops += 1
                    assert all(core >> c & 1 for c in loop), loop
    assert loops > 20


# -- a BUG type 3 regression ------------------------------------------------------------


#: A BUG type 3 once padded its naked set with a placed cell and removed r2c3's true 3
#: (step 61). Sudoku Explainer rates it 8.4/8.4/2.6 (Cell Forcing Chains).
BUG3_PUZZLE = "....5493.........2...39.1..678....4..95.8.62..1....7.8..6.75...7.........8492...."
BUG3_SE = (8.4, 8.4, 2.6)


def test_bug3_regression_every_step_keeps_the_solution() -> None:
    truth = solution_of(BUG3_PUZZLE)
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
    assert not path[-1].lower_bound  # neither out of techniques (Search) nor of time


def test_remembered_loops_give_the_same_steps() -> None:
    """The loops of a pair are remembered by the cells holding it and their
    candidates: along SE's paths (each state after the one before), the unique
    loops found with what was remembered are those found from scratch."""
    from conftest import apply_se_step
    from sudokit.logic import links
    from sudokit.logic.uniqueness import find_unique_loops

    def listed(state) -> list:
        return [(s.technique, s.rating, s.eliminations, s.cells, s.text) for s in find_unique_loops(state)]

    checked = found = 0
    for row in traces()[::4]:
        links.clear_caches()
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"]:
            if s["rating"] >= 4.0:
                warm = listed(state)
                links.clear_caches()
                assert warm == listed(state)
                checked += 1
                found += bool(warm)
            apply_se_step(state, s)
    assert checked > 300 and found > 10


def test_compiled_loop_walk_gives_the_python_steps(monkeypatch) -> None:
    """The compiled walk (logic_kernels.unique_loops) finds the loops of the
    Python walk, in its order: the same unique-loop steps on SE's states."""
    pytest.importorskip("numba")
    import sudokit.engine as engine
    from conftest import apply_se_step
    from sudokit.logic import links, uniqueness

    monkeypatch.setattr(engine, "_loaded", engine._loaded | {"producers"})  # the kernels, from the first call
    states = []
    for row in traces()[::5]:
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"]:
            if s["rating"] >= 4.0:
                states.append(state.copy())
            apply_se_step(state, s)
    assert len(states) > 300

    def found(compiled: bool) -> list:
        monkeypatch.setattr(uniqueness, "COMPILED", compiled)
        out = []
        for state in states:
            links.clear_caches()
            out.append([(s.technique, s.rating, s.eliminations, s.cells, s.text)
                        for s in uniqueness.find_unique_loops(state)])
        return out

    python = found(False)
    assert sum(map(bool, python)) > 20
    assert found(True) == python

# -- a type 3 hidden set smaller than the extras (SukakuExplainer 1.18.1) ---------------

#: hard_dev's hd-0163: after a pointing and a hidden pair, r1c4,r2c4 hold 5,6 and r1c1,r2c1
#: carry four extras (2,3,4,9); 5 and 6 lie only in r1c1, r2c1 and r4c1 of column 1, a hidden
#: pair of size 2 < 4. SukakuExplainer 1.18.1 does not look for it (its search starts at the
#: number of extras) and rates the puzzle 11.6/11.6/2.6; taking it gives 11.0/11.0/2.6.
HD_0163 = ".......12.....13.4..1.2356.....14.23.1.3.54.6.4.26.15.1.......57...32...8.9.56..."
HD_0163_SE = (11.6, 11.6, 2.6)


def test_type3_looks_for_no_hidden_set_smaller_than_the_extras(monkeypatch) -> None:
    state = Candidates.from_grid(Grid(HD_0163))
    taken = []
    for _ in range(2):
        taken.append(next_step(state))
        taken[-1].apply(state)
    assert [s.technique for s in taken] == ["Pointing", "Hidden Pair"], [s.text for s in taken]
    assert next(uniqueness.find_unique_loops(state.copy()), None) is None
    # the later builds' rule (from size 2 up) finds the pair and removes r4c1's 9
    monkeypatch.setattr(uniqueness, "TYPE3_FROM_TWO", True)
    step = next(uniqueness.find_unique_loops(state.copy()))
    assert (step.technique, step.rating, step.eliminations) == ("Unique Rectangle type 3", 4.5, ((27, 9),))
    assert "5,6 hidden in" in step.text


@pytest.mark.slow
def test_type3_hidden_set_rule_gives_sukakuexplainers_hard_rating() -> None:
    r = rate(HD_0163, timeout=None)
    assert (r.er, r.ep, r.ed) == HD_0163_SE and not r.lower_bound


def test_compiled_bug_test_agrees_with_the_python_test(monkeypatch) -> None:
    """The compiled test of the BUG pattern (link_kernels.bug_pattern) says no exactly
    where the Python test (uniqueness._bug) finds no BUG, on SE's states and on the
    states of SE's own BUG steps."""
    pytest.importorskip("numba")
    import numpy as np

    tables = uniqueness.bug_tables(Grid("." * 81).geometry)
    assert tables is not None
    kernel, *rest = tables
    monkeypatch.setattr(uniqueness, "_bug_compiled", lambda geo: None)  # the Python test alone
    states = se_states(traces()[::4], 4.5)
    bugs = [state_before(t, i) for t in traces() for i, s in enumerate(t["steps"]) if s["technique"].startswith("BUG")]
    found = 0
    for state in states + bugs:
        python = uniqueness._bug(state) is not None
        assert kernel(np.array(state.mask, dtype=np.int64), *rest) == python, state.mask
        found += python
    assert found >= 5, found


def test_compiled_pretest_says_yes_exactly_where_the_producer_has_a_step(monkeypatch) -> None:
    """The compiled test (pattern_kernels.unique_any) that lets the unique-loop producer
    skip a state answers as the Python producer does (a first step or none), on SE's
    states, with type 3 sets from the number of extras and from two, its memo of each
    value pair's loops emptied before each state, and then kept from state to state
    (SE's states of one puzzle in turn share most pairs' cells)."""
    pytest.importorskip("numba")
    from sudokit.logic import links

    geo = Grid("." * 81).geometry
    tables = uniqueness.pretest_tables(geo)
    assert tables is not None
    kernel, *rest = tables
    states = se_states(traces()[::3], 4.0) + [_hd_0163_state()]
    for from_two in (False, True):
        monkeypatch.setattr(uniqueness, "TYPE3_FROM_TWO", from_two)
        for kept in (False, True):
            found = walked = 0
            links.clear_caches()
            for state in states:
                if not kept:
                    links.clear_caches()
                memo = uniqueness._loop_memo(geo)
                answer = bool(kernel(links.mask_array(state.mask), *rest, *memo, from_two))
                assert answer == bool(uniqueness._loop_steps(state, True)), state.mask
                found += answer
                walked += int((memo[0] >= 0).sum())
            assert found >= 20, found
            assert walked > len(states)  # (pairs' loops were kept)


def _hd_0163_state() -> Candidates:
    state = Candidates.from_grid(Grid(HD_0163))
    for _ in range(2):
        next_step(state).apply(state)
    return state
