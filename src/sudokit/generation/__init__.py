"""Generating puzzles: random complete grids, minimised by a rule, with a symmetric clue pattern.

A puzzle is made in three steps, in numba kernels (:mod:`sudokit.engine.generate`,
which stay with the other kernels in :mod:`sudokit.engine`, where the compile
notice and the cache checks find them):

1. **A random complete grid** (:mod:`~sudokit.generation.grids`). Backtracking
   from the empty grid: singles after every choice, branch on an open cell
   with the fewest candidates (ties at random), try its values in random
   order; then a random relabelling of the values. This is not exactly
   uniform over all grids (backtracking favours grids that are reached by
   many paths), but it reaches every grid, and the clue counts it leads to
   match the published figure for uniformly sampled grids (see
   ``benchmarks/RESULTS-generate.md``).
2. **Top-down minimising** (:mod:`~sudokit.generation.minimising`). The orbits
   of cells (:mod:`~sudokit.generation.symmetry`; single cells without
   symmetry) are visited in random order. An orbit's clues go when the puzzle
   still obeys the rule without them and stay otherwise, so at the end every
   clue left is needed:

   * ``unique``: exactly one solution (a count with limit 2; from 17x17 up
     the engine's quick pass is finished by SAT solvers,
     :mod:`~sudokit.generation.sat_finish` and :mod:`~sudokit.generation.sat`);
   * ``logic``: naked and hidden singles alone fill the grid (the verdict of
     the ``clauses`` method);
   * ``preemptive``: singles plus preemptive sets (Crook) fill the grid.

3. **Seeds** (:mod:`~sudokit.generation.plan`, :mod:`~sudokit.generation.batches`).
   Puzzle ``i`` of a run with seed ``S`` is made from seed ``S + i`` alone, so
   the same seed gives the same puzzles on every machine, whatever the number
   of worker processes, and ``seed`` in a record remakes that one puzzle.
   Difficulty filters (:mod:`~sudokit.generation.filters`) rate each puzzle
   and keep the ones that match.

A symmetric puzzle is minimal *within its symmetry*: no whole orbit can go,
but a single clue of an orbit sometimes could.

>>> p = generate(shape="2x2", seed=7)
>>> p.shape, p.minimal, p.clues == p.puzzle.clues, p.solution.is_solution_of(p.puzzle)
('2x2', 'unique', True, True)
>>> generate(shape="2x2", seed=7).puzzle == p.puzzle
True
>>> complete_grid("3x3", seed=1).is_solved
True
"""

from __future__ import annotations

from .batches import from_seeds, generate, generate_many
from .filters import LEVELS, parse_rating
from .grids import complete_grid
from .plan import RULES, default_jobs
from .puzzle import GenerationError, GenerationTimeout, Puzzle

__all__ = [
    "GenerationError",
    "GenerationTimeout",
    "LEVELS",
    "Puzzle",
    "RULES",
    "complete_grid",
    "default_jobs",
    "from_seeds",
    "generate",
    "generate_many",
    "parse_rating",
]
