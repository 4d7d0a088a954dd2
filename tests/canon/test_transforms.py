"""Transform values, and the variants' groups checked against a search of the whole group."""

from __future__ import annotations

import random
from itertools import permutations

import numpy as np
import pytest

import sudokit
from sudokit import Grid, canonical, variants
from sudokit.canon import Transform
from sudokit.canon.transforms import dihedral, hyper_group, line_perms, preserves, variant_group, x_group
from sudokit.errors import ParseError


def _random(rng: random.Random, n: int = 9, box: int = 3) -> Transform:
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    return Transform(rng.random() < 0.5, rng.choice(line_perms(n, box)), rng.choice(line_perms(n, box)), digits)


def test_inverse_composition_and_text():
    rng = random.Random(3)
    grid = sudokit.example("diabolical")
    for _ in range(50):
        a, b = _random(rng), _random(rng)
        assert a.inverse().apply(a.apply(grid)) == grid
        assert a.then(b).apply(grid) == b.apply(a.apply(grid))
        assert Transform.parse(str(a)) == a
        assert Transform.from_dict(a.to_dict()) == a
    with pytest.raises(ParseError):
        Transform.parse("2:0:0:1")
    with pytest.raises(ParseError):
        Transform.from_dict({"rows": [0]})


def _image(perm: tuple[int, ...], group: tuple[int, ...]) -> frozenset:
    """Where the lines of ``group`` go (perm[i] is the source of line i)."""
    return frozenset(i for i, p in enumerate(perm) if p in group)


def test_the_x_group_is_every_arrangement_that_keeps_the_diagonals():
    """A search of all 2 x 1296 x 1296 arrangements: the diagonals stay diagonals when the
    image of (k, k) and of (k, 8 - k) are each a whole diagonal."""
    perms = np.array(line_perms(9, 3))
    inv = np.argsort(perms, axis=1)  # inv[g][k]: where line k goes
    kept = set()
    mirror = 8 - np.arange(9)
    for r, rinv in zip(perms, inv):
        main_to_main = (inv == rinv).all(axis=1)
        main_to_anti = (inv == 8 - rinv).all(axis=1)
        # the anti-diagonal (k, 8-k) goes to (rinv[k], cinv[8-k])
        anti = inv[:, mirror]
        anti_to_anti = (anti == 8 - rinv).all(axis=1)
        anti_to_main = (anti == rinv).all(axis=1)
        ok = (main_to_main & anti_to_anti) | (main_to_anti & anti_to_main)
        for c in perms[ok]:
            kept.add((tuple(int(v) for v in r), tuple(int(v) for v in c)))
    listed = {(t.rows, t.cols) for t in x_group(9)}
    assert listed == kept and len(x_group(9)) == 2 * len(kept) == 96
    geo = variants.x()
    assert all(preserves(t, geo) for t in x_group(9))


@pytest.mark.slow
def test_the_windoku_group_is_every_arrangement_that_keeps_its_units():
    """The units of windoku are rows, columns and 3x3 blocks (row set x column set); an
    arrangement keeps them when each block's image is a block of the list. Row and column
    permutations are grouped by where they send the row sets, then every pair is tried."""
    sets = [(1, 2, 3), (5, 6, 7), (0, 4, 8), (0, 1, 2), (3, 4, 5), (6, 7, 8)]
    geo = variants.hyper()
    blocks = {frozenset(u) for u in geo.units if len(set(c // 9 for c in u)) == 3 and len(set(c % 9 for c in u)) == 3}
    signature = {}
    for p in line_perms(9, 3):
        signature.setdefault(tuple(_image(p, s) for s in sets), []).append(p)
    kept = 0
    listed = {(t.rows, t.cols) for t in hyper_group()}
    for rs, rows in signature.items():
        for cs, cols in signature.items():
            images = set()
            for unit in blocks:
                r = frozenset(c // 9 for c in unit)
                c = frozenset(c % 9 for c in unit)
                images.add(frozenset(a * 9 + b for a in rs[sets.index(tuple(sorted(r)))]
                                     for b in cs[sets.index(tuple(sorted(c)))]))
            if images == blocks:
                kept += len(rows) * len(cols)
                assert all((r, c) in listed for r in rows[:3] for c in cols[:3])
    assert kept * 2 == len(hyper_group())
    assert all(preserves(t, geo) for t in hyper_group())


def test_x_and_windoku_forms_are_shared_by_their_group_only():
    rng = random.Random(5)
    for geo in (variants.x(), variants.hyper()):
        solution = sudokit.solve(Grid.empty().with_geometry(geo)).solution
        puzzle = solution.like(tuple(v if rng.random() < 0.35 else 0 for v in solution.values))
        want = canonical(puzzle)
        assert want.grid.is_consistent and want.grid.geometry == geo
        group = variant_group(geo)
        for _ in range(20):
            g = rng.choice(group)
            digits = list(range(1, 10))
            rng.shuffle(digits)
            moved = Transform(g.transpose, g.rows, g.cols, digits).apply(puzzle)
            found = canonical(moved)
            assert found.line == want.line
            assert found.transform.apply(moved) == found.grid
            assert found.inverse.apply(found.grid) == moved


def test_jigsaw_and_killer_keep_the_symmetries_of_their_units():
    # a layout with a half-turn symmetry only
    layout = ("111222333" "111222333" "111222333" "444555666" "444555666" "444555666"
              "777888999" "777888999" "777888999")
    cells = list(layout)
    cells[2], cells[12] = cells[12], cells[2]  # r1c3 to region 2, r2c4 to region 1
    cells[78], cells[68] = cells[68], cells[78]  # and the same turned half round
    layout = "".join(cells)
    geo = variants.jigsaw("3x3", layout)
    group = variant_group(geo)
    assert len(group) == 2 and all(preserves(t, geo) for t in group)
    from sudokit.killer import Cage

    killer = sudokit.Grid.empty().geometry.with_cages([Cage((0, 1), 3), Cage((79, 80), 3)])
    kept = variant_group(killer)
    # a turned cage is vertical: only the identity and the half turn keep both
    assert sorted(t.cell_map() for t in kept) == [tuple(range(81)), tuple(range(80, -1, -1))]
    grid = Grid.empty().with_geometry(killer).place(0, 0, 1).place(8, 8, 2)
    found = canonical(grid)
    assert sorted(v for v in found.grid.values if v) == [1, 2]  # no relabelling


def test_dihedral_sizes():
    assert len(dihedral(9, 3, 3)) == 8 and len(dihedral(6, 2, 3)) == 4
    assert len(set(permutations(range(3)))) == 6
