"""Difficulty filters: a generated puzzle is rated by the logic solver
(:func:`sudokit.logic.rate`) and kept when it matches a level, a range of SE
ratings or a technique that its solution path uses.

>>> make_filter("fiendish", None, None).describe(), make_filter(None, "2.5-4", None).describe()
('level fiendish', 'rating 2.5-4')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .puzzle import GenerationError, Puzzle

__all__ = ["LEVELS", "Filter", "make_filter", "parse_rating", "rate"]

#: Difficulty levels, easiest first (as :mod:`sudokit.logic` names them).
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "fiendish", "diabolical")


@dataclass(frozen=True)
class Filter:
    """A difficulty filter: at most one of a level, a range of SE ratings, a technique."""

    difficulty: str | None = None
    rating: tuple[float, float] | None = None
    technique: str | None = None

    @property
    def active(self) -> bool:
        return self.difficulty is not None or self.rating is not None or self.technique is not None

    def describe(self) -> str:
        if self.difficulty is not None:
            return f"level {self.difficulty}"
        if self.rating is not None:
            return f"rating {self.rating[0]:g}-{self.rating[1]:g}"
        return f"technique {self.technique}"


def parse_rating(text: str) -> tuple[float, float]:
    """``"LO-HI"`` (or a single number) as a closed range of SE ratings.

    >>> parse_rating("2.5-4"), parse_rating("7.1")
    ((2.5, 4.0), (7.1, 7.1))
    """
    body = text.strip()
    cut = body.find("-", 1)  # a leading minus belongs to the number
    try:
        low, high = (float(body[:cut]), float(body[cut + 1:])) if cut > 0 else (float(body), float(body))
    except ValueError:
        raise GenerationError(f"cannot read rating range {text!r}: expected LO-HI such as 2.5-4.0") from None
    if low > high:
        raise GenerationError(f"rating range {text!r} is empty: {low:g} > {high:g}")
    return low, high


def make_filter(difficulty: str | None, rating: "str | tuple[float, float] | None",
                 technique: str | None) -> Filter:
    given = [x for x in (difficulty, rating, technique) if x is not None]
    if len(given) > 1:
        raise GenerationError("give at most one of difficulty, rating and technique")
    if difficulty is not None and difficulty not in LEVELS:
        raise GenerationError(f"unknown difficulty {difficulty!r}; choose one of: {', '.join(LEVELS)}")
    if isinstance(rating, str):
        rating = parse_rating(rating)
    if technique is not None:
        _check_technique(technique)
    return Filter(difficulty, rating, technique.lower() if technique else None)


def _check_technique(name: str) -> None:
    """Refuse a technique name that no registered technique's steps can carry (before any work)."""
    from ..logic import REGISTRY

    known = list(dict.fromkeys(t.name for t in REGISTRY))
    wanted = " ".join(name.lower().split())
    lowered = [k.lower() for k in known]
    if wanted and (any(k in wanted or wanted in k for k in lowered)
                   or wanted.endswith(("chain", "chains", "cycle", "cycles", "loop", "loops"))):
        return
    raise GenerationError(f"unknown technique {name!r}; known techniques: {', '.join(known)}")


def _techniques(rating: Any) -> set[str]:
    names: set[str] = set()
    for attr in ("techniques", "hardest", "technique"):
        value = getattr(rating, attr, None)
        if value is None:
            continue
        items = [value] if isinstance(value, str) else list(value)
        for item in items:
            names.add(str(getattr(item, "name", item)).lower())
    return names


def rate(puzzle: Puzzle, flt: Filter) -> tuple[Puzzle, bool]:
    """The puzzle with its rating, and whether it matches the filter."""
    try:
        from ..logic import rate
    except ImportError as exc:  # pragma: no cover - the rating module ships with sudokit
        raise GenerationError(f"difficulty filters need sudokit.logic: {exc}") from None
    r = rate(puzzle.puzzle)
    rated = replace(puzzle, er=getattr(r, "er", None), ep=getattr(r, "ep", None),
                    ed=getattr(r, "ed", None), level=getattr(r, "level", None))
    if flt.difficulty is not None:
        ok = rated.level == flt.difficulty
    elif flt.rating is not None:
        ok = rated.er is not None and flt.rating[0] <= rated.er <= flt.rating[1]
    else:
        ok = flt.technique in _techniques(r)
    return rated, ok
