"""Search trees: depth-first and breadth-first over (grid, open constraints).

A node of the tree is a partly filled grid together with the constraints it
has not met yet. A *constraint* is one of

* an open **cell**, which must take one of its candidate values, or
* a **unit and a value** missing from it: the value must go in one of the
  unit's cells that still allow it.

The open constraints are sorted by how many candidates they have, fewest
first. A constraint with no candidates means the node is dead; a node with
no open constraints is a solution. The children of a node branch on its
first constraint: one child per candidate value of the cell, or one child
per candidate cell of the unit's value. Either way the children split the
solutions below the node without overlap, so every solution is found once.

Depth-first search keeps the nodes on a stack and is lazy: it yields each
solution as soon as it reaches it. Breadth-first search keeps them in a
queue and visits the tree level by level; its frontier can grow very large,
so it is bounded (``frontier``, default :data:`FRONTIER_LIMIT`) and
LimitReached says so when the bound is hit. To keep each queued node small,
the frontier holds only the grid (as bytes); a node's constraints are worked
out when it is expanded.

>>> from sudokit.budget import Budget
>>> from sudokit.grid import Grid
>>> puzzle = Grid("1.3.....2....3.1", shape=(2, 2))
>>> [g.line() for g in solutions(puzzle, Budget(), order="depth")]
['1234341221434321', '1432321421434321']
>>> sorted(g.line() for g in solutions(puzzle, Budget(), order="breadth"))
['1234341221434321', '1432321421434321']
>>> [c.candidates for c in open_constraints(puzzle)][:3]
[1, 1, 1]
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterator, Literal

from ..budget import Budget
from ..errors import LimitReached
from ..geometry import Geometry
from ..grid import Grid, Shape

#: The most nodes breadth-first search may hold in its queue at once.
FRONTIER_LIMIT = 1_000_000

Order = Literal["depth", "breadth"]


@dataclass(frozen=True)
class Constraint:
    """An open cell (``unit`` is None) or a value missing from a unit.

    ``options`` are the candidate values of the cell, or the candidate
    cells of the unit for the value.
    """

    candidates: int
    cell: int | None
    unit: int | None
    value: int | None
    options: tuple[int, ...]

    def children(self, values: bytes) -> Iterator[bytes]:
        """One grid per option, with that option placed."""
        for option in self.options:
            cell, value = (self.cell, option) if self.unit is None else (option, self.value)
            child = bytearray(values)
            child[cell] = value  # type: ignore[index]
            yield bytes(child)


def _candidate_masks(values: bytes, shape: "Shape | Geometry") -> list[int]:
    """Per open cell, a bit mask of the values no peer holds (bit v-1 for v); 0 when filled."""
    full = (1 << shape.size) - 1
    masks = []
    for cell, peers in enumerate(shape.peers):
        if values[cell]:
            masks.append(0)
            continue
        mask = full
        for p in peers:
            if values[p]:
                mask &= ~(1 << (values[p] - 1))
        masks.append(mask)
    return masks


def _constraints(values: bytes, shape: "Shape | Geometry") -> list[Constraint]:
    n = shape.size
    masks = _candidate_masks(values, shape)
    found = []
    for cell, mask in enumerate(masks):
        if not values[cell]:
            options = tuple(v + 1 for v in range(n) if mask >> v & 1)
            found.append(Constraint(len(options), cell, None, None, options))
    for index, unit in enumerate(shape.units):
        placed = {values[cell] for cell in unit}
        for value in range(1, n + 1):
            if value in placed:
                continue
            bit = 1 << (value - 1)
            cells = tuple(cell for cell in unit if masks[cell] & bit)
            found.append(Constraint(len(cells), None, index, value, cells))
    found.sort(key=lambda c: c.candidates)  # stable: cells before units on ties
    return found


def _first_constraint(values: bytes, shape: "Shape | Geometry") -> Constraint | None:
    """``_constraints(values, shape)[0]`` (None when there are none), without
    building and sorting the whole list: the search only needs the first."""
    n = shape.size
    masks = _candidate_masks(values, shape)
    best: tuple[int, int, int, int] | None = None  # (candidates, cell or -1, unit, value)
    for cell, mask in enumerate(masks):
        if not values[cell] and (best is None or mask.bit_count() < best[0]):
            best = (mask.bit_count(), cell, -1, 0)
            if best[0] == 0:
                break
    if best is None:
        return None  # no open cell: solved
    if best[0] > 0:
        for index, unit in enumerate(shape.units):
            placed = {values[cell] for cell in unit}
            for value in range(1, n + 1):
                if value not in placed:
                    bit = 1 << (value - 1)
                    found = sum(1 for cell in unit if masks[cell] & bit)
                    if found < best[0]:
                        best = (found, -1, index, value)
                        if found == 0:
                            break
            if best[0] == 0:
                break
    candidates, cell, unit, value = best
    if unit < 0:
        options = tuple(v + 1 for v in range(n) if masks[cell] >> v & 1)
        return Constraint(candidates, cell, None, None, options)
    bit = 1 << (value - 1)
    cells = tuple(c for c in shape.units[unit] if masks[c] & bit)
    return Constraint(candidates, None, unit, value, cells)


def open_constraints(grid: Grid) -> list[Constraint]:
    """The constraints ``grid`` has not met, fewest candidates first."""
    return _constraints(bytes(grid.values), grid.geometry)


def _expand(values: bytes, shape: "Shape | Geometry", budget: Budget) -> tuple[bool, list[bytes]]:
    """(is this node a solution, its children)."""
    budget.tick()
    first = _first_constraint(values, shape)
    if first is None:
        return True, []
    if first.candidates > 1:
        budget.guess()
    return False, list(first.children(values))  # no children when first.candidates == 0


def depth_first(grid: Grid, budget: Budget) -> Iterator[Grid]:
    """Every solution, lazily, by a stack of nodes."""
    shape = grid.geometry  # the units, a variant's included
    stack = [bytes(grid.values)]
    while stack:
        values = stack.pop()
        solved, children = _expand(values, shape, budget)
        if solved:
            yield grid.like(tuple(values))
        stack.extend(reversed(children))  # the first child is expanded first


def breadth_first(grid: Grid, budget: Budget, frontier: int = FRONTIER_LIMIT) -> Iterator[Grid]:
    """Every solution, level by level, by a queue of at most ``frontier`` nodes."""
    shape = grid.geometry  # the units, a variant's included
    queue = deque([bytes(grid.values)])
    while queue:
        values = queue.popleft()
        solved, children = _expand(values, shape, budget)
        if solved:
            yield grid.like(tuple(values))
        queue.extend(children)
        if len(queue) > frontier:
            raise LimitReached(
                f"breadth-first frontier limit of {frontier:,} nodes reached "
                f"({budget.nodes_used:,} nodes expanded); use depth-first search (dfs) instead"
            )


def _check(grid: Grid) -> bool:
    """True when the givens are consistent (the search assumes they are)."""
    return not grid.conflicts()


def solutions(
    grid: Grid, budget: Budget, order: Order = "depth", frontier: int | None = None
) -> Iterator[Grid]:
    """Every solution, depth-first (lazy) or breadth-first (bounded frontier)."""
    if not _check(grid):
        return
    if order == "depth":
        yield from depth_first(grid, budget)
    elif order == "breadth":
        yield from breadth_first(grid, budget, FRONTIER_LIMIT if frontier is None else frontier)
    else:
        raise ValueError(f"order must be 'depth' or 'breadth', not {order!r}")
