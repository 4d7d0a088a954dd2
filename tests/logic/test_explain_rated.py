"""``explain`` costs what ``rate`` costs: one pass gives the solving path and
the rating (:func:`sudokit.logic.rating.explain_rated`). Its rating is
``rate``'s and SE's (se_dev.tsv), the path starts with the very steps
``rate`` took, and the whole path is the stepper's own (every technique,
as ``explain`` always gave it)."""

from __future__ import annotations

import pytest

from sudokit.errors import Contradiction, InvalidPuzzle
from sudokit.grid import Grid
from sudokit.logic import Candidates, explain, rate
from sudokit.logic import rating as rating_module
from sudokit.logic.rating import explain_rated, truth
from sudokit.logic.stepper import steps

from conftest import rated_reference as reference


def _sample() -> list[dict[str, str]]:
    """Every 20th row of se_dev, and a few of the chain band (ER 6.6 to 9.0)."""
    rows = reference()
    chains = [r for r in rows if 6.5 < float(r["er"]) <= 9.0][::12]
    return rows[::20] + chains


def _rate_steps(monkeypatch: pytest.MonkeyPatch, grid: Grid) -> tuple[object, list[tuple[float, bool, str]]]:
    """``rate(grid)`` and the steps it rated by (rating, places, technique),
    as handed to the rating's arithmetic (the compiled easy ladder's, or the
    plain path's)."""
    seen: list[list[tuple[float, bool, str]]] = []
    arithmetic = rating_module._rating

    def spy(ratings, placing, names, stuck, floor=None):  # type: ignore[no-untyped-def]
        seen.append(list(zip(ratings, placing, names)))
        return arithmetic(ratings, placing, names, stuck, floor)

    with monkeypatch.context() as patch:
        patch.setattr(rating_module, "_rating", spy)
        rated = rate(grid)
    assert len(seen) == 1
    return rated, seen[0]


def test_explain_gives_rates_rating_and_starts_with_its_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _sample()
    assert len(rows) >= 30
    for row in rows:
        grid = Grid(row["puzzle"])
        path, rating = explain_rated(grid)
        rated, used = _rate_steps(monkeypatch, grid)
        assert rating == rated, row["id"]
        assert (rating.er, rating.ep, rating.ed) == pytest.approx(
            (float(row["er"]), float(row["ep"]), float(row["ed"]))), row["id"]
        assert [(s.rating, bool(s.placements), s.technique) for s in path[:len(used)]] == used, row["id"]
        # the whole path: the stepper's, with every technique; it solves the puzzle
        state = Candidates.from_grid(grid)
        assert [(s.technique, s.placements, s.eliminations) for s in path] == [
            (s.technique, s.placements, s.eliminations) for s in steps(state, truth=truth(grid))], row["id"]
        assert state.solved and "".join(map(str, state.values)) == row["solution"]


def test_the_library_explanation_carries_the_rating() -> None:
    row = next(r for r in reference() if 6.5 < float(r["er"]) <= 7.5)
    explanation = explain(row["puzzle"])
    assert explanation.rating == rate(row["puzzle"])
    assert explanation.rating.er == pytest.approx(float(row["er"]))


def test_where_the_rating_stops_short_the_path_goes_on_and_the_rating_is_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the rating's ladder cut below a puzzle's hardest step (as a
    variant's is), the rating is rate's lower bound and the path goes on with
    every technique to the end."""
    row = next(r for r in reference() if float(r["er"]) >= 7.0)
    grid = Grid(row["puzzle"])
    cut = [t for t in rating_module.REGISTRY if t.rating < 4.0]
    monkeypatch.setattr(rating_module, "exact_registry", lambda geo=None: cut)
    monkeypatch.setattr(rating_module, "rating_floor", lambda: 4.0)
    path, rating = explain_rated(grid)
    assert rating == rate(grid)
    assert rating.lower_bound and rating.er == 4.0
    assert all(s.technique != "Search" for s in path)  # the path goes on with every technique
    state = Candidates.from_grid(grid)
    for step in path:
        step.apply(state)
    assert "".join(map(str, state.values)) == row["solution"]


@pytest.mark.parametrize("puzzle, error", [
    ("12345678.........9" + "." * 63, Contradiction),  # r1c9 and r2c9 both need 9: no solution
    ("." * 81, InvalidPuzzle),
])
def test_explain_raises_as_rate_does(puzzle: str, error: type) -> None:
    with pytest.raises(error):
        rate(puzzle)
    with pytest.raises(error):
        explain_rated(puzzle)
