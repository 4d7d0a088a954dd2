"""Text formats and streams: round trips, stream splitting, located errors.

Truth comes from outside the code under test: the data files in
shared/data (decoded here by hand, character by character), the rules
(tests/reference.py), and round trips through every format.
"""

from __future__ import annotations

import csv
import io
import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import BENCH, CASES, load_multisize, require_shared
from puzzles import SHAPES
from reference import obeys_rules, units

from sudokit.errors import ParseError, SudokuError
from sudokit.formats import (
    FORMATS,
    Entry,
    open_source,
    parse,
    parse_alphabet,
    parse_candidates,
    read_puzzles,
    render,
    render_block,
)
from sudokit.grid import Grid, Shape

DIABOLICAL = ".9.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7."
SEVENTEEN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def decode(text: str, alphabet: str, blanks: str = ".0") -> list[int]:
    """Independent decoding: a symbol's value is its 1-based place in the alphabet."""
    return [0 if ch in blanks and ch not in alphabet else alphabet.index(ch) + 1 for ch in text]


@st.composite
def grids(draw, shapes=SHAPES) -> Grid:
    rows, cols = draw(st.sampled_from(shapes))
    n = rows * cols
    fill = draw(st.floats(0.0, 1.0))
    values = draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    if fill < 0.3:  # mostly blank grids too
        values = [v if i % 3 == 0 else 0 for i, v in enumerate(values)]
    return Grid(values, (rows, cols))


def reference_masks(grid: Grid) -> list[int]:
    """Candidate masks from the reference geometry (no sudokit code)."""
    r, c = grid.shape.box_rows, grid.shape.box_cols
    n = r * c
    peers = [set() for _ in range(n * n)]
    for unit in units(r, c):
        for cell in unit:
            peers[cell].update(unit)
    out = []
    for cell, v in enumerate(grid.values):
        if v:
            out.append(1 << (v - 1))
        else:
            used = {grid.values[p] for p in peers[cell] if p != cell}
            out.append(sum(1 << (k - 1) for k in range(1, n + 1) if k not in used))
    return out


# -- alphabets ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("0-F", "0123456789ABCDEF"),
        ("1-9A-G", "123456789ABCDEFG"),
        ("1-9", "123456789"),
        ("GODAKCUBE", "GODAKCUBE"),
        ("a-f", "abcdef"),
        ("1-9A-Z", "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    ],
)
def test_parse_alphabet(spec, expected):
    assert parse_alphabet(spec) == expected


@pytest.mark.parametrize("spec, words", [
    ("1-9A-A9", ["'9'", "twice"]),
    ("GODAKCUBEG", ["'G'", "twice"]),
    ("9-1", ["9-1"]),
    ("Z-A", ["Z-A"]),
    ("A-", ["-"]),
    ("12.4", ["'.'"]),
    ("", ["at least one"]),
])
def test_parse_alphabet_refuses(spec, words):
    with pytest.raises(ParseError) as info:
        parse_alphabet(spec)
    for word in words:
        assert word in str(info.value)


# -- round trips -------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=grids(), fmt=st.sampled_from(FORMATS))
def test_round_trip_every_format(grid, fmt):
    text = render(grid, fmt)
    assert not text.endswith("\n")
    assert parse(text, shape=grid.shape) == grid
    assert parse(text, shape=grid.shape, format=fmt) == grid
    if fmt in ("boxed", "candidates", "jsonl") or grid.shape == Shape.for_size(grid.size):
        assert parse(text) == grid  # the box shape travels with the text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=grids())
def test_candidates_round_trip(grid):
    text = render(grid, "candidates")
    back, masks = parse_candidates(text)
    assert back == grid
    assert list(masks) == reference_masks(grid)
    assert masks == grid.candidate_masks()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=grids([(3, 3), (2, 3), (4, 4)]), fmt=st.sampled_from(FORMATS))
def test_round_trip_custom_alphabet(grid, fmt):
    alphabet = {9: "GODAKCUBE", 6: "abcdef", 16: "0-F"}[grid.size]
    text = render(grid, fmt, symbols=alphabet)
    assert parse(text, shape=grid.shape, symbols=alphabet) == grid


@pytest.mark.parametrize("shape", SHAPES)
def test_every_shape_reads_as_a_stream_in_every_layout(shape):
    full = Grid(list(range(1, shape[0] * shape[1] + 1)) * (shape[0] * shape[1]), shape)
    grid = Grid([v if i % 4 else 0 for i, v in enumerate(full.values)], shape)
    for fmt in ("rows", "spaced", "boxed", "candidates"):
        text = "\n\n".join([render(grid, fmt)] * 3) + "\n"
        entries = list(read_puzzles(text, shape=shape))
        assert [e.error for e in entries] == [None] * 3, fmt
        assert all(e.grid == grid for e in entries), fmt


def test_line_values_match_an_independent_decoding():
    grid = parse(DIABOLICAL)
    assert list(grid.values) == decode(DIABOLICAL, "123456789")
    assert parse(DIABOLICAL.replace(".", "0")) == grid


def test_renderings_look_like_the_classic_ones():
    grid = parse(DIABOLICAL)
    assert render(grid, "spaced").splitlines()[0] == ". 9 . 7 . . 8 6 ."
    assert render(grid, "rows").splitlines()[1] == ".31..5.2."
    boxed = render(grid, "boxed").splitlines()
    assert boxed[0] == "+-------+-------+-------+"
    assert boxed[1] == "| . 9 . | 7 . . | 8 6 . |"
    assert len(boxed) == 13
    assert render(grid, "jsonl") == json.dumps({"puzzle": DIABOLICAL})
    assert render(grid) == DIABOLICAL


def test_render_block_is_the_classic_block():
    puzzle = parse(DIABOLICAL)
    solution = parse("295743861431865927876192543387459216612387495549216738763524189928671354154938672")
    lines = render_block(puzzle, solution).splitlines()
    assert lines[0] == "=" * 19 and lines[10] == "-" * 19 and lines[-1] == "=" * 19
    assert len(lines) == 21
    assert lines[1] == ". 9 . 7 . . 8 6 ."
    assert lines[11] == "2 9 5 7 4 3 8 6 1"
    block = render_block(puzzle, None, message="no solution")
    assert block.splitlines()[11] == "no solution"


# -- streams ------------------------------------------------------------------------


def lines_of(entries: list[Entry]) -> list[int]:
    return [e.line for e in entries]


def test_one_puzzle_per_line_with_comments_and_blank_lines():
    text = f"# a data set\n{DIABOLICAL}\n\n{SEVENTEEN}\n   \n{DIABOLICAL}\n"
    entries = list(read_puzzles(text))
    assert [e.number for e in entries] == [1, 2, 3]
    assert lines_of(entries) == [2, 4, 6]
    assert [e.grid.line() for e in entries] == [DIABOLICAL, SEVENTEEN, DIABOLICAL]


def test_a_single_spaced_puzzle_on_stdin_is_one_puzzle():
    # the stream `sudoku | sudoku -`
    grid = parse(DIABOLICAL)
    for fmt in ("spaced", "rows", "boxed", "candidates"):
        entries = list(read_puzzles(io.StringIO(render(grid, fmt) + "\n")))
        assert len(entries) == 1, fmt
        assert entries[0].grid == grid and entries[0].line == 1


def test_classic_blocks_carry_their_solutions():
    puzzle = parse(DIABOLICAL)
    solution = parse("295743861431865927876192543387459216612387495549216738763524189928671354154938672")
    text = render_block(puzzle, solution) + "\n" + render_block(puzzle, None, message="no solution") + "\n"
    entries = list(read_puzzles(text))
    assert len(entries) == 2
    assert entries[0].grid == puzzle and entries[0].solution == solution
    assert entries[1].grid == puzzle and entries[1].solution is None
    assert lines_of(entries) == [2, 23]


def test_blocks_of_rows_separated_by_blank_lines():
    a, b = parse(DIABOLICAL), parse(SEVENTEEN)
    text = render(a, "rows") + "\n\n" + render(b, "boxed") + "\n\n\n" + render(a, "spaced") + "\n"
    entries = list(read_puzzles(text))
    assert [e.grid for e in entries] == [a, b, a]
    assert lines_of(entries) == [1, 11, 26]


def test_jsonl_stream_with_extra_keys_and_solutions():
    sol = "295743861431865927876192543387459216612387495549216738763524189928671354154938672"
    text = (
        json.dumps({"puzzle": DIABOLICAL, "solution": sol, "rating": 3.4}) + "\n"
        + json.dumps({"puzzle": "1.3..2.13....2..", "shape": "2x2"}) + "\n"
        + '{"puzzle": 5}\n'
        + '{"puzzle": "12\n'
    )
    entries = list(read_puzzles(text))
    assert entries[0].grid == parse(DIABOLICAL) and entries[0].solution == parse(sol)
    assert entries[1].grid.shape == Shape(2, 2)
    assert '"puzzle"' in str(entries[2].error) and "line 3" in str(entries[2].error)
    assert "JSON" in str(entries[3].error) and "line 4" in str(entries[3].error)


def test_mixed_sizes_each_get_their_own_size():
    four = "1.3..2.13....2.."
    six = "6.3......6.44.25....42.52.6......3.6"
    entries = list(read_puzzles(f"{four}\n{DIABOLICAL}\n{six}\n{four}\n"))
    assert [e.grid.size for e in entries] == [4, 9, 6, 4]
    forced = list(read_puzzles(f"{DIABOLICAL}\n{four}\n{DIABOLICAL}\n", shape="3x3"))
    assert [e.error is None for e in forced] == [True, False, True]
    assert "puzzle 2, line 2" in str(forced[1].error) and "81" in str(forced[1].error)


def test_small_line_data_sets_are_not_taken_for_rows():
    # 16 lines of 16 symbols: sixteen 4x4 puzzles, not one 16x16 puzzle
    four = ["1.3..2.13....2..", "..3..2.1.4...2..", "1234341221434321", "................"] * 4
    entries = list(read_puzzles("\n".join(four) + "\n"))
    assert len(entries) == 16 and all(e.grid.size == 4 for e in entries)


def test_reading_is_lazy():
    def endless():
        for i in itertools.count():
            yield DIABOLICAL if i % 2 else SEVENTEEN
    first = list(itertools.islice(read_puzzles(endless()), 5))
    assert [e.number for e in first] == [1, 2, 3, 4, 5]

    def endless_small():
        while True:
            yield "1.3..2.13....2..\n"
    assert len(list(itertools.islice(read_puzzles(endless_small()), 300))) == 300


# -- bad input ----------------------------------------------------------------------


def the_error(text: str, **kw) -> str:
    entries = list(read_puzzles(text, **kw))
    assert len(entries) == 1, [str(e.error) for e in entries]
    assert entries[0].error is not None
    with pytest.raises(ParseError) as info:
        parse(text, **kw)
    assert info.value.reason == entries[0].error.reason
    return str(entries[0].error)


def test_empty_input_yields_nothing():
    for text in ["", "\n\n", "# only a comment\n", "   \n\t\n"]:
        assert list(read_puzzles(text)) == []
        with pytest.raises(ParseError, match="no puzzle"):
            parse(text)


def test_wrong_length_names_the_nearest_sizes():
    message = the_error(DIABOLICAL[:80])
    assert "81 symbols expected" in message and "got 80" in message and "line 1" in message
    assert "puzzle 1" in message
    assert "64" in message  # the other nearest size, 8x8


def test_bad_character_names_character_and_column():
    text = DIABOLICAL[:40] + "x" + DIABOLICAL[41:]
    message = the_error(text)
    assert "'x'" in message and "column 41" in message and "line 1" in message


def test_bad_character_in_spaced_grid():
    rows = render(parse(DIABOLICAL), "spaced").splitlines()
    rows[4] = rows[4][:6] + "?" + rows[4][7:]
    message = the_error("\n".join(rows))
    assert "'?'" in message and "line 5" in message and "column 7" in message


def test_rows_messages():
    rows = render(parse(DIABOLICAL), "rows").splitlines()
    assert "only 7 rows; a 9x9 puzzle needs 9" in the_error("\n".join(rows[:7]))
    assert "10 rows" in the_error("\n".join(rows + [rows[0]]))
    short = rows[:2] + [rows[2][:8]] + rows[3:]
    assert "line 3: row 3 has 8 characters, a 9x9 row needs 9" in the_error("\n".join(short))


def test_rows_take_any_other_character_as_blank():
    rows = render(parse(DIABOLICAL), "rows").replace(".", "_").splitlines()
    rows[0] = rows[0].replace("_", " ", 1)
    assert parse("\n".join(rows), format="rows") == parse(DIABOLICAL)


def test_binary_garbage_is_reported_not_raised():
    garbage = "\x00\x01\x02PNG\ufffd\ufffd\n\x00" * 50 + "\n" + DIABOLICAL + "\n"
    entries = list(read_puzzles(garbage))
    assert entries[-1].grid == parse(DIABOLICAL)
    bad = [e for e in entries if e.error is not None]
    assert bad and all("line" in str(e.error) for e in bad)
    assert "\\x00" in str(bad[0].error) or "\\x01" in str(bad[0].error) or "�" in str(bad[0].error)


def test_invalid_utf8_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"\xff\xfe\x00garbage\n" + DIABOLICAL.encode() + b"\n")
    with open_source(str(path)) as fh:
        entries = list(read_puzzles(fh))
    assert entries[0].error is not None and entries[0].error.line == 1
    assert entries[1].grid == parse(DIABOLICAL) and entries[1].number == 2


def test_huge_line_is_refused_at_once():
    huge = "1" * 10_000_000
    entries = list(read_puzzles(huge + "\n" + DIABOLICAL + "\n"))
    assert len(entries) == 2
    assert "4096" in str(entries[0].error) and "line 1" in str(entries[0].error)
    assert len(entries[0].text) <= 200
    assert entries[1].grid is not None
    with pytest.raises(ParseError, match="4096"):
        parse(huge)
    big = "1" * 5000  # under the line limit, over the cell limit
    assert "4096" in str(next(read_puzzles(big)).error)


def test_one_bad_puzzle_never_sinks_the_others():
    text = "\n".join([DIABOLICAL, DIABOLICAL[:79], "hello", DIABOLICAL + "9", SEVENTEEN]) + "\n"
    entries = list(read_puzzles(text))
    assert [e.error is None for e in entries] == [True, False, False, False, True]
    assert [e.error.puzzle for e in entries if e.error] == [2, 3, 4]
    assert [e.error.line for e in entries if e.error] == [2, 3, 4]


def test_parse_wants_exactly_one_puzzle():
    with pytest.raises(ParseError, match="more than one"):
        parse(DIABOLICAL + "\n" + SEVENTEEN)
    with pytest.raises(ParseError, match="unknown format"):
        parse(DIABOLICAL, format="pdf")


def test_open_source_errors(tmp_path):
    with pytest.raises(SudokuError, match="no such file"):
        open_source(str(tmp_path / "missing.txt"))
    with pytest.raises(SudokuError, match="directory"):
        open_source(str(tmp_path))


# -- the data beside the project -------------------------------------------------


def test_multisize_cases_with_their_alphabets():
    for case in load_multisize():
        shape = (case["box_rows"], case["box_cols"])
        alphabet = case["symbols"]
        puzzle = parse(case["puzzle"], shape=shape, symbols=alphabet)
        assert list(puzzle.values) == decode(case["puzzle"], alphabet, "."), case["name"]
        solution = parse(case["solution"], shape=shape, symbols=alphabet) if case.get("solution") else None
        if solution is not None and case["count"] == 1:
            assert obeys_rules(solution.values, puzzle.values, *shape), case["name"]
        assert render(puzzle, symbols=alphabet) == case["puzzle"]
        # and the same puzzles as a JSON-lines stream with their own alphabets
    text = "".join(
        json.dumps({"puzzle": c["puzzle"], "symbols": c["symbols"], "shape": f"{c['box_rows']}x{c['box_cols']}"}) + "\n"
        for c in load_multisize()
    )
    entries = list(read_puzzles(text))
    assert all(e.error is None for e in entries)
    assert [e.grid.size for e in entries] == [c["size"] for c in load_multisize()]


def test_hexadoku_is_recognised_without_an_alphabet():
    for case in load_multisize():
        if case["symbols"] == "0123456789ABCDEF" and "0" in case["puzzle"]:
            assert parse(case["puzzle"]) == parse(case["puzzle"], symbols="0-F")


def test_counts_cases_decode_independently():
    with open(require_shared(CASES / "counts.tsv"), newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    text = "\n".join(r["puzzle"] for r in rows) + "\n"
    entries = list(read_puzzles(text))
    assert len(entries) == len(rows)
    for row, entry in zip(rows, entries):
        assert list(entry.grid.values) == decode(row["puzzle"], "123456789")


def test_bench_file_streams():
    path = require_shared(BENCH / "17_clue.txt")
    with open_source(str(path)) as fh:
        entries = list(itertools.islice(read_puzzles(fh), 500))
    with open(path) as fh:
        lines = [line.strip() for line in itertools.islice(fh, 500)]
    assert [e.grid.line() for e in entries] == [line.replace("0", ".") for line in lines]


# -- layouts written by other programs ----------------------------------------------

HODOKU_PM = """.----------------.----------------.----------------.
| 4    12   3    | 5    6    7    | 8    9    12   |
| 5    6    7    | 8    9    12   | 3    4    12   |
| 8    9    12   | 3    4    12   | 5    6    7    |
:----------------+----------------+----------------:
| 3    4    5    | 6    7    8    | 9    12   12   |
| 6    7    8    | 9    12   12   | 4    5    3    |
| 9    12   12   | 4    5    3    | 6    7    8    |
:----------------+----------------+----------------:
| 12   3    4    | 7    8    9    | 12   12   5    |
| 7    8    9    | 12   3    4    | 12   12   6    |
| 12   5    6    | 12   12   3    | 7    8    9    |
'----------------'----------------'----------------'"""


def test_hodoku_pencil_marks():
    grid, masks = parse_candidates(HODOKU_PM)
    rows = [line for line in HODOKU_PM.splitlines() if line.startswith("|")]
    cells = [tok for row in rows for tok in row.replace("|", " ").split()]
    assert len(cells) == 81
    for cell, (tok, value, mask) in enumerate(zip(cells, grid.values, masks)):
        assert mask == sum(1 << (int(d) - 1) for d in tok)
        assert value == (int(tok) if len(tok) == 1 else 0)
    assert parse(HODOKU_PM) == grid


def test_compact_and_borderless_boxes():
    compact = "\n".join(
        "|" + "|".join(r[i : i + 3] for i in (0, 3, 6)) + "|" for r in render(parse(DIABOLICAL), "rows").splitlines()
    )
    assert parse(compact) == parse(DIABOLICAL)
    spaced = render(parse(DIABOLICAL), "spaced").splitlines()
    bands = []
    for i, row in enumerate(spaced):
        t = row.split()
        bands.append(" | ".join(" ".join(t[j : j + 3]) for j in (0, 3, 6)))
        if i in (2, 5):
            bands.append("------+-------+------" if i == 2 else "-" * 21)
    assert parse("\n".join(bands)) == parse(DIABOLICAL)
    assert [e.grid for e in read_puzzles("\n".join(bands) + "\n\n" + DIABOLICAL)] == [parse(DIABOLICAL)] * 2


def test_boxed_text_carries_the_box_shape():
    grid = Grid([1, 2, 3, 4, 5, 6] + [0] * 30, (3, 2))
    assert parse(render(grid, "boxed")).shape == Shape(3, 2)
    assert parse(render(grid, "rows")).shape == Shape(2, 3)  # the convention, when nothing says otherwise
    assert parse(render(grid, "rows"), shape="3x2") == grid


def test_stacked_grids_without_blank_lines():
    a, b = parse(DIABOLICAL), parse(SEVENTEEN)
    entries = list(read_puzzles(render(a, "rows") + "\n" + render(b, "rows") + "\n"))
    assert [e.grid for e in entries] == [a, b] and lines_of(entries) == [1, 10]


# -- fuzzing: any text gives entries or located errors, never a crash ----------------

NOISE = st.lists(
    st.sampled_from(list("123456789.0 \n\n\n|-+=#{}\":,xA\x00\ufffd\t") + ["1" * 9, "." * 81, "-" * 19, "=" * 19, DIABOLICAL + "\n"]),
    max_size=200,
).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NOISE)
def test_any_text_reads_without_crashing(text):
    entries = list(read_puzzles(text))
    for number, entry in enumerate(entries, 1):
        assert entry.number == number
        assert (entry.grid is None) != (entry.error is None)
        if entry.error is not None:
            assert entry.error.puzzle == number and entry.error.line is not None
            assert 1 <= entry.error.line <= text.count("\n") + 1
    try:
        grid = parse(text)
    except ParseError:
        return
    assert len(entries) == 1 and entries[0].grid == grid


def test_deeply_nested_json_is_an_error():
    entry = next(read_puzzles('{"puzzle": ' + "[" * 30_000 + "\n"))
    assert entry.error is not None and "JSON" in str(entry.error)


def test_csv_with_header_and_solutions():
    sol = "295743861431865927876192543387459216612387495549216738763524189928671354154938672"
    text = f"quizzes,solutions\n{DIABOLICAL.replace('.', '0')},{sol}\n{SEVENTEEN}\t12\n"
    entries = list(read_puzzles(text))
    assert [e.line for e in entries] == [2, 3]
    assert entries[0].grid == parse(DIABOLICAL) and entries[0].solution == parse(sol)
    assert entries[1].grid == parse(SEVENTEEN) and entries[1].solution is None


def test_the_largest_size_with_its_own_alphabet():
    alphabet = parse_alphabet("0-9A-Za-z") + "!?"
    assert len(alphabet) == 64
    values = [(i * 37) % 65 if i % 3 else 0 for i in range(64 * 64)]
    grid = Grid(values, (8, 8))
    for fmt in FORMATS:
        text = render(grid, fmt, symbols=alphabet)
        assert parse(text, symbols=alphabet) == grid, fmt
        assert [e.grid for e in read_puzzles(text + "\n\n" + text, symbols=alphabet)] == [grid, grid], fmt
    with pytest.raises(ParseError, match="explicit alphabet"):
        parse(grid.line(alphabet))


def test_tiny_grids_need_their_shape():
    assert "too short" in the_error("123......")
    assert "too short" in the_error("1.")
    grid = parse("123......", shape="1x3")
    assert grid.shape == Shape(1, 3) and grid.values[:3] == (1, 2, 3)
    entries = list(read_puzzles("12..\n.1..\n", shape=(1, 2)))
    assert [e.grid.line() for e in entries] == ["12..", ".1.."]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NOISE, st.sampled_from(FORMATS), st.sampled_from([None, "3x3", "2x2"]))
def test_forced_formats_fail_only_with_parse_errors(text, fmt, shape):
    try:
        parse(text, format=fmt, shape=shape)
    except ParseError as exc:
        assert exc.reason
    try:
        parse_candidates(text, shape=shape)
    except ParseError as exc:
        assert exc.reason


def test_byte_order_mark_is_ignored(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + DIABOLICAL.encode() + b"\r\n" + SEVENTEEN.encode() + b"\r\n")
    with open_source(str(path)) as fh:
        assert [e.grid.line() for e in read_puzzles(fh)] == [DIABOLICAL, SEVENTEEN]
    assert parse("\ufeff" + DIABOLICAL) == parse(DIABOLICAL)


def test_pretty_printed_json_objects():
    sol = "295743861431865927876192543387459216612387495549216738763524189928671354154938672"
    pretty = json.dumps({"puzzle": DIABOLICAL, "solution": sol, "rating": {"se": 7.1}}, indent=2)
    broken = '{\n  "puzzle": "' + DIABOLICAL + '",\n  "solution" ' + '"' + sol + '"\n}'
    entries = list(read_puzzles(pretty + "\n" + broken + "\n" + pretty + "\n" + SEVENTEEN + "\n"))
    assert [e.line for e in entries] == [1, 8, 12, 19]
    assert entries[0].grid == parse(DIABOLICAL) and entries[0].solution == parse(sol)
    assert entries[1].error is not None and entries[1].error.line == 10 and "JSON" in str(entries[1].error)
    assert entries[2].grid == parse(DIABOLICAL) and entries[3].grid == parse(SEVENTEEN)
    assert parse(pretty) == parse(DIABOLICAL)


def test_render_and_as_grid_read_text_in_any_format():
    """The public functions take text in any format; Grid(text) takes only the line form."""
    from sudokit.formats import as_grid, render

    grid = Grid([1, 2, 0, 0] * 4, (2, 2))
    for fmt in ("boxed", "candidates", "jsonl", "spaced"):
        text = render(grid, fmt)
        assert as_grid(text, shape="2x2") == grid
        assert render(text, "line") == grid.line()
    assert as_grid(grid) is grid and as_grid(list(grid.values), (2, 2)) == grid
