"""What the harness measures: CPU time (threads, child programs), wall time, peak memory, the CPU
limit, repeats in a shuffled order that resume completes, and the noise calibration's warning.

No test asserts a speed: bounds are ratios between two clocks of one run, or generous."""

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
from fake_backends import SLOWDOWN, Sleep, Spin, Threads, Where, Work

from sudokucp import calibration
from sudokucp.backends import from_spec
from sudokucp.executors import cputime
from sudokucp.executors.local import usable_cores
from sudokucp.harness import BenchConfig, Contender, bench, load_dataset, plan
from sudokucp.puzzle import Puzzle
from sudokucp.result import Row, Status

ROOT = Path(__file__).resolve().parents[1]
FOUR = ROOT / "puzzles" / "examples" / "4x4.txt"  # 5 grids
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


def test_a_busy_search_costs_its_wall_time_in_cpu_and_a_sleeping_one_none():
    puzzle = Puzzle.parse(EASY)
    busy = from_spec(f"{SPIN}:seconds=0.3").solve(puzzle)
    asleep = from_spec(f"{SLEEP}:seconds=0.3").solve(puzzle)
    assert busy.status is asleep.status is Status.SOLVED
    assert 0.4 * busy.seconds <= busy.cpu <= busy.seconds + 0.05  # a shared core gives less
    assert asleep.seconds >= 0.3 and asleep.cpu < 0.1


CHILD = f'''
import time
while time.process_time() < 0.3:  # 0.3 s of CPU, however long it takes
    pass
print("{SOLVED}")
'''


def test_every_thread_of_a_search_counts():
    result = from_spec(fake_backends.spec(Threads)).solve(Puzzle.parse(EASY))
    assert result.status is Status.SOLVED
    assert result.stats["threads_cpu"] > 0.1  # the work is in the threads, not the caller's
    assert result.cpu >= 0.95 * result.stats["threads_cpu"]  # up to 2x the wall on 2 cores


@pytest.mark.skipif(usable_cores() < 2, reason="pinning two workers apart needs two cores")
def test_pinned_workers_run_on_cores_of_their_own(tmp_path, fakes_in_workers):
    where = fake_backends.spec(Where)
    config = BenchConfig([where, f"{where}:seconds=0.31"], [str(_one_grid(tmp_path))],
                         tmp_path / "out", timeout=10, jobs=2, pin=True)
    rows = bench(config).rows
    assert [row.stats["cores"] for row in rows] == [1, 1]
    assert len({row.stats["core"] for row in rows}) == 2  # the two ran at once, apart
    free = BenchConfig(config.backends, config.puzzles, tmp_path / "free", timeout=10)
    assert {row.stats["cores"] for row in bench(free).rows} == {usable_cores()}


def test_a_command_backends_child_program_is_counted(tmp_path):
    solver = tmp_path / "spin.py"
    solver.write_text(CHILD)
    result = from_spec(f"command:run={sys.executable} {solver} {{file}}").solve(
        Puzzle.parse(EASY), time_limit=30)
    assert result.status is Status.SOLVED
    assert result.cpu >= 0.3 and result.seconds >= 0.3


def test_bench_rows_carry_cpu_wall_and_memory(tmp_path, fakes_in_workers):
    config = BenchConfig([f"{SPIN}:seconds=0.3", f"{SLEEP}:seconds=0.3"],
                         [str(_one_grid(tmp_path))], tmp_path / "out", timeout=10)
    rows = {row.name: row for row in bench(config).rows}
    spin, sleep = rows["fake-spin"], rows["fake-sleep"]
    assert spin.status is sleep.status is Status.SOLVED
    assert spin.measure == "cpu" and spin.seconds == spin.cpu
    assert 0.4 * spin.wall <= spin.cpu <= spin.wall + 0.05
    assert sleep.wall >= 0.3 and sleep.cpu < 0.1
    assert spin.rss_mb > 10 and sleep.rss_mb > 10  # a Python worker's resident memory
    walled = BenchConfig(config.backends, config.puzzles, tmp_path / "wall", timeout=10,
                         measure="wall")
    assert {row.seconds == row.wall for row in bench(walled).rows} == {True}


@needs_proc
def test_the_cpu_limit_stops_a_spinning_run_within_a_second(tmp_path, fakes_in_workers):
    config = BenchConfig([f"{SPIN}:seconds=0"], [str(_one_grid(tmp_path))], tmp_path / "out",
                         timeout=60, cpu_limit=1.0)
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
    config = BenchConfig(["mrv", "naive"], [str(FOUR)], tmp_path / "out", repeat=3, seed=7)
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


def _noise(tmp_path: Path, name: str) -> list[str]:
    config = BenchConfig(["mrv"], [str(FOUR)], tmp_path / name, repeat=12, seed=1)
    outcome = bench(config)
    assert outcome.measurement["calibration"]["runs"] == 7  # one per 10 runs, and the last
    summary = (config.out / "summary.md").read_text()
    assert all(w in summary for w in outcome.measurement["warnings"])
    return outcome.measurement["warnings"]


def test_the_noise_warning_appears_beside_a_cpu_hog_and_not_on_a_quiet_machine(tmp_path):
    quiet = _noise(tmp_path, "quiet")  # the load average may still carry earlier tests' work
    assert [w for w in quiet if "calibration loop" in w] == []
    spin = "while True: pass"  # each in a session of its own, as another user's work would be
    hogs = [subprocess.Popen([sys.executable, "-c", spin], start_new_session=True)
            for _ in range(2 * os.cpu_count())]
    try:
        time.sleep(0.2)
        warnings = _noise(tmp_path, "loaded")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert any("distrust the wall times" in w for w in warnings), warnings


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


def test_compare_flags_a_planted_slowdown_and_not_a_rerun_of_the_same_bench(tmp_path, monkeypatch,
                                                                            fakes_in_workers):
    from sudokucp.cli import main

    examples = [str(FOUR), str(FOUR.with_name("6x6.txt"))]  # 10 puzzles

    def run(name: str, slowdown: str) -> str:
        monkeypatch.setenv(SLOWDOWN, slowdown)
        bench(BenchConfig([fake_backends.spec(Work)], examples, tmp_path / name, repeat=3))
        return str(tmp_path / name)

    first, again, slowed = run("first", "1"), run("again", "1"), run("slowed", "1.5")
    assert main(["compare", first, again]) == 0
    assert main(["compare", first, slowed]) == 1


def test_a_measurement_file_of_the_wrong_shape_is_left_out_of_the_report(tmp_path):
    from sudokucp.cli import main
    from sudokucp.harness import MEASUREMENT_FILE, read_measurement

    config = BenchConfig(["mrv"], [str(_one_grid(tmp_path))], tmp_path / "out")
    bench(config)
    assert read_measurement(config.out)["calibration"]["runs"] == 2
    bad = {"calibration": "x", "warnings": [1], "repeat": "three", "measure": "cpu"}
    (config.out / MEASUREMENT_FILE).write_text(json.dumps(bad))
    assert read_measurement(config.out) == {"measure": "cpu"}
    (config.out / MEASUREMENT_FILE).write_text("[1, 2]")
    assert read_measurement(config.out) == {}
    assert main(["report", str(config.out)]) == 0
