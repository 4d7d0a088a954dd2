"""The symmetries of a clue pattern now live in :mod:`sudokit.generation.symmetry`;
this name stays for the clauses method's generator, which imports it."""

from .generation.symmetry import SYMMETRIES, SQUARE_ONLY, SymmetryError, check, is_symmetric, orbits

__all__ = ["SQUARE_ONLY", "SYMMETRIES", "SymmetryError", "check", "is_symmetric", "orbits"]
