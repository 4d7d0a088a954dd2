"""Difficulty filters (sudokit.generation.filters): a filtered puzzle has the
rating asked for, and a filter's attempts run out with a message.
"""

from __future__ import annotations

import pytest

from sudokit.generation import GenerationError, generate, generate_many


def test_difficulty_filter_matches_rating() -> None:
    from sudokit.logic import rate

    p = generate(seed=5, difficulty="easy", attempts=200)
    assert p.level == "easy" == rate(p.puzzle).level
    assert generate(seed=p.seed).puzzle == p.puzzle


def test_filter_budget_runs_out_with_a_message() -> None:
    with pytest.raises(GenerationError, match="in 2 attempts"):
        list(generate_many(1, seed=1, rating="11.5-12.0", attempts=2))


# -- technique filters: by family, on the path or as the hardest step ---------------------------------


def _families_by_explain(puzzle) -> list[str]:
    """The families of the full path, as ``explain`` walks it (the rating's path without its compiled ladder)."""
    from sudokit.logic import explain
    from sudokit.logic.techniques import families_on_path

    return families_on_path(explain(puzzle))


def test_technique_filter_keeps_a_puzzle_whose_path_uses_it() -> None:
    """The reported case: an X-Wing somewhere on the path, not only as the hardest step."""
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import sys; from sudokit.cli import main; sys.exit(main())", "generate", "--technique", "x-wing", "-n", "1",
                          "--seed", "1", "--format", "jsonl"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert "X-Wing" in _families_by_explain(record["puzzle"])


def test_hardest_technique_filter() -> None:
    from sudokit.logic import rate
    from sudokit.logic.techniques import family_of

    p = generate(seed=2, technique="hardest:y-wing", attempts=100)  # HoDoKu's name for SE's XY-Wing
    r = rate(p.puzzle)
    assert family_of(r.hardest) == "XY-Wing" and r.er == p.er == 4.2 and not r.lower_bound
    assert generate(seed=p.seed).puzzle == p.puzzle


def test_technique_filter_agrees_with_the_explained_path() -> None:
    """For a sample of generated puzzles and every family, the filter keeps a puzzle exactly when
    its explained path uses the family; the families seen include the common ones."""
    from sudokit.generation.batches import from_seeds
    from sudokit.generation.filters import make_filter, matches_technique
    from sudokit.logic import rate
    from sudokit.logic.techniques import FAMILIES

    filters = {f: make_filter(None, None, f) for f in FAMILIES}
    seen: set[str] = set()
    for puzzle, _ in from_seeds([1, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14]):  # (2 and 5 need chains: slow)
        used = _families_by_explain(puzzle.puzzle)
        seen |= set(used)
        rating = rate(puzzle.puzzle)
        for family, flt in filters.items():
            assert matches_technique(rating, flt) == (family in used), (puzzle.seed, family)
    assert {"Hidden Single", "Pointing", "Naked Pair"} <= seen


def test_unknown_technique_lists_the_names() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import sys; from sudokit.cli import main; sys.exit(main())", "generate", "--technique", "X-Wingz"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "unknown technique 'X-Wingz'" in out.stderr and "Unique Rectangle" in out.stderr
    from sudokit.errors import UnknownTechnique

    with pytest.raises(UnknownTechnique, match="choose one of"):
        generate(seed=1, technique="X-Wingz")


@pytest.mark.slow
def test_generator_reaches_every_family_it_can() -> None:
    """Over the first 300 seeds, every family on some explained path is found by the filter from
    seed 1, at the first seed whose path uses it."""
    from sudokit.generation.batches import from_seeds

    first: dict[str, int] = {}
    for puzzle, _ in from_seeds(range(1, 301)):
        for family in _families_by_explain(puzzle.puzzle):
            first.setdefault(family, puzzle.seed)
    assert len(first) >= 20
    for family, seed in first.items():
        p = generate(seed=1, technique=family, attempts=300)
        assert p.seed == seed, family
