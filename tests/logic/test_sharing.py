"""One puzzle's hardest searches shared by several processes (:mod:`sudokit.logic.sharing`).

The shared search must take SE's step, the very step of the search in one
process (tie for tie), and both processes must search part of the cells. The
states are SE's own (``hard_dev_traces.jsonl.gz``); the ratings are checked
against SE's (``hard_dev.tsv``), through the library, the command line and
the web API.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import pytest

from sudokit.logic import nested, rate, sharing
from sudokit.logic.rating import explain_rated
from sudokit.pool import Team

from conftest import RATED, require_shared
from test_nested import _ours_target, _replay, _se_target, _state, _traces

#: A puzzle whose path runs the nested levels (SE 10.9/10.5/2.6) and rates in a few seconds.
QUICK_ID = "hd-0433"
#: More of hard_dev.tsv, ER 10.4 to 11.7 (slow: about 10 s of CPU each).
SLOW_IDS = ["hd-0400", "hd-0100", "hd-0361", "hd-0475"]


def _rows() -> dict[str, dict[str, str]]:
    with open(require_shared(RATED / "hard_dev.tsv"), newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh, delimiter="\t")}


def _se(row: dict[str, str]) -> tuple[float, float, float]:
    return float(row["er"]), float(row["ep"]), float(row["ed"])


@pytest.mark.parametrize("puzzle_id,index,tier", [("hd-0475", 25, 1), ("hd-0361", 4, 2)],
                         ids=["level 1", "level 2"])
def test_a_shared_level_takes_the_step_of_one_process(puzzle_id: str, index: int, tier: int) -> None:
    _traces()  # (the shared data, or a skip)
    nested.clear_caches()
    se, alone, got = _replay(puzzle_id, index)
    nested.clear_caches()
    with sharing.sharing(2):
        _, shared, got_shared = _replay(puzzle_id, index)
        counts = sharing.tally()
    assert (got_shared, shared) == (got, alone) == (tier, alone)
    assert shared.text == alone.text and shared.as_dict() == alone.as_dict()  # the inner chains too
    assert (shared.rating, _ours_target(shared)) == (se["rating"], _se_target(se["text"]))
    # both processes searched part of the cells: this one and a worker
    assert len(counts) == 2 and os.getpid() in counts and all(n > 0 for n in counts.values()), counts


def test_the_board_gives_each_cell_once_own_queue_first_then_the_longest_other_from_its_end() -> None:
    board = sharing._Board(3)
    number = board.deal([[1, 2], [3, 4, 5, 6, 7], []])
    assert [board.take(0, number), board.take(0, number)] == [1, 2]  # its own, in order
    assert board.take(2, number) == 7  # an empty queue: the end of the longest
    assert board.take(0, number - 1) == -1  # an older round takes nothing
    taken = [board.take(1, number), board.take(0, number), board.take(2, number), board.take(1, number)]
    assert taken == [3, 6, 5, 4] and board.take(0, number) == board.take(1, number) == -1
    again = board.deal([[8], [9]])
    assert again == number + 1 and board.take(1, number) == -1 and board.take(1, again) == 9


def _slow_search(original):
    """A share's search made slow in the workers only (as on a core another job takes)."""
    def search(self, take):
        if os.getpid() == _PARENT:
            return original(self, take)
        import time

        def slow():
            time.sleep(0.05)  # (well above a cell's own time even when the machine is loaded)
            return take()
        return original(self, slow)
    return search


_PARENT = os.getpid()


def test_three_processes_one_slowed_take_the_step_of_one_process(monkeypatch) -> None:
    """The cells go where there is time for them (the slowed workers search fewer), and the step
    is the one of one process all the same."""
    _traces()
    nested.clear_caches()
    se, alone, got = _replay("hd-0361", 4)
    nested.clear_caches()
    monkeypatch.setattr(sharing._Round, "first", _slow_search(sharing._Round.first))
    with sharing.sharing(3):
        _, shared, got_shared = _replay("hd-0361", 4)
        counts = sharing.tally()
    assert (got_shared, shared.as_dict()) == (got, alone.as_dict())
    assert len(counts) == 3 and all(n > 0 for n in counts.values()), counts
    assert counts[os.getpid()] > max(n for pid, n in counts.items() if pid != os.getpid()), counts


def test_deal_gives_each_cell_to_one_share_in_scan_order() -> None:
    state = _state(_traces()["hd-0361"]["steps"][4]["candidates"])
    cells = [c for c, m in enumerate(state.mask) if m & (m - 1)]
    for shares in (2, 3):
        dealt = sharing.deal(state, cells, shares)
        assert len(dealt) == shares and all(dealt)
        assert sum(dealt, []) == cells  # each once, runs in scan order
        assert sharing.deal(state, cells, shares) == dealt  # the same state, the same way


def test_a_hard_puzzle_rated_on_two_processes_is_rated_as_se() -> None:
    """(As on one process: tests/logic/test_rating_threads.py rates it so, against SE too.)"""
    row = _rows()[QUICK_ID]
    with sharing.sharing(1):
        assert not sharing.active()
    shared = rate(row["puzzle"], timeout=None, jobs=2)
    assert (shared.er, shared.ep, shared.ed) == _se(row) and not shared.lower_bound
    assert len(sharing.tally()) == 2 and not sharing.active()


def test_rate_jobs_2_on_a_file_of_one_puzzle_shares_it(tmp_path) -> None:
    """``sudoku rate --jobs 2`` on one puzzle: the workers share its searches (two processes search
    cells, seen through the library's tally in the same process) and the line is SE's rating."""
    row = _rows()[QUICK_ID]
    path = tmp_path / "one.txt"
    path.write_text(row["puzzle"] + "\n")
    code = ("import sys; from sudokit.cli import main; from sudokit.logic import sharing\n"
            "try:\n    main(['rate', '--jobs', '2', sys.argv[1]])\n"
            "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
            "print('tally', len(sharing.tally()), min(sharing.tally().values(), default=0))\n")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    line, tally = done.stdout.splitlines()
    er, ep, ed = _se(row)
    assert line == f"{row['puzzle']}  {er:.1f}/{ep:.1f}/{ed:.1f} diabolical"
    processes, fewest = map(int, tally.split()[1:])
    assert processes == 2 and fewest > 0


@pytest.mark.slow
@pytest.mark.parametrize("puzzle_id", SLOW_IDS)
def test_hard_puzzles_rate_and_explain_alike_on_two_processes(puzzle_id: str) -> None:
    row = _rows()[puzzle_id]
    alone = explain_rated(row["puzzle"], timeout=None)
    shared = explain_rated(row["puzzle"], timeout=None, jobs=2)
    assert shared[1] == alone[1] and (shared[1].er, shared[1].ep, shared[1].ed) == _se(row)
    assert [s.as_dict() for s in shared[0]] == [s.as_dict() for s in alone[0]]


@pytest.mark.slow
def test_cli_rate_and_explain_jobs_2_equal_jobs_1(tmp_path) -> None:
    rows = _rows()
    path = tmp_path / "one.txt"
    for puzzle_id in SLOW_IDS[:2]:
        path.write_text(rows[puzzle_id]["puzzle"] + "\n")
        for command in ("rate", "explain"):
            out = [subprocess.run(["sudoku", command, "--jobs", jobs, str(path)], capture_output=True, text=True,
                                  timeout=900) for jobs in ("1", "2")]
            assert [o.returncode for o in out] == [0, 0] and out[0].stdout == out[1].stdout, out[1].stderr


def test_a_team_runs_parts_on_its_own_workers_and_reports_their_errors() -> None:
    with Team(2) as team:
        assert team.map(abs, [-3, 4]) == [3, 4]
        pids = team.map(_pid, [None, None])
        assert len(set(pids)) == 2 and os.getpid() not in pids
        assert team.map(_pid, [None, None]) == pids  # the same workers, part for part
        team.send(0, int, "x")
        with pytest.raises(ValueError):
            team.receive(0)
        assert team.map(abs, [-1, -2]) == [1, 2]  # still working
    for pid in pids:  # stopped and reaped with the block
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def _pid(_: object) -> int:
    return os.getpid()


def test_the_pace_pauses_sharing_where_the_team_gets_about_one_processor() -> None:
    pace = sharing._Pace()
    pace.saw(0.19, 0.1)  # (below the window: not judged yet)
    pace.saw(0.19, 0.1)  # two processors' worth: sharing goes on
    assert not pace.skip()
    pace.saw(0.1, 0.1)
    pace.saw(0.11, 0.1)  # one processor's worth between the two processes: paused, then tried again
    assert [pace.skip() for _ in range(sharing.PAUSED_SEARCHES + 1)] == [True] * sharing.PAUSED_SEARCHES + [False]


def test_a_paused_team_leaves_the_searches_here_with_the_same_rating(monkeypatch) -> None:
    """Sharing judged not to pay (here: after every search) runs the next searches in this process
    alone, and the rating is SE's, as when shared."""
    row = _rows()[QUICK_ID]
    monkeypatch.setattr(sharing, "PAUSE_BELOW", 100.0)
    monkeypatch.setattr(sharing, "PACE_WINDOW", 0.0)
    asked = []
    skip = sharing._Pace.skip
    monkeypatch.setattr(sharing._Pace, "skip", lambda self: asked.append(skip(self)) or asked[-1])
    shared = rate(row["puzzle"], timeout=None, jobs=2)
    assert (shared.er, shared.ep, shared.ed) == _se(row) and not shared.lower_bound
    alone, together = asked.count(True), asked.count(False)
    # (the first shared search, which starts the worker, is not judged)
    assert together >= 3 and alone >= sharing.PAUSED_SEARCHES * (together - 2), asked


def _frozen(_: object) -> int:
    import gc

    return gc.get_freeze_count()


def test_a_workers_inherited_objects_are_out_of_its_collectors_sight() -> None:
    """A team's worker freezes what it was forked with (its full collections do not walk, and so
    copy, the parent's objects); the parent's collector is left as it was."""
    import gc

    before = gc.get_freeze_count()
    keep = [[i] for i in range(10_000)]  # made after any earlier freeze: the worker's copies are frozen
    with Team(1) as team:
        assert team.map(_frozen, [None])[0] >= before + len(keep)
    assert gc.get_freeze_count() == before


def test_a_lost_worker_leaves_the_search_to_this_process() -> None:
    """A worker killed between two searches (out of memory, say): the next search runs here, alone,
    and takes the same step."""
    _, alone, _ = _replay("hd-0475", 25)
    with sharing.sharing(2):
        _replay("hd-0475", 25)  # the worker starts
        team = sharing._team()
        for process, _conn in team._members:
            process.kill()
            process.join(5)
        _, shared, _ = _replay("hd-0475", 25)
    assert shared.as_dict() == alone.as_dict()
