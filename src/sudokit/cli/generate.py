"""``sudoku generate``: new puzzles, streamed as they are made.

Each puzzle is written and flushed as soon as it exists, so an interrupted run
(Ctrl-C, exit status 130) keeps every line already written. The algorithm
lives in :mod:`sudokit.generation`; this module only parses options and
formats what comes back.
"""

from __future__ import annotations

import re
import sys

import click

from .cluster import cluster_options, generate_on_cluster, on_cluster
from .common import (
    EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, Output, Progress, box_option, interrupted_exit, jobs_option,
    check_units, killer_options, regions_option, request_shape, seed_option, time_left, timeout_option,
    variant_option,
)

FORMAT_CHOICES = ("line", "spaced", "boxed", "rows", "jsonl")


def technique_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A technique name as a family (:func:`sudokit.logic.techniques.resolve`); a bad one is a usage error."""
    if value is None:
        return None
    from ..logic.techniques import UnknownTechnique, resolve

    try:
        return resolve(value)
    except UnknownTechnique as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


@click.command("generate")
@click.option("-n", "count", type=click.IntRange(min=0), default=1, show_default=True,
              help="How many puzzles.")
@click.option("--box", "box", callback=box_option, metavar="RxC",
              help="Box rows x box columns: 3x3 (9x9, the default), 2x3, 4x4, 5x5...")
@click.option("--size", "size", type=click.IntRange(min=1, max=64), metavar="N",
              help="Grid size N; the box shape is the conventional one for N.")
@click.option("--minimal", type=click.Choice(["unique", "logic", "preemptive", "cages"]), default="unique",
              show_default=True,
              help="Every clue is needed for: a unique solution; solving by singles; "
                   "solving by singles and preemptive sets. A killer is unique, or with cages: no two "
                   "touching cages can be joined and keep it unique (with its --givens).")
@click.option("--method", type=click.Choice(["fast", "clauses"]), default="fast", show_default=True,
              help="The generator: fast (compiled, any rule and filter, every core) or clauses "
                   "(the clauses write-up's own, pure Python: --minimal logic only; nothing to compile).")
@click.option("--symmetry", type=click.Choice(["none", "rotate180", "rotate90", "mirror", "flip",
                                               "diagonal", "dihedral"]),
              default="none", show_default=True,
              help="Symmetry of the clue pattern (a killer's: of its --givens).")
@click.option("--seed", type=click.IntRange(min=0), default=None, callback=seed_option,
              help="Seed: the same seed gives the same puzzles; puzzle i uses seed+i.")
@click.option("--format", "fmt", type=click.Choice(FORMAT_CHOICES), default="line", show_default=True,
              help="Output format; jsonl by default where a line cannot record what reading the puzzles "
                   "back needs (boxes other than the usual ones for the size, a variant).")
@click.option("--with-solution", is_flag=True,
              help="Write each solution too: on the puzzle's line (line), after a --- rule (the grids), "
                   "as a field (jsonl).")
@click.option("--jobs", type=int, default=1, show_default=True, callback=jobs_option,
              help="Worker processes: 0 is one per core; at most 4 x the cores (at least 8).")
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard", "fiendish", "diabolical"]),
              default=None, help="Keep only puzzles of this level.")
@click.option("--rating", default=None, metavar="LO-HI",
              help="Keep only puzzles whose SE rating (ER) lies in LO-HI, e.g. 2.5-4.0.")
@click.option("--technique", default=None, metavar="NAME", callback=technique_option,
              help="Keep only puzzles whose solving path uses this technique somewhere: a family such as "
                   "X-Wing, WXYZ-Wing, Unique Rectangle, in any case, with or without a variant suffix "
                   "('Unique Rectangle type 2'), SE's or HoDoKu's name ('Locked Candidates' for Pointing). "
                   "A bad name lists the names (docs/generating.md).")
@click.option("--hardest-technique", default=None, metavar="NAME", callback=technique_option,
              help="Keep only puzzles whose hardest step (the one that sets ER) is this technique; "
                   "names as for --technique.")
@click.option("--attempts", type=click.IntRange(min=1), default=None,
              help="With a filter: how many puzzles to try per match (default 1000).")
@click.option("--timeout", type=float, default=None, callback=timeout_option, metavar="SECONDS",
              help="Seconds for the whole run; stop with a message when they run out.")
@click.option("--variant", callback=variant_option, metavar="NAMES",
              help="Extra rules, combinable: x (the two diagonals), hyper (windoku's windows), jigsaw "
                   "(with --regions), killer (cages with sums, no givens unless --givens; up to 12x12). "
                   "No difficulty filter with a variant yet (docs/variants.md).")
@click.option("--givens", type=click.IntRange(min=0), default=None, metavar="K",
              help="Killers only: give K cells of the solution (0 to N²-1; default 0), chosen from the "
                   "seed where they tell a second solution apart, the rest spread out; --symmetry applies "
                   "to them. An easier killer, or with --minimal cages fewer, bigger cages.")
@click.option("--regions", callback=regions_option, metavar="LAYOUT",
              help="Jigsaw regions: N² region symbols, row by row (implies --variant jigsaw; the size "
                   "comes from the layout), or random: a fresh layout drawn from each puzzle's seed.")
@cluster_options
@click.pass_context
def generate(ctx: click.Context, count: int, box, size: int | None, minimal: str, method: str, symmetry: str,  # type: ignore[no-untyped-def]
             seed: int | None, fmt: str, with_solution: bool, jobs: int, difficulty: str | None,
             rating: str | None, technique: str | None, hardest_technique: str | None, attempts: int | None,
             timeout: float | None, variant: str | None, regions: str | None, givens: int | None, cluster: str | None,
             output: str | None, blocksize: int | None, merge: str | None) -> None:
    """Generate new puzzles with one solution, minimal for a rule.

    \b
      sudoku generate -n 10 --symmetry rotate180
      sudoku generate --box 4x4 --format boxed --with-solution
      sudoku generate -n 100 --minimal logic --format jsonl --seed 42 --jobs 2
      sudoku generate --difficulty fiendish --attempts 500
      sudoku generate --technique X-Wing -n 5 --seed 1
      sudoku generate --method clauses --minimal logic --format spaced
      sudoku generate -n 5 --variant x --format jsonl
      sudoku generate -n 5 --variant killer --format jsonl --seed 1
      sudoku generate -n 5 --variant killer --givens 6 --minimal cages --seed 1
    """
    import functools

    from ..errors import SudokuError
    from ..generation import GenerationError, generate_many
    from ..pipeline import generated_text

    if box is not None and size is not None:
        raise click.UsageError("give --box or --size, not both")
    if sum(x is not None for x in (difficulty, rating, technique, hardest_technique)) > 1:
        raise click.UsageError("give at most one of --difficulty, --rating, --technique and --hardest-technique")
    if hardest_technique is not None:
        from ..generation.filters import HARDEST

        technique = HARDEST + hardest_technique
    if method == "clauses" and minimal != "logic":
        raise click.UsageError("--method clauses makes --minimal logic puzzles; add --minimal logic", ctx)
    check_units(ctx, variant, regions, generating=True)
    killer = variant is not None and "killer" in variant.split(",")
    if killer and fmt != "jsonl":  # the cages are a field of the record: the grid alone is blank
        if ctx.get_parameter_source("fmt") is not click.core.ParameterSource.DEFAULT:
            raise click.UsageError(f"a killer is written as a jsonl record, with its cages; --format {fmt} "
                                   "would print a blank grid", ctx)
        fmt = "jsonl"
    shape = request_shape(box, size, regions)
    givens = killer_options(ctx, variant, minimal, givens, shape, symmetry)
    fmt = _recording(ctx, fmt, shape, variant, regions)
    if on_cluster(ctx, cluster, output, blocksize, merge):
        from ..pipeline import GenerateJob

        if method != "fast":
            raise click.UsageError("a cluster runs the fast generator; leave out --method", ctx)

        if timeout is not None:
            raise click.UsageError("--timeout is not watched on a cluster; stop the run with Ctrl-C", ctx)
        job = GenerateJob((shape.box_rows, shape.box_cols), minimal, symmetry, fmt, with_solution, difficulty,
                          rating, technique, variant=variant, regions=regions, givens=givens)
        if seed is None:
            import secrets

            seed = secrets.randbelow(2**31)
        ctx.exit(generate_on_cluster(ctx, job, count, seed, cluster, output, filtered=job.filtered,  # type: ignore[arg-type]
                                     attempts=attempts, merge=merge))
    label = f"generating {shape} puzzles"
    progress = Progress(label)
    out = Output()
    made = 0

    def step(fraction: float) -> None:
        """Within a slow puzzle: show how far the current one has got."""
        progress.describe(f"{label} ({fraction * count - made:.0%} of the current)")

    try:
        stream = generate_many(count, shape=shape, minimal=minimal, symmetry=symmetry, seed=seed,
                               jobs=jobs, difficulty=difficulty, rating=rating, technique=technique,
                               attempts=attempts, timeout=time_left(timeout),
                               progress=step if progress.enabled else None,
                               render=functools.partial(generated_text, fmt=fmt, with_solution=with_solution),
                               method=method, variant=variant, regions=regions, givens=givens)
    except SudokuError as exc:
        raise click.UsageError(str(exc)) from None

    try:
        with progress:
            for text in stream:  # written by the worker that made the puzzle
                out.write(text)
                made += 1
                progress.advance()
    except GenerationError as exc:
        message = str(exc)
        if timeout is not None:  # the library got what was left after start-up: name the user's limit
            message = re.sub(r"^time limit of \S+ s", f"time limit of {timeout:g} s", message)
        click.echo(f"sudoku generate: {message}", err=True)
        sys.exit(EXIT_FAILED)
    except SudokuError as exc:
        click.echo(f"sudoku generate: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo(f"sudoku generate: interrupted after {made} of {count} puzzles", err=True)
        stream.close()  # stops the worker pool at once
        interrupted_exit(jobs)
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)


def _recording(ctx: click.Context, fmt: str, shape, variant: str | None, regions: str | None) -> str:  # type: ignore[no-untyped-def]
    """The format to write: one that records what reading the puzzles back needs (the box
    shape when it is not the usual one for the size, a variant's units), so that
    ``sudoku generate ... | sudoku -`` solves the same puzzles. jsonl by default then; a format
    asked for that leaves something out gets a note naming the options that read it back, and
    ``--regions random`` (a layout per puzzle) is only written where it is recorded."""
    from ..formats import RECORDS
    from ..grid import Shape

    unsaid = []
    if shape != Shape.for_size(shape.size) and "shape" not in RECORDS[fmt]:
        unsaid.append(f"--box {shape}")
    if variant is not None and variant.replace("jigsaw", "").strip(",") and "units" not in RECORDS[fmt]:
        unsaid.append(f"--variant {variant}")
    if regions is not None and "units" not in RECORDS[fmt]:
        unsaid.append("--regions LAYOUT")
    if not unsaid:
        return fmt
    if ctx.get_parameter_source("fmt") is click.core.ParameterSource.DEFAULT:
        return "jsonl"
    if regions == "random":
        raise click.UsageError(f"--regions random draws a layout for each puzzle, and --format {fmt} does not "
                               "record it; use --format jsonl", ctx)
    click.echo(f"sudoku generate: --format {fmt} does not record {' '.join(unsaid)}; give the same to read "
               "the puzzles back (jsonl records them)", err=True)
    return fmt
