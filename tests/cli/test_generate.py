"""The ``generate`` command: JSON-lines records whose seeds remake their
puzzles, a line with its solution, and usage errors.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli_helpers import run
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


def test_variant_puzzles_come_with_their_units_and_solve_back_under_them(tmp_path) -> None:
    """generate --variant / --regions write records that sudoku solve reads back
    as the same puzzles under the same units (one solution each, the generated one)."""
    layout = "111222311222331444333444555666555666"
    for args in (["--variant", "x"], ["--variant", "hyper"], ["--regions", layout]):
        made = run("generate", "-n", "4", "--seed", "9", "--format", "jsonl", "--with-solution", *args)
        assert made.exit_code == 0, made.output
        out = [json.loads(line) for line in made.output.splitlines() if line.startswith("{")]  # not a compile notice
        assert {r["variant"] for r in out} == {"jigsaw" if args[0] == "--regions" else args[1]}
        path = tmp_path / "made.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in out))
        solved = run("solve", "--format", "jsonl", "--count", str(path))
        assert solved.exit_code == 0, solved.output
        back = [json.loads(line) for line in solved.output.splitlines() if line.startswith("{")]
        assert [(r["count"], r["solution"]) for r in back] == [(1, r["solution"]) for r in out]
    refused = run("generate", "--variant", "jigsaw")
    assert refused.exit_code == 2 and "--variant jigsaw needs its regions" in refused.output
