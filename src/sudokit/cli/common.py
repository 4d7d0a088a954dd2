"""What every ``sudoku`` subcommand shares: option parsing, input, output, progress.

Nothing here solves anything. Option callbacks turn text into domain values
(a :class:`~sudokit.grid.Shape`, an alphabet, a method name) and turn every
:class:`~sudokit.errors.SudokuError` into a click usage error (exit status 2)
that names the option and what is wrong with it.

>>> box_option(None, None, "2x3")
Shape(2, 3)
>>> box_option(None, None, None) is None
True
"""

from __future__ import annotations

import importlib.util
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any, Iterable, Iterator, TextIO

import click

from ..errors import ParseError, SudokuError
from ..grid import Grid, Shape

#: Exit statuses shared by every command.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

#: The longest piece of raw input echoed back in a message or record.
ECHO_LIMIT = 120


# -- option callbacks -----------------------------------------------------------


def box_option(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> Shape | None:
    """``--box RxC``: box rows by box columns (``3x3``, ``2x3``, ``4x4``...)."""
    if value is None:
        return None
    try:
        return Shape.parse(value)
    except SudokuError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def symbols_option(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """``--symbols SPEC``: an alphabet such as ``0-F``, ``1-9A-G`` or ``GODAKCUBE``."""
    if value is None:
        return None
    try:
        return parse_alphabet(value)
    except SudokuError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def method_option(ctx: click.Context | None, param: click.Parameter | None, value: str) -> str:
    """``--method NAME``: a registered method whose module is installed."""
    from ..methods import available, get

    try:
        spec = get(value)
    except SudokuError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    if not module_exists(spec.module):
        ready = ", ".join(sorted(name for name, s in available().items() if module_exists(s.module)))
        raise click.BadParameter(
            f"method {value!r} is not available in this installation ({spec.module} is missing); "
            f"available: {ready}",
            ctx=ctx, param=param,
        )
    return value


def module_exists(name: str) -> bool:
    """True when the module ``name`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def methods_help() -> str:
    """The registered method names, for ``--help`` texts."""
    from ..methods import available, get

    return ", ".join(sorted(available()))


# -- input -------------------------------------------------------------------------


def parse_alphabet(spec: str) -> str:
    """An alphabet spec (``0-F``, ``GODAKCUBE``) as the string of its symbols."""
    from .. import formats

    reader = getattr(formats, "parse_alphabet", None)
    if reader is not None:
        return reader(spec)
    return _bootstrap_alphabet(spec)  # BOOTSTRAP: remove once formats.parse_alphabet lands


@dataclass
class Entry:
    """One puzzle read from a stream (the same fields as ``formats.Entry``)."""

    number: int
    line: int
    text: str
    grid: Grid | None
    error: ParseError | None
    solution: Grid | None = None


def read_puzzles(
    source: TextIO | Iterable[str], *, shape: Shape | None = None, symbols: str | None = None
) -> Iterator[Any]:
    """Every puzzle of ``source``, lazily; bad puzzles come as entries with ``error`` set."""
    from .. import formats

    reader = getattr(formats, "read_puzzles", None)
    if reader is not None:
        return reader(source, shape=shape, symbols=symbols)
    return _bootstrap_read(source, shape, symbols)  # BOOTSTRAP: remove once formats.read_puzzles lands


@contextmanager
def open_input(path: str) -> Iterator[TextIO]:
    """The text stream of ``path`` (``-`` is standard input), closed afterwards."""
    from .. import formats

    opener = getattr(formats, "open_source", None)
    try:
        if opener is not None:
            stream = opener(path)
        elif path == "-":
            stream = click.get_text_stream("stdin", errors="replace")
        else:
            stream = open(path, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise click.BadParameter(f"cannot read {path!r}: {exc.strerror}", param_hint="PATH") from None
    except SudokuError as exc:
        raise click.BadParameter(str(exc), param_hint="PATH") from None
    try:
        yield stream
    finally:
        if stream is not sys.stdin and getattr(stream, "name", None) != "<stdin>":
            stream.close()


def echo_text(text: str, limit: int = ECHO_LIMIT) -> str:
    """Raw input shortened for a message: a 10 MB line is not worth repeating.

    >>> echo_text("x" * 200, 10)
    'xxxxxxxxxx... (200 characters)'
    """
    text = text.strip()
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def render(grid: Grid, format: str, symbols: str | None = None) -> str:
    """``formats.render``, with a plain line while other formats are missing."""
    from .. import formats

    try:
        return formats.render(grid, format, symbols=symbols)
    except TypeError:  # BOOTSTRAP: the early formats module takes symbols positionally
        return formats.render(grid, format, symbols)


def render_block(puzzle: Grid, solution: Grid | None, *, symbols: str | None = None, message: str = "") -> str:
    """The classic ``===`` / ``---`` / ``===`` block of a puzzle and its solution."""
    from .. import formats

    writer = getattr(formats, "render_block", None)
    if writer is not None:
        return writer(puzzle, solution, symbols=symbols, message=message)
    return _bootstrap_block(puzzle, solution, symbols, message)  # BOOTSTRAP


# -- output ------------------------------------------------------------------------


class Output:
    """Standard output written piece by piece and flushed, so a big batch
    shows results as they come and an interrupted run keeps them."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else click.get_text_stream("stdout")

    def write(self, text: str) -> None:
        if not text.endswith("\n"):
            text += "\n"
        self.stream.write(text)
        self.stream.flush()


class Progress:
    """A progress line on stderr, shown only when stderr is a terminal.

    Messages for stderr go through :meth:`note` so that they do not tear
    through the progress line.
    """

    def __init__(self, label: str, enabled: bool | None = None) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> "Progress":
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn, MofNCompleteColumn, Progress as RichProgress, SpinnerColumn,
                TextColumn, TimeElapsedColumn,
            )

            self._progress = RichProgress(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                MofNCompleteColumn(), TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                console=Console(stderr=True), transient=True,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task(self.label, total=None, rate="")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)
            self._progress = None

    def advance(self, count: int = 1) -> None:
        if self._progress is not None:
            task = self._progress.tasks[0]
            done = task.completed + count
            elapsed = task.elapsed or 0.0
            rate = f"{done / elapsed:,.0f}/s" if elapsed > 0.5 else ""
            self._progress.update(self._task, advance=count, rate=rate)

    def note(self, message: str) -> None:
        """Print one message on stderr."""
        if self._progress is not None:
            self._progress.console.print(message, markup=False, highlight=False)
        else:
            click.echo(message, err=True)


# -- BOOTSTRAP: minimal stand-ins used only until the full formats module lands --------


def _bootstrap_alphabet(spec: str) -> str:
    spec = spec.strip()
    if not spec:
        raise SudokuError("an alphabet needs at least one symbol")
    out = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            lo, hi = spec[i], spec[i + 2]
            if ord(hi) < ord(lo):
                raise SudokuError(f"alphabet range {lo}-{hi} runs backwards")
            out.extend(chr(c) for c in range(ord(lo), ord(hi) + 1))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    if len(set(out)) != len(out):
        raise SudokuError(f"alphabet {spec!r} repeats a symbol")
    if "." in out:
        raise SudokuError("'.' is the blank and cannot be a symbol")
    return "".join(out)


def _bootstrap_read(source: Any, shape: Shape | None, symbols: str | None) -> Iterator[Entry]:
    from .. import formats

    if isinstance(source, str):
        source = source.splitlines()
    number = 0
    for lineno, raw in enumerate(source, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        number += 1
        try:
            grid = formats.parse(text, shape=shape, symbols=symbols)
            yield Entry(number, lineno, text, grid, None)
        except ParseError as exc:
            yield Entry(number, lineno, text, None, exc.at(puzzle=number, line_offset=lineno - 1 if exc.line else 0))


def _bootstrap_block(puzzle: Grid, solution: Grid | None, symbols: str | None, message: str) -> str:
    def spaced(grid: Grid) -> str:
        alphabet = "." + (symbols or grid.shape.symbols)
        n = grid.size
        return "\n".join(" ".join(alphabet[v] for v in grid.values[r * n:(r + 1) * n]) for r in range(n))

    parts = ["=" * 17, spaced(puzzle), "-" * 17]
    if solution is not None:
        parts.append(spaced(solution))
    if message:
        parts.append(message)
    parts.append("=" * 17)
    return "\n".join(parts)
