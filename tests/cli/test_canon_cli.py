"""``sudoku canon``: forms against the shared reference, jsonl transforms applied back, --dedupe
against a set of the forms, --jobs and bad input."""

from __future__ import annotations

import csv
import json
import random

import pytest

from conftest import BENCH, SHARED, require_shared

from cli_helpers import SUDOKU, run

import subprocess

from sudokit import Grid
from sudokit.canon import Transform


@pytest.fixture(scope="module")
def reference():
    with open(require_shared(SHARED / "canon" / "minlex_dev.tsv"), newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))[:120]


def test_line_and_patminlex_match_the_reference(reference, tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("".join(r["puzzle"] + "\n" for r in reference))
    result = run("canon", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [r["minlex"] for r in reference]
    result = run("canon", "--form", "patminlex", "-", input=path.read_text())
    assert result.stdout.splitlines() == [r["patminlex"] for r in reference]


def test_jsonl_transforms_map_there_and_back(reference, tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("".join(r["puzzle"] + "\n" for r in reference[:30]))
    result = run("canon", str(path), "--format", "jsonl")
    assert result.exit_code == 0
    for row, line in zip(reference, result.stdout.splitlines()):
        record = json.loads(line)
        puzzle = Grid(record["puzzle"])
        assert record["canonical"] == row["minlex"] and record["automorphisms"] == int(row["automorphisms"])
        assert Transform.parse(record["transform"]).apply(puzzle).line() == record["canonical"]
        assert Transform.parse(record["inverse"]).apply(Grid(record["canonical"])) == puzzle


def test_dedupe_keeps_each_class_once_in_input_order(tmp_path):
    rng = random.Random(1)
    lines = [line.strip() for line in open(require_shared(BENCH / "17_clue.txt"))][:40]
    mixed = []
    for line in lines:  # each puzzle, then a transformed copy of an earlier one
        mixed.append(line)
        earlier = Grid(rng.choice(mixed[: len(mixed)]))
        digits = list(range(1, 10))
        rng.shuffle(digits)
        mixed.append(Transform(True, (2, 1, 0, 3, 4, 5, 8, 7, 6), (0, 1, 2, 6, 7, 8, 3, 4, 5), digits)
                     .apply(earlier).line())
    path = tmp_path / "in.txt"
    path.write_text("\n".join(mixed) + "\n")
    forms = run("canon", str(path)).stdout.splitlines()
    expected, seen = [], set()
    for form in forms:
        if form not in seen:
            seen.add(form)
            expected.append(form)
    assert len(expected) == len(lines)  # the 17-clue puzzles are pairwise different
    for memory in ("1000", "3"):  # in memory, and spilled to disk
        result = run("canon", str(path), "--dedupe", "--memory", memory)
        assert result.exit_code == 0 and result.stdout.splitlines() == expected


def test_jobs_give_the_same_bytes(tmp_path):
    lines = [line.strip() for line in open(require_shared(BENCH / "17_clue.txt"))][:300]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    one = subprocess.run([*SUDOKU, "canon", str(path), "--format", "jsonl"], capture_output=True, text=True)
    two = subprocess.run([*SUDOKU, "canon", str(path), "--format", "jsonl", "--jobs", "2"], capture_output=True,
                         text=True)
    assert one.returncode == 0 and one.stdout == two.stdout and len(one.stdout.splitlines()) == 300


def test_bad_lines_are_reported_and_the_rest_goes_on(tmp_path):
    good = "." * 80 + "1"
    path = tmp_path / "in.txt"
    path.write_text(f"{good}\n1234\n11{'.' * 79}\n{good}\n")
    result = run("canon", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == ["." * 80 + "1", "", "", "." * 80 + "1"]
    assert "line 2" in result.stderr and "line 3" in result.stderr and "clash" in result.stderr


def test_other_shapes_and_variants():
    result = run("canon", "-", "--box", "2x3", input="1" + "." * 35 + "\n")
    assert result.exit_code == 0
    assert result.stdout.strip() == "." * 35 + "1"
    result = run("canon", "-", "--variant", "x", "--format", "jsonl", input="1" + "." * 80 + "\n")
    record = json.loads(result.stdout)
    # r1c1 can go to the 12 diagonal cells of bands 1 and 3 (r9c9 last of all): 96 / 12 fix it
    assert record["canonical"] == "." * 80 + "1"
    assert record["automorphisms"] == 96 // 12
    result = run("canon", "-", "--variant", "x", input="." * 40 + "1" + "." * 40 + "\n")
    assert result.stdout.strip() == "." * 40 + "1" + "." * 40  # the centre stays the centre
