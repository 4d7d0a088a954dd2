"""The singles (sudokit.logic.singles): hidden and naked singles against Sudoku Explainer's steps.

The truth is Sudoku Explainer's own solving paths (se_dev_steps.jsonl.gz),
not the code under test.
"""

from __future__ import annotations

import pytest

from se_replay import check_first_use

#: SE's names and ratings of the forms sudokit.logic.singles finds.
SINGLES = [
    ("Hidden Single", 1.0), ("Hidden Single", 1.2), ("Hidden Single", 1.5), ("Naked Single", 2.3),
]


@pytest.mark.parametrize("technique,rating", SINGLES, ids=[f"{t} {r}" for t, r in SINGLES])
def test_first_se_use_is_our_step(technique: str, rating: float) -> None:
    """Replay SE's path to its first use of the form: our stepper, on that
    state, must take SE's step (name, rating, placement, removals)."""
    check_first_use(technique, rating)
