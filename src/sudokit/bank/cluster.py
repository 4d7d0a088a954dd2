"""A bank built on a Dask cluster, as Parquet: beyond what one machine rates.

:func:`build` rates every puzzle of the input files on the cluster
(:func:`sudokit.distributed.run`, which writes the rated records of each
partition into ``DIR/rated``, and resumes there when run again), then each
worker turns one partition's records into bank records (keyed by canonical
form, a repeat within the partition counted) in ``DIR/part-00000.parquet``
and so on. The folder is a Parquet dataset: ``sudoku bank import DIR`` reads
it into a bank on one machine (repeats across partitions add up there), and
DuckDB, pyarrow or Dask read it as it is.
"""

from __future__ import annotations

import glob
import json
import os
import posixpath
from typing import Any, Callable, Sequence

__all__ = ["build"]


def _partition_to_parquet(rated_path: str, dest: str) -> tuple[int, int]:
    """One partition of rated records as a Parquet file of bank records: (records, failures)."""
    from ..records import bank_record
    from .exchange import records_to_parquet
    from .intake import parse_line
    from .keys import keyed_many
    from .rows import rnd_of, solutions, symmetries, symmetry_name  # noqa: F401
    from .families import families_of

    items = []
    failures = 0
    with open(rated_path, encoding="utf-8") as fh:
        for raw in fh:
            text = raw.strip()
            if not text:
                continue
            record = json.loads(text)
            got = parse_line(text, int(record.get("line") or 0), str(record.get("source") or ""))
            if isinstance(got, str) or got.rating is None:
                failures += 1
                continue
            items.append(got)
    keys = keyed_many([it.grid for it in items])
    sols = solutions(items)
    syms = symmetries([it.grid for it in items])
    by_key: dict[str, dict[str, Any]] = {}
    for it, keyed, solution, bits in zip(items, keys, sols, syms):
        if keyed.key in by_key:
            by_key[keyed.key]["seen"] += 1
            continue
        if solution is None:
            failures += 1
            continue
        r = it.rating or {}
        from .. import variants

        fields = variants.fields(it.grid.geometry) if it.grid.is_variant else {}
        row = {
            "puzzle": it.grid.line(), "solution": solution, "shape": str(it.grid.shape),
            "variant": fields.get("variant"), "regions": fields.get("regions"), "cages": fields.get("cages"),
            "clues": it.grid.clues, "symmetry": symmetry_name(bits), "automorphisms": keyed.automorphisms,
            "key": keyed.key, "transform": keyed.transform, "er": r.get("er"), "ep": r.get("ep"),
            "ed": r.get("ed"), "level": r.get("level"), "lower_bound": r.get("lower_bound"),
            "hardest": r.get("hardest"), "families": families_of(r.get("techniques") or ()),
            "steps": r.get("steps"), "score": r.get("score"), "score_level": r.get("score_level"),
            "source": it.source or None, "added": None, "seen": 1,
        }
        by_key[keyed.key] = row
    records = [bank_record(row) for row in by_key.values()]
    records_to_parquet(records, dest)
    return len(records), failures


def build(paths: Sequence[str], out_dir: str, client: Any, *, timeout: float | None = None,
          blocksize: int | None = None, notes: Callable[[str], None] = lambda text: None) -> tuple[int, int]:
    """Rate ``paths`` on the cluster of ``client`` and write a Parquet bank into
    ``out_dir``; (records written, puzzles that failed)."""
    from .. import distributed
    from ..pipeline import Job
    from .store import today

    os.makedirs(out_dir, exist_ok=True)
    rated_dir = posixpath.join(out_dir, "rated")
    job = Job("rate", fmt="jsonl", timeout=timeout)
    summary = distributed.run(job, list(paths), client=client, out_dir=rated_dir, blocksize=blocksize, notes=notes)
    parts = sorted(glob.glob(posixpath.join(rated_dir, "part-*.txt")))
    dests = [posixpath.join(out_dir, os.path.basename(p).replace(".txt", ".parquet")) for p in parts]
    futures = client.map(_partition_to_parquet, parts, dests, pure=False)
    written = failed = 0
    for made, bad in client.gather(futures):
        written += made
        failed += bad
    with open(posixpath.join(out_dir, "_sudokit.json"), "w", encoding="utf-8") as fh:
        json.dump({"kind": "sudokit bank", "form": "patminlex", "built": today(), "records": written,
                   "puzzles": summary.puzzles, "failed": summary.failures}, fh)
    return written, max(failed, summary.failures)
