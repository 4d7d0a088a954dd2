"""The explanation as one self-contained HTML page: every step drawn.

The page starts with the puzzle, its rating and a table of contents; then
every step, numbered, with its technique, rating and text beside its picture
(:mod:`sudokit.pictures.steps`: candidates, the pattern's cells and units
highlighted, removed candidates struck out, the placed value shown, links
drawn strong solid and weak dashed, with arrows); and ends with the solved
grid. No script, no external file: it can be mailed or printed as is.

>>> from sudokit.examples import example
>>> from sudokit.logic import explain
>>> page = explanation_page(example("gentle"), explain(example("gentle")))
>>> page.startswith("<!DOCTYPE html>") and page.count('<section class="step"') == len(explain(example("gentle")))
True
"""

from __future__ import annotations

from typing import Any, Sequence
from xml.sax.saxutils import escape

from ..grid import Grid
from .steps import board_of, board_svg

STYLE = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 0; color: #1b1b1b; background: #fafafa; }
header { background: #ffffff; border-bottom: 1px solid #ddd; padding: 1em 1.5em; }
header h1 { margin: 0 0 .3em 0; font-size: 1.4em; }
header .puzzle { font-family: "DejaVu Sans Mono", monospace; word-break: break-all; color: #444; }
main { max-width: 1100px; margin: 0 auto; padding: 1em 1.5em 4em; }
nav ol { columns: 3 16em; font-size: .9em; padding-left: 2.5em; }
nav a { color: #1a5fb4; text-decoration: none; }
section.step, section.grid { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start;
  background: #fff; border: 1px solid #e3e3e3; border-radius: 6px; padding: 1em; margin: 1em 0; }
section .text { flex: 1 1 18em; min-width: 14em; }
section h2 { font-size: 1.1em; margin: 0 0 .4em 0; }
section h2 .rating { color: #666; font-weight: normal; }
section p { margin: .3em 0; line-height: 1.4; }
section svg { flex: 0 0 auto; max-width: 100%; height: auto; }
.legend { font-size: .85em; color: #555; }
.legend span { display: inline-block; padding: 0 .4em; margin-right: .4em; border-radius: 3px; }
@media print { section.step, section.grid { break-inside: avoid; } nav { display: none; } }
"""

LEGEND = ('<p class="legend"><span style="background:#fff1a8">pattern cells</span>'
          '<span style="background:#e6eefc">units</span><span style="background:#a5d8ff">named candidates</span>'
          '<span style="background:#ffc9c9">removed</span><span style="background:#b2f2bb">placed</span>'
          '<span style="color:#d9480f">— strong link, - - weak link</span></p>')


def _rating_text(rating: Any) -> str:
    if rating is None:
        return ""
    if isinstance(rating, str):
        return rating
    bound = "≥" if getattr(rating, "lower_bound", False) else ""
    return (f"ER {bound}{rating.er:.1f}, EP {rating.ep:.1f}, ED {rating.ed:.1f} — {rating.level}; "
            f"hardest step: {rating.hardest or 'none'}; {rating.steps} steps")


def _step_rating(step: Any) -> str:
    """A step's rating, with ``≥`` when it is a lower bound (the last step of a path the engine finished)."""
    return f"{'≥' if getattr(step, 'lower_bound', False) else ''}{step.rating:.1f}"


def _sections(grid: Grid, steps: Sequence[Any], prefix: str = "") -> list[str]:
    from ..logic.state import Candidates

    state = Candidates.from_grid(grid)
    out = []
    start = board_svg(board_of(state, grid), title="the puzzle")
    out.append(f'<section class="grid" id="{prefix}start">{start}<div class="text"><h2>The puzzle</h2>'
               f'<p>{grid.clues} givens, {sum(1 for v in grid.values if not v)} cells to fill; '
               f'the small digits are the candidates.</p></div></section>')
    for number, step in enumerate(steps, 1):
        board = step.board if getattr(step, "board", None) is not None else board_of(state, grid)
        svg = board_svg(board, step=step)
        out.append(
            f'<section class="step" id="{prefix}step-{number}" data-step="{number}">{svg}<div class="text">'
            f'<h2>{number}. {escape(step.technique)} <span class="rating">[{_step_rating(step)}]</span></h2>'
            f"<p>{escape(step.text or step.technique)}</p></div></section>"
        )
        step.apply(state)
    end = board_svg(board_of(state, grid), title="the end")
    solved = state.solved
    out.append(f'<section class="grid" id="{prefix}end">{end}<div class="text"><h2>{"Solved" if solved else "The end"}'
               f'</h2><p>{"Every cell is filled." if solved else "The steps stop here."}</p></div></section>')
    return out


def explanation_fragment(grid: Grid, steps: Sequence[Any]) -> str:
    """The steps as HTML sections without the page around them (for Jupyter)."""
    return '<div class="sudokit-explanation">' + "".join(_sections(grid, steps)) + "</div>"


def explanation_page(grid: Grid, steps: Sequence[Any], rating: Any = None, *, title: str | None = None) -> str:
    """A self-contained HTML page: the puzzle, ``rating`` (a
    :class:`~sudokit.logic.Rating` or text), and every step of ``steps``
    drawn on the grid it applies to, numbered, with its rating and text."""
    title = title or f"Explanation of a {grid.size}x{grid.size} sudoku"
    toc = "".join(
        f'<li><a href="#step-{i}">{escape(s.technique)} [{s.rating:.1f}]</a></li>' for i, s in enumerate(steps, 1)
    )
    rating_line = _rating_text(rating)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<header><h1>{escape(title)}</h1><div class=\"puzzle\">{escape(grid.line())}</div>"
        + (f'<p class="rating">{escape(rating_line)}</p>' if rating_line else "") + LEGEND + "</header>",
        f"<main><nav><h2>{len(steps)} steps</h2><ol>{toc}</ol></nav>",
        *_sections(grid, steps),
        "</main></body></html>",
    ])


def _head(title: str) -> list[str]:
    return ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)}</title>", f"<style>{STYLE}</style></head><body>"]


def explanations_page(entries: Sequence[tuple[str, Grid, Sequence[Any], Any]], *, title: str | None = None) -> str:
    """One page for several puzzles: ``entries`` are ``(label, grid, steps,
    rating)``; one entry gives the same page as :func:`explanation_page`."""
    if len(entries) == 1:
        label, grid, steps, rating = entries[0]
        return explanation_page(grid, steps, rating, title=title)
    title = title or f"Explanations of {len(entries)} sudoku puzzles"
    parts = _head(title) + [f"<header><h1>{escape(title)}</h1>{LEGEND}</header><main>"]
    parts.append("<nav><ol>" + "".join(
        f'<li><a href="#p{k}-start">{escape(label)}</a> — {escape(_rating_text(rating))}</li>'
        for k, (label, _, _, rating) in enumerate(entries, 1)) + "</ol></nav>")
    for k, (label, grid, steps, rating) in enumerate(entries, 1):
        parts.append(f'<h1 class="puzzle-title">{escape(label)}</h1><p class="puzzle">{escape(grid.line())}</p>'
                     f'<p class="rating">{escape(_rating_text(rating))}</p>')
        parts.extend(_sections(grid, steps, f"p{k}-"))
    parts.append("</main></body></html>")
    return "\n".join(parts)


def rating_html(rating: Any) -> str:
    """A rating as a small HTML table (for Jupyter)."""
    rows = [("ER", f"{'≥' if rating.lower_bound else ''}{rating.er:.1f}"),
            ("EP", f"{'≥' if getattr(rating, 'ep_lower_bound', False) else ''}{rating.ep:.1f}"),
            ("ED", f"{'≥' if getattr(rating, 'ed_lower_bound', False) else ''}{rating.ed:.1f}"),
            ("level", rating.level), ("hardest step", rating.hardest or "none"), ("steps", str(rating.steps)),
            ("score", f"{rating.score} ({rating.score_level})")]
    body = "".join(f"<tr><th style=\"text-align:left\">{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    return f'<table class="sudokit-rating">{body}</table>'


__all__ = ["explanation_fragment", "explanation_page", "explanations_page", "rating_html"]
