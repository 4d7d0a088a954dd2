"""The bank on disk: an SQLite file in WAL mode, opened, checked, written in transactions.

A :class:`Bank` is one connection to one file. Writes happen in short
``BEGIN IMMEDIATE`` transactions (:meth:`Bank.writing`): a batch of puzzles
and the note of how far its input has gone in are committed together, so a
killed ``bank add`` loses nothing it had reported, and running it again goes
on from there. Several processes may write at once: SQLite's lock lets one
transaction in at a time and the others wait (``busy_timeout``); the key's
``UNIQUE`` constraint turns a puzzle added by both into one row seen twice.

WAL with ``synchronous=NORMAL``: a commit survives the process being killed
(not always a power cut, where the last commits may be rolled back; the file
stays whole either way).

Faults become a :class:`BankError` with one clear line: a file written by a
newer sudokit, a file that is not a bank, a read-only file or folder, a full
disk, a bank locked for too long. The transaction that met the fault is
rolled back, so the bank is left as it was before it.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ..errors import SudokuError
from . import schema

__all__ = ["Bank", "BankError", "default_path"]

#: Seconds a writer waits for another one's transaction before giving up.
BUSY_SECONDS = 120.0


class BankError(SudokuError):
    """The bank cannot be opened, read or written: the message says why, in one line."""


def default_path() -> Path:
    """The bank used when ``--bank`` is not given: ``bank.sqlite`` in the user's data folder
    (``$XDG_DATA_HOME/sudokit``, else ``~/.local/share/sudokit``; on macOS
    ``~/Library/Application Support/sudokit``; on Windows ``%LOCALAPPDATA%\\sudokit``).
    ``SUDOKIT_BANK`` names another file."""
    named = os.environ.get("SUDOKIT_BANK")
    if named:
        return Path(named).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "sudokit" / "bank.sqlite"


def today() -> str:
    """The date stamped on what is added, ISO form (UTC)."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")


def _reason(exc: BaseException) -> str:
    text = str(exc)
    lowered = text.lower()
    if "readonly" in lowered or "read-only" in lowered:
        return "it is read-only (the file, or its folder, where SQLite keeps its journal)"
    if "disk is full" in lowered or "disk i/o" in lowered or isinstance(exc, OSError) and exc.errno == 28:
        return "the disk is full"
    if "locked" in lowered or "busy" in lowered:
        return f"another process held it locked for more than {BUSY_SECONDS:g} s"
    if "not a database" in lowered or "malformed" in lowered:
        return "it is not a SQLite database, or it is damaged"
    if "unable to open" in lowered:
        return "the file cannot be opened (a missing or read-only folder?)"
    return text


class Bank:
    """An open bank file.

    ``readonly`` opens an existing bank for queries only; otherwise the file
    (and its folder) is made when missing, and an older schema is migrated.
    ``key`` turns a batch of grids into their keys (default:
    :func:`sudokit.bank.keys.keyed_many`).
    """

    def __init__(self, path: "str | os.PathLike[str] | None" = None, *, readonly: bool = False,
                 key: Any = None, timeout: float = BUSY_SECONDS) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.readonly = readonly
        if key is None:
            from .keys import keyed_many as key
        self.key = key
        self.conn = self._open(timeout)
        #: Digests of classes this connection knows the bank holds rated and solved (see :meth:`held`).
        self.settled: set[bytes] = set()
        #: True while :attr:`settled` holds every class the bank held rated and solved when
        #: last looked at (an add into an empty bank sets it): :meth:`held` then asks SQLite nothing.
        self.settled_whole = False

    # -- opening ----------------------------------------------------------------------

    def _open(self, timeout: float) -> sqlite3.Connection:
        path = self.path
        if path.is_dir():
            raise BankError(f"bank {path} is a folder; name a file, such as {path / 'bank.sqlite'}")
        if self.readonly and not path.exists():
            raise BankError(f"no bank at {path} (make one with: sudoku bank add --bank {path} FILE)")
        if not self.readonly and not path.parent.exists():
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise BankError(f"cannot make the folder of bank {path}: {exc.strerror or exc}") from None

        def connect(target: str, uri: bool) -> sqlite3.Connection:
            try:
                return sqlite3.connect(target, uri=uri, timeout=timeout, isolation_level=None,
                                       check_same_thread=False)
            except sqlite3.Error as exc:
                raise BankError(f"cannot open bank {path}: {_reason(exc)}") from None

        conn = connect(f"file:{path}?mode=ro", True) if self.readonly else connect(str(path), False)
        try:
            self._check(conn)
        except BankError:
            conn.close()
            if not self.readonly:
                raise
            # a bank on a read-only medium: no one can write it, so it is read as immutable
            # (SQLite cannot make the shared-memory file WAL readers need there)
            conn = connect(f"file:{path}?mode=ro&immutable=1", True)
            try:
                self._check(conn)
            except BaseException:
                conn.close()
                raise
        except BaseException:
            conn.close()
            raise
        return conn

    def _check(self, conn: sqlite3.Connection) -> None:
        path = self.path
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            app = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise BankError(f"cannot open bank {path}: {_reason(exc)}") from None
        if tables and app != schema.APPLICATION_ID:
            raise BankError(f"{path} is an SQLite file but not a sudokit bank; name another file with --bank")
        if version > schema.VERSION:
            raise BankError(
                f"bank {path} was written by a newer sudokit (bank schema {version}; this sudokit reads "
                f"schema {schema.VERSION} and older): upgrade sudokit to use it")
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        if self.readonly:
            if not tables:
                raise BankError(f"{path} is not a sudokit bank (it is empty)")
            if version < schema.VERSION:
                raise BankError(f"bank {path} has the older schema {version}; open it once for writing "
                                f"(sudoku bank add) to bring it to schema {schema.VERSION}")
            return
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA cache_size = -65536")
            conn.execute("PRAGMA temp_store = MEMORY")
            if not tables:
                with self._transaction(conn):
                    schema.create(conn)
                    from .keys import FORM

                    conn.execute("INSERT OR IGNORE INTO meta(name, value) VALUES ('form', ?)", (FORM,))
                    conn.execute("INSERT OR IGNORE INTO meta(name, value) VALUES ('created', ?)", (today(),))
            else:
                if version < schema.VERSION:
                    try:
                        schema.migrate(conn, version)
                    except (KeyError, RuntimeError, ValueError) as exc:
                        raise BankError(f"cannot bring bank {path} from schema {version} to {schema.VERSION}: "
                                        f"{exc}; it is left at schema "
                                        f"{conn.execute('PRAGMA user_version').fetchone()[0]}") from None
                self._ensure_indexes(conn)
        except sqlite3.Error as exc:
            raise BankError(f"cannot write bank {path}: {_reason(exc)}; it is left as it was") from None

    # -- secondary indexes ------------------------------------------------------------

    #: The indexes a big add may drop and build again (``used``'s stays: an add does not touch it).
    DEFERRABLE = ("puzzle_er", "puzzle_hardest", "puzzle_rnd")

    def _ensure_indexes(self, conn: sqlite3.Connection) -> None:
        """Build the secondary indexes that are missing (an add that dropped them
        was stopped before it built them again); nothing when all are there."""
        present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        missing = [name for name in schema.INDEXES if name not in present]
        if missing:
            with self._transaction(conn):
                for name in missing:
                    conn.execute(schema.INDEXES[name])

    def drop_indexes(self) -> None:
        """Drop the puzzle table's secondary indexes, for a big add into a small
        bank (each row then costs one B-tree insertion, not four); the key's
        stays, so repeats are still found. :meth:`build_indexes` puts them back;
        if the process is stopped first, the next opening for writing does."""
        with self.writing() as conn:
            for name in self.DEFERRABLE:
                conn.execute(f"DROP INDEX IF EXISTS {name}")

    def build_indexes(self) -> None:
        """Build whatever secondary index is missing (each in one sorted pass,
        whose runs spill to temporary files, not memory, when they are big)."""
        try:
            self.conn.execute("PRAGMA temp_store = FILE")
            try:
                self._ensure_indexes(self.conn)
            finally:
                self.conn.execute("PRAGMA temp_store = MEMORY")
        except sqlite3.Error as exc:
            raise BankError(f"cannot write bank {self.path}: {_reason(exc)}") from None

    def rows_hint(self) -> int:
        """About how many puzzles the bank holds (its largest id: no scan)."""
        with self.reading() as conn:
            return int(conn.execute("SELECT coalesce(max(id), 0) FROM puzzle").fetchone()[0])

    # -- transactions -----------------------------------------------------------------

    @staticmethod
    @contextlib.contextmanager
    def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    @contextlib.contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none (a fault
        becomes a :class:`BankError` and the bank is left as before)."""
        if self.readonly:
            raise BankError(f"bank {self.path} is open for reading only")
        try:
            with self._transaction(self.conn) as conn:
                yield conn
        except sqlite3.Error as exc:
            raise BankError(f"cannot write bank {self.path}: {_reason(exc)}; nothing of this batch went in, "
                            f"and the bank is whole") from None

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """Queries, with faults as a :class:`BankError`."""
        try:
            yield self.conn
        except sqlite3.Error as exc:
            raise BankError(f"cannot read bank {self.path}: {_reason(exc)}") from None

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            if not self.readonly:
                self.conn.execute("PRAGMA optimize")
        self.conn.close()

    def __enter__(self) -> "Bank":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the bank holds ----------------------------------------------------------

    def meta(self, name: str) -> str | None:
        with self.reading() as conn:
            row = conn.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else row[0]

    def count(self) -> int:
        """Puzzles (classes) in the bank."""
        with self.reading() as conn:
            return conn.execute("SELECT count(*) FROM puzzle").fetchone()[0]

    def known(self, keys: Iterable[str]) -> set[str]:
        """Which of ``keys`` the bank holds."""
        from .rows import digest_of

        digests = {digest_of(key): key for key in keys}
        found: set[str] = set()
        todo = list(digests)
        with self.reading() as conn:
            for i in range(0, len(todo), 500):
                part = todo[i:i + 500]
                marks = ",".join("?" * len(part))
                found.update(digests[r[0]] for r in conn.execute(
                    f"SELECT digest FROM puzzle WHERE digest IN ({marks})", part))
        return found

    #: The most digests :attr:`settled` keeps (about 100 bytes each); past it, it starts again.
    SETTLED = 500_000

    def remember(self, digests: Iterable[bytes]) -> None:
        """Remember that the classes of ``digests`` are held rated and solved
        (after the transaction that wrote them is committed)."""
        settled = self.settled
        settled.update(digests)
        if len(settled) > self.SETTLED:
            settled.clear()
            self.settled_whole = False

    def held(self, digests: Iterable[bytes]) -> dict[bytes, int]:
        """Which of the key ``digests`` the bank holds, each with its state: 1
        when its class has a solution, plus 2 when it is rated.

        A class never leaves a bank, nor loses its rating or its solution, so
        the classes known to be held rated and solved (:attr:`settled`, those
        this connection wrote or met in a big add) are answered from memory;
        only the others are looked up; none while :attr:`settled_whole` holds.
        A class that another writer added meanwhile is then not seen here: its
        row's upsert meets it, and counts it as held, all the same."""
        unique = set(digests)
        known = unique & self.settled
        out: dict[bytes, int] = dict.fromkeys(known, 3)
        if self.settled_whole:
            return out
        todo = list(unique - known) if known else list(unique)
        with self.reading() as conn:
            step = max(1, min(4096, conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)))
            for i in range(0, len(todo), step):
                part = todo[i:i + step]
                out.update(conn.execute(
                    "SELECT digest, (solution IS NOT NULL) + 2 * (er IS NOT NULL) FROM puzzle "
                    f"WHERE digest IN ({','.join('?' * len(part))})", part))
        return out

    def families(self) -> dict[str, int]:
        """The technique families met so far, each with its bit."""
        with self.reading() as conn:
            return {name: bit for bit, name in conn.execute("SELECT bit, name FROM family")}

    def family_bits(self, conn: sqlite3.Connection, names: Iterable[str]) -> dict[str, int]:
        """The bit of every family in ``names``, new ones given the next free bits
        (inside the caller's transaction)."""
        known = {name: bit for bit, name in conn.execute("SELECT bit, name FROM family")}
        for name in names:
            if name not in known:
                bit = max(known.values(), default=-1) + 1
                if bit > 62:
                    raise BankError(f"bank {self.path} holds 63 technique families already; cannot add {name!r}")
                conn.execute("INSERT INTO family(bit, name) VALUES (?, ?)", (bit, name))
                known[name] = bit
        return known

    def intake_lines(self, input_id: str) -> int:
        """The last line of ``input_id`` that went in (0: none)."""
        with self.reading() as conn:
            row = conn.execute("SELECT lines FROM intake WHERE input = ?", (input_id,)).fetchone()
        return 0 if row is None else int(row[0])

    def book_id(self, conn: sqlite3.Connection, name: str, create: bool = True) -> int | None:
        row = conn.execute("SELECT id FROM book WHERE name = ?", (name,)).fetchone()
        if row is not None:
            return int(row[0])
        if not create:
            return None
        return int(conn.execute("INSERT INTO book(name, created) VALUES (?, ?)", (name, today())).lastrowid)

    def mark_used(self, conn: sqlite3.Connection, ids: Sequence[int], book: str) -> None:
        """Record that the puzzles ``ids`` went into ``book`` (inside the caller's transaction)."""
        book_id = self.book_id(conn, book)
        stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        conn.executemany("INSERT OR IGNORE INTO used(book, puzzle, at) VALUES (?, ?, ?)",
                         [(book_id, i, stamp) for i in ids])
