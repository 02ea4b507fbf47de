"""What the harness measures: CPU time (threads, child programs), wall time, peak memory, the CPU
limit, repeats in a shuffled order that resume completes, and the noise calibration's warning.

No test depends on the machine's speed or quietness: a busy run spins for a set amount of CPU time
(not of wall time), the noise warnings and compare's verdicts are fed calibration points and run
times chosen here, and the other bounds hold between two clocks of one run, or are generous."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import fake_backends
import pytest
from fake_backends import Bulge, Sleep, Spin, Stubborn, Threads, Where

from sudokucp.backends import from_spec
from sudokucp.backends.mrv import MRV
from sudokucp.executors import Outcome, ResourceLimits, Task, cputime, worker
from sudokucp.executors.local import LocalExecutor, usable_cores
from sudokucp.harness.bench import BenchConfig, bench
from sudokucp.harness.runcheck import verify
from sudokucp.harness.runlog import RESULTS, ResultLog
from sudokucp.harness.runplan import Contender, load_dataset, plan, resolve
from sudokucp.io.formats import parse_grid
from sudokucp.machine import calibration
from sudokucp.reporting.report import NO_WARNING
from sudokucp.result import Result, Row, Status

ROOT = Path(__file__).resolve().parents[1]
FOUR = ROOT / "puzzles" / "examples" / "4x4.txt"  # 5 grids
SIX = FOUR.with_name("6x6.txt")  # 5 grids
BUSY = 0.3  # CPU seconds of CpuSpin and of the CHILD program
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
SPIN = fake_backends.spec(Spin)
SLEEP = fake_backends.spec(Sleep)
needs_proc = pytest.mark.skipif(not cputime.supported(), reason="CPU limits read Linux's /proc")


@pytest.fixture
def fakes_in_workers(monkeypatch):
    """Worker processes find fake_backends on their path."""
    monkeypatch.setenv("PYTHONPATH", fake_backends.pythonpath())


def _one_grid(tmp_path: Path) -> Path:
    path = tmp_path / "one.txt"
    path.write_text(FOUR.read_text().splitlines()[4] + "\n")
    return path


class CpuSpin(MRV):
    """mrv after spinning until this process has used BUSY seconds of CPU, however long that
    takes on a shared core."""

    name = "test-cpu-spin"

    def _search(self, puzzle, limit, deadline):
        end = time.process_time() + BUSY
        while time.process_time() < end:
            pass
        return super()._search(puzzle, limit, deadline)


def test_a_busy_search_costs_cpu_time_and_a_sleeping_one_none():
    puzzle = parse_grid(EASY)
    busy = CpuSpin().solve(puzzle)
    asleep = from_spec(f"{SLEEP}:seconds=0.3").solve(puzzle)
    assert busy.status is asleep.status is Status.SOLVED
    assert 0.95 * BUSY <= busy.cpu <= busy.seconds + 0.05  # one thread: no more CPU than wall
    assert asleep.seconds >= 0.3 and asleep.cpu < 0.1


CHILD = f'''
import time
while time.process_time() < {BUSY}:  # {BUSY} s of CPU, however long it takes
    pass
print("{SOLVED}")
'''


def test_every_thread_of_a_search_counts():
    result = from_spec(fake_backends.spec(Threads)).solve(parse_grid(EASY))
    assert result.status is Status.SOLVED
    assert result.stats["threads_cpu"] > 0  # the work is in the threads, not the caller's
    assert result.cpu >= 0.95 * result.stats["threads_cpu"]  # up to 2x the wall on 2 cores


@pytest.mark.skipif(usable_cores() < 2, reason="pinning two workers apart needs two cores")
def test_pinned_workers_run_on_cores_of_their_own(tmp_path, fakes_in_workers):
    where = fake_backends.spec(Where)
    config = BenchConfig(backends=[where, f"{where}:seconds=0.31"],
                         puzzles=[str(_one_grid(tmp_path))], out=tmp_path / "out", timeout=10,
                         jobs=2, pin=True)
    rows = bench(config).rows
    assert [row.stats["cores"] for row in rows] == [1, 1]
    assert len({row.stats["core"] for row in rows}) == 2  # the two ran at once, apart
    free = BenchConfig(backends=config.backends, puzzles=config.puzzles, out=tmp_path / "free",
                       timeout=10)
    assert {row.stats["cores"] for row in bench(free).rows} == {usable_cores()}


def test_a_command_backends_child_program_is_counted(tmp_path):
    solver = tmp_path / "spin.py"
    solver.write_text(CHILD)
    result = from_spec(f"command:run={sys.executable} {solver} {{file}}").solve(
        parse_grid(EASY), time_limit=30)
    assert result.status is Status.SOLVED
    assert result.cpu >= BUSY and result.seconds >= BUSY


def test_bench_rows_carry_cpu_wall_and_memory(tmp_path, fakes_in_workers):
    solver = tmp_path / "spin.py"
    solver.write_text(CHILD)
    easy = tmp_path / "easy.txt"
    easy.write_text(EASY + "\n")  # the grid CHILD solves
    busy = f"command:run={sys.executable} {solver} {{file}}"
    config = BenchConfig(backends=[busy, f"{SLEEP}:seconds=0.3"], puzzles=[str(easy)],
                         out=tmp_path / "out", timeout=30)
    rows = {row.name: row for row in bench(config).rows}
    spin, sleep = rows["command"], rows["fake-sleep"]
    assert spin.status is sleep.status is Status.SOLVED
    assert spin.measure == "cpu" and spin.seconds == spin.cpu
    assert BUSY <= spin.cpu <= spin.wall + 0.05  # the child's CPU, counted in the worker's run
    assert sleep.wall >= 0.3 and sleep.cpu < 0.1
    assert spin.rss_mb > 10 and sleep.rss_mb > 10  # a Python worker's resident memory
    walled = BenchConfig(backends=config.backends, puzzles=config.puzzles,
                         out=tmp_path / "wall", timeout=30, measure="wall")
    assert {row.seconds == row.wall for row in bench(walled).rows} == {True}


needs_reset = pytest.mark.skipif(not worker.reset_peak(), reason="a peak reset: Linux's "
                                                                "/proc/self/clear_refs")


@needs_reset
def test_a_small_run_after_a_big_one_in_the_same_worker_reports_a_small_peak(fakes_in_workers):
    puzzle = parse_grid(EASY)
    tasks = [Task("big", f"{fake_backends.spec(Bulge)}:mb=400", puzzle),
             Task("small", "mrv", puzzle),
             Task("killed", fake_backends.spec(Stubborn), puzzle,
                  limits=ResourceLimits(time_limit=0.2, grace=0.2))]
    with LocalExecutor(jobs=1) as executor:  # one worker runs the three in turn
        for task in tasks:
            executor.submit(task)
        done = {o.task.key: o for o in executor.results()}
    big, small, killed = done["big"], done["small"], done["killed"]
    assert big.result.status is small.result.status is Status.SOLVED
    assert killed.result.status is Status.TIMEOUT
    assert {o.rss_scope for o in done.values()} == {"run"}
    assert big.rss_mb >= 400
    assert small.rss_mb < big.rss_mb - 300 and killed.rss_mb < big.rss_mb - 300
    assert 0 < small.rss_start_mb <= small.rss_mb and killed.rss_start_mb is None
    row = verify(small)
    assert (row.rss_mb, row.rss_scope, row.rss_start_mb) == (small.rss_mb, "run",
                                                             small.rss_start_mb)


HOLDER = """#!{python}
import sys
held = bytearray({mb} * 2**20)
held[::4096] = b"\\1" * len(range(0, len(held), 4096))  # pages touched: resident
print("{answer}")
"""


def holder(folder: Path, mb: int) -> str:
    """A command backend's spec: a program that holds `mb` MB, then prints EASY's solution."""
    path = folder / f"hold{mb}.py"
    path.write_text(HOLDER.format(python=sys.executable, mb=mb, answer=SOLVED))
    path.chmod(0o755)
    return f"command:run={path}"


@needs_reset
def test_a_program_under_an_earlier_ones_peak_reports_its_own(tmp_path):
    """Each program's peak is read when it is reaped: a small one after a big one in the same
    worker is measured, its scope the run's, not the worker's."""
    puzzle = parse_grid(EASY)
    tasks = [Task(str(mb), holder(tmp_path, mb), puzzle) for mb in (300, 20)]
    with LocalExecutor(jobs=1) as executor:
        for task in tasks:
            executor.submit(task)
        done = {o.task.key: o for o in executor.results()}
    big, small = done["300"], done["20"]
    assert big.result.status is small.result.status is Status.SOLVED
    assert big.rss_scope == small.rss_scope == "run"
    assert big.rss_mb >= 300 and small.rss_mb < big.rss_mb - 200
    assert small.result.stats["program_peak_kb"] >= 20 * 1024


def test_without_a_reset_the_peak_is_the_workers_and_says_so(monkeypatch):
    lifetime = max(worker.lifetime_peaks()) / 1024
    assert worker.run_peak(False, worker.programs()) == (lifetime, "worker")
    monkeypatch.setattr(worker, "CLEAR_REFS", "/nonexistent/clear_refs")
    assert worker.reset_peak() is False


@needs_reset
def test_a_reset_peak_forgets_what_came_before():
    held = bytearray(200 * 2**20)
    held[::4096] = b"\1" * len(range(0, len(held), 4096))
    del held
    before = worker.own_peak_kb() / 1024
    assert worker.reset_peak()
    peak, scope = worker.run_peak(True, worker.programs())
    assert scope == "run" and peak < before - 150
    hidden = (10**12, -1.0)  # a program ran in the run, under an earlier one's peak
    assert worker.run_peak(True, hidden)[1] == "worker"


@needs_proc
def test_the_cpu_limit_stops_a_spinning_run_within_a_second(tmp_path, fakes_in_workers):
    config = BenchConfig(backends=[f"{SPIN}:seconds=0"], puzzles=[str(_one_grid(tmp_path))],
                         out=tmp_path / "out", timeout=60, cpu_limit=1.0)
    [row] = bench(config).rows
    assert row.status is Status.TIMEOUT and row.limit_hit == "cpu"
    assert 1.0 <= row.cpu < 2.0
    assert "CPU limit of 1 s passed" in row.error


@needs_proc
def test_solve_takes_a_cpu_limit(tmp_path, fakes_in_workers):
    done = subprocess.run([sys.executable, "-m", "sudokucp", "solve", str(_one_grid(tmp_path)),
                           "--backend", f"{SPIN}:seconds=0", "--cpu-limit", "0.5"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("TIMEOUT") and "CPU limit of 0.5 s passed" in done.stdout


def _contenders(*specs: str) -> list[Contender]:
    return [Contender(spec, spec, {}, "1", 1) for spec in specs]


def test_repeats_are_shuffled_the_same_way_by_the_same_seed():
    data = [load_dataset(FOUR)]
    keys = {seed: [t.key for t in plan(_contenders("a", "b"), data, repeat=3, seed=seed)]
            for seed in (1, 1, 2)}
    again = [t.key for t in plan(_contenders("a", "b"), data, repeat=3, seed=1)]
    assert len(keys[1]) == len(set(keys[1])) == 5 * 2 * 3
    assert keys[1] == again and keys[1] != keys[2]
    assert keys[1] != sorted(keys[1], key=lambda k: k.rsplit("#", 1)[-1])  # repeats mixed
    unshuffled = plan(_contenders("a", "b"), data, repeat=3)  # repeats: shuffled by seed 0
    assert [t.key for t in unshuffled] == [t.key for t in plan(_contenders("a", "b"), data,
                                                               repeat=3, seed=0)]
    assert [t.meta["repeat"] for t in plan(_contenders("a"), data)] == [0] * 5


def _log(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()
            if line.strip().endswith("}")]


def test_three_repeats_write_three_rows_in_the_planned_order(tmp_path):
    config = BenchConfig(backends=["mrv", "naive"], puzzles=[str(FOUR)], out=tmp_path / "out",
                         repeat=3, seed=7)
    outcome = bench(config)
    planned = [t.key for t in plan(_contenders("mrv", "naive"), [load_dataset(FOUR)],
                                   repeat=3, seed=7)]
    assert [line["key"] for line in _log(config.out)] == planned
    by_run: dict[tuple[str, str], list[int]] = {}
    for row in outcome.rows:
        by_run.setdefault((row.backend, row.hash), []).append(row.repeat)
    assert len(by_run) == 10 and all(sorted(r) == [0, 1, 2] for r in by_run.values())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PDEATHSIG: Linux")
def test_resume_after_kill_9_completes_the_repeats_without_duplicates(tmp_path):
    args = [sys.executable, "-m", "sudokucp", "bench", "--backends", "mrv",
            f"{SLEEP}:seconds=0.1", "--puzzles", str(FOUR), "--repeat", "3", "--seed", "4",
            "--out", "out"]
    env = os.environ | {"PYTHONPATH": fake_backends.pythonpath()}
    first = subprocess.Popen(args, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    log = tmp_path / "out" / "results.jsonl"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not log.exists() or len(_log(tmp_path / "out"))
                                               < 8):
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        first.kill()
        first.wait()
    before = len(_log(tmp_path / "out"))
    assert 8 <= before < 30
    again = subprocess.run([*args, "--resume"], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    keys = [line["key"] for line in _log(tmp_path / "out")]
    assert len(keys) == len(set(keys)) == 30
    repeats = {(line["backend"], line["hash"], line["repeat"]) for line in _log(tmp_path / "out")}
    assert len(repeats) == 30


def test_the_calibration_warns_of_a_moving_speed_and_of_a_load_over_the_cores():
    steady = [calibration.Point(0.002, 0.002 * (1 + k / 200)) for k in range(10)]  # 4.5%
    assert calibration.warnings(steady, [0.3, 0.5], 2) == []
    shared = [*steady, calibration.Point(0.002, 0.006)]
    assert calibration.spread([p.wall for p in shared]) == pytest.approx(
        (0.006 - 0.002) / 0.002 / (1 + 5 / 200), rel=1e-3)
    [wall] = calibration.warnings(shared, [0.3], 2)
    assert "wall time varied by 195%" in wall and "distrust the wall times" in wall
    waited = [calibration.Point(0.002, 0.0025) for _ in range(3)]
    [wall] = calibration.warnings(waited, [0.3], 2)
    assert "its wall time was 25% over its CPU time" in wall
    slowed = [*steady, calibration.Point(0.0024, 0.0024)]
    assert [w.split(":")[0] for w in calibration.warnings(slowed, [2.5], 2)] == [
        "the calibration loop's CPU time varied by 20% (over 10%)",
        "the calibration loop's wall time varied by 20% (over 10%)",
        "the load average reached 2.50, over the 2 usable cores"]


class Scripted:
    """An executor that runs each backend in this process and answers each calibration task with
    the next of `points` (round and round): calibration figures chosen by the test."""

    def __init__(self, points: list[calibration.Point]) -> None:
        self.points, self.tasks, self.closed = points, [], False

    def submit(self, task: Task) -> None:
        self.tasks.append(task)

    def results(self):
        answered = 0
        for task in self.tasks:
            if task.spec == calibration.SPEC:
                point = self.points[answered % len(self.points)]
                answered += 1
                result = Result(task.spec, task.puzzle.name, Status.SOLVED, seconds=point.wall,
                                cpu=point.cpu)
            else:
                result = from_spec(task.spec).solve(task.puzzle, limit=task.limit)
            yield Outcome(task, result, result.seconds)

    def close(self) -> None:
        self.closed = True


STEADY = [calibration.Point(0.002, 0.002 * (1 + k / 200)) for k in range(10)]  # 4.5% apart
LOADED = [calibration.Point(0.002, 0.003)] * 6 + [calibration.Point(0.0024, 0.0036)]  # slowed,
# and waiting for a core half as long again as the loop's CPU time


def _noise(tmp_path, monkeypatch, capsys, name: str, points: list[calibration.Point],
           load: float) -> tuple[list[str], str, str]:
    """`sudoku-cp bench` of mrv on five grids, 12 repeats, under a load average of `load`, its
    calibration tasks answered with `points`: the warnings, summary.md and standard error."""
    from sudokucp.cli import main

    executor = Scripted(points)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr("sudokucp.harness.bench.make_executor", lambda name, **options: executor)
    out = tmp_path / name
    assert main(["bench", "--backends", "mrv", "--puzzles", str(FOUR), "--repeat", "12",
                 "--seed", "1", "--out", str(out)]) == 0
    assert executor.closed
    measured = json.loads((out / "measurement.json").read_text())
    assert measured["calibration"]["runs"] == 7  # one per 10 runs, and the last
    assert measured["load"] == measured["load_end"] == f"{load:.2f} {load:.2f} {load:.2f}"
    return measured["warnings"], (out / "summary.md").read_text(), capsys.readouterr().err


def test_a_quiet_machine_gets_no_noise_warning(tmp_path, monkeypatch, capsys):
    warnings, summary, err = _noise(tmp_path, monkeypatch, capsys, "quiet", STEADY, 0.5)
    assert warnings == []
    assert f"## Measurement noise\n\n{NO_WARNING}" in summary
    assert "noise warning" not in err


def test_a_busy_machine_gets_each_noise_warning_in_the_summary(tmp_path, monkeypatch, capsys):
    load = usable_cores() + 1.5  # a load average over the usable cores, wherever this runs
    warnings, summary, err = _noise(tmp_path, monkeypatch, capsys, "busy", LOADED, load)
    assert [w.split(":")[0] for w in warnings] == [
        "the calibration loop's CPU time varied by 20% (over 10%)",
        "the calibration loop waited for a core",
        f"the load average reached {load:.2f}, over the {usable_cores()} usable cores"]
    assert "its wall time was 50% over its CPU time" in warnings[1]
    assert "distrust the wall times" in warnings[1] and "distrust the wall times" in warnings[2]
    for warning in warnings:
        assert f"- {warning}\n" in summary and f"noise warning: {warning}\n" in err
    assert NO_WARNING not in summary


def test_a_log_from_before_cpu_time_still_loads(tmp_path):
    old = {"key": "mrv|h|1", "backend": "mrv", "status": "solved", "seconds": 0.01,
           "wall": 0.012, "hash": "h"}
    row = Row.from_dict(old)
    assert (row.cpu, row.measure, row.repeat, row.seconds) == (None, "wall", 0, 0.01)


def test_par2_counts_an_unsolved_run_at_twice_its_cpu_limit_when_it_had_one():
    import pandas as pd

    from sudokucp.reporting.scores import penalised_seconds

    runs = pd.DataFrame({"status": ["solved", "timeout", "timeout"], "seconds": [0.5, 3.0, 9.0],
                         "timeout": [10.0, 10.0, 10.0], "cpu_limit": [None, 1.5, None]})
    assert penalised_seconds(runs).tolist() == [0.5, 3.0, 20.0]


def _timed_folder(folder: Path, factor: Callable[[int, int], float]) -> str:
    """A results folder of mrv on the ten example grids, 3 repeats each, every row made by the
    harness from a real solve but given the CPU time (2 + puzzle) ms x factor(puzzle, repeat)."""
    datasets = [load_dataset(FOUR), load_dataset(SIX)]
    order = {p.digest: index for index, p in enumerate(p for d in datasets for p in d.puzzles)}
    log = ResultLog(folder / RESULTS)
    folder.mkdir(parents=True)
    log.open(append=False)
    for task in plan(resolve(["mrv"]), datasets, repeat=3, seed=0):
        index = order[task.puzzle.digest]
        seconds = (2 + index) / 1000 * factor(index, task.meta["repeat"])
        result = from_spec(task.spec).solve(task.puzzle, limit=task.limit)
        result = dataclasses.replace(result, seconds=seconds, cpu=seconds)
        log.write(verify(Outcome(task, result, seconds)))
    log.close()
    return str(folder)


JITTER = (1.0, 1.03, 0.97)  # the repeats of a puzzle, a few per cent apart


def test_compare_flags_a_planted_slowdown_and_not_a_rerun_of_the_same_bench(tmp_path, capsys):
    from sudokucp.cli import main

    def rerun(index: int, repeat: int) -> float:  # timer noise: each puzzle 4% off, either way
        return JITTER[repeat - 1] * (1.04 if index % 2 else 0.96)

    first = _timed_folder(tmp_path / "first", lambda index, repeat: JITTER[repeat])
    again = _timed_folder(tmp_path / "again", rerun)
    slowed = _timed_folder(tmp_path / "slowed", lambda index, repeat: 1.5 * rerun(index, repeat))
    assert main(["compare", first, again]) == 0
    assert "no regression" in capsys.readouterr().out
    assert main(["compare", first, slowed]) == 1
    assert "REGRESSIONS: mrv slower: NEW/OLD 1.5" in capsys.readouterr().out


def test_a_measurement_file_of_the_wrong_shape_is_left_out_of_the_report(tmp_path):
    from sudokucp.cli import main
    from sudokucp.harness.measurement import MEASUREMENT_FILE, read_measurement

    config = BenchConfig(backends=["mrv"], puzzles=[str(_one_grid(tmp_path))],
                         out=tmp_path / "out")
    bench(config)
    assert read_measurement(config.out)["calibration"]["runs"] == 2
    bad = {"calibration": "x", "warnings": [1], "repeat": "three", "measure": "cpu"}
    (config.out / MEASUREMENT_FILE).write_text(json.dumps(bad))
    assert read_measurement(config.out) == {"measure": "cpu"}
    (config.out / MEASUREMENT_FILE).write_text("[1, 2]")
    assert read_measurement(config.out) == {}
    assert main(["report", str(config.out)]) == 0
