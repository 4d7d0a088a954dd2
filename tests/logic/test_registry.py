"""The registry (sudokit.logic.registry): the techniques in Sudoku Explainer's
order, and the rating floor below the techniques it lacks."""

from __future__ import annotations

from sudokit.logic import techniques
from sudokit.logic.rating import exact_registry
from sudokit.logic.registry import rating_floor


def test_registry_is_in_rating_order() -> None:
    listed = techniques()
    assert [r for _, r, _ in listed] == sorted(r for _, r, _ in listed)
    assert {f for _, _, f in listed} >= {"singles", "intersections", "subsets", "fish"}
    assert all(t.rating <= rating_floor() for t in exact_registry())


def test_floor_is_above_the_implemented_families() -> None:
    assert rating_floor() >= 6.2
