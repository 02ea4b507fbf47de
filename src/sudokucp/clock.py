"""The two clocks of a run: a deadline on perf_counter, and the CPU time of the process."""

from __future__ import annotations

import resource
import time


def cpu_seconds() -> float:
    """User + system seconds of this process (every thread) and of the children it waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def expired(deadline: float | None) -> bool:
    """Whether the deadline (a perf_counter value; None = never) has passed."""
    return deadline is not None and time.perf_counter() > deadline
