"""The harness: hard limits in worker processes, verification, cross-validation, resume, the CLI.

The misbehaving backends of fake_backends.py load by their import path ('fake_backends:Liar'); the
`fakes` fixture puts tests/ on the PYTHONPATH of every process started from then on.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time

import fake_backends
import pytest
from fake_backends import PID_DIR, Abort, Denier, Hog, Liar, Segfault, SlowPrepare, Stubborn

from sudokucp.cli import main
from sudokucp.executors import ResourceLimits, Task
from sudokucp.executors.local import LocalExecutor, usable_cores
from sudokucp.harness.bench import BenchConfig, bench, execute
from sudokucp.harness.runcheck import cross_validate, enforce_time_limit
from sudokucp.harness.runlog import ResultLog
from sudokucp.harness.runplan import Contender, Dataset, plan
from sudokucp.io.formats import parse_grid
from sudokucp.result import Row, Status

# The grid of seed 001 with its two commented clues added: it defeats naive backtracking.
ANTI_NAIVE = ("000000000" "000003085" "001020000" "000507000" "004000100"
              "090000000" "500000073" "002010000" "000040009")
EASY = ("003020600" "900305001" "001806400" "008102900" "700000008"
        "006708200" "002609500" "800203009" "005010300")
ABORT, SEGV, HOG, LIAR, DENIER, STUBBORN = map(fake_backends.spec,
                                               (Abort, Segfault, Hog, Liar, Denier, Stubborn))


@pytest.fixture
def fakes(monkeypatch):
    """tests/ on the PYTHONPATH of every process started from now on (workers, the CLI)."""
    monkeypatch.setenv("PYTHONPATH", fake_backends.pythonpath())


def _task(spec, cells=EASY, key=None, timeout=5.0, limit=1, memory_mb=None):
    puzzle = parse_grid(cells, name=key or spec)
    return Task(key or spec, spec, puzzle, limit, ResourceLimits(timeout, memory_mb=memory_mb))


def _run(tasks, jobs=1):
    with LocalExecutor(jobs) as executor:
        rows = list(execute(tasks, executor))
    return {row.key: row for row in rows}


def test_cooperative_timeout_then_next_run_goes_on():
    start = time.monotonic()
    rows = _run([_task("naive", ANTI_NAIVE, "hard", timeout=1.0), _task("naive", key="next")])
    assert rows["hard"].status is Status.TIMEOUT
    assert rows["next"].status is Status.SOLVED and rows["next"].verified is True
    assert time.monotonic() - start < 5


def test_hard_kill_on_timeout_then_fresh_worker(fakes):
    rows = _run([_task(STUBBORN, key="stuck", timeout=1.0), _task("mrv", key="next")])
    assert rows["stuck"].status is Status.TIMEOUT
    assert "killed" in rows["stuck"].error
    assert 1.0 <= rows["stuck"].wall < 3.0
    assert rows["next"].status is Status.SOLVED


@pytest.mark.parametrize("spec, signame", [(ABORT, "SIGABRT"), (SEGV, "SIGSEGV")])
def test_crash_is_recorded_and_next_run_goes_on(fakes, spec, signame):
    rows = _run([_task(spec, key="crash"), _task("naive", key="next")])
    assert rows["crash"].status is Status.CRASH
    assert signame in rows["crash"].error
    assert rows["next"].status is Status.SOLVED


def test_memory_cap_gives_memout(fakes):
    rows = _run([_task(HOG, key="hog", timeout=30, memory_mb=256),
                 _task("naive", key="next", memory_mb=256)])
    assert rows["hog"].status is Status.MEMOUT
    assert rows["hog"].memory_mb == 256
    assert rows["next"].status is Status.SOLVED


def test_invalid_solution_is_wrong(fakes):
    rows = _run([_task(LIAR, key="liar")])
    assert rows["liar"].status is Status.WRONG
    assert rows["liar"].verified is False
    assert "invalid solution" in rows["liar"].error


def test_unsat_claim_against_a_verified_solution_is_a_disagreement(fakes):
    rows = list(_run([_task(DENIER, key="d"), _task("mrv", key="m")]).values())
    checked, found = cross_validate(rows)
    assert [d.wrong for d in found] == [(DENIER,)]
    status = {r.backend: r.status for r in checked}
    assert status == {DENIER: Status.WRONG, "mrv": Status.SOLVED}


def _row(backend, count, complete, status="solved", solutions=(), **more):
    return Row(key=backend, backend=backend, puzzle="p", hash="h", status=Status(status),
               count=count, complete=complete, verified=True if solutions else None,
               solutions=tuple(solutions), **more)


def test_exact_counts_that_differ_are_reported():
    rows = [_row("a", 3, True, solutions=["x", "y"]), _row("b", 4, True, solutions=["x"]),
            _row("c", 1, False, solutions=["z"])]
    checked, found = cross_validate(rows)
    assert len(found) == 1 and "disagree on the count" in found[0].message
    assert {r.status for r in checked} == {Status.SOLVED}


def test_unique_claims_with_different_solutions_are_wrong():
    rows = [_row("a", 1, True, solutions=["x"]), _row("b", 1, True, solutions=["y"])]
    checked, found = cross_validate(rows)
    assert found and set(found[0].wrong) == {"a", "b"}
    assert {r.status for r in checked} == {Status.WRONG}


def test_an_answer_past_the_time_limit_is_a_timeout():
    late = _row("a", 1, False, solutions=["x"], seconds=2.3, timeout=2.0)
    assert enforce_time_limit(late).status is Status.TIMEOUT
    in_time = _row("a", 1, False, solutions=["x"], seconds=1.9, timeout=2.0)
    assert enforce_time_limit(in_time) == in_time


def test_agreeing_backends_give_no_disagreement():
    rows = [_row("a", 1, True, solutions=["x"]), _row("b", 1, False, solutions=["x"]),
            _row("c", 0, False, status="timeout")]
    assert cross_validate(rows)[1] == []


def test_plan_dedupes_and_shuffles_with_a_seed():
    puzzles = [parse_grid(EASY, name="a"), parse_grid(ANTI_NAIVE, name="b"),
               parse_grid(EASY, name="again")]
    datasets = [Dataset("set", puzzles)]
    two = [Contender("naive", "naive", {}, "dev", 1), Contender("mrv", "mrv", {}, "dev", 1)]
    tasks = plan(two, datasets)
    assert [t.key.split("|")[0] for t in tasks] == ["naive", "mrv", "naive", "mrv"]
    orders = [[t.puzzle.name for t in plan(two, datasets * 4, seed=s)] for s in (7, 7, 8)]
    assert orders[0] == orders[1]
    assert len(orders[0]) == 4


def test_preparing_a_new_shape_is_no_part_of_a_runs_time(fakes):
    """A backend that takes 1 s to prepare each shape (a compile) answers every run of 0.5 s,
    its first 9x9 grid after a 4x4 one included: each new shape starts the clock afresh."""
    slow = f"{fake_backends.spec(SlowPrepare)}:seconds=1.0"
    four = "1.3." "..2." ".3.." "2..."
    tasks = [_task(slow, four, "4x4", timeout=0.5), _task(slow, EASY, "9x9", timeout=0.5),
             _task(slow, EASY, "9x9 again", timeout=0.5)]
    rows = _run(tasks)
    assert {key: row.status for key, row in rows.items()} == {
        "4x4": Status.SOLVED, "9x9": Status.SOLVED, "9x9 again": Status.SOLVED}
    assert all(row.verified for row in rows.values())


def test_jobs_never_exceed_the_cores():
    assert LocalExecutor(64).cores == usable_cores()


@pytest.mark.skipif(usable_cores() < 2, reason="needs two cores")
@pytest.mark.parametrize("cores, workers", [(1, 2), (2, 1)])
def test_a_run_counts_its_cores(cores, workers):
    tasks = [Task(str(i), "naive", parse_grid(ANTI_NAIVE), 1, ResourceLimits(0.3, cores=cores))
             for i in range(2)]
    with LocalExecutor(2) as executor:
        for task in tasks:
            executor.submit(task)
        statuses = [outcome.result.status.value for outcome in executor.results()]
        assert statuses == ["timeout", "timeout"]
        assert len(executor.idle) == workers  # two-core runs went one at a time on one worker


def test_progress_off_a_terminal_prints_plain_lines():
    from sudokucp.cli.progress import Progress

    stream = io.StringIO()
    progress = Progress(3, stream)
    for _ in range(3):
        progress({})
    progress.finish()
    assert "\r" not in stream.getvalue() and len(stream.getvalue().splitlines()) == 3
    assert "3/3" in progress.line(time.monotonic())


def _small_file(tmp_path, lines):
    path = tmp_path / "small.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_resume_skips_finished_runs_and_tolerates_a_torn_line(tmp_path):
    path = _small_file(tmp_path, [EASY, EASY.replace("3", "0", 1), EASY.replace("6", "0", 1)])
    config = BenchConfig(backends=["naive", "mrv"], puzzles=[str(path)], out=tmp_path / "out",
                         timeout=5, memory_mb=None)
    first = bench(config)
    assert first.ran == 6 and not first.disagreements
    log = tmp_path / "out" / "results.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:4]) + lines[4][:30])  # two runs lost, one line torn
    config.resume = True
    again = bench(config)
    assert (again.ran, again.skipped) == (2, 4)
    assert any("torn" in note or "run again" in note for note in again.notes)
    rows, notes = ResultLog(log).load()
    assert len(rows) == 6 and not notes
    assert len({r.key for r in rows}) == 6
    assert bench(config).ran == 0


def _cli(*args, cwd, env=None):
    return subprocess.run([sys.executable, "-m", "sudokucp", "bench", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60, env=env)


def test_cli_end_to_end(tmp_path, capsys):
    path = _small_file(tmp_path, [EASY, "12345", ANTI_NAIVE])
    out = tmp_path / "out"
    code = main(["bench", "--backends", "naive,mrv:order=static", "mrv", "--puzzles", str(path),
                 "--timeout", "1", "--jobs", "2", "--out", str(out)])
    said = capsys.readouterr().err
    assert code == 2, said  # the bad line is reported, the others ran
    assert "small.txt: line 2" in said
    for name in ("results.jsonl", "results.csv", "summary.csv", "cactus.png", "summary.md"):
        assert (out / name).stat().st_size > 0
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 6
    assert {r["backend"] for r in rows} == {"naive", "mrv", "mrv:order=static"}
    stored = [json.loads(line) for line in (out / "puzzles.jsonl").read_text().splitlines()]
    grids = {r["hash"]: r["grid"] for r in stored if "grid" in r}  # each grid once
    assert len(grids) == 2 and not any("grid" in r for r in rows)
    naive_hard = [r for r in rows if r["backend"] == "naive"
                  and grids[r["hash"]].startswith(".....")]
    assert naive_hard[0]["status"] == "timeout"
    summary = (out / "summary.csv").read_text().splitlines()
    assert summary[0].startswith("backend,dataset,puzzles,runs,solved")
    assert not list(out.glob(".*.tmp"))


@pytest.mark.parametrize("args, message", [
    (["--backends", "nosuch", "--puzzles", "small.txt"], "unknown backend"),
    (["--backends", "mrv:order=sideways", "--puzzles", "small.txt"], "order"),
    (["--backends", "mrv", "--puzzles", "missing.txt"], "cannot read"),
])
def test_cli_refuses_bad_input(tmp_path, args, message):
    _small_file(tmp_path, [EASY])
    done = _cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_cli_exits_non_zero_on_disagreement_unless_told(tmp_path, fakes, capsys):
    path = _small_file(tmp_path, [EASY])
    args = ["bench", "--backends", f"mrv,{DENIER}", "--puzzles", str(path), "--out",
            str(tmp_path / "out")]
    assert main(args) == 1, capsys.readouterr().err
    assert "DISAGREEMENT" in capsys.readouterr().out
    assert DENIER in (tmp_path / "out" / "summary.md").read_text()
    assert main([*args, "--no-fail-on-disagreement", "--overwrite"]) == 0


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_kills_workers_and_keeps_finished_runs(tmp_path, fakes, monkeypatch, signum,
                                                        code):
    pids = tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv(PID_DIR, str(pids))
    _small_file(tmp_path, [EASY, EASY.replace("3", "0", 1)])
    proc = subprocess.Popen([sys.executable, "-m", "sudokucp", "bench", "--backends", "mrv",
                             STUBBORN, "--puzzles", "small.txt", "--out", "out",
                             "--timeout", "60"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while not list(pids.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == code, err
    name = signal.Signals(signum).name
    assert f"interrupted by {name}; every finished run is kept" in err
    assert "Traceback" not in err
    rows = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert [json.loads(r)["backend"] for r in rows] == ["mrv"]
    assert (tmp_path / "out" / "summary.md").exists()
    for pid in pids.iterdir():
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid.name), 0)


def test_a_solution_given_in_the_puzzle_file_is_checked(tmp_path):
    from sudokucp.harness.runcheck import cross_validate
    from sudokucp.harness.runplan import load_dataset

    puzzle, good = "1.3.34.22.4.4.21", "1234341221434321"
    other = "2143341212344321"  # a full grid, but r1c3 holds 4 where the puzzle gives 3
    path = tmp_path / "set.csv"
    path.write_text(f"quizzes,solutions\n{puzzle},{good}\n.{puzzle[1:]},{other}\n")
    data = load_dataset(path)
    assert len(data.puzzles) == 2 and list(data.answers.values()) == [good]
    assert any("does not solve its puzzle" in p and "line 3" in p for p in data.problems)
    claim = _row("exact", 1, True, solutions=("1234341221434312",))
    rows, found = cross_validate([claim], {"h": good})
    assert rows[0].status is Status.WRONG
    assert "given in the puzzle file" in found[0].message
    rows, found = cross_validate([_row("exact", 1, True, solutions=(good,))],
                                 {"h": good})
    assert rows[0].status is Status.SOLVED and not found
