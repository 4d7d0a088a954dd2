"""Strong links (sudokit.logic.links): skyscrapers, kites, X-loops and their grouped forms,
against Sudoku Explainer's steps.

The truth is Sudoku Explainer's own solving paths (se_dev_steps.jsonl.gz),
not the code under test.
"""

from __future__ import annotations

import pytest

from conftest import rated_traces as traces
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


def test_link_caches_do_not_change_steps() -> None:
    """The link producers remember results per value and cell set: every step
    list, in order, must be the same from a cold cache and from a cache
    warmed by the states before it (other puzzles, other values)."""
    from sudokit.logic import links

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


def test_bit_set_chains_match_the_depth_first_search() -> None:
    """The bit-set search of three and four strong links (the default) and the
    plain depth-first search must give the same steps, in the same order, on
    SE's states (every 7th traced puzzle, each state before a step rated 4.0+)."""
    from sudokit.logic import links

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


def test_compiled_test_names_exactly_the_values_with_chains() -> None:
    """The compiled test (link_kernels.link_values) must name a value for k = 2, 3, 4
    strong links exactly when the Python search finds a chain on it that removes
    something, on SE's states (every 7th traced puzzle)."""
    pytest.importorskip("numba")
    import numpy as np

    from sudokit.logic import links

    states = se_states(traces()[::7])
    compiled = links.compiled_tables(states[0].geo)
    assert compiled is not None
    kernel, *tables = compiled
    named = {2: 0, 3: 0, 4: 0}
    for state in states:
        boards = links.value_boards(state)
        masks = np.array(state.mask, dtype=np.int64)
        for k in (2, 3, 4):
            got = kernel(masks, k, -1, *tables)
            for v in range(1, 10):
                holders = boards[v]
                if holders.bit_count() < 2 * k:
                    found = []
                elif k == 2:
                    found = links._two_links_of(state, v, holders)
                else:
                    found = links._chain_links_dfs(state, k, v, holders)
                assert bool(got >> v & 1) == bool(found), (k, v, state)
                named[k] += bool(found)
    assert min(named.values()) > 20, named
