"""Minimising (sudokit.generation.minimising): uniqueness and minimality for
each rule, on every shape, and the clue counts it leaves.

Truth comes from outside the generator: tests/reference.py for the small
shapes, the ``dfs`` tree search and the ``clauses`` and ``preemptive``
methods for 9x9, and symmetry maps written out again in generation_helpers.
"""

from __future__ import annotations

import random
import statistics

import pytest

from generation_helpers import SMALL_SHAPES, _orbit, _pattern_symmetric, _without
from puzzles import ref_count
from reference import obeys_rules
from sudokit.generation import generate, generate_many
from sudokit.solving import count_solutions, deduce


@pytest.mark.parametrize("box", SMALL_SHAPES)
@pytest.mark.parametrize("symmetry", ["none", "rotate180", "mirror", "flip"])
def test_small_unique_puzzles_are_minimal(box: tuple[int, int], symmetry: str) -> None:
    for p in generate_many(6, shape=box, symmetry=symmetry, seed=100):
        assert ref_count(p.puzzle) == 1
        assert obeys_rules(p.solution.values, p.puzzle.values, *box)
        n = p.puzzle.size
        done: set[int] = set()
        for cell in p.puzzle.givens:
            orbit = _orbit(symmetry, cell, n)
            if orbit in done:
                continue
            done.add(orbit)
            assert ref_count(_without(p.puzzle, orbit)) >= 2, (p.puzzle.line(), orbit)
        assert _pattern_symmetric(p.puzzle, symmetry)


def test_9x9_unique_puzzles_are_minimal() -> None:
    for p in generate_many(2, seed=2024):
        assert count_solutions(p.puzzle, 3, method="dfs") == 1
        assert p.solution.is_solution_of(p.puzzle)
        for cell in p.puzzle.givens:
            assert count_solutions(p.puzzle.with_cell(cell, 0), 2, method="dfs") == 2


def test_9x9_unique_puzzles_are_minimal_by_the_engine() -> None:
    for p in generate_many(15, seed=77):
        assert count_solutions(p.puzzle, 2) == 1
        assert all(count_solutions(p.puzzle.with_cell(c, 0), 2) == 2 for c in p.puzzle.givens)


def test_logic_minimal_puzzles_need_every_clue() -> None:
    for p in generate_many(8, minimal="logic", seed=31):
        solved = deduce(p.puzzle, "clauses")
        assert solved.status.value == "solved" and solved.solution == p.solution
        for cell in p.puzzle.givens:
            assert deduce(p.puzzle.with_cell(cell, 0), "clauses").status.value == "stuck"


def test_preemptive_minimal_puzzles_need_every_clue() -> None:
    for p in generate_many(3, minimal="preemptive", seed=8):
        assert deduce(p.puzzle, "preemptive").status.value == "solved"
        assert count_solutions(p.puzzle, 2, method="dfs") == 1
        for cell in p.puzzle.givens:
            assert deduce(p.puzzle.with_cell(cell, 0), "preemptive").status.value == "stuck"


def test_logic_minimal_small_shapes() -> None:
    for box in SMALL_SHAPES:
        for p in generate_many(5, shape=box, minimal="logic", seed=4):
            assert deduce(p.puzzle, "clauses").status.value == "solved"
            assert ref_count(p.puzzle) == 1
            for cell in p.puzzle.givens:
                assert deduce(p.puzzle.with_cell(cell, 0), "clauses").status.value == "stuck"


def test_16x16_puzzle_is_unique() -> None:
    p = generate(shape="4x4", seed=1)
    assert p.undecided == 0
    assert count_solutions(p.puzzle, 2) == 1
    assert p.solution.is_solution_of(p.puzzle)
    # minimal: a sample of clues, each needed
    for cell in random.Random(0).sample(p.puzzle.givens, 8):
        assert count_solutions(p.puzzle.with_cell(cell, 0), 2) == 2


@pytest.mark.parametrize("box", [(2, 5), (3, 4)])
def test_mid_size_unique_puzzles_are_proven_minimal(box: tuple[int, int]) -> None:
    """10x10 and 12x12 go through the differing-solution search; a count checks every clue."""
    p = generate(shape=box, seed=2)
    assert p.undecided == 0
    assert count_solutions(p.puzzle, 2) == 1
    assert p.solution.is_solution_of(p.puzzle)
    for cell in p.puzzle.givens:
        assert count_solutions(p.puzzle.with_cell(cell, 0), 2) == 2, cell


@pytest.mark.parametrize("seed", [3, 8])
def test_16x16_puzzle_is_proven_minimal_clue_by_clue(seed: int) -> None:
    """Every clue of a 16x16 puzzle, taken away alone, lets the engine's count find two solutions."""
    p = generate(shape="4x4", seed=seed)
    assert p.undecided == 0
    assert count_solutions(p.puzzle, 2) == 1
    for cell in p.puzzle.givens:
        assert count_solutions(p.puzzle.with_cell(cell, 0), 2) == 2, cell


# -- clue counts ---------------------------------------------------------------------------

def _clue_stats(n: int, seed: int) -> tuple[float, float]:
    clues = [p.clues for p in generate_many(n, seed=seed)]
    return statistics.mean(clues), statistics.stdev(clues)


def test_clue_count_mean_in_a_loose_band() -> None:
    mean, sd = _clue_stats(300, 123456)
    assert 23.9 <= mean <= 24.9, mean  # published: 24.38 for top-down random removal
    assert 0.8 <= sd <= 1.5, sd


@pytest.mark.slow
def test_clue_count_mean_1000() -> None:
    mean, sd = _clue_stats(1000, 1)
    assert abs(mean - 24.38) <= 0.3, mean
    assert 0.9 <= sd <= 1.35, sd
