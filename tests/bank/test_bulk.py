"""The bulk way of ``bank add`` (rated 9x9 records, :mod:`sudokit.bank.bulk`)
against the general way: the same input gives the same bank, row for row,
and the same notes, bad lines included, with their line numbers."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import subprocess
import sys

import pytest

from sudokit import Grid
from sudokit.bank import Bank, add, intake, scan
from sudokit.bank.rows import Incoming, insert
from sudokit.bank.schema import ROW

from bank_helpers import rating_record, se_rows, seventeen, shuffled, table

#: The ways a file of rated records goes in: the compiled reader, line by line in bulk, the general way.
WAYS = ("scan", "take", "general")
TECHNIQUES = [["Hidden Single"], ["Hidden Single", "Pointing"], ["Naked Pair", "X-Wing", "Hidden Single"],
              ["Hidden Single", "Swordfish"], []]


def _record(puzzle: str, i: int, **more) -> dict:
    techniques = TECHNIQUES[i % len(TECHNIQUES)]
    return rating_record(puzzle, round(1.2 + (i % 70) / 10, 1), hardest=(techniques or ["Hidden Single"])[-1],
                         techniques=techniques, **more)


def _clash(solution: str) -> str:
    """The solution with its first two cells swapped: still whole, but a row... no: a column and box clash."""
    return solution[9] + solution[1:9] + solution[0] + solution[10:]


def _first_input(rng: random.Random) -> list[str]:
    """Lines of every kind, in one file: rated records (some with their solution, some
    with 0 for a blank, copies of earlier ones), and lines the bulk way must give back."""
    se = se_rows()[:60]
    lines: list[str] = []
    puzzles = seventeen(80)
    for i, p in enumerate(puzzles):
        lines.append(json.dumps(_record(p.replace(".", "0") if i % 7 == 0 else p, i)))
        if i % 5 == 0:
            lines.append(json.dumps(_record(shuffled(p, rng), i + 1)))  # a copy, rated otherwise: the first kept
    for i, row in enumerate(se):
        puzzle, solution = row["puzzle"], row["solution"]
        if i % 3 == 0:
            lines.append(json.dumps(_record(puzzle, i, solution=solution)))
        elif i % 3 == 1:
            lines.append(json.dumps(_record(shuffled(puzzle, rng), i)))
        else:
            lines.append(json.dumps(_record(" " + puzzle, i)))  # read by the general way, and kept
    good = se[0]
    unsolvable = "11" + "." * 79
    # each bad line says (in "expect", which the bank ignores) what its note must say
    lines += [
        "{not json",
        "[1, 2]",
        '{"er": 2.0, "status": "rated"}',
        json.dumps(_record(good["puzzle"], 1, solution=_clash(good["solution"]), expect="does not complete")),
        json.dumps(_record(good["puzzle"], 2, solution=se[1]["solution"], expect="does not complete")),
        json.dumps(_record(good["puzzle"], 3, solution=good["solution"][:80] + "0", expect="does not complete")),
        json.dumps(_record(good["puzzle"], 4, solution=good["solution"][:40], expect="81 symbols expected")),
        json.dumps(_record(good["puzzle"][:80] + "*", 5, expect="unexpected character")),
        json.dumps(_record(unsolvable, 6, expect="no solution")),
        # an equivalent copy, also without a solution
        json.dumps(_record("." * 40 + "11" + "." * 39, 7, expect="no solution")),
        json.dumps({"puzzle": good["puzzle"], "status": "invalid", "message": "clash", "expect": "invalid: clash"}),
        json.dumps(_record(puzzles[3], 9, solution=None)),
        json.dumps(_record(puzzles[4], 10, solution=12)),
        "",
        "# a comment",
    ]
    lines += _tricky_lines(seventeen(170)[120:])
    rng.shuffle(lines)
    good_first = next(i for i, line in enumerate(lines) if line.startswith('{"puzzle"') and "expect" not in line)
    lines.insert(0, lines.pop(good_first))  # a file the compiled reader takes
    return lines


def _tricky_lines(puzzles: list[str]) -> list[str]:
    """Records in JSON's less common spellings: each reads as the general way reads it."""
    p = iter(puzzles)

    def rec(**more) -> dict:
        record = _record(next(p), 3)
        record.update(more)
        return record

    def dumped(**more) -> str:
        return json.dumps(rec(**more))

    out = [
        dumped(hardest="X-Wing", techniques=["X-Wing"]).replace('"X-Wing"', '"X\\u002dWing"'),
        dumped(er=6.2).replace('"er": 6.2', '"er": 6.2e0'),
        dumped(er=5.8999999999999995, ep=5.8999999999999995),
        dumped(er=6.2).replace('"er": 6.2', '"er": 1.5, "er": 6.2'),
        dumped(meta={"a": [1, {"b": 2}]}),
        dumped(xs=[1, 2.5e3, "a", True, None, []]),
        dumped(xs=[1, 2.5e3, "a", True, None]),
        "  " + json.dumps(rec(), separators=(" , ", " : ")).replace("{", "{ ", 1) + " \t ",
        dumped(expect="bad JSON").replace(", ", ",\f", 1),
        dumped(status=None),
        dumped(er=None),
        dumped(er="6.2"),
        dumped(er=True),
        dumped(lower_bound=1),
        dumped(lower_bound=None, level=None, score=None, steps=None, ep=None),
        dumped(techniques="X-Wing"),
        dumped(techniques=[], hardest="Swordfish"),
        dumped(techniques=[1, "X-Wing"]),
        dumped(solution=""),
        dumped(solution=None),
        dumped(solution=[1]),
        dumped(score=900.5),
        dumped(score=-12, steps=0),
        dumped(er=6),
        dumped(ep=-0.0),
        dumped(note="h\u00e9llo", hardest="W\u00edng"),
        json.dumps(rec(note="héllo"), ensure_ascii=False),
        json.dumps(rec(hardest="Wíng"), ensure_ascii=False),
        dumped(expect="bad JSON") + " x",
        dumped().replace('"er"', '"\\u0065r"'),
        dumped(variant=None),
        dumped(cages=[]),
        dumped() + "\r",
        dumped(er=7.25, ep=1.0000000000001, ed=123456789012345.0),
        dumped(er=0.1, ep=1e-7),
        dumped(er=12345678901234567, ed=1.2345678901234567e300),
        dumped(er=7.1).replace('"er": 7.1', '"er": 71E-1'),
        dumped(er=7.1, expect="bad JSON").replace('"er": 7.1', '"er": 7.1e'),
        dumped(status="rated", line=None, steps=12, ed_lower_bound=True),
    ]
    return out


def _second_input(rng: random.Random) -> list[str]:
    """Repeats of the first input (exact and equivalent copies), new puzzles, and a
    rated copy of a puzzle the bank holds unrated."""
    puzzles = seventeen(120)
    lines = [json.dumps(_record(shuffled(p, rng), i)) for i, p in enumerate(puzzles[40:])]
    lines += [json.dumps(_record(p, i)) for i, p in enumerate(puzzles[:20])]
    lines.append(json.dumps(_record(shuffled(se_rows()[70]["puzzle"], rng), 3)))
    rng.shuffle(lines)
    return lines


def _content(path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(f"{ROW} ORDER BY id").fetchall()
        rows += conn.execute("SELECT * FROM family ORDER BY bit").fetchall()
        rows += conn.execute("SELECT * FROM seen ORDER BY digest").fetchall()
        rows += conn.execute("SELECT input, lines, puzzles FROM intake ORDER BY input").fetchall()
        return rows
    finally:
        conn.close()


def _add(path, files, way: str, monkeypatch, batch: int) -> tuple[list[str], tuple]:
    monkeypatch.setattr(intake, "BULK", way != "general")
    monkeypatch.setattr(intake, "SCAN", way == "scan")
    calls: list[int] = []
    compiled = scan.scan
    monkeypatch.setattr(scan, "scan", lambda *args: (calls.append(1), compiled(*args))[1])
    notes: list[str] = []
    with Bank(path) as bank:
        report = add(bank, [str(f) for f in files], notes=notes.append, batch=batch)
    assert bool(calls) == (way == "scan")  # the compiled reader read the files, or not
    return notes, (report.puzzles, report.new, report.repeats, report.failed)


@pytest.mark.parametrize("batch", [8192, 37])
def test_the_bulk_way_writes_the_same_bank_as_the_general_way(tmp_path, monkeypatch, batch):
    rng = random.Random(26)
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text("\n".join(_first_input(rng)) + "\n")
    second.write_text("\n".join(_second_input(rng)) + "\n")
    unrated = Grid(se_rows()[70]["puzzle"])
    got = {}
    for way in WAYS:
        path = tmp_path / f"bank-{way}.sqlite"
        with Bank(path) as bank:  # a class the bank holds without a rating
            insert(bank, [Incoming(None, unrated, source="before")], date="2026-01-01")
        notes1, report1 = _add(path, [first], way, monkeypatch, batch)
        notes2, report2 = _add(path, [second], way, monkeypatch, batch)
        got[way] = (sorted(notes1), report1, sorted(notes2), report2, _content(path))
    # the same notes (in the order of the blocks, which may end at other lines), the same rows
    assert got["scan"] == got["general"]
    assert got["take"] == got["general"]
    notes1, report1, notes2, report2, content = got["scan"]
    # the bad lines, each reported with its own line number and reason
    wanted = {}
    for number, line in enumerate(first.read_text().split("\n")[:-1], 1):
        if line.startswith("{not"):
            wanted[number] = "bad JSON"
        elif line.startswith("["):
            wanted[number] = "too short"
        elif line.startswith('{"er"'):
            wanted[number] = 'needs a "puzzle"'
        elif '"expect"' in line:
            wanted[number] = re.search(r'"expect": "([^"]*)"', line).group(1)
    reported = {int(n.split(": line ")[1].split(":")[0]): n for n in notes1}
    assert sorted(reported) == sorted(wanted)
    assert {k: wanted[k] for k in wanted if wanted[k] not in reported[k]} == {}, reported
    assert report1[3] == len(wanted) and not notes2
    # every row's solution solves its puzzle; the class held unrated got its rating
    for row in content:
        if len(row) > 20:
            assert Grid(row[5]).is_solution_of(Grid(row[3]))
    assert all(row[14] is not None for row in content if len(row) > 20)


def test_a_bulk_block_checks_solutions_and_gives_back_what_it_cannot_take():
    from sudokit.bank.bulk import Rated

    se = se_rows()[:3]
    block = Rated()
    good = json.dumps(_record(se[0]["puzzle"], 1, solution=se[0]["solution"]))
    bad = json.dumps(_record(se[1]["puzzle"], 1, solution=_clash(se[1]["solution"])))
    assert block.take(1, good) and block.take(2, bad)
    assert not block.take(3, '{"puzzle": "' + "." * 81 + '", "er": 2, "regions": "x"}')
    assert not block.take(4, '{"puzzle": "' + "." * 81 + '", "status": "solved", "er": 2}')
    assert not block.take(5, '{"puzzle": "' + "." * 81 + '"}')
    assert not block.take(6, "{bad")
    assert block.settle() == [(2, bad)]
    assert block.lines == [1] and block.values.shape == (1, 81)



def _chunks(path, after=0, lines=3, cap=1 << 20) -> list:
    return [c if isinstance(c, int) else (c.first, [c.text(i) for i in range(len(c))])
            for c in scan.pieces(str(path), after, lines, cap)]


def test_the_compiled_reader_cuts_a_file_as_the_text_reader_does(tmp_path, monkeypatch):
    path = tmp_path / "in.jsonl"
    path.write_bytes("\ufeff{a}\r\nb\n\nd\ne\nf\ng".encode())
    # the byte order mark dropped, CRLF as a line break, a last line without one
    assert _chunks(path) == [(1, ["{a}\r", "b", ""]), (4, ["d", "e", "f"]), (7, ["g"])]
    assert _chunks(path, after=4) == [(5, ["e", "f"]), (7, ["g"])]
    assert _chunks(path, after=7) == []
    monkeypatch.setattr(scan, "READ", 4)  # reads of a few bytes: lines across reads
    assert _chunks(path, lines=2) == [(1, ["{a}\r", "b"]), (3, ["", "d"]), (5, ["e", "f"]), (7, ["g"])]
    # a lone carriage return ends a line for the text reader: the general reader takes over there
    path.write_bytes(b"a\nb\nc\rd\ne\n")
    assert _chunks(path, lines=2) == [(1, ["a", "b"]), 2]
    path.write_bytes(b"a\nb\n" + b"c" * 50)
    assert _chunks(path, lines=2, cap=40) == [(1, ["a", "b"]), 2]  # a line too long: the general reader says so


def test_into_an_empty_bank_the_bulk_way_asks_sqlite_nothing_and_writes_the_same_bank(tmp_path, monkeypatch):
    rng = random.Random(27)
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text("\n".join(_first_input(rng)) + "\n")
    second.write_text("\n".join(_second_input(rng)) + "\n")
    asked: list[int] = []
    real = Bank.held

    def held(self, digests):
        got = real(self, digests)
        asked.append(self.settled_whole)
        return got

    monkeypatch.setattr(Bank, "held", held)
    got = {}
    for way in ("scan", "general"):
        path = tmp_path / f"bank-{way}.sqlite"
        notes, report = _add(path, [first, second], way, monkeypatch, 64)
        got[way] = (sorted(notes), report, _content(path))
    assert got["scan"] == got["general"]
    assert asked and all(asked)  # every block of the add into an empty bank answered from memory


class _Interrupting:
    """A bank connection that stops the add (as a kill would) in the ``when``-th block's
    transaction, after its puzzles went in and before its counts did."""

    def __init__(self, conn, when: int) -> None:
        self.conn, self.when, self.blocks = conn, when, 0

    def executemany(self, sql, rows):
        if sql.startswith("INSERT INTO seen"):
            self.blocks += 1
            if self.blocks == self.when:
                raise KeyboardInterrupt
        return self.conn.executemany(sql, rows)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def test_copies_across_and_within_blocks_and_an_interrupted_add_resumed(tmp_path, monkeypatch):
    """Classes given again in the same block of the compiled reader, in a later block, and
    a class with no solution given twice: the counts are the truth's (each record once), and
    an add stopped inside a block's transaction, run again, ends with the same bank."""
    rng = random.Random(31)
    puzzles = seventeen(240)
    lines: list[str] = []
    truth: dict[int, int] = {}  # puzzle -> times given
    for i, p in enumerate(puzzles):
        lines.append(json.dumps(_record(p, i)))
        truth[i] = 1
        if i % 3 == 0:  # a copy a few lines on: mostly in the same block of 64
            lines.insert(max(1, len(lines) - rng.randrange(1, 20)), json.dumps(_record(shuffled(p, rng), i)))
            truth[i] += 1
    for i in rng.sample(range(240), 60):  # copies far away: in later blocks
        lines.append(json.dumps(_record(shuffled(puzzles[i], rng), i + 1)))
        truth[i] += 1
    unsolvable = "11" + "." * 79
    lines[100:100] = [json.dumps(_record(unsolvable, 1)), json.dumps(_record("." * 9 + "11" + "." * 70, 2))]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n")
    records = len(lines)

    def content(bank_path):
        return table(bank_path, f"SELECT key, puzzle, solution, er, seen FROM ({ROW}) ORDER BY key")

    clean = tmp_path / "clean.sqlite"
    notes: list[str] = []
    with Bank(clean) as bank:
        report = add(bank, [str(path)], batch=64, notes=notes.append)
    assert (report.puzzles, report.new, report.failed) == (records, 240, 2)
    assert report.repeats == records - 240 - 2
    assert sorted(int(n.split(": line ")[1].split(":")[0]) for n in notes) == [101, 102]
    rows = content(clean)
    assert len(rows) == 240 and sorted(r[4] for r in rows) == sorted(truth.values())
    assert all(Grid(r[2]).is_solution_of(Grid(r[1])) for r in rows)

    broken = tmp_path / "broken.sqlite"
    with Bank(broken) as bank:
        bank.conn = _Interrupting(bank.conn, 3)
        with pytest.raises(KeyboardInterrupt):
            add(bank, [str(path)], batch=64)
        bank.conn = bank.conn.conn
    (done,) = table(broken, "SELECT lines FROM intake")[0]
    assert 64 <= done < records  # the blocks before the third went in, the third did not
    with Bank(broken) as bank:
        report = add(bank, [str(path)], batch=64)
    assert report.resumed == {str(path): done}
    assert content(broken) == rows


def test_a_source_with_a_quote_is_written_as_given(tmp_path):
    """The bulk upsert writes the block's source as a constant of the statement: quoted, it
    reads back as the path."""
    folder = tmp_path / "it's; DROP TABLE puzzle; --"
    folder.mkdir()
    path = folder / "in.jsonl"
    path.write_text("".join(json.dumps(_record(p, i)) + "\n" for i, p in enumerate(seventeen(5))))
    with Bank(tmp_path / "b.sqlite") as bank:
        report = add(bank, [str(path)])
    assert report.new == 5
    assert table(tmp_path / "b.sqlite", "SELECT DISTINCT source FROM puzzle") == [(str(path),)]


def test_after_the_banks_warm_up_a_bulk_add_compiles_nothing_more(tmp_path):
    """``bank.warm()`` (what ``sudoku warm-up`` and the kernel store run) reaches every
    signature a bulk add of rated records uses, so an add right after an install
    compiles nothing: in a fresh process, the compiled kernels' signatures after the
    add are those after the warm-up."""
    from sudokit.examples import EXAMPLES

    path = tmp_path / "rated.jsonl"
    path.write_text("".join(json.dumps(rating_record("".join(e.rows), 2.0)) + "\n" for e in EXAMPLES.values()))
    script = f"""
import json
from sudokit import bank
from sudokit.bank import Bank, add, digest, scan
from sudokit.canon import kernel
kernel.warm()
bank.warm()
kernels = {{"scan": scan.scan, "intern": scan.intern, "blake2b16": digest.blake2b16}}
before = {{name: len(k.signatures) for name, k in kernels.items()}}
with Bank({str(tmp_path / "b.sqlite")!r}) as b:
    report = add(b, [{str(path)!r}])
after = {{name: len(k.signatures) for name, k in kernels.items()}}
print(json.dumps([report.new, before, after]))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    new, before, after = json.loads(out.stdout.strip().splitlines()[-1])
    assert new >= 3  # the bulk way ran (the examples' 9x9 puzzles went in)
    assert after == before
