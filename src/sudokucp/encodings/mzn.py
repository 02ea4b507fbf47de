"""MiniZinc: the models (sudoku.mzn: all_different per unit, the givens as data;
sudoku_variant.mzn: the groups, cage sums and candidates of sudokucp.layout as data), both
package data beside this module, and the data of one puzzle for each. The `minizinc` backend
solves them; the exporters write them as .mzn and .dzn files.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from sudokucp.layout import layout
from sudokucp.puzzle import Grid, Puzzle
from sudokucp.rules import digits_of

MODEL = "sudoku.mzn"
VARIANT_MODEL = "sudoku_variant.mzn"


def model_path(name: str = MODEL) -> Path:
    """The file of a model shipped with the package (MiniZinc reads it from disk)."""
    return Path(__file__).with_name(name)


@cache
def model_text() -> str:
    """sudoku.mzn as shipped with the package."""
    return model_path().read_text(encoding="utf-8")


def to_dzn(puzzle: Puzzle, comments: Sequence[str]) -> str:
    """The data of one puzzle for sudoku.mzn: box rows, box columns, the givens (0 = blank)."""
    n = puzzle.side
    rows = [", ".join(map(str, puzzle.cells[i * n:(i + 1) * n])) for i in range(n)]
    head = "".join(f"% {line}".rstrip() + "\n" for line in comments)
    return (f"{head}r = {puzzle.shape.box_rows};\nc = {puzzle.shape.box_cols};\n"
            f"dom = true;\ngivens = [|\n  " + " |\n  ".join(rows) + " |];\n")


def to_model(comments: Sequence[str], n: int = 0, blocked: Sequence[Grid] = ()) -> str:
    """sudoku.mzn, under comment lines, with a constraint ruling out each blocked grid."""
    head = "".join(f"% {line}".rstrip() + "\n" for line in comments)
    blocks = []
    for k, grid in enumerate(blocked, 1):
        blocks.append(f"array[1..{n * n}] of int: blocked_{k} = [{', '.join(map(str, grid))}];\n"
                      f"constraint exists(i, j in N)(x[i, j] != blocked_{k}[(i - 1) * n + j]);\n")
    return head + model_text() + "".join(blocks)


def to_mzn(puzzle: Puzzle, comments: Sequence[str], blocked: Sequence[Grid] = ()) -> str:
    """One self-contained model: sudoku.mzn, the blocked grids, the puzzle's data."""
    return to_model(comments, puzzle.side, blocked) + "\n% data\n" + to_dzn(puzzle, ())


def model_of(puzzle: Puzzle) -> str:
    """The name of the model a puzzle is data for: sudoku.mzn, or sudoku_variant.mzn."""
    return MODEL if puzzle.rules.classic else VARIANT_MODEL


def model_data(puzzle: Puzzle) -> dict[str, Any]:
    """The data of a puzzle's model: box rows and columns and the givens as rows for
    sudoku.mzn, the layout (`variant_data`) for sudoku_variant.mzn; `dom` is the solver's."""
    if not puzzle.rules.classic:
        return variant_data(puzzle)
    n = puzzle.side
    return {"r": puzzle.shape.box_rows, "c": puzzle.shape.box_cols,
            "givens": [list(puzzle.cells[i * n:(i + 1) * n]) for i in range(n)]}


def variant_data(puzzle: Puzzle) -> dict[str, Any]:
    """The data of sudoku_variant.mzn for a puzzle: cells numbered from 1."""
    lay = layout(puzzle.shape, puzzle.rules)
    return {"n": puzzle.side, "givens": list(puzzle.cells),
            "allowed": [set(digits_of(m)) for m in lay.allowed],
            "ngroups": len(lay.groups), "groups": [{c + 1 for c in g} for g in lay.groups],
            "nsums": len(lay.sums), "cages": [{c + 1 for c in g} for g, _ in lay.sums],
            "sums": [total for _, total in lay.sums]}
