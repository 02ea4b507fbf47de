"""Worker processes of this machine with hard limits: each run in a reusable worker in its own
process group, the group SIGKILLed past the time limit plus the grace, a death read as CRASH or
MEMOUT; a worker is replaced only after a kill."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Iterator
from typing import IO

from sudokucp.executors import cputime
from sudokucp.executors.base import Executor, Outcome, Task, from_json, to_json
from sudokucp.machine.processes import kill_tree
from sudokucp.puzzle import Shape
from sudokucp.result import Result, Status

STARTUP = 120.0  # seconds a worker may take to import a backend, build it and prepare a shape
POLL = 0.05  # seconds between two readings of a CPU-limited run's CPU time
MEMORY_SIGNS = re.compile(r"MemoryError|bad_alloc|out of memory|Cannot allocate memory",
                          re.IGNORECASE)
# what a refused allocation says under an address-space cap: a library that cannot be mapped
# (an ImportError), OpenBLAS's buffers; read so only when the run had a cap
CAP_SIGNS = re.compile(r"failed to map segment from shared object|memory allocation (still )?"
                       r"failed", re.IGNORECASE)


class Worker:
    """One worker process, its pipes, the run it holds and a buffer of partial output."""

    def __init__(self, memory_mb: int | None) -> None:
        command = [sys.executable, "-m", "sudokucp.executors.worker", "--parent", str(os.getpid())]
        if memory_mb:
            command += ["--memory", str(memory_mb)]
        self.memory_mb = memory_mb
        self.errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by discard)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.errors, start_new_session=True, bufsize=0)
        self.fd = self.proc.stdout.fileno()
        self.buffer = b""
        self.task: Task | None = None
        self.ident = 0
        self.started: float | None = None
        self.deadline = 0.0
        self.maxrss = 0
        self.scoped = True  # its peak memory is the current run's: fresh, or reset by the run
        self.used = 0.0  # the worker's CPU seconds when the run started (as it last said)
        self.total = 0.0  # its CPU seconds at its end (wait4), once discarded
        self.cores: set[int] = set()  # the cores it is pinned to (empty: not pinned)
        self.ready: set[tuple[str, Shape]] = set()  # (spec, shape) built here: runs start when sent

    def send(self, task: Task, ident: int) -> None:
        """Hand a run over; a spec or a shape new to this worker announces when its search starts
        (building a backend or compiling for a shape is no part of the run's time)."""
        self.task, self.ident = task, ident
        known = (task.spec, task.puzzle.shape) in self.ready
        message = {"id": ident, "announce": not known, **to_json(task)}
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        if known:
            self.begin(time.monotonic())
        else:
            self.started, self.deadline = None, time.monotonic() + STARTUP

    def begin(self, started: float) -> None:
        """The search started at `started`: the kill comes at the time limit plus the grace (or
        as soon as the CPU limit is passed)."""
        self.started = started
        limits = self.task.limits
        self.deadline = (float("inf") if limits.time_limit is None
                         else started + limits.time_limit + limits.grace)

    def lines(self) -> list[bytes] | None:
        """Complete lines read now; None at end of file (the worker died)."""
        data = os.read(self.fd, 1 << 16)
        if not data:
            return None
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        return lines

    def cpu(self) -> float:
        """CPU seconds of the current run so far, its threads and child programs included."""
        return max(0.0, cputime.tree_cpu(self.proc.pid) - self.used)

    def cpu_at_end(self) -> float:
        """CPU seconds of the run it died in, from its rusage once reaped (threads included)."""
        return max(0.0, self.total - self.used)

    def over_cpu(self) -> bool:
        """Whether the current run has used more CPU time than its limit allows."""
        limit = self.task.limits.cpu_limit if self.task is not None else None
        return limit is not None and self.started is not None and self.cpu() > limit

    def discard(self) -> int:
        """SIGKILL the worker and everything below it (the programs it runs, in groups and
        sessions of their own, stopped first so that none escapes), reap it, close its files,
        return its exit code."""
        if self.proc.returncode is None:
            kill_tree([self.proc.pid])
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc.returncode is None:
            _, status, usage = os.wait4(self.proc.pid, 0)
            self.proc.returncode = os.waitstatus_to_exitcode(status)
            self.maxrss = usage.ru_maxrss * 1024
            self.total = usage.ru_utime + usage.ru_stime
        for pipe in (self.proc.stdin, self.proc.stdout):
            pipe.close()
        self.stderr = self._tail()
        self.errors.close()
        return self.proc.returncode

    def _tail(self, size: int = 4096) -> str:
        self.errors.seek(0, os.SEEK_END)
        self.errors.seek(max(0, self.errors.tell() - size))
        return self.errors.read().decode(errors="replace")


class LocalExecutor(Executor):
    """Runs tasks on worker processes of this machine, at most `jobs` cores busy at a time.

    With `pin`, each run's worker is pinned to cores of its own (as many as the run takes).
    Use it from one thread: a worker dies with the thread that started it (PR_SET_PDEATHSIG)."""

    def __init__(self, jobs: int = 1, pin: bool = False) -> None:
        self.cores = max(1, min(jobs, usable_cores()))
        self.pin = pin
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
            worker.discard()
        self.busy.clear()
        self.idle.clear()

    def _used(self) -> int:
        return sum(w.task.limits.cores for w in self.busy.values())

    def _dispatch(self) -> None:
        while self.pending:
            task = self.pending[0]
            cores = min(task.limits.cores, self.cores)
            if self.busy and self._used() + cores > self.cores:
                return
            worker = self._worker(task.limits.memory_mb)
            if self.pin:
                self._pin(worker, cores)
            self.counter += 1
            try:
                worker.send(task, self.counter)
            except BrokenPipeError:  # an idle worker died: replace it, keep the task
                worker.discard()
                continue
            self.pending.popleft()
            self.busy[worker.fd] = worker

    def _pin(self, worker: Worker, cores: int) -> None:
        """Pin the worker to `cores` cores no busy worker holds, its own first."""
        held = set().union(*(w.cores for w in self.busy.values()))
        free = sorted(set(os.sched_getaffinity(0)) - held, key=lambda c: c not in worker.cores)
        wanted = set(free[:cores])
        if wanted and wanted != worker.cores:
            cputime.pin(worker.proc.pid, wanted)
            worker.cores = wanted

    def _worker(self, memory_mb: int | None) -> Worker:
        """An idle worker under this memory cap, or a new one (replacing an idle one under another
        cap, so that no more workers live than cores)."""
        for index, worker in enumerate(self.idle):
            if worker.memory_mb == memory_mb:
                return self.idle.pop(index)
        if self.idle:
            self.idle.pop().discard()
        return Worker(memory_mb)

    def _wait(self) -> Iterator[Outcome]:
        now = time.monotonic()
        first = min(w.deadline for w in self.busy.values())
        wait = None if first == float("inf") else max(0.0, first - now)
        if any(w.task.limits.cpu_limit is not None for w in self.busy.values()):
            wait = POLL if wait is None else min(wait, POLL)
        ready, _, _ = select.select(list(self.busy), [], [], wait)
        for fd in ready:
            outcome = self._read(self.busy[fd])
            if outcome is not None:
                yield outcome
        now = time.monotonic()
        for worker in [w for w in self.busy.values() if w.over_cpu()]:
            yield self._expire(worker, now, "cpu")
        for worker in [w for w in self.busy.values() if w.deadline <= now]:
            yield self._expire(worker, now, "wall")

    def _read(self, worker: Worker) -> Outcome | None:
        lines = worker.lines()
        if lines is None:
            return self._died(worker)
        for line in lines:
            message = json.loads(line)
            if message.get("id") != worker.ident:
                continue
            if "start" in message:
                worker.ready.add((worker.task.spec, worker.task.puzzle.shape))
                worker.used = message.get("used", worker.used)
                worker.begin(message["start"])  # CLOCK_MONOTONIC spans processes
            else:
                scope = message.get("rss_scope", "worker")
                worker.scoped = scope == "run"
                outcome = self._finish(worker, from_json(message), message.get("rss_mb"), scope,
                                       message.get("rss_start_mb"))
                worker.used = message.get("used", worker.used)
                return outcome
        return None

    def _finish(self, worker: Worker, result: Result, rss_mb: float | None, scope: str,
                start: float | None) -> Outcome:
        wall = time.monotonic() - (worker.started or time.monotonic())
        del self.busy[worker.fd]
        task, worker.task = worker.task, None
        if result.status is Status.ERROR and out_of_memory(result.error or "",
                                                          task.limits.memory_mb):
            result = dataclasses.replace(result, status=Status.MEMOUT,
                                         error=short_error(result.error or ""))
        if result.status is Status.MEMOUT:  # a half-done import stays broken: a fresh worker
            worker.discard()
        else:
            self.idle.append(worker)
        return Outcome(task, result, wall, rss_mb, rss_scope=scope, rss_start_mb=start)

    def _expire(self, worker: Worker, now: float, limit: str) -> Outcome:
        """The run overstayed its `limit` ("wall" or "cpu"): kill the group and record a
        TIMEOUT (or a stuck start as ERROR)."""
        del self.busy[worker.fd]
        cpu = worker.cpu()  # before the kill, child programs included
        peak = cputime.tree_peak_kb(worker.proc.pid)  # the run's: the worker reset it
        worker.discard()
        task = worker.task
        if worker.started is None:
            result = Result(task.spec, task.puzzle.name, Status.ERROR,
                            error=f"the worker did not start the run within {STARTUP:g} s")
            return Outcome(task, result, 0.0)
        wall, cpu = now - worker.started, cpu or worker.cpu_at_end()
        why = (f"CPU limit of {task.limits.cpu_limit:g} s passed" if limit == "cpu"
               else f"wall limit of {task.limits.time_limit:g} s passed")
        result = Result(task.spec, task.puzzle.name, Status.TIMEOUT, seconds=wall, cpu=cpu,
                        error=f"{why}: killed after {cpu:.2f} s of CPU, {wall:.2f} s of wall time")
        if peak is None or not worker.scoped:
            return Outcome(task, result, wall, worker.maxrss / 2**20, limit)
        return Outcome(task, result, wall, peak / 1024, limit, "run")

    def _died(self, worker: Worker) -> Outcome:
        """The worker ended on its own mid-run: a crash, or a memory exhaustion under the cap."""
        del self.busy[worker.fd]
        code = worker.discard()
        tail, task = worker.stderr, worker.task
        wall = time.monotonic() - (worker.started or time.monotonic())
        cap = task.limits.memory_mb
        near_cap = bool(cap) and worker.maxrss >= 0.9 * cap * 2**20
        status = Status.MEMOUT if near_cap or out_of_memory(tail, cap) else Status.CRASH
        last = tail.strip().splitlines()[-1:] if tail.strip() else []
        error = "; ".join([f"worker {describe_exit(code)}", *last])
        cpu = worker.cpu_at_end()
        return Outcome(task, Result(task.spec, task.puzzle.name, status, seconds=wall, cpu=cpu,
                                    error=error), wall, worker.maxrss / 2**20)


def out_of_memory(text: str, cap: int | None) -> bool:
    """Whether an error says memory could not be had: MemoryError and its kin anywhere, and
    under a memory cap what a refused allocation says (a library that cannot be mapped)."""
    return bool(MEMORY_SIGNS.search(text) or (cap and CAP_SIGNS.search(text)))


def short_error(text: str) -> str:
    """An error of many lines (numpy's ImportError advice) as its first and last lines."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return text if len(lines) < 2 else f"{lines[0]} ... {lines[-1]}"


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
