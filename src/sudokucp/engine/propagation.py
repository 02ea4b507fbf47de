"""The one propagation engine: the board, place / eliminate / settle, and the locked-candidates
sweep, over the tables of engine/tables.py. The board lives in engine/board.py, its seeding in
engine/seeding.py, the locked-candidates sweeps in engine/locked.py; all are re-exported here.
The logic and hybrid backends, the rater and the generator's grid fill run on it; the searches'
state (engine/groups.py: naive, mrv, the variant generator) shares its hidden-single scan. The
techniques (engine/techniques.py) return engine/step.py's Step.

Glossary: n = side, t = the shape's Tables (engine/tables.py), b = a Board; bit = 1 << (d - 1)
stands for digit d; cand[c] = candidate mask of cell c (0 once placed), vals[c] = digit placed in
c (0 = open), free[u] = mask of the digits unit u still lacks (as in MRV), open = cells still
open, dirty = units (bit u) where a cell lost a candidate since they were last searched for hidden
singles, moved = units where a cell lost a candidate since the last locked sweep looked at them,
todo = (cell, bit) pairs queued for placement, tally = [naked singles, hidden singles]
placed by settle. Nothing here is fixed to 9x9: the tables cover any r x c boxes.

One engine for every rule set: a classic grid is a layout whose units are its rows, columns and
boxes; a variant's (sudokucp.rules, t.general) are its full groups, every group strikes peers,
each cell starts from its allowed digits, and its cage sums (dirty bits after the units') prune
their cells at the fixpoint of the singles. `seed`, `settle` and `locked` read only the tables.

A contradiction is a return value, as in Norvig's solver: `False`, and only `False` (an open cell
with no candidate left, a digit with no place left in a unit, two digits wanting the same cell, two
givens clashing). Functions that succeed return True or something that is never `False`; the board
of a contradiction is thrown away, never repaired, but `place` and `eliminate` leave the cell they
emptied with no candidate, so that the flaw can be told (teaching/explain.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from sudokucp.engine.board import Board as Board
from sudokucp.engine.board import Place as Place
from sudokucp.engine.board import Technique as Technique
from sudokucp.engine.board import blank as blank
from sudokucp.engine.board import digits_of as digits_of
from sudokucp.engine.board import givens as givens
from sudokucp.engine.board import mask_of as mask_of
from sudokucp.engine.locked import locked as locked
from sudokucp.engine.seeding import seed as seed
from sudokucp.engine.seeding import start as start
from sudokucp.rules import reachable


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


def lone_digits(cand: list[int], units: Sequence[Sequence[int]], missing: Sequence[int],
                first: int = 0) -> tuple[int, int] | Literal[False] | None:
    """The first unit u from `first` on where digits of missing[u] (the digits it still needs)
    have one place left each: (u, mask of those digits); False when a unit before it has a digit
    with no place left; None when neither."""
    found = first_lone(cand, units, missing, ((1 << len(units)) - 1) >> first << first)
    return found and found[:2]


def first_lone(cand: list[int], units: Sequence[Sequence[int]], missing: Sequence[int],
               scan: int) -> tuple[int, int, int] | Literal[False] | None:
    """lone_digits over the units of the mask `scan`, lowest first: (u, mask of its lone digits,
    the units of `scan` after u), False or None."""
    while scan:
        low = scan & -scan
        scan ^= low
        u = low.bit_length() - 1
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
            return u, lone, scan
    return None


def settle(b: Board, todo: list[Place], tally: list[int] | None = None) -> bool:
    """Place the queued (cell, bit) and every naked and hidden single that follows, to a fixpoint.

    Only the units in b.dirty (where a cell lost candidates) are searched for hidden singles
    (first_lone), the first with lone digits queuing them all; at the fixpoint of the singles
    the dirty cage sums prune their cells (cage_sum: the cells it leaves with one digit count
    as naked singles). Adds the singles placed to `tally`; False on a contradiction."""
    t = b.t
    peers, cell_units, units, unit_bits = t.peers, t.cell_units, t.units, t.unit_bits
    cand, vals, free = b.cand, b.vals, b.free
    left, dirty, moved = b.open, b.dirty, b.moved
    nunits, cages = len(units), bool(t.sums)
    unit_mask = (1 << nunits) - 1
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
                for u in cell_units[c]:
                    free[u] ^= bit  # open cells hold only digits their units lack
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
            if not left and not cages:
                return True
            moved |= dirty
            scan = dirty & unit_mask
            while scan:  # the first dirty unit with lone digits queues them all
                low = scan & -scan
                scan ^= low
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
            dirty = dirty & ~unit_mask | scan
            if todo:
                continue
            sums, dirty = dirty >> nunits, 0
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
    gone = eliminate(b, opens, ~keep)  # settle keeps b.dirty in hand: the bits go back to it
    if gone is False:
        return False
    dirty = 0
    for c in dict.fromkeys(c for c, _ in gone):
        m = cand[c]
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
