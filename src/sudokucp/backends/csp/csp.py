"""The textbook CSP backtracking of AI courses (Russell & Norvig, ch. 6) over binary != constraints.

Variables are the cells, domains the digits 1..N, and every pair of peers is one binary constraint
x != y. The search assigns one variable per level; options choose, as the course does:

- propagation: `none` (a value is checked against the assigned neighbours), `fc` (forward checking:
  the value leaves the domains of the unassigned neighbours) or `mac` (arc consistency maintained
  with AC-3 after every assignment, and once at the root);
- order: `static` (row-major), `mrv` (fewest values left) or `dom/wdeg` (fewest values per
  weighted degree; a constraint's weight grows each time it wipes a domain out);
- values: `ascending` or `lcv` (least constraining value first).

Glossary: x, y = variables (cell indexes), d[x] = domain bitmask (bit v-1 for digit v), v = a
digit's bit, trail = (cell, old domain) pairs undone on backtrack, w[x][i] = weight of the
constraint between x and its i-th peer. The heuristics live in order.py.

A variant (sudokucp.rules) adds its groups' pairs to the binary constraints, starts each domain
at its candidates, and keeps each cage sum as an n-ary constraint: after every assignment (and at
the root) a value stays in a free cell of the cage only if the other free cells can still make
what is left of the sum with distinct digits of their domains (bounds: the smallest and the
largest such sums); with `none`, the sum is only checked.

Stats: nodes = values assigned; checks = constraint checks (one test of x != y on a pair of values:
against each assigned neighbour until a conflict with `none`, each value of a revised domain with
`fc`, AC-3's REVISE scanning for a support with `mac`); revisions = arcs revised; guesses = values
tried at variables with two or more; backtracks = variables undone after every value failed.
"""

from __future__ import annotations

import sys
from collections import deque

from sudokucp.backends.base import CHECK_MASK, TIMED_OUT, Backend, Found, SearchOutcome
from sudokucp.backends.csp.order import pick_variable, value_order
from sudokucp.clock import expired
from sudokucp.layout import layout
from sudokucp.puzzle import Puzzle, geometry
from sudokucp.rules import CLASSIC_KIND, KINDS, reachable


class _Stop(Exception):
    """The deadline passed: unwinds the search."""


class Network:
    """The constraint network of one puzzle and the search state over it."""

    def __init__(self, puzzle: Puzzle, propagation: str, weighted: bool) -> None:
        n = puzzle.side
        self.value = list(puzzle.cells)  # 0 = unassigned
        self.full = (1 << n) - 1
        self.d = [self.full if not v else 1 << (v - 1) for v in puzzle.cells]
        self.sums: list[tuple[tuple[int, ...], int]] = []  # a killer's cages with their sums
        self.cell_sums: list[list[int]] = []  # per cell, its cages in `sums`
        if puzzle.rules.classic:
            self.peers = geometry(puzzle.shape).peers
        else:
            self._variant(puzzle)
        self.propagation = propagation
        self.trail: list[tuple[int, int]] = []
        self.stats = {"nodes": 0, "checks": 0, "revisions": 0, "guesses": 0, "backtracks": 0}
        self.w = [[1] * len(p) for p in self.peers] if weighted else None
        self.slot = [{y: i for i, y in enumerate(p)} for p in self.peers] if weighted else None

    def _variant(self, puzzle: Puzzle) -> None:
        """A variant's peers, candidate domains and cage sums."""
        lay = layout(puzzle.shape, puzzle.rules)
        self.peers = lay.peers
        self.allowed = lay.allowed
        self.d = [d & lay.allowed[x] for x, d in enumerate(self.d)]
        self.sums = list(lay.sums)
        self.cell_sums = [[] for _ in self.d]
        for k, (cells, _) in enumerate(self.sums):
            for x in cells:
                self.cell_sums[x].append(k)

    allowed: tuple[int, ...] | None = None  # a variant's candidates per cell (None: any digit)

    # --- consistency ----------------------------------------------------------------------------

    def givens_clash(self) -> bool:
        """Whether two givens of one unit hold the same digit."""
        v = self.value
        if not all(self.d):  # a given outside its candidates
            return True
        return any(v[x] and any(v[y] == v[x] for y in self.peers[x]) for x in range(len(v)))

    def narrow_sum(self, k: int, narrowed: list[int]) -> bool:
        """Cage k's free cells narrowed to the values that leave the rest of its sum reachable
        (appended to `narrowed`); only a check with `none`. False when the sum is out of reach."""
        cells, total = self.sums[k]
        used, left, free = 0, total, []
        for x in cells:
            if self.value[x]:
                used |= 1 << (self.value[x] - 1)
                left -= self.value[x]
            else:
                free.append(x)
        if not free:
            return left == 0
        union = 0
        for y in free:
            union |= self.legal(y)  # the domain, or with `none` the values no neighbour holds
        union &= ~used
        if not reachable(union, len(free), left):
            return False
        if self.propagation == "none":
            return True
        for y in free:
            dy, keep = self.d[y], 0
            self.stats["checks"] += dy.bit_count()
            for bit in bits_of(dy & ~used):
                if reachable(union & ~bit, len(free) - 1, left - bit.bit_length()):
                    keep |= bit
            if keep != dy:
                self.shrink(y, keep)
                if not keep:
                    return False
                narrowed.append(y)
        return True

    def narrow_sums(self, cages: list[int] | range) -> list[int] | None:
        """The cells narrowed by the sums of `cages`, or None when one is out of reach."""
        narrowed: list[int] = []
        for k in cages:
            self.stats["revisions"] += 1
            if not self.narrow_sum(k, narrowed):
                return None
        return narrowed

    def consistent(self, x: int, digit: int) -> bool:
        """`none`: digit against each assigned neighbour, counting checks until a conflict."""
        checks = 0
        for y in self.peers[x]:
            if self.value[y]:
                checks += 1
                if self.value[y] == digit:
                    self.stats["checks"] += checks
                    if self.w is not None:
                        self.bump(x, y)
                    return False
        self.stats["checks"] += checks
        return True

    def legal(self, x: int) -> int:
        """The values of x that no assigned neighbour holds (its domain, when propagating)."""
        if self.propagation != "none":
            return self.d[x]
        used = 0
        for y in self.peers[x]:
            if self.value[y]:
                used |= 1 << (self.value[y] - 1)
        return (self.full if self.allowed is None else self.allowed[x]) & ~used

    # --- propagation ----------------------------------------------------------------------------

    def shrink(self, y: int, new: int) -> None:
        """Set d[y] to `new`, remembering the old domain on the trail."""
        self.trail.append((y, self.d[y]))
        self.d[y] = new

    def forward_check(self, x: int) -> bool:
        """FC: x's value leaves its unassigned neighbours' domains; False on a wipe-out."""
        bit = self.d[x]
        for y in self.peers[x]:
            if self.value[y]:
                continue
            dy = self.d[y]
            self.stats["revisions"] += 1
            self.stats["checks"] += dy.bit_count()
            if dy & bit:
                self.shrink(y, dy ^ bit)
                if not self.d[y]:
                    if self.w is not None:
                        self.bump(x, y)
                    return False
        return True

    def revise(self, y: int, x: int) -> bool:
        """AC-3's REVISE(y, x) for y != x: y loses a value when d[x] holds that value alone.
        True when d[y] changed. Checks count the pairs tried while looking for a support."""
        dx, dy = self.d[x], self.d[y]
        self.stats["revisions"] += 1
        low = dx & -dx
        self.stats["checks"] += dy.bit_count() + (1 if dy & low and dx != low else 0)
        if dx != low or not dy & dx:
            return False
        self.shrink(y, dy ^ dx)
        return True

    def ac3(self, arcs: deque[tuple[int, int]]) -> bool:
        """Make every arc of the queue (and those it wakes) consistent; False on a wipe-out."""
        queued = set(arcs)
        while arcs:
            arc = arcs.popleft()
            queued.discard(arc)
            y, x = arc
            if not self.revise(y, x):
                continue
            if not self.d[y]:
                if self.w is not None:
                    self.bump(x, y)
                return False
            for z in self.peers[y]:
                if z != x and not self.value[z] and (z, y) not in queued:
                    arcs.append((z, y))
                    queued.add((z, y))
        return True

    def arcs_into(self, x: int) -> deque[tuple[int, int]]:
        """The arcs (y, x) of x's unassigned neighbours y."""
        return deque((y, x) for y in self.peers[x] if not self.value[y])

    def root(self) -> bool:
        """The domains before the search: the givens forward checked (`fc`), all arcs made
        consistent (`mac`); False when that proves the puzzle unsolvable."""
        if self.sums and self.narrow_sums(range(len(self.sums))) is None:
            return False
        if self.propagation == "none":
            return True
        given = [x for x, v in enumerate(self.value) if v]
        if self.propagation == "fc":
            return all(self.forward_check(x) for x in given)
        arcs = deque((y, x) for x in range(len(self.d)) for y in self.peers[x]
                     if not self.value[y])
        return self.ac3(arcs)

    def infer(self, x: int) -> bool:
        """The propagation after assigning x; False on a wipe-out or a cage sum out of reach."""
        narrowed: list[int] = []
        if self.sums and self.cell_sums[x]:
            found = self.narrow_sums(self.cell_sums[x])
            if found is None:
                return False
            narrowed = found
        if self.propagation == "fc":
            return self.forward_check(x)
        if self.propagation == "mac":
            arcs = self.arcs_into(x)
            for y in narrowed:
                arcs += self.arcs_into(y)
            return self.ac3(arcs)
        return True

    def undo(self, mark: int) -> None:
        """Restore the domains changed since the trail had `mark` entries."""
        trail, d = self.trail, self.d
        while len(trail) > mark:
            y, old = trail.pop()
            d[y] = old

    def bump(self, x: int, y: int) -> None:
        """dom/wdeg: the constraint x != y caused a failure, its weight grows by one."""
        self.w[x][self.slot[x][y]] += 1
        self.w[y][self.slot[y][x]] += 1


def bits_of(mask: int) -> list[int]:
    """The single bits of a mask, lowest first."""
    out = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        out.append(bit)
    return out


class Search:
    """BACKTRACK(assignment) with the chosen propagation and orders."""

    def __init__(self, net: Network, order: str, values: str, limit: int,
                 deadline: float | None, solutions: Found) -> None:
        self.net, self.order, self.values = net, order, values
        self.limit, self.deadline, self.solutions = limit, deadline, solutions
        self.open = [x for x, v in enumerate(net.value) if not v]  # row-major: the static order

    def run(self) -> bool:
        """True when the tree was exhausted, False when the limit stopped it."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 4 * len(self.open) + 1000))
        try:
            return not self.backtrack(0)
        finally:
            sys.setrecursionlimit(old)

    def backtrack(self, depth: int) -> bool:
        """Assign open variables from `depth` on; True when the search must stop."""
        net = self.net
        if depth == len(self.open):
            self.solutions.append(tuple(net.value))
            return len(self.solutions) == self.limit
        x = pick_variable(self, depth)
        branching = net.legal(x).bit_count() > 1
        for bit in value_order(self, x, net.d[x]):  # `none`: every digit, checked one by one
            digit = bit.bit_length()
            if net.propagation == "none" and not net.consistent(x, digit):
                continue
            self.tick(branching)
            mark = len(net.trail)
            net.value[x] = digit
            net.shrink(x, bit)
            if net.infer(x) and self.backtrack(depth + 1):
                return True
            net.value[x] = 0
            net.undo(mark)
        net.stats["backtracks"] += 1
        return False

    def tick(self, branching: bool) -> None:
        """Count a node (and a guess at a real choice); look at the clock every CHECK_EVERY."""
        stats = self.net.stats
        stats["nodes"] += 1
        stats["guesses"] += branching
        if not stats["nodes"] & CHECK_MASK and expired(self.deadline):
            raise _Stop


class CSP(Backend):
    """Backtracking over cell variables with none / forward checking / MAC, and course heuristics.

    propagation: none, fc or mac; order: static, mrv or dom/wdeg; values: ascending or lcv.
    """

    name = "csp"
    description = ("textbook CSP backtracking: propagation none|fc|mac, order static|mrv|dom/wdeg, "
                   "values ascending|lcv")
    defaults = {"propagation": "fc", "order": "mrv", "values": "ascending"}
    choices = {"propagation": ("none", "fc", "mac"), "order": ("static", "mrv", "dom/wdeg"),
               "values": ("ascending", "lcv")}
    stats_keys = ("nodes", "checks", "revisions", "guesses", "backtracks")
    kinds = frozenset({CLASSIC_KIND, *KINDS})

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        net = Network(puzzle, self.options["propagation"], self.options["order"] == "dom/wdeg")
        solutions = self.collector()
        if net.givens_clash() or not net.root():
            return solutions, True, dict(net.stats)
        search = Search(net, self.options["order"], self.options["values"], limit, deadline,
                        solutions)
        try:
            complete = search.run()
        except _Stop:
            return solutions, False, {**net.stats, TIMED_OUT: 1}
        return solutions, complete, dict(net.stats)
