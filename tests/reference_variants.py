"""An independent reference for the variant tests: units from their definitions, and a small solver.

Nothing here comes from sudokit. The units are written from the rules as
published (rows, columns, boxes; the two diagonals of X; the windows of
windoku, 1-based rows 2-4 and 6-8 by columns 2-4 and 6-8), and :func:`count`
is a plain backtracking search over any list of units and killer cages
(all different in each unit and cage, a cage's digits adding up to its
total). It counts solutions up to a limit and keeps the first one. It is
slow and simple on purpose: it is the truth the fast code is checked
against, not a rival to it.
"""

from __future__ import annotations

from typing import Sequence

#: A killer cage here: its cells and its total (``None``: the digits only differ).
Cage = tuple[Sequence[int], "int | None"]


def rows(n: int) -> list[list[int]]:
    return [[r * n + c for c in range(n)] for r in range(n)]


def columns(n: int) -> list[list[int]]:
    return [[r * n + c for r in range(n)] for c in range(n)]


def boxes(box_rows: int, box_cols: int) -> list[list[int]]:
    n = box_rows * box_cols
    out = []
    for top in range(0, n, box_rows):
        for left in range(0, n, box_cols):
            out.append([(top + r) * n + left + c for r in range(box_rows) for c in range(box_cols)])
    return out


def diagonals(n: int) -> list[list[int]]:
    """The main diagonal r1c1..rNcN and the anti-diagonal r1cN..rNc1."""
    return [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]


def windows() -> list[list[int]]:
    """The four windoku windows (1-based rows 2-4, 6-8 by columns 2-4, 6-8)."""
    bands = [range(1, 4), range(5, 8)]
    return [[r * 9 + c for r in rb for c in cb] for rb in bands for cb in bands]


def window_groups() -> list[list[int]]:
    """All nine 3x3 groups made of a row group and a column group, where the groups are
    {2,3,4}, {6,7,8} and {1,5,9} (1-based): the four windows and the five they force."""
    groups = [(1, 2, 3), (5, 6, 7), (0, 4, 8)]
    return [[r * 9 + c for r in rg for c in cg] for rg in groups for cg in groups]


def regions_of(layout: str) -> list[list[int]]:
    """The cells of each distinct character of a layout string, in order of first appearance."""
    out: dict[str, list[int]] = {}
    for cell, ch in enumerate(layout):
        out.setdefault(ch, []).append(cell)
    return list(out.values())


def obeys(values: Sequence[int], n: int, units: Sequence[Sequence[int]], cages: Sequence[Cage] = ()) -> bool:
    """Whether a full grid has 1..N in every cell, no repeat in a unit or cage, and every cage's total."""
    if len(values) != n * n or any(not 1 <= v <= n for v in values):
        return False
    for unit in units:
        if len({values[c] for c in unit}) != len(unit):
            return False
    for cells, total in cages:
        digits = [values[c] for c in cells]
        if len(set(digits)) != len(digits) or (total is not None and sum(digits) != total):
            return False
    return True


def count(
    n: int,
    units: Sequence[Sequence[int]],
    givens: Sequence[int],
    cages: Sequence[Cage] = (),
    limit: int = 2,
) -> tuple[int, list[int] | None]:
    """(number of solutions up to ``limit``, the first solution or ``None``).

    Givens are N² values, 0 for a blank; givens that clash, or cages that
    cannot reach their totals, count as no solution.
    """
    found = solutions(n, units, givens, cages, limit)
    return len(found), (found[0] if found else None)


def solutions(
    n: int,
    units: Sequence[Sequence[int]],
    givens: Sequence[int],
    cages: Sequence[Cage] = (),
    limit: int = 2,
) -> list[list[int]]:
    """The first ``limit`` solutions, in the search's order."""
    cells = n * n
    peers: list[set[int]] = [set() for _ in range(cells)]
    for group in [list(u) for u in units] + [list(c) for c, _ in cages]:
        for a in group:
            peers[a].update(b for b in group if b != a)
    cage_of = [-1] * cells
    for i, (group, _) in enumerate(cages):
        for c in group:
            cage_of[c] = i
    grid = list(givens)
    for c in range(cells):
        if grid[c] and any(grid[p] == grid[c] for p in peers[c]):
            return []
    for group, total in cages:
        if total is not None and not _cage_possible(n, [grid[c] for c in group], total):
            return []
    found: list[list[int]] = []

    def allowed(cell: int) -> list[int]:
        taken = {grid[p] for p in peers[cell]}
        values = [v for v in range(1, n + 1) if v not in taken]
        i = cage_of[cell]
        if i >= 0 and cages[i][1] is not None:
            group, total = cages[i]
            keep = []
            for v in values:
                grid[cell] = v
                if _cage_possible(n, [grid[c] for c in group], total):
                    keep.append(v)
                grid[cell] = 0
            values = keep
        return values

    def search() -> None:
        best, best_values = -1, None
        for cell in range(cells):
            if grid[cell] == 0:
                values = allowed(cell)
                if best_values is None or len(values) < len(best_values):
                    best, best_values = cell, values
                    if len(values) <= 1:
                        break
        if best < 0:
            found.append(list(grid))
            return
        for v in best_values:
            grid[best] = v
            search()
            grid[best] = 0
            if len(found) >= limit:
                return

    search()
    return found


def _cage_possible(n: int, values: list[int], total: int) -> bool:
    """Whether a cage's filled values (0 = blank) can still reach ``total`` with different digits."""
    placed = [v for v in values if v]
    free = len(values) - len(placed)
    rest = total - sum(placed)
    if free == 0:
        return rest == 0
    unused = sorted(set(range(1, n + 1)) - set(placed))
    if free > len(unused):
        return False
    return sum(unused[:free]) <= rest <= sum(unused[len(unused) - free:])


def layout_ok(layout: str, n: int) -> bool:
    """Whether a layout string is N² characters making N regions of N orthogonally connected cells."""
    if len(layout) != n * n:
        return False
    regions = regions_of(layout)
    if len(regions) != n or any(len(r) != n for r in regions):
        return False
    for region in regions:
        inside, seen, todo = set(region), {region[0]}, [region[0]]
        while todo:
            cell = todo.pop()
            r, c = divmod(cell, n)
            for nb in (cell - n if r else -1, cell + n if r < n - 1 else -1, cell - 1 if c else -1, cell + 1 if c < n - 1 else -1):
                if nb in inside and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        if seen != inside:
            return False
    return True
