"""``--cluster``, ``-o/--output``, ``--blocksize`` and ``--merge``: batch commands on a Dask cluster.

The options are shared decorators; a command body that got ``cluster`` or
``output`` hands its job to :func:`run_on_cluster` (files) or
:func:`generate_on_cluster` (seeds) and exits with the status they return.
The work itself is :mod:`sudokit.distributed`'s.

>>> blocksize_option(None, None, "64MiB")
67108864
>>> blocksize_option(None, None, "100k")
100000
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

import click

from .common import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, Output, Progress, is_write_failure,
                     output_failed)

_UNITS = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30,
          "kb": 10**3, "mb": 10**6, "gb": 10**9, "b": 1}


def blocksize_option(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> int | None:
    """``--blocksize SIZE``: bytes per partition, such as ``65536``, ``100k``, ``64MiB`` or ``1G``."""
    if value is None:
        return None
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", str(value))
    unit = match.group(2).lower() if match else ""
    if match is None or unit not in _UNITS or float(match.group(1)) * _UNITS[unit] < 1:
        raise click.BadParameter(f"{value!r} is not a size in bytes (for example 65536, 100k, 64MiB)",
                                 ctx=ctx, param=param)
    return int(float(match.group(1)) * _UNITS[unit])


def cluster_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--cluster ADDRESS``, ``-o/--output DIR``, ``--blocksize SIZE`` and ``--merge FILE``
    to a click command (parameters ``cluster``, ``output``, ``blocksize``, ``merge``)."""
    options = [
        click.option("--cluster", "cluster", metavar="ADDRESS", default=None,
                     help="Run on a Dask cluster: a scheduler address (tcp://HOST:8786), or local[:N] "
                          "for N worker processes on this machine. Needs sudokit[dask]."),
        click.option("-o", "--output", "output", metavar="DIR", default=None,
                     help="With --cluster: write one file per partition and a manifest into DIR "
                          "(a path or fsspec URL every worker reaches); the same command again resumes."),
        click.option("--blocksize", "blocksize", metavar="SIZE", default=None, callback=blocksize_option,
                     help="With --cluster: bytes of input per partition, such as 1MiB "
                          "[default: about 32 partitions per worker, within bounds set by the command]."),
        click.option("--merge", "merge", metavar="FILE", default=None,
                     help="With --output: when every partition is done, join them into FILE in input order."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def on_cluster(ctx: click.Context | None, cluster: str | None, output: str | None, blocksize: int | None,
               merge: str | None, names: Sequence[str] = (), single: bool = False) -> bool:
    """True when the command runs on a cluster (``--cluster``); a usage error for cluster options
    without it, or with what the cluster cannot do (named examples, one-picture formats)."""
    _check(cluster, output, merge, blocksize)
    if cluster is None:
        return False
    if names:
        raise click.UsageError("--cluster reads files; run --example without it", ctx)
    if single:
        raise click.UsageError("this --format draws a single puzzle; run it without --cluster", ctx)
    return True


def _check(cluster: str | None, output: str | None, merge: str | None, blocksize: int | None) -> None:
    if cluster is None and (output is not None or blocksize is not None):
        raise click.UsageError("--output and --blocksize go with --cluster ADDRESS (local:N for this machine)")
    if merge is not None and output is None:
        raise click.UsageError("--merge FILE goes with --output DIR")


def _output_dir(output: str | None) -> None:
    """``-o DIR`` that is a local file already (``-o /dev/full``): it cannot hold the partitions."""
    import errno
    import os

    if output is not None and "://" not in output and os.path.exists(output) and not os.path.isdir(output):
        output_failed(NotADirectoryError(errno.ENOTDIR, "not a directory (-o names the directory to write into)"),
                      output)


def _written(exc: OSError, output: str | None, merge: str | None) -> None:
    """An OSError while writing ``-o DIR`` or ``--merge FILE`` (or a full disk): ``cannot write
    output`` with status 1; any other is raised again."""
    name = str(exc.filename or "")
    for target in (merge, output):
        if target is not None and name and (name == target or name.startswith(target.rstrip("/") + "/")
                                            or name.startswith(target + ".tmp-")):
            output_failed(exc, target)
    if is_write_failure(exc):
        output_failed(exc, merge or output)
    raise exc


def _writer(out: Output, keep: Callable[[str], str] | None = None) -> Callable[[str], None]:
    def write(text: str) -> None:
        if text and keep is not None:
            text = keep(text)
        if text:  # a partition's records, each ending with a newline (Output handles a closed pipe)
            out.write(text)

    return write


def _finish(summary: Any, output: str | None, merge: str | None, what: str = "") -> int:
    """Merge when asked, then the closing messages and exit status of the serial path."""
    from .. import distributed

    if output is not None and merge is not None:
        distributed.merge(output, merge)
    if what and summary.puzzles == 0 and not summary.failures:
        click.echo(f"no puzzle found in {what}", err=True)
        return EXIT_FAILED
    for name in summary.empty:  # an empty input among others is said as on one machine
        click.echo(f"no puzzle found in {name!r}", err=True)
    if summary.failures and summary.puzzles > 1:
        click.echo(f"{summary.failures} of {summary.puzzles} puzzles failed", err=True)
    return EXIT_FAILED if summary.failures or summary.empty else EXIT_OK


def run_on_cluster(ctx: click.Context | None, job: Any, paths: Sequence[str], cluster: str,
                   output: str | None = None, blocksize: int | None = None, merge: str | None = None,
                   label: str = "sudoku", keep: Callable[[str], str] | None = None) -> int:
    """Run ``job`` (a :class:`sudokit.pipeline.Job`) over ``paths`` on ``cluster``; the exit status.

    Results go to standard output in input order (or into ``output``), notes
    for failed puzzles to stderr in input order, a progress bar per partition
    when stderr is a terminal. 0 when every puzzle succeeded, 1 when some
    failed, 2 when the run could not start, 130 on Ctrl-C. ``keep`` filters
    the text written to standard output (``canon --dedupe``).
    """
    from .. import distributed
    from ..errors import SudokuError

    _check(cluster, output, merge, blocksize)
    if not paths or "-" in paths:
        raise click.UsageError("--cluster reads files (or globs, or fsspec URLs), not standard input")
    _output_dir(output)
    out = Output()
    progress = Progress(f"{label}: partitions")
    try:
        with distributed.cluster(cluster) as client, progress:
            summary = distributed.run(
                job, list(paths), client=client, out_dir=output, blocksize=blocksize,
                write=None if output is not None else _writer(out, keep), notes=progress.note,
                progress=lambda done, total, puzzles: _advance(progress, done, total),
            )
            out.flush()
            return _finish(summary, output, merge, ", ".join(repr(p) for p in paths))
    except SudokuError as exc:
        click.echo(f"{label}: {exc}", err=True)
        return EXIT_USAGE
    except OSError as exc:
        _written(exc, output, merge)
        raise
    except KeyboardInterrupt:
        out.flush()
        click.echo(f"{label}: interrupted" + (f"; run the same command again to resume into {output}"
                                               if output else ""), err=True)
        return EXIT_INTERRUPTED


def generate_on_cluster(ctx: click.Context | None, job: Any, count: int, seed: int, cluster: str,
                        output: str | None = None, filtered: bool = False, attempts: int | None = None,
                        merge: str | None = None, label: str = "sudoku generate") -> int:
    """Generate ``count`` puzzles of ``job`` (a :class:`sudokit.pipeline.GenerateJob`) from ``seed``
    on ``cluster``; the exit status, as :func:`run_on_cluster`."""
    from .. import distributed
    from ..errors import SudokuError

    from ..generation import GenerationError

    _check(cluster, output, merge, None)
    _output_dir(output)
    out = Output()
    progress = Progress(f"{label}: partitions")
    try:
        with distributed.cluster(cluster) as client, progress:
            summary = distributed.generate(
                job, count, seed, client=client, filtered=filtered, attempts=attempts, out_dir=output,
                write=None if output is not None else _writer(out), notes=progress.note,
                progress=lambda done, total, puzzles: _advance(progress, done, total),
            )
            out.flush()
            return _finish(summary, output, merge)
    except GenerationError as exc:  # too few matches of a filter: as without --cluster
        click.echo(f"{label}: {exc}", err=True)
        return EXIT_FAILED
    except SudokuError as exc:
        click.echo(f"{label}: {exc}", err=True)
        return EXIT_USAGE
    except OSError as exc:
        _written(exc, output, merge)
        raise
    except KeyboardInterrupt:
        out.flush()
        click.echo(f"{label}: interrupted", err=True)
        return EXIT_INTERRUPTED


def _advance(progress: Progress, done: int, total: int) -> None:
    progress.describe(f"partitions {done}/{total}")
    progress.advance()
