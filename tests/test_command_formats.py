"""The command backend on the standard formats: real solvers (Debian's SAT solvers, MiniZinc and
Gecode, ACE) through {cnf}, {mzn}, {dzn}, {fzn} and {xcsp3}, and by their preset names; a second
call for uniqueness; programs that print garbage, nothing, a partial model, crash or print a
wrong model are ERROR or WRONG with a reason, and a bench goes on past them. Each real solver is
skipped with the reason where it is not installed."""

from __future__ import annotations

import csv
import shutil
import signal
import stat
import sys
from pathlib import Path

import pytest

from sudokucp.backends import OptionError, backend_class, from_spec, unavailable_reason
from sudokucp.backends.base import TIMED_OUT
from sudokucp.check import is_solution
from sudokucp.cli import main
from sudokucp.io.exporters import export
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
MULTIPLE = ("809000007076089000030070890020708010700000002"
            "060120470697804231000906700000007906")  # 28 solutions
NO_PLACE = Puzzle(Shape(2, 2), (1, 2, 3, 0, 0, 0, 0, 4, *[0] * 8), "no-place")  # r1c4 needs 4
SAT_PRESETS = ["cadical", "kissat", "cryptominisat", "minisat", "picosat"]
COUNTERS = {"cadical": "conflicts", "kissat": "conflicts", "cryptominisat": "conflicts",
            "picosat": "conflicts"}  # MiniSat's statistics go to standard output, not read
MINIZINC = shutil.which("minizinc")
needs_minizinc = pytest.mark.skipif(MINIZINC is None, reason="MiniZinc is not installed "
                                    "(apt-get install minizinc flatzinc)")


def preset(name: str):
    """The preset backend, or a skip naming what to install."""
    cls = backend_class(name)
    if not cls.available():
        pytest.skip(f"{name}: {unavailable_reason(cls)}")
    return cls()


def script(folder: Path, name: str, body: str) -> Path:
    """An executable Python script in `folder`."""
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def right_model(puzzle: Puzzle) -> str:
    """A SAT-competition answer to the puzzle's CNF, found by pycosat."""
    pycosat = pytest.importorskip("pycosat", reason="pycosat (the [sat] extra) is not installed")
    text = export(puzzle, "dimacs")
    found = [[int(v) for v in line.split()[:-1]] for line in text.splitlines()
             if line and line[0] not in "cp"]
    model = pycosat.solve(found, vars=puzzle.side ** 3)
    return "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n"


# --- real solvers ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SAT_PRESETS)
def test_a_debian_sat_solver_proves_uniqueness_and_unsat(name):
    backend = preset(name)
    puzzle = parse_grid(HARD)
    result = backend.solve(puzzle, limit=2, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True), result
    assert is_solution(puzzle, result.solutions[0])
    assert result.stats["calls"] == 2 and result.stats["exit_code"] == 20  # the second: UNSAT
    if name in COUNTERS:
        assert result.stats[COUNTERS[name]] >= 0 and "solver_s" in result.stats
    unsat = backend.solve(NO_PLACE, limit=2, time_limit=60)
    assert (unsat.status, unsat.complete, unsat.count) == (Status.UNSAT, True, 0)


def test_the_run_line_spelled_out_and_the_minimal_encoding():
    preset("cadical")
    puzzle = parse_grid(MULTIPLE)
    result = from_spec("command:run=cadical {cnf}:encoding=minimal").solve(puzzle, limit=0,
                                                                          time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)
    assert len({s for s in result.solutions if is_solution(puzzle, s)}) == 28
    for spec in ("command:run=cadical {cnf}", "cadical:encoding=minimal"):
        again = from_spec(spec).solve(puzzle, limit=3, time_limit=60)
        assert (again.status, again.count, again.complete) == (Status.SOLVED, 3, False), spec


@needs_minizinc
@pytest.mark.parametrize("run", ["minizinc --solver gecode {mzn}",
                                 "minizinc --solver gecode {mzn} {dzn}",
                                 "fzn-gecode {fzn}"])
def test_minizinc_and_flatzinc_solvers(run):
    if run.startswith("fzn") and shutil.which("fzn-gecode") is None:
        pytest.skip("fzn-gecode is not installed (apt-get install flatzinc)")
    backend = from_spec(f"command:run={run}")
    puzzle = parse_grid(HARD)
    result = backend.solve(puzzle, limit=2, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True), result
    assert is_solution(puzzle, result.solutions[0])
    unsat = backend.solve(NO_PLACE, limit=2, time_limit=60)
    assert (unsat.status, unsat.complete) == (Status.UNSAT, True)


def test_ace_on_the_xcsp3_instance():
    backend = preset("ace")
    puzzle = parse_grid("809000007076089000030070890020708010700000002"
                          "060120470697804231000906700000007906")
    result = backend.solve(puzzle, limit=0, time_limit=120)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True), result
    assert all(is_solution(puzzle, s) for s in result.solutions) and result.stats["calls"] == 1
    unsat = backend.solve(NO_PLACE, limit=2, time_limit=120)
    assert (unsat.status, unsat.complete) == (Status.UNSAT, True)


def test_presets_are_listed_with_what_to_install(capsys):
    assert main(["backends"]) == 0
    out = capsys.readouterr().out
    for name in (*SAT_PRESETS, "ace"):
        assert f"\n{name} " in out
        if not backend_class(name).available():
            assert unavailable_reason(backend_class(name)) in " ".join(out.split()), name


# --- programs that go wrong -----------------------------------------------------------------------

BROKEN = {
    "garbage": ('print("hello, I solved it")\n', "neither a verdict, a model nor a comment"),
    "nothing": ("pass\n", "no verdict"),
    "partial": ('import sys\nprint("s SATISFIABLE\\nv 1 -2 3")\nsys.exit(10)\n',
                "without its closing 0"),
    "crash": ('import os, signal, sys\nsys.stderr.write("parsing...\\nout of luck here\\n")\n'
              'sys.stderr.flush()\nos.kill(os.getpid(), signal.SIGSEGV)\n',
              "killed by SIGSEGV; stderr: out of luck here"),
    "status": ('import sys\nprint("s SATISFIABLE")\nsys.exit(3)\n', "exit status 3"),
}


@pytest.mark.parametrize("kind", BROKEN)
def test_a_program_that_goes_wrong_is_an_error_with_its_reason(kind, tmp_path):
    body, words = BROKEN[kind]
    program = script(tmp_path, f"{kind}.py", body)
    result = from_spec(f"command:run={program} {{cnf}}").solve(parse_grid(HARD),
                                                                 time_limit=30)
    assert result.status is Status.ERROR and words in result.error, result.error
    assert "Traceback" not in result.error and "\n" not in result.error


@pytest.mark.parametrize("placeholder, text, words", [
    ("{mzn}", "[1, 2, 3]\n----------\n", "3 values, not the 81"),
    ("{xcsp3}", "s SATISFIABLE\n", "no complete <instantiation>"),
    ("{opb}", "s SATISFIABLE\nv x1 -x2\n", "a partial model"),
])
def test_other_formats_name_what_is_wrong(placeholder, text, words, tmp_path):
    program = script(tmp_path, "p.py", f"print({text!r}, end='')\n")
    result = from_spec(f"command:run={program} {placeholder}").solve(parse_grid(HARD))
    assert result.status is Status.ERROR and words in result.error, result.error


def test_a_program_ignoring_the_blocking_clause_is_an_error(tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text(right_model(parse_grid(HARD)))
    same = script(tmp_path, "same.py", f"import sys\nprint(open({str(answer)!r}).read())\n"
                                       f"sys.exit(10)\n")
    result = from_spec(f"command:run={same} {{cnf}}").solve(parse_grid(HARD), limit=2)
    assert result.status is Status.ERROR and "rules out" in result.error


def test_the_out_file_and_the_deadline(tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text(right_model(parse_grid(HARD)).replace("s SATISFIABLE\nv ", "SAT\n"))
    writer = script(tmp_path, "writer.py", f"import shutil, sys\nshutil.copy({str(answer)!r}, "
                                           f"sys.argv[2])\nprint('c chatter on stdout')\n"
                                           f"sys.exit(10)\n")
    result = from_spec(f"command:run={writer} {{cnf}} {{out}}").solve(parse_grid(HARD))
    assert result.status is Status.SOLVED and is_solution(parse_grid(HARD), result.solution)
    hang = script(tmp_path, "hang.py", "import time\ntime.sleep(600)\n")
    late = from_spec(f"command:run={hang} {{cnf}}").solve(parse_grid(HARD), time_limit=0.5)
    assert late.status is Status.TIMEOUT and late.stats[TIMED_OUT] == 1
    assert late.stats["exit_code"] == -signal.SIGKILL


def test_one_format_per_command_line():
    with pytest.raises(OptionError, match="one format per command line"):
        from_spec("command:run=solver {cnf} {xcsp3}")
    with pytest.raises(OptionError, match=r"name the model's place with \{mzn\}"):
        from_spec("command:run=minizinc {dzn}")


def test_a_planted_wrong_model_is_wrong_and_the_bench_goes_on(tmp_path, monkeypatch, capsys):
    """A solver whose 'v' line puts a 3 where the given 4 is: the judge refuses it (WRONG);
    one that prints garbage is an ERROR; the right solver's runs are solved all the same."""
    monkeypatch.chdir(tmp_path)
    right = right_model(parse_grid(HARD))
    assert right.startswith("s SATISFIABLE\nv -1 -2 -3 4 -5 ")  # r1c1 holds its given 4
    (tmp_path / "right.txt").write_text(right)
    (tmp_path / "wrong.txt").write_text(right.replace("v -1 -2 -3 4 ", "v -1 -2 3 -4 ", 1))
    for name in ("right", "wrong"):
        script(tmp_path, f"{name}.py", f"import sys\nprint(open('{name}.txt').read())\n"
                                       f"sys.exit(10)\n")
    script(tmp_path, "garbage.py", BROKEN["garbage"][0])
    (tmp_path / "one.txt").write_text(f"{HARD}\n")
    code = main(["bench", "--backends", "command:run=./right.py {cnf}",
                 "command:run=./wrong.py {cnf}", "command:run=./garbage.py {cnf}",
                 "--puzzles", "one.txt", "--out", "out", "--timeout", "20"])
    captured = capsys.readouterr()
    assert code == 1, captured.err  # a wrong answer fails the bench
    rows = {r["backend"]: r for r in csv.DictReader((tmp_path / "out" / "results.csv").open())}
    assert {k: r["status"] for k, r in rows.items()} == {
        "command:run=./right.py {cnf}": "solved", "command:run=./wrong.py {cnf}": "wrong",
        "command:run=./garbage.py {cnf}": "error"}
    assert "changes the given 4 to 3" in rows["command:run=./wrong.py {cnf}"]["error"]
    assert "neither a verdict" in rows["command:run=./garbage.py {cnf}"]["error"]
