"""Explanations: the logic engine's solution path step by step, written as a person would.

The path is the logic backend's own: `deduce` (sudokucp.engine.techniques) applies every technique
to a fixpoint on the engine's board, easiest first, and each Step it yields carries its evidence
(sudokucp.engine.step). This module only turns steps into sentences, e.g. `pointing: in box 4,
digit 7 lies only in row 5, so 7 leaves r5c7 and r5c9`; a sweep of singles becomes a sentence per
digit placed. Where no technique applies, the path ends by naming the guess a search would make
(fewest candidates); a contradiction is told from the board the engine left. Any shape.

Glossary: b = the engine's Board, geo = the shape's Geometry (unit names), a move = one sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

from sudokucp.engine.propagation import Board, blank, consistent, digits_of, mask_of, place, start
from sudokucp.engine.step import Step
from sudokucp.engine.techniques import TECHNIQUES, deduce
from sudokucp.puzzle import Geometry, Puzzle, cell_name, symbol

HINT_LEVELS = (1, 2, 3)  # the technique; where to look; the move


@dataclass(frozen=True)
class Move:
    """One step: the technique, where it applies, the sentence, what it places and removes."""

    technique: str
    where: str
    text: str
    placed: tuple[tuple[int, int], ...] = ()  # (cell, digit)
    removed: tuple[tuple[int, int], ...] = ()  # (cell, digit)
    kind: str = "step"  # step, stuck, contradiction, solved

    def hint(self, level: int) -> str:
        """The move told in three levels, as hint systems do: technique, place, move."""
        if self.kind != "step":
            return self.text
        if level == 1:
            return f"Look for a {self.technique}."
        if level == 2:
            return f"Look for a {self.technique} in {self.where}."
        return self.text


def words(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def cells_text(geo: Geometry, cells: Sequence[int]) -> str:
    """Cells in players' notation, as a list in words."""
    return words([cell_name(geo.shape, c) for c in cells])


def digits_text(mask: int) -> str:
    """The digits of a candidate mask, as a list in words."""
    return words([symbol(d) for d in digits_of(mask)])


def title(name: str) -> str:
    """A technique's name as players write it: 'naked pair', 'x-wing'."""
    return "x-wing" if name == "x_wing" else name.replace("_", " ")


# --- a step in words ---------------------------------------------------------------------------

def tell_naked_singles(geo: Geometry, name: str, step: Step) -> list[Move]:
    """A sentence per cell that had one candidate left."""
    moves = []
    for c, d in step.placed:
        cell = cell_name(geo.shape, c)
        moves.append(Move(name, cell, f"{name}: {cell} can only be {symbol(d)}, every other digit "
                          "is among its peers", placed=((c, d),)))
    return moves


def tell_hidden_singles(geo: Geometry, name: str, step: Step) -> list[Move]:
    """A sentence per digit that had one place left in a unit."""
    moves = []
    for (c, d), u in zip(step.placed, step.units):
        unit = geo.unit_name(u)
        moves.append(Move(name, unit, f"{name}: in {unit}, digit {symbol(d)} fits only "
                          f"{cell_name(geo.shape, c)}", placed=((c, d),)))
    return moves


def tell_confined(geo: Geometry, name: str, step: Step) -> list[Move]:
    """Pointing and claiming: a digit of one unit confined to its crossing with another."""
    inside, there = (geo.unit_name(u) for u in step.units)
    d = symbol(step.mask.bit_length())
    text = (f"{name}: in {inside}, digit {d} lies only in {there}, so {d} leaves "
            f"{cells_text(geo, [c for c, _ in step.eliminated])}")
    return [Move(name, inside, text, removed=step.eliminated)]


def tell_naked_subset(geo: Geometry, name: str, step: Step) -> list[Move]:
    """k cells of a unit holding k digits between them."""
    where, ds = geo.unit_name(step.units[0]), digits_text(step.mask)
    gone = sorted({c for c, _ in step.eliminated})
    text = (f"{name}: in {where}, {cells_text(geo, step.cells)} hold only {ds}, so {ds} leave "
            f"{cells_text(geo, gone)}")
    return [Move(name, where, text, removed=step.eliminated)]


def tell_hidden_subset(geo: Geometry, name: str, step: Step) -> list[Move]:
    """k digits of a unit confined to k cells."""
    where = geo.unit_name(step.units[0])
    lost = "; ".join(f"{cell_name(geo.shape, c)}: "
                     f"{words([symbol(d) for x, d in step.eliminated if x == c])}"
                     for c in step.cells if any(x == c for x, _ in step.eliminated))
    text = (f"{name}: in {where}, digits {digits_text(step.mask)} fit only "
            f"{cells_text(geo, step.cells)}, so the other candidates leave those cells ({lost})")
    return [Move(name, where, text, removed=step.eliminated)]


def tell_fish(geo: Geometry, name: str, step: Step) -> list[Move]:
    """A digit of k lines confined to k lines across them."""
    k = len(step.units) // 2
    lines = words([geo.unit_name(u) for u in step.units[:k]])
    across = words([geo.unit_name(u) for u in step.units[k:]])
    d = symbol(step.mask.bit_length())
    text = (f"{name}: digit {d} lies only in {across} within {lines}, so {d} leaves "
            f"{cells_text(geo, [c for c, _ in step.eliminated])}")
    return [Move(name, lines, text, removed=step.eliminated)]


Teller = Callable[[Geometry, str, Step], list[Move]]
TELLERS: dict[str, Teller] = {
    "naked_single": tell_naked_singles, "hidden_single": tell_hidden_singles,
    "pointing": tell_confined, "claiming": tell_confined,
    **dict.fromkeys(("naked_pair", "naked_triple", "naked_quad"), tell_naked_subset),
    **dict.fromkeys(("hidden_pair", "hidden_triple", "hidden_quad"), tell_hidden_subset),
    "x_wing": tell_fish, "swordfish": tell_fish,
}


def tell(geo: Geometry, name: str, step: Step) -> list[Move]:
    """The sentences of one step of technique `name`."""
    return TELLERS[name](geo, title(name), step)


# --- the ends of a path ------------------------------------------------------------------------

def diagnose_givens(puzzle: Puzzle) -> str:
    """Why the givens cannot stand: a digit given twice among peers, or a cell they leave bare."""
    geo, cells = puzzle.geometry, puzzle.cells
    for c, v in enumerate(cells):
        if v and any(cells[p] == v for p in geo.peers[c]):
            return f"digit {symbol(v)} appears twice among the peers of {cell_name(geo.shape, c)}"
    b = blank(puzzle.shape)
    for c, v in enumerate(cells):
        if v and not place(b, c, 1 << (v - 1)):
            break
    return diagnose(b, geo) or "the givens leave no room for every digit"


def diagnose(b: Board, geo: Geometry) -> str | None:
    """What the board of a contradiction shows: a cell without candidates, or a digit without a
    place in a unit; None when it shows neither."""
    for c, (m, v) in enumerate(zip(b.cand, b.vals)):
        if not m and not v:
            return f"{cell_name(geo.shape, c)} has no candidate left"
    for u, unit in enumerate(geo.units):
        lost = b.free[u] & ~mask_of(b.cand, unit)
        if lost:
            return (f"digit {symbol((lost & -lost).bit_length())} has no place left in "
                    f"{geo.unit_name(u)}")
    return None


def contradiction(reason: str) -> Move:
    """The move that ends a path on a contradiction."""
    return Move("contradiction", "", f"contradiction: {reason}: the grid has no solution",
                kind="contradiction")


def stuck(b: Board, geo: Geometry) -> Move:
    """The end of the logic: how many cells are open and the guess a search would make."""
    open_cells = [c for c, v in enumerate(b.vals) if not v]
    cell = min(open_cells, key=lambda c: (b.cand[c].bit_count(), c))
    name = cell_name(geo.shape, cell)
    text = (f"stuck: no technique applies with {len(open_cells)} cells open; a search would "
            f"guess at {name}, which has the fewest candidates ({digits_text(b.cand[cell])})")
    return Move("guess", name, text, kind="stuck")


SOLVED = Move("solved", "", "solved: every cell holds a digit", kind="solved")


def walk(puzzle: Puzzle) -> Iterator[Move]:
    """Every move of the logic backend's path, then `solved`, `stuck` or `contradiction`."""
    geo, b = puzzle.geometry, start(puzzle)
    if b is False:
        yield contradiction(diagnose_givens(puzzle))
        return
    for name, step in deduce(b, list(TECHNIQUES)):
        if step is False:
            why = f"the cells and digits of a {title(name)} cannot all be filled"
            yield contradiction(diagnose(b, geo) or why)
            return
        yield from tell(geo, name, step)
    if not consistent(b):
        yield contradiction(diagnose(b, geo) or "a unit cannot be filled")
        return
    yield stuck(b, geo) if b.open else SOLVED


def explain(puzzle: Puzzle, *, max_steps: int | None = None) -> Iterator[Move]:
    """The solution path, at most `max_steps` moves: every step, ending with `solved`, `stuck`
    or `contradiction`."""
    return islice(walk(puzzle), max_steps)
