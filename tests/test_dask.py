"""The Dask executor on a LocalCluster of 2 worker processes: the same outcomes as the local
executor, hard time-outs, a worker killed mid-sweep, and the message of a missing [dask] extra.

The Dask workers import this module and fake_backends: the cluster starts with tests/ on the
PYTHONPATH."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
import time

import fake_backends
import pytest
from fake_backends import Stubborn

from sudokucp.backends.mrv import MRV
from sudokucp.cli import main
from sudokucp.executors import ResourceLimits, Task, make_executor
from sudokucp.executors.dask_cluster import EXTRA, MissingExtra
from sudokucp.executors.local import LocalExecutor
from sudokucp.harness.bench import execute
from sudokucp.harness.runcheck import cross_validate
from sudokucp.harness.runlog import ResultLog
from sudokucp.harness.runplan import resolve, run_key
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import Puzzle, Shape

EASY = ("003020600" "900305001" "001806400" "008102900" "700000008"
        "006708200" "002609500" "800203009" "005010300")
NAP = f"{__name__}:Nap"


class Nap(MRV):
    """mrv, 20 ms slower: runs that last long enough to kill a worker among them."""

    name = "fake-nap"

    def _search(self, puzzle, limit, deadline):
        time.sleep(0.02)
        return super()._search(puzzle, limit, deadline)


def relabelled(count: int) -> list[Puzzle]:
    """`count` distinct grids: EASY with its digits renamed."""
    base = parse_grid(EASY)
    grids = []
    for order in itertools.islice(itertools.permutations(range(1, 10)), count):
        cells = tuple(order[v - 1] if v else 0 for v in base.cells)
        grids.append(Puzzle(base.shape, cells, f"easy-{len(grids)}"))
    return grids


def tasks(specs: list[str], puzzles: list[Puzzle], limit: int = 1,
          timeout: float = 5.0) -> list[Task]:
    limits = ResourceLimits(timeout)
    return [Task(run_key(spec, p.digest, limit), spec, p, limit, limits, {"grid": p.to_line()})
            for p in puzzles for spec in specs]


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 worker processes that can import the fake backends."""
    distributed = pytest.importorskip("distributed", reason="the [dask] extra is not installed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", fake_backends.pythonpath())
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=":0") as local:
            yield local


def dask(cluster, **options):
    return make_executor("dask", scheduler=cluster.scheduler_address, **options)


def test_the_same_outcomes_as_the_local_executor(cluster):
    open_4x4 = Puzzle.empty(Shape(2, 2), "open")
    clash = Puzzle(Shape(2, 2), (1, 1) + (0,) * 14, "clash")
    plan = tasks([s.label for s in resolve(["mrv", "hybrid", "logic"])],
                 [*relabelled(3), open_4x4, clash], limit=2)
    with LocalExecutor(2) as local:
        here = {row.key: row for row in execute(plan, local)}
    with dask(cluster) as executor:
        there = {row.key: row for row in execute(plan, executor)}
    assert there.keys() == here.keys()
    for key, row in here.items():
        other = there[key]
        assert (other.status, other.solutions, other.count, other.complete) == (
            row.status, row.solutions, row.count, row.complete), key
    assert cross_validate(list(there.values()))[1] == cross_validate(list(here.values()))[1]


def test_a_run_that_overstays_is_killed_and_the_dask_worker_survives(cluster, monkeypatch):
    pids = cluster_pids(cluster)
    stuck = tasks([fake_backends.spec(Stubborn)], relabelled(1), timeout=1.0)
    after = tasks(["mrv"], relabelled(2)[1:])
    with dask(cluster, chunk=1) as executor:
        rows = {row.backend: row for row in _rows(executor, stuck + after)}
    assert rows[stuck[0].spec].status.value == "timeout"
    assert 1.0 <= rows[stuck[0].spec].wall < 2.0
    assert rows["mrv"].status.value == "solved"
    assert cluster_pids(cluster) == pids


def test_a_worker_killed_mid_sweep_loses_and_doubles_nothing(cluster, tmp_path):
    plan = tasks([NAP], relabelled(120))
    log = ResultLog(tmp_path / "results.jsonl")
    log.open(append=False)
    victim = next(iter(cluster_pids(cluster).values()))
    with dask(cluster, chunk=4) as executor:
        for done, _ in enumerate(execute(plan, executor, log), 1):
            if done == 40:
                os.kill(victim, signal.SIGKILL)
    log.close()
    keys = [json.loads(line)["key"] for line in log.path.read_text().splitlines()]
    assert sorted(keys) == sorted(t.key for t in plan)
    assert victim not in cluster_pids(cluster).values()


def test_bench_on_a_running_scheduler(cluster, tmp_path, capsys):
    puzzles = tmp_path / "grids.txt"
    puzzles.write_text("\n".join(p.to_line() for p in relabelled(4)) + "\n")
    out = tmp_path / "out"
    assert main(["bench", "--backends", "mrv,hybrid", "--puzzles", str(puzzles), "--out",
                 str(out), "--executor", "dask", "--scheduler", cluster.scheduler_address]) == 0
    assert len((out / "results.jsonl").read_text().splitlines()) == 8
    assert "8 runs done" in capsys.readouterr().out


def test_dask_options_need_the_dask_executor(tmp_path, capsys):
    puzzles = tmp_path / "grids.txt"
    puzzles.write_text(EASY + "\n")
    assert main(["bench", "--backends", "mrv", "--puzzles", str(puzzles), "--out",
                 str(tmp_path / "out"), "--workers", "2"]) == 2
    assert "--workers goes with --executor dask" in capsys.readouterr().err


def test_a_missing_extra_says_which_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(MissingExtra, match=r"sudoku-cp\[dask\]"):
        make_executor("dask")
    puzzles = tmp_path / "grids.txt"
    puzzles.write_text(EASY + "\n")
    assert main(["bench", "--backends", "mrv", "--puzzles", str(puzzles), "--out",
                 str(tmp_path / "out"), "--executor", "dask"]) == 2
    assert capsys.readouterr().err == f"sudoku-cp: {EXTRA}\n"
    assert not (tmp_path / "out").exists()


def cluster_pids(cluster) -> dict[str, int]:
    """The process id of each Dask worker, by address."""
    with cluster.get_client() as client:
        return client.run(os.getpid)


def _rows(executor, plan):
    return list(execute(plan, executor))


def test_too_many_workers_are_refused_before_a_cluster_starts(tmp_path, monkeypatch, capsys):
    distributed = pytest.importorskip("distributed", reason="the [dask] extra is not installed")

    def started(*args, **kwargs):
        raise AssertionError("a LocalCluster started")

    monkeypatch.setattr(distributed, "LocalCluster", started)
    puzzles = tmp_path / "grids.txt"
    puzzles.write_text(EASY + "\n")
    assert main(["bench", "--backends", "mrv", "--puzzles", str(puzzles), "--out",
                 str(tmp_path / "out"), "--executor", "dask", "--workers", "10000"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sudoku-cp: --workers 10000: at most ") and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("address", ["notanaddress", "tcp://host", "nope://host:1"])
def test_a_scheduler_address_dask_cannot_read_is_one_line(tmp_path, capsys, address):
    pytest.importorskip("distributed", reason="the [dask] extra is not installed")
    puzzles = tmp_path / "grids.txt"
    puzzles.write_text(EASY + "\n")
    assert main(["bench", "--backends", "mrv", "--puzzles", str(puzzles), "--out",
                 str(tmp_path / "out"), "--executor", "dask", "--scheduler", address]) == 2
    err = capsys.readouterr().err
    assert f"--scheduler '{address}' is not a Dask scheduler address" in err
    assert err.count("\n") == 1 and not (tmp_path / "out").exists()


def test_dask_warnings_are_quiet_while_a_sweep_runs(cluster):
    import logging

    nanny = logging.getLogger("distributed.nanny")
    heard = []
    with dask(cluster) as executor:
        for task in tasks(["mrv"], relabelled(2)):
            executor.submit(task)
        for _ in executor.results():
            heard.append(nanny.isEnabledFor(logging.WARNING))
    assert heard == [False, False]  # a dying worker's restart is no warning on stderr
    assert nanny.isEnabledFor(logging.WARNING)  # and Dask speaks again after the sweep


def test_the_summary_names_the_executor():
    from sudokucp.reporting.report import settings_lines

    local = settings_lines({"executor": {"name": "dask", "workers": 3}})
    remote = settings_lines({"executor": {"name": "dask", "scheduler": "tcp://h:8786",
                                          "chunk": 5}})
    assert "a local cluster of 3 worker processes" in local[0] and "jobs does not apply" in local[0]
    assert "the cluster at tcp://h:8786" in remote[0] and "5 runs per Dask task" in remote[0]
