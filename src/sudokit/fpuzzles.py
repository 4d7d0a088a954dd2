"""Import f-puzzles and SudokuPad puzzle strings: the givens, the variant geometry and the killer cages.

Setters share puzzles as f-puzzles links (``f-puzzles.com/?load=N4Ig...``)
and SudokuPad links (``sudokupad.app/fpuzzlesN4Ig...``, ``.../sclN4Ig...``).
The long ones carry the whole puzzle: JSON, compressed with lz-string into
base64. This module decodes them with a small lz-string decoder of its own
(:func:`decompress_from_base64`) and maps the JSON to a :class:`Puzzle`: its
shape, its givens, its geometry (:mod:`sudokit.variants`: X diagonals,
jigsaw regions, the windoku windows) and its cages (:mod:`sudokit.killer`).
Every other constraint (thermometers, arrows, kropki dots, anti-knight, ...)
raises :class:`UnsupportedConstraint` naming it: nothing is dropped in
silence. Short links (a few letters) need the network, and are refused.

>>> import json
>>> raw = "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1p7rjtn/nQaDQANwCGAGwCuceAEZUaCKJgA7BABcMsgdz56uR9sMMjqB42YumrdqrXrhxa7AHcIAYwAWYaQFt8UE8YSUkEEAAlAAYAYXkQVAkZORAADhAKEBCwiJjYgCZEkGTZCIKAZkzSbNDw+Ci4qqSpMob5ADZq4Lq8uIAWYtLU+QBWbtrchvzxlpTyqqyc+sbYrrm2kHlFmuW+2IB2IdbUiuiJvem4jI3UgqOl3qvYxGP5hp2eqaj5WPPbiKdC5PKIFP5vTYPXYgyIVcEAj7A76RfrwkonQGDR7I0Zo4aAhLYlaRDp4jENAqE6HIg5k95bV5EvJpOmbCqfSbExCsu6ZWhEIA="
>>> sorted(json.loads(decompress_from_base64(raw)))
['grid', 'sandwichsum', 'size']
>>> read(raw)
Traceback (most recent call last):
...
sudokit.fpuzzles.UnsupportedConstraint: f-puzzles constraint 'sandwichsum' (sandwich sums) is not supported by sudokit
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import unquote, urlsplit

from .errors import ParseError
from .geometry import Geometry, Shape, shape_of
from .killer import Cage, CageError, check_cages

if TYPE_CHECKING:  # pragma: no cover
    from .grid import Grid
from .variants import LayoutError, combine, describe, hyper, jigsaw, windows, x

# -- lz-string -----------------------------------------------------------------------

#: lz-string's base64 alphabet ('=' is padding, read as 64).
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_BASE64_VALUE = {ch: i for i, ch in enumerate(BASE64)}


def decompress_from_base64(text: str) -> str | None:
    """lz-string's ``decompressFromBase64``: the text, or ``None`` when ``text`` is not a valid stream.

    lz-string is LZW over a dictionary that grows from single characters;
    codes are written least significant bit first, ``numBits`` wide, and
    widen as the dictionary doubles. Code 0 and 1 bring a new 8- or 16-bit
    character, 2 ends the stream. The base64 form packs 6 bits per symbol.

    >>> decompress_from_base64("N4IgzglgXgpiBcBOAvkA")
    '{"size":9}'
    """
    if text == "":
        return None
    try:
        values = [_BASE64_VALUE[ch] for ch in text]
    except KeyError as missing:
        raise FPuzzlesError(f"{missing.args[0]!r} is not a base64 character of an lz-string puzzle") from None
    units = _decompress(len(values), 32, lambda i: values[i] if i < len(values) else 0)
    if units is None:
        return None
    # JavaScript strings are UTF-16: pair the surrogates the stream carries one by one.
    return "".join(units).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _decompress(length: int, reset: int, value_at: Callable[[int], int]) -> list[str] | None:
    dictionary: list[Any] = [0, 1, 2]
    enlarge_in, num_bits = 4, 3
    state = {"val": value_at(0), "position": reset, "index": 1}

    def read(width: int) -> int:
        bits = 0
        for power in range(width):
            if state["val"] & state["position"]:
                bits |= 1 << power
            state["position"] >>= 1
            if state["position"] == 0:
                state["position"] = reset
                state["val"] = value_at(state["index"])
                state["index"] += 1
        return bits

    first = read(2)
    if first == 2:
        return []
    if first > 2:
        return None
    c = chr(read(8 if first == 0 else 16))
    dictionary.append(c)
    w, result = c, [c]
    while True:
        if state["index"] > length:
            return None
        code = read(num_bits)
        if code in (0, 1):
            dictionary.append(chr(read(8 if code == 0 else 16)))
            code = len(dictionary) - 1
            enlarge_in -= 1
        elif code == 2:
            return result
        if enlarge_in == 0:
            enlarge_in, num_bits = 1 << num_bits, num_bits + 1
        if code < len(dictionary):
            entry = dictionary[code]
        elif code == len(dictionary):
            entry = w + w[0]
        else:
            return None
        result.append(entry)
        dictionary.append(w + entry[0])
        enlarge_in -= 1
        w = entry
        if enlarge_in == 0:
            enlarge_in, num_bits = 1 << num_bits, num_bits + 1


# -- errors and the result -----------------------------------------------------------


class FPuzzlesError(ParseError):
    """A puzzle string that cannot be imported (not lz-string, not JSON, a bad field...)."""


class UnsupportedConstraint(FPuzzlesError):
    """A constraint sudokit does not model; ``constraint`` is its field name in the JSON."""

    def __init__(self, constraint: str, description: str, source: str = "f-puzzles") -> None:
        self.constraint = constraint
        super().__init__(f"{source} constraint {constraint!r} ({description}) is not supported by sudokit")


@dataclass(frozen=True)
class Puzzle:
    """An imported puzzle: everything :func:`read` understood, as sudokit's own data.

    ``givens`` are N² values, 0 for a blank; ``cages`` are killer cages
    (:class:`~sudokit.killer.Cage`); ``solution`` is the setter's solution
    when the string carries one that reads as N² values.
    """

    shape: Shape
    givens: tuple[int, ...]
    geometry: Geometry
    cages: tuple[Cage, ...] = ()
    title: str | None = None
    author: str | None = None
    rules: str | None = None
    solution: tuple[int, ...] | None = None
    source: str = "f-puzzles"

    @property
    def variants(self) -> str:
        """The ``--variant`` names: ``"x,killer"``, or ``""`` for a classic puzzle."""
        return describe(self.geometry, killer=bool(self.cages))

    @property
    def grid(self) -> "Grid":
        """The puzzle as a :class:`~sudokit.grid.Grid` under its units, its cages on the
        geometry: what the solvers take (``sudokit.solve(puzzle.grid)``)."""
        from .grid import Grid

        return Grid(self.givens, self.shape, geometry=self.geometry.with_cages(self.cages))


# -- reading ------------------------------------------------------------------------

#: f-puzzles fields sudokit refuses, with what they are.
UNSUPPORTED = {
    "thermometer": "thermometers",
    "arrow": "arrows",
    "littlekillersum": "little killer sums",
    "ratio": "kropki black dots (ratio)",
    "difference": "kropki white dots (difference)",
    "xv": "XV sums",
    "palindrome": "palindrome lines",
    "sandwichsum": "sandwich sums",
    "even": "even cells",
    "odd": "odd cells",
    "clone": "clones",
    "quadruple": "quadruples",
    "betweenline": "between lines",
    "lockout": "lockout lines",
    "minimum": "minimum cells",
    "maximum": "maximum cells",
    "antiknight": "anti-knight",
    "antiking": "anti-king",
    "disjointgroups": "disjoint groups",
    "nonconsecutive": "non-consecutive",
    "negative": "a negative constraint: every possible clue of its kind is given",
    "renban": "renban lines",
    "whispers": "German whispers lines",
    "regionsumline": "region sum lines",
    "entropicline": "entropic lines",
    "modularline": "modular lines",
    "nabner": "nabner lines",
    "doublearrow": "double arrows",
    "zipperline": "zipper lines",
    "cage": "cosmetic cages, which may carry rules",
    "line": "cosmetic lines, which may carry rules",
    "rectangle": "cosmetic rectangles, which may carry rules",
    "circle": "cosmetic circles, which may carry rules",
    "text": "cosmetic text, which may carry rules",
}
#: f-puzzles fields that describe the puzzle without constraining it.
METADATA = {"title", "author", "ruleset", "solution", "disabledlogic", "truecandidatesoptions"}
#: Per-cell f-puzzles fields: the puzzle's (value, given, region) and the solver's marks and colours.
CELL_FIELDS = {"value", "given", "region", "c", "cArray", "centerPencilMarks", "cornerPencilMarks", "highlight"}

_CELL_RC = re.compile(r"R(\d+)C(\d+)")
_SHORT_ID = 20  # SudokuPad: an id shorter than this is a short link


def read(text: str) -> Puzzle:
    """Import an f-puzzles or SudokuPad puzzle: a long link, or its puzzle string.

    Accepted: ``https://www.f-puzzles.com/?load=<data>``, SudokuPad links
    whose path or ``puzzleid`` is ``fpuzzles<data>`` or ``scl<data>``, and
    those strings bare. Raises :class:`FPuzzlesError` (a
    :class:`~sudokit.errors.ParseError`) for what cannot be read, and
    :class:`UnsupportedConstraint` for a constraint sudokit does not model.
    """
    kind, data = _payload(text)
    raw = _decode(data, (lambda text: _is_json(_unzip_scl(text))) if kind == "scl" else _is_json)
    if not raw:
        raise FPuzzlesError("the puzzle string does not decode: it is not lz-string-compressed base64 (is the link cut short?)")
    if kind == "scl":
        return _from_scl(_load_json(_unzip_scl(raw)))
    return from_json(_load_json(raw))


def _decode(data: str, readable: Callable[[str], bool]) -> str | None:
    """The decoded text; when it is not ``readable`` and the data has '/', the same with some '/'
    doubled back to '//' (a link passed through a URL cleaner loses them), fewest first, as
    SudokuPad does."""
    raw = decompress_from_base64(data)
    if raw and readable(raw):
        return raw
    slashes = [i for i, ch in enumerate(data) if ch == "/"][:10]
    for count in range(1, len(slashes) + 1):
        for chosen in combinations(slashes, count):
            fixed = "".join(ch + "/" if i in chosen else ch for i, ch in enumerate(data))
            again = decompress_from_base64(fixed)
            if again and readable(again):
                return again
    return raw


def _is_json(raw: str) -> bool:
    try:
        json.loads(raw)
    except ValueError:
        return False
    return True


def _load_json(raw: str) -> dict:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise FPuzzlesError(f"the decoded puzzle is not JSON ({error.msg} at character {error.pos})") from None
    if not isinstance(data, dict):
        raise FPuzzlesError("the decoded puzzle is not a JSON object")
    return data


def _payload(text: str) -> tuple[str, str]:
    """(``"fpuzzles"`` or ``"scl"``, the base64 data) from a link or a bare string."""
    text = text.strip()
    if "://" in text or text.startswith(("www.", "f-puzzles.com", "sudokupad.app")):
        url = urlsplit(text if "://" in text else "https://" + text)
        query = dict(part.split("=", 1) for part in url.query.split("&") if "=" in part)
        text = query.get("load") or query.get("puzzleid") or url.path.lstrip("/")
        for prefix in ("sudoku/", "puzzle/"):  # app.crackingthecryptic.com/sudoku/<id>
            if text.startswith(prefix):
                text = text[len(prefix):]
    if "%" in text:
        text = unquote(text)
    text = "".join(text.replace(" ", "+").split())  # '+' read as a space from a query; line breaks
    for prefix in ("fpuzzles", "scl"):
        if text.startswith(prefix):
            return prefix, text[len(prefix):]
    if text.startswith("ctc"):
        raise FPuzzlesError("SudokuPad 'ctc' puzzle strings are not supported (only 'fpuzzles' and 'scl')")
    if len(text) < _SHORT_ID:
        raise FPuzzlesError(
            f"{text!r} looks like a short link, which needs the network to look up; paste the long puzzle string instead"
        )
    return "fpuzzles", text


def _set(value: Any) -> bool:
    return value not in (None, False, "", [], {})


def from_json(data: dict) -> Puzzle:
    """Map decoded f-puzzles JSON to a :class:`Puzzle` (see :func:`read`)."""
    size = data.get("size", 9)
    if not isinstance(size, int) or not 1 <= size <= 64:
        raise FPuzzlesError(f"f-puzzles 'size' must be a whole number 1..64, not {size!r}")
    shape = shape_of(Shape.for_size(size))
    meta: dict[str, str] = {}
    for key, value in data.items():
        if key in ("size", "grid", "killercage", "diagonal+", "diagonal-", "extraregion") or key in METADATA:
            continue
        if key == "cage" and isinstance(value, list) and all(_is_meta(cage, meta) for cage in value):
            continue  # cages without cells that only carry "title: ..." and the like
        if _set(value):
            if key == "negative":
                raise UnsupportedConstraint(key, f"negative {', '.join(map(str, value))}: every possible clue of its kind is given")
            raise UnsupportedConstraint(key, UNSUPPORTED.get(key, "unknown to sudokit"))
    grid = data.get("grid")
    if not isinstance(grid, list) or len(grid) != size or any(not isinstance(row, list) or len(row) != size for row in grid):
        raise FPuzzlesError(f"f-puzzles 'grid' must be {size} rows of {size} cells")
    givens, regions = [], []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            where = f"f-puzzles grid r{r + 1}c{c + 1}"
            if not isinstance(cell, dict):
                raise FPuzzlesError(f"{where}: a cell must be a JSON object")
            for key in cell:
                if key not in CELL_FIELDS and _set(cell[key]):
                    raise UnsupportedConstraint(key, f"a cell field unknown to sudokit, at r{r + 1}c{c + 1}")
            value = cell.get("value")
            if cell.get("given") and value is not None:
                if not isinstance(value, int) or not 1 <= value <= size:
                    raise FPuzzlesError(f"{where}: a given is a digit 1..{size}, not {value!r}")
                givens.append(value)
            else:
                givens.append(0)  # a value that is not given is the solver's entry, not the puzzle's
            if "region" in cell:
                if cell["region"] is None:
                    raise UnsupportedConstraint("region", f"r{r + 1}c{c + 1} is in no region")
                regions.append(cell["region"])
            else:
                regions.append(shape.box_of(r * size + c))
    parts = [shape.geometry]
    if regions != [shape.box_of(cell) for cell in range(size * size)]:
        parts.append(_jigsaw(shape, regions, "f-puzzles"))
    main, anti = _set(data.get("diagonal-")), _set(data.get("diagonal+"))
    if main != anti:
        raise UnsupportedConstraint("diagonal-" if main else "diagonal+", "one diagonal alone; X needs both")
    if main:
        parts.append(x(shape))
    extra = [_cells(region.get("cells", []), size, "extraregion") for region in data.get("extraregion") or []]
    if extra:
        if size != 9 or {frozenset(e) for e in extra} != {frozenset(w) for w in windows(shape)}:
            raise UnsupportedConstraint("extraregion", "extra regions other than the four windoku windows")
        parts.append(hyper(shape))
    cages = []
    for number, cage in enumerate(data.get("killercage") or [], 1):
        value = cage.get("value")
        if value in (None, ""):
            total = None
        elif isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
            total = int(value)
        else:
            raise UnsupportedConstraint("killercage", f"killer cage {number} has the clue {value!r}, not a sum")
        cages.append(Cage(tuple(_cells(cage.get("cells", []), size, f"killer cage {number}")), total))
    return Puzzle(
        shape=shape,
        givens=tuple(givens),
        geometry=combine(*parts),
        cages=_checked(cages, size),
        title=_text(data.get("title")) or meta.get("title"),
        author=_text(data.get("author")) or meta.get("author"),
        rules=_text(data.get("ruleset")) or meta.get("rules"),
        solution=_solution(data.get("solution"), size) or _solution(meta.get("solution"), size),
    )


def _is_meta(cage: Any, meta: dict[str, str]) -> bool:
    """Whether an f-puzzles cosmetic cage only carries metadata (no cells, a "key: value" text);
    if so, its key and value go into ``meta``."""
    if not isinstance(cage, dict) or cage.get("cells"):
        return False
    match = _META.match(str(cage.get("value") or ""))
    if match:
        meta[match.group(1)] = match.group(2)
    return bool(match)


def _cells(names: list, size: int, where: str) -> list[int]:
    cells = []
    for name in names:
        match = _CELL_RC.fullmatch(str(name))
        if not match or not (1 <= int(match.group(1)) <= size and 1 <= int(match.group(2)) <= size):
            raise FPuzzlesError(f"{where}: {name!r} is not a cell of the {size}x{size} grid (R1C1..R{size}C{size})")
        cells.append((int(match.group(1)) - 1) * size + int(match.group(2)) - 1)
    return cells


def _jigsaw(shape: Shape, regions: list, source: str) -> Geometry:
    """A jigsaw geometry from one region id per cell (any hashable ids)."""
    symbols: dict[Any, str] = {}
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@#$%&*+-=?!"
    letters = []
    for region in regions:
        if region not in symbols:
            if len(symbols) == len(alphabet):
                raise FPuzzlesError(f"{source}: too many regions")
            symbols[region] = alphabet[len(symbols)]
        letters.append(symbols[region])
    try:
        return jigsaw(shape, "".join(letters))
    except LayoutError as error:
        raise FPuzzlesError(f"{source} regions: {error}") from None


def _checked(cages: list[Cage], size: int) -> tuple[Cage, ...]:
    try:
        return check_cages(cages, size)
    except CageError as error:
        raise FPuzzlesError(f"killer cages: {error}") from None


def _text(value: Any) -> str | None:
    return None if value in (None, "") else str(value)


def _solution(value: Any, size: int) -> tuple[int, ...] | None:
    """The setter's solution when it reads as N² values 1..N (a list, commas, or one digit each)."""
    if isinstance(value, str):
        value = value.split(",") if "," in value else list(value) if len(value) == size * size else None
    if not isinstance(value, list) or len(value) != size * size:
        return None
    try:
        values = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        return None
    return values if all(1 <= v <= size for v in values) else None


# -- SudokuPad's own format (scl) -------------------------------------------------------

#: SudokuPad's short keys (its PuzzleZipper), long key by short key.
_SCL_KEYS = {
    "c": "color", "ca": "cages", "ct": "center", "c1": "borderColor", "c2": "backgroundColor",
    "ce": "cells", "cs": "cellSize", "a": "arrows", "o": "overlays", "u": "underlays", "w": "width",
    "h": "height", "v": "value", "vd": "videos", "l": "lines", "r": "rounded", "re": "regions",
    "fs": "fontSize", "th": "thickness", "hl": "headLength", "wp": "wayPoints", "t": "title",
    "te": "text", "d": "duration",
}
_META = re.compile(r"^([^: ]+):\s*(.+)", re.DOTALL)
_SCL_UNSUPPORTED = {
    "arrows": "arrows", "overlays": "overlays (dots, circles, clues)", "underlays": "underlays (shaded cells)",
    "lines": "lines other than the two diagonals", "videos": "videos",
}


def _unzip_scl(zipped: str) -> str:
    """SudokuPad's zipped JSON (unquoted keys, single quotes, ``t``/``f``, short colours) as JSON."""
    if '"' not in zipped:
        zipped = zipped.replace("\\'", "\u2019").replace("'", '"').replace("\u2019", "'")
    zipped = re.sub(r"([,{\[])([a-zA-Z0-9]+):", r'\1"\2":', zipped)
    zipped = re.sub(r"([,{\[])(?=[,}\]])", r"\1_", zipped)
    zipped = zipped.replace("{_}", "{}")
    zipped = re.sub(r"([,{\[])_", r"\1{}", zipped)
    zipped = re.sub(r"(:)f([,}\]])", r"\1false\2", zipped)
    zipped = re.sub(r"(:)t([,}\]])", r"\1true\2", zipped)
    zipped = re.sub(r"(:)#0([,}\]])", r'\1"#000000"\2', zipped)
    zipped = re.sub(r"(:)#F([,}\]])", r'\1"#FFFFFF"\2', zipped)
    zipped = re.sub(r"(:)([0-9a-fA-F]{6})([,}\]])", r'\1"#\2"\3', zipped)
    return zipped


def _long_keys(value: Any) -> Any:
    if isinstance(value, list):
        return [_long_keys(v) for v in value]
    if isinstance(value, dict):
        return {_SCL_KEYS.get(k, k): _long_keys(v) for k, v in value.items()}
    return value


def _from_scl(data: dict) -> Puzzle:
    """Map SudokuPad's classic JSON (cells, regions, cages, lines) to a :class:`Puzzle`."""
    data = _long_keys(data)
    rows = data.get("cells")
    if not isinstance(rows, list) or not rows or any(not isinstance(row, list) or len(row) != len(rows) for row in rows):
        raise FPuzzlesError("SudokuPad 'cells' must be N rows of N cells")
    size = len(rows)
    shape = shape_of(Shape.for_size(size))
    meta: dict[str, str] = {}
    cages: list[Cage] = []
    diagonal = set()
    for key, value in data.items():
        if key in ("id", "cellSize", "cells", "regions", "cages", "metadata", "settings", "title") or not _set(value):
            continue
        if key != "lines":
            raise UnsupportedConstraint(key, _SCL_UNSUPPORTED.get(key, "unknown to sudokit"), "SudokuPad")
        for line in value:
            points = [list(p) for p in line.get("wayPoints", [])]
            if points in ([[0, 0], [size, size]], [[size, size], [0, 0]]):
                diagonal.add("-")
            elif points in ([[0, size], [size, 0]], [[size, 0], [0, size]]):
                diagonal.add("+")
            else:
                raise UnsupportedConstraint("lines", _SCL_UNSUPPORTED["lines"], "SudokuPad")
    givens = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            value = cell.get("value") if isinstance(cell, dict) else None
            if value in (None, ""):
                givens.append(0)
                continue
            try:
                value = int(value)
            except (TypeError, ValueError):
                value = 0
            if not 1 <= value <= size:
                raise FPuzzlesError(f"SudokuPad cell r{r + 1}c{c + 1}: a given is a digit 1..{size}, not {cell.get('value')!r}")
            givens.append(value)
    for number, cage in enumerate(data.get("cages") or [], 1):
        cells = cage.get("cells") or []
        value = cage.get("value")
        if not cells:
            match = _META.match(str(value or ""))
            if match:
                meta[match.group(1)] = match.group(2)
            continue
        if cage.get("hidden") or cage.get("style") or cage.get("unique") is False:
            raise UnsupportedConstraint("cages", f"cage {number} is not a killer cage", "SudokuPad")
        total = cage.get("sum", value)
        if total in (None, ""):
            total = None
        elif str(total).strip().isdigit():
            total = int(total)
        else:
            raise UnsupportedConstraint("cages", f"cage {number} has the clue {total!r}, not a sum", "SudokuPad")
        try:
            cage_cells = tuple(int(r) * size + int(c) for r, c in cells)
        except (TypeError, ValueError):
            raise FPuzzlesError(f"SudokuPad cage {number}: cells are [row, column] pairs, 0-based") from None
        cages.append(Cage(cage_cells, total))
    parts = [shape.geometry]
    regions = data.get("regions")
    if _set(regions):
        ids = [None] * (size * size)
        for number, region in enumerate(regions):
            for r, c in region:
                if not (0 <= r < size and 0 <= c < size) or ids[r * size + c] is not None:
                    raise FPuzzlesError(f"SudokuPad region {number + 1}: cell {[r, c]} is outside the grid or in two regions")
                ids[r * size + c] = number
        if None in ids:
            cell = ids.index(None)
            raise UnsupportedConstraint("regions", f"r{cell // size + 1}c{cell % size + 1} is in no region", "SudokuPad")
        parts.append(_jigsaw(shape, ids, "SudokuPad"))  # the shape's own boxes come back as boxes
    if diagonal == {"+", "-"}:
        parts.append(x(shape))
    elif diagonal:
        raise UnsupportedConstraint("lines", "one diagonal alone; X needs both", "SudokuPad")
    return Puzzle(
        shape=shape,
        givens=tuple(givens),
        geometry=combine(*parts),
        cages=_checked(cages, size),
        title=meta.get("title") or _text(data.get("title")),
        author=meta.get("author"),
        rules=meta.get("rules"),
        solution=_solution(meta.get("solution"), size),
        source="SudokuPad",
    )

