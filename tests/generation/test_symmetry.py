"""Symmetry (sudokit.generation.symmetry): symmetric clue patterns, minimal
within the symmetry, and the names and shapes refused.
"""

from __future__ import annotations

import pytest

from generation_helpers import _orbit, _pattern_symmetric, _without
from sudokit.errors import SudokuError
from sudokit.generation import GenerationError, generate, generate_many
from sudokit.generation.symmetry import SymmetryError, is_symmetric
from sudokit.solving import count_solutions


@pytest.mark.parametrize("symmetry", ["none", "rotate180", "rotate90", "mirror", "flip", "diagonal", "dihedral"])
def test_symmetric_patterns_9x9(symmetry: str) -> None:
    for p in generate_many(3, symmetry=symmetry, seed=3):
        assert _pattern_symmetric(p.puzzle, symmetry) and is_symmetric(p.puzzle, symmetry)
        assert count_solutions(p.puzzle, 2) == 1
        for cell in p.puzzle.givens:  # minimal within the symmetry: no orbit can go
            assert count_solutions(_without(p.puzzle, _orbit(symmetry, cell, 9)), 2) == 2


@pytest.mark.parametrize("symmetry", ["rotate90", "diagonal", "dihedral"])
def test_square_only_symmetries_refused_for_oblong_boxes(symmetry: str) -> None:
    with pytest.raises(SymmetryError, match="square boxes"):
        generate(shape="2x3", symmetry=symmetry, seed=1)


def test_unknown_names_are_refused() -> None:
    with pytest.raises(SymmetryError, match="unknown symmetry"):
        generate(symmetry="spiral", seed=1)
    with pytest.raises(GenerationError, match="unknown minimality"):
        generate(minimal="pretty", seed=1)
    with pytest.raises(SudokuError):
        generate(shape="0x3", seed=1)
