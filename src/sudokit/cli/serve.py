"""``sudoku serve``: the local page to play and learn, and the JSON API.

The application lives in :mod:`sudokit.web.app`; this module parses the
options and starts it.
"""

from __future__ import annotations

import click

from .common import jobs_option


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
@click.option("-j", "--jobs", callback=jobs_option, default="0", show_default=True, metavar="N",
              help="Processes that share the hardest searches of one rating, path or hint (0: every core; "
                   "1: none).")
@click.option("--bank", "bank", default=None, metavar="PATH",
              help="Serve this puzzle bank too: /api/bank/query and /api/bank/add, and the page's "
                   "'new puzzle from the bank' button.")
def serve(host: str, port: int, time_limit: float, max_body: int, workers: int, jobs: int, bank: str | None) -> None:
    """Serve a page to paste, generate, play, hint, check, rate, solve and
    print puzzles, and JSON endpoints (solve, count, rate, explain, hint,
    generate, pdf) described at /openapi.json. Ctrl-C stops it.

    \b
    Needs the web extra: pip install 'sudokit[web]'.

    \b
    Exit status: 0 stopped by Ctrl-C; 2 the port is in use (or the address
    cannot be listened on), checked before anything is announced; 1 the
    server could not start all the same.
    """
    from ..web.app import serve as run

    from ..errors import SudokuError

    _check_address(host, port)
    try:
        run(host, port, time_limit=time_limit, max_body=max_body, workers=workers,
            announce=lambda text: click.echo(text, err=False), bank=bank, jobs=jobs)
    except SudokuError as exc:  # the bank cannot be opened
        click.echo(f"sudoku serve: {exc}", err=True)
        raise click.exceptions.Exit(1) from None
    except SystemExit as exc:  # the server could not start after all (the port taken meanwhile)
        if exc.code not in (0, None):
            click.echo(f"sudoku serve: the server could not start on {host}:{port}", err=True)
            raise click.exceptions.Exit(1) from None
        raise


def _check_address(host: str, port: int) -> None:
    """A usage error, before the address is announced, when ``host:port`` cannot be listened on:
    ``port N is in use`` for a busy port (as the server binds: SO_REUSEADDR, so a port that
    a closed connection still holds is not taken for busy)."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise click.BadParameter(f"cannot listen on {host!r}: {exc.strerror}", param_hint="'--host'") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise click.BadParameter(f"port {port} is in use on {host}; choose another with --port",
                                         param_hint="'--port'") from None
            if exc.errno == errno.EACCES:
                raise click.BadParameter(f"port {port} needs privileges on this system; choose one above 1023",
                                         param_hint="'--port'") from None
            raise click.BadParameter(f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                                     param_hint="'--host'") from None
