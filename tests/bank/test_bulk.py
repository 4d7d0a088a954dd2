"""The bulk way of ``bank add`` (rated 9x9 records, :mod:`sudokit.bank.bulk`)
against the general way: the same input gives the same bank, row for row,
and the same notes, bad lines included, with their line numbers."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from sudokit import Grid
from sudokit.bank import Bank, add, intake
from sudokit.bank.rows import Incoming, insert
from sudokit.bank.schema import ROW

from bank_helpers import rating_record, se_rows, seventeen, shuffled

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
    rng.shuffle(lines)
    return lines


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


def _add(path, files, bulk: bool, monkeypatch, batch: int) -> tuple[list[str], tuple]:
    monkeypatch.setattr(intake, "BULK", bulk)
    notes: list[str] = []
    with Bank(path) as bank:
        report = add(bank, [str(f) for f in files], notes=notes.append, batch=batch)
    return notes, (report.puzzles, report.new, report.repeats, report.failed)


@pytest.mark.parametrize("batch", [8192, 37])
def test_the_bulk_way_writes_the_same_bank_as_the_general_way(tmp_path, monkeypatch, batch):
    rng = random.Random(26)
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text("\n".join(_first_input(rng)) + "\n")
    second.write_text("\n".join(_second_input(rng)) + "\n")
    unrated = Grid(se_rows()[70]["puzzle"])
    got = {}
    for bulk in (True, False):
        path = tmp_path / f"bank-{bulk}.sqlite"
        with Bank(path) as bank:  # a class the bank holds without a rating
            insert(bank, [Incoming(None, unrated, source="before")], date="2026-01-01")
        notes1, report1 = _add(path, [first], bulk, monkeypatch, batch)
        notes2, report2 = _add(path, [second], bulk, monkeypatch, batch)
        got[bulk] = (sorted(notes1), report1, notes2, report2, _content(path))
    # the same notes (in the order of the blocks, which may end at other lines), the same rows
    assert got[True] == got[False]
    notes1, report1, notes2, report2, content = got[True]
    # the bad lines, each reported with its own line number and reason
    wanted = {}
    for number, line in enumerate(first.read_text().splitlines(), 1):
        if line.startswith("{not"):
            wanted[number] = "bad JSON"
        elif line.startswith("["):
            wanted[number] = "too short"
        elif line.startswith('{"er"'):
            wanted[number] = 'needs a "puzzle"'
        elif '"expect"' in line:
            wanted[number] = json.loads(line)["expect"]
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

