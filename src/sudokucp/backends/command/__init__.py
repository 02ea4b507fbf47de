"""The command backend (any external program, command.py) and the known solvers it runs by name
(presets.py); process.py runs one program under the deadline."""

from sudokucp.backends.command.command import Command, missing_program, read_answer, read_grids

__all__ = ["Command", "missing_program", "read_answer", "read_grids"]
