"""Text formats in and out. (Bootstrap version: line format only; the full
reader and writer replace this module.)"""

from __future__ import annotations

from .errors import ParseError
from .grid import Grid, Shape, shape_of

FORMATS = ("line",)


def parse(text: str, shape: "Shape | str | None" = None, symbols: str | None = None, format: str | None = None) -> Grid:
    body = "".join(text.split())
    try:
        s = shape_of(shape, len(body)) if shape is not None else shape_of(None, len(body))
    except Exception as exc:
        raise ParseError(str(exc)) from None
    alphabet = symbols or s.symbols
    values = []
    for i, ch in enumerate(body):
        if ch in ".0":
            values.append(0)
        elif ch in alphabet:
            values.append(alphabet.index(ch) + 1)
        else:
            raise ParseError(f"unexpected character {ch!r}", column=i + 1)
    return Grid._trusted(s, tuple(values))


def render(grid: Grid, format: str = "line", symbols: str | None = None) -> str:
    return grid.line(symbols)
