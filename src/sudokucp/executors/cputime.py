"""CPU seconds of a running process and its descendants, read from /proc (Linux): what a CPU
limit is enforced on from outside, threads and child programs included; and the tree's peak
resident memory, read before a kill."""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def supported() -> bool:
    """Whether this system has the /proc files the CPU limit reads."""
    return (PROC / "self" / "stat").exists() and (PROC / "self" / "task").is_dir()


def tree_cpu(pid: int) -> float:
    """User + system seconds of `pid` (every thread, its waited children) and of its running
    descendants; 0 for a process that is gone."""
    own = _stat_cpu(pid)
    return own + sum(tree_cpu(child) for child in _children(pid))


def tree_peak_kb(pid: int) -> int | None:
    """The largest peak resident memory (VmHWM, kB) of `pid` and its running descendants, each
    since its last reset; None when `pid` has no such line (gone, or not Linux)."""
    own = peak_kb(pid)
    if own is None:
        return None
    return max([own, *(tree_peak_kb(child) or 0 for child in _children(pid))])


def peak_kb(pid: int) -> int | None:
    """The peak resident memory of `pid` since its last reset (VmHWM, kB); None when it has no
    such line (gone, or not Linux)."""
    try:
        text = (PROC / str(pid) / "status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmHWM:"):
            try:
                return int(line.split()[1])
            except (ValueError, IndexError):
                return None
    return None


def _stat_cpu(pid: int) -> float:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2:].split()  # after the command name, from field 3 (state)
    return sum(int(f) for f in fields[11:15]) / TICK  # utime stime cutime cstime


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(PROC / str(pid) / "task")
    except OSError:
        return []
    found = []
    for tid in tasks:
        try:
            found += [int(c) for c in (PROC / str(pid) / "task" / tid / "children").read_text()
                      .split()]
        except OSError:
            continue
    return found


def pin(pid: int, cores: set[int]) -> None:
    """Run every thread of `pid` on `cores` (threads and children started later inherit it)."""
    try:
        tasks = [int(t) for t in os.listdir(PROC / str(pid) / "task")]
    except OSError:
        tasks = [pid]
    for tid in tasks:
        try:
            os.sched_setaffinity(tid, cores)
        except ProcessLookupError:
            continue
