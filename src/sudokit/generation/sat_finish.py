"""Top-down minimising finished by SAT solvers: the ``unique`` rule from 17x17 up.

The engine's quick pass (:mod:`sudokit.engine.generate`) takes away the clues
whose removal it settles within a few nodes. What is left goes to a
:class:`sudokit.generation.sat.ProverTeam` of two CaDiCaL solvers, in three steps:

1. **First look.** Every orbit of clues is asked about once, on the puzzle as
   it stands, with a small conflict budget. A second solution proves the orbit
   needed for good (it still solves every puzzle with fewer clues), so it
   stays. An orbit that could go alone becomes a *candidate*, scored by the
   conflicts its proof took: few conflicts mean the clue is all but implied by
   the others.
2. **Probing rounds.** The candidate with the lowest score goes. Then the
   best-scored candidates are asked again, on the puzzle as it now is, with
   the same small budget: each gets a fresh score, or is proven needed; the
   lowest score goes, and so on, until a round finds nothing to remove and
   nothing to keep. Taking away, each time, the clue that is most nearly
   implied *now* keeps the puzzle as informative as it can be: more clues
   go, and the second solutions of the clues that stay lie nearer. On one
   25x25 seed the fixed order of the first look's scores removed 13 clues
   and its last proofs took 708,000 conflicts; these rounds removed 21, and
   the proofs after them took about a tenth of the time.
3. **Last pass.** The remaining candidates, best score first, are asked with
   the full budget, each on the puzzle as it is by then. Both solvers work:
   a free one asks about the next candidate before the answers in front of it
   are in. Answers are committed in order. "Needed" stays true whatever goes
   before, and a "can go" that a removal in the meantime may have changed is
   asked again, so the puzzle does not depend on timing.

Every solver answers its own questions in order, and which solver gets which
question in steps 1 and 2 depends only on the seed, so the conflict counts,
hence the scores and the puzzle, are the same whether the two solvers run in
worker processes or in this process (as under ``--jobs``). An orbit whose
last-pass question runs out of conflicts is kept and counted undecided.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterable, Sequence

import numpy as np

from ..grid import Grid
from .plan import Plan, arrays, kernel_seed
from .sat import ProverTeam

#: Solvers in a team: always two, in worker processes or in this process, so
#: that a seed makes the same puzzle on any machine.
TEAM = 2
#: Conflicts per question in the first look and in the probing rounds.
PROBE_CONFLICTS = 200
#: Candidates asked again in each probing round, the best-scored first.
PROBES = 24
#: Questions waiting at a solver: enough to keep it busy, few enough to stop soon.
QUEUE = 3


class Minimiser:
    """Minimises one puzzle in place, with a team that knows its solution.

    ``orbits`` lists the cells of each orbit; ``conflicts`` is the budget of
    a last-pass question (0: none); ``progress`` gets fractions from 0 to 1.
    """

    def __init__(self, team: ProverTeam, puzzle: np.ndarray, orbits: Sequence[np.ndarray],
                 conflicts: int, progress: Callable[[float], None] | None = None) -> None:
        self.team = team
        self.puzzle = puzzle
        self.orbits = orbits
        self.conflicts = conflicts
        self.probe = PROBE_CONFLICTS if conflicts <= 0 else min(PROBE_CONFLICTS, conflicts)
        self.progress = progress
        self.asked = 0
        self.undecided = 0
        self.candidates: list[int] = []
        self.score: dict[int, tuple[int, int]] = {}  # orbit: (conflicts, rank in the first look)
        self.unsent: list[list[int]] = [[] for _ in range(team.size)]  # needed clues a member lacks
        self._total = 0

    def run(self, order: Sequence[int]) -> None:
        """All three steps, the orbits first looked at in ``order``."""
        self.first_look(order)
        self.probing_rounds()
        self.last_pass()

    # -- helpers ----------------------------------------------------------------------

    def clues_of(self, orbit: int) -> list[int]:
        return [int(c) for c in self.orbits[orbit] if self.puzzle[c]]

    def _report(self, fraction: float) -> None:
        if self.progress is not None:
            self.progress(fraction)

    def _settled(self) -> None:
        """Progress after the first look: the share of candidates removed or proven needed."""
        if self._total:
            self._report(0.2 + 0.8 * (self._total - len(self.candidates)) / self._total)

    def _needed(self, orbit: int, member: int) -> None:
        """``member`` proved ``orbit`` needed (and keeps it): the other members learn it later."""
        for other in range(self.team.size):
            if other != member:
                self.unsent[other].extend(self.clues_of(orbit))

    def _keep(self, member: int) -> list[int]:
        keep, self.unsent[member] = sorted(self.unsent[member]), []
        return keep

    def _ask_round(self, orbits: Sequence[int], budget: int,
                   done: Callable[[int], None] | None = None) -> dict[int, tuple[bool | None, int]]:
        """Asks about each orbit on the puzzle as it is; orbit ``i`` of the list goes to member
        ``i % size``, which keeps it if needed. Returns ``{orbit: (answer, conflicts)}``."""
        clues = np.flatnonzero(self.puzzle)
        waiting = [deque(o for i, o in enumerate(orbits) if i % self.team.size == m)
                   for m in range(self.team.size)]
        # what a member learns from the others waits for the next round, not for timing
        keep = [self._keep(member) if waiting[member] else [] for member in range(self.team.size)]
        answers: dict[int, tuple[bool | None, int]] = {}
        while len(answers) < len(orbits):
            for member, queue in enumerate(waiting):
                while queue and self.team.busy(member) < QUEUE:
                    o = queue.popleft()
                    self.team.ask(member, o, self.clues_of(o), clues, keep=keep[member],
                                  keep_if_needed=True, conflicts=budget)
                    keep[member] = []
            member, o, answer, conflicts = self.team.answer()
            answers[o] = (answer, conflicts)
            if answer:
                self._needed(o, member)
            if done is not None:
                done(len(answers))
        self.asked += len(orbits)
        return answers

    # -- the three steps ----------------------------------------------------------------

    def first_look(self, order: Sequence[int]) -> None:
        """Every orbit once, with the probe budget: needed ones stay, the others become candidates."""
        order = [int(o) for o in order]
        answers = self._ask_round(order, self.probe, lambda k: self._report(0.2 * k / len(order)))
        ranked = []
        for rank, o in enumerate(order):
            answer, conflicts = answers[o]
            if answer is not True:
                # over budget: it may go or not; scored after every known "can go"
                ranked.append(((conflicts if answer is False else self.probe + 1), rank, o))
        ranked.sort()
        self.score = {o: (c, rank) for c, rank, o in ranked}
        self.candidates = [o for _, _, o in ranked]
        self._total = len(self.candidates)

    def probing_rounds(self) -> None:
        """Take away the candidate most nearly implied now, score the best ones again, repeat."""
        fresh = [o for o in self.candidates if self.score[o][0] <= self.probe]  # "can go" as of now
        while fresh:
            best = min(fresh, key=self.score.__getitem__)
            self.puzzle[self.orbits[best]] = 0
            self.candidates.remove(best)
            fresh, proven = [], True
            while proven and not fresh:
                # until a round finds something to remove, or nothing to remove and nothing to keep
                self.candidates.sort(key=self.score.__getitem__)
                top = self.candidates[:PROBES]
                answers = self._ask_round(top, self.probe)
                fresh, proven = [], False
                for o in top:
                    answer, conflicts = answers[o]
                    if answer is True:
                        self.candidates.remove(o)
                        proven = True
                    elif answer is False:
                        self.score[o] = (conflicts, self.score[o][1])
                        fresh.append(o)
                    else:
                        self.score[o] = (self.probe + 1, self.score[o][1])
                self._settled()

    def last_pass(self) -> None:
        """The remaining candidates, best score first, with the full budget, asking ahead."""
        team, going = self.team, sorted(self.candidates, key=self.score.__getitem__)
        version = 0  # removals so far in this pass
        commit = following = 0  # the next answer to commit; the next candidate nobody asked about
        again: list[int] = []  # to ask again, on the puzzle as it is now
        answers: dict[int, tuple[bool | None, int]] = {}
        asked_at: dict[int, int] = {}
        witness: list[list[int] | None] = [None] * team.size  # a newer second solution to start from
        while commit < len(going):
            for member in range(team.size):
                if team.busy(member):
                    continue
                if again:
                    j = again.pop(0)
                elif following < len(going):
                    j, following = following, following + 1
                else:
                    break
                asked_at[j] = version
                team.ask(member, j, self.clues_of(going[j]), np.flatnonzero(self.puzzle),
                         keep=self._keep(member), prefer=witness[member], conflicts=self.conflicts)
                witness[member] = None
                self.asked += 1
            finder, j, answer, _ = team.answer()
            if answer:
                # the next second solution tends to lie near the last one found, by any member
                witness = [None if other == finder else team.witness for other in range(team.size)]
            answers[j] = (answer, asked_at[j])
            while commit in answers:
                answer, seen = answers.pop(commit)
                o = going[commit]
                if answer is not True and seen != version:
                    again.append(commit)  # something went since: ask on today's puzzle
                    break
                if answer is True:
                    for pending in self.unsent:
                        pending.extend(self.clues_of(o))
                elif answer is False:
                    self.puzzle[self.orbits[o]] = 0
                    version += 1
                else:
                    self.undecided += 1
                self.candidates.remove(o)
                commit += 1
                self._settled()
        self._report(1.0)


def minimise(puzzle: np.ndarray, solution: Grid, orbits: Sequence[np.ndarray], order: Iterable[int],
             conflicts: int, processes: bool, progress: Callable[[float], None] | None = None,
             deadline: float | None = None) -> tuple[int, int]:
    """Minimises ``puzzle`` in place (see the module's text); returns (questions asked, undecided).

    ``order`` is the first look's order of the orbits that have clues;
    ``processes`` runs the two solvers in worker processes. After ``deadline``
    (a ``time.perf_counter()`` instant) it raises
    :class:`~sudokit.errors.LimitReached` and stops the solvers; the puzzle
    then still has one solution, but not every clue is proven needed. With a
    deadline the solvers always run in worker processes, which can be stopped
    in the middle of a question (the puzzle is the same either way).
    """
    processes = processes or deadline is not None
    with ProverTeam(solution, conflicts=conflicts, size=TEAM, processes=processes, deadline=deadline) as team:
        minimiser = Minimiser(team, puzzle, orbits, conflicts, progress)
        minimiser.run(list(order))
        return minimiser.asked, minimiser.undecided


def settle(plan: Plan, seed: int, puzzle: np.ndarray, solution: np.ndarray, stats: np.ndarray,
           progress: Callable[[float], None] | None = None, parallel: bool = False,
           deadline: float | None = None) -> None:
    """Finish minimising ``puzzle`` (the engine's quick pass done) in place with
    SAT solvers, so that every clue is proven needed: :func:`minimise` on the
    orbits that still hold clues, in an order drawn from the seed. With
    ``parallel`` the two solvers run in worker processes; the puzzle is the
    same either way. Raises LimitReached when ``deadline`` passes."""
    from ..engine.generate import STAT_COUNTS, STAT_UNDECIDED

    _, _, cells, starts = arrays(plan.shape, plan.symmetry)
    orbits = [cells[starts[o]:starts[o + 1]] for o in range(len(starts) - 1)]
    present = [o for o, orbit in enumerate(orbits) if puzzle[orbit].any()]
    order = np.random.default_rng(kernel_seed(seed)).permutation(present)
    solution_grid = Grid.unchecked(plan.shape, tuple(int(v) for v in solution))
    asked, undecided = minimise(puzzle, solution_grid, orbits, order.tolist(), plan.node_limit,
                                processes=parallel, progress=progress, deadline=deadline)
    stats[STAT_UNDECIDED] = undecided
    stats[STAT_COUNTS] += asked
