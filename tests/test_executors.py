"""Executors: the worker's run_task, the JSON form across the process boundary, the table of
executors, and workers that never outlive their parent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import fake_backends
import pytest
from fake_backends import PID_DIR, Stubborn

from sudokucp.executors import EXECUTORS, ResourceLimits, Task, UnknownExecutor, make_executor
from sudokucp.executors.base import from_json, to_json
from sudokucp.executors.local import LocalExecutor
from sudokucp.executors.worker import run_task
from sudokucp.io.formats import parse_grid
from sudokucp.result import Result, Status

EASY = ("003020600" "900305001" "001806400" "008102900" "700000008"
        "006708200" "002609500" "800203009" "005010300")


def _task(spec="naive", key="k", **limits):
    return Task(key, spec, parse_grid(EASY, name="easy"), 1, ResourceLimits(**limits))


def test_run_task_solves_and_builds_a_spec_once():
    backends, started = {}, []
    first = run_task(_task("mrv:order=static", time_limit=5.0), backends,
                     on_start=lambda: started.append(1))
    assert first.status is Status.SOLVED and first.backend == "mrv:order=static"
    assert list(backends) == ["mrv:order=static"] and started == [1]
    built = backends["mrv:order=static"]
    assert run_task(_task("mrv:order=static"), backends).status is Status.SOLVED
    assert backends["mrv:order=static"] is built


def test_run_task_reports_a_spec_that_does_not_build():
    result = run_task(_task("mrv:order=sideways"))
    assert result.status is Status.ERROR and "order" in result.error


def test_task_and_result_cross_the_boundary_unchanged():
    task = Task("key|1", "mrv:order=static", parse_grid(EASY, name="easy"), 2,
                ResourceLimits(1.5, grace=0.25, memory_mb=512, cores=2),
                {"dataset": "set", "options": {"order": "static"}})
    result = Result("mrv", "easy", Status.SOLVED, ((1, 2), (3, 4)), True, 0.5, {"nodes": 7.0},
                    None)
    for value in (task, result):
        assert from_json(json.loads(json.dumps(to_json(value)))) == value


def test_make_executor_builds_by_name_and_lists_the_names_it_knows():
    executor = make_executor("local", jobs=1)
    assert isinstance(executor, LocalExecutor)
    executor.close()
    with pytest.raises(UnknownExecutor, match="valid names: " + ", ".join(EXECUTORS)):
        make_executor("cluster")


def test_workers_under_other_memory_caps_are_replaced_not_added():
    with LocalExecutor(1) as executor:
        for cap in (None, 512, 512):
            executor.submit(_task(key=str(cap), time_limit=5.0, memory_mb=cap))
        outcomes = list(executor.results())
        assert [o.result.status for o in outcomes] == [Status.SOLVED] * 3
        assert [w.memory_mb for w in executor.idle] == [512]


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal: Linux")
def test_a_worker_in_a_long_solve_dies_with_its_parent(tmp_path):
    pids = tmp_path / "pids"
    pids.mkdir()
    parent = f"""
from sudokucp.executors import ResourceLimits, Task
from sudokucp.executors.local import LocalExecutor
from sudokucp.io.formats import parse_grid
executor = LocalExecutor(1)
executor.submit(Task("k", {fake_backends.spec(Stubborn)!r}, parse_grid({EASY!r}), 1,
                     ResourceLimits(60.0)))
list(executor.results())
"""
    env = {**os.environ, PID_DIR: str(pids), "PYTHONPATH": fake_backends.pythonpath()}
    proc = subprocess.Popen([sys.executable, "-c", parent], env=env)
    worker = None
    try:
        deadline = time.monotonic() + 20
        while not list(pids.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.05)
        worker = int(next(pids.iterdir()).name)
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 5
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(worker)
    finally:
        proc.kill()
        proc.wait()
        if worker is not None and _alive(worker):
            os.killpg(worker, signal.SIGKILL)
