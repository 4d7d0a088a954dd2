"""The ``sudoku`` command line.

Subcommands are loaded only when they run, so ``sudoku --help`` and a plain
solve never pay for numba or scipy they do not use. Two shortcuts:

* ``sudoku PATH... | -`` (first argument not a command) solves, like
  ``sudoku solve``; ``sudoku --method dfs puzzles.txt`` too.
* ``sudoku`` with no arguments prints a new puzzle, so
  ``sudoku | sudoku -`` shows a puzzle and then its solution.

No algorithm lives here: commands parse arguments, call the public API and
format what comes back.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Any, Iterator

import click

from .common import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, is_write_failure, module_exists,
                     silence_stdout, write_failure)

#: Subcommand name -> "module:attribute" of its click command.
COMMANDS: dict[str, str] = {
    "solve": "sudokit.cli.solve:solve",
    "examples": "sudokit.cli.solve:examples",
    "generate": "sudokit.cli.generate:generate",
    "rate": "sudokit.cli.explain:rate",
    "explain": "sudokit.cli.explain:explain",
    "hint": "sudokit.cli.explain:hint",
    "print": "sudokit.cli.print:print_",
    "serve": "sudokit.cli.serve:serve",
    "warm-up": "sudokit.cli.warmup:warm_up",
    "bank": "sudokit.cli.bank:bank",
    "canon": "sudokit.cli.canon:canon",
}

#: One line per command for ``sudoku --help``, so the listing imports nothing.
SUMMARIES: dict[str, str] = {
    "solve": "Solve, count or enumerate every puzzle in files or stdin.",
    "examples": "List the named example puzzles, or print one.",
    "generate": "Generate new puzzles.",
    "rate": "Rate the difficulty of puzzles.",
    "explain": "Explain a solving path step by step.",
    "hint": "Show the next logical step.",
    "print": "Print puzzles as a PDF booklet, or one picture each.",
    "serve": "Serve a local page to play and learn, and a JSON API.",
    "warm-up": "Compile the solver engine ahead of a first run.",
    "bank": "Keep rated puzzles in a bank: add, query, stats, export, import.",
    "canon": "Canonical forms (minlex, patminlex) of puzzles; --dedupe keeps each class once.",
}

#: What ``sudoku`` with no arguments runs.
DEFAULT_ARGS = ["generate", "--method", "clauses", "--minimal", "logic", "--format", "spaced", "-n", "1"]

#: Options of the group itself; any other first option goes to ``solve``.
GROUP_OPTIONS = {"--help", "-h", "--version"}


def _version() -> str:
    from .. import __version__

    return __version__


@contextlib.contextmanager
def _reader_gone() -> Iterator[None]:
    """A closed pipe on stdout ends the command quietly with status 0 (click itself would
    exit with 1)."""
    try:
        yield
    except BrokenPipeError:
        silence_stdout()
        raise click.exceptions.Exit(EXIT_OK) from None


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use.

    A subcommand whose module is not installed is left out of the listing.
    """

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def _present(self, name: str) -> bool:
        return module_exists(self.lazy[name].partition(":")[0])

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(super().list_commands(ctx)) | {n for n in self.lazy if self._present(n)}
        return sorted(names)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name not in self.lazy or not self._present(cmd_name):
            return None
        module_name, _, attr = self.lazy[cmd_name].partition(":")
        command = getattr(importlib.import_module(module_name), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
        self.commands[cmd_name] = command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Short help without importing every command: take the docstring's first line.
        rows = []
        for name in self.list_commands(ctx):
            if name in SUMMARIES:
                rows.append((name, SUMMARIES[name]))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=formatter.width - 6 - len(name))))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with _reader_gone():  # `sudoku --help | head -1`
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with _reader_gone():
            return super().invoke(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            args = list(DEFAULT_ARGS) if self._present("generate") else ["--help"]
        elif args[0] not in self.lazy and args[0] not in self.commands and args[0] not in GROUP_OPTIONS:
            first = args[0]
            if first.isalpha() and first.islower() and not os.path.exists(first):
                commands = ", ".join(self.list_commands(ctx))
                raise click.UsageError(f"no command or file called {first!r}; the commands are: {commands}", ctx)
            args = ["solve", *args]  # `sudoku PATH...`, `sudoku -`, `sudoku --method dfs PATH`
        return super().parse_args(ctx, args)


@click.group(
    "sudoku",
    cls=LazyGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(_version(), "--version", prog_name="sudoku", message="%(prog)s %(version)s")
def cli() -> None:
    """Solve, count, generate, rate and explain Sudoku puzzles of any box shape.

    \b
      sudoku                      a new puzzle
      sudoku PATH... | -          solve every puzzle in files or stdin (same as: sudoku solve)
      sudoku | sudoku -           a new puzzle and its solution
      sudoku COMMAND --help       the options of one command

    Exit status: 0 when every puzzle succeeded, 1 when some puzzle failed
    (no solution, invalid givens, unreadable, timeout), 2 for usage errors.
    """


def main(argv: list[str] | None = None) -> int:
    """The console script: run the command line and exit with its status.

    Every :class:`~sudokit.errors.SudokuError` becomes a one-line message,
    Ctrl-C stops with status 130, a closed pipe (``sudoku f | head``) ends
    quietly with status 0, and output that cannot be written (``> /dev/full``),
    whatever it was (results, a listing, help text), says ``cannot write
    output`` with status 1. No Python traceback reaches the user; set ``SUDOKIT_DEBUG=1`` to
    see one for an unexpected failure.

    The interpreter's last collection, as the process ends, is skipped
    (:func:`_quick_end`).
    """
    from ..errors import SudokuError

    _quick_end()
    code: Any
    try:
        with _compile_notice(sys.argv[1:] if argv is None else list(argv)):
            code = cli.main(args=argv, prog_name="sudoku", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("sudoku: interrupted", err=True)
        code = EXIT_INTERRUPTED
    except KeyboardInterrupt:
        click.echo("sudoku: interrupted", err=True)
        code = EXIT_INTERRUPTED
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except BrokenPipeError:  # the reader went away (help text, a listing): it had what it wanted
        silence_stdout()
        code = EXIT_OK
    except SudokuError as exc:
        click.echo(f"Error: {exc}", err=True)
        code = EXIT_USAGE
    except Exception as exc:  # a bug: say so in one line, not a traceback
        if is_write_failure(exc):  # a full disk, `> /dev/full`: however the text was on its way out
            code = _cannot_write(exc)  # type: ignore[arg-type]
            return code
        if os.environ.get("SUDOKIT_DEBUG"):
            raise
        click.echo(f"sudoku: internal error: {type(exc).__name__}: {exc} (set SUDOKIT_DEBUG=1 for details)",
                   err=True)
        code = EXIT_FAILED
    if not isinstance(code, int):
        code = 0
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    except OSError as exc:  # what a command left in the buffer does not fit
        code = _cannot_write(exc)
    return code


_ENDING: list[bool] = []


def _quick_end() -> None:
    """As the process ends, hide what it made from the cycle collector
    (:func:`gc.freeze`): the interpreter collects once more as it shuts down,
    and after a hard rating (the chain searches' memories: a few hundred
    thousand objects) that took 0.3 to 0.6 s of a command's wall time, for
    memory the operating system takes back anyway. Objects are still freed by
    their reference counts (open files are flushed and closed as before)."""
    if not _ENDING:
        import atexit
        import gc

        atexit.register(gc.freeze)
        _ENDING.append(True)


def _cannot_write(exc: OSError) -> int:
    """``sudoku: cannot write output: <reason>``, status 1 (as :func:`.common.output_failed`)."""
    silence_stdout()
    click.echo(f"sudoku: cannot write output: {write_failure(exc)}", err=True)
    return EXIT_FAILED


#: The engine's kernel groups each command uses (for the first run's notice), in the order a
#: first run compiles them in the background: for a rating, those that save it the most time
#: for each second they take to compile first (benchmarks/RESULTS-rating.md, "The first run").
_RATING_KERNELS = ("logic", "producers", "chains", "count", "nested", "cycles")
ENGINE_KERNELS: dict[str, tuple[str, ...]] = {
    "solve": ("count",), "rate": _RATING_KERNELS, "explain": _RATING_KERNELS, "hint": ("count",),
    "generate": ("generate",), "print": ("count",), "canon": ("canon",),
}


def _compile_notice(args: list[str]) -> Any:
    """The first run's compile notice for a command that uses the engine
    (nothing to import for the others)."""
    name = args[0] if args else "generate"
    if name not in COMMANDS and name not in GROUP_OPTIONS:
        name = "solve"  # `sudoku PATH...`
    if name not in ENGINE_KERNELS or "--help" in args or "-h" in args:
        return contextlib.nullcontext()
    from .common import compile_notice

    kernels = ENGINE_KERNELS[name]
    if name == "print" and "--generate" in args:
        name, kernels = "generate", ENGINE_KERNELS["generate"]
    if name == "generate":
        kernels = ("generate", _verdict(args))
    if name == "solve" and _other_shape(args):
        kernels = ("shapes",)
    elif name == "solve" and ("--variant" in args or "--regions" in args):
        kernels = ("variants",)  # the 9x9 solver over any units
    if name in ("solve", "generate", "print") and _killer(args):
        kernels = ("killer",)
    return compile_notice(kernels)


def _killer(args: list[str]) -> bool:
    """Whether the arguments ask for killer cages (for the notice only)."""
    return "--cages" in args or any(a == "--variant" and "killer" in b for a, b in zip(args, args[1:]))


def _verdict(args: list[str]) -> str:
    """The kernel group of the generator's minimiser that the arguments ask
    for (for the notice only: the rule, and whether the shape is 9x9)."""
    rule = next((b for a, b in zip(args, args[1:]) if a == "--minimal"), "unique")
    classic = not _other_shape(args) and "--variant" not in args and "--regions" not in args
    if rule in ("logic", "preemptive"):
        return "preemptive" if rule == "preemptive" else "logic-9x9" if classic else "logic-other"
    big = any(a in ("4x4", "16", "5x5", "25") for a in args)
    return "unique-9x9" if classic else "unique-16x16" if big else "unique-other"


def _other_shape(args: list[str]) -> bool:
    """Whether the arguments ask for a shape other than 9x9 (for the notice only)."""
    return any(a in ("--box", "--size") for a in args) and not any(a in ("3x3", "9") for a in args)


__all__ = ["COMMANDS", "LazyGroup", "cli", "main"]
