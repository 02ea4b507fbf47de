"""Processes a run starts, owned whole: this process made their subreaper (Linux's
PR_SET_CHILD_SUBREAPER, so that orphans, even those that called setsid, come back to it), every
descendant read from /proc, and a whole tree stopped, then killed, so that none outlives its run.

Elsewhere than Linux the subreaper is a no-op and only the process groups are killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Collection, Iterable
from functools import cache
from pathlib import Path

PROC = Path("/proc")
PR_SET_PDEATHSIG = 1  # linux/prctl.h
PR_SET_CHILD_SUBREAPER = 36
ROUNDS = 50  # scans of /proc while a tree being stopped still grows


@cache
def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    return ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


def prctl(option: int, value: int) -> bool:
    """Linux's prctl(option, value); False where it failed or there is none."""
    libc = _libc()
    return libc is not None and libc.prctl(option, value, 0, 0, 0) == 0


@cache
def become_subreaper() -> bool:
    """Make this process the subreaper of its descendants (once): an orphan below it is
    re-parented to it rather than to init. False where the kernel does not allow it."""
    return prctl(PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent() -> None:
    """In a child: SIGKILL when the process that started it dies (Linux)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def parents() -> dict[int, int]:
    """Every process of /proc and its parent's id (empty where there is no /proc)."""
    table = {}
    try:
        names = os.listdir(PROC)
    except OSError:
        return {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            text = (PROC / name / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        table[int(name)] = int(text[text.rindex(")") + 2:].split()[1])
    return table


def children() -> set[int]:
    """The child processes of this process: its threads' `children` files (a few bytes, so
    that a run that left nothing costs next to nothing), else a scan of /proc."""
    found: set[int] = set()
    try:
        for tid in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{tid}/children", "rb") as listing:
                found.update(map(int, listing.read().split()))
    except OSError:  # no /proc, or a kernel without the children files
        me = os.getpid()
        return {pid for pid, parent in parents().items() if parent == me}
    return found


def tree(roots: Iterable[int], table: dict[int, int]) -> set[int]:
    """The processes of `roots` still in `table`, and all their descendants."""
    below: dict[int, list[int]] = {}
    for pid, parent in table.items():
        below.setdefault(parent, []).append(pid)
    found, todo = set(), [pid for pid in roots if pid in table]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo += below.get(pid, [])
    return found


def kill_tree(roots: Iterable[int]) -> set[int]:
    """SIGSTOP every process of the trees under `roots` (roots included) until no new one
    appears (a stopped process forks no more), then SIGKILL them all; the ids killed."""
    roots, stopped = set(roots), set()
    for _ in range(ROUNDS):
        found = tree(roots | stopped, parents()) - stopped
        if not found:
            break
        for pid in found:
            _signal(pid, signal.SIGSTOP)
        stopped |= found
    for pid in stopped | roots:
        _signal(pid, signal.SIGKILL)
    return stopped


def reap(pids: Iterable[int]) -> None:
    """Wait for the killed children among `pids` (the others are not ours to wait for)."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, 0)


def end_orphans(known: Collection[int]) -> None:
    """Kill and reap the children of this process that are not in `known`: orphans a run left,
    re-parented to this process as their subreaper, with everything below them."""
    for _ in range(ROUNDS):  # those below an orphan come back to this process as it dies
        orphans = children() - set(known)
        if not orphans:
            return
        kill_tree(orphans)
        reap(orphans)


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, sig)
