"""Technique families as the bank sees them: a step's family, and a user's name for one.

The names and aliases are the catalogue's (:mod:`sudokit.logic.techniques`),
the same that ``sudoku generate --technique`` takes. The bank keeps the
families on a puzzle's path as bits; the bits are the bank's own (its
``family`` table), given out as families are first met.
"""

from __future__ import annotations

import functools
from typing import Iterable

from ..errors import SudokuError

__all__ = ["families_of", "family_of", "path_families", "resolve"]


def _catalogue():  # type: ignore[no-untyped-def]
    from ..logic import catalogue

    return catalogue


@functools.lru_cache(maxsize=4096)
def family_of(step_name: str) -> str:
    """The family of a step's technique, as the catalogue names it (a family's
    own name stands for itself, so a bank record reads back)."""
    catalogue = _catalogue()
    try:
        family = catalogue.family_of(step_name)
    except (KeyError, ValueError, LookupError, SudokuError):
        family = None
    if family is None:
        return step_name
    return str(getattr(family, "name", family))


def families_of(step_names: Iterable[str]) -> list[str]:
    """The families of the steps on a path, each once, in order."""
    return list(path_families(tuple(step_names)))


@functools.lru_cache(maxsize=65536)
def path_families(step_names: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`families_of` for a tuple of names, as a tuple (remembered)."""
    return tuple(dict.fromkeys(family_of(str(name)) for name in step_names if name))


def resolve(name: str) -> str:
    """The family a user's name (or alias) stands for; a SudokuError naming the
    known ones otherwise."""
    try:
        family = _catalogue().resolve(name)
    except SudokuError:
        raise
    except (KeyError, ValueError, LookupError) as exc:
        raise SudokuError(str(exc).strip("'\"") or f"unknown technique {name!r}") from None
    return str(getattr(family, "name", family))
