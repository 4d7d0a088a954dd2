"""``sudoku canon``: the canonical form of every puzzle, and ``--dedupe``.

The options become a :class:`sudokit.pipeline.Job` (command ``canon``) run
by :func:`sudokit.cli.running.run_job` or on a cluster, as ``solve`` runs;
``--dedupe`` passes each chunk's text through a
:class:`sudokit.canon.dedupe.FirstSeen`.
"""

from __future__ import annotations

import click

from ..grid import Shape
from .cluster import cluster_options, on_cluster, run_on_cluster
from .common import BOX_HELP, CAGES_HELP, SYMBOLS_HELP, check_units, jobs_option, puzzle_options

#: Output formats of ``sudoku canon``.
CANON_FORMATS = ("line", "jsonl")


@click.command("canon")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--form", type=click.Choice(("minlex", "patminlex")), default="minlex", show_default=True,
              help="minlex: the smallest line over every transformation, blanks counted as 0; patminlex: "
                   "the smallest pattern of givens first, then the smallest digits.")
@click.option("-f", "--format", "fmt", type=click.Choice(CANON_FORMATS), default="line", show_default=True,
              help="line: the canonical form, one line per puzzle (an empty line for one that failed); "
                   "jsonl: with the transformation there and back and the automorphism count.")
@click.option("--dedupe", is_flag=True,
              help="Write each class once, at its first puzzle, in input order (memory stays bounded: "
                   "beyond --memory forms the rest are kept in a temporary file).")
@click.option("--memory", type=click.IntRange(min=1), default=1_000_000, show_default=True, metavar="N",
              help="With --dedupe: canonical forms kept in memory before they spill to disk.")
@puzzle_options(box_help=BOX_HELP, symbols_help=SYMBOLS_HELP,
                variant_help="x, hyper, jigsaw (with --regions), killer (with --cages): each keeps only its own "
                             "symmetries (docs/canon.md).",
                cages_help=CAGES_HELP + ").")
@click.option("-j", "--jobs", callback=jobs_option, default="1", show_default=True, metavar="N",
              help="Worker processes, 0 for every core (the output is the same whatever N).")
@cluster_options
@click.pass_context
def canon(ctx: click.Context, paths: tuple[str, ...], form: str, fmt: str, dedupe: bool, memory: int,
          box: Shape | None, symbols: str | None, variant: str | None, regions: str | None, cages: str | None,
          jobs: int, cluster: str | None, output: str | None, blocksize: int | None, merge: str | None) -> None:
    """The canonical form of every puzzle in PATHS (files, or - for standard input).

    Two puzzles are equivalent when transposition, moves of bands, stacks,
    rows within a band, columns within a stack, and relabelling of the digits
    turn one into the other; equivalent puzzles get the same form.

    \b
      sudoku canon puzzles.txt                      one form per line
      sudoku canon --format jsonl puzzles.txt       with the transformation
      sudoku canon --dedupe big.txt > classes.txt   each class once

    \b
    Exit status: 0 every puzzle done; 1 some puzzle failed (unreadable,
    givens that clash) or none was found; 2 usage error; 130 interrupted.
    """
    from ..pipeline import Job
    from .running import run_job

    if variant is not None or regions is not None or cages is not None:
        check_units(ctx, variant, regions, cages=cages)
    if dedupe and output is not None:
        raise click.UsageError("--dedupe writes to standard output; leave out --output", ctx)
    job = Job("canon", fmt=fmt, box=None if box is None else (box.box_rows, box.box_cols), symbols=symbols,
              variant=variant, regions=regions, cages=cages, form=form)
    seen = None
    if dedupe:
        from ..canon.dedupe import FirstSeen

        seen = FirstSeen(memory)
    try:
        keep = None if seen is None else seen.filter_text
        if on_cluster(ctx, cluster, output, blocksize, merge):
            ctx.exit(run_on_cluster(ctx, job, paths, cluster, output, blocksize, merge, label="sudoku canon",
                                    keep=keep))
        run_job(ctx, job, paths, (), jobs, "canonicalising", keep=keep)
    finally:
        if seen is not None:
            seen.close()
