"""The alphabets that write values as symbols: parsing an alphabet, and reading symbols as values.

Values 1..N are written with the first N of :data:`DEFAULT_SYMBOLS`
(``1-9`` then ``A-Z``) unless an alphabet is given, such as ``0-F`` for
hexadoku; a blank is ``.``, or ``0`` when ``0`` is not a symbol. A
:class:`Codec` turns one alphabet's text into values fast, for the line
form that :class:`sudokit.grid.Grid` reads and every format builds on.

>>> parse_alphabet("0-F")
'0123456789ABCDEF'
>>> codec("1234").decode("1.3.")
(1, 0, 3, 0)
"""

from __future__ import annotations

from functools import lru_cache

from .errors import ParseError
from .geometry import DEFAULT_SYMBOLS, MAX_SIZE

#: Hexadoku's alphabet, taken for a 16x16 puzzle that uses both '.' and '0' but no 'G'.
HEX = "0123456789ABCDEF"
#: Characters that separate boxes in a written grid, never symbols.
SEPARATORS = "|│║"

_SEQUENCES = ("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789abcdefghijklmnopqrstuvwxyz")


@lru_cache(maxsize=256)
def parse_alphabet(spec: str) -> str:
    """Expand an alphabet spec: ranges ``a-b`` and single symbols, in value order.

    >>> parse_alphabet("1-9A-G")
    '123456789ABCDEFG'
    >>> parse_alphabet("GODAKCUBE")
    'GODAKCUBE'
    >>> parse_alphabet("1-9A-A9")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: symbol '9' appears twice in alphabet '1-9A-A9'
    """
    text = spec.strip()
    if not text:
        raise ParseError("an alphabet needs at least one symbol")
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if i + 2 < len(text) and text[i + 1] == "-":
            last = text[i + 2]
            out.extend(_expand(ch, last, spec))
            i += 3
            continue
        if ch == "-":
            raise ParseError(f"'-' in alphabet {spec!r} must stand between the two ends of a range")
        out.append(ch)
        i += 1
    seen: set[str] = set()
    for ch in out:
        if ch in seen:
            raise ParseError(f"symbol {ch!r} appears twice in alphabet {spec!r}")
        if ch == "." or ch.isspace() or ch in SEPARATORS:
            raise ParseError(f"{ch!r} cannot be a symbol (it marks blanks or separators), in alphabet {spec!r}")
        seen.add(ch)
    if len(out) > MAX_SIZE:
        raise ParseError(f"alphabet {spec!r} has {len(out)} symbols; the largest size is {MAX_SIZE}")
    return "".join(out)


def _expand(first: str, last: str, spec: str) -> str:
    """``0-F`` -> ``0123456789ABCDEF``: digits run on into letters."""
    for seq in _SEQUENCES:
        i, j = seq.find(first), seq.find(last)
        if i >= 0 and j >= i:
            return seq[i : j + 1]
    if first.isalpha() and last.isalpha() and first.islower() == last.islower() and first <= last and ord(last) - ord(first) < MAX_SIZE:
        return "".join(chr(c) for c in range(ord(first), ord(last) + 1))
    raise ParseError(f"bad range {first}-{last} in alphabet {spec!r}: use ranges such as 1-9, 0-F, A-Z or a-z")


def describe(alphabet: str) -> str:
    """An alphabet in short, for messages.

    >>> describe("123456789ABCDEFG")
    '1-9, A-G'
    """
    parts: list[str] = []
    i = 0
    while i < len(alphabet):
        j = i
        while j + 1 < len(alphabet) and ord(alphabet[j + 1]) == ord(alphabet[j]) + 1:
            j += 1
        parts.append(alphabet[i] if j == i else alphabet[i] + ("-" if j > i + 1 else ", ") + alphabet[j])
        i = j + 1
    return ", ".join(parts)


class Codec:
    """Symbol <-> value for one alphabet; blanks are '.' (and '0' unless it is a symbol).

    ``values`` maps each symbol (either case, when that is unambiguous) and
    blank to its value; :meth:`decode` reads a whole line at once.
    """

    __slots__ = ("alphabet", "blanks", "values", "table", "size")

    def __init__(self, alphabet: str) -> None:
        self.alphabet = alphabet
        self.size = len(alphabet)
        self.blanks = "." if "0" in alphabet else ".0"
        values = {ch: i + 1 for i, ch in enumerate(alphabet)}
        for ch, v in list(values.items()):  # the other case reads the same when unambiguous
            for other in (ch.lower(), ch.upper()):
                if len(other) == 1 and other not in values:
                    values[other] = v
        for ch in self.blanks:
            values[ch] = 0
        self.values = values
        table = None
        if all(ord(ch) < 128 for ch in values):
            raw = bytearray(b"\xff" * 256)
            for ch, v in values.items():
                raw[ord(ch)] = v
            table = bytes(raw)
        self.table = table

    def decode(self, text: str) -> "tuple[int, ...] | int":
        """The values, or the index of the first character that is not a symbol."""
        if self.table is not None:
            try:
                codes = text.encode("ascii").translate(self.table)
            except UnicodeEncodeError:
                pass
            else:
                bad = codes.find(255)
                return tuple(codes) if bad < 0 else bad
        values = self.values
        out = []
        for i, ch in enumerate(text):
            v = values.get(ch)
            if v is None:
                return i
            out.append(v)
        return tuple(out)

    def bad_char(self, ch: str) -> str:
        """The message for a character that is no symbol of this alphabet."""
        n = self.size
        blanks = " or ".join(repr(b) for b in self.blanks)
        return (
            f"unexpected character {ch!r}: a {n}x{n} puzzle is written with "
            f"{describe(self.alphabet)} and {blanks} for a blank"
        )


@lru_cache(maxsize=256)
def codec(alphabet: str) -> Codec:
    """The (cached) :class:`Codec` of ``alphabet``."""
    return Codec(alphabet)


def alphabet_for(size: int, symbols: str | None, sample: str = "") -> str:
    """The symbols for values 1..size: ``symbols`` expanded, or the default.

    Without an explicit alphabet a 16x16 puzzle whose text (``sample``) uses
    both '.' and '0' but no 'G' is taken as hexadoku (0-F).
    """
    if symbols:
        alphabet = parse_alphabet(symbols)
        if len(alphabet) < size:
            raise ParseError(f"alphabet {alphabet!r} has {len(alphabet)} symbols; a {size}x{size} puzzle needs {size}")
        return alphabet[:size]
    if size == 16 and "0" in sample and "." in sample and "G" not in sample and "g" not in sample:
        return HEX
    if size > len(DEFAULT_SYMBOLS):
        raise ParseError(f"a {size}x{size} puzzle needs an explicit alphabet (symbols=...)")
    return DEFAULT_SYMBOLS[:size]
