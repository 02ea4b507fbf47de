"""sudoku-cp: compare ways of solving Sudoku (backtracking, MRV, logic, CP-SAT, SAT, CSP)."""

from sudokucp.check import find_conflicts, is_solution
from sudokucp.puzzle import Puzzle, PuzzleError, Shape
from sudokucp.result import Result, Status

__version__ = "0.1.0"

__all__ = ["Puzzle", "PuzzleError", "Result", "Shape", "Status", "find_conflicts",
           "is_solution", "__version__"]
