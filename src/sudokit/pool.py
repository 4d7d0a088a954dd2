"""The library's one worker pool: a function over a stream of items, on N processes, in order.

Every batch in sudokit (solving and counting files, rating, explaining,
generating) hands its work to :func:`ordered_map` in chunks. The pool

* keeps the input order: results come back in the order the items went in,
  so the output is byte-identical whatever the number of processes;
* keeps memory flat: only a small window of chunks is in flight, however long
  the stream (the stream itself is read lazily);
* leaves Ctrl-C to the parent: workers ignore SIGINT, and when the parent
  stops (an interruption, an error, a consumer that goes away) the workers are
  killed at once, so nothing is left running;
* runs in this process when ``jobs`` is 1, with no pool at all.

>>> list(ordered_map(abs, [-3, 1, -2], jobs=1))
[3, 1, 2]
>>> list(ordered_map(abs, iter([-3, 1, -2]), jobs=2))
[3, 1, 2]
"""

from __future__ import annotations

import os
import signal
import time
from collections import deque
from typing import Any, Callable, Iterable, Iterator, TypeVar


__all__ = ["Team", "TeamLost", "cpu_count", "ordered_map", "resolve_jobs", "team_board"]

T = TypeVar("T")
R = TypeVar("R")

def cpu_count() -> int:
    """The number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def resolve_jobs(jobs: int) -> int:
    """``jobs`` as a number of processes (:func:`sudokit.validate.jobs`: 0 means
    every CPU, and there is a cap).

    >>> resolve_jobs(1)
    1
    >>> resolve_jobs(0) == cpu_count()
    True
    """
    from . import validate

    return validate.jobs(jobs)


_END = object()


def _start_worker(initializer: Callable[..., Any] | None, initargs: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if initializer is not None:
        initializer(*initargs)


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the process that started it ends,
    however it ends (best effort: elsewhere a worker ends when its queue
    closes)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def _context() -> Any:
    import multiprocessing

    # fork starts a worker in milliseconds with the modules already imported;
    # the parent runs no threads of its own but the progress display's, which
    # a worker never touches
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _kill(executor: Any) -> None:
    # a queue whose feeder thread still holds a chunk for a worker that is gone would block
    # the interpreter's exit, waiting to write into a pipe nobody reads: let it go
    for name in ("_call_queue", "_result_queue"):
        cancel = getattr(getattr(executor, name, None), "cancel_join_thread", None)
        if cancel is not None:
            try:
                cancel()
            except (OSError, ValueError, AttributeError):
                pass
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        try:
            process.kill()
        except (OSError, AttributeError):
            pass
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        try:
            process.join(1.0)  # reaped: no process is left behind, not even a zombie
        except (OSError, AttributeError, AssertionError):
            pass


def ordered_map(
    function: Callable[[T], R],
    items: Iterable[T],
    jobs: int = 1,
    *,
    initializer: Callable[..., Any] | None = None,
    initargs: tuple = (),
    window: int | None = None,
    deadline: float | None = None,
) -> Iterator[R]:
    """``function(item)`` for every item, in input order, on ``jobs`` processes.

    ``function`` and the items must be picklable when ``jobs > 1`` (a
    module-level function and plain data). ``initializer(*initargs)`` runs once
    in every worker (or once here when ``jobs`` is 1), for example to load
    compiled kernels. Each worker has an item running and one waiting, and at
    most ``window`` items (default ``8 * jobs``) are handed out and not yet
    yielded: the finished ones wait for a slow one ahead of them, while the
    workers go on. An exception raised by ``function`` reaches the caller
    when its item's turn comes, and stops the pool. With ``deadline`` (a
    :func:`time.perf_counter` time), waiting for a worker past it raises
    :class:`TimeoutError` and the workers are stopped; in this process
    (``jobs`` 1) ``function`` must watch the deadline itself.
    """
    jobs = resolve_jobs(jobs)
    if jobs == 1:
        if initializer is not None:
            initializer(*initargs)
        for item in items:
            yield function(item)
        return
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=_context(),
                                   initializer=_start_worker, initargs=(initializer, initargs))
    busy = 2 * jobs  # items at the workers: one running and one waiting each
    ahead = max(busy, window or 8 * jobs)  # items handed out and not yet yielded
    pending: deque = deque()
    iterator = iter(items)
    exhausted = finished = False
    try:
        while True:
            # keep every worker fed, even while the item at the head of the line is slow
            running = sum(not f.done() for f in pending)
            while not exhausted and len(pending) < ahead and running < busy:
                item = next(iterator, _END)
                if item is _END:
                    exhausted = True
                    break
                pending.append(executor.submit(function, item))
                running += 1
            if not pending:
                break
            if pending[0].done():
                yield pending.popleft().result()
                continue
            left = None if deadline is None else max(0.0, deadline - time.perf_counter())
            done, _ = wait([f for f in pending if not f.done()], timeout=left, return_when=FIRST_COMPLETED)
            if not done and deadline is not None and time.perf_counter() >= deadline:
                raise TimeoutError("the deadline passed while the workers were busy")
        finished = True
    finally:
        if finished:
            executor.shutdown(wait=True)
        else:  # interrupted, failed, or the consumer stopped early
            _kill(executor)


# -- a team: the same workers for the parts of one piece of work ------------------------------


class TeamLost(RuntimeError):
    """A worker of a :class:`Team` ended before it answered."""


#: In a team's worker: the team's :attr:`Team.board` (None elsewhere).
_BOARD: Any = None


def team_board() -> Any:
    """In a team's worker, the :attr:`Team.board` its team was made with (None elsewhere)."""
    return _BOARD


def _member(conn: Any, board: Any = None) -> None:
    """A team worker's life: run each ``(function, item)`` it is sent and send back
    ``("ok", result)`` or ``("raised", exception)``, until its pipe closes."""
    global _BOARD
    import gc

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _die_with_parent()
    # what the worker was forked with, out of the cycle collector's sight: a full collection
    # would otherwise walk (and so copy, page by page) the parent's objects it never uses
    gc.freeze()
    _BOARD = board
    while True:
        try:
            function, item = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple = ("ok", function(item))
        except BaseException as exc:  # noqa: BLE001 - raised again in the parent
            answer = ("raised", exc)
        try:
            conn.send(answer)
        except Exception as exc:  # an answer that does not pickle
            conn.send(("raised", RuntimeError(f"cannot send the answer: {type(exc).__name__}: {exc}")))


class Team:
    """``size`` worker processes that share one piece of work in parts, each
    worker addressed by its number, so that a part goes to the same worker
    every time and the worker keeps what it learnt on it (its caches)
    between calls.

    The workers start at the first :meth:`send` (forked: with everything
    this process has loaded by then), ignore Ctrl-C, die with this process,
    and end at once with :meth:`close` (or the ``with`` block). After an
    interruption, :meth:`abandon` stops them without waiting for their
    answers; the next :meth:`send` starts new ones.

    >>> with Team(2) as team:
    ...     team.map(abs, [-3, 4])
    [3, 4]
    """

    def __init__(self, size: int, board: Any = None) -> None:
        self.size = size
        self.board = board
        self._members: list[tuple[Any, Any]] = []
        self._waiting: set[int] = set()
        self._owner = os.getpid()

    @property
    def mine(self) -> bool:
        """Whether this process made the team (a forked worker's copy of it is not its own)."""
        return self._owner == os.getpid()

    @property
    def started(self) -> bool:
        """Whether the workers run (from the first :meth:`send` until :meth:`abandon`)."""
        return bool(self._members)

    def _start(self) -> None:
        context = _context()
        members = []
        try:
            for _ in range(self.size):
                here, there = context.Pipe()
                process = context.Process(target=_member, args=(there, self.board), daemon=True)
                process.start()
                there.close()
                members.append((process, here))
        except BaseException:
            self._stop(members)
            raise
        self._members = members

    @staticmethod
    def shared_array(typecode: str, size: int) -> Any:
        """A :class:`multiprocessing.Array` of ``size`` zeros (with its lock) that a
        team's workers can be given as their :attr:`board`."""
        return _context().Array(typecode, size)

    def send(self, k: int, function: Callable[[T], R], item: T) -> None:
        """Start ``function(item)`` on worker ``k`` (a picklable module-level function and plain data)."""
        if self._owner != os.getpid():
            raise RuntimeError("a team is used only by the process that made it")
        if not self._members:
            self._start()
        if k in self._waiting:
            raise RuntimeError(f"worker {k} of the team has not answered its last part")
        process, conn = self._members[k]
        try:
            conn.send((function, item))
        except (OSError, EOFError):
            self.abandon()
            raise TeamLost(f"worker {k} of the team ended (status {process.exitcode})") from None
        self._waiting.add(k)

    def receive(self, k: int) -> Any:
        """Worker ``k``'s answer to its last :meth:`send`: the result, or its exception raised here."""
        process, conn = self._members[k]
        self._waiting.discard(k)
        try:
            kind, value = conn.recv()
        except (EOFError, OSError):
            self.abandon()
            raise TeamLost(f"worker {k} of the team ended (status {process.exitcode}) before it answered") \
                from None
        if kind == "raised":
            raise value
        return value

    def ready(self, k: int) -> bool:
        """Whether worker ``k``'s answer has come (:meth:`receive` then does not wait)."""
        return k in self._waiting and self._members[k][1].poll()

    def map(self, function: Callable[[T], R], items: list[T]) -> list[R]:
        """``function(item)`` for each item, item ``k`` on worker ``k``, in order."""
        for k, item in enumerate(items):
            self.send(k, function, item)
        return [self.receive(k) for k in range(len(items))]

    @staticmethod
    def _stop(members: list) -> None:
        for process, conn in members:
            try:
                process.kill()
            except (OSError, AttributeError, ValueError):
                pass
            conn.close()
        for process, _ in members:
            try:
                process.join(1.0)  # reaped: nothing is left behind, not even a zombie
            except (OSError, AssertionError, ValueError):
                pass

    def abandon(self) -> None:
        """Stop the workers now, answered or not (the next :meth:`send` starts new ones)."""
        if self._owner == os.getpid():
            self._stop(self._members)
        self._members = []
        self._waiting.clear()

    close = abandon

    def __enter__(self) -> "Team":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
