"""The worker: `python -m sudokucp.executors.worker [--memory MB] [--parent PID]` reads
{"id", "announce", "task"} lines, answers {"id", "start"} (if announced) then {"id", "result"}.
Replies carry `used`, the worker's CPU seconds so far (children included), and results carry
`rss_mb`, the run's peak resident memory, `rss_scope`: "run" where the kernel let the worker
reset its peak before the run (Linux), "worker" where it is the worker's lifetime peak, and
`rss_start_mb`, its resident memory when the run began (what the worker held already).

It stops at end of input and dies with its parent (the kernel's parent-death signal, on Linux);
it is the subreaper of the programs its runs start (sudokucp.machine.processes).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import time
from collections.abc import Callable, Mapping
from typing import IO, Any

from sudokucp.backends.base import PROGRAM_PEAK
from sudokucp.clock import cpu_seconds
from sudokucp.executors import cputime
from sudokucp.executors.base import Task, from_json, to_json
from sudokucp.machine import calibration, processes
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Result, Status


def run_task(task: Task, backends: dict[str, Any] | None = None,
             on_start: Callable[[], None] | None = None) -> Result:
    """Build the task's backend (once per spec in `backends`) and what it shares for the grid's
    shape (a model, a compiled kernel: `prepare`), call `on_start`, then solve. The calibration
    spec runs the calibration loop instead."""
    backends = {} if backends is None else backends
    if task.spec == calibration.SPEC:
        return _calibrate(task, on_start)
    try:
        backend = _backend_for(task.spec, backends)
        backend.prepare(task.puzzle.shape)
    except Exception as err:
        return Result(task.spec, task.puzzle.name, Status.ERROR,
                      error=f"{type(err).__name__}: {err}")
    if on_start is not None:
        on_start()
    try:
        return backend.solve(task.puzzle, limit=task.limit, time_limit=task.limits.time_limit,
                             keep=task.keep)
    except MemoryError as err:
        return Result(backend.label, task.puzzle.name, Status.MEMOUT, error=f"MemoryError: {err}")


def _calibrate(task: Task, on_start: Callable[[], None] | None) -> Result:
    """The calibration loop's point as a result: seconds (wall) and cpu."""
    if on_start is not None:
        on_start()
    point = calibration.measure()
    return Result(task.spec, task.puzzle.name, Status.UNKNOWN, seconds=point.wall, cpu=point.cpu)


CLEAR_REFS = "/proc/self/clear_refs"


def reset_peak() -> bool:
    """Set this process's peak resident memory (VmHWM) back to its present size ('5' written to
    /proc/self/clear_refs, Linux); False where the kernel offers no such reset."""
    try:
        with open(CLEAR_REFS, "w") as handle:
            handle.write("5")
    except OSError:
        return False
    return own_peak_kb() is not None


def own_peak_kb() -> int | None:
    """This process's peak resident memory since its last reset (VmHWM, kB), or None."""
    return cputime.peak_kb(os.getpid())


def lifetime_peaks() -> tuple[int, int]:
    """The peak resident memory (kB) of this process over its life, and of its largest waited
    child program (the kernel keeps one maximum for them all)."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                         resource.RUSAGE_CHILDREN))
    return own.ru_maxrss, children.ru_maxrss


def programs() -> tuple[int, float]:
    """The largest peak resident memory (kB) of the child programs waited for so far, and the
    CPU seconds they took."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def run_peak(scoped: bool, before: tuple[int, float], program_kb: float = 0) -> tuple[float, str]:
    """The run's peak resident memory (MB) and its scope. With `scoped` (reset_peak worked before
    the run): this process's VmHWM, and its programs' peak, "run": as their backend read it
    when it reaped them (`program_kb`), else when it passed every earlier one's (`before`:
    programs() then). A program that ran without either hides its own, as does a kernel
    without the reset: then the worker's lifetime peak, "worker"."""
    own, (peak, cpu) = lifetime_peaks()[0], programs()
    now = own_peak_kb() if scoped else None
    grew = peak > before[0]
    if now is not None and program_kb:
        return max(now, program_kb) / 1024, "run"
    if now is None or (cpu > before[1] and not grew):
        return max(now or own, peak) / 1024, "worker"
    return max(now, peak if grew else 0) / 1024, "run"


def _backend_for(spec: str, backends: dict[str, Any]) -> Any:
    """The backend of a spec, built once per worker; a third-party package is loaded by a warm-up
    solve of an empty 4x4 grid so that no timed run pays for the import."""
    from sudokucp.backends import from_spec

    if spec not in backends:
        backend = from_spec(spec)
        if backend.module is not None:
            backend.solve(Puzzle.empty(Shape(2, 2)), limit=1, time_limit=5.0)
        backends[spec] = backend
    return backends[spec]


def serve(requests: IO[bytes], replies: IO[bytes]) -> None:
    """Answer run requests until the parent closes the pipe."""
    backends: dict[str, Any] = {}
    for line in requests:
        message = json.loads(line)
        ident = message["id"]

        def announce(ident: int = ident) -> None:
            _reply(replies, {"id": ident, "start": time.monotonic(), "used": cpu_seconds()})

        task = from_json(message)
        before = programs()
        start = own_peak_kb() if reset_peak() else None  # the present size, once reset
        result = run_task(task, backends, announce if message["announce"] else None)
        rss_mb, scope = run_peak(start is not None, before,
                                 (result.stats or {}).get(PROGRAM_PEAK, 0))
        _reply(replies, {"id": ident, **to_json(result), "used": cpu_seconds(), "rss_mb": rss_mb,
                         "rss_scope": scope,
                         "rss_start_mb": None if start is None else start / 1024})
        processes.end_orphans(())  # whatever a backend's programs left (a worker has no child)


def _reply(replies: IO[bytes], message: Mapping[str, Any]) -> None:
    replies.write((json.dumps(message) + "\n").encode())
    replies.flush()


def limit_memory(megabytes: int) -> None:
    """Cap the address space of this process (and its children)."""
    cap = megabytes * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def die_with_parent(parent: int) -> None:
    """Ask the kernel for a SIGKILL when the parent dies (Linux; elsewhere end of input is the
    only watch), and exit at once if it is already gone."""
    processes.die_with_parent()
    if os.getppid() != parent:  # it died before the request took effect
        os._exit(1)


def main(argv: list[str] | None = None) -> None:
    """Worker entry point: protocol on the original stdout, anything else printed goes to stderr."""
    parser = argparse.ArgumentParser(prog="python -m sudokucp.executors.worker")
    parser.add_argument("--memory", type=int, metavar="MB", help="address-space cap")
    parser.add_argument("--parent", type=int, metavar="PID", help="die when this process dies")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when a worker stops
    if args.parent:
        die_with_parent(args.parent)
    processes.become_subreaper()  # what a program leaves comes back here, to be killed
    if args.memory:
        limit_memory(args.memory)
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    main()
