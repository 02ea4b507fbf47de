"""Human techniques over candidate bitmasks, applied to a fixpoint easiest first; the logic backend.

Glossary: n = side, t = the shape's Tables, b = a Board; cand[c] = candidate bitmask of an open cell
(bit d-1 stands for digit d; 0 once the cell is placed), vals[c] = digit placed (0 = open),
up[u] = bitmask of the digits placed in unit u, open = how many cells are still open.

A technique is a function of a Board. It applies one pattern (the singles: every single seen in
one sweep) and returns the Step it made: the cells it placed and the candidates it eliminated, both
empty when it found nothing. A contradiction is a return value, as in Norvig's solver: `False`.
Placing a digit removes it from the peers' candidates; that bookkeeping belongs to the placement,
not to a technique. Every deduction holds in every solution (no technique assumes uniqueness),
so the hybrid backend's search may use them without losing solutions.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal, NamedTuple

from sudokucp.backends.base import Backend, OptionError, SearchOutcome
from sudokucp.puzzle import Grid, Puzzle, Shape, geometry

# --- tables and board -------------------------------------------------------------------------


@dataclass(frozen=True)
class Tables:
    """Everything the techniques look up for one shape, as tuples of ints."""

    n: int
    full: int  # every digit: (1 << n) - 1
    units: tuple[tuple[int, ...], ...]  # rows 0..n-1, columns n..2n-1, boxes 2n..3n-1
    cell_units: tuple[tuple[int, int, int], ...]
    peers: tuple[tuple[int, ...], ...]
    crossings: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    # (box ∩ line, box − line, line − box) for every box and every row or column crossing it
    unit_bits: tuple[int, ...]  # per cell, bit u set for each of its three units
    box_groups: tuple[tuple[int, ...], ...]  # crossings of a box with its rows, with its columns
    line_groups: tuple[tuple[int, ...], ...]  # crossings of a row or a column with the boxes


@cache
def tables(shape: Shape) -> Tables:
    """The tables of `shape`, computed once."""
    g, n = geometry(shape), shape.side
    crossings, box_groups, line_groups = [], [], [[] for _ in range(2 * n)]
    for box in g.units[2 * n:]:
        in_box = set(box)
        groups: tuple[list[int], list[int]] = ([], [])
        for u, line in enumerate(g.units[:2 * n]):
            inter = tuple(c for c in line if c in in_box)
            if inter:
                groups[u // n].append(len(crossings))
                line_groups[u].append(len(crossings))
                crossings.append((inter, tuple(c for c in box if c not in inter),
                                  tuple(c for c in line if c not in in_box)))
        box_groups += [tuple(group) for group in groups]
    unit_bits = tuple(sum(1 << u for u in cu) for cu in g.cell_units)
    return Tables(n, (1 << n) - 1, g.units, g.cell_units, g.peers, tuple(crossings), unit_bits,
                  tuple(box_groups), tuple(tuple(group) for group in line_groups))


@dataclass(eq=False)
class Board:
    """Candidates and placed digits of one grid being solved; copy() before a guess."""

    t: Tables
    cand: list[int]
    vals: list[int]
    up: list[int]
    open: int

    def copy(self) -> Board:
        return Board(self.t, self.cand[:], self.vals[:], self.up[:], self.open)


def start(puzzle: Puzzle) -> Board | Literal[False]:
    """The board of a puzzle with its givens placed; False when two givens clash."""
    t = tables(puzzle.shape)
    size = len(puzzle.cells)
    b = Board(t, [t.full] * size, [0] * size, [0] * len(t.units), size)
    for cell, value in enumerate(puzzle.cells):
        if value and not place(b, cell, 1 << (value - 1)):
            return False
    return b


def place(b: Board, cell: int, bit: int) -> bool:
    """Put the digit of `bit` in `cell` and remove it from the peers; False on a contradiction."""
    cand = b.cand
    if not cand[cell] & bit:
        return False
    cand[cell] = 0
    b.vals[cell] = bit.bit_length()
    b.open -= 1
    up = b.up
    for u in b.t.cell_units[cell]:
        up[u] |= bit
    for p in b.t.peers[cell]:
        m = cand[p]
        if m & bit:
            m ^= bit
            if not m:
                return False
            cand[p] = m
    return True


def digits_of(mask: int) -> Iterator[int]:
    """The digits of a candidate mask, ascending."""
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit.bit_length()


# --- techniques -------------------------------------------------------------------------------


class Step(NamedTuple):
    """What one technique did: (cell, digit) placed, (cell, digit) eliminated."""

    placed: tuple[tuple[int, int], ...] = ()
    eliminated: tuple[tuple[int, int], ...] = ()


NOTHING = Step()
Outcome = Step | Literal[False]
Technique = Callable[[Board], Outcome]


def _eliminate(cand: list[int], cells: Sequence[int], mask: int) -> list[tuple[int, int]] | None:
    """Remove `mask` from `cells`; the (cell, digit) removed, None when a cell empties."""
    out = []
    for c in cells:
        m = cand[c]
        gone = m & mask
        if gone:
            m ^= gone
            if not m:
                return None
            cand[c] = m
            out.extend((c, d) for d in digits_of(gone))
    return out


def _verdict(removed: list[tuple[int, int]] | None) -> Outcome | None:
    """The Step of an elimination, False if it emptied a cell, None if it removed nothing."""
    if removed is None:
        return False
    return Step((), tuple(removed)) if removed else None


def naked_single(b: Board) -> Outcome:
    """A cell with one candidate left takes it."""
    cand, placed = b.cand, []
    for c in range(len(cand)):
        m = cand[c]
        if m and not m & (m - 1):
            if not place(b, c, m):
                return False
            placed.append((c, m.bit_length()))
    return Step(tuple(placed)) if placed else NOTHING


def hidden_single(b: Board) -> Outcome:
    """A digit with one place left in a unit goes there."""
    cand, up, full, placed = b.cand, b.up, b.t.full, []
    for u, unit in enumerate(b.t.units):
        once = twice = 0
        for c in unit:
            m = cand[c]
            twice |= once & m
            once |= m
        if once | up[u] != full:
            return False  # a digit has no place left in this unit
        lone = once & ~twice
        while lone:
            bit = lone & -lone
            lone ^= bit
            cell = next((c for c in unit if cand[c] & bit), None)
            if cell is None or not place(b, cell, bit):
                return False  # another lone digit of this unit took its only cell
            placed.append((cell, bit.bit_length()))
    return Step(tuple(placed)) if placed else NOTHING


def _mask(cand: list[int], cells: Sequence[int]) -> int:
    m = 0
    for c in cells:
        m |= cand[c]
    return m


def pointing(b: Board) -> Outcome:
    """Box → line: a digit confined to one row or column of a box leaves the rest of that line."""
    cand = b.cand
    for inter, box_rest, line_rest in b.t.crossings:
        digits = _mask(cand, inter) & ~_mask(cand, box_rest)
        if digits and (digits := digits & _mask(cand, line_rest)):
            step = _verdict(_eliminate(cand, line_rest, digits & -digits))
            if step is not None:
                return step
    return NOTHING


def claiming(b: Board) -> Outcome:
    """Line → box: a digit confined to one box within a row or column leaves the rest of the box."""
    cand = b.cand
    for inter, box_rest, line_rest in b.t.crossings:
        digits = _mask(cand, inter) & ~_mask(cand, line_rest)
        if digits and (digits := digits & _mask(cand, box_rest)):
            step = _verdict(_eliminate(cand, box_rest, digits & -digits))
            if step is not None:
                return step
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


def _naked(b: Board, k: int) -> Outcome:
    """k open cells of a unit holding only k digits: the digits leave the rest of the unit."""
    cand = b.cand
    for unit in b.t.units:
        items = [(c, m) for c in unit if 2 <= (m := cand[c]).bit_count() <= k]
        if len(items) < k:
            continue
        for cells, union in _subsets(items, k):
            if union.bit_count() < k:
                return False  # k cells, fewer than k digits
            step = _verdict(_eliminate(cand, [c for c in unit if c not in cells], union))
            if step is not None:
                return step
    return NOTHING


def _hidden(b: Board, k: int) -> Outcome:
    """k digits of a unit confined to the same k cells: those cells lose every other digit."""
    cand, up, full = b.cand, b.up, b.t.full
    for u, unit in enumerate(b.t.units):
        items = []
        for d in digits_of(full & ~up[u]):
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
            step = _verdict(_eliminate(cand, cells, full & ~keep))
            if step is not None:
                return step
    return NOTHING


def _fish(b: Board, k: int) -> Outcome:
    """A digit whose places in k rows lie in k columns leaves those columns elsewhere (and
    columns for rows). Position j of row i is position i of column j, so both ways read alike."""
    cand, n, units = b.cand, b.t.n, b.t.units
    for bit in (1 << d for d in range(n)):
        for base, cover in ((units[:n], units[n:2 * n]), (units[n:2 * n], units[:n])):
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
                step = _verdict(_eliminate(cand, targets, bit))
                if step is not None:
                    return step
    return NOTHING


def naked_pair(b: Board) -> Outcome:
    """Two cells of a unit with the same two candidates: those digits leave the unit's rest."""
    return _naked(b, 2)


def naked_triple(b: Board) -> Outcome:
    """Three cells of a unit holding three digits between them."""
    return _naked(b, 3)


def naked_quad(b: Board) -> Outcome:
    """Four cells of a unit holding four digits between them."""
    return _naked(b, 4)


def hidden_pair(b: Board) -> Outcome:
    """Two digits of a unit confined to the same two cells: the cells keep only them."""
    return _hidden(b, 2)


def hidden_triple(b: Board) -> Outcome:
    """Three digits of a unit confined to the same three cells."""
    return _hidden(b, 3)


def hidden_quad(b: Board) -> Outcome:
    """Four digits of a unit confined to the same four cells."""
    return _hidden(b, 4)


def x_wing(b: Board) -> Outcome:
    """A digit in two rows confined to the same two columns (or the reverse)."""
    return _fish(b, 2)


def swordfish(b: Board) -> Outcome:
    """A digit in three rows confined to the same three columns (or the reverse)."""
    return _fish(b, 3)


TECHNIQUES: dict[str, Technique] = {
    "naked_single": naked_single,
    "hidden_single": hidden_single,
    "pointing": pointing,
    "claiming": claiming,
    "naked_pair": naked_pair,
    "naked_triple": naked_triple,
    "naked_quad": naked_quad,
    "hidden_pair": hidden_pair,
    "hidden_triple": hidden_triple,
    "hidden_quad": hidden_quad,
    "x_wing": x_wing,
    "swordfish": swordfish,
}  # easiest first
PLACING = frozenset({"naked_single", "hidden_single"})  # counted per digit placed

_NAMES = list(TECHNIQUES)
LEVELS: dict[str, list[str]] = {
    "singles": _NAMES[:2],
    "locked": _NAMES[:4],
    "subsets": _NAMES[:10],
    "fish": _NAMES[:12],
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


# --- the fixpoint -----------------------------------------------------------------------------


def fixpoint(b: Board, names: Sequence[str], counts: dict[str, int],
             deadline: float | None = None) -> bool:
    """Apply the named techniques until none progresses, retrying the easiest first after each
    success. Adds to `counts`; False on a contradiction. Stops early (True) past the deadline."""
    steps = [(name, TECHNIQUES[name], name in PLACING) for name in names]
    i = 0
    while i < len(steps) and b.open:
        name, technique, placing = steps[i]
        step = technique(b)
        if step is False:
            return False
        if step.placed or step.eliminated:
            counts[name] = counts.get(name, 0) + (len(step.placed) if placing else 1)
            i = 0
        else:
            i += 1
        if deadline is not None and time.perf_counter() > deadline:
            return True
    return True


def consistent(b: Board) -> bool:
    """No open cell without candidates, no unit missing a digit with nowhere to go."""
    cand, up, full = b.cand, b.up, b.t.full
    if any(not m and not v for m, v in zip(cand, b.vals)):
        return False
    return all(_mask(cand, unit) | up[u] == full for u, unit in enumerate(b.t.units))


@dataclass(frozen=True)
class LogicOutcome:
    """The grid as far as logic filled it, and which techniques did it."""

    cells: Grid
    solved: bool
    contradiction: bool
    counts: dict[str, int] = field(default_factory=dict)  # progress steps per technique
    hardest: str | None = None  # hardest technique that progressed, by TECHNIQUES order


def hardest_of(counts: dict[str, int]) -> str | None:
    used = [name for name, k in counts.items() if k]
    return max(used, key=_NAMES.index) if used else None


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
    return LogicOutcome(tuple(b.vals), ok and not b.open, not ok, counts, hardest_of(counts))


# --- the backend ------------------------------------------------------------------------------


class Logic(Backend):
    """Human techniques only: SOLVED, UNSAT on a proved contradiction, else UNKNOWN (stuck)."""

    name = "logic"
    description = "human techniques (singles, locked candidates, subsets, fish) to a fixpoint"
    defaults = {"techniques": "fish"}

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.techniques = resolve_techniques(self.options["techniques"])

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        out = apply_logic(puzzle, self.techniques, deadline)
        stats: dict[str, float] = {
            "givens": puzzle.givens,
            "filled": sum(1 for v in out.cells if v),
            "placed": sum(1 for v in out.cells if v) - puzzle.givens,
            "hardest_rank": _NAMES.index(out.hardest) + 1 if out.hardest else 0,
            **out.counts,
        }
        if out.contradiction:
            return [], True, stats
        if out.solved:
            # Every deduction is forced (holds in every solution), so a grid that logic fills is
            # the only solution: the count 1 is exact whatever the limit (1, 2 or 0 = all).
            return [out.cells], True, stats
        return [], False, stats  # stuck: the base reports UNKNOWN (or TIMEOUT past the deadline)
