"""Difficulty filters (sudokit.generation.filters): a filtered puzzle has the
rating asked for, and a filter's attempts run out with a message.
"""

from __future__ import annotations

import pytest

from sudokit.generation import GenerationError, generate, generate_many


def test_difficulty_filter_matches_rating() -> None:
    from sudokit.logic import rate

    p = generate(seed=5, difficulty="easy", attempts=200)
    assert p.level == "easy" == rate(p.puzzle).level
    assert generate(seed=p.seed).puzzle == p.puzzle


def test_filter_budget_runs_out_with_a_message() -> None:
    with pytest.raises(GenerationError, match="in 2 attempts"):
        list(generate_many(1, seed=1, rating="11.5-12.0", attempts=2))
