"""``sudoku bank``: add, query, stats, export and import, over :mod:`sudokit.bank`.

Each command opens the bank (``--bank PATH``, else the file in the user's
data folder), calls the library, and writes what comes back. A fault of the
bank (a newer schema, a read-only file, a full disk) is one line on stderr
and exit status 1; the bank is left whole.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import click

from ..errors import SudokuError
from .common import EXIT_FAILED, EXIT_INTERRUPTED, Output, Progress, jobs_option, seed_option

#: Output formats of ``bank query``.
QUERY_FORMATS = ("line", "spaced", "boxed", "rows", "block", "jsonl", "svg")


def bank_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--bank PATH``: the bank file (default: in the user's data folder)."""
    return click.option("--bank", "bank_path", metavar="PATH", default=None,
                        help="The bank file [default: bank.sqlite in the user's data folder, "
                             "$XDG_DATA_HOME/sudokit or ~/.local/share/sudokit].")(command)


def open_bank(path: str | None, readonly: bool = False) -> Any:
    from ..bank import Bank, BankError

    try:
        return Bank(path, readonly=readonly)
    except BankError as exc:
        _fail(str(exc))


def _fail(message: str, code: int = EXIT_FAILED) -> None:
    click.echo(f"sudoku bank: {message}", err=True)
    raise click.exceptions.Exit(code)


def query_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The filters of ``bank query`` (and of ``print --bank``)."""
    options = [
        click.option("--rating", default=None, metavar="LO-HI", help="ER in this range, such as 6.2-9.0."),
        click.option("--level", default=None, type=click.Choice(("easy", "medium", "hard", "fiendish",
                                                                  "diabolical")), help="SE's level."),
        click.option("--technique", default=None, metavar="NAME",
                     help="A technique on the solving path (names and aliases as generate --technique)."),
        click.option("--hardest", default=None, metavar="NAME", help="The technique that set ER."),
        click.option("--clues", default=None, metavar="LO-HI", help="Number of givens, such as 22-26 or 17."),
        click.option("--symmetry", default=None, metavar="NAME",
                     help="A symmetry of the clue pattern: rotate180, mirror, flip, diagonal, rotate90, "
                          "dihedral, or none."),
        click.option("--variant", default=None, metavar="NAMES", help="classic, x, hyper, jigsaw, killer..."),
        click.option("--shape", default=None, metavar="RxC", help="Box shape, such as 3x3 or 2x3."),
        click.option("--source", default=None, metavar="TEXT", help="Added from a source whose name holds TEXT."),
        click.option("--unused", is_flag=True, help="Only puzzles no book has used."),
        click.option("--not-in", "not_in", default=None, metavar="BOOK", help="Only puzzles BOOK has not used."),
        click.option("--seed", callback=seed_option, default=None, metavar="N",
                     help="The seed of the random order (the same seed chooses the same puzzles)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def make_query(rating: str | None, level: str | None, technique: str | None, hardest: str | None,
               clues: str | None, symmetry: str | None, variant: str | None, shape: str | None,
               source: str | None, unused: bool, not_in: str | None, n: int | None, order: str,
               seed: int | None) -> Any:
    """The :class:`sudokit.bank.Query` of the options; a usage error names a bad one."""
    import random

    from ..bank.query import Query, parse_range

    try:
        if technique is not None or hardest is not None:
            from ..bank.families import resolve

            for name, option in ((technique, "--technique"), (hardest, "--hardest")):
                if name is not None:
                    try:
                        resolve(name)
                    except SudokuError as exc:
                        raise click.BadParameter(str(exc), param_hint=f"'{option}'") from None
        if rating is not None and level is not None:
            raise click.UsageError("give --rating or --level, not both")
        return Query(
            rating=None if rating is None else parse_range(rating, "rating"),
            level=level, technique=technique, hardest=hardest,
            clues=None if clues is None else parse_range(clues, "clues", True),
            symmetry=symmetry, variant=variant, shape=shape, source=source, unused=unused, not_in=not_in, n=n,
            order=order, seed=random.randrange(1 << 62) if seed is None else seed)
    except SudokuError as exc:
        raise click.UsageError(str(exc)) from None


@click.group("bank")
def bank() -> None:
    """A bank of rated puzzles on disk, keyed by canonical form: add, query, stats, export, import.

    \b
      sudoku bank add puzzles.txt rated.jsonl --jobs 0
      sudoku bank query --rating 6.2-9.0 --technique X-Wing --unused -n 5 --mark-used "Book 3"
      sudoku bank stats
      sudoku print --bank --rating 4-6 -n 24 --mark-used "Book 4" -o book4.pdf

    The bank is an SQLite file: --bank PATH, else bank.sqlite in the user's
    data folder. Exit status: 0 good; 1 some puzzle failed, or the bank
    could not be read or written (it is left whole); 2 usage error.
    """


@bank.command("add")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@bank_option
@click.option("-j", "--jobs", callback=jobs_option, default="1", show_default=True, metavar="N",
              help="Worker processes that rate what is not rated yet, 0 for every core.")
@click.option("--cluster", default=None, metavar="ADDRESS",
              help="Rate on a Dask cluster (tcp://HOST:8786, or local[:N]); with --output, build a Parquet "
                   "bank in DIR instead of adding to --bank. Needs sudokit[dask].")
@click.option("-o", "--output", default=None, metavar="DIR",
              help="With --cluster: the folder of the Parquet bank to build (bank import reads it).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Chain-search time per puzzle when rating (a rating that runs out is a lower bound).")
@click.option("--batch", type=click.IntRange(min=1), default=None, metavar="N",
              help="Puzzles per transaction (what an interruption can cost, at most) "
                   "[default: 8192; 65536 when they are rated records read in bulk].")
@click.option("-v", "--verbose", is_flag=True, help="Say on stderr what is in after each commit.")
def add(paths: tuple[str, ...], bank_path: str | None, jobs: int, cluster: str | None, output: str | None,
        timeout: float | None, batch: int | None, verbose: bool) -> None:
    """Add the puzzles of PATHS (files, or - for standard input) to the bank.

    Lines are puzzles in any one-line format, or jsonl records: rating
    records (sudoku rate --format jsonl) go in as rated, and anything not
    rated is rated here, unless the bank holds it already. A puzzle the
    bank holds (in any orientation, relabelled...) is counted, not stored
    twice. Lines that cannot be read are reported with their numbers; the
    rest goes in. An interrupted add resumes where it stopped when run again.
    """
    from ..bank import BankError, add as add_puzzles

    if not paths:
        if sys.stdin is None or sys.stdin.isatty():
            raise click.UsageError("give files of puzzles or records, or '-' for standard input")
        paths = ("-",)
    if output is not None and cluster is None:
        raise click.UsageError("--output DIR goes with --cluster (it builds a Parquet bank there)")
    if cluster is not None and "-" in paths:
        raise click.UsageError("--cluster reads files, not standard input")
    if cluster is not None and output is not None:
        _build_on_cluster(paths, cluster, output, timeout)
        return
    store = open_bank(bank_path)
    report = None
    try:
        with Progress("adding") as progress:
            if cluster is not None:
                from .. import distributed

                with distributed.cluster(cluster) as client:
                    report = add_puzzles(store, paths, cluster=client, timeout=timeout, notes=progress.note,
                                         committed=(lambda t: click.echo(t, err=True)) if verbose else None)
            else:
                report = add_puzzles(store, paths, jobs=jobs, timeout=timeout, notes=progress.note,
                                     committed=(lambda t: click.echo(t, err=True)) if verbose else None,
                                     progress=progress.advance, batch=batch)
    except BankError as exc:
        _fail(str(exc))
    except SudokuError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        click.echo("sudoku bank add: interrupted; what was reported is in, and the same command resumes",
                   err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    finally:
        store.close()
    for path, line in report.resumed.items():
        click.echo(f"{path}: resumed after line {line}", err=True)
    click.echo(f"bank {store.path}: {report.text()}", err=True)
    if report.failed:
        raise click.exceptions.Exit(EXIT_FAILED)


def _build_on_cluster(paths: tuple[str, ...], cluster: str, output: str, timeout: float | None) -> None:
    from .. import distributed
    from ..bank.cluster import build

    try:
        with distributed.cluster(cluster) as client:
            written, failed = build(list(paths), output, client, timeout=timeout,
                                    notes=lambda text: click.echo(text, err=True))
    except SudokuError as exc:
        _fail(str(exc))
    click.echo(f"wrote a Parquet bank of {written} puzzles into {output} (sudoku bank import {output})", err=True)
    if failed:
        raise click.exceptions.Exit(EXIT_FAILED)


@bank.command("query")
@bank_option
@query_options
@click.option("-n", "count", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many puzzles at most.")
@click.option("--all", "every", is_flag=True, help="Every puzzle that matches (no -n).")
@click.option("--order", type=click.Choice(("random", "rating", "added")), default="random", show_default=True,
              help="random (seeded, see --seed), by rating, or in the order added.")
@click.option("-f", "--format", "fmt", type=click.Choice(QUERY_FORMATS), default="line", show_default=True,
              help="line: one puzzle a line; block: puzzle and solution; jsonl: the whole bank record "
                   "(docs/records.md); spaced, boxed, rows; svg: a picture (one puzzle).")
@click.option("--solutions", is_flag=True, help="With line: the solution after each puzzle.")
@click.option("--mark-used", "book", default=None, metavar="BOOK",
              help="Record the puzzles chosen as used in BOOK, in the same transaction.")
def query(bank_path: str | None, rating: str | None, level: str | None, technique: str | None,
          hardest: str | None, clues: str | None, symmetry: str | None, variant: str | None, shape: str | None,
          source: str | None, unused: bool, not_in: str | None, seed: int | None, count: int, every: bool,
          order: str, fmt: str, solutions: bool, book: str | None) -> None:
    """Choose puzzles from the bank.

    \b
      sudoku bank query --rating 6.2-9.0 --technique X-Wing --unused -n 5 --format line --mark-used "Book 3"
      sudoku bank query --level fiendish --symmetry rotate180 --not-in "Book 3" -n 24 --seed 7
    """
    from ..bank import BankError, choose
    from ..bank.query import grid_of
    from ..formats import render, render_block
    from ..records import bank_record, dumps

    q = make_query(rating, level, technique, hardest, clues, symmetry, variant, shape, source, unused, not_in,
                   None if every else count, order, seed)
    if fmt == "svg" and (every or count != 1):
        raise click.UsageError("--format svg draws a single puzzle: add -n 1")
    store = open_bank(bank_path, readonly=book is None)
    try:
        rows = choose(store, q, mark_used=book)
    except BankError as exc:
        _fail(str(exc))
    finally:
        store.close()
    out = Output()
    for row in rows:
        if fmt == "jsonl":
            out.write(dumps(bank_record(row)))
        elif fmt == "line":
            out.write(row["puzzle"] + (f" {row['solution']}" if solutions else ""))
        elif fmt == "block":
            out.write(render_block(grid_of(row), grid_of(row, solution=True)))
        elif fmt == "svg":
            from ..svg import grid_svg

            out.write(grid_svg(grid_of(row)))
        else:
            out.write(render(grid_of(row), fmt).rstrip("\n") + "\n")
    if book is not None:
        click.echo(f"marked {len(rows)} puzzle{'s' if len(rows) != 1 else ''} as used in {book!r}", err=True)
    if not rows:
        click.echo("no puzzle in the bank matches", err=True)
        raise click.exceptions.Exit(EXIT_FAILED)


@bank.command("stats")
@bank_option
@click.option("-f", "--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True)
def stats(bank_path: str | None, fmt: str) -> None:
    """Counts by level, rating, technique and source, with a histogram of ER."""
    from ..bank import BankError, summary

    store = open_bank(bank_path, readonly=True)
    try:
        got = summary(store)
    except BankError as exc:
        _fail(str(exc))
    finally:
        store.close()
    if fmt == "json":
        click.echo(json.dumps(got.as_dict(), ensure_ascii=False))
        return
    _draw(got, store.path)


def _draw(got: Any, path: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..bank.stats import ER_BIN

    class Out(Console):
        def on_broken_pipe(self) -> None:  # the reader went away: end quietly, as every command does
            self.quiet = True
            raise BrokenPipeError

    console = Out()
    console.print(f"[bold]{path}[/bold]: {got.puzzles:,} puzzles ({got.given:,} given, "
                  f"{got.unrated:,} unrated)")

    def table(title: str, counts: dict[str, int], what: str) -> None:
        if not counts:
            return
        t = Table(title=title, title_justify="left")
        t.add_column(what)
        t.add_column("puzzles", justify="right")
        for name, n in counts.items():
            t.add_row(str(name) or "(none)", f"{n:,}")
        console.print(t)

    table("By level", got.levels, "level")
    if got.er_bins:
        top = max(n for _, n in got.er_bins)
        t = Table(title="ER", title_justify="left")
        t.add_column("ER")
        t.add_column("puzzles", justify="right")
        t.add_column("")
        for low, n in got.er_bins:
            bar = "█" * max(1, round(40 * n / top))
            t.add_row(f"{low:.1f}–{low + ER_BIN:.1f}", f"{n:,}", f"[cyan]{bar}[/cyan]")
        console.print(t)
    table("Hardest technique", got.hardest, "technique")
    table("Techniques on the path", got.techniques, "technique")
    table("Sources", got.sources, "source")
    if len(got.shapes) > 1 or len(got.variants) > 1:
        table("Shapes", got.shapes, "shape")
        table("Variants", got.variants, "variant")
    table("Books", got.books, "book")


@bank.command("export")
@bank_option
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="The file to write; - is standard output (jsonl).")
@click.option("-f", "--format", "fmt", type=click.Choice(("jsonl", "parquet")), default=None,
              help="jsonl or parquet [default: from the file's name; .parquet is Parquet].")
def export(bank_path: str | None, output: str, fmt: str | None) -> None:
    """Write every puzzle of the bank as jsonl or Parquet (bank import reads them back)."""
    from ..bank import BankError
    from ..bank.exchange import export as write_all

    store = open_bank(bank_path, readonly=True)
    out = Output()
    try:
        count = write_all(store, output, fmt, write=out.write)
    except (BankError, SudokuError) as exc:
        _fail(str(exc))
    finally:
        store.close()
    if output != "-":
        click.echo(f"wrote {count} puzzles into {output}", err=True)


@bank.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True))
@bank_option
@click.option("-f", "--format", "fmt", type=click.Choice(("jsonl", "parquet")), default=None,
              help="jsonl or parquet [default: from the name; a folder or .parquet is Parquet].")
def import_(paths: tuple[str, ...], bank_path: str | None, fmt: str | None) -> None:
    """Read bank exports (jsonl or Parquet files, or a Parquet bank built on a cluster) into the bank."""
    from ..bank import BankError
    from ..bank.exchange import import_records

    store = open_bank(bank_path)
    new = repeats = failed = 0
    try:
        for path in paths:
            n, r, f = import_records(store, path, fmt, notes=lambda t: click.echo(t, err=True))
            new, repeats, failed = new + n, repeats + r, failed + f
    except (BankError, SudokuError) as exc:
        _fail(str(exc))
    finally:
        store.close()
    click.echo(f"bank {store.path}: {new} new, {repeats} repeats" + (f", {failed} failed" if failed else ""),
               err=True)
    if failed:
        raise click.exceptions.Exit(EXIT_FAILED)


import_.name = "import"
