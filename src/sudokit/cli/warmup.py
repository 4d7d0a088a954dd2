"""``sudoku warm-up``: compile every kernel ahead of a first run (:mod:`sudokit.warmup`)."""

from __future__ import annotations

import click

from .common import EXIT_FAILED


@click.command("warm-up")
@click.argument("groups", nargs=-1, metavar="[GROUP]...")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
              help="Compile on this many processes at once, 0 for every core.")
@click.option("--list", "listing", is_flag=True, help="List the kernel groups, and whether each is compiled.")
@click.option("--store", is_flag=True,
              help="Build the kernel store instead: kernels every later run reads, whatever its NUMBA_CACHE_DIR.")
@click.pass_context
def warm_up(ctx: click.Context, groups: tuple[str, ...], jobs: int, listing: bool, store: bool) -> None:
    """Compile the solver engine's kernels (all, or the GROUPs named) into
    numba's cache, so that no later command waits for the compiler: run it
    once after installing, with the same NUMBA_CACHE_DIR as later commands.

    With --store, compile them into the kernel store, which every run reads
    behind numba's cache, whatever its NUMBA_CACHE_DIR (`pip install .` builds
    it too): inside the installed package when its folder can be written, else
    in the user's data folder, or in the folder SUDOKIT_KERNEL_STORE names
    (SUDOKIT_KERNEL_STORE=off turns the store off).

    \b
    Exit status: 0 compiled (or already compiled); 1 a compilation failed;
    2 usage error (an unknown group).
    """
    from ..engine.compiling import is_cached
    from ..warmup import build_store, kernel_groups, warm_up as compile_all, write_bytecode

    known = kernel_groups()
    unknown = [g for g in groups if g not in known]
    if unknown:
        raise click.UsageError(f"no kernel group {unknown[0]!r}; the groups are {', '.join(known)}")
    if listing:
        for name, (what, entries, seconds) in known.items():
            state = "compiled" if all(is_cached(e) for e in entries) else f"cold (about {seconds:.0f} s)"
            click.echo(f"{name:20} {state:20} {what}")
        from ..engine.kernel_store import ENV, describe

        for root, about in describe() or [(None, None)]:
            if root is None:
                click.echo(f"kernel store: off ({ENV})")
            elif about is None:
                click.echo(f"kernel store: {root} (not built)")
            else:
                click.echo(f"kernel store: {root} ({about.get('kernels', '?')} kernels, numba {about.get('numba', '?')}, "
                           f"built {about.get('built', '?')})")
        return
    write_bytecode()  # (the modules' own start: see write_bytecode)
    if store:
        try:
            seconds, stored, where = build_store(groups or None, jobs,
                                                 notice=lambda message: click.echo(message, err=True))
        except ValueError as exc:  # the store turned off
            raise click.UsageError(str(exc)) from None
        except (RuntimeError, OSError) as exc:
            click.echo(f"sudoku warm-up: building the kernel store failed: {exc}", err=True)
            ctx.exit(EXIT_FAILED)
        click.echo(f"stored {stored} kernels in {where} in {seconds:.1f} s", err=True)
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
