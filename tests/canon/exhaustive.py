"""The canonical forms by brute force, written apart from sudokit's search: every arrangement
(transposition, every row and column permutation that keeps bands and stacks), digits relabelled
in order of first appearance, the smallest line kept. 9x9 (3,359,232 arrangements) goes through
numpy, a row permutation at a time with all 1,296 column permutations at once."""

from __future__ import annotations

from itertools import permutations, product

import numpy as np


def line_perms(n: int, group: int) -> list[tuple[int, ...]]:
    blocks = n // group
    return [tuple(order[b] * group + inner[b][k] for b in range(blocks) for k in range(group))
            for order in permutations(range(blocks)) for inner in product(permutations(range(group)), repeat=blocks)]


def _relabel(rows: np.ndarray, n: int, keys: bool) -> np.ndarray:
    """Each row (a candidate line) with its digits renamed 1, 2, ... in order of first appearance
    (``keys``: 0/1 for blank/given, the pattern)."""
    if keys:
        return (rows > 0).astype(np.int64)
    count, cells = rows.shape
    first = np.full((count, n + 1), cells + 1, dtype=np.int64)
    for d in range(1, n + 1):
        hit = rows == d
        where = np.where(hit.any(axis=1), hit.argmax(axis=1), cells + 1)
        first[:, d] = where
    first[:, 0] = -1  # blanks stay 0
    rank = np.argsort(np.argsort(first, axis=1), axis=1)  # blank -> 0, then by first position
    return np.take_along_axis(rank, rows.astype(np.int64), axis=1)


def _smallest(rows: np.ndarray) -> tuple[int, np.ndarray]:
    order = np.lexsort(rows.T[::-1])
    best = rows[order[0]]
    ties = int((rows == best).all(axis=1).sum())
    return ties, best


def minlex(values, box_rows: int, box_cols: int, pattern: bool = False) -> tuple[tuple[int, ...], int]:
    """(the smallest line, how many arrangements reach it) over the whole group; ``pattern``
    for the smallest pattern of givens (1 for a given)."""
    n = box_rows * box_cols
    grid = np.array(values, dtype=np.int64).reshape(n, n)
    mats = [grid] + ([grid.T] if box_rows == box_cols else [])
    cols = np.array(line_perms(n, box_cols))
    best, count = None, 0
    for mat in mats:
        for rows in line_perms(n, box_rows):
            arranged = mat[list(rows)][:, cols].transpose(1, 0, 2).reshape(len(cols), n * n)
            ties, low = _smallest(_relabel(arranged, n, pattern))
            low = tuple(int(v) for v in low)
            if best is None or low < best:
                best, count = low, ties
            elif low == best:
                count += ties
    return best, count


def patminlex(values, box_rows: int, box_cols: int) -> tuple[int, ...]:
    """The smallest pattern, then the smallest digits in it, by brute force."""
    n = box_rows * box_cols
    low_pattern, _ = minlex(values, box_rows, box_cols, pattern=True)
    grid = np.array(values, dtype=np.int64).reshape(n, n)
    mats = [grid] + ([grid.T] if box_rows == box_cols else [])
    cols = np.array(line_perms(n, box_cols))
    want = np.array(low_pattern)
    best = None
    for mat in mats:
        for rows in line_perms(n, box_rows):
            arranged = mat[list(rows)][:, cols].transpose(1, 0, 2).reshape(len(cols), n * n)
            keep = ((arranged > 0).astype(np.int64) == want).all(axis=1)
            if not keep.any():
                continue
            _, low = _smallest(_relabel(arranged[keep], n, False))
            low = tuple(int(v) for v in low)
            if best is None or low < best:
                best = low
    return best
