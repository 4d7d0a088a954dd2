"""Chains of implications: Sudoku Explainer's cycles and forcing chains.

A *potential* is a candidate ``(cell, value)`` assumed true ("on") or false
("off"). Implications link potentials:

* **on → off**: when ``(c, v)`` is on, every other candidate of ``c`` (a
  *y-link*, used in Y- and XY-chains) and every other place for ``v`` in the
  box, row and column of ``c`` (an *x-link*) are off;
* **off → on**: when ``(c, v)`` is off and ``c`` has two candidates left, the
  other one is on (y-link); when a unit has two places left for ``v``, the
  other place is on (x-link).

Following them from one assumption gives the techniques SE rates from 6.5 up,
each found by one *producer* in SE's order:

=============================  =======  ==================================
producer                       base     steps
=============================  =======  ==================================
Forcing Chains & Cycles        6.5-7.0  Bidirectional X-/Y-/XY-Cycle (6.5,
                                        6.5, 7.0), Forcing X-Chain (6.6),
                                        Forcing Chain (7.0)
Nishio Forcing Chains          7.5      x-links only, dynamic; a candidate
                                        whose assumption contradicts itself
Multiple Forcing Chains        8.0      Cell and Region Forcing Chains
Dynamic Forcing Chains         8.5      Contradiction, Double, Cell and
                                        Region Forcing Chains, dynamic
=============================  =======  ==================================

*Dynamic* chains remove each candidate that turns off from the grid while
they run, so later implications see the smaller grid (a cell may become
bivalue, a unit may be left with two places). An implication made possible
that way names the removed candidates as extra parents.

**Rating.** A step rates ``base + length``, where ``length`` grows by 0.1 each
time the chain's *complexity* (the number of distinct potentials in its
chains, summed over the chains of a multiple chain) minus 2 passes 4, 6, 8,
12, 16, 24, 32, ... (alternately ×3/2 and ×4/3). A producer collects all its
steps and SE applies the one with the lowest rating, then the lowest
complexity, then the lowest kind key (double < X-cycle < Y-cycle < XY-cycle
< cell < region < contradiction), then the first found in scan order (cells
row by row, values ascending).

>>> length_increment(6), length_increment(7), length_increment(10), length_increment(40)
(0.0, 0.1, 0.2, 0.7)
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import deque
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator

from ..errors import LimitReached
from .links import value_boards
from .state import Candidates, extra_units, iter_bits, se_cells
from .step import STRONG, WEAK, Step, Technique, elims_text

__all__ = [
    "FORCING_CHAINS", "NISHIO", "MULTIPLE", "DYNAMIC", "TECHNIQUES", "length_increment", "CHAIN_TIME_LIMIT", "time_limit",
]

#: Seconds one producer may spend on one state before it gives up (and the
#: rating then stops there as a lower bound). ``None``: no limit.
CHAIN_TIME_LIMIT: float | None = 10.0


#: The clock of the time budgets: this process's CPU time, so that other work
#: on a shared machine changes which ratings run out of budget much less.
clock = time.process_time


class ChainLimit(LimitReached):
    """A chain search ran out of its time budget; ``rating`` is the lowest
    rating the abandoned producer could have given, ``tier`` its name."""

    def __init__(self, rating: float = 0.0, tier: str = "") -> None:
        super().__init__(f"chain search took longer than {CHAIN_TIME_LIMIT} s")
        self.rating = rating
        self.tier = tier


def length_increment(complexity: int) -> float:
    """SE's rating increment for a chain of ``complexity`` potentials."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added


# -- potentials as ints: (cell << 6) | (value << 1) | on -----------------------


def _node(cell: int, value: int, on: int) -> int:
    return (cell << 6) | (value << 1) | on


def _cell(node: int) -> int:
    return node >> 6


def _value(node: int) -> int:
    return (node >> 1) & 31


def _name(geo, node: int) -> str:
    return f"{geo.cell_name(node >> 6)}{'=' if node & 1 else '<>'}{geo.symbol((node >> 1) & 31)}"


class _Tables:
    """Per-geometry tables in SE's scan order, as bitboards (bit c for cell c;
    ascending bits are SE's order within a unit)."""

    def __init__(self, geo) -> None:
        self.geo = geo
        units_of = geo.units_of
        um = geo.unit_mask
        # on -> off x-links: box first, then the row and column outside the
        # box, then a variant's extra units (SE's order: windows, diagonals)
        # outside all of those
        extra = extra_units(geo)
        self.off_parts = []
        self.on_units = []
        self.cell_units = []
        for cell, held in enumerate(units_of):
            r, c, b = held[:3]
            parts = [um[b] & ~(1 << cell), um[r] & ~um[b], um[c] & ~um[b]]
            own = [u for u in extra if u in held] if len(held) > 3 else []
            seen = um[b] | um[r] | um[c]
            for u in own:
                parts.append(um[u] & ~seen)
                seen |= um[u]
            self.off_parts.append(tuple(parts))
            # off -> on x-links: box, row, column, extra units
            self.on_units.append((um[b], um[r], um[c], *(um[u] for u in own)))
            self.cell_units.append((b, r, c, *own))
        self.extra = bool(extra)
        self.compiled = None  # (peers, units) arrays for chain_kernels


@lru_cache(maxsize=None)
def _tables(geo) -> _Tables:
    """The tables of a geometry, built once."""
    return _Tables(geo)


#: The compiled searches (:mod:`chain_kernels`): None until first wanted,
#: False when they cannot load here.
_KERNELS = None
_WORK = threading.local()


def _compiled_for(ch: "Chainer"):
    """``(module, masks array, peers, units, work)`` for a chainer's state,
    or False: the static searches then run in Python (same results). numba
    loads only when a puzzle reaches the chain tiers, and, as for the other
    kernels, not for the first chain searches of a process that has not
    loaded it yet (a single puzzle is faster without)."""
    global _KERNELS
    geo = ch.geo
    if geo.n > 31 or ch.t.extra:  # the kernels' tables hold three units a cell
        return False
    if _KERNELS is None:
        from ..engine import prefer_compiled

        if not prefer_compiled("chains", geo.n):
            return False
        try:
            from . import chain_kernels
        except Exception:  # numba missing or broken: the Python searches
            _KERNELS = False
        else:
            _KERNELS = chain_kernels
    if not _KERNELS:
        return False
    import numpy as np

    t = ch.t
    if t.compiled is None:
        t.compiled = _KERNELS.tables(t)
    peers, units = t.compiled
    works = getattr(_WORK, "by_geo", None)
    if works is None:
        works = _WORK.by_geo = {}
    w = works.get(geo)
    if w is None:
        w = works[geo] = _KERNELS.work(len(geo.units_of), geo.n, peers.shape[1])
        w["stamp"] = 0
    return _KERNELS, np.array(ch.state.mask, dtype=np.int64), peers, units, w


class Chainer:
    """The implications on one candidate state. A dynamic chain works on
    copies of the masks and value boards that shrink while it runs; static
    implications are computed once per potential and cached."""

    def __init__(self, state: Candidates, deadline: float | None, boards: list[int] | None = None) -> None:
        self.state = state
        self.geo = state.geo
        self.t = _tables(state.geo)
        self.units = state.geo.units
        # (``boards``: the value bitboards of ``state.mask`` when the caller has them)
        self._boards = boards
        self.deadline = deadline
        self.ticks = 0
        self._last_check = 0.0
        self._off_cache: dict = {}
        self._compiled = None
        self._on_cache: dict = {}
        self._prop_cache: dict = {}

    @property
    def boards(self) -> list[int]:
        """The value bitboards of the state's candidates (read only), made when
        first asked for: most searches of a state never read them."""
        if self._boards is None:
            self._boards = list(value_boards(self.state))
        return self._boards

    def tick(self, units: int = 1) -> None:
        """Count ``units`` of work against the puzzle's work budget, and
        raise :class:`ChainLimit` once it or a deadline has run out (called
        once per search from one potential, ``units`` more for a larger
        piece of work). The wall clock is cheap to read; the CPU clock, a
        system call that can take milliseconds on a busy or virtualised
        machine (and only an outer guard), is read again only once the wall
        clock has moved by what was left of the CPU budget."""
        b = _BUDGET
        b.work_done += units
        if b.work_end is not None and b.work_done > b.work_end:
            raise ChainLimit()
        wall = b.wall
        if self.deadline is None and wall is None:
            return
        now = time.perf_counter()
        if wall is not None and now > wall:
            raise ChainLimit()
        deadline = self.deadline
        if deadline is None or (deadline == b.cpu_checked and now < b.next_cpu_check):
            return
        left = deadline - clock()
        if left < 0:
            raise ChainLimit()
        # this process's CPU time runs no faster than the wall clock: no need to look before
        b.cpu_checked, b.next_cpu_check = deadline, now + left

    # the two kinds of implication --------------------------------------------

    def on_to_off(self, masks: list[int], node: int, y: bool, boards: list[int] | None = None) -> list[int]:
        """The potentials an on potential turns off, in SE's order."""
        if boards is None:
            key = node << 1 | y
            out = self._off_cache.get(key)
            if out is not None:
                return out
            out = self._off_cache[key] = self.on_to_off(masks, node, y, self.boards)
            return out
        cell, value = node >> 6, (node >> 1) & 31
        out = []
        if y:
            m = masks[cell] & ~(1 << (value - 1))
            while m:
                low = m & -m
                out.append((cell << 6) | (low.bit_length() << 1))
                m ^= low
        board = boards[value]
        tail = value << 1
        for part in self.t.off_parts[cell]:
            b = board & part
            while b:
                low = b & -b
                out.append(((low.bit_length() - 1) << 6) | tail)
                b ^= low
        return out

    def off_to_on(self, masks: list[int], node: int, y: bool, x: bool, boards: list[int] | None = None,
                  source: list[int] | None = None, source_boards: list[int] | None = None
                  ) -> list[tuple[int, tuple]]:
        """``(on node, parents)``; the parents are the node itself and, in a
        dynamic chain, the removed candidates that made the link."""
        if boards is None:
            key = node << 2 | y << 1 | x
            out = self._on_cache.get(key)
            if out is not None:
                return out
            out = self._on_cache[key] = self.off_to_on(masks, node, y, x, self.boards)
            return out
        cell, value = node >> 6, (node >> 1) & 31
        out = []
        bit = 1 << (value - 1)
        if y:
            m = masks[cell]
            if m.bit_count() == 2:
                other = (m & ~bit).bit_length()
                parents = (node,)
                if source is not None:
                    gone = source[cell] & ~m
                    while gone:
                        low = gone & -gone
                        parents += ((cell << 6) | (low.bit_length() << 1),)
                        gone ^= low
                out.append(((cell << 6) | (other << 1) | 1, parents))
        if x:
            board = boards[value]
            me = 1 << cell
            for unit in self.t.on_units[cell]:
                b = board & unit
                if b.bit_count() == 2 and b & me:
                    other = (b & ~me).bit_length() - 1
                    parents = (node,)
                    if source_boards is not None:
                        gone = source_boards[value] & unit & ~board
                        while gone:
                            low = gone & -gone
                            parents += (((low.bit_length() - 1) << 6) | (value << 1),)
                            gone ^= low
                    out.append(((other << 6) | (value << 1) | 1, parents))
        return out

    # static single chains: cycles and forcing chains ---------------------------

    def _kernel(self, masks: list[int]):
        """The compiled searches for this state, or None (another state's
        masks, or no compiled code here)."""
        k = self._compiled
        if k is None:
            k = self._compiled = _compiled_for(self)
        return k if k and masks is self.state.mask else None

    def found(self, masks: list[int], y: bool, x: bool) -> list[int] | None:
        """Per candidate ``(cell << 5) | value``, which searches of
        :meth:`cycles` (bit 1) and :meth:`forcing` from the candidate on (2)
        and off (4) find anything with no limit (with a limit they find a
        subset); None when that is not known cheaply (then try them all)."""
        k = self._kernel(masks)
        if k is None:
            return None
        self.tick(SCAN_UNITS)
        ck, arr, peers, units, w = k
        return ck.scan(arr, peers, units, bool(y), bool(x), w).tolist()

    def cycles(self, masks: list[int], src: int, y: bool, x: bool, limit: int) -> list[tuple]:
        """Cycles back to ``src`` (on) of at most ``limit`` links; each as a
        parent-linked entry ``(node, parent_entry)``."""
        self.tick()
        k = self._kernel(masks)
        if k is not None:
            ck, arr, peers, units, w = k
            n, nfound = ck.search(True, arr, peers, units, src, bool(y), bool(x), min(limit, 1 << 30), w)
            if not nfound:
                return []
            nodes = w["nodes"][:n].tolist()
            parents = w["parents"][:n].tolist()
            built: dict[int, tuple] = {}

            def entry(i: int) -> tuple:
                todo = []
                while i != -1 and i not in built:
                    todo.append(i)
                    i = parents[i]
                e = built[i] if i != -1 else None
                for j in reversed(todo):
                    e = built[j] = (nodes[j], e)
                return e

            return [(src, entry(f)) for f in w["found"][:nfound].tolist()]
        found = []
        on_seen = {src}
        pend_on = [(src, None)]
        pend_off: list = []
        length = 0
        while pend_on or pend_off:
            if length + 2 > limit:
                break
            length += 1
            for entry in pend_on:
                for q in self.on_to_off(masks, entry[0], y):
                    e = entry[1]
                    dup = False
                    while e is not None:
                        if e[0] == q:
                            dup = True
                            break
                        e = e[1]
                    if not dup:
                        pend_off.append((q, entry))
            pend_on = []
            length += 1
            for entry in pend_off:
                for q, _ in self.off_to_on(masks, entry[0], y, x):
                    if length >= 4 and q == src:
                        found.append((q, entry))
                    if q not in on_seen:
                        on_seen.add(q)
                        pend_on.append((q, entry))
            pend_off = []
        return found

    def forcing(self, masks: list[int], src: int, y: bool, limit: int) -> list[tuple[int, int, dict]]:
        """Chains from ``src`` to its own negation of at most ``limit``
        potentials: ``(target, parents, graph)``. The search goes level by
        level, so a node at depth ``d`` gives a chain of ``d + 2``. (The
        graph returned holds the chain's potentials.)"""
        self.tick()
        k = self._kernel(masks)
        if k is not None:
            ck, arr, peers, units, w = k
            n, last = ck.search(False, arr, peers, units, src, bool(y), True, min(limit, 1 << 30), w)
            if last < 0:
                return []
            nodes, parents = w["nodes"], w["parents"]
            path = []
            while last != -1:
                path.append(int(nodes[last]))
                last = int(parents[last])
            graph = {src: ()}
            for i in range(len(path) - 2, -1, -1):
                graph[path[i]] = (path[i + 1],)
            return [(src ^ 1, (path[0],), graph)]
        graph: dict[int, tuple] = {src: ()}
        conj = src ^ 1
        pend_on = deque([src] if src & 1 else [])
        pend_off = deque([] if src & 1 else [src])
        depth = 0
        while pend_on or pend_off:
            if pend_on:
                if depth + 2 > limit:
                    break
                depth += 1
            while pend_on:
                p = pend_on.popleft()
                for q in self.on_to_off(masks, p, y):
                    if q == conj:  # the one target: its chain is complete, and no other can come
                        return [(q, (p,), graph)]
                    if q not in graph:
                        graph[q] = (p,)
                        pend_off.append(q)
            if pend_off:
                if depth + 2 > limit:
                    break
                depth += 1
            while pend_off:
                p = pend_off.popleft()
                for q, parents in self.off_to_on(masks, p, y, True):
                    if q == conj:
                        return [(q, parents, graph)]
                    if q not in graph:
                        graph[q] = parents
                        pend_on.append(q)
        return []

    # full propagation, for multiple and dynamic chains -------------------------

    def propagate(self, starts: list[int], nishio: bool, dynamic: bool):
        """As :meth:`_propagate`, cached: a cell's candidate and a region's
        place are often the same assumption."""
        key = (tuple(starts), nishio, dynamic)
        got = self._prop_cache.get(key)
        if got is None:
            got = self._prop_cache[key] = self._propagate(starts, nishio, dynamic)
        return got

    def _propagate(self, starts: list[int], nishio: bool, dynamic: bool):
        """Everything that follows from ``starts`` (SE's doChaining). Returns
        ``(graph, contradiction)``: ``graph`` maps each potential found to its
        parents, in the order found, and ``contradiction`` is ``None`` or
        ``((on, parents), (off, parents))``, a candidate forced both ways (the
        graph then holds what was found before it)."""
        k = self._kernel(self.state.mask)
        if k is not None:
            self.tick()
            ck, arr, peers, units, w = k
            n, kind, e, p = ck.propagate(arr, peers, units, starts, not nishio, bool(dynamic), w)
            if nishio and not kind:  # Nishio chains use a graph only for its contradiction
                return {}, None
            extra = kind == 2
            nodes = w["pnodes"][:n + extra].tolist()
            ns = len(starts)
            # most potentials have one parent: the dictionary is made from the first parents, then the
            # starts (no parent) and the dynamic links (more parents) are set, keeping the order found
            graph = dict(zip(nodes[:n], zip(w["pfirst"][:n].tolist())))
            for s in starts:
                graph[s] = ()
            pstart = w["pstart"]
            total = int(pstart[n + extra])
            if total != n - ns or extra:
                ps = pstart[:n + 1 + extra].tolist()
                flat = w["pflat"][:total].tolist()
                for i in range(ns, n):
                    if ps[i + 1] - ps[i] > 1:
                        graph[nodes[i]] = tuple(flat[ps[i]:ps[i + 1]])
            if kind == 0:
                return graph, None
            if kind == 1:
                a = nodes[e]
                return graph, ((a, graph[a]), (a ^ 1, (p,)))
            q = nodes[n]
            return graph, ((q, tuple(flat[ps[n]:ps[n + 1]])), (q ^ 1, graph[q ^ 1]))
        base = self.state.mask
        y = not nishio
        graph: dict[int, tuple] = {}
        pend_on: deque = deque()
        pend_off: deque = deque()
        for s in starts:
            graph[s] = ()
            (pend_on if s & 1 else pend_off).append(s)
        if dynamic:
            masks = list(base)
            boards = list(self.boards)
            src_boards = self.boards
        else:
            masks = base
            boards = src_boards = None
        on_to_off, off_to_on = self.on_to_off, self.off_to_on
        self.tick()
        if dynamic:
            return graph, self.dynamic_run(graph, pend_on, pend_off, masks, boards, y)
        while pend_on or pend_off:
            if pend_on:
                p = pend_on.popleft()
                for q in on_to_off(masks, p, y, boards):
                    if q | 1 in graph:
                        return graph, ((q | 1, graph[q | 1]), (q, (p,)))
                    if q not in graph:
                        graph[q] = (p,)
                        pend_off.append(q)
            else:
                p = pend_off.popleft()
                if dynamic:
                    made = off_to_on(masks, p, y, True, boards, base, src_boards)
                    cell, value = p >> 6, (p >> 1) & 31
                    masks[cell] &= ~(1 << (value - 1))
                    boards[value] &= ~(1 << cell)
                else:
                    made = off_to_on(masks, p, y, True)
                for q, parents in made:
                    if q ^ 1 in graph:
                        return graph, ((q, parents), (q ^ 1, graph[q ^ 1]))
                    if q not in graph:
                        graph[q] = parents
                        pend_on.append(q)
        return graph, None

    def dynamic_run(self, graph: dict, pend_on: deque, pend_off: deque, masks: list[int], boards: list[int],
                    y: bool):
        """The dynamic propagation loop of :meth:`_propagate`, with
        :meth:`on_to_off` and :meth:`off_to_on` written out: the same
        potentials, parents and order, without the lists between them. It
        changes ``graph``, ``masks`` and ``boards`` in place and returns the
        contradiction or ``None``."""
        base = self.state.mask
        src_boards = self.boards
        off_parts = self.t.off_parts
        on_units = self.t.on_units
        while pend_on or pend_off:
            if pend_on:
                p = pend_on.popleft()
                cell = p >> 6
                value = (p >> 1) & 31
                if y:
                    m = masks[cell] & ~(1 << (value - 1))
                    while m:
                        low = m & -m
                        q = (cell << 6) | (low.bit_length() << 1)
                        if q | 1 in graph:
                            return (q | 1, graph[q | 1]), (q, (p,))
                        if q not in graph:
                            graph[q] = (p,)
                            pend_off.append(q)
                        m ^= low
                board = boards[value]
                tail = value << 1
                for part in off_parts[cell]:
                    b = board & part
                    while b:
                        low = b & -b
                        q = ((low.bit_length() - 1) << 6) | tail
                        if q | 1 in graph:
                            return (q | 1, graph[q | 1]), (q, (p,))
                        if q not in graph:
                            graph[q] = (p,)
                            pend_off.append(q)
                        b ^= low
            else:
                p = pend_off.popleft()
                cell = p >> 6
                value = (p >> 1) & 31
                bit = 1 << (value - 1)
                me = 1 << cell
                made = []
                if y:
                    m = masks[cell]
                    if m.bit_count() == 2:
                        parents = (p,)
                        gone = base[cell] & ~m
                        while gone:
                            low = gone & -gone
                            parents += ((cell << 6) | (low.bit_length() << 1),)
                            gone ^= low
                        made.append(((cell << 6) | ((m & ~bit).bit_length() << 1) | 1, parents))
                board = boards[value]
                for unit in on_units[cell]:
                    b = board & unit
                    if b & me and b.bit_count() == 2:
                        parents = (p,)
                        gone = src_boards[value] & unit & ~board
                        while gone:
                            low = gone & -gone
                            parents += (((low.bit_length() - 1) << 6) | (value << 1),)
                            gone ^= low
                        made.append(((((b & ~me).bit_length() - 1) << 6) | (value << 1) | 1, parents))
                masks[cell] &= ~bit
                boards[value] = board & ~me
                for q, parents in made:
                    if q ^ 1 in graph:
                        return (q, parents), (q ^ 1, graph[q ^ 1])
                    if q not in graph:
                        graph[q] = parents
                        pend_on.append(q)
        return None


def chain_nodes(node: int, parents: tuple, graph: dict, seen: set | None = None, most: int | None = None) -> set:
    """The potentials of the chain ending in ``node`` (``parents`` its
    parents, ``graph`` the parents of every potential met), added to ``seen``
    when one is given (SE's ``getChain``). With ``most``, the walk may stop
    once ``seen`` holds more than ``most`` potentials (the set is then only
    part of the chain, larger than ``most``)."""
    seen = set() if seen is None else seen
    seen.add(node)
    todo = list(parents)
    while todo:
        nxt = []
        for p in todo:
            if p not in seen:
                seen.add(p)
                nxt.extend(graph[p])
        todo = nxt
        if most is not None and len(seen) > most:
            break
    return seen


def _ancestors(node: int, parents: tuple, graph: dict) -> int:
    """How many distinct potentials the chain ending in ``node`` holds."""
    return len(chain_nodes(node, parents, graph))


def parent_path(node: int, parents: tuple, graph: dict) -> list[int]:
    """The first-parent path from the assumption to ``node``."""
    out = [node]
    ps = parents
    while ps:
        out.append(ps[0])
        ps = graph[ps[0]]
    return out[::-1]


# -- hints ---------------------------------------------------------------------


class Hint:
    """A step found by a producer. Its ``text`` and ``links`` may be given
    as ``lazy``, a function that makes both: a producer offers many hints
    and only the one it keeps is ever shown."""

    __slots__ = ("difficulty", "complexity", "key", "order", "name", "placement", "removals", "_text", "_links",
                 "cells", "lazy", "settled")

    def __init__(self, difficulty, complexity, key, name, placement, removals, text, links=(), cells=(), lazy=None,
                 settled=False):
        self.difficulty = difficulty
        self.complexity = complexity
        self.key = key
        self.order = 0
        self.name = name
        self.placement = placement
        self.removals = removals
        self._text = text
        self._links = links
        self.cells = cells
        self.lazy = lazy
        #: Whether ``lazy`` reads only what never changes (not the state, which the step
        #: itself changes): its step may then make the text and links when they are read.
        self.settled = settled

    def _make(self) -> None:
        lazy, self.lazy = self.lazy, None
        self._text, self._links = lazy()

    @property
    def text(self) -> str:
        if self.lazy is not None:
            self._make()
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        if self.lazy is not None:
            self._make()
        self._text = value

    @property
    def links(self):
        if self.lazy is not None:
            self._make()
        return self._links

    def fields(self) -> tuple:
        """The arguments that make this hint again (its text and links still
        lazy when they are), for a subclass that adds to it."""
        return (self.difficulty, self.complexity, self.key, self.name, self.placement, self.removals, self._text,
                self._links, self.cells, self.lazy, self.settled)

    def sort_key(self):
        return (self.difficulty, self.complexity, self.key, self.order)

    def step(self) -> Step:
        rating = round(self.difficulty + 1e-9, 1)
        placements = (self.placement,) if self.placement else ()
        if self.lazy is not None and self.settled:
            return ChainStep(self.name, rating, placements=placements, eliminations=tuple(self.removals),
                             cells=tuple(self.cells), links=_LATER, text=_LATER, link_kinds=_LATER)._later(self.lazy)
        return Step(self.name, rating, placements=placements,
                    eliminations=tuple(self.removals), cells=tuple(self.cells),
                    links=tuple(link[:4] for link in self.links), text=self.text,
                    link_kinds=tuple(link[4] for link in self.links))


#: A :class:`ChainStep` field not made yet.
_LATER = object()


def _made_later(name: str) -> property:
    """A field of :class:`ChainStep`: made, with the others, when first read."""
    key = "_" + name

    def get(self):
        d = self.__dict__
        if key not in d:
            text, links = d.pop("_make")()
            d["_text"] = text
            d["_links"] = tuple(link[:4] for link in links)
            d["_link_kinds"] = tuple(link[4] for link in links)
        return d[key]

    def put(self, value) -> None:
        if value is not _LATER:
            self.__dict__[key] = value

    return property(get, put)


class ChainStep(Step):
    """A chain's :class:`Step` whose ``text``, ``links`` and ``link_kinds`` are made when
    first read: a rating reads none of them, and making them (walking each chain, naming each
    potential) cost about as much as finding an easy chain. Otherwise a plain step: equal to
    the :class:`Step` of the same fields, and pickled as one."""

    text = _made_later("text")
    links = _made_later("links")
    link_kinds = _made_later("link_kinds")

    def _later(self, make) -> "ChainStep":
        """This step, its text and links to come from ``make()`` (``(text, links)`` as a
        :class:`Hint` makes them; it must not read what changes later, such as the state)."""
        self.__dict__["_make"] = make
        return self

    def _plain(self) -> Step:
        return Step(**{f.name: getattr(self, f.name) for f in dataclasses.fields(Step)})

    def __eq__(self, other):
        if isinstance(other, ChainStep):
            other = other._plain()
        return self._plain() == other

    def __hash__(self) -> int:
        return hash(self._plain())

    def __repr__(self) -> str:
        return repr(self._plain())

    def __reduce__(self):
        return (Step, tuple(getattr(self, f.name) for f in dataclasses.fields(Step)))


class Best:
    """Keeps the hint SE would apply first among those offered so far."""

    def __init__(self) -> None:
        self.hint: Hint | None = None
        self.count = 0

    def offer(self, hint: Hint) -> None:
        if not hint.removals:
            return  # not worth it
        hint.order = self.count
        self.count += 1
        if self.hint is None or hint.sort_key() < self.hint.sort_key():
            self.hint = hint

    def bound(self, base: float) -> int:
        """The largest complexity a later hint of ``base`` may have and still
        come first: (rating, complexity) must be smaller than the best's (a
        later hint never has a smaller kind key at a tie)."""
        if self.hint is None:
            return 1 << 30
        best = (self.hint.difficulty, self.hint.complexity)
        k = 0
        while k < 4096 and (base + length_increment(k + 1), k + 1) < best:
            k += 1
        return k


def _links(chain: list[int]) -> tuple:
    """``(cell, value, cell, value, kind)`` per link of the chain: off -> on
    is a strong link (one of the two must hold), anything else weak."""
    return tuple((a >> 6, (a >> 1) & 31, b >> 6, (b >> 1) & 31, STRONG if not a & 1 and b & 1 else WEAK)
                 for a, b in zip(chain, chain[1:]))


def _chain_text(geo, chain: list[int]) -> str:
    return " → ".join(_name(geo, n) for n in chain)


def _removals_on(state: Candidates, target: int) -> list[tuple[int, int]]:
    cell, value = target >> 6, (target >> 1) & 31
    if target & 1:
        return [(cell, v + 1) for v in iter_bits(state.mask[cell] & ~(1 << (value - 1)))]
    return [(cell, value)]


#: Units of chain work (:meth:`Chainer.tick`: one search or propagation from
#: one assumption is one unit, a larger piece more) a machine does in a
#: second; :func:`time_limit` turns seconds into units with it. Measured on
#: the hardest puzzles (``rate(..., timeout=None)``, chain units over CPU
#: seconds): 160,000 to 175,000 a second on a 2-core AMD EPYC in its fast
#: phase, about half that in its slow one (the compiled nested levels made the
#: units cheaper than the 50,000 first measured); 100,000 keeps a budget of
#: ``s`` seconds within about ``s`` of CPU on the slow phase and well inside
#: the CPU guard on both.
WORK_PER_SECOND = 100_000

#: Units of one compiled scan (:meth:`Chainer.found`), in the units of one
#: search (the nested levels count their own work: ``nested.FIXPOINT_UNITS``).
SCAN_UNITS = 40

#: The clocks, outer guards of :func:`time_limit`: a budget of ``s`` seconds
#: also stops after ``CPU_GUARD * s`` of CPU time and ``WALL_GUARD * s`` on
#: the wall, whichever comes first (the work budget decides on an idle machine).
CPU_GUARD = 1.5
WALL_GUARD = 3.0


class _Budget(threading.local):
    """The budget of the chain searches of this thread (a rating in another
    thread has its own):

    * ``deadline``: the overall CPU deadline (a :func:`clock` value) set by
      :func:`time_limit`, read as ``chains.PUZZLE_DEADLINE``; every producer
      call stops there too;
    * ``wall``: the same limit on the wall clock (a :func:`time.perf_counter`
      value), the outer guard, so that a loaded machine, where CPU time runs
      slower than the clock on the wall, cannot stretch a user's ``--timeout``;
    * ``work_done``: units of work done in this thread (:meth:`Chainer.tick`,
      read as ``chains.WORK_DONE``), and ``work_end`` the count at which the
      current budget ends (None: no budget);
    * ``cpu_checked``, ``next_cpu_check``: the CPU deadline last checked in
      :meth:`Chainer.tick` and the wall time before which it cannot have
      passed."""

    def __init__(self) -> None:
        self.deadline: float | None = None
        self.wall: float | None = None
        self.work_done = 0
        self.work_end: int | None = None
        self.cpu_checked: float | None = None
        self.next_cpu_check = 0.0


_BUDGET = _Budget()


def __getattr__(name: str):
    if name == "PUZZLE_DEADLINE":
        return _BUDGET.deadline
    if name == "WORK_DONE":
        return _BUDGET.work_done
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Bound all the chain searches started inside the block (in this
    thread) to ``seconds`` in all (``None``: no overall bound); an enclosing
    limit still holds. A search that runs out raises :class:`ChainLimit`.

    The bound is first a deterministic one: ``seconds * WORK_PER_SECOND``
    units of work (:meth:`Chainer.tick`), what an idle machine does in that
    time, so that where the budget runs out does not depend on the
    machine's load or cores. The clocks are outer guards:
    ``CPU_GUARD * seconds`` of this process's CPU time and ``WALL_GUARD *
    seconds`` on the wall."""
    b = _BUDGET
    saved, saved_wall, saved_work = b.deadline, b.wall, b.work_end
    if seconds is not None:
        end = clock() + CPU_GUARD * seconds
        wall = time.perf_counter() + WALL_GUARD * seconds
        work = b.work_done + int(seconds * WORK_PER_SECOND)
        b.deadline = end if saved is None else min(saved, end)
        b.wall = wall if saved_wall is None else min(saved_wall, wall)
        b.work_end = work if saved_work is None else min(saved_work, work)
    try:
        yield
    finally:
        b.deadline, b.wall, b.work_end = saved, saved_wall, saved_work


def budget_left() -> tuple[float | None, float | None, int | None]:
    """What is left of this thread's budget, to hand to a search in another
    process (:func:`budget_of`): CPU seconds, the wall deadline (a
    :func:`time.perf_counter` value, the same clock in every process) and
    units of work (each None: no bound)."""
    b = _BUDGET
    return (None if b.deadline is None else b.deadline - clock(), b.wall,
            None if b.work_end is None else b.work_end - b.work_done)


@contextmanager
def budget_of(left: tuple[float | None, float | None, int | None]) -> Iterator[None]:
    """This thread's budget inside the block: ``left``, as :func:`budget_left`
    gave it in another process, with the work counted from zero (so that
    ``WORK_DONE`` at the end is the block's work, for :func:`charge`)."""
    b = _BUDGET
    saved = (b.deadline, b.wall, b.work_done, b.work_end, b.cpu_checked, b.next_cpu_check)
    cpu, b.wall, b.work_end = left
    b.deadline = None if cpu is None else clock() + cpu
    b.work_done, b.cpu_checked, b.next_cpu_check = 0, None, 0.0
    try:
        yield
    finally:
        b.deadline, b.wall, b.work_done, b.work_end, b.cpu_checked, b.next_cpu_check = saved


def charge(units: int) -> None:
    """Count ``units`` of work done elsewhere (another process's share of a
    search) against this thread's budget; :class:`ChainLimit` when it runs out."""
    b = _BUDGET
    b.work_done += units
    if b.work_end is not None and b.work_done > b.work_end:
        raise ChainLimit()


def _deadline() -> float | None:
    ends = [t for t in (_BUDGET.deadline,) if t is not None]
    if CHAIN_TIME_LIMIT is not None:
        ends.append(clock() + CHAIN_TIME_LIMIT)
    return min(ends, default=None)


# -- producer 1: Forcing Chains & Cycles ------------------------------------------


def cycle_nodes(entry: tuple) -> list[int]:
    """The potentials of a cycle, from its last (``entry``, a linked list of
    ``(potential, previous entry)``) back to its root."""
    chain = []
    e = entry
    while e is not None:
        chain.append(e[0])
        e = e[1]
    return chain


def cycle_hint(state: Candidates, entry: tuple, y: bool, x: bool, boards: list[int] | None = None) -> Hint | None:
    """The cycle's hint, or None when it removes nothing (quickly, on the
    value bitboards ``boards`` of the state when given)."""
    geo = state.geo
    chain = cycle_nodes(entry)
    # chain: dstOn, ..., root (same potential at both ends)
    if boards is not None:
        peer_mask = geo.peer_mask
        inside = 0
        for n in chain:
            inside |= 1 << (n >> 6)
        forw_b: dict[int, int] = {}
        back_b: dict[int, int] = {}
        for n in chain[:-1]:
            value = (n >> 1) & 31
            seen = forw_b if n & 1 else back_b
            seen[value] = seen.get(value, 0) | (peer_mask[n >> 6] & boards[value] & ~inside)
        if not any(b & back_b.get(v, 0) for v, b in forw_b.items()):
            return None
    cells: dict[int, None] = {}
    for n in chain[:-1]:
        cells.setdefault(n >> 6, None)
    forw: dict[tuple[int, int], None] = {}
    back: set = set()
    t = _tables(geo)
    for n in chain[:-1]:
        cell, value = n >> 6, (n >> 1) & 31
        bit = 1 << (value - 1)
        for p in geo.peers[cell]:
            if p not in cells and state.mask[p] & bit:
                if n & 1:
                    forw.setdefault((p, value), None)
                else:
                    back.add((p, value))
    removals = [rv for rv in forw if rv in back]
    complexity = len(set(chain))
    if x and y:
        name, base, key = "Bidirectional Cycle", 7.0, 4
    elif y:
        name, base, key = "Bidirectional Y-Cycle", 6.5, 3
    else:
        name, base, key = ("Generalized X-Wing" if len(cells) == 4 else "Bidirectional X-Cycle"), 6.5, 2
    difficulty = base + length_increment(complexity)
    path = chain[::-1]
    del t

    def make():
        text = f"{name}: {_chain_text(geo, path)} ⇒ {elims_text(geo, removals)}" if removals else name
        return text, _links(path)

    return Hint(difficulty, complexity, key, name, None, removals, None, None, tuple(cells), make, True)


def forcing_hint(state: Candidates, target: int, parents: tuple, graph: dict, y: bool) -> Hint:
    geo = state.geo
    complexity = _ancestors(target, parents, graph)
    if y:
        name, base, key = "Forcing Chain", 7.0, 4
    else:
        name, base, key = ("Turbot Fish" if complexity == 6 else "Forcing X-Chain"), 6.6, 2
    removals = _removals_on(state, target)
    placement = (target >> 6, (target >> 1) & 31) if target & 1 else None

    def make():
        path = parent_path(target, parents, graph)
        verdict = f"{geo.cell_name(target >> 6)}={geo.symbol((target >> 1) & 31)}" if placement else \
            elims_text(geo, removals)
        return f"{name}: {_chain_text(geo, path)}, a contradiction ⇒ {verdict}", _links(path)

    return Hint(base + length_increment(complexity), complexity, key, name, placement, removals, None, None,
                (target >> 6,), make, True)


def _unary(ch: Chainer, best: Best, y: bool, x: bool) -> None:
    state = ch.state
    masks = state.mask
    cycle_base = 7.0 if x and y else 6.5
    chain_base = 7.0 if y else 6.6
    flags = ch.found(masks, y, x)
    for cell in range(len(masks)):
        m = masks[cell]
        if m.bit_count() < 2:
            continue
        if not x and m.bit_count() > 2:
            continue
        for v in iter_bits(m):
            f = 7 if flags is None else flags[(cell << 5) | (v + 1)]
            if not f:
                continue
            on = _node(cell, v + 1, 1)
            found = []
            if f & 1:
                for entry in ch.cycles(masks, on, y, x, best.bound(cycle_base)):
                    h = cycle_hint(state, entry, y, x, ch.boards)
                    if h is not None:
                        found.append(h)
            if x and f & 6:
                limit = best.bound(chain_base)
                for start, bit in ((on, 2), (on ^ 1, 4)):
                    if f & bit:
                        for target, parents, graph in ch.forcing(masks, start, y, limit):
                            found.append(forcing_hint(state, target, parents, graph, y))
            for h in found:
                best.offer(h)


#: Whether "Forcing Chains & Cycles", Multiple and Dynamic Forcing Chains ask the compiled
#: rules of the nested levels (:func:`nested_kernels.cycles_rule`: every chain of the three
#: passes at once after a reachability closure; :func:`nested_kernels.multiple_rule`: every
#: propagation and hint; both sorted as SE sorts them) for their easiest step, and Nishio
#: Forcing Chains ask :func:`nested_kernels.nishio_rule` which cells to search, once those are
#: loaded; False: the searches one candidate at a time in :class:`Multi` and :func:`_unary`
#: (the same steps).
COMPILED_CYCLES = True


#: Whether "Forcing Chains & Cycles" looks for its easiest step alone
#: (:func:`cycle_kernels.easiest_cycle`, the searches bounded by the best so far), once
#: compiled; False: every chain of :func:`nested_kernels.cycles_rule`, sorted (the same step).
EASIEST_CYCLE = True

#: The work one call of the compiled producer counts besides its searches (three scans, as
#: the nested levels' inner rule counts them).
CYCLE_SCAN_UNITS = 18


def _easiest_cycle(ch: Chainer) -> "Step | tuple | None":
    """The step of "Forcing Chains & Cycles" on ``ch``'s state by
    :func:`cycle_kernels.easiest_cycle` (the chain :func:`nested_kernels.cycles_rule` sorts
    first, made into a step the same way), ``()`` when there is none, None when the compiled
    search is not loaded (numba missing, or compiling in the background)."""
    global _CYCLE_KERNEL
    if not EASIEST_CYCLE:
        return None
    k = ch._kernel(ch.state.mask)
    if k is None:
        return None
    if _CYCLE_KERNEL is None:
        from ..engine import prefer_compiled

        if not prefer_compiled("cycles", ch.geo.n):
            return None
        try:
            from . import cycle_kernels
            from .nested_kernels import tables as allpeers_of
        except Exception:  # numba missing or broken: the other rules
            _CYCLE_KERNEL = False
        else:
            _CYCLE_KERNEL = (cycle_kernels, allpeers_of)
    if not _CYCLE_KERNEL:
        return None
    kernels, allpeers_of = _CYCLE_KERNEL
    import numpy as np

    _, arr, peers, units, w = k
    state = ch.state
    path = w.get("easiest")
    if path is None or len(path) < 64 * len(arr) + 2:
        path = w["easiest"] = np.empty(64 * len(arr) + 2, dtype=np.int64)
    # the first pass (x-links) by value: a value whose places are as when it last found nothing
    # finds nothing again (with as many searches); the kernel searches only the others
    from .links import one_and_more, recalled, remember

    geo = state.geo
    boards = ch.boards
    single = one_and_more(boards, geo.n)[0]
    todo = known = 0
    keys = [None] * (geo.n + 1)
    for v in range(1, geo.n + 1):
        key = keys[v] = ("x-cycles", geo, v, boards[v], boards[v] & single)
        got = recalled(key)
        if got is None:
            todo |= 1 << v
        else:
            known += got
    counts = w.get("searches0")
    if counts is None or len(counts) < geo.n + 1:
        counts = w["searches0"] = np.zeros(geo.n + 1, dtype=np.int64)
    counts[:] = 0
    # the kernel's own work arrays, kept between calls, made larger for a state of more candidates
    n, most = geo.n, len(arr) * geo.n
    arrays = w.get("cycles")
    if arrays is None:
        arrays = w["cycles"] = kernels.work(len(arr), n, peers.shape[1], units.shape[1], min(most, 1024))
    while True:
        what, pas, length, searches, found0 = kernels.easiest_cycle(arr, peers, units, allpeers_of(geo), path, todo,
                                                                    counts, *arrays)
        if what != -2:
            break
        # (-2: ``pas`` candidates, more than the arrays hold)
        arrays = w["cycles"] = kernels.work(len(arr), n, peers.shape[1], units.shape[1], min(most, pas + pas // 4))
    if not found0 and todo:  # (no value of the first pass found a chain: each is known to find none)
        remember((keys[v], int(counts[v])) for v in range(1, geo.n + 1) if todo >> v & 1)
    ch.tick(CYCLE_SCAN_UNITS + searches + known)
    if what < 0:
        return ()
    nodes = path[:length].tolist()
    y, x = pas >= 1, pas != 1
    if what == kernels.CYCLE:
        entry = None
        for node in reversed(nodes):
            entry = (node, entry)
        return cycle_hint(state, entry, y, x, ch.boards).step()
    src = nodes[-1]
    graph = {src: ()}
    for i in range(len(nodes) - 2, -1, -1):
        graph[nodes[i]] = (nodes[i + 1],)
    return forcing_hint(state, src ^ 1, (nodes[0],), graph, y).step()


_CYCLE_KERNEL = None


def find_forcing_chains(state: Candidates) -> Iterator[Step]:
    """SE's "Forcing Chains & Cycles": X-cycles and forcing X-chains, then
    Y-cycles, then XY-cycles and forcing chains; the easiest of all."""
    ch = Chainer(state, _deadline())
    best = Best()
    try:
        if COMPILED_CYCLES:
            step = _easiest_cycle(ch)
            if step is not None:
                if step:
                    yield step
                return
            from . import nested  # (which imports this module)

            kept = nested._compiled_cycles(ch, 1)
            if kept is not None:
                if kept:
                    yield kept[0].step()
                return
        _unary(ch, best, False, True)
        _unary(ch, best, True, False)
        _unary(ch, best, True, True)
    except ChainLimit as exc:
        exc.rating = FORCING_CHAINS.rating
        exc.tier = FORCING_CHAINS.name
        raise
    if best.hint is not None:
        yield best.hint.step()


# -- producers 2-4: Nishio, multiple and dynamic forcing chains -------------------


#: Whether the multiple chains may count a static chain by its depth and stop counting one that
#: cannot beat the best so far (:meth:`Multi.hint`; the same steps); False: count every chain in full.
PRUNE = True


class _Quiet(Chainer):
    """A chainer that counts no work: it makes again the graphs whose work a
    compiled rule has counted."""

    def tick(self, units: int = 1) -> None:
        pass


class Multi:
    def __init__(self, ch: Chainer, best: Best, multiple: bool, dynamic: bool, nishio: bool, base: float,
                 prefix: str) -> None:
        self.ch, self.best = ch, best
        self.multiple, self.dynamic, self.nishio = multiple, dynamic, nishio
        self.base, self.prefix = base, prefix
        #: Whether :meth:`hint` may stop counting a chain that cannot beat the best hint: only
        #: for this class's own hints offered to a plain :class:`Best` (a subclass may add to
        #: the complexity, a collector keeps every hint).
        self.prune = PRUNE and type(self) is Multi and type(best) is Best
        self._depths: dict = {}  # id of a static graph -> (graph, {potential: its chain's count})
        self._paths: dict = {}  # id of a graph -> (graph, {potential: length of its first-parent path})

    def _count(self, node: int, parents: tuple, graph: dict) -> int:
        """:func:`_ancestors` of a static chain: a potential of a static propagation has one
        parent, found before it, so the chain is the path back to the assumption, and its count
        that path's length. The lengths are remembered per graph; a chain through a potential
        with more parents is walked as :func:`_ancestors` does."""
        if parents is not graph.get(node):
            return _ancestors(node, parents, graph)
        got = self._depths.get(id(graph))
        if got is None or got[0] is not graph:
            got = self._depths[id(graph)] = (graph, {})
        depths = got[1]
        d = depths.get(node)
        if d is not None:
            return d
        path = [node]
        ps = parents
        d = 0
        while ps:
            if len(ps) > 1:
                return _ancestors(node, parents, graph)
            q = ps[0]
            known = depths.get(q)
            if known is not None:
                d = known
                break
            path.append(q)
            ps = graph[q]
        for q in reversed(path):
            d += 1
            depths[q] = d
        return d

    def _first_path(self, node: int, parents: tuple, graph: dict) -> int:
        """How many potentials the path from ``node`` back through first parents holds: at most
        :func:`_ancestors` (every potential's parents were found before it, so the path never
        comes back). The lengths from the potentials of a graph are remembered per graph."""
        if not parents or (node in graph and parents is not graph[node]):
            return 1  # (a chain given other parents than its graph's: only the potential itself is sure)
        got = self._paths.get(id(graph))
        if got is None or got[0] is not graph:
            got = self._paths[id(graph)] = (graph, {})
        lengths = got[1]
        q = parents[0]
        path = []
        d = lengths.get(q)
        while d is None:
            path.append(q)
            ps = graph[q]
            if not ps:
                d = 0
                break
            q = ps[0]
            d = lengths.get(q)
        for q in reversed(path):
            d += 1
            lengths[q] = d
        return d + 1

    def hint(self, name, key, chains, target, text_head, unit: int | None = None,
             complexity: int | None = None) -> Hint:
        """``chains``: ``[(node, parents, graph), ...]`` ending at the target;
        ``text_head`` a string or a function that makes it (the text and
        links are made only when asked for); ``unit``: a region chain's;
        ``complexity``: the chains' count when known (a compiled rule's)."""
        state = self.ch.state
        geo = state.geo
        best = self.best.hint if self.prune else None
        if complexity is not None:
            pass
        elif self.prune and not self.dynamic:
            complexity = sum(self._count(n, ps, g) for n, ps, g in chains)
        elif best is None:
            complexity = sum(_ancestors(n, ps, g) for n, ps, g in chains)
        else:
            # every hint here has this base, and the rating grows with the complexity: one more
            # complex than the best so far is never kept, so its count may stop past it; each
            # chain holds at least the path through its first parents
            most = best.complexity
            complexity = sum(self._first_path(n, ps, g) for n, ps, g in chains)
            if complexity <= most:
                complexity = 0
                for n, ps, g in chains:
                    complexity += len(chain_nodes(n, ps, g, None, most - complexity))
                    if complexity > most:
                        break
        removals = _removals_on(state, target)
        placement = (target >> 6, (target >> 1) & 31) if target & 1 else None

        def make():
            verdict = f"{geo.cell_name(target >> 6)}={geo.symbol((target >> 1) & 31)}" if placement else \
                elims_text(geo, removals)
            links = []
            for n, ps, g in chains:
                links.extend(_links(parent_path(n, ps, g)))
            head = text_head() if callable(text_head) else text_head
            return f"{name}: {head} ⇒ {verdict}", links

        return Hint(self.base + length_increment(complexity), complexity, key, name, placement, removals,
                    None, None, (target >> 6,), make, True)

    def run(self, cells: "list[int] | None" = None) -> None:
        """Search from every cell (or from ``cells`` only: the others are
        known to give nothing)."""
        state = self.ch.state
        masks = state.mask
        for cell in range(len(masks)) if cells is None else cells:
            card = masks[cell].bit_count()
            if card > 2 or (card > 1 and self.dynamic):
                self.cell(cell, card)

    def cell(self, cell: int, card: int) -> None:
        ch, geo = self.ch, self.ch.geo
        state = ch.state
        value_on: dict[int, dict] = {}
        cell_on = cell_off = None
        hints: list[Hint] = []
        for v0 in iter_bits(state.mask[cell]):
            v = v0 + 1
            p_on = _node(cell, v, 1)
            p_off = p_on ^ 1
            do_double = card >= 3 and not self.nishio and self.dynamic
            do_contra = self.dynamic or self.nishio
            on_graph, absurd = ch.propagate([p_on], self.nishio, self.dynamic)
            if do_contra and absurd is not None:
                (a, pa), (b, pb) = absurd
                name = "Nishio Forcing Chains" if self.nishio else f"{self.prefix}Contradiction Forcing Chains"
                hints.append(self.hint(name, 7, [(a, pa, on_graph), (b, pb, on_graph)], p_off,
                                       lambda p=p_on, a=a: f"{_name(geo, p)} makes {_name(geo, a)} both true and false"))
            # the graph from the candidate off serves contradictions and double chains only
            off_graph, absurd = ch.propagate([p_off], self.nishio, self.dynamic) if do_contra or do_double else \
                ({}, None)
            if do_contra and absurd is not None:
                (a, pa), (b, pb) = absurd
                name = "Nishio Forcing Chains" if self.nishio else f"{self.prefix}Contradiction Forcing Chains"
                hints.append(self.hint(name, 7, [(a, pa, off_graph), (b, pb, off_graph)], p_on,
                                       lambda p=p_off, a=a: f"{_name(geo, p)} makes {_name(geo, a)} both true and false"))
            if do_double:
                for q, ps in on_graph.items():
                    if q & 1 and q in off_graph and q != p_on:
                        hints.append(self.hint(f"{self.prefix}Double Forcing Chains", 1,
                                               [(q, ps, on_graph), (q, off_graph[q], off_graph)], q,
                                               lambda p=p_on, q=q: f"{_name(geo, p)} and {_name(geo, p ^ 1)} both give "
                                               f"{_name(geo, q)}"))
                for q, ps in on_graph.items():
                    if not q & 1 and q in off_graph and q != p_off:
                        hints.append(self.hint(f"{self.prefix}Double Forcing Chains", 1,
                                               [(q, ps, on_graph), (q, off_graph[q], off_graph)], q,
                                               lambda p=p_on, q=q: f"{_name(geo, p)} and {_name(geo, p ^ 1)} both give "
                                               f"{_name(geo, q)}"))
            if not self.nishio:
                self.regions(cell, v, on_graph, hints)
            value_on[v] = on_graph
            keys = [q for q in on_graph]
            if cell_on is None:
                cell_on = {q: None for q in keys if q & 1}
                cell_off = {q: None for q in keys if not q & 1}
            else:
                cell_on = {q: None for q in cell_on if q in on_graph}
                cell_off = {q: None for q in cell_off if q in on_graph}
        if not self.nishio and cell_on is not None and (card == 2 or (self.multiple and card > 2)):
            for group in (cell_on, cell_off):
                for q in group:
                    chains = [(q, g[q], g) for g in value_on.values()]
                    hints.append(self.hint(f"{self.prefix}Cell Forcing Chains", 5, chains, q,
                                           lambda q=q: f"each value of {geo.cell_name(cell)} gives {_name(geo, q)}"))
        for h in hints:
            self.best.offer(h)

    def regions(self, cell: int, value: int, on_graph: dict, hints: list) -> None:
        ch = self.ch
        for u in ch.t.cell_units[cell]:
            places = self.places(cell, value, u)
            if places is None:
                continue
            graphs = [on_graph]
            for p in places[1:]:
                g, _ = ch.propagate([_node(p, value, 1)], self.nishio, self.dynamic)
                graphs.append(g)
            self.region(u, value, graphs, hints)

    def places(self, cell: int, value: int, u: int) -> list[int] | None:
        """The places of ``value`` in unit ``u`` when their region chains are searched from
        ``cell`` (it is the first of two, or of more for multiple chains), else None."""
        ch, geo = self.ch, self.ch.geo
        masks = ch.state.mask
        bit = 1 << (value - 1)
        places = [p for p in (se_cells(geo, u) if ch.t.extra else geo.units[u]) if masks[p] & bit]
        if not (len(places) == 2 or (self.multiple and len(places) > 2)) or places[0] != cell:
            return None
        return places

    def region(self, u: int, value: int, graphs: list[dict], hints: list) -> None:
        """The region chains of ``value`` in unit ``u``, from the graphs of its places (in
        :meth:`places` order), added to ``hints``."""
        geo = self.ch.geo
        on_graph = graphs[0]
        inter = set(on_graph).intersection(*graphs[1:])
        common = [q for q in on_graph if q in inter] if inter else []
        for want in (1, 0):
            for q in common:
                if q & 1 == want:
                    chains = [(q, g[q], g) for g in graphs]
                    hints.append(self.hint(f"{self.prefix}Region Forcing Chains", 6, chains, q,
                                           lambda u=u, q=q: f"each place for {geo.symbol(value)} in "
                                           f"{geo.unit_name(u)} gives {_name(geo, q)}", u))


def _multi_step(state: Candidates, multiple: bool, dynamic: bool, nishio: bool, base: float,
                prefix: str) -> Iterator[Step]:
    deadline = _deadline()
    if COMPILED_CYCLES and not nishio:
        from . import nested  # (which imports this module)

        try:
            kept = nested._compiled_multiple(state, dynamic, deadline, 1)
        except ChainLimit as exc:
            exc.rating = base
            exc.tier = exc.tier or ("Dynamic Forcing Chains" if dynamic else "Multiple Forcing Chains")
            raise
        if kept is not None:
            if kept:
                yield kept[0].step()
            return
    ch = Chainer(state, deadline)
    best = Best()
    try:
        cells = None
        if COMPILED_CYCLES and nishio:  # the cells where an assumption contradicts itself, all at once
            from . import nested

            cells = nested._compiled_nishio(ch)
            if cells is not None:
                ch = _Quiet(state, deadline)  # (the work is counted)
        Multi(ch, best, multiple, dynamic, nishio, base, prefix).run(cells)
    except ChainLimit as exc:
        exc.rating = base
        exc.tier = exc.tier or {7.5: "Nishio Forcing Chains", 8.0: "Multiple Forcing Chains"}.get(
            base, "Dynamic Forcing Chains")
        raise
    if best.hint is not None:
        yield best.hint.step()


def find_nishio(state: Candidates) -> Iterator[Step]:
    """Nishio Forcing Chains (7.5+): dynamic x-chains from one candidate that
    end in a contradiction."""
    return _multi_step(state, False, True, True, 7.5, "Nishio ")


def find_multiple(state: Candidates) -> Iterator[Step]:
    """Cell and Region Forcing Chains (8.0+), static."""
    return _multi_step(state, True, False, False, 8.0, "")


def find_dynamic(state: Candidates) -> Iterator[Step]:
    """Dynamic Forcing Chains (8.5+): contradiction, double, cell and region."""
    return _multi_step(state, True, True, False, 8.5, "Dynamic ")


#: The producer's cycles start at 6.5, but one rated 6.5 (six potentials) is a
#: naked triplet or a strong-link loop, which SE finds earlier; after those,
#: its easiest step is 6.6 (and SE runs it after UVWXYZ-Wing, 6.6).
FORCING_CHAINS = Technique("Forcing Chains & Cycles", 6.6, "chains", find_forcing_chains)
NISHIO = Technique("Nishio Forcing Chains", 7.5, "chains", find_nishio)
MULTIPLE = Technique("Multiple Forcing Chains", 8.0, "chains", find_multiple)
DYNAMIC = Technique("Dynamic Forcing Chains", 8.5, "chains", find_dynamic)

TECHNIQUES = (FORCING_CHAINS, NISHIO, MULTIPLE, DYNAMIC)
