"""The command backend: tiny solver scripts run per puzzle, judged like every backend: a correct
one (file or standard input, one line or rows), a wrong one (WRONG), a hanging one (TIMEOUT)."""

from __future__ import annotations

import csv
import os
import signal
import stat
import sys
from pathlib import Path

import pytest

from sudokucp.backends import OptionError, from_spec, parse_spec, split_specs
from sudokucp.backends.base import TIMED_OUT
from sudokucp.backends.command import read_grids
from sudokucp.check import is_solution
from sudokucp.cli import main
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import Puzzle, PuzzleError, Shape
from sudokucp.result import Status

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
OTHER = "".join("." if k % 3 == 1 else v for k, v in enumerate(SOLVED))  # 27 blanks

# A student's solver: reads the first line (a file named on the command line, else standard
# input), backtracks over any N x N one-line grid, prints the solution in the layout asked for.
SOLVER = '''
import sys, math
DIGITS = "123456789ABCDEFGHIJKLMNOP"
files = [a for a in sys.argv[1:] if a != "--rows"]
text = open(files[0]).read() if files else sys.stdin.read()
line = text.split()[0]
n = math.isqrt(len(line)); b = math.isqrt(n)
g = [0 if c in ".0" else DIGITS.index(c) + 1 for c in line]
def ok(i, d):
    r, c = divmod(i, n)
    if any(g[r * n + k] == d or g[k * n + c] == d for k in range(n)):
        return False
    r0, c0 = r - r % b, c - c % b
    return all(g[(r0 + y) * n + c0 + x] != d for y in range(b) for x in range(b))
def fill(i=0):
    while i < n * n and g[i]:
        i += 1
    if i == n * n:
        return True
    for d in range(1, n + 1):
        if ok(i, d):
            g[i] = d
            if fill(i + 1):
                return True
    g[i] = 0
    return False
if not fill():
    print("UNSAT")
elif "--rows" in sys.argv:
    for r in range(n):
        print(" ".join(DIGITS[v - 1] for v in g[r * n:(r + 1) * n]))
else:
    print("".join(DIGITS[v - 1] for v in g))
'''
WRONG = '''
import sys
line = sys.stdin.read().split()[0]
print(line.replace(".", "1"))  # every blank a 1: not a solution
'''
HANG = '''
import time
time.sleep(600)
'''
UNKNOWN = 'print("UNKNOWN")\n'
CHATTY = 'print("solved it in 3 ms!")\n'


def script(folder: Path, name: str, body: str) -> Path:
    """An executable Python script in `folder`."""
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def puzzle(line: str = EASY) -> Puzzle:
    return parse_grid(line, name="p")


def test_a_correct_solver_reading_a_file(tmp_path):
    solver = script(tmp_path, "solver.py", SOLVER)
    result = from_spec(f"command:run={solver} {{file}}").solve(puzzle(OTHER), time_limit=30)
    assert result.status is Status.SOLVED and not result.complete
    assert is_solution(puzzle(OTHER), result.solutions[0])
    assert result.stats["exit_code"] == 0


def test_a_correct_solver_reading_standard_input_and_printing_rows(tmp_path):
    solver = script(tmp_path, "solver.py", SOLVER)
    backend = from_spec(f"command:run={solver} --rows")
    result = backend.solve(puzzle(), time_limit=30)
    assert result.status is Status.SOLVED and is_solution(puzzle(), result.solutions[0])
    grid16 = Puzzle.empty(Shape(4, 4))
    assert is_solution(grid16, backend.solve(grid16, time_limit=30).solutions[0])


def test_unsat_and_unknown_are_read_as_said(tmp_path):
    solver = script(tmp_path, "solver.py", SOLVER)
    clash = Puzzle(Shape(2, 2), (1, 2, 0, 0, 0, 0, 3, 0, *[0] * 8), "clash")  # r1 needs a 3
    result = from_spec(f"command:run={solver} {{file}}").solve(clash, time_limit=30)
    assert result.status is Status.UNSAT and result.complete  # the program's claim
    unknown = script(tmp_path, "unknown.py", UNKNOWN)
    assert from_spec(f"command:run={unknown}").solve(puzzle()).status is Status.UNKNOWN


def test_a_hanging_solver_is_killed_at_the_deadline(tmp_path):
    hang = script(tmp_path, "hang.py", HANG)
    result = from_spec(f"command:run={hang}").solve(puzzle(), time_limit=0.5)
    assert result.status is Status.TIMEOUT and result.stats[TIMED_OUT] == 1
    assert result.stats["exit_code"] == -signal.SIGKILL  # killed, not waited for


def test_unreadable_output_and_missing_programs_are_errors(tmp_path):
    chatty = script(tmp_path, "chatty.py", CHATTY)
    result = from_spec(f"command:run={chatty}").solve(puzzle())
    assert result.status is Status.ERROR and "cannot read its output" in result.error
    missing = from_spec(f"command:run={tmp_path / 'absent'} {{file}}").solve(puzzle())
    assert missing.status is Status.ERROR and "cannot run" in missing.error


def test_options_hold_spaces_braces_colons_and_commas():
    assert parse_spec("command:run=docker run img:1.0 {file}:input=grid") == (
        "command", {"run": "docker run img:1.0 {file}", "input": "grid"})
    assert split_specs("hybrid,command:run=./s a,b {file},sat") == [
        "hybrid", "command:run=./s a,b {file}", "sat"]
    backend = from_spec("command:run=./s x:y {file}")
    assert parse_spec(backend.label) == ("command", {"run": "./s x:y {file}"})
    with pytest.raises(OptionError, match="needs the program to run"):
        from_spec("command")
    with pytest.raises(OptionError, match="cannot split"):
        from_spec("command:run=./s 'open")


def test_read_grids_reads_any_layout_and_judges_nothing():
    shape = Shape(3, 3)
    wrong = "1" * 81
    assert read_grids(f"# a comment\n{wrong}\n", shape) == [(1,) * 81]
    rows = "\n".join(" ".join("1" * 9) for _ in range(9))
    assert read_grids(rows, shape) == [(1,) * 81]
    with pytest.raises(PuzzleError, match="80 cells"):
        read_grids("1" * 80, shape)


def test_the_documented_student_solver(tmp_path):
    """docs/examples/student_solver.py, run as the README's example runs it."""
    student = Path(__file__).resolve().parents[1] / "docs" / "examples" / "student_solver.py"
    backend = from_spec(f"command:run={sys.executable} {student} {{file}}")
    result = backend.solve(puzzle(), time_limit=30)
    assert result.status is Status.SOLVED and is_solution(puzzle(), result.solutions[0])


def bench_rows(out: Path) -> dict[str, set[str]]:
    rows = list(csv.DictReader((out / "results.csv").open()))
    found: dict[str, set[str]] = {}
    for row in rows:
        found.setdefault(row["backend"], set()).add(row["status"])
    return found


def test_bench_judges_command_solvers_like_every_backend(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    script(tmp_path, "solver.py", SOLVER)
    script(tmp_path, "wrong.py", WRONG)
    script(tmp_path, "hang.py", HANG)
    (tmp_path / "one.txt").write_text(f"{EASY}\n")
    code = main(["bench", "--backends", "hybrid", "command:run=./solver.py {file}",
                 "command:run=./wrong.py", "command:run=./hang.py", "--puzzles", "one.txt",
                 "--out", "out", "--timeout", "1", "--jobs", "2"])
    captured = capsys.readouterr()
    assert code == 1, captured.err  # wrong answers make the bench fail
    assert bench_rows(tmp_path / "out") == {
        "hybrid": {"solved"}, "command:run=./solver.py {file}": {"solved"},
        "command:run=./wrong.py": {"wrong"}, "command:run=./hang.py": {"timeout"}}
    assert "command:run=./wrong.py" in captured.out  # named in the disagreements


def test_solve_with_a_command_and_a_hard_timeout(tmp_path, capsys):
    hang = script(tmp_path, "hang.py", HANG)
    (tmp_path / "one.txt").write_text(EASY + "\n")
    code = main(["solve", str(tmp_path / "one.txt"), "-b", f"command:run={hang}",
                 "--timeout", "0.5"])
    out = capsys.readouterr().out
    assert code == 1 and out.startswith("TIMEOUT") and f"exit_code={-signal.SIGKILL}" in out
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _runs(p, str(hang))]


def _runs(pid: str, path: str) -> bool:
    try:
        return path.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_the_command_backend_keeps_only_what_an_answer_needs(monkeypatch):
    from sudokucp.backends.command import process

    kept = process.Kept("c")
    for k in range(3 * process.COMMENTS_KEPT):
        kept.add(f"c line {k}\n".encode())
    kept.add(b"s SATISFIABLE\nv 1 -2 0")
    lines = kept.text().splitlines()
    assert lines[:2] == ["s SATISFIABLE", "v 1 -2 0"]
    last = 3 * process.COMMENTS_KEPT - 1
    assert len(lines) == 2 + process.COMMENTS_KEPT and lines[-1] == f"c line {last}"
    long = process.Kept("c")
    for _ in range(100):  # one comment line of 6.4 MB, in pieces
        long.add(b"c " + b"x" * 64000)
    long.add(b"\nv 1 0\n")
    assert long.text() == "v 1 0\n" + "c " + "x" * (process.LINE_KEPT - 2)
    monkeypatch.setattr(process, "OUT_KEPT", 1000)
    with pytest.raises(process.TooMuchOutput):
        process.Kept(None).add(b"x" * 2000)
    with pytest.raises(process.TooMuchOutput):
        process.Kept("c").add(b"v 1\n" * 300)


def test_the_command_backend_streams_a_flood_of_comments(tmp_path):
    flood = tmp_path / "flood.py"
    flood.write_text(f"import sys\nfor k in range(200000):\n    print('# progress', k)\n"
                     f"print({SOLVED!r})\n")
    result = from_spec(f"command:run={sys.executable} {flood}").solve(parse_grid(EASY))
    assert result.status is Status.SOLVED and result.solution == tuple(map(int, SOLVED))
