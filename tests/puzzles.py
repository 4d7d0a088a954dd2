"""Puzzles made for the tests: random small puzzles and the multisize cases.

Shared by the method tests; everything here builds on tests/reference.py,
never on sudokit's own solvers.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from sudokit import Grid, Status, count, example, solutions, solve

from reference import obeys_rules, reference_count

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
