"""The wings (sudokit.logic.wings): XY, XYZ and the ALS wings up to TUVWXYZ, against
Sudoku Explainer's steps.

The truth is Sudoku Explainer's own solving paths (se_dev_steps.jsonl.gz),
not the code under test.
"""

from __future__ import annotations

import pytest

from sudokit.grid import Grid
from sudokit.logic.registry import REGISTRY, rating_floor
from sudokit.logic.state import Candidates

from conftest import apply_se_step, rated_traces as traces, se_step
from se_replay import check_first_use
from sparse_states import sparse_states

#: SE's names and ratings of the forms sudokit.logic.wings finds.
WINGS = [
    ("XY-Wing", 4.2), ("XYZ-Wing", 4.4), ("WXYZ-Wing 126", 5.5), ("WXYZ-Wing 137", 5.6), ("WXYZ-Wing 138", 5.6),
    ("WXYZ-Wing 238", 5.6), ("WXYZ-Wing 248", 5.5), ("WXYZ-Wing 2410", 5.5), ("VWXYZ-Wing 2513", 6.2),
    ("VWXYZ-Wing 1413", 6.3), ("VWXYZ-Wing 1310", 6.4), ("UVWXYZ-Wing 1413", 6.6), ("UVWXYZ-Wing 2417", 6.6),
    ("UVWXYZ-Wing 1312", 6.6), ("UVWXYZ-Wing 1520", 6.6), ("TUVWXYZ-Wing 2416", 7.5),
]


@pytest.mark.parametrize("technique,rating", WINGS, ids=[f"{t} {r}" for t, r in WINGS])
def test_first_se_use_is_our_step(technique: str, rating: float) -> None:
    """Replay SE's path to its first use of the form: our stepper, on that
    state, must take SE's step (name, rating, placement, removals)."""
    check_first_use(technique, rating)


def test_big_wings_take_every_se_step() -> None:
    """Every UVWXYZ-Wing and TUVWXYZ-Wing step SE takes, on SE's state: the
    big-wing producer's first step is SE's (name, rating, removals)."""
    from sudokit.logic.wings import find_als_wing

    sizes = {"UVWXYZ-Wing": 5, "TUVWXYZ-Wing": 6}
    checked, failures = 0, []
    for row in traces():
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"]:
            name = s["technique"].split(" ")[0]
            if name in sizes:
                mine = next(find_als_wing(state, sizes[name]), None)
                checked += 1
                if not (
                    mine is not None and (mine.technique, mine.rating) == (s["technique"], s["rating"])
                    and sorted(mine.eliminations) == se_step(s)[1]
                ):
                    failures.append(f"{row['id']}: SE {s['toString']!r}, ours {mine}")
            apply_se_step(state, s)
    assert checked == 34
    assert failures == []


def test_big_wing_ratings_and_ladder() -> None:
    """UVWXYZ is 6.6 and TUVWXYZ 7.5 whatever the cell sizes (SE's traces:
    ``UVWXYZ-Wing 1312``, ``1416``, ``1520`` all rate 6.6); both sit after
    VWXYZ-Wing in the registry, and the ladder counts each as missing when
    it is not registered, so the rating floor never passes them."""
    from sudokit.logic.registry import SE_LADDER
    from sudokit.logic.wings import big_wing_rating

    assert {big_wing_rating(5, b) for b in range(2, 7)} == {6.6}
    assert {big_wing_rating(6, b) for b in range(2, 8)} == {7.5}
    names = [t.name for t in REGISTRY]
    assert names.index("VWXYZ-Wing") < names.index("UVWXYZ-Wing") < names.index("TUVWXYZ-Wing")
    # the ladder knows both: without them the floor could not pass their rating
    from sudokit.logic.registry import _floor

    assert ("UVWXYZ-Wing", 6.6) in SE_LADDER and ("TUVWXYZ-Wing", 7.5) in SE_LADDER
    assert _floor(set(names) - {"UVWXYZ-Wing"}) <= 6.6
    assert _floor(set(names) - {"TUVWXYZ-Wing"}) <= 7.5
    assert _floor(set(names) - {"TUVWXYZ-Wing"}) <= rating_floor()


def _se_states(every: int, least: float):
    """The state before each SE step rated ``least`` or more, on every ``every``-th trace."""
    for row in traces()[::every]:
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"]:
            if s["rating"] >= least:
                yield state.copy()
            apply_se_step(state, s)


def test_compiled_wing_search_gives_the_python_steps(monkeypatch) -> None:
    """The compiled search of the big wings (logic_kernels.als_wings) leads to
    the same steps, in the same order, as the Python one, on SE's states."""
    pytest.importorskip("numba")
    from sudokit.logic import wings

    states = list(_se_states(6, 4.0))
    assert len(states) > 300

    def found(compiled: bool) -> list:
        monkeypatch.setattr(wings, "_compiled", wings.compiled_tables if compiled else lambda geo: None)
        return [[(s.technique, s.rating, s.eliminations, s.cells, s.links, s.text)
                 for s in wings.find_als_wing(state, k)] for state in states for k in (3, 4, 5, 6)]

    python = found(False)
    assert sum(map(bool, python)) > 100  # many states have wings to order
    assert found(True) == python


def test_compiled_xy_test_agrees_with_the_search(monkeypatch) -> None:
    """The compiled XY-/XYZ-Wing test (pattern_kernels.xy_any on the peers as words) must
    say there is a wing exactly when the Python search yields a step, on SE's states
    (every 5th traced puzzle)."""
    pytest.importorskip("numba")
    import numpy as np

    from sudokit.logic import wings
    from sudokit.logic.pattern_kernels import xy_any
    from se_replay import se_states

    states = se_states(traces()[::5])
    monkeypatch.setattr(wings, "_any_xy_wing", lambda *args: True)  # the plain search
    found = {False: 0, True: 0}
    for state in states:
        masks = np.array(state.mask, dtype=np.int64)
        for xyz in (False, True):
            python = next(wings.find_xy_wing(state, xyz), None) is not None
            assert xy_any(masks, wings._peer_words(state.geo), xyz) == python, (xyz, state)
            found[xyz] += python
    assert min(found.values()) > 10, found


def _sparse_states(size: int, count: int, seed: int):
    """``count`` candidate states of a blank ``size`` x ``size`` grid where about a third of
    the cells hold two to four of the first eight values and the rest are placed or hold
    nine or more, so that XY- and XYZ-Wings turn up (random, seeded)."""
    return sparse_states(size, count, seed, few=0.35, pool=8, sizes=(2, 2, 3, 4), placed=0.6, many=9)


@pytest.mark.parametrize("size", [12, 16])
def test_xy_test_agrees_with_the_search_past_81_cells(size: int, monkeypatch) -> None:
    """On grids of 144 and 256 cells (three and four words a set) the same kernel,
    pattern_kernels.xy_any, says there is an XY-/XYZ-Wing exactly when the Python search
    yields one (random sparse states)."""
    pytest.importorskip("numba")
    from sudokit.logic import links, wings
    from sudokit.logic.pattern_kernels import xy_any

    monkeypatch.setattr(wings, "_compiled", lambda geo: None)  # the plain search
    found = {False: 0, True: 0}
    for state in _sparse_states(size, 12, size):
        words = wings._peer_words(state.geo)
        assert words.shape == (size * size, (size * size + 63) >> 6)  # (three and four words)
        masks = links.mask_array(state.mask)
        for xyz in (False, True):
            python = next(wings.find_xy_wing(state, xyz), None) is not None
            assert xy_any(masks, words, xyz) == python, (xyz, state.mask)
            found[xyz] += python
    assert min(found.values()) > 0, found


def test_compiled_wing_sizes_agree_with_the_search(monkeypatch) -> None:
    """The compiled test of the four ALS wing sizes at once (link_kernels.als_wing_sizes)
    must name a size exactly when the Python search yields a step of that size, on SE's
    states."""
    pytest.importorskip("numba")
    import numpy as np

    from sudokit.logic import wings
    from sudokit.logic.link_kernels import als_wing_sizes

    states = list(_se_states(6, 4.0))
    compiled = wings.compiled_tables(states[0].geo)
    assert compiled is not None
    monkeypatch.setattr(wings, "_compiled", lambda geo: None)  # the plain search
    named = {k: 0 for k in (3, 4, 5, 6)}
    for state in states:
        sizes = als_wing_sizes(np.array(state.mask, dtype=np.int64), compiled[1], 3, 6)
        for k in named:
            python = next(wings.find_als_wing(state, k), None) is not None
            assert bool(sizes >> k & 1) == python, (k, state)
            named[k] += python
            assert als_wing_sizes(np.array(state.mask, dtype=np.int64), compiled[1], k, k) == (python << k)
    assert min(named.values()) > 5, named


def test_word_walk_of_wing_sizes_agrees_with_the_search(monkeypatch) -> None:
    """The walk on sets of cells (pattern_kernels.wing_sizes), which the wings ask first,
    names a size exactly when the Python search yields a step of that size, on SE's
    states, for every range of sizes the producers ask."""
    pytest.importorskip("numba")
    from sudokit.logic import links, wings
    from sudokit.logic.pattern_kernels import wing_sizes

    states = list(_se_states(5, 4.0))
    words = wings._peer_words(states[0].geo)
    assert words is not None
    monkeypatch.setattr(wings, "_compiled", lambda geo: None)  # the plain search
    named = {k: 0 for k in (3, 4, 5, 6)}
    for state in states:
        masks = links.mask_array(state.mask)
        sizes = wing_sizes(masks, words, 3, 6)
        for k in named:
            python = next(wings.find_als_wing(state, k), None) is not None
            assert bool(sizes >> k & 1) == python, (k, state.mask)
            named[k] += python
            assert wing_sizes(masks, words, k, k) == (python << k)
        assert wing_sizes(masks, words, *wings.WING_SIZES) == sizes & 0b111000
    assert min(named.values()) > 5, named


def test_word_walk_of_wing_sets_gives_the_other_kernels_rows() -> None:
    """The sets and bivalue cells that remove something, as the walk on sets of cells gives
    them (pattern_kernels.wing_sets, which the wings read up to 128 cells), are the rows of
    the search on the peer matrix (logic_kernels.als_wings, past 128 cells), in the same
    order, for every set size, on SE's states."""
    pytest.importorskip("numba")
    import numpy as np

    from sudokit.logic import links, wings
    from sudokit.logic.pattern_kernels import wing_sets

    states = list(_se_states(5, 4.0))
    als_wings, peer = wings.compiled_tables(states[0].geo)
    words = wings._peer_words(states[0].geo)
    rows = {k: 0 for k in (3, 4, 5, 6)}
    for state in states:
        masks = links.mask_array(state.mask)
        for k in rows:
            ours, theirs = np.empty((4096, k + 1), dtype=np.int64), np.empty((4096, k + 1), dtype=np.int64)
            count = wing_sets(masks, words, k, ours)
            assert count == als_wings(masks, peer, k, theirs), (k, state.mask)
            assert ours[:count].tolist() == theirs[:count].tolist(), (k, state.mask)
            rows[k] += count
    assert min(rows.values()) > 5, rows
