"""The generator's public calls, now in the package :mod:`sudokit.generation`;
this name stays for the command line's ``generate`` and the pipeline, which
import it."""

from .generation import (GenerationError, GenerationTimeout, LEVELS, Puzzle, RULES, complete_grid,
                         default_jobs, from_seeds, generate, generate_many, parse_rating)

__all__ = ["GenerationError", "GenerationTimeout", "LEVELS", "Puzzle", "RULES", "complete_grid", "default_jobs",
           "from_seeds", "generate", "generate_many", "parse_rating"]
