"""Generate puzzles: random complete grids, minimised by a rule, with a symmetric clue pattern.

A puzzle is made in three steps, all inside numba kernels
(:mod:`sudokit.engine.generate`):

1. **A random complete grid.** Backtracking from the empty grid: singles
   after every choice, branch on an open cell with the fewest candidates
   (ties at random), try its values in random order; then a random relabelling
   of the values. This is not exactly uniform over all grids (backtracking
   favours grids that are reached by many paths), but it reaches every grid,
   and the clue counts it leads to match the published figure for uniformly
   sampled grids (see ``benchmarks/RESULTS-generate.md``).
2. **Top-down minimising.** The orbits of cells (single cells without
   symmetry) are visited in random order. An orbit's clues go when the puzzle
   still obeys the rule without them and stay otherwise, so at the end every
   clue left is needed:

   * ``unique``: exactly one solution (a count with limit 2; from 17x17 up
     the engine's quick pass is finished by SAT solvers, :mod:`sudokit.sat_minimising`);
   * ``logic``: naked and hidden singles alone fill the grid (the verdict of
     the ``clauses`` method);
   * ``preemptive``: singles plus preemptive sets (Crook) fill the grid.

3. **Seeds.** Puzzle ``i`` of a run with seed ``S`` is made from seed
   ``S + i`` alone, so the same seed gives the same puzzles on every machine,
   whatever the number of worker processes, and ``seed`` in a record remakes
   that one puzzle.

A symmetric puzzle is minimal *within its symmetry*: no whole orbit can go,
but a single clue of an orbit sometimes could.

>>> p = generate(shape="2x2", seed=7)
>>> p.shape, p.minimal, p.clues == p.puzzle.clues, p.solution.is_solution_of(p.puzzle)
('2x2', 'unique', True, True)
>>> generate(shape="2x2", seed=7).puzzle == p.puzzle
True
>>> complete_grid("3x3", seed=1).is_solved
True
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Iterator

import numpy as np

from . import symmetry as _symmetry
from . import validate
from .errors import LimitReached, SudokuError
from .grid import Grid, Shape, shape_of
from .pool import ordered_map

#: The rules a generated puzzle is minimal for.
RULES: dict[str, int] = {"unique": 0, "logic": 1, "preemptive": 2}

#: Difficulty levels, easiest first (as :mod:`sudokit.logic` names them).
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "fiendish", "diabolical")

_SEED_MOD = 2**32


class GenerationError(SudokuError):
    """A generation request that cannot be met, or whose budget ran out."""


class GenerationTimeout(GenerationError, LimitReached):
    """The time limit ran out; the message says how many puzzles were made and how far the
    current one had got."""


#: Slices of the engine's minimising pass when a time limit is set: the clock is
#: read between slices, so a big puzzle stops within a slice of its deadline.
DEADLINE_SLICES = 200


def _out_of_time(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


@dataclass(frozen=True)
class Puzzle:
    """One generated puzzle with everything needed to remake it.

    ``undecided`` counts clues kept only because a solution count hit its node
    limit (always 0 for 9x9); when it is 0 the puzzle is proven minimal.
    """

    puzzle: Grid
    solution: Grid
    seed: int
    shape: str
    minimal: str
    symmetry: str
    clues: int
    undecided: int = 0
    er: float | None = None
    ep: float | None = None
    ed: float | None = None
    level: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def record(self) -> dict[str, Any]:
        """The jsonl record (:func:`sudokit.records.generated_record`): puzzle,
        solution, clues, seed, shape, minimal, symmetry (+ rating)."""
        from .records import generated_record

        return generated_record(self)


# -- plans: everything the kernels need for one request -------------------------


@dataclass(frozen=True)
class _Plan:
    shape: Shape
    minimal: str
    symmetry: str
    node_limit: int
    fill_limit: int

    @property
    def rule(self) -> int:
        return RULES[self.minimal]


#: From this size up the ``unique`` rule's hard questions go to SAT solvers
#: (:mod:`sudokit.sat_minimising`). Below it the engine proves every clue needed
#: within its budget; from 17x17 on it left many clues undecided (over 100 on
#: 24x24, in 90-145 s), where the SAT solvers prove them all in seconds.
SAT_FROM = 17
#: Engine nodes per question in the quick pass before the SAT solver takes over.
QUICK_NODES = 30


def _default_node_limit(shape: Shape) -> int:
    """The budget per uniqueness question: engine nodes (never reached for 9x9,
    bounds 10x10 to 16x16), or SAT solver conflicts from 17x17 up."""
    n = shape.size
    if n <= 9:
        return 2_000_000
    return 100_000 if n < SAT_FROM else 500_000


def _engine_limit(plan: _Plan) -> int:
    return QUICK_NODES if _by_sat(plan) else plan.node_limit


def _by_sat(plan: _Plan) -> bool:
    return plan.rule == RULES["unique"] and plan.shape.size >= SAT_FROM


def _plan(shape: "Shape | str | tuple[int, int] | None", minimal: str, symmetry: str,
          node_limit: int | None = None) -> _Plan:
    s = shape_of(shape)
    if minimal not in RULES:
        raise GenerationError(f"unknown minimality rule {minimal!r}; choose one of: {', '.join(RULES)}")
    _symmetry.check(s, symmetry)
    if s.size < 1:
        raise GenerationError("a grid needs at least one cell")
    limit = _default_node_limit(s) if node_limit is None else int(node_limit)
    return _Plan(s, minimal, symmetry, limit, fill_limit=_fill_limit(s))


#: From this size up a fill attempt that fails is cut short sooner (5 nodes per
#: cell instead of 50): on 49x49 a failed attempt of 120,000 nodes took 8-10 s,
#: and the attempts that succeed need far fewer nodes.
SHORT_FILLS_FROM = 36


def _fill_limit(shape: Shape) -> int:
    """Nodes per attempt at filling a complete grid before starting again."""
    per_cell = 5 if shape.size >= SHORT_FILLS_FROM else 50
    return max(10_000, per_cell * shape.cell_count)


@lru_cache(maxsize=None)
def _arrays(shape: Shape, symmetry: str) -> tuple[np.ndarray, ...]:
    from .engine.generate import geometry

    units, peers = geometry(shape.box_rows, shape.box_cols)
    orbits = _symmetry.orbits(shape, symmetry)
    cells = np.array([c for orbit in orbits for c in orbit], dtype=np.int64)
    starts = np.zeros(len(orbits) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(o) for o in orbits])
    return units, peers, cells, starts


def _kernel_seed(seed: int) -> int:
    return int(seed) % _SEED_MOD


def _fresh_seed() -> int:
    return secrets.randbits(31)


# -- complete grids ---------------------------------------------------------------


def complete_grid(shape: "Shape | str | tuple[int, int] | None" = "3x3", seed: int | None = None) -> Grid:
    """A random complete grid of ``shape``; the same seed gives the same grid.

    It is the solution of the puzzle :func:`generate` makes from that seed.

    >>> g = complete_grid("2x3", seed=5)
    >>> g.is_solved, g.size
    (True, 6)
    """
    from .engine import generate as kernels

    plan = _plan(shape, "unique", "none")
    units, peers, _, _ = _arrays(plan.shape, "none")
    n = plan.shape.size
    out = np.zeros(n * n, dtype=np.uint8)
    stats = np.zeros(kernels.STATS, dtype=np.int64)
    kernels.seed_rng(_kernel_seed(_fresh_seed() if seed is None else seed))
    if not kernels.random_grid(out, n, units, peers, plan.fill_limit, stats):
        raise GenerationError(f"could not fill a {plan.shape} grid within the node budget")
    return Grid._trusted(plan.shape, tuple(int(v) for v in out))


# -- one puzzle at a time (with progress, for the big sizes) ------------------------


def _make_one(plan: _Plan, seed: int, progress: Callable[[float], None] | None = None,
              deadline: float | None = None) -> Puzzle:
    """One puzzle from one seed, minimising in slices so progress can be reported
    and ``deadline`` (a ``time.perf_counter()`` instant) is kept.

    Draws the same random numbers as :func:`_make_batch`, so both give the same puzzle.
    Raises :class:`_Stopped` when the deadline passes, with how far it got.
    """
    from .engine import generate as kernels

    shape = plan.shape
    n = shape.size
    units, peers, cells, starts = _arrays(shape, plan.symmetry)
    stats = np.zeros(kernels.STATS, dtype=np.int64)
    solution = np.zeros(n * n, dtype=np.uint8)
    kernels.seed_rng(_kernel_seed(seed))
    if not _random_grid(plan, solution, units, peers, stats, deadline):
        raise GenerationError(f"could not fill a {shape} grid within the node budget (seed {seed})")
    orbits = len(starts) - 1
    order = np.arange(orbits, dtype=np.int64)
    kernels.shuffle(order)
    puzzle = solution.copy()
    share = 0.1 if _by_sat(plan) else 1.0  # of the progress bar, for the engine's pass
    step = orbits if progress is None else max(1, orbits // 50)
    if deadline is not None:
        step = min(step, max(1, orbits // DEADLINE_SLICES))
    if _out_of_time(deadline):
        raise _Stopped("the solution grid was filled")
    for lo in range(0, orbits, step):
        hi = min(orbits, lo + step)
        kernels.minimise(puzzle, solution, n, shape.box_rows, shape.box_cols, units, peers, cells, starts,
                         order, lo, hi, plan.rule, _engine_limit(plan), stats)
        if progress is not None:
            progress(share * hi / orbits)
        if _out_of_time(deadline) and hi < orbits:
            raise _Stopped(f"{hi} of {orbits} clue groups visited")
    if _by_sat(plan):
        try:
            _settle_by_sat(plan, seed, puzzle, solution, stats,
                           None if progress is None else (lambda f: progress(share + (1 - share) * f)),
                           parallel=default_jobs() > 1, deadline=deadline)
        except LimitReached:
            raise _Stopped("the quick pass done, the SAT proofs of the last clues unfinished") from None
    return _puzzle(plan, seed, puzzle, solution, stats)


def _random_grid(plan: _Plan, out: np.ndarray, units: np.ndarray, peers: np.ndarray, stats: np.ndarray,
                 deadline: float | None) -> bool:
    """The engine's ``random_grid`` (same random numbers, same grid), one fill attempt per
    kernel call so that the clock is read between attempts."""
    from .engine import generate as kernels

    if deadline is None:
        return kernels.random_grid(out, plan.shape.size, units, peers, plan.fill_limit, stats)
    for _ in range(1000):
        if kernels.fill(out, plan.shape.size, units, peers, plan.fill_limit, stats):
            kernels.relabel(out, plan.shape.size)
            return True
        stats[kernels.STAT_FILL_RESTARTS] += 1
        if _out_of_time(deadline):
            raise _Stopped("still filling the solution grid")
    return False


class _Stopped(Exception):
    """Internal: the deadline passed inside one puzzle; the text says how far it got."""


def _settle_by_sat(plan: _Plan, seed: int, puzzle: np.ndarray, solution: np.ndarray, stats: np.ndarray,
                   progress: Callable[[float], None] | None = None, parallel: bool = False,
                   deadline: float | None = None) -> None:
    """Finish minimising ``puzzle`` in place with SAT solvers, so that every clue is proven needed.

    See :mod:`sudokit.sat_minimising`: a first look at every orbit, probing
    rounds that take away the clue most nearly implied by the others, and a
    last pass. With ``parallel`` the two solvers run in worker processes; the
    puzzle is the same either way.
    """
    from .engine.generate import STAT_COUNTS, STAT_UNDECIDED
    from .sat_minimising import minimise

    _, _, cells, starts = _arrays(plan.shape, plan.symmetry)
    orbits = [cells[starts[o]:starts[o + 1]] for o in range(len(starts) - 1)]
    present = [o for o, orbit in enumerate(orbits) if puzzle[orbit].any()]
    order = np.random.default_rng(_kernel_seed(seed)).permutation(present)
    solution_grid = Grid._trusted(plan.shape, tuple(int(v) for v in solution))
    asked, undecided = minimise(puzzle, solution_grid, orbits, order.tolist(), plan.node_limit,
                                processes=parallel, progress=progress, deadline=deadline)
    stats[STAT_UNDECIDED] = undecided
    stats[STAT_COUNTS] += asked


def _puzzle(plan: _Plan, seed: int, puzzle: np.ndarray, solution: np.ndarray, stats: np.ndarray) -> Puzzle:
    from .engine.generate import STAT_COUNTS, STAT_NODES, STAT_UNDECIDED

    grid = Grid._trusted(plan.shape, tuple(int(v) for v in puzzle))
    return Puzzle(
        puzzle=grid,
        solution=Grid._trusted(plan.shape, tuple(int(v) for v in solution)),
        seed=int(seed),
        shape=str(plan.shape),
        minimal=plan.minimal,
        symmetry=plan.symmetry,
        clues=grid.clues,
        undecided=int(stats[STAT_UNDECIDED]),
        extra={"nodes": int(stats[STAT_NODES]), "counts": int(stats[STAT_COUNTS])},
    )


def _make_batch(plan: _Plan, seeds: list[int], deadline: float | None = None) -> list[Puzzle]:
    """Puzzles for many seeds in one kernel call (each depends on its seed alone)."""
    from .engine import generate as kernels

    shape = plan.shape
    n = shape.size
    units, peers, cells, starts = _arrays(shape, plan.symmetry)
    k = len(seeds)
    puzzles = np.zeros((k, n * n), dtype=np.uint8)
    solutions = np.zeros((k, n * n), dtype=np.uint8)
    stats = np.zeros((k, kernels.STATS), dtype=np.int64)
    kernel_seeds = np.array([_kernel_seed(s) for s in seeds], dtype=np.int64)
    kernels.generate_batch(kernel_seeds, n, shape.box_rows, shape.box_cols, units, peers, cells, starts,
                           plan.rule, _engine_limit(plan), plan.fill_limit, puzzles, solutions, stats)
    out = []
    for i, seed in enumerate(seeds):
        if stats[i, kernels.STAT_UNDECIDED] < 0:
            raise GenerationError(f"could not fill a {shape} grid within the node budget (seed {seed})")
        if _by_sat(plan):
            try:
                _settle_by_sat(plan, seed, puzzles[i], solutions[i], stats[i], deadline=deadline)
            except LimitReached:
                raise _Stopped("the SAT proofs of the last clues unfinished") from None
        out.append(_puzzle(plan, seed, puzzles[i], solutions[i], stats[i]))
    return out


# -- difficulty filters ------------------------------------------------------------


@dataclass(frozen=True)
class _Filter:
    difficulty: str | None = None
    rating: tuple[float, float] | None = None
    technique: str | None = None

    @property
    def active(self) -> bool:
        return self.difficulty is not None or self.rating is not None or self.technique is not None

    def describe(self) -> str:
        if self.difficulty is not None:
            return f"level {self.difficulty}"
        if self.rating is not None:
            return f"rating {self.rating[0]:g}-{self.rating[1]:g}"
        return f"technique {self.technique}"


def parse_rating(text: str) -> tuple[float, float]:
    """``"LO-HI"`` (or a single number) as a closed range of SE ratings.

    >>> parse_rating("2.5-4"), parse_rating("7.1")
    ((2.5, 4.0), (7.1, 7.1))
    """
    body = text.strip()
    cut = body.find("-", 1)  # a leading minus belongs to the number
    try:
        low, high = (float(body[:cut]), float(body[cut + 1:])) if cut > 0 else (float(body), float(body))
    except ValueError:
        raise GenerationError(f"cannot read rating range {text!r}: expected LO-HI such as 2.5-4.0") from None
    if low > high:
        raise GenerationError(f"rating range {text!r} is empty: {low:g} > {high:g}")
    return low, high


def _make_filter(difficulty: str | None, rating: "str | tuple[float, float] | None",
                 technique: str | None) -> _Filter:
    given = [x for x in (difficulty, rating, technique) if x is not None]
    if len(given) > 1:
        raise GenerationError("give at most one of difficulty, rating and technique")
    if difficulty is not None and difficulty not in LEVELS:
        raise GenerationError(f"unknown difficulty {difficulty!r}; choose one of: {', '.join(LEVELS)}")
    if isinstance(rating, str):
        rating = parse_rating(rating)
    if technique is not None:
        _check_technique(technique)
    return _Filter(difficulty, rating, technique.lower() if technique else None)


def _check_technique(name: str) -> None:
    """Refuse a technique name that no registered technique's steps can carry (before any work)."""
    from .logic import REGISTRY

    known = list(dict.fromkeys(t.name for t in REGISTRY))
    wanted = " ".join(name.lower().split())
    lowered = [k.lower() for k in known]
    if wanted and (any(k in wanted or wanted in k for k in lowered)
                   or wanted.endswith(("chain", "chains", "cycle", "cycles", "loop", "loops"))):
        return
    raise GenerationError(f"unknown technique {name!r}; known techniques: {', '.join(known)}")


def _techniques(rating: Any) -> set[str]:
    names: set[str] = set()
    for attr in ("techniques", "hardest", "technique"):
        value = getattr(rating, attr, None)
        if value is None:
            continue
        items = [value] if isinstance(value, str) else list(value)
        for item in items:
            names.add(str(getattr(item, "name", item)).lower())
    return names


def _rate(puzzle: Puzzle, flt: _Filter) -> tuple[Puzzle, bool]:
    """The puzzle with its rating, and whether it matches the filter."""
    try:
        from .logic import rate
    except ImportError as exc:  # pragma: no cover - the rating module ships with sudokit
        raise GenerationError(f"difficulty filters need sudokit.logic: {exc}") from None
    r = rate(puzzle.puzzle)
    rated = replace(puzzle, er=getattr(r, "er", None), ep=getattr(r, "ep", None),
                    ed=getattr(r, "ed", None), level=getattr(r, "level", None))
    if flt.difficulty is not None:
        ok = rated.level == flt.difficulty
    elif flt.rating is not None:
        ok = rated.er is not None and flt.rating[0] <= rated.er <= flt.rating[1]
    else:
        ok = flt.technique in _techniques(r)
    return rated, ok


# -- the public API -----------------------------------------------------------------


def _work(args: tuple) -> list[tuple[Any, bool]]:
    """A worker's job: one batch of seeds, rated when a filter is active, each
    puzzle handed to ``render`` (when given) in the worker that made it."""
    plan, seeds, flt, deadline, render = args
    made = _make_batch(plan, seeds, deadline)
    kept = [(p, True) for p in made] if not flt.active else [_rate(p, flt) for p in made]
    if render is None:
        return kept
    return [(render(p) if ok else None, ok) for p, ok in kept]


def generate(
    *,
    shape: "Shape | str | tuple[int, int] | None" = "3x3",
    minimal: str = "unique",
    symmetry: str = "none",
    seed: int | None = None,
    difficulty: str | None = None,
    rating: "str | tuple[float, float] | None" = None,
    technique: str | None = None,
    attempts: int | None = None,
    timeout: float | None = None,
    node_limit: int | None = None,
    progress: Callable[[float], None] | None = None,
) -> Puzzle:
    """One minimal puzzle with a unique solution.

    ``minimal`` is ``unique``, ``logic`` or ``preemptive``; ``symmetry`` one of
    :data:`sudokit.symmetry.SYMMETRIES`. With ``difficulty``, ``rating`` or
    ``technique`` it tries seeds ``seed, seed+1, ...`` until one matches, at
    most ``attempts`` times or ``timeout`` seconds. ``progress`` gets the
    fraction of clues visited (useful for 16x16 and up).

    >>> p = generate(shape="2x3", minimal="logic", symmetry="rotate180", seed=3)
    >>> p.shape, p.symmetry, p.solution.is_solution_of(p.puzzle)
    ('2x3', 'rotate180', True)
    """
    seed, timeout = validate.seed(seed), validate.timeout(timeout)
    flt = _make_filter(difficulty, rating, technique)
    plan = _plan(shape, minimal, symmetry, node_limit)
    base = _fresh_seed() if seed is None else int(seed)
    if not flt.active:
        deadline = None if timeout is None else time.perf_counter() + timeout
        try:
            return _make_one(plan, base, progress, deadline)
        except _Stopped as stop:
            raise GenerationTimeout(f"time limit of {timeout:g} s reached before the {plan.shape} puzzle "
                                    f"was finished ({stop}); nothing was made") from None
    return next(generate_many(1, shape=shape, minimal=minimal, symmetry=symmetry, seed=base,
                              difficulty=difficulty, rating=rating, technique=technique,
                              attempts=attempts, timeout=timeout, node_limit=node_limit))


def generate_many(
    n: int,
    *,
    shape: "Shape | str | tuple[int, int] | None" = "3x3",
    minimal: str = "unique",
    symmetry: str = "none",
    seed: int | None = None,
    jobs: int = 1,
    difficulty: str | None = None,
    rating: "str | tuple[float, float] | None" = None,
    technique: str | None = None,
    attempts: int | None = None,
    timeout: float | None = None,
    node_limit: int | None = None,
    progress: Callable[[float], None] | None = None,
    render: Callable[[Puzzle], Any] | None = None,
    method: str = "fast",
) -> Iterator[Any]:
    """``n`` puzzles, in seed order, made by ``jobs`` worker processes (the
    library's pool, :mod:`sudokit.pool`; 0 is every core).

    ``method="clauses"`` makes them with the clauses write-up's own generator
    instead (:func:`sudokit.methods.clauses.puzzle`): pure Python, nothing to
    compile, about a tenth of a second per 9x9, for ``minimal="logic"`` with
    no filter, in this process; the same seed gives the same puzzle, but not
    the compiled generator's puzzle.

    Without a filter puzzle ``i`` comes from seed ``seed + i``. With a filter
    the seeds ``seed, seed+1, ...`` are tried in order and the matching ones
    are kept (each record's ``seed`` remakes it); ``attempts`` bounds the tries
    per puzzle (default 1000) and ``timeout`` the whole run; running out
    raises :class:`GenerationError` after the puzzles found so far.
    ``progress`` gets the fraction done, from 0 to 1. ``render`` (a picklable
    function) turns each puzzle into what the stream yields instead, in the
    worker that made it: text, say, so that only text crosses processes.

    >>> [p.seed for p in generate_many(3, shape="2x2", seed=10)]
    [10, 11, 12]
    """
    n = validate.count(n, "n")
    seed, timeout, jobs = validate.seed(seed), validate.timeout(timeout), validate.jobs(jobs)
    if attempts is not None and validate.count(attempts, "attempts") < 1:
        raise GenerationError(f"attempts must be at least 1, not {attempts}")
    flt = _make_filter(difficulty, rating, technique)
    plan = _plan(shape, minimal, symmetry, node_limit)
    base = _fresh_seed() if seed is None else int(seed)
    if method == "clauses":
        if minimal != "logic" or flt.active:
            raise GenerationError("the clauses generator makes --minimal logic puzzles, with no filter")
        return _by_clauses(n, plan, base, timeout, render)
    if method != "fast":
        raise GenerationError(f"unknown generator {method!r}; choose fast or clauses")
    return _stream(n, plan, flt, base, jobs, attempts, timeout, progress, render)


def _by_clauses(n: int, plan: _Plan, base: int, timeout: float | None,
                render: Callable[[Puzzle], Any] | None) -> Iterator[Any]:
    from .methods.clauses import puzzle as clauses_puzzle

    deadline = None if timeout is None else time.perf_counter() + timeout
    for i in range(n):
        if _out_of_time(deadline):
            raise GenerationTimeout(f"time limit of {timeout:g} s reached after {i} of {n} puzzles")
        grid, solution = clauses_puzzle(plan.shape, base + i, plan.symmetry)
        made = Puzzle(grid, solution, base + i, str(plan.shape), "logic", plan.symmetry, grid.clues,
                      extra={"generator": "clauses"})
        yield made if render is None else render(made)


def _batch_size(plan: _Plan, flt: _Filter, jobs: int) -> int:
    if flt.active:
        return 4 * jobs if jobs > 1 else 1
    cells = plan.shape.cell_count
    return 1 if cells > 144 else 16 if cells > 81 else 64


def _stream(n: int, plan: _Plan, flt: _Filter, base: int, jobs: int, attempts: int | None,
            timeout: float | None, progress: Callable[[float], None] | None,
            render: Callable[[Puzzle], Any] | None = None) -> Iterator[Any]:
    if n == 0:
        return
    deadline = None if timeout is None else time.perf_counter() + timeout
    per_puzzle = attempts if attempts is not None else (1000 if flt.active else None)
    made = 0
    tried_for_this = 0
    if jobs == 1 and not flt.active and plan.shape.cell_count > 144:
        # big grids: one at a time, with progress inside each puzzle
        for i in range(n):
            def inner(frac: float, i: int = i) -> None:
                if progress is not None:
                    progress((i + frac) / n)
            try:
                made_one = _make_one(plan, base + i, inner, deadline)
            except _Stopped as stop:
                raise GenerationTimeout(f"time limit of {timeout:g} s reached after {i} of {n} puzzles; "
                                        f"puzzle {i + 1} was unfinished ({stop})") from None
            yield made_one if render is None else render(made_one)
            if deadline is not None and time.perf_counter() > deadline and i + 1 < n:
                raise GenerationTimeout(f"time limit of {timeout:g} s reached after {i + 1} of {n} puzzles")
        return
    size = _batch_size(plan, flt, jobs)
    seeds = _seed_batches(base, size, None if flt.active else n)
    work = ((plan, batch, flt, deadline, render) for batch in seeds)
    batches = ordered_map(_work, work, jobs, initializer=_load, initargs=(plan, flt.active),
                          window=2 * jobs, deadline=deadline)
    what = f" with {flt.describe()}" if flt.active else ""
    try:
        for results in batches:
            for puzzle, ok in results:
                if made >= n:
                    break
                tried_for_this += 1
                if ok:
                    made += 1
                    tried_for_this = 0
                    if progress is not None:
                        progress(made / n)
                    yield puzzle
                elif per_puzzle is not None and tried_for_this >= per_puzzle:
                    raise GenerationError(
                        f"no puzzle with {flt.describe()} in {per_puzzle} attempts "
                        f"(found {made} of {n}); raise --attempts or relax the filter"
                    )
            if made >= n:
                break
            if deadline is not None and time.perf_counter() > deadline:
                raise GenerationTimeout(f"time limit of {timeout:g} s reached after {made} of {n} puzzles{what}")
    except (_Stopped, TimeoutError):
        raise GenerationTimeout(f"time limit of {timeout:g} s reached after {made} of {n} puzzles{what}") from None
    finally:
        batches.close()  # the pool's workers stop with it


def from_seeds(
    seeds: "list[int] | range",
    *,
    shape: "Shape | str | tuple[int, int] | None" = "3x3",
    minimal: str = "unique",
    symmetry: str = "none",
    difficulty: str | None = None,
    rating: "str | tuple[float, float] | None" = None,
    technique: str | None = None,
    node_limit: int | None = None,
    render: Callable[[Puzzle], Any] | None = None,
) -> list[tuple[Any, bool]]:
    """The puzzle of every seed in ``seeds``, in this process, each with
    whether it passes the filter (always, without one): what one batch of
    :func:`generate_many` makes, for a caller that deals out seed ranges
    itself (a cluster). ``render`` as in :func:`generate_many`.

    >>> [(p.seed, ok) for p, ok in from_seeds(range(3, 5), shape="2x2")]
    [(3, True), (4, True)]
    """
    flt = _make_filter(difficulty, rating, technique)
    plan = _plan(shape, minimal, symmetry, node_limit)
    return _work((plan, [validate.seed(s) for s in seeds], flt, None, render))


def _load(plan: _Plan, rating: bool) -> None:
    """Load the kernels (and the logic, to rate) once per worker, before its first batch."""
    _make_batch(plan, [])
    if rating:
        from . import logic  # noqa: F401


def _seed_batches(base: int, size: int, total: int | None) -> Iterator[list[int]]:
    start = 0
    while total is None or start < total:
        stop = start + size if total is None else min(total, start + size)
        yield [base + i for i in range(start, stop)]
        start = stop


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


__all__ = [
    "GenerationError",
    "LEVELS",
    "Puzzle",
    "RULES",
    "complete_grid",
    "from_seeds",
    "generate",
    "generate_many",
    "parse_rating",
]
