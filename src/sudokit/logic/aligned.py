"""Aligned Pair Exclusion (6.2) and Aligned Triplet Exclusion (7.5).

Take two (or three) *base* cells and the cells with two (or up to three)
candidates that see all of them, the *excluders*. A combination of values for
the base cells is impossible when two base cells that share a unit get the
same value, or when it uses up every candidate of one excluder. A value that
appears in no possible combination leaves its base cell.

Sudoku Explainer's scan: the base candidates are the cells with two or more
candidates, in cell order, that see at least one excluder (and see no naked
single). Pairs come in colex order (``(0,1), (0,2), (1,2), (0,3), ...``); a
third cell is taken from the cells that see one of the pair. A set needs at
least two common excluders. The first set that removes something is the
step.

>>> from sudokit.grid import Grid
>>> state = Candidates.from_grid(Grid("5763894213926148754187526398619472537392..1..2541.89..6435.....9854.....1.78.3..."))
>>> next(find_aligned_pair_exclusion(state), None) is None
True
"""

from __future__ import annotations

from itertools import product
from typing import Iterator

from .state import Candidates, extra_units, iter_bits
from .step import Step, Technique, cells_text, elims_text

APE_RATING, ATE_RATING = 6.2, 7.5

_HOUSES: dict = {}


def _houses(geo) -> list[tuple[int, ...]]:
    """Each cell's house cells in SE's order: box, row, column, then a
    variant's extra units."""
    h = _HOUSES.get(geo)
    if h is None:
        h = []
        extra = extra_units(geo)
        for cell, held in enumerate(geo.units_of):
            r, c, b = held[:3]
            order = [b, r, c] + [u for u in extra if u in held]
            seen = dict.fromkeys(x for u in order for x in geo.units[u])
            seen.pop(cell, None)
            h.append(tuple(seen))
        _HOUSES[geo] = h
    return h


#: Whether the search may run compiled (:func:`sudokit.engine.logic_kernels.aligned_next`,
#: the same steps in the same order); False: always the Python search below.
COMPILED = True

_TABLES: dict = {}


def _compiled(geo):
    """``(kernel, tables...)`` for ``geo`` (:func:`compiled_tables`), or None:
    the Python search then runs (numba not loaded yet, or not here)."""
    from ..engine import producer_tables

    return producer_tables(COMPILED, geo, compiled_tables)


#: Slots of the compiled search's memo (a power of two; 3 words each).
_MEMO_ROWS = 1 << 14

#: The compiled search's memos, one per geometry (:data:`_CHECKED`'s ``clear`` empties them).
_MEMOS: list = []


def compiled_tables(geo):
    """``(kernel, houses, lengths, in-house matrix, places in the houses, houses as
    64-bit words, memo of the sets that removed nothing)`` for ``geo``, or None where
    the kernel cannot load."""
    got = _TABLES.get(geo)
    if got is None:
        try:
            import numpy as np

            from ..engine.logic_kernels import aligned_next
        except Exception:  # numba missing or broken: the Python search
            return None
        houses = _houses(geo)
        ncells = len(houses)
        table = np.full((ncells, max(len(h) for h in houses)), -1, dtype=np.int32)
        inh = np.zeros((ncells, ncells), dtype=np.bool_)
        place = np.full((ncells, ncells), -1, dtype=np.int32)
        words = np.zeros((ncells, (ncells + 63) >> 6), dtype=np.uint64)
        for c, h in enumerate(houses):
            table[c, :len(h)] = h
            inh[c, list(h)] = True
            for j, p in enumerate(h):
                place[c, p] = j
                words[c, p >> 6] |= np.uint64(1 << (p & 63))
        # the memo of the sets that removed nothing (keys of cells up to 1023 and values up to 16)
        memo = np.zeros((_MEMO_ROWS if ncells < 1024 and geo.n <= 16 else 0, 3), dtype=np.uint64)
        _MEMOS.append(memo)
        got = _TABLES[geo] = (aligned_next, table, np.array([len(h) for h in houses], dtype=np.int32), inh, place,
                              words, memo)
    return got


def _find(state: Candidates, degree: int) -> Iterator[Step]:
    geo = state.geo
    compiled = _compiled(geo)
    if compiled is not None:
        yield from find_compiled(state, degree, compiled)
        return
    yield from _find_python(state, degree)


def _step(geo, degree: int, cells, ex_cells, elims) -> Step:
    name, rating = ("Aligned Pair Exclusion", APE_RATING) if degree == 2 else ("Aligned Triplet Exclusion", ATE_RATING)
    return Step(
        name, rating, eliminations=elims, cells=tuple(cells) + tuple(ex_cells),
        text=f"{name}: {cells_text(geo, cells)} with {cells_text(geo, ex_cells)} ⇒ {elims_text(geo, elims)}",
    )


def find_compiled(state: Candidates, degree: int, compiled) -> Iterator[Step]:
    import numpy as np

    from .links import mask_array

    kernel, *tables = compiled
    masks = mask_array(state.mask)
    start = np.zeros(3, dtype=np.int64)
    out = np.empty(9 + len(masks), dtype=np.int64)
    while True:
        count = kernel(masks, *tables, degree, start, out)
        if not count:
            return
        got = out[:9 + count].tolist()
        start[:] = (got[0], got[1], got[2] + 1)
        cells = tuple(c for c in got[3:6] if c >= 0)
        elims = []
        for i, c in enumerate(cells):
            for v in iter_bits(state.mask[c] & ~got[6 + i]):
                elims.append((c, v + 1))
        elims.sort()
        yield _step(state.geo, degree, cells, got[9:], tuple(elims))


def _find_python(state: Candidates, degree: int) -> Iterator[Step]:
    geo, masks = state.geo, state.mask
    houses = _houses(geo)
    peer_sets = [frozenset(p) for p in houses]
    cands: list[int] = []
    excl: dict[int, list[int]] = {}
    for cell in range(len(masks)):
        if masks[cell].bit_count() < 2:
            continue
        single = False
        ex = []
        for p in houses[cell]:
            k = masks[p].bit_count()
            if k == 1:
                single = True
            elif 2 <= k <= degree:
                ex.append(p)
        if not single and ex:
            cands.append(cell)
            excl[cell] = ex
    if len(cands) < degree:
        return
    cand_set = set(cands)
    exb = {}
    for c, ex in excl.items():
        b = 0
        for e in ex:
            b |= 1 << e
        exb[c] = b
    # tail cells in SE's order: the pair's excluders that are base cells too
    excl_cands = {c: [e for e in ex if e in cand_set] for c, ex in excl.items()}
    for i2 in range(1, len(cands)):
        c1 = cands[i2]
        b1 = exb[c1]
        for i1 in range(i2):
            c0 = cands[i1]
            common01 = exb[c0] & b1
            if common01.bit_count() < 2:
                continue
            if degree == 2:
                tails: list[tuple[int, ...]] = [()]
            else:
                tails = [(c,) for c in dict.fromkeys(excl_cands[c0] + excl_cands[c1])
                         if c != c0 and c != c1 and (exb[c] & common01).bit_count() >= 2]
            for t in tails:
                cells = (c0, c1) + t
                common = common01
                for c in t:
                    common &= exb[c]
                union = 0
                for c in cells:
                    union |= masks[c]
                ex_cells = []
                usable = False
                while common:
                    low = common & -common
                    e = low.bit_length() - 1
                    ex_cells.append(e)
                    if not masks[e] & ~union:
                        usable = True
                    common ^= low
                if len(ex_cells) < 2 or not usable:
                    # without an excluder that can be used up, only two base
                    # cells sharing a unit can clash, and what that removes
                    # is a naked pair's removal, which SE takes long before
                    continue
                key = (id(houses), cells, tuple(masks[c] for c in cells), tuple(ex_cells), tuple(masks[e] for e in ex_cells))
                elims = _CHECKED.get(key)
                if elims is None:
                    if len(_CHECKED) > 500_000:
                        _CHECKED.clear()
                    elims = _CHECKED[key] = _check(state, cells, ex_cells, peer_sets)
                if elims:
                    yield _step(geo, degree, cells, ex_cells, elims)


class _Checked(dict):
    """What :func:`_check` found, by the cells, excluders and their candidates: it
    depends on nothing else, and after a step most sets are unchanged. ``clear``
    forgets the compiled search's memos too (benchmarks call it so that a repeated
    puzzle is timed from scratch)."""

    def clear(self) -> None:
        super().clear()
        for memo in _MEMOS:
            memo[:] = 0


_CHECKED: dict[tuple, tuple] = _Checked()


def _check(state, cells, common, peer_sets) -> tuple:
    """The removals of the aligned set ``cells`` with excluders ``common``."""
    masks = state.mask
    k = len(cells)
    last = cells[-1]
    head = cells[:-1]
    options = [[1 << v for v in iter_bits(masks[c])] for c in head]
    clash = [(i, j) for i in range(k - 1) for j in range(i + 1, k - 1) if cells[j] in peer_sets[cells[i]]]
    sees_last = [last in peer_sets[c] for c in head]
    ex_masks = [masks[e] for e in common]
    last_mask = masks[last]
    allowed = [0] * k
    for combo in product(*options):
        if any(combo[i] == combo[j] for i, j in clash):
            continue
        used = 0
        free = last_mask
        for i, b in enumerate(combo):
            used |= b
            if sees_last[i]:
                free &= ~b
        for m in ex_masks:
            rest = m & ~used
            if not rest:
                free = 0
                break
            if not rest & (rest - 1):
                free &= ~rest  # the last cell may not take the excluder's last value
        if free:
            for i, b in enumerate(combo):
                allowed[i] |= b
            allowed[-1] |= free
    elims = []
    for i, c in enumerate(cells):
        for v in iter_bits(masks[c] & ~allowed[i]):
            elims.append((c, v + 1))
    elims.sort()
    return tuple(elims)


def find_aligned_pair_exclusion(state: Candidates) -> Iterator[Step]:
    return _find(state, 2)


def find_aligned_triplet_exclusion(state: Candidates) -> Iterator[Step]:
    return _find(state, 3)


ALIGNED_PAIR_EXCLUSION = Technique("Aligned Pair Exclusion", APE_RATING, "aligned", find_aligned_pair_exclusion)
ALIGNED_TRIPLET_EXCLUSION = Technique("Aligned Triplet Exclusion", ATE_RATING, "aligned",
                                      find_aligned_triplet_exclusion)
