"""Canonical forms: one representative for every class of equivalent puzzles.

Two puzzles are equivalent when a validity-preserving transformation maps
one onto the other: transposition, permutations of bands and stacks, of rows
within a band and columns within a stack, and relabelling of the digits.
:func:`canonical` gives the class's representative (``minlex`` or
``patminlex``), the :class:`Transform` that reaches it and its inverse, and
the number of automorphisms.

- ``transforms``: the :class:`Transform` value, and the groups of the variants;
- ``search``: the search itself, in plain Python, for every box shape;
- ``forms``: :func:`canonical` and :class:`Canonical`.
"""

from .forms import FORMS, Canonical, canonical
from .transforms import Transform

__all__ = ["FORMS", "Canonical", "Transform", "canonical"]
