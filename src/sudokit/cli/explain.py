"""``sudoku rate``, ``sudoku explain`` and ``sudoku hint``: human-style logic.

All three call :mod:`sudokit.logic` and only format what comes back.

* ``rate`` prints one line per puzzle, ``<puzzle>  ER/EP/ED level``
  (``≥`` in front when the rating is a lower bound).
* ``explain`` prints the numbered steps of the solving path.
* ``hint`` prints the next step for one grid, which may carry pencil marks.
"""

from __future__ import annotations

import sys

import click

from ..errors import ParseError, SudokuError
from ..grid import Shape
from .cluster import cluster_options, on_cluster, run_on_cluster
from .common import (
    CAGES_HELP, EXIT_FAILED, Output, box_option, check_units, jobs_option, open_input, puzzle_options,
    timeout_option,
)
from .running import examples

FORMATS = ("text", "jsonl")
EXPLAIN_FORMATS = FORMATS + ("html",)  # html: one self-contained page, every step drawn
HINT_FORMATS = FORMATS + ("svg",)  # svg: the step drawn on its grid


def _fail(label: str, message: str) -> None:
    click.echo(f"{label}: {message}", err=True)


_timeout_option = click.option(
    "--timeout", type=float, default=60.0, show_default=True, metavar="SECONDS", callback=timeout_option,
    help="Time for the chain searches of one puzzle; when it runs out the rating is a lower bound.")

_jobs_option = click.option(
    "-j", "--jobs", type=int, default=1, show_default=True, callback=jobs_option,
    help="Work on this many processes, 0 for every core (the output is the same whatever N); with fewer "
         "puzzles than processes, they share each puzzle's hardest searches.")


_inner_option = click.option(
    "--inner", is_flag=True,
    help="text: under a nested forcing chain (rated 9.5 and up), the inner chains it relies on, one a line, "
         "indented by depth (jsonl always carries them as 'nested').")


def _box(box: Shape | None) -> tuple[int, int] | None:
    return None if box is None else (box.box_rows, box.box_cols)


#: ``--variant``, ``--regions`` and ``--cages``: the units and cages every puzzle is rated,
#: explained or hinted under.
_units_options = puzzle_options(
    variant_help="x (both diagonals), hyper (windoku), jigsaw (with --regions), killer (with --cages); "
                 "comma-separated. X and hyper follow SukakuExplainer's X and Windows options; killers take "
                 "the killer ladder (docs/variants.md).",
    cages_help=CAGES_HELP + "); records that carry their cages need no option (docs/variants.md).")


@click.command("rate")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: 'puzzle ER/EP/ED level' per line; jsonl: one record per puzzle (docs/records.md).")
@click.option("--example", "names", multiple=True, metavar="NAME", help="Rate a named example puzzle.")
@click.option("--box", callback=box_option, metavar="RxC", help="Box shape when it cannot be guessed.")
@_units_options
@_jobs_option
@_timeout_option
@cluster_options
@click.pass_context
def rate(ctx: click.Context, paths: tuple[str, ...], fmt: str, names: tuple[str, ...], box: Shape | None,
         variant: str | None, regions: str | None, cages: str | None, jobs: int, timeout: float | None,
         cluster: str | None, output: str | None, blocksize: int | None, merge: str | None) -> None:
    """Rate every puzzle in PATHS (files, or - for standard input) as Sudoku
    Explainer does: ER (hardest step), EP (hardest up to the first placement),
    ED (first step), and a level.

    A number written "≥5.7" is a lower bound: the puzzle needs a technique
    this version does not have yet.

    \b
    Exit status: 0 all rated; 1 some puzzle unreadable or invalid, without a
    solution or with several, or none found; 2 usage error; 130 interrupted.
    """
    from ..pipeline import Job
    from .running import run_job

    check_units(ctx, variant, regions, cages=cages, logic=True)
    job = Job("rate", fmt=fmt, timeout=timeout, box=_box(box), variant=variant, regions=regions, cages=cages)
    if on_cluster(ctx, cluster, output, blocksize, merge, names):
        ctx.exit(run_on_cluster(ctx, job, paths, cluster, output, blocksize, merge))
    run_job(ctx, job, paths, names, jobs, "rating")


@click.command("explain")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-f", "--format", "fmt", type=click.Choice(EXPLAIN_FORMATS), default="text", show_default=True,
              help="text: numbered steps; jsonl: one record per step (docs/records.md); html: one page, "
                   "every step drawn (docs/pictures.md).")
@click.option("--example", "names", multiple=True, metavar="NAME", help="Explain a named example puzzle.")
@click.option("--grids", is_flag=True,
              help="Show the grid at the start, before every step harder than a single, and at the end.")
@click.option("--marks", is_flag=True, help="With --grids: show pencil marks (the candidates) in those grids.")
@_inner_option
@click.option("--box", callback=box_option, metavar="RxC", help="Box shape when it cannot be guessed.")
@_units_options
@_jobs_option
@_timeout_option
@click.pass_context
def explain(ctx: click.Context, paths: tuple[str, ...], fmt: str, names: tuple[str, ...], grids: bool,
            marks: bool, inner: bool, box: Shape | None, variant: str | None, regions: str | None, cages: str | None,
            jobs: int, timeout: float | None) -> None:
    """Explain how to solve each puzzle in PATHS step by step, always taking
    the easiest step (in Sudoku Explainer's order).

    \b
    Exit status: 0 all explained; 1 some puzzle unreadable, invalid,
    without a solution or with several, or none found; 2 usage error; 130
    interrupted. A path the --timeout cut short ends with a "Time limit"
    step that carries the rating's lower bound.
    """
    check_units(ctx, variant, regions, cages=cages, logic=True)
    if fmt == "html":
        from .pictures import explain_html

        explain_html(ctx, paths, names, box, timeout, variant=variant, regions=regions, cages=cages)
        return
    from ..pipeline import Job
    from .running import run_job

    job = Job("explain", fmt=fmt, timeout=timeout, box=_box(box), grids=grids, marks=marks, inner=inner, variant=variant,
              regions=regions, cages=cages)
    run_job(ctx, job, paths, names, jobs, "explaining")


def _under(grid, variant: str | None, regions: str | None, cages: str | None):  # type: ignore[no-untyped-def]
    """``grid`` under the named units and the ``--cages`` text, read for its size."""
    from .. import variants
    from ..killer import cages_for

    return variants.under(grid, variant, regions, None if cages is None else cages_for(cages, grid.size))


def _hint_grid(text: str, box: Shape | None, variant: str | None = None, regions: str | None = None,
                cages: str | None = None):
    """The grid in ``text`` under the named units and cages, and its pencil
    marks (None when the text carries none: a plain grid)."""
    from .. import formats

    try:
        grid, masks = formats.parse_candidates(text, shape=box)
    except SudokuError:
        # not a pencil-mark grid: read it as `solve` does, so both say the same about it
        return _under(_one_grid(text, box), variant, regions, cages), None
    # a plain grid gets the classic candidates from the reader: only real pencil marks are kept
    plain = grid.candidate_masks()
    if all(m == p for v, m, p in zip(grid.values, masks, plain) if not v):
        return _under(grid, variant, regions, cages), None
    return _under(grid, variant, regions, cages), masks


def _one_grid(text: str, box: Shape | None, what: str = ""):  # type: ignore[no-untyped-def]
    """The first puzzle in ``text``, read as ``solve`` reads it (``what`` names where it came from)."""
    import io

    from .. import formats
    from ..formats import MAX_RECORD

    if len(text) > MAX_RECORD:
        raise ParseError(f"{what + ': ' if what else ''}over {MAX_RECORD} characters; a hint takes one puzzle")
    first = next(iter(formats.read_puzzles(io.StringIO(text), shape=box)), None)
    if first is None:
        raise ParseError(f"{what + ': ' if what else ''}no puzzle found")
    if first.error is not None or first.grid is None:
        error = first.error
        if isinstance(error, ParseError):  # the label "puzzle 1" is added when it is shown
            raise ParseError(f"{what + ': ' if what else ''}{error.reason}", line=error.line,
                             column=error.column) from None
        raise error if isinstance(error, SudokuError) else ParseError(str(error)) from None
    return first.grid


@click.command("hint")
@click.argument("path", required=False, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-f", "--format", "fmt", type=click.Choice(HINT_FORMATS), default="text", show_default=True,
              help="text: the step; jsonl: its record; svg: the step drawn on the grid.")
@click.option("--example", "name", metavar="NAME", help="Hint for a named example puzzle.")
@click.option("--givens", "givens_path", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="The puzzle as set: the grid's other values are a player's entries, and the ones that "
                   "disagree with the givens' solution are named instead of a hint.")
@_inner_option
@click.option("--box", callback=box_option, metavar="RxC", help="Box shape when it cannot be guessed.")
@_units_options
@click.option("-j", "--jobs", type=int, default=1, show_default=True, callback=jobs_option,
              help="Share the hardest searches among this many processes, 0 for every core (the same step).")
@_timeout_option
@click.pass_context
def hint(ctx: click.Context, path: str | None, fmt: str, name: str | None, givens_path: str | None, inner: bool,
         box: Shape | None, variant: str | None, regions: str | None, cages: str | None, jobs: int,
         timeout: float | None) -> None:
    """Show the next logical step for one puzzle in PATH (or - for standard
    input). The grid may carry pencil marks (the candidates format); then
    the step works on those marks. A hint always leads to the grid's one
    solution: a grid with none or several, entries that disagree with the
    givens' solution (--givens), and pencil marks that exclude it get no
    step but a message naming them.

    \b
    Exit status: 0 a step was found; 1 no technique applies, the puzzle is
    unreadable, breaks the rules, has no solution or several, or has wrong
    entries or pencil marks; 2 usage error.
    """
    from ..formats import MAX_RECORD
    from ..logic import Candidates, hint as next_step

    check_units(ctx, variant, regions, cages=cages, logic=True)
    try:
        if name is not None:
            grid, marks = _under(examples((name,))[0][1], variant, regions, cages), None
        else:
            if path is None:
                if sys.stdin is None or sys.stdin.isatty():
                    raise click.UsageError("give a file with one puzzle, '-' for standard input, or --example NAME")
                path = "-"
            with open_input(path) as stream:
                text = stream.read(MAX_RECORD + 1)  # one puzzle: a bounded read
            if len(text) > MAX_RECORD:  # named as the other commands name a file too long to read
                click.echo(f"sudoku: {'standard input' if path == '-' else path}: too long: over {MAX_RECORD} "
                           "characters; a hint takes one puzzle", err=True)
                ctx.exit(EXIT_FAILED)
                return
            if not text.strip():
                click.echo(f"no puzzle found in {'standard input' if path == '-' else repr(path)}", err=True)
                ctx.exit(EXIT_FAILED)
                return
            grid, marks = _hint_grid(text, box, variant, regions, cages)
        givens = None
        if givens_path is not None:
            with open_input(givens_path) as stream:
                givens = _one_grid(stream.read(MAX_RECORD + 1), box, "--givens")
        step = next_step(grid, givens=givens, marks=marks, timeout=timeout, jobs=jobs)
    except SudokuError as exc:
        _fail("puzzle 1", str(exc))
        ctx.exit(EXIT_FAILED)
        return
    if step is None:
        _fail("puzzle 1", "no technique applies here (solved, or beyond the implemented techniques)")
        ctx.exit(EXIT_FAILED)
        return
    state = Candidates.from_grid(grid) if marks is None else Candidates.from_masks(grid, marks)
    if fmt == "svg":
        from .pictures import hint_svg

        hint_svg(step, state)
    elif fmt == "jsonl":
        from .. import records

        # the step record, as `explain --format jsonl` and /api/hint write it
        Output().write(records.dumps(records.step_record(grid, 1, step, state.geo, example=name or "")))
    else:
        Output().write(step.details() if inner else step.text)
