"""Explanations: the logic engine's solution path step by step, written as a person would.

The path is the logic backend's own: `deduce` (sudokucp.engine.techniques) applies every technique
to a fixpoint on the engine's board, easiest first, and each Step it yields carries its evidence
(sudokucp.engine.step). This module only turns steps into sentences, e.g. `pointing: in box 4,
digit 7 lies only in row 5, so 7 leaves r5c7 and r5c9`; a sweep of singles becomes a sentence per
digit placed. Where no technique applies, the path ends by naming the guess a search would make
(fewest candidates); a contradiction is told from the board the engine left. Any shape, any
rules: a variant's units are named as its rules name them (region 3, diagonal r1c1-r9c9, window 2).

Glossary: b = the engine's Board, frame = the shape and the name of each of the engine's units,
a move = one sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

from sudokucp.engine.propagation import Board, blank, consistent, digits_of, mask_of, place, start
from sudokucp.engine.step import Step
from sudokucp.engine.tables import tables
from sudokucp.engine.techniques import TECHNIQUES, deduce
from sudokucp.i18n import N_, _
from sudokucp.layout import layout
from sudokucp.puzzle import Puzzle, Shape, symbol

HINT_LEVELS = (1, 2, 3)  # the technique; where to look; the move

TITLES = {  # a technique's name as players write it (in English: Move.technique)
    "naked_single": N_("naked single"), "hidden_single": N_("hidden single"),
    "pointing": N_("pointing"), "claiming": N_("claiming"),
    "naked_pair": N_("naked pair"), "naked_triple": N_("naked triple"),
    "naked_quad": N_("naked quad"), "hidden_pair": N_("hidden pair"),
    "hidden_triple": N_("hidden triple"), "hidden_quad": N_("hidden quad"),
    "x_wing": N_("x-wing"), "swordfish": N_("swordfish"),
}
WITH_ARTICLE = {  # the same name after "look for" (French names have a gender)
    "naked single": N_("a naked single"), "hidden single": N_("a hidden single"),
    "pointing": N_("a pointing"), "claiming": N_("a claiming"),
    "naked pair": N_("a naked pair"), "naked triple": N_("a naked triple"),
    "naked quad": N_("a naked quad"), "hidden pair": N_("a hidden pair"),
    "hidden triple": N_("a hidden triple"), "hidden quad": N_("a hidden quad"),
    "x-wing": N_("an x-wing"), "swordfish": N_("a swordfish"),
}
UNIT_KINDS = {  # a unit's kind (its name in sudokucp.rules less the last word) in sentences
    "row": N_("row {number}"), "column": N_("column {number}"), "box": N_("box {number}"),
    "region": N_("region {number}"), "window": N_("window {number}"),
    "diagonal": N_("diagonal {cells}"), "unit": N_("unit {cells}"), "cage": N_("cage {cells}"),
}
LINES = ("row", "column")


@dataclass(frozen=True)
class Frame:
    """The shape and the English name of each unit of the engine's tables ('row 3', 'region 2')."""

    shape: Shape
    units: tuple[str, ...]

    @classmethod
    def of(cls, puzzle: Puzzle) -> Frame:
        """The frame of a puzzle under its rules: the classic grid's rows, columns and boxes, or
        a variant's full groups as its layout names them."""
        shape, rules = puzzle.shape, puzzle.rules
        lay = layout(shape, rules)
        names: dict[tuple[int, ...], str] = {}
        for name, group in zip(lay.names, lay.groups):
            names.setdefault(tuple(sorted(group)), name)
        return cls(shape, tuple(names[tuple(sorted(u))] for u in tables(shape, rules).units))

    def kind(self, unit: int) -> str:
        """'row', 'column', 'box', 'region', 'diagonal', ...: the name less its last word."""
        return self.units[unit].rsplit(" ", 1)[0]


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
            return _("Look for {a_technique}.").format(a_technique=with_article(self.technique))
        if level == 2:
            return _("Look for {a_technique} in {where}.").format(
                a_technique=with_article(self.technique), where=self.where)
        return self.text


def words(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) == 1:
        return items[0]
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def cell_text(shape: Shape, cell: int) -> str:
    """A cell in players' notation: r1c1 is the top-left cell (L1C1 in French)."""
    return _("r{row}c{column}").format(row=cell // shape.side + 1, column=cell % shape.side + 1)


def unit_text(frame: Frame, unit: int) -> str:
    """'row 3', 'column 5', 'box 9', 'region 2' in the current language."""
    kind, label = frame.units[unit].rsplit(" ", 1)
    if kind not in UNIT_KINDS:
        return frame.units[unit]
    return _(UNIT_KINDS[kind]).format(number=label, cells=label)


def cells_text(frame: Frame, cells: Sequence[int]) -> str:
    """Cells in players' notation, as a list in words."""
    return words([cell_text(frame.shape, c) for c in cells])


def digits_text(mask: int) -> str:
    """The digits of a candidate mask, as a list in words."""
    return words([symbol(d) for d in digits_of(mask)])


def title(name: str) -> str:
    """A technique's name as players write it, in English: 'naked pair', 'x-wing'."""
    return TITLES.get(name, name.replace("_", " "))


def with_article(technique: str) -> str:
    """'a naked pair' ('une paire nue') for a technique's English title."""
    return _(WITH_ARTICLE.get(technique, f"a {technique}"))


# --- a step in words ---------------------------------------------------------------------------

def tell_naked_singles(frame: Frame, name: str, step: Step) -> list[Move]:
    """A sentence per cell that had one candidate left."""
    moves = []
    for c, d in step.placed:
        cell = cell_text(frame.shape, c)
        text = _("{technique}: {cell} can only be {digit}, every other digit is among its "
                 "peers").format(technique=_(name), cell=cell, digit=symbol(d))
        moves.append(Move(name, cell, text, placed=((c, d),)))
    return moves


def tell_hidden_singles(frame: Frame, name: str, step: Step) -> list[Move]:
    """A sentence per digit that had one place left in a unit."""
    moves = []
    for (c, d), u in zip(step.placed, step.units):
        unit = unit_text(frame, u)
        text = _("{technique}: in {unit}, digit {digit} fits only {cell}").format(
            technique=_(name), unit=unit, digit=symbol(d), cell=cell_text(frame.shape, c))
        moves.append(Move(name, unit, text, placed=((c, d),)))
    return moves


def tell_confined(frame: Frame, name: str, step: Step) -> list[Move]:
    """Pointing and claiming: a digit of one unit confined to its crossing with another; named
    by the units (a line's digit confined to a box or region is claiming, whatever the engine's
    order of the two units)."""
    name = title("claiming" if frame.kind(step.units[0]) in LINES else "pointing")
    inside, there = (unit_text(frame, u) for u in step.units)
    text = _("{technique}: in {unit}, digit {digit} lies only in {there}, so {digit} leaves "
             "{cells}").format(technique=_(name), unit=inside, there=there,
                               digit=symbol(step.mask.bit_length()),
                               cells=cells_text(frame, [c for c, _d in step.eliminated]))
    return [Move(name, inside, text, removed=step.eliminated)]


def tell_naked_subset(frame: Frame, name: str, step: Step) -> list[Move]:
    """k cells of a unit holding k digits between them."""
    where = unit_text(frame, step.units[0])
    gone = sorted({c for c, _d in step.eliminated})
    text = _("{technique}: in {unit}, {cells} hold only {digits}, so {digits} leave "
             "{others}").format(technique=_(name), unit=where, cells=cells_text(frame, step.cells),
                                digits=digits_text(step.mask), others=cells_text(frame, gone))
    return [Move(name, where, text, removed=step.eliminated)]


def tell_hidden_subset(frame: Frame, name: str, step: Step) -> list[Move]:
    """k digits of a unit confined to k cells."""
    where = unit_text(frame, step.units[0])
    lost = "; ".join(f"{cell_text(frame.shape, c)}: "
                     f"{words([symbol(d) for x, d in step.eliminated if x == c])}"
                     for c in step.cells if any(x == c for x, _d in step.eliminated))
    text = _("{technique}: in {unit}, digits {digits} fit only {cells}, so the other "
             "candidates leave those cells ({lost})").format(
        technique=_(name), unit=where, digits=digits_text(step.mask),
        cells=cells_text(frame, step.cells), lost=lost)
    return [Move(name, where, text, removed=step.eliminated)]


def tell_fish(frame: Frame, name: str, step: Step) -> list[Move]:
    """A digit of k lines confined to k lines across them."""
    k = len(step.units) // 2
    lines = words([unit_text(frame, u) for u in step.units[:k]])
    across = words([unit_text(frame, u) for u in step.units[k:]])
    text = _("{technique}: digit {digit} lies only in {across} within {lines}, so {digit} "
             "leaves {cells}").format(technique=_(name), digit=symbol(step.mask.bit_length()),
                                      across=across, lines=lines,
                                      cells=cells_text(frame, [c for c, _d in step.eliminated]))
    return [Move(name, lines, text, removed=step.eliminated)]


Teller = Callable[[Frame, str, Step], list[Move]]
TELLERS: dict[str, Teller] = {
    "naked_single": tell_naked_singles, "hidden_single": tell_hidden_singles,
    "pointing": tell_confined, "claiming": tell_confined,
    **dict.fromkeys(("naked_pair", "naked_triple", "naked_quad"), tell_naked_subset),
    **dict.fromkeys(("hidden_pair", "hidden_triple", "hidden_quad"), tell_hidden_subset),
    "x_wing": tell_fish, "swordfish": tell_fish,
}


def tell(frame: Frame, name: str, step: Step) -> list[Move]:
    """The sentences of one step of technique `name`."""
    return TELLERS[name](frame, title(name), step)


# --- the ends of a path ------------------------------------------------------------------------

def diagnose_givens(puzzle: Puzzle) -> str:
    """Why the givens cannot stand: a digit given twice among peers, or a cell they leave bare."""
    frame, cells = Frame.of(puzzle), puzzle.cells
    peers = tables(puzzle.shape, puzzle.rules).peers
    for c, v in enumerate(cells):
        if v and any(cells[p] == v for p in peers[c]):
            return _("digit {digit} appears twice among the peers of {cell}").format(
                digit=symbol(v), cell=cell_text(frame.shape, c))
    b = blank(puzzle.shape)
    for c, v in enumerate(cells):
        if v and not place(b, c, 1 << (v - 1)):
            break
    return diagnose(b, frame) or _("the givens leave no room for every digit")


def diagnose(b: Board, frame: Frame) -> str | None:
    """What the board of a contradiction shows: a cell without candidates, or a digit without a
    place in a unit; None when it shows neither."""
    for c, (m, v) in enumerate(zip(b.cand, b.vals)):
        if not m and not v:
            return _("{cell} has no candidate left").format(cell=cell_text(frame.shape, c))
    for u, unit in enumerate(b.t.units):
        lost = b.free[u] & ~mask_of(b.cand, unit)
        if lost:
            return _("digit {digit} has no place left in {unit}").format(
                digit=symbol((lost & -lost).bit_length()), unit=unit_text(frame, u))
    return None


def contradiction(reason: str) -> Move:
    """The move that ends a path on a contradiction."""
    text = _("contradiction: {reason}: the grid has no solution").format(reason=reason)
    return Move("contradiction", "", text, kind="contradiction")


def stuck(b: Board, frame: Frame) -> Move:
    """The end of the logic: how many cells are open and the guess a search would make."""
    open_cells = [c for c, v in enumerate(b.vals) if not v]
    cell = min(open_cells, key=lambda c: (b.cand[c].bit_count(), c))
    name = cell_text(frame.shape, cell)
    text = _("stuck: no technique applies with {count} cells open; a search would guess at "
             "{cell}, which has the fewest candidates ({digits})").format(
        count=len(open_cells), cell=name, digits=digits_text(b.cand[cell]))
    return Move("guess", name, text, kind="stuck")


def solved() -> Move:
    """The move that ends a path on a full grid."""
    return Move("solved", "", _("solved: every cell holds a digit"), kind="solved")


def walk(puzzle: Puzzle) -> Iterator[Move]:
    """Every move of the logic backend's path, then `solved`, `stuck` or `contradiction`."""
    frame, b = Frame.of(puzzle), start(puzzle)
    if b is False:
        yield contradiction(diagnose_givens(puzzle))
        return
    for name, step in deduce(b, list(TECHNIQUES)):
        if step is False:
            why = _("the cells and digits of {a_technique} cannot all be filled").format(
                a_technique=with_article(title(name)))
            yield contradiction(diagnose(b, frame) or why)
            return
        yield from tell(frame, name, step)
    if not consistent(b):
        yield contradiction(diagnose(b, frame) or _("a unit cannot be filled"))
        return
    yield stuck(b, frame) if b.open else solved()


def explain(puzzle: Puzzle, *, max_steps: int | None = None) -> Iterator[Move]:
    """The solution path, at most `max_steps` moves: every step, ending with `solved`, `stuck`
    or `contradiction`."""
    return islice(walk(puzzle), max_steps)
