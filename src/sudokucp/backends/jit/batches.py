"""jit's batch hooks: grids of one shape solved by a depth-first kernel in one compiled call
(`solve_many`, `solve_array`, `run_batch`), and files or texts of one-line grids handed to
lines.py (`line_batch`, `solve_lines`). `Batches` is mixed into the Jit backend (jit.py), whose
`kernel` and `_state` it calls.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sudokucp.backends.jit.kernels import numpy_module, refuse_values_out_of_range
from sudokucp.backends.jit.layout import Answers, answers
from sudokucp.puzzle import Puzzle, Shape


@dataclass(frozen=True)
class Batch:
    """What solve_many returns, one row per grid: the first solution (zeros when none), the
    solutions counted (up to the limit), whether the search was exhausted, and the stats."""

    solutions: Any  # uint8 (grids x cells)
    counts: Any  # int64 (grids,)
    complete: Any  # bool (grids,)
    stats: Any  # int64 (grids x 3): nodes, guesses, backtracks
    seconds: float  # the compiled call alone


class Batches:
    """The batch hooks of the Jit backend (a mixin: `self` is a Jit)."""

    kernel: Any  # Jit.kernel
    _state: Any  # Jit._state

    def solve_many(self, puzzles: Sequence[Puzzle], *, limit: int = 1) -> Batch:
        """Solve grids of one shape with the dfs kernel in one compiled call (no deadline)."""
        if not puzzles:
            raise ValueError("solve_many needs at least one puzzle")
        shape = puzzles[0].shape
        if any(p.shape != shape for p in puzzles):
            raise ValueError(f"solve_many takes grids of one shape; the first is {shape}")
        variant = next((i for i, p in enumerate(puzzles) if not p.rules.classic), None)
        if variant is not None:
            raise ValueError(f"solve_many takes classic grids; puzzle {variant} "
                             f"({puzzles[variant].name or 'unnamed'}) is {puzzles[variant].kind}: "
                             "solve() takes variants one at a time")
        np = numpy_module()
        return self.solve_array(np.array([p.cells for p in puzzles], np.int64), shape,
                                limit=limit)

    def solve_array(self, grids: Any, shape: Shape, *, limit: int = 1) -> Batch:
        """solve_many on a (grids x cells) integer array, 0 for a blank."""
        np = numpy_module()
        grids = np.ascontiguousarray(grids, np.int64)
        if grids.ndim != 2 or grids.shape[1] != shape.cells:
            raise ValueError(f"expected an array of {shape} grids ({shape.cells} columns), "
                             f"not one of shape {grids.shape}")
        refuse_values_out_of_range(np, grids, shape)
        grids = grids.astype(np.uint8)
        self.run_batch(grids[:0], shape, limit, 1)  # compiled (or loaded) before the clock
        t0 = time.perf_counter()
        out = self.run_batch(grids, shape, limit, 1)
        return Batch(out.solutions[:, 0], out.counts, out.complete, out.stats,
                     seconds=time.perf_counter() - t0)

    def run_batch(self, grids: Any, shape: Shape, limit: int, kept: int, timed: bool = False
                  ) -> Answers:
        """One compiled call of the shape's depth-first kernel (dfs or bands) over (grids x cells)
        uint8 givens: the first `kept` solutions of each, counts, complete, and stats (with
        `timed`, the processor cycles of each grid too)."""
        if self.kernel(shape) == "cdcl":
            raise NotImplementedError(f"a batch runs a depth-first kernel; {shape} grids are "
                                      "searched with clause learning here (pass search=dfs to "
                                      "batch them)")
        out = answers(len(grids), kept, shape.cells, timed)
        k, state = self._state(shape, limit, 0, kept, "run_many")
        k.run_many(grids, state, out)
        return out

    def line_batch(self, path: str, shape: Shape | None, limit: int,
                   keep: int | None) -> Any | None:
        """A file of one-line grids read and solved in compiled batches (lines.py's FileBatch),
        or None for a file that is not one."""
        from sudokucp.backends.jit.lines import FileBatch

        return FileBatch.open(self, path, shape, limit, keep)

    def solve_lines(self, data: Any, shape: Shape | None = None, *, limit: int = 1,
                    kept: int = 1, stem: str = "") -> Any:
        """Read and solve a text of one-line grids in compiled code (lines.py's solve_lines)."""
        from sudokucp.backends.jit.lines import solve_lines

        return solve_lines(data, shape, backend=self, limit=limit, kept=kept, stem=stem)

