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

import itertools
import os
import signal
import time
from collections import deque
from typing import Any, Callable, Iterable, Iterator, TypeVar


__all__ = ["cpu_count", "ordered_map", "resolve_jobs"]

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


def _start_worker(initializer: Callable[..., Any] | None, initargs: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if initializer is not None:
        initializer(*initargs)


def _context() -> Any:
    import multiprocessing

    # fork starts a worker in milliseconds with the modules already imported;
    # the parent runs no threads of its own but the progress display's, which
    # a worker never touches
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _kill(executor: Any) -> None:
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
    compiled kernels. At most ``window`` items (default ``3 * jobs``) are in
    flight at a time. An exception raised by ``function`` reaches the caller
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
    from concurrent.futures import ProcessPoolExecutor

    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=_context(),
                                   initializer=_start_worker, initargs=(initializer, initargs))
    ahead = max(1, window or 3 * jobs)
    pending: deque = deque()
    iterator = iter(items)
    finished = False
    try:
        for item in itertools.islice(iterator, ahead):
            pending.append(executor.submit(function, item))
        while pending:
            head = pending.popleft()
            if deadline is None:
                result = head.result()
            else:
                from concurrent.futures import TimeoutError as Late

                try:
                    result = head.result(timeout=max(0.0, deadline - time.perf_counter()))
                except Late:
                    raise TimeoutError("the deadline passed while the workers were busy") from None
            for item in itertools.islice(iterator, 1):
                pending.append(executor.submit(function, item))
            yield result
        finished = True
    finally:
        if finished:
            executor.shutdown(wait=True)
        else:  # interrupted, failed, or the consumer stopped early
            _kill(executor)
