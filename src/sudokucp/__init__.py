"""sudoku-cp: compare ways of solving Sudoku (backtracking, MRV, logic, CP-SAT, SAT, CSP).

In a notebook: `sudokucp.compare(["mrv", "naive"], "top95", timeout=2)`, `sudokucp.explain(grid)`,
`sudokucp.trace(grid, "naive")`, `sudokucp.ladder(file)`. Those names load their modules (pandas,
the harness) on first use, so `import sudokucp` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

from sudokucp.check import find_conflicts, is_solution
from sudokucp.display import attach
from sudokucp.puzzle import Puzzle, PuzzleError, Shape
from sudokucp.result import Result, Status

attach()  # Puzzle and Result drawn in notebooks

__version__ = "0.1.0"

LAZY = {  # name: the module that holds it, imported when the name is first read
    **dict.fromkeys(("compare", "Comparison", "explain", "trace", "draw", "ladder", "solve"),
                    "sudokucp.api"),
    "get_backend": "sudokucp.backends",
    **dict.fromkeys(("load_puzzles", "parse_grid"), "sudokucp.io.formats"),
    "set_language": "sudokucp.i18n",
}

__all__ = ["Puzzle", "PuzzleError", "Result", "Shape", "Status", "find_conflicts",
           "is_solution", "__version__", *LAZY]


def __getattr__(name: str) -> Any:
    """The names of LAZY, their module imported on first use."""
    if name not in LAZY:
        raise AttributeError(f"module 'sudokucp' has no attribute {name!r}")
    value = getattr(importlib.import_module(LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(LAZY))
