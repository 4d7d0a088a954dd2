"""The Dask cluster path on a real LocalCluster of worker processes (no mocks).

Truth: the serial ``pipeline.run_lines`` over the whole file (byte for byte),
the line numbers where bad lines were injected, and Sudoku Explainer's ratings
in rated/se_dev.tsv.
"""

from __future__ import annotations

import json
import os
import signal

import pytest

from conftest import BENCH, rated_reference, require_shared
from reference import obeys_rules

distributed = pytest.importorskip("distributed")

from sudokit import distributed as dist  # noqa: E402
from sudokit import pipeline  # noqa: E402
from sudokit.errors import SudokuError  # noqa: E402

#: (kind, text) injected into the inputs, with what the notes must say about them.
BAD = {"short": "12345", "clash": "11" + "." * 79}


@pytest.fixture(scope="module")
def client():
    with dist.cluster("local:2") as c:
        yield c


def _mixed_file(path, puzzles, every=97):
    """Write ``puzzles`` one per line with bad lines, blanks and comments mixed in;
    return the lines and the 1-based line numbers of the bad ones."""
    lines, bad = [], {}
    for i, puzzle in enumerate(puzzles):
        if i % every == 3:
            lines.append("")
            lines.append("# a comment")
        if i % every == 5:
            kind = "short" if (i // every) % 2 == 0 else "clash"
            lines.append(BAD[kind])
            bad[len(lines)] = kind
        lines.append(puzzle)
    path.write_text("\n".join(lines) + "\n")
    return lines, bad


def _serial(job, lines, source=""):
    return pipeline.run_lines(job, lines, 1, source, first_puzzle=1)


def _run(client, job, paths, **kw):
    out, notes = [], []
    summary = dist.run(job, paths, client=client, write=out.append, notes=notes.append, **kw)
    return "".join(out), notes, summary


def _bench_lines(name, count):
    return [line for line in require_shared(BENCH / name).read_text().splitlines() if line.strip()][:count]


def test_local_cluster_solves_and_rates_like_the_serial_path(client, tmp_path):
    # counting, jsonl records (they carry line numbers), many small partitions
    lines, bad = _mixed_file(tmp_path / "mixed.txt", _bench_lines("17_clue.txt", 1500))
    job = pipeline.Job("count", limit=2, fmt="jsonl")
    text, notes, summary = _run(client, job, [f"file://{tmp_path / 'mixed.txt'}"], blocksize=8192)  # a URL
    serial = _serial(job, lines)
    assert summary.partitions > 10
    assert text == serial.text and notes == serial.notes
    assert (summary.puzzles, summary.failures) == (serial.puzzles, serial.failures) == (1500 + len(bad), len(bad))
    noted = {int(n.split("(line ")[1].split(")")[0]) for n in notes}
    assert noted == set(bad)  # the real line numbers, across partitions
    records = [json.loads(r) for r in text.splitlines()]
    assert all(lines[r["line"] - 1].strip() == r["puzzle"] for r in records if r["status"] == "solved")

    # rating, line format, two files: names in the notes, numbering per file
    reference = [r for r in rated_reference() if float(r["er"]) <= 2.0][:24]
    rated = {r["puzzle"]: r for r in reference}
    (tmp_path / "rate").mkdir()
    a, b = tmp_path / "rate" / "a.txt", tmp_path / "rate" / "b.txt"
    first, bad_first = _mixed_file(a, [r["puzzle"] for r in reference[:12]], every=7)
    second, bad_second = _mixed_file(b, [r["puzzle"] for r in reference[12:]], every=7)
    job = pipeline.Job("rate")
    text, notes, summary = _run(client, job, [str(tmp_path / "rate" / "*.txt")], blocksize=600)
    serial_a, serial_b = _serial(job, first, str(a)), _serial(job, second, str(b))
    assert summary.partitions > 2
    assert text == serial_a.text + serial_b.text
    assert notes == serial_a.notes + serial_b.notes
    assert [n.split(": ")[0] for n in notes] == [str(a)] * len(bad_first) + [str(b)] * len(bad_second)
    for row in filter(None, text.splitlines()):  # a failed puzzle leaves an empty line
        puzzle, rating = row.split()[:2]
        assert rating.split("/")[0] == rated[puzzle]["er"]  # Sudoku Explainer's ER


def test_output_directory_manifest_merge_and_resume(client, tmp_path):
    lines, bad = _mixed_file(tmp_path / "in.txt", _bench_lines("kaggle.txt", 800))
    job = pipeline.Job("solve", fmt="line")
    out = tmp_path / "out"
    summary = dist.run(job, [str(tmp_path / "in.txt")], client=client, out_dir=str(out), blocksize=5000)
    serial = _serial(job, lines)
    assert (summary.puzzles, summary.failures) == (serial.puzzles, serial.failures)
    manifest = json.loads((out / "manifest.json").read_text())
    parts = manifest["partitions"]
    assert [p["status"] for p in parts] == ["done"] * summary.partitions
    assert [(p["start"], p["end"]) for p in parts] == [
        (s, min(s + 5000, (tmp_path / "in.txt").stat().st_size)) for s in range(0, (tmp_path / "in.txt").stat().st_size, 5000)]
    assert sum(p["lines"] for p in parts) == len(lines)
    dist.merge(str(out), str(tmp_path / "all.txt"))
    assert (tmp_path / "all.txt").read_text() == serial.text
    assert not list(out.glob("*.tmp-*"))

    # the same command again: nothing recomputed, the same notes and counts
    before = {p.name: p.stat().st_mtime_ns for p in out.glob("part-*")}
    notes: list[str] = []
    again = dist.run(job, [str(tmp_path / "in.txt")], client=client, out_dir=str(out), blocksize=5000,
                     notes=notes.append)
    assert (again.partitions, again.skipped) == (0, summary.partitions)
    assert (again.puzzles, again.failures) == (summary.puzzles, summary.failures)
    assert notes == serial.notes
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("part-*")} == before

    # another job, or a changed input, refuses to resume
    with pytest.raises(SudokuError, match="another job"):
        dist.run(pipeline.Job("count", limit=2), [str(tmp_path / "in.txt")], client=client, out_dir=str(out),
                 blocksize=5000)
    with open(tmp_path / "in.txt", "a") as f:
        f.write(lines[-1] + "\n")
    with pytest.raises(SudokuError, match="changed since"):
        dist.run(job, [str(tmp_path / "in.txt")], client=client, out_dir=str(out), blocksize=5000)


def test_clear_refusals(tmp_path):
    block = tmp_path / "block.txt"
    block.write_text("53..7....\n6..195...\n.98....6.\n")
    with pytest.raises(SudokuError, match="one puzzle per line"):
        dist.run(pipeline.Job("solve"), [str(block)], client=None)
    table = tmp_path / "table.tsv"  # the serial path reads this one as a table, not line by line
    table.write_text("id\tpuzzle\nrl-1\t" + "." * 81 + "\n")
    with pytest.raises(SudokuError, match="line 2 .* one puzzle per line"):
        dist.run(pipeline.Job("solve"), [str(table)], client=None)
    with pytest.raises(SudokuError, match="not standard input"):
        dist.run(pipeline.Job("solve"), ["-"], client=None)
    with pytest.raises(SudokuError, match="no such file|no file matches"):
        dist.run(pipeline.Job("solve"), [str(tmp_path / "missing.txt")], client=None)
    with pytest.raises(SudokuError, match="cannot reach the dask scheduler"):
        dist.client_for("tcp://127.0.0.1:9", timeout=1)


def test_a_worker_killed_mid_batch_still_gives_the_whole_output(client, tmp_path):
    """The fast case of the fault test below: quick ratings in small partitions, one worker
    killed while it holds a partition; the output is the serial run's, byte for byte."""
    quick = [r["puzzle"] for r in rated_reference() if float(r["er"]) <= 4.5][:160]
    lines, _ = _mixed_file(tmp_path / "in.txt", quick, every=37)  # about 55 partitions
    job = pipeline.Job("rate", fmt="jsonl")
    killed: list[int] = []

    def kill_one(done, total, puzzles):
        if not killed:
            busy = [address for address, keys in client.processing().items() if keys]
            if busy:
                pid = client.run(os.getpid)[busy[0]]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

    text, notes, summary = _run(client, job, [str(tmp_path / "in.txt")], blocksize=300, progress=kill_one)
    assert killed, "no worker was busy to kill"
    serial = _serial(job, lines)
    assert text == serial.text and notes == serial.notes
    assert (summary.puzzles, summary.failures) == (serial.puzzles, serial.failures)
    client.wait_for_workers(2, timeout=120)  # the nanny's new process, for the tests after this one


# -- faults and resuming (slow) -------------------------------------------------------------------


def _hard_file(path, count):
    reference = sorted(rated_reference(), key=lambda r: float(r["er"]))
    step = max(1, len(reference) // count)
    lines, _ = _mixed_file(path, [r["puzzle"] for r in reference[::step][:count]], every=13)
    return lines


class _Stop(Exception):
    pass


@pytest.mark.slow
@pytest.mark.parametrize("to_directory", [False, True])
def test_a_worker_killed_mid_run_loses_and_repeats_nothing(client, tmp_path, to_directory):
    lines = _hard_file(tmp_path / "in.txt", 60)
    job = pipeline.Job("rate", fmt="jsonl")
    killed: list[int] = []

    def kill_one(done, total, puzzles):
        if not killed:  # kill a worker that is busy with a partition now
            busy = [address for address, keys in client.processing().items() if keys]
            if busy:  # else try again after the next partition
                pid = client.run(os.getpid)[busy[0]]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

    out = tmp_path / "out"
    text, notes, summary = _run(client, job, [str(tmp_path / "in.txt")], blocksize=600, progress=kill_one,
                                out_dir=str(out) if to_directory else None)
    assert killed and killed[0] not in client.run(os.getpid).values()  # a new process took its place
    if to_directory:
        dist.merge(str(out), str(tmp_path / "all.txt"))
        text = (tmp_path / "all.txt").read_text()
    serial = _serial(job, lines)
    assert text == serial.text and notes == serial.notes
    assert sorted(json.loads(r)["line"] for r in text.splitlines()) == [json.loads(r)["line"] for r in text.splitlines()]


@pytest.mark.slow
def test_a_second_run_resumes(client, tmp_path):
    lines = _hard_file(tmp_path / "in.txt", 40)
    job = pipeline.Job("rate")
    out = tmp_path / "out"

    def stop_after_three(done, total, puzzles):
        if done == 3:
            raise _Stop

    with pytest.raises(_Stop):
        dist.run(job, [str(tmp_path / "in.txt")], client=client, out_dir=str(out), blocksize=400,
                 progress=stop_after_three)
    manifest = json.loads((out / "manifest.json").read_text())
    finished = [p["index"] for p in manifest["partitions"] if p["status"] == "done"]
    assert len(finished) >= 3 and len(finished) < len(manifest["partitions"])
    stamps = {i: (out / dist.part_file(i)).stat().st_mtime_ns for i in finished}

    summary = dist.run(job, [str(tmp_path / "in.txt")], client=client, out_dir=str(out), blocksize=400)
    assert summary.skipped == len(finished)
    assert summary.partitions == len(manifest["partitions"]) - len(finished)
    assert {i: (out / dist.part_file(i)).stat().st_mtime_ns for i in finished} == stamps
    dist.merge(str(out), str(tmp_path / "all.txt"))
    assert (tmp_path / "all.txt").read_text() == _serial(job, lines).text


def test_solve_and_rate_commands_on_a_running_scheduler(client, tmp_path):
    from click.testing import CliRunner

    from sudokit.cli.explain import rate
    from sudokit.cli.solve import solve

    lines, bad = _mixed_file(tmp_path / "in.txt", _bench_lines("17_clue.txt", 300))
    serial = _serial(pipeline.Job("count", limit=2), lines)
    address = client.scheduler.address  # a running scheduler, reached by its address
    count = ["--count", "--limit", "2", "--format", "line", str(tmp_path / "in.txt"), "--cluster", address]
    run = CliRunner().invoke(solve, [*count, "--blocksize", "2k"])
    assert run.exit_code == 1  # some puzzles failed
    assert run.stdout == serial.text
    assert run.stderr.splitlines() == serial.notes + [f"{len(bad)} of {serial.puzzles} puzzles failed"]

    out = tmp_path / "out"
    run = CliRunner().invoke(solve, [*count, "-o", str(out), "--merge", str(tmp_path / "all.txt")])
    assert run.exit_code == 1 and run.stdout == ""
    assert (tmp_path / "all.txt").read_text() == serial.text

    easy = [r["puzzle"] for r in rated_reference() if float(r["er"]) <= 1.5][:6]
    (tmp_path / "rate.txt").write_text("".join(p + "\n" for p in easy))
    run = CliRunner().invoke(rate, [str(tmp_path / "rate.txt"), "--cluster", address])
    assert run.exit_code == 0
    assert run.stdout == CliRunner().invoke(rate, [str(tmp_path / "rate.txt")]).stdout

    run = CliRunner().invoke(solve, [str(tmp_path / "in.txt"), "-o", str(out)])
    assert run.exit_code == 2 and "--cluster" in run.stderr
    run = CliRunner().invoke(rate, ["--example", "easy", "--cluster", address])
    assert run.exit_code == 2 and "--example" in run.stderr


def test_an_input_without_puzzles_among_others_is_said_as_on_one_machine(client, tmp_path):
    from click.testing import CliRunner

    from sudokit.cli.solve import solve

    puzzles = _bench_lines("17_clue.txt", 5)
    (tmp_path / "in.txt").write_text("".join(p + "\n" for p in puzzles))
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "notes.txt").write_text("# only a comment\n\n")
    files = [str(tmp_path / n) for n in ("in.txt", "empty.txt", "notes.txt")]
    args = [*files, "--format", "line"]
    here = CliRunner().invoke(solve, args)
    there = CliRunner().invoke(solve, [*args, "--cluster", client.scheduler.address])
    said = [f"no puzzle found in {files[1]!r}", f"no puzzle found in {files[2]!r}"]
    for run in (here, there):
        assert run.exit_code == 1, run.stderr
        assert run.stderr.splitlines() == said  # no "puzzles failed": the five puzzles were solved
        solved = run.stdout.split()
        assert len(solved) == 5
        for puzzle, line in zip(puzzles, solved):
            digits = [int(c) if c.isdigit() else 0 for c in puzzle]
            assert obeys_rules([int(c) for c in line], digits, 3, 3)
    assert there.stdout == here.stdout


# -- generating over seed ranges --------------------------------------------------------------------

def test_generation_by_seed_ranges(client, tmp_path):
    """Seed ranges on the workers give what the serial generator gives, with and without a filter."""
    from sudokit.generation import generate_many

    job = pipeline.GenerateJob(minimal="logic")
    serial = pipeline.run_seeds(job, 100, 30).text
    assert serial == "".join(p.puzzle.line() + "\n" for p in generate_many(30, minimal="logic", seed=100))
    out: list[str] = []
    summary = dist.generate(job, 30, 100, client=client, chunk=4, write=out.append)
    assert "".join(out) == serial
    assert (summary.puzzles, summary.partitions) == (30, 8)

    # the first n matches in seed order, whatever the partitions
    medium = pipeline.GenerateJob(minimal="logic", difficulty="medium")
    out = []
    dist.generate(medium, 4, 100, client=client, filtered=True, chunk=3, write=out.append)
    expected = "".join(p.puzzle.line() + "\n" for p in generate_many(4, minimal="logic", seed=100,
                                                                      difficulty="medium"))
    assert "".join(out) == expected

    # into a directory, resumable
    done = dist.generate(job, 30, 100, client=client, chunk=4, out_dir=str(tmp_path / "g"))
    again = dist.generate(job, 30, 100, client=client, chunk=4, out_dir=str(tmp_path / "g"))
    assert (done.partitions, again.skipped, again.puzzles) == (8, 8, 30)
    dist.merge(str(tmp_path / "g"), str(tmp_path / "g.txt"))
    assert (tmp_path / "g.txt").read_text() == serial


@pytest.mark.slow
def test_line_numbers_in_a_million_line_file(client, tmp_path):
    puzzles = _bench_lines("17_clue.txt", 50_000)
    path = tmp_path / "million.txt"
    bad = {}
    with open(path, "w") as f:
        for number in range(1, 1_000_001):
            if number % 99_991 == 0:
                f.write(BAD["short"] + "\n")
                bad[number] = "short"
            else:
                f.write(puzzles[number % len(puzzles)] + "\n")
    job = pipeline.Job("count", limit=2)
    text, notes, summary = _run(client, job, [str(path)], blocksize=4 << 20)
    assert summary.partitions > 10 and summary.puzzles == 1_000_000
    assert [int(n.split("(line ")[1].split(")")[0]) for n in notes] == sorted(bad)
    assert [int(n.split("puzzle ")[1].split(" ")[0]) for n in notes] == sorted(bad)  # no blank lines here
    assert text == _serial(job, path.read_text().splitlines()).text
