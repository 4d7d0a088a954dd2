"""The compiled tests of :mod:`sudokit.logic.pattern_kernels` (and the strong-link
search of :mod:`sudokit.logic.link_pattern_kernels`) are registered with the
producers' kernel group (so that ``sudoku warm-up`` and the kernel store compile them)
and the group's warm-up runs each one. How each agrees with its producer is tested
beside the producer (test_uniqueness.py, test_wings.py, test_links.py)."""

from __future__ import annotations

import pytest


def test_every_pattern_kernel_is_registered_and_warmed_up() -> None:
    pytest.importorskip("numba")
    import importlib

    from sudokit.logic import kernel_groups, link_pattern_kernels, pattern_kernels

    compiling = importlib.import_module("sudokit.engine.compiling")  # (the package names a function so)

    entries = compiling.KERNELS["producers"][1]
    modules = {"pattern_kernels": (pattern_kernels, ["unique_any", "value_words", "wing_sets", "wing_sizes", "xy_any"]),
               "link_pattern_kernels": (link_pattern_kernels, ["strong_links"])}
    for name, (module, expected) in modules.items():
        kernels = [k for k in module.__all__ if hasattr(getattr(module, k), "py_func")]
        assert sorted(kernels) == expected
        assert all(f"logic.{name}.{k}" in entries for k in kernels)
    kernel_groups.warm_producers()
    for module, expected in modules.values():
        assert all(getattr(module, k).signatures for k in expected)
    # and every entry of the group, the ones these tests stand before too (a registered
    # kernel the warm-up leaves out keeps the group from counting as compiled)
    for entry in entries:
        module, _, name = entry.rpartition(".")
        package = "sudokit.engine" if "." not in module else "sudokit"
        dispatcher = getattr(importlib.import_module(f"{package}.{module}"), name)
        assert dispatcher.signatures, entry


def test_value_words_are_the_value_boards() -> None:
    """The compiled value boards (two words a value) are the Python loop's, on a
    9x9 grid and on one of more than 64 cells spread over both words."""
    pytest.importorskip("numba")
    import numpy as np

    from sudokit.grid import Grid
    from sudokit.logic import Candidates, links
    from sudokit.logic.pattern_kernels import value_words

    for puzzle in ("4...9518.5.14..3.9...231..565..492..1425..89....12..54395..2...8769145..21435.9..",
                   "." * 81, "1" + "." * 80):
        state = Candidates.from_grid(Grid(puzzle))
        words = value_words(np.array(state.mask, dtype=np.int64), 9).tolist()
        assert tuple(lo | hi << 64 for lo, hi in words) == links.boards_of(list(state.mask), 9)
