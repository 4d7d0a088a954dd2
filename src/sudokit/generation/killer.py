"""Killer puzzles: cages cut from a random solution, one solution; no givens, or ``givens`` cells
of the solution given.

A killer is made from its seed in four steps:

1. **A random complete grid** under the geometry's units (X, hyper, jigsaw
   combine with killer), by the same compiled fill as every other puzzle
   (:func:`sudokit.engine.generate.random_grid`, seeded from the seed).
2. **Cages.** The cells are visited in a random order; each cell not yet in a
   cage starts one, with a size drawn from ``sizes`` (2 to 4 by default, :data:`SIZES`), and
   the cage grows into random orthogonal neighbours that are in no cage and
   whose digit in the solution is not in the cage yet (a cage's digits
   differ). A cell left alone, with no free neighbour, joins a neighbouring
   cage that lacks its digit and has room (``sizes``' top + 1 at most), else
   stays a cage of one cell. Each cage's total is its digits' sum in the
   solution. Every cell is in a cage.
3. **One solution.** The killer search (:mod:`sudokit.engine.killer`) counts
   up to two. When it finds another solution, the cages change where the two
   disagree: a cell where they differ, in a cage with another such cell
   (leaving a cage of three cells or more when it can), moves into a
   neighbouring cage that lacks its digit and has room, preferably one where
   the two solutions agree (its new total then tells them apart); what it
   leaves falls into its connected pieces, and pieces of one cell join a
   neighbour. After :data:`MOVES` moves, such a cell becomes a cage of its
   own instead, which says strictly more, so this ends: at worst every cell is
   a cage of one cell, which is the solution itself. Last, each cage of one
   cell joins a neighbouring cage where the puzzle stays unique; a few stay
   alone, as in some published killers.
4. **Minimal in its cages** (on request, ``minimal="cages"``): neighbouring
   cages are merged while the puzzle stays unique. The pairs of orthogonally
   touching cages whose digits differ (and whose union has at most
   ``max_merged`` cells) are tried in a random order; a merge is kept when the
   puzzle with the two cages made one, with the sum of their totals, still has
   one solution; the passes repeat until no pair can merge. So a minimal
   killer is one where **no two neighbouring cages can be joined into one
   cage without losing uniqueness**. (Dropping a cage's total would be the
   other way to loosen a killer; sudokit's killers keep every total, as
   published killers do.)

**Givens** (``givens=K``, 0 by default). The K givens are cells of the
solution, and every cell stays in a cage. They are part of every count from
step 3 on, and they are spent where they buy something: in step 3 a second
solution is told apart by giving a cell where it differs (the cages stay as
drawn) before any cell moves; in step 4 a merge that is not unique buys one
given, on a cell where the other solution differs, and keeps it when the
merged killer is then unique (else the given is taken back). The givens left
over are then spread out: each next one in the fewest units with the givens
so far and with the least given digit, at random among the ties; with
``minimal="cages"`` the merges then go on, so the killer is minimal in its
cages *with* its givens. With a ``symmetry`` the givens are placed a whole
orbit at a time (:mod:`sudokit.generation.symmetry`), so the pattern is
symmetric with exactly K cells (K must be a sum of orbit sizes). The cages are
drawn before any given, from the same generator: a killer with givens starts
from the cages of the same seed's killer without. Measured on the seeds
1-20 of 9x9 (docs/variants.md): minimal in its cages, 19.0 cages without
givens, 16.7 with 4, 15.1 with 8; merely unique, 26.2 and 25.8 (the draw
sets the cages there, and the givens make the killer easier).

The same seed gives the same killer on every machine: the fill takes numba's
generator seeded from it, the cages and the givens Python's ``random.Random(seed)``.

>>> p = generate_killer(seed=3, shape="2x2")
>>> p.clues, p.solution.is_solution_of(p.puzzle), len(p.puzzle.geometry.cages) > 0
(0, True, True)
>>> generate_killer(seed=3, shape="2x2").puzzle == p.puzzle
True
>>> g = generate_killer(seed=3, shape="2x2", givens=2, symmetry="rotate180")
>>> g.clues, g.puzzle.clues, g.solution.is_solution_of(g.puzzle)
(2, 2, True)
"""

from __future__ import annotations

import random
import time
from typing import Callable, Iterable, Iterator, Sequence

from ..grid import Grid, Shape, shape_of
from ..killer import Cage
from .puzzle import GenerationError, GenerationTimeout, Puzzle

__all__ = ["generate_killer", "generate_killers", "draw_cages", "is_minimal", "check_givens", "MINIMAL"]

#: The ``minimal`` values a killer takes: ``unique`` (one solution), ``cages`` (also minimal in its cages).
MINIMAL = ("unique", "cages")

#: The cage sizes drawn by default, low and high: about 27 cages on a 9x9, as the published
#: killers of the tests have (25 to 31).
SIZES = (2, 4)

#: How many times a killer's cages change by moving a cell before cells are cut off alone.
MOVES = 12

#: Node budget of one count while making a killer (a count that runs out is taken as not unique).
COUNT_NODES = 200_000


def draw_cages(solution: Sequence[int], n: int, rng: random.Random, sizes: tuple[int, int] = SIZES) -> list[list[int]]:
    """Random connected cages covering the grid, sizes in ``sizes`` (low, high) where
    the cells allow, each cage's digits in ``solution`` different (see the module)."""
    low, high = sizes
    owner = [-1] * (n * n)
    cages: list[list[int]] = []
    order = list(range(n * n))
    rng.shuffle(order)
    for start in order:
        if owner[start] >= 0:
            continue
        target = rng.randint(low, high)
        cage, digits = [start], {solution[start]}
        owner[start] = len(cages)
        while len(cage) < target:
            free = [nb for c in cage for nb in _neighbours(c, n) if owner[nb] < 0 and solution[nb] not in digits]
            if not free:
                break
            nb = rng.choice(sorted(set(free)))
            owner[nb] = len(cages)
            cage.append(nb)
            digits.add(solution[nb])
        cages.append(cage)
    # a cell alone joins a neighbouring cage that lacks its digit and has room
    for i, cage in enumerate(cages):
        if len(cage) != 1 or low <= 1:
            continue
        cell = cage[0]
        options = sorted({owner[nb] for nb in _neighbours(cell, n)
                          if owner[nb] != i and len(cages[owner[nb]]) <= high
                          and solution[cell] not in {solution[c] for c in cages[owner[nb]]}})
        if options:
            j = rng.choice(options)
            cages[j].append(cell)
            owner[cell] = j
            cages[i] = []
    return [sorted(c) for c in cages if c]


def _orbit_sizes(groups: Iterable[tuple[int, ...]]) -> tuple[tuple[int, int], ...]:
    """(size, how many orbits have it), by size."""
    many: dict[int, int] = {}
    for o in groups:
        many[len(o)] = many.get(len(o), 0) + 1
    return tuple(sorted(many.items()))


def _reachable(k: int, sizes: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``k`` is a sum of orbit sizes, each (size, how many) used at most that often."""
    reach = {0}
    for size, many in sizes:
        reach = {r + size * j for r in reach for j in range(many + 1) if r + size * j <= k}
    return k in reach


def _neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    out = []
    if r > 0:
        out.append(cell - n)
    if r < n - 1:
        out.append(cell + n)
    if c > 0:
        out.append(cell - 1)
    if c < n - 1:
        out.append(cell + 1)
    return out


def _pieces(cells: Sequence[int], n: int) -> list[list[int]]:
    """The orthogonally connected pieces of ``cells``."""
    left, out = set(cells), []
    for start in sorted(cells):
        if start not in left:
            continue
        left.discard(start)
        piece, stack = [start], [start]
        while stack:
            for nb in _neighbours(stack.pop(), n):
                if nb in left:
                    left.discard(nb)
                    piece.append(nb)
                    stack.append(nb)
        out.append(sorted(piece))
    return out


class _Counter:
    """Counts up to two solutions of a grid's shape under the base geometry with given cages."""

    def __init__(self, base, node_limit: int) -> None:
        import numpy as np

        self.base = base
        self.node_limit = node_limit
        n = base.n
        #: The givens (0 where blank), part of every count.
        self.givens = np.zeros(n * n, dtype=np.uint8)
        self.first = np.zeros(n * n, dtype=np.uint8)
        self.second = np.zeros(n * n, dtype=np.uint8)
        self.stats = np.zeros(2, dtype=np.int64)
        self.counts = 0
        #: The solution the cages are cut from.
        self.target: tuple[int, ...] = ()

    def __call__(self, cages: list[Cage]) -> tuple[int, "tuple[int, ...] | None"]:
        """(solutions up to 2, -1 when the node budget ran out; the second solution when 2)."""
        from ..engine import killer as kernel

        self.counts += 1
        tables = kernel.build_tables(self.base.with_cages(cages))  # a new geometry each time: not cached
        found = kernel.two(self.givens, tables, self.node_limit, self.first, self.second, self.stats)
        if found == 2:  # the one of the two that is not the solution cut from (either may be)
            first, second = tuple(int(v) for v in self.first), tuple(int(v) for v in self.second)
            return 2, (second if first == self.target else first)
        return int(found), None


class _Givens:
    """The givens of a killer in the making, written into the grid its counts read
    (``count.givens``): ``left`` more to place, a whole orbit of ``symmetry`` at a time
    (one cell for ``none``), so that the pattern stays symmetric and ends with ``k`` cells."""

    def __init__(self, count: _Counter, solution: Sequence[int], shape: Shape, units_of: Sequence[Sequence[int]],
                 k: int, symmetry: str) -> None:
        from .symmetry import orbits

        self.grid, self.solution, self.units_of = count.givens, solution, units_of
        self.left = k
        self.free = set(orbits(shape, symmetry))
        self.orbit_of = {c: o for o in self.free for c in o}

    def _sizes(self) -> set[int]:
        """The orbit sizes that can be given now, the rest still making up exactly the count."""
        many = dict(_orbit_sizes(self.free))
        return {size for size in many if size <= self.left
                and _reachable(self.left - size, tuple(sorted({**many, size: many[size] - 1}.items())))}

    def _put(self, orbit: tuple[int, ...]) -> None:
        for c in orbit:
            self.grid[c] = self.solution[c]
        self.free.discard(orbit)
        self.left -= len(orbit)

    def give(self, cells: Sequence[int], rng: random.Random) -> "tuple[int, ...] | None":
        """Give the orbit of one of ``cells`` (cells where another solution differs), at
        random among those that fit; None when none does."""
        sizes = self._sizes()
        options = sorted({o for o in (self.orbit_of[c] for c in cells) if o in self.free and len(o) in sizes})
        if not options:
            return None
        orbit = rng.choice(options)
        self._put(orbit)
        return orbit

    def take_back(self, orbit: tuple[int, ...]) -> None:
        for c in orbit:
            self.grid[c] = 0
        self.free.add(orbit)
        self.left += len(orbit)

    def spread(self, rng: random.Random, orbits: int | None = None) -> None:
        """Give the rest (``orbits``: that many orbits at most) spread out: orbit by orbit, one
        (at random among them) whose cells share the fewest units with the givens so far and
        whose digits are given the fewest times."""
        unit_load: dict[int, int] = {}
        digit_load: dict[int, int] = {}

        def load(cell: int) -> None:
            for u in self.units_of[cell]:
                unit_load[u] = unit_load.get(u, 0) + 1
            digit_load[self.solution[cell]] = digit_load.get(self.solution[cell], 0) + 1

        for c in range(len(self.grid)):
            if self.grid[c]:
                load(c)
        while self.left and orbits != 0:
            orbits = None if orbits is None else orbits - 1
            sizes = self._sizes()
            scored = [(sum(sum(unit_load.get(u, 0) for u in self.units_of[c]) + digit_load.get(self.solution[c], 0)
                           for c in o) / len(o), o) for o in sorted(self.free) if len(o) in sizes]  # per cell
            best = min(score for score, _ in scored)
            orbit = rng.choice([o for score, o in scored if score == best])
            self._put(orbit)
            for c in orbit:
                load(c)


def _with_totals(groups: list[list[int]], solution: Sequence[int]) -> list[Cage]:
    return [Cage(tuple(g), sum(solution[c] for c in g)) for g in groups]


def _make_unique(groups: list[list[int]], solution: Sequence[int], n: int, rng: random.Random,
                 count: _Counter, high: int, deadline: float | None,
                 givens: "_Givens | None" = None) -> list[list[int]]:
    """Change the cages where another solution disagrees, until the count is one: while
    ``givens`` are left, by giving a cell that differs; then by moving a cell that differs
    into a neighbouring cage (:data:`MOVES` times at most), then by making such a cell a cage
    of its own."""
    moves = 0
    while True:
        found, other = count(_with_totals(groups, solution))
        if found == 1:
            return groups
        if deadline is not None and time.perf_counter() > deadline:
            raise GenerationTimeout("the time limit ran out while making a killer unique")
        if found == 0:  # cannot be: the solution obeys every cage
            raise GenerationError("internal error: a killer cut from its solution has no solution")
        if givens is not None and givens.left:  # a given tells the two apart; the cages stay as drawn
            if other is None:  # the count ran out of nodes: a given spread out helps the next
                givens.spread(rng, 1)
                continue
            if givens.give([c for c in range(n * n) if other[c] != solution[c]], rng) is not None:
                continue
        owner = {c: i for i, g in enumerate(groups) for c in g}
        if other is None:  # the count ran out of nodes: cut at random
            cells = [c for g in groups if len(g) > 1 for c in g]
        else:  # cells that differ, in a cage with another that differs (a cage with one tells them apart)
            cells = [c for c in range(n * n) if other[c] != solution[c] and len(groups[owner[c]]) > 1]
        if not cells:
            raise GenerationError("could not make the killer unique")
        roomy = [c for c in cells if len(groups[owner[c]]) > 2]  # leaving, they leave no cage of one cell
        cell = rng.choice(roomy or cells)
        i = owner[cell]
        rest = [c for c in groups[i] if c != cell]
        moves += 1
        differ = set(cells)
        homes = sorted({owner[nb] for nb in _neighbours(cell, n) if owner[nb] != i and len(groups[owner[nb]]) <= high
                        and solution[cell] not in {solution[c] for c in groups[owner[nb]]}})
        clean = [j for j in homes if not differ.intersection(groups[j])]
        homes = clean or homes  # a cage where the two agree: with the cell its total tells them apart
        if homes and moves <= MOVES:  # the cell moves to a neighbouring cage
            j = rng.choice(homes)
            groups = ([g for k, g in enumerate(groups) if k not in (i, j)] + _pieces(rest, n)
                      + [sorted(groups[j] + [cell])])
            groups = _attach_single_cells(groups, solution, n, rng, high)
        else:  # the cell becomes a cage of its own: strictly more said, so this ends
            groups = [g for k, g in enumerate(groups) if k != i] + _pieces(rest, n) + [[cell]]


def _merge_pass(groups: list[list[int]], solution: Sequence[int], n: int, rng: random.Random,
                count: _Counter, max_merged: int, deadline: float | None,
                givens: "_Givens | None" = None) -> tuple[list[list[int]], bool]:
    """Try each pair of touching cages once, keeping the merges that stay unique; while
    ``givens`` are left, a merge that is not buys one: a given where the other solution
    differs, kept when the merge is then unique."""
    owner = {c: i for i, g in enumerate(groups) for c in g}
    pairs = sorted({(min(owner[c], owner[nb]), max(owner[c], owner[nb]))
                    for c in range(n * n) for nb in _neighbours(c, n) if owner[c] != owner[nb]})
    rng.shuffle(pairs)
    alive = {i: g for i, g in enumerate(groups)}
    merged_any = False
    for a, b in pairs:
        if a not in alive or b not in alive:
            continue
        ga, gb = alive[a], alive[b]
        if len(ga) + len(gb) > max_merged or {solution[c] for c in ga} & {solution[c] for c in gb}:
            continue
        if deadline is not None and time.perf_counter() > deadline:
            raise GenerationTimeout("the time limit ran out while merging a killer's cages")
        trial = [g for i, g in alive.items() if i not in (a, b)] + [sorted(ga + gb)]
        found, other = count(_with_totals(trial, solution))
        if found == 2 and givens is not None and givens.left:
            bought = givens.give([c for c in range(n * n) if other[c] != solution[c]], rng)
            if bought is not None:
                found = count(_with_totals(trial, solution))[0]
                if found != 1:
                    givens.take_back(bought)
        if found == 1:
            alive[a] = sorted(ga + gb)
            del alive[b]
            merged_any = True
    return list(alive.values()), merged_any


def _merge_all(groups: list[list[int]], solution: Sequence[int], n: int, rng: random.Random, count: _Counter,
               max_merged: int, deadline: float | None, givens: "_Givens | None" = None) -> list[list[int]]:
    """:func:`_merge_pass` until a pass merges nothing."""
    while True:
        groups, merged = _merge_pass(groups, solution, n, rng, count, max_merged, deadline, givens)
        if not merged:
            return groups


def _attach_single_cells(groups: list[list[int]], solution: Sequence[int], n: int, rng: random.Random,
                         high: int) -> list[list[int]]:
    """Each cage of one cell joins a random neighbouring cage that lacks its digit and has room
    (no count: the next one checks)."""
    for single in [g for g in groups if len(g) == 1]:
        owner = {c: i for i, g in enumerate(groups) for c in g}
        cell = single[0]
        i = owner[cell]
        if len(groups[i]) != 1:
            continue
        homes = sorted({owner[nb] for nb in _neighbours(cell, n) if owner[nb] != i and len(groups[owner[nb]]) <= high
                        and solution[cell] not in {solution[c] for c in groups[owner[nb]]}})
        if homes:
            j = rng.choice(homes)
            groups = [g for k, g in enumerate(groups) if k not in (i, j)] + [sorted(groups[j] + [cell])]
    return groups


def _absorb_single_cells(groups: list[list[int]], solution: Sequence[int], n: int, rng: random.Random,
                         count: _Counter, high: int, deadline: float | None) -> list[list[int]]:
    """Cages of one cell (left by :func:`_make_unique`) join a neighbouring cage that lacks
    their digit and has room (``high`` + 1 cells at most), where the puzzle stays unique."""
    for single in [g for g in groups if len(g) == 1]:
        cell = single[0]
        owner = {c: i for i, g in enumerate(groups) for c in g}
        i = owner[cell]
        if len(groups[i]) != 1:  # another cage of one cell took it in already
            continue
        options = sorted({owner[nb] for nb in _neighbours(cell, n)
                          if owner[nb] != i and len(groups[owner[nb]]) <= high
                          and solution[cell] not in {solution[c] for c in groups[owner[nb]]}})
        rng.shuffle(options)
        for j in options:
            if deadline is not None and time.perf_counter() > deadline:
                raise GenerationTimeout("the time limit ran out while tidying a killer's cages")
            trial = [g for k, g in enumerate(groups) if k not in (i, j)] + [sorted(groups[j] + [cell])]
            if count(_with_totals(trial, solution))[0] == 1:
                groups = trial
                break
    return groups


def is_minimal(puzzle: Grid, solution: Grid, max_merged: int | None = None) -> bool:
    """Whether no two touching cages of ``puzzle`` (a killer) can be joined without losing
    uniqueness (the definition of ``minimal="cages"``); it must be unique itself."""
    from ..engine import search
    from ..budget import Budget

    geo = puzzle.geometry
    n = geo.n
    max_merged = n if max_merged is None else max_merged
    if search.count(puzzle, 2, Budget())[0] != 1:
        return False
    groups = [list(c.cells) for c in geo.cages]
    owner = {c: i for i, g in enumerate(groups) for c in g}
    values = solution.values
    for a, b in sorted({(min(owner[c], owner[nb]), max(owner[c], owner[nb]))
                        for c in owner for nb in _neighbours(c, n) if nb in owner and owner[c] != owner[nb]}):
        ga, gb = groups[a], groups[b]
        if len(ga) + len(gb) > max_merged or {values[c] for c in ga} & {values[c] for c in gb}:
            continue
        trial = [g for i, g in enumerate(groups) if i not in (a, b)] + [sorted(ga + gb)]
        merged = puzzle.with_geometry(geo.with_cages(_with_totals(trial, values)))
        if search.count(merged, 2, Budget())[0] == 1:
            return False
    return True


def generate_killer(
    seed: int,
    *,
    shape: "Shape | str | tuple[int, int] | None" = "3x3",
    variant: str | None = None,
    regions: str | None = None,
    minimal: str = "unique",
    sizes: tuple[int, int] = SIZES,
    max_merged: int | None = None,
    node_limit: int = COUNT_NODES,
    deadline: float | None = None,
    givens: int = 0,
    symmetry: str = "none",
) -> Puzzle:
    """One killer from ``seed``: cages from a random solution, one solution
    (``minimal="cages"``: also minimal in its cages; see the module). ``variant``
    names other units to combine with (``"x"``, ``"hyper"``, ``"jigsaw"`` with
    ``regions``); ``sizes`` the (low, high) cage sizes drawn; ``max_merged`` the
    largest cage a merge may make (default N); ``givens`` how many cells of the
    solution are given (0 to N² - 1; none by default), their pattern with
    ``symmetry`` (:func:`check_givens` says what is refused)."""
    import numpy as np

    from .. import variants
    from ..engine import generate as kernels
    from ..engine.generate import arrays_of
    from .plan import _fill_limit, kernel_seed

    if minimal not in MINIMAL:
        raise GenerationError(f"a killer is minimal {' or '.join(MINIMAL)}, not {minimal!r}")
    low, high = sizes
    if not 1 <= low <= high:
        raise GenerationError(f"cage sizes must be 1 <= low <= high, not {low}..{high}")
    try:
        names = tuple(v for v in variants.parse(variant or "") if v != "killer")
    except ValueError as exc:
        raise GenerationError(str(exc)) from None
    if regions == "random":  # a fresh jigsaw layout from the seed
        regions = variants.random_layout(shape_of(shape), seed)
    s = shape_of(shape, None if regions is None else len("".join(regions.split())))
    _check_size(s)
    try:
        base = variants.of(s, names, regions=regions)
    except ValueError as exc:  # a bad layout is a ShapeError, a ValueError too
        raise GenerationError(str(exc)) from None
    n = s.size
    givens = check_givens(givens, s, symmetry)
    units, peers = arrays_of(base)
    _load()
    out = np.zeros(n * n, dtype=np.uint8)
    stats = np.zeros(kernels.STATS, dtype=np.int64)
    kernels.seed_rng(kernel_seed(seed))
    if not kernels.random_grid(out, n, np.ascontiguousarray(units), np.ascontiguousarray(peers), _fill_limit(s), stats):
        raise GenerationError(f"could not fill a {s} grid under these units")
    solution = tuple(int(v) for v in out)
    rng = random.Random(seed)
    count = _Counter(base, node_limit)
    count.target = solution
    placing = _Givens(count, solution, s, base.units_of, givens, symmetry) if givens else None
    groups = draw_cages(solution, n, rng, (low, high))
    groups = _make_unique(groups, solution, n, rng, count, high, deadline, placing)
    if low > 1:
        groups = _absorb_single_cells(groups, solution, n, rng, count, high, deadline)
    top = n if max_merged is None else max_merged
    if minimal == "cages":
        groups = _merge_all(groups, solution, n, rng, count, top, deadline, placing)
    if placing is not None and placing.left:  # the givens no merge bought: spread out
        placing.spread(rng)
        if minimal == "cages":  # they may let more cages merge
            groups = _merge_all(groups, solution, n, rng, count, top, deadline)
    groups.sort(key=lambda g: g[0])
    geometry = base.with_cages(_with_totals(groups, solution))
    puzzle = Grid.unchecked(s, tuple(int(v) for v in count.givens), geometry)
    answer = Grid.unchecked(s, solution, geometry)
    return Puzzle(puzzle, answer, seed, str(s), minimal, symmetry, givens,
                  extra={"cages": len(groups), "counts": count.counts})


#: The largest killer made: the first uniqueness count of a 16x16 killer takes 10 to 100 ms a
#: node and may need its whole node budget, hours in all (the search solves 16x16 killers).
MADE_UP_TO = 12


def _check_size(shape: Shape) -> None:
    """Refuse a killer too big to make in reasonable time (:data:`MADE_UP_TO`)."""
    if shape.size > MADE_UP_TO:
        raise GenerationError(f"killers are made up to {MADE_UP_TO}x{MADE_UP_TO}, not {shape.size}x{shape.size}: "
                              f"a bigger one's uniqueness is not proven in reasonable time (the engine still "
                              f"solves killers up to 16x16)")


def check_givens(givens: object, shape: Shape | None = None, symmetry: str = "none") -> int:
    """``givens`` as the number of givens a killer of ``shape`` can take, 0 to N² - 1, whose
    pattern can have ``symmetry`` (a sum of its orbits' sizes); else :class:`GenerationError`
    (:class:`~sudokit.errors.BadOption` for what is not a whole number >= 0). Without a shape,
    only that a symmetry needs givens.

    >>> check_givens(3, Shape(2, 2), "rotate180")
    Traceback (most recent call last):
    ...
    sudokit.generation.puzzle.GenerationError: 3 givens cannot make a rotate180 pattern on a 4x4 grid: its orbits have 2 cells
    """
    from .. import validate
    from .symmetry import SymmetryError, orbits

    k = validate.count(givens, "givens")
    if symmetry != "none" and not k:
        raise GenerationError("a killer without givens has no clue pattern for a symmetry to apply to; "
                              "ask for some givens")
    if shape is None:
        return k
    n = shape.size
    if k >= n * n:
        raise GenerationError(f"a {n}x{n} killer takes 0 to {n * n - 1} givens, not {k}")
    try:
        groups = orbits(shape, symmetry)
    except SymmetryError as exc:
        raise GenerationError(str(exc)) from None
    sizes = _orbit_sizes(groups)
    if not _reachable(k, sizes):
        raise GenerationError(f"{k} givens cannot make a {symmetry} pattern on a {n}x{n} grid: its orbits have "
                              f"{' or '.join(str(size) for size, _ in sizes)} cells")
    return k


def _load() -> None:
    """The kernels a killer needs, before the first: on a first run the killer
    search compiles in a helper process while this one compiles the random grid."""
    from ..engine import generate as kernels
    from ..engine import killer

    killer.load(beside=lambda: kernels.load_grids(batch=False))


def generate_killers(
    count: int,
    *,
    seed: int | None = None,
    shape: "Shape | str | tuple[int, int] | None" = "3x3",
    variant: str | None = None,
    regions: str | None = None,
    minimal: str = "unique",
    sizes: tuple[int, int] = SIZES,
    timeout: float | None = None,
    render: Callable[[Puzzle], object] | None = None,
    jobs: int = 1,
    givens: int = 0,
    symmetry: str = "none",
) -> Iterator[object]:
    """``count`` killers from seeds ``seed, seed + 1, ...`` (a fresh seed when None),
    in seed order, on ``jobs`` processes (the library's pool, :mod:`sudokit.pool`;
    0 is every core; the killers are the same whatever the number); ``timeout``
    bounds the whole run (:class:`GenerationTimeout` after the killers made so
    far); ``render`` (picklable) turns each into what is yielded, in the worker
    that made it. ``givens`` and ``symmetry`` as in :func:`generate_killer`,
    checked here, before the first killer."""
    import functools

    from .plan import fresh_seed

    if regions is None or regions == "random":
        s = shape_of(shape)
    else:
        s = shape_of(shape, len("".join(regions.split())))
    _check_size(s)
    givens = check_givens(givens, s, symmetry)
    base = fresh_seed() if seed is None else int(seed)
    deadline = None if timeout is None else time.perf_counter() + timeout
    make = functools.partial(_made, options=dict(shape=shape, variant=variant, regions=regions, minimal=minimal,
                                                 sizes=sizes, deadline=deadline, givens=givens, symmetry=symmetry),
                             render=render)
    return _stream(make, base, count, jobs, deadline)


def _stream(make: Callable[[int], object], base: int, count: int, jobs: int,
            deadline: float | None) -> Iterator[object]:
    from ..pool import ordered_map

    made = 0
    try:
        for out in ordered_map(make, range(base, base + count), jobs, deadline=deadline):
            made += 1
            yield out
    except (GenerationTimeout, TimeoutError) as exc:
        raise GenerationTimeout(f"time limit reached after {made} killer(s): {exc}") from None


def _made(seed: int, options: dict, render: Callable[[Puzzle], object] | None) -> object:
    """One killer, rendered: what a worker of :func:`generate_killers` hands back."""
    made = generate_killer(seed, **options)
    return made if render is None else render(made)
