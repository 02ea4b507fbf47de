"""Search events for replay: the Tracer the search backends call, and the runs that record them.

A search walks seed 001's tree: each hypothesis opens a node one level deeper (GoForward), a node
whose children all failed is abandoned and its digit taken back (GoBack). The backends call
`place(depth, cell, digit)` for a hypothesis, or `guess(cell, bit, vals)` with the board of the
node it is made in (the hybrid: its depth is found from the board, and the digits propagation
deduced there come first), `backtrack(depth)` for a failed node, `retract(depth)` for a node
left after a solution or for its next sibling, `retreat(depth, failed)` for both at once (MRV);
solutions reach the tracer through the backend's collector.
The tracer writes the events, with their counters:

- place: a digit put in a cell; `guess` is true for a hypothesis (a new node of the tree), false
  for a digit propagation deduced in the current node (hybrid only); depth = hypotheses on the
  path (0: the root, before any guess).
- remove: a digit taken back, in reverse order, when its node is abandoned.
- backtrack: the node at `depth` failed (no digit fits, or every child failed, or propagation
  met a contradiction), with the cell of its hypothesis; its own digits are then removed.
- solution: every cell filled; the grid, checked by the caller.
- truncated: `max_steps` events were written; the search stops there.

Counters: nodes = digits placed, guesses = hypotheses, backtracks = failed nodes (the backends'
own counts: nodes and backtracks for naive and mrv, guesses and backtracks for hybrid). A backend
pays nothing when its `tracer` is None: the checks sit at places, not in inner loops.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any

from sudokucp.backends import backend_class
from sudokucp.backends.base import Backend, Found
from sudokucp.puzzle import Puzzle, cell_name

Event = dict[str, Any]
Sink = Callable[[Event], None]
DEFAULT_STEPS = 10_000


class TraceFull(BaseException):
    """max_steps events were written: unwinds the search (a BaseException, so that solve() does
    not turn it into an ERROR result)."""


class NotTraced(ValueError):
    """A backend without trace hooks."""


class Tracer:
    """Turns the backends' calls into numbered events with depth and counters: the protocol
    sudokucp.backends.base.Tracer declares, implemented."""

    def __init__(self, puzzle: Puzzle, sink: Sink, max_steps: int = DEFAULT_STEPS) -> None:
        self.shape, self.sink, self.max_steps = puzzle.shape, sink, max_steps
        self.grid = list(puzzle.cells)
        self.root: list[int] = []  # cells propagation filled before any hypothesis
        self.levels: list[list[int]] = []  # cells placed at depth 1, 2, ...: the open nodes
        self.steps = self.nodes = self.guesses = self.backtracks = 0
        self.written: Event = self.counters()  # the last event written

    def place(self, depth: int, cell: int, digit: int, guess: bool = True) -> None:
        """A digit put in `cell`: a hypothesis at `depth`, or deduced in the node at `depth`."""
        self._undo(depth - 1 if guess else depth)
        if guess:
            self.levels.append([cell])
            self.guesses += 1
        else:
            (self.levels[-1] if self.levels else self.root).append(cell)
        self.grid[cell] = digit
        self.nodes += 1
        self._emit("place", depth, cell=cell, at=cell_name(self.shape, cell), digit=digit,
                   guess=guess)

    def guess(self, cell: int, bit: int, vals: Sequence[int]) -> None:
        """A hypothesis (cell, digit bit) in the node whose digits are `vals` (the hybrid's
        board): the node's own deductions are written first."""
        depth = self.node_of(vals)
        self._undo(depth)
        self.settled(depth, vals)
        self.place(depth + 1, cell, bit.bit_length())

    def node_of(self, vals: Sequence[int]) -> int:
        """The depth of the open node whose board is `vals`: the hypotheses of its path are
        placed there, the next open one (a finished sibling's) is not."""
        for depth, level in enumerate(self.levels):
            if vals[level[0]] != self.grid[level[0]]:
                return depth
        return len(self.levels)

    def settled(self, depth: int, vals: Sequence[int]) -> None:
        """The digits of `vals` not yet on the grid, deduced in the node at `depth`."""
        for cell, digit in enumerate(vals):
            if digit and not self.grid[cell]:
                self.place(depth, cell, digit, guess=False)

    def backtrack(self, depth: int | None = None) -> None:
        """The node at `depth` (None: the deepest open one) failed: counted, then its digits
        removed (GoBack)."""
        depth = len(self.levels) if depth is None else depth
        self.backtracks += 1
        where = {}
        if 0 < depth <= len(self.levels):  # the cell of the node's hypothesis
            cell = self.levels[depth - 1][0]
            where = {"cell": cell, "at": cell_name(self.shape, cell)}
        self._emit("backtrack", depth, **where)
        self._undo(max(depth - 1, 0))

    def retract(self, depth: int) -> None:
        """The node at `depth` is left without having failed: its digits, and those of any
        deeper node, are removed."""
        self._undo(depth - 1)

    def retreat(self, depth: int, failed: int) -> None:
        """Back up to the node at `depth` (-1: past the root), leaving the deeper ones deepest
        first; the `failed` ones just below `depth` failed."""
        for d in range(len(self.levels), depth, -1):
            if d <= depth + failed:
                self.backtrack(d)
            else:
                self.retract(d)

    def solution(self, grid: Sequence[int]) -> None:
        """Every cell filled: the digits deduced last, then the grid."""
        self.settled(len(self.levels), grid)
        self._emit("solution", len(self.levels), grid=list(grid))

    def _undo(self, keep: int) -> None:
        """Remove the digits of the nodes deeper than `keep`, last placed first."""
        while len(self.levels) > keep:
            depth = len(self.levels)
            for cell in reversed(self.levels.pop()):
                digit, self.grid[cell] = self.grid[cell], 0
                self._emit("remove", depth, cell=cell, at=cell_name(self.shape, cell),
                           digit=digit)

    def _emit(self, kind: str, depth: int, **fields: Any) -> None:
        if self.steps == self.max_steps:  # the counters of the last step written
            last = {k: self.written[k] for k in ("nodes", "guesses", "backtracks")}
            self.sink({"event": "truncated", **last, "max_steps": self.max_steps})
            raise TraceFull
        self.steps += 1
        self.written = {"event": kind, "step": self.steps, "depth": depth, **fields,
                        **self.counters()}
        self.sink(self.written)

    def counters(self) -> dict[str, int]:
        return {"nodes": self.nodes, "guesses": self.guesses, "backtracks": self.backtracks}


class TracedFound(Found):
    """The backend's collector, telling the tracer of each solution."""

    __slots__ = ("tracer",)

    def __init__(self, keep: int | None, tracer: Tracer) -> None:
        super().__init__(keep)
        self.tracer = tracer

    def append(self, grid: Sequence[int]) -> None:
        self.tracer.solution(grid)
        super().append(grid)


def traceable(backend: Backend) -> bool:
    """Whether the backend calls a tracer (its class says so with `traceable`)."""
    return backend.traceable


def traced_names() -> list[str]:
    """The registered backends that can be traced."""
    from sudokucp.backends import BACKENDS

    names = []
    for name in BACKENDS:
        try:
            if backend_class(name).traceable:
                names.append(name)
        except ImportError:
            continue
    return names


def header(backend: Backend, puzzle: Puzzle, max_steps: int, limit: int) -> Event:
    """The first line: what was searched, by whom, with which bounds."""
    shape = puzzle.shape
    return {"event": "start", "backend": backend.label, "puzzle": puzzle.name,
            "side": shape.side, "box": [shape.box_rows, shape.box_cols],
            "givens": list(puzzle.cells), "max_steps": max_steps, "limit": limit}


def run(backend: Backend, puzzle: Puzzle, sink: Sink, *, max_steps: int = DEFAULT_STEPS,
        limit: int = 1) -> bool:
    """Search `puzzle` with `backend`, sending its events to `sink`, header and end included;
    False when max_steps stopped it."""
    if not traceable(backend):
        raise NotTraced(f"backend {backend.label!r} has no trace hooks (traced: "
                        f"{', '.join(traced_names())})")
    tracer = Tracer(puzzle, sink, max_steps)
    sink(header(backend, puzzle, max_steps, limit))
    backend.tracer = tracer
    backend.collector = lambda: TracedFound(backend._keep, tracer)  # type: ignore[method-assign]
    try:
        result = backend.solve(puzzle, limit=limit)
    except TraceFull:
        return False
    finally:
        backend.tracer = None
        del backend.collector
    sink({"event": "end", "status": result.status.value, "solutions": result.count,
          "complete": result.complete, **tracer.counters(), "steps": tracer.steps,
          "stats": dict(result.stats), **({"error": result.error} if result.error else {})})
    return True


def record(backend: Backend, puzzle: Puzzle, *, max_steps: int = DEFAULT_STEPS,
           limit: int = 1) -> list[Event]:
    """Every event of one traced search, header and end (or truncation) included."""
    events: list[Event] = []
    run(backend, puzzle, events.append, max_steps=max_steps, limit=limit)
    return events


def line(event: Event) -> str:
    """One event as a compact JSON line."""
    return json.dumps(event, separators=(",", ":"))


def write_jsonl(events: Iterable[Event], out: IO[str]) -> None:
    for event in events:
        out.write(line(event) + "\n")


__all__ = ["DEFAULT_STEPS", "NotTraced", "TraceFull", "Tracer", "record", "run", "traceable",
           "traced_names", "write_jsonl"]
