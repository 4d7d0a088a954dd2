"""One puzzle's chain searches on several processes.

A rating, a path or a hint asked for with ``jobs`` above 1
(:func:`sharing`) keeps a team of ``jobs - 1`` worker processes
(:class:`sudokit.pool.Team`, forked at the first search it shares) while it
runs. The producers that cost a hard puzzle most, Dynamic Forcing Chains (+)
and the Nested Forcing Chains (SE 9.0 and up, :mod:`.nested`), search from
each cell on its own: the searches from one cell do not depend on those from
another. So their cells are shared out through a board in memory that every
process sees (:class:`_Board`): each process takes the cells of its own
queue one at a time, and one done early takes the last cells of the others'
queues, so that all end within a cell of each other, whatever the load of
the machine leaves each of them. The queues are dealt by what each cell cost
at the last shared search (:func:`deal`); the next levels on the same state
start each process on the cells it searched at the level below, so that it
finds where its propagations stopped there (and the inner rules' hints it
remembers).

A region forcing chain needs the propagations from every place of its value
in the region. Where some were searched by another process, the chain waits;
a worker sends with its answer the propagations of its cells that the others'
chains wait for (their graphs, and the keys and complexities of their inner
chains), this process sends each worker those it waits for, and the chains
are finished: nothing is propagated twice, in two rounds a search
(:func:`level_step`).

Each share gives back its best hint (as a :class:`~.step.Step`) with its
place in SE's order: rating, complexity, kind, then the scan order (the cell,
then the order within the cell). The least of these is the step the search
in one process would take, tie for tie, so the result is the same whatever
the number of processes and whichever process searched which cell.

The work the workers did is counted against the puzzle's budget here
(:func:`.chains.charge`), as if this process had done it; each worker gets
what is left of the budget when its share starts (:func:`.chains.budget_of`).

Threads would not do: most of a nested level's time is Python (the dynamic
propagations, the helpers' bookkeeping), which holds the interpreter's lock.
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

from ..grid import Grid  # noqa: F401  (the doctests)
from ..pool import TeamLost
from . import chains
from .chains import Best, ChainLimit
from .state import Candidates
from .step import Step

__all__ = ["ALONE", "active", "deal", "level_step", "sharing", "span", "tally"]

_LOCAL = threading.local()

#: :func:`level_step`'s answer when no team shares the search here.
ALONE = object()


@contextmanager
def sharing(jobs: int) -> Iterator[None]:
    """Inside the block (in this thread), the searches that can be shared run
    on ``jobs`` processes: this one and ``jobs - 1`` workers (0: every CPU;
    1: this process alone). A block inside another keeps the outer team."""
    from .. import validate
    from ..pool import Team

    jobs = validate.jobs(jobs)
    if jobs <= 1 or active():
        yield
        return
    team = Team(jobs - 1)  # (its board is made before its first search: level_step)
    _LOCAL.team = team
    _LOCAL.tally, _LOCAL.span, _LOCAL.last, _LOCAL.pace = {}, [0, 0], None, _Pace()
    try:
        yield
    finally:
        _LOCAL.team = None
        team.close()


#: Below this many processors' worth of CPU (the processes' CPU time over the wall time of
#: their shared searches), sharing is paused (:class:`_Pace`); None: never paused.
PAUSE_BELOW: float | None = 1.25
#: Searches run here alone once sharing is paused, before it is tried again.
PAUSED_SEARCHES = 8
#: Wall seconds of shared searches over which the CPU they got is judged.
PACE_WINDOW = 0.15


class _Pace:
    """Whether sharing pays on this machine now. Each shared search's first
    round reports the CPU time each process spent on it; over
    :data:`PACE_WINDOW` seconds of such rounds, their sum over the wall time
    is the number of processors the team actually got. A machine whose
    other jobs leave the team about one processor (Linux groups a session's
    processes and gives the group one share of the CPU) gains nothing from
    a second process, and loses what the two exchanges a search cost: below
    :data:`PAUSE_BELOW` the next :data:`PAUSED_SEARCHES` searches run here
    alone (the same step either way), then sharing is tried again."""

    def __init__(self) -> None:
        self.cpu = self.wall = 0.0
        self.paused = 0

    def skip(self) -> bool:
        """Whether the next search runs alone (counting it)."""
        if self.paused:
            self.paused -= 1
            return True
        return False

    def saw(self, cpu: float, wall: float) -> None:
        """A shared first round: ``cpu`` seconds of CPU in all its processes, ``wall`` seconds long."""
        self.cpu += cpu
        self.wall += wall
        if self.wall < PACE_WINDOW:
            return
        if PAUSE_BELOW is not None and self.cpu < PAUSE_BELOW * self.wall:
            self.paused = PAUSED_SEARCHES
        self.cpu = self.wall = 0.0


def _team() -> Any:
    team = getattr(_LOCAL, "team", None)
    return team if team is not None and team.mine else None  # (a forked worker's copy is not its own)


def tally() -> dict[int, int]:
    """How many cells each process (by its id) searched in this thread's last
    shared searches (the last :func:`sharing` block), summed over the levels."""
    return dict(getattr(_LOCAL, "tally", {}))


def span() -> tuple[int, int]:
    """The work (:func:`.chains.charge` units) of the first round of this
    thread's last shared searches: in all the shares, and in the longest
    share of each search, summed. The shares end together in time
    (:class:`_Board`), so a process slowed by other jobs does less work: on
    a machine with a free core for each process, the longest share is about
    an even one."""
    total, longest = getattr(_LOCAL, "span", (0, 0))
    return total, longest


def active() -> bool:
    """Whether searches started here are shared."""
    return _team() is not None


def deal(state: Candidates, cells: list[int], shares: int, cost: dict[int, int] | None = None) -> list[list[int]]:
    """``cells`` (in scan order) dealt into ``shares`` runs of about the same
    cost: ``cost`` per cell where known (the work its searches took last
    time), else its number of candidates (the searches from a cell propagate
    each of them on and off) times the mean cost of a candidate. Runs keep
    the cells of a row or a box together, so that fewer region chains need
    another share's propagations.

    >>> deal(Candidates.from_grid(Grid("." * 81)), list(range(81)), 3) == [
    ...     list(range(27)), list(range(27, 54)), list(range(54, 81))]
    True
    """
    weights = _weights(state, cells, cost)
    total = sum(weights)
    ends = [total * (k + 1) / shares for k in range(shares - 1)]
    out: list[list[int]] = [[] for _ in range(shares)]
    done = 0.0
    for cell, weight in zip(cells, weights):
        middle = done + weight / 2
        out[sum(middle >= end for end in ends)].append(cell)
        done += weight
    return out


def _weights(state: Candidates, cells: list[int], cost: dict[int, int] | None) -> list[float]:
    """What the searches from each of ``cells`` are expected to cost (:func:`deal`)."""
    counts = [state.mask[c].bit_count() for c in cells]
    known = [(cost[c], n) for c, n in zip(cells, counts) if cost and c in cost]
    each = sum(w for w, _ in known) / max(1, sum(n for _, n in known)) if known else 1.0
    return [cost[c] if cost and c in cost else n * each for c, n in zip(cells, counts)]


def _dearest_first(state: Candidates, queue: list[int], cost: dict[int, int] | None) -> list[int]:
    """``queue`` with the cells expected to cost most first: the cells taken
    last, and from the ends of the queues, are the cheap ones, so that the
    processes end close together (a cell of a nested level may cost a tenth
    of a second)."""
    weights = _weights(state, queue, cost)
    return [c for _, c in sorted(zip(weights, queue), key=lambda wc: -wc[0])]


class _Ranked(Best):
    """The best hint offered, in SE's order with the cell it was found from:
    ``(rating, complexity, kind, cell, rank)``. :attr:`cell` is set before
    each cell's search; ``rank`` is the order offered within the cell, or for
    a region chain its ``(value, unit, order)`` in :attr:`tags` (a region
    chain that needs another share's propagations is found after the rest of
    its cell, but ranks as if found in turn: only hints of one kind ever
    compare their ranks)."""

    def __init__(self) -> None:
        super().__init__()
        self.cell = 0
        self.key: tuple | None = None
        self.tags: dict[int, tuple] = {}

    def offer(self, hint: Any) -> None:
        if not hint.removals:
            return
        hint.order = self.count
        self.count += 1
        key = (hint.difficulty, hint.complexity, hint.key, self.cell, self.tags.get(id(hint), (hint.order,)))
        if self.key is None or key < self.key:
            self.hint, self.key = hint, key


class _Far:
    """An inner hint on a propagation made in another process: what the
    complexity of a chain through it needs (:func:`.nested._inner_of`)."""

    __slots__ = ("complexity", "full_chain")

    def __init__(self, complexity: int, full_chain: tuple) -> None:
        self.complexity, self.full_chain = complexity, full_chain


def _share_multi(base: type) -> type:
    """:class:`.nested._LevelMulti` for one share of the cells: a region
    chain whose places are not all in the share waits (:attr:`waiting`) for
    the other shares' propagations; the region chains are tagged with their
    rank in the cell."""

    class ShareMulti(base):  # type: ignore[misc, valid-type]
        def __init__(self, ch: Any, best: _Ranked, level: int, mine: set[int]) -> None:
            super().__init__(ch, best, level)
            self.mine = mine
            self.waiting: list[tuple[int, int, int, int, list[int]]] = []

        def regions(self, cell: int, value: int, on_graph: dict, hints: list) -> None:
            ch = self.ch
            for k, u in enumerate(ch.t.cell_units[cell]):
                places = self.places(cell, value, u)
                if places is None:
                    continue
                if any(p not in self.mine for p in places):
                    self.waiting.append((cell, value, k, u, places))
                    continue
                graphs = [on_graph] + [ch.propagate([(p << 6) | (value << 1) | 1], False, True)[0]
                                       for p in places[1:]]
                self.tagged(cell, value, k, u, graphs, hints)

        def tagged(self, cell: int, value: int, k: int, u: int, graphs: list[dict], hints: list) -> None:
            first = len(hints)
            self.region(u, value, graphs, hints)
            for j, h in enumerate(hints[first:]):
                self.best.tags[id(h)] = (value, k, j)

    return ShareMulti


class _Board:
    """The cells of one shared search, a queue for each share, in memory that
    every process of the team sees (:meth:`sudokit.pool.Team.shared_array`).
    A process takes the next cell of its own queue; once that is empty, the
    last cell of the longest other queue (work stealing, one cell at a time,
    under the board's lock): the shares end within a cell of each other,
    whatever each process's speed. Each search is a numbered round; a
    process of an older round takes nothing."""

    def __init__(self, shares: int) -> None:
        from ..grid import MAX_CELLS
        from ..pool import Team

        self.shares = shares
        self.room = MAX_CELLS
        self.array = Team.shared_array("q", 1 + 2 * shares + shares * MAX_CELLS)

    def deal(self, queues: list[list[int]]) -> int:
        """Start a new round with these queues (one a share); its number."""
        with self.array.get_lock():
            raw = self.array.get_obj()
            raw[0] += 1
            base = 1 + 2 * self.shares
            for k, queue in enumerate(queues):
                raw[1 + 2 * k], raw[2 + 2 * k] = 0, len(queue)
                at = base + k * self.room
                raw[at:at + len(queue)] = queue
            return raw[0]

    def take(self, k: int, number: int) -> int:
        """Share ``k``'s next cell in round ``number``: its own, else one
        taken from the end of the longest queue; -1 when none is left.
        :class:`~sudokit.pool.TeamLost` when the lock stays taken (a process
        killed while it held it)."""
        lock = self.array.get_lock()
        if not lock.acquire(timeout=10.0):  # (held a few microseconds at a time)
            raise TeamLost("the board of the shared search stays locked")
        try:
            raw = self.array.get_obj()
            if raw[0] != number:
                return -1
            head, tail = raw[1 + 2 * k], raw[2 + 2 * k]
            if head < tail:
                raw[1 + 2 * k] = head + 1
                return raw[1 + 2 * self.shares + k * self.room + head]
            most, victim = 0, -1
            for j in range(self.shares):
                left = raw[2 + 2 * j] - raw[1 + 2 * j]
                if left > most:
                    most, victim = left, j
            if victim < 0:
                return -1
            tail = raw[2 + 2 * victim] - 1
            raw[2 + 2 * victim] = tail
            return raw[1 + 2 * self.shares + victim * self.room + tail]
        finally:
            lock.release()


class _Round:
    """One share's search of one level, kept between its two rounds."""

    def __init__(self, state: Candidates, level: int, inner_level: int, deadline: float | None) -> None:
        from .nested import _LevelChainer, _LevelMulti

        self.state = state
        self.ch = _LevelChainer(state, deadline, level, inner_level)
        self.ch.resumable()
        self.best = _Ranked()
        self.multi = _share_multi(_LevelMulti)(self.ch, self.best, level, set())
        self.cells: list[int] = []
        self.cost: dict[int, int] = {}
        self.far: set[tuple] = set()  # the keys of the hints found with another share's propagations

    def first(self, take: Any) -> None:
        """Search from each cell ``take()`` gives, until it gives -1
        (:attr:`cells`, in the order searched; :attr:`cost`, the work of
        each). A region chain whose other places were not searched here yet
        waits (:meth:`rest`)."""
        while True:
            cell = take()
            if cell < 0:
                return
            self.cells.append(cell)
            self.multi.mine.add(cell)
            self.best.cell = cell
            work = chains.WORK_DONE
            self.multi.run([cell])
            self.cost[cell] = chains.WORK_DONE - work

    def wanted(self) -> list[int]:
        """The assumptions (on) of other shares' cells that the waiting region chains need."""
        mine = self.multi.mine
        return sorted({(p << 6) | (v << 1) | 1 for _, v, _, _, places in self.multi.waiting for p in places
                       if p not in mine})

    def offered(self, searched: list[int]) -> list[int]:
        """The assumptions of this share's cells that the other shares'
        region chains wait for (``searched``: every cell of the search), as
        :meth:`wanted` gives them there."""
        mine = self.multi.mine
        masks = self.state.mask
        units = self.ch.t.cell_units
        out = set()
        for cell in searched:
            if cell in mine:
                continue
            m = masks[cell]
            for v in range(1, m.bit_length() + 1):
                if m >> (v - 1) & 1:
                    for u in units[cell]:
                        places = self.multi.places(cell, v, u)
                        if places is not None:
                            out.update((p << 6) | (v << 1) | 1 for p in places if p in mine)
        return sorted(out)

    def export(self, starts: list[int]) -> dict[int, tuple]:
        """The propagations of ``starts`` (the share's own), for another share:
        each graph as pairs, and the inner hints on it as :class:`_Far`."""
        from .nested import _full_chain

        out = {}
        for s in starts:
            graph = self.ch.propagate([s], False, True)[0]
            nest = self.ch.nests.get(id(graph)) or {}
            out[s] = (list(graph.items()), [(q, h.complexity, _full_chain(h)) for q, h in nest.items()])
        return out

    def rest(self, imported: dict[int, tuple]) -> tuple[tuple | None, Any]:
        """The waiting region chains, with the other shares' propagations;
        the best key of the share, and its step (or, for a hint found with
        another share's propagations, what :func:`_remake` needs)."""
        graphs: dict[int, dict] = {}
        self.imported = graphs  # (kept: the inner hints on them are found by their graphs' ids)
        for s, (pairs, nest) in imported.items():
            graph = graphs[s] = dict(pairs)
            self.ch.nests[id(graph)] = {q: _Far(c, key) for q, c, key in nest}
        ch, best = self.ch, self.best
        for cell, value, k, u, places in self.multi.waiting:
            hints: list = []
            found = [graphs.get((p << 6) | (value << 1) | 1) or ch.propagate([(p << 6) | (value << 1) | 1], False,
                                                                            True)[0] for p in places]
            self.multi.tagged(cell, value, k, u, found, hints)
            best.cell = cell
            far = any((p << 6) | (value << 1) | 1 in graphs for p in places)
            for h in hints:
                before = best.hint
                best.offer(h)
                if far and best.hint is not before:
                    self.far.add(best.key)
        return self.answer()

    def answer(self) -> tuple[tuple | None, Any]:
        from .nested import _step_of

        if self.best.hint is None:
            return None, None
        if self.best.key in self.far:
            return self.best.key, ("remake", self.best.key)
        return self.best.key, _step_of(self.best.hint)

    def remake(self, key: tuple) -> Step:
        """The step of a region chain another share found (its ``key``), made
        again here from this process's own propagations."""
        from .nested import _step_of

        cell, (value, k, j) = key[3], key[4]
        u = self.ch.t.cell_units[cell][k]
        places = self.multi.places(cell, value, u)
        graphs = [self.ch.propagate([(p << 6) | (value << 1) | 1], False, True)[0] for p in places]
        hints: list = []
        self.multi.region(u, value, graphs, hints)
        return _step_of(hints[j])


_ROUNDS = threading.local()


def _worker_round(task: tuple) -> Any:
    """A worker's part of a search (``first`` or ``rest``) under what was
    left of the puzzle's budget: ``(answer, work, ran out)``. The first
    part's answer: the cells searched, the work of each, the assumptions
    its region chains wait for, its propagations that the others' wait
    for, and this process's id."""
    what, left, args = task
    from ..pool import team_board
    from .nested import NESTED_TIME_LIMIT

    with chains.budget_of(left):
        try:
            if what == "first":
                geo, values, masks, level, inner_level, k, number = args
                deadline = chains.PUZZLE_DEADLINE
                if deadline is None and NESTED_TIME_LIMIT is not None:
                    deadline = chains.clock() + NESTED_TIME_LIMIT
                state = Candidates(geo, list(values), list(masks))
                cpu = time.process_time()
                here = _ROUNDS.round = _Round(state, level, inner_level, deadline)
                board = team_board()
                here.first(lambda: board.take(k, number))
                searched = [c for c, m in enumerate(state.mask) if m & (m - 1)]
                answer = (here.cells, here.cost, here.wanted(), here.export(here.offered(searched)), os.getpid(),
                          time.process_time() - cpu)
            else:
                answer = _ROUNDS.round.rest(args)
        except ChainLimit:
            return None, chains.WORK_DONE, True
        return answer, chains.WORK_DONE, False


def _gather(team: Any, size: int, works: list[int] | None = None) -> list:
    """The workers' answers to a round, their work counted here (and added to ``works``)."""
    answers = []
    out = False
    for k in range(size):
        answer, work, ran_out = team.receive(k)
        chains.charge(work)
        if works is not None:
            works.append(work)
        out = out or ran_out
        answers.append(answer)
    if out:
        raise ChainLimit()
    return answers


def _abandon(team: Any) -> None:
    """Stop the team's workers now; the next ones get a new board (a worker
    killed while it held the board's lock leaves it taken)."""
    team.abandon()
    team.board = None


def level_step(state: Candidates, level: int, inner_level: int, deadline: float | None) -> Any:
    """SE's chaining at ``level`` (:func:`.nested.find_level`) with its cells
    shared by the team: its easiest step, or None; :data:`ALONE` when no
    team shares the searches here, or when a worker was lost (this process
    then searches alone). Raises :class:`ChainLimit` when the budget runs
    out, here or in a worker.

    Two rounds: each share searches from the cells it takes from the board
    (:class:`_Board`), keeping back the region chains that need other
    shares' propagations, and a worker sends with its answer its
    propagations that the others wait for; each share then finishes its
    region chains. The least key wins (:class:`_Ranked`)."""
    team = _team()
    if team is None or _LOCAL.pace.skip():
        return ALONE
    if team.board is None:  # (before the workers start, which forked see it)
        team.board = _Board(team.size + 1)
    board: _Board = team.board
    cells = [c for c, m in enumerate(state.mask) if m & (m - 1)]  # (a dynamic level searches every such cell)
    shares = team.size + 1
    # the first level on a state is dealt by what its cells cost at the last level searched (the
    # state before, as a rule); each next level on the same state starts with the cells each
    # process searched at the level below, whose propagations it resumes where they stopped
    key = (state.geo, tuple(state.values), tuple(state.mask), shares)
    last = getattr(_LOCAL, "last", None)
    cost = getattr(_LOCAL, "cost", None)
    if last is not None and last[0] == key:
        queues = last[1]
    else:
        queues = deal(state, cells, shares, cost)
    queues = [_dearest_first(state, queue, cost) for queue in queues]
    args = (state.geo, tuple(state.values), tuple(state.mask), level, inner_level)
    counts = _LOCAL.tally
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        judged = team.started  # (not the round that forks the workers: their start is no measure of the CPU they get)
        number = board.deal(queues)
        left = chains.budget_left()
        for k in range(1, shares):
            team.send(k - 1, _worker_round, ("first", left, (*args, k, number)))
        here = _Round(state, level, inner_level, deadline)
        here.first(lambda: board.take(0, number))
        works = [sum(here.cost.values())]
        cost = dict(here.cost)
        searched = [here.cells]
        wanted = [here.wanted()]
        exports: dict[int, tuple] = {}
        ran_out = False
        for k in range(shares - 1):
            answer, work, out = team.receive(k)
            works.append(work)
            ran_out = ran_out or out
            if out:
                continue
            cells_k, cost_k, wanted_k, exports_k, pid, cpu_k = answer
            cpu -= cpu_k  # (the workers' CPU, counted with this process's below)
            searched.append(cells_k)
            wanted.append(wanted_k)
            exports.update(exports_k)
            cost.update(cost_k)
            counts[pid] = counts.get(pid, 0) + len(cells_k)
        counts[os.getpid()] = counts.get(os.getpid(), 0) + len(here.cells)
        if judged and not ran_out:
            _LOCAL.pace.saw(time.process_time() - cpu, time.perf_counter() - wall)
        for work in works[1:]:
            chains.charge(work)
        if ran_out:
            raise ChainLimit()
        _LOCAL.cost = cost
        _LOCAL.last = (key, searched)
        span = _LOCAL.span
        span[0] += sum(works)
        span[1] += max(works)
        # this process's propagations that the workers wait for (theirs came with their answers)
        mine = set(here.cells)
        exports.update(here.export(sorted({s for starts in wanted[1:] for s in starts if s >> 6 in mine})))
        left = chains.budget_left()
        for k in range(1, shares):
            team.send(k - 1, _worker_round, ("rest", left, {s: exports[s] for s in wanted[k] if s in exports}))
        found = [here.rest({s: exports[s] for s in wanted[0] if s in exports})] + _gather(team, shares - 1)
    except TeamLost:  # a worker was killed (out of memory, say): this process searches alone
        _abandon(team)
        return ALONE
    except BaseException:
        _abandon(team)  # a worker may still be busy with its share: stopped, not waited for
        raise
    found = [f for f in found if f[0] is not None]
    if not found:
        return None
    best_key, step = min(found, key=lambda f: f[0])
    if isinstance(step, tuple):  # a region chain found with another share's propagations
        step = here.remake(best_key)
    return step
