"""Bench runs that must end with a clear answer: one bench per folder, resume under the same
settings (and --retry), folders that cannot be written, a disk that fills, signals, no puzzle."""

from __future__ import annotations

import errno
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

from sudokucp.harness.bench import BenchConfig, bench, hold, pending
from sudokucp.harness.runlog import RESULTS, BenchError, ResultLog, changed_settings
from sudokucp.harness.runplan import Contender, load_dataset, plan
from sudokucp.result import Row, Status

FOUR = Path(__file__).resolve().parents[1] / "puzzles" / "examples" / "4x4.txt"  # 5 grids
STUBBORN = fake_backends.spec(Stubborn)


def _cli(*args: str, cwd: Path, **more) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudokucp", "bench", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60, **more)


def _clean_refusal(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudoku-cp"), done.stderr
    for word in words:
        assert word in lines[0]


def _wait_for(folder: Path, seconds: float = 20) -> int:
    """The pid Stubborn leaves in `folder` once its search has started."""
    deadline = time.monotonic() + seconds
    while not list(folder.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return int(next(folder.iterdir()).name)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="flock and PDEATHSIG: Linux")
def test_one_bench_per_folder_and_a_killed_holder_leaves_no_lock(tmp_path, monkeypatch):
    pids = tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv("PYTHONPATH", fake_backends.pythonpath())
    monkeypatch.setenv(PID_DIR, str(pids))
    (tmp_path / "one.txt").write_text(FOUR.read_text().splitlines()[4] + "\n")
    args = ["--puzzles", "one.txt", "--out", "out", "--timeout", "60"]
    first = subprocess.Popen([sys.executable, "-m", "sudokucp", "bench", "--backends", "mrv",
                              STUBBORN, *args], cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        worker = _wait_for(pids)  # mrv's row is written, Stubborn holds the worker
        second = _cli("--backends", "mrv", *args, cwd=tmp_path)
        _clean_refusal(second, "out is in use by another bench", f"process {first.pid}")
        log = tmp_path / "out" / RESULTS
        assert len(log.read_text().splitlines()) == 1  # the refused bench truncated nothing
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        deadline = time.monotonic() + 5
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(worker)  # the long solve died with its parent
        third = _cli("--backends", "mrv", *args, "--resume", cwd=tmp_path)
        assert third.returncode == 0, third.stderr
        assert "0 runs done, 1 already in" in third.stdout
    finally:
        first.kill()
        first.wait()


def _row(**fields) -> Row:
    values = {"key": "k", "backend": "mrv", "status": Status.SOLVED, "limit": 1,
              "timeout": 2.0, "memory_mb": 4096,
              "versions": {"backend": "0.1.0", "python": sys.version.split()[0]}}
    return Row(**(values | fields))


SAME = {"--limit": 1, "--timeout": 2.0, "--memory": 4096}


@pytest.mark.parametrize("settings, versions, change", [
    (SAME | {"--timeout": 0.5}, {"mrv": "0.1.0"}, "--timeout 2 s there, 0.5 s now"),
    (SAME | {"--memory": None}, {"mrv": "0.1.0"}, "--memory 4096 MB there, none now"),
    (SAME | {"--limit": 2}, {"mrv": "0.1.0"}, "--limit 1 there, 2 now"),
    (SAME, {"mrv": "0.2.0"}, "mrv version 0.1.0 there, 0.2.0 now"),
])
def test_resume_names_the_setting_that_changed(settings, versions, change):
    assert changed_settings([_row()], settings, versions) == [change]
    assert changed_settings([_row()], SAME, {"mrv": "0.1.0", "sat": "9"}) == []
    python = _row(versions={"backend": "0.1.0", "python": "2.7.18"})
    assert changed_settings([python], SAME, {})[0].startswith("Python 2.7.18 there")


def _config(tmp_path: Path, **more) -> BenchConfig:
    settings = {"timeout": 5.0, "memory_mb": None} | more
    return BenchConfig(backends=["mrv"], puzzles=[str(FOUR)], out=tmp_path / "new" / "out",
                       **settings)


def test_resume_refuses_other_settings_and_retry_runs_those_outcomes_again(tmp_path):
    config = _config(tmp_path)
    assert bench(config).ran == 5  # the folder and its missing parent are made
    log = config.out / RESULTS
    lines = log.read_text().splitlines()
    for number, status in ((1, "crash"), (3, "timeout")):
        lines[number] = lines[number].replace('"status": "solved"', f'"status": "{status}"')
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(BenchError, match=r"results.jsonl: --resume with other settings .*"
                                         r"--timeout 5 s there, 1 s now"):
        bench(_config(tmp_path, timeout=1.0, resume=True))
    again = bench(_config(tmp_path, resume=True, retry=frozenset({Status.CRASH})))
    assert (again.ran, again.skipped) == (1, 4)
    statuses = sorted(row.status.value for row in again.rows)
    assert statuses == ["solved"] * 4 + ["timeout"]
    assert bench(_config(tmp_path, resume=True, retry=frozenset({Status.TIMEOUT}))).ran == 1
    assert len(log.read_text().splitlines()) == 7  # appended, never rewritten


def test_retry_follows_the_status_the_tables_show():
    contender = Contender("mrv", "mrv", {}, "0.1.0", 1)
    tasks = plan([contender], [load_dataset(FOUR)], timeout=2.0)
    late = _row(key=tasks[0].key, seconds=3.0, count=1, verified=True, solutions=("x",))
    assert pending(tasks, [late], frozenset()) == tasks[1:]
    assert pending(tasks, [late], frozenset({Status.TIMEOUT})) == tasks  # answered too late


def test_cli_retry_needs_resume_and_known_statuses(tmp_path):
    done = _cli("--backends", "mrv", "--puzzles", str(FOUR), "--retry", "crashed",
                cwd=tmp_path)
    _clean_refusal(done, "--retry", "--resume")
    done = _cli("--backends", "mrv", "--puzzles", str(FOUR), "--retry", "crashd", "--resume",
                cwd=tmp_path)
    assert done.returncode == 2 and "'crashd' is not a status; choose from" in done.stderr


@pytest.mark.parametrize("make, out, words", [
    (lambda t: (t / "a-file").touch(), "a-file", ["a-file", "exists and is not a folder"]),
    (lambda t: (t / "a-file").touch(), "a-file/out", ["a-file/out", "a-file is a file"]),
    (lambda t: None, "/dev/full", ["/dev/full", "exists and is not a folder"]),
    (lambda t: (t / "f").mkdir() or (t / "f" / RESULTS).symlink_to("/dev/full"), "f",
     [f"f/{RESULTS}", "No space left on device", "--resume"]),
])
def test_an_out_that_cannot_be_written_gets_one_line(tmp_path, make, out, words):
    make(tmp_path)
    done = _cli("--backends", "mrv", "--puzzles", str(FOUR), "--out", out, cwd=tmp_path)
    _clean_refusal(done, *words)


def test_an_out_without_permission_gets_one_line(tmp_path, locked_folder):
    locked, reason = locked_folder
    for out in (locked, locked / "out"):
        done = _cli("--backends", "mrv", "--puzzles", str(FOUR), "--out", str(out),
                    cwd=tmp_path)
        _clean_refusal(done, str(out), reason)


def test_permission_denied_is_named_even_as_root(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    (tmp_path / "here").mkdir()
    monkeypatch.setattr(os, "open", refuse)  # the lock file cannot be made
    with pytest.raises(BenchError, match="cannot write in the output folder .*here: "
                                         "Permission denied"), hold(tmp_path / "here"):
        pass
    monkeypatch.setattr(Path, "mkdir", refuse)
    with pytest.raises(BenchError, match="cannot create the output folder .*new: Permission "
                                         "denied"), hold(tmp_path / "new"):
        pass


class FillingDisk:
    """A file handle that takes `room` bytes, then fails as a full disk does."""

    def __init__(self, handle, room: int) -> None:
        self.handle, self.room = handle, room

    def write(self, data) -> int:
        if len(data) > self.room:
            self.handle.write(data[:self.room])
            self.room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.handle.write(data)

    def close(self) -> None:
        self.handle.close()


def test_a_disk_that_fills_keeps_what_was_written_and_resume_goes_on(tmp_path, monkeypatch):
    opened = ResultLog.open

    def open_small(log, *, append):
        opened(log, append=append)
        log.handle = FillingDisk(log.handle, 1500)  # two rows and part of a third

    monkeypatch.setattr(ResultLog, "open", open_small)
    config = _config(tmp_path)
    with pytest.raises(BenchError, match=r"cannot write .*results.jsonl: No space left on "
                                         r"device; every run written before is kept"):
        bench(config)
    monkeypatch.undo()
    rows, notes = ResultLog(config.out / RESULTS).load()
    assert len(rows) == 2 and "run again" in notes[0]
    config.resume = True
    outcome = bench(config)
    assert (outcome.ran, outcome.skipped) == (3, 2)
    assert [json.loads(line) for line in (config.out / RESULTS).read_text().splitlines()]


@pytest.mark.parametrize("text, words", [
    ("", ["empty.txt: no puzzle found"]),
    ("# only a comment\n", ["empty.txt: no puzzle found"]),
    ("hello\n12?4\n", ["empty.txt: no puzzle found", "line 2"]),
])
def test_input_without_a_puzzle_exits_2(tmp_path, text, words):
    (tmp_path / "empty.txt").write_text(text)
    done = _cli("--backends", "mrv", "--puzzles", "empty.txt", "--out", "out", cwd=tmp_path)
    _clean_refusal(done, *words)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_before_the_first_run_ends_exits_with_one_line(tmp_path, monkeypatch, signum,
                                                                code):
    pids = tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv("PYTHONPATH", fake_backends.pythonpath())
    monkeypatch.setenv(PID_DIR, str(pids))
    (tmp_path / "one.txt").write_text(FOUR.read_text().splitlines()[4] + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "sudokucp", "bench", "--backends", STUBBORN,
                             "--puzzles", "one.txt", "--out", "out", "--timeout", "60"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        _wait_for(pids)  # the first run has begun and will not end by itself
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == code, err
    assert err.strip().splitlines() == [f"sudoku-cp: interrupted by "
                                        f"{signal.Signals(signum).name}; every finished run is "
                                        f"kept (use --resume to go on)"]
    out = tmp_path / "out"
    assert (out / RESULTS).read_text() == ""
    header = (out / "summary.csv").read_text().splitlines()
    assert header[0].startswith("backend,dataset,puzzles,runs") and len(header) == 1
    assert "No run finished" in (out / "summary.md").read_text()
    assert not (out / "cactus.png").exists()
