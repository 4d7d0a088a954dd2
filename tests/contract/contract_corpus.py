"""The contract suite's corpus and its three readers of an answer.

One corpus of inputs, one of each class a user can bring: a puzzle with one
solution, several, none; duplicate givens; a player's wrong entry; wrong
pencil marks; unreadable, empty, over-long and binary text; each variant (X,
windoku, jigsaw, killer); sizes from 4x4 to 25x25 with square and oblong
boxes. The class of every case is known by construction (a full grid made
here, cells taken out so that one solution stays, or a contradiction put in)
or checked by the independent solvers (``tests/reference.py``,
``tests/reference_variants.py``), never by sudokit.

Every surface's answer is brought to one :class:`Outcome`: what happened
(``ok``, ``failed``, ``unreadable``, ``empty``, ``too_long``), the record, and
the message. ``expected`` says which outcome each class must have, and
:func:`documented_exit` / :func:`documented_http` read the exit status and the
HTTP status of that outcome from docs/cli.md's two tables, so that the docs
and the behaviour cannot drift apart.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from reference import obeys_rules, reference_count
import reference_variants as rv

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
ALPHABET = "123456789ABCDEFGHIJKLMNOP"

#: Fields that say where a record came from, not what it says: the command line's file line,
#: its file name, a named example; and what /api/hint adds (the moves, the picture).
WHERE = ("line", "source", "example")
EXTRA = ("moves", "svg")


# -- the documented statuses ------------------------------------------------------------------

#: Which row of docs/cli.md's exit-status table each outcome falls under (a phrase of its first cell).
EXIT_ROWS = {"ok": "every puzzle done", "failed": "some puzzle failed", "unreadable": "some puzzle failed",
             "empty": "empty input", "too_long": "a record longer than"}
#: Which row of the HTTP table (a phrase of its "when" cell).
HTTP_ROWS = {"ok": "the record asked for", "failed": "has no solution", "unreadable": "unreadable puzzle text",
             "empty": "unreadable puzzle text", "too_long": "a puzzle text over"}


def _tables() -> tuple[list[list[str]], list[list[str]]]:
    exits, http = [], []
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if re.fullmatch(r"\d{3}", cells[0]):
            http.append(cells)
        elif len(cells) == 3 and re.fullmatch(r"\d+", cells[-1]):
            exits.append(cells)
    return exits, http


def documented_exit(outcome: str) -> int:
    """The exit status docs/cli.md gives for ``outcome``."""
    rows = [r for r in _tables()[0] if EXIT_ROWS[outcome] in r[0]]
    assert len(rows) == 1, f"docs/cli.md: one exit-status row about {EXIT_ROWS[outcome]!r}, found {len(rows)}"
    return int(rows[0][-1])


def documented_http(outcome: str) -> int:
    """The HTTP status docs/cli.md gives for ``outcome``."""
    rows = [r for r in _tables()[1] if HTTP_ROWS[outcome] in r[1]]
    assert len(rows) == 1, f"docs/cli.md: one HTTP row about {HTTP_ROWS[outcome]!r}, found {len(rows)}"
    return int(rows[0][0])


# -- cases --------------------------------------------------------------------------------------


@dataclass
class Case:
    """One input: its text (as a user gives it), the box option it needs, and its class."""

    name: str
    kind: str            # unique, several, none, clash, wrong_entry, wrong_marks, unreadable, empty, binary
    text: str
    box: str | None = None
    givens: str | None = None     # the puzzle as set, for a player's grid
    size: int = 9

    @property
    def logic(self) -> bool:
        """Whether rate, explain and hint take it in the default sample (their logic is quick on it)."""
        return self.size == 9 or self.box in ("2x2", "2x3")


#: What each class must give, command by command: the outcome, and the record's status.
def expected(case: Case, command: str) -> tuple[str, str | None]:
    kind = case.kind
    if kind in ("unreadable", "binary"):
        return "unreadable", "parse_error"
    if kind == "empty":
        return "empty", None
    if kind == "clash":
        return "failed", "invalid"
    if kind == "none":
        return "failed", "no_solution"
    if kind in ("wrong_entry", "wrong_marks"):
        return "failed", None
    if kind == "several":
        if command in ("solve", "count"):
            return "ok", "solved"
        return "failed", "invalid"  # a logical path needs one solution
    assert kind == "unique", kind
    return "ok", {"solve": "solved", "count": "solved", "rate": "rated"}.get(command)


def line_of(values: list[int]) -> str:
    return "".join(ALPHABET[v - 1] if v else "." for v in values)


def full_grid(br: int, bc: int, rng: random.Random) -> list[int]:
    """A complete grid of br x bc boxes made here: the pattern grid, relabelled and shuffled
    by rows within bands, bands, columns within stacks and stacks (all keep the rules)."""
    n = br * bc
    base = [[((r % br) * bc + r // br + c) % n + 1 for c in range(n)] for r in range(n)]
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    bands = rng.sample(range(bc), bc)  # n // br bands of br rows
    rows = [b * br + r for b in bands for r in rng.sample(range(br), br)]
    stacks = rng.sample(range(br), br)  # n // bc stacks of bc columns
    cols = [s * bc + c for s in stacks for c in rng.sample(range(bc), bc)]
    values = [labels[base[rows[r]][cols[c]] - 1] for r in range(n) for c in range(n)]
    assert obeys_rules(values, [0] * (n * n), br, bc)
    return values


def shaped(br: int, bc: int, kind: str, rng: random.Random) -> Case:
    """A case of ``kind`` on br x bc boxes, its class known by construction:

    * unique: a full grid with at most one cell taken out of each column (each blank is the
      one value its column misses);
    * several: a blank grid (N >= 4 has many completions);
    * none: row 1 holds 1..N-1 in its first N-1 cells and r2cN holds N: r1cN can only be N,
      which its column already has (no two givens clash);
    * clash: a full grid's first given copied into a blank of its row."""
    n = br * bc
    box = f"{br}x{bc}"
    if kind == "unique":
        values = full_grid(br, bc, rng)
        for c in range(n):
            if rng.random() < 0.8:
                values[rng.randrange(n) * n + c] = 0
    elif kind == "several":
        values = [0] * (n * n)
    elif kind == "none":
        values = [0] * (n * n)
        values[:n - 1] = range(1, n)
        values[n + n - 1] = n
    else:
        assert kind == "clash"
        values = full_grid(br, bc, rng)
        values[1:n] = [0] * (n - 1)
        values[1 + rng.randrange(n - 1)] = values[0]
    return Case(f"{box} {kind}", kind, line_of(values), box=box, size=n)


def random_small(br: int, bc: int, rng: random.Random) -> Case:
    """A full grid with random cells taken out (and sometimes a value put in); its class by
    the reference solver (small shapes: it answers at once)."""
    n = br * bc
    values = [v if rng.random() < rng.uniform(0.3, 0.8) else 0 for v in full_grid(br, bc, rng)]
    if rng.random() < 0.3:
        values[rng.randrange(n * n)] = rng.randint(1, n)
    return classified(values, br, bc)


def classified(values: list[int], br: int, bc: int) -> Case:
    n = br * bc
    box = f"{br}x{bc}"
    clash = not all(len(set(v for v in (values[c] for c in u) if v)) == sum(1 for c in u if values[c])
                    for u in rv.rows(n) + rv.columns(n) + rv.boxes(br, bc))
    found, _ = reference_count(values, br, bc, limit=2)
    kind = "clash" if clash else {0: "none", 1: "unique"}.get(found, "several")
    return Case(f"{box} {kind} (random)", kind, line_of(values), box=box, size=n)


def _variant_puzzle(n: int, units: list, rng: random.Random, cages=()) -> list[int]:
    """Givens with one solution under ``units``: the reference's first grid, cells taken out at
    random, then put back until the reference solver finds one solution."""
    full = rv.solutions(n, units, [0] * (n * n), cages, limit=1)[0]
    values = [v if rng.random() < 0.6 else 0 for v in full]
    while rv.count(n, units, values, cages, limit=2)[0] != 1:
        blanks = [c for c, v in enumerate(values) if not v]
        for c in rng.sample(blanks, min(3, len(blanks))):
            values[c] = full[c]
    return values


def variant_cases(rng: random.Random) -> list[Case]:
    """X, windoku, jigsaw and killer puzzles as jsonl records (the one text every surface reads
    with its variant), each with one solution by the reference solver."""
    from sudokit import variants  # a layout is an input, made by any means; its truth is checked here

    base = rv.rows(9) + rv.columns(9)
    out = []
    for name, units, fields in (
        ("x", base + rv.boxes(3, 3) + rv.diagonals(9), {"variant": "x"}),
        ("windoku", base + rv.boxes(3, 3) + rv.windows(), {"variant": "hyper"}),
    ):
        values = _variant_puzzle(9, units, rng)
        out.append(Case(f"9x9 {name}", "unique", json.dumps({"puzzle": line_of(values), **fields})))
    layout = variants.random_layout("3x3", seed=rng.randrange(1000))
    values = _variant_puzzle(9, base + rv.regions_of(layout), rng)
    out.append(Case("9x9 jigsaw", "unique", json.dumps({"puzzle": line_of(values), "variant": "jigsaw",
                                                        "regions": layout})))
    killer = json.loads((Path(__file__).resolve().parents[1] / "data" / "published_killers.jsonl")
                        .read_text().splitlines()[0])
    out.append(Case("9x9 killer (published, one solution)", "unique", json.dumps(killer)))
    return out


#: A puzzle as set, and the same grid with a player's wrong entry (r1c1 = 4: clashes with nothing).
PLAYED_GIVENS = ".9.7..86..31..5.2.8.6........7.5...6...3.7...5...1.7........1.9.2.6..35..54..8.7."


def player_cases() -> list[Case]:
    """A player's wrong entry (with the givens apart), and pencil marks that exclude the solution."""
    _, truth = reference_count([0 if ch == "." else int(ch) for ch in PLAYED_GIVENS], 3, 3)
    wrong = next(d for d in "123456789" if d != str(truth[0]) and d not in _seen(PLAYED_GIVENS, 0))
    entry = Case("9x9 a player's wrong entry", "wrong_entry", wrong + PLAYED_GIVENS[1:], givens=PLAYED_GIVENS)
    # r2c1 narrowed to one value the givens allow, but not the solution's
    cell = 9
    allowed = [d for d in "123456789" if d not in _seen(PLAYED_GIVENS, cell) and d != str(truth[cell])]
    marks = Case("9x9 wrong pencil marks", "wrong_marks", with_marks(PLAYED_GIVENS, {cell: allowed[0]}))
    return [entry, marks]


def _seen(puzzle: str, cell: int) -> set[str]:
    from reference import units

    return {puzzle[c] for u in units(3, 3) if cell in u for c in u}


def with_marks(puzzle: str, marks: dict[int, str]) -> str:
    """``puzzle`` in the candidates format, written here: every blank cell's candidates from its
    peers, except the cells of ``marks``; one token a cell, ``.`` before a single mark."""
    tokens = []
    for cell, ch in enumerate(puzzle):
        if ch != ".":
            tokens.append(ch)
            continue
        text = marks.get(cell, "".join(d for d in "123456789" if d not in _seen(puzzle, cell)))
        tokens.append(text if len(text) > 1 else "." + text)
    return "\n".join(" ".join(tokens[r * 9:(r + 1) * 9]) for r in range(9)) + "\n"


def bad_cases() -> list[Case]:
    return [
        Case("unreadable (too few symbols)", "unreadable", "12345"),
        Case("unreadable (a letter in a 9x9 line)", "unreadable", "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7Z"),
        Case("binary", "binary", "\x00\xff\xfe\x01binary\x02"),
        Case("empty", "empty", "\n  \n"),
    ]


def fixed_corpus() -> list[Case]:
    """The default sample: one of each class, fixed (a seeded generator), in a second."""
    rng = random.Random(24)
    cases = [
        Case("9x9 unique", "unique", "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"),
        Case("9x9 several", "several", "..3.....6...98..2.9426..7..45...6............1.9.5.47.....25.4.6...785..........."),
        Case("9x9 none", "none", "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."),
        Case("9x9 clash", "clash", "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"),
    ]
    for br, bc in ((2, 2), (2, 3), (3, 2), (2, 4), (3, 4), (4, 4), (5, 5)):
        for kind in ("unique", "several", "none", "clash"):
            cases.append(shaped(br, bc, kind, rng))
    cases += variant_cases(random.Random(1)) + player_cases() + bad_cases()  # (a seed the reference is quick on)
    return cases


# -- hypothesis strategies -------------------------------------------------------------------

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3), (4, 4), (5, 5)]
SMALL = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """Any case of the corpus's classes: a shape and class by construction, a small random grid
    classified by the reference solver, or bad text."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    how = draw(st.sampled_from(["shaped", "shaped", "random", "bad"]))
    if how == "shaped":
        br, bc = draw(st.sampled_from(SHAPES))
        return shaped(br, bc, draw(st.sampled_from(["unique", "several", "none", "clash"])), rng)
    if how == "random":
        br, bc = draw(st.sampled_from(SMALL))
        return random_small(br, bc, rng)
    text = draw(st.one_of(
        st.text(max_size=200),  # any characters, binary ones too
        st.text(alphabet="0123456789.", min_size=1, max_size=120),
        st.binary(max_size=100).map(lambda b: b.decode("latin-1")),
    ))
    kind = "empty" if not text.strip() else "any"
    return Case("drawn text", kind, text)


# -- outcomes ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What a surface answered: ``kind`` (ok, failed, unreadable, empty, too_long), the record
    (without the fields that say where it came from), and the message of a failure."""

    kind: str
    record: Any = None
    message: str = ""
    status: int | None = None     # the exit status or HTTP status
    extra: dict = field(default_factory=dict)


def bare(record: Any) -> Any:
    """A record (or list of records) without the fields that say where it came from."""
    if isinstance(record, list):
        return [bare(r) for r in record]
    if not isinstance(record, dict):
        return record
    return {k: v for k, v in record.items() if k not in WHERE + EXTRA}
