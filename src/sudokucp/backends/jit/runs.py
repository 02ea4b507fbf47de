"""How jit's kernels run: the plan that one shape's searches share (kernel, buffers), and a
kernel driven in budgets (guesses, or conflicts and decisions), the clock read between them and
each budget sized to take about BUDGET_S, the solutions it stores taken as it goes (jit.py's
searches, dfs and cdcl alike).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from sudokucp.backends.base import Found
from sudokucp.backends.jit.layout import BUDGET, EXHAUSTED, LIMIT
from sudokucp.clock import expired
from sudokucp.puzzle import Shape

FIRST_BUDGET = 256  # guesses (or conflicts and decisions) before the first look at the clock
BUDGET_S = 0.005  # aim of each later budget, in seconds


@dataclass(frozen=True)
class _Plan:
    """The searches of one shape, limit and keep: kernel, module, buffer size, and for the
    depth-first kernels (dfs, bands) their state, reused from search to search."""

    kernel: str
    k: ModuleType
    shape: Shape
    limit: int
    handover: bool  # every solution comes back (keep=None)
    capacity: int
    state: Any = None  # the kernel's NamedTuple of tables and buffers; cdcl: None


def _drive(step: Callable[[int], int], regs: Any, sols: Any, stored: int, solutions: Found,
           deadline: float | None, status: int | None = None) -> tuple[int, bool]:
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
        if status in (EXHAUSTED, LIMIT):
            break
        if expired(deadline):
            timed_out = True
            break
        if status == BUDGET:  # else the buffer was full: go on with the same budget
            spent = time.perf_counter() - t0
            budget = max(1, min(budget * 8, int(budget * BUDGET_S / max(spent, 1e-6))))
        status = None
    if not handover:
        for grid in sols[:regs[stored]].tolist():
            solutions.append(grid)
    return status, timed_out
