"""The logic on killers: the candidate state keeps cages, the killer techniques
(:mod:`sudokit.logic.cages`) and ``rate`` / ``explain`` / ``hint`` with cages.

Soundness is held two ways. On small killers (4x4, a few hundred solutions at
most) every solution is enumerated by the independent reference solver
(``tests/reference_variants.py``), and every elimination of every step of the
ladder must remove a digit no solution has there, every placement one all have;
each killer technique must fire on that sample. On generated 9x9 and 6x6
killers and the published ones, ``rate`` and ``explain`` check every step
against the one solution the engine finds (an :class:`UnsoundStep` fails the
test). Each technique also has a small case worked out by hand.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import reference_variants as ref
from sudokit import variants
from sudokit.errors import InvalidPuzzle, UnsoundStep
from sudokit.generation.killer import draw_cages, generate_killer
from sudokit.geometry import Geometry, Shape
from sudokit.grid import Grid
from sudokit.killer import Cage
from sudokit.logic import cages, explain, hint, rate, registry
from sudokit.logic.generalized import ladder
from sudokit.logic.state import Candidates
from sudokit.logic.stepper import steps

PUBLISHED = Path(__file__).parent.parent / "data" / "published_killers.jsonl"
NINE, FOUR = Shape(3, 3), Shape(2, 2)


def _published() -> list[tuple[Grid, str]]:
    out = []
    for line in PUBLISHED.read_text().splitlines():
        record = json.loads(line)
        out.append((Grid(record["puzzle"]).with_geometry(variants.from_fields(NINE, record)), record["solution"]))
    return out


def _state(shape: Shape, cage_list, marks: dict | None = None, givens=None) -> Candidates:
    geo = Geometry.of(shape).with_cages(cage_list)
    grid = Grid(givens or (0,) * shape.cell_count, shape).with_geometry(geo)
    state = Candidates.from_grid(grid)
    for cell, values in (marks or {}).items():
        keep = sum(1 << (v - 1) for v in values)
        state.mask[cell] &= keep
    return state


def _cell(name: str, n: int = 9) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * n + int(c) - 1


def _pairs(text: str, n: int = 9) -> set[tuple[int, int]]:
    """``r1c2<>1,2 r3c4<>5`` as (cell, value) pairs."""
    out = set()
    for part in text.split():
        cell, values = part.split("<>")
        out |= {(_cell(cell, n), int(v)) for v in values.split(",")}
    return out


# -- the state -------------------------------------------------------------------------------


def test_the_state_starts_from_the_cage_sums() -> None:
    state = _state(NINE, [Cage((0, 1), 3), Cage((2, 3, 4), 24), Cage((9, 10), 10)])
    assert state.values_of(0) == [1, 2] and state.values_of(2) == [7, 8, 9]
    assert state.values_of(9) == [1, 2, 3, 4, 6, 7, 8, 9]  # 10 in two cells: never 5
    assert state.values_of(40) == list(range(1, 10))  # in no cage
    state.place(0, 1)  # a placed digit leaves its cage as it leaves its row
    assert state.values_of(1) == [2] and not state.mask[9] & 1


def test_a_placed_digit_narrows_the_rest_of_its_cage() -> None:
    geo = Geometry.of(NINE).with_cages([Cage((0, 1, 2), 10)])
    grid = Grid("9" + "." * 80).with_geometry(geo)
    state = Candidates.from_grid(grid)
    assert state.values_of(1) == []  # 9 leaves 1 for two different digits: impossible
    grid = Grid("6" + "." * 80).with_geometry(geo)
    assert Candidates.from_grid(grid).values_of(1) == [1, 3]  # 4 = 1+3


def test_givens_that_break_a_cage_are_refused() -> None:
    geo = Geometry.of(NINE).with_cages([Cage((0, 1), 5)])
    with pytest.raises(InvalidPuzzle, match="cage 1"):
        Candidates.from_grid(Grid("22" + "." * 79).with_geometry(geo))
    with pytest.raises(InvalidPuzzle, match="does not add up"):
        Candidates.from_grid(Grid("13" + "." * 79).with_geometry(geo))


# -- each technique on a case worked out by hand -------------------------------------------


def test_cage_combinations_by_hand() -> None:
    # r1c1+r1c2 = 10 with r1c1 in {1,2,3}: r1c2 is 9, 8 or 7
    state = _state(NINE, [Cage((0, 1), 10)], {0: (1, 2, 3)})
    step = next(cages.find_cage_combinations(state))
    assert set(step.eliminations) == _pairs("r1c2<>1,2,3,4,6")
    assert step.text.startswith("Cage Combinations: cage r1c1+r1c2=10: {1,9} {2,8} {3,7}")
    # 6 in three cells is {1,2,3}; two cells hold {1,2} only, so the third is 3
    state = _state(NINE, [Cage((0, 1, 2), 6)], {0: (1, 2), 1: (1, 2)})
    assert set(next(cages.find_cage_combinations(state)).eliminations) == _pairs("r1c3<>1,2")


def test_45_rule_innies_and_outies_by_hand() -> None:
    # 4x4, row 1 adds up to 10: the cage r1c1+r1c2=3 inside leaves r1c3+r1c4 = 7, where r1c3 is
    # 1 or 3 (its cage 4 = 1+3) and r1c4 2 or 4 (6 = 2+4): only 3+4
    state = _state(FOUR, [Cage((0, 1), 3), Cage((2, 6), 4), Cage((3, 7), 6)])
    step = next(cages.RULE_45[1, False].find(state))
    assert set(step.eliminations) == _pairs("r1c3<>1 r1c4<>2", 4)
    assert "innies r1c3+r1c4 = 10 - 3 (cages inside) = 7 ({3,4})" in step.text
    # a cage of three cells inside row 1 makes 6: the last cell is 4
    state = _state(FOUR, [Cage((0, 1, 2), 6)])
    step = next(cages.RULE_45[1, False].find(state))
    assert step.placements == ((3, 4),) and "innies r1c4 = 10 - 6 (cages inside) = 4" in step.text
    # row 1 all caged, 3 + (r1c3+r1c4+r2c4 = 9) = 12: the outie r2c4 is 2
    state = _state(FOUR, [Cage((0, 1), 3), Cage((2, 3, 7), 9)])
    placed = [s for s in cages.RULE_45[1, False].find(state) if s.placements]
    assert placed[0].placements == ((7, 2),) and "outies r2c4 = 12 (cages over it) - 10 = 2" in placed[0].text


def test_45_rule_innies_less_outies_by_hand() -> None:
    # 4x4 row 1: r1c1 is 4; r1c2+r1c3+r2c3 = 8 crosses it with two cells inside, one out; so
    # r1c4 + (8 - r2c3) = 10 - 4, r1c4 - r2c3 = -2, with r1c4 in 1..3 and r2c3 in {1,3,4}
    state = _state(FOUR, [Cage((1, 2, 6), 8)], givens=(4,) + (0,) * 15)
    steps_ = list(cages.RULE_45[1, True].find(state))
    row = [s for s in steps_ if "row 1" in s.text]
    assert row and "r1c4-r2c3 = 10 - 8 (cages traded) - 4 (placed) = -2" in row[0].text
    assert set(row[0].eliminations) == _pairs("r1c4<>3 r2c3<>1", 4)  # r1c4, r2c3 share box 2: 1,3 or 2,4


def test_cage_pointing_by_hand() -> None:
    # r1c1+r2c1 = 3 is {1,2}: both digits lie in column 1 and box 1, and leave their other cells
    state = _state(FOUR, [Cage((0, 4), 3)])
    found = list(cages.find_cage_pointing(state))
    assert set(found[0].eliminations) == {(1, 1), (5, 1), (8, 1), (12, 1)}
    assert set(found[1].eliminations) == {(1, 2), (5, 2), (8, 2), (12, 2)}
    assert "holds 1, which it can place only in r1c1,r2c1 (column 1)" in found[0].text


def test_cage_claiming_by_hand() -> None:
    # r1c1+r1c2 = 5 is {1,4} or {2,3}; 4 in row 1 only there: the cage holds 4, so {1,4}
    state = _state(FOUR, [Cage((0, 1), 5)], {2: (1, 2, 3), 3: (1, 2, 3)})
    step = next(cages.find_cage_claiming(state))
    assert set(step.eliminations) == _pairs("r1c1<>2,3 r1c2<>2,3", 4)
    assert "4 in row 1 lies only in cage r1c1+r1c2=5" in step.text


def test_combination_clash_by_hand() -> None:
    # row 1: r1c3+r1c4 = 3 is {1,2}; r1c1+r1c2 = 10 cannot be {1,9} or {2,8} beside it, and the
    # rest of the row (r1c5..r1c9 = 32) cannot hold 1 or 2
    state = _state(NINE, [Cage((0, 1), 10), Cage((2, 3), 3)])
    step = next(cages.find_combination_clash(state))
    expected = _pairs("r1c1<>1,2,8,9 r1c2<>1,2,8,9") | {(c, v) for c in range(4, 9) for v in (1, 2)}
    assert set(step.eliminations) == expected
    assert step.units == (0,)


def test_sum_helpers() -> None:
    possible, support = cages.distinct_support([0b111, 0b011], 4, 3)
    assert possible == [0b101] and support == [0b100, 0b001]
    assert cages.distinct_support([0b1, 0b1], 3, 3) == ([], [0, 0])
    # a + b = 4 with a, b in 1..3 that may repeat: (1,3), (2,2), (3,1)
    assert cages.loose_support([0b111, 0b111], 4, [0, 0]) == [0b111, 0b111]
    assert cages.loose_support([0b111, 0b111], 4, [0b10, 0b01]) == [0b101, 0b101]


# -- every step against every solution, on small killers -----------------------------------


def _small_killers(count: int, seed: int = 1):
    """4x4 killers with several solutions (cages drawn on a random solution, some left out, some
    totals dropped, a few givens): ``(grid, solutions)``."""
    n = 4
    units = ref.rows(n) + ref.columns(n) + ref.boxes(2, 2)
    every = ref.solutions(n, units, [0] * 16, limit=1000)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        solution = rng.choice(every)
        groups = draw_cages(solution, n, rng, (2, 3))
        rng.shuffle(groups)
        kept = groups[: max(1, len(groups) - rng.randint(0, 2))]
        cage_list = [Cage(tuple(g), None if rng.random() < 0.1 else sum(solution[c] for c in g)) for g in kept]
        givens = [solution[c] if rng.random() < 0.1 else 0 for c in range(16)]
        grid = Grid(givens, FOUR).with_geometry(Geometry.of(FOUR).with_cages(cage_list))
        found = ref.solutions(n, units, givens, [(c.cells, c.total) for c in cage_list], limit=1000)
        out.append((grid, found))
    return out


def _agrees(step, solutions, where) -> None:
    for cell, value in step.eliminations:
        assert all(s[cell] != value for s in solutions), (where, step.text)
    for cell, value in step.placements:
        assert all(s[cell] == value for s in solutions), (where, step.text)


@pytest.mark.parametrize("count, seed", [(150, 1), pytest.param(1000, 5, marks=pytest.mark.slow)])
def test_every_step_agrees_with_every_solution_on_small_killers(count: int, seed: int) -> None:
    """The ladder's path on each small killer, and at every state on it every step each killer
    technique finds (not only the one the ladder takes), held to all the killer's solutions."""
    taken: dict[str, int] = {}
    found: dict[tuple[str, str], int] = {}
    for grid, solutions in _small_killers(count, seed):
        state = Candidates.from_grid(grid)
        for cell in range(16):  # the state keeps every solution's digits
            for s in solutions:
                assert state.values[cell] == s[cell] or state.mask[cell] >> (s[cell] - 1) & 1
        where = grid.geometry.cages
        for step in steps(state):
            taken[step.technique] = taken.get(step.technique, 0) + 1
            _agrees(step, solutions, where)
            for technique in cages.TECHNIQUES:
                for other in technique.find(state):
                    text = other.text
                    kind = ("innies less outies" if "innies less outies" in text else "outies" if "outies" in text
                            else "innies") if technique.name == "45 Rule" else ""
                    key = (technique.label, kind)
                    found[key] = found.get(key, 0) + 1
                    _agrees(other, solutions, where)
    for name in ("Cage Combinations", "45 Rule"):
        assert taken.get(name, 0) > 0, (name, taken)
    labels = {label for label, _ in found}
    four = cages.RULE_45[4, False].label, cages.RULE_45[4, True].label  # a 4x4 has no run of four lines
    assert labels == {t.label for t in cages.TECHNIQUES} - set(four), labels
    assert {kind for _, kind in found} == {"", "innies", "outies", "innies less outies"}


# -- the ladder -----------------------------------------------------------------------------


def test_the_killer_ladder() -> None:
    geo = _published()[0][0].geometry
    techniques = ladder(geo)
    names = [t.name for t in techniques]
    assert names.index("Cage Combinations") < names.index("Direct Pointing")
    assert "45 Rule" in names and "Cage Pointing" in names and "Combination Clash" in names
    assert all(t.family != "uniqueness" for t in techniques)  # a cage can break a deadly pattern
    assert all(t.rating < cages.KILLER_FLOOR for t in techniques)
    ratings = [t.rating for t in techniques]
    assert ratings == sorted(ratings)
    assert all(t in techniques for t in cages.TECHNIQUES)
    assert not any(t.family == "cages" for t in registry.REGISTRY)  # the classic ladder is untouched
    killer_x = variants.x().with_cages(geo.cages)
    assert "Generalized Intersections" in [t.name for t in ladder(killer_x)]


# -- generated and published killers: every step against the engine's solution ---------------


def test_published_killers_are_solved_by_logic() -> None:
    for grid, solution in _published():
        path = explain(grid)
        assert not path[-1].lower_bound  # neither out of techniques (Search) nor of time
        state = Candidates.from_grid(grid)
        for step in path:
            step.apply(state)
        assert "".join(map(str, state.values)) == solution
        r = rate(grid)
        assert not r.lower_bound and 1.6 <= r.er < 9.0


@pytest.mark.parametrize("seed", [1, 3, 7])
def test_generated_killers_every_step_checked(seed: int) -> None:
    puzzle = generate_killer(seed).puzzle
    rate(puzzle)  # raises UnsoundStep on a wrong step
    explain(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 160))
def test_many_generated_killers_every_step_checked(seed: int) -> None:
    puzzle = generate_killer(seed).puzzle
    rate(puzzle)
    explain(puzzle)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_generated_6x6_killers_every_step_checked(seed: int) -> None:
    puzzle = generate_killer(seed, shape="2x3").puzzle
    path = explain(puzzle)
    assert path


def test_killer_x_steps_are_checked() -> None:
    puzzle = generate_killer(5, variant="x").puzzle
    assert puzzle.geometry.cages and variants.describe(puzzle.geometry, killer=True) == "x,killer"
    explain(puzzle)


def test_jigsaw_killer_steps_are_checked() -> None:
    puzzle = generate_killer(2, regions="random").puzzle
    assert variants.is_jigsaw(puzzle.geometry) and puzzle.geometry.cages
    r = rate(puzzle)
    assert not r.lower_bound
    explain(puzzle)


def test_a_wrong_cage_step_is_caught(monkeypatch) -> None:
    from sudokit.logic.step import Step

    grid, solution = _published()[0]

    def wrong(state):  # removes the true digit of the first open cell
        for c, v in enumerate(state.values):
            if not v:
                yield Step("Cage Combinations", 1.6, eliminations=((c, int(solution[c])),))
                return

    from sudokit.logic import generalized
    from sudokit.logic.step import Technique

    bad = Technique("Cage Combinations", 1.6, "cages", wrong)
    monkeypatch.setattr(cages, "TECHNIQUES", (bad,) + cages.TECHNIQUES[1:])
    monkeypatch.setattr(cages, "_LADDERS", {})
    monkeypatch.setattr(generalized, "_KILLERS", {})
    with pytest.raises(UnsoundStep):
        explain(grid)


def _without_trial(monkeypatch) -> None:
    """The killer ladder without its trial (Cage Contradiction)."""
    from sudokit.logic import generalized

    monkeypatch.setattr(cages, "TECHNIQUES", tuple(t for t in cages.TECHNIQUES if t is not cages.CAGE_CONTRADICTION))
    monkeypatch.setattr(cages, "_LADDERS", {})
    monkeypatch.setattr(generalized, "_KILLERS", {})


def test_a_hard_killer_needs_the_trial() -> None:
    puzzle = generate_killer(10).puzzle  # the ladder stops after some 30 steps without the trial
    r = rate(puzzle, timeout=20)
    assert not r.lower_bound and r.er == cages.RATING_CONTRADICTION and r.hardest == "Cage Contradiction"
    path = explain(puzzle, timeout=20)
    assert not path[-1].lower_bound  # neither out of techniques (Search) nor of time
    trials = [s for s in path if s.technique == "Cage Contradiction"]
    assert trials and all("has no" in s.text and s.text.startswith("Cage Contradiction: if r") for s in trials)


def test_a_killer_the_ladder_cannot_finish_is_a_lower_bound(monkeypatch) -> None:
    _without_trial(monkeypatch)
    puzzle = generate_killer(10).puzzle
    r = rate(puzzle, timeout=20)
    assert r.lower_bound and r.er == cages.KILLER_FLOOR and str(r).startswith("≥9.0")
    path = explain(puzzle, timeout=20)
    assert path[-1].technique == "Search" and path[-1].rating == cages.KILLER_FLOOR


def test_hint_on_a_killer() -> None:
    grid, _ = _published()[2]
    step = hint(grid)
    assert step is not None and step.technique == "45 Rule" and step.placements == ((8, 7),)


# -- the command line -------------------------------------------------------------------------


def run(*args: str, input: str | None = None):
    from click.testing import CliRunner

    from sudokit.cli import cli

    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def test_cli_rate_explain_hint_take_killers(tmp_path) -> None:
    blank = "." * 81 + "\n"
    rated = run("rate", "-f", "jsonl", str(PUBLISHED))
    assert rated.exit_code == 0, rated.output
    rows = [json.loads(line) for line in rated.stdout.splitlines()]
    assert [r["status"] for r in rows] == ["rated"] * 3 and all(r["variant"] == "killer" and r["cages"] for r in rows)
    assert all(not r["lower_bound"] for r in rows)
    record = json.loads(PUBLISHED.read_text().splitlines()[0])
    path = tmp_path / "cages.txt"
    path.write_text("\n".join(record["cages"]) + "\n")
    text = run("rate", "--variant", "killer", "--cages", str(path), "-", input=blank)
    assert text.exit_code == 0 and text.stdout.split()[1] == f"{rows[0]['er']:.1f}/{rows[0]['ep']:.1f}/{rows[0]['ed']:.1f}"
    explained = run("explain", "--cages", str(path), "-", input=blank)
    assert explained.exit_code == 0 and "45 Rule" in explained.stdout and "Cage Combinations" in explained.stdout
    assert "Search" not in explained.stdout
    hinted = run("hint", "--cages", str(path), "-f", "jsonl", "-", input=blank)
    assert hinted.exit_code == 0 and json.loads(hinted.stdout)["technique"] == "45 Rule"
    no_cages = run("rate", "--variant", "killer", "-", input=blank)
    assert no_cages.exit_code == 2 and "--cages FILE" in no_cages.output
    page = run("explain", "--cages", str(path), "-f", "html", "-", input=blank)
    assert page.exit_code == 0 and "Cage Combinations" in page.stdout and 'class="cages"' in page.stdout
    picture = run("hint", "--cages", str(path), "-f", "svg", "-", input=blank)
    assert picture.exit_code == 0 and 'class="cages"' in picture.stdout and ">27<" in picture.stdout
