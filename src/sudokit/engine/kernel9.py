"""The 9x9 kernel, built for speed.

Contract (stable; the generator imports :func:`count9` from its own njit code)::

    count9(grid: uint8[81], limit: int64, node_limit: int64,
           solution_out: uint8[81], stats: int64[2]) -> int64

``grid`` holds 0 for a blank and 1..9 for a given; it is not modified. The
result is the number of solutions found, stopping at ``limit`` (``limit <= 0``:
count them all), or -1 when ``node_limit`` (> 0; 0 means no limit) search
nodes were used first. ``solution_out`` receives the first solution found.
``stats[0]`` is increased by the nodes expanded and ``stats[1]`` by the
guesses (branch points).
"""

from __future__ import annotations

from numba import njit

from .kernelN import count_n


@njit(cache=True)
def count9(grid, limit, node_limit, solution_out, stats):
    """Count the solutions of a 9x9 ``grid`` up to ``limit`` (see the module docstring)."""
    return count_n(grid, 3, 3, limit, node_limit, solution_out, stats)
