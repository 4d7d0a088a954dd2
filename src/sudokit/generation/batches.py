"""Many puzzles in seed order: the public calls (:func:`generate`,
:func:`generate_many`, :func:`from_seeds`), which deal seeds out in batches
to the library's worker pool (:mod:`sudokit.pool`), rate them when a
difficulty filter asks, and stop at a time limit or an attempt budget.

>>> [p.seed for p in generate_many(3, shape="2x2", seed=10)]
[10, 11, 12]
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator

from .. import validate
from ..grid import Shape
from ..pool import ordered_map
from .filters import Filter, make_filter, rate
from .plan import Plan, Stopped, fresh_seed, make_plan
from .puzzle import GenerationError, GenerationTimeout, Puzzle

__all__ = ["from_seeds", "generate", "generate_many"]


def _work(args: tuple) -> list[tuple[Any, bool]]:
    """A worker's job: one batch of seeds, rated when a filter is active, each
    puzzle handed to ``render`` (when given) in the worker that made it."""
    from .minimising import make_batch

    plan, seeds, flt, deadline, render = args
    made = make_batch(plan, seeds, deadline)
    kept = [(p, True) for p in made] if not flt.active else [rate(p, flt) for p in made]
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
    variant: str | None = None,
    regions: str | None = None,
    givens: int = 0,
) -> Puzzle:
    """One minimal puzzle with a unique solution.

    ``minimal`` is ``unique``, ``logic`` or ``preemptive``; ``symmetry`` one of
    :data:`sudokit.generation.symmetry.SYMMETRIES`. With ``difficulty``, ``rating`` or
    ``technique`` it tries seeds ``seed, seed+1, ...`` until one matches, at
    most ``attempts`` times or ``timeout`` seconds. ``progress`` gets the
    fraction of clues visited (useful for 16x16 and up). ``givens``: for a
    killer, how many cells of its solution are given (see :func:`generate_many`).

    >>> p = generate(shape="2x3", minimal="logic", symmetry="rotate180", seed=3)
    >>> p.shape, p.symmetry, p.solution.is_solution_of(p.puzzle)
    ('2x3', 'rotate180', True)
    """
    seed, timeout = validate.seed(seed), validate.timeout(timeout)
    if shape is not None:
        from ..grid import shape_of

        validate.puzzle_shape(shape_of(shape), "shape")  # 1x1 to 3x3 grids are refused
    flt = make_filter(difficulty, rating, technique)
    if _killer(variant, minimal, symmetry, flt, givens):
        return next(generate_many(1, shape=shape, minimal=minimal, symmetry=symmetry, seed=seed, timeout=timeout,
                                  variant=variant, regions=regions, givens=givens))
    plan = make_plan(shape, minimal, symmetry, node_limit, variant, regions)
    _check_filter(plan, flt)
    base = fresh_seed() if seed is None else int(seed)
    if not flt.active:
        from .minimising import make_one

        deadline = None if timeout is None else time.perf_counter() + timeout
        try:
            return make_one(plan, base, progress, deadline)
        except Stopped as stop:
            raise GenerationTimeout(f"time limit of {timeout:g} s reached before the {plan.shape} puzzle "
                                    f"was finished ({stop}); nothing was made") from None
    return next(generate_many(1, shape=shape, minimal=minimal, symmetry=symmetry, seed=base,
                              difficulty=difficulty, rating=rating, technique=technique,
                              attempts=attempts, timeout=timeout, node_limit=node_limit, variant=variant,
                              regions=regions))


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
    variant: str | None = None,
    regions: str | None = None,
    givens: int = 0,
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

    Killers (``variant`` naming ``killer``) come from their own generator
    (:func:`sudokit.generation.killer.generate_killers`), with ``givens``
    cells of the solution given (0, the default: none; then no ``symmetry``).

    >>> [p.seed for p in generate_many(3, shape="2x2", seed=10)]
    [10, 11, 12]
    """
    n = validate.count(n, "n")
    seed, timeout, jobs = validate.seed(seed), validate.timeout(timeout), validate.jobs(jobs)
    if attempts is not None and validate.count(attempts, "attempts") < 1:
        raise GenerationError(f"attempts must be at least 1, not {attempts}")
    if shape is not None:
        from ..grid import shape_of

        validate.puzzle_shape(shape_of(shape), "shape")  # 1x1 to 3x3 grids are refused
    flt = make_filter(difficulty, rating, technique)
    if _killer(variant, minimal, symmetry, flt, givens):  # killers: their own generator (sudokit.generation.killer)
        from .killer import generate_killers

        if method != "fast":
            raise GenerationError("killers come from the fast generator")
        return generate_killers(n, seed=seed, shape=shape, variant=variant, regions=regions, minimal=minimal,
                                timeout=timeout, render=render, jobs=jobs, givens=givens, symmetry=symmetry)
    plan = make_plan(shape, minimal, symmetry, node_limit, variant, regions)
    _check_filter(plan, flt)
    base = fresh_seed() if seed is None else int(seed)
    if method == "clauses":
        if plan.variant:
            raise GenerationError("the clauses generator makes classic puzzles; variants come from the fast one")
        if minimal != "logic" or flt.active:
            raise GenerationError("the clauses generator makes --minimal logic puzzles, with no filter")
        return _by_clauses(n, plan, base, timeout, render)
    if method != "fast":
        raise GenerationError(f"unknown generator {method!r}; choose fast or clauses")
    return _stream(n, plan, flt, base, jobs, attempts, timeout, progress, render)


def _by_clauses(n: int, plan: Plan, base: int, timeout: float | None,
                render: Callable[[Puzzle], Any] | None) -> Iterator[Any]:
    from ..budget import Budget
    from ..errors import LimitReached
    from ..methods.clauses import puzzle as clauses_puzzle

    budget = Budget(timeout=timeout)  # the whole run's, watched inside each puzzle too
    for i in range(n):
        try:
            grid, solution = clauses_puzzle(plan.shape, base + i, plan.symmetry, budget)
        except LimitReached:
            raise GenerationTimeout(f"time limit of {timeout:g} s reached after {i} of {n} puzzles") from None
        made = Puzzle(grid, solution, base + i, str(plan.shape), "logic", plan.symmetry, grid.clues,
                      extra={"generator": "clauses"})
        yield made if render is None else render(made)


def _batch_size(plan: Plan, flt: Filter, jobs: int) -> int:
    if flt.active:
        return 4 * jobs if jobs > 1 else 1
    cells = plan.shape.cell_count
    return 1 if cells > 144 else 16 if cells > 81 else 64


def _stream(n: int, plan: Plan, flt: Filter, base: int, jobs: int, attempts: int | None,
            timeout: float | None, progress: Callable[[float], None] | None,
            render: Callable[[Puzzle], Any] | None = None) -> Iterator[Any]:
    if n == 0:
        return
    deadline = None if timeout is None else time.perf_counter() + timeout
    per_puzzle = attempts if attempts is not None else (1000 if flt.active else None)
    made = 0
    tried_for_this = 0
    if jobs == 1 and not flt.active and plan.shape.cell_count > 144:
        from .minimising import make_one

        # big grids: one at a time, with progress inside each puzzle
        for i in range(n):
            def inner(frac: float, i: int = i) -> None:
                if progress is not None:
                    progress((i + frac) / n)
            try:
                made_one = make_one(plan, base + i, inner, deadline)
            except Stopped as stop:
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
    except (Stopped, TimeoutError):
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
    variant: str | None = None,
    regions: str | None = None,
    givens: int = 0,
) -> list[tuple[Any, bool]]:
    """The puzzle of every seed in ``seeds``, in this process, each with
    whether it passes the filter (always, without one): what one batch of
    :func:`generate_many` makes, for a caller that deals out seed ranges
    itself (a cluster). ``render`` as in :func:`generate_many`.

    >>> [(p.seed, ok) for p, ok in from_seeds(range(3, 5), shape="2x2")]
    [(3, True), (4, True)]
    """
    if shape is not None:
        from ..grid import shape_of

        validate.puzzle_shape(shape_of(shape), "shape")  # 1x1 to 3x3 grids are refused
    flt = make_filter(difficulty, rating, technique)
    if _killer(variant, minimal, symmetry, flt, givens):
        from .killer import generate_killer

        made = (generate_killer(validate.seed(s), shape=shape, variant=variant, regions=regions, minimal=minimal,
                                givens=givens, symmetry=symmetry) for s in seeds)
        return [(p if render is None else render(p), True) for p in made]
    plan = make_plan(shape, minimal, symmetry, node_limit, variant, regions)
    _check_filter(plan, flt)
    return _work((plan, [validate.seed(s) for s in seeds], flt, None, render))


def _killer(variant: str | None, minimal: str, symmetry: str, flt: Filter, givens: int = 0) -> bool:
    """Whether the request is for killers (the ``--variant`` names hold killer); what a
    killer cannot have raises GenerationError: a difficulty filter, a symmetry without
    givens; and givens asked of a puzzle that is not a killer."""
    from .. import variants

    try:
        killer = "killer" in variants.parse(variant or "")
    except ValueError:
        return False  # make_plan names the bad variant
    if not killer:
        if validate.count(givens, "givens"):
            raise GenerationError("givens are for killers (variant killer); the givens of other puzzles are "
                                  "what minimising leaves")
        return False
    if flt.active:
        raise GenerationError("difficulty, rating and technique filters need the logic, which does not take "
                              "killers yet (docs/variants.md)")
    from .killer import MINIMAL, check_givens

    check_givens(givens, None, symmetry)  # a symmetry needs givens (the rest: generate_killers)

    if minimal not in MINIMAL:
        raise GenerationError(f"a killer is minimal {' or '.join(repr(m) for m in MINIMAL)}, not {minimal!r}")
    return True


def _load(plan: Plan, rating: bool) -> None:
    """Load the kernels (and the logic, to rate) once per worker, before its first batch."""
    from .minimising import make_batch

    make_batch(plan, [])
    if rating:
        from .. import logic  # noqa: F401


def _check_filter(plan: Plan, flt: Filter) -> None:
    """A variant's puzzles cannot be rated yet, so they cannot be filtered by difficulty."""
    if plan.variant and flt.active:
        raise GenerationError("difficulty, rating and technique filters need the logic, which does not take "
                              "variants yet (docs/variants.md)")


def _seed_batches(base: int, size: int, total: int | None) -> Iterator[list[int]]:
    start = 0
    while total is None or start < total:
        stop = start + size if total is None else min(total, start + size)
        yield [base + i for i in range(start, stop)]
        start = stop
