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
                        the puzzle may carry pencil marks (the candidates format)
``POST /api/generate``  a generated record (``sudoku generate --format jsonl``)
``POST /api/pdf``       a PDF booklet of the puzzle (``sudoku print``)
=================  ==========================================================

``/openapi.json`` describes them; ``/docs`` is FastAPI's page for trying them.

Bad input gets a 4xx answer ``{"error": message, "reason": ..., "place":
{"line": .., "column": ..}}``: 400 unreadable text or a bad option, 413 a
body over the size limit, 422 a puzzle that breaks the rules, has no
solution, or where no technique applies. Every request has a time limit:
the work gets the library's budget (``timeout=``) and runs on a small thread
pool; if it is not back in time the answer is 503, and the server goes on.
"""

from importlib import resources
from typing import Any, Callable

#: Defaults of ``sudoku serve``.
TIME_LIMIT = 20.0      # seconds of work per request
MAX_BODY = 256_000     # bytes per request body
WORKERS = 2            # requests worked on at once
MAX_PUZZLE_TEXT = 100_000


class WebError(Exception):
    """An answer other than 200: status, message, and where in the input."""

    def __init__(self, status: int, message: str, *, reason: str | None = None, line: int | None = None,
                 column: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message = status, message
        self.reason = reason or message
        self.place = {k: v for k, v in (("line", line), ("column", column), ("field", field)) if v is not None}

    def body(self) -> dict[str, Any]:
        return {"error": self.message, "reason": self.reason, "place": self.place or None}


def _from_library(exc: Exception, field: str = "puzzle") -> WebError:
    from ..errors import BadOption, Contradiction, InvalidPuzzle, LimitReached, ParseError, ShapeError, UnknownMethod

    if isinstance(exc, ParseError):
        return WebError(400, str(exc), reason=exc.reason, line=exc.line, column=exc.column, field=field)
    if isinstance(exc, (ShapeError, BadOption, UnknownMethod)):
        return WebError(400, str(exc), field=field)
    if isinstance(exc, LimitReached):
        return WebError(503, str(exc), field=field)
    if isinstance(exc, (InvalidPuzzle, Contradiction)):
        return WebError(422, str(exc), field=field)
    return WebError(422, str(exc), field=field)


def read_grid(text: str, box: Any = None, what: str = "the givens") -> Any:
    """The one puzzle in ``text``; a located :class:`WebError` otherwise
    (``what`` names the grid in the message when it breaks the rules)."""
    from ..errors import SudokuError
    from ..formats import read_puzzles

    if not text or not text.strip():
        raise WebError(400, "the puzzle is empty: paste a grid (81 digits and dots, rows, or a boxed grid)",
                       field="puzzle")
    try:
        entries = list(read_puzzles(text, shape=box))
    except SudokuError as exc:
        raise _from_library(exc) from None
    if not entries:
        raise WebError(400, "no puzzle found in the text", field="puzzle")
    if len(entries) > 1:
        raise WebError(400, f"the text holds {len(entries)} puzzles; send one at a time", field="puzzle")
    entry = entries[0]
    if entry.error is not None or entry.grid is None:
        raise _from_library(entry.error)
    grid = entry.grid
    conflicts = grid.conflicts()
    if conflicts:
        raise WebError(422, f"{what} break the rules: " + "; ".join(str(c) for c in conflicts[:4]),
                       field="puzzle")
    return grid


def create_app(*, time_limit: float = TIME_LIMIT, max_body: int = MAX_BODY, workers: int = WORKERS,
               bank: str | None = None) -> Any:
    """The FastAPI application (needs the ``web`` extra); with ``bank``, the bank's
    endpoints too (:mod:`sudokit.web.bank_routes`)."""
    try:
        import anyio
        from fastapi import FastAPI, Request
        from fastapi.exceptions import RequestValidationError
        from fastapi.responses import HTMLResponse, JSONResponse, Response
        from fastapi.staticfiles import StaticFiles
        from pydantic import BaseModel, Field
    except ImportError:
        from ..pictures.pdf import MissingExtra

        raise MissingExtra("sudoku serve needs FastAPI and uvicorn: pip install 'sudokit[web]'") from None

    from .. import __version__, records

    limiter = anyio.CapacityLimiter(workers)
    app = FastAPI(title="sudokit", version=__version__,
                  description="Solve, count, rate, explain, hint and generate Sudoku puzzles of any box shape. "
                              "Each endpoint returns the record `sudoku ... --format jsonl` writes.")
    static = resources.files("sudokit.web").joinpath("static")

    async def work(fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the pool within the time limit (queueing included)."""
        try:
            with anyio.fail_after(time_limit + 1.0):
                return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True, limiter=limiter)
        except TimeoutError:
            raise WebError(503, f"the time limit of {time_limit:g} s per request ran out; try again, or ask "
                                f"for less") from None

    def budget(asked: float | None) -> float:
        return time_limit if asked is None else max(0.01, min(asked, time_limit))

    @app.middleware("http")
    async def limit_size(request: Request, call_next):
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > max_body:
            error = WebError(413, f"the request is {int(length)} bytes; the limit is {max_body}")
            return JSONResponse(error.body(), status_code=413)
        return await call_next(request)

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError):
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where or 'body'}: {first.get('msg', 'invalid request')}"
        error = WebError(400, message, reason=first.get("msg", "invalid request"), field=where or None)
        return JSONResponse(error.body(), status_code=400)

    class PuzzleIn(BaseModel):
        puzzle: str = Field(..., max_length=MAX_PUZZLE_TEXT,
                            description="One puzzle in any format the readers accept (line, rows, boxed, ...).")
        box: str | None = Field(None, description="Box shape RxC when it cannot be guessed, such as 2x3.",
                                examples=["3x3"])

    class SolveIn(PuzzleIn):
        method: str = Field("fast", description="A method name, as `--method`.")
        timeout: float | None = Field(None, gt=0, description="Seconds; capped by the server's limit.")

    class CountIn(PuzzleIn):
        limit: int = Field(2, ge=1, le=10**9, description="Stop counting here.")
        timeout: float | None = Field(None, gt=0)

    class RateIn(PuzzleIn):
        timeout: float | None = Field(None, gt=0, description="Seconds for the chain searches.")

    class HintIn(PuzzleIn):
        eliminated: list[tuple[int, int]] = Field(
            default_factory=list, max_length=100_000,
            description="Candidates already removed, as [cell, value] (cell 0-based).")
        svg: bool = Field(True, description="Also return the step drawn on its grid.")

    class GenerateIn(BaseModel):
        box: str = Field("3x3", description="Box shape RxC.")
        difficulty: str | None = Field(None, description="easy, medium, hard, fiendish or diabolical.")
        seed: int | None = Field(None, ge=0)
        minimal: str = "unique"
        symmetry: str = "none"

    class PdfIn(PuzzleIn):
        paper: str = "a4"
        per_page: int = 1
        solutions: bool = True
        title: str = Field("Sudoku", max_length=200)

    def _shape(text: str | None) -> Any:
        if text is None:
            return None
        from ..errors import SudokuError
        from ..grid import Shape

        try:
            return Shape.parse(text)
        except SudokuError as exc:
            raise WebError(400, f"box: {exc}", field="box") from None

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
        grid = read_grid(body.puzzle, _shape(body.box))

        def run():
            from ..solving import solve as solve_grid

            return records.result_record(_call(lambda: solve_grid(grid, body.method, timeout=budget(body.timeout))))

        return await work(run)

    @app.post("/api/count", summary="Count solutions up to a limit: `sudoku solve --count --format jsonl`.")
    async def count(body: CountIn) -> dict[str, Any]:
        grid = read_grid(body.puzzle, _shape(body.box))

        def run():
            from ..solving import count as count_grid

            result = _call(lambda: count_grid(grid, limit=body.limit, timeout=budget(body.timeout)))
            return records.result_record(result, counting=True)

        return await work(run)

    @app.post("/api/rate", summary="Rate a puzzle: the record of `sudoku rate --format jsonl`.")
    async def rate(body: RateIn) -> dict[str, Any]:
        grid = read_grid(body.puzzle, _shape(body.box))

        def run():
            from ..logic import rate as rate_grid

            return records.rating_record(grid, _call(lambda: rate_grid(grid, timeout=budget(body.timeout))))

        return await work(run)

    @app.post("/api/explain", summary="The solving path: the records of `sudoku explain --format jsonl`.")
    async def explain(body: RateIn) -> list[dict[str, Any]]:
        grid = read_grid(body.puzzle, _shape(body.box))

        def run():
            from ..logic import Candidates, explain as explain_grid

            path = _call(lambda: explain_grid(grid, timeout=budget(body.timeout)))
            geo = Candidates.from_grid(grid).geo
            return [records.step_record(grid, number, step, geo) for number, step in enumerate(path, 1)]

        return await work(run)

    @app.post("/api/hint", summary="The next step: the record of `sudoku hint --format jsonl`, drawn.")
    async def hint(body: HintIn) -> dict[str, Any]:
        from ..errors import SudokuError
        from ..formats import parse_candidates

        try:  # a pencil-mark grid (the candidates format), as `sudoku hint` reads
            grid, masks = parse_candidates(body.puzzle, shape=_shape(body.box))
        except SudokuError:
            grid, masks = read_grid(body.puzzle, _shape(body.box), "the grid's values"), None
        if grid.conflicts():
            grid = read_grid(grid.line(), grid.shape, "the grid's values")  # the located refusal
        n = grid.size
        for cell, value in body.eliminated:
            if not (0 <= cell < n * n and 1 <= value <= n):
                raise WebError(400, f"eliminated: no candidate {value} in cell {cell} of a {n}x{n} grid",
                               field="eliminated")

        def run():
            from ..logic import Candidates, hint as next_step
            from ..pictures.steps import step_svg

            state = Candidates.from_masks(grid, masks) if masks is not None else Candidates.from_grid(grid)
            for cell, value in body.eliminated:
                if not grid.values[cell]:
                    state.eliminate(cell, value)
            step = _call(lambda: next_step(state))
            if step is None:
                raise WebError(422, "no technique applies here (solved, or beyond the implemented techniques)")
            record = records.step_record(grid, 1, step, state.geo)
            record["moves"] = {"place": [list(p) for p in step.placements],
                               "remove": [list(e) for e in step.eliminations]}
            if body.svg:
                record["svg"] = step_svg(step)
            return record

        return await work(run)

    @app.post("/api/generate", summary="A new puzzle: the record of `sudoku generate --format jsonl`.")
    async def generate(body: GenerateIn) -> dict[str, Any]:
        shape = _shape(body.box)

        def run():
            from ..generation import generate as make

            puzzle = _call(lambda: make(shape=shape, minimal=body.minimal, symmetry=body.symmetry, seed=body.seed,
                                        difficulty=body.difficulty,
                                        timeout=time_limit if body.difficulty else None))
            return records.generated_record(puzzle)

        return await work(run)

    @app.post("/api/pdf", summary="The puzzle as a printable PDF (`sudoku print`).",
              response_class=Response, responses={200: {"content": {"application/pdf": {}}}})
    async def pdf(body: PdfIn) -> Any:
        grid = read_grid(body.puzzle, _shape(body.box))

        def run():
            from ..pictures.pdf import booklet

            return _call(lambda: booklet([grid], paper=body.paper, per_page=body.per_page,
                                         solutions=body.solutions, title=body.title, source="sudoku serve",
                                         rate_timeout=min(3.0, time_limit / 2)))

        data = await work(run)
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": 'attachment; filename="sudoku.pdf"'})

    if bank is not None:
        from .bank_routes import mount

        mount(app, bank, time_limit=time_limit)
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, *, time_limit: float = TIME_LIMIT, max_body: int = MAX_BODY,
          workers: int = WORKERS, announce: Callable[[str], None] | None = None, bank: str | None = None) -> None:
    """Run the server until Ctrl-C (uvicorn)."""
    try:
        import uvicorn
    except ImportError:
        from ..pictures.pdf import MissingExtra

        raise MissingExtra("sudoku serve needs FastAPI and uvicorn: pip install 'sudokit[web]'") from None
    app = create_app(time_limit=time_limit, max_body=max_body, workers=workers, bank=bank)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    if announce is not None:
        shown = f"[{host}]" if ":" in host else host
        announce(f"sudoku serve: http://{shown}:{port}/  (Ctrl-C stops)")
    server.run()


__all__ = ["MAX_BODY", "TIME_LIMIT", "WebError", "create_app", "read_grid", "serve"]
