"""Batches (sudokit.generation.batches): a seed makes the same puzzles whatever
the jobs, a record's seed remakes its puzzle alone, and no seed differs.
"""

from __future__ import annotations

from sudokit.generation import generate, generate_many


def test_same_seed_same_puzzles_and_single_reproduction() -> None:
    a = [p.puzzle for p in generate_many(5, seed=42)]
    b = [p.puzzle for p in generate_many(5, seed=42)]
    assert a == b
    assert generate(seed=44).puzzle == a[2]  # a record's seed remakes that puzzle alone


def test_same_seed_whatever_the_jobs() -> None:
    one = [p.record() for p in generate_many(40, seed=7, minimal="logic", jobs=1)]
    two = [p.record() for p in generate_many(40, seed=7, minimal="logic", jobs=2)]
    assert one == two


def test_no_seed_differs() -> None:
    a = [p.puzzle for p in generate_many(3)]
    b = [p.puzzle for p in generate_many(3)]
    assert a != b
