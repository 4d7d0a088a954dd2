"""The compiled aligned exclusions (logic_kernels.aligned_next, behind
sudokit.logic.aligned.find_compiled) against the Python search they stand for:
the same steps in the same order, with the memo of the sets that removed
nothing both empty and full, on SE's states and on grids past 9x9 (where
the memo's keys still fit, 16x16, and where they do not, 25x25)."""

from __future__ import annotations

import pytest

from sudokit.logic import aligned

from conftest import rated_traces as traces
from se_replay import se_states
from sparse_states import sparse_states


def _steps(found) -> list[tuple]:
    return [(s.technique, s.rating, s.eliminations, s.cells, s.text) for s in found]


def _sparse_states(size: int, count: int, seed: int):
    """``count`` states of a blank ``size`` x ``size`` grid where most open cells hold two
    or three of the first six values (so that aligned sets turn up) and the rest are
    placed or hold many values (random, seeded)."""
    return sparse_states(size, count, seed, few=0.45, pool=6, sizes=(2, 2, 3, 3, 4), placed=0.7, many=7)


def _compare(states, least_steps: int) -> None:
    """Both degrees, twice over (the second time the memo holds every set that removed
    nothing), against the Python search."""
    tables = aligned.compiled_tables(states[0].geo)
    assert tables is not None
    aligned._CHECKED.clear()
    found = 0
    for state in states:
        for degree in (2, 3):
            python = _steps(aligned._find_python(state, degree))
            assert _steps(aligned.find_compiled(state, degree, tables)) == python, (degree, state.mask)
            assert _steps(aligned.find_compiled(state, degree, tables)) == python, (degree, state.mask)
            found += len(python)
    assert found >= least_steps, found


def test_compiled_search_with_its_memo_gives_the_python_steps() -> None:
    pytest.importorskip("numba")
    states = se_states(traces()[::10], 6.2)
    assert len(states) > 40
    _compare(states, 3)
    memo = aligned.compiled_tables(states[0].geo)[-1]
    assert memo.shape[0] and memo.any()  # (the memo was used)
    aligned._CHECKED.clear()
    assert not memo.any()  # (and clearing the Python memo empties it)


@pytest.mark.parametrize("size", [16, pytest.param(25, marks=pytest.mark.slow)])
def test_compiled_search_past_9x9_gives_the_python_steps(size: int) -> None:
    pytest.importorskip("numba")
    states = list(_sparse_states(size, 2, size))
    memo = aligned.compiled_tables(states[0].geo)[-1]
    assert bool(memo.shape[0]) == (size <= 16)  # keys of 16-bit candidates
    _compare(states, 1)
