"""Compiling every kernel ahead of a first run (``sudoku warm-up``).

numba compiles a kernel the first time a command calls it; on a first run a
batch rating therefore works on its pure-Python stand-ins while a helper
process compiles (:mod:`sudokit.engine.compiling`). :func:`warm_up` does
that work once, ahead of time, on every core: afterwards every command loads
its kernels from numba's cache. Run it after installing, or when building an
image, with the same ``NUMBA_CACHE_DIR`` (if any) as the later commands.

The engine knows only its own kernel groups; this top floor asks each
package that keeps kernels of its own to register them first
(:data:`PACKAGES`).

>>> from sudokit.warmup import kernel_groups
>>> {"count", "logic", "chains", "nested"} <= set(kernel_groups())
True
"""

from __future__ import annotations

import importlib
import os
from typing import Callable, Iterable

#: The packages above the engine that register kernel groups when imported.
PACKAGES = ("sudokit.logic", "sudokit.canon", "sudokit.bank")


def kernel_groups() -> dict[str, tuple[str, tuple[str, ...], float]]:
    """Every kernel group (name -> what it is, its entry points, its cold
    compile time in seconds), the packages' own included."""
    for package in PACKAGES:
        importlib.import_module(package)
    from .engine.compiling import KERNELS

    return dict(KERNELS)


def warm_up(groups: Iterable[str] | None = None, jobs: int = 0,
            notice: Callable[[str], None] | None = None) -> tuple[float, list[str]]:
    """Compile the kernel groups ``groups`` (default: all of
    :func:`kernel_groups`) that numba's cache lacks, on ``jobs`` processes
    (0: one per core); returns the seconds it took and the groups compiled
    (none when all were cached). ``notice`` hears once what is compiled."""
    from .engine.compiling import compile_ahead

    names = list(kernel_groups() if groups is None else groups)
    known = kernel_groups()
    unknown = [g for g in names if g not in known]
    if unknown:
        raise ValueError(f"no kernel group {unknown[0]!r}; the groups are {', '.join(known)}")
    return compile_ahead(names, jobs or os.cpu_count() or 1, notice)


__all__ = ["PACKAGES", "kernel_groups", "warm_up"]
