"""One generation request made concrete: the rule, the shape and its symmetry's
orbits, the node budgets, the seeds the kernels take, and the deadline that
stops a run between two slices of work.

>>> p = make_plan("3x3", "logic", "rotate180")
>>> p.rule, p.node_limit, len(arrays(p.shape, p.symmetry)[3]) - 1
(1, 2000000, 41)
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from functools import lru_cache

from ..grid import Shape, shape_of
from . import symmetry as _symmetry
from .puzzle import GenerationError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..geometry import Geometry

__all__ = [
    "DEADLINE_SLICES", "QUICK_NODES", "RULES", "SAT_FROM", "SHORT_FILLS_FROM", "Plan", "Stopped", "arrays",
    "by_sat", "default_jobs", "engine_limit", "fresh_seed", "kernel_seed", "make_plan", "out_of_time",
]

#: The rules a generated puzzle is minimal for.
RULES: dict[str, int] = {"unique": 0, "logic": 1, "preemptive": 2}

_SEED_MOD = 2**32

#: Slices of the engine's minimising pass when a time limit is set: the clock is
#: read between slices, so a big puzzle stops within a slice of its deadline.
DEADLINE_SLICES = 200

#: From this size up the ``unique`` rule's hard questions go to SAT solvers
#: (:mod:`sudokit.generation.sat_finish`). Below it the engine proves every clue needed
#: within its budget; from 17x17 on it left many clues undecided (over 100 on
#: 24x24, in 90-145 s), where the SAT solvers prove them all in seconds.
SAT_FROM = 17
#: Engine nodes per question in the quick pass before the SAT solver takes over.
QUICK_NODES = 30

#: From this size up a fill attempt that fails is cut short sooner (5 nodes per
#: cell instead of 50): on 49x49 a failed attempt of 120,000 nodes took 8-10 s,
#: and the attempts that succeed need far fewer nodes.
SHORT_FILLS_FROM = 36


class Stopped(Exception):
    """The deadline passed inside one puzzle; the text says how far it got."""


def out_of_time(deadline: float | None) -> bool:
    """Whether ``deadline`` (a ``time.perf_counter()`` instant, or None) has passed."""
    return deadline is not None and time.perf_counter() > deadline


@dataclass(frozen=True)
class Plan:
    """Everything the kernels need for one request."""

    shape: Shape
    minimal: str
    symmetry: str
    node_limit: int
    fill_limit: int
    #: A variant's units (:mod:`sudokit.variants`), or None for rows, columns and boxes.
    geometry: "Geometry | None" = None
    #: The ``--variant`` names when each puzzle draws its own jigsaw layout from
    #: its seed (``regions="random"``; see :meth:`for_seed`), else None.
    random_regions: str | None = None

    @property
    def rule(self) -> int:
        return RULES[self.minimal]

    @property
    def variant(self) -> bool:
        return self.geometry is not None

    def for_seed(self, seed: int) -> "Plan":
        """The plan of one seed: with ``random_regions``, a jigsaw layout drawn
        from the seed (:func:`sudokit.variants.random_layout`), so that the seed
        remakes the layout and the puzzle; else this plan."""
        if self.random_regions is None:
            return self
        from dataclasses import replace

        from .. import variants

        layout = variants.random_layout(self.shape, seed)
        return replace(self, geometry=variants.of(self.shape, self.random_regions, regions=layout),
                       random_regions=None)


def _default_node_limit(shape: Shape) -> int:
    """The budget per uniqueness question: engine nodes (never reached for 9x9,
    bounds 10x10 to 16x16), or SAT solver conflicts from 17x17 up."""
    n = shape.size
    if n <= 9:
        return 2_000_000
    return 100_000 if n < SAT_FROM else 500_000


def engine_limit(plan: Plan) -> int:
    """The engine's node budget per question: the quick pass's when SAT solvers finish."""
    return QUICK_NODES if by_sat(plan) else plan.node_limit


def by_sat(plan: Plan) -> bool:
    """Whether SAT solvers finish the minimising (the ``unique`` rule from :data:`SAT_FROM` up)."""
    return plan.rule == RULES["unique"] and plan.shape.size >= SAT_FROM


def make_plan(shape: "Shape | str | tuple[int, int] | None", minimal: str, symmetry: str,
              node_limit: int | None = None, variant: str | None = None, regions: str | None = None) -> Plan:
    """The plan of a request, or :class:`GenerationError` (or a SymmetryError) when it cannot be met.

    ``variant`` (``--variant`` names: x, hyper, jigsaw) and ``regions`` (a
    jigsaw layout) give a variant's units."""
    geometry = None
    random_regions = None
    if variant or regions:
        from .. import variants

        try:
            if "killer" in variants.parse(variant or ""):
                raise GenerationError("killer puzzles have their own generator: sudokit.generation.killer "
                                      "(generate_many routes variant='killer' there)")
            if regions == "random":  # each seed draws its layout: check the rest on the shape's boxes
                random_regions = ",".join(n for n in variants.parse(variant or "") if n != "jigsaw")
                geometry = variants.of(shape, random_regions)
            else:
                geometry = variants.of(shape, variant or "", regions=regions)
        except ValueError as exc:
            raise GenerationError(str(exc)) from None
        shape = geometry.shape
        if geometry == geometry.shape.geometry:
            geometry = None
    s = shape_of(shape)
    if minimal not in RULES:
        raise GenerationError(f"unknown minimality rule {minimal!r}; choose one of: {', '.join(RULES)}")
    _symmetry.check(s, symmetry)
    if s.size < 1:
        raise GenerationError("a grid needs at least one cell")
    limit = _default_node_limit(s) if node_limit is None else int(node_limit)
    plan = Plan(s, minimal, symmetry, limit, fill_limit=_fill_limit(s), geometry=geometry,
                random_regions=random_regions)
    if (geometry is not None or random_regions is not None) and by_sat(plan):
        raise GenerationError(f"variants are generated up to {SAT_FROM - 1}x{SAT_FROM - 1} for now")
    return plan


def _fill_limit(shape: Shape) -> int:
    """Nodes per attempt at filling a complete grid before starting again."""
    per_cell = 5 if shape.size >= SHORT_FILLS_FROM else 50
    return max(10_000, per_cell * shape.cell_count)


@lru_cache(maxsize=256)  # bounded: a run of random jigsaw layouts meets a new geometry per puzzle
def arrays(shape: Shape, symmetry: str, geometry: "Geometry | None" = None) -> "tuple[np.ndarray, ...]":
    """``(units, peers, orbit_cells, orbit_start)`` for the kernels: the units
    and peers of ``geometry`` (by default the shape's) and the symmetry's
    orbits, the cells of orbit ``o`` being
    ``orbit_cells[orbit_start[o]:orbit_start[o + 1]]``."""
    import numpy as np  # here, so that the clauses generator (no kernels) loads no numpy

    from ..engine.generate import arrays_of

    units, peers = arrays_of(shape.geometry if geometry is None else geometry)
    orbits = _symmetry.orbits(shape, symmetry)
    cells = np.array([c for orbit in orbits for c in orbit], dtype=np.int64)
    starts = np.zeros(len(orbits) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(o) for o in orbits])
    return units, peers, cells, starts


def kernel_seed(seed: int) -> int:
    """The seed the kernels take (numba's generator wants 32 bits)."""
    return int(seed) % _SEED_MOD


def fresh_seed() -> int:
    """A random seed, for a request that gave none."""
    return secrets.randbits(31)


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1
