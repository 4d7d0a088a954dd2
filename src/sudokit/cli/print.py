"""``sudoku print``: PDF booklets and one picture per puzzle.

The booklet and the pictures are made by :mod:`sudokit.pictures.pdf`; this
module reads or generates the puzzles and passes the options on.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

import click

from ..errors import SudokuError
from ..grid import Shape
from .common import (EXIT_FAILED, Progress, box_option, check_units, jobs_option, killer_options, open_input,
                     output_failed, puzzle_options, read_puzzles, request_shape, seed_option, silence_stdout,
                     symbols_option)

LEVELS = ("easy", "medium", "hard", "fiendish", "diabolical")


def _read(paths: tuple[str, ...], names: tuple[str, ...], box: Shape | None, symbols: str | None,
          failures: list[str], variant: str | None = None, regions: str | None = None,
          cages: str | None = None) -> Iterator[tuple[Any, str]]:
    """(Item, source) for every readable puzzle, under the variant's units
    when ``variant`` or ``regions`` name some, with the killer ``cages`` (their
    text form) when given; bad ones go to ``failures``."""
    from ..killer import cages_for
    from .. import variants
    from ..examples import EXAMPLES
    from ..pictures.pdf import Item

    for name in names:
        if name not in EXAMPLES:
            raise click.BadParameter(f"no example called {name!r}; choose one of: {', '.join(EXAMPLES)}",
                                     param_hint="'--example'")
        yield Item(EXAMPLES[name].grid), f"example {name}"
    for path in paths:
        label = "stdin" if path == "-" else Path(path).name
        with open_input(path) as stream:
            for entry in _entries(read_puzzles(stream, shape=box, symbols=symbols), path, failures):
                if entry.error is not None or entry.grid is None:
                    failures.append(f"{label}: {entry.error}")
                    continue
                try:
                    grid = variants.under(entry.grid, variant, regions,
                                          None if cages is None else cages_for(cages, entry.grid.size))
                except (SudokuError, ValueError) as exc:  # units that do not fit this puzzle
                    failures.append(f"{label}: puzzle {entry.number}: {exc}")
                    continue
                solution = getattr(entry, "solution", None)
                solution = None if solution is None else solution.with_geometry(grid.geometry)
                yield Item(grid, solution=solution, number=entry.number), label


def _entries(entries: Iterator[Any], path: str, failures: list[str]) -> Iterator[Any]:
    """``entries`` until the file cannot be read on (an endless line): that goes to ``failures``
    naming the file, as the other commands name it, and the puzzles before it are kept."""
    try:
        yield from entries
    except SudokuError as exc:
        failures.append(f"sudoku: {'standard input' if path == '-' else path}: {exc}")


@click.command("print")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
              help="The PDF to write ('-' for standard output). Default: sudoku.pdf, unless only "
                   "--svg-dir/--png-dir is given (then --paper, --per-page, --solutions-per-page and "
                   "--title, which shape the booklet, need -o).")
@click.option("--example", "names", multiple=True, metavar="NAME", help="Print a named example puzzle.")
@click.option("--generate", "count", type=click.IntRange(min=1), default=None, metavar="N",
              help="Print N new puzzles instead of reading them.")
@click.option("--difficulty", type=click.Choice(LEVELS), default=None,
              help="With --generate or --bank: the level.")
@click.option("--bank", "bank_path", default=None, metavar="PATH",
              help="Print puzzles from this bank (sudoku bank) that no earlier book used; with -n, --rating, "
                   "--difficulty, --technique, --seed, --mark-used BOOK.")
@click.option("-n", "bank_count", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --bank: how many puzzles [default: 24].")
@click.option("--rating", default=None, metavar="LO-HI", help="With --bank: ER in this range, such as 4-6.")
@click.option("--technique", default=None, metavar="NAME", help="With --bank: a technique on the solving path.")
@click.option("--mark-used", "book", default=None, metavar="BOOK",
              help="With --bank: record the puzzles printed as used in BOOK (in the transaction that chose them).")
@click.option("--minimal", type=click.Choice(["unique", "logic", "preemptive", "cages"]), default="unique",
              show_default=True, help="With --generate: which clues may go (cages: killers minimal in their "
                                      "cages).")
@click.option("--givens", type=click.IntRange(min=0), default=None, metavar="K",
              help="With --generate --variant killer: K givens besides the cages (as `sudoku generate`).")
@click.option("--symmetry", type=click.Choice(["none", "rotate180", "rotate90", "mirror", "flip", "diagonal",
                                               "dihedral"]),
              default="none", show_default=True, help="With --generate: the clue pattern's symmetry.")
@click.option("--seed", callback=seed_option, default=None, metavar="N",
              help="With --generate: the first seed (printed in the footer either way).")
@click.option("--box", callback=box_option, metavar="RxC",
              help="Box shape: of the puzzles to generate (default 3x3), or when it cannot be guessed.")
@puzzle_options(variant_help="x, hyper, jigsaw (with --regions), killer (with --cages, or generated): the puzzles' "
                             "extra rules, drawn (diagonals, shaded windows, thick region borders, dotted cages "
                             "with their totals); jsonl records carry their own.",
                cages_help="Killer cages, one per line such as 'r1c1 r1c2 = 3', for the puzzles read "
                           "(implies --variant killer).")
@click.option("--jobs", default="1", show_default=True, callback=jobs_option, metavar="N",
              help="With --generate: worker processes, 0 for every core.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a5"], case_sensitive=False), default="a4",
              show_default=True)
@click.option("--per-page", type=click.Choice(["1", "2", "4", "6"]), default="4", show_default=True,
              help="Puzzles per page.")
@click.option("--solutions/--no-solutions", default=True, show_default=True,
              help="Solution pages at the back.")
@click.option("--solutions-per-page", type=click.Choice(["6", "8", "9", "12"]), default=None,
              help="Solutions per page (default: 12 for 9x9, fewer for big grids).")
@click.option("--title", default="Sudoku", show_default=True, help="The title on every page.")
@click.option("--rate/--no-rate", "do_rate", default=True, show_default=True,
              help="Label each puzzle with its level and ER (grids up to 16x16).")
@click.option("--rate-timeout", type=click.FloatRange(min=0, min_open=True), default=3.0, show_default=True,
              metavar="SECONDS", help="Chain-search time per puzzle for the rating; a rating that runs out "
                                      "is shown as a lower bound (ER ≥...).")
@click.option("--symbols", callback=symbols_option, default=None, metavar="SPEC",
              help="The alphabet to read and draw (such as 0-F).")
@click.option("--svg-dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Also write one SVG per puzzle (puzzle-0001.svg, ..., and solution-0001.svg with --solutions).")
@click.option("--png-dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Also write one PNG per puzzle (rendered by pypdfium2).")
@click.option("--dpi", type=click.IntRange(min=30, max=1200), default=150, show_default=True,
              help="Resolution of the PNG pictures.")
@click.pass_context
def print_(ctx: click.Context, paths: tuple[str, ...], output: str | None, names: tuple[str, ...],
           count: int | None, difficulty: str | None, bank_path: str | None, bank_count: int | None,
           rating: str | None, technique: str | None, book: str | None, minimal: str, givens: int | None, symmetry: str,
           seed: int | None,
           box: Shape | None, variant: str | None, regions: str | None, cages: str | None, jobs: int, paper: str,
           per_page: str,
           solutions: bool,
           solutions_per_page: str | None, title: str, do_rate: bool, rate_timeout: float,
           symbols: str | None, svg_dir: str | None, png_dir: str | None, dpi: int) -> None:
    """Print puzzles as a PDF booklet: puzzles from PATHS (files, or - for
    standard input), named examples, or new ones with --generate; solutions
    at the back. --svg-dir and --png-dir write one picture file per puzzle.

    \b
      sudoku print --generate 24 --difficulty fiendish --seed 7 --per-page 4 -o book.pdf
      sudoku print puzzles.txt --paper letter --per-page 6 -o book.pdf
      sudoku print --generate 4 --box 4x4 --per-page 1 -o hexa.pdf --svg-dir pictures
      sudoku print puzzles.txt --svg-dir pictures

    \b
    Exit status: 0 all printed; 1 some puzzle unreadable, invalid or without
    one solution (the others are printed); 2 usage error.
    """
    from ..pictures.pdf import Item, booklet, items as make_items, write_pictures

    if bank_path is not None:
        if count is not None or paths or names:
            raise click.UsageError("--bank prints puzzles from the bank: give no files, --example or --generate")
        _from_bank(ctx, bank_path, bank_count or 24, rating, difficulty, technique, seed, book, output, paper,
                   per_page, solutions, solutions_per_page, title, symbols)
        return
    if bank_count is not None or rating is not None or technique is not None or book is not None:
        raise click.UsageError("-n, --rating, --technique and --mark-used go with --bank PATH")
    if count is not None and (paths or names):
        raise click.UsageError("give puzzles to read or --generate N, not both")
    if count is None and difficulty is not None:
        raise click.UsageError("--difficulty goes with --generate")
    check_units(ctx, variant, regions, generating=count is not None, cages=cages)
    if count is None and (givens is not None or minimal == "cages"):
        raise click.UsageError("--givens and --minimal cages go with --generate")
    if cages is not None and count is not None:
        raise click.UsageError("--cages goes with puzzles read; generated killers draw their own (--variant killer)")
    if output is None and (svg_dir or png_dir):
        _pictures_only(ctx)
    failures: list[str] = []
    if count is not None:
        from ..generation import generate_many
        from ..generation.plan import fresh_seed as _fresh_seed

        first = _fresh_seed() if seed is None else seed
        shape = request_shape(box, None, regions)
        givens = killer_options(ctx, variant, minimal, givens, shape, symmetry)
        units = (f" --variant {variant}" if variant else "") + (f" --regions {regions}" if regions else "")
        source = f"sudoku print --generate {count} --box {shape}{units}" + (
            f" --difficulty {difficulty}" if difficulty else "") + (
            f" --minimal {minimal}" if minimal != "unique" else "") + (
            f" --givens {givens}" if givens else "") + (
            f" --symmetry {symmetry}" if symmetry != "none" else "") + f" --seed {first}"
        puzzles = []
        try:
            with Progress("generating") as progress:
                for puzzle in generate_many(count, shape=shape, minimal=minimal, symmetry=symmetry, seed=first,
                                            jobs=jobs, difficulty=difficulty, variant=variant, regions=regions,
                                            givens=givens):
                    puzzles.append(puzzle)
                    progress.advance()
        except SudokuError as exc:
            raise click.ClickException(str(exc)) from None
        raw: list[Any] = puzzles
    else:
        if not paths and not names:
            if sys.stdin is None or sys.stdin.isatty():
                raise click.UsageError("give a file of puzzles, '-' for standard input, --example NAME "
                                       "or --generate N")
            paths = ("-",)
        read = list(_read(paths, names, box, symbols, failures, variant, regions, cages))
        sources = list(dict.fromkeys(label for _, label in read))
        source = ", ".join(sources) if len(sources) <= 3 else f"{sources[0]} and {len(sources) - 1} more"
        raw = []
        for number, (item, _) in enumerate(read, 1):
            raw.append(item if item.number else Item(item.puzzle, item.solution, number=number))
    entries: list[Any] = []
    with Progress("solving and rating" if do_rate else "solving") as progress:
        for number, entry in enumerate(raw, 1):
            try:
                entries.extend(make_items([entry], rate=do_rate, rate_timeout=rate_timeout, start=number))
            except SudokuError as exc:
                failures.append(str(exc))
            progress.advance()
    for message in failures:
        click.echo(message, err=True)
    if not entries:
        click.echo("sudoku print: nothing to print", err=True)
        ctx.exit(EXIT_FAILED)
        return
    if output is None and not (svg_dir or png_dir):
        output = "sudoku.pdf"
    if output is not None:
        data = booklet(entries, None, paper=paper, per_page=int(per_page), solutions=solutions,
                       solutions_per_page=int(solutions_per_page) if solutions_per_page else None,
                       title=title, source=source, rate=do_rate, symbols=symbols)
        if output == "-":
            _write_stdout(data)
        else:
            try:
                Path(output).write_bytes(data)
            except OSError as exc:
                output_failed(exc, output)
            click.echo(f"wrote {output}: {len(entries)} puzzle{'s' if len(entries) != 1 else ''}", err=True)
    for folder, fmt in ((svg_dir, "svg"), (png_dir, "png")):
        if folder:
            try:
                written = write_pictures(entries, folder, fmt, solutions=solutions, symbols=symbols, dpi=dpi)
            except OSError as exc:
                output_failed(exc, exc.filename or folder)
            click.echo(f"wrote {len(written)} {fmt.upper()} files into {folder}", err=True)
    ctx.exit(EXIT_FAILED if failures else 0)


def _from_bank(ctx: click.Context, bank_path: str, n: int, rating: str | None, level: str | None,
               technique: str | None, seed: int | None, book: str | None, output: str | None, paper: str,
               per_page: str, solutions: bool, solutions_per_page: str | None, title: str,
               symbols: str | None) -> None:
    """A booklet of ``n`` bank puzzles that no earlier book used, marked used in ``book``
    in the transaction that chose them (nothing is marked if the booklet cannot be written)."""
    from ..bank import BankError
    from ..bank.query import grid_of, reserve
    from ..pictures.pdf import Item, booklet
    from .bank import make_query, open_bank

    q = make_query(rating, level, technique, None, None, None, None, None, None, True, None, n, "random", seed)
    store = open_bank(bank_path, readonly=book is None)
    output = output or "sudoku.pdf"
    try:
        with reserve(store, q, book) as rows:
            if not rows:
                click.echo("sudoku print: no unused puzzle in the bank matches", err=True)
                ctx.exit(EXIT_FAILED)
            entries = []
            for number, row in enumerate(rows, 1):
                er = None if row["er"] is None else ("≥" if row["lower_bound"] else "") + f"{row['er']:.1f}"
                entries.append(Item(grid_of(row), grid_of(row, solution=True), number=number, level=row["level"],
                                    er=er, note="" if er else "not rated"))
            data = booklet(entries, None, paper=paper, per_page=int(per_page), solutions=solutions,
                           solutions_per_page=int(solutions_per_page) if solutions_per_page else None, title=title,
                           source=f"bank {store.path.name}" + (f", {book}" if book else ""), symbols=symbols)
            if output == "-":
                click.get_binary_stream("stdout").write(data)
            else:
                Path(output).write_bytes(data)
    except BankError as exc:
        click.echo(f"sudoku print: {exc}", err=True)
        ctx.exit(EXIT_FAILED)
    except OSError as exc:
        click.echo(f"sudoku print: cannot write {output}: {exc.strerror or exc}; nothing was marked used", err=True)
        ctx.exit(EXIT_FAILED)
    finally:
        store.close()
    marked = f", marked used in {book!r}" if book else ""
    click.echo(f"wrote {output}: {len(rows)} puzzles from the bank{marked}", err=True)


print_.name = "print"


#: The options that shape only the booklet, not the pictures.
BOOKLET_ONLY = ("paper", "per_page", "solutions_per_page", "title")


def _pictures_only(ctx: click.Context) -> None:
    """``--svg-dir``/``--png-dir`` without ``-o`` write no booklet: options that shape only the
    booklet would be ignored, so they are refused, naming them."""
    given = [name for name in BOOKLET_ONLY
             if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT]
    if given:
        names = ", ".join("--" + name.replace("_", "-") for name in given)
        raise click.UsageError(f"{names} shape{'s' if len(given) == 1 else ''} the booklet, and with only "
                               "--svg-dir/--png-dir none is written: add -o FILE for the booklet too", ctx)


def _write_stdout(data: bytes) -> None:
    """The booklet on standard output (``-o -``): quiet when the reader is gone, ``cannot
    write output`` when it does not fit."""
    stream = click.get_binary_stream("stdout")
    try:
        stream.write(data)
        stream.flush()
    except BrokenPipeError:
        silence_stdout()
        raise click.exceptions.Exit(0) from None
    except OSError as exc:
        output_failed(exc)
