"""Misbehaving backends for the harness tests, loaded by their import path ('fake_backends:Liar').

Worker processes import this module too: put `pythonpath()` in their environment.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from sudokucp.backends.base import Backend

PID_DIR = "SUDOKUCP_TEST_PID_DIR"  # where Stubborn leaves the pid of the process it blocks


class _Fake(Backend):
    description = "misbehaving backend for the harness tests"
    interruptible = False


class Abort(_Fake):
    name = "fake-abort"

    def _search(self, puzzle, limit, deadline):
        os.abort()


class Segfault(_Fake):
    name = "fake-segv"

    def _search(self, puzzle, limit, deadline):
        os.kill(os.getpid(), signal.SIGSEGV)
        time.sleep(5)


class Hog(_Fake):
    name = "fake-hog"

    def _search(self, puzzle, limit, deadline):
        chunks = [bytearray(64 * 2**20) for _ in range(1000)]  # 64 GB in all
        return [], False, {"chunks": len(chunks)}


class Liar(_Fake):
    name = "fake-liar"

    def _search(self, puzzle, limit, deadline):
        return [tuple(v or 1 for v in puzzle.cells)], False, {}


class Denier(_Fake):
    name = "fake-denier"

    def _search(self, puzzle, limit, deadline):
        return [], True, {}


class Stubborn(_Fake):
    name = "fake-stubborn"

    def _search(self, puzzle, limit, deadline):
        folder = os.environ.get(PID_DIR)
        if folder:
            Path(folder, str(os.getpid())).touch()
        while True:  # ignores the deadline: only the kill stops it
            time.sleep(0.01)


class Spin(_Fake):
    """Keeps a core busy for `seconds` of wall time (forever: 0), then finds the solution."""

    name = "fake-spin"
    defaults = {"seconds": 0.3}

    def _search(self, puzzle, limit, deadline):
        end = time.perf_counter() + (self.options["seconds"] or float("inf"))
        while time.perf_counter() < end:
            pass
        return _solved(puzzle)


class Sleep(_Fake):
    """Sleeps `seconds`, then finds the solution: wall time without CPU time."""

    name = "fake-sleep"
    defaults = {"seconds": 0.3}

    def _search(self, puzzle, limit, deadline):
        time.sleep(self.options["seconds"])
        return _solved(puzzle)


class Bulge(_Fake):
    """Holds `mb` megabytes (every page touched) for a moment, lets them go, then solves."""

    name = "fake-bulge"
    defaults = {"mb": 300}

    def _search(self, puzzle, limit, deadline):
        held = bytearray(self.options["mb"] * 2**20)
        held[::4096] = b"\1" * len(range(0, len(held), 4096))
        del held
        return _solved(puzzle)


class SlowPrepare(_Fake):
    """Takes `seconds` to prepare each shape (a compile), then solves at once."""

    name = "fake-slow-prepare"
    defaults = {"seconds": 1.0}

    def _prepare(self, shape):
        time.sleep(self.options["seconds"])

    def _search(self, puzzle, limit, deadline):
        return _solved(puzzle)


class Threads(_Fake):
    """Hashes in two threads at once (hashlib lets go of the GIL); says the CPU seconds the two
    threads measured of themselves (`threads_cpu`)."""

    name = "fake-threads"
    defaults = {"seconds": 0.5}

    def _search(self, puzzle, limit, deadline):
        import hashlib
        import threading

        end, data, spent = time.perf_counter() + self.options["seconds"], bytes(2**22), []

        def hash_until_end() -> None:
            while time.perf_counter() < end:
                hashlib.sha256(data).digest()
            spent.append(time.thread_time())

        threads = [threading.Thread(target=hash_until_end) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        solutions, complete, stats = _solved(puzzle)
        return solutions, complete, {**stats, "threads_cpu": sum(spent)}


class Where(_Fake):
    """Sleeps `seconds` and says on which cores it may run."""

    name = "fake-where"
    defaults = {"seconds": 0.3}

    def _search(self, puzzle, limit, deadline):
        time.sleep(self.options["seconds"])
        solutions, complete, stats = _solved(puzzle)
        cores = os.sched_getaffinity(0)
        return solutions, complete, {**stats, "cores": len(cores), "core": min(cores)}


def _solved(puzzle):
    from sudokucp.backends import get_backend

    return get_backend("mrv")._search(puzzle, 1, None)


def pythonpath() -> str:
    """A PYTHONPATH with this folder first, so that a new process finds this module."""
    return os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent),
                                         os.environ.get("PYTHONPATH")]))


def spec(cls: type[Backend]) -> str:
    """The spec that loads `cls` by its import path, here and in a worker."""
    return f"{__name__}:{cls.__qualname__}"
