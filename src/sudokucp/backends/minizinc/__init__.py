"""The minizinc backend and its model, sudoku.mzn (package data)."""
