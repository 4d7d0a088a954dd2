"""Sudoku Explainer's solving paths replayed on our candidate state: the truth
the logic tests share.

The paths are SE's own (rated/se_dev_steps.jsonl.gz), the ratings and
solutions its reference set (rated/se_dev.tsv); a puzzle's one solution comes
from the engine's search, not from logic.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from sudokit import solving
from sudokit.grid import Grid
from sudokit.logic import REGISTRY, Candidates, next_step, uniqueness

from conftest import apply_se_step, rated_traces as traces, se_step


def implemented(s: dict) -> bool:
    """Is SE's step made by a registered technique? SE's names may carry a
    suffix (``Skyscraper 011``, ``WXYZ-Wing 137``, ``BUG type 2``)."""
    name = s["technique"]
    for t in REGISTRY:
        if name == t.name or name.startswith(t.name + " ") or name.startswith("Grouped " + t.name):
            return True
    return False


@contextmanager
def se_dev_build() -> Iterator[None]:
    """The rules of the SukakuExplainer build that made the step traces: it
    looks for a unique rectangle type 3's sets from size 2 up (its lkSudoku
    UR option), where 1.18.1, the reference of the ratings, starts at the
    number of extra values (:data:`sudokit.logic.uniqueness.TYPE3_FROM_TWO`)."""
    saved = uniqueness.TYPE3_FROM_TWO
    uniqueness.TYPE3_FROM_TWO = True
    try:
        yield
    finally:
        uniqueness.TYPE3_FROM_TWO = saved


def state_before(row: dict, index: int) -> Candidates:
    """Our state after SE's first ``index`` steps on the trace ``row``."""
    state = Candidates.from_grid(Grid(row["puzzle"]))
    for s in row["steps"][:index]:
        apply_se_step(state, s)
    return state


def first_use(technique: str, rating: float) -> tuple[dict, int]:
    """The first trace and step where SE uses ``technique`` at ``rating``."""
    for row in traces():
        for i, s in enumerate(row["steps"]):
            if s["technique"] == technique and abs(s["rating"] - rating) < 1e-9:
                return row, i
    raise LookupError(technique)


def check_first_use(technique: str, rating: float) -> None:
    """Replay SE's path up to its first use of the technique; from that state
    our stepper must find that very step (name, rating, placement, removals)."""
    row, index = first_use(technique, rating)
    state = state_before(row, index)
    target = row["steps"][index]
    assert state.grid().line() == target["gridBefore"]
    with se_dev_build():
        mine = next_step(state)
    placements, removals = se_step(target)
    assert mine is not None, target["toString"]
    assert (mine.technique, mine.rating) == (technique, rating), (str(mine), target["toString"])
    assert mine.placements == placements
    assert sorted(mine.eliminations) == removals
    assert mine.text.startswith(technique)


def replay(rows: list[dict], known: Callable[[dict], bool] = implemented, lowest: float = 0.0) -> tuple[int, list[str]]:
    """At every SE step rated ``lowest`` or more made with a technique we have,
    our stepper (on SE's state) must take exactly SE's step; the path stops
    at SE's first step we do not ``know``. Returns (checked, failures)."""
    highest = max(t.rating for t in REGISTRY)
    checked, failures = 0, []
    for row in rows:
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"]:
            if not known(s):
                break  # SE used a technique we lack: our path would differ from here
            if lowest <= s["rating"] <= highest:
                with se_dev_build():
                    mine = next_step(state)
                checked += 1
                placements, removals = se_step(s)
                if not (
                    mine is not None
                    and mine.technique == s["technique"]
                    and abs(mine.rating - s["rating"]) < 1e-9
                    and tuple(mine.placements) == placements
                    and sorted(mine.eliminations) == removals
                ):
                    failures.append(f"{row['id']}: SE {s['toString']!r}, ours {mine}")
            apply_se_step(state, s)
    return checked, failures


def se_walk(rows: list[dict], predicate: Callable[[dict], bool]) -> Iterator[tuple[dict, dict, Candidates]]:
    """``(row, SE step, our state just before it)`` for every SE step of
    ``rows`` that ``predicate`` accepts, walking SE's paths."""
    for row in rows:
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for s in row["steps"]:
            if predicate(s):
                yield row, s, state.copy()
            apply_se_step(state, s)


def se_states(rows: list[dict], lowest: float = 4.0) -> list[Candidates]:
    """SE's states just before each of its steps rated ``lowest`` or more."""
    return [state for _, _, state in se_walk(rows, lambda s: s["rating"] >= lowest)]


def reference_sample(rows: list[dict[str, str]], full: bool) -> list[dict[str, str]]:
    """Every reference puzzle up to ER 6.2 and a fifth of the harder ones (the
    chain searches take about half a second each); all of them when ``full``."""
    return [row for i, row in enumerate(rows) if full or float(row["er"]) <= 6.2 or i % 5 == 0]


def solution_of(puzzle: str) -> tuple[int, ...]:
    """The one solution of ``puzzle``, by the engine's search (no logic)."""
    result = solving.count(Grid(puzzle), limit=2)
    assert result.count == 1
    return result.solution.values
