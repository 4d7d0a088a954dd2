"""An independent reference solver for the tests.

It shares no code with sudokit: its own geometry, its own search (plain
backtracking over candidate sets, fewest candidates first). It is slow but
short enough to check by eye, which is the point.
"""

from __future__ import annotations


def units(box_rows: int, box_cols: int) -> list[list[int]]:
    n = box_rows * box_cols
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [(br + r) * n + bc + c for r in range(box_rows) for c in range(box_cols)]
        for br in range(0, n, box_rows)
        for bc in range(0, n, box_cols)
    ]
    return rows + cols + boxes


def reference_count(values: list[int], box_rows: int, box_cols: int, limit: int = 2) -> tuple[int, list[int] | None]:
    """(number of solutions up to ``limit``, first solution or None)."""
    n = box_rows * box_cols
    all_units = units(box_rows, box_cols)
    peers = [set() for _ in range(n * n)]
    for unit in all_units:
        for cell in unit:
            peers[cell].update(unit)
    for cell in range(n * n):
        peers[cell].discard(cell)
    grid = list(values)
    for cell, v in enumerate(grid):  # clashing givens: no solution
        if v and any(grid[p] == v for p in peers[cell]):
            return 0, None
    found: list[list[int]] = []
    count = 0

    def search() -> bool:
        nonlocal count
        best, best_options = -1, None
        for cell in range(n * n):
            if grid[cell] == 0:
                options = set(range(1, n + 1)) - {grid[p] for p in peers[cell]}
                if best_options is None or len(options) < len(best_options):
                    best, best_options = cell, options
                    if not options:
                        return False
        if best_options is None:
            count += 1
            if not found:
                found.append(list(grid))
            return count >= limit
        for v in sorted(best_options):
            grid[best] = v
            if search():
                grid[best] = 0
                return True
        grid[best] = 0
        return False

    search()
    return count, (found[0] if found else None)


def obeys_rules(solution: list[int] | tuple[int, ...], puzzle: list[int] | tuple[int, ...], box_rows: int, box_cols: int) -> bool:
    """Complete, every unit a permutation of 1..N, and every given kept."""
    n = box_rows * box_cols
    if len(solution) != n * n or any(p and p != s for p, s in zip(puzzle, solution)):
        return False
    return all(sorted(solution[c] for c in unit) == list(range(1, n + 1)) for unit in units(box_rows, box_cols))
