"""Random sparse candidate states of a blank grid, on which the compiled
pattern searches are held to the Python searches past the 9x9 grid (seeded)."""

from __future__ import annotations

import random
from typing import Iterator

from sudokit.grid import Grid
from sudokit.logic import Candidates


def sparse_states(size: int, count: int, seed: int, *, few: float, pool: int, sizes: tuple[int, ...],
                  placed: float, many: int) -> Iterator[Candidates]:
    """``count`` states of a blank ``size`` x ``size`` grid: a cell holds, with
    chance ``few``, a few (a number drawn from ``sizes``) of the first ``pool``
    values; else, with chance ``placed - few``, nothing (placed); else ``many``
    values at random."""
    rng = random.Random(seed)
    geo = Candidates.from_grid(Grid("." * size * size)).geo
    every = (1 << size) - 1
    for _ in range(count):
        mask = []
        for _c in range(size * size):
            roll = rng.random()
            if roll < few:
                mask.append(sum(1 << v for v in rng.sample(range(pool), rng.choice(sizes))))
            elif roll < placed:
                mask.append(0)
            else:
                mask.append(every & ~sum(1 << v for v in rng.sample(range(size), size - many)))
        yield Candidates(geo, [0] * len(mask), mask)
