"""Uniqueness questions put to a SAT solver, for minimising the big grids.

Near the end of top-down minimising a big puzzle (17x17 and up), whether a clue can go
is a hard question either way: a second solution, when there is one, lies far
from the known one, and a proof that there is none needs a large search tree.
The engine's depth-first searches (:mod:`sudokit.engine.generate`) settle the
easy questions; a conflict-driven SAT solver (CaDiCaL 1.9.5 through PySAT)
settles the hard ones, where learning from conflicts beats plain search.

The encoding is the textbook one: a variable per (cell, value), exactly one
value per cell and exactly one place per value in each unit (an at-least-one
clause and pairwise at-most-one clauses). One incremental solver serves a
whole puzzle:

* the clues are *assumptions*, so a clue can be taken away between questions;
* a clue proven necessary stays necessary for every puzzle with fewer clues
  (its second solution still solves them), so it becomes a unit clause;
* the solver prefers the known solution's values (phases), which meets nearby
  second solutions first; after a second solution is found it prefers that
  one's values, since the next question's second solution tends to lie near
  it (this cut the time of whole 25x25 puzzles by 15 to 25 %).

>>> from sudokit import Grid
>>> with UniquenessProver(Grid("1234341221434321")) as prover:
...     prover.needed([0], clues=range(16)), prover.needed([0, 1, 2, 3], clues=range(16))
(False, False)
>>> with UniquenessProver(Grid("1234341221434321")) as prover:
...     prover.needed([0, 1, 8, 9], clues=range(16))  # rows 1 and 3 read 1 2 and 2 1 there
True
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from typing import Iterable, Sequence

import numpy as np

from ..errors import InvalidPuzzle, LimitReached
from ..grid import Grid


def _exactly_one_groups(box_rows: int, box_cols: int) -> np.ndarray:
    """The (cell, value) variables of every exactly-one constraint, as rows of an array.

    Variable of cell ``c`` (0-based) and value ``v`` (1-based): ``c * n + v``.
    Rows: each cell's values, then each unit's places for each value.
    """
    n = box_rows * box_cols
    cells = np.arange(n * n).reshape(n, n)
    boxes = (cells.reshape(n // box_rows, box_rows, n // box_cols, box_cols)
             .transpose(0, 2, 1, 3).reshape(n, n))
    units = np.concatenate([cells, cells.T, boxes])  # 3n units of n cells
    values = np.arange(1, n + 1)
    by_cell = cells.reshape(-1, 1) * n + values.reshape(1, -1)
    by_unit = (units[:, None, :] * n + values[None, :, None]).reshape(-1, n)
    return np.concatenate([by_cell, by_unit])


#: Exactly-one groups turned into clauses at a time: the pairwise clauses of a
#: 49x49 grid are 11 million, too many to hold as Python lists at once.
_CHUNK = 2048


def _clauses(box_rows: int, box_cols: int) -> Iterable[list[int]]:
    """Every clause (same order as ever), built a chunk of groups at a time to bound memory."""
    for chunk in _clause_chunks(box_rows, box_cols):
        yield from chunk


#: From this size up "at most one" is the sequential counter (Sinz 2005): about
#: 3n clauses and n-1 helper variables per group instead of n(n-1)/2 clauses.
#: On 49x49 the pairwise encoding is 11.3 million clauses, 45 s to load and
#: 1.8 GB per solver; below 36x36 the pairwise encoding stays, so the puzzles
#: made there do not change.
COMPACT_FROM = 36


def _helpers(box_rows: int, box_cols: int) -> int:
    """Helper variables the encoding adds after the n³ (cell, value) variables."""
    n = box_rows * box_cols
    return 4 * n * n * (n - 1) if n >= COMPACT_FROM else 0


def _clause_chunks(box_rows: int, box_cols: int) -> Iterable[list[list[int]]]:
    groups = _exactly_one_groups(box_rows, box_cols)
    yield groups.tolist()
    n = groups.shape[1]
    if n >= COMPACT_FROM:
        base = n ** 3 + 1  # helper variables come after the (cell, value) variables
        for lo in range(0, groups.shape[0], _CHUNK):
            x = groups[lo:lo + _CHUNK]
            rows = np.arange(lo, lo + x.shape[0]).reshape(-1, 1)
            aux = base + rows * (n - 1) + np.arange(n - 1).reshape(1, -1)
            first = np.stack([-x[:, 0], aux[:, 0]], axis=1)
            mid_x, prev, cur = x[:, 1:n - 1], aux[:, :n - 2], aux[:, 1:n - 1]
            middle = np.concatenate([np.stack([-mid_x, cur], axis=2), np.stack([-prev, cur], axis=2),
                                     np.stack([-mid_x, -prev], axis=2)], axis=1).reshape(-1, 2)
            last = np.stack([-x[:, n - 1], -aux[:, n - 2]], axis=1)
            yield np.concatenate([first, middle, last]).tolist()
        return
    i, j = np.triu_indices(n, k=1)
    for lo in range(0, groups.shape[0], _CHUNK):
        part = groups[lo:lo + _CHUNK]
        yield (-np.stack([part[:, i], part[:, j]], axis=2).reshape(-1, 2)).tolist()


#: CaDiCaL in "stable mode only" (its setting for satisfiable instances): most
#: questions near the end of minimising have a second solution to find. On
#: four 25x25 seeds it took 117 s on average against 190 s with the defaults
#: (but one seed took 236 s against 60 s); taking turns between both
#: configurations was no better.
CONFIGURATION: dict[str, int] = {"stabilizeonly": 1}


def _check_cells(cells: Iterable[int], count: int) -> None:
    outside = [c for c in cells if not 0 <= c < count]
    if outside:
        raise IndexError(f"cell {outside[0]} is not on a grid of {count} cells")


class UniquenessProver:
    """Answers "does the puzzle without these clues have another solution?" for one solution grid.

    Every question is about a subset of ``solution``'s cells as clues; the
    answer is True (another solution exists: the cells are needed), False (no
    other solution: they can go), or None when ``conflicts`` conflicts (0: no
    limit) did not settle it.
    """

    def __init__(self, solution: Grid, conflicts: int = 0) -> None:
        from pysat.solvers import Solver

        if not solution.is_solved:
            raise InvalidPuzzle("the prover needs a complete, valid solution grid")
        shape = solution.shape
        self.n = shape.size
        self.values = np.array(solution.values, dtype=np.int64)
        self.conflicts = conflicts
        self._literal = np.arange(self.values.size) * self.n + self.values  # "cell has its value"
        self._cell_vars = self.values.size * self.n
        self._solver = Solver(name="cadical195")
        self._solver.configure(CONFIGURATION)
        for chunk in _clause_chunks(shape.box_rows, shape.box_cols):
            self._solver.append_formula(chunk)
        self._solver.set_phases(self._literal.tolist())
        self._fixed = np.zeros(self.values.size, dtype=bool)
        self._next_var = self._cell_vars + _helpers(shape.box_rows, shape.box_cols) + 1
        #: conflicts the last question took (a deterministic measure of its difficulty)
        self.last_conflicts = 0
        #: the last second solution found (cell values), if any
        self.witness: np.ndarray | None = None

    def close(self) -> None:
        """Free the solver."""
        self._solver.delete()

    def __enter__(self) -> "UniquenessProver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def prefer(self, values: Sequence[int]) -> None:
        """Make the solver try these cell values first (a complete grid, such as a second solution)."""
        values = np.asarray(values, dtype=np.int64)
        if values.shape != self.values.shape or values.min() < 1 or values.max() > self.n:
            raise ValueError(f"a preferred grid needs {self.values.size} values from 1 to {self.n}")
        self._solver.set_phases((np.arange(values.size) * self.n + values).tolist())

    def keep(self, cells: Sequence[int]) -> None:
        """Make ``cells`` clues for every later question (they were proven needed)."""
        for c in cells:
            if not self._fixed[c]:
                self._fixed[c] = True
                self._solver.add_clause([int(self._literal[c])])

    def needed(self, cells: Sequence[int], clues: Iterable[int], conflicts: int | None = None) -> bool | None:
        """Whether the puzzle with ``clues`` loses its unique solution when ``cells`` are blanked.

        ``clues`` are the cells given (``cells`` among them or not); a second
        solution must differ from the known one in one of ``cells``.
        ``conflicts``, if given, replaces the prover's budget for this question.
        """
        skip = set(int(c) for c in cells)
        clues = [int(c) for c in clues]
        _check_cells(skip.union(clues), self.values.size)
        assumptions = [int(self._literal[c]) for c in clues if c not in skip and not self._fixed[c]]
        differ = [-int(self._literal[c]) for c in skip]
        guard = 0
        if len(differ) == 1:
            assumptions += differ
        else:
            guard = self._next_var
            self._next_var += 1
            self._solver.add_clause(differ + [-guard])
            assumptions.append(guard)
        before = self._solver.accum_stats().get("conflicts", 0)
        budget = self.conflicts if conflicts is None else conflicts
        if budget > 0:
            self._solver.conf_budget(budget)
            answer = self._solver.solve_limited(assumptions=assumptions)
        else:
            answer = self._solver.solve(assumptions=assumptions)
        self.last_conflicts = self._solver.accum_stats().get("conflicts", 0) - before
        if answer:
            # the next second solution tends to lie near this one: start the search there
            model = np.array(self._solver.get_model()[:self._cell_vars], dtype=np.int64)
            chosen = model[model > 0] - 1
            self.witness = np.zeros_like(self.values)
            self.witness[chosen // self.n] = chosen % self.n + 1
            self.prefer(self.witness)
        if guard:
            self._solver.add_clause([-guard])  # retire the guarded clause
        return answer


# -- a team of provers, in worker processes or in this one -------------------------------


class ProverTeam:
    """Several :class:`UniquenessProver` for one solution, each asked in turn or side by side.

    With ``processes`` each member is a worker process with its own solver, so
    members answer at the same time; otherwise they live in this process and
    answer one question at a time, in the order asked. Either way a member
    answers its own questions in the order it got them, with the same solver
    calls, so the answers and conflict counts of a member depend only on what
    it was asked (the generator relies on that for reproducible puzzles).

    >>> from sudokit import Grid
    >>> with ProverTeam(Grid("1234341221434321"), processes=False) as team:
    ...     team.ask(0, "a", [0], clues=range(16))
    ...     team.ask(1, "b", [0, 1, 8, 9], clues=range(16))
    ...     sorted((key, answer) for _, key, answer, _ in (team.answer(), team.answer()))
    [('a', False), ('b', True)]
    """

    def __init__(self, solution: Grid, conflicts: int = 0, size: int = 2, processes: bool = False,
                 deadline: float | None = None) -> None:
        if size < 1:
            raise ValueError(f"a team needs at least one member, not {size}")
        if not solution.is_solved:
            raise InvalidPuzzle("the prover needs a complete, valid solution grid")
        self.size = size
        # worker processes are started as `python -m sudokit.generation.sat`, talking over pipes (POSIX)
        self.processes = processes = processes and os.name == "posix" and bool(sys.executable)
        #: a ``time.perf_counter()`` instant: :meth:`answer` raises LimitReached after it (a
        #: question running in a worker process is abandoned; one in this process is not cut short)
        self.deadline = deadline
        self._cells = solution.shape.cell_count
        self._busy = [0] * size  # questions asked and not yet answered, per member
        self._queue: list[tuple[int, tuple]] = []  # in-process mode: (member, question), oldest first
        self._provers: list[UniquenessProver] = []
        self._workers: list = []
        self._pipes: list = []
        #: the second solution behind the last True answer
        self.witness: list[int] | None = None
        if processes:
            job = (solution.shape.box_rows, solution.shape.box_cols, tuple(solution.values), conflicts)
            for _ in range(size):
                worker, inbox, outbox = _start_worker()
                self._workers.append(worker)
                self._pipes.append((inbox, outbox))
                outbox.send(job)
        else:
            self._provers = [UniquenessProver(solution, conflicts) for _ in range(size)]

    def __enter__(self) -> "ProverTeam":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers (a question still running is abandoned) and free the solvers."""
        for prover in self._provers:
            prover.close()
        self._provers = []
        for worker in self._workers:
            if worker.poll() is None:
                worker.kill()
            worker.wait()
        for inbox, outbox in self._pipes:
            inbox.close()
            outbox.close()
        self._workers, self._pipes = [], []

    def busy(self, member: int) -> int:
        """How many of ``member``'s questions are not answered yet."""
        return self._busy[member]

    def ask(self, member: int, key: object, cells: Sequence[int], clues: Iterable[int],
            keep: Sequence[int] = (), keep_if_needed: bool = False,
            prefer: Sequence[int] | None = None, conflicts: int | None = None) -> None:
        """Give ``member`` a question (see :meth:`UniquenessProver.needed`); :meth:`answer` returns it.

        First the member makes ``keep`` clues for good and, given ``prefer``,
        tries those cell values first (:meth:`UniquenessProver.prefer`); with
        ``keep_if_needed`` it also keeps ``cells`` when they prove needed.
        ``conflicts`` replaces the team's budget for this question.
        """
        if not 0 <= member < self.size:
            raise IndexError(f"member {member} is not in a team of {self.size}")
        cells = [int(c) for c in cells]
        clues = [int(c) for c in clues]
        keep = [int(c) for c in keep]
        _check_cells(cells + clues + keep, self._cells)  # here, not in a worker, for a clear error
        preferred = None if prefer is None else [int(v) for v in prefer]
        budget = None if conflicts is None else int(conflicts)
        question = (key, cells, clues, keep, keep_if_needed, preferred, budget)
        if self.processes:
            try:
                self._pipes[member][1].send(question)
            except OSError:
                raise RuntimeError(f"SAT worker {member} stopped; it cannot take questions") from None
            self._busy[member] += 1
        else:
            self._busy[member] += 1
            self._queue.append((member, question))

    def answer(self) -> tuple[int, object, bool | None, int]:
        """The next answer: ``(member, key, answer, conflicts)``. Waits for one if need be.

        After a True answer :attr:`witness` holds the second solution found.
        """
        if self.processes:
            from multiprocessing.connection import wait

            asked = [inbox for member, (inbox, _) in enumerate(self._pipes) if self._busy[member]]
            if not asked:
                raise RuntimeError("no question is waiting for an answer")
            remaining = None if self.deadline is None else self.deadline - time.perf_counter()
            ready = [] if remaining is not None and remaining <= 0 else wait(asked, timeout=remaining)
            if not ready:
                raise LimitReached("time limit reached while a SAT solver was proving a clue needed")
            pipe = ready[0]
            member = [inbox for inbox, _ in self._pipes].index(pipe)
            try:
                reply = pipe.recv()
            except EOFError:
                raise RuntimeError(f"SAT worker {member} stopped without answering") from None
            if reply[0] == "error":
                raise RuntimeError(f"SAT worker {member} failed: {reply[1]}")
            _, key, answer, conflicts, witness = reply
        else:
            if not self._queue:
                raise RuntimeError("no question is waiting for an answer")
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise LimitReached("time limit reached while the SAT solvers were minimising")
            member, question = self._queue.pop(0)
            key, answer, conflicts, witness = _put(self._provers[member], question)
        self._busy[member] -= 1
        if answer:
            self.witness = witness
        return member, key, answer, conflicts


def _put(prover: UniquenessProver, question: tuple) -> tuple[object, bool | None, int, list[int] | None]:
    key, cells, clues, keep, keep_if_needed, preferred, budget = question
    prover.keep(keep)
    if preferred is not None:
        prover.prefer(preferred)
    answer = prover.needed(cells, clues, budget)
    if answer and keep_if_needed:
        prover.keep(cells)
    witness = prover.witness.tolist() if answer and prover.witness is not None else None
    return key, answer, prover.last_conflicts, witness


def _start_worker() -> "tuple[subprocess.Popen, Connection, Connection]":
    """A prover process: ``python -m sudokit.generation.sat``, with a pipe each way.

    A new session keeps Ctrl-C at the terminal away from it: the parent stops it.
    """
    worker = subprocess.Popen([sys.executable, "-m", "sudokit.generation.sat"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, start_new_session=True)
    assert worker.stdin is not None and worker.stdout is not None
    inbox = Connection(os.dup(worker.stdout.fileno()), writable=False)
    outbox = Connection(os.dup(worker.stdin.fileno()), readable=False)
    worker.stdin.close()
    worker.stdout.close()
    return worker, inbox, outbox


def _serve() -> None:  # pragma: no cover - runs in a worker process
    """A worker process: answers the questions that come on stdin until it closes."""
    from ..grid import shape_of

    inbox = Connection(os.dup(0), writable=False)
    outbox = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)  # a stray print must not garble the answers
    try:
        box_rows, box_cols, values, conflicts = inbox.recv()
        prover = UniquenessProver(Grid.unchecked(shape_of((box_rows, box_cols)), values), conflicts)
        while True:
            try:
                question = inbox.recv()
            except EOFError:
                return
            outbox.send(("ok", *_put(prover, question)))
    except EOFError:
        return
    except Exception as exc:  # reported to the parent, which raises it
        try:
            outbox.send(("error", f"{type(exc).__name__}: {exc}"))
        except OSError:
            pass


if __name__ == "__main__":  # pragma: no cover
    _serve()
