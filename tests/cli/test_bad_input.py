"""Bad input to ``sudoku solve``: every case gets a clear message that names
where and what, the right exit status, and never a Python traceback."""

from __future__ import annotations

import random
import subprocess
import time

import pytest

from conftest import load_counts
from reference import obeys_rules

from cli_helpers import GOOD, clashes, records, run

ROWS = [GOOD[i:i + 9] for i in range(0, 81, 9)]


# -- unreadable puzzles: status 1, the batch goes on -------------------------------------


def test_empty_input():
    for text in ("", "\n\n  \n", "# only a comment\n"):
        result = run("solve", "-", input=text)
        assert result.exit_code == 1
        assert "no puzzle found" in result.stderr


def test_wrong_length_line_names_line_and_lengths():
    result = run("solve", "-", "--format", "jsonl", input=GOOD + "\n" + GOOD[:80] + "\n" + GOOD + "\n")
    assert result.exit_code == 1
    assert [r["status"] for r in records(result)] == ["solved", "parse_error", "solved"]
    assert "puzzle 2 (line 2): parse_error" in result.stderr
    assert "81" in result.stderr and "80" in result.stderr


def test_rows_with_a_short_row():
    rows = list(ROWS)
    rows[4] = rows[4][:8]
    result = run("solve", "-", input="\n".join(rows) + "\n")
    assert result.exit_code == 1
    assert "parse_error" in result.stderr and "line 5" in result.stderr and "row 5" in result.stderr


def test_too_few_rows():
    result = run("solve", "-", input="\n".join(ROWS[:8]) + "\n")
    assert result.exit_code == 1
    assert "parse_error" in result.stderr and "8 rows" in result.stderr


def test_ten_rows():
    result = run("solve", "-", input="\n".join(ROWS + [ROWS[0]]) + "\n")
    assert result.exit_code == 1
    assert "parse_error" in result.stderr and "10 rows" in result.stderr


def test_bad_character_names_the_column():
    bad = GOOD[:40] + "x" + GOOD[41:]
    result = run("solve", "-", "--format", "jsonl", input=bad + "\n")
    assert result.exit_code == 1
    [record] = records(result)
    assert record["status"] == "parse_error" and "column 41" in record["message"]
    assert "'x'" in result.stderr and "column 41" in result.stderr


@pytest.mark.parametrize("extra", [[], ["--timeout", "30"]], ids=["bulk", "generic"])
def test_mixed_sizes_in_one_stream_each_stands_alone(extra):
    four = "1..." "..2." ".3.." "...4"  # a 4x4 puzzle
    result = run("solve", "-", "--format", "jsonl", *extra,
                 input=f"{GOOD}\n{four}\n{GOOD[:64]}x\n{GOOD}\n")
    got = records(result)
    assert [r["status"] for r in got] == ["solved", "solved", "parse_error", "solved"]
    four_values = [int(ch) if ch.isdigit() else 0 for ch in four]
    assert obeys_rules([int(ch) for ch in got[1]["solution"]], four_values, 2, 2)
    assert result.exit_code == 1


def test_binary_garbage():
    rng = random.Random(7)
    garbage = bytes(rng.randrange(256) for _ in range(4000))
    result = run("solve", "-", "--format", "jsonl", input=garbage)
    assert result.exit_code == 1
    assert all(r["status"] == "parse_error" for r in records(result))
    assert "parse_error" in result.stderr


def test_huge_single_line_returns_quickly(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("1" * 10_000_000 + "\n")
    start = time.perf_counter()
    result = run("solve", str(path), "--format", "jsonl")
    elapsed = time.perf_counter() - start
    assert result.exit_code == 1
    assert elapsed < 10
    assert "too long" in result.stderr
    assert len(result.stderr) < 2000 and len(result.stdout) < 2000  # the line is not echoed whole


# -- puzzles that read but fail -------------------------------------------------------------


def test_duplicate_givens_name_the_clashing_cells():
    clash = GOOD[:37] + "22" + GOOD[39:]  # a 2 at r5c2 and at r5c3
    for extra in ([], ["--timeout", "30"]):
        result = run("solve", "-", "--format", "jsonl", *extra, input=clash + "\n")
        assert result.exit_code == 1
        [record] = records(result)
        assert record["status"] == "invalid"
        assert "r5c2" in record["message"] and "r5c3" in record["message"]
        assert "invalid" in result.stderr and "r5c2" in result.stderr


def test_unsolvable_puzzle():
    case = next(c for c in load_counts() if c["count"] == "0" and not clashes(c["puzzle"]))
    result = run("solve", "-", input=case["puzzle"] + "\n")
    assert result.exit_code == 1
    assert "no_solution" in result.stderr and "puzzle 1 (line 1)" in result.stderr
    assert "no_solution" in result.stdout  # the block says so in place of a solution


def test_node_limit_gives_timeout_status():
    result = run("solve", "--example", "minimal", "--method", "dfs", "--nodes", "3")
    assert result.exit_code == 1
    assert "timeout" in result.stderr


# -- usage errors: status 2 -------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["--box", "3y3"], ["--box", "3y3"]),
    (["--box", "0x3"], ["--box"]),
    (["--box", "9x9"], ["--box", "9x9"]),
    (["--symbols", "9-1"], ["--symbols"]),
    (["--symbols", "AAB"], ["--symbols"]),
    (["--method", "nosuch"], ["nosuch", "dfs", "wholemeal"]),
    (["--timeout", "0"], ["--timeout"]),
    (["--timeout", "-1"], ["--timeout"]),
    (["--timeout", "soon"], ["--timeout"]),
    (["--nodes", "0"], ["--nodes"]),
    (["--limit", "5"], ["--limit", "--count"]),
    (["--count", "--method", "clauses"], ["clauses", "logic only"]),
    (["--count", "--format", "boxed"], ["--count"]),
    (["--format", "pdf"], ["--format", "pdf"]),
    (["--example", "nosuch"], ["nosuch", "diabolical"]),
])
def test_bad_options(args, words):
    result = run("solve", "-", *args, input=GOOD + "\n")
    assert result.exit_code == 2, result.output
    assert "Error" in result.stderr
    for word in words:
        assert word in result.stderr, (word, result.stderr)


def test_nonexistent_path_and_directory(tmp_path):
    missing = run("solve", str(tmp_path / "nope.txt"))
    assert missing.exit_code == 2 and "nope.txt" in missing.stderr and "does not exist" in missing.stderr
    bare = run(str(tmp_path / "nope.txt"))  # `sudoku PATH` form
    assert bare.exit_code == 2 and "nope.txt" in bare.stderr
    folder = run("solve", str(tmp_path))
    assert folder.exit_code == 2 and "directory" in folder.stderr


def test_script_errors_have_no_traceback(tmp_path):
    for args in (["solve", str(tmp_path / "nope.txt")], ["--method", "nosuch", "-"], ["--box", "3y3"]):
        proc = subprocess.run(["sudoku", *args], input=GOOD, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr and "Error" in proc.stderr
    proc = subprocess.run(["sudoku", "-"], input="\x00\x01garbage\xff\n", capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "parse_error" in proc.stderr
