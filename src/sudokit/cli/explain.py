"""``sudoku rate``, ``sudoku explain`` and ``sudoku hint``: human-style logic.

All three call :mod:`sudokit.logic` and only format what comes back.

* ``rate`` prints one line per puzzle, ``<puzzle>  ER/EP/ED level``
  (``≥`` in front when the rating is a lower bound).
* ``explain`` prints the numbered steps of the solving path.
* ``hint`` prints the next step for one grid, which may carry pencil marks.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Iterator

import click

from ..errors import ParseError, SudokuError
from ..grid import Grid, Shape
from .common import (
    EXIT_FAILED, Output, box_option, jobs_option, open_input, read_puzzles, render, timeout_option,
)

FORMATS = ("text", "jsonl")
EXPLAIN_FORMATS = FORMATS + ("html",)  # html: one self-contained page, every step drawn
HINT_FORMATS = FORMATS + ("svg",)  # svg: the step drawn on its grid


def _named(names: tuple[str, ...]) -> list[tuple[str, Grid]]:
    from ..examples import EXAMPLES

    out = []
    for name in names:
        if name not in EXAMPLES:
            raise click.BadParameter(f"no example called {name!r}; choose one of: {', '.join(EXAMPLES)}",
                                     param_hint="'--example'")
        out.append((name, EXAMPLES[name].grid))
    return out


def _entries(paths: tuple[str, ...], names: tuple[str, ...], box: Shape | None) -> Iterator[tuple[str, Any]]:
    """(label, Grid or error message) for every puzzle asked for."""
    for name, grid in _named(names):
        yield f"example {name}", grid
    if not paths and not names:
        if sys.stdin is None or sys.stdin.isatty():
            raise click.UsageError("give a file of puzzles, '-' for standard input, or --example NAME")
        paths = ("-",)
    count = 0
    for path in paths:
        with open_input(path) as stream:
            for entry in read_puzzles(stream, shape=box):
                count += 1
                label = f"puzzle {count} (line {entry.line})"
                if entry.error is not None or entry.grid is None:
                    yield label, _reason(entry.error)
                else:
                    yield label, entry.grid


def _reason(error: object) -> str:
    """A parse error's message without the place, which the label already gives."""
    if isinstance(error, ParseError):
        return (f"column {error.column}: " if error.column else "") + error.reason
    return str(error)


def _fail(label: str, message: str) -> None:
    click.echo(f"{label}: {message}", err=True)


def _rate_one(item: "Grid | str", timeout: float | None = None) -> "tuple[Grid | str, Any]":
    """(item, Rating or error message) for one puzzle; runs in worker processes."""
    from ..logic import rate as rate_grid

    if isinstance(item, str):
        return item, item
    try:
        return item, rate_grid(item, timeout=timeout)
    except SudokuError as exc:
        return item, str(exc)


_timeout_option = click.option(
    "--timeout", type=float, default=60.0, show_default=True, metavar="SECONDS", callback=timeout_option,
    help="Time for the chain searches of one puzzle; when it runs out the rating is a lower bound.")


def _rated(items: Iterator[tuple[str, Any]], jobs: int, timeout: float | None) -> Iterator[tuple[str, Any, Any]]:
    """(label, item, Rating or message), in input order, on ``jobs`` processes."""
    if jobs <= 1:
        for label, item in items:
            yield (label, *_rate_one(item, timeout))
        return
    import functools
    import itertools
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        while True:
            window = list(itertools.islice(items, 64 * jobs))
            if not window:
                return
            results = pool.map(functools.partial(_rate_one, timeout=timeout), [item for _, item in window],
                               chunksize=16)
            for (label, _), (item, outcome) in zip(window, results):
                yield label, item, outcome


@click.command("rate")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: 'puzzle ER/EP/ED level' per line; jsonl: one JSON object per puzzle.")
@click.option("--example", "names", multiple=True, metavar="NAME", help="Rate a named example puzzle.")
@click.option("--box", callback=box_option, metavar="RxC", help="Box shape when it cannot be guessed.")
@click.option("-j", "--jobs", type=int, default=1, show_default=True, callback=jobs_option,
              help="Rate on this many processes (output stays in input order); 0 is one per core.")
@_timeout_option
@click.pass_context
def rate(ctx: click.Context, paths: tuple[str, ...], fmt: str, names: tuple[str, ...], box: Shape | None,
         jobs: int, timeout: float | None) -> None:
    """Rate every puzzle in PATHS (files, or - for standard input) as Sudoku
    Explainer does: ER (hardest step), EP (hardest up to the first placement),
    ED (first step), and a level.

    A number written "≥5.7" is a lower bound: the puzzle needs a technique
    this version does not have yet.

    \b
    Exit status: 0 all rated; 1 some puzzle unreadable or invalid; 2 usage error.
    """
    out, failed = Output(), 0
    for label, item, r in _rated(_entries(paths, names, box), jobs, timeout):
        if isinstance(r, str):
            failed += 1
            _fail(label, r)
            continue
        if fmt == "jsonl":
            out.write(json.dumps({
                "puzzle": item.line(), "er": r.er, "ep": r.ep, "ed": r.ed, "level": r.level,
                "lower_bound": r.lower_bound, "ep_lower_bound": r.ep_lower_bound,
                "ed_lower_bound": r.ed_lower_bound, "hardest": r.hardest, "steps": r.steps,
                "score": r.score, "score_level": r.score_level,
            }, ensure_ascii=False))
        else:
            out.write(f"{item.line()}  {r}")
    ctx.exit(EXIT_FAILED if failed else 0)


def _grid_text(grid: Grid) -> str:
    try:
        return render(grid, "boxed")
    except Exception:  # a formats module without the boxed writer
        return grid.line()


def _marks_text(state) -> str:
    """The grid with pencil marks: a value, or the candidates of a blank cell
    (``.`` then the candidate when only one is left), boxed."""
    geo = state.geo
    n, br, bc = geo.n, geo.shape.box_rows, geo.shape.box_cols
    cells = []
    for c in range(n * n):
        if state.values[c]:
            cells.append(geo.symbol(state.values[c]))
        else:
            text = "".join(geo.symbol(v) for v in state.values_of(c))
            cells.append(text if len(text) > 1 else "." + text)
    widths = [max(len(cells[r * n + col]) for r in range(n)) for col in range(n)]
    stacks = [range(s * bc, (s + 1) * bc) for s in range(n // bc)]
    rule = "+" + "+".join("-" * (sum(widths[col] + 1 for col in stack) + 1) for stack in stacks) + "+"
    lines = [rule]
    for r in range(n):
        parts = [" ".join(cells[r * n + col].ljust(widths[col]) for col in stack) for stack in stacks]
        lines.append("| " + " | ".join(parts) + " |")
        if (r + 1) % br == 0:
            lines.append(rule)
    return "\n".join(lines)


@click.command("explain")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-f", "--format", "fmt", type=click.Choice(EXPLAIN_FORMATS), default="text", show_default=True,
              help="text: numbered steps; jsonl: one JSON object per step; html: one page, "
                   "every step drawn (docs/pictures.md).")
@click.option("--example", "names", multiple=True, metavar="NAME", help="Explain a named example puzzle.")
@click.option("--grids", is_flag=True,
              help="Show the grid at the start, before every step harder than a single, and at the end.")
@click.option("--marks", is_flag=True, help="With --grids: show pencil marks (the candidates) in those grids.")
@click.option("--box", callback=box_option, metavar="RxC", help="Box shape when it cannot be guessed.")
@_timeout_option
@click.pass_context
def explain(ctx: click.Context, paths: tuple[str, ...], fmt: str, names: tuple[str, ...], grids: bool,
            marks: bool, box: Shape | None, timeout: float | None) -> None:
    """Explain how to solve each puzzle in PATHS step by step, always taking
    the easiest step (in Sudoku Explainer's order).

    \b
    Exit status: 0 all explained; 1 some puzzle unreadable, invalid or
    without a solution; 2 usage error.
    """
    if fmt == "html":
        from .pictures import explain_html

        explain_html(ctx, paths, names, box, timeout)
        return
    from ..logic import Candidates, explain as explain_grid, rate

    out, failed = Output(), 0
    for label, item in _entries(paths, names, box):
        if isinstance(item, str):
            failed += 1
            _fail(label, item)
            continue
        try:
            path = explain_grid(item, timeout=timeout)
            rating = rate(item, timeout=timeout)
        except SudokuError as exc:
            failed += 1
            _fail(label, str(exc))
            continue
        state = Candidates.from_grid(item)
        if fmt == "jsonl":
            for number, step in enumerate(path, 1):
                record = {"puzzle": item.line(), "step": number, **step.as_dict(state.geo)}
                step.apply(state)
                if grids:
                    record["grid"] = state.grid().line()
                out.write(json.dumps(record, ensure_ascii=False))
            continue
        out.write(f"{label}: {item.line()}  {rating}")
        show = _marks_text if marks else (lambda s: _grid_text(s.grid()))
        if grids:
            out.write(show(state))
        for number, step in enumerate(path, 1):
            if grids and step.rating > 2.3 and number > 1:
                out.write(show(state))
            out.write(f"{number:3d}. [{step.rating:.1f}] {step.text}")
            step.apply(state)
        if grids:
            out.write(_grid_text(state.grid()))
        out.write("")
    ctx.exit(EXIT_FAILED if failed else 0)


def _hint_state(text: str, box: Shape | None):
    """A candidates state from text that may carry pencil marks."""
    from .. import formats
    from ..logic import Candidates

    try:
        grid, masks = formats.parse_candidates(text, shape=box)
        return Candidates.from_masks(grid, masks)
    except SudokuError:
        # not a pencil-mark grid: read it as `solve` does, so both say the same about it
        import io

        first = next(iter(formats.read_puzzles(io.StringIO(text), shape=box)), None)
        if first is None:
            raise
        if first.error is not None or first.grid is None:
            error = first.error
            if isinstance(error, ParseError):  # the label "puzzle 1" is added when it is shown
                raise ParseError(error.reason, line=error.line, column=error.column) from None
            raise error if isinstance(error, SudokuError) else ParseError(str(error)) from None
        return Candidates.from_grid(first.grid)


@click.command("hint")
@click.argument("path", required=False, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-f", "--format", "fmt", type=click.Choice(HINT_FORMATS), default="text", show_default=True,
              help="text: the step; jsonl: its record; svg: the step drawn on the grid.")
@click.option("--example", "name", metavar="NAME", help="Hint for a named example puzzle.")
@click.option("--box", callback=box_option, metavar="RxC", help="Box shape when it cannot be guessed.")
@click.pass_context
def hint(ctx: click.Context, path: str | None, fmt: str, name: str | None, box: Shape | None) -> None:
    """Show the next logical step for one puzzle in PATH (or - for standard
    input). The grid may carry pencil marks (the candidates format); then
    the step works on those marks.

    \b
    Exit status: 0 a step was found; 1 no technique applies or the puzzle is
    unreadable; 2 usage error.
    """
    from ..logic import Candidates, hint as next_step

    try:
        if name is not None:
            state = Candidates.from_grid(_named((name,))[0][1])
        else:
            if path is None:
                if sys.stdin is None or sys.stdin.isatty():
                    raise click.UsageError("give a file with one puzzle, '-' for standard input, or --example NAME")
                path = "-"
            with open_input(path) as stream:
                text = stream.read()
            state = _hint_state(text, box)
        step = next_step(state)
    except SudokuError as exc:
        _fail("puzzle 1", str(exc))
        ctx.exit(EXIT_FAILED)
        return
    if step is None:
        _fail("puzzle 1", "no technique applies here (solved, or beyond the implemented techniques)")
        ctx.exit(EXIT_FAILED)
        return
    if fmt == "svg":
        from .pictures import hint_svg

        hint_svg(step, state)
    elif fmt == "jsonl":
        Output().write(json.dumps(step.as_dict(state.geo), ensure_ascii=False))
    else:
        Output().write(step.text)
