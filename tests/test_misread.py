"""Failure paths, second pass (issue 24): misread grids, messages that say what and where, verdicts
instead of difficulties, UNSAT as an answer, Ctrl-C that stops, and news on standard error."""

from __future__ import annotations

import io
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokucp.backends import BACKENDS, OptionError, available_backends, backend_class
from sudokucp.cli import main
from sudokucp.cli.progress import Progress
from sudokucp.generators.rating import rate
from sudokucp.io.formats import parse_grid, parse_many
from sudokucp.puzzle import PuzzleError
from sudokucp.result import Result, Status
from sudokucp.teaching.ladder import RUNGS, table, to_run

ROOT = Path(__file__).resolve().parents[1]
ZEROS = " 0" * 80
NO_SOLUTION = "12345678." + "........9" + "." * 63  # r1c9 can only be 9, as r2c9 is


def error_of(text: str) -> PuzzleError:
    with pytest.raises(PuzzleError) as caught:
        parse_grid(text)
    return caught.value


# --- item 12, 16: tokens read as what they are, refused with their place -----------------------

@pytest.mark.parametrize("token", ["-5", "+5", "5-"])
def test_a_signed_number_in_a_spaced_row_is_refused_where_it_stands(token):
    err = error_of(token + ZEROS)
    assert (err.line, err.column) == (1, 1) and f"token {token!r} has a sign" in err.reason
    err = error_of("0 0 " + token + ZEROS[6:])
    assert err.column == 5


def test_a_signed_number_in_a_row_of_a_grid_names_its_line():
    rows = ["0 0 0 0 0 0 0 0 0"] * 9
    rows[3] = "0 0 0 -5 0 0 0 0 0"
    entry, = parse_many("\n".join(rows))
    assert (entry.error.line, entry.error.column) == (4, 7) and "'-5'" in entry.error.reason


@pytest.mark.parametrize("token", ["1.5", "abc"])
def test_a_word_in_a_row_of_single_cells_is_named(token):
    err = error_of(token + ZEROS)
    assert (err.line, err.column) == (1, 1) and f"token {token!r} is not a digit" in err.reason
    assert "fits no supported shape" not in str(err)


def test_compact_and_grouped_rows_still_read():
    assert parse_grid("5" + "." * 80).cells[0] == 5
    grouped = "\n".join(["530 070 000"] + ["000 000 000"] * 8)
    assert parse_grid(grouped).cells[:5] == (5, 3, 0, 0, 7)
    assert parse_grid("----+----\n" + "3 . . .\n. . . .\n. . . .\n. . . .").cells[0] == 3


def test_a_letter_in_a_small_grid_names_that_grid_s_digits():
    assert "(its digits are 1-4)" in error_of("A" + "." * 15).reason
    assert "(its digits are 1-6)" in error_of("." * 35 + "G").reason


def test_check_names_the_line_of_a_duplicate_once(tmp_path, capsys):
    path = tmp_path / "dup.txt"
    path.write_text("# one grid\n11" + "." * 79 + "\n")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("line 2") == 1 and "duplicate given" in out


def test_cpsat_refuses_more_workers_than_it_takes_and_says_why():
    pytest.importorskip("ortools")
    with pytest.raises(OptionError, match=r"from 1 to 10,000 \(CP-SAT's bound\), not 100000"):
        backend_class("cpsat")(workers=100000)


# --- item 13: no difficulty for a grid that is no puzzle ---------------------------------------

def test_an_unsolvable_grid_and_an_open_one_get_a_verdict():
    assert rate(parse_grid(NO_SOLUTION), guesses=False).klass == "unsolvable"
    empty = rate(parse_grid("." * 81))
    assert empty.klass == "not unique" and empty.solutions == 2 and empty.guesses is None


def test_rate_exits_1_on_a_grid_without_one_solution(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(f"{NO_SOLUTION}\n{'.' * 16}\n")
    assert main(["rate", "--no-guesses", str(path)]) == 1
    out = capsys.readouterr().out
    assert "unsolvable" in out and "not unique" in out and "expert" not in out.split("\n\n")[0]


# --- item 14: UNSAT is an answer ---------------------------------------------------------------

def test_the_ladder_counts_an_unsat_run_with_its_own_time():
    puzzle = parse_grid(NO_SOLUTION)
    result = Result("csp", puzzle.name, Status.UNSAT, complete=True, seconds=1.7)
    run = to_run(RUNGS[0], "set", puzzle, result, 2.0)
    assert run.status == "unsat" and run.seconds == 1.7 and run.answered
    row, = table([run], RUNGS[:1])
    assert row["timeouts"] == 0 and not row["lower"] and row["median_ms"] == 1700


# --- items 4, 18: Ctrl-C stops the solver and exits 130 ----------------------------------------

class FakeProcess:
    """What stop_on_interrupt sees of a MiniZinc process: a return code and signals."""

    def __init__(self) -> None:
        self.returncode, self.signals = None, []

    def send_signal(self, signum: int) -> None:
        self.signals.append(signum)


class FakeInstance:
    def __init__(self, process: FakeProcess) -> None:
        async def create(*args, **kwargs):
            return process

        self._driver = type("Driver", (), {"_create_process": staticmethod(create)})()


def test_a_first_ctrl_c_terminates_minizinc_and_raises_once_it_has_ended():
    import asyncio

    from sudokucp.backends.minizinc.minizinc import stop_on_interrupt

    process, ended = FakeProcess(), []
    instance = FakeInstance(process)

    async def solve() -> None:
        await instance._driver._create_process("minizinc")
        os.kill(os.getpid(), signal.SIGINT)
        await asyncio.sleep(0)
        ended.append(True)  # the output is read to its end: nothing raised in the middle

    with pytest.raises(KeyboardInterrupt), stop_on_interrupt(instance):
        asyncio.run(solve())
    assert ended and process.signals == [signal.SIGTERM]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert not hasattr(instance._driver, "processes")  # the package's driver is back


def _cpu_ticks(pid: int) -> int:
    """User and system clock ticks a process has run (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if entry.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_a_minizinc_count_and_exits_130(tmp_path):
    if "minizinc" not in available_backends():
        pytest.skip("MiniZinc is not installed")
    path = tmp_path / "open.txt"
    path.write_text("." * 81 + "\n")  # billions of solutions: the count never ends by itself
    child = subprocess.Popen([sys.executable, "-m", "sudokucp", "solve", "-b", "minizinc",
                              "--count", str(path)], cwd=ROOT, start_new_session=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Ctrl-C once the solver has streamed solutions for a while (20 ticks of its CPU): by
        # then MiniZinc holds more output than a pipe takes, which it must be let write
        while sum(_cpu_ticks(s) for c in _children(child.pid) for s in _children(c)) < 20:
            assert child.poll() is None, child.communicate()
            time.sleep(0.01)
        solvers = [s for c in _children(child.pid) for s in _children(c)]
        os.killpg(child.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    assert child.returncode == 130 and "interrupted" in err, err
    assert not any(_cpu_ticks(pid) and _state(pid) != "Z" for pid in solvers)  # none runs on


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def test_python_sat_s_interrupt_error_becomes_keyboard_interrupt():
    from sudokucp.backends.sat import pysat

    class Interrupted:
        def solve(self, assumptions):
            raise RuntimeError("Caught keyboard interrupt")  # python-sat's error on SIGINT

    with pytest.raises(KeyboardInterrupt):
        pysat.solve_until(Interrupted(), [], None, chunks=False)


# --- item 22: news on standard error -------------------------------------------------------------

def test_progress_off_a_terminal_prints_a_line_per_tenth_and_per_minute():
    stream, now = io.StringIO(), [0.0]
    progress = Progress(100, stream, clock=lambda: now[0])
    for _ in range(3):
        progress()
    assert stream.getvalue() == ""
    now[0] = 61.0  # a minute without a line
    progress()
    assert stream.getvalue().splitlines()[-1].split()[1] == "4/100"
    while progress.done < 10:
        progress()
    assert [line.split()[1] for line in stream.getvalue().splitlines()] == ["4/100", "10/100"]
    while progress.done < 100:
        progress()
    assert len(stream.getvalue().splitlines()) == 11 and "100/100" in stream.getvalue()


@pytest.fixture
def notices():
    """The package's notices routed as the command line routes them; removed afterwards."""
    logger = logging.getLogger("sudokucp")
    before = list(logger.handlers), logger.level
    from sudokucp.cli.progress import show_notices

    show_notices()
    yield
    logger.handlers[:], logger.level = before


def test_all_names_the_backends_it_leaves_out(monkeypatch, capsys, notices):
    monkeypatch.setitem(BACKENDS, "ghost", "sudokucp.backends.no_such_module:Ghost")
    assert "ghost" not in available_backends()
    err = capsys.readouterr().err
    assert err.startswith("sudoku-cp: backends not available here, left out: ")
    assert "ghost (cannot load: No module named 'sudokucp.backends.no_such_module')" in err


def test_the_first_jit_compile_is_announced(tmp_path, monkeypatch, capsys, notices):
    numba = pytest.importorskip("numba")
    from sudokucp.backends.jit import kernels

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    assert not kernels.cached("dfs")
    (tmp_path / "backends_0").mkdir()
    (tmp_path / "backends_0" / "dfs.run-66.py311.nbi").write_bytes(b"")
    assert kernels.cached("dfs") and not kernels.cached("cdcl")
    kernels.say_compiling.cache_clear()
    kernels.say_compiling()
    kernels.say_compiling()
    assert capsys.readouterr().err == (
        "sudoku-cp: compiling the jit kernels (first use; cached afterwards; `sudoku-cp backends "
        "--warm jit` builds them all ahead)…\n")


def test_the_backends_listing_fits_the_terminal(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "72")
    assert main(["backends"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(map(len, lines)) <= 72
    assert any(line.split()[:2] == ["naive", "yes"] for line in lines)
