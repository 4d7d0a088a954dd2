"""The SAT prover's answers against the engine's counts, and the SAT finish of minimising.

Truth: the engine's solution count with limit 2 (itself checked against the
shared cases), on 4x4, 6x6, 9x9 and 16x16 grids where it is fast.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sudokit.errors import InvalidPuzzle
from sudokit.generation import complete_grid, generate
from sudokit.generation.plan import make_plan
from sudokit.generation.sat import ProverTeam, UniquenessProver
from sudokit.generation.sat_finish import settle
from sudokit.generation.symmetry import is_symmetric
from sudokit.grid import Grid
from sudokit.solving import count_solutions


def _partial(solution: Grid, cells: set[int]) -> Grid:
    return Grid([v if c in cells else 0 for c, v in enumerate(solution.values)], shape=solution.shape)


@pytest.mark.parametrize("shape, puzzles", [("2x2", 12), ("2x3", 12), ("3x3", 12), ("4x4", 4)])
def test_needed_agrees_with_the_engine(shape: str, puzzles: int) -> None:
    """``needed(cells, clues)`` is True exactly when the puzzle without ``cells`` has two solutions.

    The puzzles: a generated minimal puzzle plus a few random clues of its
    solution, so some clues can go and some cannot."""
    rng = random.Random(shape)
    checked = {True: 0, False: 0}
    for i in range(puzzles):
        p = generate(shape=shape, seed=100 + i)
        cells = p.solution.shape.cell_count
        clues = set(p.puzzle.givens) | set(rng.sample(range(cells), rng.randint(0, cells // 8)))
        with UniquenessProver(p.solution) as prover:
            for _ in range(8):
                blank = rng.sample(sorted(clues), rng.choice([1, 1, 2, 4]))
                truth = count_solutions(_partial(p.solution, clues - set(blank)), 2) == 2
                assert prover.needed(blank, clues) is truth, (i, blank)
                checked[truth] += 1
    assert checked[True] and checked[False]


def test_kept_cells_stay_clues() -> None:
    """After ``keep``, a question no longer lists the kept cell among the clues, yet it holds."""
    solution = complete_grid("3x3", seed=4)
    p = generate(shape="3x3", seed=4)
    givens = list(p.puzzle.givens)
    with UniquenessProver(solution) as prover:
        prover.keep(givens[:10])
        for cell in givens[10:20]:
            assert prover.needed([cell], givens[10:]) is True


def test_bad_input_is_refused_clearly() -> None:
    from sudokit.errors import InvalidPuzzle

    with pytest.raises(InvalidPuzzle, match="complete, valid solution"):
        UniquenessProver(Grid("1234341221430000"))
    with UniquenessProver(Grid("1234341221434321")) as prover:
        with pytest.raises(IndexError, match="cell 16 is not on a grid of 16 cells"):
            prover.needed([16], clues=range(16))


def test_conflict_budget_leaves_a_question_open() -> None:
    """One conflict cannot prove a hard puzzle unique: the answer is None, not a guess."""
    from conftest import bench_sample
    from sudokit.solving import solve

    puzzle = Grid(bench_sample("forum_hardest_1106.txt", 1)[0])
    solution = solve(puzzle).solution
    clues = list(puzzle.givens)
    blank = next(c for c in range(81) if c not in clues)  # given too, then asked about
    with UniquenessProver(solution, conflicts=1) as prover:
        assert prover.needed([blank], clues + [blank]) is None
    with UniquenessProver(solution) as prover:
        assert prover.needed([blank], clues + [blank], conflicts=1) is None  # this question's own budget
        assert prover.needed([blank], clues + [blank]) is False
    with ProverTeam(solution, conflicts=1, size=1, processes=True) as team:
        team.ask(0, "open", [blank], clues + [blank])
        team.ask(0, "settled", [blank], clues + [blank], conflicts=0)  # 0: no limit
        assert [team.answer()[1:3] for _ in range(2)] == [("open", None), ("settled", False)]


@pytest.mark.parametrize("shape, symmetry", [("3x3", "none"), ("3x3", "rotate180"), ("2x3", "mirror"),
                                             ("4x4", "none")])
def test_settle_by_sat_minimises_from_the_full_grid(shape: str, symmetry: str) -> None:
    """The SAT finish alone, from a full grid: unique, symmetric, and every orbit needed (by the engine)."""
    plan = make_plan(shape, "unique", symmetry, node_limit=0)
    solution = complete_grid(shape, seed=9)
    values = np.array(solution.values, dtype=np.uint8)
    puzzle = values.copy()
    stats = np.zeros(4, dtype=np.int64)
    fractions: list[float] = []
    settle(plan, 9, puzzle, values, stats, fractions.append)
    grid = Grid([int(v) for v in puzzle], shape=solution.shape)
    assert stats[2] == 0
    assert count_solutions(grid, 2) == 1
    assert solution.is_solution_of(grid)
    assert is_symmetric(grid, symmetry)
    assert fractions and fractions[-1] == pytest.approx(1.0)
    for cell in grid.givens:
        orbit_blank = grid
        for other in grid.givens:
            if _same_orbit(grid, symmetry, cell, other):
                orbit_blank = orbit_blank.with_cell(other, 0)
        assert count_solutions(orbit_blank, 2) == 2, cell


@pytest.mark.parametrize("shape, symmetry, seed", [("3x3", "none", 1), ("3x3", "rotate180", 2), ("4x4", "none", 3)])
def test_settle_by_sat_in_worker_processes_makes_the_same_puzzle(shape: str, symmetry: str, seed: int) -> None:
    """Two solvers in worker processes, asking ahead in pass 2, remove the same clues as in-process."""
    plan = make_plan(shape, "unique", symmetry, node_limit=0)
    values = np.array(complete_grid(shape, seed=seed).values, dtype=np.uint8)
    made = []
    for parallel in (False, True):
        puzzle, stats = values.copy(), np.zeros(4, dtype=np.int64)
        settle(plan, seed, puzzle, values, stats, parallel=parallel)
        made.append(puzzle)
    assert (made[0] != values).sum() > values.size // 2  # it did minimise
    assert np.array_equal(made[0], made[1])


def test_team_members_answer_like_a_lone_prover() -> None:
    """Each member of a team, in processes or not, answers as one prover asked the same questions."""
    p = generate(shape="3x3", seed=21)
    givens = list(p.puzzle.givens)
    extra = [c for c in range(81) if c not in p.puzzle.givens][:6]
    questions = [([c], givens + extra) for c in givens[:6] + extra]
    with UniquenessProver(p.solution) as prover:
        truth = [prover.needed(cells, clues) for cells, clues in questions]
    assert True in truth and False in truth
    for processes in (False, True):
        with ProverTeam(p.solution, size=2, processes=processes) as team:
            for i, (cells, clues) in enumerate(questions):
                team.ask(i % 2, i, cells, clues)
            got = {}
            for _ in questions:
                _, i, answer, _ = team.answer()
                got[i] = answer
                if answer:  # the second solution keeps the other clues and changes the blanked one
                    witness = Grid(team.witness, shape=p.solution.shape)
                    cells, clues = questions[i]
                    assert witness.is_solved and witness.values[cells[0]] != p.solution.values[cells[0]]
                    assert all(witness.values[c] == p.solution.values[c] for c in clues if c not in cells)
        assert [got[i] for i in range(len(questions))] == truth


def test_prefer_checks_the_grid() -> None:
    solution = complete_grid("2x2", seed=3)
    with UniquenessProver(solution) as prover:
        prover.prefer(solution.values)
        with pytest.raises(ValueError, match="16 values from 1 to 4"):
            prover.prefer([0] * 16)
        with pytest.raises(ValueError, match="16 values from 1 to 4"):
            prover.prefer(solution.values[:15])


def test_team_refuses_bad_questions_and_reports_a_dead_worker() -> None:
    solution = complete_grid("2x2", seed=1)
    with pytest.raises(InvalidPuzzle):
        ProverTeam(Grid("1234341221434320"), processes=False)
    with ProverTeam(solution, processes=True) as team:
        with pytest.raises(IndexError, match="cell 16 is not on a grid of 16 cells"):
            team.ask(0, "x", [16], range(16))
        with pytest.raises(IndexError, match="member 2 is not in a team of 2"):
            team.ask(2, "x", [0], range(16))
        with pytest.raises(RuntimeError, match="no question is waiting"):
            team.answer()
        team._workers[1].kill()
        team._workers[1].wait()
        with pytest.raises(RuntimeError, match="SAT worker 1 stopped"):
            team.ask(1, "y", [0], range(16))
            team.answer()


def _same_orbit(grid: Grid, symmetry: str, a: int, b: int) -> bool:
    n = grid.size
    (r, c), m = divmod(a, n), n - 1
    images = {"none": {(r, c)}, "rotate180": {(r, c), (m - r, m - c)}, "mirror": {(r, c), (r, m - c)}}
    return divmod(b, n) in images[symmetry]


@pytest.mark.parametrize("shape, seed", [("2x9", 2), ("1x17", 1)])
def test_17x17_to_24x24_puzzles_are_proven_minimal(shape: str, seed: int) -> None:
    """From 17x17 up the SAT solvers finish: nothing undecided, unique by the engine's count,
    and every clue needed, checked by a fresh prover that learnt nothing while the puzzle was made."""
    p = generate(shape=shape, seed=seed)
    cells = p.solution.shape.cell_count
    assert p.undecided == 0
    assert p.solution.is_solution_of(p.puzzle) and count_solutions(p.puzzle, 2) == 1
    givens = list(p.puzzle.givens)
    with UniquenessProver(p.solution) as prover:
        assert prover.needed([c for c in range(cells) if c not in set(givens)], givens) is False
        assert all(prover.needed([cell], givens) is True for cell in givens)


@pytest.mark.slow
def test_25x25_puzzle_is_proven_minimal() -> None:
    """A 25x25 puzzle (about 30 s): unique, nothing undecided, and a sample of its clues
    each needed, checked by a fresh prover that learnt nothing while the puzzle was made."""
    p = generate(shape="5x5", seed=2)
    assert p.undecided == 0
    assert p.solution.is_solution_of(p.puzzle)
    givens = list(p.puzzle.givens)
    blanks = [c for c in range(625) if c not in set(givens)]
    with UniquenessProver(p.solution) as prover:
        assert prover.needed(blanks, givens) is False  # no other solution differs anywhere
        for cell in random.Random(2).sample(givens, 20):
            assert prover.needed([cell], givens) is True, cell


def _minimiser_for(shape: str, seed: int) -> tuple[Grid, np.ndarray, list[np.ndarray], list[int]]:
    solution = complete_grid(shape, seed=seed)
    cells = solution.shape.cell_count
    orbits = [np.array([c]) for c in range(cells)]
    order = list(np.random.default_rng(seed).permutation(cells))
    return solution, np.array(solution.values, dtype=np.uint8), orbits, order


@pytest.mark.parametrize("shape, seed", [("3x3", 4), ("4x4", 5)])
def test_minimiser_steps_keep_their_promises(shape: str, seed: int) -> None:
    """After each step the puzzle is unique; a candidate dropped from the list was removed or is
    needed; the first look's needed clues are needed; the last pass leaves a minimal puzzle."""
    from sudokit.generation.sat_finish import Minimiser

    solution, puzzle, orbits, order = _minimiser_for(shape, seed)
    shape_ = solution.shape

    def grid() -> Grid:
        return Grid([int(v) for v in puzzle], shape=shape_)

    def needed(g: Grid, cell: int) -> bool:
        return count_solutions(g.with_cell(cell, 0), 2) == 2

    fractions: list[float] = []
    with ProverTeam(solution, conflicts=0, size=2, processes=False) as team:
        m = Minimiser(team, puzzle, orbits, 0, fractions.append)
        m.first_look(order)
        first = set(m.candidates)
        assert all(needed(grid(), c) for c in range(puzzle.size) if c not in first)
        assert not any(needed(grid(), c) for c in first if m.score[c][0] <= m.probe)
        m.probing_rounds()
        g = grid()
        assert count_solutions(g, 2) == 1
        removed = {c for c in first if puzzle[c] == 0}
        assert removed, "the rounds removed nothing"
        assert all(needed(g, c) for c in first - removed - set(m.candidates))
        m.last_pass()
    g = grid()
    assert count_solutions(g, 2) == 1 and solution.is_solution_of(g)
    assert all(needed(g, c) for c in g.givens)
    assert m.undecided == 0 and not m.candidates
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)


def test_minimiser_chooses_the_clue_most_nearly_implied() -> None:
    """The rounds begin by removing the fresh candidate with the fewest conflicts (first-look rank
    breaking ties); in-process and worker-process teams give the same scores and the same puzzle."""
    from sudokit.generation import sat_finish

    solution, puzzle, orbits, order = _minimiser_for("4x4", 8)
    removed: list[int] = []
    with ProverTeam(solution, conflicts=0, size=2, processes=False) as team:
        m = sat_finish.Minimiser(team, puzzle, orbits, 0)
        m.first_look(order)
        fresh = [o for o in m.candidates if m.score[o][0] <= m.probe]
        best = min(fresh, key=m.score.__getitem__)
        before = puzzle.copy()
        m.probing_rounds()
        removed = [c for c in range(puzzle.size) if before[c] and not puzzle[c]]
    assert best in removed
    # the scores are every member's own conflict counts: two in-process members or two workers agree
    again = _minimiser_for("4x4", 8)[1]
    with ProverTeam(solution, conflicts=0, size=2, processes=True) as team:
        m2 = sat_finish.Minimiser(team, again, orbits, 0)
        m2.first_look(order)
        m2.probing_rounds()
    assert np.array_equal(again, puzzle)
    assert m2.score == m.score
