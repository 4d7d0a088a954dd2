"""Chains, forcing chains and aligned exclusions against Sudoku Explainer's traces.

Each regression case replays SE's own path (se_dev_steps.jsonl.gz) to the
first step SE makes with a technique, then asks our producer for its step on
that exact state: same name, rating, placement and removals. The slow tests
do the same at every such step of all 500 traces, and check that no step ever
removes a puzzle's solution.
"""

from __future__ import annotations

import os
from functools import lru_cache

import pytest

from sudokit.grid import Grid
from sudokit.logic import aligned, chains, explain, rate
from sudokit.logic.registry import REGISTRY, rating_floor
from sudokit.logic.state import Candidates

from conftest import rated_reference as reference, rated_traces as traces, se_step
from se_replay import se_walk

#: SE's step name -> our producer.
PRODUCERS = {
    "Bidirectional Y-Cycle": chains.find_forcing_chains,
    "Bidirectional Cycle": chains.find_forcing_chains,
    "Bidirectional X-Cycle": chains.find_forcing_chains,
    "Forcing Chain": chains.find_forcing_chains,
    "Forcing X-Chain": chains.find_forcing_chains,
    "Aligned Triplet Exclusion": aligned.find_aligned_triplet_exclusion,
    "Nishio Forcing Chains": chains.find_nishio,
    "Cell Forcing Chains": chains.find_multiple,
    "Region Forcing Chains": chains.find_multiple,
    "Dynamic Cell Forcing Chains": chains.find_dynamic,
    "Dynamic Region Forcing Chains": chains.find_dynamic,
    "Dynamic Contradiction Forcing Chains": chains.find_dynamic,
    "Dynamic Double Forcing Chains": chains.find_dynamic,
}


def _states(predicate):
    """``(row, SE step, state before it)`` for every SE step of the traces that ``predicate`` accepts."""
    return se_walk(traces(), predicate)


@lru_cache(maxsize=None)
def _first_uses() -> dict[tuple[str, float, bool], tuple[dict, dict, Candidates]]:
    """The first SE step of each (technique, rating, places a value)."""
    found: dict = {}
    for row, s, state in _states(lambda s: s["technique"] in PRODUCERS):
        key = (s["technique"], s["rating"], s["cell"] is not None and s["cell"] >= 0)
        found.setdefault(key, (row, s, state))
    return found


#: A regression case per kind of step: (technique, rating, places a value).
CASES = [
    ("Bidirectional Y-Cycle", 6.6, False),
    ("Bidirectional Y-Cycle", 6.9, False),
    ("Bidirectional Cycle", 7.0, False),
    ("Bidirectional Cycle", 7.2, False),
    ("Forcing Chain", 7.1, False),
    ("Forcing Chain", 7.1, True),
    ("Forcing Chain", 7.4, False),
    ("Aligned Triplet Exclusion", 7.5, False),
    ("Nishio Forcing Chains", 7.7, False),
    ("Nishio Forcing Chains", 7.9, False),
    ("Cell Forcing Chains", 8.3, False),
    ("Region Forcing Chains", 8.2, False),
    ("Region Forcing Chains", 8.6, False),
    ("Dynamic Cell Forcing Chains", 8.8, False),
    ("Dynamic Region Forcing Chains", 8.9, False),
    ("Dynamic Contradiction Forcing Chains", 8.8, False),
]


def _check(s: dict, state: Candidates) -> str | None:
    mine = next(PRODUCERS[s["technique"]](state), None)
    placements, removals = se_step(s)
    if mine is None:
        return f"no step where SE has {s['toString']}"
    got = (mine.technique, mine.rating, tuple(mine.placements), sorted(mine.eliminations))
    want = (s["technique"], s["rating"], placements, removals)
    return None if got == want else f"SE {want} ({s['toString']}), ours {got} ({mine.text})"


@pytest.mark.parametrize("technique,rating,places", CASES, ids=[f"{t} {r}{' on' if p else ''}" for t, r, p in CASES])
def test_takesse_step(technique: str, rating: float, places: bool) -> None:
    uses = _first_uses()
    if (technique, rating, places) not in uses:
        pytest.skip("SE never uses it on the reference set")
    row, s, state = uses[(technique, rating, places)]
    assert _check(s, state) is None, row["id"]


def test_length_increment_follows_se() -> None:
    # lengths (complexity - 2) up to 4 add nothing, then 0.1 past 4, 6, 8, 12, 16, 24, 32, ...
    steps = [chains.length_increment(k) for k in range(2, 40)]
    jumps = [k for k in range(3, 40) if chains.length_increment(k) > chains.length_increment(k - 1) + 1e-9]
    assert steps[0] == 0.0
    assert jumps == [7, 9, 11, 15, 19, 27, 35]


def test_aligned_pair_exclusion_silent_where_se_went_on() -> None:
    """SE never uses Aligned Pair Exclusion on the reference set, so it finds
    nothing wherever SE used a later technique."""
    later = ("UVWXYZ", "Bidirectional", "Forcing", "Nishio", "Cell F", "Region F", "Dynamic")
    checked = 0
    for _, s, state in _states(lambda s: s["technique"].startswith(later)):
        assert next(aligned.find_aligned_pair_exclusion(state), None) is None
        checked += 1
        if checked >= 60:
            break
    assert checked == 60


def test_registry_has_se_chaining_order() -> None:
    names = [t.name for t in REGISTRY]
    order = ["VWXYZ-Wing", "Aligned Pair Exclusion", "UVWXYZ-Wing", "Forcing Chains & Cycles", "TUVWXYZ-Wing",
             "Aligned Triplet Exclusion", "Nishio Forcing Chains", "Multiple Forcing Chains", "Dynamic Forcing Chains",
             "Dynamic Forcing Chains (+)", "Nested Forcing Chains"]
    assert [names.index(n) for n in order] == sorted(names.index(n) for n in order)
    # every SE technique is registered: only SE's "Beyond solver" (20.0) is left above
    assert rating_floor() == 20.0


def test_rate_is_exact_with_chains() -> None:
    # one puzzle each whose SE rating comes from a forcing chain, a Nishio and a dynamic chain
    wanted = {"Forcing Chain", "Nishio Forcing Chains", "Dynamic Region Forcing Chains"}
    seen = set()
    for row in reference():
        t = row["er_technique"]
        if t in wanted and t not in seen and float(row["er"]) < 9.0:
            seen.add(t)
            r = rate(row["puzzle"])
            assert (r.er, r.ep, r.ed) == (float(row["er"]), float(row["ep"]), float(row["ed"])), row["id"]
            assert not r.lower_bound
    assert seen == wanted


def test_chain_steps_keep_the_solution_sample() -> None:
    _sound(traces()[::25])


@pytest.mark.slow
def test_chain_steps_keep_the_solution_everywhere() -> None:
    _sound(traces())


def _sound(rows) -> None:
    """Run our own path with every technique; no step may remove the solution."""
    from sudokit.logic.stepper import steps

    for row in rows:
        solution = [int(ch) for ch in row["solution"]] if row.get("solution") else None
        if solution is None:
            continue
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for step in steps(state):
            for cell, value in step.eliminations:
                assert solution[cell] != value, (row["id"], step.text)
            for cell, value in step.placements:
                assert solution[cell] == value, (row["id"], step.text)


@pytest.mark.slow
def test_every_se_chain_step_agrees() -> None:
    failures = [f"{row['id']}: {msg}" for row, s, state in _states(lambda s: s["technique"] in PRODUCERS)
                if (msg := _check(s, state)) is not None]
    assert not failures, failures[:10]


def test_a_chain_search_out_of_time_gives_a_lower_bound(monkeypatch) -> None:
    row = next(row for row in reference() if row["er_technique"] == "Forcing Chain")
    monkeypatch.setattr(chains, "CHAIN_TIME_LIMIT", 0.0)
    r = rate(row["puzzle"])
    assert r.lower_bound
    assert chains.FORCING_CHAINS.rating <= r.er <= float(row["er"])


def test_the_puzzle_time_limit_is_the_callers() -> None:
    row = next(row for row in reference() if row["er_technique"] == "Forcing Chain")
    r = rate(row["puzzle"], timeout=1e-6)
    assert r.lower_bound
    assert chains.FORCING_CHAINS.rating <= r.er <= float(row["er"])
    assert not rate(row["puzzle"], timeout=None).lower_bound
    last = explain(row["puzzle"], timeout=1e-6)[-1]  # cut by the budget: said so, with the bound
    assert last.technique == "Time limit" and last.lower_bound and last.rating <= float(row["er"])


def test_compiled_searches_give_the_python_steps(monkeypatch) -> None:
    """The compiled searches and propagation (chain_kernels) find the same
    chains as the Python ones: the same step, text and links, on a state of
    every regression case and for every chain producer."""
    pytest.importorskip("numba")
    from sudokit.logic import chain_kernels

    producers = [chains.find_forcing_chains, chains.find_nishio, chains.find_multiple, chains.find_dynamic]
    states = [state for _, _, state in _first_uses().values()][::2]
    assert states

    def steps(kernels):
        monkeypatch.setattr(chains, "_KERNELS", kernels)
        out = []
        for state in states:
            for find in producers:
                step = next(find(state.copy()), None)
                out.append(step and (step.technique, step.rating, step.placements, step.eliminations, step.text,
                                     step.links))
        return out

    assert steps(chain_kernels) == steps(False)


def test_whole_rule_kernels_give_the_searches_steps(monkeypatch, chain_kernels_loaded) -> None:
    """Forcing Chains & Cycles, Multiple and Dynamic Forcing Chains asked of the
    nested levels' compiled rules (every chain at once, sorted as SE sorts
    them; ``chains.COMPILED_CYCLES``), and Nishio Forcing Chains told which
    cells to search, give the step of the searches one
    candidate at a time (the pruned ones, whose steps the test above holds to
    the Python searches): the same step, text and links, on SE's states from
    6.6 up."""
    pytest.importorskip("numba")
    from sudokit.logic import chain_kernels, nested, nested_kernels

    monkeypatch.setattr(chains, "_KERNELS", chain_kernels)
    monkeypatch.setattr(nested, "_NK", nested_kernels)
    producers = [chains.find_forcing_chains, chains.find_nishio, chains.find_multiple, chains.find_dynamic]
    states = [state for _, _, state in _states(lambda s: s["rating"] >= 6.6)][::7]
    assert len(states) > 40

    def steps(whole):
        monkeypatch.setattr(chains, "COMPILED_CYCLES", whole)
        out = []
        for state in states:
            for find in producers:
                step = next(find(state.copy()), None)
                out.append(step and (step.technique, step.rating, step.placements, step.eliminations, step.text,
                                     step.links))
        return out

    whole = steps(True)
    assert whole == steps(False)
    assert sum(step is not None for step in whole) > 40


def test_compiled_aligned_exclusion_gives_the_python_steps() -> None:
    """The compiled aligned exclusions (logic_kernels.aligned_next) yield the
    same steps, in the same order, as the Python search, on SE's states from
    6.2 up, pairs and triplets."""
    pytest.importorskip("numba")
    states = [state for _, _, state in _states(lambda s: s["rating"] >= 6.2)][::5]
    assert len(states) > 150
    tables = aligned.compiled_tables(states[0].geo)
    count = 0
    for state in states:
        for degree in (2, 3):
            python = list(aligned._find_python(state, degree))
            assert list(aligned.find_compiled(state, degree, tables)) == python
            count += len(python)
    assert count > 30  # states where a set removes something


def test_counting_static_chains_by_depth_gives_the_same_steps(monkeypatch) -> None:
    """Multiple Forcing Chains count a static chain by its depth, and they and
    the Nishio and dynamic chains stop counting one that cannot beat the best
    (chains.PRUNE): the same steps as counting every chain in full, on SE's
    states from 7.5 up."""
    states = [state for _, _, state in _states(lambda s: s["rating"] >= 7.5)][::4]
    assert len(states) > 90

    def found(prune: bool) -> list:
        monkeypatch.setattr(chains, "PRUNE", prune)
        return [[(s.technique, s.rating, s.placements, s.eliminations, s.text, s.links)
                 for s in find(state.copy())] for state in states
                for find in (chains.find_nishio, chains.find_multiple, chains.find_dynamic)]

    full = found(False)
    assert sum(map(bool, full)) > 150
    assert found(True) == full


def test_the_cycles_warm_up_compiles_the_easiest_cycle_search(tmp_path) -> None:
    """``warm-up`` of the ``cycles`` group (as a background helper and the kernel store's build
    run it) leaves the easiest-cycle search in numba's cache: a later process finds it there."""
    pytest.importorskip("numba")
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), SUDOKIT_KERNEL_STORE="off")
    entry = "logic.cycle_kernels.easiest_cycle"
    check = ("from sudokit.engine.compiling import load_numba, is_cached\nload_numba()\n"
             f"import sudokit.logic.kernel_groups\nprint(is_cached({entry!r}))")
    before = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True, text=True, check=True)
    assert before.stdout.split() == ["False"]
    subprocess.run([sys.executable, "-c", "import sudokit.logic.kernel_groups\n"
                    "from sudokit.engine.compiling import warm_up\nwarm_up(kernels=('cycles',))"],
                   env=env, check=True, timeout=600)
    after = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True, text=True, check=True)
    assert after.stdout.split() == ["True"], after.stderr


def test_easiest_cycle_is_the_first_of_every_chain() -> None:
    """The bounded search of the first chaining tier's step (cycle_kernels.easiest_cycle)
    gives the very step that sorting every chain of nested_kernels.cycles_rule puts first
    (name, rating, removals, text), or none where that finds none, on SE's states from 6.2
    up (every 3rd traced puzzle)."""
    pytest.importorskip("numba")
    from sudokit import engine
    from sudokit.logic import kernel_groups, nested
    from se_replay import se_states

    kernel_groups.warm_nested()
    kernel_groups.warm_cycles()
    engine._loaded.update(("nested", "cycles"))
    states = se_states(traces()[::3], 6.2)
    assert len(states) > 100
    steps = 0
    for state in states:
        kept = nested._compiled_cycles(chains.Chainer(state, None), 1)
        assert kept is not None
        want = kept[0].step() if kept else ()
        assert chains._easiest_cycle(chains.Chainer(state, None)) == want, state.mask
        steps += bool(want)
    assert steps > 50, steps


@pytest.mark.parametrize("size", [6, 12, 16])
def test_easiest_cycle_is_the_first_of_every_chain_past_9x9(size) -> None:
    """The same as the first chaining tier's step on SE's states, on random sparse candidate
    states of 6x6, 12x12 and 16x16 grids (one kernel's work arrays serve every call of a size;
    such states all hold a chain, SE's states above hold the states that hold none)."""
    pytest.importorskip("numba")
    from sudokit import engine
    from sudokit.logic import kernel_groups, nested
    from sparse_states import sparse_states

    kernel_groups.warm_nested()
    kernel_groups.warm_cycles()
    engine._loaded.update(("nested", "cycles"))
    steps = 0
    for placed in (0.3, 0.9):
        for state in sparse_states(size, 8, size, few=0.5, pool=max(3, size // 2), sizes=(2, 2, 3), placed=placed,
                                   many=max(2, size // 3)):
            kept = nested._compiled_cycles(chains.Chainer(state, None), 1)
            assert kept is not None
            want = kept[0].step() if kept else ()
            assert chains._easiest_cycle(chains.Chainer(state, None)) == want, state.mask
            steps += bool(want)
    assert steps >= 4, steps


def test_first_multiple_hint_alone_is_the_first_of_every_hint() -> None:
    """Multiple and Dynamic Forcing Chains' kernel asked for its first hint alone
    (nested_kernels.multiple_rule with ``lead``, as the band's rule asks) gives the hint that
    sorting every hint puts first (rating, complexity, kind, removals, text, order found), and
    counts the same work, on SE's states from 6.2 up (every 3rd traced puzzle)."""
    pytest.importorskip("numba")
    from sudokit import engine
    from sudokit.logic import kernel_groups, nested
    from se_replay import se_states

    kernel_groups.warm_nested()
    engine._loaded.add("nested")
    states = se_states(traces()[::3], 6.2)
    assert len(states) > 100

    def first(state, dynamic, most):
        before = chains._BUDGET.work_done
        got = nested._compiled_multiple(state, dynamic, None, most)
        assert got is not None
        work = chains._BUDGET.work_done - before
        return work, [(h.difficulty, h.complexity, h.key, tuple(h.removals), h.text, h.order) for h in got[:1]]

    found = 0
    for state in states:
        for dynamic in (False, True):
            want = first(state, dynamic, None)
            assert first(state, dynamic, 1) == want, (state.mask, dynamic)
            found += bool(want[1])
    assert found > 50, found


def test_values_remembered_along_a_path_give_the_same_steps(monkeypatch, chain_kernels_loaded) -> None:
    """Forcing Chains & Cycles (its x-link pass) and Nishio Forcing Chains remember per value
    and its places what their x-link searches found (``links._BY_VALUE``), and search again only
    the values whose places changed. Along rating paths of the chain band, where most values
    keep their places from one step to the next, each state's step with that memory is the step
    found afresh (the memory cleared), and the memory does skip values."""
    pytest.importorskip("numba")
    from sudokit import engine
    from sudokit.logic import cycle_kernels, kernel_groups, links, nested_kernels, stepper

    kernel_groups.warm_cycles()
    engine._loaded.update(("nested", "cycles"))
    skipped = {"x": 0, "nishio": 0}
    full = sum(1 << v for v in range(1, 10))
    easiest, nishio = cycle_kernels.easiest_cycle, nested_kernels.nishio_rule

    def easiest_counted(*args):
        skipped["x"] += args[5] != full
        return easiest(*args)

    def nishio_counted(*args):
        skipped["nishio"] += args[-1] != full
        return nishio(*args)

    monkeypatch.setattr(cycle_kernels, "easiest_cycle", easiest_counted)
    monkeypatch.setattr(nested_kernels, "nishio_rule", nishio_counted)
    rows = [r for r in reference() if 7.0 <= float(r["er"]) <= 9.0][::6]
    assert len(rows) >= 8
    compared = found = 0
    for row in rows:
        links.clear_caches()
        state = Candidates.from_grid(Grid(row["puzzle"]))
        for _ in stepper.steps(state, [t for t in REGISTRY if t.rating <= rating_floor()]):
            if state.solved:
                break
            for find in (chains.find_forcing_chains, chains.find_nishio):
                kept = next(find(state.copy()), None)
                memory = dict(links._BY_VALUE)
                links._BY_VALUE.clear()
                fresh = next(find(state.copy()), None)
                links._BY_VALUE.clear()
                links._BY_VALUE.update(memory)
                assert (kept and (kept.technique, kept.rating, kept.eliminations, kept.placements, kept.text)) == \
                    (fresh and (fresh.technique, fresh.rating, fresh.eliminations, fresh.placements, fresh.text))
                compared += 1
                found += kept is not None
    assert compared > 100 and found > 20, (compared, found)
    assert skipped["x"] > 20 and skipped["nishio"] > 20, skipped


def test_chain_steps_made_later_are_the_steps_made_at_once(monkeypatch) -> None:
    """A chain step's text and links are made when first read (chains.ChainStep). Read after
    the step has changed the state, they are those made at once, before (the eager step of
    the same hint); the step equals, hashes and pickles as that plain Step."""
    import pickle

    from sudokit.logic.step import Step

    producers = [chains.find_forcing_chains, chains.find_nishio, chains.find_multiple, chains.find_dynamic]
    states = [state for _, _, state in _states(lambda s: s["rating"] >= 6.6)][::9]
    assert len(states) > 30
    later = chains.Hint.step

    def at_once(self):
        step = later(self)
        return step._plain() if isinstance(step, chains.ChainStep) else step

    made = 0
    for state in states:
        for find in producers:
            monkeypatch.setattr(chains.Hint, "step", at_once)
            want = next(find(state.copy()), None)
            monkeypatch.setattr(chains.Hint, "step", later)
            mine = state.copy()
            got = next(find(mine), None)
            if want is None:
                assert got is None
                continue
            made += isinstance(got, chains.ChainStep)
            got.apply(mine)  # (the state the hint was found on changes before the text is read)
            assert type(want) is Step or not isinstance(want, chains.ChainStep)
            assert (got.text, got.links, got.link_kinds) == (want.text, want.links, want.link_kinds)
            assert got.text.startswith(got.technique.split(" (")[0])
            assert got == want and want == got and hash(got) == hash(want)
            back = pickle.loads(pickle.dumps(got))
            assert type(back) is Step and back == want
    assert made > 30, made


def test_nishio_on_bitboards_gives_the_propagations_contradictions(chain_kernels_loaded) -> None:
    """Which assumptions of Nishio Forcing Chains contradict themselves, decided per value on
    bitboards (nested_kernels.nishio_rule), is what the dynamic x-link propagation of
    chain_kernels.run finds from each, on and off, on SE's states from 7.0 up."""
    import numpy as np

    from sudokit.logic import chain_kernels, nested_kernels

    states = [state for _, _, state in _states(lambda s: s["rating"] >= 7.0)][::4]
    assert len(states) > 40
    full = sum(1 << v for v in range(1, 10))
    contradictions = 0
    for state in states:
        ch = chains.Chainer(state, None)
        _, arr, peers, units, w = ch._kernel(state.mask)
        out = np.zeros(len(arr) << 5, dtype=np.int64)
        props, w["stamp"] = nested_kernels.nishio_rule(arr, peers, units, w["masks"], *w["prop"], w["stamp"],
                                                       w["one"], out, full)
        want = {}
        for cell, m in enumerate(state.mask):
            if m & (m - 1):
                for v in range(1, 10):
                    if m >> (v - 1) & 1:
                        on = (cell << 6) | (v << 1) | 1
                        want[cell, v] = sum(1 << k for k, start in enumerate((on, on ^ 1))
                                            if chain_kernels.propagate(arr, peers, units, [start], False, True, w)[1])
        assert {key: int(out[(key[0] << 5) | key[1]]) for key in want} == want
        assert props == 2 * len(want)
        contradictions += sum(map(bool, want.values()))
    assert contradictions > 60, contradictions


def test_propagation_on_bitboards_makes_the_graph_of_the_cell_loop(chain_kernels_loaded) -> None:
    """Op 3 of chain_kernels.run on bitboards (a grid of up to 128 cells, its tables in the work
    array ``flags``) makes the very graph of the loop over the cells (the same call with a
    ``flags`` too small for the tables): the same potentials in the same order, the same
    parents and the same contradiction, from every candidate on and off, static and dynamic,
    with and without y-links, on SE's states from 7.5 up."""
    import numpy as np

    from sudokit.logic import chain_kernels

    states = [state for _, _, state in _states(lambda s: s["rating"] >= 7.5)][::12]
    assert len(states) > 20
    contradictions = 0
    for state in states:
        ch = chains.Chainer(state, None)
        _, arr, peers, units, w = ch._kernel(state.mask)
        mark, pnodes, parents, found, buf, index, pstart, pflat, pfirst, qon, qoff, flags = w["prop"]
        small = np.zeros(len(arr) << 5, dtype=np.int64)
        for cell, m in enumerate(state.mask):
            for v in range(1, 10):
                if not m >> (v - 1) & 1 or not m & (m - 1):
                    continue
                for start in ((cell << 6) | (v << 1) | 1, (cell << 6) | (v << 1)):
                    for y in (True, False):
                        for dynamic in (True, False):
                            made = []
                            for out in (flags, small):
                                w["stamp"] += 1
                                r = chain_kernels.run(3, arr, w["masks"], peers, units, 0, np.array([start]), y, True,
                                                      dynamic, 1 << 30, mark, pnodes, parents, found, buf, index,
                                                      pstart, pflat, pfirst, qon, qoff, w["stamp"], out)
                                count = r[0] + (r[1] == 2)
                                made.append((r, pnodes[:count].tolist(), pstart[:count + 1].tolist(),
                                             pflat[:pstart[count]].tolist(), pfirst[:r[0]].tolist()))
                            assert made[0] == made[1]
                            contradictions += made[0][0][1] != 0
    assert contradictions > 500, contradictions
