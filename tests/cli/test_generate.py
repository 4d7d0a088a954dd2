"""The ``generate`` command: JSON-lines records whose seeds remake their
puzzles, a line with its solution, and usage errors.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from puzzles import ref_count
from sudokit.grid import Grid


def test_cli_jsonl_records() -> None:
    from sudokit.cli.generate import generate as command

    result = CliRunner().invoke(command, ["-n", "3", "--seed", "9", "--format", "jsonl",
                                          "--symmetry", "rotate180", "--box", "2x3"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [r["seed"] for r in records] == [9, 10, 11]
    for r in records:
        assert set(r) >= {"puzzle", "solution", "clues", "seed", "shape", "minimal", "symmetry"}
        assert r["shape"] == "2x3" and r["minimal"] == "unique" and r["symmetry"] == "rotate180"
        puzzle = Grid(r["puzzle"], "2x3")
        assert puzzle.clues == r["clues"] and ref_count(puzzle) == 1
        again = CliRunner().invoke(command, ["--seed", str(r["seed"]), "--box", "2x3", "--symmetry", "rotate180"])
        assert again.output.strip() == r["puzzle"]


def test_cli_line_with_solution_and_usage_errors() -> None:
    from sudokit.cli.generate import generate as command

    result = CliRunner().invoke(command, ["--seed", "3", "--with-solution"])
    puzzle, solution = result.output.split()
    assert Grid(solution).is_solution_of(Grid(puzzle))
    bad = CliRunner().invoke(command, ["--box", "2x3", "--symmetry", "rotate90"])
    assert bad.exit_code == 2 and "square boxes" in bad.output
