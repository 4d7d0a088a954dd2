"""What the bank holds: counts by level, rating, technique and source.

:func:`summary` reads them in a few aggregate queries; the command line
draws them (``sudoku bank stats``), with a histogram of ER.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .store import Bank

__all__ = ["Summary", "summary"]

#: Width of an ER bin of the histogram.
ER_BIN = 0.5


@dataclass
class Summary:
    """Counts of what the bank holds."""

    puzzles: int = 0
    given: int = 0
    unrated: int = 0
    levels: dict[str, int] = field(default_factory=dict)
    er_bins: list[tuple[float, int]] = field(default_factory=list)
    hardest: dict[str, int] = field(default_factory=dict)
    techniques: dict[str, int] = field(default_factory=dict)
    sources: dict[str, int] = field(default_factory=dict)
    shapes: dict[str, int] = field(default_factory=dict)
    variants: dict[str, int] = field(default_factory=dict)
    books: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "puzzles": self.puzzles, "given": self.given, "unrated": self.unrated, "levels": self.levels,
            "er": [{"from": low, "to": round(low + ER_BIN, 2), "puzzles": n} for low, n in self.er_bins],
            "hardest": self.hardest, "techniques": self.techniques, "sources": self.sources,
            "shapes": self.shapes, "variants": self.variants, "books": self.books,
        }


def summary(bank: Bank) -> Summary:
    """Counts by level, ER bin, hardest technique, technique on the path, source, shape, variant, book."""
    from .query import LEVELS

    out = Summary()
    with bank.reading() as conn:
        out.puzzles, out.given, out.unrated = conn.execute(
            "SELECT count(*), count(*) + coalesce((SELECT sum(n - 1) FROM seen), 0), coalesce(sum(er IS NULL), 0) "
            "FROM puzzle").fetchone()
        levels = dict(conn.execute("SELECT level, count(*) FROM puzzle WHERE level IS NOT NULL GROUP BY level"))
        out.levels = {name: levels[name] for name in LEVELS if name in levels}
        out.er_bins = [(round(b * ER_BIN, 2), n) for b, n in conn.execute(
            f"SELECT CAST(er / {ER_BIN} AS INTEGER) AS b, count(*) FROM puzzle WHERE er IS NOT NULL "
            "GROUP BY b ORDER BY b")]
        names = {bit: name for bit, name in conn.execute("SELECT bit, name FROM family")}
        hardest = conn.execute("SELECT hardest_family, count(*) FROM puzzle WHERE hardest_family IS NOT NULL "
                               "GROUP BY hardest_family").fetchall()
        out.hardest = dict(sorted(((names[b], n) for b, n in hardest), key=lambda kv: -kv[1]))
        if names:
            columns = ", ".join(f"sum(families >> {bit} & 1)" for bit in sorted(names))
            counts = conn.execute(f"SELECT {columns} FROM puzzle").fetchone()
            out.techniques = dict(sorted(((names[b], int(n or 0)) for b, n in zip(sorted(names), counts) if n),
                                         key=lambda kv: -kv[1]))
        out.sources = dict(conn.execute("SELECT coalesce(source, ''), count(*) FROM puzzle GROUP BY source "
                                        "ORDER BY count(*) DESC LIMIT 20"))
        out.shapes = dict(conn.execute("SELECT shape, count(*) FROM puzzle GROUP BY shape ORDER BY count(*) DESC"))
        out.variants = dict(conn.execute("SELECT coalesce(variant, 'classic'), count(*) FROM puzzle "
                                         "GROUP BY variant ORDER BY count(*) DESC"))
        out.books = dict(conn.execute("SELECT book.name, count(used.puzzle) FROM book LEFT JOIN used "
                                      "ON used.book = book.id GROUP BY book.id ORDER BY book.id"))
    return out
