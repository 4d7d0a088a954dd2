"""Difficulty filters: a generated puzzle is rated by the logic solver
(:func:`sudokit.logic.rate`) and kept when it matches a level, a range of SE
ratings or a technique.

A technique is named as :func:`sudokit.logic.techniques.resolve` reads it
(any case, with or without its variant suffix, SE's names and the usual
aliases) and matches by family: ``"X-Wing"`` keeps the puzzles whose
solving path uses an X-Wing somewhere, ``"hardest:X-Wing"`` those whose
hardest step (the one that sets ER) is an X-Wing.

>>> make_filter("fiendish", None, None).describe(), make_filter(None, "2.5-4", None).describe()
('level fiendish', 'rating 2.5-4')
>>> make_filter(None, None, "wxyz-wing 137").describe(), make_filter(None, None, "hardest:Kite").describe()
('technique WXYZ-Wing', 'hardest technique 2-String Kite')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .puzzle import GenerationError, Puzzle

__all__ = ["LEVELS", "HARDEST", "Filter", "make_filter", "matches_technique", "parse_rating", "rate"]

#: The prefix of a technique filter that wants the technique as the hardest step.
HARDEST = "hardest:"

#: Difficulty levels, easiest first (as :mod:`sudokit.logic` names them).
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "fiendish", "diabolical")


@dataclass(frozen=True)
class Filter:
    """A difficulty filter: at most one of a level, a range of SE ratings, a
    technique family (:data:`sudokit.logic.techniques.FAMILIES`) that the path
    uses, or that sets ER when ``hardest``."""

    difficulty: str | None = None
    rating: tuple[float, float] | None = None
    technique: str | None = None
    hardest: bool = False

    @property
    def active(self) -> bool:
        return self.difficulty is not None or self.rating is not None or self.technique is not None

    def describe(self) -> str:
        if self.difficulty is not None:
            return f"level {self.difficulty}"
        if self.rating is not None:
            return f"rating {self.rating[0]:g}-{self.rating[1]:g}"
        return f"{'hardest ' if self.hardest else ''}technique {self.technique}"


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
    hardest = False
    if technique is not None:
        from ..logic.techniques import resolve

        hardest = technique.strip().casefold().startswith(HARDEST)
        technique = resolve(technique.strip()[len(HARDEST):] if hardest else technique)
    return Filter(difficulty, rating, technique, hardest)


def matches_technique(rating: Any, flt: Filter) -> bool:
    """Whether a :class:`~sudokit.logic.Rating` uses the filter's technique
    family on its path (or, with ``hardest``, in the step that sets ER)."""
    from ..logic.techniques import NOT_TECHNIQUES, families_on_path, family_of

    if flt.hardest:
        return bool(rating.hardest) and rating.hardest not in NOT_TECHNIQUES \
            and family_of(rating.hardest) == flt.technique
    return flt.technique in families_on_path(rating.techniques)


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
        ok = matches_technique(r, flt)
    return rated, ok
