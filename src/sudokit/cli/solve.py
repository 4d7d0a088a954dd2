"""``sudoku solve`` and ``sudoku examples``.

``solve`` turns its options into a :class:`sudokit.pipeline.Job` and hands
the inputs to :func:`sudokit.cli.running.run_job`, which runs the library's
one data path and writes what comes back, in input order, as soon as each
chunk is done. A puzzle that fails is reported on stderr
(``puzzle 3 (line 7): no_solution: ...``) and in its record; the batch goes on.
"""

from __future__ import annotations

import json

import click

from ..grid import Shape
from .cluster import cluster_options, on_cluster, run_on_cluster
from .common import (
    BOX_HELP, CAGES_HELP, SYMBOLS_HELP, check_units, jobs_option, limit_option, method_option,
    methods_help, nodes_option, puzzle_options, render, symbols_option, timeout_option, variant_method,
)

#: Output formats of ``sudoku solve``.
SOLVE_FORMATS = ("block", "line", "spaced", "boxed", "rows", "jsonl", "candidates", "svg")

#: Formats that can show a count of solutions.
COUNT_FORMATS = ("block", "line", "jsonl")

#: The solution limit for --count and --all when --limit is not given.
DEFAULT_LIMIT = 1000


def _check_options(ctx: click.Context, method: str, fmt: str, counting: bool, all_: bool,
                   limit: int | None, several: bool) -> str:
    """The mode (solve, count or all), once the options are known to fit together."""
    from ..methods import available, get

    if counting and all_:
        raise click.UsageError("give --count or --all, not both", ctx)
    mode = "all" if all_ else "count" if counting else "solve"
    if limit is not None and mode == "solve":
        raise click.UsageError("--limit applies only with --count or --all", ctx)
    if mode != "solve" and not get(method).complete:
        complete = ", ".join(sorted(n for n, s in available().items() if s.complete))
        raise click.UsageError(
            f"method {method!r} is logic only: it cannot count or enumerate solutions; "
            f"choose one of: {complete}", ctx)
    if mode == "count" and fmt not in COUNT_FORMATS:
        raise click.UsageError(f"--count writes {', '.join(COUNT_FORMATS)}, not {fmt}", ctx)
    if fmt == "svg" and several:
        raise click.UsageError("--format svg draws a single puzzle; give one input", ctx)
    return mode


@click.command("solve")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-m", "--method", default="fast", show_default=True, callback=method_option,
              help=f"How to solve: {methods_help()}.")
@click.option("-f", "--format", "fmt", type=click.Choice(SOLVE_FORMATS), default="block", show_default=True,
              help="block: puzzle and solution in the classic ===/---/=== block; line: one solution per "
                   "line (an empty line where there is none; with --count, the count); jsonl: one record "
                   "per puzzle (docs/records.md); candidates: the pencil marks where logic got stuck; "
                   "svg: a picture (one puzzle).")
@click.option("--count", "counting", is_flag=True, help="Count the solutions (up to --limit).")
@click.option("--all", "all_", is_flag=True, help="Print every solution (up to --limit).")
@click.option("--limit", callback=limit_option, default=None, metavar="N",
              help=f"Stop counting or enumerating at this many solutions [default: {DEFAULT_LIMIT}].")
@puzzle_options(box_help=BOX_HELP, symbols_help=SYMBOLS_HELP,
                variant_help="Extra rules, combinable: x (the two diagonals), hyper (windoku's windows), jigsaw "
                             "(with --regions), killer (with --cages) (docs/variants.md).",
                cages_help=CAGES_HELP + "; docs/variants.md); every puzzle is solved under them.")
@click.option("--timeout", callback=timeout_option, default=None, metavar="SECONDS",
              help="Give up on a puzzle after this long (status timeout; a count is then a lower bound).")
@click.option("--nodes", callback=nodes_option, default=None, metavar="N",
              help="Give up on a puzzle after this many search nodes (status timeout).")
@click.option("--example", "names", multiple=True, metavar="NAME",
              help="Solve a named example (see: sudoku examples); may be repeated.")
@click.option("-j", "--jobs", callback=jobs_option, default="1", show_default=True, metavar="N",
              help="Worker processes, 0 for every core (the output is the same whatever N).")
@cluster_options
@click.pass_context
def solve(ctx: click.Context, paths: tuple[str, ...], method: str, fmt: str, counting: bool, all_: bool,
          limit: int | None, box: Shape | None, symbols: str | None, variant: str | None, regions: str | None,
          cages: str | None, timeout: float | None,
          nodes: int | None, names: tuple[str, ...], jobs: int, cluster: str | None, output: str | None,
          blocksize: int | None, merge: str | None) -> None:
    """Solve every puzzle in PATHS (files, or - for standard input).

    Puzzles may be in any format sudokit reads (line, rows, spaced, boxed,
    jsonl...), many per file. Results come out in input order as each is
    done. A puzzle that fails is reported on stderr as
    "puzzle 3 (line 7): no_solution: ..." and the batch goes on.

    \b
    Exit status: 0 every puzzle solved; 1 some puzzle failed (no solution,
    invalid givens, unreadable, stuck, timeout) or none was found; 2 usage
    error; 130 interrupted.
    """
    from ..pipeline import Job
    from .running import examples, run_job

    if variant is not None or regions is not None or cages is not None:
        check_units(ctx, variant, regions, cages=cages)
        method = variant_method(ctx, method, killer=cages is not None)
    mode = _check_options(ctx, method, fmt, counting, all_, limit, len(paths) + len(names) > 1)
    if mode != "solve" and limit is None:
        limit = DEFAULT_LIMIT
    job = Job(mode, method, fmt, limit, timeout, nodes,
              None if box is None else (box.box_rows, box.box_cols), symbols, variant=variant, regions=regions,
              cages=cages)
    if on_cluster(ctx, cluster, output, blocksize, merge, names, single=fmt == "svg"):
        ctx.exit(run_on_cluster(ctx, job, paths, cluster, output, blocksize, merge))
    grids = None
    if box is not None and names:
        grids = [(name, _reshaped(grid, box, name)) for name, grid in examples(names)]
    run_job(ctx, job, paths, names, jobs, "solving", grids=grids, single=fmt == "svg")


def _reshaped(grid, box: Shape, name: str):  # type: ignore[no-untyped-def]
    """A named example read with another box shape of the same size."""
    from ..grid import Grid

    if box == grid.shape:
        return grid
    if box.cell_count != grid.shape.cell_count:
        raise click.BadParameter(f"example {name!r} is {grid.size}x{grid.size}; a {box} box makes "
                                 f"{box.size}x{box.size} grids", param_hint="'--box'")
    return Grid(grid.values, box)


def _line(grid, symbols):  # type: ignore[no-untyped-def]
    return render(grid, "line", symbols)


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
