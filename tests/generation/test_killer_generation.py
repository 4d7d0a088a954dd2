"""Killers cut from a random solution (sudokit.generation.killer): no givens, every cell in a
connected cage of different digits, each total the sum of its digits in the solution, one
solution by the independent solver of tests/reference_variants.py, the same killer for a
seed, and, with ``minimal="cages"``, no two touching cages that can be joined keeping it unique."""

from __future__ import annotations

import json

import pytest

import reference_variants as ref
from sudokit import formats
from sudokit.budget import Budget
from sudokit.engine import search
from sudokit.errors import SudokuError
from sudokit.generation import GenerationError, generate, generate_many
from sudokit.generation.killer import generate_killer, is_minimal

JIGSAW6 = "111222311222331444333444555666555666"


def reference_count(puzzle, limit: int = 2) -> tuple[int, list[int] | None]:
    geo = puzzle.geometry
    return ref.count(geo.n, [list(u) for u in geo.units], list(puzzle.values),
                     [(c.cells, c.total) for c in geo.cages], limit)


def neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def check_cut_from_solution(made) -> None:
    """Independent checks of a generated killer's cages against its solution."""
    puzzle, solution = made.puzzle, made.solution
    n = puzzle.size
    assert puzzle.clues == 0 and made.clues == 0
    cages = puzzle.geometry.cages
    cells = sorted(c for cage in cages for c in cage.cells)
    assert cells == list(range(n * n))  # every cell in exactly one cage
    for cage in cages:
        digits = [solution.values[c] for c in cage.cells]
        assert len(set(digits)) == len(digits) and sum(digits) == cage.total
        seen, todo = {cage.cells[0]}, [cage.cells[0]]  # connected
        while todo:
            for nb in neighbours(todo.pop(), n):
                if nb in cage.cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        assert seen == set(cage.cells)
    assert ref.obeys(solution.values, n, [list(u) for u in puzzle.geometry.units],
                     [(c.cells, c.total) for c in cages])


@pytest.mark.parametrize("seed", range(8))
def test_6x6_killers_are_unique_by_the_reference(seed):
    made = generate_killer(seed, shape="2x3")
    check_cut_from_solution(made)
    found, first = reference_count(made.puzzle)
    assert found == 1 and tuple(first) == made.solution.values


@pytest.mark.parametrize("seed", [1])
def test_9x9_killers_are_unique_by_mip(seed):
    """The 9x9 count of the reference solver takes minutes: HiGHS's integer program
    (methods/mip.py, no code shared with the killer search) counts them here."""
    from sudokit.solving import count

    made = generate_killer(seed)
    check_cut_from_solution(made)
    assert 20 <= len(made.puzzle.geometry.cages) <= 40
    result = count(made.puzzle, 2, method="mip")
    assert result.count == 1 and result.solution == made.solution


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
def test_9x9_killers_are_unique_by_the_reference(seed):
    made = generate_killer(seed)
    check_cut_from_solution(made)
    assert reference_count(made.puzzle)[0] == 1


@pytest.mark.parametrize("seed", range(20, 60))
def test_the_engine_never_loses_the_solution_of_a_generated_killer(seed):
    """Singles, sums and locked digits from the blank grid keep every digit of the solution
    (a deduction that dropped one would leave the generator no solution at all)."""
    made = generate_killer(seed)
    deduced = search.deduce(made.puzzle, Budget())
    assert all(v in (0, s) for v, s in zip(deduced.values, made.solution.values))
    assert search.count(made.puzzle, 2, Budget()) == (1, made.solution)


def test_variants_combine_with_killer():
    for options in (dict(shape="2x3", variant="x,killer"), dict(shape=None, variant="killer", regions=JIGSAW6)):
        made = next(generate_many(1, seed=4, **options))
        check_cut_from_solution(made)
        assert reference_count(made.puzzle)[0] == 1
        record = made.record()
        assert "killer" in record["variant"] and len(record["cages"]) == len(made.puzzle.geometry.cages)


def test_a_seed_makes_the_same_killer_alone_or_in_a_stream():
    stream = list(generate_many(3, variant="killer", seed=11, shape="2x3"))
    assert [p.seed for p in stream] == [11, 12, 13]
    for made in stream:
        again = generate_killer(made.seed, shape="2x3")
        assert again.puzzle == made.puzzle and again.solution == made.solution
    assert generate(variant="killer", seed=12, shape="2x3").puzzle == stream[1].puzzle
    assert len({p.puzzle for p in stream}) == 3


def test_a_record_reads_back_to_the_same_killer():
    made = generate_killer(5)
    line = json.dumps(made.record())
    puzzle = formats.parse(line)
    assert puzzle == made.puzzle and puzzle.geometry.cages == made.puzzle.geometry.cages
    assert formats.render(puzzle, "jsonl") and json.loads(formats.render(puzzle, "jsonl"))["cages"] == \
        json.loads(line)["cages"]


@pytest.mark.parametrize("seed", range(3))
def test_minimal_in_its_cages_by_the_reference(seed):
    """No two touching cages whose digits differ can be joined: the reference finds a second
    solution for every such merge; and the killer is unique."""
    made = generate_killer(seed, shape="2x2" if seed == 0 else "2x3", minimal="cages")
    check_cut_from_solution(made)
    puzzle, values = made.puzzle, made.solution.values
    n = puzzle.size
    assert made.minimal == "cages" and reference_count(puzzle)[0] == 1
    cages = [c.cells for c in puzzle.geometry.cages]
    owner = {c: i for i, cells in enumerate(cages) for c in cells}
    units = [list(u) for u in puzzle.geometry.units]
    pairs = {(min(owner[c], owner[nb]), max(owner[c], owner[nb])) for c in owner for nb in neighbours(c, n)
             if owner[c] != owner[nb]}
    tried = 0
    for a, b in sorted(pairs):
        if {values[c] for c in cages[a]} & {values[c] for c in cages[b]} or len(cages[a]) + len(cages[b]) > n:
            continue
        merged = [(cells, sum(values[c] for c in cells)) for i, cells in enumerate(cages) if i not in (a, b)]
        merged.append((cages[a] + cages[b], sum(values[c] for c in cages[a] + cages[b])))
        assert ref.count(n, units, [0] * (n * n), merged, 2)[0] == 2
        tried += 1
    assert is_minimal(puzzle, made.solution)
    assert tried or n == 4  # a 4x4 may have no pair of touching cages with different digits


def test_requests_a_killer_cannot_meet_are_refused():
    with pytest.raises(GenerationError, match="symmetry"):
        next(generate_many(1, variant="killer", symmetry="rotate180"))
    with pytest.raises(GenerationError, match="filters"):
        next(generate_many(1, variant="killer", difficulty="easy"))
    with pytest.raises(GenerationError, match="minimal"):
        next(generate_many(1, variant="killer", minimal="logic"))
    with pytest.raises(GenerationError, match="up to 16x16"):
        generate_killer(1, shape="5x5")
    with pytest.raises(SudokuError):
        generate_killer(1, sizes=(3, 2))


def test_killers_on_two_processes_are_the_killers_of_one():
    alone = [p.puzzle for p in generate_many(4, variant="killer", seed=30, shape="2x3")]
    pooled = [p.puzzle for p in generate_many(4, variant="killer", seed=30, shape="2x3", jobs=2)]
    assert pooled == alone
