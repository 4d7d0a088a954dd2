"""Rating records read straight from a file's bytes: the compiled reader of ``bank add``.

A file of ``sudoku rate --format jsonl`` records is millions of lines of one
shape. :func:`scan` reads a chunk of such a file's bytes in one compiled
call: for every line it tells a record of the common shape (a JSON object
with a ``puzzle`` of 81 ``.`` and digit characters, ``er`` a number,
``status`` ``rated`` or absent, no variant's units), a line to skip (empty,
or a ``#`` comment), or any other line, which the caller hands to the
general reader (:func:`sudokit.bank.intake.parse_line`) so that it reads,
and is reported, exactly as before. Of a record it keeps the puzzle's and
the given solution's values, the numbers (``er``, ``ep``, ``ed``, ``score``,
``steps``, ``lower_bound``) and where in the bytes the strings are
(``level``, ``score_level``, ``hardest``, the ``techniques`` list), which
repeat from record to record and are turned into Python strings once each
(:class:`Chunk`).

What the reader does not know for certain it leaves to the general reader:
a string with an escape or a byte beyond ASCII where it must read it, an
integer of more than 15 digits, a key given twice, a value of an unexpected
type, a nested object. A number is read exactly as Python's ``float`` reads
it: its digits, at most 15, over a power of ten of at most 22 (both exact,
so the quotient is rounded once, as ``float``'s); ER, EP or ED with an
exponent or more digits is left as text for ``float`` itself.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from ..engine.compiling import load_numba

load_numba()
from numba import njit  # noqa: E402

__all__ = ["Chunk", "KEYS", "OTHER", "RECORD", "SKIP", "intern", "pieces", "scan", "warm"]

#: What a line is.
SKIP, RECORD, OTHER = 0, 1, 2

#: The keys the reader knows, in the order of their slots; the last five make a line another kind.
KEYS = ("puzzle", "solution", "status", "er", "ep", "ed", "score", "steps", "lower_bound", "level",
        "score_level", "hardest", "techniques", "variant", "regions", "cages", "shape", "symbols")
_NAMES = np.zeros((len(KEYS), 16), np.uint8)
_LENGTHS = np.array([len(k) for k in KEYS], np.int64)
#: A key's slot by its length and its first two bytes (``_HASH``), checked against ``_NAMES``.
_SLOTS = np.full((16, 128), -1, np.int64)
for _i, _k in enumerate(KEYS):
    _NAMES[_i, :len(_k)] = np.frombuffer(_k.encode(), np.uint8)
    _h = (ord(_k[0]) * 3 + ord(_k[1])) & 127
    assert _SLOTS[len(_k), _h] < 0, _k  # no two keys share a place
    _SLOTS[len(_k), _h] = _i
_POW10 = np.array([10.0 ** k for k in range(23)])
#: ``.``, ``0`` and ``1``..``9`` to their values, anything else to 255.
_CELL = np.full(256, 255, np.uint8)
_CELL[ord(".")] = _CELL[ord("0")] = 0
for _d in range(1, 10):
    _CELL[ord("0") + _d] = _d


@njit(cache=True, nogil=True)
def _space(b: int) -> bool:
    """What ``str.strip`` takes off a line's ends (of ASCII)."""
    return b == 32 or 9 <= b <= 13 or 28 <= b <= 31


@njit(cache=True, nogil=True)
def _ws(b: int) -> bool:
    """JSON's whitespace."""
    return b == 32 or b == 9 or b == 13 or b == 10


@njit(cache=True, nogil=True)
def _skip_string(buf, p, end):  # type: ignore[no-untyped-def]
    """Past the string at ``p`` (its opening quote), when it has no escape and no control
    character (any other string goes to the general reader); else -1."""
    p += 1
    while p < end:
        b = buf[p]
        if b == 34:
            return p + 1
        if b == 92 or b < 32:
            return -1
        p += 1
    return -1


@njit(cache=True, nogil=True)
def _plain_string(buf, p, end):  # type: ignore[no-untyped-def]
    """Past the string at ``p`` when it holds only printable ASCII and no escape; else -1."""
    p += 1
    while p < end:
        b = buf[p]
        if b == 34:
            return p + 1
        if b == 92 or b < 32 or b > 126:
            return -1
        p += 1
    return -1


@njit(cache=True, nogil=True)
def _literal(buf, p, end):  # type: ignore[no-untyped-def]
    """Past ``true``, ``false`` or ``null`` at ``p``; else -1."""
    if p + 4 <= end and buf[p] == 116 and buf[p + 1] == 114 and buf[p + 2] == 117 and buf[p + 3] == 101:
        return p + 4
    if p + 4 <= end and buf[p] == 110 and buf[p + 1] == 117 and buf[p + 2] == 108 and buf[p + 3] == 108:
        return p + 4
    if p + 5 <= end and buf[p] == 102 and buf[p + 1] == 97 and buf[p + 2] == 108 and buf[p + 3] == 115 \
            and buf[p + 4] == 101:
        return p + 5
    return -1


@njit(cache=True, nogil=True)
def _skip_number(buf, p, end):  # type: ignore[no-untyped-def]
    """Past a JSON number at ``p``; else -1."""
    if p < end and buf[p] == 45:
        p += 1
    first = p
    while p < end and 48 <= buf[p] <= 57:
        p += 1
    if p == first or (buf[first] == 48 and p - first > 1):
        return -1
    if p < end and buf[p] == 46:
        p += 1
        first = p
        while p < end and 48 <= buf[p] <= 57:
            p += 1
        if p == first:
            return -1
    if p < end and (buf[p] == 101 or buf[p] == 69):
        p += 1
        if p < end and (buf[p] == 43 or buf[p] == 45):
            p += 1
        first = p
        while p < end and 48 <= buf[p] <= 57:
            p += 1
        if p == first:
            return -1
    return p


@njit(cache=True, nogil=True)
def _skip_scalar(buf, p, end):  # type: ignore[no-untyped-def]
    b = buf[p]
    if b == 34:
        return _skip_string(buf, p, end)
    if b == 45 or 48 <= b <= 57:
        return _skip_number(buf, p, end)
    return _literal(buf, p, end)


@njit(cache=True, nogil=True)
def _skip_value(buf, p, end):  # type: ignore[no-untyped-def]
    """Past a value at ``p``: a string, number or literal, or an array of them; -1 for
    anything else (an object, a nested array: the general reader's)."""
    if buf[p] != 91:
        return _skip_scalar(buf, p, end)
    p += 1
    while p < end and _ws(buf[p]):
        p += 1
    if p < end and buf[p] == 93:
        return p + 1
    while p < end:
        if buf[p] == 91 or buf[p] == 123:
            return -1
        p = _skip_scalar(buf, p, end)
        if p < 0:
            return -1
        while p < end and _ws(buf[p]):
            p += 1
        if p >= end:
            return -1
        if buf[p] == 93:
            return p + 1
        if buf[p] != 44:
            return -1
        p += 1
        while p < end and _ws(buf[p]):
            p += 1
    return -1


@njit(cache=True, nogil=True)
def _number(buf, p, end, integer):  # type: ignore[no-untyped-def]
    """(value, past, exact) of a JSON number at ``p``: past -1 when it is not one the
    reader takes; ``exact`` False when its text must be read by Python's ``float``
    (an exponent, or more than 15 digits with a fraction: still a float to JSON)."""
    at = p
    neg = False
    if buf[p] == 45:
        neg = True
        p += 1
    digits = 0
    whole = 0
    first = p
    while p < end and 48 <= buf[p] <= 57:
        whole = whole * 10 + (buf[p] - 48)
        digits += 1
        p += 1
    if p == first or (buf[first] == 48 and p - first > 1):
        return 0.0, -1, True
    scale = 0
    if p < end and buf[p] == 46:
        if integer:
            return 0.0, -1, True
        p += 1
        start = p
        while p < end and 48 <= buf[p] <= 57:
            whole = whole * 10 + (buf[p] - 48)
            digits += 1
            p += 1
        scale = p - start
        if scale == 0:
            return 0.0, -1, True
    if p < end and (buf[p] == 101 or buf[p] == 69):
        if integer:
            return 0.0, -1, True
        return 0.0, _skip_number(buf, at, end), False
    if digits > 15:
        if integer or scale == 0:
            return 0.0, -1, True
        return 0.0, p, False
    if neg and whole == 0:
        return 0.0, -1, True
    value = whole / _POW10[scale]
    return (-value if neg else value), p, True


@njit(cache=True, nogil=True)
def _key(buf, p, q):  # type: ignore[no-untyped-def]
    """The slot of the key in ``buf[p:q]`` (-1: a key the reader does not know)."""
    n = q - p
    if n < 2 or n >= 16:
        return -1
    k = _SLOTS[n, (buf[p] * 3 + buf[p + 1]) & 127]
    if k < 0:
        return -1
    for j in range(n):
        if buf[p + j] != _NAMES[k, j]:
            return -1
    return k


@njit(cache=True, nogil=True)
def _line(buf, start, end, i, values, solutions, numbers, spans):  # type: ignore[no-untyped-def]
    """What line ``buf[start:end]`` is (SKIP, RECORD, OTHER), its fields written at ``i``."""
    while start < end and _space(buf[start]):
        start += 1
    while end > start and _space(buf[end - 1]):
        end -= 1
    if start == end or buf[start] == 35:
        return 0
    if buf[start] != 123:
        return 2
    for k in range(numbers.shape[1]):
        numbers[i, k] = np.nan
    for k in range(spans.shape[1]):
        spans[i, k] = -1
    seen = 0
    p = start + 1
    while p < end and _ws(buf[p]):
        p += 1
    if p < end and buf[p] == 125:
        return 2
    while True:
        if p >= end or buf[p] != 34:
            return 2
        q = _plain_string(buf, p, end)
        if q < 0:
            return 2
        slot = _key(buf, p + 1, q - 1)
        p = q
        while p < end and _ws(buf[p]):
            p += 1
        if p >= end or buf[p] != 58:
            return 2
        p += 1
        while p < end and _ws(buf[p]):
            p += 1
        if p >= end:
            return 2
        b = buf[p]
        if slot >= 0:
            if seen >> slot & 1 or slot >= 13:
                return 2
            seen |= 1 << slot
        if slot == 0 or slot == 1:  # puzzle, solution
            if b != 34:
                if slot == 0:
                    return 2
                q = _skip_value(buf, p, end)  # not a string: no solution given
                if q < 0 or b == 91:
                    return 2
            else:
                q = _skip_string(buf, p, end)
                if q < 0:
                    return 2
                n = q - p - 2
                if slot == 1 and n == 0:
                    pass
                elif n != 81:
                    return 2
                else:
                    for c in range(81):
                        v = _CELL[buf[p + 1 + c]]
                        if v == 255 or (slot == 1 and v == 0):
                            return 2
                        if slot == 0:
                            values[i, c] = v
                        else:
                            solutions[i, c] = v
                    spans[i, 8] = 1 if slot == 1 else spans[i, 8]
        elif slot == 2:  # status: rated, or null
            if b == 34:
                q = p + 7
                if q > end or buf[p + 1] != 114 or buf[p + 2] != 97 or buf[p + 3] != 116 or buf[p + 4] != 101 \
                        or buf[p + 5] != 100 or buf[p + 6] != 34:
                    return 2
            else:
                return 2
        elif 3 <= slot <= 7:  # er ep ed (numbers), score steps (integers); null for all but er
            if b == 110:
                q = _skip_value(buf, p, end)
                if slot == 3 or q != p + 4 or buf[p + 1] != 117 or buf[p + 2] != 108 or buf[p + 3] != 108:
                    return 2
            else:
                value, q, exact = _number(buf, p, end, slot >= 6)
                if q < 0:
                    return 2
                numbers[i, slot - 3] = value
                if not exact:  # er, ep or ed: its text, for Python's float
                    spans[i, 9 + 2 * (slot - 3)] = p
                    spans[i, 10 + 2 * (slot - 3)] = q
        elif slot == 8:  # lower_bound: true, false, null
            q = _skip_value(buf, p, end)
            if q == p + 4 and buf[p] == 116 and buf[p + 1] == 114 and buf[p + 2] == 117 and buf[p + 3] == 101:
                numbers[i, 5] = 1.0
            elif q == p + 5 and buf[p] == 102 and buf[p + 1] == 97 and buf[p + 2] == 108 and buf[p + 3] == 115 \
                    and buf[p + 4] == 101:
                numbers[i, 5] = 0.0
            elif not (q == p + 4 and buf[p] == 110 and buf[p + 1] == 117 and buf[p + 2] == 108
                      and buf[p + 3] == 108):
                return 2
        elif 9 <= slot <= 11:  # level, score_level, hardest: a plain string, or null
            if b == 34:
                q = _plain_string(buf, p, end)
                if q < 0:
                    return 2
                spans[i, 2 * (slot - 9)] = p + 1
                spans[i, 2 * (slot - 9) + 1] = q - 1
            else:
                q = _skip_value(buf, p, end)
                if q != p + 4 or buf[p] != 110 or buf[p + 1] != 117 or buf[p + 2] != 108 or buf[p + 3] != 108:
                    return 2
        elif slot == 12:  # techniques: an array of plain strings
            if b != 91:
                return 2
            q = p + 1
            while q < end and _ws(buf[q]):
                q += 1
            if q < end and buf[q] != 93:
                while True:
                    if q >= end or buf[q] != 34:
                        return 2
                    q = _plain_string(buf, q, end)
                    if q < 0:
                        return 2
                    while q < end and _ws(buf[q]):
                        q += 1
                    if q < end and buf[q] == 44:
                        q += 1
                        while q < end and _ws(buf[q]):
                            q += 1
                        continue
                    break
            if q >= end or buf[q] != 93:
                return 2
            q += 1
            spans[i, 6] = p
            spans[i, 7] = q
        else:  # a key the record does not need
            q = _skip_value(buf, p, end)
            if q < 0:
                return 2
        p = q
        while p < end and _ws(buf[p]):
            p += 1
        if p >= end:
            return 2
        if buf[p] == 44:
            p += 1
            while p < end and _ws(buf[p]):
                p += 1
            continue
        if buf[p] != 125:
            return 2
        p += 1
        break
    if p != end or not seen & 1 or not seen >> 3 & 1:
        return 2
    return 1


@njit(cache=True, nogil=True)
def scan(buf, starts, ends, kinds, values, solutions, numbers, spans):  # type: ignore[no-untyped-def]
    """Read the lines ``buf[starts[i]:ends[i]]`` (line breaks excluded): ``kinds[i]`` SKIP,
    RECORD or OTHER; of a record, ``values[i]`` its puzzle, ``solutions[i]`` its solution
    (zeros: none given; ``spans[i, 8]`` is 1 when one is), ``numbers[i]`` er, ep, ed, score,
    steps, lower_bound (NaN: absent or null), ``spans[i]`` where level, score_level, hardest
    and the techniques list start and end (-1: absent or null), then (after the solution's
    flag) where the text of er, ep and ed is when Python's ``float`` must read it (-1: not)."""
    for i in range(starts.shape[0]):
        kinds[i] = _line(buf, starts[i], ends[i], i, values, solutions, numbers, spans)


@njit(cache=True, nogil=True)
def _breaks(buf):  # type: ignore[no-untyped-def]
    """Where the line breaks (``\\n``) of ``buf`` are."""
    count = 0
    for p in range(buf.shape[0]):
        if buf[p] == 10:
            count += 1
    out = np.empty(count, np.int64)
    k = 0
    for p in range(buf.shape[0]):
        if buf[p] == 10:
            out[k] = p
            k += 1
    return out


@njit(cache=True, nogil=True)
def intern(buf, starts, ends, ids, firsts):  # type: ignore[no-untyped-def]
    """Number the distinct strings ``buf[starts[i]:ends[i]]`` in the order first met:
    ``ids[i]`` the number of row i's (-1 where ``starts[i]`` is -1: none), ``firsts[k]``
    the first row with number k; returns how many there are. Strings are told apart by
    their bytes (a hash finds the candidates, a comparison decides)."""
    n = starts.shape[0]
    size = 16
    while size < 2 * n:
        size <<= 1
    table = np.full(size, -1, np.int64)
    count = 0
    for i in range(n):
        a = starts[i]
        if a < 0:
            ids[i] = -1
            continue
        b = ends[i]
        h = np.uint64(14695981039346656037)
        for p in range(a, b):
            h = (h ^ np.uint64(buf[p])) * np.uint64(1099511628211)
        slot = np.int64(h & np.uint64(size - 1))
        while True:
            k = table[slot]
            if k < 0:
                table[slot] = count
                firsts[count] = i
                ids[i] = count
                count += 1
                break
            j = firsts[k]
            a2 = starts[j]
            same = ends[j] - a2 == b - a
            if same:
                for q in range(b - a):
                    if buf[a + q] != buf[a2 + q]:
                        same = False
                        break
            if same:
                ids[i] = k
                break
            slot = (slot + 1) & (size - 1)
    return count


def warm() -> None:
    """Compile (or load) the reader: one line of each kind."""
    one = np.zeros(1, np.int64)
    intern(np.zeros(1, np.uint8), one, one, one.copy(), one.copy())  # digests of a block
    intern(np.frombuffer(b"\0", np.uint8), one, one, one.copy(), one.copy())  # a read-only file's bytes
    Chunk(b'{"puzzle": "' + b"." * 81 + b'", "er": 1.5, "techniques": ["a"]}\n#\n{}\n', 0)


class Chunk:
    """The lines of a piece of a file (bytes of whole lines), read by :func:`scan`.

    ``data`` is the bytes (or a view of them), ``first`` the number of its first line. ``kinds``, ``values``,
    ``solutions``, ``numbers`` and ``spans`` are the kernel's arrays, a row
    per line; :meth:`text` gives a line's text, :meth:`cells` a record's
    rating columns, from the line's bytes.
    """

    def __init__(self, data: "bytes | memoryview", first: int, ends: "np.ndarray | None" = None) -> None:
        self.data = data
        self.first = first
        buf = np.frombuffer(data, np.uint8)
        if ends is None:  # where each line ends (its line break, or the end of the data)
            breaks = _breaks(buf)
            ends = breaks if len(buf) and buf[-1] == 10 else np.append(breaks, len(buf))
        starts = np.empty_like(ends)
        starts[:1] = 0
        starts[1:] = ends[:-1] + 1
        n = len(ends)
        self.starts, self.ends = starts, ends
        self.kinds = np.empty(n, np.int8)
        self.values = np.zeros((n, 81), np.uint8)
        self.solutions = np.zeros((n, 81), np.uint8)
        self.numbers = np.empty((n, 6), np.float64)
        self.spans = np.empty((n, 15), np.int64)
        if n:
            scan(buf, starts, ends, self.kinds, self.values, self.solutions, self.numbers, self.spans)

    def __len__(self) -> int:
        return len(self.kinds)

    def text(self, i: int) -> str:
        """Line ``i`` as text (a byte that is not UTF-8 read as U+FFFD, as the file's reader does)."""
        return bytes(self.data[self.starts[i]:self.ends[i]]).decode("utf-8", "replace")



#: Bytes read from the file at a time.
READ = 1 << 22


def pieces(path: str, after: int, lines: int, cap: int) -> "Iterator[Chunk | int]":
    """The file ``path`` in chunks of ``lines`` lines (the last one shorter), from
    line ``after + 1``. Where the file has what only the general reader reads as
    it should -- a line longer than ``cap`` bytes, or a lone carriage return,
    which ends a line there -- it yields instead the line after which the
    general reader takes over, and stops."""
    with open(path, "rb") as fh:
        rest = b""
        rest_breaks = np.zeros(0, np.int64)  # where the line breaks of ``rest`` are
        number = 1  # the line that ``rest`` starts
        more = fresh = True
        while rest or more:
            parts, found_breaks = [rest], [rest_breaks]
            size, newlines = len(rest), len(rest_breaks)
            tail = len(rest) - (int(rest_breaks[-1]) + 1 if newlines else 0)  # bytes since the last line break
            while more and newlines < lines:
                data = fh.read(READ)
                if fresh and data.startswith(b"\xef\xbb\xbf"):  # the byte order mark the text reader drops
                    data = data[3:]
                fresh = False
                if not data:
                    more = False
                    break
                parts.append(data)
                found = _breaks(np.frombuffer(data, np.uint8))
                found_breaks.append(found + size)
                size += len(data)
                newlines += len(found)
                tail = len(data) - int(found[-1]) - 1 if len(found) else tail + len(data)
                if tail > cap:
                    yield number - 1
                    return
            buf = b"".join(parts)
            del parts
            breaks = np.concatenate(found_breaks)
            del found_breaks
            start, at = 0, 0
            while len(breaks) - at >= lines or (not more and start < len(buf)):
                count = min(lines, len(breaks) - at)
                end = int(breaks[at + count - 1]) + 1 if count else len(buf)
                if not more and at + count == len(breaks) and count < lines:
                    end = len(buf)  # the file's last line, with no line break after it
                taken = count + (end > (int(breaks[at + count - 1]) + 1 if count else 0))
                if number + taken - 1 > after:
                    skip = max(0, after - number + 1)  # resuming: the lines that went in already
                    cut = int(breaks[at + skip - 1]) + 1 if skip else start
                    piece = memoryview(buf)[cut:end]  # no copy
                    if buf.find(b"\r", cut, end) >= 0 and buf.count(b"\r", cut, end) != buf.count(b"\r\n", cut, end):
                        yield number - 1 + skip
                        return
                    ends = breaks[at + skip:at + count] - cut
                    if taken > count:
                        ends = np.append(ends, end - cut)
                    yield Chunk(piece, number + skip, ends)
                number += taken
                start, at = end, at + count
            rest = buf[start:]
            rest_breaks = breaks[at:] - start
