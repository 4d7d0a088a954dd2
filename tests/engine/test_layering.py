"""The engine knows nothing above it: no module of ``sudokit.engine`` imports
the packages built on it (not even inside a function), importing the engine
loads none of them, and the logic package's kernel groups reach the engine
by registering themselves."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import sudokit

ENGINE = Path(sudokit.__file__).parent / "engine"
#: The floors above the engine, which it must never import.
ABOVE = ("logic", "generation", "cli", "web", "pipeline", "pool", "batch", "distributed", "solving", "generating",
         "records", "pictures", "drawing", "svg", "bank")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in ``path``, at any depth,
    with importlib.import_module calls on a constant string."""
    package = "sudokit.engine"
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            if not node.module:  # from .. import x: x may be a module
                found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return found


def _above(module: str) -> bool:
    return any(module == f"sudokit.{floor}" or module.startswith(f"sudokit.{floor}.") for floor in ABOVE)


def test_no_engine_module_imports_a_floor_above_it() -> None:
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) > 5
    wrong = [f"{path.name}:{line}: {module}" for path in files for line, module in _imports(path) if _above(module)]
    assert wrong == []


def test_the_scan_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    """The scan itself: the kind of import the engine once made is caught."""
    sample = tmp_path / "sample.py"
    sample.write_text("def warm():\n    from ..logic import chains\n    from .. import generation\n")
    assert [m for _, m in _imports(sample) if _above(m)] == ["sudokit.logic", "sudokit.generation"]


def test_importing_the_engine_imports_nothing_above_it() -> None:
    """``python -X importtime -c "import sudokit.engine"`` lists no module of
    the packages above (the top package ``sudokit`` itself loads first, with
    the solving entry points it re-exports)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import sudokit.engine, sudokit.engine.compiling"],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    modules = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "sudokit.engine.compiling" in modules
    packages = ("logic", "generation", "cli", "web", "pipeline", "pictures")
    assert [m for m in modules if any(m == f"sudokit.{p}" or m.startswith(f"sudokit.{p}.") for p in packages)] == []


def test_the_logic_package_registers_its_kernel_groups() -> None:
    """The chain searches' groups are known once the logic package is imported,
    and a helper process that warms them up imports that package first."""
    code = ("import importlib\n"
            "c = importlib.import_module('sudokit.engine.compiling')  # the module (the package names a function so)\n"
            "before = sorted(g for g in ('producers', 'chains', 'nested') if g in c.KERNELS)\n"
            "import sudokit.logic\n"
            "after = sorted(g for g in ('producers', 'chains', 'nested') if g in c.KERNELS)\n"
            "print(before, after)\n"
            "print(c._warm_up_code(('logic', 'nested')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "[] ['chains', 'nested', 'producers']"
    assert lines[1].startswith("import sudokit.logic.kernel_groups; ")
    # the helper's code runs as it is: it warms the groups up (here from the cache, or compiling)
    check = lines[1].replace("warm_up(kernels=('logic', 'nested'))", "print(sorted(__import__('sys').modules"
                             "['sudokit.engine.compiling']._HOMES))")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['chains', 'cycles', 'nested', 'producers']"
