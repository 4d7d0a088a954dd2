"""The search for a canonical form, in plain Python, for every box shape.

The form is built row by row. A *candidate* is a partial transformation:
transposed or not, the source rows of the output rows made so far, the
order of the stacks (fixed at the first row), for each output stack the
column orders within it that are still open (all of them give the same
rows so far), and the digit labels given so far (in order of first
appearance, so the first digit met is 1). Each round extends every
candidate by every row it may take next (any row of an unused band at the
start of a band, else a row of the current band), makes that row as small
as its open column orders allow, stack by stack, and keeps only the
candidates whose row is the smallest of the round. Column orders that tie
stay open together; a tie that labels new digits differently splits the
candidate, since later rows may tell the labellings apart.

A cell's key is 0 for a blank and the digit's label otherwise (``minlex``),
or 0/1 for blank/given (the pattern, first stage of ``patminlex``, whose
second stage then runs the ``minlex`` keys over the survivors with their
rows fixed). When the last row is made, every candidate left, with every
column order it keeps open, reaches the minimum: their number is the count
of automorphisms.

``kernel.py`` runs the same search, compiled, for 9x9.
"""

from __future__ import annotations

from itertools import permutations
from typing import Sequence

from ..errors import SudokuError
from .transforms import Transform

#: Candidates a round may hold before the search gives up (a few hundred MB of Python objects).
MAX_CANDIDATES = 1_000_000


class _Geometry:
    """The tables of one shape: the stack orders and column orders within a stack."""

    def __init__(self, box_rows: int, box_cols: int) -> None:
        self.n = box_rows * box_cols
        self.box_rows, self.box_cols = box_rows, box_cols
        self.bands = self.n // box_rows  # groups of box_rows rows
        self.stacks = self.n // box_cols  # groups of box_cols columns
        self.stack_orders = list(permutations(range(self.stacks)))
        self.col_orders = list(permutations(range(box_cols)))


class _Candidate:
    __slots__ = ("t", "rows", "stacks", "open", "labels", "next")

    def __init__(self, t, rows, stacks, open_, labels, next_):
        self.t, self.rows, self.stacks, self.open, self.labels, self.next = t, rows, stacks, open_, labels, next_


def _row_choices(cand: _Candidate, geo: _Geometry) -> list[int]:
    rows, br = cand.rows, geo.box_rows
    d = len(rows)
    if d % br == 0:
        used = {r // br for r in rows}
        return [r for r in range(geo.n) if r // br not in used]
    band = rows[d - d % br] // br
    return [r for r in range(band * br, band * br + br) if r not in rows]


def _extend(cand: _Candidate, source: Sequence[int], geo: _Geometry, pattern: bool,
            best: list, out: list, stacks: tuple[int, ...]) -> None:
    """Make ``source`` (one row of values) the next row of ``cand`` with stack order ``stacks``,
    as small as the open column orders allow; add the results to ``out`` when they tie with
    ``best[0]``, or replace both when smaller."""
    bc = geo.box_cols
    orders = geo.col_orders
    n_st = geo.stacks

    def rec(s: int, prefix: tuple, open_: tuple, labels: tuple, nxt: int) -> None:
        if best[0] is not None:
            head = best[0][:len(prefix)]
            if prefix > head:
                return
            if prefix < head:
                best[0] = None
                out.clear()
        if s == n_st:
            if best[0] is None:
                best[0] = prefix
            out.append(_Candidate(cand.t, cand.rows, stacks, open_, labels, nxt))
            if len(out) > MAX_CANDIDATES:
                raise SudokuError(
                    f"this {geo.n}x{geo.n} grid ties in more than {MAX_CANDIDATES:,} ways at row {len(cand.rows)}: "
                    "too many to search (the full rows of 12x12 and larger grids tie in every column order)")
            return
        base = stacks[s] * bc
        vals = source[base:base + bc]
        allowed = cand.open[s] if cand.stacks is not None else range(len(orders))
        low = None
        ties: dict = {}
        for k in allowed:
            order = orders[k]
            if pattern:
                key = tuple(1 if vals[i] else 0 for i in order)
                new = ()
            else:
                key = []
                new = []
                lab_next = nxt
                for i in order:
                    v = vals[i]
                    if v == 0:
                        key.append(0)
                    elif labels[v]:
                        key.append(labels[v])
                    else:
                        if v in new:  # cannot happen in a valid row; kept for safety
                            key.append(nxt + new.index(v))
                        else:
                            new.append(v)
                            key.append(lab_next)
                            lab_next += 1
                key = tuple(key)
                new = tuple(new)
            if low is None or key < low:
                low = key
                ties = {new: [k]}
            elif key == low:
                ties.setdefault(new, []).append(k)
        for new, ks in ties.items():
            if new:
                lab = list(labels)
                for i, v in enumerate(new):
                    lab[v] = nxt + i
                lab = tuple(lab)
            else:
                lab = labels
            rec(s + 1, prefix + low, open_[:s] + (tuple(ks),) + open_[s + 1:], lab, nxt + len(new))

    start_open = cand.open if cand.stacks is not None else tuple(() for _ in range(n_st))
    rec(0, (), start_open, cand.labels, cand.next)


def _matrices(values: Sequence[int], n: int, transpose: bool) -> list[list[list[int]]]:
    rows = [list(values[r * n:(r + 1) * n]) for r in range(n)]
    mats = [rows]
    if transpose:
        mats.append([list(col) for col in zip(*rows)])
    return mats


def _run(mats, geo: _Geometry, cands: list[_Candidate], pattern: bool, fixed_rows: bool) -> tuple[tuple, list]:
    """Rounds of :func:`_extend` until every row is made: (the form as keys, the candidates)."""
    form: tuple = ()
    for d in range(geo.n):
        best = [None]
        out: list = []
        for cand in cands:
            choices = [cand.rows[d]] if fixed_rows else _row_choices(cand, geo)
            stack_orders = [cand.stacks] if cand.stacks is not None else geo.stack_orders
            for r in choices:
                grown = cand if fixed_rows else _Candidate(cand.t, cand.rows + (r,), cand.stacks, cand.open,
                                                            cand.labels, cand.next)
                for stacks in stack_orders:
                    _extend(grown, mats[cand.t][r], geo, pattern, best, out, stacks)
        cands = out
        form += best[0]
    return form, cands


def search(values: Sequence[int], box_rows: int, box_cols: int, form: str = "minlex",
           transpose: bool | None = None) -> tuple[tuple[int, ...], list[Transform], int]:
    """The canonical values, one transform that reaches them, and the automorphism count.

    ``form`` is ``"minlex"`` or ``"patminlex"``; ``transpose`` defaults to
    "when the boxes are square".
    """
    geo = _Geometry(box_rows, box_cols)
    n = geo.n
    if transpose is None:
        transpose = box_rows == box_cols
    mats = _matrices(values, n, transpose)
    empty_labels = (0,) * (n + 1)
    start = [_Candidate(t, (), None, (), empty_labels, 1) for t in range(len(mats))]
    if form == "patminlex":
        _, cands = _run(mats, geo, start, True, False)
        restart = [_Candidate(c.t, c.rows, c.stacks, c.open, empty_labels, 1) for c in cands]
        keys, cands = _run(mats, geo, restart, False, True)
    elif form == "minlex":
        keys, cands = _run(mats, geo, start, False, False)
    else:
        raise ValueError(f"unknown canonical form {form!r}: minlex or patminlex")
    count = 0
    for c in cands:
        ways = 1
        for ks in c.open:
            ways *= len(ks)
        count += ways
    best = cands[0]
    return keys, [_transform(best, geo)], count


def _transform(cand: _Candidate, geo: _Geometry) -> Transform:
    bc = geo.box_cols
    cols = []
    for s, st in enumerate(cand.stacks):
        order = geo.col_orders[cand.open[s][0]]
        cols.extend(st * bc + i for i in order)
    labels = list(cand.labels)
    nxt = cand.next
    for v in range(1, geo.n + 1):
        if not labels[v]:
            labels[v] = nxt
            nxt += 1
    return Transform(bool(cand.t), cand.rows, tuple(cols), tuple(labels[1:]))


def group_search(values: Sequence[int], group: Sequence[Transform], relabel: bool
                 ) -> tuple[tuple[int, ...], Transform, int]:
    """The smallest image of ``values`` over an explicit ``group`` (a variant's), relabelling
    digits in order of first appearance when ``relabel``: (values, transform, automorphisms)."""
    best = None
    best_t = None
    count = 0
    n = group[0].size
    for g in group:
        moved = g.apply_values(values)
        if relabel:
            labels = [0] * (n + 1)
            nxt = 1
            out = []
            for v in moved:
                if v and not labels[v]:
                    labels[v] = nxt
                    nxt += 1
                out.append(labels[v])
            for v in range(1, n + 1):
                if not labels[v]:
                    labels[v] = nxt
                    nxt += 1
            # the relabelling acts on the original digits: g's digits are the identity
            t = Transform(g.transpose, g.rows, g.cols, tuple(labels[1:]))
            moved = tuple(out)
        else:
            t = g
        if best is None or moved < best:
            best, best_t, count = moved, t, 1
        elif moved == best:
            count += 1
    return best, best_t, count
