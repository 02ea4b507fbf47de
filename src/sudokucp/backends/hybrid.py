"""The seeds' combination done well: logic to a fixpoint, then MRV search, propagating at each node.

The board is the logic engine's (candidate bitmasks per cell, 0 once placed; digits placed; digits
placed per unit), three flat lists. The singles run here in one tight loop, `settle`: a queue of
(cell, digit bit) to place, each placement removing its digit from the peers (a peer left with one
candidate joins the queue), then the units where some cell lost a candidate are searched for
hidden singles, until the queue and those units are empty. Pointing and claiming run as one sweep
over the box-line crossings (`locked`); the other techniques come from the logic engine. After any
success the singles settle again, then the easiest technique is retried first.

The search branches on the smallest choice, as Knuth's exact-cover rule does: the open cell with
the fewest candidates or, when that is three or more, a digit with only two (or three) places left
in a unit. Each alternative but the last runs on a copy of the three lists; an explicit stack
keeps deep 25x25 searches free of recursion. Every deduction holds in every solution, so counts
with limit 2 or 0 are exact.

Stats: guesses = alternatives tried at branch points, backtracks = guesses refuted by propagation,
per-technique counts (root and nodes together: naked_single and hidden_single count digits placed,
the others patterns), root_filled = cells filled by the root fixpoint, logic_s = time of the root
fixpoint, search_s = the rest.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from sudokucp.backends.base import Backend, SearchOutcome
from sudokucp.backends.logic import LEVELS, TECHNIQUES, Board, Tables, resolve_techniques, tables
from sudokucp.puzzle import Grid, Puzzle

SINGLES = tuple(LEVELS["singles"])

Tally = list[int]  # [naked singles, hidden singles] placed by settle


def settle(t: Tables, cand: list[int], vals: list[int], up: list[int],
           todo: list[tuple[int, int]], left: int, tally: Tally, dirty: int = 0) -> int:
    """Place the queued (cell, bit) and every naked and hidden single that follows.

    Returns the number of open cells left, or -1 on a contradiction (a cell without candidates, a
    digit without a place in a unit, two digits wanting the same cell). Only the units where a cell
    lost candidates (bits of `dirty`, which may start with the units an elimination touched) are
    searched for hidden singles."""
    peers, cell_units, units, full, unit_bits = t.peers, t.cell_units, t.units, t.full, t.unit_bits
    naked = hidden = 0
    while True:
        while todo:
            c, bit = todo.pop()
            if not cand[c] & bit:
                if vals[c] == bit.bit_length():
                    continue  # queued twice (naked and hidden)
                tally[0] += naked
                tally[1] += hidden
                return -1
            cand[c] = 0
            vals[c] = bit.bit_length()
            left -= 1
            r, k, x = cell_units[c]
            up[r] |= bit
            up[k] |= bit
            up[x] |= bit
            dirty |= unit_bits[c]
            for p in peers[c]:
                m = cand[p]
                if m & bit:
                    m ^= bit
                    if not m:
                        tally[0] += naked
                        tally[1] += hidden
                        return -1
                    cand[p] = m
                    dirty |= unit_bits[p]
                    if not m & (m - 1):
                        todo.append((p, m))
                        naked += 1
        if not left:
            break
        while dirty:
            low = dirty & -dirty
            dirty ^= low
            u = low.bit_length() - 1
            placed = up[u]
            if placed == full:
                continue
            unit = units[u]
            once = twice = 0
            for c in unit:
                m = cand[c]
                twice |= once & m
                once |= m
            if once | placed != full:
                tally[0] += naked
                tally[1] += hidden
                return -1
            lone = once & ~twice
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
            break
    tally[0] += naked
    tally[1] += hidden
    return left


def locked(t: Tables, cand: list[int], todo: list[tuple[int, int]], counts: dict[str, int]) -> int:
    """Pointing and claiming in one sweep over the box-line crossings.

    Returns the units (bits, as in Tables.unit_bits) of the cells that lost candidates, -1 on a
    contradiction.

    A digit found in one crossing only among those of a box (of a line) leaves the rest of the line
    (of the box). Eliminations made from a sweep that went stale stay sound: candidates only shrink.
    Cells left with one candidate are queued in `todo`."""
    crossings, unit_bits = t.crossings, t.unit_bits
    dirty = 0
    seen = []
    for inter, _, _ in crossings:
        m = 0
        for c in inter:
            m |= cand[c]
        seen.append(m)
    for name, groups, rest in (("pointing", t.box_groups, 2), ("claiming", t.line_groups, 1)):
        found = 0
        for group in groups:
            once = twice = 0
            for k in group:
                m = seen[k]
                twice |= once & m
                once |= m
            lone = once & ~twice
            if not lone:
                continue
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
                            return -1
                        cand[c] = m
                        dirty |= unit_bits[c]
                        if not m & (m - 1):
                            todo.append((c, m))
                found += removed.bit_count()  # one pattern per crossing and digit
        counts[name] += found
    return dirty


def propagate(b: Board, todo: list[tuple[int, int]], extra: Sequence[str], tally: Tally,
              counts: dict[str, int]) -> bool:
    """Singles, then the `extra` techniques easiest first, the singles again after each success.

    Pointing and claiming, when both are asked for, run together as one fast sweep (`locked`)."""
    t, cand = b.t, b.cand
    sweep = "pointing" in extra and "claiming" in extra
    if sweep:
        extra = [name for name in extra if name not in ("pointing", "claiming")]
    dirty = 0  # units where an elimination removed candidates: settle looks there for singles
    while True:
        b.open = settle(t, cand, b.vals, b.up, todo, b.open, tally, dirty)
        if b.open < 0:
            return False
        if not b.open:
            return True
        if sweep:
            dirty = locked(t, cand, todo, counts)
            if dirty < 0:
                return False
            if todo or dirty:
                continue
        for name in extra:
            step = TECHNIQUES[name](b)
            if step is False:
                return False
            if step.eliminated:
                counts[name] += 1
                todo = [(c, cand[c]) for c, _ in step.eliminated if not cand[c] & (cand[c] - 1)]
                dirty = 0
                for c, _ in step.eliminated:
                    dirty |= t.unit_bits[c]
                break
        else:
            return True


def fewest(cand: list[int]) -> int:
    """The open cell with the fewest candidates (the first with two)."""
    best, low = -1, 99
    for c, m in enumerate(cand):
        if m:
            k = m.bit_count()
            if k < low:
                best, low = c, k
                if k == 2:
                    break
    return best


def branches(t: Tables, cand: list[int], up: list[int]) -> list[tuple[int, int]]:
    """The (cell, bit) alternatives to try, last first: the digits of the open cell with the fewest
    candidates or, when that is three or more, the places of a digit that has fewer places left in
    some unit (Knuth's rule for exact cover: the smallest constraint, cell or unit-digit)."""
    cell = fewest(cand)
    m = cand[cell]
    low = m.bit_count()
    if low > 2:
        full, best = t.full, None
        for u, unit in enumerate(t.units):
            if up[u] == full:
                continue
            c1 = c2 = c3 = c4 = 0  # digits with at least 1, 2, 3, 4 places in the unit
            for c in unit:
                x = cand[c]
                c4 |= c3 & x
                c3 |= c2 & x
                c2 |= c1 & x
                c1 |= x
            if c2 & ~c3:
                best = (unit, c2 & ~c3)
                break
            if low > 3 and best is None and c3 & ~c4:
                best = (unit, c3 & ~c4)
        if best:
            unit, digits = best
            bit = digits & -digits
            return [(c, bit) for c in reversed(unit) if cand[c] & bit]
    out = []
    while m:
        bit = m & -m
        m ^= bit
        out.append((cell, bit))
    out.reverse()
    return out


def _root(puzzle: Puzzle, t: Tables) -> tuple[Board, list[tuple[int, int]]]:
    """An empty board and the givens queued for settle (which refuses clashing givens)."""
    size = len(puzzle.cells)
    b = Board(t, [t.full] * size, [0] * size, [0] * len(t.units), size)
    return b, [(c, 1 << (v - 1)) for c, v in enumerate(puzzle.cells) if v]


class Hybrid(Backend):
    """Logic to a fixpoint at the root, then MRV search with propagation at every node."""

    name = "hybrid"
    description = "logic to a fixpoint, then MRV search with singles (or more) at every node"
    defaults = {"techniques": "locked", "node_techniques": "singles"}

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        # The singles are the search's own propagation: always on, whatever else is asked for.
        self.root = [n for n in resolve_techniques(self.options["techniques"]) if n not in SINGLES]
        self.nodes = [n for n in resolve_techniques(self.options["node_techniques"])
                      if n not in SINGLES]

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        t0 = time.perf_counter()
        t = tables(puzzle.shape)
        tally = [0, 0]
        counts = dict.fromkeys(self.root + self.nodes, 0)
        stats: dict[str, float] = {"guesses": 0, "backtracks": 0}
        start = _root(puzzle, t)
        ok = propagate(start[0], start[1], self.root, tally, counts)
        t1 = time.perf_counter()
        solutions: list[Grid] = []
        complete = True
        if ok:
            b = start[0]
            stats["root_filled"] = len(b.cand) - b.open
            if not b.open:
                solutions.append(tuple(b.vals))
            else:
                complete = self._dfs(b, limit, deadline, solutions, tally, counts, stats)
        t2 = time.perf_counter()
        stats.update(naked_single=tally[0], hidden_single=tally[1], **counts)
        stats.update(logic_s=t1 - t0, search_s=t2 - t1)
        return solutions, complete, stats

    def _dfs(self, root: Board, limit: int, deadline: float | None, solutions: list[Grid],
             tally: Tally, counts: dict[str, int], stats: dict[str, float]) -> bool:
        """Depth-first over copies of the board; True when the tree was exhausted."""
        t, nodes = root.t, self.nodes
        guesses = backtracks = 0
        stack = [(root, branches(t, root.cand, root.up))]
        try:
            while stack:
                b, alternatives = stack[-1]
                cell, bit = alternatives.pop()
                if alternatives:
                    b = Board(t, b.cand[:], b.vals[:], b.up[:], b.open)
                else:
                    stack.pop()  # the last alternative takes the board itself
                guesses += 1
                if deadline is not None and time.perf_counter() > deadline:
                    return False
                if nodes:
                    alive = propagate(b, [(cell, bit)], nodes, tally, counts)
                else:
                    b.open = settle(t, b.cand, b.vals, b.up, [(cell, bit)], b.open, tally)
                    alive = b.open >= 0
                if not alive:
                    backtracks += 1
                elif not b.open:
                    solutions.append(tuple(b.vals))
                    if len(solutions) == limit:
                        return False
                else:
                    stack.append((b, branches(t, b.cand, b.up)))
            return True
        finally:
            stats["guesses"], stats["backtracks"] = guesses, backtracks
