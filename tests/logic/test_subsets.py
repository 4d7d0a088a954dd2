"""Naked and hidden subsets, direct and not (sudokit.logic.subsets), against Sudoku Explainer's steps.

The truth is Sudoku Explainer's own solving paths (se_dev_steps.jsonl.gz),
not the code under test.
"""

from __future__ import annotations

import pytest

from se_replay import check_first_use

#: SE's names and ratings of the forms sudokit.logic.subsets finds.
SUBSETS = [
    ("Direct Hidden Pair", 2.0), ("Direct Hidden Triplet", 2.5), ("Naked Pair", 3.0), ("Hidden Pair", 3.4),
    ("Naked Triplet", 3.6), ("Hidden Triplet", 4.0), ("Naked Quad", 5.0), ("Hidden Quad", 5.4),
]


@pytest.mark.parametrize("technique,rating", SUBSETS, ids=[f"{t} {r}" for t, r in SUBSETS])
def test_first_se_use_is_our_step(technique: str, rating: float) -> None:
    """Replay SE's path to its first use of the form: our stepper, on that
    state, must take SE's step (name, rating, placement, removals)."""
    check_first_use(technique, rating)


def test_compiled_answer_of_none_keeps_the_python_steps(monkeypatch) -> None:
    """Where the compiled search says a naked set, hidden set or fish has no
    step, the Python search finds none either; elsewhere it finds the same
    steps: on SE's states, sizes 2 to 4, the steps with and without the
    compiled answer are the same."""
    pytest.importorskip("numba")
    import sudokit.engine as engine
    from sudokit.grid import Grid
    from sudokit.logic import fish, subsets
    from sudokit.logic.state import Candidates

    from conftest import apply_se_step, rated_traces

    monkeypatch.setattr(engine, "_loaded", engine._loaded | {"producers"})  # the kernels, from the first call
    states = []
    for row in rated_traces()[::10]:
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"]:
            if s["rating"] >= 2.6:
                states.append(state.copy())
            apply_se_step(state, s)
    assert len(states) > 300
    finders = [lambda s, k=k: subsets.find_naked(s, k) for k in (2, 3, 4)] + \
        [lambda s, k=k: subsets.find_hidden(s, k) for k in (2, 3, 4)] + \
        [lambda s, k=k: fish.find_fish(s, k) for k in (2, 3, 4)]

    def found(compiled: bool) -> list:
        monkeypatch.setattr(subsets, "COMPILED", compiled)
        return [[(s.technique, s.eliminations, s.cells, s.text) for s in find(state)]
                for state in states for find in finders]

    python = found(False)
    assert sum(map(bool, python)) > 100
    assert found(True) == python


def test_all_kinds_at_once_say_what_each_search_says() -> None:
    """The one call for the three kinds of a size (logic_kernels.has_steps, looked for
    without order and without growing a choice past its size) gives, kind by kind, the
    answer of the ladder's own searches (has_step), on SE's states, sizes 2 to 4."""
    pytest.importorskip("numba")
    import numpy as np

    from sudokit.engine import logic_kernels as lk
    from sudokit.grid import Grid
    from sudokit.logic.state import Candidates

    from conftest import apply_se_step, rated_traces

    tables = lk._tables(Grid("." * 81).shape)
    found = [0, 0, 0]
    for row in rated_traces()[::8]:
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"]:
            if s["rating"] >= 2.6:
                masks = np.array(state.mask, dtype=np.int64)
                for k in (2, 3, 4):
                    each = sum(1 << kind for kind in range(3) if lk.has_step(masks.copy(), *tables, kind, k))
                    assert lk.has_steps(masks, *tables, k) == each, (k, state.mask)
                    found = [f + (each >> kind & 1) for kind, f in enumerate(found)]
            apply_se_step(state, s)
    assert min(found) > 20, found
