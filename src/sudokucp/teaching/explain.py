"""Explanations: the logic engine's solution path step by step, written as a person would.

Each finder looks for one instance of a technique on a pencil-marked grid (`Pencil`) and returns
the `Move` it allows, with its sentence, e.g. `pointing: in box 4, digit 7 lies only in row 5, so
7 leaves r5c7 and r5c9`. Placing a digit strikes it from the cell's peers, as players do. Where no
technique applies, the path ends by naming the guess a search would make (fewest candidates).
Any shape; every move holds in every solution, which the tests check against the solver.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

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


@dataclass
class Pencil:
    """A grid with its pencil marks: the value of each cell (0 = open) and candidate masks."""

    geo: Geometry
    values: list[int]
    cand: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, puzzle: Puzzle) -> Pencil:
        """Pencil marks of a puzzle: every digit not seen among a cell's peers."""
        geo, values = puzzle.geometry, list(puzzle.cells)
        full = (1 << puzzle.side) - 1
        cand = [0 if v else full & ~_seen(values, geo.peers[c]) for c, v in enumerate(values)]
        return cls(geo, values, cand)

    def places(self, unit: int, digit: int) -> list[int]:
        """Open cells of a unit where `digit` is still a candidate."""
        bit = 1 << (digit - 1)
        return [c for c in self.geo.units[unit] if self.cand[c] & bit]

    def apply(self, move: Move) -> None:
        """Place the move's digits (striking them from peers) and remove its candidates."""
        for cell, digit in move.placed:
            self.values[cell], self.cand[cell] = digit, 0
            for peer in self.geo.peers[cell]:
                self.cand[peer] &= ~(1 << (digit - 1))
        for cell, digit in move.removed:
            self.cand[cell] &= ~(1 << (digit - 1))


def _seen(values: Sequence[int], cells: Sequence[int]) -> int:
    mask = 0
    for c in cells:
        if values[c]:
            mask |= 1 << (values[c] - 1)
    return mask


def digits(mask: int) -> list[int]:
    """The digits of a candidate mask, ascending."""
    return [i + 1 for i in range(mask.bit_length()) if mask >> i & 1]


def words(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def cells_text(geo: Geometry, cells: Sequence[int]) -> str:
    return words([cell_name(geo.shape, c) for c in cells])


def digits_text(values: Sequence[int]) -> str:
    return words([symbol(v) for v in values])


def naked_single(p: Pencil) -> Move | None:
    """A cell with one candidate left takes it."""
    for c, m in enumerate(p.cand):
        if m and not m & (m - 1):
            d, name = m.bit_length(), cell_name(p.geo.shape, c)
            return Move("naked single", name, f"naked single: {name} can only be {symbol(d)}, "
                        "every other digit is among its peers", placed=((c, d),))
    return None


def hidden_single(p: Pencil) -> Move | None:
    """A digit with one place left in a unit goes there (boxes first, as players look)."""
    n = p.geo.shape.side
    for u in [*range(2 * n, 3 * n), *range(2 * n)]:
        for d in digits(_open_digits(p, u)):
            spots = p.places(u, d)
            if len(spots) == 1:
                unit, name = p.geo.unit_name(u), cell_name(p.geo.shape, spots[0])
                return Move("hidden single", unit, f"hidden single: in {unit}, digit {symbol(d)} "
                            f"fits only {name}", placed=((spots[0], d),))
    return None


def _open_digits(p: Pencil, unit: int) -> int:
    """Digits not yet placed in a unit."""
    full = (1 << p.geo.shape.side) - 1
    return full & ~_seen(p.values, p.geo.units[unit])


def pointing(p: Pencil) -> Move | None:
    """Box to line: a digit confined to one row or column of a box leaves the rest of that line."""
    n = p.geo.shape.side
    for box in range(2 * n, 3 * n):
        for d in digits(_open_digits(p, box)):
            spots = p.places(box, d)
            for line in _shared_lines(p.geo, spots):
                removed = [c for c in p.places(line, d) if c not in spots]
                if removed:
                    return _confined("pointing", p.geo, box, line, d, removed)
    return None


def claiming(p: Pencil) -> Move | None:
    """Line to box: a digit confined to one box within a line leaves the rest of the box."""
    n = p.geo.shape.side
    for line in range(2 * n):
        for d in digits(_open_digits(p, line)):
            spots = p.places(line, d)
            boxes = {p.geo.cell_units[c][2] for c in spots}
            if len(spots) > 1 and len(boxes) == 1:
                box = boxes.pop()
                removed = [c for c in p.places(box, d) if c not in spots]
                if removed:
                    return _confined("claiming", p.geo, line, box, d, removed)
    return None


def _shared_lines(geo: Geometry, spots: list[int]) -> list[int]:
    """The row and the column (units) holding every cell of `spots`, when there are two or more."""
    if len(spots) < 2:
        return []
    return [u for u in geo.cell_units[spots[0]][:2] if all(u in geo.cell_units[c] for c in spots)]


def _confined(name: str, geo: Geometry, inside: int, line: int, d: int,
              removed: list[int]) -> Move:
    where, there = geo.unit_name(inside), geo.unit_name(line)
    text = (f"{name}: in {where}, digit {symbol(d)} lies only in {there}, so {symbol(d)} leaves "
            f"{cells_text(geo, removed)}")
    return Move(name, where, text, removed=tuple((c, d) for c in removed))


SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked_subset(p: Pencil, k: int) -> Move | None:
    """k cells of a unit holding only k digits: those digits leave the unit's other cells."""
    for u, unit in enumerate(p.geo.units):
        cells = [c for c in unit if 2 <= p.cand[c].bit_count() <= k]
        for group in combinations(cells, k):
            union = 0
            for c in group:
                union |= p.cand[c]
            if union.bit_count() != k:
                continue
            removed = [(c, d) for c in unit if c not in group and p.cand[c]
                       for d in digits(p.cand[c] & union)]
            if removed:
                return _naked_move(p.geo, u, k, group, digits(union), removed)
    return None


def _naked_move(geo: Geometry, u: int, k: int, group: Sequence[int], ds: list[int],
                removed: list[tuple[int, int]]) -> Move:
    name, where = f"naked {SUBSET_NAMES[k]}", geo.unit_name(u)
    gone = sorted({c for c, _ in removed})
    text = (f"{name}: in {where}, {cells_text(geo, group)} hold only {digits_text(ds)}, so "
            f"{digits_text(ds)} leave {cells_text(geo, gone)}")
    return Move(name, where, text, removed=tuple(removed))


def hidden_subset(p: Pencil, k: int) -> Move | None:
    """k digits of a unit with only k places: the other candidates leave those cells."""
    for u in range(len(p.geo.units)):
        spots = {d: p.places(u, d) for d in digits(_open_digits(p, u))}
        loose = [d for d, s in spots.items() if 2 <= len(s) <= k]
        for group in combinations(loose, k):
            cells = sorted({c for d in group for c in spots[d]})
            if len(cells) != k:
                continue
            keep = sum(1 << (d - 1) for d in group)
            removed = [(c, d) for c in cells for d in digits(p.cand[c] & ~keep)]
            if removed:
                return _hidden_move(p.geo, u, k, list(group), cells, removed)
    return None


def _hidden_move(geo: Geometry, u: int, k: int, ds: list[int], cells: list[int],
                 removed: list[tuple[int, int]]) -> Move:
    name, where = f"hidden {SUBSET_NAMES[k]}", geo.unit_name(u)
    shape = geo.shape
    lost = "; ".join(f"{cell_name(shape, c)}: {digits_text([d for x, d in removed if x == c])}"
                     for c in cells if any(x == c for x, _ in removed))
    text = (f"{name}: in {where}, digits {digits_text(ds)} fit only {cells_text(geo, cells)}, "
            f"so the other candidates leave those cells ({lost})")
    return Move(name, where, text, removed=tuple(removed))


FISH_NAMES = {2: "x-wing", 3: "swordfish"}


def fish(p: Pencil, k: int) -> Move | None:
    """A digit confined to k columns within k rows leaves those columns elsewhere (and turned)."""
    n = p.geo.shape.side
    for base in (0, n):
        for d in range(1, n + 1):
            lines = {u: p.places(u, d) for u in range(base, base + n)}
            loose = [u for u, s in lines.items() if 2 <= len(s) <= k]
            for group in combinations(loose, k):
                crossed = sorted({p.geo.cell_units[c][0 if base else 1] for u in group
                                  for c in lines[u]})
                if len(crossed) != k:
                    continue
                inside = {c for u in group for c in lines[u]}
                removed = [c for x in crossed for c in p.places(x, d) if c not in inside]
                if removed:
                    return _fish_move(p.geo, k, d, list(group), crossed, removed)
    return None


def _fish_move(geo: Geometry, k: int, d: int, group: list[int], crossed: list[int],
               removed: list[int]) -> Move:
    name = FISH_NAMES[k]
    lines = words([geo.unit_name(u) for u in group])
    across = words([geo.unit_name(u) for u in crossed])
    text = (f"{name}: digit {symbol(d)} lies only in {across} within {lines}, so "
            f"{symbol(d)} leaves {cells_text(geo, removed)}")
    return Move(name, lines, text, removed=tuple((c, d) for c in removed))


Finder = Callable[[Pencil], "Move | None"]
FINDERS: tuple[Finder, ...] = (
    hidden_single, naked_single, pointing, claiming,
    lambda p: naked_subset(p, 2), lambda p: hidden_subset(p, 2),
    lambda p: naked_subset(p, 3), lambda p: hidden_subset(p, 3),
    lambda p: fish(p, 2),
    lambda p: naked_subset(p, 4), lambda p: hidden_subset(p, 4),
    lambda p: fish(p, 3),
)


def contradiction(p: Pencil) -> Move | None:
    """A cell with no candidate, or a digit with no place in a unit, or a repeated given."""
    shape = p.geo.shape
    for c, (v, m) in enumerate(zip(p.values, p.cand)):
        if v and any(p.values[x] == v for x in p.geo.peers[c]):
            return _dead(f"digit {symbol(v)} appears twice among the peers of "
                         f"{cell_name(shape, c)}")
        if not v and not m:
            return _dead(f"{cell_name(shape, c)} has no candidate left")
    for u in range(len(p.geo.units)):
        for d in digits(_open_digits(p, u)):
            if not p.places(u, d):
                return _dead(f"digit {symbol(d)} has no place left in {p.geo.unit_name(u)}")
    return None


def _dead(reason: str) -> Move:
    return Move("contradiction", "", f"contradiction: {reason}: the grid has no solution",
                kind="contradiction")


def stuck(p: Pencil) -> Move:
    """The end of the logic: how many cells are open and the guess a search would make."""
    open_cells = [c for c, v in enumerate(p.values) if not v]
    cell = min(open_cells, key=lambda c: (p.cand[c].bit_count(), c))
    name, options = cell_name(p.geo.shape, cell), digits_text(digits(p.cand[cell]))
    text = (f"stuck: no technique applies with {len(open_cells)} cells open; a search would "
            f"guess at {name}, which has the fewest candidates ({options})")
    return Move("guess", name, text, kind="stuck")


def next_move(p: Pencil) -> Move:
    """The easiest step the grid allows, or why there is none."""
    dead = contradiction(p)
    if dead is not None:
        return dead
    if all(p.values):
        return Move("solved", "", "solved: every cell holds a digit", kind="solved")
    for find in FINDERS:
        move = find(p)
        if move is not None:
            return move
    return stuck(p)


def explain(puzzle: Puzzle, *, max_steps: int | None = None) -> Iterator[Move]:
    """The solution path: every step, ending with `solved`, `stuck` or `contradiction`."""
    p, steps = Pencil.start(puzzle), 0
    while max_steps is None or steps < max_steps:
        move = next_move(p)
        yield move
        if move.kind != "step":
            return
        p.apply(move)
        steps += 1
