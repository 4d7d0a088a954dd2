"""The compiled generator on variants: X, hyper and jigsaw puzzles are unique
under their own units (the independent solver of tests/reference_variants.py
says so), minimal for their rule (each clue needed: a search finds a second
solution without it, or the clauses method's singles get stuck), the same for
a seed whichever way they are made, and their records say their units."""

from __future__ import annotations

import pytest

import reference_variants as ref
from sudokit import variants
from sudokit.errors import SudokuError
from sudokit.generation import GenerationError, generate_many
from sudokit.generation.minimising import make_batch, make_one
from sudokit.generation.plan import make_plan
from sudokit.records import generated_record
from sudokit.solving import count, deduce

JIGSAW6 = "111222311222331444333444555666555666"
JIGSAW9 = "111222333111222333114222333144555666444556666444555566777888999777888999777888999"

CASES = {
    "x 6x6": dict(shape="2x3", variant="x"),
    "x 9x9": dict(shape="3x3", variant="x"),
    "hyper 9x9": dict(shape="3x3", variant="hyper"),
    "jigsaw 6x6": dict(shape=None, regions=JIGSAW6),
    "jigsaw 9x9": dict(shape=None, regions=JIGSAW9),
    "jigsaw-x 9x9": dict(shape=None, variant="x", regions=JIGSAW9),
}


def _geometry(case: dict):
    return variants.of(case["shape"], case.get("variant") or "", regions=case.get("regions"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_unique_puzzles_are_unique_and_minimal_under_their_units(name: str) -> None:
    case = CASES[name]
    geo = _geometry(case)
    units = [list(u) for u in geo.units]
    n = geo.n
    made = list(generate_many(3, seed=11, **case))
    for p in made:
        assert p.puzzle.geometry == geo and p.solution.geometry == geo
        assert ref.obeys(p.solution.values, n, units)
        if n <= 6:  # the reference is plain backtracking: every question on 6x6
            assert ref.count(n, units, list(p.puzzle.values), limit=2) == (1, list(p.solution.values))
        else:
            assert ref.count(n, units, list(p.puzzle.values), limit=1) == (1, list(p.solution.values))
            assert count(p.puzzle, limit=2, method="dfs").count == 1
        for cell in p.puzzle.givens:  # minimal: without any clue, a second solution
            less = p.puzzle.with_cell(cell, 0)
            if n <= 6:
                assert ref.count(n, units, list(less.values), limit=2)[0] == 2, (name, cell)
            else:
                assert count(less, limit=2, method="preemptive").count == 2, (name, cell)
        record = generated_record(p)
        assert record["variant"] == variants.describe(geo)
        assert record.get("regions") == (variants.layout(geo) if "jigsaw" in record["variant"] else None)


@pytest.mark.parametrize("name", ["x 9x9", "hyper 9x9", "jigsaw 9x9"])
def test_logic_puzzles_fall_to_singles_under_their_units_and_need_every_clue(name: str) -> None:
    """The generator's singles verdict on a variant's units against the clauses method's."""
    case = CASES[name]
    for p in generate_many(2, seed=5, minimal="logic", **case):
        assert deduce(p.puzzle, method="clauses").status.value == "solved"
        for cell in p.puzzle.givens:
            assert deduce(p.puzzle.with_cell(cell, 0), method="clauses").status.value == "stuck", (name, cell)


@pytest.mark.parametrize("name", ["x 9x9", "jigsaw 6x6"])
def test_a_seed_gives_one_puzzle_whichever_way_it_is_made(name: str) -> None:
    case = CASES[name]
    plan = make_plan(case["shape"], "unique", "rotate180", None, case.get("variant"), case.get("regions"))
    batch = make_batch(plan, [21, 22])
    assert [make_one(plan, 21).puzzle, make_one(plan, 22).puzzle] == [p.puzzle for p in batch]
    assert [p.puzzle for p in generate_many(2, seed=21, symmetry="rotate180", **case)] == [p.puzzle for p in batch]


def test_what_variants_cannot_do_yet_is_refused_by_name() -> None:
    with pytest.raises(GenerationError, match="filters need the logic"):
        next(generate_many(1, variant="x", difficulty="easy"))
    with pytest.raises(GenerationError, match="killer puzzles have their own generator"):
        make_plan("3x3", "unique", "none", None, "killer")
    with pytest.raises(GenerationError, match="clauses generator makes classic puzzles"):
        next(generate_many(1, variant="x", minimal="logic", method="clauses"))
    with pytest.raises(SudokuError, match="jigsaw needs its regions"):
        next(generate_many(1, variant="jigsaw"))


def test_random_jigsaw_layouts_are_drawn_from_the_seed_and_have_puzzles() -> None:
    """regions="random": each seed draws its own layout (valid by the
    reference's check, not the boxes), which the record carries; the puzzle is
    unique under it (the reference solver) and the seed remakes both."""
    made = list(generate_many(6, shape="2x3", seed=40, regions="random"))
    layouts = [generated_record(p)["regions"] for p in made]
    assert len(set(layouts)) == len(layouts)
    for p, layout in zip(made, layouts):
        assert ref.layout_ok(layout, 6)
        assert layout != variants.layout(variants.Geometry.of(p.puzzle.shape))
        units = ref.rows(6) + ref.columns(6) + ref.regions_of(layout)
        assert ref.count(6, units, list(p.puzzle.values), limit=2) == (1, list(p.solution.values))
    again = list(generate_many(2, shape="2x3", seed=42, regions="random"))
    assert [p.puzzle for p in again] == [p.puzzle for p in made[2:4]]
    plan = make_plan("2x3", "unique", "none", None, None, "random")
    assert make_one(plan, 41).puzzle == made[1].puzzle


@pytest.mark.parametrize("name", ["classic 9x9", "x 9x9", "hyper 9x9", "jigsaw-x 9x9"])
def test_the_counting_verdicts_and_their_stand_in_make_the_same_puzzles(name: str, monkeypatch) -> None:
    """A 9x9 puzzle's verdict counts to 2 on the 9x9 solver (COUNT9), or on
    the one over any units for a variant (COUNT9U); a first run, while those
    compile in the background, asks the general search instead (OTHER, one
    search per clue for a solution without it). They must take the very
    same clues away."""
    import importlib

    from sudokit.engine import generate as kernels

    compiling = importlib.import_module("sudokit.engine.compiling")  # the module, not the function
    case = CASES.get(name, dict(shape="3x3"))
    plan = make_plan(case["shape"], "unique", "none", None, case.get("variant"), case.get("regions"))
    code = kernels.verdict_of(kernels.RULE_UNIQUE, 3, 3, plan.geometry)
    assert code == (kernels.COUNT9 if name == "classic 9x9" else kernels.COUNT9U)
    compiling.warm_up(kernels=kernels._INSTEAD[code][1])  # the counting verdict itself, here
    monkeypatch.setattr(kernels, "_instead", set())
    monkeypatch.setattr(kernels, "_ready", {code})
    counted = [p.puzzle for p in make_batch(plan, [3, 4, 5])]
    assert kernels._in_use(code) == code and (code, True) in kernels._loaded
    # as on a first run: the stand-in while the background compilation goes on
    monkeypatch.setattr(kernels, "_instead", {code})
    monkeypatch.setattr(kernels, "_ready", set())
    monkeypatch.setattr(compiling, "background_ready", lambda groups: False)
    monkeypatch.setattr(compiling, "compile_in_background", lambda groups: True)
    assert [p.puzzle for p in make_batch(plan, [3, 4, 5])] == counted
    assert kernels._in_use(code) == kernels.OTHER and (kernels.OTHER, True) in kernels._loaded
