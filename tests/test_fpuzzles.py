"""f-puzzles / SudokuPad import (sudokit.fpuzzles): the lz-string decoder and the mapping to sudokit's data.

The truths: the PyPI package ``lzstring`` (an independent port of lz-string)
for the decoder, JSON written here and compressed with it for the mapping,
tests/reference_variants.py for the units, and four puzzle strings made by
f-puzzles and published in SudokuPad's sudokutools repository
(src/rulesparser/testfpuzzles.json) with their setters' solutions.
"""

from __future__ import annotations

import json
import random

import pytest

import reference_variants as ref

from sudokit.errors import ParseError
from sudokit.fpuzzles import (
    UNSUPPORTED,
    FPuzzlesError,
    Puzzle,
    UnsupportedConstraint,
    decompress_from_base64,
    from_json,
    read,
)
from sudokit.geometry import BOX, Geometry, Shape
from sudokit.killer import Cage
from sudokit.variants import hyper, jigsaw, x

lzstring = pytest.importorskip("lzstring", reason="the lzstring package (pip install -e '.[test]') checks the decoder")
LZ = lzstring.LZString()

# -- public puzzle strings (f-puzzles, from SudokuPad/sudokutools src/rulesparser/testfpuzzles.json) --

#: "Behemoth" by Tyrgannus: 16x16, irregular regions, killer cages without sums.
BEHEMOTH = "N4IgzglgXgpiBcBGAbAGhAFwhgNneIAQjABYwC2A9hiSOgIYCuNlATgiACoCerA5vQB2gxmDohWjPGBgYOAWgBybcvRwACMIwAmlANaN1k6evoAHMzm4AdQfJQAPFOoitWMPlPqsjHiJUEwW3kAEQg+bDB1AGMhQWpfMxh6DBdBUxj6PhhbcT5WCG0EAG1i4ABfVAqqyurQdwiAhAAGWok/JvhWqvbGwRa2hv9+rvQANzVGfABmdAixmBGMSRhBjpHENb6ERHHJ/AAOOYgFpZWt4Z2Lzt2QCZwphAAWY9OEZanrja+rnqGbn5IcoAXVQZVqEJqf3WCAATIDmnsHvgUK9Fu9ztDtl1AfCsZd4NNAbM7vs4Wizp98QDqSMSfdHkgSfN0fAPqtab96jCgZykEjGcyTqz2YDNqDwXy8dzsdLegTYQKUS8QCzKRyZQqEUqdkK3mzMZrOnL/iNFaTkQg0KrheriTr4ABWCkYqlGunEz09Bko81q10a+U091coMjADsILBIfgT1xuId4ZdBrdYbh8alGZj5p9Oz9toDXpjRL5JeLbVz8AAnMnRd6ybHa4a07yY5GJaBK3qRYbIZ2G4hETb9XXs32LYya8Oe27Ac6J8qm6nTQhHXPE0uNeOV4SHdb/SnAzuy1HJf3LfAjtO7VC6hWB/OD6O+/eL1On83K7cP7Pb6/GYgKo/luHYvnya71he+Yjr2kEAfuBaHmBdQLjs36Ic+f63i2iC3JWQEYecHYtgcyGofACEwb+MbIICtF8talZJtehZYXebFiuK0aAnG2Fft2N4xqRfLCUJYrdDGU5fkOwGAlWckKXBMybtuPKRjUoEcSJgJXpWlEzkePKDuJimSQ6uEqXy8lWQ6j6EdRgLqRUmnngBlkxsZ2E7oODoCaxHlDkx7k4YFA4yfZhnYp5kmmS2UkNgRVGRQS1nsa5+B2UlELEd5EkhQ674ReJDpXrJfLRSFxXkYlBkmeVZY4bxZnkcxZUxTZ5GAe5YrztJ3UadGlV8QONWCeRflIVp6UIIVWVKQgpVFWxcXjl+mW1V5RlcWeq0PsF3nSrtUHBV+6FzR5DVftBG0ofxJ0Not53Zdx81IOFT3DRe+mCf+vr9RdYqXQOE2YWlz07ctlbrWN3lNY15mjf5jW/QgrVLWDU0gqCIB6BAOB4KwsTZCUoDRDA+NiPAxQgAASrCADCsLiHT9PTMzDNPOz9OOsz0yM7zrMC5z6A03zPMi08/MS4L0vC7Tkvi7TjpS0rMuq3LNPKzzwJtGTFMlLTDPhlzBxc1WXODgLxsi3zps2/T5v25b0vW/L9N227jtu87quu5r7vM8rXv+5bOs9HrOCU9TLOIEzIsM4gbPx/TgEW4rosp3HtN84nAup076eS7HzNF0n3sa0X6fK8XIvV2XIca9X2u6+TkcGzT4Yqx3avdxrnfpwcXeD/Xg8a4P6dVl3k/15PGuT+ng5d4v9eLxri/N+HrdR7Tnd+53Hvd8Hnc+zTg9+4PB+D8Hg8n5PfuTwfk/B5PJ+L37i8H4vweL6HLf61TO9M7M2PvXY+fcU4DyASLG+I8U5jwgczF+WcaYvxnnAxBCCRY/2QT/FezR0FYPwYgDepMt7t1jlA2mFDc5YITmvBOC8c44JzivHOa8c4LyLjg0uzNAIEKoZXXh1ccF1yEfwmmxCEFh1If/aOFD34M0/gzb+Cdmi8L5u/W26iHbaNfpLd+ktP6S2/kXNRWDlbv2Vp/IOYjf6b1kVQhmOCGYrw5rwhmjCl581YfTdh3NeGS24T3Pha8FZiJEcE5Wa8tYgB1jrIAA"
BEHEMOTH_SOLUTION = "91510214513128641671311116128416710152913141354316149131165110712215811375152812163141194106311210112913144716568151384711156529112103141612141512316865111071394516961014473131581112212511138915110121663144710734126214911851516113141616371011131542895121598121345161731461011216214371113986514151210645151613211101291387147101116812154141332516981213951014471621511163"  # as published: the values run together
#: "Black Kropki X" by Florian Wortmann: both diagonals, kropki dots (negative), little killers.
BLACK_KROPKI_X = "N4IgzglgXgpiBcBOANCALhNAbO8QCEsBDAYwGsACAaQCcB7ABzIgoA0RUiBXNACzpoIQAMSwCIRAHYUA6gLQBbKZI4gaXHGBhohAOQFKsFAMpcAJnTJcK6zRSlmKAIzp8KSiNLMSA5nUlEWGAUJP5oRJ4UAIwAtIj2wQDuMFhYAHQAOpJZhKSUFmjBnt4kRGgw9jZlEHQUdABm0fAATBSRfBWhkpIwJOWOJClBaRQAgqkUDHRgkE44zsTkFAXBRDQVPhAAbjCSmdmSADKY2BVUEKkwNCFYXDDBYPyJFB0UYFwKdY2v3puFddJXsUIKV+stfP5AmlVD4aBAzAgANqI4AAX2QaIx6MxOOxeKxAF1kCj8biseSyWiiSSKaS6bTqZT6UzCcSWey6YzmdyGWyeRzWTSBRyubSxSKiSBvEQ/AEsABqBBodQwVDS2WBGJKlWoLAnHDMS40d4KJGgQapIQAJQA7ABhAAMqgtQSRICtAA47VFVFbEHbmiBJd51n0aio8AARK2qLaBO5CG0gbEgF3W+1RJ2oF1gN2eu2IX3+j1BtUQUMYfxCSOHWPx3AgJMptN4K0Ou0AVmdQ1z8ER7qidoAbL7mnak6grQBmO0lycAFgLpal5d6lYjIGjdduDeahdRkp6PmqOzdNGqdGX58rZtTPbzM6nvpngYJzfvffdM4nX+HQffqS9v2VqLk+C4Bv+GJ3oBeZDna86+nBXZvlBOZ5vahaTvaJYoeaH7AV6YHul6r4Aa6n75iOk5eshZFAe6/oIZO/pPrh0HkcB/pdsx8GQXhMEUfaP5WnBSZsWhFGLoGk4dhB4n4e6i7Cd+fHsfRVqDnO7pjjhdF5oOPqTmOPryQJwFwVR7pIapEnAYuhnurJJl6RRsnSVZckucBGG+l6hamRxinjr6sliV5jlLjJs42QpVpjphA5LgF6lwVpInBW+b5AA"
BLACK_KROPKI_X_SOLUTION = "472596813895431726136728495348169257629357184517842639981675342263984571754213968"
#: "Self-contained" by Lavaloid: killer cages and anti-knight.
SELF_CONTAINED = "N4IgzglgXgpiBcBOANCALhNAbO8QGUYsAzAWgGMB7AOzQEMJqYATEVOgVzQAtKAnBCAAydAG50slCK1R8OOMDDSCA1AAIAcvwC2EtWA7NKAaw5q5CtXQAO1rAE8AdAB1qAUVEw+985QDuyGpUWBza1IF01MxqAMwAHjFqAEaUcUE09IxgVlhYaswQAOaY2cR8lNpqAIxqaJRqiC7UruoAgrQQxtRF3Gjm8jBWtlgQMGBNACJFJfow1nR8dGgsyT50Qdxj2V09aADk2dqUnmq6PtSUfUmD0jAd5BJNLWoA0hC5Xv04Q3aj465TYpobKMKxBOiFQbaDhgPoGSp1WqbNTUULXPhqPx8TDLahqUE8QZ1axqHDENCONSAmbQ2Eoy7mOYwJb4vHrB6QxxsECFbGseAAbQFwAAvshReKxRLpVLZZKALrIYVymWStWq0WK5XqkDkQQAYgmAAZjQAxU0gKW6g3Gs0Wq16vCGk1G82W8XWp22132j2OkDOu3umVajWegPet0Om0uqN+mNB6Ne2O+0D+wM+4Oy0Mq8MZuNphOZpMRlPBvOR1MVssqkU5nXpyvlxs1+PJxNt0sdwvt4vqutKsMt7vVkfDvs9rsT0cT7OD2v9xch+dLhcauuKkCRDA7Qq9BBoOQwVDGd44Pgc3DC3VELBgBACkAAJQAbABhGLcp8Adg/X9/AAsICbuIIS4CAABMn4Ore96Cs+AF/qgT6IUByGIQArMBqCgRw4FQc2sEPs+MRISRb5ASBEh4YIAAchG5HBj5PhhZEsRRX7vpROHUeBVRYTBjHEexWHIe+onPu+L7YSAuF8YgDF3sJiHfl+rHSchrGqVRYGCFUQGCUp8FPqREkmW+Gnkap6EWTJcl6QJfpEcZv5mb+0k6TReD0YZTGSW+1nPr+2k8bpeDSXWIpAA==="
SELF_CONTAINED_SOLUTION = "653418279174259863982673451528961347317542986496387512769835124831724695245196738"
#: "Sandwich Sudoku" by Cracking the Cryptic.
SANDWICH = "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1p7rjtn/nQaDQANwCGAGwCuceAEZUaCKJgA7BABcMsgdz56uR9sMMjqB42YumrdqrXrhxa7AHcIAYwAWYaQFt8UE8YSUkEEAAlAAYAYXkQVAkZORAADhAKEBCwiJjYgCZEkGTZCIKAZkzSbNDw+Ci4qqSpMob5ADZq4Lq8uIAWYtLU+QBWbtrchvzxlpTyqqyc+sbYrrm2kHlFmuW+2IB2IdbUiuiJvem4jI3UgqOl3qvYxGP5hp2eqaj5WPPbiKdC5PKIFP5vTYPXYgyIVcEAj7A76RfrwkonQGDR7I0Zo4aAhLYlaRDp4jENAqE6HIg5k95bV5EvJpOmbCqfSbExCsu6ZWhEIA="
PUBLIC = [BEHEMOTH, BLACK_KROPKI_X, SELF_CONTAINED, SANDWICH]


def pack(data: dict) -> str:
    """An f-puzzles puzzle string, compressed by the lzstring package."""
    return LZ.compressToBase64(json.dumps(data))


def grid(n: int, givens: dict[tuple[int, int], int] | None = None, regions: list[list] | None = None) -> list:
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            cell = {}
            if givens and (r, c) in givens:
                cell = {"value": givens[(r, c)], "given": True}
            if regions is not None:
                cell["region"] = regions[r][c]
            row.append(cell)
        rows.append(row)
    return rows


def rc(cell: int, n: int) -> str:
    return f"R{cell // n + 1}C{cell % n + 1}"


def unit_sets(units) -> set[frozenset[int]]:
    return {frozenset(u) for u in units}


def split_values(text: str, n: int) -> list[int]:
    """Read a solution whose values run together ("91510..."): the one split into N rows and
    columns of different values 1..N."""
    rows: list[list[int]] = []
    found: list[list[int]] = []
    cols: list[set[int]] = [set() for _ in range(n)]

    def go(i: int, row: list[int]) -> None:
        if found:
            return
        if len(row) == n:
            rows.append(list(row))
            if len(rows) == n:
                if i == len(text):
                    found.extend(rows)
            else:
                go(i, [])
            rows.pop()
            return
        for width in (1, 2):
            token = text[i:i + width]
            if len(token) < width or token[0] == "0":
                continue
            v = int(token)
            if 1 <= v <= n and v not in row and v not in cols[len(row)]:
                cols[len(row)].add(v)
                go(i + width, row + [v])
                cols[len(row)].discard(v)

    go(0, [])
    return [v for row in found for v in row]


# -- the decoder -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_the_decoder_agrees_with_the_lzstring_package(seed):
    rng = random.Random(seed)
    alphabets = ["ab", "abcdefgh", '{}[]":,0123456789 RCvaluegiven', "héllo wörld ’quotes’ ✓ 数独 Ω", "".join(map(chr, range(32, 127)))]
    for _ in range(25):
        letters = rng.choice(alphabets)
        text = "".join(rng.choice(letters) for _ in range(rng.choice([1, 2, 5, 40, 300, 2000])))
        packed = LZ.compressToBase64(text)
        assert decompress_from_base64(packed) == text == LZ.decompressFromBase64(packed)


@pytest.mark.parametrize("packed", PUBLIC)
def test_the_decoder_reads_public_strings_as_the_package_does(packed):
    text = decompress_from_base64(packed)
    assert text == LZ.decompressFromBase64(packed)
    assert isinstance(json.loads(text), dict)


def test_the_decoder_refuses_what_is_not_lz_string():
    assert decompress_from_base64("") is None
    assert decompress_from_base64("////") is None
    with pytest.raises(FPuzzlesError, match="'!' is not a base64 character"):
        decompress_from_base64("N4Ig!")


# -- the mapping ----------------------------------------------------------------------------


def test_a_classic_puzzle():
    data = {"size": 9, "title": "T", "author": "A", "ruleset": "R", "grid": grid(9, {(0, 0): 5, (8, 8): 9})}
    data["grid"][4][4] = {"value": 7}  # the solver's entry, not a given
    data["grid"][1][1] = {"centerPencilMarks": [1, 2], "c": "#ff0000"}
    puzzle = read(pack(data))
    assert isinstance(puzzle, Puzzle)
    assert puzzle.shape == Shape(3, 3) and puzzle.geometry == Geometry.of(Shape(3, 3)) and puzzle.cages == ()
    assert puzzle.givens[0] == 5 and puzzle.givens[80] == 9 and puzzle.givens[40] == 0 and sum(map(bool, puzzle.givens)) == 2
    assert (puzzle.title, puzzle.author, puzzle.rules, puzzle.variants, puzzle.source) == ("T", "A", "R", "", "f-puzzles")


@pytest.mark.parametrize("size, shape", [(4, Shape(2, 2)), (6, Shape(2, 3)), (8, Shape(2, 4)), (16, Shape(4, 4))])
def test_sizes_take_the_conventional_shape(size, shape):
    assert read(pack({"size": size, "grid": grid(size)})).shape == shape


def test_x_from_the_two_diagonals():
    puzzle = read(pack({"size": 9, "grid": grid(9), "diagonal+": True, "diagonal-": True}))
    assert puzzle.geometry == x(Shape(3, 3)) and puzzle.variants == "x"
    assert unit_sets(puzzle.geometry.units) == unit_sets(ref.rows(9) + ref.columns(9) + ref.boxes(3, 3) + ref.diagonals(9))
    for one in ("diagonal+", "diagonal-"):
        with pytest.raises(UnsupportedConstraint, match="one diagonal alone") as caught:
            read(pack({"size": 9, "grid": grid(9), one: True}))
        assert caught.value.constraint == one
    assert read(pack({"size": 9, "grid": grid(9), "diagonal+": False})).variants == ""


def test_jigsaw_from_the_cell_regions():
    regions = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 3, 3, 3], [2, 2, 2, 3]]
    puzzle = read(pack({"size": 4, "grid": grid(4, regions=regions)}))
    layout = "".join(str(v) for row in regions for v in row)
    assert puzzle.geometry == jigsaw(None, layout) and puzzle.variants == "jigsaw"
    assert unit_sets(puzzle.geometry.units[u] for u in puzzle.geometry.boxes) == unit_sets(ref.regions_of(layout))
    # regions left out of some cells are those cells' boxes
    partial = grid(4, regions=[[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]])
    for row in partial:
        for cell in row[:2]:
            del cell["region"]
    assert read(pack({"size": 4, "grid": partial})).geometry == Geometry.of(Shape(2, 2))


def test_bad_regions_are_refused():
    split = [[0, 1, 1, 0], [0, 1, 1, 0], [2, 2, 3, 3], [2, 2, 3, 3]]
    with pytest.raises(FPuzzlesError, match="regions: region 'A' is not connected"):
        read(pack({"size": 4, "grid": grid(4, regions=split)}))
    nowhere = grid(4)
    nowhere[1][2]["region"] = None
    with pytest.raises(UnsupportedConstraint, match="r2c3 is in no region"):
        read(pack({"size": 4, "grid": nowhere}))


def test_killer_cages_with_and_without_sums():
    data = {"size": 9, "grid": grid(9), "killercage": [
        {"cells": ["R1C1", "R1C2", "R2C1"], "value": "15", "outlineC": "#000"},
        {"cells": ["R9C9", "R9C8"]},
        {"cells": ["R5C5"], "value": 7},
    ]}
    puzzle = read(pack(data))
    assert puzzle.cages == (Cage((0, 1, 9), 15), Cage((79, 80)), Cage((40,), 7)) and puzzle.variants == "killer"
    data["killercage"].append({"cells": ["R3C3", "R3C4"], "value": "?"})
    with pytest.raises(UnsupportedConstraint, match="killer cage 4 has the clue '\\?'"):
        read(pack(data))
    data["killercage"][-1] = {"cells": ["R1C2", "R1C3"], "value": "5"}
    with pytest.raises(FPuzzlesError, match="killer cages: cage 4 .*r1c2 is in cage 1 too"):
        read(pack(data))
    data["killercage"][-1] = {"cells": ["R1C10"], "value": "5"}
    with pytest.raises(FPuzzlesError, match="'R1C10' is not a cell of the 9x9 grid"):
        read(pack(data))


def test_hyper_from_the_four_window_extra_regions():
    wins = [[rc(c, 9) for c in w] for w in ref.windows()]
    puzzle = read(pack({"size": 9, "grid": grid(9), "extraregion": [{"cells": w} for w in wins], "diagonal+": True, "diagonal-": True}))
    assert puzzle.geometry.units == (hyper(Shape(3, 3)).units[:27] + x(Shape(3, 3)).units[27:] + hyper(Shape(3, 3)).units[27:])
    assert puzzle.variants == "x,hyper"
    with pytest.raises(UnsupportedConstraint, match="extra regions other than the four windoku windows"):
        read(pack({"size": 9, "grid": grid(9), "extraregion": [{"cells": w} for w in wins[:3]]}))


@pytest.mark.parametrize("key", sorted(UNSUPPORTED))
def test_every_unsupported_constraint_is_named(key):
    value = ["ratio"] if key == "negative" else True if key in ("antiknight", "antiking", "disjointgroups", "nonconsecutive") else [{"cells": ["R1C1", "R1C2"], "value": "3"}]
    with pytest.raises(UnsupportedConstraint) as caught:
        read(pack({"size": 9, "grid": grid(9), key: value}))
    assert caught.value.constraint == key and repr(key) in str(caught.value)
    assert isinstance(caught.value, ParseError)
    # an empty list or false is no constraint
    assert read(pack({"size": 9, "grid": grid(9), key: [] if key != "antiknight" else False})).variants == ""


def test_cosmetic_cages_that_only_carry_metadata_are_read():
    data = {"size": 4, "grid": grid(4), "cage": [{"cells": [], "value": "title: Meta"}, {"value": "solution: 1234341221434321"}]}
    puzzle = read(pack(data))
    assert puzzle.title == "Meta" and puzzle.solution == tuple(int(ch) for ch in "1234341221434321")
    data["cage"].append({"cells": ["R1C1"], "value": "title: with a cell"})
    with pytest.raises(UnsupportedConstraint, match="'cage'"):
        read(pack(data))


def test_unknown_fields_are_refused_too():
    with pytest.raises(UnsupportedConstraint, match="'skyscraper' \\(unknown to sudokit\\)"):
        read(pack({"size": 9, "grid": grid(9), "skyscraper": [{"cell": "R0C1", "value": "3"}]}))
    cells = grid(9)
    cells[2][3]["givenPencilMarks"] = [1, 2]
    with pytest.raises(UnsupportedConstraint, match="'givenPencilMarks' .*at r3c4"):
        read(pack({"size": 9, "grid": cells}))


@pytest.mark.parametrize(
    "data, message",
    [
        ({"size": 99, "grid": []}, "'size' must be a whole number 1..64"),
        ({"size": 4, "grid": grid(9)}, "'grid' must be 4 rows of 4 cells"),
        ({"size": 4, "grid": [[{}, {}, {}, {"value": 5, "given": True}]] + grid(4)[1:]}, "grid r1c4: a given is a digit 1..4, not 5"),
        ({"size": 4, "grid": [[{}, {}, {}, 3]] + grid(4)[1:]}, "grid r1c4: a cell must be a JSON object"),
    ],
)
def test_bad_json_is_refused_with_its_place(data, message):
    with pytest.raises(FPuzzlesError, match=message):
        read(pack(data))


def test_the_solution_is_read_when_it_is_one():
    values = list(range(1, 5)) * 4
    assert read(pack({"size": 4, "grid": grid(4), "solution": values})).solution == tuple(values)
    assert read(pack({"size": 4, "grid": grid(4), "solution": "".join(map(str, values))})).solution == tuple(values)
    assert read(pack({"size": 4, "grid": grid(4), "solution": ",".join(map(str, values))})).solution == tuple(values)
    assert read(pack({"size": 4, "grid": grid(4), "solution": [0] * 16})).solution is None


# -- links and strings ------------------------------------------------------------------------


def test_links_and_prefixes():
    packed = pack({"size": 9, "grid": grid(9, {(0, 0): 3}), "diagonal+": True, "diagonal-": True})
    plus = packed.replace("+", " ") if "+" in packed else packed
    forms = [
        packed,
        "fpuzzles" + packed,
        f"https://www.f-puzzles.com/?load={packed}",
        f"https://sudokupad.app/fpuzzles{packed}",
        f"sudokupad.app/?puzzleid=fpuzzles{packed}",
        f"https://app.crackingthecryptic.com/sudoku/fpuzzles{packed}",
        "https://www.f-puzzles.com/?load=" + packed.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"),
        "  " + packed[:40] + "\n" + packed[40:] + "\n",
        "fpuzzles" + plus,
    ]
    for form in forms:
        puzzle = read(form)
        assert puzzle.givens[0] == 3 and puzzle.variants == "x", form


def test_a_link_that_lost_a_slash_of_a_double_slash_is_mended():
    rng = random.Random(1)
    for _ in range(2000):  # a 16x16 puzzle whose string holds '//'
        givens = {(r, c): rng.randint(1, 16) for r in range(16) for c in range(16) if rng.random() < 0.3}
        packed = pack({"size": 16, "grid": grid(16, givens)})
        if "//" in packed:
            break
    else:
        pytest.skip("no packed string with '//' came up")
    collapsed = packed.replace("//", "/")
    puzzle = read("https://sudokupad.app/fpuzzles" + collapsed)
    assert puzzle.givens == tuple(givens.get(divmod(cell, 16), 0) for cell in range(256))


@pytest.mark.parametrize(
    "text, message",
    [
        ("https://sudokupad.app/abc123", "short link"),
        ("fpuzzlesAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "does not decode"),
        ("ctcN4IgzglgXgpiBcBOANCALhNAbO8QGEsIAHYmAExFQEMBXNAC", "'ctc' puzzle strings are not supported"),
        ("fpuzzles" + LZ.compressToBase64("not json"), "not JSON"),
        ("fpuzzles" + LZ.compressToBase64("[1, 2]"), "not a JSON object"),
        ("https://www.f-puzzles.com/?load=N4Ig!!" + "A" * 30, "'!' is not a base64 character"),
    ],
)
def test_what_cannot_be_read_says_why(text, message):
    with pytest.raises(FPuzzlesError, match=message):
        read(text)


# -- the public puzzles ----------------------------------------------------------------------------


def test_behemoth_16x16_jigsaw_killer():
    """Every field of the public 16x16 maps, and the setter's solution obeys the imported units and cages."""
    data = json.loads(LZ.decompressFromBase64(BEHEMOTH))
    puzzle = read(BEHEMOTH)
    n = 16
    assert puzzle.shape == Shape(4, 4) and puzzle.variants == "jigsaw,killer" and puzzle.title == "Behemoth"
    # the regions, read from the JSON here: a cell's own region, else its 4x4 box
    ids = []
    for r, row in enumerate(data["grid"]):
        for c, cell in enumerate(row):
            ids.append(cell["region"] if "region" in cell else (r // 4) * 4 + c // 4)
    regions = [[cell for cell in range(n * n) if ids[cell] == i] for i in sorted(set(ids))]
    geo = puzzle.geometry
    assert unit_sets(geo.units) == unit_sets(ref.rows(n) + ref.columns(n) + regions)
    assert all(ids[cell] == ids[geo.units[geo.units_of[cell][BOX]][0]] for cell in range(n * n))
    cages = [([int(m[1:].split("C")[0]) * n - n + int(m.split("C")[1]) - 1 for m in cage["cells"]], None) for cage in data["killercage"]]
    assert {(frozenset(c.cells), c.total) for c in puzzle.cages} == {(frozenset(c), t) for c, t in cages}
    solution = split_values(BEHEMOTH_SOLUTION, n)
    assert ref.obeys(solution, n, geo.units, [(c.cells, c.total) for c in puzzle.cages])
    assert all(g in (0, v) for g, v in zip(puzzle.givens, solution)) and sum(map(bool, puzzle.givens)) == 69


def test_black_kropki_x_is_refused_and_its_x_part_maps():
    with pytest.raises(UnsupportedConstraint) as caught:
        read(BLACK_KROPKI_X)
    assert caught.value.constraint in ("littlekillersum", "negative", "ratio")
    data = json.loads(LZ.decompressFromBase64(BLACK_KROPKI_X))
    for key in ("littlekillersum", "negative", "ratio"):
        del data[key]
    puzzle = from_json(data)
    solution = [int(ch) for ch in BLACK_KROPKI_X_SOLUTION]
    assert puzzle.variants == "x" and ref.obeys(solution, 9, list(puzzle.geometry.units) + ref.diagonals(9))
    assert all(g in (0, v) for g, v in zip(puzzle.givens, solution))


def test_self_contained_is_refused_for_anti_knight_and_its_cages_map():
    with pytest.raises(UnsupportedConstraint, match="'antiknight' \\(anti-knight\\)"):
        read(SELF_CONTAINED)
    data = json.loads(LZ.decompressFromBase64(SELF_CONTAINED))
    del data["antiknight"]
    puzzle = from_json(data)
    solution = [int(ch) for ch in SELF_CONTAINED_SOLUTION]
    assert puzzle.variants == "killer" and len(puzzle.cages) == 9 and all(c.total for c in puzzle.cages)
    assert ref.obeys(solution, 9, ref.rows(9) + ref.columns(9) + ref.boxes(3, 3), [(c.cells, c.total) for c in puzzle.cages])
    assert all(cage.allows(solution) for cage in puzzle.cages)


def test_sandwich_is_refused_by_name():
    with pytest.raises(UnsupportedConstraint, match="'sandwichsum' \\(sandwich sums\\)"):
        read("https://sudokupad.app/fpuzzles" + SANDWICH)


# -- SudokuPad's own strings (scl) --------------------------------------------------------------------


def scl(zipped: str) -> str:
    return "scl" + LZ.compressToBase64(zipped)


def test_sudokupad_scl_givens_regions_cages_diagonals_and_metadata():
    cells = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"v": 1}
    cells[3][3] = {"v": "4"}
    regions = [[[0, 0], [0, 1], [1, 0], [1, 1]], [[0, 2], [0, 3], [1, 2], [1, 3]], [[2, 0], [3, 0], [3, 1], [3, 2]], [[2, 1], [2, 2], [2, 3], [3, 3]]]
    data = {
        "id": "x", "cs": 50, "ce": cells, "re": regions,
        "ca": [
            {"ce": [[0, 2], [0, 3]], "v": 7, "unique": True},
            {"ce": [[3, 0], [3, 1]], "sum": 5, "unique": True},
            {"v": "title: Tiny"}, {"v": "author: Someone"}, {"v": "rules: Normal rules"},
            {"v": "solution: 1234341221434321"},
        ],
        "l": [{"wp": [[0, 0], [4, 4]], "c": "34BBE6", "th": 2}, {"wp": [[0, 4], [4, 0]], "c": "34BBE6", "th": 2}],
    }
    zipped = json.dumps(data).replace('"', "'")  # SudokuPad writes single quotes
    puzzle = read(scl(zipped))
    assert puzzle.source == "SudokuPad" and puzzle.shape == Shape(2, 2)
    assert puzzle.givens[0] == 1 and puzzle.givens[15] == 4 and sum(map(bool, puzzle.givens)) == 2
    assert puzzle.variants == "x,jigsaw,killer"
    assert puzzle.cages == (Cage((2, 3), 7), Cage((12, 13), 5))
    assert unit_sets(puzzle.geometry.units[u] for u in puzzle.geometry.boxes) == unit_sets([[r * 4 + c for r, c in reg] for reg in regions])
    assert (puzzle.title, puzzle.author, puzzle.rules) == ("Tiny", "Someone", "Normal rules")
    assert puzzle.solution == tuple(int(ch) for ch in "1234341221434321")


def test_sudokupad_scl_unquoted_keys_and_short_values():
    zipped = "{ce:[[{v:1},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],ca:[{ce:[[1,1],[1,2]],v:3,unique:t}],cs:50}"
    puzzle = read("https://sudokupad.app/" + scl(zipped))
    assert puzzle.givens[0] == 1 and puzzle.cages == (Cage((5, 6), 3),) and puzzle.geometry == Geometry.of(Shape(2, 2))


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"u": [{"ct": [0.5, 0.5], "w": 1, "h": 1, "c2": "CFCFCF"}]}, "'underlays' \\(underlays"),
        ({"o": [{"ct": [1, 1], "te": "x"}]}, "'overlays'"),
        ({"a": [{"wp": [[0.5, 0.5], [1.5, 1.5]]}]}, "'arrows'"),
        ({"l": [{"wp": [[0.5, 0.5], [1.5, 0.5]]}]}, "'lines' \\(lines other than the two diagonals\\)"),
        ({"l": [{"wp": [[0, 0], [4, 4]]}]}, "one diagonal alone"),
        ({"ca": [{"ce": [[0, 0], [0, 1]], "v": "x", "unique": True}]}, "clue 'x', not a sum"),
        ({"ca": [{"ce": [[0, 0], [0, 1]], "unique": False, "hidden": True}]}, "cage 1 is not a killer cage"),
        ({"re": [[[0, 0], [0, 1], [1, 0], [1, 1]]]}, "r1c3 is in no region"),
    ],
)
def test_sudokupad_scl_refuses_what_it_does_not_model(extra, message):
    data = {"ce": [[{} for _ in range(4)] for _ in range(4)]}
    data.update(extra)
    with pytest.raises(FPuzzlesError, match=message):
        read(scl(json.dumps(data)))


def test_a_killer_string_reaches_the_solver():
    """The Wikipedia killer (tests/data/published_killers.jsonl) as an f-puzzles string: its
    cages ride on the grid's geometry, and the engine and mip find the published solution."""
    from pathlib import Path

    from sudokit import solving

    record = json.loads((Path(__file__).parent / "data" / "published_killers.jsonl").read_text().splitlines()[0])
    cages = []
    for line in record["cages"]:
        cells, total = line.split("=")
        cages.append({"cells": [name.upper() for name in cells.split()], "value": total.strip()})
    puzzle = read(pack({"size": 9, "grid": grid(9), "killercage": cages}))
    assert puzzle.variants == "killer" and puzzle.grid.geometry.cages == puzzle.cages
    for method in ("fast", "mip"):
        result = solving.count(puzzle.grid, 2, method=method)
        assert result.count == 1 and result.solution.line() == record["solution"]
