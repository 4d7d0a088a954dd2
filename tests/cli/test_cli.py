"""The ``sudoku`` command itself (sudokit.cli): the shortcuts that solve without
a subcommand, the help, and the installed script run as a user runs it.

Every answer is checked against independent truth: the reference solver and
rules check in tests/reference.py, and the published counts in
/work/shared/data/cases/counts.tsv.
"""

from __future__ import annotations

import json
import signal
import subprocess


from conftest import BENCH, require_shared
from reference import obeys_rules, reference_count

from cli_helpers import blocks, run, spaced_to_line, sudoku, values_of


# -- the shortcuts: `sudoku PATH` and `sudoku -` ---------------------------------------------


def test_bare_paths_solve_in_block_format(tmp_path, counts_cases):
    chosen = [c for c in counts_cases if c["count"] == "1"][:3]
    path = tmp_path / "three.txt"
    path.write_text("".join(c["puzzle"] + "\n" for c in chosen))
    result = run(str(path))  # `sudoku PATH`: no subcommand
    assert result.exit_code == 0, result.stderr
    found = blocks(result.stdout)
    assert len(found) == 3
    for case, (puzzle_rows, solution_rows) in zip(chosen, found):
        assert spaced_to_line(puzzle_rows) == case["puzzle"].replace("0", ".")
        assert spaced_to_line(solution_rows) == case["solution"]


def test_stdin_dash(counts_cases):
    case = next(c for c in counts_cases if c["count"] == "1")
    result = run("-", "--format", "line", input=case["puzzle"] + "\n")
    assert result.exit_code == 0
    assert result.stdout.split() == [case["solution"]]


def test_help_lists_the_commands():
    result = run("--help")
    assert result.exit_code == 0
    assert "solve" in result.stdout and "examples" in result.stdout


# -- the installed script ---------------------------------------------------------------------


def test_script_version_and_help():
    from sudokit import __version__

    assert sudoku("--version").stdout.strip() == f"sudoku {__version__}"
    assert sudoku("--help").returncode == 0


def test_script_examples_piped_into_solve():
    puzzle = sudoku("examples", "diabolical", "--format", "spaced").stdout
    solved = sudoku("-", input=puzzle)
    assert solved.returncode == 0 and "Traceback" not in solved.stderr
    [(puzzle_rows, solution_rows)] = blocks(solved.stdout)
    assert obeys_rules(values_of(spaced_to_line(solution_rows)), values_of(spaced_to_line(puzzle_rows)), 3, 3)


def test_script_no_arguments_makes_a_puzzle_that_solves():
    made = sudoku()
    assert made.returncode == 0, made.stderr
    solved = sudoku("-", "--format", "jsonl", input=made.stdout)
    assert solved.returncode == 0, solved.stderr
    [record] = [json.loads(line) for line in solved.stdout.splitlines()]
    puzzle = values_of(record["puzzle"])
    count, only = reference_count(puzzle, 3, 3, limit=2)
    assert count == 1 and values_of(record["solution"]) == only


def test_script_ctrl_c_stops_cleanly_and_keeps_results(tmp_path):
    puzzles = require_shared(BENCH / "kaggle.txt").read_text().split()
    path = tmp_path / "many.txt"
    path.write_text("\n".join(puzzles * 5) + "\n")
    proc = subprocess.Popen(  # --timeout keeps it on the puzzle-by-puzzle path
        ["sudoku", "solve", str(path), "--timeout", "60", "--format", "line"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # A runner that starts the suite in the background ignores SIGINT, and a
        # child inherits that; give the command the terminal's default back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    first = proc.stdout.readline()  # wait for the first result
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    written = [first.strip()] + rest.split()
    assert 1 <= len(written) < len(puzzles) * 5
    assert obeys_rules(values_of(written[0]), values_of(puzzles[0]), 3, 3)
