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

__all__ = ["FORM", "Keyed", "KeyFunction", "keyed", "keyed_many"]

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
KeyFunction = Callable[[Sequence[Grid]], list[Keyed]]


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


def keyed_many(grids: Sequence[Grid]) -> list[Keyed]:
    """The keys of many puzzles."""
    return [keyed(grid) for grid in grids]
