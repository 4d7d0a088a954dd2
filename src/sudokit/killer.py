"""Killer cages: the :class:`Cage` type, its checks, the digit sets that make each sum, and a text form.

A cage is a set of connected cells whose digits differ and add up to its
total (a cage with no total only asks that its digits differ). Cages are
not units of the geometry: they ride beside it, and the engine prunes with
:func:`sum_mask`, the union of the digit sets of each (size, total), which
for N up to 16 comes from a table made once per N. The text form is one
cage per line, its cells then ``=`` and the total, so a puzzle may have any
number of cages::

    # comments and blank lines are allowed
    r1c1 r1c2 r2c1 = 15
    r1c3 r1c4 = 9
    r5c5 r5c6            (a cage with no total)

>>> cages = parse_cages("r1c1 r1c2 = 3\\nr2c1, r2c2 = 7", 4)
>>> cages[0], render_cages(cages, 4)
(Cage(cells=(0, 1), total=3), 'r1c1 r1c2 = 3\\nr2c1 r2c2 = 7')
>>> [bin(m) for m in sum_sets(4, 2, 5)], bin(sum_mask(4, 2, 5))
(['0b110', '0b1001'], '0b1111')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from .errors import InvalidPuzzle, ParseError

#: The largest N whose (size, total) digit sets come from a table of all 2^N sets.
TABLE_MAX = 16


class CageError(InvalidPuzzle, ValueError):
    """Cages that cannot belong to a puzzle: ``cage`` is the 1-based number of the first bad one."""

    def __init__(self, message: str, cage: int | None = None) -> None:
        self.cage = cage
        super().__init__(message)


@dataclass(frozen=True, order=True)
class Cage:
    """A killer cage: its cells (0-based, sorted) and its total, or ``None`` for no sum.

    >>> Cage((10, 9), 7)
    Cage(cells=(9, 10), total=7)
    """

    cells: tuple[int, ...]
    total: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))

    def __len__(self) -> int:
        return len(self.cells)

    def name(self, n: int) -> str:
        """The cage as its text line: ``r1c1 r1c2 = 3``."""
        cells = " ".join(f"r{c // n + 1}c{c % n + 1}" for c in self.cells)
        return cells if self.total is None else f"{cells} = {self.total}"

    def allows(self, values: Sequence[int]) -> bool:
        """Whether the cage's values in a grid of N² values (0 = blank) keep its rules:
        no digit twice, and, once full, the total."""
        digits = [values[c] for c in self.cells if values[c]]
        if len(set(digits)) != len(digits):
            return False
        if self.total is None:
            return True
        if len(digits) == len(self.cells):
            return sum(digits) == self.total
        return sum(digits) < self.total


# -- checks ---------------------------------------------------------------------------


def check_cages(cages: Iterable[Cage], n: int) -> tuple[Cage, ...]:
    """The cages, checked for an N x N grid; raises :class:`CageError` naming the first fault.

    Each cage must have distinct cells inside the grid, connected
    orthogonally, no cell in two cages, and a total that different digits
    1..N can make with that many cells (a cage with no total still needs at
    most N cells).

    >>> check_cages([Cage((0, 1), 18)], 9)
    Traceback (most recent call last):
    ...
    sudokit.killer.CageError: cage 1 (r1c1 r1c2 = 18): 2 different digits of 1..9 add up to 3..17, not 18
    """
    cages = tuple(cages)
    owner: dict[int, int] = {}
    for number, cage in enumerate(cages, 1):
        where = f"cage {number}"
        if not cage.cells:
            raise CageError(f"{where} has no cells", number)
        outside = [c for c in cage.cells if not 0 <= c < n * n]
        if outside:
            raise CageError(f"{where}: cell {outside[0]} is outside the {n}x{n} grid", number)
        where = f"cage {number} ({cage.name(n)})"
        if len(set(cage.cells)) != len(cage.cells):
            twice = next(c for c in cage.cells if cage.cells.count(c) > 1)
            raise CageError(f"{where} lists {_cell(n, twice)} twice", number)
        size = len(cage.cells)
        if size > n:
            raise CageError(f"{where} has {size} cells, but only {n} different digits exist", number)
        if cage.total is not None:
            low, high = size * (size + 1) // 2, size * (2 * n - size + 1) // 2
            if not low <= cage.total <= high:
                raise CageError(f"{where}: {size} different digits of 1..{n} add up to {low}..{high}, not {cage.total}", number)
        apart = _apart(n, cage.cells)
        if apart is not None:
            raise CageError(f"{where} is not connected: {_cell(n, apart)} does not touch the cage's first cell", number)
        for c in cage.cells:
            if c in owner:
                raise CageError(f"{where}: {_cell(n, c)} is in cage {owner[c]} too", number)
            owner[c] = number
    return cages


def _apart(n: int, cells: Sequence[int]) -> int | None:
    """A cell not orthogonally connected to the first, or ``None``."""
    left = set(cells)
    stack = [cells[0]]
    left.discard(cells[0])
    while stack:
        r, c = divmod(stack.pop(), n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n and rr * n + cc in left:
                left.discard(rr * n + cc)
                stack.append(rr * n + cc)
    return min(left) if left else None


# -- the digit sets of each sum ---------------------------------------------------------


@lru_cache(maxsize=None)
def sum_table(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For an N x N grid (N ≤ 16): ``table[size][total]`` lists, as bit masks (bit ``d - 1``
    for digit ``d``), the sets of ``size`` different digits 1..N that add up to ``total``,
    ascending. Made once per N from all 2^N sets.

    >>> [bin(m) for m in sum_table(9)[3][7]]
    ['0b1011']
    """
    if not 1 <= n <= TABLE_MAX:
        raise ValueError(f"the sum table covers N = 1..{TABLE_MAX}, not {n}")
    top = n * (n + 1) // 2
    table = [[[] for _ in range(top + 1)] for _ in range(n + 1)]
    sums = [0] * (1 << n)
    sizes = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        rest = mask ^ low
        sums[mask] = sums[rest] + low.bit_length()
        sizes[mask] = sizes[rest] + 1
        table[sizes[mask]][sums[mask]].append(mask)
    table[0][0].append(0)
    return tuple(tuple(tuple(masks) for masks in row) for row in table)


def sum_sets(n: int, size: int, total: int) -> tuple[int, ...]:
    """The digit sets (bit masks) of ``size`` different digits 1..N adding up to ``total``.

    From :func:`sum_table` for N ≤ 16; computed on demand above that.
    """
    if size < 0 or size > n or total < 0:
        return ()
    if n <= TABLE_MAX:
        row = sum_table(n)[size]
        return row[total] if total < len(row) else ()
    return _sets(n, size, total)


@lru_cache(maxsize=4096)
def _sets(top: int, size: int, total: int) -> tuple[int, ...]:
    """Sets of ``size`` different digits from 1..``top`` adding up to ``total`` (any N)."""
    if size == 0:
        return (0,) if total == 0 else ()
    if total < size * (size + 1) // 2 or total > size * (2 * top - size + 1) // 2:
        return ()
    out = list(_sets(top - 1, size, total))  # without the digit `top`
    out += [m | 1 << (top - 1) for m in _sets(top - 1, size - 1, total - top)]
    return tuple(sorted(out))


def sum_mask(n: int, size: int, total: int | None) -> int:
    """The digits that can appear in a cage of ``size`` cells and ``total`` (all N digits for no total):
    the union of :func:`sum_sets`. This is what the engine prunes a cage's cells with."""
    if total is None:
        return (1 << n) - 1 if 0 < size <= n else 0
    mask = 0
    for digits in sum_sets(n, size, total):
        mask |= digits
    return mask


# -- text -------------------------------------------------------------------------------

_CELL = re.compile(r"r(\d+)c(\d+)", re.IGNORECASE)
_TOKEN = re.compile(r"[^\s,;=]+")


def parse_cages(text: str, n: int) -> tuple[Cage, ...]:
    """Read the cage list form (one cage per line: ``r1c1 r1c2 = 15``), checked.

    Cells are ``rNcM``, 1-based, separated by spaces or commas; ``= total``
    ends the line, and a line without it is a cage with no total. ``#``
    starts a comment. Errors are :class:`~sudokit.errors.ParseError` with
    the line and column, or :class:`CageError` for cages that cannot be.
    """
    cages = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0]
        if not line.strip():
            continue
        cells_part, eq, total_part = line.partition("=")
        total = None
        if eq:
            word = total_part.strip()
            if not word.isdigit():
                column = line.index("=") + 2 + (len(total_part) - len(total_part.lstrip()))
                raise ParseError(f"a cage's total is a whole number after '=', not {word!r}", line=number, column=column)
            total = int(word)
        cells = []
        for match in _TOKEN.finditer(cells_part):
            cell = _CELL.fullmatch(match.group())
            if not cell:
                raise ParseError(f"expected a cell such as r1c1, not {match.group()!r}", line=number, column=match.start() + 1)
            row, col = int(cell.group(1)), int(cell.group(2))
            if not (1 <= row <= n and 1 <= col <= n):
                raise ParseError(f"{match.group()} is outside the {n}x{n} grid", line=number, column=match.start() + 1)
            cells.append((row - 1) * n + col - 1)
        if not cells:
            raise ParseError("a cage line needs its cells before '='", line=number, column=1)
        if len(set(cells)) != len(cells):
            raise ParseError("a cage lists a cell twice", line=number)
        cages.append(Cage(tuple(cells), total))
    return check_cages(cages, n)


@lru_cache(maxsize=16)
def cages_for(text: str, n: int) -> tuple[Cage, ...]:
    """:func:`parse_cages`, cached: the cages of one ``--cages`` text for each size of puzzle in a stream."""
    return parse_cages(text, n)


def render_cages(cages: Iterable[Cage], n: int) -> str:
    """The cage list form of ``cages``, one per line, in the given order; :func:`parse_cages` reads it back."""
    return "\n".join(cage.name(n) for cage in cages)


def _cell(n: int, cell: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"
