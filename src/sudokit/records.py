"""The jsonl records: the one place that says which fields a record has, in which order.

Four kinds of record, each documented field by field in ``docs/records.md``:

* a **puzzle record** (``sudoku solve --format jsonl``): one puzzle solved,
  counted or enumerated (:func:`solve_record`, :func:`result_record`);
* a **rating record** (``sudoku rate --format jsonl``): :func:`rating_record`;
* a **step record** (``sudoku explain --format jsonl``): one step of a
  solving path, :func:`step_record`;
* a **generated record** (``sudoku generate --format jsonl``):
  :func:`generated_record`;
* a **bank record** (``sudoku bank query --format jsonl``, ``bank export``):
  :func:`bank_record`.

Every command, the batch functions, the cluster path and the web service write
records only through these functions, and :func:`dumps` turns one into a line
of text. :func:`solve_lines` is the same puzzle record written for a whole
chunk of 9x9 results at once (the engine's bulk path), field for field equal
to :func:`solve_record` (a test holds the two together).

Records carry no wall-clock time, so the output of a batch is the same
byte for byte whatever the number of processes.

>>> dumps(solve_record(puzzle="1.", status="solved", solution="12", method="fast", line=3))
'{"puzzle": "1.", "status": "solved", "solution": "12", "method": "fast", "nodes": 0, "guesses": 0, "message": "", "line": 3}'
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .generation.puzzle import Puzzle
    from .grid import Grid
    from .logic import Rating, Step
    from .result import Result

__all__ = [
    "bank_record", "dumps", "error_record", "failed_rating_record", "generated_record", "rating_record", "result_record",
    "solve_lines", "solve_record", "step_record",
]


def dumps(record: dict[str, Any]) -> str:
    """One record as one line of JSON (no newline); non-ASCII symbols kept as they are."""
    return json.dumps(record, ensure_ascii=False)


def _place(record: dict[str, Any], line: int | None, source: str, example: str) -> dict[str, Any]:
    record["line"] = line
    if source:
        record["source"] = source
    if example:
        record["example"] = example
    return record


# -- puzzle records ----------------------------------------------------------------------


def solve_record(
    *,
    puzzle: str,
    status: str,
    solution: str | None = None,
    counting: bool = False,
    count: int | None = None,
    limit: int | None = None,
    solutions: Sequence[str] | None = None,
    partial: str | None = None,
    method: str = "",
    nodes: int = 0,
    guesses: int = 0,
    message: str = "",
    line: int | None = None,
    source: str = "",
    example: str = "",
    units: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A puzzle record from its parts (grids already written as lines).

    ``count`` and ``limit`` are present when ``counting`` (``--count`` and
    ``--all``); ``solutions`` when more than one solution is listed;
    ``partial`` when a logic-only method got stuck; ``units`` a variant's
    ``variant`` and ``regions`` fields (:func:`sudokit.variants.fields`).
    """
    record: dict[str, Any] = {"puzzle": puzzle, "status": status, "solution": solution}
    if counting:
        record["count"] = count
        record["limit"] = limit
    if solutions is not None and len(solutions) > 1:
        record["solutions"] = list(solutions)
    if partial is not None:
        record["partial"] = partial
    record.update(method=method, nodes=nodes, guesses=guesses, message=message)
    record.update(units or {})
    return _place(record, line, source, example)


def _line_of(grid: "Grid | None", symbols: str | None) -> str | None:
    if grid is None:
        return None
    if symbols is None:
        return grid.line()
    from .formats import render

    return render(grid, "line", symbols=symbols)


def result_record(result: "Result", *, counting: bool = False, symbols: str | None = None,
                  line: int | None = None, source: str = "", example: str = "") -> dict[str, Any]:
    """The puzzle record of a :class:`~sudokit.result.Result`.

    >>> from sudokit import solve
    >>> from sudokit.examples import example
    >>> result_record(solve(example("easy")))["status"]
    'solved'
    """
    from .result import Status

    stuck = result.status is Status.STUCK
    solutions = [_line_of(g, symbols) for g in result.solutions] if len(result.solutions) > 1 else None
    units = None
    if result.puzzle is not None:  # a variant's units, a box shape a line cannot say
        from . import variants

        units = variants.fields(result.puzzle.geometry) or None
    return solve_record(
        puzzle=_line_of(result.puzzle, symbols) or "",
        status=result.status.value,
        solution=None if stuck else _line_of(result.solution, symbols),
        counting=counting, count=result.count, limit=result.limit, solutions=solutions,
        partial=_line_of(result.solution, symbols) if stuck else None,
        method=result.method, nodes=result.nodes, guesses=result.guesses, message=result.message,
        line=line, source=source, example=example, units=units,
    )


def error_record(*, text: str, status: str, message: str, line: int | None = None, source: str = "",
                 example: str = "", method: str = "", counting: bool = False,
                 limit: int | None = None) -> dict[str, Any]:
    """The record of a puzzle that could not be read (``status`` ``parse_error``)
    or whose work failed before any result: the raw text is echoed as ``puzzle``."""
    return solve_record(puzzle=text, status=status, counting=counting, limit=limit, method=method,
                        message=message, line=line, source=source, example=example)


def solve_lines(puzzles: Sequence[str], statuses: Sequence[str], solutions: Sequence[str | None],
                counts: Sequence[int] | None, limit: int | None, method: str, nodes: Sequence[int],
                guesses: Sequence[int], messages: Sequence[str], lines: Sequence[int | None],
                source: str = "") -> list[str]:
    """:func:`solve_record` written with :func:`dumps` for a whole chunk, fast.

    The puzzles and solutions must be plain ``.1-9`` lines (nothing to escape);
    ``counts`` is None when not counting. Equal, line for line, to
    ``dumps(solve_record(...))`` of each row.
    """
    counting = counts is not None
    tail_source = f', "source": {json.dumps(source, ensure_ascii=False)}' if source else ""
    method_text = json.dumps(method)
    limit_text = "null" if limit is None else str(int(limit))
    plain = (all(s == "solved" for s in statuses) and not any(messages)
             and all(x is not None for x in solutions) and all(x is not None for x in lines)
             and (not counting or all(c is not None for c in counts)))  # type: ignore[union-attr]
    if plain:  # the common case, one template for the whole chunk
        template = ('{"puzzle": "%s", "status": "solved", "solution": "%s"'
                    + (', "count": %d, "limit": ' + limit_text.replace("%", "%%") if counting else "")
                    + ', "method": ' + method_text.replace("%", "%%") + ', "nodes": %d, "guesses": %d, '
                    + '"message": "", "line": %d' + tail_source.replace("%", "%%") + "}")
        if counting:
            return [template % row for row in zip(puzzles, solutions, counts, nodes, guesses, lines)]  # type: ignore[arg-type]
        return [template % row for row in zip(puzzles, solutions, nodes, guesses, lines)]
    out = []
    for i, puzzle in enumerate(puzzles):
        solution = solutions[i]
        head = f'{{"puzzle": "{puzzle}", "status": "{statuses[i]}", "solution": '
        head += "null" if solution is None else f'"{solution}"'
        if counting:
            count = counts[i]  # type: ignore[index]
            head += f', "count": {"null" if count is None else int(count)}, "limit": {limit_text}'
        message = messages[i]
        line = lines[i]
        out.append(
            f'{head}, "method": {method_text}, "nodes": {int(nodes[i])}, "guesses": {int(guesses[i])}, '
            f'"message": {json.dumps(message, ensure_ascii=False) if message else chr(34) * 2}, '
            f'"line": {"null" if line is None else int(line)}{tail_source}}}'
        )
    return out


# -- rating records ----------------------------------------------------------------------


def rating_record(grid: "Grid", rating: "Rating", *, line: int | None = None, source: str = "",
                  example: str = "") -> dict[str, Any]:
    """The rating record of one puzzle: SE's ER/EP/ED, their lower-bound flags,
    the level, the technique that set ER, the techniques on the path, the steps
    and the score; ``tier``
    when a time budget ran out (the technique it stopped)."""
    record: dict[str, Any] = {
        "puzzle": grid.line(), "status": "rated", "er": rating.er, "ep": rating.ep, "ed": rating.ed,
        "level": rating.level, "lower_bound": rating.lower_bound, "ep_lower_bound": rating.ep_lower_bound,
        "ed_lower_bound": rating.ed_lower_bound, "hardest": rating.hardest,
        "techniques": list(dict.fromkeys(getattr(rating, "techniques", ()))), "steps": rating.steps,
        "score": rating.score, "score_level": rating.score_level,
    }
    if getattr(rating, "tier", ""):  # a budget ran out: the technique whose search it stopped
        record["tier"] = rating.tier
    if hasattr(grid, "geometry"):  # rated under a variant's units (or on boxes a line cannot say): which
        from . import variants

        record.update(variants.fields(grid.geometry))
    return _place(record, line, source, example)


def failed_rating_record(*, text: str, status: str, message: str, line: int | None = None,
                         source: str = "", example: str = "") -> dict[str, Any]:
    """The rating record of a puzzle that could not be rated: status and why."""
    return _place({"puzzle": text, "status": status, "message": message}, line, source, example)


# -- step records ------------------------------------------------------------------------


def step_record(grid: "Grid", number: int, step: "Step", geo: Any, *, after: "Grid | None" = None,
                line: int | None = None, source: str = "", example: str = "") -> dict[str, Any]:
    """One step of a solving path: the puzzle, the step's number (from 1), the
    step itself (technique, rating, placements, eliminations, cells, units,
    values, links, text) and, when asked for, the grid after it."""
    from . import variants

    record: dict[str, Any] = {"puzzle": grid.line(), "step": number, **step.as_dict(geo)}
    if after is not None:
        record["grid"] = after.line()
    record.update(variants.fields(grid.geometry))  # the units and shape the puzzle reads back under
    return _place(record, line, source, example)


# -- generated records -------------------------------------------------------------------


def canon_record(puzzle: str, canonical: str, form: str, transform: str, inverse: str, automorphisms: int,
                 line: int | None = None, source: str = "", example: str = "") -> dict[str, Any]:
    """A ``sudoku canon --format jsonl`` record: the puzzle as given, its canonical form and the
    form's name, the transformation from the one to the other and back (``t:rows:cols:digits``,
    :class:`sudokit.canon.Transform`), and the number of automorphisms."""
    return _place({"puzzle": puzzle, "canonical": canonical, "form": form, "transform": transform,
                   "inverse": inverse, "automorphisms": automorphisms}, line, source, example)


def generated_record(puzzle: "Puzzle") -> dict[str, Any]:
    """A generated puzzle: puzzle, solution, clues, seed, shape, minimal,
    symmetry, ``undecided`` when some clue was not proven needed, ``generator``
    when not the compiled one, and the rating when a filter computed one."""
    record: dict[str, Any] = {
        "puzzle": puzzle.puzzle.line(),
        "solution": puzzle.solution.line(),
        "clues": puzzle.clues,
        "seed": puzzle.seed,
        "shape": puzzle.shape,
        "minimal": puzzle.minimal,
        "symmetry": puzzle.symmetry,
    }
    if puzzle.puzzle.is_variant:
        from . import variants

        fields = variants.fields(puzzle.puzzle.geometry)
        fields.pop("shape", None)  # said above, always
        record.update(fields)
    if puzzle.undecided:
        record["undecided"] = puzzle.undecided
    if puzzle.extra.get("generator"):
        record["generator"] = puzzle.extra["generator"]
    if puzzle.level is not None or puzzle.er is not None:
        record.update(er=puzzle.er, ep=puzzle.ep, ed=puzzle.ed, level=puzzle.level)
    return record


# -- bank records ------------------------------------------------------------------------


def bank_record(row: dict[str, Any]) -> dict[str, Any]:
    """A puzzle of the bank (a row of :mod:`sudokit.bank`, its ``families`` as
    names): the puzzle as first given and its solution, the units of a
    variant, clues, symmetry, the canonical key and the transformation onto
    it, the rating with the technique families on the path, where and when
    it was first added, and how often it was given. It reads back as a
    rating record (``bank add``, ``bank import``)."""
    import json as _json

    record: dict[str, Any] = {"puzzle": row["puzzle"], "solution": row.get("solution"), "shape": row["shape"]}
    if row.get("variant"):
        record["variant"] = row["variant"]
    if row.get("regions"):
        record["regions"] = row["regions"]
    if row.get("cages"):
        cages = row["cages"]
        record["cages"] = _json.loads(cages) if isinstance(cages, str) else list(cages)
    record.update(
        clues=row["clues"], symmetry=row.get("symmetry") or "none", automorphisms=row.get("automorphisms"),
        key=row["key"], transform=row.get("transform"),
    )
    if row.get("er") is not None:
        record.update(status="rated", er=row["er"], ep=row.get("ep"), ed=row.get("ed"), level=row.get("level"),
                      lower_bound=bool(row.get("lower_bound")), hardest=row.get("hardest"),
                      techniques=list(row.get("families") or []), steps=row.get("steps"), score=row.get("score"),
                      score_level=row.get("score_level"))
    record.update(source=row.get("source"), added=row.get("added"), seen=row.get("seen", 1))
    return record
