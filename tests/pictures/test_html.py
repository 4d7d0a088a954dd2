"""Every step drawn: the explanation page, the hint picture, and the links
behind them, checked against the rules of the grid."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import lru_cache
from html.parser import HTMLParser

import pytest

import sudokit
from sudokit.logic import Candidates, explain, hint, rate
from sudokit.pictures.html import explanation_page

from click.testing import CliRunner

from conftest import rated_reference
from sudokit.cli import cli

SVG = "{http://www.w3.org/2000/svg}"


@lru_cache(maxsize=None)
def _path(line: str) -> tuple:
    return tuple(explain(sudokit.Grid(line)))


def _chain_puzzle() -> str:
    """A puzzle of the reference set whose path, as Sudoku Explainer rates it, needs a forcing chain."""
    row = next(r for r in rated_reference() if r["er_technique"] == "Forcing Chain" and float(r["er"]) <= 7.2)
    return row["puzzle"]


class _Sections(HTMLParser):
    """Per ``<section class="step">``: its number, its SVG count, and the marks drawn in it."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[dict] = []
        self.current: dict | None = None
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.current = None
            if a.get("class") == "step":
                self.current = {"step": int(a["data-step"]), "svgs": 0, "cells": [], "units": [], "elims": [],
                                "places": [], "links": []}
                self.sections.append(self.current)
            return
        if self.current is None:
            return
        klass = (a.get("class") or "").split()
        if tag == "svg":
            self.current["svgs"] += 1
        elif tag == "rect" and "cell-hl" in klass:
            self.current["cells"].append(a["data-cell"])
        elif tag == "rect" and "unit-hl" in klass:
            self.current["units"].append(a["data-unit"])
        elif tag == "circle" and "elim" in klass:
            self.current["elims"].append(a["data-cand"])
        elif tag == "text" and "place" in klass:
            self.current["places"].append(a["data-cand"])
        elif tag == "path" and "link" in klass:
            self.current["links"].append((a["data-link"], klass[1]))

    def handle_endtag(self, tag):
        if tag == "section":
            self.current = None


def _name(geo, cell: int) -> str:
    return geo.cell_name(cell)


@pytest.mark.parametrize("puzzle", [sudokit.example("diabolical").line(), "chain"])
def test_page_draws_every_step_with_its_own_cells(puzzle: str) -> None:
    grid = sudokit.Grid(_chain_puzzle() if puzzle == "chain" else puzzle)
    path = _path(grid.line())
    page = explanation_page(grid, path, rate(grid))
    parser = _Sections()
    parser.feed(page)
    assert [s["step"] for s in parser.sections] == list(range(1, len(path) + 1))
    geo = Candidates.from_grid(grid).geo
    symbols = grid.shape.symbols
    for section, step in zip(parser.sections, path):
        assert section["svgs"] == 1
        assert sorted(section["cells"]) == sorted(_name(geo, c) for c in set(step.cells))
        assert sorted(section["units"]) == sorted(geo.unit_name(u) for u in set(step.units))
        assert sorted(section["elims"]) == sorted(f"{_name(geo, c)}:{symbols[v - 1]}" for c, v in step.eliminations)
        assert sorted(section["places"]) == sorted(
            f"{_name(geo, c)}:{symbols[v - 1]}" for c, v in step.placements if c not in ())
        kinds = [kind for *_, kind in step.kinded_links()]
        assert [k for _, k in section["links"]] == kinds
    assert any(s["links"] for s in parser.sections)  # some step of these paths is a chain or a wing


def _sees(geo, a: int, b: int) -> bool:
    return a != b and b in geo.peers[a]


def _two_places(state: Candidates, a: int, b: int, v: int) -> bool:
    """``a`` and ``b`` are the only places for ``v`` in some unit holding both."""
    geo = state.geo
    for unit in set(geo.units_of[a]) & set(geo.units_of[b]):
        if {c for c in geo.units[unit] if state.mask[c] >> (v - 1) & 1} == {a, b}:
            return True
    return False


@pytest.mark.parametrize("puzzle", [sudokit.example("diabolical").line(), "chain"])
def test_links_obey_the_rules_of_their_kind(puzzle: str) -> None:
    """A weak link joins two candidates that cannot both be true; a strong
    link two of which one must be true (the only two of a cell or of a unit)."""
    grid = sudokit.Grid(_chain_puzzle() if puzzle == "chain" else puzzle)
    state = Candidates.from_grid(grid)
    checked = 0
    for step in _path(grid.line()):
        assert len(step.link_kinds) == len(step.links)
        grouped = "Grouped" in step.technique or "Empty" in step.technique
        for a, va, b, vb, kind in step.kinded_links():
            if grouped:
                continue
            assert state.mask[a] >> (va - 1) & 1 and state.mask[b] >> (vb - 1) & 1, step.text
            if kind == "weak":
                assert (a == b and va != vb) or (va == vb and _sees(state.geo, a, b)), step.text
            else:
                assert kind == "strong"
                assert (a == b and state.mask[a] == (1 << (va - 1)) | (1 << (vb - 1))) or (
                    va == vb and _two_places(state, a, b, va)), step.text
            checked += 1
        step.apply(state)
    assert checked > 0


def test_jsonl_records_keep_their_keys_and_add_link_kinds() -> None:
    grid = sudokit.Grid(_chain_puzzle())
    geo = Candidates.from_grid(grid).geo
    for step in _path(grid.line()):
        record = step.as_dict(geo)
        assert {"technique", "rating", "placements", "eliminations", "cells", "units", "values", "links",
                "text"} <= set(record)
        assert len(record["link_kinds"]) == len(record["links"])


def _run(*args: str) -> str:
    """The command line, in this process: its standard output (exit status 0)."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, (result.stderr, result.exception)
    return result.stdout


def test_cli_explain_html_and_hint_svg() -> None:
    parser = _Sections()
    parser.feed(_run("explain", "--example", "gentle", "--format", "html"))
    assert len(parser.sections) == len(explain(sudokit.example("gentle")))
    root = ET.fromstring(_run("hint", "--example", "diabolical", "--format", "svg"))
    record = json.loads(_run("hint", "--example", "diabolical", "--format", "jsonl"))
    shaded = [r.get("data-cell") for r in root.iter(f"{SVG}rect") if r.get("class") == "cell-hl"]
    assert sorted(shaded) == sorted(record["cells"])
    placed = [t.get("data-cand") for t in root.iter(f"{SVG}text") if t.get("class") == "place"]
    assert placed == [p.replace("=", ":") for p in record["placements"]]


def test_jupyter_pictures() -> None:
    grid = sudokit.example("diabolical")
    path = sudokit.explain(grid)
    assert isinstance(path, list) and path == list(path)
    fragment = path._repr_html_()
    assert fragment.count('<section class="step"') == len(path)
    step = hint(grid)
    assert step._repr_svg_().startswith("<svg")
    assert step == path[0]  # the picture does not change what the step is
    assert "ER" in sudokit.rate(grid)._repr_html_()
