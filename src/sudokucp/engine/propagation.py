"""The one propagation engine: the board, place / eliminate / settle, and the locked-candidates
sweep, over the tables of engine/tables.py. The logic and hybrid backends, the rater and the
generator's grid fill run on it; MRV, which keeps its own cheaper state, shares the hidden-single
scan (lone_digits). The techniques (engine/techniques.py) return engine/step.py's Step.

Glossary: n = side, t = the shape's Tables (engine/tables.py), b = a Board; bit = 1 << (d - 1)
stands for digit d; cand[c] = candidate mask of cell c (0 once placed), vals[c] = digit placed in
c (0 = open), free[u] = mask of the digits unit u still lacks (as in MRV), open = cells still
open, dirty = units (bit u) where a cell lost a candidate since they were last searched for hidden
singles, moved = units where a cell lost a candidate since the last locked sweep looked at them,
todo = (cell, bit) pairs queued for placement, tally = [naked singles, hidden singles]
placed by settle. Nothing here is fixed to 9x9: the tables cover any r x c boxes.

A variant (sudokucp.rules) runs on its own tables (t.general): its full groups are the units,
every group strikes peers, each cell starts from its allowed digits, and its cage sums (dirty
bits after the units') prune their cells at the fixpoint of the singles. The classic grid keeps
the code written for three units per cell; `seed`, `settle` and `locked` hand a variant to
seed_rules, settle_groups and locked_pairs.

A contradiction is a return value, as in Norvig's solver: `False`, and only `False` (an open cell
with no candidate left, a digit with no place left in a unit, two digits wanting the same cell, two
givens clashing). Functions that succeed return True or something that is never `False`; the board
of a contradiction is thrown away, never repaired, but `place` and `eliminate` leave the cell they
emptied with no candidate, so that the flaw can be told (teaching/explain.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from sudokucp.engine.step import Deduction
from sudokucp.engine.tables import Tables, tables
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.rules import reachable

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


def seed(puzzle: Puzzle) -> tuple[Board, list[Place]] | Literal[False]:
    """The board of a puzzle with its givens placed at once, nothing else deduced, and the naked
    singles they leave, queued for settle; False when givens clash or leave a cell with no
    candidate. Every unit is marked dirty and moved."""
    if not puzzle.rules.classic:
        return seed_rules(puzzle)
    t = tables(puzzle.shape)
    full, cell_units, cells = t.full, t.cell_units, puzzle.cells
    used = [0] * len(t.units)
    for c, v in enumerate(cells):
        if v:
            bit = 1 << (v - 1)
            r, k, x = cell_units[c]
            if (used[r] | used[k] | used[x]) & bit:
                return False
            used[r] |= bit
            used[k] |= bit
            used[x] |= bit
    cand, todo, left = [0] * len(cells), [], 0
    for c, v in enumerate(cells):
        if not v:
            r, k, x = cell_units[c]
            m = full & ~(used[r] | used[k] | used[x])
            if not m:
                return False
            cand[c] = m
            left += 1
            if not m & (m - 1):
                todo.append((c, m))
    free = [full ^ u for u in used]
    return Board(t, cand, list(cells), free, left, (1 << len(used)) - 1), todo


def seed_rules(puzzle: Puzzle) -> tuple[Board, list[Place]] | Literal[False]:
    """`seed` for a variant: each open cell keeps the allowed digits no peer's given took; every
    unit and cage sum is marked dirty (the sums are checked by settle)."""
    t = tables(puzzle.shape, puzzle.rules)
    cells, peers, cand = puzzle.cells, t.peers, list(t.allowed)
    for c, v in enumerate(cells):
        if v:
            bit = 1 << (v - 1)
            if not cand[c] & bit:
                return False  # not allowed there, or a peer's given holds it
            for p in peers[c]:
                cand[p] &= ~bit
    free = [t.full] * len(t.units)
    for u, unit in enumerate(t.units):
        for c in unit:
            if cells[c]:
                free[u] ^= 1 << (cells[c] - 1)
    todo, left = [], 0
    for c, v in enumerate(cells):
        if v:
            cand[c] = 0
            continue
        m = cand[c]
        if not m:
            return False
        left += 1
        if not m & (m - 1):
            todo.append((c, m))
    dirty = (1 << (len(t.units) + len(t.sums))) - 1
    return Board(t, cand, list(cells), free, left, dirty), todo


def start(puzzle: Puzzle) -> Board | Literal[False]:
    """The board of a puzzle with its givens placed, nothing else deduced; False on a
    contradiction (two givens clash, or they leave a cell without candidates)."""
    seeded = seed(puzzle)
    return seeded and seeded[0]


def place(b: Board, cell: int, bit: int) -> bool:
    """Put the digit of `bit` in `cell` and remove it from the peers; False on a contradiction.

    Marks every unit the cell's peers are in as dirty (a superset, at no cost per peer)."""
    cand = b.cand
    if not cand[cell] & bit:
        return b.vals[cell] == bit.bit_length()  # placed already: nothing to do
    cand[cell] = 0
    b.vals[cell] = bit.bit_length()
    b.open -= 1
    t, free = b.t, b.free
    for u in t.cell_units[cell]:
        free[u] ^= bit  # an open cell holds only digits its units lack
    b.dirty |= t.reach[cell]
    b.moved |= t.reach[cell]
    for p in t.peers[cell]:
        m = cand[p]
        if m & bit:
            m ^= bit
            cand[p] = m
            if not m:
                return False
    return True


def eliminate(b: Board, cells: Sequence[int], mask: int) -> list[tuple[int, int]] | Literal[False]:
    """Remove the digits of `mask` from `cells`: the (cell, digit) pairs removed (maybe none), or
    False when a cell is left without candidates (test with `is False`)."""
    cand, unit_bits, out = b.cand, b.t.unit_bits, []
    for c in cells:
        m = cand[c]
        gone = m & mask
        if gone:
            m ^= gone
            cand[c] = m
            if not m:
                return False
            b.dirty |= unit_bits[c]
            b.moved |= unit_bits[c]
            out.extend((c, d) for d in digits_of(gone))
    return out


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


def lone_digits(cand: list[int], units: Sequence[Sequence[int]], missing: Sequence[int],
                first: int = 0) -> tuple[int, int] | Literal[False] | None:
    """The first unit u from `first` on where digits of missing[u] (the digits it still needs)
    have one place left each: (u, mask of those digits); False when a unit before it has a digit
    with no place left; None when neither."""
    for u in range(first, len(units)):
        need = missing[u]
        if not need:
            continue
        once = twice = 0
        for c in units[u]:
            m = cand[c]
            twice |= once & m
            once |= m
        if need & ~once:
            return False
        lone = need & ~twice
        if lone:
            return u, lone
    return None


def settle(b: Board, todo: list[Place], tally: list[int] | None = None) -> bool:
    """Place the queued (cell, bit) and every naked and hidden single that follows, to a fixpoint.

    Only the units in b.dirty (where a cell lost candidates) are searched for hidden singles; the
    scan is lone_digits' written out, as a call per unit would slow the search. Adds the singles
    placed to `tally`; False on a contradiction. A variant's board runs settle_groups."""
    t = b.t
    if t.general:
        return settle_groups(b, todo, tally)
    peers, cell_units, units, unit_bits = t.peers, t.cell_units, t.units, t.unit_bits
    cand, vals, free = b.cand, b.vals, b.free
    left, dirty, moved = b.open, b.dirty, b.moved
    naked = hidden = 0
    try:
        while True:
            while todo:
                c, bit = todo.pop()
                if not cand[c] & bit:
                    if vals[c] == bit.bit_length():
                        continue  # queued twice (naked and hidden)
                    return False
                cand[c] = 0
                vals[c] = bit.bit_length()
                left -= 1
                r, k, x = cell_units[c]
                free[r] ^= bit  # open cells hold only digits their units lack
                free[k] ^= bit
                free[x] ^= bit
                dirty |= unit_bits[c]
                for p in peers[c]:
                    m = cand[p]
                    if m & bit:
                        m ^= bit
                        if not m:
                            return False
                        cand[p] = m
                        dirty |= unit_bits[p]
                        if not m & (m - 1):
                            todo.append((p, m))
                            naked += 1
            if not left:
                return True
            moved |= dirty
            while dirty:  # the first dirty unit with lone digits queues them all
                low = dirty & -dirty
                dirty ^= low
                u = low.bit_length() - 1
                missing = free[u]
                if not missing:
                    continue
                unit = units[u]
                once = twice = 0
                for c in unit:
                    m = cand[c]
                    twice |= once & m
                    once |= m
                if missing & ~once:
                    return False
                lone = missing & ~twice
                if lone:
                    while lone:
                        bit = lone & -lone
                        lone ^= bit
                        for c in unit:
                            if cand[c] & bit:
                                todo.append((c, bit))
                                hidden += 1
                                break
                    break
            if not todo:
                return True
    finally:
        b.open, b.dirty, b.moved = left, dirty, moved | dirty
        if tally is not None:
            tally[0] += naked
            tally[1] += hidden


def settle_groups(b: Board, todo: list[Place], tally: list[int] | None = None) -> bool:
    """`settle` on a variant's board: any number of units per cell, and at the fixpoint of the
    singles the dirty cage sums prune their cells (cage_sum); the cells a sum leaves with one
    digit count as naked singles. False on a contradiction."""
    t = b.t
    peers, cell_units, units, unit_bits = t.peers, t.cell_units, t.units, t.unit_bits
    cand, vals, free = b.cand, b.vals, b.free
    left, dirty, moved = b.open, b.dirty, b.moved
    nunits = len(units)
    unit_mask = (1 << nunits) - 1
    naked = hidden = 0
    try:
        while True:
            while todo:
                c, bit = todo.pop()
                if not cand[c] & bit:
                    if vals[c] == bit.bit_length():
                        continue  # queued twice
                    return False
                cand[c] = 0
                vals[c] = bit.bit_length()
                left -= 1
                for u in cell_units[c]:
                    free[u] ^= bit
                dirty |= unit_bits[c]
                for p in peers[c]:
                    m = cand[p]
                    if m & bit:
                        m ^= bit
                        if not m:
                            return False
                        cand[p] = m
                        dirty |= unit_bits[p]
                        if not m & (m - 1):
                            todo.append((p, m))
                            naked += 1
            moved |= dirty
            scan = dirty & unit_mask
            while scan:  # the first dirty unit with lone digits queues them all
                low = scan & -scan
                scan ^= low
                dirty ^= low
                u = low.bit_length() - 1
                missing = free[u]
                if not missing:
                    continue
                unit = units[u]
                once = twice = 0
                for c in unit:
                    m = cand[c]
                    twice |= once & m
                    once |= m
                if missing & ~once:
                    return False
                lone = missing & ~twice
                if lone:
                    while lone:
                        bit = lone & -lone
                        lone ^= bit
                        for c in unit:
                            if cand[c] & bit:
                                todo.append((c, bit))
                                hidden += 1
                                break
                    break
            if todo:
                continue
            sums, dirty = dirty >> nunits, dirty & unit_mask
            while sums:
                low = sums & -sums
                sums ^= low
                found = cage_sum(b, low.bit_length() - 1, todo)
                if found is False:
                    return False
                dirty |= found
            naked += len(todo)
            if not todo and not dirty:
                return True
    finally:
        b.open, b.dirty, b.moved = left, dirty, moved | dirty
        if tally is not None:
            tally[0] += naked
            tally[1] += hidden


def cage_sum(b: Board, k: int, todo: list[Place]) -> int | Literal[False]:
    """Cage sum k keeps in its open cells only the digits of the sets that can still make its
    total (the sets holding its placed digits, whose other digits the open cells can take, each
    cell one of them), and a digit every such set needs goes to its one cell left. Cells left
    with one digit join `todo`; the dirty bits of the cells changed, or False on a
    contradiction (test with `is False`)."""
    cells, total, sets = b.t.sums[k]
    cand, vals, unit_bits = b.cand, b.vals, b.t.unit_bits
    opens, used, union = [], 0, 0
    for c in cells:
        v = vals[c]
        if v:
            used |= 1 << (v - 1)
            total -= v
        else:
            opens.append(c)
            union |= cand[c]
    if not opens:
        return 0 if total == 0 else False
    keep, need = 0, 0
    if sets is None:
        keep = reachable_digits(union, len(opens), total)
    else:
        need = -1
        for s in sets:
            rest = s ^ used
            if s & used == used and not rest & ~union and all(cand[c] & rest for c in opens):
                keep |= rest
                need &= rest
        need &= keep
    if not keep:
        return False
    dirty = 0
    for c in opens:
        m = cand[c]
        if m & ~keep:
            m &= keep
            if not m:
                return False
            cand[c] = m
            dirty |= unit_bits[c]
            if not m & (m - 1):
                todo.append((c, m))
    while need:
        bit = need & -need
        need ^= bit
        holders = [c for c in opens if cand[c] & bit]
        if len(holders) == 1:
            todo.append((holders[0], bit))
    return dirty


def reachable_digits(union: int, count: int, total: int) -> int:
    """The digits d of `union` for which count - 1 other distinct digits of it can make
    total - d (the bounds of rules.reachable)."""
    keep, mask = 0, union
    while mask:
        bit = mask & -mask
        mask ^= bit
        if reachable(union ^ bit, count - 1, total - bit.bit_length()):
            keep |= bit
    return keep


def locked(b: Board, todo: list[Place], counts: dict[str, int]) -> bool:
    """Pointing and claiming over the box-line crossings of the units in b.moved (where a cell lost
    a candidate since the last sweep); False on a contradiction.

    A digit found in one crossing only among those of a box (of a line) leaves the rest of the line
    (of the box): only a box's own candidates decide its pointing, a line's its claiming. Cells
    left with one candidate join `todo`, the units of the cells that lost candidates join b.dirty
    and b.moved, counts["pointing"] and counts["claiming"] grow by the (crossing, digit) patterns
    that removed something. Each crossing's candidates are read once per sweep, for its box and
    its line: eliminations from a sweep gone stale stay sound, as candidates only shrink. A
    variant's board runs locked_pairs."""
    t = b.t
    if t.general:
        return locked_pairs(b, todo, counts)
    n, moved = t.n, b.moved & ((1 << (3 * t.n)) - 1)
    b.moved = 0
    boxes, lines = moved >> 2 * n, moved & ((1 << 2 * n) - 1)
    seen = [-1] * len(t.crossings)  # the candidates of each crossing, read when first needed
    pointing = claiming = 0
    while boxes:
        low = boxes & -boxes
        boxes ^= low
        box = low.bit_length() - 1
        for group in t.box_groups[2 * box:2 * box + 2]:
            found = _lock(b, group, 2, todo, seen)
            if found is False:
                return False
            pointing += found
    while lines:
        low = lines & -lines
        lines ^= low
        found = _lock(b, t.line_groups[low.bit_length() - 1], 1, todo, seen)
        if found is False:
            return False
        claiming += found
    counts["pointing"] += pointing
    counts["claiming"] += claiming
    return True


def _lock(b: Board, group: tuple[int, ...], rest: int, todo: list[Place],
          seen: list[int]) -> int | Literal[False]:
    """One group of crossings (of a box with its rows or columns, or of a line with the boxes):
    a digit in one crossing only leaves that crossing's `rest` (2: the line's, 1: the box's).
    The (crossing, digit) patterns that removed something; False on a contradiction."""
    cand, crossings, unit_bits = b.cand, b.t.crossings, b.t.unit_bits
    once = twice = 0
    for k in group:
        m = seen[k]
        if m < 0:
            m = 0
            for c in crossings[k][0]:
                m |= cand[c]
            seen[k] = m
        twice |= once & m
        once |= m
    lone = once & ~twice
    if not lone:
        return 0
    found, dirty = 0, 0
    for k in group:
        digits = seen[k] & lone
        if not digits:
            continue
        removed = 0
        for c in crossings[k][rest]:
            m = cand[c]
            if m & digits:
                removed |= m & digits
                m &= ~digits
                if not m:
                    return False
                cand[c] = m
                dirty |= unit_bits[c]
                if not m & (m - 1):
                    todo.append((c, m))
        found += removed.bit_count()  # one pattern per crossing and digit
    b.dirty |= dirty
    b.moved |= dirty
    return found


def locked_pairs(b: Board, todo: list[Place], counts: dict[str, int]) -> bool:
    """`locked` on a variant's board, over the crossings of every two units that meet, each
    read once if one of its units is in b.moved: a digit of one unit confined to the crossing
    leaves the rest of the other (counted as pointing one way, claiming the other)."""
    t = b.t
    cand, crossings, unit_bits = b.cand, t.crossings, t.unit_bits
    moved = b.moved & ((1 << len(t.units)) - 1)
    b.moved = 0
    seen = set()
    dirty = pointing = claiming = 0
    while moved:
        low = moved & -moved
        moved ^= low
        for k in t.unit_crossings[low.bit_length() - 1]:
            if k in seen:
                continue
            seen.add(k)
            inter, one, two = crossings[k]
            m, r1, r2 = mask_of(cand, inter), mask_of(cand, one), mask_of(cand, two)
            for digits, rest, other in ((m & ~r1 & r2, two, 0), (m & ~r2 & r1, one, 1)):
                if not digits:
                    continue
                removed = 0
                for c in rest:
                    x = cand[c]
                    if x & digits:
                        removed |= x & digits
                        x &= ~digits
                        if not x:
                            return False
                        cand[c] = x
                        dirty |= unit_bits[c]
                        if not x & (x - 1):
                            todo.append((c, x))
                if other:
                    claiming += removed.bit_count()
                else:
                    pointing += removed.bit_count()
    b.dirty |= dirty
    b.moved |= dirty
    counts["pointing"] += pointing
    counts["claiming"] += claiming
    return True


def propagate(b: Board, todo: list[Place], extra: Sequence[tuple[str, Technique]],
              tally: list[int], counts: dict[str, int]) -> bool:
    """Singles (settle), then the `extra` techniques easiest first, the singles again after each
    success; False on a contradiction.

    Pointing and claiming, when both are asked for, run together as one sweep (`locked`)."""
    names = {name for name, _ in extra}
    sweep = "pointing" in names and "claiming" in names
    if sweep:
        extra = [(name, f) for name, f in extra if name not in ("pointing", "claiming")]
    cand = b.cand
    while True:
        if not settle(b, todo, tally):
            return False
        if not b.open:
            return True
        if sweep:
            if not locked(b, todo, counts):
                return False
            if todo or b.dirty:
                continue
        for name, technique in extra:
            step = technique(b)  # its eliminations mark b.dirty
            if step is False:
                return False
            if step.eliminated:
                counts[name] += 1
                todo = [(c, cand[c]) for c, _ in step.eliminated if not cand[c] & (cand[c] - 1)]
                break
        else:
            return True


def consistent(b: Board) -> bool:
    """No open cell without candidates, no unit missing a digit with nowhere to go."""
    cand, free = b.cand, b.free
    if any(not m and not v for m, v in zip(cand, b.vals)):
        return False
    return not any(free[u] & ~mask_of(cand, unit) for u, unit in enumerate(b.t.units))
