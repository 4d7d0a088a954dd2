"""Strong links (sudokit.logic.links): skyscrapers, kites, X-loops and their grouped forms,
against Sudoku Explainer's steps.

The truth is Sudoku Explainer's own solving paths (se_dev_steps.jsonl.gz),
not the code under test.
"""

from __future__ import annotations

import pytest

from conftest import rated_traces as traces
from sudokit.grid import Grid
from se_replay import check_first_use, se_states

#: SE's names and ratings of the forms sudokit.logic.links finds.
LINKS = [
    ("Skyscraper 011", 4.0), ("2-String Kite 012", 4.1), ("2 Strong links 001", 4.1),
    ("Grouped Skyscraper 111", 4.3), ("Grouped 2 Strong links 101", 4.3), ("Grouped 2-String Kite 112", 4.3),
    ("Grouped 2-String Kite 212", 4.3), ("3 Skyscrapers 0111", 5.4), ("3-String Kite 0112", 5.5),
    ("3 Strong links 0011", 5.5), ("3 Strong links 0012", 5.6), ("Grouped 3 Strong links 1001", 5.7),
    ("Grouped 3-String Kite 2121", 5.7), ("(3 Strong Links) X-Loop 0111", 5.4),
    ("(3 Strong Links) Grouped X-Loop 2012", 5.7), ("(3 Strong Links) X-Loop 0010", 5.5),
    ("4 Strong links 00111", 5.9), ("Grouped 4 Strong links 31001", 6.1),
]


@pytest.mark.parametrize("technique,rating", LINKS, ids=[f"{t} {r}" for t, r in LINKS])
def test_first_se_use_is_our_step(technique: str, rating: float) -> None:
    """Replay SE's path to its first use of the form: our stepper, on that
    state, must take SE's step (name, rating, placement, removals)."""
    check_first_use(technique, rating)


def _listed(steps_) -> list[tuple]:
    return [(s.technique, s.rating, s.eliminations, s.text) for s in steps_]


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_link_caches_do_not_change_steps(compiled: bool, monkeypatch) -> None:
    """The link producers remember results per value and cell set (the Python
    searches their chains, the compiled search the values without any): every
    step list, in order, must be the same from a cold cache and from a cache
    warmed by the states before it (other puzzles, other values)."""
    from sudokit.logic import links

    if compiled:
        pytest.importorskip("numba")
        monkeypatch.setattr(links, "_compiled", links.strong_tables)
    else:
        monkeypatch.setattr(links, "_compiled", lambda geo: None)
    producers = (links.find_two_links, lambda s: links.find_chain_links(s, 3), lambda s: links.find_chain_links(s, 4))
    states = se_states(traces()[::20])
    assert len(states) > 50
    cold = []
    for state in states:
        for find in producers:
            links.clear_caches()
            cold.append(_listed(find(state)))
    warm = [_listed(find(state)) for state in states for find in producers]
    assert warm == cold
    assert sum(1 for found in cold if found) > 20


def test_bit_set_chains_match_the_depth_first_search(monkeypatch) -> None:
    """The bit-set search of three and four strong links (the default) and the
    plain depth-first search must give the same steps, in the same order, on
    SE's states (every 7th traced puzzle, each state before a step rated 4.0+)."""
    from sudokit.logic import links

    monkeypatch.setattr(links, "_compiled", lambda geo: None)  # the Python searches
    states = se_states(traces()[::7])
    assert len(states) > 200
    kept = links.BIT_SET_CHAINS
    with_steps = 0
    try:
        for state in states:
            for k in (3, 4):
                got = []
                for bit_sets in (True, False):
                    links.BIT_SET_CHAINS = bit_sets
                    links.clear_caches()
                    got.append([(s.technique, s.rating, s.eliminations, s.cells, s.units, s.links, s.text)
                                for s in links.find_chain_links(state, k)])
                assert got[0] == got[1], (k, state)
                with_steps += bool(got[0])
    finally:
        links.BIT_SET_CHAINS = kept
        links.clear_caches()
    assert with_steps > 50


def _every_field(steps_) -> list[tuple]:
    return [(s.technique, s.rating, s.eliminations, s.cells, s.units, s.values, s.links, s.link_kinds, s.text)
            for s in steps_]


def _steps_both_ways(states, monkeypatch) -> tuple[list, list]:
    """Every step list of the three link producers on ``states``, from the
    Python searches and from the compiled search (each from a cold cache)."""
    from sudokit.logic import links

    got = []
    for search in (lambda geo: None, links.strong_tables):
        monkeypatch.setattr(links, "_compiled", search)
        lists = []
        for state in states:
            links.clear_caches()
            lists.append([_every_field(links.find_two_links(state))]
                         + [_every_field(links.find_chain_links(state, k)) for k in (3, 4)])
        got.append(lists)
    links.clear_caches()
    return got[0], got[1]


def test_compiled_search_gives_the_python_steps(monkeypatch) -> None:
    """The compiled strong-link search (link_pattern_kernels.strong_links) must
    lead to the same steps, every field, in the same order, as the Python
    searches, for two, three and four links, on SE's states (every 7th traced
    puzzle, each state before a step rated 4.0+)."""
    pytest.importorskip("numba")
    states = se_states(traces()[::7])
    assert len(states) > 200
    python, compiled = _steps_both_ways(states, monkeypatch)
    for state, p, c in zip(states, python, compiled):
        assert c == p, state.mask
    for k in range(3):  # many states have steps to order, of each producer
        assert sum(1 for lists in python if lists[k]) > 20 - 6 * k


def test_compiled_search_past_its_room_for_rows(monkeypatch) -> None:
    """When the rows do not fit the array given to the compiled search, it is asked
    again with room for all: the steps stay the Python searches' (a room of one row,
    on the states of every 21st traced puzzle, one after another as in a rating)."""
    pytest.importorskip("numba")
    from sudokit.logic import links

    monkeypatch.setattr(links, "_ROOM", 1)
    states = se_states(traces()[::21])
    got = []
    for search in (lambda geo: None, links.strong_tables):
        monkeypatch.setattr(links, "_compiled", search)
        links.clear_caches()
        got.append([[_every_field(links.find_two_links(state))]
                     + [_every_field(links.find_chain_links(state, k)) for k in (3, 4)] for state in states])
    links.clear_caches()
    assert got[1] == got[0]
    assert sum(1 for lists in got[0] if any(lists)) > 10


def _shuffled_states(box_rows: int, box_cols: int, count: int, seed: int) -> list:
    """``count`` candidate states of a grid of ``box_rows`` x ``box_cols`` boxes:
    a random solution with about half its values blanked, the candidates those
    values leave, then about a third of the wrong candidates removed, so that
    strong links turn up everywhere (random, seeded)."""
    import random

    from sudokit.generation.grids import complete_grid
    from sudokit.logic import Candidates

    rng = random.Random(seed)
    states = []
    for i in range(count):
        solution = complete_grid((box_rows, box_cols), seed=seed + i)
        values = [v if rng.random() < 0.4 else 0 for v in solution.values]
        state = Candidates.from_grid(Grid(values, solution.shape))
        for c, v in enumerate(solution.values):
            if not state.values[c]:
                for w in state.values_of(c):
                    if w != v and rng.random() < 0.35:
                        state.mask[c] &= ~(1 << (w - 1))
        states.append(state)
    return states


@pytest.mark.parametrize("box_rows,box_cols", [(2, 2), (2, 3), (2, 4), (3, 3), (2, 5)])
def test_compiled_search_gives_the_python_steps_on_other_grids(box_rows: int, box_cols: int, monkeypatch) -> None:
    """The same on grids of 16 to 100 cells (a 10x10 grid's sets use both 64-bit words),
    on random states with many strong links."""
    pytest.importorskip("numba")
    from sudokit.logic import links

    states = _shuffled_states(box_rows, box_cols, 30, 100 * box_rows + box_cols)
    assert links.strong_tables(states[0].geo) is not None
    python, compiled = _steps_both_ways(states, monkeypatch)
    for state, p, c in zip(states, python, compiled):
        assert c == p, state.mask
    if box_rows * box_cols >= 6:
        for k in range(3):
            assert sum(1 for lists in python if lists[k]) > 5, k


def test_python_searches_past_the_compiled_grids(monkeypatch) -> None:
    """Past 128 cells (a 12x12 grid) the compiled search does not apply and the
    producers search in Python: they still find steps, and each removal is of a
    wrong candidate (the state's solution is known)."""
    from sudokit.generation.grids import complete_grid
    from sudokit.logic import links

    states = _shuffled_states(3, 4, 4, 7)
    assert links.strong_tables(states[0].geo) is None
    solutions = [complete_grid((3, 4), seed=7 + i).values for i in range(4)]
    found = 0
    for state, solution in zip(states, solutions):
        links.clear_caches()
        for step in list(links.find_two_links(state)) + list(links.find_chain_links(state, 3)):
            assert all(solution[c] != v for c, v in step.eliminations), step.text
            found += 1
    assert found > 0
