"""Batches on a ``dask.distributed`` cluster: files bigger than one machine, every worker busy.

One concern: running a :class:`sudokit.pipeline.Job` (solve, count, rate...)
over files, or a :class:`sudokit.pipeline.GenerateJob` over seed ranges, on a
Dask cluster, with the same output as the serial path.

Input
    Files, globs or fsspec URLs, read in *partitions* of ``blocksize`` bytes
    without loading a whole file anywhere. A line belongs to the partition in
    which it starts (the rule of ``dask.bag.read_text``). To report the *real*
    line numbers, the workers first count the newlines of every block (a
    cheap pass at disk speed), and a prefix sum gives each partition its
    first line number. Only one-puzzle-per-line input (``line`` or ``jsonl``)
    can be split this way; a block format is refused with a clear message.

Output
    Without ``out_dir``, the results are written in input order through
    ``write`` (standard output by default), byte for byte what the serial
    path prints. A window of partitions runs ahead (2 to 16 per worker, and
    at most 256 MiB of input); finished ones wait in memory until every
    earlier one has been written, so memory stays bounded whatever the size
    of the input.

    With ``out_dir``, each worker writes its partition to
    ``part-00000.txt``, ``part-00001.txt``... (first to a temporary name,
    then renamed, so a file is either complete or absent), and
    ``manifest.json`` records the inputs (size, mtime), the job and every
    partition (byte range, first line, puzzles, failures, status). Running
    the same command again resumes: finished partitions are skipped. A
    changed input or job refuses to resume. :func:`merge` assembles one file
    in input order at the end.

Faults
    A worker that dies loses its running partition; the scheduler gives the
    partition to another worker (``distributed.scheduler.allowed-failures``
    deaths at most), and it is computed again from its byte range. A
    partition's text reaches standard output only once it is complete and
    every earlier one has been written, and a partition's file appears only
    by an atomic rename, so no line is lost and none is written twice.

Workers
    :class:`WarmUp`, a worker plugin, loads or compiles the job's kernels
    once per worker process, when the worker joins (and again on a worker
    that replaces a dead one).

    The numba cache is left where numba puts it (beside the installed
    package, or the user's cache when that is read-only), shared by every
    worker process of a machine. That is safe: numba writes each cache file
    under a temporary name and renames it into place, and readers only ever
    see whole files. A private ``NUMBA_CACHE_DIR`` per worker would only make
    every worker compile everything again. What sharing does not prevent is
    N workers compiling the same kernels at once on a fresh install; a file
    lock makes the workers of one machine warm up one after the other, so
    the first compiles and the others load its cache.

Requires the ``dask`` extra: ``pip install 'sudokit[dask]'``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import math
import os
import posixpath
import tempfile
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from .errors import SudokuError

try:  # the plugin class needs the base class at import time; everything else imports lazily
    from distributed.diagnostics.plugin import WorkerPlugin as _WorkerPlugin
except ImportError:  # pragma: no cover - without the extra, every entry point says how to install it
    _WorkerPlugin = object  # type: ignore[assignment,misc]

__all__ = [
    "DEFAULT_BLOCKSIZE", "Summary", "WarmUp", "client_for", "cluster", "generate", "merge", "partitions",
    "run",
]

#: The largest partition, in bytes.
DEFAULT_BLOCKSIZE = 64 * 2**20
#: Partitions per worker the automatic block size aims at (many, so that slow ones even out).
PARTITIONS_PER_WORKER = 32
#: Bytes of a typical input line (a 9x9 puzzle and its newline), to turn puzzles into bytes.
LINE_BYTES = 82
#: Seconds to wait for a scheduler before giving up.
CONNECT_TIMEOUT = 10.0
#: Retries of a partition whose task raised (an I/O hiccup); a dead worker is handled by the scheduler.
RETRIES = 2
#: Partitions in flight (submitted, or done and waiting for an earlier one) per worker: at least
#: the first, at most the second, and no more than :data:`WINDOW_BYTES` of input in all.
WINDOW_PER_WORKER = (2, 16)
WINDOW_BYTES = 256 * 2**20
#: Name of the manifest in an output directory.
MANIFEST = "manifest.json"
MANIFEST_VERSION = 1
_INSTALL = "pip install 'sudokit[dask]'"
_READ_CHUNK = 4 * 2**20


def _dask() -> Any:
    """The ``distributed`` package, or a clear error saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise SudokuError(f"running on a cluster needs dask.distributed: {_INSTALL}") from None
    return distributed


# -- the cluster -----------------------------------------------------------------------


def client_for(address: str, *, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A ``distributed.Client`` for ``address``.

    ``"local"`` starts a ``LocalCluster`` with one single-threaded worker
    process per CPU, ``"local:N"`` with N of them; the client owns that
    cluster and closes it when it is closed. Anything else is the address of
    a running scheduler (``tcp://host:8786``, or ``host:8786``); an
    unreachable one is a :class:`SudokuError` after ``timeout`` seconds.
    """
    distributed = _dask()
    address = str(address).strip()
    if address == "local" or address.startswith("local:"):
        count = address.partition(":")[2]
        if count:
            if not count.isdigit() or int(count) < 1:
                raise SudokuError(f"--cluster local:N needs a number of workers N >= 1, not {count!r}")
            workers = int(count)
        else:
            from .pool import cpu_count

            workers = cpu_count()
        return distributed.Client(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        )
    if not address:
        raise SudokuError("the cluster address is empty: give local, local:N or tcp://HOST:PORT")
    if "://" not in address:
        address = f"tcp://{address}"
    try:
        return distributed.Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SudokuError(
            f"cannot reach the dask scheduler at {address} within {timeout:g} s ({exc}); "
            "start one with `dask scheduler` and workers with `dask worker ADDRESS`"
        ) from None


@contextlib.contextmanager
def cluster(address: str, *, timeout: float = CONNECT_TIMEOUT) -> Iterator[Any]:
    """:func:`client_for` as a context manager: the client (and a local cluster) closes on exit.

    The worker processes of a local cluster start deaf to Ctrl-C (:func:`_deaf_workers`): the
    terminal sends it to the whole process group, and this process stops them itself."""
    client = None
    try:
        with _deaf_workers():
            client = client_for(address, timeout=timeout)
        yield client
    except KeyboardInterrupt:  # the workers' calls cut short are not errors to show (asyncio logs
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # a future never read as one)
        raise
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()


@contextlib.contextmanager
def _deaf_workers(limit: float = 10 * CONNECT_TIMEOUT) -> Iterator[None]:
    """While inside (a local cluster starting), Ctrl-C is ignored, so that the worker
    processes started meanwhile inherit that: the terminal sends Ctrl-C to the whole process
    group, and a worker still starting would die of it with a KeyboardInterrupt traceback
    each. Ignoring is the one setting a new Python process keeps (a handler or a blocked mask
    is reset when it starts); once started, the workers leave Ctrl-C to this process, which
    closes the cluster.

    A Ctrl-C meanwhile is not lost: a small forked watcher in the same process group, with a
    handler, hears it and says so through a pipe; on leaving, this process raises the
    KeyboardInterrupt it would have had. The watcher ends with the start (or after ``limit``
    seconds, should this process die first)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(os, "fork"):
        yield
        return
    heard, tell = os.pipe()
    watcher = os.fork()
    if watcher == 0:  # the watcher: only signal handling and os calls (other threads' locks are not ours)
        def said(signum: int, frame: Any) -> None:
            os.write(tell, b"!")
            os._exit(0)

        signal.signal(signal.SIGINT, said)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(max(1, int(limit)))
        while True:
            signal.pause()
    os.close(tell)
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        with contextlib.suppress(ProcessLookupError):
            os.kill(watcher, signal.SIGKILL)
        os.waitpid(watcher, 0)
        os.set_blocking(heard, False)
        try:
            interrupted = os.read(heard, 1) == b"!"
        except BlockingIOError:
            interrupted = False
        os.close(heard)
    if interrupted:
        raise KeyboardInterrupt


def _workers(client: Any) -> int:
    return max(1, len(client.scheduler_info().get("workers", {})))


# -- warming up the workers ---------------------------------------------------------------


def _warm(job: Any) -> None:
    """``pipeline.warm(job)`` on this machine, one worker process at a time (see the module doc)."""
    from . import pipeline

    lock_path = os.path.join(tempfile.gettempdir(), "sudokit-warm.lock")
    try:
        import fcntl

        with open(lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                pipeline.warm(job)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    except (ImportError, OSError):  # no flock here: warm up side by side
        pipeline.warm(job)


class WarmUp(_WorkerPlugin):  # type: ignore[misc,valid-type]
    """A worker plugin that warms the kernels of ``job`` once per worker process.

    Registered by :func:`run` and :func:`generate`; a worker that joins later
    (one that replaces a dead worker) warms up as it starts. The warm-up runs
    in a thread, so the worker keeps answering the scheduler meanwhile.
    """

    def __init__(self, job: Any) -> None:
        self.job = job
        self.name = f"sudokit-warm-{type(job).__name__}-{getattr(job, 'command', '')}-{getattr(job, 'method', '')}"

    async def setup(self, worker: Any) -> None:
        try:
            await asyncio.get_running_loop().run_in_executor(None, _warm, self.job)
        except Exception as exc:  # the first task compiles what it needs, and reports any real error
            logging.getLogger(__name__).warning("warm-up of %s failed: %r", self.name, exc)


# -- partitions of the input ------------------------------------------------------------------


@dataclass(frozen=True)
class Input:
    """One input file: the URL the workers open, the name used in messages, its size and mtime."""

    url: str
    name: str
    size: int
    mtime: str


@dataclass
class Partition:
    """The lines that start in bytes ``[start, end)`` of input number ``input``.

    ``first_line`` and ``first_puzzle`` number them as in the whole file
    (known after the counting pass); ``lines``, ``puzzles`` and ``failures``
    are what the partition held and did, ``seconds`` the CPU time its worker
    spent on it; ``status`` is ``pending`` or ``done``.
    """

    index: int
    input: int
    start: int
    end: int
    first_line: int = 1
    first_puzzle: int = 1
    lines: int = 0
    status: str = "pending"
    puzzles: int = 0
    failures: int = 0
    seconds: float = 0.0

    @property
    def file(self) -> str:
        return part_file(self.index)

    @property
    def notes_file(self) -> str:
        return notes_file(self.index)


def part_file(index: int) -> str:
    """The name of partition ``index``'s output file: ``part-00000.txt``..."""
    return f"part-{index:05d}.txt"


def notes_file(index: int) -> str:
    """The name of partition ``index``'s failure notes (only when some puzzle failed)."""
    return f"part-{index:05d}.notes"


@dataclass
class Summary:
    """What a run did: puzzles seen, puzzles failed, partitions computed and skipped (resumed),
    the CPU seconds the workers spent on the partitions computed, and the names of the inputs
    that held no puzzle (an empty file, or only blanks and comments)."""

    puzzles: int = 0
    failures: int = 0
    partitions: int = 0
    skipped: int = 0
    seconds: float = 0.0
    empty: list[str] = dataclasses.field(default_factory=list)


def _expand(paths: Sequence[str]) -> list[Input]:
    """Every input file of ``paths`` (files, globs, fsspec URLs), in order, with size and mtime."""
    import fsspec
    from fsspec.utils import infer_compression

    if isinstance(paths, str):
        paths = [paths]
    inputs: list[Input] = []
    for given in paths:
        given = os.fspath(given)
        if given == "-":
            raise SudokuError("the cluster reads files, not standard input: give file paths or URLs")
        try:
            fs, _, found = fsspec.core.get_fs_token_paths(given, mode="rb", expand=True)
        except (ValueError, ImportError) as exc:
            raise SudokuError(f"{given}: cannot open ({exc})") from None
        if not found:
            raise SudokuError(f"{given}: no file matches")
        for path in found:
            try:
                info = fs.info(path)
            except FileNotFoundError:
                raise SudokuError(f"{given}: no such file") from None
            except OSError as exc:
                raise SudokuError(f"{given}: cannot read ({exc})") from None
            if info.get("type") == "directory":
                raise SudokuError(f"{path}: is a directory, not a puzzle file")
            if infer_compression(path):
                raise SudokuError(f"{path}: a compressed file cannot be split into partitions; decompress it first")
            mtime = info.get("mtime", info.get("LastModified", info.get("created", "")))
            name = given if len(found) == 1 and not any(c in given for c in "*?[") else path
            inputs.append(Input(fs.unstrip_protocol(path), name, int(info["size"]), str(mtime)))
    return inputs


def _auto_blocksize(total: int, workers: int, job: Any = None) -> int:
    """The default partition size: about :data:`PARTITIONS_PER_WORKER` partitions per worker,
    within bounds set by the job's own chunk of puzzles (``Job.chunk_size``: 4096 on the
    engine, 4 for rating): at least 2 chunks of the engine's, so that the cost of a partition
    (tens of ms) stays small beside its work, or half a chunk of rating (2 puzzles), whose
    work per puzzle is far above that cost and uneven; and at most 1024 chunks (64 MiB at most), so that a slow
    partition does not hold the run, and a lost one costs little.

    >>> _auto_blocksize(41_000, 2, None) == 2 * 4096 * LINE_BYTES   # the engine: 8192 puzzles at least
    True
    >>> _auto_blocksize(10**9, 2, None) == 10**9 // 64  # 64 partitions of a big file
    True
    """
    chunk = getattr(job, "chunk_size", 4096)
    # uneven work (rating: 1 ms to seconds a puzzle) wants small partitions, so that the slowest
    # does not hold the run; the engine's even work wants big ones
    low = (2 * chunk if chunk >= 64 else max(1, chunk // 2)) * LINE_BYTES
    high = min(DEFAULT_BLOCKSIZE, 1024 * chunk * LINE_BYTES)
    return max(low, min(high, math.ceil(total / (PARTITIONS_PER_WORKER * workers)) if total else 1))


def partitions(inputs: Sequence[Input], blocksize: int) -> list[Partition]:
    """Byte ranges of ``blocksize`` over every input, numbered across inputs."""
    if blocksize < 1:
        raise SudokuError(f"the block size must be at least 1 byte, not {blocksize}")
    parts: list[Partition] = []
    for i, item in enumerate(inputs):
        for start in range(0, max(item.size, 1), blocksize):
            parts.append(Partition(len(parts), i, start, min(start + blocksize, item.size)))
    return parts


def _read_range(url: str, start: int, end: int) -> bytes:
    """The bytes of the lines that start in ``[start, end)`` of ``url``, the last one read to
    its end (runs on a worker)."""
    import fsspec

    with fsspec.open(url, "rb") as f:
        if start > 0:
            f.seek(start - 1)
            if f.read(1) != b"\n":  # `start` is inside a line that belongs to the partition before
                f.readline()
        begin = f.tell()
        data = f.read(end - begin) if end > begin else b""
        if data and not data.endswith(b"\n"):
            data += f.readline()  # the last line started in range: read it to its end
    return data


def _count_lines(url: str, start: int, end: int) -> tuple[int, int]:
    """(lines, puzzles) that start in bytes ``[start, end)`` of ``url``: a puzzle is a line that
    is neither blank nor a ``#`` comment, as :func:`sudokit.pipeline.run_lines` reads them
    (runs on a worker; the first pass, that numbers the partitions)."""
    lines = _read_lines(url, start, end)
    if start == 0:
        _drop_header(lines)
    puzzles = 0
    for line in lines:
        text = line.strip()
        if text and not text.startswith("#"):
            puzzles += 1
    return len(lines), puzzles


def _read_lines(url: str, start: int, end: int) -> list[str]:
    """The lines that start in bytes ``[start, end)`` of ``url``, decoded, without newlines."""
    data = _read_range(url, start, end)
    text = data.decode("utf-8-sig" if start == 0 else "utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# -- the work of one partition (runs on a worker) --------------------------------------------------


def _write_atomic(fs: Any, path: str, text: str) -> None:
    """``text`` into ``path``: a temporary name in the same folder, then a rename."""
    tmp = f"{path}.tmp-{uuid.uuid4().hex}"
    with fs.open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    fs.mv(tmp, path)


def _solve_partition(job: Any, url: str, source: str, start: int, end: int, first_line: int,
                     first_puzzle: int, out_dir: str | None, index: int) -> dict[str, Any]:
    """Run ``job`` over one partition: its text (or, with ``out_dir``, its file) and counters."""
    from . import pipeline

    began = time.process_time()
    lines = _read_lines(url, start, end)
    if start == 0:
        _drop_header(lines)
    result = pipeline.run_lines(job, lines, first_line=first_line, source=source, first_puzzle=first_puzzle)
    return _finish(result, out_dir, index, began)


def _seed_partition(job: Any, start: int, count: int, filtered: bool, out_dir: str | None,
                    index: int) -> dict[str, Any]:
    """Puzzles of seeds ``start..start+count-1`` (runs on a worker). With a filter, one seed
    at a time, so that the matches come back one record each and the first n can be cut exactly."""
    from . import pipeline

    began = time.process_time()
    if filtered:
        records: list[str] = []
        failures, notes = 0, []
        for seed in range(start, start + count):
            one = pipeline.run_seeds(job, seed, 1)
            failures += one.failures
            notes.extend(one.notes)
            if one.text:
                records.append(one.text)
        return {"records": records, "puzzles": len(records), "failures": failures, "notes": notes,
                "seconds": time.process_time() - began}
    result = pipeline.run_seeds(job, start, count)
    return _finish(result, out_dir, index, began)


def _finish(result: Any, out_dir: str | None, index: int, began: float) -> dict[str, Any]:
    """A chunk's result for the client: counters and notes, and its text, or with
    ``out_dir`` its files (notes first, then the text: a partition is done when its text is there)."""
    out: dict[str, Any] = {"puzzles": result.puzzles, "failures": result.failures, "notes": list(result.notes),
                           "seconds": round(time.process_time() - began, 4)}
    if out_dir is None:
        out["text"] = result.text
        return out
    import fsspec

    fs, root = fsspec.core.url_to_fs(out_dir)
    if result.notes:
        _write_atomic(fs, posixpath.join(root, notes_file(index)), "".join(f"{n}\n" for n in result.notes))
    _write_atomic(fs, posixpath.join(root, part_file(index)), result.text)
    return out


# -- in order, a window at a time -------------------------------------------------------------------


def _ordered(client: Any, tasks: Iterable[tuple[int, Callable[..., Any], tuple[Any, ...]]],
             window: int, tag: str) -> Iterator[tuple[int, Any]]:
    """Run ``(index, function, args)`` tasks on the cluster, at most ``window`` of them submitted
    and not yet yielded, and yield ``(index, result)`` in the order of ``tasks``."""
    distributed = _dask()
    tasks = iter(tasks)
    futures: dict[Any, int] = {}
    order: list[int] = []  # indexes in submission order
    ready: dict[int, Any] = {}
    done = distributed.as_completed()
    position = 0

    def submit() -> bool:
        item = next(tasks, None)
        if item is None:
            return False
        index, function, args = item
        future = client.submit(function, *args, key=f"sudokit-{tag}-{index}", retries=RETRIES, pure=False)
        futures[future] = index
        order.append(index)
        done.add(future)
        return True

    try:
        while len(order) - position < window and submit():
            pass
        for future in done:
            index = futures.pop(future)
            try:
                ready[index] = future.result()
            except distributed.KilledWorker:
                raise SudokuError(
                    f"partition {index} was given up: every worker that ran it died "
                    "(distributed.scheduler.allowed-failures); is a worker running out of memory?"
                ) from None
            del future
            while position < len(order) and order[position] in ready:
                index = order[position]
                position += 1
                yield index, ready.pop(index)
                while len(order) - position < window and submit():
                    pass
    finally:
        if futures:
            client.cancel(list(futures))


# -- the manifest ------------------------------------------------------------------------------------


def _job_record(job: Any) -> dict[str, Any]:
    """The job as plain JSON data (tuples become lists), with its type."""
    return json.loads(json.dumps({"type": type(job).__name__, **dataclasses.asdict(job)}))


class _Manifest:
    """``manifest.json`` of an output directory: read, checked against this run, rewritten
    atomically (at most once a second while partitions finish, and at the end)."""

    def __init__(self, out_dir: str) -> None:
        import fsspec

        self.url = out_dir
        self.fs, self.root = fsspec.core.url_to_fs(out_dir)
        self.path = posixpath.join(self.root, MANIFEST)
        self.data: dict[str, Any] = {}
        self._saved = 0.0

    def load(self) -> dict[str, Any] | None:
        if not self.fs.exists(self.path):
            return None
        try:
            with self.fs.open(self.path, "r", encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError) as exc:
            raise SudokuError(f"{self.url}: {MANIFEST} cannot be read ({exc}); "
                              "remove the directory to start again") from None

    def save(self, force: bool = True) -> None:
        now = time.monotonic()
        if force or now - self._saved >= 1.0:
            self.fs.makedirs(self.root, exist_ok=True)
            _write_atomic(self.fs, self.path, json.dumps(self.data, indent=1) + "\n")
            self._saved = now

    def exists(self, name: str) -> bool:
        return self.fs.exists(posixpath.join(self.root, name))

    def read(self, name: str) -> str:
        with self.fs.open(posixpath.join(self.root, name), "r", encoding="utf-8") as f:
            return f.read()

    def clean_temporaries(self) -> None:
        """Leftovers of writes cut short by a dead worker (one run per directory at a time)."""
        if self.fs.exists(self.root):
            for path in self.fs.glob(posixpath.join(self.root, "*.tmp-*")):
                with contextlib.suppress(OSError):
                    self.fs.rm(path)


def _open_manifest(out_dir: str, header: dict[str, Any], adopt: Sequence[str] = ()
                   ) -> tuple[_Manifest, list[Partition] | None]:
    """The manifest of ``out_dir`` and, when it holds an earlier run of the same work, its
    partitions. Keys of ``adopt`` (settings left to their default) take the earlier run's value."""
    manifest = _Manifest(out_dir)
    old = manifest.load()
    manifest.clean_temporaries()
    if old is None:
        return manifest, None
    for name in adopt:
        if name in old:
            header[name] = old[name]
    if old.get("version") != MANIFEST_VERSION:
        raise SudokuError(f"{out_dir}: {MANIFEST} is of another version; remove the directory to start again")
    cannot = "cannot resume: remove it or choose another output directory"
    if old.get("job") != header["job"]:
        changed = sorted(k for k in set(old.get("job", {})) | set(header["job"])
                         if old.get("job", {}).get(k) != header["job"].get(k))
        raise SudokuError(f"{out_dir} holds the output of another job (changed: {', '.join(changed)}); {cannot}")
    key = lambda i: (i["url"], i["size"], i["mtime"])  # noqa: E731
    old_inputs, new_inputs = old.get("inputs", []), header["inputs"]
    if [key(i) for i in old_inputs] != [key(i) for i in new_inputs]:
        changed = [n["name"] for n, o in zip(new_inputs, old_inputs) if key(n) != key(o)]
        what = f"{', '.join(changed)} changed since" if changed else "other input files than"
        raise SudokuError(f"{out_dir} holds the output of {what} that run; {cannot}")
    for name in ("blocksize", "seed", "count"):
        if old.get(name) != header.get(name):
            raise SudokuError(f"{out_dir} was written with {name} {old.get(name)}, not {header.get(name)}; {cannot}")
    fields = {f.name for f in dataclasses.fields(Partition)}
    return manifest, [Partition(**{k: v for k, v in p.items() if k in fields}) for p in old["partitions"]]


def merge(out_dir: str, dest: Any) -> int:
    """Concatenate the partition files of ``out_dir`` in input order into ``dest`` (a path, an
    fsspec URL or a writable text stream); returns the number of partitions merged.

    Every partition must be finished: a run cut short is finished first by running it again.
    """
    manifest = _Manifest(os.fspath(out_dir))
    data = manifest.load()
    if data is None:
        raise SudokuError(f"{out_dir}: no {MANIFEST}: not the output directory of a cluster run")
    parts = data.get("partitions", [])
    missing = [p["index"] for p in parts if p.get("status") != "done"]
    if missing:
        raise SudokuError(f"{out_dir}: {len(missing)} of {len(parts)} partitions are not finished "
                          f"(the first: {missing[0]}); run the same command again to finish them")

    def copy(stream: Any) -> None:
        for p in parts:
            with manifest.fs.open(posixpath.join(manifest.root, part_file(p["index"])), "r", encoding="utf-8") as f:
                while chunk := f.read(_READ_CHUNK):
                    stream.write(chunk)

    if hasattr(dest, "write"):
        copy(dest)
    elif _special_file(dest):  # a device or a pipe: written in place, never replaced by a file
        with open(os.fspath(dest), "w", encoding="utf-8") as f:
            copy(f)
    else:
        import fsspec

        fs, path = fsspec.core.url_to_fs(os.fspath(dest))
        tmp = f"{path}.tmp-{uuid.uuid4().hex}"
        with fs.open(tmp, "w", encoding="utf-8") as f:
            copy(f)
        fs.mv(tmp, path)
    return len(parts)


def _special_file(dest: Any) -> bool:
    """True when ``dest`` is a local path to something other than a regular file or a
    directory (``/dev/stdout``, ``/dev/full``, a named pipe): a merge writes into it."""
    import stat

    try:
        mode = os.stat(os.fspath(dest)).st_mode
    except (OSError, TypeError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


# -- the driver: partitions in order, resumable --------------------------------------------------------


def _stdout_writer() -> Callable[[str], Any]:
    import sys

    def write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    return write


def _window(client: Any, blocksize: int) -> int:
    """Partitions in flight: many when they are small, so that one slow partition does not
    leave the other workers idle while it holds the output back; few when they are big
    (their text waits in memory)."""
    workers = _workers(client)
    low, high = WINDOW_PER_WORKER
    return max(low * workers, min(high * workers, WINDOW_BYTES // max(1, blocksize)))


def _drive(client: Any, parts: list[Partition], task: Callable[[Partition], tuple[Callable[..., Any], tuple]],
           manifest: _Manifest | None, write: Callable[[str], Any] | None,
           notes: Callable[[str], Any] | None, progress: Callable[[int, int, int], Any] | None,
           tag: str, window: int) -> Summary:
    """Run every partition not finished yet, a window at a time, and report all of them in order:
    text to ``write`` (without a manifest), notes to ``notes``, counters to the manifest."""
    summary = Summary()

    def todo() -> Iterator[tuple[int, Callable[..., Any], tuple[Any, ...]]]:
        for p in parts:
            if manifest is None or p.status != "done" or not manifest.exists(p.file):
                yield (p.index, *task(p))

    results = _ordered(client, todo(), window, tag)
    try:
        waiting = next(results, None)
        for p in parts:
            if waiting is not None and waiting[0] == p.index:
                result = waiting[1]
                summary.partitions += 1
                if write is not None and "text" in result:
                    write(result["text"])
                p.puzzles, p.failures, p.status = result["puzzles"], result["failures"], "done"
                p.seconds = result["seconds"]
                summary.seconds += p.seconds
                messages = result["notes"]
                if manifest is not None:
                    manifest.data["partitions"][p.index] = dataclasses.asdict(p)
                    manifest.save(force=False)
                waiting = next(results, None)
            else:  # finished by an earlier run: its notes are in the directory
                assert manifest is not None
                summary.skipped += 1
                messages = manifest.read(p.notes_file).splitlines() if p.failures else []
            summary.puzzles += p.puzzles
            summary.failures += p.failures
            if notes is not None:
                for message in messages:
                    notes(message)
            if progress is not None:
                progress(summary.partitions + summary.skipped, len(parts), summary.puzzles)
    finally:
        results.close()
        if manifest is not None:
            manifest.save()
    return summary


# -- running a job over files ------------------------------------------------------------------------


def _one_per_line(text: str, shape: Any) -> bool:
    """True when ``text``, a file's first puzzle line, is a whole puzzle: the serial path then
    reads the file line by line too (``formats.starts_line_mode``; a plain test where it is
    missing)."""
    from . import formats

    test = getattr(formats, "starts_line_mode", None)
    if test is not None:
        return bool(test(text, shape))
    s = text.strip()
    if s.startswith("{"):
        return s != "{"
    token = s.split()[0]
    return s[0] not in "+|=*-" and len(token) > 64 if shape is None else len(token) == shape.cell_count


def _sniff(job: Any, inputs: Sequence[Input]) -> None:
    """Refuse input that is not one puzzle per line (a grid written over several lines): the
    first puzzle line of each file (after a header such as ``puzzle,solution``) must be a whole
    puzzle, as the serial path decides between reading lines and reading grids."""
    import fsspec

    for item in inputs:
        with fsspec.open(item.url, "rb") as f:
            head = f.read(65536).decode("utf-8-sig", errors="replace").split("\n")
        content = [(n, line.strip()) for n, line in enumerate(head[:-1] if len(head) > 1 else head, 1)
                   if line.strip() and not line.strip().startswith("#")]
        if content and _is_header(content[0][1]):
            content = content[1:]
        if content and not _one_per_line(content[0][1], getattr(job, "shape", None)):
            number, text = content[0]
            raise SudokuError(
                f"{item.name}: line {number} ({text[:40]!r}) is not a whole puzzle: the cluster reads one "
                "puzzle per line (input formats line and jsonl), not grids written over several lines"
            )


def _is_header(text: str) -> bool:
    from .formats import HEADER

    return bool(HEADER.match(text.strip()))


def _drop_header(lines: list[str]) -> list[str]:
    """The lines of a file's first partition with a header line (``puzzle,solution``) before the
    first puzzle blanked, as the serial path skips it; the line numbers stay."""
    for i, line in enumerate(lines):
        text = line.strip()
        if text and not text.startswith("#"):
            if _is_header(text):
                lines[i] = ""
            break
    return lines


def run(job: Any, paths: str | Sequence[str], *, client: Any, out_dir: str | None = None,
        blocksize: int | None = None, write: Callable[[str], Any] | None = None,
        notes: Callable[[str], Any] | None = None,
        progress: Callable[[int, int, int], Any] | None = None) -> Summary:
    """Run ``job`` (a :class:`sudokit.pipeline.Job`) over every line of ``paths`` on the cluster of ``client``.

    ``paths``: files, globs or fsspec URLs, one puzzle per line (line or
    jsonl), reachable from every worker. ``blocksize``: bytes per partition
    (default: about 8 partitions per worker, within bounds that depend on the
    job, see :func:`_auto_blocksize`).
    Without ``out_dir`` the output goes through ``write`` (default: standard
    output) in input order, byte-identical to ``pipeline.run_lines`` over the
    whole of each file; with it, into partition files and a manifest
    (resumable; see the module doc). ``notes(message)`` gets one message per
    failed puzzle, in input order; ``progress(done, total, puzzles)`` is
    called after each partition. Returns a :class:`Summary`.
    """
    _dask()
    inputs = _expand(paths)
    _sniff(job, inputs)
    workers = _workers(client)
    if blocksize is not None and blocksize < 1:
        raise SudokuError(f"the block size must be at least 1 byte, not {blocksize}")
    size = blocksize or _auto_blocksize(sum(i.size for i in inputs), workers, job)
    if write is None and out_dir is None:
        write = _stdout_writer()
    sources = [i.name if len(inputs) > 1 else "" for i in inputs]
    header = {"version": MANIFEST_VERSION, "job": _job_record(job), "blocksize": size,
              "inputs": [dataclasses.asdict(i) for i in inputs]}
    manifest, parts = None, None
    if out_dir is not None:  # resuming with the default block size keeps the earlier run's
        manifest, parts = _open_manifest(os.fspath(out_dir), header, () if blocksize else ("blocksize",))
    token = uuid.uuid4().hex[:12]
    client.register_plugin(WarmUp(job))
    if parts is None:  # the first pass: number the lines and puzzles of every partition
        parts = partitions(inputs, header["blocksize"])
        counted = _ordered(client, ((p.index, _count_lines, (inputs[p.input].url, p.start, p.end)) for p in parts),
                           max(64, 4 * workers), f"count-{token}")
        lines_before: dict[int, int] = {}
        puzzles_before: dict[int, int] = {}
        for (index, (lines, puzzles)), p in zip(counted, parts):
            p.first_line = lines_before.get(p.input, 0) + 1
            p.first_puzzle = puzzles_before.get(p.input, 0) + 1
            p.lines = lines
            lines_before[p.input] = lines_before.get(p.input, 0) + lines
            puzzles_before[p.input] = puzzles_before.get(p.input, 0) + puzzles
    if manifest is not None:
        manifest.data = {**header, "partitions": [dataclasses.asdict(p) for p in parts]}
        manifest.save()

    def task(p: Partition) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        return _solve_partition, (job, inputs[p.input].url, sources[p.input], p.start, p.end,
                                  p.first_line, p.first_puzzle, manifest and manifest.url, p.index)

    window = _window(client, header["blocksize"])
    summary = _drive(client, parts, task, manifest, write, notes, progress, f"part-{token}", window)
    held: dict[int, int] = {}
    for p in parts:
        held[p.input] = held.get(p.input, 0) + p.puzzles + p.failures
    summary.empty = [i.name for k, i in enumerate(inputs) if not held.get(k)]
    return summary


# -- generating over seed ranges ----------------------------------------------------------------------


def generate(job: Any, count: int, seed: int, *, client: Any, filtered: bool = False,
             attempts: int | None = None, chunk: int | None = None, out_dir: str | None = None,
             write: Callable[[str], Any] | None = None, notes: Callable[[str], Any] | None = None,
             progress: Callable[[int, int, int], Any] | None = None) -> Summary:
    """``count`` puzzles of ``job`` (a :class:`sudokit.pipeline.GenerateJob`) from seeds ``seed, seed+1...``.

    Without a filter, puzzle ``i`` comes from seed ``seed + i``; partition
    ``k`` makes ``chunk`` seeds from ``seed + k*chunk``. With ``filtered``,
    partitions scan seed ranges in order and the first ``count`` matches in
    seed order are kept, so the output is the same whatever the number of
    workers; ``attempts`` bounds the seeds tried per puzzle wanted (default
    1000). Output as in :func:`run` (``out_dir`` only without a filter).
    """
    _dask()
    if count < 0:
        raise SudokuError(f"the number of puzzles must be >= 0, not {count}")
    if filtered and out_dir is not None:
        raise SudokuError("an output directory takes unfiltered generation only; with a filter, "
                          "write to standard output")
    workers = _workers(client)
    if write is None and out_dir is None:
        write = _stdout_writer()
    chunk = chunk or max(1, min(1000, math.ceil(count / (4 * workers)) if count else 1))
    token = uuid.uuid4().hex[:12]
    client.register_plugin(WarmUp(job))

    if filtered:
        return _generate_filtered(client, job, count, seed, attempts, chunk, write, notes, progress, token)

    header = {"version": MANIFEST_VERSION, "job": _job_record(job), "seed": seed, "count": count, "inputs": []}
    manifest, parts = None, None
    if out_dir is not None:
        manifest, parts = _open_manifest(os.fspath(out_dir), header)
    if parts is None:
        parts = [Partition(k, -1, seed + start, seed + min(start + chunk, count), first_puzzle=start + 1)
                 for k, start in enumerate(range(0, count, chunk))]
    if manifest is not None:
        manifest.data = {**header, "partitions": [dataclasses.asdict(p) for p in parts]}
        manifest.save()

    def task(p: Partition) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        return _seed_partition, (job, p.start, p.end - p.start, False, manifest and manifest.url, p.index)

    window = _window(client, chunk * LINE_BYTES)
    return _drive(client, parts, task, manifest, write, notes, progress, f"seeds-{token}", window)


def _generate_filtered(client: Any, job: Any, count: int, seed: int, attempts: int | None, chunk: int,
                       write: Callable[[str], Any] | None, notes: Callable[[str], Any] | None,
                       progress: Callable[[int, int, int], Any] | None, token: str) -> Summary:
    limit = count * (attempts or 1000)
    tasks = ((k, _seed_partition, (job, seed + start, min(chunk, limit - start), True, None, k))
             for k, start in enumerate(range(0, limit, chunk)))
    summary = Summary()
    results = _ordered(client, tasks, _window(client, chunk * LINE_BYTES), f"filter-{token}")
    try:
        for _, result in results:
            summary.partitions += 1
            summary.failures += result["failures"]
            summary.seconds += result["seconds"]
            if notes is not None:
                for message in result["notes"]:
                    notes(message)
            for text in result["records"][: count - summary.puzzles]:
                if write is not None:
                    write(text)
                summary.puzzles += 1
            if progress is not None:
                progress(summary.puzzles, count, summary.puzzles)
            if summary.puzzles >= count:
                break
    finally:
        results.close()
    if summary.puzzles < count:
        from .generation import GenerationError

        raise GenerationError(f"only {summary.puzzles} of {count} puzzles matched the filter in {limit} seeds; "
                          "allow more attempts or loosen the filter")
    return summary
