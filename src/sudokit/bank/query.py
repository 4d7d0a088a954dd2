"""Choosing puzzles from the bank: filters, a seeded random order, and books.

A :class:`Query` says what to choose: a range of ER or a level, a technique
on the path or the hardest one (the catalogue's names and aliases), clues,
symmetry, variant, shape, source, and puzzles unused or not used in a named
book. :func:`choose` returns up to ``n`` rows; with ``mark_used`` it records
them in that book in the same transaction, so two runs at once never choose
the same puzzle for it.

The random order is seeded: every puzzle has a fixed pseudo-random number
(``rnd``, drawn from its key), and a seed picks a starting point on that
circle; the puzzles come in order from there. The same seed on the same bank
gives the same puzzles, and the choice walks an index, so it is quick
however big the bank.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any, Iterator

from ..errors import SudokuError
from .rows import rnd_of
from .schema import ROW, SYMMETRY_BITS
from .store import Bank

__all__ = ["LEVELS", "ORDERS", "Query", "choose", "grid_of", "parse_range", "reserve", "to_record"]

#: SE levels and their ER ranges (as :func:`sudokit.logic.rating.se_level` draws them).
LEVELS: dict[str, tuple[float, float]] = {
    "easy": (0.0, 1.2), "medium": (1.25, 1.6), "hard": (1.65, 2.5), "fiendish": (2.55, 6.0),
    "diabolical": (6.05, 100.0),
}

#: How the chosen puzzles are ordered.
ORDERS = ("random", "rating", "added")


def parse_range(text: str, what: str = "rating", whole: bool = False) -> tuple[float, float]:
    """``LO-HI``, ``LO-`` or a single number as a closed range.

    >>> parse_range("6.2-9.0"), parse_range("4"), parse_range("24-", "clues", True)
    ((6.2, 9.0), (4.0, 4.0), (24.0, inf))
    """
    body = text.strip()
    cut = body.find("-", 1)
    try:
        if cut < 0:
            low = high = float(body)
        else:
            low = float(body[:cut]) if body[:cut].strip() else float("-inf")
            high = float(body[cut + 1:]) if body[cut + 1:].strip() else float("inf")
    except ValueError:
        example = "24-30" if whole else "6.2-9.0"
        raise SudokuError(f"cannot read {what} range {text!r}: expected LO-HI such as {example}") from None
    if low > high:
        raise SudokuError(f"{what} range {text!r} is empty: {low:g} > {high:g}")
    return low, high


@dataclass(frozen=True)
class Query:
    """What to choose from the bank (every filter optional)."""

    rating: tuple[float, float] | None = None
    level: str | None = None
    technique: str | None = None
    hardest: str | None = None
    clues: tuple[float, float] | None = None
    symmetry: str | None = None
    variant: str | None = None
    shape: str | None = None
    source: str | None = None
    unused: bool = False
    not_in: str | None = None
    rated: bool | None = None
    n: int | None = 10
    order: str = "random"
    seed: int = 0

    def __post_init__(self) -> None:
        if self.level is not None and self.level not in LEVELS:
            raise SudokuError(f"unknown level {self.level!r}; choose one of: {', '.join(LEVELS)}")
        if self.order not in ORDERS:
            raise SudokuError(f"unknown order {self.order!r}; choose one of: {', '.join(ORDERS)}")
        if self.symmetry is not None and self.symmetry != "none" and self.symmetry not in SYMMETRY_BITS:
            raise SudokuError(f"unknown symmetry {self.symmetry!r}; choose one of: none, "
                              f"{', '.join(SYMMETRY_BITS)}")


def _where(bank: Bank, conn: Any, q: Query) -> tuple[list[str], list[Any]] | None:
    """The SQL conditions and their values; None when nothing can match (a
    technique the bank has never met)."""
    from .families import resolve

    where: list[str] = []
    args: list[Any] = []
    if q.rating is not None:
        where.append("er BETWEEN ? AND ?")
        args += [q.rating[0] - 1e-9, q.rating[1] + 1e-9]
    if q.level is not None:
        low, high = LEVELS[q.level]
        where.append("er BETWEEN ? AND ?")  # the level's ER range (ER has one decimal)
        args += [low - 1e-9, high + 1e-9]
    bits = {name: bit for bit, name in conn.execute("SELECT bit, name FROM family")}
    if q.technique is not None:
        family = resolve(q.technique)
        if family not in bits:
            return None
        where.append("families & ? != 0")
        args.append(1 << bits[family])
    if q.hardest is not None:
        family = resolve(q.hardest)
        if family not in bits:
            return None
        where.append("hardest_family = ?")
        args.append(bits[family])
    if q.clues is not None:
        where.append("clues BETWEEN ? AND ?")
        args += [q.clues[0], min(q.clues[1], 1 << 62)]
    if q.symmetry is not None:
        if q.symmetry == "none":
            where.append("symmetries = 0")
        else:
            where.append("symmetries & ? != 0")
            args.append(SYMMETRY_BITS[q.symmetry])
    if q.variant is not None:
        if q.variant in ("classic", "none", ""):
            where.append("variant IS NULL")
        else:
            where.append("variant = ?")
            args.append(q.variant)
    if q.shape is not None:
        where.append("shape = ?")
        args.append(q.shape)
    if q.source is not None:
        where.append("instr(source, ?) > 0")
        args.append(q.source)
    if q.rated is not None:
        where.append("er IS NOT NULL" if q.rated else "er IS NULL")
    if q.unused:
        where.append("NOT EXISTS (SELECT 1 FROM used WHERE used.puzzle = puzzle.id)")
    if q.not_in is not None:
        book = bank.book_id(conn, q.not_in, create=False)
        if book is not None:
            where.append("NOT EXISTS (SELECT 1 FROM used WHERE used.puzzle = puzzle.id AND used.book = ?)")
            args.append(book)
    return where, args


def _select(bank: Bank, conn: Any, q: Query) -> list[dict[str, Any]]:
    made = _where(bank, conn, q)
    if made is None:
        return []
    where, args = made
    limit = -1 if q.n is None else q.n
    cond = " AND ".join(where) or "1"
    conn.row_factory = _dict_row
    try:
        if q.order == "random":
            rating = q.rating if q.rating is not None else LEVELS.get(q.level) if q.level else None
            if rating is not None:
                rating = (rating[0] - 1e-9, rating[1] + 1e-9)
            return _random(conn, cond, args, rnd_of(f"seed {q.seed}"), q.n, rating)
        order = "er, id" if q.order == "rating" else "id"
        return conn.execute(f"{ROW} WHERE {cond} ORDER BY {order} LIMIT ?", [*args, limit]).fetchall()
    finally:
        conn.row_factory = None


#: Rows a random choice walks in ``rnd`` order before it takes the filters' own indexes instead.
WALK = 20_000


def _random(conn: Any, cond: str, args: list[Any], start: int, n: int | None,
            rating: tuple[float, float] | None = None) -> list[dict[str, Any]]:
    """Up to ``n`` rows that match, in ``rnd`` order from ``start`` round the circle.

    The quick way walks the ``rnd`` index from the start and tests each row:
    its cost is ``n`` over the share of rows that match, whatever the bank's
    size. It walks arcs of the circle, the first holding about :data:`WALK`
    rows (``rnd`` is uniform), each next one four times longer, up to
    ``64 * WALK`` rows. When the filters are narrower than that, or the ER
    range holds fewer rows than the walk would take, the filters' own indexes
    find every match, and the matches are sorted."""
    if n is not None:
        narrow = False
        held = conn.execute("SELECT max(id) AS last FROM puzzle").fetchone()["last"] or 0
        if rating is not None:  # a walk needs about n * held / inside rows; the ER index, inside
            inside = conn.execute("SELECT count(*) AS n FROM (SELECT 1 FROM puzzle WHERE er BETWEEN ? AND ? "
                                  f"LIMIT {4 * WALK})", rating).fetchone()["n"]
            narrow = inside * inside < n * held
        found: list[int] = []
        low, arc, walked = start, WALK, 0
        while not narrow and walked < 64 * WALK:
            high = low + (1 << 64) * arc // max(held, 1)
            if high >= 1 << 63:
                break
            found += [r["id"] for r in conn.execute(
                f"SELECT id FROM puzzle INDEXED BY puzzle_rnd WHERE rnd >= ? AND rnd < ? AND {cond} "
                "ORDER BY rnd LIMIT ?", [low, high, *args, n - len(found)])]
            if len(found) == n:
                return _rows(conn, found)
            low, walked, arc = high, walked + arc, arc * 4
    limit = -1 if n is None else n
    ids = [r["id"] for r in conn.execute(f"SELECT id FROM puzzle WHERE {cond} AND rnd >= ? ORDER BY +rnd LIMIT ?",
                                         [*args, start, limit])]
    if n is None or len(ids) < n:
        more = -1 if n is None else n - len(ids)
        ids += [r["id"] for r in conn.execute(f"SELECT id FROM puzzle WHERE {cond} AND rnd < ? ORDER BY +rnd "
                                              "LIMIT ?", [*args, start, more])]
    return _rows(conn, ids)


def _rows(conn: Any, ids: list[int]) -> list[dict[str, Any]]:
    """The rows of ``ids``, in that order."""
    rows = []
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        found = {r["id"]: r for r in conn.execute(
            f"{ROW} WHERE id IN ({','.join('?' * len(part))})", part)}
        rows += [found[k] for k in part]
    return rows


def _dict_row(cursor: Any, row: tuple) -> dict[str, Any]:
    return {d[0]: v for d, v in zip(cursor.description, row)}


def choose(bank: Bank, q: Query, *, mark_used: str | None = None) -> list[dict[str, Any]]:
    """Up to ``q.n`` puzzles that match ``q`` (rows as dicts, ``families`` as
    names); with ``mark_used``, recorded in that book in the same transaction."""
    if mark_used is not None:
        if not mark_used.strip():
            raise SudokuError("--mark-used needs a book's name")
        with bank.writing() as conn:
            rows = _select(bank, conn, q)
            bank.mark_used(conn, [r["id"] for r in rows], mark_used)
    else:
        with bank.reading() as conn:
            rows = _select(bank, conn, q)
    return _named(bank, rows)


def _named(bank: Bank, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with their family bits as names."""
    with bank.reading() as conn:
        names = {bit: name for bit, name in conn.execute("SELECT bit, name FROM family")}
    for row in rows:
        mask = row.get("families") or 0
        row["families"] = [names[b] for b in sorted(names) if mask >> b & 1]
        row["hardest_family"] = names.get(row["hardest_family"]) if row.get("hardest_family") is not None else None
    return rows


@contextlib.contextmanager
def reserve(bank: Bank, q: Query, book: str | None) -> Iterator[list[dict[str, Any]]]:
    """Puzzles chosen for ``book`` and held in a write transaction while the
    caller uses them (prints a booklet): recorded as used in the book when
    the block ends without an error, and not at all otherwise. Without
    ``book``, just the choice."""
    if book is None:
        yield choose(bank, q)
        return
    if not book.strip():
        raise SudokuError("--mark-used needs a book's name")
    with bank.writing() as conn:
        rows = _named(bank, _select(bank, conn, q))
        yield rows
        bank.mark_used(conn, [r["id"] for r in rows], book)


def grid_of(row: dict[str, Any], solution: bool = False) -> Any:
    """The puzzle (or its solution) of a row, as a grid under its units."""
    from .. import variants
    from ..grid import Grid

    grid = Grid(row["solution" if solution else "puzzle"], row["shape"])
    fields = {k: row[k] for k in ("variant", "regions") if row.get(k)}
    if row.get("cages"):
        fields["cages"] = json.loads(row["cages"])
    geometry = variants.from_fields(grid.shape, fields) if fields else None
    return grid.with_geometry(geometry)


def to_record(row: dict[str, Any]) -> dict[str, Any]:
    """A chosen row as its jsonl record (:func:`sudokit.records.bank_record`)."""
    from ..records import bank_record

    return bank_record(row)
