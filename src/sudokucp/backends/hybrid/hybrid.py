"""The seeds' combination done well: logic to a fixpoint, then MRV search, propagating at each node.

The board and the propagation are the engine's (sudokucp.engine.propagation): `settle` places
the naked and hidden singles, `locked` sweeps pointing and claiming over the box-line crossings,
and the other techniques come from sudokucp.engine.techniques; `propagate` retries the singles
after any success, then the easiest technique first.

The search branches by the rule of option `branch` (branch.py): `degree` (the
default) takes the open cell with the fewest candidates, ties going to the one with the most open
peers; `smallest` is Knuth's exact-cover rule (the fewest candidates or, from three up, a digit
with two or three places left in a unit), the rule before `degree` and the rater's; `cell`,
`degree_unit` and `wdeg` (dom/wdeg: weights grown where guesses were refuted) are the others
measured in reports/hybrid.md. Option `restarts` (auto: `luby` on 25x25 grids, else `none`)
restarts a first-solution search from the root after runs of RESTART_UNIT times the Luby
sequence's guesses, each run after the first breaking ties at random (option `seed`), the
digits still lowest first; a run that exhausts the tree still proves the count. Each alternative
but the last runs on a copy of the board; an explicit stack keeps deep 25x25 searches free of
recursion. Every deduction holds in every solution, so counts with limit 2 or 0 are exact. The
clock is read every 16 guesses (not CHECK_EVERY: a guess costs a settle).

A variant (sudokucp.rules) runs the same search on its tables (engine/tables.py): its full groups
are the units that the singles, the locked sweep (over every two units that meet), the
techniques and the branching rules read; every group strikes its cells' peers, each cell starts
from its allowed digits, and each cage sum prunes its cells at the fixpoint of the singles.

Stats: guesses = alternatives tried at branch points, backtracks = guesses refuted by propagation,
per-technique counts (root and nodes together: naked_single and hidden_single count digits placed,
the others patterns), root_filled = cells filled by the root fixpoint, restarts = runs restarted,
logic_s = time of the root fixpoint, search_s = the rest; timed_out = 1 when the deadline stopped
the search.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from sudokucp.backends.base import TIMED_OUT, Backend, Found, SearchOutcome
from sudokucp.backends.hybrid.branch import RULES, Rule, random_tie
from sudokucp.clock import expired
from sudokucp.engine.propagation import Board, propagate, seed, settle
from sudokucp.engine.techniques import LEVELS, TECHNIQUES, resolve_techniques
from sudokucp.puzzle import Puzzle
from sudokucp.rules import CLASSIC_KIND, KINDS

SINGLES = tuple(LEVELS["singles"])
GUESS_MASK = 15  # the clock is read every 16 guesses: a guess costs a settle, not a few operations
RESTART_UNIT = 512  # guesses of the shortest run between restarts (times the Luby sequence)
RESTART_SIDE = 25  # restarts=auto: from this side up, first solution only


def luby() -> Iterator[int]:
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    i = 1
    while True:
        k = i.bit_length()
        j = i
        while j != (1 << k) - 1:  # descend into the copy of the sequence that j lies in
            j -= (1 << (k - 1)) - 1
            k = j.bit_length()
        yield 1 << (k - 1)
        i += 1


class Hybrid(Backend):
    """Logic to a fixpoint at the root, then MRV search with propagation at every node."""

    name = "hybrid"
    checker = {"classic": 0, "large": 1}  # generator.py measures the order
    description = "logic to a fixpoint, then MRV search with singles (or more) at every node"
    defaults = {"techniques": "locked", "node_techniques": "singles", "branch": "degree",
                "restarts": "auto", "seed": 0}
    choices = {"branch": tuple(RULES), "restarts": ("auto", "luby", "none")}
    tracer = None  # a sudokucp.teaching.trace.Tracer while a search is traced
    traceable = True
    kinds = frozenset({CLASSIC_KIND, *KINDS})  # over any full and non-full groups, sums, digits

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        # The singles are the search's own propagation: always on, whatever else is asked for.
        self.root = [n for n in resolve_techniques(self.options["techniques"]) if n not in SINGLES]
        self.nodes = [n for n in resolve_techniques(self.options["node_techniques"])
                      if n not in SINGLES]
        self.root_steps = [(name, TECHNIQUES[name]) for name in self.root]
        self.node_steps = [(name, TECHNIQUES[name]) for name in self.nodes]
        self.branches = RULES[self.options["branch"]]

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        t0 = time.perf_counter()
        tally = [0, 0]
        counts = dict.fromkeys(self.root + self.nodes, 0)
        stats: dict[str, float] = {"guesses": 0, "backtracks": 0}
        seeded, ok = seed(puzzle), False
        if seeded:
            b, todo = seeded
            tally[0] = len(todo)  # naked singles the givens leave
            ok = propagate(b, todo, self.root_steps, tally, counts)
        t1 = time.perf_counter()
        solutions = self.collector()
        complete = True
        if ok:
            stats["root_filled"] = len(b.cand) - b.open
            if not b.open:
                solutions.append(tuple(b.vals))
            else:
                complete = self._restarting(b, limit, deadline, solutions, tally, counts,
                                            stats)
        t2 = time.perf_counter()
        stats.update(naked_single=tally[0], hidden_single=tally[1], **counts)
        stats.update(logic_s=t1 - t0, search_s=t2 - t1)
        return solutions, complete, stats

    def _restarting(self, root: Board, limit: int, deadline: float | None, solutions: Found,
                    tally: list[int], counts: dict[str, int], stats: dict[str, float]) -> bool:
        """The search, restarted from the root with random ties after runs of Luby-sequence
        lengths when restarts apply (first solution only, untraced); True when a run exhausted
        the tree."""
        mode = self.options["restarts"]
        if mode == "auto":
            mode = "luby" if root.t.n >= RESTART_SIDE else "none"
        if mode == "none" or limit != 1 or self.tracer is not None:
            return bool(self._dfs(root, limit, deadline, solutions, tally, counts, stats))
        rng = random.Random(self.options["seed"])
        rule: Rule = self.branches
        for run, length in enumerate(luby()):
            stats["restarts"] = run
            done = self._dfs(root.copy(), limit, deadline, solutions, tally, counts, stats,
                             rule, RESTART_UNIT * length)
            if done is not None:
                return done
            rule = random_tie(rng)
        return False  # not reached: luby() never ends

    def _dfs(self, root: Board, limit: int, deadline: float | None, solutions: Found,
             tally: list[int], counts: dict[str, int], stats: dict[str, float],
             rule: Rule | None = None, budget: int = -1) -> bool | None:
        """Depth-first over copies of the board, on an explicit stack, by `rule` (the option's
        when None); True when the tree was exhausted, None when `budget` guesses ran out first.
        Adds guesses and backtracks (and timed_out) to `stats`."""
        extra, trace, branches = self.node_steps, self.tracer, rule or self.branches
        weighted = self.options["branch"] == "wdeg"
        weights, cell_units = [0] * len(root.free), root.t.cell_units
        guesses = backtracks = 0
        stack = [(root, branches(root, weights))]
        try:
            while stack:
                b, alternatives = stack[-1]
                guess = alternatives.pop()
                todo = [guess]
                if trace is not None:
                    trace.guess(*guess, b.vals)
                if alternatives:
                    b = b.copy()
                else:
                    stack.pop()  # the last alternative takes the board itself
                guesses += 1
                if not guesses & GUESS_MASK:
                    if expired(deadline):
                        stats[TIMED_OUT] = 1
                        return False
                    if guesses == budget:
                        return None
                if not (propagate(b, todo, extra, tally, counts) if extra
                        else settle(b, todo, tally)):
                    backtracks += 1
                    if weighted:
                        for u in cell_units[guess[0]]:
                            weights[u] += 1
                    if trace is not None:
                        trace.backtrack()
                elif not b.open:
                    solutions.append(tuple(b.vals))
                    if len(solutions) == limit:
                        return False
                else:
                    stack.append((b, branches(b, weights)))
            return True
        finally:
            stats["guesses"] += guesses
            stats["backtracks"] += backtracks
