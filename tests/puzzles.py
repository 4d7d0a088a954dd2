"""Puzzles made for the tests, and the checks the method tests share: random
small puzzles, the multisize cases, stated counts.

Shared by the method tests; the truth here builds on tests/reference.py and
the ground-truth cases, never on sudokit's own solvers.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from sudokit import Grid, Status, count, example, solutions, solve

from reference import obeys_rules, reference_count

#: A shape of each kind up to 25x25, oblong both ways: the formats and SVG tests take every one.
SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 3), (4, 4), (5, 5)]

#: Shapes small enough for the reference solver to refute quickly.
SMALL_SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 4)]


@st.composite
def small_puzzles(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """A reference solution of a random small shape with cells removed, sometimes
    with a wrong value added (clashing or merely unsatisfiable)."""
    box_rows, box_cols = draw(st.sampled_from(SMALL_SHAPES))
    n = box_rows * box_cols
    seed = [0] * (n * n)
    for cell in draw(st.lists(st.integers(0, n * n - 1), max_size=n, unique=True)):
        seed[cell] = draw(st.integers(1, n))
    _, full = reference_count(seed, box_rows, box_cols, limit=1)
    if full is None:
        _, full = reference_count([0] * (n * n), box_rows, box_cols, limit=1)
    # refuting an unsatisfiable puzzle can take exponential time, in the reference
    # too, so the larger shapes keep at least 60% of their cells
    most = n * n if n < 8 else n * n * 2 // 5
    removed = draw(st.lists(st.integers(0, n * n - 1), max_size=most, unique=True))
    puzzle = [0 if cell in removed else v for cell, v in enumerate(full)]
    if draw(st.booleans()):
        cell = draw(st.integers(0, n * n - 1))
        puzzle[cell] = draw(st.integers(1, n))
    return puzzle, box_rows, box_cols


def random_puzzle(shape: tuple[int, int], seed: int) -> list[int]:
    """Givens from a random full grid (the reference's first grid, relabelled
    and shuffled by rows within bands, bands, columns within stacks and
    stacks), then a few random values anywhere, clashing or not."""
    rng = random.Random(seed)
    br, bc = shape
    n = br * bc
    _, base = reference_count([0] * (n * n), br, bc, limit=1)
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)
    bands = rng.sample(range(n // br), n // br)
    rows = [b * br + r for b in bands for r in rng.sample(range(br), br)]
    stacks = rng.sample(range(n // bc), n // bc)
    cols = [s * bc + c for s in stacks for c in rng.sample(range(bc), bc)]
    full = [relabel[base[rows[r] * n + cols[c]] - 1] for r in range(n) for c in range(n)]
    assert obeys_rules(full, [0] * (n * n), br, bc)
    keep = rng.uniform(0.15, 0.7)
    values = [v if rng.random() < keep else 0 for v in full]
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        values[rng.randrange(n * n)] = rng.randint(1, n)
    return values


def multisize_grid(case: dict, field: str = "puzzle") -> Grid:
    """A multisize.json entry as a Grid, read with its own alphabet."""
    symbols = case["symbols"]
    values = [0 if ch == "." else symbols.index(ch) + 1 for ch in case[field]]
    return Grid(values, shape=(case["box_rows"], case["box_cols"]))


def check_named_example(name: str, method: str, timeout: float = 60) -> None:
    """Solve a named example with ``method`` and check the result against the
    rules and, for every example but the blank grid, the reference solution."""
    grid = example(name)
    result = solve(grid, method=method, timeout=timeout)
    if grid.conflicts():
        assert result.status is Status.INVALID
        return
    assert result.status is Status.SOLVED
    assert obeys_rules(result.solution.values, grid.values, 3, 3)
    if name != "blank":
        _, truth = reference_count(list(grid.values), 3, 3)
        assert list(result.solution.values) == truth


def check_against_reference(case: tuple[list[int], int, int], method: str) -> None:
    """Count a small puzzle's solutions (up to 3) with ``method`` and list them:
    both must agree with the reference solver, and every solution obeys the rules."""
    values, box_rows, box_cols = case
    grid = Grid(values, (box_rows, box_cols))
    expected, _ = reference_count(values, box_rows, box_cols, limit=3)
    result = count(grid, 3, method=method)
    assert (result.count or 0) == expected
    if not grid.conflicts():
        found = []
        for solution in solutions(grid, method=method):
            assert obeys_rules(solution.values, values, box_rows, box_cols)
            found.append(solution)
            if len(found) == 3:
                break
        assert len(set(found)) == len(found) == expected


def agrees(partial: Grid, solution: list[int] | tuple[int, ...]) -> bool:
    """Every filled cell of ``partial`` holds the solution's value."""
    return all(v == 0 or v == s for v, s in zip(partial.values, solution))


def clues(puzzle: str) -> int:
    """The number of givens of a puzzle line."""
    return sum(ch not in ".0" for ch in puzzle)


def count_limit(stated: str, cap: int = 1000) -> int:
    """How far to count a puzzle whose stated count (counts.tsv) is ``stated``:
    one past it, so that a method counting too many shows it, up to ``cap``."""
    return 2 if stated == ">1" else min(int(stated) + 1, cap)


def check_count(row: dict[str, str], method: str, limit: int | None = None, timeout: float | None = None) -> None:
    """Count a counts.tsv row with ``method`` up to ``limit`` (by default
    :func:`count_limit`): the count is the stated one (up to the limit), a unique
    puzzle's solution is the stated one, and a solution found obeys the rules."""
    stated = row["count"]
    limit = count_limit(stated) if limit is None else limit
    result = count(row["puzzle"], limit, method=method, timeout=timeout)
    assert result.status is not Status.TIMEOUT
    if stated == "0":
        assert result.count == 0 and result.status in (Status.NO_SOLUTION, Status.INVALID)
    elif stated == ">1":
        assert result.count == 2
    else:
        assert result.count == min(int(stated), limit)
    if stated == "1":
        assert result.solution.line() == row["solution"]
    if result.count:
        assert obeys_rules(result.solution.values, Grid(row["puzzle"]).values, 3, 3)


def check_multisize_solution(case: dict, method: str, timeout: float = 120) -> None:
    """A uniquely solvable multisize entry: ``method`` counts one solution, the stated one."""
    truth = tuple(case["symbols"].index(ch) + 1 for ch in case["solution"])
    result = count(multisize_grid(case), 2, method=method, timeout=timeout)
    assert result.count == 1
    assert result.solution.values == truth


def ref_count(grid: Grid, limit: int = 2) -> int:
    """The reference solver's count of a grid's solutions, up to ``limit``."""
    return reference_count(list(grid.values), grid.shape.box_rows, grid.shape.box_cols, limit)[0]


# -- a player's grids: givens, a wrong entry, wrong pencil marks ----------------------------------

#: A puzzle with one solution, as set.
PLAYED_GIVENS = ".9.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7."
#: The same grid after a player wrote a wrong 4 in r1c1 (it clashes with nothing): it has no solution.
PLAYED_WRONG = "4" + PLAYED_GIVENS[1:]
#: An ER 11.9 puzzle: its chain searches outlast a short time budget.
HARD_PUZZLE = "........1.....2.34.35.......62......7.3.25..885...67...7853....32..68...5.62.7.8."


def reference_solution(puzzle: str) -> list[int]:
    """The one solution of a 9x9 line, by the reference solver (asserts it is the only one)."""
    found, solution = reference_count([0 if ch == "." else int(ch) for ch in puzzle], 3, 3)
    assert found == 1 and solution is not None
    return solution


def with_marks(puzzle: str, marks: dict[int, str]) -> str:
    """``puzzle`` in the candidates format with every blank cell's candidates
    from its peers, except the cells of ``marks`` (cell: the symbols marked).
    Written here, not by sudokit's writer: one cell a token, ``.`` then the
    symbols for a cell with fewer than two."""
    from reference import units as reference_units

    all_units = reference_units(3, 3)
    tokens = []
    for cell, ch in enumerate(puzzle):
        if ch != ".":
            tokens.append(ch)
            continue
        seen = {puzzle[c] for unit in all_units if cell in unit for c in unit}
        text = marks.get(cell, "".join(d for d in "123456789" if d not in seen))
        tokens.append(text if len(text) > 1 else "." + text)
    return "\n".join(" ".join(tokens[r * 9:(r + 1) * 9]) for r in range(9)) + "\n"
