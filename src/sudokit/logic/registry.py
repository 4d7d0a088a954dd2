"""The techniques in Sudoku Explainer's order, and how to add one.

The stepper tries :data:`REGISTRY` front to back and applies the first step
the first productive technique yields. The order is ascending SE rating; at a
tie, the order SE's own producers run in. :func:`register` inserts a new
technique after every technique rated the same or lower.

>>> [t.rating for t in REGISTRY][:7]
[1.0, 1.0, 1.0, 1.2, 1.5, 1.5, 1.7]
"""

from __future__ import annotations

from . import aligned, chains, fish, intersections, links, nested, singles, subsets, uniqueness, wings
from .step import Technique

REGISTRY: list[Technique] = [
    singles.LAST_VALUE_BOX,
    singles.LAST_VALUE_COLUMN,
    singles.LAST_VALUE_ROW,
    singles.HIDDEN_SINGLE_BOX,
    singles.HIDDEN_SINGLE_COLUMN,
    singles.HIDDEN_SINGLE_ROW,
    intersections.DIRECT_POINTING,
    intersections.DIRECT_CLAIMING,
    subsets.DIRECT_HIDDEN_PAIR,
    singles.NAKED_SINGLE,
    subsets.DIRECT_HIDDEN_TRIPLET,
    intersections.POINTING,
    intersections.CLAIMING,
    subsets.NAKED_PAIR,
    fish.X_WING,
    subsets.HIDDEN_PAIR,
    subsets.NAKED_TRIPLET,
    fish.SWORDFISH,
    subsets.HIDDEN_TRIPLET,
    links.TWO_STRONG_LINKS,  # one SE producer: Skyscraper, 2-String Kite, 2 Strong links, grouped (4.0-4.3)
    wings.XY_WING,
    wings.XYZ_WING,
    uniqueness.UNIQUE_LOOPS,  # SE's unique rectangles and loops, types 1-4 (4.5+)
    subsets.NAKED_QUAD,
    fish.JELLYFISH,
    subsets.HIDDEN_QUAD,
    links.THREE_STRONG_LINKS,  # one SE producer: 3 Skyscrapers, 3-String Kite, 3 Strong links, X-Loops (5.4-5.7)
    wings.WXYZ_WING,
    uniqueness.BUG,  # SE's BUG producer, types 1-4 (5.6+)
    links.FOUR_STRONG_LINKS,  # SE's StrongLinks(4), 5.8-6.1
    wings.VWXYZ_WING,
    aligned.ALIGNED_PAIR_EXCLUSION,  # 6.2
    wings.UVWXYZ_WING,  # SE: after Aligned Pair Exclusion, before the chaining tier (6.6)
    chains.FORCING_CHAINS,  # SE's first chaining tier: cycles and forcing chains, easiest first (6.6+)
    wings.TUVWXYZ_WING,  # SE's first chaining tier, rated 7.5
    aligned.ALIGNED_TRIPLET_EXCLUSION,  # 7.5
    chains.NISHIO,  # 7.5+
    chains.MULTIPLE,  # cell and region forcing chains, 8.0+
    chains.DYNAMIC,  # 8.5+
    nested.DYNAMIC_PLUS,  # Dynamic Forcing Chains (+), 9.0+
    *nested.NESTED,  # Nested Forcing Chains: levels 2 (9.5+), 3 (10.0+), 4 with inner levels 0, 1, 2 (10.5+)
]


def register(technique: Technique, *, before: str | None = None) -> None:
    """Add ``technique`` at its place by rating (after equal ratings), or just
    before the first entry named ``before``."""
    if before is not None:
        for i, t in enumerate(REGISTRY):
            if t.name == before:
                REGISTRY.insert(i, technique)
                return
        raise KeyError(f"no technique named {before!r} in the registry")
    i = len(REGISTRY)
    while i > 0 and REGISTRY[i - 1].rating > technique.rating:
        i -= 1
    REGISTRY.insert(i, technique)


#: The stretches at the front of :data:`REGISTRY` that the compiled logic
#: kernel (:mod:`sudokit.engine.logic_kernels`) takes over, in order; stretch
#: ``k`` is covered by the kernel's level ``k - 1`` (its ``LEVEL_SINGLES``,
#: ``LEVEL_DIRECT``, ``LEVEL_LOCKING``, ``LEVEL_SUBSETS``): the singles; the
#: rest of the direct ladder up to 2.5; pointing and claiming; the subsets,
#: X-Wing and Swordfish up to 4.0. The rating and the stepper both ask
#: :func:`kernel_prefix`, so this is the one place that says it.
KERNEL_LADDER: tuple[tuple[Technique, ...], ...] = (
    singles.TECHNIQUES[:6],
    (intersections.DIRECT_POINTING, intersections.DIRECT_CLAIMING, subsets.DIRECT_HIDDEN_PAIR,
     singles.NAKED_SINGLE, subsets.DIRECT_HIDDEN_TRIPLET),
    (intersections.POINTING, intersections.CLAIMING),
    (subsets.NAKED_PAIR, fish.X_WING, subsets.HIDDEN_PAIR, subsets.NAKED_TRIPLET, fish.SWORDFISH,
     subsets.HIDDEN_TRIPLET),
)


def kernel_prefix(registry: "list[Technique] | tuple[Technique, ...]", most: int = 2) -> tuple[int | None, int]:
    """How much of the front of ``registry`` the compiled kernel can take, in
    whole stretches of :data:`KERNEL_LADDER` and at most up to its level
    ``most``: ``(level, techniques)``, or ``(None, 0)`` when the registry
    does not start with the singles.

    >>> kernel_prefix(REGISTRY), kernel_prefix(REGISTRY, most=-1), kernel_prefix(REGISTRY[6:])
    ((2, 19), (-1, 6), (None, 0))
    """
    level, taken = None, 0
    for k, stretch in enumerate(KERNEL_LADDER):
        end = taken + len(stretch)
        if k - 1 > most or len(registry) < end or any(a is not b for a, b in zip(registry[taken:end], stretch)):
            break
        level, taken = k - 1, end
    return level, taken


def techniques() -> list[tuple[str, float, str]]:
    """``(label, SE rating, family)`` of every registered technique, in order."""
    return [(t.label, t.rating, t.family) for t in REGISTRY]


#: Sudoku Explainer techniques (SukakuExplainer 1.18 defaults) with their
#: lowest rating, used to bound the rating from below when the registry runs
#: out: the next SE step must use a technique missing from the registry.
SE_LADDER: tuple[tuple[str, float], ...] = (
    ("Skyscraper", 4.0), ("XY-Wing", 4.2),  # "Skyscraper" is SE's whole two-strong-link producer
    ("XYZ-Wing", 4.4), ("Unique Rectangle", 4.5),
    ("3 Skyscrapers", 5.4), ("WXYZ-Wing", 5.5),  # "3 Skyscrapers" is SE's whole three-link producer
    ("BUG", 5.6), ("4 Skyscrapers", 5.8),
    ("Aligned Pair Exclusion", 6.2), ("VWXYZ-Wing", 6.2),
    ("UVWXYZ-Wing", 6.6), ("Forcing Chains & Cycles", 6.6), ("TUVWXYZ-Wing", 7.5),
    ("Aligned Triplet Exclusion", 7.5), ("Nishio Forcing Chains", 7.5), ("Multiple Forcing Chains", 8.0),
    ("Dynamic Forcing Chains", 8.5), ("Dynamic Forcing Chains (+)", 9.0), ("Nested Forcing Chains", 9.5),
    # SE's answer when no technique applies ("Beyond solver"): never registered, so the floor is 20.0 once
    # every technique above is
    ("Beyond solver", 20.0),
)


_floor_cache: dict[tuple[str, ...], float] = {}


def rating_floor() -> float:
    """The lowest SE rating of a technique the registry does not have."""
    key = tuple(t.name for t in REGISTRY)
    if key not in _floor_cache:
        _floor_cache[key] = _floor(set(key))
    return _floor_cache[key]


def _floor(names: set[str]) -> float:
    missing = [r for name, r in SE_LADDER if not any(n == name or n.startswith(name) for n in names)]
    return min(missing, default=max(t.rating for t in REGISTRY))
