"""``sudoku warm-up``: compile every kernel ahead of a first run (:mod:`sudokit.warmup`)."""

from __future__ import annotations

import click

from .common import EXIT_FAILED


@click.command("warm-up")
@click.argument("groups", nargs=-1, metavar="[GROUP]...")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
              help="Compile on this many processes at once, 0 for every core.")
@click.option("--list", "listing", is_flag=True, help="List the kernel groups, and whether each is compiled.")
@click.pass_context
def warm_up(ctx: click.Context, groups: tuple[str, ...], jobs: int, listing: bool) -> None:
    """Compile the solver engine's kernels (all, or the GROUPs named) into
    numba's cache, so that no later command waits for the compiler: run it
    once after installing, with the same NUMBA_CACHE_DIR as later commands.

    \b
    Exit status: 0 compiled (or already compiled); 1 a compilation failed;
    2 usage error (an unknown group).
    """
    from ..engine.compiling import is_cached
    from ..warmup import kernel_groups, warm_up as compile_all

    known = kernel_groups()
    unknown = [g for g in groups if g not in known]
    if unknown:
        raise click.UsageError(f"no kernel group {unknown[0]!r}; the groups are {', '.join(known)}")
    if listing:
        for name, (what, entries, seconds) in known.items():
            state = "compiled" if all(is_cached(e) for e in entries) else f"cold (about {seconds:.0f} s)"
            click.echo(f"{name:20} {state:20} {what}")
        return
    try:
        seconds, compiled = compile_all(groups or None, jobs, lambda message: click.echo(message, err=True))
    except RuntimeError as exc:
        click.echo(f"sudoku warm-up: a compilation failed: {exc}", err=True)
        ctx.exit(EXIT_FAILED)
    if compiled:
        click.echo(f"compiled {len(compiled)} kernel groups in {seconds:.1f} s", err=True)
    else:
        click.echo("every kernel group asked for is compiled already", err=True)
