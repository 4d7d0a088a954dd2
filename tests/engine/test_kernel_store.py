"""The kernel store (sudokit.engine.kernel_store): a run with an empty
``NUMBA_CACHE_DIR`` loads the kernels a store holds without compiling them;
a store built for other source or another numba, or turned off, is a miss and
the run compiles as without it. The store here holds one small group (the
9x9 solver, ``count``), built from a copy of the package in another folder,
as ``pip install .`` builds it from the wheel's files before installing them."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import pickle
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
BUILDSYS = Path(__file__).resolve().parents[2] / "buildsys"

#: Solves the diabolical example with the engine (the 9x9 solver's kernels), and prints
#: what numba compiled, whether the solution is right, the kind of the kernel's cache,
#: its loads from a cache and whether the compiling module counts it as cached first.
SOLVE = """
from numba.core import event
from sudokit.engine.compiling import load_numba, is_cached
load_numba()
compiled = []
class Listen(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data['dispatcher'].py_func.__name__)
    def on_end(self, ev):
        pass
event.register('numba:compile', Listen())
cached = is_cached('kernel9.resume9')
import sudokit
from sudokit.engine import kernel9
grid = sudokit.examples.example('diabolical')
right = sudokit.solve(grid).solution.is_solution_of(grid)
print(sorted(set(compiled)))
print(right, type(kernel9.resume9._cache).__name__, sum(kernel9.resume9._cache_hits.values()), cached)
"""


def _run(code: str, cache: Path, store: str, *args: str, **more: str) -> list[str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), SUDOKIT_KERNEL_STORE=store, PYTHONPATH=str(SRC), **more)
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    """A store of the ``count`` group, built from a copy of the package elsewhere."""
    base = tmp_path_factory.mktemp("store")
    copy = base / "copy"
    shutil.copytree(SRC / "sudokit", copy / "sudokit",
                    ignore=shutil.ignore_patterns("__pycache__", "_kernel_store*", "*.nbi", "*.nbc"))
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1",
               SUDOKIT_KERNEL_STORE=str(base / "kernels"))
    env.pop("NUMBA_CACHE_DIR", None)
    code = "import sys; from sudokit.cli import main; sys.argv[0] = 'sudoku'; main()"
    done = subprocess.run([sys.executable, "-c", code, "warm-up", "--store", "-j", "1", "count"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    said = done.stderr.strip().splitlines()[-1]
    assert said.startswith("stored ") and f" kernels in {base / 'kernels'} in " in said, said
    assert int(said.split()[1]) >= 1
    # the store was built in its own folder: the copy's tree holds no kernel
    assert not [p for p in copy.rglob("*") if p.suffix in (".nbi", ".nbc")]
    return base / "kernels"


def test_an_empty_numba_cache_loads_the_stored_kernels_without_compiling(store, tmp_path) -> None:
    compiled, state = _run(SOLVE, tmp_path, str(store))
    assert compiled == "[]"
    right, kind, hits, cached = state.split()
    assert (right, kind, cached) == ("True", "StoreCache", "True") and int(hits) >= 1
    # the store is only read: the run wrote no kernel anywhere
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]
    assert not [p for p in store.rglob("*") if p.stat().st_mtime > store.joinpath("store.json").stat().st_mtime]


def _restamp(store: Path, tmp_path: Path, *, version: str | None = None, stamp: bytes | None = None) -> Path:
    """A copy of ``store`` whose indexes say another numba ``version`` built
    them, or from source whose hash is ``stamp``."""
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    for index in copy.rglob("*.nbi"):
        with open(index, "rb") as f:
            old_version = pickle.load(f)
            old_stamp, overloads = pickle.loads(f.read())
        with open(index, "wb") as f:
            pickle.dump(version or old_version, f, protocol=-1)
            f.write(pickle.dumps((stamp or old_stamp, overloads), protocol=-1))
    return copy


def test_a_store_of_another_numba_is_a_miss_and_the_run_compiles(store, tmp_path) -> None:
    other = _restamp(store, tmp_path, version="0.0.1")
    compiled, state = _run(SOLVE, tmp_path / "cache", str(other))
    assert "resume9" in compiled
    assert state.split()[0] == "True" and state.split()[3] == "False"


def test_a_store_of_other_source_or_for_another_cpu_is_a_miss(store, tmp_path) -> None:
    """Kernels stored for a source file of other contents, or another CPU,
    are not loaded (the check alone: the compilation that follows is the one
    above)."""
    other = _restamp(store, tmp_path, stamp=hashlib.sha256(b"other source").digest())
    check = ("from sudokit.engine.compiling import load_numba, is_cached\nload_numba()\n"
             "from sudokit.engine import kernel9\n"
             "print(is_cached('kernel9.resume9'), type(kernel9.resume9._cache).__name__,"
             " len(kernel9.resume9._cache.store_index()))\n")
    assert _run(check, tmp_path / "cache", str(other)) == ["False StoreCache 0"]
    assert _run(check, tmp_path / "cache", str(store))[0].split()[0] == "True"
    # nor are kernels stored for another CPU (numba's key names the CPU it compiled for)
    assert _run(check, tmp_path / "cache", str(store), NUMBA_CPU_NAME="generic")[0].split()[0] == "False"


def test_the_store_turned_off_is_not_read(store, tmp_path) -> None:
    check = ("from sudokit.engine.compiling import load_numba, is_cached\nload_numba()\n"
             "from sudokit.engine import kernel9\n"
             "print(is_cached('kernel9.resume9'), type(kernel9.resume9._cache).__name__)\n")
    check = ("from sudokit.engine.compiling import load_numba, is_cached\nload_numba()\n"
             "from sudokit.engine import kernel9, kernel_store\n"
             "cache = kernel9.resume9._cache\n"
             "print(is_cached('kernel9.resume9'), cache.store_index() == {},"
             " cache._cache_file._source_stamp[1] == kernel_store.kernel_sources())\n")
    assert _run(check, tmp_path, "off") == ["False True True"]
    # a store folder that does not exist: numba's own cache alone too (stamped with all the kernel sources)
    assert _run(check, tmp_path, str(tmp_path / "nothing")) == ["False True True"]


def test_a_change_to_another_kernel_source_makes_the_kernels_stale(store, tmp_path) -> None:
    """A kernel compiles in the kernels it calls from other files, so a change
    to any kernel source is a miss for every stored kernel; a change to a file
    without kernels is not."""
    copy = tmp_path / "copy"
    shutil.copytree(SRC / "sudokit", copy / "sudokit",
                    ignore=shutil.ignore_patterns("__pycache__", "_kernel_store*", "*.nbi", "*.nbc"))
    check = ("from sudokit.engine.compiling import load_numba, is_cached\nload_numba()\n"
             "from sudokit.engine import kernel9\n"
             "print(is_cached('kernel9.resume9'), len(kernel9.resume9._cache.store_index()))\n")

    def cached() -> str:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), SUDOKIT_KERNEL_STORE=str(store),
                   PYTHONPATH=str(copy))
        done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()[0]

    assert cached() == "True"
    with open(copy / "sudokit" / "cli" / "__init__.py", "a") as f:
        f.write("\n# a change outside the kernels\n")
    assert cached() == "True"
    with open(copy / "sudokit" / "logic" / "chain_kernels.py", "a") as f:
        f.write("\n# a change to another file's kernels\n")
    assert cached() == "False"


def test_warm_up_lists_the_store(store, tmp_path) -> None:
    code = "import sys; from sudokit.cli import main; sys.argv = ['sudoku', 'warm-up', '--list']; main()"
    listed = _run(code, tmp_path, str(store))
    assert any(line.startswith("count") and "compiled" in line for line in listed)
    assert f"kernel store: {store} (" in listed[-1] and "numba" in listed[-1]
    assert _run(code, tmp_path, "off")[-1] == "kernel store: off (SUDOKIT_KERNEL_STORE)"


def test_building_a_store_turned_off_is_refused(tmp_path) -> None:
    """``warm-up --store`` with the store off builds nothing anywhere and says why (status 2)."""
    copy = tmp_path / "copy"
    shutil.copytree(SRC / "sudokit", copy / "sudokit",
                    ignore=shutil.ignore_patterns("__pycache__", "_kernel_store*", "*.nbi", "*.nbc"))
    env = dict(os.environ, PYTHONPATH=str(copy), SUDOKIT_KERNEL_STORE="off", NUMBA_CACHE_DIR=str(tmp_path / "c"))
    code = "import sys; from sudokit.cli import main; sys.argv[0] = 'sudoku'; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", code, "warm-up", "--store", "count"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and "the kernel store is off (SUDOKIT_KERNEL_STORE=off)" in done.stderr
    assert "Traceback" not in done.stderr and "compiling" not in done.stderr
    assert not (copy / "sudokit" / "_kernel_store").exists()


# -- the build backend ---------------------------------------------------------------------


@pytest.fixture
def backend(monkeypatch):
    monkeypatch.chdir(BUILDSYS.parent)  # setuptools' hooks read the project's pyproject.toml
    monkeypatch.syspath_prepend(str(BUILDSYS))
    import sudokit_build

    return sudokit_build


def test_the_wheel_gets_the_store_with_its_record(backend, tmp_path) -> None:
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("demo/__init__.py", "x = 1\n")
        zf.writestr("demo/_kernel_store/old.nbi", "stale")
        zf.writestr("demo-1.0.dist-info/RECORD", "demo/__init__.py,sha256=abc,6\ndemo/_kernel_store/old.nbi,"
                    "sha256=def,5\ndemo-1.0.dist-info/RECORD,,\n")
    files = tmp_path / "files"
    (files / "engine").mkdir(parents=True)
    (files / "engine" / "k.nbi").write_bytes(b"\x00index")
    (files / "store.json").write_text("{}\n")
    backend._add_files(wheel, files, "demo/_kernel_store")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        rows = list(csv.reader(io.StringIO(zf.read("demo-1.0.dist-info/RECORD").decode())))
        for name, digest, size in rows:
            if digest:
                data = zf.read(name) if name != "demo/__init__.py" else None
                if data is not None:
                    expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                    assert (digest, size) == (f"sha256={expected}", str(len(data)))
    assert sorted(names) == ["demo-1.0.dist-info/RECORD", "demo/__init__.py", "demo/_kernel_store/engine/k.nbi",
                             "demo/_kernel_store/store.json"]
    assert [r[0] for r in rows] == ["demo/__init__.py", "demo/_kernel_store/engine/k.nbi",
                                    "demo/_kernel_store/store.json", "demo-1.0.dist-info/RECORD"]


def test_only_a_wheel_build_asks_for_numba(backend, monkeypatch) -> None:
    monkeypatch.delenv("SUDOKIT_KERNEL_STORE", raising=False)
    assert "numba>=0.59" in backend.get_requires_for_build_wheel()
    assert not any(r.startswith("numba") for r in backend.get_requires_for_build_editable())
    assert backend.build_editable is backend._setuptools.build_editable
    assert not any(r.startswith("numba") for r in backend.get_requires_for_build_wheel({"kernel-store": "off"}))
    monkeypatch.setenv("SUDOKIT_KERNEL_STORE", "off")
    assert not any(r.startswith("numba") for r in backend.get_requires_for_build_wheel())
