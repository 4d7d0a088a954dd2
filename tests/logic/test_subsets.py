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
