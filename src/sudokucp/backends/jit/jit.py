"""Compiled searches (numba): candidate bitmasks and propagation to a fixpoint at every node.

Three kernels, imported on first use. `dfs` (dfs.py over layout.py, propagate.py, sums.py and
matching.py) keeps a row of candidate masks per depth on an explicit stack; at every node it
places naked and hidden singles to a fixpoint, then per `propagation`: pointing and claiming
(`locked`, the default below 16x16), Regin's matching filter on every changed unit (`alldiff`:
every naked and hidden subset) or both (`full`, the default from 16x16). It branches on the
open cell with the fewest candidates per failure weight of its units (`branch=wdeg`, dom/wdeg)
or the fewest candidates (`cell`).

`bands` (bands.py; the default at 9x9, BAND_SIDES) keeps a mask per digit and band of three
rows instead: one word holds a digit's rows, boxes and columns of a band, and a table of the
band's mini-row patterns does what pointing and claiming do within it; hidden singles per row
and column, box-to-column pointing and column-to-box claiming, naked singles over a band's
digits at once; it branches on the two-candidate cell whose digits strike the most places. It
takes 9x9 alone; `search=bands` leaves the other shapes to dfs.

`cdcl` (cdcl.py over cdcl_state.py, cdcl_propagate.py and cdcl_learn.py; the default from
25x25) learns clauses from conflicts over the same singles: first-UIP clauses whose struck digits
are replaced by the placements that struck them, then minimised (`minimise=recursive`, MiniSat's
rule, or `local`); VSIDS decisions that follow the target assignment, the longest conflict-free
trail so far (`phase=target`), the saved phase (`saved`) or place a digit (`true`); Luby (or
Glucose) restarts; with `probe=true`, failed-literal probing at the root. It is what solves the
25x25 minimal grids. Removed, where another path measured as well or better: a start-over with
phase=true and local minimising after `fallback` conflicts (the target phases without it take
fewer conflicts, reports/jit-notes.md); a dfs propagation before learning (`root`: on the first
8 gecode_25x25 grids every level above the kernel's own singles took more conflicts) and the
matching filter on each digit's views (`propagation=dual`: slower than `full` on gecode_16x16,
no fewer guesses); in dfs, Knuth's rule, a digit with fewer places in a unit (`branch=smallest`:
as slow as `cell` and slower than `wdeg` on gecode_16x16, top95 and forum_hardest_1106); in
cdcl, schedules against the 25x25 tail: stable and focused modes in turn, CaDiCaL's rephasing,
activities shaken at Luby-spaced points (`modes`, `rephase`, `shuffle`: no lighter tail on the
gecode_25x25 isomorphs without more conflicts on the other grids, reports/jit-notes.md).
Deductions hold in every solution, so counts (limit 2 or 0) are exact.

The deadline: a kernel runs in budgets (guesses, or conflicts and decisions) and the clock is read
between them, each budget sized to take about BUDGET_S. Compiling the one entry point a search
needs, or loading it from numba's cache on disk (kernels.py), happens once per process in
`_prepare`, before the clock: its seconds are in `build_s` of the first result of a shape, never
in `seconds`. `compile_ahead` compiles them all (`sudoku-cp backends --warm jit`). Batches of
one-line grids read and solved in compiled code: lines.py (`solve_lines`). Every compiled
function that allocates nothing is compiled without numba's reference counting (`_nrt=False`),
which otherwise counts each array argument in and out of each call with atomic operations.

A variant (sudokucp.rules) runs dfs on the tables of its layout, as a classic grid does on its
rows, columns and boxes (layout.tables): its full groups are the units (hidden singles, the
matching filter), every group makes peers, cage sums prune their cells (sums.py); pointing and
claiming need boxes, so a variant goes without them (locked: singles, full: alldiff). The dfs
version of its level is compiled (or loaded) when a variant is first solved, before the clock,
its seconds in `build_s`.
solve_many takes classic grids only (the arrays of solve_array and solve_lines carry no rules).

Stats: nodes = values placed, guesses = alternatives tried (dfs) or decisions (cdcl), backtracks =
guesses refuted by propagation (dfs) or conflicts (cdcl); cdcl adds learned, restarts and probed
(digits struck by probing).
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, Found, SearchOutcome
from sudokucp.backends.jit import ahead
from sudokucp.backends.jit.batches import Batch, Batches  # noqa: F401 (Batch: re-exported)
from sudokucp.backends.jit.kernels import LIGHT, STRONG, as_grid, learning_tables, ready
from sudokucp.backends.jit.layout import (
    EXHAUSTED,
    LIMIT,
    R_BACKTRACKS,
    R_FOUND,
    R_GUESSES,
    R_NODES,
    R_PHASE,
    R_STORED,
)
from sudokucp.backends.jit.layout import tables as dfs_tables
from sudokucp.backends.jit.runs import BUDGET_S, FIRST_BUDGET, _drive, _Plan  # noqa: F401
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Result
from sudokucp.rules import CLASSIC, CLASSIC_KIND, KINDS, Rules

LEVELS = ("singles", "locked", "alldiff", "full")  # in the dfs kernel's order
BRANCHES = ("cell", "wdeg")
PHASES = ("saved", "true", "target")  # cdcl_state's PHASE_* order
STRONG_SIDE = 16  # propagation=auto: `full` from this side up, `locked` below
MATCHING = LEVELS.index("alldiff")  # levels from this one up run the matching filter
LEARN_SIDE = 25  # search=auto: clause learning from this side up
LEARN_MAX_SIDE = 63  # and up to this one: its masks of n bits overflow at 64 (dfs takes 64)
BAND_SIDES = (9,)  # the band-wise kernel's sides (search=auto: there, where it measures faster)
CAPACITY = 1024  # solutions the buffer holds before the kernel hands them over


def dfs_version(level: int) -> int:
    """The dfs kernel's compiled version that propagates at a level (kernels.ready)."""
    return LIGHT if level < MATCHING else STRONG


class Jit(Batches, Backend):
    """Compiled bitmask searches: propagating depth-first search, or clause learning."""

    name = "jit"
    compiles_ahead = True
    max_side = 64  # candidates are int64 bitmasks, a bit per digit (bits.full_mask at 64)
    description = ("compiled (numba) bitmask search: singles to a fixpoint, smallest choice first "
                   "(band-wise masks at 9x9); clause learning for 25x25")
    extra = "jit"
    module = "numba"
    package = "numba"
    defaults = {"search": "auto", "propagation": "auto", "branch": "wdeg", "restarts": "luby",
                "phase": "target", "minimise": "recursive", "probe": False}
    choices = {"search": ("auto", "dfs", "bands", "cdcl"), "propagation": ("auto", *LEVELS),
               "branch": BRANCHES, "restarts": ("luby", "glucose"), "phase": PHASES,
               "minimise": ("recursive", "local")}

    stats_keys = ("nodes", "guesses", "backtracks")
    kinds = frozenset({CLASSIC_KIND, *KINDS})  # a variant: the dfs kernel on its groups
    _variant = False  # the puzzle solve() was given is one (prepare readies dfs for it)
    _variants_built: frozenset[int] = frozenset()  # the dfs versions readied for variants

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.plans: dict[tuple[int, int, int, int | None], _Plan] = {}  # by (r, c, limit, keep)

    def solve(self, puzzle: Puzzle, *, limit: int = 1, time_limit: float | None = None,
              keep: int | None = None) -> Result:
        """Backend.solve; a variant's kernel is readied by prepare(), before the clock."""
        self._variant = not puzzle.rules.classic
        return super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)

    def prepare(self, shape: Shape) -> float | None:
        """Backend.prepare; for a variant, the dfs version of its level compiled (or loaded)
        instead, once per instance and version whatever the shape."""
        if not self._variant:
            return super().prepare(shape)
        version = dfs_version(self.level(shape, classic=False))
        if version in self._variants_built:
            return None
        start = time.perf_counter()
        ready("dfs", "run", version)
        self._variants_built |= {version}
        return time.perf_counter() - start

    @classmethod
    def compile_ahead(cls, progress: Callable[[str, int, int], None] | None = None) -> str:
        """Compile (or load from numba's cache) every entry point of every kernel now, then build
        the 9x9 path's machine code ahead (ahead.py), telling `progress` (name, index, total)
        before each step; what was done, in a sentence."""
        from sudokucp.backends.jit.kernels import KERNELS, entries, warm_all

        built = warm_all(progress)
        count = sum(len(entries(kernel)) for kernel in KERNELS)
        return (f"{count} kernels compiled or loaded, later runs load them from numba's cache; "
                f"the 9x9 path's machine code {built}")

    @classmethod
    def load(cls) -> float:
        """Backend.load; where the 9x9 path's machine code was built ahead, that module alone
        (numba is imported by the first kernel it lacks, in that kernel's compile time)."""
        start = time.perf_counter()
        if ahead.module() is None:
            return super().load()
        return time.perf_counter() - start

    @classmethod
    def available(cls) -> bool:
        """Backend.available; where the machine code was built ahead, numba is looked for, not
        imported (its import is most of a one-grid command's time)."""
        if ahead.mode() == "off" or not ahead.module_path().is_file():
            return super().available()
        return importlib.util.find_spec(cls.module) is not None

    def kernel(self, shape: Shape) -> str:
        """The kernel that searches a shape: "cdcl", "bands" or "dfs" (auto: cdcl from
        LEARN_SIDE to LEARN_MAX_SIDE, bands at BAND_SIDES unless a dfs option is set, else dfs;
        bands: dfs at the other sides; cdcl: dfs past LEARN_MAX_SIDE)."""
        name = self.options["search"]
        if name == "cdcl" and shape.side > LEARN_MAX_SIDE:
            return "dfs"
        if name == "auto":
            if LEARN_SIDE <= shape.side <= LEARN_MAX_SIDE:
                return "cdcl"
            dfs_options = self.options["propagation"] != "auto" or self.options["branch"] != "wdeg"
            return "bands" if shape.side in BAND_SIDES and not dfs_options else "dfs"
        if name == "bands" and shape.side not in BAND_SIDES:
            return "dfs"
        return name

    def level(self, shape: Shape, classic: bool = True) -> int:
        """The dfs kernel's propagation level (auto: `full` from STRONG_SIDE up, else `locked`);
        a variant's groups need hold no boxes, so it goes without pointing and claiming (locked:
        singles, full: alldiff)."""
        name = self.options["propagation"]
        if name == "auto":
            name = "full" if shape.side >= STRONG_SIDE else "locked"
        level = LEVELS.index(name)
        return level if classic else level - level % 2

    def _prepare(self, shape: Shape) -> None:
        """The entry point that searches one grid of the shape compiled (once per process; only
        that one) and the tables it reads."""
        kernel = self.kernel(shape)
        ready(kernel, "run", dfs_version(self.level(shape)) if kernel == "dfs" else 0)
        if kernel == "dfs":
            dfs_tables(shape, CLASSIC)
        if kernel == "cdcl":
            learning_tables(shape)

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        shape, keep = puzzle.shape, self._keep
        if puzzle.rules.classic:
            key = (shape.box_rows, shape.box_cols, limit, keep)  # ints: a Shape hashes slowly
            plan = self.plans.get(key)
            if plan is None:
                plan = self.plans[key] = self._plan(shape, limit, keep)
        else:  # a variant: the dfs kernel on the tables of its layout
            handover, capacity = buffer_size(limit, keep)
            k, state = self._state(shape, limit, int(handover), capacity, rules=puzzle.rules)
            plan = _Plan("dfs", k, shape, limit, handover, capacity, state)
        solutions = Found(keep)
        search = self._cdcl if plan.kernel == "cdcl" else self._dfs
        status, timed_out, stats = search(plan, as_grid(puzzle.cells), solutions, deadline)
        if timed_out:
            stats[TIMED_OUT] = 1
        return solutions, status == EXHAUSTED, stats

    def _plan(self, shape: Shape, limit: int, keep: int | None) -> _Plan:
        """What every search of a shape, limit and keep shares: the kernel, the solution buffer's
        size and, for dfs and bands, their state (reused from search to search)."""
        kernel = self.kernel(shape)
        handover, capacity = buffer_size(limit, keep)
        if kernel == "cdcl":
            return _Plan(kernel, ready(kernel), shape, limit, handover, capacity)
        k, state = self._state(shape, limit, int(handover), capacity)
        return _Plan(kernel, k, shape, limit, handover, capacity, state)

    def _state(self, shape: Shape, limit: int, keep: int, capacity: int, entry: str = "run",
               rules: Rules = CLASSIC) -> tuple[ModuleType, Any]:
        """A depth-first kernel (dfs or bands) with `entry` compiled, and a fresh state of its
        (tables of the shape under `rules`, geo, buffers with a solution buffer of `capacity`
        grids)."""
        if rules.classic and self.kernel(shape) == "bands":
            k = ready("bands", entry)
            return k, k.state(k.layout(limit, keep), capacity)
        level = self.level(shape, rules.classic)
        k, found = ready("dfs", entry, dfs_version(level)), dfs_tables(shape, rules)
        geo = k.layout(shape.side, shape.box_rows, shape.box_cols, level,
                       BRANCHES.index(self.options["branch"]), limit, keep, len(found[0]),
                       len(found[5]))
        return k, k.state(found, geo, capacity)

    def _dfs(self, plan: _Plan, grid: Any, solutions: Found, deadline: float | None
             ) -> tuple[int, bool, dict]:
        """A depth-first kernel (dfs, bands) on the plan's state."""
        k, state = plan.k, plan.state
        regs, sols = state.regs, state.sols
        regs[R_PHASE] = 0  # start afresh: the kernel resets the rest
        status = k.run(grid, state, -1 if deadline is None else FIRST_BUDGET)
        timed_out = False
        if status in (LIMIT, EXHAUSTED):  # the common case: one call, no clock
            counts = regs.tolist()
            for i in range(counts[R_STORED]):
                solutions.append(sols[i].tobytes())  # uint8 digits: a tuple of ints once kept
        else:
            status, timed_out = _drive(lambda budget: k.run(grid, state, budget), regs, sols,
                                       R_STORED, solutions, deadline, status)
            counts = regs.tolist()
        if not plan.handover:
            solutions.count += counts[R_FOUND] - counts[R_STORED]  # counted, not kept
        return status, timed_out, {"nodes": counts[R_NODES], "guesses": counts[R_GUESSES],
                                   "backtracks": counts[R_BACKTRACKS]}

    def _cdcl(self, plan: _Plan, grid: Any, solutions: Found, deadline: float | None
              ) -> tuple[int, bool, dict]:
        """The clause-learning kernel on fresh arrays (the pool grows when it must)."""
        k, handover, options = plan.k, plan.handover, self.options
        learning = k.state(learning_tables(plan.shape), plan.limit, int(handover), plan.capacity)
        regs = learning.regs
        regs[k.Q_POLARITY] = PHASES.index(options["phase"])
        regs[k.Q_GLUCOSE] = options["restarts"] == "glucose"
        regs[k.Q_MINIMIZE] = options["minimise"] == "recursive"
        regs[k.Q_PROBE] = options["probe"]

        def step(budget: int) -> int:
            nonlocal learning
            status = k.run(grid, learning, budget)
            while status == k.GROW:  # clauses it may not drop (blocking ones) filled the pool
                learning = k.grow(learning)
                status = k.run(grid, learning, budget)
            return status

        status, timed_out = _drive(step, regs, learning.sols, k.Q_STORED, solutions, deadline)
        if not handover:
            solutions.count += int(regs[k.Q_FOUND] - regs[k.Q_STORED])
        return status, timed_out, {"nodes": int(regs[k.Q_NODES]),
                                   "guesses": int(regs[k.Q_DECISIONS]),
                                   "backtracks": int(regs[k.Q_CONFLICTS]),
                                   "learned": int(regs[k.Q_LEARNED]),
                                   "restarts": int(regs[k.Q_RESTARTS]),
                                   "probed": int(regs[k.Q_PROBED])}


def buffer_size(limit: int, keep: int | None) -> tuple[bool, int]:
    """(handover, capacity) of a depth-first search's solution buffer: keep=None, every grid
    comes back, the buffer emptied whenever it fills; else the kernel keeps the first few and
    counts the rest itself (constant memory)."""
    if keep is None:
        return True, min(limit, CAPACITY) if limit else CAPACITY
    return False, max(1, min(limit, keep) if limit else keep)
