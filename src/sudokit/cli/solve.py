"""``sudoku solve`` and ``sudoku examples``.

``solve`` reads puzzles lazily from files or stdin, works on each with the
public API (:func:`sudokit.solving.solve`, :func:`~sudokit.solving.count`,
:func:`~sudokit.solving.solutions`) and writes one result per puzzle, in
input order, as soon as it is done. A puzzle that fails is reported on stderr
(``puzzle 3 (line 7): no_solution: ...``) and in its record; the batch goes on.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

import click

from ..errors import InvalidPuzzle, LimitReached, SudokuError
from ..grid import Grid, Shape, shape_of
from ..result import Status
from .common import (
    EXIT_FAILED, EXIT_INTERRUPTED, Output, Progress, box_option, echo_text, method_option,
    methods_help, open_input, read_puzzles, render, render_block, symbols_option,
)

#: Output formats of ``sudoku solve``.
SOLVE_FORMATS = ("block", "line", "spaced", "boxed", "rows", "jsonl", "candidates", "svg")

#: Formats that can show a count of solutions.
COUNT_FORMATS = ("block", "line", "jsonl")

#: The solution limit for --count and --all when --limit is not given.
DEFAULT_LIMIT = 1000

#: Puzzles handed to the worker processes at a time with --jobs (bounds memory).
JOB_WINDOW = 2048


# -- the work on one puzzle ------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """What to do with each puzzle (picklable, for worker processes)."""

    method: str
    mode: str = "solve"  # "solve", "count" or "all"
    limit: int | None = None
    timeout: float | None = None
    nodes: int | None = None


@dataclass
class Task:
    """One puzzle as read, in a light form that crosses process boundaries."""

    number: int
    line: int | None
    text: str
    box: tuple[int, int] | None = None
    values: tuple[int, ...] | None = None
    error: str = ""
    source: str = ""
    example: str = ""

    @property
    def grid(self) -> Grid | None:
        return None if self.values is None or self.box is None else Grid(self.values, self.box)


@dataclass
class Outcome:
    """The result for one puzzle: status, solutions and the search's counters."""

    task: Task
    status: Status
    solutions: list[tuple[int, ...]] = field(default_factory=list)
    partial: tuple[int, ...] | None = None
    count: int | None = None
    limit: int | None = None
    method: str = ""
    nodes: int = 0
    guesses: int = 0
    ms: float = 0.0
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.status is Status.SOLVED

    def grids(self) -> list[Grid]:
        assert self.task.box is not None
        return [Grid(values, self.task.box) for values in self.solutions]

    def where(self) -> str:
        """``puzzle 3 (line 7)``, with the file when there are several."""
        task = self.task
        if task.example:
            place = f"example {task.example}"
        else:
            place = f"puzzle {task.number}" + (f" (line {task.line})" if task.line else "")
        return f"{task.source}: {place}" if task.source else place


def parse_reason(error: Exception | None, line: int | None = None) -> str:
    """What a ParseError says, with the column (and the line when it is not
    the puzzle's first), but not the puzzle number the report already gives."""
    reason = getattr(error, "reason", None) or str(error or "cannot read this puzzle")
    where = []
    err_line, column = getattr(error, "line", None), getattr(error, "column", None)
    if err_line is not None and line is not None and err_line != line:
        where.append(f"line {err_line}")
    if column is not None:
        where.append(f"column {column}")
    return f"{', '.join(where)}: {reason}" if where else reason


def task_of(entry: Any, source: str = "") -> Task:
    """A :class:`Task` from a ``formats.Entry``."""
    if entry.error is not None or entry.grid is None:
        message = parse_reason(entry.error, entry.line)
        return Task(entry.number, entry.line, echo_text(entry.text or ""), error=message, source=source)
    grid: Grid = entry.grid
    shape = grid.shape
    return Task(entry.number, entry.line, "", (shape.box_rows, shape.box_cols), grid.values, source=source)


def work(task: Task, settings: Settings) -> Outcome:
    """Solve, count or enumerate one puzzle through the public API."""
    from .. import solving

    if task.error:
        return Outcome(task, Status.PARSE_ERROR, method=settings.method, message=task.error)
    grid = task.grid
    assert grid is not None
    if settings.mode == "all":
        return _enumerate(task, grid, settings)
    if settings.mode == "count":
        result = solving.count(grid, settings.limit, settings.method,
                               timeout=settings.timeout, nodes=settings.nodes)
    else:
        result = solving.solve(grid, settings.method, timeout=settings.timeout, nodes=settings.nodes)
    solutions, partial = [], None
    if result.solution is not None:
        if result.status is Status.STUCK:
            partial = result.solution.values
        else:
            solutions = [result.solution.values]
    return Outcome(
        task, result.status, solutions, partial, result.count, result.limit, result.method,
        result.nodes, result.guesses, result.elapsed * 1000, result.message,
    )


def _enumerate(task: Task, grid: Grid, settings: Settings) -> Outcome:
    from .. import solving

    found: list[tuple[int, ...]] = []
    status, message = Status.SOLVED, ""
    start = time.perf_counter()
    try:
        for solution in solving.solutions(grid, settings.method, timeout=settings.timeout, nodes=settings.nodes):
            found.append(solution.values)
            if settings.limit is not None and len(found) >= settings.limit:
                break
    except InvalidPuzzle as exc:
        status, message = Status.INVALID, str(exc)
    except LimitReached as exc:
        status, message = Status.TIMEOUT, f"{exc} after {len(found)} solution(s)"
    if status is Status.SOLVED and not found:
        status, message = Status.NO_SOLUTION, "no grid completes these givens"
    return Outcome(task, status, found, None, len(found), settings.limit, settings.method,
                   ms=(time.perf_counter() - start) * 1000, message=message)


def _work_packed(args: tuple[Task, Settings]) -> Outcome:
    return work(*args)


def warm_up(method: str, notice: Any = None) -> None:
    """Load (and for the engine, compile) a method before the first puzzle, so
    that no puzzle's time limit pays for it. ``notice`` hears why a first run
    of the engine is slow."""
    from ..methods import get

    if method == "fast":
        from ..engine import warm_up as compile_engine

        compile_engine(notice)
    else:
        get(method).load()


def _start_worker(method: str) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    warm_up(method)


def run_all(tasks: Iterable[Task], settings: Settings, jobs: int) -> Iterator[Outcome]:
    """Outcomes in input order; with ``jobs > 1`` worker processes share the work."""
    if jobs <= 1:
        for task in tasks:
            yield work(task, settings)
        return
    import multiprocessing

    pool = multiprocessing.Pool(jobs, initializer=_start_worker, initargs=(settings.method,))
    try:
        chunk = max(1, JOB_WINDOW // (jobs * 4))
        iterator = iter(tasks)
        while True:
            window = [(task, settings) for task in itertools.islice(iterator, JOB_WINDOW)]
            if not window:
                break
            yield from pool.imap(_work_packed, window, chunksize=chunk)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


# -- writing results ---------------------------------------------------------------------


def _line(grid: Grid, symbols: str | None) -> str:
    return render(grid, "line", symbols)


def record(outcome: Outcome, symbols: str | None, counting: bool) -> dict[str, Any]:
    """The jsonl record of one outcome."""
    task = outcome.task
    puzzle = task.grid
    grids = outcome.grids() if outcome.solutions else []
    rec: dict[str, Any] = {
        "puzzle": _line(puzzle, symbols) if puzzle is not None else task.text,
        "status": outcome.status.value,
        "solution": _line(grids[0], symbols) if grids else None,
    }
    if counting:
        rec["count"] = outcome.count
        rec["limit"] = outcome.limit
    if len(grids) > 1:  # --all
        rec["solutions"] = [_line(g, symbols) for g in grids]
    if outcome.partial is not None and task.box is not None:
        rec["partial"] = _line(Grid(outcome.partial, task.box), symbols)
    rec.update(
        method=outcome.method, nodes=outcome.nodes, guesses=outcome.guesses, ms=round(outcome.ms, 3),
        message=outcome.message, line=task.line,
    )
    if task.source:
        rec["source"] = task.source
    if task.example:
        rec["example"] = task.example
    return rec


def _count_text(outcome: Outcome) -> str:
    count = outcome.count or 0
    text = f"{count} solution" + ("" if count == 1 else "s")
    if outcome.limit is not None and count >= outcome.limit:
        text += f" (stopped at the limit of {outcome.limit})"
    return text


def show(outcome: Outcome, fmt: str, symbols: str | None, mode: str) -> str | None:
    """The text of one outcome in ``fmt``; None when nothing goes to stdout."""
    if fmt == "jsonl":
        return json.dumps(record(outcome, symbols, mode != "solve"), ensure_ascii=False)
    puzzle = outcome.task.grid
    grids = outcome.grids() if puzzle is not None and outcome.solutions else []
    failure = "" if outcome.ok else f"{outcome.status.value}: {outcome.message}".rstrip(": ")
    if fmt == "block":
        if puzzle is None:
            return None
        if mode == "all" and len(grids) > 1:
            return "\n".join(render_block(puzzle, g, symbols=symbols) for g in grids)
        if mode == "count" and outcome.ok:
            return render_block(puzzle, None, symbols=symbols, message=_count_text(outcome))
        return render_block(puzzle, grids[0] if grids else None, symbols=symbols, message=failure)
    if fmt == "line":
        if mode == "count":
            return str(outcome.count if outcome.count is not None else "")
        if not grids:
            return ""  # keeps line k of the output beside puzzle k of the input
        return "\n".join(_line(g, symbols) for g in grids)
    if fmt == "candidates" and outcome.partial is not None:
        return render(Grid(outcome.partial, outcome.task.box), "candidates", symbols) + "\n"
    if fmt == "svg":  # the givens in black, the solution (or pencil marks where stuck) in colour
        from ..svg import grid_svg

        if puzzle is None:
            return None
        if outcome.partial is not None:
            return grid_svg(Grid(outcome.partial, outcome.task.box), candidates=True, symbols=symbols)
        return grid_svg(puzzle, solution=grids[0] if grids else None, symbols=symbols)
    if not grids:
        return None
    return "\n\n".join(render(g, fmt, symbols).rstrip("\n") for g in grids) + "\n"


# -- the commands -------------------------------------------------------------------------


class Source:
    """One input (a file or standard input), opened on demand, with lines
    already read ahead (to choose the bulk path) put back in front."""

    def __init__(self, path: str, label: str) -> None:
        self.path, self.label = path, label
        self._context: Any = None
        self._stream: Any = None
        self.ahead: list[str] = []

    def open(self) -> "Source":
        if self._stream is None:
            self._context = open_input(self.path)
            self._stream = self._context.__enter__()
        return self

    def close(self) -> None:
        if self._context is not None:
            self._context.__exit__(None, None, None)
            self._context = self._stream = None

    def peek(self, count: int = 64) -> list[str]:
        """Up to ``count`` lines from the start, kept for :meth:`lines`."""
        self.open()
        while len(self.ahead) < count:
            line = self._stream.readline()
            if not line:
                break
            self.ahead.append(line)
        return self.ahead

    def lines(self) -> Iterator[str]:
        self.open()
        yield from self.ahead
        self.ahead = []
        yield from self._stream


def _tasks(sources: list[Source], names: tuple[str, ...], box: Shape | None,
           symbols: str | None, counter: list[int]) -> Iterator[Task]:
    from ..examples import example

    number = 0
    for name in names:
        number += 1
        counter[0] += 1
        grid = example(name)
        if box is not None and box != grid.shape:
            if box.cell_count != grid.shape.cell_count:
                raise click.BadParameter(f"example {name!r} is {grid.size}x{grid.size}; a {box} box makes "
                                         f"{box.size}x{box.size} grids", param_hint="'--box'")
            grid = Grid(grid.values, box)
        shape = grid.shape
        yield Task(number, None, name, (shape.box_rows, shape.box_cols), grid.values, example=name)
    for source in sources:
        try:
            for entry in read_puzzles(source.lines(), shape=box, symbols=symbols):
                counter[0] += 1
                yield task_of(entry, source.label)
        finally:
            source.close()


# -- the bulk path of the engine --------------------------------------------------------


def _looks_like_lines(ahead: list[str]) -> bool:
    """True when the first puzzle is a 9x9 puzzle on one line (a data set)."""
    for line in ahead:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        return len(text) == 81 and not any(ch.isspace() for ch in text)
    return False


class _BulkInput:
    """The lines the batch module reads: comments blanked (so its line numbers
    stay true), and each puzzle remembered until its result is written."""

    def __init__(self, lines: Iterable[str], pending: "Any") -> None:
        self.lines, self.pending = lines, pending

    def __iter__(self) -> Iterator[str]:
        for number, line in enumerate(self.lines, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                yield "\n"
                continue
            self.pending.append((number, text))
            yield line


class _BulkOutput:
    """Where the batch module writes: passes results to stdout and reports each
    failing puzzle on stderr. A failure is looked at again: clashing givens
    become status ``invalid`` (naming the cells), and a puzzle of another
    size, which the 9x9 bulk path cannot read, is solved on its own."""

    mode = "w"  # text, not bytes

    def __init__(self, fmt: str, settings: Settings, pending: Any, out: Output, progress: Progress) -> None:
        self.fmt, self.settings, self.pending, self.out, self.progress = fmt, settings, pending, out, progress
        self.number = self.failed = 0

    def write(self, text: "str | bytes") -> int:
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        for i, line in enumerate(lines):
            self.number += 1
            where, puzzle = self.pending.popleft()
            if (line if self.fmt == "line" else '"status": "solved"' in line):
                continue
            outcome = self._again(where, puzzle, line)
            if outcome is not None:  # solved (or failed) on its own
                lines[i] = show(outcome, self.fmt, None, "solve") or ""
                if outcome.ok:
                    continue
                status, message = outcome.status.value, outcome.message
            elif self.fmt == "line":
                status, message = self._why(puzzle, "no_solution", "no grid completes these givens")
            else:
                rec = json.loads(line)
                status, message = self._why(puzzle, rec["status"], rec.get("message", ""))
                rec["status"], rec["message"] = status, message
                lines[i] = json.dumps(rec, ensure_ascii=False)
            self.failed += 1
            self.progress.note(f"puzzle {self.number} (line {where}): {status}: {message}")
        if lines:
            self.out.write("\n".join(lines))
        return len(text)

    def _again(self, where: int, text: str, line: str) -> Outcome | None:
        """The outcome of the generic path for a readable puzzle that is not 9x9."""
        from ..errors import ParseError
        from ..formats import parse

        try:
            grid = parse(text, format="line")
        except (ParseError, SudokuError):
            return None
        if grid.shape == shape_of("3x3"):
            return None
        task = Task(self.number, where, "", (grid.shape.box_rows, grid.shape.box_cols), grid.values)
        return work(task, self.settings)

    @staticmethod
    def _why(text: str, status: str, message: str) -> tuple[str, str]:
        from ..errors import ParseError
        from ..formats import parse

        try:
            grid = parse(text, format="line")
        except (ParseError, SudokuError) as exc:
            return Status.PARSE_ERROR.value, parse_reason(exc)
        conflicts = grid.conflicts()
        if conflicts:
            return Status.INVALID.value, "; ".join(str(c) for c in conflicts)
        if status == "timeout" or "limit" in message:
            return Status.TIMEOUT.value, message
        return status, message


def _bulk_fast_path(sources: list[Source], fmt: str, settings: Settings, box: Shape | None,
                    symbols: str | None, jobs: int, out: Output, progress: Progress) -> tuple[int, int] | None:
    """The engine's bulk path (:func:`sudokit.batch.solve_text_stream`): 9x9
    puzzles one per line, method ``fast``, ``line`` or ``jsonl`` output, no
    time limit. Returns (puzzles, failures), or None when the run does not
    qualify and the generic path must do it."""
    if settings.method != "fast" or settings.mode != "solve" or fmt not in ("line", "jsonl"):
        return None
    if symbols is not None or settings.timeout is not None or len(sources) != 1:
        return None
    if box is not None and box != shape_of("3x3"):
        return None
    from .common import module_exists

    if not module_exists("sudokit.batch") or not _looks_like_lines(sources[0].peek()):
        return None
    import collections

    from .. import batch

    pending: Any = collections.deque()
    sink = _BulkOutput(fmt, settings, pending, out, progress)
    seen = [0]

    def advance(done: int) -> None:
        progress.advance(done - seen[0])
        seen[0] = done

    try:
        batch.solve_text_stream(
            _BulkInput(sources[0].lines(), pending), sink, fmt=fmt, limit=1, jobs=jobs,
            chunk=2000, node_limit=settings.nodes or 0, progress=advance,
        )
    finally:
        sources[0].close()
    return sink.number, sink.failed


def _check_options(ctx: click.Context, method: str, fmt: str, mode: str, limit: int | None) -> None:
    from ..methods import available, get

    if limit is not None and mode == "solve":
        raise click.UsageError("--limit applies only with --count or --all", ctx)
    if mode != "solve" and not get(method).complete:
        complete = ", ".join(sorted(n for n, s in available().items() if s.complete))
        raise click.UsageError(
            f"method {method!r} is logic only: it cannot count or enumerate solutions; "
            f"choose one of: {complete}", ctx)
    if mode == "count" and fmt not in COUNT_FORMATS:
        raise click.UsageError(f"--count writes {', '.join(COUNT_FORMATS)}, not {fmt}", ctx)


@click.command("solve")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-m", "--method", default="fast", show_default=True, callback=method_option,
              help=f"How to solve: {methods_help()}.")
@click.option("-f", "--format", "fmt", type=click.Choice(SOLVE_FORMATS), default="block", show_default=True,
              help="block: puzzle and solution in the classic ===/---/=== block; line: one solution per "
                   "line (an empty line where there is none); jsonl: one record per puzzle; "
                   "candidates: the pencil marks where logic got stuck; svg: a picture (one puzzle).")
@click.option("--count", "counting", is_flag=True, help="Count the solutions (up to --limit).")
@click.option("--all", "all_", is_flag=True, help="Print every solution (up to --limit).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help=f"Stop counting or enumerating at this many solutions [default: {DEFAULT_LIMIT}].")
@click.option("--box", callback=box_option, metavar="RxC",
              help="Box rows x box columns (3x3, 2x3, 4x4...); default: from the puzzle's size.")
@click.option("--symbols", callback=symbols_option, metavar="SPEC",
              help="The alphabet of values 1..N, such as 0-F or GODAKCUBE.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Give up on a puzzle after this long (status timeout).")
@click.option("--nodes", type=click.IntRange(min=1), default=None,
              help="Give up on a puzzle after this many search nodes (status timeout).")
@click.option("--example", "names", multiple=True, metavar="NAME",
              help="Solve a named example (see: sudoku examples); may be repeated.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (the order of results is kept).")
@click.pass_context
def solve(ctx: click.Context, paths: tuple[str, ...], method: str, fmt: str, counting: bool, all_: bool,
          limit: int | None, box: Shape | None, symbols: str | None, timeout: float | None,
          nodes: int | None, names: tuple[str, ...], jobs: int) -> None:
    """Solve every puzzle in PATHS (files, or - for standard input).

    Puzzles may be in any format sudokit reads (line, rows, spaced, boxed,
    jsonl...), many per file. Results come out in input order as each is
    done. A puzzle that fails is reported on stderr as
    "puzzle 3 (line 7): no_solution: ..." and the batch goes on.

    \b
    Exit status: 0 every puzzle solved; 1 some puzzle failed (no solution,
    invalid givens, unreadable, stuck, timeout); 2 usage error.
    """
    from ..examples import EXAMPLES

    mode = "all" if all_ else "count" if counting else "solve"
    _check_options(ctx, method, fmt, mode, limit)
    for name in names:
        if name not in EXAMPLES:
            raise click.BadParameter(f"no example called {name!r}; choose one of: {', '.join(EXAMPLES)}",
                                     ctx, param_hint="'--example'")
    if not paths and not names:
        if sys.stdin is None or sys.stdin.isatty():
            raise click.UsageError("give a file of puzzles, '-' for standard input, or --example NAME", ctx)
        paths = ("-",)
    if mode != "solve" and limit is None:
        limit = DEFAULT_LIMIT
    settings = Settings(method, mode, limit, timeout, nodes)

    several = len(paths) > 1
    sources = [Source(p, ("<stdin>" if p == "-" else p) if several else "") for p in paths]
    out = Output()
    counter = [0]
    failed = done = 0
    try:
        with Progress("solving") as progress:
            # The first run ever compiles the engine: say so on stderr.
            warm_up(method, progress.note)
            bulk = None if names else _bulk_fast_path(sources, fmt, settings, box, symbols, jobs, out, progress)
            if bulk is not None:  # the engine's bulk path did the whole run
                counter[0] = done = bulk[0]
                failed = bulk[1]
            else:
                for outcome in run_all(_tasks(sources, names, box, symbols, counter), settings, jobs):
                    if fmt == "svg" and done > 0:
                        raise click.UsageError("--format svg draws a single puzzle; the input holds more", ctx)
                    text = show(outcome, fmt, symbols, mode)
                    if text is not None:
                        out.write(text)
                    done += 1
                    if not outcome.ok:
                        failed += 1
                        progress.note(f"{outcome.where()}: {outcome.status.value}: {outcome.message}")
                    progress.advance()
    except KeyboardInterrupt:
        out.flush()  # what a blocked write left in the buffer
        click.echo(f"sudoku: interrupted after {done} puzzle(s); their results were written", err=True)
        ctx.exit(EXIT_INTERRUPTED)
    except SudokuError as exc:  # a whole source is unreadable (not one puzzle)
        raise click.ClickException(str(exc)) from None
    finally:
        for source in sources:
            source.close()
    if counter[0] == 0:
        what = ", ".join("standard input" if p == "-" else repr(p) for p in paths)
        click.echo(f"no puzzle found in {what}", err=True)
        ctx.exit(EXIT_FAILED)
    if failed:
        if done > 1:
            click.echo(f"{failed} of {done} puzzles failed", err=True)
        ctx.exit(EXIT_FAILED)


@click.command("examples")
@click.argument("name", required=False)
@click.option("-f", "--format", "fmt", default="spaced", show_default=True,
              type=click.Choice(("line", "rows", "spaced", "boxed", "candidates", "jsonl", "svg")),
              help="How to print the named puzzle.")
@click.option("--symbols", callback=symbols_option, metavar="SPEC", help="The alphabet to print with.")
def examples(name: str | None, fmt: str, symbols: str | None) -> None:
    """List the named example puzzles, or print the one called NAME.

    \b
      sudoku examples
      sudoku examples diabolical --format line | sudoku -
    """
    from ..examples import EXAMPLES

    if name is None:
        width = max(len(n) for n in EXAMPLES)
        click.echo(f"{'name':<{width}}  clues  source: note")
        for example in EXAMPLES.values():
            click.echo(f"{example.name:<{width}}  {example.grid.clues:>5}  {example.source}: {example.note}")
        return
    if name not in EXAMPLES:
        raise click.BadParameter(f"no example called {name!r}; choose one of: {', '.join(EXAMPLES)}",
                                 param_hint="'NAME'")
    grid = EXAMPLES[name].grid
    if fmt == "jsonl":
        click.echo(json.dumps({"puzzle": _line(grid, symbols), "name": name}))
    else:
        click.echo(render(grid, fmt, symbols).rstrip("\n"))
