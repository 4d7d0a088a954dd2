"""Each class once: :class:`FirstSeen` remembers canonical forms in bounded memory.

A stream of canonical forms (millions of lines) goes through
:meth:`FirstSeen.first`, which says whether a form is new. The forms are
kept as 16-byte BLAKE2b digests (two different forms share a digest with a
chance below 10⁻²⁰ in a stream of ten million), in a set in memory up to
``memory`` digests; beyond it the set is spilled to a table of a temporary
SQLite file (its primary key is the digest), and lookups miss the set before
they ask the table. Memory stays under about ``memory`` x 100 bytes whatever
the stream's length; the file is removed on :meth:`close`.

>>> seen = FirstSeen(memory=2)
>>> [seen.first(k) for k in ["a", "b", "a", "c", "b", "d", "c"]]
[True, True, False, True, False, True, False]
>>> seen.spilled > 0
True
>>> seen.close()
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile


class FirstSeen:
    """Whether a key has been seen, in bounded memory (see the module text)."""

    def __init__(self, memory: int = 1_000_000, folder: str | None = None) -> None:
        self.memory = max(1, memory)
        self.folder = folder
        self._recent: set[bytes] = set()
        self._db: sqlite3.Connection | None = None
        self._path: str | None = None
        #: Digests moved to the file so far.
        self.spilled = 0

    def first(self, key: str) -> bool:
        """True the first time ``key`` is given, False after."""
        digest = hashlib.blake2b(key.encode(), digest_size=16).digest()
        if digest in self._recent:
            return False
        if self._db is not None and self._db.execute("SELECT 1 FROM seen WHERE k = ?", (digest,)).fetchone():
            return False
        self._recent.add(digest)
        if len(self._recent) >= self.memory:
            self._spill()
        return True

    def filter_text(self, text: str) -> str:
        """The lines of ``text`` (``sudoku canon`` output) whose class is new, in order; an empty
        line (a puzzle that failed: its note is on stderr) is dropped."""
        kept = [line for line in text.split("\n") if line and self.first(key_of(line))]
        return "\n".join(kept) + "\n" if kept else ""

    def _spill(self) -> None:
        if self._db is None:
            handle, self._path = tempfile.mkstemp(prefix="sudokit-dedupe-", suffix=".sqlite", dir=self.folder)
            os.close(handle)
            self._db = sqlite3.connect(self._path)
            self._db.execute("PRAGMA journal_mode = OFF")
            self._db.execute("PRAGMA synchronous = OFF")
            self._db.execute("CREATE TABLE seen (k BLOB PRIMARY KEY) WITHOUT ROWID")
        with self._db:
            self._db.executemany("INSERT OR IGNORE INTO seen VALUES (?)", ((k,) for k in self._recent))
        self.spilled += len(self._recent)
        self._recent.clear()

    def close(self) -> None:
        """Forget everything and remove the file."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._path is not None:
            try:
                os.remove(self._path)
            except OSError:
                pass
            self._path = None
        self._recent.clear()

    def __enter__(self) -> "FirstSeen":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def key_of(text: str) -> str:
    """The canonical form a line of ``sudoku canon``'s output carries: the line itself, or a
    jsonl record's ``canonical`` field (with its variant data, which is part of the class)."""
    if text.startswith("{"):
        import json

        record = json.loads(text)
        extra = "".join(str(record.get(k, "")) for k in ("variant", "regions", "cages"))
        return record.get("canonical", text) + extra
    return text
