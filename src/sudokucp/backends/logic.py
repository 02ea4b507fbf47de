"""The logic backend: human techniques (sudokucp.engine.techniques) to a fixpoint, never a guess.

SOLVED when they fill the grid, UNSAT on a proved contradiction, else UNKNOWN (stuck), or TIMEOUT
when the deadline stopped the fixpoint. Stuck, it proves nothing about the count, so the class
says `complete = False` (no uniqueness checker); a grid it fills is the only solution and a
contradiction proves UNSAT, so those runs return complete.
"""

from __future__ import annotations

from sudokucp.backends.base import TIMED_OUT, Backend, SearchOutcome
from sudokucp.engine.techniques import RANK, apply_logic, resolve_techniques
from sudokucp.puzzle import Puzzle


class Logic(Backend):
    """Human techniques only: SOLVED, UNSAT on a proved contradiction, else UNKNOWN (stuck)."""

    name = "logic"
    description = "human techniques (singles, locked candidates, subsets, fish) to a fixpoint"
    defaults = {"techniques": "fish"}
    complete = False  # stuck proves nothing: it cannot count solutions

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.techniques = resolve_techniques(self.options["techniques"])

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        out = apply_logic(puzzle, self.techniques, deadline)
        filled = sum(1 for v in out.cells if v)
        stats: dict[str, float] = {
            "givens": puzzle.givens,
            "filled": filled,
            "placed": filled - puzzle.givens,
            "hardest_rank": RANK[out.hardest] if out.hardest else 0,
            **out.counts,
        }
        if out.contradiction:
            return [], True, stats
        if out.solved:
            # Every deduction is forced (holds in every solution), so a grid that logic fills is
            # the only solution: the count 1 is exact whatever the limit (1, 2 or 0 = all).
            return [out.cells], True, stats
        if out.timed_out:
            stats[TIMED_OUT] = 1
        return [], False, stats  # stuck: the base reports UNKNOWN (or TIMEOUT past the deadline)
