"""Pointing and claiming (sudokit.logic.intersections) against Sudoku Explainer's steps.

The truth is Sudoku Explainer's own solving paths (se_dev_steps.jsonl.gz),
not the code under test.
"""

from __future__ import annotations

import pytest

from se_replay import check_first_use

#: SE's names and ratings of the forms sudokit.logic.intersections finds.
INTERSECTIONS = [
    ("Direct Pointing", 1.7), ("Pointing", 2.6), ("Claiming", 2.8),
]


@pytest.mark.parametrize("technique,rating", INTERSECTIONS, ids=[f"{t} {r}" for t, r in INTERSECTIONS])
def test_first_se_use_is_our_step(technique: str, rating: float) -> None:
    """Replay SE's path to its first use of the form: our stepper, on that
    state, must take SE's step (name, rating, placement, removals)."""
    check_first_use(technique, rating)
