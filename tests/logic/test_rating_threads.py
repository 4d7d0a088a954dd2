"""Ratings from several threads at once (the web page's Rate and Explain run in
a server's threads): each call keeps its own state, so four concurrent ratings
of a hard puzzle give the serial rating, against SE's, with nothing raised."""

from __future__ import annotations

import csv
from concurrent.futures import ThreadPoolExecutor

from sudokit.logic import chains, explain, rate

from conftest import RATED, require_shared

#: A puzzle of hard_dev.tsv whose path runs the nested levels (SE 10.9/10.5/2.6) and rates in a few
#: seconds; with the inner rules' work arrays shared between threads, four concurrent ratings of it
#: raised KeyError in chains.chain_nodes.
PUZZLE_ID = "hd-0433"


def _row(name: str = "hard_dev.tsv", id: str = PUZZLE_ID) -> dict[str, str]:
    with open(require_shared(RATED / name), newline="") as fh:
        return next(r for r in csv.DictReader(fh, delimiter="\t") if r["id"] == id or float(r["er"]) == 7.3)


def test_four_threads_rate_a_hard_puzzle_as_one() -> None:
    row = _row()
    serial = rate(row["puzzle"], timeout=None)
    assert (serial.er, serial.ep, serial.ed) == (float(row["er"]), float(row["ep"]), float(row["ed"]))
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda _: rate(row["puzzle"], timeout=None), range(4)))
    assert together == [serial] * 4


def test_budgets_are_per_thread() -> None:
    """A budget set in one thread neither bounds nor counts the work of another."""
    seen = {}
    puzzle = _row("se_dev.tsv", "")["puzzle"]  # a chain in its path

    def other() -> None:
        seen["deadline"], seen["done"] = chains.PUZZLE_DEADLINE, chains.WORK_DONE
        explain(puzzle, timeout=None)
        seen["after"] = chains.WORK_DONE

    done = chains.WORK_DONE
    with chains.time_limit(5.0):
        assert chains.PUZZLE_DEADLINE is not None
        with ThreadPoolExecutor(1) as pool:
            pool.submit(other).result()
        assert chains.WORK_DONE == done  # the other thread's chain work is its own
    assert seen["deadline"] is None
    assert seen["after"] > seen["done"]
