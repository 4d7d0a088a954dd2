"""``sudoku serve``: the local page to play and learn, and the JSON API.

The application lives in :mod:`sudokit.web.app`; this module parses the
options and starts it.
"""

from __future__ import annotations

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface).")
@click.option("--port", type=click.IntRange(min=1, max=65535), default=8000, show_default=True)
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=20.0, show_default=True,
              metavar="SECONDS", help="Work per request; longer work is cut short (503).")
@click.option("--max-body", type=click.IntRange(min=1024), default=256_000, show_default=True, metavar="BYTES",
              help="Largest request body (413 above).")
@click.option("--workers", type=click.IntRange(min=1, max=64), default=2, show_default=True,
              help="Requests worked on at once.")
@click.option("--bank", "bank", default=None, metavar="PATH",
              help="Serve this puzzle bank too: /api/bank/query and /api/bank/add, and the page's "
                   "'new puzzle from the bank' button.")
def serve(host: str, port: int, time_limit: float, max_body: int, workers: int, bank: str | None) -> None:
    """Serve a page to paste, generate, play, hint, check, rate, solve and
    print puzzles, and JSON endpoints (solve, count, rate, explain, hint,
    generate, pdf) described at /openapi.json. Ctrl-C stops it.

    \b
    Needs the web extra: pip install 'sudokit[web]'.
    """
    from ..web.app import serve as run

    from ..errors import SudokuError

    try:
        run(host, port, time_limit=time_limit, max_body=max_body, workers=workers,
            announce=lambda text: click.echo(text, err=False), bank=bank)
    except SudokuError as exc:
        click.echo(f"sudoku serve: {exc}", err=True)
        raise click.exceptions.Exit(1) from None
