"""Compiled searches (numba): candidate bitmasks and propagation to a fixpoint at every node.

Two kernels, imported on first use. `dfs` (dfs.py over layout.py, propagate.py and
matching.py) keeps a row of candidate masks per depth on an explicit stack; at every node it
places naked and hidden singles to a fixpoint, then per `propagation`: pointing and claiming
(`locked`, the default below 16x16), Regin's matching filter on every changed unit (`alldiff`:
every naked and hidden subset), both (`full`, the default from 16x16), or the filter on each
digit's row x column, row x box and column x box views too (`dual`: every fish and locked set).
It branches on the open cell with the fewest candidates per failure weight of its units
(`branch=wdeg`, dom/wdeg), the fewest candidates (`cell`), or a digit with fewer places in a unit
when there is one (`smallest`, Knuth's rule).

`cdcl` (cdcl.py over cdcl_state.py, cdcl_propagate.py and cdcl_learn.py; the default from
25x25) learns clauses from conflicts over the same singles: first-UIP clauses whose struck digits
are replaced by the placements that struck them, then minimised (`minimise=recursive`, MiniSat's
rule, or `local`); VSIDS decisions that follow the saved phase (`phase=saved`) or place a digit
(`phase=true`); Luby (or Glucose) restarts; after a root propagation at the dfs level `root` and,
with `probe=true`, failed-literal probing. A first-solution search still unsolved after `fallback`
conflicts (0: never) starts over placing digits with local minimising, the settings that cost more
at the median but fail less in the tail. It is what solves the 25x25 minimal grids. Deductions hold
in every solution, so counts (limit 2 or 0) are exact in both kernels.

The deadline: a kernel runs in budgets (guesses, or conflicts and decisions) and the clock is read
between them, each budget sized to take about BUDGET_S. Importing a kernel and compiling it, or
loading it from numba's cache on disk, happens once per process before the first timed search
(solve() calls warm() before Backend.solve starts its clock); its seconds are `compile_s` in the
stats of the first result that used it, never in `seconds`.

Stats: nodes = values placed, guesses = alternatives tried (dfs) or decisions (cdcl), backtracks =
guesses refuted by propagation (dfs) or conflicts (cdcl); cdcl adds learned, restarts, probed
(digits struck by probing) and fallback (1 when the search started over), summed over both runs.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, Found, SearchOutcome
from sudokucp.clock import expired
from sudokucp.puzzle import Puzzle, Shape, geometry
from sudokucp.result import Result

LEVELS = ("singles", "locked", "alldiff", "full", "dual")  # in the dfs kernel's order
BRANCHES = ("cell", "smallest", "wdeg")
FALLBACK = {"phase": "true", "minimise": "local"}  # cdcl, first solution: after `fallback`
STOPPED = -1  # _learn: the conflicts passed the cap
STRONG_SIDE = 16  # propagation=auto: `full` from this side up, `locked` below
LEARN_SIDE = 25  # search=auto: clause learning from this side up
FIRST_BUDGET = 256  # guesses (or conflicts and decisions) before the first look at the clock
BUDGET_S = 0.005  # aim of each later budget, in seconds
CAPACITY = 1024  # solutions the buffer holds before the kernel hands them over

logger = logging.getLogger(__name__)
_pending: dict[str, float] = {}  # kernel -> seconds of its one-off compile, until reported


def _np() -> ModuleType:
    import numpy

    return numpy


def _grid(cells: tuple[int, ...]) -> Any:
    """The cells as the kernels read them: a uint8 array (the cheapest to make), writable like
    the rows of solve_array's batches, so that numba compiles one version of each kernel."""
    np = _np()
    return np.frombuffer(bytearray(cells), np.uint8)


def refuse_values_out_of_range(np: ModuleType, grids: Any, shape: Shape) -> None:
    """A ValueError naming the first of the grids (rows) with a value outside 0 (blank) to N."""
    if grids.size and (grids.min() < 0 or grids.max() > shape.side):  # the rows only then
        bad = np.flatnonzero(((grids < 0) | (grids > shape.side)).any(axis=1))
        raise ValueError(f"grid {bad[0]} holds a value outside 0-{shape.side} "
                         f"({bad.size} grids do)")


@cache
def _tables(shape: Shape) -> tuple[Any, Any, Any]:
    """units (3N x N), peers (cells x peers) and cell_units (cells x 3) as int64 arrays."""
    np = _np()
    g = geometry(shape)
    return (np.array(g.units, np.int64), np.array(g.peers, np.int64),
            np.array(g.cell_units, np.int64))


@cache
def _positions(shape: Shape) -> Any:
    """The place of each cell in its row, column and box (for the learning kernel)."""
    from sudokucp.backends.jit.cdcl_state import positions

    units, _, cunits = _tables(shape)
    return positions(units, cunits)


@contextmanager
def _cache_folder() -> Iterator[None]:
    """While the kernel modules are imported, numba's cache folder is one named by a hash of
    every kernel module's source: numba checks only a function's own file, so an edit to one
    module would otherwise load another's machine code compiled against the old one."""
    import numba

    folder = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.read_bytes())
    base = numba.config.CACHE_DIR or str(folder / "__pycache__")
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = os.path.join(base, f"jit-{digest.hexdigest()[:16]}")
    try:
        yield
    finally:
        numba.config.CACHE_DIR = saved


def _cached(module: str) -> bool:
    """Whether numba's cache folder (as set by _cache_folder) holds machine code of `module`."""
    import numba

    folder = Path(numba.config.CACHE_DIR)
    return folder.is_dir() and any(folder.rglob(f"{module}.*.nbi"))


@cache
def _say_compiling() -> None:
    """Tell, once per process, that the first use compiles for a while (the CLI shows it)."""
    logger.info("compiling the jit kernels (first use; cached afterwards)…")


@cache
def warm(kernel: str) -> ModuleType:
    """Import and compile a kernel ("dfs" or "cdcl") once per process, by solving an empty 4x4
    grid; its seconds wait in _pending for the first result that uses it."""
    np = _np()
    shape = Shape(2, 2)
    grid = _grid((0,) * 16)
    if kernel == "cdcl":
        warm("dfs")  # its propagation prepares the root
    t0 = time.perf_counter()
    with _cache_folder():
        if not _cached(kernel):
            _say_compiling()
        if kernel == "dfs":
            from sudokucp.backends.jit import dfs as module
        else:
            from sudokucp.backends.jit import cdcl as module
    if kernel == "dfs":
        geo = module.layout(4, 2, 2, 0, 0, 1, 1)
        buffers = module.buffers(geo, 1)
        module.run(grid, *_tables(shape), geo, *buffers, -1)
        module.start(grid, *_tables(shape), geo, *buffers[:3], *buffers[4:])
        module.run_many(np.zeros((1, 16), np.uint8), *_tables(shape), geo,
                        np.zeros((1, 16), np.int64), np.zeros(1, np.int64),
                        np.zeros(1, np.bool_), np.zeros((1, 3), np.int64))
    else:
        module.run(grid, np.full(16, 15, np.int64), *_tables(shape), _positions(shape),
                   *module.state(4, 1, 1, 1), -1)
    _pending[kernel] = time.perf_counter() - t0
    return module


@dataclass(frozen=True)
class Batch:
    """What solve_many returns, one row per grid: the first solution (zeros when none), the
    solutions counted (up to the limit), whether the search was exhausted, and the stats."""

    solutions: Any  # int64 (grids x cells)
    counts: Any  # int64 (grids,)
    complete: Any  # bool (grids,)
    stats: Any  # int64 (grids x 3): nodes, guesses, backtracks
    seconds: float  # the compiled call alone


@dataclass(frozen=True)
class _Plan:
    """The searches of one shape, limit and keep: kernel, module, buffer size, dfs buffers."""

    kernel: str
    k: ModuleType
    shape: Shape
    limit: int
    handover: bool  # every solution comes back (keep=None)
    capacity: int
    args: tuple  # dfs: tables, geo and buffers, reused; cdcl: ()

    @property
    def dfs(self) -> bool:
        return self.kernel == "dfs"


class Jit(Backend):
    """Compiled bitmask searches: propagating depth-first search, or clause learning."""

    name = "jit"
    description = ("compiled (numba) bitmask search: singles to a fixpoint, smallest choice first; "
                   "clause learning for 25x25")
    extra = "jit"
    module = "numba"
    package = "numba"
    defaults = {"search": "auto", "propagation": "auto", "branch": "wdeg", "restarts": "luby",
                "phase": "saved", "root": "singles", "minimise": "recursive", "probe": False,
                "fallback": 30000}
    choices = {"search": ("auto", "dfs", "cdcl"), "propagation": ("auto", *LEVELS),
               "branch": BRANCHES, "restarts": ("luby", "glucose"), "phase": ("true", "saved"),
               "root": LEVELS, "minimise": ("recursive", "local")}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._local = threading.local()  # per thread: plans of searches by (r, c, limit, keep)

    def kernel(self, shape: Shape) -> str:
        """The kernel that searches a shape: "cdcl" or "dfs" (auto: cdcl from LEARN_SIDE up)."""
        name = self.options["search"]
        if name == "auto":
            return "cdcl" if shape.side >= LEARN_SIDE else "dfs"
        return name

    def level(self, shape: Shape) -> int:
        """The dfs kernel's propagation level (auto: `full` from STRONG_SIDE up, else `locked`)."""
        name = self.options["propagation"]
        if name == "auto":
            name = "full" if shape.side >= STRONG_SIDE else "locked"
        return LEVELS.index(name)

    def solve(self, puzzle: Puzzle, *, limit: int = 1, time_limit: float | None = None,
              keep: int | None = None) -> Result:
        """As Backend.solve, with the kernel compiled first so that `seconds` never holds it."""
        if self.available():
            warm(self.kernel(puzzle.shape))
        return super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        shape, keep = puzzle.shape, self._keep
        plans = getattr(self._local, "plans", None)
        if plans is None:
            plans = self._local.plans = {}
        key = (shape.box_rows, shape.box_cols, limit, keep)  # ints: a Shape hashes slowly
        plan = plans.get(key)
        if plan is None:
            plan = plans[key] = self._plan(shape, limit, keep)
        grid = _grid(puzzle.cells)
        solutions = Found(keep)
        if plan.dfs:
            status, timed_out, stats = self._dfs(plan, grid, solutions, deadline)
        else:
            status, timed_out, stats = self._cdcl(plan, grid, solutions, deadline)
        if timed_out:
            stats[TIMED_OUT] = 1
        if _pending:
            for name in {plan.kernel, "dfs"} & _pending.keys():  # cdcl uses dfs at the root
                stats["compile_s"] = stats.get("compile_s", 0.0) + _pending.pop(name)
        return solutions, status == plan.k.EXHAUSTED, stats

    def _plan(self, shape: Shape, limit: int, keep: int | None) -> _Plan:
        """What every search of a shape, limit and keep shares: the kernel, the solution buffer's
        size and, for dfs, its tables and buffers (reused from one search to the next)."""
        kernel = self.kernel(shape)
        k = warm(kernel)
        # keep=None: every grid comes back, the buffer emptied whenever it fills; else the kernel
        # keeps the first few and counts the rest itself (constant memory)
        handover = keep is None
        if handover:
            capacity = min(limit, CAPACITY) if limit else CAPACITY
        else:
            capacity = max(1, min(limit, keep) if limit else keep)
        args: tuple = ()
        if kernel == "dfs":
            geo = k.layout(shape.side, shape.box_rows, shape.box_cols, self.level(shape),
                           BRANCHES.index(self.options["branch"]), limit, int(handover))
            args = (*_tables(shape), geo, *k.buffers(geo, capacity))
        return _Plan(kernel, k, shape, limit, handover, capacity, args)

    def _dfs(self, plan: _Plan, grid: Any, solutions: Found, deadline: float | None
             ) -> tuple[int, bool, dict]:
        """The propagating depth-first kernel, on the plan's buffers."""
        k, args = plan.k, plan.args
        regs, sols = args[6], args[7]
        regs[k.R_PHASE] = 0  # start afresh: the kernel resets the rest
        status = k.run(grid, *args, -1 if deadline is None else FIRST_BUDGET)
        timed_out = False
        if status == k.LIMIT or status == k.EXHAUSTED:  # the common case: one call, no clock
            counts = regs.tolist()
            for i in range(counts[k.R_STORED]):
                solutions.append(sols[i].tobytes())  # uint8 digits: a tuple of ints once kept
        else:
            status, timed_out = _drive(lambda budget: k.run(grid, *args, budget), k, regs, sols,
                                       k.R_STORED, solutions, deadline, status)
            counts = regs.tolist()
        if not plan.handover:
            solutions.count += counts[k.R_FOUND] - counts[k.R_STORED]  # counted, not kept
        return status, timed_out, {"nodes": counts[k.R_NODES], "guesses": counts[k.R_GUESSES],
                                   "backtracks": counts[k.R_BACKTRACKS]}

    def _cdcl(self, plan: _Plan, grid: Any, solutions: Found, deadline: float | None
              ) -> tuple[int, bool, dict]:
        """The clause-learning kernel from the candidates that the dfs kernel's `root`
        propagation leaves; a first-solution search that passes `fallback` conflicts starts over
        with the FALLBACK settings, which cost more at the median and fail less in the tail."""
        k, shape, options = plan.k, plan.shape, self.options
        masks = self._root_masks(shape, grid)
        if masks is None:  # the root propagation found a contradiction: no solution
            return k.EXHAUSTED, False, {"nodes": 0, "guesses": 0, "backtracks": 0}
        starts_over = plan.limit == 1 and not FALLBACK.items() <= options.items()
        cap = max(options["fallback"], 0) if starts_over else 0
        status, timed_out, stats = self._learn(plan, grid, masks, solutions, deadline, options,
                                               cap)
        if status != STOPPED:
            return status, timed_out, stats | {"fallback": 0}
        status, timed_out, more = self._learn(plan, grid, masks, solutions, deadline,
                                              {**options, **FALLBACK}, 0)
        return status, timed_out, {name: stats[name] + more[name] for name in stats} | {
            "fallback": 1}

    def _learn(self, plan: _Plan, grid: Any, masks: Any, solutions: Found,
               deadline: float | None, options: dict, cap: int) -> tuple[int, bool, dict]:
        """One clause-learning search on fresh arrays (the pool grows when it must) with these
        options; STOPPED once it has passed `cap` conflicts (0: no cap)."""
        k, shape, limit, handover = plan.k, plan.shape, plan.limit, plan.handover
        arrays = list(k.state(shape.side, limit, int(handover), plan.capacity))
        regs, sols = arrays[9], arrays[12]
        regs[k.Q_POSITIVE] = options["phase"] == "true"
        regs[k.Q_GLUCOSE] = options["restarts"] == "glucose"
        regs[k.Q_MINIMIZE] = options["minimise"] == "recursive"
        regs[k.Q_PROBE] = options["probe"]
        tables = (*_tables(shape), _positions(shape))

        def step(budget: int) -> int:
            if cap:
                left = cap - int(regs[k.Q_CONFLICTS])
                if left <= 0:
                    return STOPPED
                budget = left if budget < 0 else min(budget, left)
            status = k.run(grid, masks, *tables, *arrays, budget)
            while status == k.GROW:  # clauses it may not drop (blocking ones) filled the pool
                k.grow(arrays)
                status = k.run(grid, masks, *tables, *arrays, budget)
            return status

        status, timed_out = _drive(step, k, regs, sols, k.Q_STORED, solutions, deadline)
        if not handover:
            solutions.count += int(regs[k.Q_FOUND] - regs[k.Q_STORED])
        return status, timed_out, {"nodes": int(regs[k.Q_NODES]),
                                   "guesses": int(regs[k.Q_DECISIONS]),
                                   "backtracks": int(regs[k.Q_CONFLICTS]),
                                   "learned": int(regs[k.Q_LEARNED]),
                                   "restarts": int(regs[k.Q_RESTARTS]),
                                   "probed": int(regs[k.Q_PROBED])}

    def _root_masks(self, shape: Shape, grid: Any) -> Any:
        """Candidate masks after the `root` propagation of the dfs kernel (None: contradiction)."""
        d = warm("dfs")
        geo = d.layout(shape.side, shape.box_rows, shape.box_cols,
                       LEVELS.index(self.options["root"]), 0, 1, 1)
        cand, frames, regs, _, mate, scr = d.buffers(geo, 1)
        if not d.start(grid, *_tables(shape), geo, cand, frames, regs, mate, scr):
            return None
        return cand[0].copy()

    def solve_many(self, puzzles: Sequence[Puzzle], *, limit: int = 1) -> Batch:
        """Solve grids of one shape with the dfs kernel in one compiled call (no deadline)."""
        if not puzzles:
            raise ValueError("solve_many needs at least one puzzle")
        shape = puzzles[0].shape
        if any(p.shape != shape for p in puzzles):
            raise ValueError(f"solve_many takes grids of one shape; the first is {shape}")
        np = _np()
        return self.solve_array(np.array([p.cells for p in puzzles], np.int64), shape,
                                limit=limit)

    def solve_array(self, grids: Any, shape: Shape, *, limit: int = 1) -> Batch:
        """solve_many on a (grids x cells) integer array, 0 for a blank."""
        if self.kernel(shape) != "dfs":
            raise NotImplementedError(f"solve_many runs the dfs kernel; {shape} grids are searched "
                                      "with clause learning here (pass search=dfs to batch them)")
        k, np = warm("dfs"), _np()
        grids = np.ascontiguousarray(grids, np.int64)
        if grids.ndim != 2 or grids.shape[1] != shape.cells:
            raise ValueError(f"expected an array of {shape} grids ({shape.cells} columns), "
                             f"not one of shape {grids.shape}")
        refuse_values_out_of_range(np, grids, shape)
        m = grids.shape[0]
        out = (np.zeros((m, shape.cells), np.int64), np.zeros(m, np.int64),
               np.zeros(m, np.bool_), np.zeros((m, 3), np.int64))
        geo = k.layout(shape.side, shape.box_rows, shape.box_cols, self.level(shape),
                       BRANCHES.index(self.options["branch"]), limit, 0)
        t0 = time.perf_counter()
        k.run_many(grids.astype(np.uint8), *_tables(shape), geo, *out)
        return Batch(*out, seconds=time.perf_counter() - t0)


def _drive(step: Callable[[int], int], k: ModuleType, regs: Any, sols: Any, stored: int,
           solutions: Found, deadline: float | None, status: int | None = None
           ) -> tuple[int, bool]:
    """Call a kernel until it ends (`status`: that of a first call already made), reading the
    clock between budgets and taking the solutions it stored; (last status, timed out)."""
    budget = FIRST_BUDGET if deadline is not None else -1
    handover = solutions.keep is None
    timed_out = False
    t0 = time.perf_counter()
    while True:
        if status is None:
            t0 = time.perf_counter()
            status = step(budget)
        if handover and regs[stored]:
            for grid in sols[:regs[stored]].tolist():
                solutions.append(grid)
            regs[stored] = 0  # emptied: the kernel fills it again
        if status in (k.EXHAUSTED, k.LIMIT, STOPPED):
            break
        if expired(deadline):
            timed_out = True
            break
        if status == k.BUDGET:  # else the buffer was full: go on with the same budget
            spent = time.perf_counter() - t0
            budget = max(1, min(budget * 8, int(budget * BUDGET_S / max(spent, 1e-6))))
        status = None
    if not handover:
        for grid in sols[:regs[stored]].tolist():
            solutions.append(grid)
    return status, timed_out
