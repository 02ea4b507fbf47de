"""Grids drawn for Jupyter: SVG of any shape (4x4 to 25x25), box borders thick, givens in bold,
digits found in blue, candidates in small print, a step's cells and struck candidates marked.

`attach` (called by the package's `__init__`) sets Puzzle's `_repr_svg_` and `_repr_html_` and
Result's `_repr_html_` to the drawings below, so that the value types import no writer;
sudokucp.api draws the steps of an explanation with them. Plain strings, no third-party import;
the messages' language is loaded when a caption is first written.

Glossary: n = side, r x c = box rows x box columns, s = a cell's side in pixels.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence

from sudokucp.puzzle import Puzzle, PuzzleError, Shape, symbol
from sudokucp.result import Result

GIVEN, FOUND, STRUCK, MARK = "#111111", "#1f5fd1", "#c62828", "#fff3b0"
THIN, THICK = "#9aa0a8", "#111111"
PAD = 2  # pixels around the grid, so the outer border is not cut


def cell_pixels(side: int) -> int:
    """A cell's side in pixels: smaller cells for larger grids (a 25x25 grid stays ~550 px)."""
    return 36 if side <= 9 else 30 if side <= 12 else 26 if side <= 16 else 22


def grid_svg(shape: Shape, cells: Sequence[int], *, givens: Sequence[int] | None = None,
             candidates: Sequence[int] | None = None, marked: Collection[int] = (),
             struck: Collection[tuple[int, int]] = (), title: str = "",
             cell: int | None = None) -> str:
    """The grid as an SVG element. `givens`: the puzzle's cells (a digit there is drawn bold,
    the others blue as found); None: every digit is a given. `candidates`: a bit mask per cell
    (bit d-1 for digit d) drawn small in the open cells; `struck`: (cell, digit) candidates drawn
    red and crossed; `marked`: cells with a yellow background; `cell`: a cell's pixels."""
    n, s = shape.side, cell or cell_pixels(shape.side)
    width = n * s + 2 * PAD
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="sudoku-grid" data-side="{n}" '
             f'width="{width}" height="{width}" viewBox="0 0 {width} {width}" role="img" '
             f'font-family="DejaVu Sans, Arial, sans-serif">']
    if title:
        parts.append(f"<title>{html.escape(title)}</title>")
    parts.append(f'<rect x="{PAD}" y="{PAD}" width="{n * s}" height="{n * s}" fill="white"/>')
    parts += [_square(cell, n, s) for cell in sorted(marked)]
    parts += _lines(shape, s)
    crossed = _by_cell(struck)
    for at, value in enumerate(cells):
        if value:
            given = givens is None or bool(givens[at])
            parts.append(_digit(at, value, n, s, given))
        elif candidates is not None or at in crossed:
            mask = candidates[at] if candidates is not None else 0
            parts += _candidates(shape, at, mask, crossed.get(at, ()), s)
    parts.append("</svg>")
    return "".join(parts)


def _by_cell(struck: Collection[tuple[int, int]]) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for cell, digit in struck:
        out.setdefault(cell, set()).add(digit)
    return out


def _square(cell: int, n: int, s: int) -> str:
    x, y = PAD + (cell % n) * s, PAD + (cell // n) * s
    return f'<rect class="marked" x="{x}" y="{y}" width="{s}" height="{s}" fill="{MARK}"/>'


def _lines(shape: Shape, s: int) -> list[str]:
    """Thin lines between cells, then thick ones between boxes and around the grid."""
    n, thin, thick = shape.side, [], []
    end = PAD + n * s
    for i in range(n + 1):
        at = PAD + i * s
        for step, horizontal in ((shape.box_rows, True), (shape.box_cols, False)):
            x1, y1, x2, y2 = (PAD, at, end, at) if horizontal else (at, PAD, at, end)
            if i % step:
                thin.append(_line(x1, y1, x2, y2, THIN, 1))
            else:
                thick.append(_line(x1, y1, x2, y2, THICK, 2.5 if 0 < i < n else 3))
    return thin + thick


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: float) -> str:
    return (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
            f'stroke-width="{width}"/>')


def _digit(cell: int, value: int, n: int, s: int, given: bool) -> str:
    x, y = PAD + (cell % n + 0.5) * s, PAD + (cell // n + 0.5) * s
    style = (f'class="given" fill="{GIVEN}" font-weight="bold"' if given
             else f'class="found" fill="{FOUND}"')
    return (f'<text {style} x="{x:g}" y="{y:g}" font-size="{s * 0.62:.1f}" '
            f'text-anchor="middle" dominant-baseline="central">{symbol(value)}</text>')


def _candidates(shape: Shape, cell: int, mask: int, crossed: Collection[int],
                s: int) -> list[str]:
    """The candidates of an open cell in a box-shaped pattern (digit d at row (d-1) // c,
    column (d-1) % c of the cell), struck ones red and crossed."""
    n, r, c = shape.side, shape.box_rows, shape.box_cols
    left, top = PAD + (cell % n) * s, PAD + (cell // n) * s
    size = s * 0.8 / max(r, c)
    out = []
    for digit in range(1, n + 1):
        gone = digit in crossed
        if not (mask >> (digit - 1) & 1 or gone):
            continue
        x = left + s * 0.1 + ((digit - 1) % c + 0.5) * (s * 0.8 / c)
        y = top + s * 0.1 + ((digit - 1) // c + 0.5) * (s * 0.8 / r)
        colour = STRUCK if gone else "#6b7280"
        kind = "struck" if gone else "candidate"
        out.append(f'<text class="{kind}" x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" '
                   f'fill="{colour}" text-anchor="middle" dominant-baseline="central">'
                   f"{symbol(digit)}</text>")
        if gone:
            half = size * 0.45
            out.append(f'<line x1="{x - half:.1f}" y1="{y + half:.1f}" x2="{x + half:.1f}" '
                       f'y2="{y - half:.1f}" stroke="{STRUCK}" stroke-width="1"/>')
    return out


def figure(svg: str, caption: str, kind: str) -> str:
    """An SVG with its caption, as notebooks show it (class sudokucp-`kind`)."""
    return (f'<figure class="sudokucp-{kind}" style="display:inline-block;margin:0.5em">{svg}'
            f'<figcaption style="text-align:center">{html.escape(caption)}</figcaption>'
            f"</figure>")


def puzzle_caption(name: str, shape: Shape, givens: int) -> str:
    """'top95:1, 9x9, 17 givens'."""
    from sudokucp.i18n import ngettext

    counted = ngettext("{shape}, {count} given", "{shape}, {count} givens", givens).format(
        shape=shape, count=givens)
    return f"{name}, {counted}" if name else counted


def count_text(result: Result) -> str:
    """Result.describe_count in the current language: '28 solutions', 'at least 2 solutions'."""
    from sudokucp.i18n import _, ngettext

    n = result.count
    if result.complete:
        return (ngettext("{count} solution", "{count} solutions", n).format(count=n) if n
                else _("no solution"))
    return (ngettext("at least {count} solution", "at least {count} solutions", n).format(
        count=n) if n else _("no solution found"))


def result_html(result: Result, shape: Shape | None) -> str:
    """A Result: its status, count, times and search size, and its first solution drawn."""
    from sudokucp.i18n import _

    stats = result.stats
    lines = [(_("backend"), result.backend), (_("status"), result.status.value),
             (_("solutions"), count_text(result)),
             (_("search time (s)"), f"{result.seconds:.4g}")]
    if result.cpu is not None:
        lines.append((_("CPU time (s)"), f"{result.cpu:.4g}"))
    lines += [(key, f"{value:g}") for key, value in stats.items()
              if key in ("nodes", "guesses", "backtracks")]
    if result.error:
        lines.append((_("error"), result.error))
    rows = "".join(f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
                   f"<td style='text-align:left'>{html.escape(str(v))}</td></tr>"
                   for k, v in lines)
    table = f'<table class="sudokucp-result">{rows}</table>'
    if result.solution is None or shape is None:
        return table
    svg = grid_svg(shape, result.solution, givens=(0,) * shape.cells)
    caption = _("the first solution {backend} found").format(backend=result.backend)
    return f'<div style="display:flex;gap:1em;align-items:center">{table}' \
           f"{figure(svg, caption, 'solution')}</div>"


def puzzle_svg(puzzle: Puzzle) -> str:
    """A puzzle's grid, as Jupyter shows it: givens in bold, box borders thick."""
    return grid_svg(puzzle.shape, puzzle.cells, title=puzzle.name)


def puzzle_html(puzzle: Puzzle) -> str:
    """A puzzle's grid with its name, shape and number of givens."""
    return figure(puzzle_svg(puzzle), puzzle_caption(puzzle.name, puzzle.shape, puzzle.givens),
                  "puzzle")


def result_figure(result: Result) -> str:
    """A result's status, count, times and search size, and its first solution drawn."""
    try:
        shape = Shape.for_cells(len(result.solution)) if result.solution else None
    except PuzzleError:
        shape = None
    return result_html(result, shape)


REPRS = ((Puzzle, "_repr_svg_", puzzle_svg), (Puzzle, "_repr_html_", puzzle_html),
         (Result, "_repr_html_", result_figure))  # (type, Jupyter's method, drawing)


def attach() -> None:
    """Give Puzzle and Result their Jupyter drawings (REPRS)."""
    for kind, method, draw in REPRS:
        setattr(kind, method, draw)
