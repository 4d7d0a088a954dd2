"""The bank's key: the one place that turns a puzzle into its canonical form.

Two puzzles are the same puzzle for the bank when one is the other rotated,
reflected, with bands, stacks, rows in a band or columns in a stack swapped,
or with its digits relabelled (for a variant, only the symmetries that keep
its units, see :mod:`sudokit.canon`). The key is the canonical form of the
puzzle: the ``patminlex`` form (:data:`FORM`), the faster of sudokit's two
canonical forms; both tell equivalent puzzles alike. A variant's key also
carries its units as the canonical form placed them, and any shape but 9x9
is named in front, so a key names one class of one kind of puzzle.

:func:`keyed` is what the rest of the bank calls; tests may pass another
``key`` function to :class:`sudokit.bank.Bank`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..grid import Grid

__all__ = ["FORM", "Keyed", "KeyFunction", "kernel_columns", "kernel_texts", "key_bytes", "keyed", "keyed_many"]

#: The canonical form that keys a bank (kept in its ``meta`` table).
FORM = "patminlex"


@dataclass(frozen=True)
class Keyed:
    """A puzzle's key, the transformation from the puzzle to its canonical
    form (text, as :mod:`sudokit.canon` writes it), and its automorphism count."""

    key: str
    transform: str | None = None
    automorphisms: int | None = None


#: What :class:`~sudokit.bank.Bank` calls to key a batch of puzzles.
KeyFunction = Callable[..., list[Keyed]]


def _kind(grid: Grid, canon_grid: Grid) -> str:
    """What must stand beside the canonical line: the shape (if not 9x9) and the units."""
    prefix = "" if grid.shape.box_rows == grid.shape.box_cols == 3 else f"{grid.shape}|"
    if not grid.is_variant:
        return prefix
    from .. import variants

    fields = variants.fields(canon_grid.geometry)
    return f"{prefix}{json.dumps(fields, sort_keys=True, separators=(',', ':'))}|"


def _transform_text(transform: Any) -> str | None:
    """The transformation in its text form (:class:`sudokit.canon.Transform`'s ``str``)."""
    return None if transform is None else str(transform)


def keyed(grid: Grid) -> Keyed:
    """The key of one puzzle."""
    from .. import canonical

    canon = canonical(grid, form=FORM)
    return Keyed(_kind(grid, canon.grid) + canon.line, _transform_text(canon.transform),
                 getattr(canon, "automorphisms", None))


def keyed_many(grids: Sequence[Grid], values: Any = None) -> list[Keyed]:
    """The keys of many puzzles: classic 9x9 ones in one call of the compiled
    canonical search (:mod:`sudokit.canon.kernel`), the others one by one.
    ``values``: when every grid is a classic 9x9 one, their values as an array
    (P x 81), if the caller has it."""
    out: list[Keyed | None] = [None] * len(grids)
    bulk = [i for i, g in enumerate(grids) if not g.is_variant and g.shape.box_rows == g.shape.box_cols == 3]
    if len(bulk) > 1:
        given = values if values is not None and len(bulk) == len(grids) else None
        for i, k in zip(bulk, _kernel_keys([grids[i] for i in bulk], given)):
            out[i] = k
    return [k if k is not None else keyed(grids[i]) for i, k in enumerate(out)]


def _kernel_keys(grids: Sequence[Grid], values: Any = None) -> list[Keyed | None]:
    """Classic 9x9 puzzles keyed by the compiled search (None where it left one to the Python search)."""
    import numpy as np

    if values is None:
        values = np.array([g.values for g in grids], dtype=np.uint8)
    got = kernel_columns(values)
    if got is None:  # no numba: the Python search
        return [None] * len(grids)
    keys, moves, counted = got
    return [None if counted[i] < 0 else Keyed(keys[i], moves[i], counted[i]) for i in range(len(keys))]


def kernel_columns(values: Any) -> tuple[list[str], list[str], list[int]] | None:
    """The keys, transformations (text) and automorphism counts of classic 9x9
    puzzles (``values``: P x 81, 0 for a blank) in one call of the compiled
    search, as lists; a count of -1 where it left a puzzle to the Python search
    (:func:`keyed`). None without numba."""
    try:
        from ..canon import kernel
    except ImportError:
        return None
    forms, transforms, counts = kernel.canonicalise(values, kernel.PATMINLEX if FORM == "patminlex"
                                                    else kernel.MINLEX)
    keys, moves = kernel_texts(forms, transforms)
    return keys, moves, counts.tolist()


def kernel_texts(forms: Any, transforms: Any) -> tuple[list[str], list[str]]:
    """The keys and the transformations' text of the compiled search's ``forms``
    and ``transforms`` (rows of its arrays), as lists."""
    import numpy as np

    n = len(forms)
    lines = key_bytes(forms).decode("ascii") if n else ""
    # the transformation's text, as str(Transform) writes it: "t:rows:cols:digits", a digit per entry
    text = np.full((n, 31), ord(":"), dtype=np.uint8)
    text[:, 0] = transforms[:, 0] + ord("0")
    text[:, 2:11] = transforms[:, 1:10] + ord("0")
    text[:, 12:21] = transforms[:, 10:19] + ord("0")
    text[:, 22:31] = transforms[:, 19:28] + ord("0")
    moves = text.tobytes().decode("ascii")
    return [lines[i:i + 81] for i in range(0, 81 * n, 81)], [moves[i:i + 31] for i in range(0, 31 * n, 31)]


def key_bytes(forms: Any) -> bytes:
    """The keys of 9x9 canonical forms (or any 9x9 grids: P x 81 values, uint8, 0..9), 81
    bytes each, one after another: "." for a blank, the digits for the rest."""
    return forms.tobytes().translate(_CHARS)


#: A value's character in a line (values 0..9 as bytes to ".123456789").
_CHARS = bytes.maketrans(bytes(range(10)), b".123456789")
