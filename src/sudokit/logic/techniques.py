"""The catalogue of techniques: which family a step's name belongs to, and
which family a user means by a name.

The rater names its steps as Sudoku Explainer does, often with a variant
suffix: ``WXYZ-Wing 137``, ``Unique Rectangle type 2``, ``Grouped 2-String
Kite 112``, ``Dynamic Cell Forcing Chains (+ Forcing Chains)``. A *family*
is the technique without its variant: ``WXYZ-Wing``, ``Unique Rectangle``,
``2-String Kite``, ``Nested Forcing Chains``. Its spelling is SE's.

- :data:`FAMILIES`: every family, SE's spelling, in ER order. It is derived
  from the registered techniques (:mod:`sudokit.logic.registry` and the
  technique modules): each registered technique is one family under its own
  name, except the few producers that SE splits into several named patterns
  (:data:`SPLITS`). A new technique is a new family without a line here.
- :func:`family_of`: the family of a step name the rater emits.
- :func:`resolve`: the family a user means: any case, with or without the
  variant suffix, SE's names and the usual aliases (HoDoKu's, "Locked
  Candidates" for Pointing and Claiming, ...); an unknown name raises
  :class:`~sudokit.errors.UnknownTechnique`, whose message lists the names.
- :func:`families_on_path`: the families a solving path uses, in order.
- :func:`step_names`: every step name the rater can emit, expanded from the
  naming rules of the technique modules (for tests and docs).

>>> family_of("WXYZ-Wing 137"), family_of("Unique Loop 6 type 2"), family_of("Grouped Skyscraper 111")
('WXYZ-Wing', 'Unique Loop', 'Skyscraper')
>>> family_of("Dynamic Cell Forcing Chains (+)"), family_of("Cell Forcing Chains (+ Forcing Chains)")
('Dynamic Forcing Chains (+)', 'Nested Forcing Chains')
>>> resolve("x-wing"), resolve("locked candidates type 1"), resolve("y-wing"), resolve("unique rectangle type 2")
('X-Wing', 'Pointing', 'XY-Wing', 'Unique Rectangle')
>>> families_on_path(["Hidden Single", "Pointing", "Hidden Single", "X-Wing", "Search"])
['Hidden Single', 'Pointing', 'X-Wing']
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from ..errors import UnknownTechnique
from .step import Step, Technique

__all__ = ["FAMILIES", "SPLITS", "ALIASES", "NOT_TECHNIQUES", "all_techniques", "family_of", "resolve",
           "families_on_path", "step_names", "UnknownTechnique"]

#: Producers whose steps SE names as distinct patterns: the registered name,
#: and the families its steps belong to, in ER order.
SPLITS: dict[str, tuple[str, ...]] = {
    "Skyscraper": ("Skyscraper", "2-String Kite", "2 Strong links", "X-Loop"),
    "3 Skyscrapers": ("3 Skyscrapers", "3-String Kite", "3 Strong links", "X-Loop"),
    "4 Skyscrapers": ("4 Skyscrapers", "4-String Kite", "4 Strong links", "X-Loop"),
    "Unique Rectangle": ("Unique Rectangle", "Unique Loop"),
}

#: The step names of SE's "Forcing Chains & Cycles" producer (one family).
CYCLE_STEPS = ("Bidirectional X-Cycle", "Bidirectional Y-Cycle", "Bidirectional Cycle", "Generalized X-Wing",
               "Forcing X-Chain", "Turbot Fish", "Forcing Chain")
#: The forms of the multiple and dynamic chain tiers (SE's ``Chaining`` hints).
CHAIN_FORMS = ("Contradiction Forcing Chains", "Double Forcing Chains", "Cell Forcing Chains",
               "Region Forcing Chains")

#: Other names for a family (compared without case): HoDoKu's, and the usual
#: names of books and sites. A family's own name and its step names
#: (:func:`step_names`) need no entry.
ALIASES: dict[str, str] = {
    "Full House": "Hidden Single",
    "Last Digit": "Hidden Single",
    "Last Value": "Hidden Single",
    "Locked Candidates": "Pointing",
    "Locked Candidates Type 1": "Pointing",
    "Locked Candidates Type 1 (Pointing)": "Pointing",
    "Pointing Pair": "Pointing",
    "Pointing Triple": "Pointing",
    "Locked Candidates Type 2": "Claiming",
    "Locked Candidates Type 2 (Claiming)": "Claiming",
    "Box/Line Reduction": "Claiming",
    "Box Line Reduction": "Claiming",
    "Box-Line Reduction": "Claiming",
    "Naked Triple": "Naked Triplet",
    "Naked Quadruple": "Naked Quad",
    "Hidden Quadruple": "Hidden Quad",
    "Hidden Triple": "Hidden Triplet",
    "Direct Hidden Triple": "Direct Hidden Triplet",
    "Locked Pair": "Naked Pair",
    "Locked Triple": "Naked Triplet",
    "Y-Wing": "XY-Wing",
    "Kite": "2-String Kite",
    "Unique Rectangle Type 1": "Unique Rectangle",
    "Uniqueness Test": "Unique Rectangle",
    "Bivalue Universal Grave": "BUG",
    "BUG+1": "BUG",
    "Bivalue Universal Grave + 1": "BUG",
    "X-Chain": "Forcing Chains & Cycles",
    "XY-Chain": "Forcing Chains & Cycles",
    "Nice Loop": "Forcing Chains & Cycles",
    "Discontinuous Nice Loop": "Forcing Chains & Cycles",
    "Continuous Nice Loop": "Forcing Chains & Cycles",
    "AIC": "Forcing Chains & Cycles",
    "Alternating Inference Chain": "Forcing Chains & Cycles",
    "Forcing Chains": "Forcing Chains & Cycles",
    "Forcing Cycles": "Forcing Chains & Cycles",
    "Forcing Chains and Cycles": "Forcing Chains & Cycles",
    "Nishio": "Nishio Forcing Chains",
    "Cell Forcing Chain": "Multiple Forcing Chains",
    "Region Forcing Chain": "Multiple Forcing Chains",
    "Unit Forcing Chains": "Multiple Forcing Chains",
    "Dynamic Forcing Chain": "Dynamic Forcing Chains",
    "Nested Forcing Chain": "Nested Forcing Chains",
    "Rule of 45": "45 Rule",
    "Innies and Outies": "45 Rule",
    "Innies Outies": "45 Rule",
}

#: Names a path may hold that are no technique: the engine's fill at the end
#: of an explanation, and a rating's hardest step beyond the registry.
NOT_TECHNIQUES = ("Search", "beyond the implemented techniques")

#: A variant suffix: a pattern code (``137``, ``0112``) or a type (``type 2``); a loop's length (``6``).
_SUFFIX = re.compile(r"\s+(?:type\s+\d+|\d+)$", re.IGNORECASE)
_LOOP = re.compile(r"^\(\d+ strong links\)\s+", re.IGNORECASE)


def _squash(name: str) -> str:
    return " ".join(name.split()).casefold()


def _technique_values(value) -> Iterable[Technique]:
    if isinstance(value, Technique):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _technique_values(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            if isinstance(v, Technique):
                yield v


@lru_cache(maxsize=1)
def _modules() -> tuple:
    from . import (aligned, cages, chains, fish, generalized, intersections, links, nested, registry, singles,
                   subsets, uniqueness, wings)

    return (registry, singles, intersections, subsets, fish, links, wings, uniqueness, aligned, chains, nested,
            generalized, cages)


def all_techniques() -> list[Technique]:
    """Every technique the rater can use on some grid, by ascending SE rating:
    the registry's, and those the technique modules define for the variants'
    and the killers' ladders (each module's :class:`Technique` values)."""
    from .registry import REGISTRY

    seen: dict[int, Technique] = {id(t): t for t in REGISTRY}
    for module in _modules():
        for attr in vars(module).values():
            for t in _technique_values(attr):
                seen.setdefault(id(t), t)
    order = {id(t): i for i, t in enumerate(REGISTRY)}
    return sorted(seen.values(), key=lambda t: (t.rating, order.get(id(t), len(order))))


def _families() -> tuple[str, ...]:
    out: dict[str, None] = {}
    for t in all_techniques():
        for family in SPLITS.get(t.name, (t.name,)):
            out.setdefault(family, None)
    return tuple(out)


#: The canonical family names, SE's spelling, in ER order (derived from the registered techniques).
FAMILIES: tuple[str, ...] = _families()

_BY_KEY: dict[str, str] = {_squash(f): f for f in FAMILIES}


def _strip(name: str) -> str:
    """``name`` without its variant: the pattern code or type, ``Grouped``, an X-Loop's link count."""
    base = " ".join(name.split())
    while True:
        cut = _SUFFIX.sub("", base)
        if cut == base:
            break
        base = cut
    base = _LOOP.sub("", base)
    if base.casefold().startswith("grouped "):
        base = base[len("grouped "):]
    return base


def _family_key(name: str) -> str | None:
    """The family of a step name, or None when it names none."""
    text = " ".join(name.split())
    low = text.casefold()
    if "(+ " in low:  # SE's nested suffix: (+ Forcing Chains), (+ Dynamic Forcing Chains ...)
        return "Nested Forcing Chains"
    if low.endswith(" (+)"):
        return "Dynamic Forcing Chains (+)"
    if low in {_squash(s) for s in CYCLE_STEPS}:
        return "Forcing Chains & Cycles"
    if low.startswith("nishio "):
        return "Nishio Forcing Chains"
    if low.startswith("dynamic ") and low.endswith("forcing chains"):
        return "Dynamic Forcing Chains"
    if low in {_squash(s) for s in CHAIN_FORMS}:
        return "Multiple Forcing Chains"
    return _BY_KEY.get(_squash(_strip(text)))


def family_of(step_name: str) -> str:
    """The family (one of :data:`FAMILIES`) of a step name the rater emits.

    >>> family_of("2 Strong links 001"), family_of("(3 Strong Links) Grouped X-Loop 1112")
    ('2 Strong links', 'X-Loop')
    """
    family = _family_key(step_name)
    if family is None:
        raise UnknownTechnique(f"no technique family for the step name {step_name!r}")
    return family


def resolve(user_name: str) -> str:
    """The family a user means by ``user_name``: a family, a step name the
    rater emits (with or without its variant suffix) or an alias
    (:data:`ALIASES`), in any case. Raises
    :class:`~sudokit.errors.UnknownTechnique` listing the names otherwise.

    >>> resolve("Turbot Fish"), resolve("hidden single"), resolve("2-string kite 012")
    ('Forcing Chains & Cycles', 'Hidden Single', '2-String Kite')
    """
    text = " ".join(str(user_name).split())
    if text:
        family = _aliases().get(text.casefold()) or _family_key(text)
        if family is None:
            family = _aliases().get(_squash(_strip(text)))
        if family is not None:
            return family
    raise UnknownTechnique(f"unknown technique {user_name!r}; choose one of: {', '.join(FAMILIES)} "
                           f"(or an alias: {', '.join(ALIASES)})")


@lru_cache(maxsize=1)
def _aliases() -> dict[str, str]:
    return {alias.casefold(): family for alias, family in ALIASES.items()}


def families_on_path(steps: "Iterable[Step | str]") -> list[str]:
    """The families the steps (or step names) use, each once, in the order of
    first use; the engine's ``Search`` fill is no technique and is left out."""
    out: dict[str, None] = {}
    for step in steps:
        name = step.technique if isinstance(step, Step) else str(step)
        if name in NOT_TECHNIQUES:
            continue
        out.setdefault(family_of(name), None)
    return list(out)


def step_names() -> list[str]:
    """Every step name the rater can emit, expanded from the naming rules of
    the technique modules over their variant suffixes (one code per pattern
    of the strong links and wings, since the codes only vary the digits).

    Each registered technique contributes its own name unless it is one of
    the producers named below, whose steps carry other names.
    """
    from .nested import nested_suffix
    from .wings import BIG_WINGS

    names: dict[str, None] = {}

    def add(name: str) -> None:
        names.setdefault(name, None)

    producers = {
        "Skyscraper": [f"{g}{base} {code}" for g in ("", "Grouped ")
                       for base, code in (("Skyscraper", "011"), ("2-String Kite", "012"),
                                          ("2 Strong links", "001"))]
        + ["(2 Strong Links) X-Loop 015", "(2 Strong Links) Grouped X-Loop 104"],
        "3 Skyscrapers": [f"{g}{base} {code}" for g in ("", "Grouped ")
                          for base, code in (("3 Skyscrapers", "0111"), ("3-String Kite", "0112"),
                                             ("3 Strong links", "0011"))]
        + ["(3 Strong Links) X-Loop 0112", "(3 Strong Links) Grouped X-Loop 1112"],
        "4 Skyscrapers": [f"{g}{base} {code}" for g in ("", "Grouped ")
                          for base, code in (("4 Skyscrapers", "01111"), ("4-String Kite", "01112"),
                                             ("4 Strong links", "00111"))]
        + ["(4 Strong Links) X-Loop 01112", "(4 Strong Links) Grouped X-Loop 11112"],
        "Unique Rectangle": [f"Unique {shape} type {k}" for shape in ("Rectangle", "Loop 6", "Loop 8", "Loop 10")
                             for k in (1, 2, 3, 4)],
        "BUG": [f"BUG type {k}" for k in (1, 2, 3, 4)],
        "Forcing Chains & Cycles": list(CYCLE_STEPS),
        "Nishio Forcing Chains": ["Nishio Forcing Chains"],
        "Multiple Forcing Chains": ["Cell Forcing Chains", "Region Forcing Chains"],
        "Dynamic Forcing Chains": [f"Dynamic {form}" for form in CHAIN_FORMS],
        "Dynamic Forcing Chains (+)": [f"Dynamic {form}{nested_suffix(1)}" for form in CHAIN_FORMS],
        "Nested Forcing Chains": [f"{prefix}{form}{nested_suffix(level)}" for level in (2, 3, 4, 5, 6)
                                  for prefix in ("", "Dynamic ") for form in CHAIN_FORMS]
        + [f"{name}{nested_suffix(level)}" for level in (2, 3, 4) for name in CYCLE_STEPS],
    }
    for size, (wing, _) in BIG_WINGS.items():
        producers[wing] = [f"{wing} {double}{biggest}{size_}" for double in (1, 2)
                           for biggest, size_ in ((size, size * 2), (size + 1, size * 2 + 1))]
    for t in all_techniques():
        for name in producers.get(t.name, [t.name]):
            add(name)
    return list(names)
