"""The bank's endpoints, mounted when ``sudoku serve --bank PATH`` names a bank.

=======================  ==========================================================
``GET /api/bank``        whether a bank is served, its file and how many puzzles it holds
``POST /api/bank/query`` puzzles chosen as ``sudoku bank query`` chooses them: bank records
                         (``sudoku bank query --format jsonl``); ``mark_used`` records them
                         in a book in the same transaction
``POST /api/bank/add``   puzzles (lines, or jsonl records) added as ``sudoku bank add`` adds them
=======================  ==========================================================

The page uses the first two to draw "a new puzzle of this level that I have
not played": a query with ``not_in: "played"`` that marks its puzzle played.
Each request opens the bank for itself (SQLite serialises the writers), and
the work runs off the event loop.
"""


from typing import Any

#: The most puzzles one query returns.
MAX_QUERY = 100
#: The most text one add takes (the server's body limit applies too).
MAX_ADD_TEXT = 2_000_000


def mount(app: Any, bank_path: str, *, time_limit: float = 20.0) -> None:
    """Add the bank's endpoints to the FastAPI ``app``."""
    import anyio
    from pydantic import BaseModel, Field

    from ..bank import Bank, BankError, Query, add, choose
    from ..bank.query import parse_range
    from ..errors import SudokuError
    from ..records import bank_record
    from .app import WebError

    Bank(bank_path).close()  # made now if missing, and any fault said at start-up

    class QueryIn(BaseModel):
        rating: str | None = Field(None, description="ER range LO-HI, such as 6.2-9.0.")
        level: str | None = Field(None, description="easy, medium, hard, fiendish or diabolical.")
        technique: str | None = Field(None, description="A technique on the path (names as generate --technique).")
        hardest: str | None = Field(None, description="The technique that set ER.")
        clues: str | None = Field(None, description="Givens, LO-HI.")
        symmetry: str | None = None
        variant: str | None = None
        shape: str | None = None
        source: str | None = None
        unused: bool = False
        not_in: str | None = Field(None, max_length=200, description="Only puzzles this book has not used.")
        n: int = Field(1, ge=1, le=MAX_QUERY)
        order: str = "random"
        seed: int | None = Field(None, ge=0)
        mark_used: str | None = Field(None, max_length=200, description="Record the chosen puzzles in this book.")

    class AddIn(BaseModel):
        puzzles: str = Field(..., max_length=MAX_ADD_TEXT,
                             description="Puzzles, one a line, or jsonl records (rating records go in rated).")
        source: str = Field("web", max_length=200, description="Where they come from.")

    async def off_loop(fn: Any) -> Any:
        try:
            with anyio.fail_after(time_limit + 1.0):
                return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)
        except TimeoutError:
            raise WebError(503, f"the time limit of {time_limit:g} s per request ran out") from None

    def bank_error(exc: Exception) -> WebError:
        if isinstance(exc, BankError):
            return WebError(503, str(exc))
        return WebError(400, str(exc))

    @app.get("/api/bank", summary="The bank served: its file and size.")
    async def about() -> dict[str, Any]:
        def run() -> dict[str, Any]:
            with Bank(bank_path, readonly=True) as bank:
                return {"bank": True, "path": str(bank.path), "puzzles": bank.count()}

        try:
            return await off_loop(run)
        except (BankError, SudokuError) as exc:
            raise bank_error(exc) from None

    @app.post("/api/bank/query", summary="Choose puzzles from the bank: `sudoku bank query --format jsonl`.")
    async def query(body: QueryIn) -> dict[str, Any]:
        import random

        try:
            q = Query(rating=None if body.rating is None else parse_range(body.rating, "rating"), level=body.level,
                      technique=body.technique, hardest=body.hardest,
                      clues=None if body.clues is None else parse_range(body.clues, "clues", True),
                      symmetry=body.symmetry, variant=body.variant, shape=body.shape, source=body.source,
                      unused=body.unused, not_in=body.not_in, n=body.n, order=body.order,
                      seed=random.randrange(1 << 62) if body.seed is None else body.seed)
        except SudokuError as exc:
            raise WebError(400, str(exc)) from None

        def run() -> list[dict[str, Any]]:
            with Bank(bank_path, readonly=body.mark_used is None) as bank:
                return [bank_record(row) for row in choose(bank, q, mark_used=body.mark_used)]

        try:
            found = await off_loop(run)
        except (BankError, SudokuError) as exc:
            raise bank_error(exc) from None
        return {"puzzles": found, "marked": body.mark_used}

    @app.post("/api/bank/add", summary="Add puzzles to the bank: `sudoku bank add`.")
    async def add_puzzles(body: AddIn) -> dict[str, Any]:
        notes: list[str] = []

        def run() -> Any:
            with Bank(bank_path) as bank:
                return add(bank, [], texts=[(body.source, body.puzzles)], timeout=time_limit / 4,
                           notes=notes.append)

        try:
            report = await off_loop(run)
        except (BankError, SudokuError) as exc:
            raise bank_error(exc) from None
        return {"puzzles": report.puzzles, "new": report.new, "repeats": report.repeats, "rated": report.rated,
                "failed": report.failed, "notes": notes}


__all__ = ["MAX_QUERY", "mount"]
