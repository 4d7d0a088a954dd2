"""Random complete grids: backtracking from the empty grid with singles after
every choice, the branching cell's values tried in random order, then a random
relabelling of the values (the kernels are :func:`sudokit.engine.generate.fill`
and :func:`~sudokit.engine.generate.random_grid`). The same seed gives the same
grid on every machine, and it is the solution of the puzzle generated from
that seed.

>>> g = complete_grid("2x3", seed=5)
>>> g.is_solved, g.size
(True, 6)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..grid import Grid, Shape
from .plan import Plan, Stopped, arrays, fresh_seed, kernel_seed, make_plan, out_of_time
from .puzzle import GenerationError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["complete_grid", "random_grid"]


def complete_grid(shape: "Shape | str | tuple[int, int] | None" = "3x3", seed: int | None = None) -> Grid:
    """A random complete grid of ``shape``; the same seed gives the same grid.

    It is the solution of the puzzle :func:`sudokit.generation.generate` makes from that seed.
    """
    import numpy as np

    from ..engine import generate as kernels

    plan = make_plan(shape, "unique", "none")
    units, peers, _, _ = arrays(plan.shape, "none")
    n = plan.shape.size
    out = np.zeros(n * n, dtype=np.uint8)
    stats = np.zeros(kernels.STATS, dtype=np.int64)
    kernels.seed_rng(kernel_seed(fresh_seed() if seed is None else seed))
    if not kernels.random_grid(out, n, units, peers, plan.fill_limit, stats):
        raise GenerationError(f"could not fill a {plan.shape} grid within the node budget")
    return Grid.unchecked(plan.shape, tuple(int(v) for v in out))


def random_grid(plan: Plan, out: "np.ndarray", units: "np.ndarray", peers: "np.ndarray", stats: "np.ndarray",
                deadline: float | None) -> bool:
    """The engine's ``random_grid`` into ``out`` (numba's generator seeded by the
    caller); with a ``deadline``, one fill attempt per kernel call (the same
    random numbers, the same grid) so that the clock is read between attempts,
    and :class:`~sudokit.generation.plan.Stopped` when it passes."""
    from ..engine import generate as kernels

    if deadline is None:
        return kernels.random_grid(out, plan.shape.size, units, peers, plan.fill_limit, stats)
    for _ in range(1000):
        if kernels.fill(out, plan.shape.size, units, peers, plan.fill_limit, stats):
            kernels.relabel(out, plan.shape.size)
            return True
        stats[kernels.STAT_FILL_RESTARTS] += 1
        if out_of_time(deadline):
            raise Stopped("still filling the solution grid")
    return False
