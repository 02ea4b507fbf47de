"""A grid, its steps, a search: `draw` (a grid with a backend's digits in another colour),
`explain` (the logic engine's steps, the grid after each), `trace` (the replay page of one
search), `solve` (one grid, one backend, the answer judged)."""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Iterable, Sequence
from numbers import Integral
from typing import Any

from sudokucp.api.inputs import _shown
from sudokucp.display import cell_pixels, figure, grid_svg, puzzle_caption
from sudokucp.engine.propagation import eliminate, place, start
from sudokucp.i18n import _
from sudokucp.io import arguments
from sudokucp.io.arguments import ArgumentError
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import Grid, Puzzle, cell_name
from sudokucp.result import Result
from sudokucp.teaching import explain as explaining
from sudokucp.teaching import replay
from sudokucp.teaching import trace as tracing


def as_puzzle(puzzle: Puzzle | str) -> Puzzle:
    """A Puzzle, or one read from a grid's text."""
    return puzzle if isinstance(puzzle, Puzzle) else parse_grid(puzzle)


@dataclasses.dataclass(frozen=True)
class Drawing:
    """A grid to show: givens in bold, the other digits (a backend's) in blue."""

    puzzle: Puzzle
    cells: Grid

    def _repr_svg_(self) -> str:
        return grid_svg(self.puzzle.shape, self.cells, givens=self.puzzle.cells)

    def _repr_html_(self) -> str:
        caption = puzzle_caption(self.puzzle.name, self.puzzle.shape, self.puzzle.givens)
        return figure(self._repr_svg_(), caption, "drawing")


def draw(puzzle: Puzzle | str, solution: Result | Sequence[int] | None = None) -> Drawing:
    """The grid with a solution's digits (a Result's first, or a grid of digits) in blue."""
    puzzle = as_puzzle(puzzle)
    if isinstance(solution, Result):
        solution = solution.solution
    cells = tuple(solution) if solution is not None else puzzle.cells
    if len(cells) != puzzle.shape.cells:
        raise ArgumentError(_("the solution has {found} cells, the grid {expected}").format(
            found=len(cells), expected=puzzle.shape.cells))
    n = puzzle.side
    for cell, value in enumerate(cells):
        if isinstance(value, bool) or not isinstance(value, Integral) or not 0 <= value <= n:
            raise ArgumentError(_("the solution holds {value} at {cell}: not a digit of a "
                                  "{shape} grid").format(value=_shown(value),
                                                         cell=cell_name(puzzle.shape, cell),
                                                         shape=puzzle.shape))
    return Drawing(puzzle, tuple(map(int, cells)))


class Explanation(list):
    """The logic engine's steps for a grid (teaching.explain's Moves): a list that a notebook
    shows as numbered sentences, each with the grid after it."""

    def __init__(self, puzzle: Puzzle, moves: Iterable[explaining.Move]) -> None:
        super().__init__(moves)
        self.puzzle = puzzle

    def __str__(self) -> str:
        return "\n".join(f"{n:>4}. {m.text}" for n, m in enumerate(self, 1))

    def _repr_html_(self) -> str:
        return explanation_html(self.puzzle, list(self))


STEP_CELL = 28  # pixels of a cell in the grid drawn after each step (9x9 and below)


def explanation_html(puzzle: Puzzle, moves: Sequence[explaining.Move]) -> str:
    """The grid, then each step: its sentence and the grid after it (placed cells marked,
    candidates shown where the step struck some, those struck in red)."""
    shape, board = puzzle.shape, start(puzzle)
    cell = min(STEP_CELL, cell_pixels(shape.side))
    caption = puzzle_caption(puzzle.name, shape, puzzle.givens)
    parts = [figure(grid_svg(shape, puzzle.cells), caption, "puzzle"),
             '<div class="sudokucp-steps" style="display:flex;flex-wrap:wrap;gap:0.8em">']
    for number, move in enumerate(moves, 1):
        svg = ""
        if board is not False and (move.placed or move.removed):
            for c, d in move.placed:
                place(board, c, 1 << (d - 1))
            for c, d in move.removed:
                eliminate(board, [c], 1 << (d - 1))
            svg = grid_svg(shape, board.vals, givens=puzzle.cells, cell=cell,
                           candidates=board.cand if move.removed else None,
                           marked={c for c, _d in move.placed}, struck=move.removed)
        parts.append(f'<div class="step" style="width:{shape.side * cell + 12}px">'
                     f"<p><b>{number}.</b> {html.escape(move.text)}</p>{svg}</div>")
    parts.append("</div>")
    return '<div class="sudokucp-explain">' + "".join(parts) + "</div>"


def explain(puzzle: Puzzle | str, *, max_steps: int | None = None) -> Explanation:
    """The logic engine's solution path, step by step, in the current language."""
    puzzle = as_puzzle(puzzle)
    max_steps = None if max_steps is None else arguments.count(max_steps)
    return Explanation(puzzle, explaining.explain(puzzle, max_steps=max_steps))


@dataclasses.dataclass(frozen=True)
class Trace:
    """The events of one traced search; a notebook shows the replay page in a frame."""

    events: list[dict[str, Any]]
    height: int = 640

    def html(self) -> str:
        """The self-contained replay page (teaching.replay), in the current language."""
        return replay.render(self.events)

    def _repr_html_(self) -> str:
        page = html.escape(self.html(), quote=True)
        return (f'<iframe class="sudokucp-trace" srcdoc="{page}" sandbox="allow-scripts" '
                f'style="width:100%;height:{self.height}px;border:1px solid #ddd"></iframe>')


def trace(puzzle: Puzzle | str, backend: str = "naive", *, max_steps: int = 2000,
          limit: int = 1) -> Trace:
    """Trace one search (naive, naive-iterative, mrv or hybrid), at most `max_steps` events;
    in-process, bounded by the steps."""
    from sudokucp.backends import from_spec

    max_steps, limit = arguments.count(max_steps), arguments.size(limit)
    events = tracing.record(from_spec(backend), as_puzzle(puzzle), max_steps=max_steps,
                            limit=limit)
    return Trace(events)


def solve(puzzle: Puzzle | str, backend: str = "naive", *, limit: int = 1,
          timeout: float | None = None) -> Result:
    """One grid solved by one backend ('mrv:order=static'), up to `limit` solutions (0: all),
    every one judged as bench judges them: one the judge refuses makes the result WRONG. A
    backend that cannot look at the clock runs, under a `timeout`, in a worker killed at it."""
    from sudokucp.backends import from_spec
    from sudokucp.executors import ResourceLimits, Task, make_executor
    from sudokucp.harness.runcheck import judged

    puzzle, solver = as_puzzle(puzzle), from_spec(backend)
    if timeout is None or solver.interruptible:
        return judged(puzzle, solver.solve(puzzle, limit=limit, time_limit=timeout))
    limits = ResourceLimits(time_limit=timeout, cores=solver.cores)
    with make_executor("local", jobs=1) as executor:
        executor.submit(Task(puzzle.digest, solver.label, puzzle, limit, limits))
        return judged(puzzle, next(iter(executor.results())).result)
