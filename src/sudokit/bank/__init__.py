"""The puzzle bank: rated puzzles kept on disk, one row per class of equivalent puzzles.

A publisher who must never print the same puzzle twice, and a researcher who
must tell new puzzles from known ones, both keep a collection keyed by
canonical form. The bank is that collection, an SQLite file:

- :mod:`~sudokit.bank.schema`: the tables, the schema version and its migrations;
- :mod:`~sudokit.bank.store`: :class:`Bank`, the file opened, checked, written in transactions;
- :mod:`~sudokit.bank.keys`: the canonical key (the one place that calls :func:`sudokit.canonical`);
- :mod:`~sudokit.bank.rows`: puzzles read, and the rows they become;
- :mod:`~sudokit.bank.intake`: :func:`add`, files in, rated where they are not, resumable;
- :mod:`~sudokit.bank.bulk`, :mod:`~sudokit.bank.scan` and :mod:`~sudokit.bank.digest`: rated records in bulk,
  their compiled reader, and the digests of their keys;
- :mod:`~sudokit.bank.query`: :class:`Query` and :func:`choose`, with books (``mark_used``);
- :mod:`~sudokit.bank.stats`: :func:`summary`;
- :mod:`~sudokit.bank.exchange`: export and import, jsonl and Parquet;
- :mod:`~sudokit.bank.cluster`: a Parquet bank built on a Dask cluster.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as folder:
...     with Bank(os.path.join(folder, "bank.sqlite")) as bank:
...         bank.count()
0
"""

from .intake import AddReport, add
from .query import Query, choose
from .stats import Summary, summary
from .store import Bank, BankError, default_path

__all__ = ["AddReport", "Bank", "BankError", "Query", "Summary", "add", "choose", "default_path", "summary", "warm"]


def warm() -> None:
    """Compile (or load) the bank's own kernels: the reader of rating records, the digests of keys."""
    from . import digest, scan

    scan.warm()
    digest.warm()


def _register() -> None:
    """The package's kernel group, for the engine's first-run notice and ``sudoku warm-up``."""
    from ..engine.compiling import register

    register("bank", "the bank's reader of rating records and digests of keys",
             ("bank.scan.scan", "bank.scan.intern", "bank.digest.blake2b16"), 15.0, warm)


_register()
