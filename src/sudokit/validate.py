"""One place that checks the values a user sets, for the Python API and the CLI alike.

Every function takes the raw value and the name to blame (``"timeout"`` in the
API, ``"--timeout"`` in the CLI), and returns the value in its canonical form
or raises :class:`~sudokit.errors.BadOption` (a :class:`SudokuError` and a
:class:`ValueError`) whose message names the option and what is wrong.

The rules:

* ``timeout``: a positive, finite number of seconds (``nan``, ``inf``, ``0``
  and negatives are refused); ``None`` means no limit.
* ``nodes`` (a node budget) and ``limit`` (a solution limit): a positive
  integer. A value above :data:`NO_LIMIT` (2**62, more than any search could
  reach) is clamped to it, which means "no limit" in practice, so ``2**70`` or
  ``99999999999999999999`` never overflow a compiled kernel (and never fall
  back to a command's default limit, as ``None`` would).
* ``seed``: an integer ``>= 0`` (booleans and fractions are refused).
* ``jobs``: ``0`` means every core; otherwise ``1`` up to :data:`MAX_JOBS`
  (4 x the cores, at least 8): more processes than that only cost memory.
* ``box``: ``RxC`` (box rows x box columns), such as ``3x3`` or ``2x3``; a bare
  number such as ``3`` is refused in every command, as it is ambiguous.
* ``symbols``: an alphabet spec such as ``0-F`` or ``GODAKCUBE``, with at least
  :data:`MIN_SYMBOLS` symbols.

>>> timeout(2.5)
2.5
>>> limit(2**70) == NO_LIMIT
True
>>> jobs(0) >= 1
True
>>> seed(-1)
Traceback (most recent call last):
...
sudokit.errors.BadOption: seed must be an integer >= 0, not -1
"""

from __future__ import annotations

import math
import numbers
import os
from typing import Any

from .errors import BadOption, SudokuError

#: The fewest symbols an alphabet may have: the smallest grid with boxes, 4x4.
MIN_SYMBOLS = 4

#: Solution and node limits above this are clamped to it: no search gets there.
NO_LIMIT = 2**62


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


#: The most worker processes a run may ask for: 4 x the cores, at least 8.
MAX_JOBS = max(8, 4 * _cores())


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _integer(value: Any, name: str, what: str) -> int:
    """``value`` as an int, refusing bools, fractions and text that is not a whole number."""
    if _is_int(value):
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    elif isinstance(value, float) and value.is_integer():
        return int(value)
    raise BadOption(f"{name} must be {what}, not {value!r}")


def timeout(value: Any, name: str = "timeout") -> float | None:
    """A time limit in seconds: positive and finite; None is no limit."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise BadOption(f"{name} must be a positive number of seconds, not {value!r}")
    try:
        seconds = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError, OverflowError):
        raise BadOption(f"{name} must be a positive number of seconds, not {value!r}") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise BadOption(f"{name} must be a positive, finite number of seconds, not {value!r}")
    return seconds


def _count(value: Any, name: str) -> int | None:
    if value is None:
        return None
    number = _integer(value, name, "a positive integer")
    if number < 1:
        raise BadOption(f"{name} must be a positive integer, not {value!r}")
    return min(number, NO_LIMIT)


def limit(value: Any, name: str = "limit") -> int | None:
    """A solution limit: a positive integer, at most NO_LIMIT; None is no limit."""
    return _count(value, name)


def nodes(value: Any, name: str = "nodes") -> int | None:
    """A node budget: a positive integer, at most NO_LIMIT; None is no limit."""
    return _count(value, name)


def seed(value: Any, name: str = "seed") -> int | None:
    """A random seed: an integer >= 0; None picks a fresh one later."""
    if value is None:
        return None
    number = _integer(value, name, "an integer >= 0")
    if number < 0:
        raise BadOption(f"{name} must be an integer >= 0, not {value!r}")
    return number


def count(value: Any, name: str = "count") -> int:
    """How many of something: an integer >= 0."""
    number = _integer(value, name, "an integer >= 0")
    if number < 0:
        raise BadOption(f"{name} must be an integer >= 0, not {value!r}")
    return number


def jobs(value: Any, name: str = "jobs") -> int:
    """Worker processes: 0 means every core; at most :data:`MAX_JOBS`."""
    if value is None:
        return 1
    number = _integer(value, name, f"an integer from 0 (every core) to {MAX_JOBS}")
    if number == 0:
        return _cores()
    if number < 0 or number > MAX_JOBS:
        raise BadOption(f"{name} must be from 0 (every core) to {MAX_JOBS} "
                        f"(4 x the {_cores()} cores, at least 8), not {value!r}")
    return number


def box(value: Any, name: str = "box") -> Any:
    """A box shape ``RxC`` as a :class:`~sudokit.grid.Shape`; a Shape or (R, C) passes through."""
    from .grid import Shape

    if value is None or isinstance(value, Shape):
        return value
    if isinstance(value, tuple) and len(value) == 2 and all(_is_int(v) for v in value):
        try:
            return Shape(*value)
        except SudokuError as exc:
            raise BadOption(f"{name}: {exc}") from None
    if not isinstance(value, str):
        raise BadOption(f"{name} must be a box shape RxC such as 3x3, not {value!r}")
    cleaned = value.strip().lower().replace("×", "x")
    if cleaned.isdigit():
        raise BadOption(f"{name} {value!r} is ambiguous: give RxC (box rows x box columns), "
                        f"e.g. 3x3 for 9x9 or 2x3 for 6x6")
    try:
        return Shape.parse(cleaned)
    except SudokuError as exc:
        raise BadOption(f"{name}: {exc}") from None


#: The smallest puzzle to make: 4x4. Smaller grids (1x2 and 1x3 boxes) are Latin squares that
#: a line of their symbols cannot be told from, and 1x1 holds nothing to solve.
MIN_SIZE = 4


def puzzle_shape(value: Any, name: str = "shape") -> Any:
    """A shape to make puzzles of (:func:`box`, or a size N): at least 4x4.

    >>> puzzle_shape("2x3")
    Shape(2, 3)
    >>> puzzle_shape("1x3")
    Traceback (most recent call last):
    ...
    sudokit.errors.BadOption: shape 1x3 makes 3x3 grids; the smallest puzzle is 4x4 (2x2 boxes)
    """
    from .grid import Shape

    given = value
    if _is_int(value):
        try:
            value = Shape.for_size(int(value))
        except SudokuError as exc:
            raise BadOption(f"{name}: {exc}") from None
    shape = box(value, name)
    if shape is not None and shape.size < MIN_SIZE:
        raise BadOption(f"{name} {given} makes {shape.size}x{shape.size} grids; the smallest puzzle is "
                        f"{MIN_SIZE}x{MIN_SIZE} (2x2 boxes)")
    return shape


def symbols(value: Any, name: str = "symbols") -> str | None:
    """An alphabet spec (``0-F``, ``1-9A-G``, ``GODAKCUBE``) as the string of its symbols."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadOption(f"{name} must be an alphabet such as 0-F or GODAKCUBE, not {value!r}")
    from .formats import parse_alphabet

    try:
        alphabet = parse_alphabet(value)
    except SudokuError as exc:
        raise BadOption(f"{name}: {exc}") from None
    if len(alphabet) < MIN_SYMBOLS:
        raise BadOption(f"{name} {value!r} has {len(alphabet)} symbol(s); an alphabet needs one per value, "
                        f"at least {MIN_SYMBOLS} (a 4x4 grid), e.g. 1-9 or 0-F")
    return alphabet


def puzzle_array(puzzles: Any, name: str = "puzzles") -> list:
    """A batch of puzzles as a list of Grids, with a located message for the first bad one.

    Accepts Grids, text (``"53..7...."``, any format :func:`formats.parse`
    reads), bytes, or value sequences; a single string is refused (it is one
    puzzle, not a batch).
    """
    from .errors import ParseError
    from .formats import as_grid

    if isinstance(puzzles, (str, bytes)):
        raise BadOption(f"{name} must be a sequence of puzzles, not one {type(puzzles).__name__} "
                        f"(wrap one puzzle in a list)")
    try:
        items = list(puzzles)
    except TypeError:
        raise BadOption(f"{name} must be a sequence of puzzles, not {type(puzzles).__name__}") from None
    out = []
    for i, item in enumerate(items, 1):
        try:
            out.append(as_grid(item))
        except ParseError as exc:
            raise exc.at(puzzle=i) from None
        except SudokuError as exc:
            raise type(exc)(f"puzzle {i}: {exc}") from None
    return out
