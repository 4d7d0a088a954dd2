"""A job over a stream of puzzles: chunks in, text out, in input order.

This is the one data path of every batch command::

    text ──read──▶ chunk of lines or puzzles ──▶ engine or method ──▶ Result, Rating, Steps
         ──records / formats──▶ text of the chunk

A :class:`Job` says what to do with each puzzle (solve, count, enumerate,
rate or explain, with which method, limits and output format). A chunk is
either raw lines (one puzzle per line: data sets and jsonl, the common case
for big files) or puzzles already read (:class:`Item`, from any format).
:func:`run_chunk` turns one chunk into a :class:`ChunkResult`: its output
text, the count of puzzles and failures, and one note per failure for
stderr. Chunks are independent, picklable and deterministic, so
:func:`sudokit.pool.ordered_map` can spread them over processes and
:mod:`sudokit.distributed` over a cluster, and the output is the same byte
for byte either way.

For 9x9 puzzles on the ``fast`` engine a chunk of lines is parsed, solved or
counted and written in bulk (:mod:`sudokit.batch`): one compiled call per
chunk. Any puzzle the bulk path does not settle (unreadable as a 9x9 line,
no solution, over the bulk node cap) is done again on its own through the
public API, so every record, message and status comes from one place.

>>> job = Job("count", limit=2, fmt="line")
>>> chunk = run_lines(job, ["# a comment", "." * 81, "1" * 80])
>>> chunk.text.splitlines(), chunk.failures
(['2', ''], 1)
>>> chunk.notes
['line 3: parse_error: 81 symbols expected for a 9x9 puzzle, got 80 (a puzzle has N² symbols; the other nearest size is 8x8 = 64)']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

from . import records, variants
from .errors import InvalidPuzzle, LimitReached, ParseError, SudokuError
from .grid import Grid, Shape
from .result import Result, Status

__all__ = [
    "BULK_NODES", "COMMANDS", "ChunkResult", "GenerateJob", "Item", "Job", "chunks", "generated_text", "item_of", "run", "run_chunk", "run_items",
    "run_lines", "run_seeds", "stream_chunks", "text_chunks", "warm",
]

#: What a job may do with each puzzle.
COMMANDS = ("solve", "count", "all", "rate", "explain", "canon")

#: Search nodes a puzzle may take in the engine's bulk call before it is
#: taken out and done on its own (where time limits and Ctrl-C are watched).
BULK_NODES = 1 << 16


@dataclass(frozen=True)
class Job:
    """What to do with every puzzle of a stream (picklable).

    ``command`` is one of :data:`COMMANDS`; ``fmt`` the output format of that
    command; ``limit`` the solution limit of ``count`` and ``all``;
    ``timeout`` (seconds) and ``nodes`` the budget per puzzle; ``box`` and
    ``symbols`` how to read the puzzles; ``variant`` (``--variant`` names)
    and ``regions`` (a jigsaw layout) the units every puzzle is solved under,
    when not just rows, columns and boxes; ``grids`` and ``marks`` what
    ``explain`` shows between steps, ``inner`` whether its text shows the
    inner chains of a nested forcing chain under its line. ``quick`` is set by :func:`run` for a
    run of a few puzzles: see :func:`_quick_result`.
    """

    command: str
    method: str = "fast"
    fmt: str = "line"
    limit: int | None = None
    timeout: float | None = None
    nodes: int | None = None
    box: tuple[int, int] | None = None
    symbols: str | None = None
    grids: bool = False
    marks: bool = False
    inner: bool = False
    quick: bool = False
    variant: str | None = None
    regions: str | None = None
    #: Killer cages in their text form (``--cages``), read for each puzzle's size.
    cages: str | None = None
    #: The canonical form of ``canon`` (:data:`sudokit.canon.FORMS`).
    form: str = "minlex"
    #: Processes that share each puzzle's searches (``rate`` and ``explain``; set by :func:`run`
    #: when the puzzles are fewer than the processes: :mod:`sudokit.logic.sharing`).
    share: int = 1

    def __post_init__(self) -> None:
        if self.command not in COMMANDS:
            raise SudokuError(f"unknown job {self.command!r}; the jobs are {', '.join(COMMANDS)}")

    @property
    def shape(self) -> Shape | None:
        return None if self.box is None else Shape(*self.box)

    @property
    def counting(self) -> bool:
        return self.command in ("count", "all")

    @property
    def chunk_size(self) -> int:
        """Puzzles per chunk: big for the engine, small for slow work (even spread)."""
        if self.command in ("solve", "count") and self.method == "fast" and self.timeout is None:
            return 4096
        if self.command == "canon":
            return 4096
        if self.command in ("solve", "count", "all"):
            return 64
        return 4


@dataclass(frozen=True)
class Item:
    """One puzzle as read: where it was, and its grid or why it could not be read."""

    number: int | None
    line: int | None
    grid: Grid | None = None
    text: str = ""
    error: str = ""
    source: str = ""
    example: str = ""

    def where(self) -> str:
        """``puzzle 3 (line 7)``, ``line 7`` or ``example gentle``, after the file when named."""
        if self.example:
            place = f"example {self.example}"
        elif self.number is not None:
            place = f"puzzle {self.number}" + (f" (line {self.line})" if self.line else "")
        else:
            place = f"line {self.line}"
        return f"{self.source}: {place}" if self.source else place


@dataclass
class ChunkResult:
    """The output of one chunk: text in input order, counts, and notes for stderr."""

    text: str = ""
    puzzles: int = 0
    failures: int = 0
    notes: list[str] = field(default_factory=list)


class _Collector:
    """A chunk's output as it is made, one puzzle at a time."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.puzzles = self.failures = 0
        self.notes: list[str] = []

    def add(self, text: str | None, failed: str = "") -> None:
        self.puzzles += 1
        if text is not None:
            self.parts.append(text if text.endswith("\n") else text + "\n")
        if failed:
            self.failures += 1
            self.notes.append(failed)

    def result(self) -> ChunkResult:
        return ChunkResult("".join(self.parts), self.puzzles, self.failures, self.notes)


# -- reading -------------------------------------------------------------------------------


def _reason(error: BaseException, line: int | None = None) -> str:
    """A parse error's reason with its column (and its line when not the puzzle's first)."""
    if not isinstance(error, ParseError):
        return str(error)
    where = []
    if error.line is not None and line is not None and error.line != line:
        where.append(f"line {error.line}")
    if error.column is not None:
        where.append(f"column {error.column}")
    return f"{', '.join(where)}: {error.reason}" if where else error.reason


def _echo(text: str, limit: int = 120) -> str:
    text = text.strip()
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def item_of(entry: Any, source: str = "") -> Item:
    """An :class:`Item` from a :class:`sudokit.formats.Entry`."""
    if entry.error is not None or entry.grid is None:
        error = entry.error or ParseError("cannot read this puzzle")
        return Item(entry.number, entry.line, None, _echo(entry.text or ""), _reason(error, entry.line), source)
    return Item(entry.number, entry.line, entry.grid, source=source)


def _read_line(job: Job, text: str, number: int | None, line: int, source: str) -> Item:
    from .formats import parse

    try:
        grid = parse(text, shape=job.shape, symbols=job.symbols)
    except ParseError as exc:
        return Item(number, line, None, _echo(text), _reason(exc, 1), source)
    except SudokuError as exc:
        return Item(number, line, None, _echo(text), str(exc), source)
    return Item(number, line, grid, source=source)


def _content(lines: Sequence[str | bytes], first_line: int) -> tuple[list[int], list[str]]:
    """The line numbers and texts of the lines that hold a puzzle (not blank,
    not a comment). Two flat lists, not pairs: no container per line for the
    garbage collector to walk."""
    if lines and type(lines[0]) is bytes:
        lines = [raw.decode("utf-8", "replace") if type(raw) is bytes else raw for raw in lines]  # type: ignore[union-attr]
    texts = list(map(str.strip, lines))  # type: ignore[arg-type]
    if all(texts) and "#" not in "".join(texts):  # a clean data set: every line a puzzle
        return list(range(first_line, first_line + len(texts))), texts
    skip = [i for i, text in enumerate(texts) if not text or text[0] == "#"]
    dropped = set(skip)
    keep = [i for i in range(len(texts)) if i not in dropped]
    return [first_line + i for i in keep], [texts[i] for i in keep]


def chunks(job: Job, lines: Iterable[str], *, source: str = "", first_line: int = 1,
           first_puzzle: int | None = 1, size: int | None = None) -> Iterator[tuple]:
    """A stream of lines (one puzzle per line) cut into chunks for :func:`run_chunk`,
    with the line and puzzle numbers each chunk starts at."""
    size = size or job.chunk_size
    block: list[str] = []
    start, puzzle = first_line, first_puzzle
    held = 0
    for line in lines:
        block.append(line)
        text = line.strip()
        if text and not text.startswith("#"):
            held += 1
            if held >= size:
                yield ("lines", job, block, start, source, puzzle)
                start += len(block)
                if puzzle is not None:
                    puzzle += held
                block, held = [], 0
    if held:
        yield ("lines", job, block, start, source, puzzle)


#: A line that holds no puzzle: blank, or a comment.
_SKIP = re.compile(r"^[^\S\n]*(?:#[^\n]*)?$", re.MULTILINE)

#: Jobs with chunks of at least this many puzzles are cut from whole pieces of text.
_BLOCK_CHUNKS = 1024


#: What a blank or comment line needs: without any of these (and no empty
#: line), every line of a piece holds a puzzle.
_MARKS = ("#", " ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


def _lines_of(piece: str) -> tuple[int, int]:
    """(lines, lines that hold a puzzle) in a piece of whole lines."""
    body = piece[:-1] if piece.endswith("\n") else piece
    total = body.count("\n") + 1
    if (body and body[0] != "\n" and body[-1] != "\n" and "\n\n" not in body and body.isascii()
            and not any(mark in body for mark in _MARKS)):
        return total, total  # the common case, told without a scan line by line
    return total, total - len(_SKIP.findall(body))


def text_chunks(job: Job, pieces: Iterable[str], *, source: str = "", first_line: int = 1,
                first_puzzle: int | None = 1, size: int | None = None) -> Iterator[tuple]:
    """Like :func:`chunks`, for text read in pieces of whole lines (as
    :func:`sudokit.formats.bounded_blocks` reads it; a piece without a final
    line break is one whole line): a chunk is whole pieces holding at least
    ``size`` puzzles, and nothing is looked at line by line in this process."""
    size = size or job.chunk_size
    held: list[str] = []
    start, puzzle = first_line, first_puzzle
    lines = puzzles = 0
    for piece in pieces:
        if not piece:
            continue
        if not piece.endswith("\n"):  # a line given without its break, or a file's last line
            piece += "\n"
        held.append(piece)
        count, content = _lines_of(piece)
        lines += count
        puzzles += content
        if puzzles >= size:
            yield ("text", job, "".join(held), start, source, puzzle)
            start += lines
            if puzzle is not None:
                puzzle += puzzles
            held, lines, puzzles = [], 0, 0
    if puzzles:
        yield ("text", job, "".join(held), start, source, puzzle)


def _split(pieces: Iterable[str]) -> Iterator[str]:
    """Pieces of text as single lines."""
    for piece in pieces:
        if "\n" in piece[:-1]:
            parts = piece.split("\n")
            if parts[-1] == "":
                parts.pop()
            yield from parts
        else:
            yield piece


# -- one puzzle through the public API -----------------------------------------------------


def _solve_result(job: Job, grid: Grid) -> Result:
    from . import solving

    if job.command == "all":
        return solving.solve_all(grid, job.limit, job.method, timeout=job.timeout, nodes=job.nodes)
    if job.command == "count":
        return solving.count(grid, job.limit, job.method, timeout=job.timeout, nodes=job.nodes)
    return solving.solve(grid, job.method, timeout=job.timeout, nodes=job.nodes)


def _line(grid: Grid | None, symbols: str | None) -> str:
    from .formats import render

    if grid is None:
        return ""
    return grid.line() if symbols is None else render(grid, "line", symbols=symbols)


def _count_text(result: Result) -> str:
    count = result.count or 0
    text = f"{count} solution" + ("" if count == 1 else "s")
    if result.status is Status.TIMEOUT:
        text += f" at least ({result.message})"
    elif result.limit is not None and count >= result.limit:
        text += f" (stopped at the limit of {result.limit})"
    return text


def _solve_text(job: Job, result: Result) -> str | None:
    """The text of one puzzle's result in ``job.fmt``; None when nothing goes to stdout."""
    from .formats import render, render_block

    fmt, symbols = job.fmt, job.symbols
    puzzle = result.puzzle
    stuck = result.status is Status.STUCK
    grids = [] if stuck else (list(result.solutions) or ([result.solution] if result.solution else []))
    if fmt == "line":
        if job.command == "count":
            return "" if result.count is None else str(result.count)
        return "\n".join(_line(g, symbols) for g in grids)  # '' keeps line k beside puzzle k
    assert puzzle is not None
    failure = "" if result.ok else f"{result.status.value}: {result.message}".rstrip(": ")
    if fmt == "block":
        if job.command == "all" and len(grids) > 1:
            return "\n".join(render_block(puzzle, g, symbols=symbols) for g in grids)
        if job.command == "count" and result.ok:
            return render_block(puzzle, None, symbols=symbols, message=_count_text(result))
        return render_block(puzzle, grids[0] if grids else None, symbols=symbols, message=failure)
    if fmt == "candidates":
        return render(result.solution, "candidates", symbols=symbols) + "\n" if stuck and result.solution else None
    if fmt == "svg":  # the givens in black, the solution (or pencil marks where stuck) in colour
        from .svg import grid_svg

        if stuck and result.solution is not None:
            return grid_svg(result.solution, candidates=True, symbols=symbols)
        return grid_svg(puzzle, solution=grids[0] if grids else None, symbols=symbols)
    if not grids:
        return None
    return "\n\n".join(render(g, fmt, symbols=symbols).rstrip("\n") for g in grids) + "\n"


def _failed_text(job: Job, item: Item) -> str | None:
    """What stdout gets for a puzzle that could not be read."""
    if job.fmt == "jsonl":
        if job.command in ("rate", "explain"):
            return records.dumps(records.failed_rating_record(
                text=item.text, status=Status.PARSE_ERROR.value, message=item.error, line=item.line,
                source=item.source, example=item.example))
        return records.dumps(records.error_record(
            text=item.text, status=Status.PARSE_ERROR.value, message=item.error, line=item.line,
            source=item.source, example=item.example, method=job.method, counting=job.counting,
            limit=job.limit))
    if job.fmt == "line":
        return ""  # keeps line k of the output beside puzzle k
    return None


#: A run of at most this many puzzles may be quick (see :func:`_quick_result`).
QUICK_PUZZLES = 4
#: Search nodes Crook's method may spend on one puzzle of a quick run before the
#: engine takes over: a deterministic budget (about 0.1 s on an idle machine; 167
#: nodes for the median of the hardest 9x9 set, 440 for its 90th percentile), so
#: which path answers does not depend on the machine's load.
QUICK_NODES = 500
#: Seconds, an outer guard on :data:`QUICK_NODES`.
QUICK_SECONDS = 0.5


def _quick_result(job: Job, grid: Grid) -> Result | None:
    """For a run of a few puzzles: the result, found without the engine, when
    that gives the very text the engine's result would, else None.

    Loading the engine's compiled kernels costs more (about 0.6 s, most of it
    numba's own start) than Crook's method (the ``preemptive`` method, pure
    Python) spends on one 9x9 puzzle: a millisecond or two on most, about a
    tenth of a second on the hardest known. So a run of a few puzzles first
    asks Crook's method, under a small budget, whether the puzzle has exactly
    one solution. If it has, that solution is the engine's too, and so is
    every byte of a text format (jsonl is left to the engine: it reports the
    engine's nodes and guesses). Anything else (no solution, several, a clash,
    the budget spent, a node limit asked for) goes to the engine, unchanged.
    """
    if (job.command not in ("solve", "count") or job.method != "fast" or job.fmt == "jsonl"
            or job.nodes is not None):
        return None
    from .budget import Budget
    from .methods import preemptive

    seconds = QUICK_SECONDS if job.timeout is None else min(QUICK_SECONDS, job.timeout / 4)
    found: list[Grid] = []
    try:
        for solution in preemptive.solutions(grid, Budget(timeout=seconds, nodes=QUICK_NODES)):
            found.append(solution)
            if len(found) == 2:
                return None
    except LimitReached:
        return None
    if len(found) != 1:
        return None
    if job.command == "count":
        return Result(grid, Status.SOLVED, found[0], method=job.method, count=1, limit=job.limit)
    return Result(grid, Status.SOLVED, found[0], method=job.method)


def _do_solve(job: Job, item: Item, grid: Grid, out: _Collector) -> None:
    result = (_quick_result(job, grid) if job.quick else None) or _solve_result(job, grid)
    if job.fmt == "jsonl":
        text: str | None = records.dumps(records.result_record(
            result, counting=job.counting, symbols=job.symbols, line=item.line, source=item.source,
            example=item.example))
    else:
        text = _solve_text(job, result)
    out.add(text, "" if result.ok else f"{item.where()}: {result.status.value}: {result.message}")


def failure_status(exc: BaseException) -> Status:
    """The record status of a puzzle whose rating, path or hint failed with ``exc``."""
    if isinstance(exc, ParseError):
        return Status.PARSE_ERROR
    if isinstance(exc, LimitReached):
        return Status.TIMEOUT
    if isinstance(exc, InvalidPuzzle):  # clashing givens, or several solutions
        return Status.INVALID
    return Status.NO_SOLUTION


def _logic_failed(job: Job, item: Item, grid: Grid, exc: SudokuError, out: _Collector) -> None:
    """A puzzle ``rate`` or ``explain`` could not work on: its failed record (jsonl) and its note."""
    status = failure_status(exc).value
    text = None
    if job.fmt == "jsonl":
        text = records.dumps(records.failed_rating_record(
            text=grid.line(), status=status, message=str(exc), line=item.line,
            source=item.source, example=item.example))
    out.add(text, f"{item.where()}: {status}: {exc}")  # as solve says it: puzzle N (line L): status: reason


def _do_rate(job: Job, item: Item, grid: Grid, out: _Collector) -> None:
    from .logic import rate

    try:
        rating = rate(grid, timeout=job.timeout, jobs=job.share)
    except SudokuError as exc:
        _logic_failed(job, item, grid, exc, out)
        return
    if job.fmt == "jsonl":
        out.add(records.dumps(records.rating_record(grid, rating, line=item.line, source=item.source,
                                                    example=item.example)))
    else:
        out.add(f"{grid.line()}  {rating}")


def _do_explain(job: Job, item: Item, grid: Grid, out: _Collector) -> None:
    from .formats import render, render_marks
    from .logic import Candidates
    from .logic.rating import explain_rated

    try:
        path, rating = explain_rated(grid, timeout=job.timeout, jobs=job.share)  # one pass: the path and its rating
    except SudokuError as exc:
        _logic_failed(job, item, grid, exc, out)
        return
    state = Candidates.from_grid(grid)
    lines: list[str] = []
    if job.fmt == "jsonl":
        for number, step in enumerate(path, 1):
            step.apply(state)
            lines.append(records.dumps(records.step_record(
                grid, number, step, state.geo, after=state.grid() if job.grids else None, line=item.line,
                source=item.source, example=item.example)))
        out.add("\n".join(lines) if lines else None)
        return

    def show() -> str:
        now = state.grid()
        return render_marks(now, state.mask) if job.marks else render(now, "boxed")

    lines.append(f"{item.where()}: {grid.line()}  {rating}")
    if job.grids:
        lines.append(show())
    for number, step in enumerate(path, 1):
        if job.grids and step.rating > 2.3 and number > 1:
            lines.append(show())
        head = f"{number:3d}. [{'≥' if step.lower_bound else ''}{step.rating:.1f}] "  # ≥: a bound (the last step)
        # --inner: the inner chains' lines under the step's text, past its number and rating
        text = step.details().replace("\n", "\n" + " " * len(head)) if job.inner else step.text
        lines.append(head + text)
        step.apply(state)
    if job.grids:
        lines.append(render(state.grid(), "boxed"))
    lines.append("")
    out.add("\n".join(lines))


def _do_canon(job: Job, item: Item, grid: Grid, out: _Collector) -> None:
    from .canon import canonical

    try:
        found = canonical(grid, job.form)
    except SudokuError as exc:
        text = "" if job.fmt == "line" else records.dumps(records.error_record(
            text=_line(grid, job.symbols), status=Status.INVALID.value, message=str(exc), line=item.line,
            source=item.source, example=item.example))
        out.add(text, f"{item.where()}: {Status.INVALID.value}: {exc}")
        return
    line = _line(found.grid, job.symbols)
    if job.fmt == "jsonl":
        out.add(records.dumps(records.canon_record(_line(grid, job.symbols), line, found.form, str(found.transform),
                                                   str(found.inverse), found.automorphisms, item.line,
                                                   item.source, item.example)))
    else:
        out.add(line)


_DO = {"solve": _do_solve, "count": _do_solve, "all": _do_solve, "rate": _do_rate, "explain": _do_explain,
       "canon": _do_canon}


def run_items(job: Job, items: Sequence[Item]) -> ChunkResult:
    """Every puzzle of ``items``, one at a time through the public API."""
    out = _Collector()
    do = _DO[job.command]
    for item in items:
        if item.grid is None:
            out.add(_failed_text(job, item), f"{item.where()}: {Status.PARSE_ERROR.value}: {item.error}")
        else:
            try:
                cages = None
                if job.cages is not None:
                    from .killer import cages_for

                    cages = cages_for(job.cages, item.grid.size)
                grid = variants.under(item.grid, job.variant, job.regions, cages)
            except (SudokuError, ValueError) as exc:  # units that do not fit this puzzle (a 9x9 layout, a 6x6 grid)
                out.add(_failed_text(job, item), f"{item.where()}: {Status.INVALID.value}: {exc}")
                continue
            do(job, item, grid, out)
    return out.result()


# -- many 9x9 puzzles in one compiled call -------------------------------------------------


def _bulk_ready(job: Job) -> bool:
    return (not job.quick and (job.command in ("solve", "count") and job.method == "fast" or job.command == "canon")
            and job.fmt in ("line", "jsonl") and job.symbols is None and job.box in (None, (3, 3)) and job.variant is None and job.regions is None
            and job.cages is None)


def _texts(batch: Any, values: Any) -> list[str]:
    """Rows of 9x9 values as lines of text, in one pass."""
    return batch.format_block(values).decode("ascii").split("\n")[:-1] if len(values) else []


def _canon_bulk(job: Job, numbers: list[int], content: list[str], source: str,
                first_puzzle: int | None) -> ChunkResult:
    """9x9 lines to their canonical forms in one compiled call; what it does not settle (an
    unreadable line, givens that clash) goes through the public API on its own."""
    import numpy as np

    from . import batch
    from .canon import FORMS
    from .canon.forms import transform_of
    from .canon.kernel import canonicalise

    values, ok = batch.parse_lines(content)
    ok &= _consistent(values)
    forms, transforms, counts = canonicalise(values[ok], FORMS.index(job.form))
    texts: list[str | None] = [None] * len(content)
    lines = _texts(batch, forms)
    rows = np.flatnonzero(ok).tolist()
    for k, i in enumerate(rows):
        if counts[k] < 0:
            continue
        if job.fmt == "jsonl":
            t = transform_of(transforms[k])
            texts[i] = records.dumps(records.canon_record(
                content[i].replace("0", "."), lines[k], job.form,
                str(t), str(t.inverse()), int(counts[k]), numbers[i], source))
        else:
            texts[i] = lines[k]
    failures, notes = 0, []
    for i, text in enumerate(texts):
        if text is None:
            number = None if first_puzzle is None else first_puzzle + i
            alone = run_items(job, [_read_line(job, content[i], number, numbers[i], source)])
            texts[i] = alone.text[:-1] if alone.text else None
            failures += alone.failures
            notes.extend(alone.notes)
    kept = [t for t in texts if t is not None]
    return ChunkResult("\n".join(kept) + "\n" if kept else "", len(content), failures, notes)


def _consistent(values):  # type: ignore[no-untyped-def]
    """Rows of 9x9 values whose givens clash nowhere (a mask)."""
    import numpy as np

    from .geometry import CLASSIC

    units = np.array(CLASSIC.geometry.units, dtype=np.int64)  # (27, 9)
    cells = values[:, units]  # (P, 27, 9)
    ok = np.ones(len(values), dtype=bool)
    for digit in range(1, 10):
        ok &= ((cells == digit).sum(axis=2) <= 1).all(axis=1)
    return ok


def _run_bulk(job: Job, numbers: list[int], content: list[str], source: str,
              first_puzzle: int | None) -> ChunkResult:
    import numpy as np

    from . import batch

    if job.command == "canon":
        return _canon_bulk(job, numbers, content, source, first_puzzle)
    values, ok = batch.parse_lines(content)
    node_cap = BULK_NODES if job.nodes is None else min(job.nodes, BULK_NODES)
    limit = 1 if job.command == "solve" else (job.limit or 0)
    found = batch.solve_many(values[ok], limit=limit, node_limit=node_cap)
    counts = np.zeros(len(content), dtype=np.int64)
    counts[ok] = found.counts
    settled = counts > 0
    index = np.cumsum(ok) - 1  # row of each puzzle in the bulk result
    rows = index[settled]
    settled_at = np.flatnonzero(settled)
    counting_line = job.fmt == "line" and job.command == "count"
    if counting_line:
        out = list(map(str, counts[settled_at].tolist()))
    else:
        solutions = _texts(batch, found.solutions[rows])
        if job.fmt == "line":
            out = solutions
        else:
            out = records.solve_lines(
                _texts(batch, values[settled]), ["solved"] * len(settled_at), solutions,
                counts[settled_at].tolist() if job.command == "count" else None,
                job.limit if job.command == "count" else None, job.method,
                found.nodes[rows].tolist(), found.guesses[rows].tolist(), [""] * len(settled_at),
                [numbers[i] for i in settled_at.tolist()] if len(settled_at) < len(numbers) else numbers,
                source)
    if len(settled_at) == len(content):  # the common case: the bulk call settled every puzzle
        return ChunkResult("\n".join(out) + "\n" if out else "", len(content), 0, [])
    texts: list[str | None] = [None] * len(content)
    for k, i in enumerate(settled_at.tolist()):
        texts[i] = out[k]
    failures, notes = 0, []
    for i in np.flatnonzero(~settled).tolist():  # what the bulk call did not settle, on its own
        line, text = numbers[i], content[i]
        number = None if first_puzzle is None else first_puzzle + i
        alone = run_items(job, [_read_line(job, text, number, line, source)])
        texts[i] = alone.text[:-1] if alone.text else None
        failures += alone.failures
        notes.extend(alone.notes)
    kept = [t for t in texts if t is not None]
    return ChunkResult("\n".join(kept) + "\n" if kept else "", len(content), failures, notes)


def run_lines(job: Job, lines: Sequence[str | bytes], first_line: int = 1, source: str = "",
              first_puzzle: int | None = None) -> ChunkResult:
    """Every puzzle of ``lines``, one per line (line or jsonl input); blank lines
    and ``#`` comments are skipped. ``first_line`` is the number of the first
    line in its file, and ``first_puzzle`` the number of its first puzzle
    (None when unknown: the notes then name the line only)."""
    numbers, content = _content(lines, first_line)
    if _bulk_ready(job):
        return _run_bulk(job, numbers, content, source, first_puzzle)
    items = [_read_line(job, text, None if first_puzzle is None else first_puzzle + i, line, source)
             for i, (line, text) in enumerate(zip(numbers, content))]
    return run_items(job, items)


def run_chunk(chunk: tuple) -> ChunkResult:
    """One chunk, as :func:`chunks`, :func:`text_chunks` or a caller made it:
    ``("lines", job, lines, first_line, source, first_puzzle)``, ``("text",
    job, text, first_line, source, first_puzzle)`` or ``("items", job, items)``."""
    if chunk[0] == "lines":
        _, job, lines, first_line, source, first_puzzle = chunk
        return run_lines(job, lines, first_line, source, first_puzzle)
    if chunk[0] == "text":
        _, job, text, first_line, source, first_puzzle = chunk
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()
        return run_lines(job, lines, first_line, source, first_puzzle)
    _, job, items = chunk
    return run_items(job, items)


# -- generated puzzles --------------------------------------------------------------------


def generated_text(puzzle: Any, fmt: str = "line", with_solution: bool = False) -> str:
    """The text of one generated puzzle (:class:`sudokit.generation.Puzzle`) in
    ``fmt`` (line, spaced, boxed, rows or jsonl), with its solution when asked
    (on the same line in ``line``; after a ``---`` rule in the others), each grid of
    several lines followed by a blank line. Module-level, so a worker can write it."""
    from .formats import render

    if fmt == "jsonl":
        return records.dumps(records.generated_record(puzzle))
    if fmt == "line":
        text = puzzle.puzzle.line()
        return f"{text} {puzzle.solution.line()}" if with_solution else text
    text = render(puzzle.puzzle, fmt).rstrip("\n")
    if with_solution:
        width = max(len(row) for row in text.splitlines())
        text += "\n" + "-" * width + "\n" + render(puzzle.solution, fmt).rstrip("\n")
    return text + "\n\n"  # a blank line after each grid: grids with borders cannot be told apart without


@dataclass(frozen=True)
class GenerateJob:
    """What to generate (picklable): the options of :func:`sudokit.generation.generate_many`
    and the output format of ``sudoku generate``."""

    box: tuple[int, int] = (3, 3)
    minimal: str = "unique"
    symmetry: str = "none"
    fmt: str = "line"
    with_solution: bool = False
    difficulty: str | None = None
    rating: str | None = None
    technique: str | None = None
    node_limit: int | None = None
    variant: str | None = None
    regions: str | None = None
    givens: int = 0

    @property
    def filtered(self) -> bool:
        return any(x is not None for x in (self.difficulty, self.rating, self.technique))

    def options(self) -> dict[str, Any]:
        """The keyword arguments of :func:`sudokit.generation.generate_many` (and ``from_seeds``)."""
        return dict(shape=Shape(*self.box), minimal=self.minimal, symmetry=self.symmetry,
                    difficulty=self.difficulty, rating=self.rating, technique=self.technique,
                    node_limit=self.node_limit, variant=self.variant, regions=self.regions, givens=self.givens)


def run_seeds(job: GenerateJob, start: int, count: int) -> ChunkResult:
    """The puzzles of seeds ``start .. start+count-1`` as text, in seed order:
    one per seed, or with a filter only those that pass it (``puzzles`` counts
    what was written).

    >>> len(run_seeds(GenerateJob(box=(2, 2), minimal="logic"), 7, 2).text.splitlines())
    2
    """
    import functools

    from .generation import from_seeds

    render = functools.partial(generated_text, fmt=job.fmt, with_solution=job.with_solution)
    made = from_seeds(range(start, start + count), render=render, **job.options())
    texts = [text for text, ok in made if ok]
    return ChunkResult("".join(t if t.endswith("\n") else t + "\n" for t in texts), len(texts), 0, [])


# -- whole streams ------------------------------------------------------------------------

#: Lines read ahead to tell a data set (one puzzle per line) from grids.
_PEEK = 64


def _peek(pieces: Iterator[str]) -> tuple[list[str], str | None]:
    """The pieces (lines, or runs of lines) up to the first line that holds
    content, and that line (None: none in the first lines)."""
    ahead: list[str] = []
    seen = 0
    for piece in pieces:
        ahead.append(piece)
        for line in piece.split("\n"):
            text = line.strip()
            if text and not text.startswith("#"):
                return ahead, text
            seen += 1
        if seen >= _PEEK:
            break
    return ahead, None


def stream_chunks(job: Job, sources: Iterable[tuple[str, Iterable[str]]],
                  examples: Sequence[tuple[str, Grid]] = ()) -> Iterator[tuple]:
    """Every chunk of a run: the named examples first, then each source
    (``(label, lines)``; the label names the source in notes and records,
    '' for none) in turn. A source whose first puzzle is a whole line (a data
    set, or jsonl) is cut into chunks of raw lines; any other is read puzzle
    by puzzle (:func:`sudokit.formats.read_puzzles`) into chunks of items.
    Puzzle numbers count from 1 in each source."""
    import itertools

    from .formats import HEADER, read_puzzles, starts_line_mode

    if examples:
        yield ("items", job, [Item(number, None, grid, example=name)
                              for number, (name, grid) in enumerate(examples, 1)])
    for label, lines in sources:
        iterator = iter(lines)
        ahead, first = _peek(iterator)
        rest = itertools.chain(ahead, iterator)
        if first is not None and starts_line_mode(first, job.shape) and not HEADER.match(first):
            if job.chunk_size >= _BLOCK_CHUNKS:
                yield from text_chunks(job, rest, source=label)
            else:
                yield from chunks(job, _split(rest), source=label)
            continue
        entries = read_puzzles(rest, shape=job.shape, symbols=job.symbols)
        while True:
            block = [item_of(entry, label) for entry in itertools.islice(entries, job.chunk_size)]
            if not block:
                break
            yield ("items", job, block)


def run(job: Job, sources: Iterable[tuple[str, Iterable[str]]], *,
        examples: Sequence[tuple[str, Grid]] = (), jobs: int = 1, notice: Any = None) -> Iterator[ChunkResult]:
    """The results of a whole run, chunk by chunk, in input order, on ``jobs``
    processes (0: every CPU). Memory stays flat whatever the input's length.
    A ``rate`` or ``explain`` run of fewer puzzles than processes takes them
    one at a time here, each puzzle's hardest searches shared by all the
    processes (:mod:`sudokit.logic.sharing`; the same output).

    What the run needs is loaded first in this process (:func:`warm`;
    ``notice`` hears once when that compiles), except for a run of a few
    puzzles that Crook's method settles on its own (:func:`_quick_result`).

    >>> results = run(Job("solve", fmt="line"), [("", ["." * 80 + "1"])])
    >>> [r.text[:9] for r in results]
    ['346789152']
    """
    return _results(job, stream_chunks(job, sources, examples), jobs, notice)


def _results(job: Job, stream: Iterator[tuple], jobs: int, notice: Any) -> Iterator[ChunkResult]:
    import itertools
    from dataclasses import replace

    from .pool import ordered_map, resolve_jobs

    lines = True
    if job.command in ("solve", "count") and job.method == "fast":
        head = list(itertools.islice(stream, 2))
        if len(head) == 1 and _size(head[0]) <= QUICK_PUZZLES:  # a few puzzles: see _quick_result
            yield run_chunk((head[0][0], replace(job, quick=True), *head[0][2:]))
            return
        lines = not head or head[0][0] != "items"  # puzzles one per line, or read from blocks
        stream = itertools.chain(head, stream)
    if job.command in ("rate", "explain") and jobs != 1:
        workers = resolve_jobs(jobs)
        head, puzzles = [], 0
        for chunk in stream:  # (a chunk holds a few puzzles: this reads no further than needed)
            head.append(chunk)
            puzzles += _puzzles(chunk)
            if puzzles >= workers:
                break
        else:  # fewer puzzles than workers: the workers share each puzzle's searches, in this process
            warm(job, notice, lines)
            shared = replace(job, share=workers)
            for chunk in head:
                yield run_chunk((chunk[0], shared, *chunk[2:]))
            return
        stream = itertools.chain(head, stream)
    warm(job, notice, lines)
    # big chunks of quick work: a few ahead; small chunks of uneven work (rating): many, so
    # that one slow puzzle does not leave the other workers idle
    window = 4 * (jobs or 1) if job.chunk_size >= _BLOCK_CHUNKS else 64 * (jobs or 1)
    yield from ordered_map(run_chunk, stream, jobs, initializer=warm, initargs=(job, None, lines), window=window)


def _puzzles(chunk: tuple) -> int:
    """The number of puzzles in ``chunk`` (lines that hold one, for a chunk of lines)."""
    if chunk[0] == "items":
        return len(chunk[2])
    if chunk[0] == "text":
        return _lines_of(chunk[2])[1]
    return sum(1 for line in chunk[2] if (text := (line.decode("utf-8", "replace") if isinstance(line, bytes)
                                                   else line).strip()) and not text.startswith("#"))


def _size(chunk: tuple) -> int:
    """At least the number of puzzles in ``chunk`` (its lines, for a chunk of lines)."""
    if chunk[0] == "text":
        return chunk[2].count("\n") + 1
    return len(chunk[2])


def _kernels_of(job: Job, lines: bool = True) -> str:
    """The engine's kernel group (:data:`sudokit.engine.KERNELS`) that does
    most of ``job``: the bulk solver for 9x9 puzzles one per line (``lines``),
    the 9x9 solver, or the one for other shapes. Only it is loaded (on a
    first run, compiled) before the first puzzle; another is loaded if a
    puzzle needs it."""
    if lines and _bulk_ready(job):
        return "batch"
    classic = job.box in (None, (3, 3))
    if job.cages or (job.variant and "killer" in job.variant):
        return "killer"
    if job.variant or job.regions:  # a 9x9 goes to the 9x9 solver over any units
        nine = len("".join(job.regions.split())) == 81 if job.regions else classic
        return "variants" if nine else "shapes"
    return "count" if classic else "shapes"


def warm(job: Job, notice: Any = None, lines: bool = True) -> None:
    """Load (and on a first run compile) what ``job`` needs, before its first
    puzzle, so that no puzzle's time limit pays for it. ``notice`` hears why a
    first run is slow; ``lines`` says whether the puzzles come one per line
    (the bulk path) or not. What is loaded by then stays for the run: it is
    moved out of the garbage collector's sight (:func:`gc.freeze`), which
    otherwise walks the compiled kernels' objects again and again in a long
    batch."""
    import gc

    if isinstance(job, GenerateJob):
        from .generation import from_seeds

        from_seeds([], **job.options())  # loads the generator's kernels (and the logic, to rate)
        if job.filtered:
            from . import logic  # noqa: F401
    elif job.command in ("rate", "explain"):
        import importlib

        importlib.import_module(f"{__package__}.logic")
    elif job.command == "canon":
        if lines and _bulk_ready(job):
            from . import canon  # noqa: F401  (registers its kernel group)
            from .engine import warm_up

            warm_up(notice, kernels=("canon",))
    elif job.method == "fast":
        from .engine import warm_up

        warm_up(notice, kernels=(_kernels_of(job, lines),))
    else:
        from .methods import get

        get(job.method).load()
    gc.freeze()
