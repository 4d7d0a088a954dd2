"""Running a batch job from the command line: inputs in, text out, notes, progress, Ctrl-C.

``solve``, ``rate`` and ``explain`` all end here. The work itself is the
library's (:func:`sudokit.pipeline.run`, on its own worker pool); this module
only opens the inputs, writes each chunk's text to stdout as soon as it is
done (in input order), prints the notes of failed puzzles on stderr, shows
progress on a terminal and turns the outcome into an exit status.
"""

from __future__ import annotations

import sys
from typing import Any, Iterator

import click

from .common import EXIT_FAILED, EXIT_INTERRUPTED, Output, Progress, interrupted_exit, open_input


def _lines(path: str) -> Iterator[str]:
    """The text of ``path`` (``-``: standard input) in pieces of whole lines,
    opened when first read."""
    from ..errors import SudokuError
    from ..formats import bounded_blocks

    with open_input(path) as stream:
        try:
            yield from bounded_blocks(stream)
        except SudokuError as exc:
            raise SudokuError(f"{'standard input' if path == '-' else path}: {exc}") from None


def _watched(path: str, empty: list[str]) -> Iterator[str]:
    """The pieces of ``path``; ``path`` is added to ``empty`` when it ends without a puzzle
    (only blank and ``#`` lines)."""
    found = False
    for piece in _lines(path):
        if not found:
            found = any(line.strip() and not line.lstrip().startswith("#") for line in piece.splitlines())
        yield piece
    if not found:
        empty.append(path)


def inputs(ctx: click.Context, paths: tuple[str, ...], names: tuple[str, ...]) -> tuple[str, ...]:
    """The paths to read: standard input when neither a path nor an example is given
    (and it is not a terminal)."""
    if not paths and not names:
        if sys.stdin is None or sys.stdin.isatty():
            raise click.UsageError("give a file of puzzles, '-' for standard input, or --example NAME", ctx)
        return ("-",)
    return paths


def examples(names: tuple[str, ...]) -> list[tuple[str, Any]]:
    """The named example grids, refusing an unknown name with the list of names."""
    from ..examples import EXAMPLES

    out = []
    for name in names:
        if name not in EXAMPLES:
            raise click.BadParameter(f"no example called {name!r}; choose one of: {', '.join(EXAMPLES)}",
                                     param_hint="'--example'")
        out.append((name, EXAMPLES[name].grid))
    return out


def run_job(ctx: click.Context, job: Any, paths: tuple[str, ...], names: tuple[str, ...], jobs: int,
            label: str, *, grids: list[tuple[str, Any]] | None = None, single: bool = False,
            keep: Any = None) -> None:
    """Run ``job`` over the examples ``names`` and the files ``paths``, write the
    results, and exit with the documented status: 0 every puzzle succeeded, 1
    some failed or none was found, 130 interrupted.

    ``single``: the output format holds one puzzle (svg), so nothing is written
    until the input is known to hold exactly one. ``keep``, when given, takes
    each chunk's text and returns what of it to write (``canon --dedupe``).
    """
    from .. import pipeline
    from ..errors import SudokuError

    paths = inputs(ctx, paths, names)
    several = len(paths) > 1
    empty: list[str] = []  # the inputs read to their end that held no puzzle
    sources = [(("<stdin>" if p == "-" else p) if several else "", _watched(p, empty)) for p in paths]
    out = Output()
    done = failed = 0
    held: list[str] = []
    results = None
    try:
        with Progress(label) as progress:
            results = pipeline.run(job, sources, examples=grids if grids is not None else examples(names),
                                   jobs=jobs, notice=progress.note)  # a first run compiles: said on stderr
            for chunk in results:
                done += chunk.puzzles
                failed += chunk.failures
                if single:
                    if done > 1:
                        raise click.UsageError(f"--format {job.fmt} draws a single puzzle; the input holds more",
                                               ctx)
                    held.append(chunk.text)
                elif chunk.text:
                    text = chunk.text if keep is None else keep(chunk.text)
                    if text:
                        out.write(text)
                for note in chunk.notes:
                    progress.note(note)
                progress.advance(chunk.puzzles)
        for text in held:
            if text:
                out.write(text)
    except SudokuError as exc:  # an input that cannot be read on (not one bad puzzle)
        click.echo(f"sudoku: {exc}", err=True)
        failed += 1
    except KeyboardInterrupt:
        out.flush()  # what a blocked write left in the buffer
        click.echo(f"sudoku: interrupted after {done} puzzle(s); their results were written", err=True)
        if results is not None:
            results.close()  # stops the worker pool at once
        interrupted_exit(jobs)
        ctx.exit(EXIT_INTERRUPTED)
    finally:
        if results is not None:
            results.close()  # stops the worker pool at once
    if done == 0 and not failed:
        what = ", ".join("standard input" if p == "-" else repr(p) for p in paths) or "the examples"
        click.echo(f"no puzzle found in {what}", err=True)
        ctx.exit(EXIT_FAILED)
    if done and empty:  # an empty input among others is said as when alone; it is no failed puzzle
        for p in empty:
            click.echo(f"no puzzle found in {'standard input' if p == '-' else repr(p)}", err=True)
    if failed and done > 1:
        click.echo(f"{failed} of {done} puzzles failed", err=True)
    if failed or (done and empty):
        ctx.exit(EXIT_FAILED)
