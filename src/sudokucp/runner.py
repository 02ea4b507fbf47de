"""Worker processes with hard limits: each run happens in a reusable worker in its own group.

The parent sends one JSON line per run and reads two back (`start`, then `done`). It kills the whole
group when a run overstays its time limit plus a grace, and reads a worker's death as a crash or a
memory exhaustion. `python -m sudokucp.runner [--memory MB]` is the worker side.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import re
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any, Protocol

from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Result, Status

GRACE = 0.5  # seconds past the time limit before the kill
STARTUP = 60.0  # seconds a worker may take to import a backend and build it
EXTRA_ENV = "SUDOKUCP_EXTRA_BACKENDS"  # name=module:Class,... registered in every process
MEMORY_SIGNS = re.compile(r"MemoryError|bad_alloc|out of memory|Cannot allocate memory",
                          re.IGNORECASE)


@dataclass(frozen=True)
class Task:
    """One run: a backend spec on one puzzle with a solution limit and a time limit."""

    key: str
    spec: str
    puzzle: Puzzle
    limit: int = 1
    timeout: float | None = None
    cores: int = 1
    meta: Mapping[str, Any] = field(default_factory=dict)

    def request(self, ident: int, announce: bool) -> bytes:
        """The JSON line a worker reads; `announce` asks for a `start` line before the search."""
        shape = self.puzzle.shape
        return (json.dumps({"id": ident, "spec": self.spec, "box": [shape.box_rows,
                            shape.box_cols], "cells": self.puzzle.cells, "name": self.puzzle.name,
                            "limit": self.limit, "timeout": self.timeout,
                            "announce": announce}) + "\n").encode()


@dataclass(frozen=True)
class Outcome:
    """What became of a task: the result (status may be TIMEOUT, CRASH, MEMOUT) and the wall time
    the parent measured from the worker's start signal."""

    task: Task
    result: Result
    wall: float


class Executor(Protocol):
    """Where runs execute: tasks go in with submit, outcomes come out of results as they finish."""

    def submit(self, task: Task) -> None: ...

    def results(self) -> Iterator[Outcome]: ...

    def close(self) -> None: ...


# --- parent side -----------------------------------------------------------------------------

class Worker:
    """One worker process, its pipes, the run it holds and a buffer of partial output."""

    def __init__(self, memory_mb: int | None) -> None:
        command = [sys.executable, "-m", "sudokucp.runner"]
        if memory_mb:
            command += ["--memory", str(memory_mb)]
        self.errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed on kill)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.errors, start_new_session=True, bufsize=0)
        self.fd = self.proc.stdout.fileno()
        self.buffer = b""
        self.task: Task | None = None
        self.ident = 0
        self.started: float | None = None
        self.deadline = 0.0
        self.maxrss = 0
        self.ready: set[str] = set()  # specs built here: their runs start as soon as sent

    def send(self, task: Task, ident: int, grace: float) -> None:
        """Hand a run over; a spec new to this worker announces when its search starts."""
        self.task, self.ident = task, ident
        known = task.spec in self.ready
        self.proc.stdin.write(task.request(ident, announce=not known))
        if known:
            self.begin(time.monotonic(), grace)
        else:
            self.started, self.deadline = None, time.monotonic() + STARTUP

    def begin(self, started: float, grace: float) -> None:
        """The search started at `started`: the kill comes at the time limit plus the grace."""
        self.started = started
        limit = self.task.timeout
        self.deadline = float("inf") if limit is None else started + limit + grace

    def lines(self) -> list[bytes] | None:
        """Complete lines read now; None at end of file (the worker died)."""
        data = os.read(self.fd, 1 << 16)
        if not data:
            return None
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        return lines

    def kill(self) -> int:
        """SIGKILL the whole group, reap the worker, return its exit code."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        return self.reap()

    def reap(self) -> int:
        if self.proc.returncode is None:
            _, status, usage = os.wait4(self.proc.pid, 0)
            self.proc.returncode = os.waitstatus_to_exitcode(status)
            self.maxrss = usage.ru_maxrss * 1024
        for pipe in (self.proc.stdin, self.proc.stdout):
            pipe.close()
        return self.proc.returncode

    def stderr_tail(self, size: int = 4096) -> str:
        self.errors.seek(0, os.SEEK_END)
        self.errors.seek(max(0, self.errors.tell() - size))
        return self.errors.read().decode(errors="replace")


class LocalExecutor:
    """Runs tasks on worker processes of this machine, at most `jobs` cores busy at a time."""

    def __init__(self, jobs: int = 1, *, memory_mb: int | None = None,
                 grace: float = GRACE) -> None:
        self.cores = max(1, min(jobs, usable_cores()))
        self.memory_mb, self.grace = memory_mb, grace
        self.pending: deque[Task] = deque()
        self.idle: list[Worker] = []
        self.busy: dict[int, Worker] = {}
        self.counter = 0

    def submit(self, task: Task) -> None:
        self.pending.append(task)

    def results(self) -> Iterator[Outcome]:
        """Outcomes in the order runs finish; stops when every submitted task has one."""
        while self.pending or self.busy:
            self._dispatch()
            yield from self._wait()

    def close(self) -> None:
        """Kill every worker, busy or idle, and reap them; pending tasks are dropped."""
        self.pending.clear()
        for worker in [*self.busy.values(), *self.idle]:
            worker.kill()
            worker.errors.close()
        self.busy.clear()
        self.idle.clear()

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _used(self) -> int:
        return sum(w.task.cores for w in self.busy.values())

    def _dispatch(self) -> None:
        while self.pending:
            cores = min(self.pending[0].cores, self.cores)
            if self.busy and self._used() + cores > self.cores:
                return
            worker = self.idle.pop() if self.idle else Worker(self.memory_mb)
            self.counter += 1
            try:
                worker.send(self.pending[0], self.counter, self.grace)
            except BrokenPipeError:  # an idle worker died: replace it, keep the task
                worker.kill()
                continue
            self.pending.popleft()
            self.busy[worker.fd] = worker

    def _wait(self) -> Iterator[Outcome]:
        now = time.monotonic()
        first = min(w.deadline for w in self.busy.values())
        wait = None if first == float("inf") else max(0.0, first - now)
        ready, _, _ = select.select(list(self.busy), [], [], wait)
        for fd in ready:
            outcome = self._read(self.busy[fd])
            if outcome is not None:
                yield outcome
        now = time.monotonic()
        for worker in [w for w in self.busy.values() if w.deadline <= now]:
            yield self._expire(worker, now)

    def _read(self, worker: Worker) -> Outcome | None:
        lines = worker.lines()
        if lines is None:
            return self._died(worker)
        for line in lines:
            message = json.loads(line)
            if message.get("id") != worker.ident:
                continue
            if message["event"] == "start":
                worker.ready.add(worker.task.spec)
                worker.begin(message["at"], self.grace)  # CLOCK_MONOTONIC spans processes
            else:
                return self._finish(worker, Result.from_dict(message["result"]))
        return None

    def _finish(self, worker: Worker, result: Result) -> Outcome:
        wall = time.monotonic() - (worker.started or time.monotonic())
        del self.busy[worker.fd]
        task, worker.task = worker.task, None
        self.idle.append(worker)
        if result.status is Status.ERROR and MEMORY_SIGNS.search(result.error or ""):
            result = dataclasses.replace(result, status=Status.MEMOUT)
        return Outcome(task, result, wall)

    def _expire(self, worker: Worker, now: float) -> Outcome:
        """The run overstayed: kill the group and record a TIMEOUT (or a stuck start as ERROR)."""
        del self.busy[worker.fd]
        worker.kill()
        worker.errors.close()
        task = worker.task
        if worker.started is None:
            result = Result(task.spec, task.puzzle.name, Status.ERROR,
                            error=f"the worker did not start the run within {STARTUP:g} s")
            return Outcome(task, result, 0.0)
        wall = now - worker.started
        result = Result(task.spec, task.puzzle.name, Status.TIMEOUT, seconds=wall,
                        error=f"killed after {wall:.2f} s")
        return Outcome(task, result, wall)

    def _died(self, worker: Worker) -> Outcome:
        """The worker ended on its own mid-run: a crash, or a memory exhaustion under the cap."""
        del self.busy[worker.fd]
        code = worker.kill()
        tail = worker.stderr_tail()
        worker.errors.close()
        task = worker.task
        wall = time.monotonic() - (worker.started or time.monotonic())
        cause = describe_exit(code)
        near_cap = bool(self.memory_mb) and worker.maxrss >= 0.9 * self.memory_mb * 2**20
        status = Status.MEMOUT if near_cap or MEMORY_SIGNS.search(tail) else Status.CRASH
        last = tail.strip().splitlines()[-1:] if tail.strip() else []
        error = "; ".join([f"worker {cause}", *last])
        return Outcome(task, Result(task.spec, task.puzzle.name, status, seconds=wall,
                                    error=error), wall)


def describe_exit(code: int) -> str:
    """'killed by SIGSEGV' or 'exited with status 3'."""
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


def usable_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def register_extra_backends(environ: Mapping[str, str] = os.environ) -> None:
    """Add name=module:Class pairs from the environment to the registry (testing aid)."""
    from sudokucp.backends import BACKENDS

    for item in filter(None, environ.get(EXTRA_ENV, "").split(",")):
        name, _, target = item.partition("=")
        BACKENDS[name.strip()] = target.strip()


# --- worker side -----------------------------------------------------------------------------

def limit_memory(megabytes: int) -> None:
    """Cap the address space of this process (and its children)."""
    cap = megabytes * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def serve(requests: IO[bytes], replies: IO[bytes]) -> None:
    """Answer run requests until the parent closes the pipe."""
    backends: dict[str, Any] = {}
    for line in requests:
        message = json.loads(line)
        ident = message["id"]
        puzzle = Puzzle(Shape(*message["box"]), tuple(message["cells"]), message["name"])
        try:
            backend = _prepare(message["spec"], backends)
        except Exception as err:
            result = Result(message["spec"], puzzle.name, Status.ERROR,
                            error=f"{type(err).__name__}: {err}")
        else:
            if message["announce"]:
                _reply(replies, {"id": ident, "event": "start", "at": time.monotonic()})
            result = _solve(backend, puzzle, message["limit"], message["timeout"])
        _reply(replies, {"id": ident, "event": "done", "result": result.to_dict()})


def _prepare(spec: str, backends: dict[str, Any]) -> Any:
    """The backend of a spec, built once per worker; a third-party package is loaded by a warm-up
    solve of an empty 4x4 grid so that no timed run pays for the import."""
    from sudokucp.backends import from_spec

    if spec not in backends:
        backend = from_spec(spec)
        if backend.module is not None:
            backend.solve(Puzzle.empty(Shape(2, 2)), limit=1, time_limit=5.0)
        backends[spec] = backend
    return backends[spec]


def _solve(backend: Any, puzzle: Puzzle, limit: int, timeout: float | None) -> Result:
    try:
        return backend.solve(puzzle, limit=limit, time_limit=timeout)
    except MemoryError as err:
        return Result(backend.label, puzzle.name, Status.MEMOUT, error=f"MemoryError: {err}")


def _reply(replies: IO[bytes], message: Mapping[str, Any]) -> None:
    replies.write((json.dumps(message) + "\n").encode())
    replies.flush()


def main(argv: list[str] | None = None) -> None:
    """Worker entry point: protocol on the original stdout, anything else printed goes to stderr."""
    parser = argparse.ArgumentParser(prog="python -m sudokucp.runner")
    parser.add_argument("--memory", type=int, metavar="MB", help="address-space cap")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when a worker stops
    if args.memory:
        limit_memory(args.memory)
    register_extra_backends()
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    main()
