"""What every ``sudoku`` subcommand shares: option parsing, input, output, progress.

Nothing here solves anything. Option callbacks turn text into domain values
(a :class:`~sudokit.grid.Shape`, an alphabet, a method name) and turn every
:class:`~sudokit.errors.SudokuError` into a click usage error (exit status 2)
that names the option and what is wrong with it.

>>> box_option(None, None, "2x3")
Shape(2, 3)
>>> timeout_option(None, None, "1.5")
1.5
>>> box_option(None, None, None) is None
True
"""

from __future__ import annotations

import errno
import importlib.util
import sys
import time
from pathlib import Path
from contextlib import contextmanager
from typing import IO, Any, Iterable, Iterator, NoReturn, TextIO

import click

from .. import validate as _validate
from ..errors import SudokuError
from ..grid import Grid, Shape

#: When the command line started (``time.perf_counter()``): a ``--timeout`` for the
#: whole run counts from here, loading the kernels included.
def _age() -> float:
    """Seconds since this process started (0 where /proc does not tell)."""
    try:
        with open("/proc/self/stat") as fh:
            ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as fh:
            uptime = float(fh.read().split()[0])
        import os

        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


#: A process younger than this when a command starts is taken to run just that
#: command (``sudoku ...``), so its start-up counts toward a whole-run ``--timeout``;
#: an older one (a test calling commands in turn) counts from the command.
FRESH_PROCESS = 30.0


def command_started() -> float:
    """When the current command started (``time.perf_counter()``), remembered in click's context."""
    now = time.perf_counter()
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return now
    meta = ctx.find_root().meta
    if "sudokit.started" not in meta:
        age = _age()
        meta["sudokit.started"] = now - age if age < FRESH_PROCESS else now
    return meta["sudokit.started"]


def time_left(timeout: float | None) -> float | None:
    """What is left of a whole-run ``timeout`` (seconds) since the command started."""
    if timeout is None:
        return None
    return max(0.001, timeout - (time.perf_counter() - command_started()))


#: Exit statuses shared by every command.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

#: The longest piece of raw input echoed back in a message or record.
ECHO_LIMIT = 120


# -- option callbacks -----------------------------------------------------------


def _checked(check: Any) -> Any:
    """A click callback that runs ``check`` from :mod:`sudokit.validate` on the option's value;
    a refusal is a usage error (exit status 2) naming the option."""

    def callback(ctx: click.Context | None, param: click.Parameter | None, value: Any) -> Any:
        if value is None:
            return None
        name = max(param.opts, key=len) if param is not None and param.opts else check.__name__
        if check is _validate.timeout:
            command_started()  # the clock of a whole-run limit starts as early as can be
        try:
            return check(value, name)
        except SudokuError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None

    callback.__doc__ = check.__doc__
    return callback


#: ``--box RxC``: box rows by box columns (``3x3``, ``2x3``, ``4x4``...); a bare ``3`` is refused.
box_option = _checked(_validate.box)
#: ``--symbols SPEC``: an alphabet such as ``0-F``, ``1-9A-G`` or ``GODAKCUBE``.
symbols_option = _checked(_validate.symbols)
#: ``--timeout SECONDS``: positive and finite.
timeout_option = _checked(_validate.timeout)
#: ``--limit N``: a positive integer; astronomically large means no limit.
limit_option = _checked(_validate.limit)
#: ``--nodes N``: a positive integer; astronomically large means no limit.
nodes_option = _checked(_validate.nodes)
#: ``--seed N``: an integer >= 0.
seed_option = _checked(_validate.seed)
#: ``--jobs N``: 0 is every core; at most ``validate.MAX_JOBS``.
jobs_option = _checked(_validate.jobs)


def method_option(ctx: click.Context | None, param: click.Parameter | None, value: str) -> str:
    """``--method NAME``: a registered method whose module is installed."""
    from ..methods import available, get

    try:
        spec = get(value)
    except SudokuError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    if spec.module == "sudokit.engine":
        return value  # always installed; looking into it now would load numpy for nothing
    problem = ""
    if not module_exists(spec.module):
        problem = f"{spec.module} is missing"
    else:
        try:
            if spec.function("solutions") is None and spec.function("deduce") is None:
                problem = f"{spec.module} provides neither solutions() nor deduce()"
        except Exception as exc:  # a module that fails to import
            problem = f"{spec.module} cannot be loaded: {exc}"
    if problem:
        ready = ", ".join(sorted(name for name, s in available().items() if module_exists(s.module)))
        raise click.BadParameter(
            f"method {value!r} is not available in this installation ({problem}); try one of: {ready}",
            ctx=ctx, param=param,
        )
    return value


def variant_option(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """``--variant NAMES``: x, hyper, jigsaw, killer, comma-separated."""
    if value is None:
        return None
    from .. import variants

    try:
        names = variants.parse(value)
    except (SudokuError, ValueError) as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return ",".join(names)


def cages_option(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """``--cages FILE``: killer cages in the text form (docs/variants.md), one per line; ``-`` is
    standard input. The file is read and its lines checked here (a bad one is a usage error
    naming the file, line and column); the cells are checked against each puzzle's size
    when it is solved (:func:`killer_cages`)."""
    if value is None:
        return None
    from ..errors import ParseError
    from ..killer import CageError, parse_cages

    try:
        text = sys.stdin.read() if value == "-" else Path(value).read_text(encoding="utf-8")
    except OSError as exc:
        raise click.BadParameter(f"cannot read {value}: {exc.strerror or exc}", ctx=ctx, param=param) from None
    except UnicodeDecodeError:
        raise click.BadParameter(f"{value} is not UTF-8 text", ctx=ctx, param=param) from None
    try:
        parse_cages(text, 64)  # the form and the cages' own checks; the grid's size comes later
    except ParseError as exc:
        raise click.BadParameter(f"{value}: {exc}", ctx=ctx, param=param) from None
    except CageError as exc:
        raise click.BadParameter(f"{value}: {exc}", ctx=ctx, param=param) from None
    if not text.strip() or not parse_cages(text, 64):
        raise click.BadParameter(f"{value} holds no cage (one per line: r1c1 r1c2 = 3)", ctx=ctx, param=param)
    return text



def regions_option(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """``--regions LAYOUT``: a jigsaw layout, checked (N regions of N connected
    cells); ``random`` (for generating) draws a layout from each puzzle's seed."""
    if value is None:
        return None
    if value == "random":
        return value
    from .. import variants

    layout = "".join(value.split())
    try:
        variants.read_layout(layout)
    except SudokuError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return layout


BOX_HELP = "Box rows x box columns (3x3, 2x3, 4x4...); default: from the puzzle's size."
SYMBOLS_HELP = "The alphabet of values 1..N, such as 0-F or GODAKCUBE."
REGIONS_HELP = "Jigsaw regions: N² region symbols, row by row (implies --variant jigsaw)."
#: The start of every ``--cages`` help (each command ends the parenthesis its own way).
CAGES_HELP = "Killer cages, one per line such as 'r1c1 r1c2 r2c1 = 15' (implies --variant killer"


def puzzle_options(*, variant_help: str, cages_help: str, box_help: str | None = None,
                   symbols_help: str | None = None, regions_help: str = REGIONS_HELP):  # type: ignore[no-untyped-def]
    """The options that say what the puzzles are, in one place: ``--box`` (when
    ``box_help`` is given), ``--symbols`` (when ``symbols_help`` is), ``--variant``,
    ``--regions`` and ``--cages``, each checked by its callback above; the help texts
    are the command's own."""
    options = []
    if box_help is not None:
        options.append(click.option("--box", callback=box_option, metavar="RxC", help=box_help))
    if symbols_help is not None:
        options.append(click.option("--symbols", callback=symbols_option, metavar="SPEC", help=symbols_help))
    options += [click.option("--variant", callback=variant_option, metavar="NAMES", help=variant_help),
                click.option("--regions", callback=regions_option, metavar="LAYOUT", help=regions_help),
                click.option("--cages", callback=cages_option, metavar="FILE", help=cages_help)]

    def decorate(command):  # type: ignore[no-untyped-def]
        for option in reversed(options):  # click lists them in the order written
            command = option(command)
        return command
    return decorate


def check_units(ctx: click.Context, variant: str | None, regions: str | None, *, generating: bool = False,
                cages: str | None = None, logic: bool = False) -> None:
    """``--variant``, ``--regions`` and ``--cages`` together: a jigsaw needs its regions,
    ``--regions random`` (a layout drawn per puzzle) is for generating, and a
    killer to solve or draw needs its cages (``--cages``, or records that carry them:
    then leave ``--variant killer`` out), for the ``logic`` commands too."""
    if variant is not None and "jigsaw" in variant.split(",") and regions is None:
        raise click.UsageError("--variant jigsaw needs its regions: --regions LAYOUT", ctx)
    if variant is not None and "killer" in variant.split(",") and cages is None and not generating:
        raise click.UsageError("--variant killer needs its cages: --cages FILE (records that carry "
                               "their cages need neither option)", ctx)
    if regions == "random" and not generating:
        raise click.UsageError("--regions random draws a layout for each puzzle made; here give the layout itself", ctx)


def request_shape(box: Shape | None, size: int | None, regions: str | None) -> Shape:
    """The shape of puzzles to make: ``--box``, ``--size``, else the size of a
    ``--regions`` layout, else 3x3."""
    if box is None and size is None and regions not in (None, "random"):
        from .. import variants

        size = variants.layout_size(regions)
    hint = "'--box'" if box is not None else "'--size'" if size is not None else "'--regions'"
    try:
        shape = _validate.puzzle_shape(box if box is not None else size, hint.strip("'"))
    except SudokuError as exc:
        raise click.BadParameter(str(exc).removeprefix(hint.strip("'") + " "), param_hint=hint) from None
    return Shape(3, 3) if shape is None else shape


def killer_options(ctx: click.Context, variant: str | None, minimal: str, givens: int | None, shape: Shape,
                   symmetry: str) -> int:
    """The options only a made killer takes, ``--minimal cages`` and ``--givens K``, checked
    for ``generate`` and ``print --generate`` (usage errors naming them); the givens, 0 when
    none are asked for. The library checks the same (``generation.killer.check_givens``)."""
    killer = variant is not None and "killer" in variant.split(",")
    if minimal == "cages" and not killer:
        raise click.UsageError("--minimal cages is for killers: add --variant killer", ctx)
    if givens is not None and not killer:
        raise click.UsageError("--givens is for killers: add --variant killer (a classic puzzle's givens are "
                               "what --minimal leaves)", ctx)
    if not killer:
        return 0
    from ..generation.killer import check_givens

    try:
        return check_givens(givens or 0, shape, symmetry)
    except SudokuError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param_hint="'--givens'") from None


def variant_method(ctx: click.Context, method: str, killer: bool = False) -> str:
    """``method`` when it reads a variant's units (and, for a ``killer``, keeps
    cages), else a usage error naming the methods that do."""
    from ..methods import get, reading_cages, reading_units

    if killer and not get(method).cages:
        raise click.BadParameter(f"method {method!r} does not keep killer cages; with --cages or --variant "
                                 f"killer use one of: {', '.join(reading_cages())}", ctx=ctx,
                                 param_hint="'--method'")
    if not get(method).any_units:
        raise click.BadParameter(f"method {method!r} takes rows, columns and boxes only; with --variant or "
                                 f"--regions use one of: {', '.join(reading_units())}", ctx=ctx,
                                 param_hint="'--method'")
    return method


def module_exists(name: str) -> bool:
    """True when the module ``name`` can be imported (without importing it)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    # An empty folder is a namespace package: importable, but nothing in it yet.
    return spec is not None and spec.origin not in (None, "namespace")


def methods_help() -> str:
    """The registered method names, for ``--help`` texts."""
    from ..methods import available

    return ", ".join(sorted(available()))


# -- input -------------------------------------------------------------------------


def parse_alphabet(spec: str) -> str:
    """An alphabet spec (``0-F``, ``GODAKCUBE``) as the string of its symbols."""
    from ..formats import parse_alphabet as parse

    return parse(spec)


def read_puzzles(
    source: TextIO | Iterable[str], *, shape: Shape | None = None, symbols: str | None = None
) -> Iterator[Any]:
    """Every puzzle of ``source``, lazily; bad puzzles come as entries with ``error`` set."""
    from ..formats import read_puzzles as read

    return read(source, shape=shape, symbols=symbols)


@contextmanager
def open_input(path: str) -> Iterator[TextIO]:
    """The text stream of ``path`` (``-`` is standard input), closed afterwards."""
    from ..formats import open_source

    try:
        stream = open_source(path)
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
    """``formats.render``: one grid in ``format`` (no trailing newline)."""
    from ..formats import render as write

    return write(grid, format, symbols=symbols)


def render_block(puzzle: Grid, solution: Grid | None, *, symbols: str | None = None, message: str = "") -> str:
    """The classic ``===`` / ``---`` / ``===`` block of a puzzle and its solution."""
    from ..formats import render_block as block

    return block(puzzle, solution, symbols=symbols, message=message)


# -- output ------------------------------------------------------------------------


def interrupted_exit(jobs: int) -> None:
    """After Ctrl-C, once every line written is flushed: leave at once with
    status 130 when worker processes were running. A worker killed while it
    was handing back a result can leave the pool's reading thread waiting for
    the rest of it for ever, and the interpreter would wait for that thread
    on its way out; there is nothing left to save, so nothing is lost."""
    if jobs <= 1:
        return
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(EXIT_INTERRUPTED)


class Output:
    """Standard output written piece by piece and flushed, so a big batch
    shows results as they come and an interrupted run keeps them.

    When the reader of a pipe goes away (``sudoku ... | head -1``) the run
    ends quietly with status 0: the reader had what it wanted. When the
    output cannot be written (a full disk, ``> /dev/full``) it ends with
    ``sudoku: cannot write output: <reason>`` and status 1. Both stop the
    command through :class:`click.exceptions.Exit`, so ``finally`` blocks
    still run.
    """

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout

    def write(self, text: str) -> None:
        if not text.endswith("\n"):
            text += "\n"
        try:
            self.stream.write(text)
            self.stream.flush()
        except BrokenPipeError:
            silence_stdout()
            raise click.exceptions.Exit(EXIT_OK) from None
        except OSError as exc:
            output_failed(exc)

    def flush(self) -> None:
        """Flush once more after an interruption; quiet if the reader is gone."""
        try:
            self.stream.flush()
        except (OSError, ValueError, KeyboardInterrupt):
            pass


def output_failed(exc: OSError, path: str | None = None) -> "NoReturn":
    """Say that the output cannot be written (a full disk...) and stop with status 1:
    ``sudoku: cannot write output: <reason>``, with the file's name when it is one (``-o FILE``)."""
    silence_stdout()
    click.echo(f"sudoku: cannot write output: {write_failure(exc, path)}", err=True)
    raise click.exceptions.Exit(EXIT_FAILED) from None


#: ``errno`` values only a write gives: the output is full, whatever was being written.
_FULL = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG") if hasattr(errno, name))


def is_write_failure(exc: BaseException) -> bool:
    """True for an error that only writing gives (a full disk, ``> /dev/full``): however it
    reached the top (help text, a listing, a picture), it is said as ``cannot write output``."""
    return isinstance(exc, OSError) and exc.errno in _FULL


def write_failure(exc: OSError, path: str | None = None) -> str:
    """The reason a write failed, in words, naming ``path`` (or the exception's file) when there is one.

    >>> write_failure(OSError(28, "No space left on device"), "book.pdf")
    'book.pdf: No space left on device'
    """
    import os

    reason = exc.strerror or (os.strerror(exc.errno) if exc.errno else str(exc))
    name = path if path is not None else exc.filename
    return f"{name}: {reason}" if name not in (None, "-", "<stdout>") else reason


def silence_stdout() -> None:
    """After the output failed (reader gone, disk full), drop whatever is still buffered,
    so that the interpreter's last flush does not fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


class Progress:
    """A progress line on stderr, shown only when stderr is a terminal.

    Messages for stderr go through :meth:`note` so that they do not tear
    through the progress line.
    """

    #: How many progress lines are showing (the compile spinner then stays off).
    showing = 0

    def __init__(self, label: str, enabled: bool | None = None) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> "Progress":
        if self.enabled:
            Progress.showing += 1
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
            Progress.showing -= 1

    def advance(self, count: int = 1) -> None:
        if self._progress is not None:
            task = self._progress.tasks[0]
            done = task.completed + count
            elapsed = task.elapsed or 0.0
            rate = f"{done / elapsed:,.0f}/s" if elapsed > 0.5 else ""
            self._progress.update(self._task, advance=count, rate=rate)

    def describe(self, text: str) -> None:
        """Replace the text shown before the bar (for example, work inside one slow item)."""
        if self._progress is not None:
            self._progress.update(self._task, description=text)

    def note(self, message: str) -> None:
        """Print one message on stderr."""
        if self._progress is not None:
            self._progress.console.print(message, markup=False, highlight=False)
        else:
            click.echo(message, err=True)


@contextmanager
def compile_notice(kernels: Iterable[str] = ()) -> Iterator[None]:
    """While a command runs: if it compiles the engine (a first run), one line
    on stderr that says so with the expected time, and a spinner while numba
    compiles when stderr is a terminal. ``kernels`` names the groups of
    :data:`sudokit.engine.KERNELS` the command uses, for the estimate."""
    from ..engine.compiling import compiling

    status: list[Any] = []

    def spinner(on: bool) -> None:
        if on and not status and sys.stderr.isatty() and not Progress.showing:
            from rich.console import Console

            status.append(Console(stderr=True).status("compiling the solver engine…"))
            status[0].start()
        elif not on and status:
            status.pop().stop()

    with compiling(lambda message: click.echo(message, err=True), kernels, spinner):
        yield
