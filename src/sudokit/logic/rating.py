"""Ratings: Sudoku Explainer's ER/EP/ED, a level, and a HoDoKu-style score.

SE's definitions (checked on every puzzle of the reference set): ER is the
highest step rating on the path; EP the highest up to and including the first
step that places a value; ED the rating of the first step.

>>> r = rate("5763894213926148754187526398619472537392..1..2541.89..6435.....9854.....1.78.3...")
>>> (r.er, r.ep, r.ed, r.level, r.lower_bound)
(1.2, 1.0, 1.0, 'easy', False)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import validate
from ..errors import Contradiction, NoSolution
from ..formats import as_grid
from ..grid import Grid
from .registry import KERNEL_LADDER, REGISTRY, kernel_prefix, rating_floor
from .state import Candidates, extra_units, is_classic
from .solution import TRUTH_TIME_LIMIT, check_unique, truth  # noqa: F401  (re-exported)
from .step import Step, Technique
from .stepper import broken, check_state, check_step, next_step, steps
from . import chains
from .chains import ChainLimit
from .sharing import sharing

#: The registry prefix the easy kernel replaces (:data:`~sudokit.logic.registry.KERNEL_LADDER`),
#: and its step names by code.
EASY_PREFIX = KERNEL_LADDER[0] + KERNEL_LADDER[1]
EASY_NAMES = (
    "Hidden Single", "Hidden Single", "Hidden Single", "Direct Pointing", "Direct Hidden Pair", "Naked Single",
    "Direct Hidden Triplet", "Pointing", "Claiming", "Naked Pair", "X-Wing", "Hidden Pair", "Naked Triplet",
    "Swordfish", "Hidden Triplet",
)
#: Further registry stretches the kernel can take over, in order.
KERNEL_STAGES = KERNEL_LADDER[2:]

#: Seconds the chain searches may take in all for one puzzle in :func:`rate`
#: (each producer call is also bounded by ``chains.CHAIN_TIME_LIMIT``). The
#: budget is counted as chain work, ``chains.WORK_PER_SECOND`` units a second
#: (what an idle machine does), so that where it runs out does not depend on
#: the load; CPU and wall time are outer guards (``chains.CPU_GUARD``,
#: ``chains.WALL_GUARD`` times it). When it runs out the rating is a lower
#: bound. ``None``: no limit.
RATE_TIME_LIMIT: float | None = 60.0

#: Level by ER: (upper bound inclusive, name).
SE_LEVELS = ((1.2, "easy"), (1.6, "medium"), (2.5, "hard"), (6.0, "fiendish"), (float("inf"), "diabolical"))

#: HoDoKu's default step scores (StepConfig) for the techniques here; a
#: direct technique scores as its pattern plus the hidden single it makes.
HODOKU_SCORES: dict[str, int] = {
    "Full House": 4, "Hidden Single": 14, "Naked Single": 4,
    "Pointing": 50, "Claiming": 50, "Direct Pointing": 64, "Direct Claiming": 64,
    "Naked Pair": 60, "Hidden Pair": 70, "Direct Hidden Pair": 84,
    "Naked Triplet": 80, "Hidden Triplet": 100, "Direct Hidden Triplet": 114,
    "Naked Quad": 120, "Hidden Quad": 150,
    "X-Wing": 140, "Swordfish": 150, "Jellyfish": 160,
    "Skyscraper": 130, "2-String Kite": 150, "Turbot Fish": 120, "XY-Wing": 160, "XYZ-Wing": 180,
    "W-Wing": 150, "Unique Rectangle": 100, "Unique Loop": 100, "BUG": 100, "WXYZ-Wing": 200,
    "Search": 10000,
    # killers (sudokit's own, docs/variants.md "Killer logic"; HoDoKu has no killer steps)
    "Cage Combinations": 10, "45 Rule": 40, "Cage Pointing": 50, "Cage Claiming": 50, "Combination Clash": 80,
}
#: HoDoKu's level per technique (1 easy .. 5 extreme) and score ceilings.
HODOKU_TECHNIQUE_LEVEL: dict[str, int] = {
    "Full House": 1, "Hidden Single": 1, "Naked Single": 1,
    "Pointing": 2, "Claiming": 2, "Direct Pointing": 2, "Direct Claiming": 2,
    "Naked Pair": 2, "Hidden Pair": 2, "Direct Hidden Pair": 2, "Naked Triplet": 2, "Hidden Triplet": 2,
    "Direct Hidden Triplet": 2,
    "Cage Combinations": 1, "45 Rule": 2, "Cage Pointing": 2, "Cage Claiming": 2,
}
HODOKU_LEVELS = ((800, "easy"), (1000, "medium"), (1600, "hard"), (1800, "unfair"), (float("inf"), "extreme"))


def se_level(er: float) -> str:
    """``easy`` (≤1.2), ``medium`` (≤1.6), ``hard`` (≤2.5), ``fiendish`` (≤6.0), ``diabolical``."""
    for top, name in SE_LEVELS:
        if er <= top + 1e-9:
            return name
    return "diabolical"


def hodoku_step_score(step: Step) -> int:
    """HoDoKu's score of one step (200 for a technique not in the table)."""
    return _score(step.technique, step.rating)


def _score(name: str, rating: float) -> int:
    if name == "Hidden Single" and rating == 1.0:
        name = "Full House"
    score = HODOKU_SCORES.get(name)
    if score is not None:
        return score
    for key in (name.split(" type")[0], name.split(" 0")[0]):
        if key in HODOKU_SCORES:
            return HODOKU_SCORES[key]
    return 200


def hodoku_level(path: list[Step], score: int) -> str:
    """HoDoKu's level: the higher of the level by score and by technique."""
    return _score_level([s.technique for s in path], score)


def _score_level(names: list[str], score: int) -> str:
    by_score = next(i for i, (top, _) in enumerate(HODOKU_LEVELS) if score <= top)
    by_technique = max((HODOKU_TECHNIQUE_LEVEL.get(name, 3) - 1 for name in set(names)), default=0)
    if "Search" in names:
        by_technique = 4
    return HODOKU_LEVELS[max(by_score, by_technique)][1]


@dataclass(frozen=True)
class Rating:
    """SE ratings of a puzzle and a HoDoKu-style score.

    ``lower_bound`` is True when the techniques ran out before the end: ER
    is then at least the value given. ``ep_lower_bound`` and
    ``ed_lower_bound`` say the same of EP (no placement before they ran out)
    and ED (no step at all). ``hardest`` names the technique that set ER.
    ``tier`` names the technique whose search ran out of its time budget
    (the tier reached; empty when no budget ran out). ``techniques`` holds
    the names of the path's steps, in order (their families:
    :func:`sudokit.logic.techniques.families_on_path`).
    """

    er: float
    ep: float
    ed: float
    level: str
    score: int
    score_level: str
    lower_bound: bool
    steps: int
    hardest: str
    ep_lower_bound: bool = False
    ed_lower_bound: bool = False
    tier: str = ""
    techniques: tuple[str, ...] = ()

    def __str__(self) -> str:
        def mark(bound: bool) -> str:
            return "≥" if bound else ""

        return (
            f"{mark(self.lower_bound)}{self.er:.1f}/{mark(self.ep_lower_bound)}{self.ep:.1f}/"
            f"{mark(self.ed_lower_bound)}{self.ed:.1f} {self.level}"
        )

    def _repr_html_(self) -> str:  # Jupyter shows a small table
        from ..pictures.html import rating_html

        return rating_html(self)


#: The tiers whose inner helpers differ under SE's X and Windows options
#: (its Dynamic Forcing Chains (+) and nested chains run the generalized
#: intersections and naked sets inside); not reproduced for a variant's grid.
VARIANT_UNREPRODUCED = ("Dynamic Forcing Chains (+)", "Nested Forcing Chains")


def exact_registry(geo=None) -> list[Technique]:
    """The registered techniques rated no higher than :func:`rating_floor`,
    in SE's ladder for ``geo`` (:func:`~sudokit.logic.generalized.ladder`;
    default: the classic registry).

    Above the floor SE might use a technique the registry lacks, so a path
    that goes there no longer tells SE's rating; stopping at the floor keeps
    the rating exact or an honest lower bound.
    """
    from .generalized import ladder

    floor = rating_floor()
    return [t for t in (REGISTRY if geo is None else ladder(geo)) if t.rating <= floor + 1e-9]


def solve_path(grid: Grid, registry: list[Technique] | None = None,
               truth: "tuple[int, ...] | None" = None) -> tuple[list[Step], Candidates, bool, ChainLimit | None]:
    """The logic path and the state it ends in; the flag is True when the
    path stopped early (stuck, contradiction, or a chain search out of time,
    whose :class:`ChainLimit` comes last, else None). With ``truth`` (the one
    solution) every step is checked against it (:class:`UnsoundStep`)."""
    state = Candidates.from_grid(grid)
    path: list[Step] = []
    limit = None
    try:
        for step in steps(state, registry, truth=truth, puzzle=grid.line()):
            path.append(step)
    except ChainLimit as exc:  # a chain search ran out of time: stop here
        limit = exc
    return path, state, not state.solved, limit


#: The technique name of the last step of a path cut short by the time budget.
TIME_LIMIT_STEP = "Time limit"


def finish(grid: Grid, state: Candidates, path: "list[Step] | None" = None, limit: ChainLimit | None = None,
           timeout: float | None = None, solution: "tuple[int, ...] | None" = None) -> Step:
    """A last step that fills what logic left open with the engine's solution
    (``solution`` when already known).

    Its rating is a lower bound (``lower_bound``). When the techniques ran
    out it is the lowest rating of a technique the registry lacks (a
    ``Search`` step). When ``limit`` (a chain search out of its time budget,
    ``timeout`` seconds in all) cut the path short it is the lowest rating the
    puzzle can have, past the ``path`` so far: a ``Time limit`` step that
    says so.
    """
    if solution is None:
        from .. import solving

        result = None
        for method in solving.soonest_methods(grid):
            try:
                result = solving.solve(grid, method=method)
                break
            except Exception:  # a method not yet available here
                continue
        if result is None or result.solution is None:
            raise NoSolution(f"{grid.line()}: no solution completes this puzzle")
        solution = result.solution.values
    open_cells = [c for c, v in enumerate(state.values) if not v]
    if broken(state) or any(state.mask[c] and not state.mask[c] >> (solution[c] - 1) & 1 for c in open_cells):
        raise Contradiction(f"{grid.line()}: the candidates rule out every solution")
    placements = tuple((c, solution[c]) for c in open_cells)
    if limit is not None:
        bound = round(max([limit.rating] + [s.rating for s in path or ()]), 1)
        budget = f"the time limit of {timeout:g} s" if timeout is not None else "a chain search's time limit"
        at = f" at {limit.tier}" if limit.tier else ""
        return Step(
            TIME_LIMIT_STEP, bound, placements=placements, cells=tuple(open_cells), lower_bound=True,
            text=f"Time limit: {budget} ran out in the chain searches{at}: the rating is at least {bound:.1f}; "
            f"the engine fills the {len(open_cells)} open cells",
        )
    floor = rating_floor()
    if grid.geometry.cages:  # a killer's ladder stops below the nested chains (logic.cages)
        from .cages import KILLER_FLOOR

        floor = KILLER_FLOOR
    return Step(
        "Search", floor, placements=placements, cells=tuple(open_cells), lower_bound=True,
        text=f"Search: the implemented techniques stop here; the engine fills the {len(open_cells)} open cells "
        f"(next SE step rates ≥ {floor:.1f})",
    )


def rate_path(path: list[Step], stuck: bool, floor: float | None = None) -> Rating:
    """ER/EP/ED and scores of a path; ``stuck`` marks that it stopped early."""
    return _rating(
        [s.rating for s in path], [bool(s.placements) for s in path], [s.technique for s in path], stuck, floor
    )


def _rating(
    ratings: list[float], placing: list[bool], names: list[str], stuck: bool, floor: float | None = None
) -> Rating:
    er = ep = ed = 0.0
    hardest = ""
    ep_set = ed_set = False
    for rating, places, name in zip(ratings, placing, names):
        if rating > er:
            er, hardest = rating, name
        if not ed_set:
            ed, ed_set = er, True
        if not ep_set and places:
            ep, ep_set = er, True
    if stuck:
        f = rating_floor() if floor is None else floor
        if f > er:
            er, hardest = f, "beyond the implemented techniques"
        if not ed_set:
            ed = er
        if not ep_set:
            ep = er
    score = sum(_score(name, rating) for name, rating in zip(names, ratings))
    return Rating(
        er=round(er, 1), ep=round(ep, 1), ed=round(ed, 1), level=se_level(er), score=score,
        score_level=_score_level(names, score), lower_bound=stuck, steps=len(ratings), hardest=hardest,
        ep_lower_bound=stuck and not ep_set, ed_lower_bound=stuck and not ed_set, techniques=tuple(names),
    )


def _fast_ratings(state: Candidates, registry: list[Technique], limited: list[ChainLimit] | None = None,
                  truth: "tuple[int, ...] | None" = None,
                  puzzle: str = "") -> tuple[list[float], list[bool], list[str]] | None:
    """The step ratings of the path, with the easy ladder (SE ≤ 2.5) in the
    compiled kernel; None when the registry does not start with that ladder.
    A chain search out of time ends the path and adds its :class:`ChainLimit`
    to ``limited`` (its ``rating`` is the lowest the abandoned technique could
    give, its ``tier`` the technique)."""
    level, easy = kernel_prefix(registry)
    if level is None or level < 0 or state.geo.n > 62 or not is_classic(state.geo):  # the kernel's easy ladder starts after the direct ones
        return None
    from ..engine import prefer_compiled

    if not prefer_compiled("logic", state.geo.n):  # one puzzle: the plain path, without loading numba
        return None
    try:
        from ..engine.logic_kernels import EASY_RATINGS, easy as run_easy
    except Exception:  # numba missing: the plain path does it all
        return None
    rest = registry[easy:]
    floor = rating_floor()
    ratings: list[float] = []
    placing: list[bool] = []
    names: list[str] = []
    shape = state.geo.shape
    while True:
        for code, cell, _ in run_easy(shape, state.values, state.mask, level):
            ratings.append(EASY_RATINGS[code])
            placing.append(cell >= 0)
            names.append(EASY_NAMES[code])
        check_state(state, truth, puzzle, "easy techniques (compiled)")
        if state.solved or broken(state):
            break
        step = _next_within(state, rest, floor, limited, truth, puzzle)
        if step is None:
            break
        ratings.append(step.rating)
        placing.append(bool(step.placements))
        names.append(step.technique)
    return ratings, placing, names


#: Step names that assume the puzzle has one solution.
_UNIQUENESS_WORDS = ("Unique", "BUG", "Avoidable")


def _assumes_uniqueness(names: list[str]) -> bool:
    return any(word in name for name in set(names) for word in _UNIQUENESS_WORDS)


def _next_within(state: Candidates, registry: list[Technique], floor: float, limited: list[ChainLimit] | None,
                 truth: "tuple[int, ...] | None", puzzle: str) -> Step | None:
    """The next step of the path, checked against ``truth`` and applied, when
    it rates at most ``floor``; None when there is none, it rates above, or a
    chain search ran out of time (its :class:`ChainLimit` then joins ``limited``)."""
    try:
        step = next_step(state, registry)
    except ChainLimit as exc:
        if limited is not None:
            limited.append(exc)
        return None
    if step is None or step.rating > floor + 1e-9:
        return None
    check_step(step, truth, puzzle)
    step.apply(state)
    return step


def _until_floor(state: Candidates, registry: list[Technique], floor: float, limited: list[ChainLimit] | None = None,
                 truth: "tuple[int, ...] | None" = None, puzzle: str = ""):
    """The steps of the path while each rates at most ``floor``: a producer
    registered below the floor may yield a harder step (a big set in a
    Unique Rectangle type 3, a grouped link), and SE might use a missing
    technique before it."""
    while not state.solved and not broken(state):
        step = _next_within(state, registry, floor, limited, truth, puzzle)
        if step is None:
            return
        yield step


def _rating_ladder(grid: Grid) -> tuple[list[Technique], float | None]:
    """The techniques a rating of ``grid`` takes, in order, and the floor of a
    ladder cut short (a variant's or a killer's; None: not cut)."""
    registry = exact_registry(grid.geometry) if extra_units(grid.geometry) or grid.geometry.cages else exact_registry()
    # where SE's tiers under a variant's options are not reproduced, the
    # ladder stops before them and a puzzle that needs them is a lower bound
    # at the first one's base (never above SE)
    cut = next((i for i, t in enumerate(registry) if t.name in VARIANT_UNREPRODUCED), None)
    cut_floor = None
    if cut is not None and extra_units(grid.geometry):
        cut_floor, registry = registry[cut].rating, registry[:cut]
    if grid.geometry.cages:  # a killer's ladder stops below the nested chains (logic.cages)
        from .cages import KILLER_FLOOR

        cut_floor = KILLER_FLOOR
    return registry, cut_floor


def _rated(grid: Grid, ratings: list[float], placing: list[bool], names: list[str], stuck: bool,
           known: "tuple[int, ...] | None", limited: list[ChainLimit], cut_floor: float | None) -> Rating:
    """The rating of the steps a rating took (their ratings, whether each
    placed, their names), ``stuck`` when they stopped before the end; the
    solutions are counted when the one ``known`` is missing and the path
    cannot vouch for it."""
    if known is None and (stuck or _assumes_uniqueness(names)):  # (a known solution is the only one)
        check_unique(grid)
    bound = min(limited, key=lambda exc: exc.rating, default=None)
    floors = [f for f in (cut_floor, None if bound is None else bound.rating) if f is not None]
    rating = _rating(ratings, placing, names, stuck, min(floors, default=None))
    if bound is not None and bound.tier:
        rating = dataclasses.replace(rating, tier=bound.tier)
    return rating


def rate(grid: "Grid | str", *, timeout: float | None = RATE_TIME_LIMIT, jobs: int = 1) -> Rating:
    """Rate ``grid`` as Sudoku Explainer does, as far as the registry reaches.

    When SE would need a technique the registry lacks, ``lower_bound`` is set
    and ER is the lowest rating SE could give (see :func:`exact_registry`).
    The engine counts the solutions first (up to two; again at the end if it
    ran out of time then and the path needs it): a puzzle with none raises
    :class:`~sudokit.errors.NoSolution` (a :class:`Contradiction`), one with
    several :class:`~sudokit.errors.SeveralSolutions` (an
    :class:`~sudokit.errors.InvalidPuzzle`). The chain searches may take
    ``timeout`` seconds in all (``None``: no limit); when they run out, the
    rating is a lower bound too. With ``jobs`` above 1 (0: every CPU), the
    hardest searches (9.0 and up) are shared by that many processes
    (:mod:`~sudokit.logic.sharing`), with the same result. :func:`explain_rated` gives the same
    rating with the path.
    """
    timeout = validate.timeout(timeout)
    jobs = validate.jobs(jobs)
    grid = as_grid(grid)
    registry, cut_floor = _rating_ladder(grid)
    state = Candidates.from_grid(grid)
    known = truth(grid, unique=True)
    puzzle = grid.line()
    # a chain search out of time: the lowest rating the abandoned technique
    # could give, which is then the bound (not the floor)
    limited: list[ChainLimit] = []
    with chains.time_limit(timeout), sharing(jobs):
        fast = _fast_ratings(state, registry, limited, known, puzzle)
        if fast is None:
            path = list(_until_floor(state, registry, rating_floor(), limited, known, puzzle))
            ratings, placing, names = (
                [s.rating for s in path], [bool(s.placements) for s in path], [s.technique for s in path])
        else:
            ratings, placing, names = fast
    return _rated(grid, ratings, placing, names, not state.solved, known, limited, cut_floor)


def explain_rated(grid: "Grid | str", *, timeout: float | None = RATE_TIME_LIMIT,
                  jobs: int = 1) -> tuple[list[Step], Rating]:
    """The full path of :func:`explain` and the rating of :func:`rate`, in
    one pass: the path starts with the very steps the rating takes (the same
    ladder, the same floor, the same chain searches under the same
    ``timeout``), then goes on with every technique of the grid's ladder
    where the rating stops short (a variant's tiers SE rates otherwise); when
    logic stops early, a final ``Search`` step fills the rest from the
    engine's solution, and when the chain searches use up ``timeout``
    seconds a final ``Time limit`` step does, rated at the rating's bound
    (both carry ``lower_bound``; see :func:`finish`). ``jobs`` as for
    :func:`rate`. Raises as :func:`rate` does."""
    timeout = validate.timeout(timeout)
    jobs = validate.jobs(jobs)
    grid = as_grid(grid)
    registry, cut_floor = _rating_ladder(grid)
    state = Candidates.from_grid(grid)
    known = truth(grid, unique=True)
    puzzle = grid.line()
    floor = rating_floor()
    limited: list[ChainLimit] = []
    path: list[Step] = []
    rated = None  # how many of the path's steps the rating takes, once it stops before the end
    with chains.time_limit(timeout), sharing(jobs):
        try:
            for step in steps(state, registry, truth=known, puzzle=puzzle):
                if step.rating > floor + 1e-9:  # the rating stops before a step above the floor
                    rated = len(path)
                path.append(step)
                if rated is not None:
                    break
        except ChainLimit as exc:  # out of time: the rating is a bound, the path ends here
            limited.append(exc)
        stuck = rated is not None or not state.solved
        if rated is None:
            rated = len(path)
        if not limited and not state.solved and not broken(state):
            try:
                path.extend(steps(state, truth=known, puzzle=puzzle))
            except ChainLimit:
                pass
    head = path[:rated]
    names = [s.technique for s in path]
    if known is None and not (stuck or _assumes_uniqueness(names[:rated])) and (
            not state.solved or _assumes_uniqueness(names)):  # what the rating below does not count
        check_unique(grid)
    rating = _rated(grid, [s.rating for s in head], [bool(s.placements) for s in head], names[:rated], stuck,
                    known, limited, cut_floor)
    if not state.solved:  # a Search step, or a Time limit step carrying the bound
        path.append(finish(grid, state, path, limited[-1] if limited else None, timeout, known))
    return path, rating


def explain(grid: "Grid | str", *, timeout: float | None = RATE_TIME_LIMIT, jobs: int = 1) -> list[Step]:
    """The full path with every registered technique (the path of
    :func:`explain_rated`): when logic stops early a final ``Search`` step
    fills the rest from the engine's solution, and when the chain searches use
    up ``timeout`` seconds a final ``Time limit`` step does, carrying the
    bound. A grid without a solution raises :class:`NoSolution`, one with
    several :class:`SeveralSolutions`. ``jobs`` as for :func:`rate`."""
    return explain_rated(grid, timeout=timeout, jobs=jobs)[0]
