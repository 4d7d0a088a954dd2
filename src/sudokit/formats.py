"""Every text format in and out, and streams of many puzzles.

A puzzle can be written six ways (:data:`FORMATS`); a reader tells them apart
by itself. They all build on the grid's own line form
(:func:`sudokit.grid.read_line`, :meth:`Grid.line <sudokit.grid.Grid.line>`)
and the alphabets of :mod:`sudokit.symbols`. :func:`parse` reads exactly one puzzle, :func:`read_puzzles` reads a
stream lazily, one :class:`Entry` per puzzle, and never lets one bad puzzle
sink the others. :func:`render` writes a grid back.

How a stream is split:

- Blank lines, ``===`` rules and the end of input close a *block*; lines
  starting with ``#`` are comments.
- A line of more than 64 symbols (no row is that long), a JSON object or a
  CSV/TSV line puts the rest of the block in *line mode*: one puzzle per line.
  A line that is just ``{`` starts a pretty-printed JSON object, read up to
  the ``}`` line.
- A block whose lines are all whole small puzzles (4x4 to 8x8: 16 to 64 symbols) is
  in line mode too, unless it is square (N lines of N symbols below 16).
- Any other block is one grid: ``rows``, ``spaced``, ``boxed`` or
  ``candidates``, told apart by cells per line. A ``-----`` rule after a whole
  grid starts the solution (the classic block). Grids stacked without blank
  lines are split when the line count is a multiple of the row length.
- A block never holds more than ``2*64+4`` lines before it falls back to line
  mode, so memory stays flat and huge input is refused line by line.

In ``candidates``, a cell shows one symbol when it is filled, and ``.`` plus
its candidates when it is blank and has fewer than two (``.5``, or ``.`` for
none), so a pencil-mark grid reads back to the same givens.

>>> g = parse("..7.5....2.....3..4..8.6..9..4...6.3...5.1...1.9...4..9..6.3..1..2.....5....4.7..")
>>> g.clues
24
>>> print(render(g, "spaced").splitlines()[0])
. . 7 . 5 . . . .
>>> parse(render(g, "boxed")) == parse(render(g, "rows")) == g
True
>>> [e.number for e in read_puzzles(render(g) + "\\n" + render(g) + "\\n")]
[1, 2]
>>> parse_alphabet("0-F")
'0123456789ABCDEF'
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence, TextIO

from . import variants
from .errors import ParseError, ShapeError, SudokuError
from .grid import MAX_CELLS, MAX_LINE, MAX_SIZE, Grid, Shape, boxed_text, decode_utf8, read_line, shape_of
from .svg import grid_svg
from .symbols import SEPARATORS, alphabet_for, codec as codec_of, parse_alphabet  # noqa: F401  (parse_alphabet: re-exported)

#: The formats a reader accepts (and :func:`render` writes).
FORMATS = ("line", "rows", "spaced", "boxed", "candidates", "jsonl")

#: What each format records besides the values, so that reading it back needs no option:
#: ``"shape"``, a box shape other than the usual one for the size (``3x2``, ``4x3``), and
#: ``"units"``, a variant's units and a killer's cages. The rest is given again when reading
#: (``--box``, ``--variant``, ``--regions``, ``--cages``).
RECORDS: dict[str, frozenset[str]] = {
    "line": frozenset(), "rows": frozenset(), "spaced": frozenset(),
    "boxed": frozenset({"shape"}), "candidates": frozenset({"shape"}), "jsonl": frozenset({"shape", "units"}),
}

#: What :func:`render` writes: the text formats and an SVG picture.
RENDERINGS = FORMATS + ("svg",)

#: The longest line a stream may hold (characters). A longer one (a file with
#: no line breaks, ``/dev/zero``) is refused with a message naming its line,
#: and reading stops there: nothing is read into memory without bound.
MAX_RECORD = 1 << 20

_TEXT_CAP = 200  # how much raw text an Entry keeps
_BORDER_CHARS = frozenset("+-=.:|*'` ─│┼┌┐└┘├┤┬┴═║╔╗╚╝╠╣╦╩╬")
_BORDER_STRIP = "".join(sorted(_BORDER_CHARS))
_RULE = re.compile(r"(-{3,}|={3,}|─{3,}|═{3,})")
_TOKEN = re.compile(r"[^\s|│║]+")
_NOT_A_LINE = re.compile(r"[\s{|,;]")
#: A CSV/TSV header line, such as ``puzzle,solution``: skipped at the top of a stream.
HEADER = re.compile(r"^[A-Za-z_][A-Za-z_ ]*([,;\t][A-Za-z_ ]*)+$")


# -- one line ----------------------------------------------------------------


def _join_single_tokens(text: str) -> "str | None":
    """``'5 3 . . 7'`` -> ``'53..7'`` when every token is one symbol; else None."""
    tokens = text.replace("|", " ").split()
    if tokens and all(len(t) == 1 for t in tokens):
        return "".join(tokens)
    return None


def _parse_one_line(text: str, shape: "Shape | None", symbols: str | None, line: int | None) -> "tuple[Grid, Grid | None]":
    """A line of a stream in line mode: a JSON object or a line puzzle."""
    if len(text) > MAX_LINE:
        raise ParseError(
            f"a line of {len(text)} characters is far too long: the largest puzzle is "
            f"{MAX_SIZE}x{MAX_SIZE} = {MAX_CELLS} cells",
            line=line,
        )
    body = text.strip()
    col0 = len(text) - len(text.lstrip())
    if body.startswith("{"):
        return _parse_json(body, shape, symbols, line=line)
    if "," in body or ";" in body or "\t" in body:  # CSV/TSV: puzzle, then maybe its solution
        fields = [f.strip() for f in re.split(r"[,;\t]", body)]
        puzzle = read_line(fields[0], shape, symbols, line=line, col0=col0)
        solution = None
        if len(fields) > 1 and len(fields[1]) == len(fields[0]):
            try:
                solution = read_line(fields[1], puzzle.shape, symbols, line=line)
            except ParseError:
                solution = None
        return puzzle, solution
    if " " in body:
        joined = _join_single_tokens(body)
        if joined is not None:
            return read_line(joined, shape, symbols, line=line), None
        first = body.split()[0]
        return read_line(first, shape, symbols, line=line, col0=col0), None  # trailing fields: ratings etc.
    return read_line(body, shape, symbols, line=line, col0=col0), None


def _parse_json(text: str, shape: "Shape | None", symbols: str | None, *, line: int | None) -> "tuple[Grid, Grid | None]":
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        where = None if line is None else line + exc.lineno - 1
        raise ParseError(f"bad JSON: {exc.msg}", line=where, column=exc.colno) from None
    except RecursionError:
        raise ParseError("bad JSON: nested too deeply", line=line) from None
    if not isinstance(obj, dict) or not isinstance(obj.get("puzzle"), str):
        raise ParseError('a JSON line needs a "puzzle" string, such as {"puzzle": "53..7...."}', line=line)
    if shape is None and obj.get("shape") is not None:
        try:
            shape = shape_of(str(obj["shape"]))
        except ShapeError as exc:
            raise ParseError(f'bad "shape": {exc}', line=line) from None
    if symbols is None and isinstance(obj.get("symbols"), str):
        symbols = obj["symbols"]
    try:
        puzzle = read_line("".join(obj["puzzle"].split()), shape, symbols, line=line)
    except ParseError as exc:
        raise ParseError(f'"puzzle": {exc.reason}', line=line) from None
    try:
        geometry = variants.from_fields(puzzle.shape, obj)
    except variants.CageFieldError as exc:
        raise ParseError(f'"cages": {exc}', line=line) from None
    except (ShapeError, ValueError) as exc:
        raise ParseError(f'"variant"/"regions": {exc}', line=line) from None
    puzzle = puzzle.with_geometry(geometry)
    solution = None
    if isinstance(obj.get("solution"), str) and obj["solution"].strip():
        try:
            solution = read_line("".join(obj["solution"].split()), puzzle.shape, symbols, line=line)
        except ParseError as exc:
            raise ParseError(f'"solution": {exc.reason}', line=line) from None
        solution = solution.with_geometry(geometry)
    return puzzle, solution


# -- grids of several lines ----------------------------------------------------


def _is_border(text: str) -> bool:
    """``+-------+``, ``.----.``, ``|-----|``, ``=====``: a rule, not a row."""
    s = text.strip()
    return bool(s) and s[0] in _BORDER_CHARS and not s.strip(_BORDER_STRIP) and _RULE.search(s) is not None


def _is_dash_rule(text: str) -> bool:
    s = text.strip()
    return len(s) >= 3 and s[0] == "-" and not s.strip("- ")


def _is_eq_rule(text: str) -> bool:
    s = text.strip()
    return len(s) >= 3 and s[0] == "=" and not s.strip("=")


def _mode(counts: list[int]) -> int:
    return Counter(counts).most_common(1)[0][0] if counts else 0


Line = tuple[int, str]  # (line number, text)


def _split_solution(lines: list[Line]) -> tuple[list[Line], list[Line]]:
    """The classic block: the part before a ``-----`` rule, and the part after.

    A dash rule only splits when the rows above it already make a whole puzzle
    (otherwise it is a rule between bands of boxes).
    """
    rows = 0
    width = None
    for i, (_, text) in enumerate(lines):
        if _is_dash_rule(text):
            if width is not None and rows >= width:
                return lines[:i], lines[i + 1 :]
            continue
        if _is_border(text):
            continue
        rows += 1
        if width is None:
            tokens = _TOKEN.findall(text)
            width = len(tokens) if len(tokens) > 1 else len(text.strip())
    return lines, []


def _parse_grid(
    lines: list[Line],
    shape: "Shape | None",
    symbols: str | None,
    *,
    mode: str | None = None,
) -> "tuple[Grid, tuple[int, ...] | None]":
    """A puzzle written on several lines: rows, spaced, boxed or candidates.

    Returns the grid and, when cells list several candidates, the masks.
    """
    content = [(n, t.rstrip("\r\n")) for n, t in lines if t.strip() and not _is_border(t)]
    if not content:
        raise ParseError("no puzzle rows found", line=lines[0][0] if lines else None)
    first_line = content[0][0]
    for n, text in content:  # binary data: name the first odd byte, not a row count
        for k, ch in enumerate(text):
            if (ch < " " and ch != "\t") or ch == "\ufffd" or ch == "\x7f":
                raise ParseError(f"unexpected character {ch!r} (binary data?)", line=n, column=k + 1)
    if len(content) == 1 and mode in (None, "line", "spaced", "boxed"):
        n, text = content[0]
        body = text.strip()
        joined = _join_single_tokens(body)
        col0 = len(text) - len(text.lstrip())
        return read_line(joined if joined is not None else body, shape, symbols, line=n, col0=col0 if joined is None else 0), None
    tokens = [[(m.start(), m.group()) for m in _TOKEN.finditer(t)] for _, t in content]
    raw = [t.rstrip() for _, t in content]
    target = shape.size if shape is not None else len(content)
    n_tok = _mode([len(ts) for ts in tokens])
    n_cmp = _mode([sum(len(tok) for _, tok in ts) for ts in tokens])
    n_raw = _mode([len(r) for r in raw])
    if mode == "rows":
        kind, size = "raw", (shape.size if shape is not None else n_raw)
    elif mode in ("spaced", "boxed", "candidates"):
        if n_tok == target or mode == "candidates" or n_cmp != target:
            kind, size = "tokens", (shape.size if shape is not None else n_tok)
        else:
            kind, size = "compact", target
    elif n_tok == target and n_tok >= 2:
        kind, size = "tokens", target
    elif n_cmp == target:
        kind, size = "compact", target
    elif n_raw == target:
        kind, size = "raw", target
    elif n_tok >= 2:
        kind, size = "tokens", (shape.size if shape is not None else n_tok)
    else:
        kind, size = "raw", (shape.size if shape is not None else n_raw)
    if size < 1 or size > MAX_SIZE:
        raise ParseError(
            f"rows of {size} cells do not make a puzzle (sizes 1..{MAX_SIZE})", line=first_line
        )
    what = "characters" if kind != "tokens" else "cells"
    # one row per line, each N long
    for index, ((n, text), ts, r) in enumerate(zip(content, tokens, raw)):
        if index >= size:
            raise ParseError(
                f"{len(content)} rows; a {size}x{size} puzzle has only {size} (row {index + 1} is extra)", line=n
            )
        got = len(ts) if kind == "tokens" else sum(len(tok) for _, tok in ts) if kind == "compact" else len(r)
        if got != size:
            raise ParseError(f"row {index + 1} has {got} {what}, a {size}x{size} row needs {size}", line=n)
    if len(content) < size:
        raise ParseError(f"only {len(content)} rows; a {size}x{size} puzzle needs {size}", line=first_line)
    grid_shape = shape if shape is not None else _infer_shape(size, lines, content, tokens, kind)
    sample = "".join(t for _, t in content) if size == 16 else ""
    try:
        codec = codec_of(alphabet_for(size, symbols, sample))
    except ParseError as exc:
        raise ParseError(exc.reason, line=first_line) from None
    values: list[int] = []
    masks: list[int] = []
    pencil = False
    for (n, text), ts, r in zip(content, tokens, raw):
        if kind == "raw":
            values.extend(codec.values.get(ch, 0) for ch in r)
            continue
        if kind == "compact":
            for start, tok in ts:
                for k, ch in enumerate(tok):
                    values.append(codec.values.get(ch, 0))
            continue
        for start, tok in ts:
            if len(tok) == 1:
                v = codec.values.get(tok)
                if v is None:
                    raise ParseError(codec.bad_char(tok), line=n, column=start + 1)
                values.append(v)
                masks.append(1 << (v - 1) if v else 0)
                continue
            pencil = True
            body = tok[1:] if tok[0] == "." else tok
            mask = 0
            for k, ch in enumerate(body):
                v = codec.values.get(ch)
                if not v:
                    raise ParseError(
                        f"{codec.bad_char(ch)} (in the candidates {tok!r})",
                        line=n,
                        column=start + len(tok) - len(body) + k + 1,
                    )
                mask |= 1 << (v - 1)
            masks.append(mask)
            values.append(0)
    grid = Grid.unchecked(shape_of(grid_shape), tuple(values))
    return grid, (tuple(masks) if pencil else None)


def _infer_shape(size: int, lines: list[Line], content: list[Line], tokens: list, kind: str) -> Shape:
    """Read the box shape off ``|`` separators and border rules when they are there."""
    conventional = Shape.for_size(size)
    text = content[0][1]
    if not any(sep in text for sep in SEPARATORS) or kind == "raw":
        return conventional
    segments = [seg for seg in re.split(r"[|│║]", text) if seg.strip()]
    if not segments:
        return conventional
    first = segments[0]
    cols = len(first.split()) if kind == "tokens" else len("".join(first.split()))
    if cols < 1 or size % cols:
        return conventional
    rows = None
    count = 0
    started = False
    for _, t in lines:
        if not t.strip():
            continue
        if _is_border(t):
            if started:
                rows = count
                break
            continue
        started = True
        count += 1
    if rows is None or rows * cols != size:
        rows = size // cols
    try:
        return Shape(rows, cols)
    except ShapeError:
        return conventional


# -- streams -----------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a stream: where it was, what it said, and what came of it."""

    number: int
    line: int
    text: str
    grid: Grid | None
    error: ParseError | None
    solution: Grid | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _numbered(source: "TextIO | Iterable[str] | str") -> Iterator[Line]:
    if isinstance(source, (bytes, bytearray)):
        source = bytes(source).decode("utf-8", errors="replace")
    # a stream (not text already in memory) is read a bounded line at a time: a line
    # longer than MAX_RECORD is refused, by number, and reading stops there
    lines = bounded_lines(source) if hasattr(source, "readline") else source
    if isinstance(source, str):
        lines = io.StringIO(source, newline=None)
    number = 0
    for item in lines:
        if isinstance(item, bytes):
            item = item.decode("utf-8", errors="replace")
        if item.endswith("\n"):
            item = item[:-1]
        for part in item.split("\n") if "\n" in item else (item,):
            number += 1
            if number == 1 and part.startswith("\ufeff"):  # a byte-order mark is not text
                part = part[1:]
            yield number, part.rstrip("\r")


def bounded_lines(stream: "TextIO | Iterable[str]", cap: int = MAX_RECORD) -> Iterator[str]:
    """The lines of a text stream, each read with at most ``cap`` characters
    in memory; a longer line raises :class:`ParseError` naming its line.

    >>> import io
    >>> list(bounded_lines(io.StringIO("ab\\ncd")))
    ['ab\\n', 'cd']
    >>> list(bounded_lines(io.StringIO("x" * 10), cap=4))
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: line 1: too long: over 4 characters with no line break; reading stops here
    """
    readline = getattr(stream, "readline", None)
    if readline is None:  # a list or generator of lines: already in memory
        yield from stream
        return
    number = 0
    while True:
        line = readline(cap + 1)
        if not line:
            return
        number += 1
        if len(line) > cap and not line.endswith("\n"):
            raise ParseError(f"too long: over {cap} characters with no line break; reading stops here", line=number)
        yield line


def bounded_blocks(stream: "TextIO | Iterable[str]", size: int = 1 << 16, cap: int = MAX_RECORD) -> Iterator[str]:
    """The text of a stream in pieces of whole lines (each ends with a line
    break but the last), about ``size`` characters each: a big file is read
    at the speed of the disk, not a line at a time. A line longer than
    ``cap`` raises :class:`ParseError` naming its line, so nothing grows
    without bound. Only ``\\n`` ends a line (``\\r\\n`` too), not the other
    separators that :meth:`str.splitlines` would split on.

    >>> import io
    >>> list(bounded_blocks(io.StringIO("ab\\ncd\\nef"), size=4))
    ['ab\\n', 'cd\\n', 'ef']
    >>> list(bounded_blocks(io.StringIO("ok\\n" + "x" * 10), size=4, cap=6))
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: line 2: too long: over 6 characters with no line break; reading stops here
    """
    read = getattr(stream, "read", None)
    if read is None:  # lines already in memory
        yield from stream
        return
    rest = ""
    number = 1  # the line that `rest` starts
    while True:
        piece = read(size)
        if not piece:
            if rest:
                yield rest
            return
        text = rest + piece if rest else piece
        cut = text.rfind("\n")
        if cut < 0:
            rest = text
        else:
            number += text.count("\n", 0, cut + 1)
            rest = text[cut + 1:]
            yield text[:cut + 1]
        if len(rest) > cap:
            raise ParseError(f"too long: over {cap} characters with no line break; reading stops here",
                             line=number)


def _cap(text: str) -> str:
    return text if len(text) <= _TEXT_CAP else text[: _TEXT_CAP - 3] + "..."


_LOOKAHEAD = 2 * MAX_SIZE + 4
_JSON_LINES = 1000  # the most lines one pretty-printed JSON object may take


def _plain_token(text: str) -> "str | None":
    """The line as one whitespace-free token, or None."""
    s = text.strip()
    if not s or any(ch.isspace() for ch in s) or any(sep in s for sep in SEPARATORS):
        return None
    return s


def _line_puzzle_ok(text: str, shape: "Shape | None", symbols: str | None) -> bool:
    token = _plain_token(text)
    if token is None:
        return False
    count = len(token)
    if shape is None:
        root = math.isqrt(count)
        if root * root != count or root < 4 or count > MAX_CELLS:
            return False
    elif count != shape.cell_count:
        return False
    try:
        read_line(token, shape, symbols)
    except (ParseError, ShapeError):
        return False
    return True


def starts_line_mode(text: str, shape: "Shape | None" = None) -> bool:
    """True when ``text``, the first line of a puzzle, can only be a whole
    puzzle on one line (a data set, or one JSON object a line), never a row
    of a grid: then every later line is one puzzle too.

    >>> starts_line_mode("." * 81), starts_line_mode("1 2 3 4"), starts_line_mode('{"puzzle": "..."}')
    (True, False, True)
    """
    s = text.strip()
    if s.startswith("{") and s != "{":
        return True
    if not s or _is_border(s):
        return False
    token = _plain_token(s) or _plain_token(s.split()[0])
    if token is None:
        return False
    if shape is not None:
        return len(token) == shape.cell_count and shape.size > 1
    return len(token) > MAX_SIZE


def _row_width(text: str) -> int:
    tokens = _TOKEN.findall(text)
    return len(tokens) if len(tokens) > 1 else len(text.strip())


class _Reader:
    """Splits a stream into puzzles: lines (data sets), blocks, or framed blocks."""

    def __init__(self, source: "TextIO | Iterable[str] | str", shape: "Shape | None", symbols: str | None) -> None:
        self.lines = _numbered(source)
        self.shape = shape
        self.symbols = symbols
        self.comment = "#" not in (symbols or "")

    def items(self) -> "Iterator[tuple[int, str, Grid | None, ParseError | None, Grid | None]]":
        block: list[Line] = []
        line_mode = False
        first_content = True
        for n, text in self.lines:
            if len(text) > MAX_LINE:  # refuse at once, whatever the mode
                if block:
                    yield from self._flush(block)
                    block = []
                yield self._one_line(n, text)
                continue
            s = text.strip()
            if self.comment and s.startswith("#"):
                continue
            if first_content:
                first_content = False
                if HEADER.match(s):  # "puzzle,solution": a CSV/TSV header
                    continue
            if not s or _is_eq_rule(s):
                if block:
                    yield from self._flush(block)
                    block = []
                line_mode = False
                continue
            if s == "{":  # a pretty-printed JSON object (jq): read up to its closing brace
                if block:
                    yield from self._flush(block)
                    block = []
                yield self._json_object(n, text)
                line_mode = True
                continue
            if line_mode:
                if not _is_border(s):
                    yield self._one_line(n, text)
                continue
            if self._starts_line_mode(text):  # a data-set line: it cannot be a row of a grid
                if block:
                    yield from self._flush(block)
                    block = []
                line_mode = True
                yield self._one_line(n, text)
                continue
            block.append((n, text))
            if len(block) > _LOOKAHEAD:
                for m, t in block:
                    if not _is_border(t):
                        yield self._one_line(m, t)
                block = []
                line_mode = True
        if block:
            yield from self._flush(block)

    def _json_object(self, first: int, text: str):
        parts, size = [text], len(text)
        for _, more in self.lines:
            parts.append(more)
            size += len(more)
            if more.rstrip() == "}" or size > MAX_LINE or len(parts) > _JSON_LINES:
                break
        joined = "\n".join(parts)
        try:
            grid, solution = _parse_json(joined, self.shape, self.symbols, line=first)
            return first, joined, grid, None, solution
        except ParseError as exc:
            return first, joined, None, exc, None

    def _starts_line_mode(self, text: str) -> bool:
        return starts_line_mode(text, self.shape)

    def _one_line(self, n: int, text: str):
        try:
            grid, solution = _parse_one_line(text, self.shape, self.symbols, n)
            return n, text, grid, None, solution
        except ParseError as exc:
            return n, text, None, exc, None
        except ShapeError as exc:
            return n, text, None, ParseError(str(exc), line=n), None

    def _flush(self, block: list[Line]):
        content = [(n, t) for n, t in block if not _is_border(t)]
        if not content:
            return
        widths = [len(_plain_token(t) or "") for _, t in content]
        if all(_line_puzzle_ok(t, self.shape, self.symbols) for _, t in content):
            width = _mode(widths)
            if len(content) != width or width >= 16 or self.shape is not None:
                for n, t in content:
                    yield self._one_line(n, t)
                return
        if len(content) == len(block) and not any(sep in t for _, t in content for sep in SEPARATORS):
            # plain rows, no rules: maybe several grids stacked without blank lines
            size = _row_width(content[0][1])
            if (
                size >= 2
                and len(content) % size == 0
                and len(content) > size
                and (self.shape is None or self.shape.size == size)
                and all(_row_width(t) == size for _, t in content)
            ):
                for start in range(0, len(content), size):
                    yield self._block(content[start : start + size])
                return
        yield self._block(block)

    def _block(self, block: list[Line]):
        first = block[0][0]
        text = "\n".join(t for _, t in block)
        puzzle_lines, rest = _split_solution(block)
        try:
            grid, _ = _parse_grid(puzzle_lines, self.shape, self.symbols)
        except ParseError as exc:
            return first, text, None, exc, None
        except ShapeError as exc:
            return first, text, None, ParseError(str(exc), line=first), None
        solution = None
        if any(t.strip() and not _is_border(t) for _, t in rest):
            try:
                solution, _ = _parse_grid(rest, grid.shape, self.symbols)
            except (ParseError, ShapeError):
                solution = None  # a message such as "no solution"
        return first, text, grid, None, solution


def read_puzzles(
    source: "TextIO | Iterable[str] | str",
    *,
    shape: "Shape | str | None" = None,
    symbols: str | None = None,
) -> Iterator[Entry]:
    """Read every puzzle of a stream, lazily, one :class:`Entry` each.

    A stream may hold one puzzle per line (data sets), blocks of rows
    separated by blank lines, or blocks framed by ``===`` and ``---`` rules
    (puzzle, then solution). Lines starting with ``#`` are comments. A bad
    puzzle gives an entry whose ``error`` says where and what; reading goes on.

    >>> entries = list(read_puzzles("# two puzzles\\n" + "1" * 80 + "\\n" + "." * 81 + "\\n"))
    >>> [(e.number, e.line, e.grid is not None) for e in entries]
    [(1, 2, False), (2, 3, True)]
    >>> str(entries[0].error)
    'puzzle 1, line 2: 81 symbols expected for a 9x9 puzzle, got 80 (a puzzle has N² symbols; the other nearest size is 8x8 = 64)'
    """
    forced = shape_of(shape) if shape is not None else None
    reader = _Reader(source, forced, symbols)
    number = 0
    for line, text, grid, error, solution in reader.items():
        number += 1
        if error is not None:
            error = ParseError(error.reason, puzzle=number, line=error.line if error.line is not None else line, column=error.column)
        yield Entry(number, line, _cap(text), grid, error, solution)


def open_source(path: str) -> TextIO:
    """Open a puzzle file for reading (``-`` is standard input), as UTF-8.

    Bytes that are not UTF-8 become U+FFFD, so garbage is reported, not fatal.
    """
    if path == "-":
        stream = sys.stdin
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:  # same stream object: closing or collecting it stays harmless
            for options in ({"encoding": "utf-8-sig", "errors": "replace"}, {"errors": "replace"}):
                try:
                    reconfigure(**options)
                    break
                except Exception:  # already read from, or not a real text stream
                    continue
        return stream
    if os.path.isdir(path):
        raise SudokuError(f"{path}: is a directory, not a puzzle file")
    try:
        return open(path, encoding="utf-8-sig", errors="replace")
    except FileNotFoundError:
        raise SudokuError(f"{path}: no such file") from None
    except PermissionError:
        raise SudokuError(f"{path}: permission denied") from None
    except OSError as exc:
        raise SudokuError(f"{path}: cannot read ({exc.strerror or exc})") from None


# -- one puzzle ----------------------------------------------------------------


def parse(
    text: str,
    *,
    shape: "Shape | str | None" = None,
    symbols: str | None = None,
    format: str | None = None,
) -> Grid:
    """Read exactly one puzzle, in any format (detected unless ``format`` says).

    >>> parse("1.3..2.13....2..", shape="2x2").line()
    '1.3..2.13....2..'
    >>> parse("12.4.3.21..4..2\\n")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: line 1: 15 symbols is too short for a puzzle: the smallest, 4x4, has 16
    """
    forced = shape_of(shape) if shape is not None else None
    if text[:1] == "\ufeff":  # a byte-order mark is not text
        text = text[1:]
    if format is None or format == "line":
        body = text.strip()
        if body and len(body) <= MAX_LINE and _NOT_A_LINE.search(body) is None:
            col0 = 0 if len(body) == len(text) else len(text) - len(text.lstrip())
            return read_line(body, forced, symbols, line=1, col0=col0)
    if format is None:
        return _parse_auto(text, forced, symbols)
    if format == "line":
        if len(text) > MAX_LINE:
            raise ParseError(f"{len(text)} characters is far too long for one puzzle", line=1)
        return read_line("".join(text.split()), forced, symbols, line=1)
    if format == "jsonl":
        return _parse_json(text.strip(), forced, symbols, line=1)[0]
    if format == "candidates":
        return parse_candidates(text, shape=forced, symbols=symbols)[0]
    if format in ("rows", "spaced", "boxed"):
        lines = _content_lines(text, symbols)
        puzzle, _ = _split_solution(lines)
        return _parse_grid(puzzle, forced, symbols, mode=format)[0]
    raise ParseError(f"unknown format {format!r}; the formats are {', '.join(FORMATS)}")


def as_grid(puzzle: "Grid | str | bytes | Sequence[int]", shape: "Shape | str | None" = None) -> Grid:
    """A :class:`Grid` from what the public functions take: a Grid (as it
    is), text in any format (:func:`parse`), UTF-8 bytes of such text, or N²
    values (``Grid(values, shape)``).

    >>> as_grid("1 . | 3 .\\n. . | 2 .\\n----+----\\n1 3 | . .\\n. . | 2 .", shape="2x2").line()
    '1.3...2.13....2.'
    """
    if isinstance(puzzle, Grid):
        return puzzle
    if isinstance(puzzle, (bytes, bytearray, memoryview)):
        puzzle = decode_utf8(bytes(puzzle))
    if isinstance(puzzle, str):
        return parse(puzzle, shape=shape)
    return Grid(puzzle, shape)


def _content_lines(text: str, symbols: str | None) -> list[Line]:
    comment = "#" not in (symbols or "")
    out = []
    for n, t in _numbered(text):
        s = t.strip()
        if not s or _is_eq_rule(s) or (comment and s.startswith("#")):
            continue
        out.append((n, t))
    if not out:
        raise ParseError("no puzzle found: the text is empty")
    return out


def _parse_auto(text: str, shape: "Shape | None", symbols: str | None) -> Grid:
    first = None
    for line, _, grid, error, _ in _Reader(text, shape, symbols).items():
        if first is not None:
            raise ParseError(
                f"more than one puzzle here (the second starts on line {line}); "
                "parse reads exactly one, read_puzzles reads a stream",
                line=line,
            )
        first = (grid, error)
    if first is None:
        raise ParseError("no puzzle found: the text is empty")
    grid, error = first
    if error is not None:
        raise error
    assert grid is not None
    return grid


def parse_candidates(
    text: str,
    *,
    shape: "Shape | str | None" = None,
    symbols: str | None = None,
) -> tuple[Grid, tuple[int, ...]]:
    """Read a pencil-mark grid: the grid and per-cell candidate masks (bit v-1 for v).

    A cell that shows one symbol is a given; ``.`` followed by symbols is a
    blank cell with those candidates (``.5``: only 5 is left; ``.``: none).
    A plain puzzle (no cell lists candidates) gets the masks of its givens.

    >>> g = parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    >>> parse_candidates(render(g, "candidates"))[1] == g.candidate_masks()
    True
    """
    forced = shape_of(shape) if shape is not None else None
    lines = _content_lines(text, symbols)
    puzzle, _ = _split_solution(lines)
    grid, masks = _parse_grid(puzzle, forced, symbols, mode="candidates" if len(puzzle) > 1 else None)
    return grid, masks if masks is not None else grid.candidate_masks()


# -- writing -------------------------------------------------------------------


def _symbols_for(grid: Grid, symbols: str | None) -> str:
    n = grid.size
    if symbols:
        alphabet = parse_alphabet(symbols)
        if len(alphabet) < n:
            raise ShapeError(f"alphabet {alphabet!r} has {len(alphabet)} symbols; a {n}x{n} grid needs {n}")
        return alphabet[:n]
    return grid.shape.symbols


def _rows(grid: Grid, alphabet: str) -> list[list[str]]:
    cells = "." + alphabet
    n = grid.size
    values = grid.values
    return [[cells[v] for v in values[r * n : (r + 1) * n]] for r in range(n)]


def _candidate_cells(grid: Grid, alphabet: str, masks: "Sequence[int] | None" = None) -> list[list[str]]:
    n = grid.size
    if masks is None:
        masks = grid.candidate_masks()
    cells = []
    for r in range(n):
        row = []
        for c in range(n):
            cell = r * n + c
            v = grid.values[cell]
            if v:
                row.append(alphabet[v - 1])
                continue
            mask = masks[cell]
            text = "".join(alphabet[k] for k in range(n) if mask >> k & 1)
            row.append(text if len(text) > 1 else "." + text)
        cells.append(row)
    return cells


def render(grid: Grid, format: str = "line", *, symbols: str | None = None) -> str:
    """Write ``grid`` in one of :data:`FORMATS`, or ``"svg"``. No trailing newline.

    >>> g = Grid.empty((2, 2)).place(0, 0, 1)
    >>> print(render(g, "boxed"))
    +-----+-----+
    | 1 . | . . |
    | . . | . . |
    +-----+-----+
    | . . | . . |
    | . . | . . |
    +-----+-----+
    >>> render(g, "jsonl")
    '{"puzzle": "1..............."}'
    """
    if isinstance(grid, (bytes, bytearray)):
        grid = Grid(grid)
    elif isinstance(grid, str):  # text in any format is read first
        grid = parse(grid)
    elif not isinstance(grid, Grid):
        raise ParseError(f"render takes a Grid or the text of one, not {type(grid).__name__}")
    if format == "svg":
        return grid_svg(grid, symbols=symbols)
    alphabet = _symbols_for(grid, symbols)
    if format == "line":
        return grid.line(alphabet)
    if format == "rows":
        return "\n".join("".join(row) for row in _rows(grid, alphabet))
    if format == "spaced":
        return "\n".join(" ".join(row) for row in _rows(grid, alphabet))
    if format == "boxed":
        return boxed_text(_rows(grid, alphabet), grid.shape)
    if format == "candidates":
        return boxed_text(_candidate_cells(grid, alphabet), grid.shape)
    if format == "jsonl":
        obj: dict[str, str] = {"puzzle": grid.line(alphabet)}
        fields = variants.fields(grid.geometry)  # the shape when it is not the usual one, the units, the cages
        if "shape" in fields:
            obj["shape"] = fields.pop("shape")
        if symbols:
            obj["symbols"] = alphabet
        obj.update(fields)
        return json.dumps(obj)
    raise ParseError(f"unknown format {format!r}; the formats are {', '.join(RENDERINGS)}")


def render_marks(grid: Grid, masks: "Sequence[int]", *, symbols: str | None = None) -> str:
    """The pencil-mark grid of ``grid`` whose blank cells hold the candidates
    ``masks`` (bit k set: value k+1), as the ``candidates`` format writes it.

    >>> print(render_marks(Grid.empty((1, 2)).place(0, 0, 1), [0, 2, 3, 1]))
    +--------+
    | 1   .2 |
    +--------+
    | 12  .1 |
    +--------+
    """
    alphabet = _symbols_for(grid, symbols)
    return boxed_text(_candidate_cells(grid, alphabet, masks), grid.shape)


def render_block(
    puzzle: Grid,
    solution: Grid | None,
    *,
    symbols: str | None = None,
    message: str = "",
) -> str:
    """The classic program's block: the puzzle, a rule, the solution (or a message).

    >>> print(render_block(Grid.empty((1, 2)).place(0, 0, 1), None, message="no solution"))
    =====
    1 .
    . .
    -----
    no solution
    =====
    """
    width = 2 * puzzle.size + 1
    parts = ["=" * width, render(puzzle, "spaced", symbols=symbols), "-" * width]
    parts.append(render(solution, "spaced", symbols=symbols) if solution is not None else message)
    parts.append("=" * width)
    return "\n".join(parts)
