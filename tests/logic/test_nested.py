"""Dynamic Forcing Chains (+) and Nested Forcing Chains against SE's own paths.

``hard_dev_traces.jsonl.gz`` holds SukakuExplainer's full path on 16 of the
hardest known puzzles: at each step the candidates before it, its rating and
SE's one-line text. A case replays the candidates before one of SE's steps
and asks the producers, in SE's order, for the step: the first producer with
a step must give SE's rating and SE's conclusion. Soundness: no step on our
path removes the solution, which the engine finds.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache

import pytest

from sudokit import solving
from sudokit.grid import Grid
from sudokit.logic import chains, nested
from sudokit.logic.state import Candidates, geometry

from conftest import RATED, require_shared


@lru_cache(maxsize=None)
def _traces() -> dict[str, dict]:
    with gzip.open(require_shared(RATED / "hard_dev_traces.jsonl.gz"), "rt") as f:
        return {row["id"]: row for row in map(json.loads, f)}


def _state(candidates: str) -> Candidates:
    """SE's pencil marks (9 characters a cell); a cell with one candidate is
    placed (SE places naked singles before any chain)."""
    geo = geometry(Grid("." * 81).shape)
    values, masks = [], []
    for c in range(81):
        m = sum(1 << k for k, ch in enumerate(candidates[9 * c:9 * c + 9]) if ch != ".")
        single = m & (m - 1) == 0
        values.append(m.bit_length() if single else 0)
        masks.append(0 if single else m)
    return Candidates(geo, values, masks)


#: SE's chaining order: (producer, tier). The tiers below Dynamic Forcing Chains come first: a
#: static region chain of SE's paths rates 8.5 too (hd-0475 #20).
LADDER = [(find, 0) for find in (chains.find_forcing_chains, chains.find_nishio, chains.find_multiple,
                                 chains.find_dynamic)] + \
    [(lambda s, lv=lv, i=i: nested.find_level(s, lv, i), lv) for lv, i in ((1, 0), (2, 0), (3, 0), (4, 0), (4, 1), (4, 2))]


def _se_target(text: str) -> tuple[str, str]:
    """SE's conclusion: ``('r4c7', '9 off')``-like from its one-line text."""
    m = re.search(r"==> (r\dc\d)\.(\d) (both on & off|on|off)", text)
    assert m, text
    if m.group(3) == "both on & off":  # a contradiction: the assumption is false
        a = re.search(r": (r\dc\d)\.(\d) (on|off) ==>", text)
        return a.group(1), f"{a.group(2)} {'off' if a.group(3) == 'on' else 'on'}"
    return m.group(1), f"{m.group(2)} {m.group(3)}"


def _ours_target(step) -> tuple[str, str]:
    if step.placements:
        (cell, value), = step.placements
        return f"r{cell // 9 + 1}c{cell % 9 + 1}", f"{value} on"
    cells = {c for c, _ in step.eliminations}
    if len(cells) == 1 and len(step.eliminations) > 1:  # all other values of a cell: it holds the rest
        return "", ""
    (cell, value), = step.eliminations
    return f"r{cell // 9 + 1}c{cell % 9 + 1}", f"{value} off"


def _replay(puzzle_id: str, index: int):
    s = _traces()[puzzle_id]["steps"][index]
    state = _state(s["candidates"])
    for find, tier in LADDER:
        step = next(find(state), None)
        if step is not None:
            return s, step, tier
    return s, None, None


#: (puzzle, step index, SE's tier) with SE's rating from the trace.
CASES = [
    ("hd-0475", 25, 1),  # Dynamic Contradiction Forcing Chains (+), 9.8
    ("hd-0361", 4, 2),  # Dynamic Region Forcing Chains (+ Forcing Chains), 10.0
    pytest.param("hd-0361", 25, 3, marks=pytest.mark.slow),  # (+ Multiple Forcing Chains), 11.0; ~10 s
    pytest.param("hd-0141", 21, 4, marks=pytest.mark.slow),  # (+ Dynamic Forcing Chains), 11.6; ~15 s
]


@pytest.mark.parametrize("puzzle_id,index,tier", CASES, ids=["hd-0475#25 level 1", "hd-0361#4 level 2",
                                                             "hd-0361#25 level 3", "hd-0141#21 level 4"])
def test_takes_se_step(puzzle_id: str, index: int, tier: int) -> None:
    s, step, got_tier = _replay(puzzle_id, index)
    assert step is not None, s["text"]
    assert (got_tier, step.rating) == (tier, s["rating"]), (s["text"], step.text)
    assert _ours_target(step) == _se_target(s["text"]), (s["text"], step.text)
    assert step.technique.endswith(nested.nested_suffix(tier))
    if tier >= 2:  # the inner chains travel with the step: in its details and in its record
        record = step.as_dict()
        assert record["nested"] and all(d["text"] in step.details() for d in record["nested"])
        assert all(d["rating"] < step.rating for d in record["nested"])


def test_level_names_follow_se() -> None:
    assert [nested.nested_suffix(lv) for lv in (1, 2, 3, 4, 5)] == [
        " (+)", " (+ Forcing Chains)", " (+ Multiple Forcing Chains)", " (+ Dynamic Forcing Chains)",
        " (+ Dynamic Forcing Chains (+ Forcing Chains))"]
    assert [t.rating for t in nested.TECHNIQUES] == [9.0, 9.5, 10.0, 10.5, 10.5, 10.5]


def _sound(puzzle_id: str, indices) -> None:
    row = _traces()[puzzle_id]
    solution = solving.solve(Grid(row["puzzle"])).solution.values
    for index in indices:
        _, step, _ = _replay(puzzle_id, index)
        for cell, value in step.eliminations:
            assert solution[cell] != value, (puzzle_id, index, step.text)
        for cell, value in step.placements:
            assert solution[cell] == value, (puzzle_id, index, step.text)


def test_nested_steps_keep_the_solution_sample() -> None:
    _sound("hd-0475", [21, 25])  # levels 0 and 1
    _sound("hd-0361", [5])  # level 2


@pytest.mark.slow
def test_every_se_step_from_8_5_up_agrees() -> None:
    """Every SE step rated 8.5 or more on the 16 traces (slow: levels 3 and 4
    take minutes a step in pure Python)."""
    failures = []
    for puzzle_id, row in _traces().items():
        solution = solving.solve(Grid(row["puzzle"])).solution.values
        for index, s in enumerate(row["steps"]):
            if s["rating"] < 8.5:
                continue
            _, step, _ = _replay(puzzle_id, index)
            if step is None or step.rating != s["rating"] or _ours_target(step) != _se_target(s["text"]):
                failures.append((puzzle_id, index, s["text"], step and step.text))
            elif any(solution[c] == v for c, v in step.eliminations):
                failures.append((puzzle_id, index, "unsound", step.text))
    assert not failures, failures[:5]


def test_a_budget_run_out_names_the_tier() -> None:
    from sudokit.logic import rate
    from sudokit.records import rating_record

    row = _traces()["hd-0475"]
    grid = Grid(row["puzzle"])
    r = rate(grid, timeout=1e-6)
    assert r.lower_bound and r.tier
    assert r.er <= row["er"]  # a lower bound never above SE
    assert rating_record(grid, r)["tier"] == r.tier


def test_compiled_inner_rules_give_the_python_ones(monkeypatch, chain_kernels_loaded) -> None:
    """The compiled inner rules (nested_kernels) give the Python ones' helpers
    and hints, in the same order, and count the same work: the four basic
    rules at every fixpoint of a level-1 and a level-2 search; the inner
    Forcing Chains & Cycles, Multiple and Dynamic Forcing Chains on the
    reduced grids of the level-2 search, with the same rule-parent groups; and the same
    level-2 step."""
    pytest.importorskip("numba")
    from sudokit.logic import chain_kernels, nested_kernels

    monkeypatch.setattr(chains, "_KERNELS", chain_kernels)
    monkeypatch.setattr(nested, "_NK", nested_kernels)
    monkeypatch.setattr(nested, "NESTED_TIME_LIMIT", None)
    advanced = nested._LevelChainer.advanced
    grids: list[tuple] = []
    differ: list = []
    used: set = set()

    def helpers(found):
        return [(list(h.offs), tuple(h.parents), h.text) for h in found]

    def checked(self, masks, boards):
        compiled = self._compiled_basic(masks)
        assert compiled is not None  # the kernels are loaded
        python = self.basic(masks, boards)
        used.update(h.text for h in python)
        if helpers(compiled) != helpers(python):
            differ.append((list(masks), helpers(compiled)[:2], helpers(python)[:2]))
        if not python and len(grids) < 60:
            grids.append((tuple(self.state.values), tuple(masks)))
        return advanced(self, masks, boards)

    monkeypatch.setattr(nested._LevelChainer, "advanced", checked)
    level1 = _state(_traces()["hd-0475"]["steps"][25]["candidates"])
    level2 = _state(_traces()["hd-0361"]["steps"][4]["candidates"])
    assert next(nested.find_level(level1, 1)).rating == 9.8
    step = next(nested.find_level(level2, 2))
    assert not differ, differ[:2]
    assert used == {"Pointing", "Claiming", "Hidden Pair", "Naked Pair", "X-Wing"}
    monkeypatch.setattr(nested._LevelChainer, "advanced", advanced)

    def hints(state, kind):
        found = nested._inner_hints(state, kind, 0, None)
        # the rule-parent groups: those the compiled rules give with their hints (made in
        # nested_kernels.hint_groups, or along a forcing chain's path), and those the Python
        # rule's hints get from the walk over their chains
        groups = [h.groups if h.groups is not None else nested._parent_groups(h, state.mask, state.geo)
                  for h in found]
        return [(h.name, h.difficulty, h.complexity, h.key, tuple(h.removals), h.text, nested._full_chain(h),
                 h.init, h.dynamic, g) for h, g in zip(found, groups)]

    geo = level2.geo
    assert len(grids) >= 40
    kinds = 0
    for i, (values, masks) in enumerate(grids[::2]):
        reduced = Candidates(geo, list(values), list(masks))
        for kind in ("cycles", "multiple", "dynamic") if i % 3 == 0 else ("cycles",):
            work = chains.WORK_DONE
            compiled = hints(reduced, kind)
            work = chains.WORK_DONE - work
            monkeypatch.setattr(nested, "COMPILED_INNER", False)
            python = chains.WORK_DONE
            assert compiled == hints(reduced, kind), kind
            assert chains.WORK_DONE - python == work, kind  # the same units of work
            monkeypatch.setattr(nested, "COMPILED_INNER", True)
            kinds += bool(compiled)
    assert kinds >= 20
    monkeypatch.setattr(nested, "COMPILED_INNER", False)
    python = next(nested.find_level(level2, 2))
    assert (step.technique, step.rating, step.eliminations, step.text, step.details()) == \
        (python.technique, python.rating, python.eliminations, python.text, python.details())


def test_rule_parents_with_the_kept_link_units_are_those_made_afresh(monkeypatch, chain_kernels_loaded) -> None:
    """The units of the links an inner hint relies on are kept per graph (per reduced grid for
    static hints) and shared among the hints of one inner rule: worked out for the hints in
    reverse order, with the tables the others left, each hint gets the parents it gets when no
    unit is kept at all."""
    pytest.importorskip("numba")
    state = _state(_traces()["hd-0361"]["steps"][4]["candidates"])
    ch = nested._LevelChainer(state, None, 1)
    cell = next(c for c, m in enumerate(state.mask) if m & (m - 1))
    graph, _ = ch.propagate([(cell << 6) | (state.mask[cell].bit_length() << 1) | 1], False, True)
    masks = list(state.mask)
    for q in graph:  # the grid the assumption reduces
        if not q & 1:
            masks[q >> 6] &= ~(1 << (((q >> 1) & 31) - 1))
    reduced = Candidates(state.geo, list(state.values), masks)

    class Forget(dict):
        def get(self, key, default=None):  # type: ignore[override]
            return default

    kept = nested._graph_units
    checked = 0
    for kind in ("cycles", "multiple", "dynamic"):
        hints = nested._inner_hints(reduced, kind, 0, None)
        shared = [nested._rule_parents(h, state.mask, masks, state.geo) for h in reversed(hints)][::-1]
        assert all(h.groups is not None for h in hints)  # kept with the hint
        monkeypatch.setattr(nested, "_graph_units", lambda h, graph: (graph, Forget(), [None]))
        for h, parents in zip(hints, shared):
            h.groups = None  # made afresh
            assert nested._rule_parents(h, state.mask, masks, state.geo) == parents, (kind, h.name)
            checked += bool(parents)
        monkeypatch.setattr(nested, "_graph_units", kept)
    assert checked >= 5


def test_fewer_collections_turns_the_collector_back_on() -> None:
    """A nested level turns the automatic cycle collector off while it searches, and the last of
    the blocks (nested, or in several threads) turns it on again; a collector off before stays
    off."""
    import gc
    import threading

    assert gc.isenabled()
    with nested.fewer_collections():
        assert not gc.isenabled()
        with nested.fewer_collections():
            pass
        assert not gc.isenabled()
        done = []

        def other():
            with nested.fewer_collections():
                done.append(gc.isenabled())

        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert done == [False]
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with nested.fewer_collections():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_a_process_forked_inside_a_level_has_its_collector_on() -> None:
    """A worker forked while a level searches in this process (from another thread, say) does
    not inherit the collector off for good."""
    import gc
    import os

    with nested.fewer_collections():
        pid = os.fork()
        if pid == 0:  # the child: its collector on, and a level's block there turns it off and on
            ok = gc.isenabled()
            with nested.fewer_collections():
                ok = ok and not gc.isenabled()
            os._exit(0 if ok and gc.isenabled() else 1)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert gc.isenabled()


def _propagations(state, level: int) -> tuple[list, int]:
    """Every assumption (each candidate of a cell of two or more, on and off) of a level on
    ``state`` propagated from scratch: its graph (in the order found), contradiction, the inner
    chains its potentials came from, where it stopped (as a level above finds it), and the
    work counted."""
    nested.clear_caches()
    ch = nested._LevelChainer(state, None, level)
    ch.resumable()
    work = chains.WORK_DONE
    out = []
    for cell, m in enumerate(state.mask):
        if m & (m - 1):
            for v in range(1, 10):
                if m >> (v - 1) & 1:
                    for on in (1, 0):
                        graph, absurd = ch._propagate([(cell << 6) | (v << 1) | on], False, True)
                        nest = ch.nests[id(graph)]
                        out.append((list(graph.items()), absurd, [(q, h.name, h.complexity) for q, h in nest.items()]))
    ends = [(key, list(end[0].items()), end[2:]) for key, end in ch.ends.items()]
    return out + ends, chains.WORK_DONE - work


def test_first_run_in_the_chain_kernels_gives_the_python_propagation(monkeypatch, chain_kernels_loaded) -> None:
    """A level's propagation run up to its first fixpoint by the chain kernels
    (``nested.FIRST_RUN_COMPILED``), then by the helpers, gives the graph of the
    propagation all in Python: the same potentials, parents, order, contradictions,
    inner chains, stopping points and work, at levels 1 and 2."""
    cases = [(_state(_traces()["hd-0475"]["steps"][25]["candidates"]), 1),
             (_state(_traces()["hd-0361"]["steps"][4]["candidates"]), 2)]
    monkeypatch.setattr(nested, "NESTED_TIME_LIMIT", None)
    for state, level in cases:
        monkeypatch.setattr(nested, "FIRST_RUN_COMPILED", True)
        compiled, work = _propagations(state, level)
        monkeypatch.setattr(nested, "FIRST_RUN_COMPILED", False)
        python, python_work = _propagations(state, level)
        assert compiled == python
        assert work == python_work
        assert any(absurd for _, absurd, _ in compiled[:200]) and any(nest for _, _, nest in compiled[:300])


def _rule_parents_walked(h, base, cur, geo) -> tuple:
    """SE's ``getRuleParents`` as a plain walk over the inner hint's chains, every removed
    candidate added as it is met (the reference for :func:`nested._rule_parents`)."""
    out: dict = {}
    units = geo.units

    def naked(cell):
        gone = base[cell] & ~cur[cell]
        for v0 in range(gone.bit_length()):
            if gone >> v0 & 1:
                out.setdefault((cell << 6) | ((v0 + 1) << 1))

    def hidden(unit, v):
        bit = 1 << (v - 1)
        for c in units[unit]:
            if base[c] & bit and not cur[c] & bit:
                out.setdefault((c << 6) | (v << 1))

    if h.cycle is not None:
        chain = chains.cycle_nodes(h.cycle)
        for q, p in zip(chain, chain[1:]):
            if q >> 6 == p >> 6:
                naked(q >> 6)
            elif q & 1:
                hidden(nested._link_unit(geo, p, q, cur, {}, False), (q >> 1) & 31)
            else:
                a, b = geo.units_of[q >> 6], geo.units_of[p >> 6]
                unit = next(u for u in (a[2], a[0], a[1]) + tuple(a[3:]) if u in b)
                hidden(unit, (q >> 1) & 31)
        return tuple(out)
    for target, parents, graph in h.chains:
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
                        if h.init is not None:
                            naked(q >> 6) if h.init[0] == "cell" else hidden(h.init[1], h.init[2])
                    elif ps[0] >> 6 == q >> 6:
                        naked(q >> 6)
                    else:
                        hidden(nested._link_unit(geo, ps[0], q, cur, graph, h.dynamic), (q >> 1) & 31)
                nxt.extend((p, graph[p]) for p in ps)
            todo = nxt
    return tuple(out)


def test_rule_parents_by_groups_are_those_of_the_plain_walk(chain_kernels_loaded) -> None:
    """The rule parents made from the groups kept with each inner hint (a cell's other
    candidates, a unit's other places) are those of a plain walk over its chains, in the same
    order, for the hints of the three inner rules on grids reduced by assumptions, and again
    for a second outer grid (the groups kept, the removed candidates not)."""
    state = _state(_traces()["hd-0361"]["steps"][4]["candidates"])
    ch = nested._LevelChainer(state, None, 1)
    checked = 0
    cells = [c for c, m in enumerate(state.mask) if m & (m - 1)][::9]
    for cell in cells:
        graph, absurd = ch.propagate([(cell << 6) | (state.mask[cell].bit_length() << 1) | 1], False, True)
        if absurd is not None:
            continue
        masks = list(state.mask)
        for q in graph:
            if not q & 1:
                masks[q >> 6] &= ~(1 << (((q >> 1) & 31) - 1))
        reduced = Candidates(state.geo, list(state.values), masks)
        # an outer grid between: the same reduced grid reached from fewer removals
        other = list(state.mask)
        for q in list(graph)[: len(graph) // 2]:
            if not q & 1:
                other[q >> 6] &= ~(1 << (((q >> 1) & 31) - 1))
        other = [o | m for o, m in zip(other, masks)]
        for kind in ("cycles", "multiple", "dynamic"):
            for h in nested._inner_hints(reduced, kind, 0, None):
                for base in (state.mask, other):
                    want = _rule_parents_walked(h, base, masks, state.geo)
                    assert nested._rule_parents(h, base, masks, state.geo) == want, (kind, h.name)
                    checked += bool(want)
    assert checked >= 20


def test_levels_stop_counting_hints_that_cannot_come_first(monkeypatch, chain_kernels_loaded) -> None:
    """A level's search that stops counting a hint's chains once it cannot beat the best so far
    (and then skips its inner chains; ``chains.PRUNE``) takes the step of the search that counts
    every hint in full: the same technique, rating, eliminations, text and inner chains, on SE's
    states rated 9.0 to 10.4 at levels 1 and 2."""
    monkeypatch.setattr(nested, "NESTED_TIME_LIMIT", None)
    states = [(_state(s["candidates"]), 1 if s["rating"] < 9.5 else 2) for row in _traces().values()
              for s in row["steps"] if 9.0 <= s["rating"] <= 10.4][::12]
    assert len(states) >= 8

    def steps(prune):
        monkeypatch.setattr(chains, "PRUNE", prune)
        out = []
        for state, level in states:
            nested.clear_caches()
            step = next(nested.find_level(state, level), None)
            out.append(step and (step.technique, step.rating, step.eliminations, step.placements, step.text,
                                 step.details()))
        return out

    pruned = steps(True)
    assert pruned == steps(False)
    assert sum(step is not None for step in pruned) >= 6


def test_fewer_collections_leaves_survivors_to_the_full_collection(monkeypatch) -> None:
    """What a level leaves alive goes to the oldest generation when the last block ends, so the
    young collections do not walk it, and a full collection still frees cyclic garbage; where
    the program keeps objects frozen itself, they stay frozen, and the level's objects are left
    to the collector as before (neither frozen nor moved)."""
    import gc
    import weakref

    class Node:
        pass

    def young(obj) -> bool:
        return any(o is obj for o in gc.get_objects(generation=0) + gc.get_objects(generation=1))

    had = gc.get_freeze_count()
    gc.unfreeze()  # (a command run in this process may have frozen what it loaded)
    monkeypatch.setattr(nested, "_PROGRAM_FROZE", [False])
    try:
        with nested.fewer_collections():
            kept = [{"k": (i, [i])} for i in range(50)]
            cyclic = Node()
            cyclic.me = cyclic
            gone = weakref.ref(cyclic)
            del cyclic
        assert gc.get_freeze_count() == 0
        assert any(o is kept for o in gc.get_objects(generation=2))
        assert not young(kept)
        gc.collect()
        assert gone() is None
        gc.freeze()  # the program keeps what it has frozen
        frozen = gc.get_freeze_count()
        with nested.fewer_collections():
            more = [[2]]
        assert gc.get_freeze_count() == frozen  # (the program's frozen objects stay, the level's are not added)
        assert young(more)
    finally:
        gc.unfreeze()
        if had:
            gc.freeze()
