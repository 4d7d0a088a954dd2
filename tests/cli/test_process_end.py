"""What a command's process costs beyond its work: the modules' bytecode
(written by ``sudoku warm-up``, so that no command compiles the package from
source) and the interpreter's last collection as it ends (skipped)."""

from __future__ import annotations

import os
import subprocess
import sys

from sudokit.warmup import write_bytecode

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_after_write_bytecode_no_module_of_the_package_compiles_from_source() -> None:
    """With ``PYTHONDONTWRITEBYTECODE`` set (nothing written as it runs), importing the rating
    compiles none of the package's modules: each comes from the bytecode written before."""
    assert write_bytecode()
    code = ("import importlib._bootstrap_external as b, sys\n"
            "seen = []\n"
            "orig = b.SourceLoader.source_to_code\n"
            "def source_to_code(self, data, path, *a, **k):\n"
            "    seen.append(path)\n"
            "    return orig(self, data, path, *a, **k)\n"
            "b.SourceLoader.source_to_code = source_to_code\n"
            "import sudokit.logic, sudokit.logic.nested, sudokit.cli.explain, sudokit.pipeline\n"
            "print(len([p for p in seen if 'sudokit' in p]), len(sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 0, done.stderr
    compiled, modules = map(int, done.stdout.split())
    assert compiled == 0 and modules > 100


def test_the_last_collection_is_skipped_as_the_command_ends() -> None:
    """After ``main`` returns, the process's objects are moved out of the collector's sight only
    as the interpreter ends (a handler run before the interpreter's own last collection); the
    command's output is whole."""
    code = ("import atexit, gc, sys\n"
            "atexit.register(lambda: print('at exit', gc.get_freeze_count() > 0))\n"
            "from sudokit.cli import main\n"
            "code = main(['solve', '--format', 'line', '-'])\n"
            "print('after main', gc.get_freeze_count())\n"
            "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", code], input=PUZZLE + "\n", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    solution, after, at_exit = done.stdout.splitlines()
    assert len(solution) == 81 and all(g == "." or g == s for g, s in zip(PUZZLE, solution))
    assert all(len(set(solution[9 * r:9 * r + 9])) == 9 for r in range(9))
    assert after == "after main 0" and at_exit == "at exit True"
