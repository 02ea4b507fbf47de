"""The judge: whether a grid solves a puzzle, and which cells conflict. Belongs to no backend."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sudokucp.puzzle import Puzzle, Shape, cell_name, geometry


@dataclass(frozen=True)
class Conflict:
    """A digit placed twice in one unit."""

    unit: int
    digit: int
    first: int
    second: int

    def describe(self, shape: Shape) -> str:
        where = geometry(shape).unit_name(self.unit)
        return (f"digit {self.digit} twice in {where} ({cell_name(shape, self.first)} and "
                f"{cell_name(shape, self.second)})")


def find_conflicts(shape: Shape, cells: Sequence[int]) -> list[Conflict]:
    """Every repeated digit in a unit, blanks ignored, ordered by unit."""
    conflicts = []
    for u, unit in enumerate(geometry(shape).units):
        seen: dict[int, int] = {}
        for cell in unit:
            digit = cells[cell]
            if digit in seen:
                conflicts.append(Conflict(u, digit, seen[digit], cell))
            elif digit:
                seen[digit] = cell
    return conflicts


def explain(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Why `grid` does not solve `puzzle`; empty when it does."""
    shape, n = puzzle.shape, puzzle.side
    if len(grid) != shape.cells:
        return [f"the grid has {len(grid)} cells, expected {shape.cells}"]
    problems = []
    for cell, (given, value) in enumerate(zip(puzzle.cells, grid)):
        if not 1 <= value <= n:
            problems.append(f"{cell_name(shape, cell)} holds {value}, not a digit 1-{n}")
        elif given and given != value:
            problems.append(f"{cell_name(shape, cell)} changes the given {given} to {value}")
    problems += [c.describe(shape) for c in find_conflicts(shape, grid)]
    return problems


def is_solution(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """True when `grid` keeps every given and fills every unit with 1..N exactly once."""
    n = puzzle.side
    if len(grid) != puzzle.shape.cells:
        return False
    if any(g and g != v for g, v in zip(puzzle.cells, grid)):
        return False
    full = set(range(1, n + 1))
    return all({grid[c] for c in unit} == full for unit in geometry(puzzle.shape).units)
