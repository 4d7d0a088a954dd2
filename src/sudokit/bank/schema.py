"""The bank's tables, its schema version, and the migrations between versions.

The version is SQLite's ``user_version``. A bank file at an older version is
brought up to :data:`VERSION` when it is opened for writing, one migration at
a time, each in its own transaction (a failed migration leaves the file as it
was). A file at a newer version is refused: this sudokit does not know what
the newer one keeps.

The tables:

``meta``
    The bank's own settings: ``form``, the canonical form that keys it.

``puzzle``
    One row per equivalence class, keyed by ``key``: the canonical form (see
    :mod:`sudokit.bank.keys`), indexed through ``digest``, its 128-bit BLAKE2b
    hash (a fifth of the key's size in the index, so adding stays quick in a big
    bank; two classes share a digest with a chance near 2⁻¹²⁸ times the square
    of the bank's size). It keeps the puzzle as it was first given, the
    transformation that maps it onto the canonical form, the solution, the
    shape, the variant's units, clues, the symmetries of the clue pattern
    (``symmetries``, a bit per :data:`SYMMETRY_BITS`, and ``symmetry``, the
    largest), the automorphism count, the rating (ER/EP/ED, level, score,
    hardest technique), the technique families on the path (``families``, a
    bit per row of ``family``), where and when it was first added, and
    ``rnd``, a fixed pseudo-random number (the digest's first 8 bytes), that
    orders a random choice.
``seen``
    How many times a class was given (``n``), for each class given more than
    once, keyed by the digest; a class without a row here was given once. A
    repeat is the common case of a big add, and this narrow table takes it
    without rewriting the class's wide row (schema 2; schema 1 kept the
    count in ``puzzle.seen``). A row of the bank as the queries read it has
    the count as ``seen`` (:data:`ROW`).
``family``
    The technique families met so far, each with its bit in ``families`` (the
    bits are the bank's own, so that a catalogue that grows keeps old banks
    readable).
``book``, ``used``
    Named books (``--mark-used``), and which puzzles each used.
``intake``
    How far each input file has gone in, so that an interrupted ``bank add``
    resumes where it stopped.

Indexes serve the queries: ``er`` (a range of ratings or a level),
``(hardest_family, er)`` (the hardest technique), ``(rnd, er, families,
hardest_family)`` (a random choice: the walk in ``rnd`` order tests the
rating and technique filters in the index, without reading the rows), and
``used(puzzle)`` (unused puzzles).
"""

from __future__ import annotations

import sqlite3
from typing import Callable

__all__ = ["APPLICATION_ID", "INDEXES", "MIGRATIONS", "ROW", "SEEN", "SYMMETRY_BITS", "TABLES", "VERSION", "create",
           "migrate"]

#: The schema this sudokit writes.
VERSION = 2

#: SQLite's ``application_id`` for a bank file ("SDKB").
APPLICATION_ID = 0x53444B42

#: The symmetries of a clue pattern, each with its bit in ``puzzle.symmetries``
#: (names as :mod:`sudokit.generation.symmetry` has them), largest group last.
SYMMETRY_BITS: dict[str, int] = {
    "rotate180": 1, "mirror": 2, "flip": 4, "diagonal": 8, "rotate90": 16, "dihedral": 32,
}

TABLES = """
CREATE TABLE IF NOT EXISTS meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle (
    id INTEGER PRIMARY KEY,
    digest BLOB NOT NULL UNIQUE,
    key TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    transform TEXT,
    solution TEXT,
    shape TEXT NOT NULL,
    variant TEXT,
    regions TEXT,
    cages TEXT,
    clues INTEGER NOT NULL,
    symmetries INTEGER NOT NULL DEFAULT 0,
    symmetry TEXT NOT NULL DEFAULT 'none',
    automorphisms INTEGER,
    er REAL, ep REAL, ed REAL,
    level TEXT,
    score INTEGER,
    score_level TEXT,
    lower_bound INTEGER,
    steps INTEGER,
    hardest TEXT,
    hardest_family INTEGER,
    families INTEGER NOT NULL DEFAULT 0,
    source TEXT,
    added TEXT NOT NULL,
    rnd INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seen (
    digest BLOB PRIMARY KEY,
    n INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS family (
    bit INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS book (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS used (
    book INTEGER NOT NULL REFERENCES book(id),
    puzzle INTEGER NOT NULL REFERENCES puzzle(id),
    at TEXT NOT NULL,
    PRIMARY KEY (book, puzzle)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS intake (
    input TEXT PRIMARY KEY,
    lines INTEGER NOT NULL,
    puzzles INTEGER NOT NULL DEFAULT 0,
    updated TEXT NOT NULL
);
"""

#: The secondary indexes (dropped and built again around a big import).
INDEXES: dict[str, str] = {
    "puzzle_er": "CREATE INDEX IF NOT EXISTS puzzle_er ON puzzle(er)",
    "puzzle_hardest": "CREATE INDEX IF NOT EXISTS puzzle_hardest ON puzzle(hardest_family, er)",
    "puzzle_rnd": "CREATE INDEX IF NOT EXISTS puzzle_rnd ON puzzle(rnd, er, families, hardest_family)",
    "used_puzzle": "CREATE INDEX IF NOT EXISTS used_puzzle ON used(puzzle)",
}

#: How many times the class of a ``puzzle`` row was given (an SQL expression).
SEEN = "coalesce((SELECT n FROM seen WHERE seen.digest = puzzle.digest), 1)"

#: A whole row of the bank as the queries read it: the ``puzzle`` row and its ``seen`` count.
ROW = f"SELECT puzzle.*, {SEEN} AS seen FROM puzzle"


def _seen_apart(conn: sqlite3.Connection) -> None:
    """Schema 1 to 2: the counts move from the column ``puzzle.seen`` to the narrow table ``seen``."""
    conn.execute("CREATE TABLE IF NOT EXISTS seen (digest BLOB PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID")
    conn.execute("INSERT INTO seen(digest, n) SELECT digest, seen FROM puzzle WHERE seen > 1")
    try:
        conn.execute("ALTER TABLE puzzle DROP COLUMN seen")
    except sqlite3.OperationalError:  # SQLite before 3.35 cannot drop a column: it stays, unread
        pass


#: ``MIGRATIONS[v]`` brings a bank from version ``v`` to ``v + 1``.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _seen_apart}


def create(conn: sqlite3.Connection) -> None:
    """The tables and indexes of a new bank, at :data:`VERSION` (in the caller's transaction)."""
    for statement in TABLES.split(";"):
        if statement.strip():
            conn.execute(statement)
    for sql in INDEXES.values():
        conn.execute(sql)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {VERSION}")


def migrate(conn: sqlite3.Connection, found: int, target: int | None = None) -> list[int]:
    """Bring a bank at version ``found`` up to ``target`` (default :data:`VERSION`),
    a migration at a time, each in its own transaction; the versions passed through."""
    target = VERSION if target is None else target
    passed = []
    for version in range(found, target):
        step = MIGRATIONS.get(version)
        if step is None:
            raise KeyError(f"no migration from bank schema {version} to {version + 1}")
        conn.execute("BEGIN IMMEDIATE")
        try:
            step(conn)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        passed.append(version + 1)
    return passed
