"""Heavy work in a child process: stopped when its time runs out, its memory
bounded and freed.

The server answers light requests (read, solve, count: the engine, which
keeps its own time budget) on threads, and runs the heavy ones (rate,
explain, hint, generate, pdf) each in a child process forked for it, at
most ``slots`` at once. A child gets the request's work as the closure the
handler built (no pickling of the work, only of its answer), runs it under
an address-space limit, sends back the pickled answer and exits. When the
request's time runs out, or its client goes away, the child is killed:
its work stops and its memory goes back to the system at once, which a
thread cannot do. Linux and other POSIX systems (``os.fork``).
"""

from __future__ import annotations

import os
import pickle
import signal
import socket
import warnings
from typing import Any, Callable

#: Memory a request's child may add to what it starts with (bytes).
MAX_MEMORY = 1 << 30


class WorkFailed(Exception):
    """The child gave no answer: ``kind`` is ``"memory"`` (it needed more
    than its limit) or ``"crash"`` (it died or raised something unexpected)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind, self.detail = kind, detail


def _address_space() -> int | None:
    """This process's virtual size in bytes (Linux), or None."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _limit_memory(extra: int | None) -> int | None:
    """Let this process grow by at most ``extra`` bytes of address space;
    the limit set, if any."""
    import resource

    now = _address_space()
    if extra is None or now is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = now + extra
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    return limit


def _near(limit: int | None) -> bool:
    """Whether this process's peak address space came near ``limit``: an
    allocation then failed, whatever the error it was reported as."""
    if limit is None:
        return False
    try:
        with open("/proc/self/status") as f:
            peak = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmPeak:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return False
    return peak > limit - (64 << 20)


def _anon_rss(pid: int) -> int | None:
    """The anonymous resident memory of ``pid`` in bytes (Linux), or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _die_with_parent() -> None:
    """Ask Linux to kill this child if the server dies first (best effort)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def _child(fn: Callable[[], Any], out: socket.socket, memory: int | None, known: tuple[type, ...]) -> None:
    """The child's whole life: run ``fn``, send ``(kind, value)``, exit."""
    code = 0
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)
        try:
            signal.set_wakeup_fd(-1)
        except ValueError:
            pass
        _die_with_parent()
        limit = _limit_memory(memory)
        try:
            answer: tuple = ("ok", fn())
        except MemoryError:
            answer = ("memory", "")
        except known as exc:
            answer = ("raised", exc)
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which answers 500
            answer = ("memory", "") if _near(limit) else ("crash", f"{type(exc).__name__}: {exc}")
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            data = pickle.dumps(("memory", ""))
        except Exception as exc:
            data = pickle.dumps(("crash", f"cannot send the answer: {type(exc).__name__}: {exc}"))
        out.sendall(data)
        out.close()
    except BaseException:
        code = 1
    finally:
        os._exit(code)


async def run_in_child(fn: Callable[[], Any], *, memory: int | None = MAX_MEMORY,
                       known: tuple[type, ...] = ()) -> Any:
    """``fn()`` run in a forked child; its answer, or the exception of one of
    the ``known`` classes it raised (re-raised here). Cancelling the caller
    (a time limit, a client gone) kills the child. :class:`WorkFailed` when
    the child gave no answer.

    Memory is bounded twice: the child's address space may grow by
    ``memory`` bytes (``RLIMIT_AS``: an allocation beyond fails), and the
    parent, looking every 0.1 s, kills a child whose anonymous resident
    memory has grown by more than ``memory`` (what the address-space limit
    misses: a fork inherits free room in the server's heaps)."""
    import anyio

    parent, child = socket.socketpair()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads: the child only runs fn
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        parent.close()
        _child(fn, child, memory, known)
    child.close()
    parent.setblocking(False)
    chunks: list[bytes] = []
    finished = over = False
    base = _anon_rss(pid)
    try:
        while True:
            with anyio.move_on_after(0.1) as waiting:
                await anyio.wait_readable(parent)
            if waiting.cancelled_caught:
                now = _anon_rss(pid)
                if memory is not None and base is not None and now is not None and now - base > memory:
                    over = True
                    break
                continue
            try:
                data = parent.recv(1 << 20)
            except BlockingIOError:
                continue
            if not data:
                break
            chunks.append(data)
        finished = not over
    finally:
        parent.close()
        if not finished:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        with anyio.CancelScope(shield=True):
            status = (await anyio.to_thread.run_sync(os.waitpid, pid, 0))[1]
    if over:
        raise WorkFailed("memory", f"the worker grew by more than {memory} bytes")
    if not chunks:
        if os.WIFSIGNALED(status) and memory is not None:
            # the kernel's OOM killer, or native code (numba's compiler) aborting on a failed allocation
            raise WorkFailed("memory", f"the worker stopped by signal {os.WTERMSIG(status)}")
        raise WorkFailed("crash", f"the worker ended without an answer (status {status})")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "ok":
        return value
    if kind == "raised":
        raise value
    raise WorkFailed(kind, value)


__all__ = ["MAX_MEMORY", "WorkFailed", "run_in_child"]
