"""The picture outputs of ``explain`` and ``hint``: ``--format html`` and ``--format svg``.

Only reading and writing: the pages are made by :mod:`sudokit.pictures.html`
and :mod:`sudokit.pictures.steps`.
"""

from __future__ import annotations

from typing import Any

import click

from ..errors import SudokuError
from ..grid import Shape
from .common import EXIT_FAILED, Output, open_input


def explain_html(ctx: click.Context, paths: tuple[str, ...], names: tuple[str, ...], box: Shape | None,
                 timeout: float | None, *, variant: str | None = None, regions: str | None = None,
                 cages: str | None = None) -> None:
    """Write one self-contained HTML page explaining every puzzle asked for."""
    import sys

    from ..examples import EXAMPLES
    from ..formats import read_puzzles
    from ..logic import explain
    from ..pictures.html import explanations_page

    entries: list[tuple[str, Any, Any, Any]] = []
    failed = 0

    def add(label: str, grid: Any) -> None:
        nonlocal failed
        try:
            from ..killer import cages_for
            from ..variants import under

            grid = under(grid, variant, regions, None if cages is None else cages_for(cages, grid.size))
            path = explain(grid, timeout=timeout)  # with its rating, found in the same pass
            rating = path.rating
        except SudokuError as exc:
            failed += 1
            click.echo(f"{label}: {exc}", err=True)
            return
        entries.append((label, grid, path, rating))

    for name in names:
        if name not in EXAMPLES:
            raise click.BadParameter(f"no example called {name!r}; choose one of: {', '.join(EXAMPLES)}",
                                     param_hint="'--example'")
    for name in names:
        add(f"example {name}", EXAMPLES[name].grid)
    if not paths and not names:
        if sys.stdin is None or sys.stdin.isatty():
            raise click.UsageError("give a file of puzzles, '-' for standard input, or --example NAME", ctx)
        paths = ("-",)
    for path in paths:
        with open_input(path) as stream:
            for entry in read_puzzles(stream, shape=box):
                label = f"puzzle {entry.number} (line {entry.line})"
                if entry.error is not None or entry.grid is None:
                    failed += 1
                    click.echo(str(entry.error), err=True)  # it names the puzzle, line and column
                    continue
                add(label, entry.grid)
    if entries:
        Output().write(explanations_page(entries))
    ctx.exit(EXIT_FAILED if failed or not entries else 0)


def hint_svg(step: Any, state: Any) -> None:
    """Write the step drawn on its grid."""
    from ..pictures.steps import step_svg

    Output().write(step_svg(step, state))


__all__ = ["explain_html", "hint_svg"]
