"""The board of the propagation engine (engine/propagation.py, whose docstring holds the glossary):
Board, the (cell, bit) pairs queued for placement, a blank board, a puzzle's givens, and the
candidate-mask helpers digits_of and mask_of."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from sudokucp.engine.step import Deduction
from sudokucp.engine.tables import Tables, tables
from sudokucp.puzzle import Puzzle, Shape

Place = tuple[int, int]  # (cell, bit)


@dataclass(eq=False, slots=True)
class Board:
    """Candidates and placed digits of one grid being solved; copy() before a guess."""

    t: Tables
    cand: list[int]
    vals: list[int]
    free: list[int]
    open: int
    dirty: int = 0
    moved: int = -1  # every unit

    def copy(self) -> Board:
        """An independent board in the same state."""
        return Board(self.t, self.cand[:], self.vals[:], self.free[:], self.open, self.dirty,
                     self.moved)


Technique = Callable[[Board], Deduction]  # applies one pattern; False on a contradiction


def blank(shape: Shape) -> Board:
    """A board with no digit placed and every candidate open."""
    t = tables(shape)
    size = shape.cells
    return Board(t, [t.full] * size, [0] * size, [t.full] * len(t.units), size)


def givens(puzzle: Puzzle) -> list[Place]:
    """The givens of a puzzle as (cell, bit), queued for settle (which refuses clashing ones)."""
    return [(c, 1 << (v - 1)) for c, v in enumerate(puzzle.cells) if v]


def digits_of(mask: int) -> Iterator[int]:
    """The digits of a candidate mask, ascending."""
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit.bit_length()


def mask_of(cand: list[int], cells: Sequence[int]) -> int:
    """The union of the candidates of `cells`."""
    m = 0
    for c in cells:
        m |= cand[c]
    return m
