"""The technique catalogue (sudokit.logic.techniques): every step name the
rater can emit has a family, every name a user may give resolves to one, and
Sudoku Explainer's own names (the shared traces) land in the same families."""

from __future__ import annotations

import pytest

from sudokit.errors import UnknownTechnique
from sudokit.logic.registry import REGISTRY
from sudokit.logic.techniques import (
    ALIASES, FAMILIES, SPLITS, all_techniques, families_on_path, family_of, resolve, step_names,
)

from conftest import RATED, rated_reference, rated_traces, require_shared


def test_every_emitted_name_has_a_family_and_resolves_to_it() -> None:
    names = step_names()
    assert len(names) > 100
    for name in names:
        family = family_of(name)
        assert family in FAMILIES, name
        assert resolve(name) == family, name
        assert resolve(name.upper()) == resolve(f"  {name.lower()} ") == family, name


def test_every_registered_technique_is_in_the_catalogue() -> None:
    """Built from the registry and the technique modules: a technique added there is a family at once."""
    techniques = all_techniques()
    assert {id(t) for t in REGISTRY} <= {id(t) for t in techniques}
    emitted = {family_of(n) for n in step_names()}
    for t in techniques:
        assert set(SPLITS.get(t.name, (t.name,))) <= set(FAMILIES), t.label
    assert emitted == set(FAMILIES)  # every family is some step's


def test_families_are_in_er_order_without_repeats() -> None:
    assert len(set(FAMILIES)) == len(FAMILIES)
    lowest = {}
    for t in all_techniques():
        for family in SPLITS.get(t.name, (t.name,)):
            lowest.setdefault(family, t.rating)
    ratings = [lowest[f] for f in FAMILIES]
    assert ratings == sorted(ratings)
    classic = [f for f in FAMILIES if not f.startswith(("Cage", "45", "Combination", "Generalized"))]
    assert classic[:3] == ["Hidden Single", "Direct Pointing", "Direct Claiming"]
    assert classic[-1] == "Nested Forcing Chains"


@pytest.mark.parametrize("user, family", [
    ("X-Wing", "X-Wing"), ("x-wing", "X-Wing"), ("XWING", None), ("WXYZ-Wing", "WXYZ-Wing"),
    ("wxyz-wing 137", "WXYZ-Wing"), ("Skyscraper", "Skyscraper"), ("grouped skyscraper", "Skyscraper"),
    ("Unique Rectangle", "Unique Rectangle"), ("unique rectangle type 2", "Unique Rectangle"),
    ("Locked Candidates", "Pointing"), ("Locked Candidates Type 2 (Claiming)", "Claiming"),
    ("Box/Line Reduction", "Claiming"), ("Naked Triple", "Naked Triplet"), ("Y-Wing", "XY-Wing"),
    ("Bivalue Universal Grave", "BUG"), ("BUG type 3", "BUG"), ("Full House", "Hidden Single"),
    ("Cell Forcing Chains", "Multiple Forcing Chains"), ("Forcing Chain", "Forcing Chains & Cycles"),
    ("Dynamic Forcing Chains (+)", "Dynamic Forcing Chains (+)"), ("nested forcing chains", "Nested Forcing Chains"),
    ("Region Forcing Chains (+ Forcing Chains)", "Nested Forcing Chains"), ("Uniqueness Test 2", "Unique Rectangle"),
    ("X-Loop", "X-Loop"), ("Kite", "2-String Kite"), ("", None), ("Bogus", None), ("Wing", None),
])
def test_resolve(user: str, family: str | None) -> None:
    if family is None:
        with pytest.raises(UnknownTechnique) as caught:
            resolve(user)
        message = str(caught.value)
        assert repr(user) in message and all(f in message for f in FAMILIES)
    else:
        assert resolve(user) == family


def test_aliases_name_families() -> None:
    assert set(ALIASES.values()) <= set(FAMILIES)


def test_families_on_path() -> None:
    path = ["Hidden Single", "Naked Single", "Pointing", "WXYZ-Wing 137", "Hidden Single", "WXYZ-Wing 248",
            "Search"]
    assert families_on_path(path) == ["Hidden Single", "Naked Single", "Pointing", "WXYZ-Wing"]
    with pytest.raises(UnknownTechnique):
        families_on_path(["Hidden Single", "Magic"])


def test_sudoku_explainers_names_have_families() -> None:
    """Every technique SE names in its 500 traces and the variants' files is in a family."""
    seen = {s["technique"] for t in rated_traces() for s in t["steps"]}
    seen |= {row["er_technique"] for row in rated_reference()}
    for name in ("x_dev.tsv", "hyper_dev.tsv"):
        lines = require_shared(RATED / name).read_text().splitlines()[1:]
        seen |= {line.split("\t")[4] for line in lines if line.strip()}
    assert len(seen) > 60
    for name in sorted(seen):
        assert family_of(name) in FAMILIES, name


def test_the_raters_hardest_step_is_in_ses_family() -> None:
    """Where the rater agrees with SE on ER, the hardest step's family is SE's (a sample below ER 6)."""
    from sudokit.logic import rate

    rows = [r for r in rated_reference() if 3.0 <= float(r["er"]) < 6.0][::6][:12]
    agreed = 0
    for row in rows:
        r = rate(row["puzzle"])
        if abs(r.er - float(row["er"])) > 1e-9:
            continue
        agreed += 1
        assert family_of(r.hardest) == family_of(row["er_technique"]), row["id"]
        assert family_of(r.hardest) in families_on_path(r.techniques)
    assert agreed >= len(rows) // 2
