"""Killers on the command line: ``--cages FILE`` and ``--variant killer`` on solve and print,
``--variant killer`` on generate; bad cages are usage errors (exit 2) that name the file,
line and column, or, for a cage that does not fit one puzzle, that puzzle's failure (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import records, run

PUBLISHED = Path(__file__).parent.parent / "data" / "published_killers.jsonl"
BLANK = "." * 81


def published() -> list[dict]:
    return [json.loads(line) for line in PUBLISHED.read_text().splitlines()]


def cage_file(tmp_path: Path, lines: list[str], name: str = "cages.txt") -> str:
    path = tmp_path / name
    path.write_text("# a killer's cages\n" + "\n".join(lines) + "\n")
    return str(path)


def test_solve_with_cages_gives_the_published_solution(tmp_path):
    for killer in published():
        cages = cage_file(tmp_path, killer["cages"])
        result = run("solve", "--cages", cages, "--format", "jsonl", "-", input=BLANK + "\n")
        assert result.exit_code == 0, result.output
        (record,) = records(result)
        assert record["status"] == "solved" and record["solution"] == killer["solution"]
        assert record["variant"] == "killer" and record["cages"] == killer["cages"]
        counted = run("solve", "--variant", "killer", "--cages", cages, "--count", "-", input=BLANK + "\n")
        assert counted.exit_code == 0 and "1" in counted.output


def test_records_that_carry_their_cages_need_no_option():
    result = run("solve", "--format", "line", str(PUBLISHED))
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == [k["solution"] for k in published()]


def test_a_bad_cage_file_is_a_usage_error_naming_its_place(tmp_path):
    cases = [
        (["r1c1 r1c2 = 3", "r2c1 x9 = 4"], "line 3, column 6", "expected a cell"),
        (["r1c1 r1c2 = three"], "line 2", "whole number"),
        (["r1c1 r1c3 = 4"], "cage 1", "not connected"),
        (["r1c1 r1c2 = 3", "r1c2 r2c2 = 5"], "cage 2", "in cage 1 too"),
        ([], "", "holds no cage"),
    ]
    for lines, where, what in cases:
        path = cage_file(tmp_path, lines)
        result = run("solve", "--cages", path, "-", input=BLANK + "\n")
        assert result.exit_code == 2, (lines, result.output)
        assert "--cages" in result.output and "cages.txt" in result.output
        assert where in result.output and what in result.output
    missing = run("solve", "--cages", str(tmp_path / "none.txt"), "-", input=BLANK + "\n")
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_cages_that_do_not_fit_a_puzzle_fail_that_puzzle(tmp_path):
    path = cage_file(tmp_path, ["r1c1 r1c2 = 3", "r5c5 r5c6 = 7"])  # r5c5 is outside a 4x4
    result = run("solve", "--cages", path, "--format", "line", "-", input="." * 16 + "\n" + BLANK + "\n")
    assert result.exit_code == 1
    assert "puzzle 1" in result.output and "r5c5 is outside the 4x4 grid" in result.output
    assert [len(line) for line in result.stdout.splitlines()] == [0, 81]  # the 4x4 gets an empty line


def test_killer_options_that_do_not_go_together(tmp_path):
    path = cage_file(tmp_path, published()[0]["cages"])
    no_cages = run("solve", "--variant", "killer", "-", input=BLANK + "\n")
    assert no_cages.exit_code == 2 and "--cages FILE" in no_cages.output
    method = run("solve", "--cages", path, "--method", "dfs", "-", input=BLANK + "\n")
    assert method.exit_code == 2 and "does not keep killer cages" in method.output and "fast, mip" in method.output
    mip = run("solve", "--cages", path, "--method", "mip", "--format", "line", "-", input=BLANK + "\n")
    assert mip.exit_code == 0 and mip.stdout.strip() == published()[0]["solution"]
    generated = run("generate", "--variant", "killer", "--format", "line")
    assert generated.exit_code == 2 and "jsonl" in generated.output
    cages_alone = run("generate", "--minimal", "cages")
    assert cages_alone.exit_code == 2 and "--variant killer" in cages_alone.output


def test_generated_killers_read_back_and_solve(tmp_path):
    made = run("generate", "-n", "3", "--variant", "killer", "--seed", "7", "--box", "2x3")
    assert made.exit_code == 0, made.output
    made_records = records(made)
    assert [r["seed"] for r in made_records] == [7, 8, 9]
    assert all(r["variant"] == "killer" and r["clues"] == 0 and r["cages"] for r in made_records)
    path = tmp_path / "killers.jsonl"
    path.write_text(made.stdout)
    solved = run("solve", "--count", "--format", "jsonl", str(path))
    assert solved.exit_code == 0, solved.output
    for before, after in zip(made_records, records(solved)):
        assert after["count"] == 1 and after["solution"] == before["solution"] and after["cages"] == before["cages"]
    again = run("generate", "-n", "3", "--variant", "killer", "--seed", "7", "--box", "2x3")
    assert again.stdout == made.stdout


def test_print_draws_killers_read_or_generated(tmp_path):
    path = cage_file(tmp_path, published()[0]["cages"])
    pdf = tmp_path / "k.pdf"
    printed = run("print", "--cages", path, "--no-rate", "-o", str(pdf), "--svg-dir", str(tmp_path / "svg"), "-",
                  input=BLANK + "\n")
    assert printed.exit_code == 0, printed.output
    assert pdf.read_bytes().startswith(b"%PDF")
    svg = (tmp_path / "svg" / "puzzle-0001.svg").read_text()
    assert "29 killer cages" in svg and 'class="cages"' in svg
    made = run("print", "--generate", "1", "--variant", "killer", "--seed", "2", "--no-rate", "-o", str(pdf))
    assert made.exit_code == 0, made.output


def test_the_logic_takes_killers(tmp_path):
    """rate, explain and hint take a killer's cages as solve does (tests/logic/test_killer_logic.py
    has the rest)."""
    needs_cages = run("rate", "--variant", "killer", "-", input=BLANK + "\n")
    assert needs_cages.exit_code == 2 and "--cages FILE" in needs_cages.output
    rated = run("rate", str(PUBLISHED))  # records that carry their cages
    assert rated.exit_code == 0 and len(rated.stdout.splitlines()) == 3, rated.output
    path = cage_file(tmp_path, published()[1]["cages"])
    hinted = run("hint", "--cages", path, "-", input=BLANK + "\n")
    assert hinted.exit_code == 0 and hinted.stdout.strip(), hinted.output


def test_killers_with_givens_read_back_solve_print_and_rate(tmp_path):
    args = ("generate", "-n", "3", "--variant", "killer", "--givens", "5", "--seed", "21", "--box", "2x3")
    made = run(*args)
    assert made.exit_code == 0, made.output
    made_records = records(made)
    assert [r["clues"] for r in made_records] == [5, 5, 5]
    for r in made_records:
        given = [(p, s) for p, s in zip(r["puzzle"], r["solution"]) if p != "."]
        assert len(given) == 5 and all(p == s for p, s in given)
    path = tmp_path / "killers.jsonl"
    path.write_text(made.stdout)
    solved = run("solve", "--count", "--format", "jsonl", str(path))
    assert solved.exit_code == 0, solved.output
    for before, after in zip(made_records, records(solved)):
        assert after["count"] == 1 and after["puzzle"] == before["puzzle"]
        assert after["solution"] == before["solution"] and after["cages"] == before["cages"]
    assert run(*args, "--jobs", "2").stdout == made.stdout
    printed = run("print", str(path), "--no-rate", "-o", str(tmp_path / "k.pdf"))
    assert printed.exit_code == 0, printed.output
    rated = run("rate", str(path))
    assert rated.exit_code == 0 and len(rated.stdout.splitlines()) == 3, rated.output
    symmetric = run("generate", "--variant", "killer", "--givens", "4", "--symmetry", "rotate180", "--seed", "2",
                    "--box", "2x3", "--minimal", "cages")
    assert symmetric.exit_code == 0, symmetric.output
    (record,) = records(symmetric)
    puzzle = record["puzzle"]
    assert record["symmetry"] == "rotate180" and record["clues"] == 4
    assert all((puzzle[i] == ".") == (puzzle[35 - i] == ".") for i in range(36))


def test_bad_givens_are_usage_errors():
    cases = [
        (("--variant", "killer", "--givens", "81"), "'--givens': a 9x9 killer takes 0 to 80 givens, not 81"),
        (("--variant", "killer", "--box", "2x3", "--givens", "36"), "a 6x6 killer takes 0 to 35 givens"),
        (("--variant", "killer", "--givens", "-1"), "'--givens'"),
        (("--variant", "killer", "--givens", "some"), "'--givens'"),
        (("--givens", "4"), "--givens is for killers: add --variant killer"),
        (("--variant", "x", "--givens", "4"), "--givens is for killers"),
        (("--variant", "killer", "--symmetry", "rotate180"), "without givens"),
        (("--variant", "killer", "--box", "2x2", "--givens", "3", "--symmetry", "rotate180"),
         "3 givens cannot make a rotate180 pattern on a 4x4 grid"),
    ]
    for args, message in cases:
        result = run("generate", *args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)


def test_a_killer_too_big_to_make_is_refused_at_once():
    # a 16x16 killer's first uniqueness count could run for hours: refused by name, before any work
    import time

    start = time.perf_counter()
    result = run("generate", "--variant", "killer", "--box", "4x4", "--format", "jsonl")
    assert result.exit_code == 2, result.output
    assert "killers are made up to 12x12, not 16x16" in result.output
    assert time.perf_counter() - start < 10


def test_print_generates_killers_with_givens_and_minimal_cages(tmp_path):
    # the booklet's puzzles are those `sudoku generate` makes from the same options and seeds
    pdf = tmp_path / "k.pdf"
    svg = tmp_path / "svg"
    printed = run("print", "--generate", "2", "--variant", "killer", "--givens", "6", "--minimal", "cages",
                  "--box", "2x3", "--seed", "3", "--no-rate", "-o", str(pdf), "--svg-dir", str(svg))
    assert printed.exit_code == 0, printed.output
    assert pdf.read_bytes().startswith(b"%PDF")
    made = records(run("generate", "-n", "2", "--variant", "killer", "--givens", "6", "--minimal", "cages",
                       "--box", "2x3", "--seed", "3"))
    for number, record in enumerate(made, 1):
        assert record["clues"] == 6
        picture = (svg / f"puzzle-{number:04d}.svg").read_text()
        assert f"{len(record['cages'])} killer cages" in picture
        digits = picture.split('font-weight="bold"', 1)[1]  # the givens' group, after the cages' sums
        assert digits.count("<text") == 6
    for args, message in [(("--givens", "3"), "--givens is for killers"),
                          (("--variant", "killer", "--givens", "36", "--box", "2x3"), "0 to 35 givens"),
                          (("--minimal", "cages"), "--minimal cages is for killers")]:
        refused = run("print", "--generate", "1", *args, "-o", str(pdf))
        assert refused.exit_code == 2 and message in refused.output, (args, refused.output)
