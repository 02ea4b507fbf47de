"""What a technique returns: the Step it made, with the pattern that allowed it, or `False`.

A Step says what changed (the digits placed, the candidates eliminated) and why (the pattern's
units, cells and digits), so the logic backend counts it and teaching/explain.py tells it in words
from the same record. The evidence costs nothing while searching: a technique builds it only once
it has found something, and a pattern found again with nothing left to remove builds nothing.

The evidence of each technique (u = a unit's index, as in engine/tables.py):

    naked_single      placed only: each (cell, digit) is its own pattern
    hidden_single     units[i] = the unit where placed[i]'s digit had one place left
    pointing          units = (box, line), cells = their crossing, mask = the digit
    claiming          units = (line, box), cells = their crossing, mask = the digit
    naked subsets     units = (u,), cells = the k cells, mask = the k digits they hold
    hidden subsets    units = (u,), cells = the k cells, mask = the k digits confined to them
    fish              units = the k base lines then the k cover lines, cells = the digit's
                      places in the base lines, mask = the digit
"""

from __future__ import annotations

from typing import Literal, NamedTuple

Pair = tuple[int, int]  # (cell, digit)


class Step(NamedTuple):
    """What one technique did, (cell, digit) placed and eliminated, and its pattern's evidence."""

    placed: tuple[Pair, ...] = ()
    eliminated: tuple[Pair, ...] = ()
    units: tuple[int, ...] = ()  # the pattern's units (see the module's table)
    cells: tuple[int, ...] = ()  # the pattern's cells
    mask: int = 0  # the pattern's digits, bit d - 1 for digit d


Deduction = Step | Literal[False]  # False, and only False, is a contradiction
