"""Dynamic Forcing Chains (+) and Nested Forcing Chains: SE's ladder above 9.0.

SukakuExplainer's chaining producer has a *level*. At level 0 it is the
dynamic forcing chains of :mod:`sudokit.logic.chains` (8.5). From level 1 up,
each assumption is propagated as a dynamic chain, and whenever the chain
stops (nothing pending), other techniques are run on the grid the chain has
reduced (SE's ``getAdvancedPotentials``); what they remove joins the chain as
new "off" potentials, and propagation goes on. The first of these *helpers*
that removes something (with at least one removal of the chain among its
reasons) is the one used:

=====  =====  ==========================================================
level  base   helpers, in order
=====  =====  ==========================================================
1      9.0    Pointing/Claiming, Hidden Pair, Naked Pair, X-Wing ("(+)")
2      9.5    ... then Forcing Chains & Cycles ("(+ Forcing Chains)")
3      10.0   ... then Multiple Forcing Chains ("(+ Multiple Forcing Chains)")
4      10.5   the four basic helpers, then Dynamic Forcing Chains of a lower
              level ("(+ Dynamic Forcing Chains)"); SE runs it three times,
              with the inner chains at level 0, 1 and 2
=====  =====  ==========================================================

An off potential a helper adds has the removed candidates that made the
helper possible (SE's ``getRuleParents``) as its parents. When the helper
is itself a chain, its complexity is added to the outer chain's (each inner
chain counted once). The rating is base + SE's length increment over that
complexity, as below 9.0.

The producers keep SE's scan orders (helpers: SE's region and colex tuple
orders; removals of one helper in the order of Java's ``HashMap`` over cell
indices), because the order in which implications are found decides the
parents and so the complexity.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from .chains import (
    ChainLimit, Best, Chainer, Hint, Multi, chain_nodes, cycle_hint, cycle_nodes, forcing_hint, length_increment,
    parent_path,
)
from . import chains
from .state import Candidates
from .step import Step, Technique

__all__ = ["DYNAMIC_PLUS", "NESTED", "TECHNIQUES", "LEVEL_BASE", "NestedStep", "nested_suffix", "find_level"]

#: CPU seconds one nested producer may take when no puzzle budget is set
#: (``rate``/``explain`` set one; ``None``: no limit).
NESTED_TIME_LIMIT: float | None = 60.0

#: SE's base rating per level (``Chaining.getDifficulty``).
LEVEL_BASE = {1: 9.0, 2: 9.5, 3: 10.0, 4: 10.5}

#: Units of work (:meth:`chains.Chainer.tick`) of one fixpoint of a nested
#: chain (its four basic helpers), and of each of the three scans of the inner
#: Forcing Chains & Cycles rule (which also counts one a search that finds
#: something), so that the nested levels do about ``chains.WORK_PER_SECOND``
#: units a second with the compiled rules (:mod:`nested_kernels`), as the
#: searches below 9.0 do. The Python rules count the same (with the chain
#: searches compiled), more slowly.
FIXPOINT_UNITS = 5
INNER_SCAN_UNITS = 6

# SE's region type indices: 0 block, 1 row, 2 column.
_BLOCK, _ROW, _COL = 0, 1, 2


def nested_suffix(level: int) -> str:
    """SE's name suffix of a level (``Chaining.getNestedSuffix``)."""
    if level == 1:
        return " (+)"
    if level == 2:
        return " (+ Forcing Chains)"
    if level == 3:
        return " (+ Multiple Forcing Chains)"
    if level == 4:
        return " (+ Dynamic Forcing Chains)"
    if level >= 5:
        return " (+ Dynamic Forcing Chains" + nested_suffix(level - 3) + ")"
    return ""


def _hashmap_order(cells: list[int]) -> list[int]:
    """Java's ``HashMap<Cell, ...>`` iteration order over cells whose hash
    is their index, inserted in ascending order."""
    cap = 16
    while len(cells) > cap * 3 // 4:
        cap *= 2
    return sorted(cells, key=lambda c: (c & (cap - 1), c))


def _bits(b: int) -> list[int]:
    out = []
    while b:
        low = b & -b
        out.append(low.bit_length() - 1)
        b ^= low
    return out


def _colex_pairs(n: int) -> list[tuple[int, int]]:
    """SE's ``Permutations(2, n)`` order: {0,1}, {0,2}, {1,2}, {0,3}, ..."""
    return [(lo, hi) for hi in range(1, n) for lo in range(hi)]


class _Geo9:
    """Region tables in SE's terms for one geometry."""

    def __init__(self, geo) -> None:
        self.geo = geo
        um = geo.unit_mask
        self.regions = {_BLOCK: list(geo.boxes), _ROW: list(geo.rows), _COL: list(geo.cols)}
        self.um = um
        self.pairs = _colex_pairs(geo.n)
        self.pair_rank = {pair: k for k, pair in enumerate(self.pairs)}
        self.cross = {}
        for t1, t2 in ((_BLOCK, _COL), (_BLOCK, _ROW), (_COL, _BLOCK), (_ROW, _BLOCK)):
            for r1 in self.regions[t1]:
                self.cross[(t2, r1)] = [r2 for r2 in self.regions[t2] if um[r1] & um[r2]]


@lru_cache(maxsize=None)
def _g(geo) -> _Geo9:
    """The helpers' tables of a geometry, built once."""
    return _Geo9(geo)


class _Helper:
    """One helper's deduction on the reduced grid: the off nodes it adds, in
    SE's order, with their parents (removed candidates, as off nodes)."""

    __slots__ = ("offs", "parents", "text", "nested")

    def __init__(self, offs, parents, text, nested=None):
        self.offs = offs
        self.parents = parents
        self.text = text
        self.nested = nested


#: How many reduced grids' inner hints :attr:`_LOCAL` ``inner`` holds; when full, they become
#: ``inner_old`` (the previous ones dropped), and a grid met again there comes back.
_INNER_SIZE = 2_000

#: What one thread remembers between the producer calls of its rating (each
#: thread its own, so that ratings may run in several threads at once):
#: ``inner``, the hints of an inner rule by reduced grid (levels 2 and 3, and
#: the three runs of level 4, reach the same reduced grids from the same
#: assumptions, and what an inner rule finds depends on that grid alone);
#: ``ends``, where the propagations of the levels stopped on the last state
#: they ran on (:meth:`_LevelChainer.resumable`: ``{"state": key, "ends":
#: {(starts, rules): end}}``); ``basic``, the work arrays of
#: :func:`nested_kernels.basic_helpers` and their size.
_LOCAL = threading.local()


def _local():
    local = _LOCAL
    if not hasattr(local, "inner"):
        local.inner, local.ends, local.basic, local.basic_size = {}, {}, [], [1024]
        local.inner_old = {}
    return local


def clear_caches() -> None:
    """Forget the inner rules' hints and where propagations stopped (for
    timing runs from scratch; this thread's)."""
    local = _local()
    local.inner.clear()
    local.inner_old.clear()
    local.ends.clear()


class _LevelChainer(Chainer):
    """SE's ``Chaining`` at ``level`` >= 1 on one state: dynamic propagation
    with helpers run at each fixpoint."""

    def __init__(self, state: Candidates, deadline, level: int, inner_level: int = 0) -> None:
        super().__init__(state, deadline)
        self.level = level
        self.inner_level = inner_level
        self.g = _g(state.geo)
        n = state.geo.n
        self.n = n
        values = state.values
        self.empty = {u: sum(1 for c in state.geo.units[u] if not values[c]) for u in range(len(state.geo.units))}
        occ = [0] * (n + 1)
        for v in values:
            if v:
                occ[v] += 1
        self.occ = occ
        self.nests: dict[int, dict] = {}
        self._nk = None
        self.rules = tuple(self._inner_rules())
        self.ends: dict | None = None  # set by resumable(): where propagations stopped, by (starts, rules)
        self.basic_memo: dict | None = None  # set by resumable(): the basic helpers by reduced grid
        self._base_key = tuple(state.mask)
        self._values_key = tuple(state.values)

    # -- helpers on the reduced grid --------------------------------------------

    def _locking(self, masks, boards, base_boards) -> list[_Helper]:
        g = self.g
        um = g.um
        out = []
        # a helper counts only with a parent, a candidate the chain removed from r1
        changed = [base_boards[v] & ~boards[v] for v in range(self.n + 1)]
        for t1, t2 in ((_BLOCK, _COL), (_BLOCK, _ROW), (_COL, _BLOCK), (_ROW, _BLOCK)):
            for v in range(1, self.n + 1):
                b = boards[v]
                if not b or not changed[v]:
                    continue
                for r1 in g.regions[t1]:
                    pos = b & um[r1]
                    if pos & (pos - 1) == 0 or not changed[v] & um[r1]:
                        continue
                    for r2 in g.cross[(t2, r1)]:
                        if pos & ~um[r2]:
                            continue
                        rem = b & um[r2] & ~um[r1]
                        if not rem:
                            continue
                        gone = base_boards[v] & ~b & um[r1] & ~um[r2]
                        parents = tuple((c << 6) | (v << 1) for c in _bits(gone))
                        offs = [(c << 6) | (v << 1) for c in _hashmap_order(_bits(rem))]
                        out.append(_Helper(offs, parents, ("Pointing" if t1 == _BLOCK else "Claiming")))
        return out

    def _hidden_pairs(self, masks, boards, base_masks) -> list[_Helper]:
        g = self.g
        um = g.um
        units = self.geo.units
        base_boards = self.boards
        out = []
        # a helper counts only with a parent: a candidate of its two values the chain removed from the region
        changed = [base_boards[v + 1] & ~boards[v + 1] for v in range(self.n)]
        for t in (_BLOCK, _COL, _ROW):
            for r in g.regions[t]:
                if self.empty[r] <= 4:
                    continue
                m = um[r]
                moved = [c & m for c in changed]
                if not any(moved):
                    continue
                pos = [boards[v + 1] & m for v in range(self.n)]
                for a, b in g.pairs:
                    pa, pb = pos[a], pos[b]
                    if pa & (pa - 1) == 0 or pb & (pb - 1) == 0 or not (moved[a] or moved[b]):
                        continue
                    union = pa | pb
                    if union.bit_count() != 2:
                        continue
                    keep = (1 << a) | (1 << b)
                    cells = _bits(union)
                    rem = [c for c in cells if masks[c] & ~keep]
                    if not rem:
                        continue
                    offs = []
                    for c in _hashmap_order(rem):
                        for v0 in _bits(masks[c] & ~keep):
                            offs.append((c << 6) | ((v0 + 1) << 1))
                    parents = []
                    for c in units[r]:
                        if not union >> c & 1:
                            for v0 in (a, b):
                                if base_masks[c] >> v0 & 1:
                                    parents.append((c << 6) | ((v0 + 1) << 1))
                    out.append(_Helper(offs, tuple(parents), "Hidden Pair"))
        return out

    def _naked_pairs(self, masks, boards, base_masks) -> list[_Helper]:
        g = self.g
        units = self.geo.units
        out = []
        for t in (_BLOCK, _COL, _ROW):
            for r in g.regions[t]:
                if self.empty[r] < 4:
                    continue
                cells = units[r]
                # a helper counts only with a parent: a candidate the chain removed from one of the pair
                if all(masks[c] == base_masks[c] for c in cells):
                    continue
                for a, b in g.pairs:
                    ca, cb = cells[a], cells[b]
                    ma, mb = masks[ca], masks[cb]
                    if ma & (ma - 1) == 0 or mb & (mb - 1) == 0:
                        continue
                    if ma == base_masks[ca] and mb == base_masks[cb]:
                        continue
                    union = ma | mb
                    if union.bit_count() != 2:
                        continue
                    rem = [c for c in cells if c != ca and c != cb and masks[c] & union]
                    if not rem:
                        continue
                    offs = []
                    for c in _hashmap_order(rem):
                        for v0 in _bits(masks[c] & union):
                            offs.append((c << 6) | ((v0 + 1) << 1))
                    parents = []
                    for c in (ca, cb):
                        for v0 in _bits(base_masks[c] & ~union):
                            parents.append((c << 6) | ((v0 + 1) << 1))
                    out.append(_Helper(offs, tuple(parents), "Naked Pair"))
        return out

    def _x_wings(self, masks, boards, base_boards) -> list[_Helper]:
        """X-Wings in SE's order (column bases, then row bases; pairs of bases
        in colex order; values ascending). Two bases with two places or more
        each, in two cover lines together, have the same two lines: so each
        base's lines are computed once per value, and only the pairs of bases
        with the same two lines are looked at."""
        g = self.g
        um = g.um
        n = self.n
        full = (1 << n) - 1
        rank = g.pair_rank
        out = []
        for t1, t2 in ((_COL, _ROW), (_ROW, _COL)):
            bases = g.regions[t1]
            covers = g.regions[t2]
            found = []
            for v in range(1, n + 1):
                if self.occ[v] + 4 > n:
                    continue
                board = boards[v]
                if t1 == _ROW:  # each row's columns
                    lines = [(board >> (n * r)) & full for r in range(n)]
                else:  # each column's rows
                    lines = [0] * n
                    for r in range(n):
                        cols = (board >> (n * r)) & full
                        while cols:
                            low = cols & -cols
                            lines[low.bit_length() - 1] |= 1 << r
                            cols ^= low
                by_lines: dict[int, list[int]] = {}
                for i, m in enumerate(lines):
                    if m.bit_count() == 2:
                        by_lines.setdefault(m, []).append(i)
                for same in by_lines.values():
                    for a in range(len(same)):
                        for b in range(a + 1, len(same)):
                            i, j = same[a], same[b]
                            found.append((rank[(i, j)], v, i, j, lines[i]))
            found.sort()
            for _, v, i, j, cov in found:
                b1, b2 = bases[i], bases[j]
                board = boards[v]
                cover_cells = 0
                for k in _bits(cov):
                    cover_cells |= um[covers[k]]
                rem = board & cover_cells & ~um[b1] & ~um[b2]
                if not rem:
                    continue
                offs = [(c << 6) | (v << 1) for c in _hashmap_order(_bits(rem))]
                gone = base_boards[v] & ~board & ~cover_cells
                parents = tuple((c << 6) | (v << 1) for c in _bits(gone & um[b1])) + \
                    tuple((c << 6) | (v << 1) for c in _bits(gone & um[b2]))
                out.append(_Helper(offs, parents, "X-Wing"))
        return out

    def advanced(self, masks, boards) -> list[_Helper]:
        """SE's ``getAdvancedPotentials``: the helpers of the first rule that
        gives any with a parent."""
        memo = self.basic_memo
        key = tuple(masks)
        if memo is not None:
            found = memo.get(key)
        else:
            found = None
        if found is None:
            found = self._compiled_basic(masks) if COMPILED_INNER else None
            if found is None:
                found = self.basic(masks, boards)
            if memo is not None:
                memo[key] = found
        if found:
            return found
        for inner in self.rules:
            found = self._chain_helpers(inner, masks, self.state.mask, boards, key)
            if found:
                return found
        return []

    def basic(self, masks, boards) -> list[_Helper]:
        """The helpers (with a parent) of the first of the four basic rules
        that gives any, in Python."""
        base_masks = self.state.mask
        base_boards = self.boards
        for rule in (self._locking, self._hidden_pairs, self._naked_pairs, self._x_wings):
            if rule in (self._locking, self._x_wings):
                found = rule(masks, boards, base_boards)
            else:
                found = rule(masks, boards, base_masks)
            found = [h for h in found if h.parents]
            if found:
                return found
        return []

    def resumable(self) -> None:
        """Keep where each propagation stops, and start from where the level
        below stopped on the same state (levels 1, 2, 3 and 4 run one after
        the other on a stuck state): the same graphs, with less work."""
        key = (tuple(self.state.values), tuple(self.state.mask))
        ends = _local().ends
        if ends.get("state") != key:
            ends.clear()
            ends["state"] = key
            ends["ends"] = {}
            ends["basic"] = {}
        self.ends = ends["ends"]
        # a level resumed from where the one below stopped asks the basic rules again on the same
        # grid (about half of their calls): what they give depends on that grid and the state alone
        self.basic_memo = ends["basic"]

    def _compiled_basic(self, masks) -> list[_Helper] | None:
        """The four basic rules of :meth:`advanced` by
        :func:`nested_kernels.basic_helpers` (the same helpers, in the same
        order), or None when the compiled code is not loaded."""
        nk = self._nk
        if nk is None:
            nk = self._nk = _nested_kernels(self) or False
            if nk:
                import numpy as np

                geo = self.geo
                self._nk_tables = nk.helper_tables(geo)
                self._nk_base = np.array(self.state.mask, dtype=np.int64)
                self._nk_empty = np.array([self.empty[u] for u in range(len(geo.units))], dtype=np.int64)
                self._nk_occ = np.array(self.occ, dtype=np.int64)
                self._nk_masks = np.empty(len(masks), dtype=np.int64)
        if not nk:
            return None
        arr = self._nk_masks
        arr[:] = masks
        units, regions, member, meet = self._nk_tables
        local = _local()
        bufs = local.basic
        while True:
            if not bufs:
                import numpy as np

                size = local.basic_size[0]
                bufs[:] = [np.empty((size, 4), dtype=np.int64), np.empty(size * 16, dtype=np.int64)]
            heads, flat = bufs
            rule, count = nk.basic_helpers(arr, self._nk_base, units, regions, member, meet, self._nk_empty,
                                           self._nk_occ, self.n, heads, flat)
            if count >= 0:
                break
            local.basic_size[0] *= 2
            bufs.clear()
        if not count:
            return []
        text = _BASIC_TEXT[rule]
        out = []
        for o, p, e, claiming in heads[:count].tolist():
            part = flat[o:e].tolist()
            out.append(_Helper(part[:p - o], tuple(part[p - o:]), "Claiming" if claiming else text))
        return out

    def _inner_rules(self) -> list[tuple]:
        """SE's chaining helpers of this level: ``(kind, level)``."""
        if self.level >= 4:
            return [("dynamic", self.inner_level)]
        rules = []
        if self.level >= 2:
            rules.append(("cycles", 0))
        if self.level >= 3:
            rules.append(("multiple", 0))
        return rules

    def _chain_helpers(self, inner, masks, base_masks, boards=None, masks_key=None) -> list[_Helper]:
        """The hints of an inner chaining rule on the reduced grid (``boards``: its value
        bitboards, when known; ``masks_key``: ``tuple(masks)``, when made), sorted as SE sorts
        them, each as a helper whose parents are the removed candidates its chains rely on
        (SE's ``collectRuleParents``)."""
        kind, level = inner
        geo = self.geo
        key = (kind, level, tuple(masks) if masks_key is None else masks_key, self._values_key)
        local = _local()
        memo = local.inner
        got = memo.get(key)
        if got is None:
            got = local.inner_old.pop(key, None)
            if got is not None:
                memo[key] = got
        base_key = self._base_key
        if got is None:
            reduced = Candidates(geo, self.state.values, list(masks))
            hints = _inner_hints(reduced, kind, level, self.deadline, None if boards is None else list(boards))
            if len(memo) >= _INNER_SIZE:
                local.inner_old = memo
                memo = local.inner = {}
            got = memo[key] = [hints, None, None, None]
        elif got[1] == base_key:  # the helpers depend on the hints and on what the chain removed
            return got[2]
        hints = got[0]
        offs_of = got[3]
        if offs_of is None:  # each hint's removals as off nodes, in SE's order (the same for every outer grid)
            offs_of = got[3] = []
            for h in hints:
                cells: dict[int, list[int]] = {}
                for c, v in h.removals:
                    cells.setdefault(c, []).append(v)
                offs = []
                for c in _hashmap_order(sorted(cells)):
                    for v in sorted(cells[c]):
                        offs.append((c << 6) | (v << 1))
                offs_of.append(offs)
        out = []
        removed: dict = {}  # (what each cell and each unit's value lost, for all the hints)
        for h, offs in zip(hints, offs_of):
            parents = _rule_parents(h, base_masks, masks, geo, removed)
            if parents:
                out.append(_Helper(offs, parents, h.name, h))  # (the text of an inner hint is made when shown)
        got[1], got[2] = base_key, out
        return out

    # -- propagation -------------------------------------------------------------

    def _propagate(self, starts: list[int], nishio: bool, dynamic: bool):
        base = self.state.mask
        ends = self.ends
        rules = self.rules
        if ends is not None:
            # a level whose inner rules begin with those of a level below goes the same way as it up
            # to where it stopped: from there on, if it stopped because no helper applied
            key = tuple(starts)
            for k in range(len(rules) - 1, -1, -1):
                end = ends.get((key, rules[:k]))
                if end is not None:
                    graph0, nest0, masks0, boards0, absurd, empty = end
                    self.tick()
                    if absurd is not None or not empty:  # (the same graph: nothing changes it)
                        self.nests[id(graph0)] = nest0
                        return graph0, absurd
                    graph = dict(graph0)
                    nest = dict(nest0)
                    self.nests[id(graph)] = nest
                    return self._go_on(graph, nest, deque(), deque(), list(masks0), list(boards0), key)
        key = tuple(starts) if ends is not None else None
        if FIRST_RUN_COMPILED and self._kernel(base) is not None:
            # up to the first fixpoint, the propagation is a plain dynamic one: the chain kernels'
            # (the same potentials, parents and order, and the same unit of work)
            graph, absurd = Chainer._propagate(self, starts, False, True)
            nest = {}
            self.nests[id(graph)] = nest
            if absurd is not None:
                if key is not None:
                    ends[(key, rules)] = (graph, nest, None, None, absurd, False)
                return graph, absurd
            # at a fixpoint every off potential found has been taken up: the grid has lost them all
            masks = list(base)
            boards = list(self.boards)
            for q in graph:
                if not q & 1:
                    cell, value = q >> 6, (q >> 1) & 31
                    masks[cell] &= ~(1 << (value - 1))
                    boards[value] &= ~(1 << cell)
            return self._go_on(graph, nest, deque(), deque(), masks, boards, key)
        graph = {}
        nest = {}
        self.nests[id(graph)] = nest
        pend_on: deque = deque()
        pend_off: deque = deque()
        for s in starts:
            graph[s] = ()
            (pend_on if s & 1 else pend_off).append(s)
        masks = list(base)
        boards = list(self.boards)
        self.tick()
        return self._go_on(graph, nest, pend_on, pend_off, masks, boards, key, True)

    def _go_on(self, graph, nest, pend_on, pend_off, masks, boards, key, run_first: bool = False):
        """The propagation loop: run the implications, then the helpers at each fixpoint. With
        ``run_first`` False it starts at a fixpoint. ``key``: where it stops is kept under it
        (for the levels above on the same state)."""
        while True:
            if run_first:
                absurd = self.dynamic_run(graph, pend_on, pend_off, masks, boards, True)
                if absurd is not None:
                    if key is not None:
                        self.ends[(key, self.rules)] = (graph, nest, None, None, absurd, False)
                    return graph, absurd
            run_first = True
            self.tick(FIXPOINT_UNITS)
            found = self.advanced(masks, boards)
            for h in found:
                for q in h.offs:
                    if q not in graph:
                        graph[q] = h.parents
                        if h.nested is not None:
                            nest[q] = h.nested
                        pend_off.append(q)
            if not pend_off:
                if key is not None:
                    self.ends[(key, self.rules)] = (graph, nest, masks, boards, None, not found)
                return graph, None


class _XHint(Hint):
    """A hint with what SE's rule parents and nesting need: its chains
    ``[(target, parents, graph)]``, how its assumptions were made (``init``:
    ``("cell", cell)`` or ``("region", unit, value)``), a cycle's linked
    entry, whether its chains are dynamic, and the chainer (for nested
    hints inside its graphs)."""

    __slots__ = ("chains", "init", "cycle", "dynamic", "chainer", "inner", "full", "groups")

    @classmethod
    def of(cls, h: Hint, chains=(), init=None, cycle=None, dynamic=False, chainer=None) -> "_XHint":
        x = cls(*h.fields())
        x.chains, x.init, x.cycle, x.dynamic, x.chainer = chains, init, cycle, dynamic, chainer
        x.inner = ()
        x.full = None
        x.groups = None  # (:func:`_parent_groups`, once made)
        return x


class _Collect(Best):
    """Keeps every hint offered that removes something, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.all: list[Hint] = []

    def offer(self, hint: Hint) -> None:
        if hint.removals:
            hint.order = len(self.all)
            self.all.append(hint)


def _nodes_of(chains) -> set:
    """Every potential in the chains (SE's ``getChain`` over all targets)."""
    seen: set = set()
    for node, parents, graph in chains:
        chain_nodes(node, parents, graph, seen)
    return seen


def _full_chain(h) -> tuple:
    """What SE's ``FullChain`` compares: the targets and every potential of
    their chains."""
    full = getattr(h, "full", None)  # (remembered, below)
    if full is None:
        full = getattr(h, "full_chain", None)  # (an inner hint of another process: its key, made there)
    if full is not None:
        return full
    if h.cycle is not None:
        full = ("cycle", tuple(cycle_nodes(h.cycle)))
    else:
        full = tuple((n, _chain_list(n, ps, g)) for n, ps, g in h.chains)
    if isinstance(h, _XHint):  # (remembered: the inner hints are met again and again)
        h.full = full
    return full


def _chain_list(node: int, parents: tuple, graph: dict) -> tuple:
    """SE's ``getChain``: the potentials of the chain ending in ``node``, in
    the order of its breadth-first walk over the parents (``FullChain``
    compares these lists, so the order counts)."""
    out = [node]
    done = {node}
    todo = list(parents)
    while todo:
        nxt = []
        for p in todo:
            if p not in done:
                done.add(p)
                out.append(p)
                nxt.extend(graph[p])
        todo = nxt
    return tuple(out)


def _nested_complexity(chainer, chains) -> int:
    """The complexity of the inner chains the chains rely on, each counted once."""
    return sum(h.complexity for h in _inner_of(chainer, chains))


def _inner_of(chainer, chains) -> list:
    """The distinct inner chains (hints of an inner rule) the chains rely on."""
    nests = getattr(chainer, "nests", None)
    if not nests:
        return []
    found = []
    seen: set = set()
    for node, parents, graph in chains:
        nest = nests.get(id(graph))
        if not nest:
            continue
        for q in _nodes_of([(node, parents, graph)]):
            h = nest.get(q)
            if h is None:
                continue
            key = _full_chain(h)
            if key not in seen:
                seen.add(key)
                found.append(h)
    return found


#: Whether the cycle collector stays off while a nested level searches. A level makes millions
#: of short-lived dicts, tuples and hints, and keeps its memos (the inner rules' hints by reduced
#: grid) alive throughout: the collector's passes walked those memos again and again, and found
#: next to nothing (7 cyclic objects over the whole rating of hd-0001, with the same peak memory
#: with the collector on or off). Reference counting frees everything else as before. When the
#: last block ends, what the level left alive goes straight to the oldest generation
#: (:func:`fewer_collections`), so that the young collections do not walk it either.
GC_OFF = True

_GC_LOCK = threading.Lock()
_GC_USERS = [0, None]  # the searches inside :func:`fewer_collections`, and whether the collector was on
#: Whether the program was seen keeping objects frozen itself (:func:`fewer_collections`). Once
#: it was, it is not asked again: ``gc.get_freeze_count`` walks every frozen object to count them,
#: and a command's batch holds hundreds of thousands (while nothing is frozen, it is cheap).
_PROGRAM_FROZE = [False]


@contextmanager
def fewer_collections():
    """Inside the block, the automatic cycle collector is off (with :data:`GC_OFF`); it is
    turned on again, if it was on, when the last block of any thread ends (the collector is
    the process's). Then the objects the blocks left alive (mostly the memos) join the oldest
    generation at once (``gc.freeze`` then ``gc.unfreeze``: two list merges): else the first
    young collection after the block walks them all, then the next middle one again, and finds
    nothing to free there (about 5 ms a level on the hardest puzzles, 9 to 11% of their
    rating). A full collection still reaches them, so cyclic garbage among them is freed as
    before. Not where the program keeps objects frozen itself (a command's batch keeps what it
    loaded out of the collector's sight, :func:`sudokit.pipeline.warm`; a team worker what it
    was forked with): unfreezing would undo that, and keeping the level's objects frozen too
    would keep their cyclic garbage for good (a batch of the hardest puzzles ran 1.2x slower
    so), so there the collector comes back on as before."""
    with _GC_LOCK:
        if _GC_USERS[0] == 0:
            _GC_USERS[1] = gc.isenabled()
            if GC_OFF:
                gc.disable()
        _GC_USERS[0] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_USERS[0] -= 1
            if _GC_USERS[0] == 0 and _GC_USERS[1]:
                if GC_OFF:
                    if not _PROGRAM_FROZE[0] and gc.get_freeze_count():
                        _PROGRAM_FROZE[0] = True
                    if not _PROGRAM_FROZE[0]:
                        gc.freeze()
                        gc.unfreeze()
                gc.enable()


def _forked() -> None:
    """In a child process (a worker of :mod:`.sharing`, forked from any thread): no block of
    :func:`fewer_collections` runs there, so the collector is as it was before the blocks."""
    global _GC_LOCK
    _GC_LOCK = threading.Lock()  # (another thread may have held it at the fork)
    if _GC_USERS[0]:
        _GC_USERS[0] = 0
        if _GC_USERS[1]:
            gc.enable()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


class _LevelMulti(Multi):
    """SE's multiple-chain producer at a level; ``collect`` keeps every hint
    (for an inner rule) instead of the best."""

    def __init__(self, ch, best, level: int, multiple: bool = True, dynamic: bool = True) -> None:
        base = LEVEL_BASE[min(level, 4)] if level else (8.5 if dynamic else 8.0)
        super().__init__(ch, best, multiple, dynamic, False, base, "Dynamic " if dynamic else "")
        self.level = level
        self.suffix = nested_suffix(level)
        # a hint offered to a plain Best (a level's own search) may stop counting its chains
        # once the count passes the best hint's complexity, as Multi's hints do: its inner chains
        # only add to the count, so it comes after the best whatever they hold (a collector, an
        # inner rule's, keeps every hint in full)
        self.prune = chains.PRUNE and type(best) is Best

    def run(self, cells: "list[int] | None" = None) -> None:
        with fewer_collections():
            super().run(cells)

    def hint(self, name, key, chains, target, text_head, unit: int | None = None,
             complexity: int | None = None, init: tuple | None = None) -> Hint:
        """:meth:`Multi.hint` with the level's name and inner chains; ``init``: how a cell's or a
        region's assumptions were made, when known (else read off the first chain)."""
        best = self.best.hint if self.prune else None
        h = super().hint(name, key, chains, target, text_head, unit, complexity)
        if best is not None and h.complexity > best.complexity:
            inner = []  # (it comes after the best: its inner chains are not looked for)
        else:
            inner = _inner_of(self.ch, chains) if self.level >= 2 else []
        if inner:
            h.complexity += sum(x.complexity for x in inner)
            h.difficulty = self.base + length_increment(h.complexity)
        if self.suffix:
            h.name = name + self.suffix
            make, suffix = h.lazy, self.suffix

            def named():
                text, links = make()
                head, _, rest = text.partition(": ")
                return f"{head}{suffix}: {rest}", links

            h.lazy = named
        if init is None and "Cell Forcing" in name:
            init = ("cell", parent_path(*chains[0])[0] >> 6)
        elif init is None and "Region Forcing" in name:
            init = ("region", unit, (parent_path(*chains[0])[0] >> 1) & 31)
        x = _XHint.of(h, chains, init, None, self.dynamic, self.ch)
        x.inner = tuple(inner)
        return x


# -- SE's collectRuleParents ------------------------------------------------------


def _link_unit(geo, p: int, q: int, masks, graph, dynamic: bool, order: "dict | list | None" = None) -> int:
    """The unit of an x-link p (off) -> q (on): the first of box, row,
    column holding both where the value had two places left when the link
    was made (SE's ``getOffToOn`` records that region as the cause of q).
    In a dynamic chain, the places the chain had removed before it took up
    p are gone (``order``: each potential's rank in ``graph``, the order
    the chain found them in, which is the order it takes up the offs; or a
    list ``[None]`` where that rank is made, when needed, and kept)."""
    a, b = p >> 6, q >> 6
    v = (q >> 1) & 31
    bit = 1 << (v - 1)
    ra, ca, ba = geo.units_of[a][:3]
    rb, cb, bb = geo.units_of[b][:3]
    shared = [u for u, w in ((ba, bb), (ra, rb), (ca, cb)) if u == w]
    shared += [u for u in geo.units_of[a][3:] if u in geo.units_of[b]]  # a variant's diagonal or window
    if len(shared) == 1:
        return shared[0]
    if dynamic and (order is None or type(order) is list):
        box = order
        order = None if box is None else box[0]
        if order is None:
            order = {n: i for i, n in enumerate(graph)}
            if box is not None:
                box[0] = order
    at = order.get(p, -1) if dynamic else -1
    for u in shared:
        left = [c for c in geo.units[u] if masks[c] & bit and not (
            dynamic and c not in (a, b) and order.get((c << 6) | (v << 1), at) < at)]
        if len(left) == 2:
            return u
    return shared[0]


def _graph_units(h, graph) -> tuple:
    """What :func:`_rule_parents` keeps of ``graph``, one of the graphs of the inner hint ``h``:
    ``(graph, {(p << 13) | q: unit of the link}, [its rank of potentials or None])``, with the
    hint's chainer (whose graphs, and reduced grid, they are), or new; for a static hint, one
    table for all the chainer's graphs."""
    ch = h.chainer
    memo = None if ch is None else ch.__dict__.setdefault("_graph_units", {})
    if memo is None:
        return graph, {}, [None]
    if not h.dynamic:  # a static link's unit depends on the reduced grid alone: one table for all
        got = memo.get(None)
        if got is None:
            got = memo[None] = (None, {}, [None])
        return got
    got = memo.get(id(graph))
    if got is None or got[0] is not graph:
        got = memo[id(graph)] = (graph, {}, [None])
    return got


def _rule_parents(h: _XHint, base, cur, geo, removed: dict | None = None) -> tuple:
    """The candidates removed by the outer chain that the inner hint ``h``
    relies on, as off nodes (SE's ``ChainingHint.getRuleParents``): those of
    the groups of :func:`_parent_groups`, in their order. ``removed``: what
    a cell (key ``-1 - cell``) or a unit's value (key ``(unit << 5) |
    value``) has lost from ``base`` to ``cur``, as off nodes, kept between
    the calls on the same two grids. ``cur`` is the grid of ``h``'s rule;
    the groups depend on it alone, and are kept with the hint."""
    groups = getattr(h, "groups", None)
    if groups is None:
        groups = _parent_groups(h, cur, geo)
        try:
            h.groups = groups
        except AttributeError:  # (a hint that cannot keep them: made again each time)
            pass
    if removed is None:
        removed = {}
    out: dict[int, None] = {}
    for key in groups:
        got = removed.get(key)
        if got is None:
            if key < 0:  # what the cell lost
                cell = -1 - key
                got = []
                gone = base[cell] & ~cur[cell]
                while gone:
                    low = gone & -gone
                    got.append((cell << 6) | (low.bit_length() << 1))
                    gone ^= low
            else:  # the places of the value the unit lost
                v = key & 31
                bit = 1 << (v - 1)
                got = [(c << 6) | (v << 1) for c in geo.units[key >> 5] if base[c] & bit and not cur[c] & bit]
            removed[key] = got
        for node in got:
            out[node] = None
    return tuple(out)


def _parent_groups(h: _XHint, cur, geo) -> tuple:
    """What the chains of the inner hint ``h`` (on the grid ``cur``) rely on, in the order
    SE's ``getRuleParents`` meets it: ``-1 - cell`` for a cell's other candidates (a naked
    single made an on potential), ``(unit << 5) | value`` for the value's other places in a
    unit (a hidden single made it), each once."""
    groups: dict[int, None] = {}
    if h.cycle is not None:
        chain = cycle_nodes(h.cycle)
        # chain: dstOn, off, on, ..., root (== dstOn)
        for i in range(len(chain) - 1):
            q, p = chain[i], chain[i + 1]
            if q >> 6 == p >> 6:
                groups[-1 - (q >> 6)] = None
            elif q & 1:
                groups[(_link_unit(geo, p, q, cur, {}, False) << 5) | ((q >> 1) & 31)] = None
            else:
                # the reversed chain: this off potential turned on, with its on->off cause
                r1, c1, b1 = geo.units_of[q >> 6][:3]
                r2, c2, b2 = geo.units_of[p >> 6][:3]
                unit = b1 if b1 == b2 else (r1 if r1 == r2 else c1 if c1 == c2 else next(
                    u for u in geo.units_of[q >> 6][3:] if u in geo.units_of[p >> 6]))
                groups[(unit << 5) | ((q >> 1) & 31)] = None
        return tuple(groups)
    init = h.init
    dynamic = h.dynamic
    for target, parents, graph in h.chains:
        # the unit of each x-link, by graph (an inner rule's hints share their propagations, and
        # its reduced grid, ``cur``, is theirs): (graph, {(p << 13) | q: unit}, [rank in graph])
        known = _graph_units(h, graph)
        units_of = known[1]
        done: set = set()
        todo = [(target, parents)]
        while todo:
            nxt = []
            for q, ps in todo:
                if q in done:
                    continue
                done.add(q)
                if q & 1:
                    if not ps:
                        if init is not None:
                            groups[-1 - (q >> 6) if init[0] == "cell" else (init[1] << 5) | init[2]] = None
                    else:
                        p = ps[0]
                        if p >> 6 == q >> 6:
                            groups[-1 - (q >> 6)] = None
                        else:
                            k = (p << 13) | q
                            u = units_of.get(k)
                            if u is None:
                                u = units_of[k] = _link_unit(geo, p, q, cur, graph, dynamic, known[2])
                            groups[(u << 5) | ((q >> 1) & 31)] = None
                for p in ps:
                    if p not in done:
                        nxt.append((p, graph[p]))
            todo = nxt
    return tuple(groups)


# -- the inner rules ----------------------------------------------------------------


class _InnerChainer(Chainer):
    """The chainer of the inner Forcing Chains & Cycles rule: a scan counts
    ``INNER_SCAN_UNITS``."""

    def found(self, masks: list[int], y: bool, x: bool) -> list[int] | None:
        self._scan = True
        try:
            return super().found(masks, y, x)
        finally:
            self._scan = False

    def tick(self, units: int = 1) -> None:
        super().tick(INNER_SCAN_UNITS if getattr(self, "_scan", False) else units)


def _inner_hints(state: Candidates, kind: str, level: int, deadline, boards=None) -> list[_XHint]:
    """All the hints SE's inner rule gives on ``state`` (``boards``: its value bitboards,
    when known), sorted and deduplicated as SE's ``Chaining.getHints`` returns them."""
    found: list[_XHint] = []
    if kind == "cycles":
        ch = _InnerChainer(state, deadline, boards)
        masks = state.mask
        if COMPILED_INNER:
            kept = _compiled_cycles(ch)
            if kept is not None:
                return kept
        for y, x in ((False, True), (True, False), (True, True)):
            flags = ch.found(masks, y, x)
            for cell in range(len(masks)):
                m = masks[cell]
                if m.bit_count() < 2 or (not x and m.bit_count() > 2):
                    continue
                v = 0
                while m >> v:
                    f = 7 if flags is None or not m >> v & 1 else flags[(cell << 5) | (v + 1)]
                    if m >> v & 1 and f:
                        on = (cell << 6) | ((v + 1) << 1) | 1
                        for entry in (ch.cycles(masks, on, y, x, 1 << 30) if f & 1 else ()):
                            h = cycle_hint(state, entry, y, x, ch.boards)
                            if h is not None and h.removals:
                                found.append(_XHint.of(h, (), None, entry, False, ch))
                        if x:
                            for start, bit in ((on, 2), (on ^ 1, 4)):
                                if not f & bit:
                                    continue
                                for target, parents, graph in ch.forcing(masks, start, y, 1 << 30):
                                    h = forcing_hint(state, target, parents, graph, y)
                                    if h.removals:
                                        found.append(_XHint.of(h, [(target, parents, graph)], None, None, False, ch))
                    v += 1
    else:
        dynamic = kind == "dynamic"
        if COMPILED_INNER and not (dynamic and level >= 1):
            kept = _compiled_multiple(state, dynamic, deadline, boards=boards)
            if kept is not None:
                return kept
        if dynamic and level >= 1:
            ch = _LevelChainer(state, deadline, level)
        else:
            ch = Chainer(state, deadline, boards)
        collect = _Collect()
        _LevelMulti(ch, collect, level if dynamic else 0, True, dynamic).run()
        found = collect.all
    order = sorted(range(len(found)), key=lambda i: (found[i].difficulty, found[i].complexity, found[i].key, i))
    out = []
    seen: set = set()
    for i in order:
        h = found[i]
        key = frozenset(h.removals)
        if key not in seen:
            seen.add(key)
            out.append(h)
    return out


#: Whether the inner rules run compiled (:mod:`nested_kernels`) when the
#: chain kernels are loaded; False runs the Python rules (the tests compare them).
COMPILED_INNER = True

#: Whether a level's propagation runs up to its first fixpoint in the chain kernels (a plain
#: dynamic propagation until the helpers join in) when they are loaded; False: all in Python
#: (the tests compare them).
FIRST_RUN_COMPILED = True

#: Whether the compiled inner rules' hints get their rule-parent groups with them (the multiple
#: rules' from :func:`nested_kernels.hint_groups`, the forcing chains' along their path); False:
#: made by :func:`_parent_groups` from their chains (the tests and timings compare them).
KERNEL_GROUPS = True

_NK = None  # nested_kernels once loaded; False when it cannot load
_NK_ASKED = -2.0  # when prefer_compiled last said not yet (asked again a second later)


_BASIC_TEXT = {1: "Pointing", 2: "Hidden Pair", 3: "Naked Pair", 4: "X-Wing"}


def _nested_kernels(ch: Chainer):
    """:mod:`nested_kernels` when the chain kernels are loaded for ``ch`` and
    it loads, else None."""
    global _NK
    if ch._kernel(ch.state.mask) is None:
        return None
    if _NK is None:
        global _NK_ASKED
        now = time.monotonic()
        if now < _NK_ASKED + 1.0:
            return None
        from ..engine import prefer_compiled

        if not prefer_compiled("nested", ch.geo.n):  # compiling in the background: the Python rules meanwhile
            _NK_ASKED = now
            return None
        try:
            from . import nested_kernels
        except Exception:  # numba missing or broken: the Python rules
            _NK = False
        else:
            _NK = nested_kernels
    return _NK or None


def _forcing_hint(state: Candidates, target: int, parents: tuple, graph: dict, y: bool, complexity: int) -> Hint:
    """:func:`chains.forcing_hint` with its text and links made when asked
    for (an inner hint is seldom shown); ``complexity`` its chain's
    potentials, the target's included."""
    if y:
        name, base, key = "Forcing Chain", 7.0, 4
    else:
        name, base, key = ("Turbot Fish" if complexity == 6 else "Forcing X-Chain"), 6.6, 2
    placement = (target >> 6, (target >> 1) & 31) if target & 1 else None

    def make():
        h = forcing_hint(state, target, parents, graph, y)
        return h.text, h.links

    return Hint(base + length_increment(complexity), complexity, key, name, placement,
                chains._removals_on(state, target), None, None, (target >> 6,), make)


def _compiled_cycles(ch: Chainer, most: int | None = None) -> list[_XHint] | None:
    """The "cycles" inner rule on ``ch``'s state by :func:`nested_kernels.cycles_rule`:
    the hints of the Python rule, in its order, made only for the chains
    kept (the first ``most`` of them, when given); None when the compiled
    searches are not loaded."""
    if _nested_kernels(ch) is None:
        return None
    import numpy as np

    _, arr, peers, units, w = ch._kernel(ch.state.mask)
    state = ch.state
    allpeers = _NK.tables(state.geo)
    bufs = w.get("nested")
    while True:
        if bufs is None:
            size = w.get("nested_size", 1 << 14)
            bufs = w["nested"] = (np.empty(size * 8, dtype=np.int64), np.empty((size, 5), dtype=np.int64),
                                  np.empty(size * 4, dtype=np.int64))
        path, recs, rems = bufs
        mark, pnodes, parents, found, buf, index, pstart, pflat, pfirst, qon, qoff, flags = w["prop"]
        kept, searches, stamp = _NK.cycles_rule(arr, peers, units, allpeers, mark, pnodes, parents, found, buf, index,
                                                pstart, pflat, pfirst, qon, qoff, flags, w["stamp"], path, recs, rems)
        w["stamp"] = stamp
        if kept >= 0:
            break
        w["nested_size"] = 2 * len(recs)  # too small: again with twice the room
        bufs = None
    # the work the Python rule counts: three scans and each search that found something
    ch.tick(3 * INNER_SCAN_UNITS + searches)
    out = []
    geo_t, um = ch.t, state.geo.unit_mask
    for kind, pas, start, length in recs[:kept if most is None else min(kept, most), :4].tolist():
        nodes = path[start:start + length].tolist()
        y, x = pas >= 1, pas != 1
        if kind == _NK.CYCLE:
            entry = None
            for node in reversed(nodes):
                entry = (node, entry)
            h = cycle_hint(state, entry, y, x, ch.boards)
            out.append(_XHint.of(h, (), None, entry, False, ch))
        else:
            src = nodes[-1]
            graph = {src: ()}
            for i in range(len(nodes) - 2, -1, -1):
                graph[nodes[i]] = (nodes[i + 1],)
            target, parents = src ^ 1, (nodes[0],)
            h = _forcing_hint(state, target, parents, graph, y, len(nodes) + 1)
            x = _XHint.of(h, [(target, parents, graph)], None, None, False, ch)
            if KERNEL_GROUPS and len(graph) == len(nodes) and target not in graph:  # (no repeats: walked directly)
                x.groups = _path_groups(target, nodes, ch.boards, geo_t, um)
            out.append(x)
    return out


def _path_groups(target: int, nodes: list[int], boards: list[int], t, um) -> tuple:
    """:func:`_parent_groups` of a static forcing chain of the inner "cycles" rule: ``target``,
    then ``nodes``, each potential's one parent the next (the last the assumption), on the
    reduced grid whose value bitboards are ``boards`` (``t``: :func:`chains._tables`, ``um``:
    the unit masks)."""
    groups: dict[int, None] = {}
    cell_units = t.cell_units
    q = target
    for p in nodes:
        if q & 1:
            a, b = p >> 6, q >> 6
            if a == b:
                groups[-1 - b] = None
            else:
                v = (q >> 1) & 31
                ua, ub = cell_units[a], cell_units[b]
                unit = -1
                for j in range(3):  # box, row, column: the first with two places of the value
                    u = ua[j]
                    if u == ub[j]:
                        if unit < 0:
                            unit = u
                        if (boards[v] & um[u]).bit_count() == 2:
                            unit = u
                            break
                groups[(unit << 5) | v] = None
        q = p
    return tuple(groups)


@lru_cache(maxsize=None)
def _cell_units(geo):
    """``chains._tables(geo).cell_units`` as an array (-1 padded)."""
    import numpy as np

    rows = chains._tables(geo).cell_units
    out = np.full((len(rows), max(len(r) for r in rows)), -1, dtype=np.int64)
    for cell, us in enumerate(rows):
        out[cell, :len(us)] = us
    return out


def _compiled_multiple(state: Candidates, dynamic: bool, deadline, most: int | None = None,
                       boards: list[int] | None = None) -> list[_XHint] | None:
    """The "multiple" (static) or "dynamic" (level 0) inner rule on ``state`` by
    :func:`nested_kernels.multiple_rule`: the hints of the Python rule, in its
    order, made only for the hints kept (the first ``most`` of them, when
    given; the kernel looks for the first one alone when ``most`` is 1); None
    when the compiled code is not loaded (or has no room: the Python rule
    then)."""
    ch = Chainer(state, deadline, boards)
    nk = _nested_kernels(ch)
    if nk is None:
        return None
    import numpy as np

    _, arr, peers, units, w = ch._kernel(state.mask)
    geo = state.geo
    ulist = nk.helper_tables(geo)[0]
    cellunits = _cell_units(geo)
    while True:
        bufs = w.get("multiple")
        if bufs is None:
            size = w.get("multiple_size", 1 << 17)
            bufs = w["multiple"] = (np.empty(size, dtype=np.int64), np.empty(4 * size, dtype=np.int64),
                                    np.empty((size // 8, 7), dtype=np.int64))
        gnodes, gpf, out = bufs
        kept, props, stamp = nk.multiple_rule(arr, peers, units, ulist, cellunits, bool(dynamic), w["masks"],
                                              *w["prop"], w["stamp"], gnodes, gpf, out, most == 1)
        w["stamp"] = stamp
        if kept >= 0:
            break
        if w.get("multiple_size", 1 << 17) >= 1 << 24:
            return None
        w["multiple_size"] = 2 * len(gnodes)  # too small: again with twice the room
        del w["multiple"]
    # the work the Python rule counts: one a propagation
    ch.tick(props)
    recs = out[:kept if most is None else min(kept, most)]
    # each hint's rule-parent groups, from its chains' propagations made again in the kernel; the
    # chains themselves (dictionaries) are made only when asked for (a hint's key or text)
    groups = _hint_groups(nk, arr, peers, units, ulist, cellunits, dynamic, recs, w) if KERNEL_GROUPS else None
    rb = chains._Quiet(state, deadline, ch.boards)
    rb._compiled = ch._compiled  # (the same state's)
    multi = _LevelMulti(rb, _Collect(), 0, True, dynamic)
    prefix = multi.prefix
    name = chains._name
    found = []
    for i, (what, cell, v, u, q, order, cx) in enumerate(recs.tolist()):
        p_on = (cell << 6) | (v << 1) | 1
        lazy = _LazyChains(nk, rb, what, cell, v, u, q, dynamic)
        init = None
        if what == nk.CONTRA_ON or what == nk.CONTRA_OFF:
            p = p_on if what == nk.CONTRA_ON else p_on ^ 1
            h = multi.hint(f"{prefix}Contradiction Forcing Chains", 7, lazy, p ^ 1,
                           lambda p=p, lazy=lazy: f"{name(geo, p)} makes {name(geo, lazy[0][0])} both true and false",
                           complexity=cx, init=init)
        elif what == nk.DOUBLE:
            h = multi.hint(f"{prefix}Double Forcing Chains", 1, lazy, q,
                           lambda p=p_on, q=q: f"{name(geo, p)} and {name(geo, p ^ 1)} both give {name(geo, q)}",
                           complexity=cx, init=init)
        elif what == nk.REGION:
            init = ("region", u, v)
            h = multi.hint(f"{prefix}Region Forcing Chains", 6, lazy, q,
                           lambda u=u, q=q, v=v: f"each place for {geo.symbol(v)} in {geo.unit_name(u)} gives "
                           f"{name(geo, q)}", u, cx, init=init)
        else:
            init = ("cell", cell)
            h = multi.hint(f"{prefix}Cell Forcing Chains", 5, lazy, q,
                           lambda q=q, cell=cell: f"each value of {geo.cell_name(cell)} gives {name(geo, q)}",
                           complexity=cx, init=init)
        h.order = order
        if groups is not None:
            h.groups = tuple(groups[0][groups[1][i]:groups[1][i + 1]])
        found.append(h)
    return found


def _hint_groups(nk, arr, peers, units, ulist, cellunits, dynamic, recs, w) -> tuple[list, list]:
    """:func:`nested_kernels.hint_groups` on the records ``recs`` of
    :func:`nested_kernels.multiple_rule` (the work arrays ``w``, made larger when too small):
    ``(flat, start)``, record ``i``'s groups ``flat[start[i]:start[i + 1]]``."""
    import numpy as np

    while True:
        bufs = w.get("groups")
        if bufs is None or len(bufs[1]) < len(recs) + 1:
            size = max(len(recs) + 1, 1 << 10)
            bufs = w["groups"] = (np.empty(w.get("groups_size", 1 << 12), dtype=np.int64),
                                  np.empty(2 * size, dtype=np.int64))
        flat, start = bufs
        w["stamp"], ok = nk.hint_groups(arr, peers, units, ulist, cellunits, bool(dynamic), recs, w["masks"],
                                        *w["prop"], w["stamp"], flat, start)
        if ok:
            return flat[:start[len(recs)]].tolist(), start[:len(recs) + 1].tolist()
        w["groups_size"] = 2 * len(flat)  # too small: again with twice the room
        del w["groups"]


class _LazyChains:
    """The chains ``[(target, parents, graph)]`` of a hint of :func:`_compiled_multiple`, made
    (by propagating again, as the Python rule does) when first read."""

    __slots__ = ("_args", "_list")

    def __init__(self, nk, rb, what, cell, v, u, q, dynamic) -> None:
        self._args = (nk, rb, what, cell, v, u, q, dynamic)
        self._list = None

    def _made(self) -> list:
        got = self._list
        if got is None:
            got = self._list = _multiple_chains(*self._args)
            self._args = None
        return got

    def __iter__(self):
        return iter(self._made())

    def __getitem__(self, i):
        return self._made()[i]

    def __len__(self) -> int:
        return len(self._made())


def _multiple_chains(nk, rb, what, cell, v, u, q, dynamic) -> list:
    """The chains of one hint of :func:`nested_kernels.multiple_rule` (``nk``; the record's
    fields), from the propagations of ``rb``."""
    geo = rb.geo
    masks = rb.state.mask
    p_on = (cell << 6) | (v << 1) | 1
    if what == nk.CONTRA_ON or what == nk.CONTRA_OFF:
        p = p_on if what == nk.CONTRA_ON else p_on ^ 1
        graph, absurd = rb.propagate([p], False, dynamic)
        (a, pa), (b, pb) = absurd
        return [(a, pa, graph), (b, pb, graph)]
    if what == nk.DOUBLE:
        on_graph = rb.propagate([p_on], False, dynamic)[0]
        off_graph = rb.propagate([p_on ^ 1], False, dynamic)[0]
        return [(q, on_graph[q], on_graph), (q, off_graph[q], off_graph)]
    if what == nk.REGION:
        bit = 1 << (v - 1)
        graphs = [rb.propagate([(p << 6) | (v << 1) | 1], False, dynamic)[0] for p in geo.units[u] if masks[p] & bit]
    else:
        graphs = [rb.propagate([(cell << 6) | ((w0 + 1) << 1) | 1], False, dynamic)[0]
                  for w0 in range(masks[cell].bit_length()) if masks[cell] >> w0 & 1]
    return [(q, g[q], g) for g in graphs]


def _compiled_nishio(ch: Chainer) -> list[int] | None:
    """The cells where some assumption of Nishio Forcing Chains contradicts
    itself (:func:`nested_kernels.nishio_rule`: every propagation at once),
    the work counted as the Python rule counts it; None when the compiled
    code is not loaded.

    A Nishio propagation follows x-links only, so whether it contradicts
    depends only on its value's places (and which of them are in cells of two
    candidates or more, where the assumptions start): the answers are
    remembered per value and those places (:data:`links._BY_VALUE`, as the
    link producers' are), and the kernel runs only for the values whose
    places changed."""
    if _nested_kernels(ch) is None:
        return None
    import numpy as np

    from . import links

    _, arr, peers, units, w = ch._kernel(ch.state.mask)
    geo = ch.geo
    n = geo.n
    boards = ch.boards
    single, many = links.one_and_more(boards, n)  # (assumptions start in the cells of two or more)
    props = 0
    got: list = [None] * (n + 1)
    keys: list = [None] * (n + 1)
    todo = 0
    for v in range(1, n + 1):
        b = boards[v]
        props += (b & many).bit_count()
        keys[v] = key = ("nishio", geo, v, b, b & single)
        got[v] = links.recalled(key)
        if got[v] is None:
            todo |= 1 << v
    if todo:
        out = w.get("nishio")
        if out is None:
            out = w["nishio"] = np.zeros(len(arr) << 5, dtype=np.int64)
        _, w["stamp"] = _NK.nishio_rule(arr, peers, units, w["masks"], *w["prop"], w["stamp"], w["one"], out, todo)
        for v in range(1, n + 1):
            if todo >> v & 1:
                got[v] = 0
        # the entries that contradict (one of a value the cell no longer holds may be left from before)
        for i in np.flatnonzero(out).tolist():
            v = i & 31
            if todo >> v & 1 and (boards[v] & many) >> (i >> 5) & 1:
                got[v] |= 1 << (i >> 5)
        links.remember((keys[v], got[v]) for v in range(1, n + 1) if todo >> v & 1)
    ch.tick(2 * props)  # (two propagations a candidate, as the kernel makes them)
    every = 0
    for hit in got[1:]:
        every |= hit
    cells = []
    while every:
        low = every & -every
        every ^= low
        cells.append(low.bit_length() - 1)
    return cells


def warm(grid) -> None:
    """Compile (or load) the compiled inner rules (:mod:`nested_kernels`) by
    running each once on ``grid``'s candidates (the chain searches loaded)."""
    global _NK
    from . import nested_kernels

    _NK = nested_kernels
    state = Candidates.from_grid(grid)
    ch = _LevelChainer(state, None, 3)
    if ch._compiled_basic(list(state.mask)) is None:
        return
    _compiled_cycles(_InnerChainer(state, None))
    _compiled_multiple(state, True, None)
    _compiled_nishio(Chainer(state, None))


@dataclass(frozen=True)
class NestedStep(Step):
    """A step of a nested forcing chain: ``inner`` holds the inner chains it
    relies on (each a dict: technique, rating, text, eliminations, and its own
    ``inner``), outermost first. :meth:`details` prints them, one line each,
    indented by depth; :meth:`as_dict` carries them as ``"nested"``."""

    inner: tuple = ()

    def details(self) -> str:
        """The step's line, then its inner chains, indented by nesting depth."""
        lines = [self.text]

        def walk(items, depth):
            for d in items:
                lines.append("  " * depth + f"[{d['rating']:.1f}] {d['text']}")
                walk(d["inner"], depth + 1)

        walk(self.inner, 1)
        return "\n".join(lines)

    def as_dict(self, geo=None) -> dict:
        out = super().as_dict(geo)
        out["nested"] = [_inner_dict(d, geo) for d in self.inner]
        return out


def _inner_dict(d: dict, geo) -> dict:
    name = geo.cell_name if geo is not None else str
    return {"technique": d["technique"], "rating": d["rating"], "text": d["text"],
            "eliminations": [f"{name(c)}<>{v}" for c, v in d["eliminations"]],
            "nested": [_inner_dict(x, geo) for x in d["inner"]]}


def _describe(h) -> dict:
    return {"technique": h.name, "rating": round(h.difficulty + 1e-9, 1), "text": h.text,
            "eliminations": tuple(h.removals), "inner": tuple(_describe(x) for x in getattr(h, "inner", ()))}


def _step_of(h: _XHint) -> Step:
    step = h.step()
    inner = tuple(_describe(x) for x in getattr(h, "inner", ()))
    if not inner:
        return step
    fields = {f.name: getattr(step, f.name) for f in dataclasses.fields(Step)}
    return NestedStep(**fields, inner=inner)


def find_level(state: Candidates, level: int, inner_level: int = 0) -> Iterator[Step]:
    """SE's ``Chaining(true, true, false, level)`` on ``state`` (at level 4,
    with inner dynamic chains of ``inner_level``): its easiest step."""
    # the puzzle's budget bounds these producers (chains.CHAIN_TIME_LIMIT is for
    # the tiers below): they are slow by nature, and --timeout raises it; a call
    # outside any budget (a hint) gets NESTED_TIME_LIMIT
    deadline = chains.PUZZLE_DEADLINE
    if deadline is None and NESTED_TIME_LIMIT is not None:
        deadline = chains.clock() + NESTED_TIME_LIMIT
    from . import sharing

    try:
        step = sharing.level_step(state, level, inner_level, deadline)  # the cells shared among processes
        if step is sharing.ALONE:
            ch = _LevelChainer(state, deadline, level, inner_level)
            ch.resumable()
            best = Best()
            _LevelMulti(ch, best, level).run()
            step = None if best.hint is None else _step_of(best.hint)
    except ChainLimit as exc:
        exc.rating = LEVEL_BASE[min(level, 4)]
        exc.tier = "Dynamic Forcing Chains" + nested_suffix(level) + (f" [inner level {inner_level}]" if level >= 4 else "")
        raise
    if step is not None:
        yield step


def find_dynamic_plus(state: Candidates) -> Iterator[Step]:
    """Dynamic Forcing Chains (+) (9.0+): dynamic chains helped by pointing,
    claiming, hidden and naked pairs and X-Wings."""
    return find_level(state, 1)


def _nested(level: int, inner: int = 0):
    def find(state: Candidates) -> Iterator[Step]:
        return find_level(state, level, inner)

    find.__name__ = f"find_nested_{level}_{inner}"
    return find


DYNAMIC_PLUS = Technique("Dynamic Forcing Chains (+)", 9.0, "chains", find_dynamic_plus)
NESTED: tuple[Technique, ...] = (
    Technique("Nested Forcing Chains", 9.5, "chains", _nested(2), variant="+ Forcing Chains"),
    Technique("Nested Forcing Chains", 10.0, "chains", _nested(3), variant="+ Multiple Forcing Chains"),
    Technique("Nested Forcing Chains", 10.5, "chains", _nested(4, 0), variant="+ Dynamic Forcing Chains"),
    Technique("Nested Forcing Chains", 10.5, "chains", _nested(4, 1), variant="+ Dynamic Forcing Chains (+)"),
    Technique("Nested Forcing Chains", 10.5, "chains", _nested(4, 2), variant="+ Nested Forcing Chains"),
)
TECHNIQUES = (DYNAMIC_PLUS,) + NESTED
