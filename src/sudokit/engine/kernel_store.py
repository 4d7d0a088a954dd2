"""The kernel store: sudokit's compiled kernels, kept where every run can read them.

numba keeps a compiled kernel in its cache: ``__pycache__`` beside the source
file, or, with ``$NUMBA_CACHE_DIR``, a folder named from a hash of the source
file's path. A fresh ``NUMBA_CACHE_DIR``, a new user or a new container
starts empty, and its first batch rating waits for about a minute of
compiling. The store is a second, read-only place where a run looks for
sudokit's kernels when numba's cache has none:

* It is a folder, :data:`PACKAGE_STORE` (``_kernel_store`` inside the
  installed package), or else :func:`user_store` (the user's data folder),
  or the folder ``$SUDOKIT_KERNEL_STORE`` names; ``SUDOKIT_KERNEL_STORE=off``
  turns it off. ``pip install .`` builds it into the package (the build
  backend in ``buildsys/``), and ``sudoku warm-up --store`` builds it
  explicitly.
* Inside, a kernel's files sit under the source file's folder relative to the
  package (``engine/kernel9.resume9-466.py311.nbi``), not under a hash of
  its absolute path, and its index is stamped with a hash of the source
  file's contents and of all the kernel sources: a store built from one copy
  of the package serves any other copy of the same files (a wheel built in a
  temporary folder, then installed into ``site-packages``).
* numba's own cache of a kernel is stamped with that hash of all the kernel
  sources too (:func:`kernel_sources`): a kernel compiles in the kernels it
  calls from other files, which numba's stamp of its own file misses.
* numba's own checks still apply: the index names the numba version, and each
  kernel is keyed by the Python version, its bytecode and the machine (CPU
  name and features). A store built elsewhere, for another numba or from
  other source is a miss, and the run compiles as without it.
* A run reads numba's cache first, then the store; what it compiles goes to
  numba's cache as always, never to the store.

:func:`install` (called by :func:`sudokit.engine.compiling.load_numba`,
before any kernel module defines a kernel) gives each of sudokit's
cached kernels a :class:`StoreCache` in place of numba's own cache, when a
store exists. :func:`collect` builds a store from a numba cache folder in
which the kernels have just been compiled (:func:`sudokit.warmup.build_store`
does both). Nothing here prints.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import shutil
import sys
import time
from pathlib import Path

__all__ = ["ENV", "PACKAGE_STORE", "StoreCache", "build_root", "collect", "describe", "install", "roots",
           "user_store"]

#: The environment variable: ``off`` (or ``0``, ``no``, ``false``) turns the
#: store off; a folder uses that store alone (read, and built by warm-up).
ENV = "SUDOKIT_KERNEL_STORE"
#: The package's root folder: kernels in files under it are stored.
PACKAGE = Path(__file__).resolve().parent.parent
#: The store inside the installed package.
PACKAGE_STORE = PACKAGE / "_kernel_store"
#: The store's description, at its top.
ABOUT = "store.json"

_OFF = {"off", "0", "no", "false", "none"}


def user_store() -> Path:
    """The store in the user's data folder (``$XDG_DATA_HOME``, ``~/.local/share``,
    ``%LOCALAPPDATA%``), used when the package's own folder cannot be written."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
    elif sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return Path(base) / "sudokit" / "kernel-store"


def _setting() -> str:
    return os.environ.get(ENV, "").strip()


def enabled() -> bool:
    """False when ``$SUDOKIT_KERNEL_STORE`` turns the store off."""
    return _setting().lower() not in _OFF


def roots() -> list[Path]:
    """The stores a run reads, in order: the folder ``$SUDOKIT_KERNEL_STORE``
    names alone, or the package's and the user's; none when it is off."""
    setting = _setting()
    if setting.lower() in _OFF:
        return []
    if setting:
        return [Path(setting).expanduser()]
    return [PACKAGE_STORE, user_store()]


def build_root() -> Path:
    """Where a store is built: the folder ``$SUDOKIT_KERNEL_STORE`` names, else
    the package's own when its folder can be written, else the user's."""
    setting = _setting()
    if setting and setting.lower() not in _OFF:
        return Path(setting).expanduser()
    return PACKAGE_STORE if os.access(PACKAGE, os.W_OK) else user_store()


def source_stamp(path: str) -> bytes:
    """The store's stamp of a source file: a hash of its contents (numba's
    own stamp was the file's time and size before numba 0.60, which a copy
    changes) and of every kernel source (:func:`kernel_sources`)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read() + kernel_sources()).digest()


@functools.lru_cache(maxsize=None)
def kernel_sources() -> bytes:
    """A hash of the contents of all the package's kernel sources (the files
    that define numba kernels). numba stamps a cached kernel with its own
    file only, yet a kernel compiles in the kernels it calls from other files:
    after a change to ``chain_kernels.run`` alone, ``nested_kernels``' cached
    rules would still run the old ``run``. Every cached kernel, in numba's
    cache and in the store, is stamped with this hash too, so a change to any
    kernel source makes them all stale (they compile again)."""
    digest = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(PACKAGE)):
        dirs[:] = sorted(d for d in dirs if not d.startswith(("_", ".")))
        for name in sorted(files):
            if name.endswith(".py"):
                try:
                    with open(os.path.join(folder, name), "rb") as f:
                        text = f.read()
                except OSError:
                    continue
                if b"njit" in text:
                    digest.update(os.path.relpath(os.path.join(folder, name), PACKAGE).encode() + b"\0" + text)
    return digest.digest()


@functools.lru_cache(maxsize=None)
def _relative(path: str) -> str | None:
    """The folder of ``path`` relative to the package (``engine``), or None
    when the file is not the package's."""
    try:
        folder = Path(path).resolve().parent.relative_to(PACKAGE)
    except (ValueError, OSError):
        return None
    return folder.as_posix()


# -- reading -------------------------------------------------------------------------------

_installed = False


def install() -> bool:
    """Let sudokit's kernels, from now on, look in the store when numba's
    cache lacks them, and stamp their cached code with :func:`kernel_sources`
    too; True when a store is in use (the store off or no store folder: numba's
    cache alone, with that stamp)."""
    global _installed
    in_use = any(root.is_dir() for root in roots())
    if _installed:
        return in_use
    try:
        from numba.core import dispatcher
        from numba.core.caching import FunctionCache, IndexDataCacheFile
    except ImportError:  # numba's internals moved: no store
        return False
    global StoreCache
    StoreCache = _store_cache_class(FunctionCache, IndexDataCacheFile)
    original = dispatcher.Dispatcher.enable_caching

    def enable_caching(self) -> None:
        relative = _relative(getattr(self.py_func.__code__, "co_filename", ""))
        if relative is None:
            original(self)
        else:
            self._cache = StoreCache(self.py_func, relative)

    enable_caching.__wrapped__ = original  # type: ignore[attr-defined]
    dispatcher.Dispatcher.enable_caching = enable_caching
    _installed = True
    return in_use


#: The class of the kernels' caches once :func:`install` has run.
StoreCache = None


def _store_cache_class(FunctionCache, IndexDataCacheFile):  # noqa: N803 (numba's classes)
    class _StoreCache(FunctionCache):
        """numba's cache of one kernel, and behind it the stores' copies
        (read only)."""

        def __init__(self, py_func, relative: str) -> None:
            super().__init__(py_func)
            # numba's stamp of its own file, with the hash of the kernels this one may call
            self._cache_file._source_stamp = (self._cache_file._source_stamp, kernel_sources())
            self._relative = relative
            self._stored: list | None = None

        def _store_files(self) -> list:
            if self._stored is None:
                self._stored = []
                try:
                    stamp = source_stamp(self._py_func.__code__.co_filename)
                except OSError:
                    return self._stored
                for root in roots():
                    folder = root / self._relative
                    if (folder / f"{self._impl.filename_base}.nbi").is_file():
                        self._stored.append(IndexDataCacheFile(str(folder), self._impl.filename_base, stamp))
            return self._stored

        def store_index(self) -> dict:
            """The stores' index of this kernel: key -> data file (the first store's wins)."""
            index: dict = {}
            for stored in reversed(self._store_files()):
                try:
                    index.update(stored._load_index())
                except Exception:  # a damaged index is a miss
                    continue
            return index

        def _load_overload(self, sig, target_context):
            data = super()._load_overload(sig, target_context)
            if data is not None or not self._enabled:
                return data
            stored_files = self._store_files()
            if not stored_files:
                return None
            key = self._index_key(sig, target_context.codegen())
            for stored in stored_files:
                try:
                    found = stored.load(key)
                    if found is not None:
                        return self._impl.rebuild(target_context, found)
                except Exception:  # a damaged or foreign file is a miss: compile
                    continue
            return None

    _StoreCache.__name__ = _StoreCache.__qualname__ = "StoreCache"
    return _StoreCache


# -- building ------------------------------------------------------------------------------


def _cache_folder(cache_dir: Path, folder: Path) -> Path:
    """The folder of numba's cache ``cache_dir`` that holds the kernels of the
    source files in ``folder`` (numba's ``UserProvidedCacheLocator``)."""
    from numba.core.caching import _CacheLocator

    return cache_dir / _CacheLocator.get_suitable_cache_subpath(str(folder / "__init__.py"))


def collect(cache_dir: str | os.PathLike, root: str | os.PathLike, groups: list[str] | None = None) -> int:
    """Build the store ``root`` from numba's cache ``cache_dir`` (a
    ``NUMBA_CACHE_DIR`` in which the package's kernels have just been
    compiled, from this copy of the package): each kernel whose index is
    fresh for its source file and this numba goes in, stamped with the hash
    of the source's contents. The new store replaces any old one at once.
    Returns the number of kernels (index files) stored."""
    import numba
    from numba.core.caching import IndexDataCacheFile

    cache_dir, root = Path(cache_dir), Path(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    staging = root.with_name(f"{root.name}.new-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    stored = 0
    try:
        for folder in sorted({p.parent for p in PACKAGE.rglob("*.py")}):
            if staging in folder.parents or root in folder.parents or folder == root:
                continue
            cached = _cache_folder(cache_dir, folder)
            if not cached.is_dir():
                continue
            relative = folder.relative_to(PACKAGE).as_posix()
            for index in sorted(cached.glob("*.nbi")):
                base = index.name[: -len(".nbi")]
                source = folder / f"{base.split('.', 1)[0]}.py"
                if not source.is_file():
                    continue
                with open(index, "rb") as f:
                    version = pickle.load(f)
                    rest = f.read()
                if version != numba.__version__:
                    continue
                _, overloads = pickle.loads(rest)
                if not overloads:
                    continue
                target = staging / relative
                target.mkdir(parents=True, exist_ok=True)
                for name in overloads.values():
                    shutil.copyfile(cached / name, target / name)
                IndexDataCacheFile(str(target), base, source_stamp(str(source)))._save_index(overloads)
                stored += 1
        staging.mkdir(parents=True, exist_ok=True)
        about = {"numba": numba.__version__, "python": "%d.%d" % sys.version_info[:2], "kernels": stored,
                 "groups": groups or [], "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        try:
            from numba.core.registry import cpu_target

            about["cpu"] = cpu_target.target_context.codegen().magic_tuple()[1]
        except Exception:
            pass
        (staging / ABOUT).write_text(json.dumps(about, indent=1) + "\n")
        old = root.with_name(f"{root.name}.old-{os.getpid()}")
        if root.exists():
            os.replace(root, old)
        os.replace(staging, root)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return stored


def describe() -> list[tuple[Path, dict | None]]:
    """The stores a run reads, each with its description (None: not built)."""
    out = []
    for root in roots():
        try:
            about = json.loads((root / ABOUT).read_text())
        except (OSError, ValueError):
            about = None
        out.append((root, about))
    return out
