"""``sudoku solve`` and ``sudoku examples`` (sudokit.cli.solve): solving,
counting, formats, examples.

Every answer is checked against independent truth: the reference solver
and rules check in tests/reference.py, and the published counts in
/work/shared/data/cases/counts.tsv.
"""

from __future__ import annotations

import json

import pytest

from conftest import BENCH, load_multisize, require_shared
from reference import obeys_rules, reference_count

from cli_helpers import DIGITS, blocks, clashes, run, spaced_to_line, values_of


@pytest.fixture(scope="module")
def pick(counts_cases):
    """One unique puzzle, one unsolvable with consistent givens, one with clashing givens."""
    unique = next(c for c in counts_cases if c["count"] == "1")
    unsolvable = next(c for c in counts_cases if c["count"] == "0" and not clashes(c["puzzle"]))
    invalid = next(c for c in counts_cases if c["count"] == "0" and clashes(c["puzzle"]))
    return unique, unsolvable, invalid


# -- the classic block --------------------------------------------------------------


def test_example_diabolical_block_is_a_true_solution():
    result = run("solve", "--example", "diabolical")
    assert result.exit_code == 0, result.output
    [(puzzle_rows, solution_rows)] = blocks(result.stdout)
    puzzle = values_of(spaced_to_line(puzzle_rows))
    solution = values_of(spaced_to_line(solution_rows))
    assert sum(1 for v in puzzle if v) == 28
    assert obeys_rules(solution, puzzle, 3, 3)
    count, only = reference_count(puzzle, 3, 3, limit=2)
    assert count == 1 and only == solution


def test_rows_format_on_stdin_is_solved(counts_cases):
    case = next(c for c in counts_cases if c["count"] == "1")
    rows = "\n".join(case["puzzle"][i:i + 9] for i in range(0, 81, 9))
    result = run("solve", "-", "--format", "line", input=rows + "\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == [case["solution"]]


# -- jsonl on a file that mixes every kind of puzzle --------------------------------


@pytest.mark.parametrize("extra", [[], ["--timeout", "60"], ["--method", "preemptive"]],
                         ids=["bulk", "generic", "preemptive"])
def test_jsonl_mixed_file_one_record_per_puzzle_in_order(tmp_path, pick, extra):
    unique, unsolvable, invalid = pick
    path = tmp_path / "mixed.txt"
    path.write_text(
        "# a comment\n"
        f"{unique['puzzle']}\n"          # line 2: solved
        "\n"
        f"{unsolvable['puzzle']}\n"      # line 4: no_solution
        f"{invalid['puzzle']}\n"         # line 5: invalid
        f"{unique['puzzle'][:80]}x\n"    # line 6: parse_error (bad character)
        f"{unique['puzzle']}\n"          # line 7: solved again
    )
    result = run("solve", str(path), "--format", "jsonl", *extra)
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in records] == ["solved", "no_solution", "invalid", "parse_error", "solved"]
    assert [r["line"] for r in records] == [2, 4, 5, 6, 7]
    assert records[0]["solution"] == records[4]["solution"] == unique["solution"]
    assert all(r["solution"] is None for r in records[1:4])
    assert records[0]["puzzle"] == unique["puzzle"].replace("0", ".")
    for r in records:
        assert {"puzzle", "status", "solution", "method", "nodes", "guesses", "message", "line"} <= set(r)
    # the clashing cells are named, in the record and on stderr
    assert "r" in records[2]["message"] and "c" in records[2]["message"]
    assert "puzzle 3 (line 5): invalid:" in result.stderr
    assert "puzzle 2 (line 4): no_solution" in result.stderr
    assert "puzzle 4 (line 6): parse_error" in result.stderr and "column 81" in result.stderr
    assert "Traceback" not in result.stderr


def test_jsonl_records_carry_method_and_no_clock(counts_cases):
    """Records carry the method and the search's counters, but no wall-clock
    time, so a batch's output is the same whatever the number of processes."""
    case = next(c for c in counts_cases if c["count"] == "1")
    result = run("solve", "-", "--format", "jsonl", "--method", "wholemeal", input=case["puzzle"])
    [record] = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["method"] == "wholemeal" and record["nodes"] >= 1 and "ms" not in record
    assert record["solution"] == case["solution"]


# -- counting and enumerating ----------------------------------------------------------


def test_count_agrees_with_published_counts(tmp_path, counts_cases):
    small = [c for c in counts_cases if c["count"].isdigit() and int(c["count"]) <= 150]
    assert len(small) >= 20
    path = tmp_path / "counts.txt"
    path.write_text("".join(c["puzzle"] + "\n" for c in small))
    result = run("solve", str(path), "--count", "--limit", "1000", "--format", "jsonl")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == len(small)
    for case, record in zip(small, records):
        expected = int(case["count"])
        got = record["count"]
        assert got == expected, (case["puzzle"], case["source"], got, expected)
        assert record["status"] == ("solved" if expected else ("invalid" if clashes(case["puzzle"]) else "no_solution"))
    assert result.exit_code == (1 if any(c["count"] == "0" for c in small) else 0)


def test_count_stops_at_the_limit_and_says_so(counts_cases):
    many = next(c for c in counts_cases if c["count"] == ">1" or (c["count"].isdigit() and int(c["count"]) > 200))
    result = run("solve", "-", "--count", "--limit", "7", input=many["puzzle"])
    assert result.exit_code == 0
    assert "7 solutions (stopped at the limit of 7)" in result.stdout
    line = run("solve", "-", "--count", "--limit", "7", "--format", "line", input=many["puzzle"])
    assert line.stdout.split() == ["7"]


def test_all_prints_every_solution(counts_cases):
    case = next(c for c in counts_cases if c["count"] == "3")
    result = run("solve", "-", "--all", "--format", "line", input=case["puzzle"])
    assert result.exit_code == 0
    found = result.stdout.split()
    assert len(found) == len(set(found)) == 3
    puzzle = values_of(case["puzzle"])
    assert all(obeys_rules(values_of(s), puzzle, 3, 3) for s in found)
    blocks_out = blocks(run("solve", "-", "--all", input=case["puzzle"]).stdout)
    assert sorted(spaced_to_line(s) for _, s in blocks_out) == sorted(found)


def test_blank_4x4_has_288_solutions():
    result = run("solve", "-", "--count", "--format", "jsonl", input="." * 16 + "\n")
    [record] = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["count"] == 288  # the number of 4x4 Sudoku grids, a published figure


# -- formats, sizes, alphabets ------------------------------------------------------------


def test_format_line_on_a_benchmark_sample_obeys_the_rules():
    puzzles = require_shared(BENCH / "kaggle.txt").read_text().split()[:40]
    result = run("solve", "-", "--format", "line", input="\n".join(puzzles) + "\n")
    assert result.exit_code == 0
    solutions = result.stdout.splitlines()
    assert len(solutions) == 40
    for puzzle, solution in zip(puzzles, solutions):
        assert obeys_rules(values_of(solution), values_of(puzzle), 3, 3)


def test_other_sizes_and_alphabets():
    for case in load_multisize():
        if case["count"] != 1:
            continue
        alphabet = case["symbols"]
        args = ["solve", "-", "--format", "jsonl", "--box", f"{case['box_rows']}x{case['box_cols']}"]
        if alphabet != DIGITS[: case["size"]]:
            args += ["--symbols", alphabet]
        result = run(*args, input=case["puzzle"] + "\n")
        assert result.exit_code == 0, (case["name"], result.stderr)
        [record] = [json.loads(line) for line in result.stdout.splitlines()]
        assert record["solution"] == case["solution"], case["name"]


def test_other_formats_print_the_solution(counts_cases):
    case = next(c for c in counts_cases if c["count"] == "1")
    for fmt in ("spaced", "rows", "boxed"):
        result = run("solve", "-", "--format", fmt, input=case["puzzle"])
        assert result.exit_code == 0
        digits = "".join(ch for ch in result.stdout if ch in DIGITS)
        assert digits == case["solution"], fmt


def test_svg_draws_one_puzzle_and_refuses_two(counts_cases):
    case = next(c for c in counts_cases if c["count"] == "1")
    result = run("solve", "-", "--format", "svg", input=case["puzzle"])
    assert result.exit_code == 0 and result.stdout.lstrip().startswith("<svg")
    two = run("solve", "-", "--format", "svg", input=case["puzzle"] + "\n" + case["puzzle"] + "\n")
    assert two.exit_code == 2 and "single puzzle" in two.stderr


def test_logic_only_method_stuck_shows_candidates():
    result = run("solve", "--example", "diabolical", "--method", "clauses", "--format", "candidates")
    assert result.exit_code == 1
    assert "stuck" in result.stderr
    assert "+" in result.stdout and "|" in result.stdout  # a pencil-mark grid


def test_jobs_keep_the_input_order():
    puzzles = require_shared(BENCH / "kaggle.txt").read_text().split()[:30]
    text = "\n".join(puzzles) + "\n"
    one = run("solve", "-", "--format", "line", "--timeout", "60", input=text)
    two = run("solve", "-", "--format", "line", "--timeout", "60", "--jobs", "2", input=text)
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout and len(one.stdout.split()) == 30


# -- examples --------------------------------------------------------------------------------


def test_examples_lists_every_name_with_its_clues():
    from sudokit.examples import EXAMPLES

    result = run("examples")
    assert result.exit_code == 0
    for name, example in EXAMPLES.items():
        clues = sum(ch != "." for row in example.rows for ch in row)
        line = next(line for line in result.stdout.splitlines() if line.split()[0] == name)
        assert line.split()[1] == str(clues)


def test_examples_name_prints_it_and_pipes_into_solve():
    from sudokit.examples import EXAMPLES

    result = run("examples", "diabolical", "--format", "line")
    assert result.stdout.strip() == "".join(EXAMPLES["diabolical"].rows)
    solved = run("-", "--format", "line", input=result.stdout)
    puzzle = values_of(result.stdout.strip())
    assert obeys_rules(values_of(solved.stdout.strip()), puzzle, 3, 3)


def test_examples_unknown_name_lists_the_names():
    result = run("examples", "nosuch")
    assert result.exit_code == 2 and "diabolical" in result.stderr


# -- variants: --variant and --regions ---------------------------------------------------

#: 6x6 jigsaw regions (the 2x3 boxes with r2c1/r3c3 traded).
JIGSAW6 = "111222311222331444333444555666555666"


def _variant_puzzles(units: list[list[int]], n: int, seed: int, count: int) -> list[tuple[list[int], list[int]]]:
    """Unique puzzles under ``units``, cut from reference solutions by the reference alone."""
    import random

    import reference_variants as ref

    rng = random.Random(seed)
    out = []
    for _ in range(count):
        start = [0] * (n * n)
        start[rng.randrange(n * n)] = rng.randint(1, n)
        _, full = ref.count(n, units, start, limit=1)
        givens = list(full)
        for cell in rng.sample(range(n * n), n * n):
            trial = list(givens)
            trial[cell] = 0
            if ref.count(n, units, trial)[0] == 1:
                givens = trial
        out.append((givens, list(full)))
    return out


@pytest.mark.parametrize("args, kind", [(["--variant", "x"], "x"), (["--regions", JIGSAW6], "jigsaw"),
                                        (["--variant", "x", "--regions", JIGSAW6], "x,jigsaw")])
def test_variants_are_solved_under_their_units_and_their_records_say_so(tmp_path, args: list[str], kind: str) -> None:
    import reference_variants as ref

    units = ref.rows(6) + ref.columns(6)
    units += ref.regions_of(JIGSAW6) if "jigsaw" in kind else ref.boxes(2, 3)
    if "x" in kind.split(","):
        units += ref.diagonals(6)
    cases = _variant_puzzles(units, 6, len(kind), 5)
    path = tmp_path / "puzzles.txt"
    path.write_text("".join("".join(str(v or ".") for v in givens) + "\n" for givens, _ in cases))
    done = run("solve", "--box", "2x3", *args, "--format", "jsonl", str(path))
    assert done.exit_code == 0, done.output
    out = [json.loads(line) for line in done.output.splitlines() if line.startswith("{")]  # not a notice
    assert [r["solution"] for r in out] == ["".join(map(str, full)) for _, full in cases]
    assert {r["method"] for r in out} == {"fast"} and {r["variant"] for r in out} == {kind}
    assert all(r.get("regions") == (JIGSAW6 if "jigsaw" in kind else None) for r in out)
    # the records read back as the same puzzles under the same units, whatever the method
    again = tmp_path / "again.jsonl"
    again.write_text("".join(json.dumps(r) + "\n" for r in out))
    for method in ("fast", "dfs", "mip"):
        back = run("solve", "--format", "line", "--count", "--method", method, str(again))
        assert back.exit_code == 0 and back.output.split() == ["1"] * len(cases), back.output


def test_variant_options_are_checked_before_any_puzzle(monkeypatch) -> None:
    import dataclasses

    import reference_variants as ref
    from sudokit import methods

    puzzle = "." * 36 + "\n"
    missing = run("solve", "--box", "2x3", "--variant", "jigsaw", "-", input=puzzle)
    assert missing.exit_code == 2 and "--variant jigsaw needs its regions" in missing.output
    bird = run("solve", "--variant", "x", "--method", "wholemeal", "--format", "line", "-", input=puzzle)
    x_units = ref.rows(6) + ref.columns(6) + ref.boxes(2, 3) + ref.diagonals(6)
    assert bird.exit_code == 0 and ref.obeys(values_of(bird.output.strip()), 6, x_units), bird.output
    narrow = dataclasses.replace(methods.get("dfs"), name="rows-only", any_units=False)  # no method is, today
    monkeypatch.setitem(methods._REGISTRY, narrow.name, narrow)
    refused = run("solve", "--variant", "x", "--method", "rows-only", "-", input=puzzle)
    assert refused.exit_code == 2 and "method 'rows-only' takes rows, columns and boxes only" in refused.output
    unknown = run("solve", "--variant", "diagonalish", "-", input=puzzle)
    assert unknown.exit_code == 2 and "unknown variant 'diagonalish'" in unknown.output
    broken = run("solve", "--regions", "1221 1221 3344 3344", "-", input="." * 16 + "\n")
    assert broken.exit_code == 2 and "region '1' is not connected" in broken.output


def test_a_layout_that_does_not_fit_a_puzzle_fails_that_puzzle_only() -> None:
    done = run("solve", "--regions", JIGSAW6, "--format", "line", "-", input="." * 16 + "\n" + "." * 36 + "\n")
    assert done.exit_code == 1
    lines = done.output.splitlines()
    assert any("puzzle 1 (line 1): invalid:" in line for line in lines), done.output
