"""No process outlives its run: what a command program leaves (in its group, or in a session of
its own), in solve and bench, at the program's end, at the time limit, and when a signal stops
the command; an answer printed before the program ends is read. Each test sleeps for its own
number of seconds, so that tests running side by side do not see each other's sleeps."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokucp.backends.base import Backend
from sudokucp.cli import main
from sudokucp.io.formats import parse_grid

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def sleeps(*seconds: int) -> list[int]:
    """The processes running `sleep N` for one of these N."""
    wanted = {["sleep", str(n)].__repr__() for n in seconds}
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            argv = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")[:-1]
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and [a.decode() for a in argv].__repr__() in wanted:
            found.append(int(name))
    return found


@pytest.fixture
def no_sleep_left():
    """The sleeps a test names in `watch` are checked gone (and killed, if not) at its end."""
    watched: list[int] = []
    yield watched
    left = sleeps(*watched)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"sleep {watched} still running"


@pytest.fixture
def grid_file(tmp_path) -> str:
    path = tmp_path / "easy.txt"
    path.write_text(EASY + "\n")
    return str(path)


def answer(before: str) -> str:
    """A command backend that runs `before` (a command ending with ';' or '&'), then prints the
    right grid."""
    return f"command:run=sh -c '{before} echo {SOLVED}'"


@pytest.mark.parametrize("where", [[], ["--cpu-limit", "20"]], ids=["here", "worker"])
def test_solve_ends_what_a_program_left_in_a_session_of_its_own(grid_file, where,
                                                                  no_sleep_left, capsys):
    n = 7811 + len(where)
    no_sleep_left.append(n)
    spec = answer(f"setsid sleep {n} >/dev/null 2>&1 </dev/null & sleep .3;")
    assert main(["solve", grid_file, "-b", spec, *where]) == 0
    assert capsys.readouterr().out.startswith("4 8 3")
    assert not sleeps(n)


def test_bench_ends_what_a_program_left_in_a_session_of_its_own(grid_file, tmp_path,
                                                                  no_sleep_left):
    no_sleep_left.append(7817)
    spec = answer("setsid sleep 7817 >/dev/null 2>&1 </dev/null & sleep .3;")
    assert main(["bench", "--puzzles", grid_file, "--backends", spec, "--timeout", "20",
                 "--out", str(tmp_path / "out")]) == 0
    assert not sleeps(7817)


@pytest.mark.parametrize("where", [[], ["--cpu-limit", "20"]], ids=["here", "worker"])
def test_an_answer_is_read_while_a_grandchild_holds_the_output(grid_file, where,
                                                                no_sleep_left, capsys):
    n = 7793 + len(where)
    no_sleep_left.append(n)
    spec = answer(f"setsid sleep {n} &")
    assert main(["solve", grid_file, "-b", spec, "--timeout", "8", *where]) == 0
    assert capsys.readouterr().out.startswith("4 8 3")
    assert not sleeps(n)


def test_a_program_past_its_time_limit_is_killed_with_all_below_it(grid_file, no_sleep_left,
                                                                    capsys):
    no_sleep_left += [7761, 7762]
    spec = "command:run=sh -c 'setsid sleep 7761 & sleep 7762'"
    assert main(["solve", grid_file, "-b", spec, "--timeout", "0.5"]) == 1
    assert capsys.readouterr().out.startswith("TIMEOUT")
    assert not sleeps(7761, 7762)


class Spawner(Backend):
    """A backend that starts a program of its own in a session of its own, and answers."""

    name = "spawner"
    description = "leaves `sleep 7823` running"

    def _search(self, puzzle, limit, deadline):
        subprocess.Popen(["setsid", "sleep", "7823"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
        return [tuple(map(int, SOLVED))], True, {}


def test_a_worker_ends_what_any_backend_left_with_the_run(monkeypatch, no_sleep_left):
    from sudokucp.executors import ResourceLimits, Task, make_executor

    no_sleep_left.append(7823)
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parent))
    with make_executor("local", jobs=1) as executor:
        executor.submit(Task("k", "test_no_leaks:Spawner", parse_grid(EASY), 1,
                             ResourceLimits(time_limit=20)))
        assert next(iter(executor.results())).result.solutions
        executor.submit(Task("k2", "mrv", parse_grid(EASY), 1, ResourceLimits(time_limit=20)))
        assert next(iter(executor.results())).result.solutions  # the same worker, next run
        assert not sleeps(7823)  # ended after the first answer, the worker still alive


def _stopped(command: list[str], sig: int, mark: int, tmp_path: Path) -> int:
    """Start `command` (sudoku-cp's arguments) in a process of its own, send it `sig` once the
    program's `sleep mark` runs, and return its exit status."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
        str(Path(__file__).resolve().parents[1] / "src"), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-m", "sudokucp", *command], cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(400):
            if sleeps(mark):
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"the program's sleep {mark} never started")
        proc.send_signal(sig)
        return proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("sig, where", [
    (signal.SIGTERM, []), (signal.SIGHUP, []), (signal.SIGINT, []),
    (signal.SIGTERM, ["--cpu-limit", "60"])], ids=["TERM", "HUP", "INT", "TERM-worker"])
def test_a_signal_to_solve_ends_every_process_of_the_run(grid_file, tmp_path, sig, where,
                                                         no_sleep_left):
    first = 7700 + 2 * int(sig) + 40 * len(where)
    no_sleep_left += [first, first + 1]
    spec = f"command:run=sh -c 'sleep {first} & sleep {first + 1}'"
    command = ["solve", grid_file, "-b", spec, *where]
    assert _stopped(command, sig, first + 1, tmp_path) == 128 + sig
    assert not sleeps(first, first + 1)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_a_signal_to_bench_ends_every_process_of_the_run(grid_file, tmp_path, sig,
                                                         no_sleep_left):
    first = 7600 + 2 * int(sig)
    no_sleep_left += [first, first + 1]
    spec = f"command:run=sh -c 'setsid sleep {first} & sleep {first + 1}'"
    command = ["bench", "--puzzles", grid_file, "--backends", spec, "--timeout", "60",
               "--out", str(tmp_path / "out")]
    assert _stopped(command, sig, first + 1, tmp_path) == 128 + sig
    assert not sleeps(first, first + 1)
