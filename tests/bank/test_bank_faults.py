"""Bad input and faults: unreadable lines, a newer schema, migrations, a
read-only or full disk, a killed add, and two adds at once, with real files
and real processes."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import time

import pytest

from sudokit.bank import Bank, BankError, add, schema
from sudokit.bank.schema import ROW

from bank_helpers import SUDOKU, environment, rating_record, seventeen, shuffled, sudoku, table, write_jsonl


def _records(count: int, seed: int = 0) -> list[dict]:
    return [rating_record(p, round(1.0 + (i % 80) / 10, 1)) for i, p in enumerate(seventeen(count))]


def _integrity(path) -> str:
    return table(path, "PRAGMA integrity_check")[0][0]


def test_unreadable_lines_are_reported_with_their_numbers_and_the_rest_goes_in(tmp_path):
    good = seventeen(5)
    records = [rating_record(p, 2.0) for p in good]
    import json

    lines = [json.dumps(records[0]), "{not json", json.dumps(records[1]), "12345", "",
             "# a comment", json.dumps(records[2]), '{"puzzle": "' + "1" * 81 + '", "status": "invalid", '
             '"message": "clash"}', json.dumps(records[3]), good[4]]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    result = sudoku("bank", "add", "--bank", str(tmp_path / "b.sqlite"), str(tmp_path / "in.jsonl"))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    notes = [line for line in result.stderr.splitlines() if ": line " in line]
    assert [n.split(": line ")[1].split(":")[0] for n in notes] == ["2", "4", "8"]
    assert "bad JSON" in notes[0] and "invalid" in notes[2]
    # the four rated records and the plain puzzle (rated here) went in
    assert table(tmp_path / "b.sqlite", "SELECT count(*) FROM puzzle")[0][0] == 5


def test_a_bank_of_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "b.sqlite"
    Bank(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema.VERSION + 1}")
    conn.close()
    before = path.read_bytes()
    for args in (["add", str(path)], ["query"], ["stats"]):
        (tmp_path / "x.txt").write_text(seventeen(1)[0] + "\n")
        command = ["bank", args[0], "--bank", str(path)] + (["x.txt"] if args[0] == "add" else [])
        result = sudoku(*command, cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        assert "newer sudokit" in result.stderr and f"schema {schema.VERSION + 1}" in result.stderr
        assert result.stderr.count("\n") == 1  # one line, no traceback
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_bank_is_refused(tmp_path):
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t(x)")
    conn.commit()
    conn.close()
    with pytest.raises(BankError, match="not a sudokit bank"):
        Bank(path)
    (tmp_path / "text.sqlite").write_text("hello, not a database at all" * 100)
    with pytest.raises(BankError, match="not a SQLite database"):
        Bank(tmp_path / "text.sqlite")


def test_migrations_run_in_order_and_a_failed_one_leaves_the_bank_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "b.sqlite"
    write_jsonl(tmp_path / "r.jsonl", _records(20))
    with Bank(path) as bank:
        add(bank, [str(tmp_path / "r.jsonl")])

    def broken(conn):
        conn.execute("ALTER TABLE puzzle ADD COLUMN note TEXT")
        raise RuntimeError("half way")

    monkeypatch.setattr(schema, "VERSION", schema.VERSION + 1)
    monkeypatch.setitem(schema.MIGRATIONS, schema.VERSION - 1, broken)
    with pytest.raises(BankError):
        Bank(path)
    assert table(path, "PRAGMA user_version")[0][0] == schema.VERSION - 1
    assert "note" not in [r[1] for r in table(path, "PRAGMA table_info(puzzle)")]

    def works(conn):
        conn.execute("ALTER TABLE puzzle ADD COLUMN note TEXT")
        conn.execute("UPDATE puzzle SET note = 'kept'")

    monkeypatch.setitem(schema.MIGRATIONS, schema.VERSION - 1, works)
    Bank(path).close()
    assert table(path, "PRAGMA user_version")[0][0] == schema.VERSION
    assert table(path, "SELECT count(*), min(note) FROM puzzle")[0] == (20, "kept")


def _as_schema_1(path) -> None:
    """Turn a bank back into schema 1, which kept each class's count in the column ``puzzle.seen``."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("ALTER TABLE puzzle ADD COLUMN seen INTEGER NOT NULL DEFAULT 1")
        conn.execute("UPDATE puzzle SET seen = (SELECT n FROM seen WHERE seen.digest = puzzle.digest) "
                     "WHERE digest IN (SELECT digest FROM seen)")
        conn.execute("DROP TABLE seen")
        conn.execute("PRAGMA user_version = 1")
    finally:
        conn.close()


def test_a_schema_1_bank_is_brought_to_schema_2_with_its_counts(tmp_path):
    from sudokit.bank import Query, choose, summary
    from sudokit.bank.exchange import export

    rng = random.Random(12)
    puzzles = seventeen(40)
    copies = [rating_record(shuffled(p, rng), 2.0) for p in puzzles[:10]]
    write_jsonl(tmp_path / "a.jsonl", [rating_record(p, 2.0) for p in puzzles] + copies)
    path = tmp_path / "b.sqlite"
    with Bank(path) as bank:
        add(bank, [str(tmp_path / "a.jsonl")])
    _as_schema_1(path)
    assert table(path, "SELECT sum(seen) FROM puzzle")[0][0] == 50
    with pytest.raises(BankError, match="older schema 1"):
        Bank(path, readonly=True)
    # opened for writing: migrated, and the counts go on from where schema 1 left them
    write_jsonl(tmp_path / "b.jsonl", [rating_record(shuffled(p, rng), 2.0) for p in puzzles[:5]])
    with Bank(path) as bank:
        add(bank, [str(tmp_path / "b.jsonl")])
    assert table(path, "PRAGMA user_version")[0][0] == schema.VERSION == 2
    assert "seen" not in [r[1] for r in table(path, "PRAGMA table_info(puzzle)")]
    want = {p: 3 if i < 5 else 2 if i < 10 else 1 for i, p in enumerate(puzzles)}
    assert dict(table(path, f"SELECT puzzle, seen FROM ({ROW})")) == want
    assert table(path, "SELECT count(*) FROM seen")[0][0] == 10  # only the classes given more than once
    with Bank(path, readonly=True) as bank:
        assert summary(bank).given == 55
        chosen = choose(bank, Query(n=None, order="added"))
        assert {r["puzzle"]: r["seen"] for r in chosen} == want
        lines: list[str] = []
        export(bank, "-", "jsonl", write=lines.append)
    import json

    assert sorted(json.loads(x)["seen"] for x in "".join(lines).splitlines()) == sorted(want.values())


def test_a_full_database_gives_a_clear_error_and_the_bank_stays_whole(tmp_path):
    """SQLite's own page limit makes the database full as a full disk would."""
    path = tmp_path / "b.sqlite"
    write_jsonl(tmp_path / "a.jsonl", _records(50))
    records = _records(450)[50:]
    write_jsonl(tmp_path / "b.jsonl", records)
    with Bank(path) as bank:
        add(bank, [str(tmp_path / "a.jsonl")])
        pages = bank.conn.execute("PRAGMA page_count").fetchone()[0]
        bank.conn.execute(f"PRAGMA max_page_count = {pages + 8}")
        with pytest.raises(BankError, match="disk is full") as caught:
            add(bank, [str(tmp_path / "b.jsonl")], batch=400)
        assert "whole" in str(caught.value)
    assert _integrity(path) == "ok"
    assert table(path, "SELECT count(*) FROM puzzle")[0][0] == 50


def _can_mount() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True)
    return probe.returncode == 0


needs_mount = pytest.mark.skipif(not _can_mount(), reason="needs root and mount namespaces for a small tmpfs")


def _in_namespace(script: str, tmp_path, timeout: float = 300) -> subprocess.CompletedProcess:
    """``script`` run by sh in a private mount namespace (the tmpfs vanishes with it)."""
    env = dict(environment(), SUDOKU=" ".join(f"'{a}'" for a in SUDOKU))
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=timeout,
                          cwd=tmp_path, env=env)


def _refused_and_whole(result, bank, reason: str, puzzles: int) -> None:  # type: ignore[no-untyped-def]
    """The second add failed (exit 1) saying ``reason``, with no traceback, and the bank is
    whole, holding the ``puzzles`` of the first add."""
    assert "rc=1" in result.stdout, result.stdout + result.stderr
    assert reason in result.stderr and "Traceback" not in result.stderr
    assert _integrity(bank) == "ok"
    assert table(bank, "SELECT count(*) FROM puzzle")[0][0] == puzzles


@pytest.mark.slow
@needs_mount
def test_a_full_disk_gives_a_clear_message_and_the_bank_stays_whole(tmp_path):
    write_jsonl(tmp_path / "a.jsonl", _records(40))
    write_jsonl(tmp_path / "b.jsonl", _records(1300)[40:])
    (tmp_path / "disk").mkdir()
    script = (
        "mount -t tmpfs -o size=240k tmpfs disk && "
        "eval $SUDOKU bank add --bank disk/b.sqlite a.jsonl && "
        "eval $SUDOKU bank add --bank disk/b.sqlite --batch 1300 b.jsonl; echo rc=$?; "
        "cp disk/b.sqlite* . ; ls disk"
    )
    result = _in_namespace(script, tmp_path)
    _refused_and_whole(result, tmp_path / "b.sqlite", "disk is full", 40)


@needs_mount
def test_a_read_only_disk_gives_a_clear_message_and_the_bank_stays_whole(tmp_path):
    write_jsonl(tmp_path / "a.jsonl", _records(30))
    write_jsonl(tmp_path / "b.jsonl", _records(60)[30:])
    (tmp_path / "disk").mkdir()
    script = (
        "mount -t tmpfs -o size=4m tmpfs disk && "
        "eval $SUDOKU bank add --bank disk/b.sqlite a.jsonl && "
        "mount -o remount,ro disk && "
        "eval $SUDOKU bank add --bank disk/b.sqlite b.jsonl; echo rc=$?; "
        "eval $SUDOKU bank query --bank disk/b.sqlite --all | wc -l; "
        "cp disk/b.sqlite* ."
    )
    result = _in_namespace(script, tmp_path)
    assert result.stdout.split()[-1] == "30"  # it can still be read
    _refused_and_whole(result, tmp_path / "b.sqlite", "read-only", 30)


@pytest.mark.slow
def test_a_killed_add_loses_nothing_it_reported_and_resumes_without_duplicates(tmp_path):
    rng = random.Random(5)
    puzzles = seventeen(800)
    records = [rating_record(p, 3.0) for p in puzzles] + [rating_record(shuffled(p, rng), 3.0) for p in puzzles[:200]]
    write_jsonl(tmp_path / "in.jsonl", records)
    path = tmp_path / "b.sqlite"
    proc = subprocess.Popen([*SUDOKU, "bank", "add", "--bank", str(path), "--batch", "40", "-v",
                             str(tmp_path / "in.jsonl")], stderr=subprocess.PIPE, text=True)
    reported = []
    while len(reported) < 6:
        line = proc.stderr.readline()
        assert line, "the add ended before it could be killed"
        if "in up to line" in line:
            reported.append(line)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    last = reported[-1]
    said_line = int(last.split("in up to line ")[1].split(":")[0])
    said_new = int(last.split(": ")[-1].split(" new")[0])
    assert _integrity(path) == "ok"
    held = table(path, f"SELECT count(*), sum(seen) FROM ({ROW})")[0]
    assert held[0] >= said_new
    assert table(path, "SELECT lines FROM intake")[0][0] >= said_line
    # the same command again goes on from there
    result = sudoku("bank", "add", "--bank", str(path), str(tmp_path / "in.jsonl"))
    assert result.returncode == 0, result.stderr
    assert "resumed after line" in result.stderr
    count, seen = table(path, f"SELECT count(*), sum(seen) FROM ({ROW})")[0]
    assert (count, seen) == (800, 1000)


@pytest.mark.slow
def test_two_adds_at_once_lose_nothing(tmp_path):
    rng = random.Random(9)
    puzzles = seventeen(600)
    a = [rating_record(p, 2.0) for p in puzzles[:400]]
    b = [rating_record(shuffled(p, rng), 2.0) for p in puzzles[200:]]  # 200 shared with a, as copies
    write_jsonl(tmp_path / "a.jsonl", a)
    write_jsonl(tmp_path / "b.jsonl", b)
    path = tmp_path / "b.sqlite"
    Bank(path).close()
    procs = [subprocess.Popen([*SUDOKU, "bank", "add", "--bank", str(path), "--batch", "25", str(tmp_path / name)],
                              stderr=subprocess.PIPE, text=True) for name in ("a.jsonl", "b.jsonl")]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    count, seen = table(path, f"SELECT count(*), sum(seen) FROM ({ROW})")[0]
    assert (count, seen) == (600, 800)
    assert _integrity(path) == "ok"


_INDEXES = "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name"


def test_a_big_add_builds_the_indexes_it_dropped_and_holds_the_same_rows(tmp_path, monkeypatch):
    from sudokit.bank import intake

    rng = random.Random(11)
    puzzles = seventeen(300)
    records = _records(300) + [rating_record(shuffled(p, rng), 9.0) for p in puzzles[:60]]
    write_jsonl(tmp_path / "in.jsonl", records)
    banks = {}
    for name, limit in (("kept", 1 << 60), ("deferred", 0)):
        monkeypatch.setattr(intake, "DEFER_BYTES", limit)
        dropped = []
        monkeypatch.setattr(Bank, "drop_indexes", lambda self, real=Bank.drop_indexes: (dropped.append(1), real(self)))
        banks[name] = path = tmp_path / f"{name}.sqlite"
        with Bank(path) as bank:
            report = add(bank, [str(tmp_path / "in.jsonl")], batch=50)
        assert (report.new, report.repeats) == (300, 60)
        assert bool(dropped) == (name == "deferred")
    want = sorted(schema.INDEXES)
    assert [r[0] for r in table(banks["deferred"], _INDEXES)] == want == [r[0] for r in table(banks["kept"], _INDEXES)]
    columns = "digest, key, puzzle, solution, clues, er, families, hardest_family, seen, rnd"
    assert table(banks["deferred"], f"SELECT {columns} FROM ({ROW}) ORDER BY id") == \
        table(banks["kept"], f"SELECT {columns} FROM ({ROW}) ORDER BY id")
    # a bank already big beside the input keeps its indexes up to date row by row
    monkeypatch.setattr(intake, "DEFER_BYTES", 0)
    write_jsonl(tmp_path / "few.jsonl", records[:30])
    with Bank(banks["kept"]) as bank:
        assert not intake._big(bank, [str(tmp_path / "few.jsonl")], ())
        assert intake._big(bank, [str(tmp_path / "in.jsonl")] * 2, ())
    assert _integrity(banks["deferred"]) == "ok"


def test_indexes_an_add_was_stopped_without_are_built_when_the_bank_is_next_opened(tmp_path):
    path = tmp_path / "b.sqlite"
    with Bank(path) as bank:
        bank.drop_indexes()  # as a big add does before it is killed
    assert [r[0] for r in table(path, _INDEXES)] == ["used_puzzle"]
    Bank(path).close()
    assert [r[0] for r in table(path, _INDEXES)] == sorted(schema.INDEXES)


@pytest.mark.slow
def test_a_killed_big_add_resumes_and_builds_its_indexes(tmp_path):
    rng = random.Random(6)
    puzzles = seventeen(600)
    records = [rating_record(p, 3.0) for p in puzzles] + [rating_record(shuffled(p, rng), 3.0) for p in puzzles[:150]]
    write_jsonl(tmp_path / "in.jsonl", records)
    path = tmp_path / "b.sqlite"
    deferring = [SUDOKU[0], "-c", "import sys; from sudokit.bank import intake; intake.DEFER_BYTES = 0; "
                 "from sudokit.cli import main; sys.exit(main())"]
    proc = subprocess.Popen([*deferring, "bank", "add", "--bank", str(path), "--batch", "40", "-v",
                             str(tmp_path / "in.jsonl")], stderr=subprocess.PIPE, text=True, env=environment())
    reported = []
    while len(reported) < 4:
        line = proc.stderr.readline()
        assert line, "the add ended before it could be killed"
        if "in up to line" in line:
            reported.append(line)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    said_new = int(reported[-1].split(": ")[-1].split(" new")[0])
    assert _integrity(path) == "ok"
    assert table(path, "SELECT count(*) FROM puzzle")[0][0] >= said_new
    result = subprocess.run([*deferring, "bank", "add", "--bank", str(path), str(tmp_path / "in.jsonl")],
                            capture_output=True, text=True, timeout=300, env=environment())
    assert result.returncode == 0, result.stderr
    assert "resumed after line" in result.stderr
    assert table(path, f"SELECT count(*), sum(seen) FROM ({ROW})")[0] == (600, 750)
    assert [r[0] for r in table(path, _INDEXES)] == sorted(schema.INDEXES)
    assert _integrity(path) == "ok"
