"""Runs on a Dask cluster. A Dask task cannot be killed from outside, so each task is a chunk of
runs that the Dask worker passes to its own killable worker processes (LocalExecutor): the limits
stay as hard as here. The puzzles are scattered once; chunks stream back as they finish."""

from __future__ import annotations

import contextlib
import importlib
import logging
import math
import resource
import signal
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any

from sudokucp.executors.base import Executor, ExecutorError, Outcome, ResourceLimits, Task
from sudokucp.executors.local import LocalExecutor, usable_cores
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Result, Status
from sudokucp.rules import CLASSIC, Rules

EXTRA = "--executor dask needs the [dask] extra: pip install 'sudoku-cp[dask]'"
FIRST_CHUNK = 4  # runs per chunk before any has been timed
MAX_CHUNK = 1000  # runs per chunk at most, so that results keep streaming
TARGET_SECONDS = 2.0  # the work a chunk should hold, once runs have been timed
MIN_SECONDS = 0.2  # the least work of a chunk near the end of a sweep (a task costs ~10 ms)
WINDOW = 2  # chunks in flight per Dask thread
CONNECT = 10  # seconds to reach a scheduler
WORKERS_PER_CORE = 4  # local Dask workers per usable core at most: more only queue for the cores
FILES_PER_WORKER = 16  # open files a local Dask worker holds in this process (9 measured), padded
SPARE_FILES = 64  # open files kept for the rest: the results log, the puzzle files, the scheduler
TCP_SCHEMES = ("tcp", "tls", "ws", "wss")  # addresses that need HOST:PORT
QUIET = ("distributed", "distributed.nanny", "distributed.scheduler", "distributed.worker",
         "distributed.core", "distributed.client")  # loggers kept below ERROR during a sweep

Kind = tuple[str, int, ResourceLimits, "int | None"]  # spec, limit, limits, keep
RunIndices = tuple[int, int, int]  # a run as it travels: task, kind and puzzle indices
# a puzzle as it travels: box rows, box cols, cells, name, a variant's rules (None: classic)
Packed = tuple[int, int, bytes, str, dict[str, Any] | None]


class MissingExtra(ImportError, ExecutorError):
    """dask.distributed is not installed; the message names the extra to install."""


class ClusterError(ExecutorError):
    """The cluster cannot run the sweep (or no longer can); the message says why."""


class SchedulerLost(ClusterError):
    """The scheduler went away mid-sweep; every outcome yielded before is kept."""


def load_distributed() -> ModuleType:
    """The `distributed` package, or MissingExtra saying how to install it."""
    try:
        import distributed
    except ImportError as err:
        raise MissingExtra(EXTRA) from err
    return distributed


def most_workers() -> tuple[int, str]:
    """The most worker processes a LocalCluster may start here, and what sets that number: the
    usable cores, or the open-files limit where it is lower."""
    cores = usable_cores()
    by_cores = WORKERS_PER_CORE * cores
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if files != resource.RLIM_INFINITY:
        by_files = max(1, (files - SPARE_FILES) // FILES_PER_WORKER)
        if by_files < by_cores:
            return by_files, f"the open-files limit ({files}, see ulimit -n) allows {by_files}"
    return by_cores, (f"{WORKERS_PER_CORE} per usable core ({cores} here); more only queue for "
                      f"the cores and skew the times")


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a DaskExecutor checked before any work: the extra installed, a scheduler
    address Dask can read, or a local cluster's worker count (the usable cores if not given,
    filled in)."""
    scheduler, workers = options.get("scheduler"), options.get("workers")
    if scheduler is not None and workers is not None:
        raise ClusterError("--workers starts a local cluster; with --scheduler the cluster's "
                           "workers are those started there")
    load_distributed()
    if scheduler is not None:
        check_scheduler(scheduler)
        return dict(options)
    checked = {**options, "workers": usable_cores() if workers is None else workers}
    check_workers(checked["workers"])
    return checked


def check_workers(workers: int) -> None:
    """Refuse a LocalCluster of more worker processes than most_workers(), before it starts."""
    most, why = most_workers()
    if workers > most:
        raise ClusterError(f"--workers {workers}: at most {most} local Dask worker processes: "
                           f"{why} (for more, start a cluster and give --scheduler)")


def check_scheduler(address: str) -> None:
    """Refuse a scheduler address Dask cannot read (no port, an unknown scheme), before any
    connection is tried."""
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        registry.get_backend(scheme)
        if scheme in TCP_SCHEMES:
            parse_host_port(location)
    except ValueError as err:
        raise ClusterError(f"--scheduler {address!r} is not a Dask scheduler address ({err}); "
                           f"give one such as tcp://HOST:8786") from None


@contextlib.contextmanager
def quiet_dask_logs() -> Iterator[None]:
    """Dask's own loggers (a nanny restarting a dead worker) below ERROR while the block runs:
    what a sweep loses is reported in its outcomes, not as warnings on standard error."""
    loggers = [logging.getLogger(name) for name in QUIET]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


_local = threading.local()


def _worker_executor() -> LocalExecutor:
    """The killable workers of this Dask thread, kept between chunks (they die with the thread)."""
    if getattr(_local, "executor", None) is None:
        _local.executor = LocalExecutor(1)
    return _local.executor


def pack(puzzle: Puzzle) -> Packed:
    """The compact form of a puzzle that is scattered (half the size of a pickled Puzzle)."""
    rules = None if puzzle.rules.classic else puzzle.rules.to_dict()
    return puzzle.shape.box_rows, puzzle.shape.box_cols, bytes(puzzle.cells), puzzle.name, rules


def unpack(packed: Packed) -> Puzzle:
    """The puzzle of a packed form."""
    rows, cols, cells, name, rules = packed
    return Puzzle(Shape(rows, cols), tuple(cells), name,
                  CLASSIC if rules is None else Rules.from_dict(rules))


def run_chunk(puzzles: Sequence[Packed], kinds: Sequence[Kind], runs: Sequence[RunIndices]
              ) -> list[tuple[int, Result, float, float | None, str | None, str, float | None]]:
    """On a Dask worker: the runs of a chunk through killable workers; (index, result, wall,
    peak memory, limit hit, whose peak, memory at the start) of each."""
    executor = _worker_executor()
    try:
        for index, kind, puzzle in runs:
            spec, limit, limits, keep = kinds[kind]
            task = Task(str(index), spec, unpack(puzzles[puzzle]), limit, limits, {}, keep)
            executor.submit(task)
        done = [(int(o.task.key), o.result, o.wall, o.rss_mb, o.limit_hit, o.rss_scope,
                 o.rss_start_mb) for o in executor.results()]
    except BaseException:
        executor.close()
        _local.executor = None
        raise
    return done


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while the block starts processes (they keep it ignored); main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class DaskExecutor(Executor):
    """Runs tasks in chunks on a Dask cluster: the one at `scheduler`, or a LocalCluster of
    `workers` processes started here (and stopped by close). `chunk`: runs per chunk (adaptive
    if None). `jobs` is accepted for the common signature; a Dask thread runs one run at a time."""

    def __init__(self, jobs: int = 1, scheduler: str | None = None, workers: int | None = None,
                 chunk: int | None = None) -> None:
        distributed = load_distributed()
        if scheduler is not None:
            check_scheduler(scheduler)
        elif workers is not None:
            check_workers(workers)
        self.chunk = chunk
        self.tasks: list[Task] = []
        self.cluster: Any = None
        try:
            if scheduler is None:
                with _sigint_ignored():  # the client stops the cluster on Ctrl-C, not the keys
                    self.cluster = distributed.LocalCluster(
                        n_workers=workers or usable_cores(), threads_per_worker=1,
                        processes=True)
            self.client: Any = distributed.Client(scheduler or self.cluster, timeout=CONNECT)
            self._warm_up()
        except OSError as err:
            self.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
        except BaseException:
            self.close()
            raise
        self.timed = [0, 0.0]  # runs timed, their seconds
        self.counted = (0, -1.0)  # Dask threads, when counted

    def _warm_up(self) -> None:
        """Import this module on every Dask worker now, or say that they cannot."""
        try:
            self.client.run(importlib.import_module, __name__)
        except ImportError as err:
            raise ClusterError(f"a Dask worker cannot import sudokucp ({err}): install "
                               f"sudoku-cp on every worker machine") from None

    def submit(self, task: Task) -> None:
        self.tasks.append(task)

    def results(self) -> Iterator[Outcome]:
        """Outcomes chunk by chunk as chunks finish; each task once, whatever workers died."""
        if not self.tasks:
            return
        with quiet_dask_logs():
            sweep = _Sweep(self, self.tasks)
            self.tasks = []
            yield from sweep.run()

    def close(self) -> None:
        """Cancel what still runs, close the client and stop the cluster started here (its
        workers' warnings on the way out kept quiet)."""
        self.tasks = []
        client, self.client = getattr(self, "client", None), None
        with quiet_dask_logs():
            if client is not None:
                with contextlib.suppress(Exception):  # a scheduler already gone
                    client.close(timeout=5)
            self._stop_cluster()

    def _stop_cluster(self) -> None:
        cluster, self.cluster = self.cluster, None
        if cluster is not None:
            cluster.close(timeout=10)

    def threads(self) -> int:
        """The Dask threads of the cluster (at least 1), counted again after a second."""
        count, when = self.counted
        if time.monotonic() - when > 1.0:
            count = max(1, sum(self.client.nthreads().values()))
            self.counted = (count, time.monotonic())
        return count

    def chunk_size(self, remaining: int) -> int:
        """Runs for the next chunk: about TARGET_SECONDS of work, split fairly between the
        threads near the end, but not below MIN_SECONDS of work."""
        if self.chunk:
            return self.chunk
        runs, seconds = self.timed
        if not runs:
            return FIRST_CHUNK
        rate = runs / max(seconds, 1e-6)
        fair = math.ceil(remaining / (WINDOW * self.threads()))
        size = max(min(TARGET_SECONDS * rate, fair), MIN_SECONDS * rate)
        return int(max(1, min(size, MAX_CHUNK)))


class _Sweep:
    """One results() call: the tasks, the scattered puzzles, the chunks in flight."""

    def __init__(self, owner: DaskExecutor, tasks: list[Task]) -> None:
        self.owner, self.client, self.tasks = owner, owner.client, tasks
        self.distributed = load_distributed()
        puzzles: dict[Puzzle, int] = {}
        kinds: dict[Kind, int] = {}
        self.runs: list[RunIndices] = [
            (index, kinds.setdefault((t.spec, t.limit, t.limits, t.keep), len(kinds)),
             puzzles.setdefault(t.puzzle, len(puzzles))) for index, t in enumerate(tasks)]
        self.puzzles = tuple(pack(p) for p in puzzles)
        self.kinds = tuple(kinds)
        self.todo: deque[RunIndices] = deque(self.runs)
        self.flight: dict[Any, list[RunIndices]] = {}
        self.done: set[int] = set()
        self.scattered = self._scatter()
        self.stream = self.distributed.as_completed()

    def run(self) -> Iterator[Outcome]:
        self._fill()
        try:
            for future in self.stream:
                yield from self._finished(future, self.flight.pop(future))
                self._fill()
        except OSError as err:
            raise self._lost(err) from None
        if self.client.status != "running" and len(self.done) < len(self.tasks):
            raise self._lost(None)

    def _scatter(self) -> Any:
        try:
            [future] = self.client.scatter([self.puzzles], broadcast=True, hash=False)
        except OSError as err:
            raise self._lost(err) from None
        return future

    def _fill(self) -> None:
        """Send chunks until WINDOW per Dask thread are in flight or nothing is left."""
        limit = WINDOW * self.owner.threads()
        while self.todo and len(self.flight) < limit:
            size = self.owner.chunk_size(len(self.todo))
            runs = [self.todo.popleft() for _ in range(min(size, len(self.todo)))]
            future = self.client.submit(run_chunk, self.scattered, self.kinds, runs, pure=False,
                                        key=f"sudokucp-chunk-{uuid.uuid4().hex}")
            self.flight[future] = runs
            self.stream.add(future)

    def _finished(self, future: Any, runs: list[RunIndices]) -> Iterator[Outcome]:
        """The outcomes of a chunk not delivered yet; a lost chunk goes back in the queue."""
        try:
            done = future.result()
        except self.distributed.KilledWorker as err:
            yield from self._crashed(runs, err)
            return
        except self.distributed.CancelledError as err:
            if self.client.status != "running":
                raise self._lost(err) from None
            self.scattered = self._scatter()  # the puzzles went with the workers that held them
            self.todo.extendleft(reversed(runs))
            return
        self.owner.timed[0] += len(done)
        self.owner.timed[1] += sum(item[2] for item in done)  # searches, not start-ups
        for index, result, wall, rss_mb, limit_hit, scope, start in done:
            if index not in self.done:
                self.done.add(index)
                yield Outcome(self.tasks[index], result, wall, rss_mb, limit_hit, scope, start)

    def _crashed(self, runs: list[RunIndices], err: BaseException) -> Iterator[Outcome]:
        """A chunk that took down every Dask worker it was given to: its runs are CRASH."""
        for index, _, _ in runs:
            if index not in self.done:
                self.done.add(index)
                task = self.tasks[index]
                yield Outcome(task, Result(task.spec, task.puzzle.name, Status.CRASH,
                                           error=f"Dask workers died running it: {err}"), 0.0)

    def _lost(self, err: BaseException | None) -> SchedulerLost:
        left = len(self.tasks) - len(self.done)
        why = f" ({type(err).__name__}: {err})" if err is not None else ""
        return SchedulerLost(f"lost the Dask scheduler{why}; {left} runs not done; every "
                             f"finished run is kept: run the same command with --resume")
