"""What the commands write, the commands read back: ``sudoku generate ... | sudoku -`` solves the
same puzzles, for every shape, variant and output format, and the records of ``solve``, ``rate``
and ``explain`` read back as the puzzle they are about. The truth is ``generate``'s own record
of each puzzle (its solution, shape and units), written by another path than ``solve``'s."""

from __future__ import annotations

import json

import pytest

from sudokit.formats import RECORDS

from cli_helpers import records, run

#: (generate's options, its --format or None for the default).
_ALL = [
    (["--size", "4"], None), (["--size", "4"], "rows"), (["--size", "4"], "spaced"), (["--size", "4"], "boxed"),
    (["--box", "1x4"], None), (["--box", "1x4"], "boxed"), (["--box", "1x4"], "line"),
    (["--box", "2x3"], None), (["--box", "3x2"], None), (["--box", "3x2"], "boxed"), (["--box", "3x2"], "spaced"),
    (["--box", "4x3"], None), (["--box", "4x3"], "line"), (["--box", "3x4"], "rows"),
    (["--size", "5"], None), ([], None), ([], "boxed"),
    (["--variant", "x"], None), (["--variant", "x"], "line"), (["--variant", "hyper"], None),
    (["--variant", "x", "--box", "3x2"], None), (["--regions", "random", "--size", "6"], None),
    (["--variant", "killer", "--size", "4"], None), (["--variant", "killer,x", "--size", "6"], None),
]
#: The default suite's sample; the rest runs under ``-m slow``.
_SAMPLE = {1, 3, 8, 9, 12, 16, 18, 21}
CASES = [case if i in _SAMPLE else pytest.param(*case, marks=pytest.mark.slow) for i, case in enumerate(_ALL)]


def _read_options(truth: dict, fmt: str) -> list[str]:
    """What a user gives again to read ``fmt`` back: only what the format does not record."""
    options = []
    if "shape" not in RECORDS[fmt] and truth.get("shape") not in (None, "2x2", "2x3", "3x3", "3x4", "1x5"):
        options += ["--box", truth["shape"]]
    if "units" not in RECORDS[fmt]:
        names = [v for v in truth.get("variant", "").split(",") if v and v != "jigsaw"]
        if names:
            options += ["--variant", ",".join(names)]
        if truth.get("regions"):
            options += ["--regions", truth["regions"]]
    return options


@pytest.mark.parametrize("options, fmt", CASES)
def test_generated_puzzles_read_back(options: list[str], fmt: str | None) -> None:
    seed = ["-n", "2", "--seed", "11"]
    truth = records(run("generate", *options, *seed, "--format", "jsonl"))
    made = run("generate", *options, *seed, *(["--format", fmt] if fmt else []))
    assert made.exit_code == 0, made.output
    written = fmt or ("jsonl" if made.stdout.lstrip().startswith("{") else "line")
    if fmt is None and (set(truth[0]) & {"variant", "regions"} or truth[0]["shape"] in ("1x4", "3x2", "4x3")):
        assert written == "jsonl"  # the default records what reading it back needs
    solved = run("solve", "-", "--format", "jsonl", *_read_options(truth[0], written), input=made.stdout)
    assert solved.exit_code == 0, solved.output
    back = records(solved)
    assert [r["solution"] for r in back] == [t["solution"] for t in truth]
    for r, t in zip(back, truth):
        assert r["puzzle"] == t["puzzle"]
        for key in ("variant", "regions", "cages"):
            if "units" in RECORDS[written]:
                assert r.get(key) == t.get(key), key


@pytest.mark.parametrize("options", [["--box", "3x2"], pytest.param(["--box", "4x3"], marks=pytest.mark.slow),
                                     pytest.param(["--variant", "x"], marks=pytest.mark.slow),
                                     pytest.param(["--variant", "killer", "--size", "4"], marks=pytest.mark.slow)])
def test_records_of_every_command_read_back(options: list[str]) -> None:
    """A record of ``solve``, ``rate`` or ``explain`` fed to ``solve`` is the same puzzle."""
    minimal = [] if "killer" in options else ["--minimal", "logic"]  # quick to rate and explain
    truth = records(run("generate", *options, *minimal, "-n", "1", "--seed", "3", "--format", "jsonl"))[0]
    line = json.dumps(truth) + "\n"
    for command in ("solve", "rate", "explain"):
        written = run(command, "-", "--format", "jsonl", input=line)
        assert written.exit_code == 0, (command, written.output)
        first = written.stdout.splitlines()[0] + "\n"
        again = records(run("solve", "-", "--format", "jsonl", input=first))
        assert again[0]["puzzle"] == truth["puzzle"] and again[0]["solution"] == truth["solution"], command


@pytest.mark.parametrize("size", ["1", "2", "3"])
def test_sizes_that_make_no_puzzle_are_usage_errors(size: str) -> None:
    for args in (["generate", "--size", size], ["generate", "--box", f"1x{size}"],
                 ["print", "--generate", "1", "--box", f"1x{size}"]):
        done = run(*args)
        assert done.exit_code == 2, (args, done.output)
        assert "the smallest puzzle is 4x4" in done.output


def test_a_random_layout_is_written_only_where_it_is_recorded() -> None:
    done = run("generate", "--regions", "random", "--size", "6", "--format", "line")
    assert done.exit_code == 2 and "--format jsonl" in done.output
