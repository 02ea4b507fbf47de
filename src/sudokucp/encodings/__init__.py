"""The models of a puzzle, one module per model, built once for whoever reads them: the CNF
(`cnf.py`: clauses for the `sat` and `pysat` backends, DIMACS and OPB for the exporters), the
MiniZinc models and their data (`mzn.py`, with sudoku.mzn and sudoku_variant.mzn as package data)
and the XCSP3 instance (`xcsp3.py`). The backends solve them and `sudokucp.io.exporters` writes
them to files; the readers of what solvers print stay with the exporters."""
