"""sudokit's build backend: setuptools', and a kernel store in the wheel.

``pip install .`` builds a wheel, then installs it. This backend builds the
wheel with setuptools, then compiles sudokit's kernels from the wheel's own
files (``sudokit.warmup.build_store``, in the build environment, whose numba
and numpy it asks for) and adds them to the wheel as
``sudokit/_kernel_store/``: every later run on this machine reads them, even
with an empty ``NUMBA_CACHE_DIR`` (see ``sudokit.engine.kernel_store``).

* Editable installs (``pip install -e .``) are setuptools' own: no store, no
  numba in the build environment.
* ``SUDOKIT_KERNEL_STORE=off`` in the environment, or ``-C kernel-store=off``
  (``--config-settings``), builds a wheel without the store (a wheel for
  other machines: the store holds this machine's code, and numba ignores it
  elsewhere).
* If compiling fails, the wheel is built without the store (the reason on
  stderr), and the first runs compile as without it.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from setuptools import build_meta as _setuptools
# every other hook is setuptools' own
from setuptools.build_meta import (  # noqa: F401
    build_editable,
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

#: What compiling the store needs in the build environment (as the package's own dependencies).
STORE_REQUIRES = ["numpy>=1.26", "numba>=0.59"]
#: The store's folder inside the wheel.
STORE = "sudokit/_kernel_store"

_OFF = {"off", "0", "no", "false", "none"}


def _wanted(config_settings) -> bool:
    setting = (config_settings or {}).get("kernel-store", os.environ.get("SUDOKIT_KERNEL_STORE", ""))
    return str(setting).strip().lower() not in _OFF


def get_requires_for_build_wheel(config_settings=None):
    needs = list(_setuptools.get_requires_for_build_wheel(config_settings))
    return needs + STORE_REQUIRES if _wanted(config_settings) else needs


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    if _wanted(config_settings):
        start = time.perf_counter()
        try:
            stored = _add_store(Path(wheel_directory) / name)
            print(f"sudokit: {stored} kernels compiled into the wheel's kernel store in "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
        except Exception as exc:  # the wheel stays good without the store
            print(f"sudokit: the wheel has no kernel store ({exc})", file=sys.stderr)
    return name


def _add_store(wheel: Path) -> int:
    """Compile the kernels of the package in ``wheel`` and add them as its store."""
    with tempfile.TemporaryDirectory(prefix="sudokit-wheel-") as folder:
        unpacked = Path(folder) / "unpacked"
        with zipfile.ZipFile(wheel) as zf:
            zf.extractall(unpacked)
        store = Path(folder) / "store"
        # the wheel's files first, then the build environment's own path (numba, numpy)
        path = os.pathsep.join(p for p in (str(unpacked), os.environ.get("PYTHONPATH")) if p)
        env = dict(os.environ, PYTHONPATH=path, PYTHONDONTWRITEBYTECODE="1")
        env.pop("SUDOKIT_KERNEL_STORE", None)
        env.pop("NUMBA_CACHE_DIR", None)
        code = ("import sys\nfrom sudokit.warmup import build_store\n"
                "print(build_store(root=sys.argv[1])[1])\n")
        done = subprocess.run([sys.executable, "-c", code, str(store)], env=env, cwd=folder,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode:
            raise RuntimeError((done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1])
        _add_files(wheel, store, STORE)
        return int(done.stdout.split()[-1])


def _hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _add_files(wheel: Path, folder: Path, prefix: str) -> None:
    """Add the files under ``folder`` to ``wheel`` under ``prefix``, with their RECORD rows."""
    with zipfile.ZipFile(wheel) as old:
        infos = old.infolist()
        record = next(i.filename for i in infos if i.filename.endswith(".dist-info/RECORD"))
        ours = f"{prefix}/"  # anything already there (a store left in the source tree) is replaced
        rows = [row for row in csv.reader(io.StringIO(old.read(record).decode()))
                if row and row[0] != record and not row[0].startswith(ours)]
        staged = wheel.with_suffix(".tmp")
        with zipfile.ZipFile(staged, "w", zipfile.ZIP_DEFLATED) as new:
            for info in infos:
                if info.filename != record and not info.filename.startswith(ours):
                    new.writestr(info, old.read(info.filename))
            for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                data = path.read_bytes()
                name = f"{prefix}/{path.relative_to(folder).as_posix()}"
                new.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
                rows.append([name, _hash(data), str(len(data))])
            rows.append([record, "", ""])
            text = io.StringIO()
            csv.writer(text, lineterminator="\n").writerows(rows)
            new.writestr(record, text.getvalue())
    os.replace(staged, wheel)
