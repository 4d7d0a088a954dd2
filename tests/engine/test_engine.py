"""The fast engine against independent truth: the reference solver, the
published counts, the benchmark sets' known properties and the rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sudokit import engine
from sudokit.budget import Budget
from sudokit.errors import Contradiction, LimitReached, SudokuError
from sudokit.grid import Grid, Shape
from sudokit.engine.kernel9 import count9
from sudokit.engine.kernelN import count_n

from conftest import bench_sample, load_counts, load_multisize
from reference import obeys_rules, reference_count

LIMIT = 1000


def _values(text: str) -> np.ndarray:
    return (np.frombuffer(text.replace(".", "0").encode(), dtype=np.uint8) - 48).astype(np.uint8)


def _expected(count: str, limit: int) -> tuple[int, int]:
    """(low, high) bounds of a capped count from a counts.tsv entry."""
    if count == ">1":
        return 2, limit
    return min(int(count), limit), min(int(count), limit)


@pytest.mark.parametrize("row", load_counts(), ids=lambda r: r["puzzle"][:20])
def test_kernels_match_published_counts(row: dict[str, str]) -> None:
    values = _values(row["puzzle"])
    low, high = _expected(row["count"], LIMIT)
    for run in (
        lambda sol, stats: count9(values, LIMIT, 0, sol, stats),
        lambda sol, stats: count_n(values, 3, 3, LIMIT, 0, sol, stats),
    ):
        solution = np.zeros(81, dtype=np.uint8)
        stats = np.zeros(2, dtype=np.int64)
        found = run(solution, stats)
        assert low <= found <= high
        if found:
            assert obeys_rules(solution.tolist(), values.tolist(), 3, 3)
        if row["count"] == "1":
            assert "".join(map(str, solution)) == row["solution"]
    assert values.tolist() == _values(row["puzzle"]).tolist()  # the grid is not modified


def test_serg_sample_has_several_solutions() -> None:
    for line in bench_sample("serg_benchmark.txt", 300):
        found, first = engine.count(Grid(line), 2, Budget())
        assert found == 2 and first.is_solution_of(Grid(line))


def test_17_clue_sample_is_unique() -> None:
    for line in bench_sample("17_clue.txt", 300):
        found, first = engine.count(Grid(line), 2, Budget())
        assert found == 1 and first.is_solution_of(Grid(line))


def test_count9_counts_all_like_count_n() -> None:
    # limit 0 counts every solution; the two kernels search differently
    for line in bench_sample("serg_benchmark.txt", 40):
        values = _values(line)
        found = []
        for run in (lambda sol, stats: count9(values, 0, 0, sol, stats),
                    lambda sol, stats: count_n(values, 3, 3, 0, 0, sol, stats)):
            solution = np.zeros(81, dtype=np.uint8)
            found.append(run(solution, np.zeros(2, dtype=np.int64)))
            assert obeys_rules(solution.tolist(), values.tolist(), 3, 3)
        assert found[0] == found[1] >= 2


def test_count9_stats_and_node_limit() -> None:
    values = _values(bench_sample("forum_hardest_1106.txt", 1)[0])
    solution = np.zeros(81, dtype=np.uint8)
    stats = np.zeros(2, dtype=np.int64)
    assert count9(values, 2, 0, solution, stats) == 1
    nodes, guesses = stats.tolist()
    assert nodes > guesses > 0  # a node per board propagated, a guess per branch point
    capped = np.zeros(2, dtype=np.int64)
    assert count9(values, 2, nodes - 1, solution, capped) == -1
    assert capped[0] == nodes - 1
    assert count9(values, 2, nodes, solution, capped) == 1
    easy = _values(bench_sample("kaggle.txt", 1)[0])  # singles only: one node, no guess
    stats[:] = 0
    assert count9(easy, 2, 0, solution, stats) == 1 and stats.tolist() == [1, 0]
    blank = np.zeros(81, dtype=np.uint8)
    assert count9(blank, 5, 0, solution, stats) == 5


@pytest.mark.slow
@pytest.mark.parametrize("name,expected", [("serg_benchmark.txt", 2), ("17_clue.txt", 1),
                                           ("magictour_top1465.txt", 1), ("forum_hardest_1106.txt", 1)])
def test_whole_sets(name: str, expected: int) -> None:
    from sudokit.batch import parse_lines, solve_many
    from conftest import BENCH, require_shared

    values, ok = parse_lines(require_shared(BENCH / name).read_bytes().split())
    assert ok.all()
    result = solve_many(values, limit=2)
    assert (result.counts == expected).all()


def test_multisize_cases() -> None:
    for case in load_multisize():
        symbols = case["symbols"]
        values = [0 if ch == "." else symbols.index(ch) + 1 for ch in case["puzzle"]]
        grid = Grid(values, Shape(case["box_rows"], case["box_cols"]))
        found, first = engine.count(grid, 2, Budget(timeout=60))
        if str(case["count"]).startswith(">1"):
            assert found == 2
        else:
            assert found == case["count"]
        if case["count"] == 1:
            assert "".join(symbols[v - 1] for v in first.values) == case["solution"]


SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 3), (4, 4)]


@st.composite
def puzzles(draw: st.DrawFn) -> tuple[Grid, int, int]:
    """A shape and a puzzle cut from a random grid, sometimes with a wrong or extra given."""
    rows, cols = draw(st.sampled_from(SHAPES))
    n = rows * cols
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    # a random complete grid: the pattern solution, shuffled by symmetries
    base = [[(cols * (r % rows) + r // rows + c) % n + 1 for c in range(n)] for r in range(n)]
    grid = np.array(base)
    grid = (rng.permutation(n) + 1)[grid - 1]  # relabel the values
    bands = rng.permutation(cols)
    row_order = [b * rows + r for b in bands for r in rng.permutation(rows)]
    stacks = rng.permutation(rows)
    col_order = [s * cols + c for s in stacks for c in rng.permutation(cols)]
    grid = grid[row_order][:, col_order]
    # the reference is a plain backtracker: keep the larger shapes well filled
    low = 0.1 if n <= 6 else 0.4 if n <= 9 else 0.62
    keep = draw(st.floats(low, 0.85))
    mask = rng.random(n * n) < keep
    values = np.where(mask, grid.reshape(-1), 0)
    twist = draw(st.sampled_from(["none", "none", "change", "clash"]))
    if twist != "none":
        cell = int(rng.integers(n * n))
        if twist == "change":
            values[cell] = int(rng.integers(1, n + 1))
        else:  # a given equal to another in its row
            row = cell // n
            other = row * n + (cell % n + 1) % n
            values[cell] = values[other] = int(rng.integers(1, n + 1))
    return Grid([int(v) for v in values], Shape(rows, cols)), rows, cols


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_random_puzzles_match_the_reference(case: tuple[Grid, int, int]) -> None:
    grid, rows, cols = case
    expected, _ = reference_count(list(grid.values), rows, cols, limit=3)
    found, first = engine.count(grid, 3, Budget(nodes=2_000_000))
    assert found == expected
    if found:
        assert obeys_rules(first.values, grid.values, rows, cols)
    listed = []
    for solution in engine.solutions(grid, Budget(nodes=2_000_000)):
        listed.append(solution)
        if len(listed) == 3:
            break
    assert len(listed) == expected and len(set(listed)) == len(listed)
    assert all(obeys_rules(s.values, grid.values, rows, cols) for s in listed)


def test_enumeration_is_complete_and_lazy() -> None:
    assert sum(1 for _ in engine.solutions(Grid.empty((2, 2)), Budget())) == 288
    assert engine.count(Grid.empty((2, 2)), None, Budget())[0] == 288
    # a 9x9 with several solutions: the list has no repeats and matches the count
    line = bench_sample("serg_benchmark.txt", 1)[0]
    every = list(engine.solutions(Grid(line), Budget()))
    total, _ = engine.count(Grid(line), None, Budget())
    assert len(every) == total == len(set(every)) >= 2
    # lazy: the first solution of an empty 9x9 comes at once
    assert next(engine.solutions(Grid.empty(), Budget())).is_solved


def test_budgets_stop_the_engine() -> None:
    with pytest.raises(LimitReached, match="node limit"):
        engine.count(Grid.empty(), None, Budget(nodes=100))
    with pytest.raises(LimitReached, match="time limit"):
        engine.count(Grid.empty(), None, Budget(timeout=0.2))
    with pytest.raises(LimitReached, match="time limit"):
        for _ in engine.solutions(Grid.empty((3, 4)), Budget(timeout=0.2)):
            pass
    with pytest.raises(LimitReached):
        engine.count(Grid.empty((5, 5)), None, Budget(nodes=50))
    budget = Budget()
    engine.count(Grid(bench_sample("magictour_top1465.txt", 1)[0]), 2, budget)
    assert budget.nodes_used > budget.guesses > 0


def test_deduce_is_sound_and_does_not_guess() -> None:
    rows = [r for r in load_counts() if r["count"] == "1"]
    for row in rows:
        grid = Grid(row["puzzle"])
        try:
            derived = engine.deduce(grid, Budget())
        except Contradiction:  # pragma: no cover - a unique puzzle has no contradiction
            raise AssertionError(row["puzzle"])
        assert all(d == 0 or d == int(s) for d, s in zip(derived.values, row["solution"]))
        assert derived.agrees_with(grid)
    # an easy puzzle falls to singles alone
    from sudokit.examples import example
    assert engine.deduce(example("easy"), Budget()).is_solved
    with pytest.raises(Contradiction):
        engine.deduce(Grid("12345678." + "." * 8 + "9" + "." * 63), Budget())


def test_deduce_uses_locked_candidates() -> None:
    # every value deduce places agrees with the unique solution
    line = bench_sample("17_clue.txt", 50)[7]
    grid = Grid(line)
    derived = engine.deduce(grid, Budget())
    _, solution = engine.count(grid, 1, Budget())
    assert all(d == 0 or d == s for d, s in zip(derived.values, solution.values))


def test_bad_input_is_refused() -> None:
    with pytest.raises(SudokuError, match="the engine works on a Grid, not str"):
        engine.count("not a grid", 2, Budget())  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        engine.count(Grid.empty(), 0, Budget())


def test_warm_up_reports_only_when_cold() -> None:
    messages: list[str] = []
    engine.warm_up(messages.append)
    engine.warm_up(messages.append)  # now certainly warm
    assert len(messages) <= 1
    assert all("compiling" in m for m in messages)


# -- one propagation per representation ---------------------------------------------------


def _unit_lists(box_rows: int, box_cols: int) -> tuple[list[list[int]], list[set[int]]]:
    n = box_rows * box_cols
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [[(br + r) * n + bc + c for r in range(box_rows) for c in range(box_cols)]
             for br in range(0, n, box_rows) for bc in range(0, n, box_cols)]
    units = rows + cols + boxes
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for unit in units:
        for cell in unit:
            peers[cell].update(unit)
    for cell, p in enumerate(peers):
        p.discard(cell)
    return units, peers


def _singles_by_hand(values: list[int], box_rows: int, box_cols: int) -> int:
    """Naked and hidden singles to a fixpoint, with sets: 1 complete, 0 stuck, -1 contradiction."""
    n = box_rows * box_cols
    units, peers = _unit_lists(box_rows, box_cols)
    cand = [{v} if v else set(range(1, n + 1)) for v in values]
    changed = True
    while changed:
        changed = False
        for cell, c in enumerate(cand):
            if len(c) == 1:
                (v,) = c
                for p in peers[cell]:
                    if v in cand[p]:
                        cand[p].discard(v)
                        changed = True
        if any(not c for c in cand):
            return -1
        for unit in units:
            for v in range(1, n + 1):
                places = [cell for cell in unit if v in cand[cell]]
                if not places:
                    return -1
                if len(places) == 1 and len(cand[places[0]]) > 1:
                    cand[places[0]] = {v}
                    changed = True
    return 1 if all(len(c) == 1 for c in cand) else 0


def _partial_grids(box_rows: int, box_cols: int, count: int, seed: int) -> list[list[int]]:
    """Random partial grids of a shape: a shuffled complete grid with most cells
    blank, and now and then a given changed (which may contradict)."""
    rng = np.random.default_rng(seed)
    n = box_rows * box_cols
    grids = []
    for _ in range(count):
        digits = rng.permutation(n) + 1
        rows = [b * box_rows + r for b in rng.permutation(n // box_rows) for r in rng.permutation(box_rows)]
        cols = [s * box_cols + c for s in rng.permutation(n // box_cols) for c in rng.permutation(box_cols)]
        full = [int(digits[(box_cols * (r % box_rows) + r // box_rows + c) % n]) for r in rows for c in cols]
        keep = rng.uniform(0.25, 0.8)
        values = [v if rng.random() < keep else 0 for v in full]
        if rng.random() < 0.2:
            values[int(rng.integers(n * n))] = int(rng.integers(1, n + 1))
        grids.append(values)
    return grids


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_the_singles_verdicts_are_those_of_singles_by_hand(box: tuple[int, int]) -> None:
    """The masks' propagation (kernelN.singles_n) and, on 9x9, the band words'
    with the filters off (singles9) reach the fixpoint of naked and hidden singles."""
    from sudokit.engine.board import WORDS
    from sudokit.engine.kernelN import geometry, load_n, singles_n
    from sudokit.engine.singles9 import singles_verdict9

    n = box[0] * box[1]
    units, peers = geometry(*box)
    masks = np.empty(n * n, dtype=np.uint64)
    assigned = np.empty(n * n, dtype=np.uint8)
    queue = np.empty(n * n, dtype=np.int64)
    g = np.empty(WORDS, dtype=np.int64)
    seen = set()
    for values in _partial_grids(*box, count=300 if n <= 9 else 100, seed=n):
        expected = _singles_by_hand(values, *box)
        seen.add(expected)
        grid = np.array(values, dtype=np.uint8)
        load_n(grid, n, masks, assigned)
        assert singles_n(masks, assigned, units, peers, queue) == expected, values
        if n == 9:
            assert singles_verdict9(grid, g) == expected, values
    assert seen == {-1, 0, 1}


def test_the_board_words_are_where_board_says() -> None:
    from sudokit.engine import board
    from sudokit.engine.kernel9 import SOLVED, load9, propagate9

    values = _values(bench_sample("17_clue.txt", 1)[0])
    g = np.empty(board.WORDS, dtype=np.int64)
    assert load9(values, g)
    for b in range(3):
        blanks = sum(1 for i in range(27) if values[27 * b + i] == 0)
        assert bin(int(g[board.OPEN + b])).count("1") == blanks
    for d in range(9):
        for b in range(3):
            for i in range(27):
                if values[27 * b + i] == d + 1:
                    assert g[board.digit_word(d, b)] >> i & 1
                    assert not g[board.digit_word(d, b)] & board.PEERS[i]
    assert propagate9(g, -1, 0, 0) != SOLVED or not any(g[board.OPEN:board.STORED])


def test_a_hidden_single_alone_in_its_row_box_and_band_column_still_takes_its_column() -> None:
    """Placing such a cell leaves its digit's words of its band as they were; the
    column it takes in the other bands must still go (found by the generator)."""
    from sudokit.engine.board import WORDS
    from sudokit.engine.singles9 import COMPLETE, singles_verdict9

    line = "....3.2....4.8..5..5.7...4..7.39.....1....5.6...2....4......19...7..4.....21....."
    values = [0 if ch == "." else int(ch) for ch in line]
    assert _singles_by_hand(values, 3, 3) == 1
    assert singles_verdict9(np.array(values, dtype=np.uint8), np.empty(WORDS, dtype=np.int64)) == COMPLETE


def test_the_two_9x9_singles_verdicts_agree_near_the_threshold() -> None:
    """singles9 (band words) against kernelN.singles_n (masks) on grids near
    the edge of what singles solve: 17-clue puzzles with a few of their
    solution's cells added and a clue or two taken away."""
    from sudokit.engine.board import WORDS
    from sudokit.engine.kernelN import geometry, load_n, singles_n
    from sudokit.engine.singles9 import singles_verdict9

    rng = np.random.default_rng(9)
    units, peers = geometry(3, 3)
    masks = np.empty(81, dtype=np.uint64)
    assigned = np.empty(81, dtype=np.uint8)
    queue = np.empty(81, dtype=np.int64)
    g = np.empty(WORDS, dtype=np.int64)
    seen = set()
    for line in bench_sample("17_clue.txt", 100):
        values = _values(line)
        solution = np.zeros(81, dtype=np.uint8)
        count9(values, 1, 0, solution, np.zeros(2, dtype=np.int64))
        for _ in range(40):
            grid = values.copy()
            add = rng.choice(81, size=int(rng.integers(0, 25)), replace=False)
            grid[add] = solution[add]
            grid[rng.choice(81, size=int(rng.integers(0, 3)), replace=False)] = 0
            load_n(grid, 9, masks, assigned)
            expected = singles_n(masks, assigned, units, peers, queue)
            seen.add(int(expected))
            assert singles_verdict9(grid, g) == expected, "".join(map(str, grid))
    assert seen == {0, 1}
