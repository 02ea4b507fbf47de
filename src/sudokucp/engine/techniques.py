"""Human techniques over the engine's board, applied to a fixpoint easiest first.

A technique is a function of a Board (sudokucp.engine.propagation). It applies one pattern (the
singles: every single seen in one sweep) and returns the Step it made (engine/step.py): the cells
it placed, the candidates it eliminated and the pattern's evidence, all empty when it found
nothing; a contradiction is `False`, the engine's one signal. Placing a digit removes it from
the peers; that bookkeeping belongs to the engine's `place`, not to a technique. `deduce` yields
the steps of a fixpoint as they are made: the logic backend counts them (`fixpoint`), explain
(teaching/explain.py) tells them. Every deduction holds in every solution (no technique
assumes uniqueness), so the hybrid backend's search may use them without losing solutions.

Glossary: b = a Board, k = the size of a subset or a fish, a unit's `where` = mask of the positions
(bit i = its i-th cell) that still hold a digit. On a variant's board the units are its full
groups (rows and columns first, as the fish read them) and the crossings those of any two units
(engine/tables.py), so every technique here stays sound there (cage sums are settle's to check).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from sudokucp.clock import expired
from sudokucp.engine.propagation import (
    Board,
    Technique,
    consistent,
    digits_of,
    eliminate,
    lone_digits,
    mask_of,
    place,
    start,
)
from sudokucp.engine.step import Deduction, Step
from sudokucp.errors import OptionError
from sudokucp.puzzle import Grid, Puzzle

NOTHING = Step()


def naked_single(b: Board) -> Deduction:
    """A cell with one candidate left takes it."""
    placed = []
    for c, m in enumerate(b.cand):  # read live: a placement may leave a later cell single
        if m and not m & (m - 1):
            if not place(b, c, m):
                return False
            placed.append((c, m.bit_length()))
    return Step(tuple(placed)) if placed else NOTHING


def hidden_single(b: Board) -> Deduction:
    """A digit with one place left in a unit goes there."""
    cand, units, free, placed, where = b.cand, b.t.units, b.free, [], []
    found = lone_digits(cand, units, free)
    while found:
        u, lone = found
        while lone:
            bit = lone & -lone
            lone ^= bit
            for cell in units[u]:
                if cand[cell] & bit:
                    break
            else:
                return False  # another lone digit of this unit took its only cell
            if not place(b, cell, bit):
                return False
            placed.append((cell, bit.bit_length()))
            where.append(u)
        found = lone_digits(cand, units, free, u + 1)
    if found is False:
        return False  # a digit has no place left in a unit
    return Step(tuple(placed), (), tuple(where)) if placed else NOTHING


def pointing(b: Board) -> Deduction:
    """Box → line: a digit confined to one row or column of a box leaves the rest of that line."""
    cand, t = b.cand, b.t
    for k, (inter, box_rest, line_rest) in enumerate(t.crossings):
        digits = mask_of(cand, inter) & ~mask_of(cand, box_rest)
        if digits and (digits := digits & mask_of(cand, line_rest)):
            bit = digits & -digits
            gone = eliminate(b, line_rest, bit)
            if gone is False:
                return False
            if gone:
                return Step((), tuple(gone), t.crossing_units[k], inter, bit)
    return NOTHING


def claiming(b: Board) -> Deduction:
    """Line → box: a digit confined to one box within a row or column leaves the rest of the box."""
    cand, t = b.cand, b.t
    for k, (inter, box_rest, line_rest) in enumerate(t.crossings):
        digits = mask_of(cand, inter) & ~mask_of(cand, line_rest)
        if digits and (digits := digits & mask_of(cand, box_rest)):
            bit = digits & -digits
            gone = eliminate(b, box_rest, bit)
            if gone is False:
                return False
            if gone:
                return Step((), tuple(gone), t.crossing_units[k][::-1], inter, bit)
    return NOTHING


def _subsets(items: list[tuple[int, int]], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """(keys, union) of every k items whose masks together hold at most k bits (pruned search)."""

    def grow(first: int, keys: tuple[int, ...], union: int) -> Iterator[tuple[tuple[int, ...],
                                                                             int]]:
        if len(keys) == k:
            yield keys, union
            return
        for i in range(first, len(items) - (k - len(keys)) + 1):
            key, m = items[i]
            u = union | m
            if u.bit_count() <= k:
                yield from grow(i + 1, keys + (key,), u)

    return grow(0, (), 0)


def _naked(b: Board, k: int) -> Deduction:
    """k open cells of a unit holding only k digits: the digits leave the rest of the unit."""
    cand = b.cand
    for u, unit in enumerate(b.t.units):
        items = [(c, m) for c in unit if 2 <= (m := cand[c]).bit_count() <= k]
        if len(items) < k:
            continue
        for cells, union in _subsets(items, k):
            if union.bit_count() < k:
                return False  # k cells, fewer than k digits
            gone = eliminate(b, [c for c in unit if c not in cells], union)
            if gone is False:
                return False
            if gone:
                return Step((), tuple(gone), (u,), cells, union)
    return NOTHING


def _hidden(b: Board, k: int) -> Deduction:
    """k digits of a unit confined to the same k cells: those cells lose every other digit."""
    cand, free, full = b.cand, b.free, b.t.full
    for u, unit in enumerate(b.t.units):
        items = []
        for d in digits_of(free[u]):
            bit, where = 1 << (d - 1), 0
            for i, c in enumerate(unit):
                if cand[c] & bit:
                    where |= 1 << i
            if 2 <= where.bit_count() <= k:
                items.append((bit, where))
        if len(items) < k:
            continue
        for bits, union in _subsets(items, k):
            if union.bit_count() < k:
                return False  # k digits, fewer than k places
            keep = sum(bits)
            cells = [unit[i - 1] for i in digits_of(union)]
            gone = eliminate(b, cells, full & ~keep)
            if gone is False:
                return False
            if gone:
                return Step((), tuple(gone), (u,), tuple(cells), keep)
    return NOTHING


def _fish(b: Board, k: int) -> Deduction:
    """A digit whose places in k rows lie in k columns leaves those columns elsewhere (and
    columns for rows). Position j of row i is position i of column j, so both ways read alike."""
    cand, n, units = b.cand, b.t.n, b.t.units
    for bit in (1 << d for d in range(n)):
        for at, to in ((0, n), (n, 0)):  # rows across columns, columns across rows
            base, cover = units[at:at + n], units[to:to + n]
            items = []
            for i, line in enumerate(base):
                where = 0
                for j, c in enumerate(line):
                    if cand[c] & bit:
                        where |= 1 << j
                if 2 <= where.bit_count() <= k:
                    items.append((i, where))
            if len(items) < k:
                continue
            for lines, union in _subsets(items, k):
                if union.bit_count() < k:
                    return False  # k lines need the digit, fewer than k crossing lines offer it
                targets = [c for j in digits_of(union) for i, c in enumerate(cover[j - 1])
                           if i not in lines]
                gone = eliminate(b, targets, bit)
                if gone is False:
                    return False
                if gone:
                    return _fish_step(b, gone, bit, [at + i for i in lines],
                                      [to + j - 1 for j in digits_of(union)])
    return NOTHING


def _fish_step(b: Board, gone: list[tuple[int, int]], bit: int, lines: list[int],
               crossed: list[int]) -> Step:
    """The Step of a fish: its base lines, then the lines they cross, and its corners."""
    corners = tuple(c for u in lines for c in b.t.units[u] if b.cand[c] & bit)
    return Step((), tuple(gone), (*lines, *crossed), corners, bit)


def naked_pair(b: Board) -> Deduction:
    """Two cells of a unit with the same two candidates: those digits leave the unit's rest."""
    return _naked(b, 2)


def naked_triple(b: Board) -> Deduction:
    """Three cells of a unit holding three digits between them."""
    return _naked(b, 3)


def naked_quad(b: Board) -> Deduction:
    """Four cells of a unit holding four digits between them."""
    return _naked(b, 4)


def hidden_pair(b: Board) -> Deduction:
    """Two digits of a unit confined to the same two cells: the cells keep only them."""
    return _hidden(b, 2)


def hidden_triple(b: Board) -> Deduction:
    """Three digits of a unit confined to the same three cells."""
    return _hidden(b, 3)


def hidden_quad(b: Board) -> Deduction:
    """Four digits of a unit confined to the same four cells."""
    return _hidden(b, 4)


def x_wing(b: Board) -> Deduction:
    """A digit in two rows confined to the same two columns (or the reverse)."""
    return _fish(b, 2)


def swordfish(b: Board) -> Deduction:
    """A digit in three rows confined to the same three columns (or the reverse)."""
    return _fish(b, 3)


SINGLES = (naked_single, hidden_single)
LOCKED = (pointing, claiming)
SUBSETS = (naked_pair, naked_triple, naked_quad, hidden_pair, hidden_triple, hidden_quad)
FISH = (x_wing, swordfish)
TECHNIQUES: dict[str, Technique] = {f.__name__: f for f in (*SINGLES, *LOCKED, *SUBSETS, *FISH)}
# easiest first
RANK = {name: i for i, name in enumerate(TECHNIQUES, 1)}  # 1 = easiest
PLACING = frozenset(f.__name__ for f in SINGLES)  # counted per digit placed


def _names(*groups: tuple[Technique, ...]) -> list[str]:
    return [f.__name__ for group in groups for f in group]


LEVELS: dict[str, list[str]] = {
    "singles": _names(SINGLES),
    "locked": _names(SINGLES, LOCKED),
    "subsets": _names(SINGLES, LOCKED, SUBSETS),
    "fish": _names(SINGLES, LOCKED, SUBSETS, FISH),
}
# The seed 002's rule set is singles + locked + naked subsets: "singles,locked,naked_pair,
# naked_triple,naked_quad"; "subsets" adds the hidden pairs, triples and quads.


def resolve_techniques(spec: str) -> list[str]:
    """Technique names, easiest first, of a comma list of level and technique names."""
    chosen: set[str] = set()
    for word in (w.strip().lower().replace("-", "_") for w in spec.split(",")):
        if word in LEVELS:
            chosen.update(LEVELS[word])
        elif word in TECHNIQUES:
            chosen.add(word)
        elif word:
            raise OptionError(f"unknown technique or level {word!r}; levels: "
                              f"{', '.join(LEVELS)}; techniques: {', '.join(TECHNIQUES)}")
    if not chosen:
        raise OptionError(f"no technique named in {spec!r}; levels: {', '.join(LEVELS)}; "
                          f"techniques: {', '.join(TECHNIQUES)}")
    return [name for name in TECHNIQUES if name in chosen]


def deduce(b: Board, names: Sequence[str],
           deadline: float | None = None) -> Iterator[tuple[str, Deduction]]:
    """Apply the named techniques to a fixpoint, the easiest retried first after each success,
    yielding each (name, Step) as made; (name, False) ends it on a contradiction, as the deadline
    does silently."""
    steps = [(name, TECHNIQUES[name]) for name in names]
    i = 0
    while i < len(steps) and b.open:
        name, technique = steps[i]
        step = technique(b)
        if step is False:
            yield name, False
            return
        if step.placed or step.eliminated:
            yield name, step
            i = 0
        else:
            i += 1
        if deadline is not None and expired(deadline):
            return


def fixpoint(b: Board, names: Sequence[str], counts: dict[str, int],
             deadline: float | None = None) -> bool:
    """Apply the named techniques until none progresses (`deduce`), adding to `counts`: one per
    digit placed for the singles, one per pattern for the others. False on a contradiction."""
    for name, step in deduce(b, names, deadline):
        if step is False:
            return False
        counts[name] = counts.get(name, 0) + (len(step.placed) if name in PLACING else 1)
    return True


@dataclass(frozen=True)
class LogicOutcome:
    """The grid as far as logic filled it, and which techniques did it."""

    cells: Grid
    solved: bool
    contradiction: bool
    counts: dict[str, int] = field(default_factory=dict)  # progress steps per technique
    hardest: str | None = None  # hardest technique that progressed, by TECHNIQUES order
    timed_out: bool = False  # the deadline stopped it before its fixpoint


def hardest_of(counts: dict[str, int]) -> str | None:
    """The hardest technique (by TECHNIQUES order) that progressed, None if none did."""
    used = [name for name, k in counts.items() if k]
    return max(used, key=RANK.__getitem__) if used else None


def apply_logic(puzzle: Puzzle, techniques: Sequence[str] | str,
                deadline: float | None = None) -> LogicOutcome:
    """Apply `techniques` (names, or a spec for resolve_techniques) to a fixpoint.

    counts[name] is how many times the technique progressed: one per digit placed for the
    singles, one per pattern that eliminated candidates for the others."""
    names = resolve_techniques(techniques) if isinstance(techniques, str) else list(techniques)
    unknown = [name for name in names if name not in TECHNIQUES]
    if unknown:
        raise OptionError(f"unknown technique {unknown[0]!r}; techniques: {', '.join(TECHNIQUES)}")
    counts = dict.fromkeys(names, 0)
    b = start(puzzle)
    if b is False:
        return LogicOutcome(puzzle.cells, False, True, counts)
    ok = fixpoint(b, names, counts, deadline) and consistent(b)
    timed_out = ok and bool(b.open) and expired(deadline)
    return LogicOutcome(tuple(b.vals), ok and not b.open, not ok, counts, hardest_of(counts),
                        timed_out)
