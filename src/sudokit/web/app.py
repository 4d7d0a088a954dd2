"""The web application: the page, and JSON endpoints for other apps.

Every endpoint takes a JSON body with ``puzzle`` (text in any format the
readers accept: a line, rows, a boxed grid, ...) and its options, and
returns the record the command line writes in jsonl (:mod:`sudokit.records`):

=================  ==========================================================
``POST /api/solve``     a puzzle record (``sudoku solve --format jsonl``)
``POST /api/count``     a puzzle record with ``count`` and ``limit``
``POST /api/rate``      a rating record (``sudoku rate --format jsonl``)
``POST /api/explain``   the list of step records (``sudoku explain --format jsonl``)
``POST /api/hint``      one step record, with ``svg`` (the step drawn) and ``moves``;
                        the puzzle may carry pencil marks (the candidates format), and
                        ``givens`` tells the puzzle as set from a player's entries
``POST /api/generate``  a generated record (``sudoku generate --format jsonl``)
``POST /api/pdf``       a PDF booklet of the puzzle (``sudoku print``)
=================  ==========================================================

``/openapi.json`` describes them; ``/docs`` is FastAPI's page for trying them.

Every answer other than 200, whatever its cause (a bad puzzle, an unknown
path, a body too large), has one shape: ``{"error": message, "reason": ...,
"place": {"line": .., "column": .., "field": ..} or null}``; :data:`STATUSES`
lists the statuses (docs/cli.md shows them beside the exit statuses).
A hint's 422 for a player's wrong entries or pencil marks names each cell
in ``wrong``.

Every request has a time limit. Light work (read, solve, count) runs on a
pool of threads and keeps the library's own budget (``timeout=``). Heavy
work (rate, explain, hint, generate, pdf, and solving with a method other
than the engine) runs in a child process per request, at most ``workers``
at once (:mod:`sudokit.web.isolation`), with bounded memory; when the time
runs out the child is killed (503) and its memory is freed. The body limit
holds however the body comes (``Content-Length`` or chunked): the bytes are
counted as they arrive, and reading stops at the limit (413).
"""

from importlib import resources
from typing import Any, Callable

#: Defaults of ``sudoku serve``.
TIME_LIMIT = 20.0      # seconds of work per request
MAX_BODY = 256_000     # bytes per request body
WORKERS = 2            # requests worked on at once
JOBS = 0               # processes that share one rating, path or hint (0: every core)
MAX_PUZZLE_TEXT = 100_000   # characters of puzzle text (413 above)
MAX_ELIMINATED = 100_000    # entries of a hint's ``eliminated`` list (413 above)

#: Every status the API answers, and when (docs/cli.md's table; a test asks
#: the server for each).
STATUSES: dict[int, str] = {
    200: "the record asked for",
    400: "unreadable text, bad JSON (with its line and column), a bad option or field (named in place.field), "
         "a text holding more than one puzzle",
    404: "no such path",
    405: "a method the path does not take (the API takes POST)",
    413: "a body over --max-body (Content-Length or chunked), a puzzle text over 100,000 characters (puzzle or givens), "
         "more than 100,000 eliminated candidates",
    422: "a puzzle that breaks the rules or has no solution (solve and count: with the record, in record; "
         "for rate, explain and hint: or several); "
         "no technique applies; a hint's wrong entries or pencil marks (listed in wrong)",
    500: "an internal error (a bug: please report it)",
    503: "the time limit (--time-limit) ran out; the work was stopped",
    507: "the work needed more memory than a request may have",
}


class WebError(Exception):
    """An answer other than 200: status, message, and where in the input."""

    def __init__(self, status: int, message: str, *, reason: str | None = None, line: int | None = None,
                 column: int | None = None, field: str | None = None, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.message = status, message
        self.reason = reason or message
        self.place = {k: v for k, v in (("line", line), ("column", column), ("field", field)) if v is not None}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        return {"error": self.message, "reason": self.reason, "place": self.place or None, **self.extra}

    def __reduce__(self):  # crosses from a worker process
        return _rebuild, (self.status, self.message, self.reason, self.place, self.extra)


def _rebuild(status: int, message: str, reason: str, place: dict, extra: dict | None = None) -> "WebError":
    error = WebError(status, message, reason=reason, extra=extra)
    error.place = place
    return error


def _wrong(exc: Exception) -> dict[str, Any]:
    """The cells a player got wrong, for ``/api/hint``'s 422: ``wrong``, one
    object per cell with its index (0-based), name, the entry or the pencil
    marks, and the solution's value."""
    from ..errors import WrongEntries, WrongMarks

    if isinstance(exc, WrongEntries):
        return {"wrong": [{"cell": c, "name": name, "entry": v, "solution": t}
                          for (c, v, t), name in zip(exc.wrong, exc.names)]}
    if isinstance(exc, WrongMarks):
        return {"wrong": [{"cell": c, "name": name, "marks": [v + 1 for v in range(m.bit_length()) if m >> v & 1],
                           "solution": t} for (c, m, t), name in zip(exc.wrong, exc.names)]}
    return {}


def json_error(body: bytes) -> WebError:
    """The 400 answer for a body that is not JSON, located by line and column."""
    import json

    try:
        json.loads(body)
    except UnicodeDecodeError as exc:
        return WebError(400, f"the body is not UTF-8 text (byte {exc.start + 1})", reason="not UTF-8")
    except json.JSONDecodeError as exc:
        return WebError(400, f"the body is not JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}",
                        reason=exc.msg, line=exc.lineno, column=exc.colno)
    except RecursionError:
        line, column = _too_deep(body.decode("utf-8", "replace"))
        return WebError(400, f"the body's JSON is nested too deeply: line {line}, column {column} is "
                             f"{MAX_JSON_DEPTH} arrays or objects deep (an API body is 1 or 2 deep)", reason="nested too deeply", line=line, column=column)
    return WebError(400, "the body is not a JSON object", reason="not a JSON object")


#: how deep a body's arrays and objects may go before it is called too deep (the API's own
#: bodies are 1 or 2 deep; the JSON parser itself gives up near a thousand)
MAX_JSON_DEPTH = 100


def _too_deep(text: str) -> tuple[int, int]:
    """The line and column where ``text``'s brackets (outside strings) first reach
    :data:`MAX_JSON_DEPTH`; (1, 1) when they never do."""
    depth, line, column, quoted, escaped = 0, 1, 0, False, False
    for char in text:
        column += 1
        if char == "\n":
            line, column = line + 1, 0
        elif quoted:
            escaped, quoted = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
            if depth >= MAX_JSON_DEPTH:
                return line, column
        elif char in "]}":
            depth -= 1
    return 1, 1


def _field_of(exc: Exception) -> str:
    from ..errors import UnknownMethod

    return "method" if isinstance(exc, UnknownMethod) else "puzzle"


class BodyLimit:
    """ASGI middleware: a request body over ``max_body`` bytes is answered
    413 as soon as the limit is passed, however it comes (a
    ``Content-Length`` too large is refused before reading; a chunked body
    is counted as it arrives). What is read is at most the limit, handed on
    in one piece, and kept in ``scope["state"]["body"]``."""

    def __init__(self, app: Any, max_body: int) -> None:
        self.app, self.max_body = app, max_body

    async def _refuse(self, send: Callable, size: str) -> None:
        from starlette.responses import JSONResponse

        error = WebError(413, f"the request body is {size} bytes; the limit is {self.max_body}",
                         reason="body too large")
        response = JSONResponse(error.body(), status_code=413, headers={"Connection": "close"})
        await response({"type": "http"}, None, send)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.strip().isdigit() and int(value) > self.max_body:
                return await self._refuse(send, str(int(value)))
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return await self._refuse(send, f"over {self.max_body}")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        scope.setdefault("state", {})["body"] = body
        given = False

        async def replay() -> dict:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _from_library(exc: Exception, field: str | None = None) -> WebError:
    from ..errors import BadOption, Contradiction, InvalidPuzzle, LimitReached, ParseError, ShapeError, UnknownMethod

    field = field or _field_of(exc)
    if isinstance(exc, ParseError):
        return WebError(400, str(exc), reason=exc.reason, line=exc.line, column=exc.column, field=field)
    if isinstance(exc, (ShapeError, BadOption, UnknownMethod)):
        return WebError(400, str(exc), field=field)
    if isinstance(exc, LimitReached):
        return WebError(503, str(exc), field=field)
    if isinstance(exc, (InvalidPuzzle, Contradiction)):
        return WebError(422, str(exc), field=field, extra=_wrong(exc))
    return WebError(422, str(exc), field=field)


#: Record statuses of a puzzle that failed: the command line exits 1 on them, the API answers 422.
FAILED = ("no_solution", "invalid")


def failed_record(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` (solve or count) when its puzzle was answered; a 422 carrying it when the puzzle
    failed (no solution, clashing givens), as the command line exits 1 after writing it."""
    if record.get("status") in FAILED:
        raise WebError(422, record["message"], field="puzzle", extra={"record": record})
    return record


def read_grid(text: str, box: Any = None, what: str = "the givens", field: str = "puzzle",
              check: bool = True) -> Any:
    """The one puzzle in ``text``; a located :class:`WebError` otherwise
    (``what`` names the grid in the message when it breaks the rules,
    ``field`` the request's field it came from)."""
    from ..errors import SudokuError
    from ..formats import read_puzzles

    if not text or not text.strip():
        raise WebError(400, "the puzzle is empty: paste a grid (81 digits and dots, rows, or a boxed grid)",
                       field=field)
    try:
        entries = list(read_puzzles(text, shape=box))
    except SudokuError as exc:
        raise _from_library(exc, field) from None
    if not entries:
        raise WebError(400, "no puzzle found in the text", field=field)
    if len(entries) > 1:
        raise WebError(400, f"the text holds {len(entries)} puzzles; send one at a time", field=field)
    entry = entries[0]
    if entry.error is not None or entry.grid is None:
        raise _from_library(entry.error, field)
    grid = entry.grid
    conflicts = grid.conflicts() if check else None
    if conflicts:
        reason = "; ".join(str(c) for c in conflicts[:4])  # the command line's message
        raise WebError(422, f"{what} break the rules: {reason}", reason=reason, field=field)
    return grid


def create_app(*, time_limit: float = TIME_LIMIT, max_body: int = MAX_BODY, workers: int = WORKERS,
               max_memory: int | None = None, bank: str | None = None, jobs: int = JOBS) -> Any:
    """The FastAPI application (needs the ``web`` extra). ``workers`` heavy
    requests run at once, each in its own process with ``max_memory`` bytes
    (:data:`isolation.MAX_MEMORY` by default); as many light ones on threads.
    A rating, a path or a hint shares its hardest searches among ``jobs``
    processes (0: every core; :mod:`sudokit.logic.sharing`).
    With ``bank``, the bank's endpoints too (:mod:`sudokit.web.bank_routes`)."""
    try:
        import anyio
        from fastapi import FastAPI, Request
        from fastapi.exceptions import RequestValidationError
        from fastapi.responses import HTMLResponse, JSONResponse, Response
        from fastapi.staticfiles import StaticFiles
        from pydantic import BaseModel, Field, field_validator
        from starlette.exceptions import HTTPException
    except ImportError:
        from ..pictures.pdf import MissingExtra

        raise MissingExtra("sudoku serve needs FastAPI and uvicorn: pip install 'sudokit[web]'") from None

    from .. import __version__, records

    from . import isolation
    from .. import logic, generation, solving  # noqa: F401 - loaded once, before the workers fork

    memory = isolation.MAX_MEMORY if max_memory is None else max_memory
    from ..validate import jobs as checked_jobs

    jobs = checked_jobs(jobs)
    from ..methods import available

    ENGINE = {name for name, spec in available().items() if spec.module == "sudokit.engine"}  # light work
    light = anyio.CapacityLimiter(max(2, workers))
    heavy = anyio.CapacityLimiter(workers)
    app = FastAPI(title="sudokit", version=__version__,
                  description="Solve, count, rate, explain, hint and generate Sudoku puzzles of any box shape. "
                              "Each endpoint returns the record `sudoku ... --format jsonl` writes.")
    static = resources.files("sudokit.web").joinpath("static")

    async def work(fn: Callable[[], Any], heavy_work: bool = False) -> Any:
        """Run ``fn`` within the time limit (queueing included): on a thread,
        or, when ``heavy_work``, in a worker process killed when time runs out."""
        try:
            with anyio.fail_after(time_limit + 1.0):
                if not heavy_work:
                    return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True, limiter=light)
                async with heavy:
                    return await isolation.run_in_child(fn, memory=memory, known=(WebError,))
        except TimeoutError:
            raise WebError(503, f"the time limit of {time_limit:g} s per request ran out; try again, or ask "
                                f"for less", reason="time limit") from None
        except isolation.WorkFailed as exc:
            if exc.kind == "memory":
                raise WebError(507, f"the work needed more than the {memory >> 20} MiB a request may use; "
                                    f"ask for less", reason="memory limit") from None
            raise WebError(500, f"internal error: {exc.detail}", reason="internal error") from None

    def budget(asked: float | None) -> float:
        return time_limit if asked is None else max(0.01, min(asked, time_limit))

    app.add_middleware(BodyLimit, max_body=max_body)

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError):
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        if exc.status_code == 404:
            error = WebError(404, f"no such path: {request.url.path}", reason="not found")
        elif exc.status_code == 405:
            error = WebError(405, f"{request.method} is not allowed on {request.url.path}; the API takes POST "
                                  f"with a JSON body", reason="method not allowed")
        elif exc.status_code == 400 and "body" in request.scope.get("state", {}):  # the body did not parse
            error = json_error(request.scope["state"]["body"])
        else:
            error = WebError(exc.status_code, str(exc.detail), reason=str(exc.detail))
        return JSONResponse(error.body(), status_code=error.status, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception):
        error = WebError(500, f"internal error: {type(exc).__name__}: {exc}", reason="internal error")
        return JSONResponse(error.body(), status_code=500)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":
            error = json_error(request.scope.get("state", {}).get("body", b""))
            return JSONResponse(error.body(), status_code=400)
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        reason = str(first.get("msg", "invalid request")).removeprefix("Value error, ")
        status = 400
        if first.get("type") in ("string_too_long", "too_long") and where in ("puzzle", "givens", "eliminated"):
            status = 413
        error = WebError(status, f"{where or 'body'}: {reason}", reason=reason, field=where or None)
        return JSONResponse(error.body(), status_code=status)

    class PuzzleIn(BaseModel):
        puzzle: str = Field(..., max_length=MAX_PUZZLE_TEXT,
                            description="One puzzle in any format the readers accept (line, rows, boxed, ...).")
        box: str | None = Field(None, description="Box shape RxC when it cannot be guessed, such as 2x3.",
                                examples=["3x3"])

    class SolveIn(PuzzleIn):
        method: str = Field("fast", description="A method name, as `--method`.")
        timeout: float | None = Field(None, gt=0, description="Seconds; capped by the server's limit.")

        @field_validator("method")
        @classmethod
        def _known_method(cls, name: str) -> str:
            from ..errors import SudokuError
            from ..methods import get

            try:
                get(name)
            except SudokuError as exc:
                raise ValueError(str(exc)) from None
            return name

    class CountIn(PuzzleIn):
        limit: int = Field(2, ge=1, le=10**9, description="Stop counting here.")
        timeout: float | None = Field(None, gt=0)

    class RateIn(PuzzleIn):
        timeout: float | None = Field(None, gt=0, description="Seconds for the chain searches.")

    class HintIn(PuzzleIn):
        givens: str | None = Field(
            None, max_length=MAX_PUZZLE_TEXT,
            description="The puzzle as set, when `puzzle` is a player's grid: its other values are entries, and "
                        "entries that disagree with the givens' solution get a 422 naming them (`wrong`).")
        eliminated: list[tuple[int, int]] = Field(
            default_factory=list, max_length=MAX_ELIMINATED,
            description="Candidates already removed, as [cell, value] (cell 0-based).")
        svg: bool = Field(True, description="Also return the step drawn on its grid.")

    class GenerateIn(BaseModel):
        box: str = Field("3x3", description="Box shape RxC.")
        difficulty: str | None = Field(None, description="easy, medium, hard, fiendish or diabolical.")
        seed: int | None = Field(None, ge=0)
        minimal: str = "unique"
        symmetry: str = "none"

        @field_validator("difficulty", "minimal", "symmetry")
        @classmethod
        def _one_of(cls, value: str | None, info: Any) -> str | None:
            from ..generation.filters import LEVELS
            from ..generation.plan import RULES
            from ..generation.symmetry import SYMMETRIES

            allowed = {"difficulty": LEVELS, "minimal": tuple(RULES), "symmetry": SYMMETRIES}[info.field_name]
            if value is not None and value not in allowed:
                raise ValueError(f"{value!r} is not one of: {', '.join(allowed)}")
            return value

    class PdfIn(PuzzleIn):
        paper: str = "a4"
        per_page: int = 1

        @field_validator("paper", "per_page")
        @classmethod
        def _layout(cls, value: Any, info: Any) -> Any:
            from ..pictures.pdf import PAPERS, PUZZLE_LAYOUTS

            allowed = tuple(PAPERS if info.field_name == "paper" else PUZZLE_LAYOUTS)
            if value not in allowed:
                raise ValueError(f"{value!r} is not one of: {', '.join(map(str, allowed))}")
            return value
        solutions: bool = True
        title: str = Field("Sudoku", max_length=200)

    def _shape(text: str | None) -> Any:
        """``box`` read as ``--box`` reads it (a bare ``3`` is refused)."""
        if text is None or not text.strip():
            return None
        from ..errors import SudokuError
        from ..validate import box

        try:
            return box(text)
        except SudokuError as exc:
            raise WebError(400, str(exc), field="box") from None

    def _call(fn: Callable[[], Any]) -> Any:
        from ..errors import SudokuError

        try:
            return fn()
        except SudokuError as exc:
            raise _from_library(exc) from None

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page() -> Any:
        return HTMLResponse(static.joinpath("index.html").read_text(encoding="utf-8"))

    @app.post("/api/parse", summary="Read a puzzle: its line, shape and symbols (for the page).")
    async def parse(body: PuzzleIn) -> dict[str, Any]:
        grid = read_grid(body.puzzle, _shape(body.box))
        shape = grid.shape
        return {"puzzle": grid.line(), "shape": str(shape), "size": shape.size, "box_rows": shape.box_rows,
                "box_cols": shape.box_cols, "symbols": shape.symbols, "clues": grid.clues}

    @app.post("/api/solve", summary="Solve a puzzle: the record of `sudoku solve --format jsonl`.")
    async def solve(body: SolveIn) -> dict[str, Any]:
        grid = read_grid(body.puzzle, _shape(body.box), check=False)  # clashing givens: an invalid record

        def run():
            from ..solving import solve as solve_grid

            return failed_record(records.result_record(
                _call(lambda: solve_grid(grid, body.method, timeout=budget(body.timeout)))))

        return await work(run, heavy_work=body.method not in ENGINE)

    @app.post("/api/count", summary="Count solutions up to a limit: `sudoku solve --count --format jsonl`.")
    async def count(body: CountIn) -> dict[str, Any]:
        grid = read_grid(body.puzzle, _shape(body.box), check=False)

        def run():
            from ..solving import count as count_grid

            result = _call(lambda: count_grid(grid, limit=body.limit, timeout=budget(body.timeout)))
            return failed_record(records.result_record(result, counting=True))

        return await work(run)

    @app.post("/api/rate", summary="Rate a puzzle: the record of `sudoku rate --format jsonl`.")
    async def rate(body: RateIn) -> dict[str, Any]:
        grid = read_grid(body.puzzle, _shape(body.box))

        def run():
            from ..logic import rate as rate_grid

            rating = _call(lambda: rate_grid(grid, timeout=budget(body.timeout), jobs=jobs))
            return records.rating_record(grid, rating)

        return await work(run, heavy_work=True)

    @app.post("/api/explain", summary="The solving path: the records of `sudoku explain --format jsonl`.")
    async def explain(body: RateIn) -> list[dict[str, Any]]:
        grid = read_grid(body.puzzle, _shape(body.box))

        def run():
            from ..logic import Candidates, explain as explain_grid

            path = _call(lambda: explain_grid(grid, timeout=budget(body.timeout), jobs=jobs))
            geo = Candidates.from_grid(grid).geo
            return [records.step_record(grid, number, step, geo) for number, step in enumerate(path, 1)]

        return await work(run, heavy_work=True)

    @app.post("/api/hint", summary="The next step: the record of `sudoku hint --format jsonl`, drawn.")
    async def hint(body: HintIn) -> dict[str, Any]:
        from ..errors import SudokuError
        from ..formats import parse_candidates

        try:  # a pencil-mark grid (the candidates format), as `sudoku hint` reads
            grid, masks = parse_candidates(body.puzzle, shape=_shape(body.box))
        except SudokuError:
            grid, masks = read_grid(body.puzzle, _shape(body.box), "the grid's values"), None
        givens = None if body.givens is None else read_grid(body.givens, _shape(body.box), field="givens")
        if grid.conflicts() and givens is None:  # (with the givens: the wrong entries are named)
            grid = read_grid(grid.line(), grid.shape, "the grid's values")  # the located refusal
        n = grid.size
        for cell, value in body.eliminated:
            if not (0 <= cell < n * n and 1 <= value <= n):
                raise WebError(400, f"eliminated: no candidate {value} in cell {cell} of a {n}x{n} grid",
                               field="eliminated")
        if body.eliminated:
            masks = list(grid.candidate_masks() if masks is None else masks)
            for cell, value in body.eliminated:
                masks[cell] &= ~(1 << (value - 1))

        def run():
            from ..logic import Candidates, hint as next_step
            from ..pictures.steps import step_svg

            step = _call(lambda: next_step(grid, givens=givens, marks=masks, timeout=budget(None), jobs=jobs))
            if step is None:
                raise WebError(422, "no technique applies here (solved, or beyond the implemented techniques)")
            state = Candidates.from_grid(grid) if masks is None else Candidates.from_masks(grid, masks)
            record = records.step_record(grid, 1, step, state.geo)
            record["moves"] = {"place": [list(p) for p in step.placements],
                               "remove": [list(e) for e in step.eliminations]}
            if body.svg:
                record["svg"] = step_svg(step)
            return record

        return await work(run, heavy_work=True)

    @app.post("/api/generate", summary="A new puzzle: the record of `sudoku generate --format jsonl`.")
    async def generate(body: GenerateIn) -> dict[str, Any]:
        shape = _shape(body.box)

        def run():
            from ..generation import generate as make

            puzzle = _call(lambda: make(shape=shape, minimal=body.minimal, symmetry=body.symmetry, seed=body.seed,
                                        difficulty=body.difficulty,
                                        timeout=time_limit if body.difficulty else None))
            return records.generated_record(puzzle)

        return await work(run, heavy_work=True)

    @app.post("/api/pdf", summary="The puzzle as a printable PDF (`sudoku print`).",
              response_class=Response, responses={200: {"content": {"application/pdf": {}}}})
    async def pdf(body: PdfIn) -> Any:
        grid = read_grid(body.puzzle, _shape(body.box))

        def run():
            from ..pictures.pdf import booklet

            return _call(lambda: booklet([grid], paper=body.paper, per_page=body.per_page,
                                         solutions=body.solutions, title=body.title, source="sudoku serve",
                                         rate_timeout=min(3.0, time_limit / 2)))

        data = await work(run, heavy_work=True)
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": 'attachment; filename="sudoku.pdf"'})

    if bank is not None:
        from .bank_routes import mount

        mount(app, bank, time_limit=time_limit)
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    return app


#: The compiled kernels the server loads before serving (those already in numba's cache).
WARM_KERNELS = ("count", "shapes", "logic", "producers", "chains", "nested", "cycles", "generate")


def warm_up() -> None:
    """Load the compiled kernels once, before serving, from numba's cache:
    the first light request is then as quick as the others, and every
    worker process is forked with them loaded rather than loading them for
    each request. A kernel not compiled yet is compiled where first used."""
    from ..engine.compiling import KERNELS, cold_seconds, warm_up as load
    from ..examples import example
    from ..solving import count, solve

    load(kernels=[g for g in WARM_KERNELS if g in KERNELS and not cold_seconds([g])])
    solve(example("easy"))
    count(example("easy"), limit=2)


def serve(host: str = "127.0.0.1", port: int = 8000, *, time_limit: float = TIME_LIMIT, max_body: int = MAX_BODY,
          workers: int = WORKERS, max_memory: int | None = None, announce: Callable[[str], None] | None = None,
          bank: str | None = None, jobs: int = JOBS) -> None:
    """Run the server until Ctrl-C (uvicorn)."""
    try:
        import uvicorn
    except ImportError:
        from ..pictures.pdf import MissingExtra

        raise MissingExtra("sudoku serve needs FastAPI and uvicorn: pip install 'sudokit[web]'") from None
    app = create_app(time_limit=time_limit, max_body=max_body, workers=workers, max_memory=max_memory, bank=bank,
                     jobs=jobs)
    warm_up()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    if announce is not None:
        shown = f"[{host}]" if ":" in host else host
        announce(f"sudoku serve: http://{shown}:{port}/  (Ctrl-C stops)")
    server.run()


__all__ = ["MAX_BODY", "TIME_LIMIT", "WebError", "create_app", "read_grid", "serve"]
