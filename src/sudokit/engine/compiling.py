"""Loading and compiling the kernels: what a command needs, said once, and quickly.

numba compiles a kernel the first time it is called and keeps the machine
code in its cache on disk (``__pycache__`` beside the source, or
``$NUMBA_CACHE_DIR``); later runs load it from there. This module holds what
the commands share about that:

* :func:`load_numba` imports numba for the kernel modules (each of them calls
  it before its own ``from numba import ...``). numba's first compilation or
  cache load probes for a BLAS by importing ``scipy.linalg``, which costs more
  than loading every kernel a command uses; no kernel here does linear
  algebra, so the probe is skipped (numba's own flag is set back afterwards,
  and ``scipy.linalg`` imports normally later).
* :data:`KERNELS` names the groups of kernels a command may need, with the
  time a cold compilation of each takes, measured on an idle machine
  (``benchmarks/bench_startup.py``). The engine lists its own groups; a
  package above it that keeps kernels of its own (:mod:`sudokit.logic`'s
  chain searches) adds its groups with :func:`register` when it is
  imported, so the engine imports nothing above it.
* :func:`compiling` is the one mechanism by which every command says that it
  compiles: inside it, the first real compilation (not a load from the cache)
  calls ``notice`` once with a message that gives the expected time, and
  ``spinner(True)``/``spinner(False)`` around each compilation, so that a
  terminal can show a spinner. :func:`warm_up` loads (compiling when needed)
  the groups a command asks for inside it.
* :func:`compile_ahead` compiles every group (or those named) on several
  processes at once, for ``sudoku warm-up``: after it, a first run loads
  everything from the cache. Into a fresh cache folder, it is the first half
  of building the kernel store (:mod:`sudokit.engine.kernel_store`), which
  a run reads behind numba's cache (:func:`load_numba` hooks it in), so that
  even an empty ``NUMBA_CACHE_DIR`` finds the kernels compiled;
  :func:`is_cached` counts the store's kernels as cached.
* :func:`compile_in_background` compiles cold groups in child processes
  (one per core, at most :data:`BACKGROUND_JOBS`; each takes its groups in
  the order the command names them) while the command goes on with its
  pure-Python path (the logic finders and Crook's method give the same
  answers as the kernels, only more slowly): a first ``sudoku rate FILE``
  does not stop for the compiler, and :func:`background_ready` says when the
  kernels can be loaded from the cache (group by group, as a child finishes
  each). One lock file per cache folder, shared by those children, lets only
  one such compilation run at a time, across processes and commands.

Nothing here prints: the command line passes ``notice`` and ``spinner``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager, suppress
from typing import Callable, Iterable, Iterator

__all__ = ["KERNELS", "alongside", "background_ready", "compile_in_background", "compiling", "is_cached",
           "compile_ahead", "load_numba", "register", "warm_up"]

#: Kernel groups: name -> (what it is, its entry points as "module.function",
#: seconds a cold compile takes on an idle machine).
KERNELS: dict[str, tuple[str, tuple[str, ...], float]] = {
    "count": ("the 9x9 solver", ("kernel9.resume9",), 6.0),
    # a first run compiles the propagation in a helper ("variants-propagation")
    # while the command compiles the search (kernel9u.load)
    "variants": ("the 9x9 solver for X, hyper and jigsaw", ("kernel9u.resume9u", "kernel9u.propagate9u"), 6.0),
    "variants-propagation": ("the 9x9 solver for X, hyper and jigsaw", ("kernel9u.propagate9u",), 5.0),
    # a first killer compiles the search in a helper ("killer-search") while
    # the command compiles the sum rules (killer.load)
    "killer": ("the killer search", ("killer.search_k", "killer.count_more_k"), 9.0),
    "killer-search": ("the killer search", ("killer.search_k",), 9.0),
    "shapes": ("the solver for other shapes", ("kernelN.count_more_n", "kernelN.new_state", "kernelN.geometry",
                                               "kernelN.search_n"), 4.5),
    "batch": ("the bulk solver", ("kernel9.batch9_serial",), 6.0),
    "logic": ("the logic kernels", ("logic_kernels.run_steps",), 6.0),
    # the generator: a helper process compiles the rule's verdict while the
    # command compiles the random grids and the minimiser (the same for every
    # rule and shape; generate.load): wall times on two cores, a verdict's
    # the time it adds
    "generate": ("the generator", ("generate.grids_kernel", "generate.minimise_rows"), 6.0),
    **{group: (f"the generator's verdict, {what}", (f"generate.{kernel}",), seconds)
       for group, what, kernel, seconds in (
           ("unique-9x9", "unique, 9x9", "count9_verdict", 2.0),
           ("unique-9x9-variant", "unique, 9x9 variants", "count9u_verdict", 3.0),
           ("unique-other", "unique, other shapes", "other_verdict", 2.0),
           ("unique-16x16", "unique, 16x16 and up", "other_locked_verdict", 3.0),
           ("logic-9x9", "logic, 9x9", "singles9_verdict", 1.0),
           ("logic-other", "logic, other shapes", "singles_verdict", 1.0),
           ("preemptive", "preemptive", "preemptive_verdict", 1.0))},
}

_numba_loaded = False
_lock = threading.RLock()
#: The :func:`compiling` blocks now open, outermost first. numba's compile
#: events are listened to once numba loads, so that a command which never
#: loads a kernel never imports numba for them.
_open: list["_Block"] = []


def load_numba() -> None:
    """Import numba without its BLAS probe (see the module docstring)."""
    global _numba_loaded
    if _numba_loaded:
        return
    with _lock:
        if _numba_loaded:
            return
        probe = "scipy.linalg.cython_blas"
        hide = "numba.np.arraymath" not in sys.modules and probe not in sys.modules
        if hide:
            sys.modules[probe] = None  # type: ignore[assignment]  # the import fails at once
        try:
            import numba.np.arraymath as arraymath
        finally:
            if hide and sys.modules.get(probe, 0) is None:
                del sys.modules[probe]
        if hide:
            # numba reads this flag when it compiles a dot product; set it as its
            # probe would have, without importing scipy now
            arraymath._HAVE_BLAS = importlib.util.find_spec("scipy") is not None
        from . import kernel_store

        kernel_store.install()  # before any kernel module defines its kernels
        _numba_loaded = True
        if _open:
            _install_hub()


def _dispatcher(entry: str):
    """The numba dispatcher of ``entry``: "module.function" in ``sudokit.engine``,
    or "package.module.function" in ``sudokit`` (a kernel kept beside the
    code it serves, such as ``logic.chain_kernels.search``)."""
    module, _, name = entry.rpartition(".")
    package = __package__ if "." not in module else __package__.rpartition(".")[0]
    return getattr(importlib.import_module(f"{package}.{module}"), name)


def is_cached(entry: str, args: tuple | None = None) -> bool:
    """True when numba's cache holds fresh machine code of ``entry``
    ("module.function" in ``sudokit.engine``) for this machine, so that calling
    it loads rather than compiles: for a call with ``args`` (their types), or
    for any call. The answer comes from numba's own index of the function (the
    same file and key that numba checks)."""
    try:
        load_numba()
        dispatcher = _dispatcher(entry)
        sig = None if args is None else tuple(dispatcher.typeof_pyval(a) for a in args)
        if dispatcher.overloads if sig is None else sig in dispatcher.overloads:
            return True
        cache = dispatcher._cache
        overloads = cache._cache_file._load_index()
        if hasattr(cache, "store_index"):  # the kernel store (kernel_store.StoreCache) behind numba's cache
            overloads = {**cache.store_index(), **overloads}
        if not overloads:
            return False
        from numba.core.registry import cpu_target

        codegen = cpu_target.target_context.codegen()
        return any(key == cache._index_key(key[0], codegen) and (sig is None or key[0] == sig) for key in overloads)
    except Exception:  # numba's internals moved: assume cold, which at worst says so once too often
        return False


def cold_seconds(groups: Iterable[str]) -> float:
    """The expected time to compile those of ``groups`` whose kernels are not cached."""
    total = 0.0
    for group in groups:
        if group not in KERNELS:  # a package's group, not registered in this process (not imported yet)
            continue
        _, entries, seconds = KERNELS[group]
        if not all(is_cached(e) for e in entries):
            total += seconds
    return total


def _group_of(ev) -> str | None:
    dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
    func = getattr(dispatcher, "py_func", None)
    if func is None:
        return None
    entry = f"{func.__module__}.{func.__name__}"
    for group, (_, entries, _) in KERNELS.items():
        if any(entry.endswith("." + e) for e in entries):
            return group
    return None


class _Block:
    """One open :func:`compiling` block."""

    def __init__(self, notice, groups: tuple[str, ...], spinner) -> None:
        self.notice = notice
        self.groups = groups
        self.spinner = spinner
        self.told = False


class _Hub:
    """The one listener of numba's compile events (real compilations only, not
    cache loads), installed when numba loads while a block is open. Of the
    open blocks, the outermost with a ``notice`` says it once; the outermost
    with a ``spinner`` spins while numba compiles."""

    def __init__(self) -> None:
        from numba.core import event

        hub = self

        class Listener(event.Listener):
            def on_start(self, ev):
                hub.start(ev)

            def on_end(self, ev):
                hub.end(ev)

        self.listener = Listener()
        self.depth = 0
        self.spinning = None
        event.register("numba:compile", self.listener)

    def start(self, ev) -> None:
        self.depth += 1
        if self.depth > 1:
            return
        with _lock:
            blocks = list(_open)
        talker = next((b for b in blocks if b.notice is not None), None)
        if talker is not None and not any(b.told for b in blocks):
            talker.told = True
            now = _group_of(ev)
            # the groups of the innermost block that compiles this one (a warm-up's own list), else all
            groups = next((list(b.groups) for b in reversed(blocks) if now in b.groups),
                          [g for b in blocks for g in b.groups])
            talker.notice(_message(groups, now))
        self.spinning = next((b for b in blocks if b.spinner is not None), None)
        if self.spinning is not None:
            self.spinning.spinner(True)

    def end(self, ev) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.stop()

    def stop(self) -> None:
        if self.spinning is not None:
            spinning, self.spinning = self.spinning, None
            spinning.spinner(False)


_hub: _Hub | None = None


def _install_hub() -> None:
    global _hub
    if _hub is None and _numba_loaded:
        _hub = _Hub()


def _message(groups: list[str], compiling_now: str | None) -> str:
    """The notice: the time expected for the cold groups among those named and
    the one being compiled."""
    if compiling_now is not None and compiling_now not in groups:
        groups = [*groups, compiling_now]
    try:
        seconds = cold_seconds(dict.fromkeys(groups))
    except Exception:
        seconds = 0.0
    if seconds <= 0:
        seconds = KERNELS[compiling_now][2] if compiling_now is not None else 5.0
    return f"compiling the solver engine (first run only, {_about(seconds)})…"


def _about(seconds: float) -> str:
    return f"about {max(1, round(seconds)):d} s"


@contextmanager
def compiling(
    notice: Callable[[str], None] | None = None,
    kernels: Iterable[str] = (),
    spinner: Callable[[bool], None] | None = None,
) -> Iterator[None]:
    """Inside, the first real compilation (not a load from numba's cache) calls
    ``notice(message)`` once; the message gives the time expected for the cold
    ones among ``kernels`` (the groups of :data:`KERNELS` the command will use)
    and the one being compiled. ``spinner(True)`` and ``spinner(False)`` are
    called as each compilation starts and ends. numba is not imported for
    this: a command that loads no kernel pays nothing."""
    if notice is None and spinner is None:
        yield
        return
    block = _Block(notice, tuple(kernels), spinner)
    with _lock:
        _open.append(block)
        _install_hub()
    try:
        yield
    finally:
        with _lock:
            _open.remove(block)
        if _hub is not None and _hub.spinning is block:
            _hub.stop()


# -- warming up ------------------------------------------------------------------------


def _warm_count() -> None:
    import numpy as np

    from ..budget import Budget
    from ..grid import CLASSIC
    from .search import count_values

    values = np.zeros(81, dtype=np.uint8)
    values[0] = 1
    count_values(values, CLASSIC, 1, Budget())


def _warm_shapes() -> None:
    from ..budget import Budget
    from ..grid import Grid
    from .search import count, enumerate_values, grid_values

    grid = Grid.empty((2, 2))
    count(grid, 1, Budget())
    next(enumerate_values(grid_values(grid), grid.shape, Budget(), None))


def _warm_batch() -> None:
    import numpy as np

    from .kernel9 import batch9_serial

    puzzles = np.zeros((1, 81), dtype=np.uint8)
    batch9_serial(puzzles, 1, 0, np.zeros((1, 81), dtype=np.uint8), np.zeros(1, dtype=np.int64),
                  np.zeros((1, 2), dtype=np.int64))


def _warm_logic() -> None:
    from ..grid import CLASSIC
    from .logic_kernels import LEVEL_SUBSETS, easy, singles

    full = (1 << 9) - 1
    values = [0] * 81
    singles(CLASSIC, list(values), [full] * 81)
    easy(CLASSIC, list(values), [full] * 81, LEVEL_SUBSETS)


def _warm_generator() -> None:
    from . import generate

    generate.load_grids(batch=True)
    generate.load_grids(batch=False)
    generate.load_minimiser()


def _warm_verdict(name: str) -> Callable[[], None]:
    def warm() -> None:
        from . import generate

        generate.load_verdict(name)
    return warm


_WARMERS: dict[str, Callable[[], None]] = {
    "count": _warm_count, "shapes": _warm_shapes, "batch": _warm_batch, "logic": _warm_logic,
    "variants": lambda: importlib.import_module("sudokit.engine.kernel9u").warm(),
    "variants-propagation": lambda: importlib.import_module("sudokit.engine.kernel9u").load_propagation(),
    "killer": lambda: importlib.import_module("sudokit.engine.killer").load(count=True),
    "killer-search": lambda: importlib.import_module("sudokit.engine.killer").warm("search"),
    "generate": _warm_generator,
    **{group: _warm_verdict(name) for group, name in (
        ("unique-9x9", "COUNT9"), ("unique-9x9-variant", "COUNT9U"), ("unique-other", "OTHER"), ("unique-16x16", "OTHER_LOCKED"),
        ("logic-9x9", "SINGLES9"), ("logic-other", "SINGLES"), ("preemptive", "PREEMPTIVE"))},
}

#: The groups whose kernels a group's kernels call or share (:func:`register`).
_NEEDS: dict[str, tuple[str, ...]] = {}

#: The module that registered each group kept above the engine (:func:`register`):
#: a helper process imports it before it warms the group up.
_HOMES: dict[str, str] = {}


def register(group: str, what: str, entries: Iterable[str], seconds: float, warm: Callable[[], None], *,
             background: bool = False, needs: Iterable[str] = ()) -> None:
    """Add the kernel group ``group`` of a package above the engine, which
    keeps its kernels and knows how to load them: ``what`` it is (for the
    notice), its ``entries`` as "package.module.function" under ``sudokit``
    (such as ``logic.chain_kernels.run``) or "module.function" under
    ``sudokit.engine``, the ``seconds`` a cold compile takes on an idle
    machine, and ``warm``, a function that loads (compiling when needed)
    them all. ``background``: the package has a stand-in while they compile
    (:func:`compile_in_background`). ``needs``: groups whose kernels these
    call or share (compiled in the same process, first, rather than twice
    side by side). The engine imports nothing of the package: the package
    registers when it is imported, and a helper process imports the module
    of ``warm`` before it calls it."""
    KERNELS[group] = (what, tuple(entries), float(seconds))
    _NEEDS[group] = tuple(needs)
    _WARMERS[group] = warm
    _HOMES[group] = warm.__module__
    if background:
        _BACKGROUND.add(group)


def _warm_up_code(groups: tuple[str, ...], marks: bool = False) -> str:
    """The Python a helper process runs to warm ``groups`` up (their packages
    imported first); with ``marks``, one after another, leaving the mark of
    each (:func:`_done_path`) as it is done."""
    homes = sorted({_HOMES[g] for g in groups if g in _HOMES})
    imports = "".join(f"import {home}; " for home in homes)
    call = "warm_up_marking" if marks else "warm_up"
    return f"{imports}from sudokit.engine.compiling import {call}; {call}(kernels={groups!r})"


def _done_path(group: str) -> str:
    """The mark a background compilation leaves once ``group`` is in this
    cache: looked at while the helper still runs, it tells the command which
    groups to load without importing their kernel modules first."""
    return f"{lock_path()}.{group}.done"


def warm_up_marking(kernels: Iterable[str]) -> None:
    """:func:`warm_up` one group after another, leaving each one's mark."""
    for group in kernels:
        warm_up(kernels=(group,))
        with open(_done_path(group), "w"):
            pass



def warm_up(
    notice: Callable[[str], None] | None = None,
    kernels: Iterable[str] = ("count",),
    spinner: Callable[[bool], None] | None = None,
) -> float:
    """Load the kernel groups ``kernels`` (names of :data:`KERNELS`), compiling
    those that are not in numba's cache, and return the seconds it took.
    ``notice`` hears once, before a real compilation only, what is compiled
    and how long it should take; ``spinner`` as in :func:`compiling`."""
    groups = tuple(kernels)
    unknown = [g for g in groups if g not in KERNELS]
    if unknown:
        raise ValueError(f"no kernel group {unknown[0]!r}; the groups are {', '.join(KERNELS)}")
    start = time.perf_counter()
    with compiling(notice, groups, spinner):
        for group in groups:
            _WARMERS[group]()
    return time.perf_counter() - start



# -- compiling in the background -------------------------------------------------------


def lock_path(cache_dir: str | None = None) -> str:
    """The lock file of the numba cache ``cache_dir`` (default: this run's,
    ``$NUMBA_CACHE_DIR``, or the folder beside the source)."""
    where = cache_dir or os.environ.get("NUMBA_CACHE_DIR") or os.path.dirname(os.path.abspath(__file__))
    key = hashlib.sha1(os.path.abspath(where).encode()).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"sudokit-compiling-{os.getuid()}-{key}.lock")


def _flock():
    """The ``fcntl`` module, or None where there is no flock (Windows): there
    the commands compile in their own process, with no helper and no lock."""
    try:
        import fcntl
    except ImportError:
        return None
    return fcntl


def _compiling_elsewhere() -> bool:
    """True while a background compilation holds the lock of this cache."""
    fcntl = _flock()
    if fcntl is None:
        return False
    try:
        fd = os.open(lock_path(), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing drops a lock taken here
    return False


#: The groups that have a stand-in (pure Python, or for the generator's 9x9
#: verdicts another verdict), hence may compile in the background.
_BACKGROUND = {"count", "logic", "unique-9x9", "unique-9x9-variant", "variants-propagation"}
#: The groups this process (or its parent, before a fork) handed to a background compilation.
_handed: set[str] = set()


def compile_in_background(groups: Iterable[str]) -> bool:
    """Start compiling the cold ones of ``groups`` in a child process, unless
    one already runs for this cache; True when some of ``groups`` are being
    compiled (use the pure-Python path meanwhile), False when all are cached
    (load them). The open :func:`compiling` block with a ``notice`` hears it
    once. The child takes the lock before this returns and keeps it until it
    exits, so :func:`background_ready` cannot see it finished before it starts;
    it runs on if the command ends first, so that the next run finds the
    kernels cached."""
    groups = tuple(groups)
    if _flock() is None:  # compile in this process
        return False
    if _handed.intersection(groups):
        return True
    if all(is_cached(e) for g in groups if g in KERNELS for e in KERNELS[g][1]):
        return False  # cached: load them, whatever another process compiles meanwhile
    if _compiling_elsewhere():
        _handed.update(groups)
        return True
    with _lock:
        # with the others of the same kind that the running command said it uses (its notice's groups)
        kin = {g for b in _open for g in b.groups if g in _BACKGROUND and g in KERNELS}
        # in the order the command names them (a rating: the groups whose absence
        # costs it most for each second they take to compile first), then that of
        # KERNELS, so that these load (background_ready) while the others still compile
        asked = {*groups, *kin}
        named = [g for b in _open for g in b.groups if g in asked]
        wanted = tuple(dict.fromkeys([*named, *(g for g in KERNELS if g in asked)]))
        cold = tuple(g for g in wanted if not all(is_cached(e) for e in KERNELS[g][1]))
        if not cold:
            return False
        bins = _bins(cold, background_jobs())
        if _start_helper(*bins) is None:  # another process started one just now
            _handed.update(groups)
            return True
        _handed.update(groups)
        talker = next((b for b in _open if b.notice is not None and not b.told), None)
        if talker is not None:
            talker.told = True
            talker.notice(f"compiling the solver engine in the background (first run only, "
                          f"{_about(background_seconds(bins))}); the work goes on meanwhile without it, "
                          "each part used as soon as it is ready (`sudoku warm-up --store` compiles it ahead "
                          "for every later run)")
        return True


#: The most helper processes a background compilation starts (each takes a core).
BACKGROUND_JOBS = 2


def background_jobs() -> int:
    """How many helper processes compile in the background: one per core, at
    most :data:`BACKGROUND_JOBS`. numba's compiler is single threaded, and
    the command on its stand-ins gets far less done in a second than the
    kernels will, so the cores go to the compilers first."""
    return max(1, min(BACKGROUND_JOBS, _cores()))


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def background_seconds(bins: list[tuple[str, ...]]) -> float:
    """The expected wall time of a background compilation split in ``bins``
    (one helper each) beside the command itself, on this machine's cores."""
    longest = max((sum(KERNELS[g][2] for g in b) for b in bins), default=0.0)
    return longest * max(1.0, (len(bins) + 1) / _cores())


def _bins(groups: tuple[str, ...], jobs: int) -> list[tuple[str, ...]]:
    """``groups`` split over ``jobs`` processes. A group goes with those it
    needs (:func:`register`), so that no kernel compiles twice side by side;
    these sets go longest first, each to the process with the least work so
    far; within a process, the groups keep the order of ``groups`` (so that
    those a command needs first are ready first)."""
    sets: list[list[str]] = []
    for group in groups:
        home = next((s for s in sets if any(n in s for n in _NEEDS.get(group, ()))), None)
        if home is None:
            sets.append([group])
        else:
            home.append(group)
    jobs = max(1, min(jobs, len(sets)))
    bins: list[list[str]] = [[] for _ in range(jobs)]
    load = [0.0] * jobs
    for part in sorted(sets, key=lambda s: -sum(KERNELS[g][2] for g in s)):
        least = load.index(min(load))
        bins[least].extend(part)
        load[least] += sum(KERNELS[g][2] for g in part)
    rank = {g: i for i, g in enumerate(groups)}
    return [tuple(sorted(b, key=rank.__getitem__)) for b in bins if b]


def _start_helper(groups: tuple[str, ...], *more: tuple[str, ...]) -> subprocess.Popen | None:
    """A child process that compiles ``groups`` (:func:`warm_up`) holding the
    lock of this cache until it exits, and one more child for each of
    ``more`` (they share the lock: it is free once the last one exits);
    the first child, or None when the lock is taken, or where there is no
    flock (Windows): the caller then compiles for itself."""
    fcntl = _flock()
    if fcntl is None:
        return None
    try:
        fd = os.open(lock_path(), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:  # the lock's folder is not writable: no helper
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return None
        for group in (g for b in (groups, *more) for g in b):  # the marks of an earlier helper say nothing of this one
            with suppress(OSError):
                os.unlink(_done_path(group))
        children = [subprocess.Popen([sys.executable, "-c", _warm_up_code(b, marks=True)], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(fd,),
                                     start_new_session=True)
                    for b in (groups, *more)]
        return children[0]
    finally:
        os.close(fd)  # the lock stays with the child


#: The longest :func:`alongside` waits for its helper before compiling on its own.
HELPER_WAIT = 300.0


@contextmanager
def alongside(groups: Iterable[str]) -> Iterator[bool]:
    """Compile the cold ones of ``groups`` in a helper process while the body
    compiles other kernels, so that a first run uses both cores; on leaving,
    wait for the helper, after which the groups load from the cache. Yields
    whether a helper runs. Without one (all cached, or another compilation
    holds the lock of this cache), the groups compile in this process when
    first called, as always. The spinner of the open :func:`compiling` block
    keeps turning while this process waits."""
    cold = tuple(g for g in groups if not all(is_cached(e) for e in KERNELS[g][1]))
    helper = _start_helper(cold) if cold else None
    yield helper is not None  # an error or Ctrl-C in the body leaves the helper to finish on its own
    if helper is not None:
        spinning = next((b for b in _open if b.spinner is not None), None)
        if spinning is not None:
            spinning.spinner(True)
        try:
            helper.wait(HELPER_WAIT)
        except subprocess.TimeoutExpired:
            pass  # compile here instead; the helper finishes on its own
        finally:
            if spinning is not None:
                spinning.spinner(False)


#: Seconds between two looks at numba's cache while a background compilation runs.
LOOK_EVERY = 0.5
#: When each set of groups was last found not yet compiled (time.monotonic()).
_looked: dict[tuple[str, ...], float] = {}
#: The groups handed to a second helper after the first ended without them.
_rehanded: set[str] = set()


def background_ready(groups: Iterable[str]) -> bool:
    """False while a background compilation of any of ``groups`` runs and
    they are not yet all in numba's cache (the helper compiles one group
    after another, and each loads as soon as it is there); afterwards (or
    when none was started) True: load them."""
    groups = tuple(groups)
    if not _handed.intersection(groups):
        return True
    now = time.monotonic()
    if now < _looked.get(groups, -LOOK_EVERY) + LOOK_EVERY:
        return False
    _looked[groups] = now
    if all(os.path.exists(_done_path(g)) for g in groups):  # the helper has them (and runs on)
        _handed.difference_update(groups)
        return True
    if _compiling_elsewhere():
        return False
    if all(is_cached(e) for g in groups if g in KERNELS for e in KERNELS[g][1]):
        _handed.difference_update(groups)
        return True
    # the helper ended without them (it was started for others): hand them to a
    # new one, once (a helper that failed on them leaves them to this process)
    _handed.difference_update(groups)
    if _rehanded.intersection(groups):
        return True
    _rehanded.update(groups)
    return not compile_in_background(groups)


# -- compiling ahead of time -----------------------------------------------------------


def compile_ahead(groups: Iterable[str] | None = None, jobs: int = 1,
                  notice: Callable[[str], None] | None = None,
                  cache_dir: str | None = None) -> tuple[float, list[str]]:
    """Compile the cold ones of ``groups`` (default: every registered group of
    :data:`KERNELS`) into numba's cache, on ``jobs`` processes at once, so
    that no later command compiles them. The groups go to the processes
    longest first, each to the one with the least work so far. This process
    holds the lock of the cache meanwhile, so that a command started then
    rates or solves on its stand-ins rather than compiling the same kernels
    too. ``notice`` hears once what is compiled and how long it should take.
    Returns the seconds it took and the groups compiled. Raises
    :class:`RuntimeError` when a process fails (its last line of error).

    With ``cache_dir``, every group of ``groups`` compiles into that numba
    cache (a new, empty folder) from this copy of the package, the kernel
    store unread, as :func:`sudokit.warmup.build_store` needs."""
    wanted = tuple(KERNELS if groups is None else dict.fromkeys(groups))
    unknown = [g for g in wanted if g not in KERNELS]
    if unknown:
        raise ValueError(f"no kernel group {unknown[0]!r}; the groups are {', '.join(KERNELS)}")
    start = time.perf_counter()
    env = None
    if cache_dir is None:
        cold = [g for g in wanted if not all(is_cached(e) for e in KERNELS[g][1])]
    else:
        cold = list(wanted)
        package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        path = os.pathsep.join(p for p in (package_parent, os.environ.get("PYTHONPATH")) if p)
        env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, SUDOKIT_KERNEL_STORE="off", PYTHONPATH=path)
    if not cold:
        return time.perf_counter() - start, []
    bins = _bins(tuple(cold), jobs)
    jobs = len(bins)
    if notice is not None:
        notice(f"compiling the solver engine ({len(cold)} kernel groups on {jobs} "
               f"process{'es' if jobs > 1 else ''}, {_about(max(sum(KERNELS[g][2] for g in b) for b in bins))})…")
    fcntl = _flock()
    fd = None
    if fcntl is not None:
        try:
            fd = os.open(lock_path(cache_dir), os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX)  # waits for a background compilation already running
        except OSError:
            fd = None
    try:
        children = [subprocess.Popen([sys.executable, "-c", _warm_up_code(tuple(b))], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
                    for b in bins]
        failed = []
        for child in children:
            _, err = child.communicate()
            if child.returncode:
                failed.append((err.strip().splitlines() or [f"exit status {child.returncode}"])[-1])
    finally:
        if fd is not None:
            os.close(fd)
    if failed:
        raise RuntimeError(failed[0])
    return time.perf_counter() - start, cold
