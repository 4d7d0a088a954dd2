"""Compiling every kernel ahead of a first run (``sudoku warm-up``).

numba compiles a kernel the first time a command calls it; on a first run a
batch rating therefore works on its pure-Python stand-ins while a helper
process compiles (:mod:`sudokit.engine.compiling`). :func:`warm_up` does
that work once, ahead of time, on every core: afterwards every command loads
its kernels from numba's cache. Run it after installing, or when building an
image, with the same ``NUMBA_CACHE_DIR`` (if any) as the later commands.
:func:`build_store` compiles them into the kernel store instead
(:mod:`sudokit.engine.kernel_store`), which every run reads whatever its
``NUMBA_CACHE_DIR``; ``pip install .`` builds it into the package.

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


def write_bytecode() -> bool:
    """The package's modules compiled to bytecode beside them (``__pycache__``),
    as ``pip install`` does for a regular install: a copy installed in place
    (``pip install -e``), run with ``PYTHONDONTWRITEBYTECODE`` set, otherwise
    compiles some 60 modules from source on every ``sudoku rate`` (0.3 to 0.5 s
    of its start). Only stale files are written; False when some could not be
    (a read-only folder: the commands then compile them as before)."""
    import compileall

    return bool(compileall.compile_dir(os.path.dirname(os.path.abspath(__file__)), quiet=2))


def build_store(groups: Iterable[str] | None = None, jobs: int = 0, root: str | os.PathLike | None = None,
                notice: Callable[[str], None] | None = None) -> tuple[float, int, str]:
    """Build the kernel store (:mod:`sudokit.engine.kernel_store`): compile
    the kernel groups ``groups`` (default: all) from this copy of the package
    into a fresh numba cache, on ``jobs`` processes (0: one per core), then
    keep them in the store ``root`` (default: the package's own folder when
    it can be written, else the user's data folder; ``$SUDOKIT_KERNEL_STORE``
    when it names one), replacing what it held. Returns the seconds it took,
    the number of kernels stored and the store's folder."""
    import shutil
    import tempfile
    import time

    from .engine import kernel_store
    from .engine.compiling import compile_ahead

    start = time.perf_counter()
    if root is None and not kernel_store.enabled():
        raise ValueError(f"the kernel store is off ({kernel_store.ENV}={os.environ.get(kernel_store.ENV)}): "
                         f"unset it, or set it to a folder, to build one")
    names = list(kernel_groups() if groups is None else groups)
    known = kernel_groups()
    unknown = [g for g in names if g not in known]
    if unknown:
        raise ValueError(f"no kernel group {unknown[0]!r}; the groups are {', '.join(known)}")
    target = kernel_store.build_root() if root is None else root
    cache = tempfile.mkdtemp(prefix="sudokit-store-")
    try:
        compile_ahead(names, jobs or os.cpu_count() or 1, notice, cache_dir=cache)
        stored = kernel_store.collect(cache, target, names)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return time.perf_counter() - start, stored, str(target)


__all__ = ["PACKAGES", "build_store", "kernel_groups", "warm_up"]
