"""The command line, run as a user runs it: in a subprocess."""

import json
import subprocess
import sys
from pathlib import Path

from sudokucp.io.formats import load_puzzles, to_grid

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "puzzles" / "seeds"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudokucp", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_solve_prints_the_seed_solutions_as_grids():
    for name in ("002-logic-9x9", "002-backtracking-16x16"):
        out = run("solve", "--backend", "naive", str(SEEDS / f"{name}.txt"))
        assert out.returncode == 0, out.stderr
        expected = load_puzzles(SEEDS / f"{name}.solution.txt")[0]
        assert to_grid(expected.shape, expected.cells) in out.stdout
        assert out.stdout.strip().splitlines()[-1].startswith("SOLVED  ")


def test_count_on_multiple_reports_28():
    out = run("solve", "--backend", "naive", "--count", str(SEEDS / "004-multiple.txt"))
    assert out.returncode == 0
    assert out.stdout.startswith("SOLVED  28 solutions  ")


def test_all_prints_every_solution_as_lines():
    out = run("solve", "--backend", "naive-iterative", "--all", "--format", "line",
              str(SEEDS / "004-multiple.txt"))
    lines = out.stdout.split()
    assert len(lines) == 28 == len(set(lines)) and all(len(x) == 81 for x in lines)
    assert "28 solutions" in out.stderr


def test_duplicate_given_exits_non_zero_naming_the_unit():
    grid = "8.8" + "." * 78
    out = run("solve", "-", stdin=grid)
    assert out.returncode == 2
    assert "digit 8 twice in row 1 (r1c1 and r1c3)" in out.stderr
    assert "Traceback" not in out.stderr


def test_timeout_on_the_anti_backtracking_grid():
    out = run("solve", "--backend", "naive", "--timeout", "1",
              str(SEEDS / "001-anti-backtracking.txt"))
    assert out.returncode == 1
    assert out.stdout.startswith("TIMEOUT  no solution found  1.0")


def test_a_bad_line_does_not_stop_the_others(tmp_path):
    good = load_puzzles(SEEDS / "004-telegram.txt")[0].to_line()
    path = tmp_path / "many.txt"
    path.write_text(f"# three grids\n{good}\n{good[:-3]}\n{good}\n")
    out = run("solve", "--format", "line", str(path))
    assert out.returncode == 2
    assert out.stdout.count("\n") == 2
    assert "line 3: 78 cells fits no supported shape" in out.stderr


def test_json_output():
    out = run("solve", "--format", "json", "--limit", "2", str(SEEDS / "004-telegram.txt"))
    record = json.loads(out.stdout)
    assert record["status"] == "solved" and record["complete"] is True
    assert len(record["solutions"]) == 1


def test_check_judges_filled_grids(tmp_path):
    out = run("check", str(SEEDS / "004-all-done.txt"))
    assert out.returncode == 1 and out.stdout.startswith("INVALID")
    assert "row 5" in out.stdout
    out = run("check", str(SEEDS / "002-logic-9x9.solution.txt"))
    assert out.returncode == 0 and out.stdout.startswith("VALID")
    out = run("check", str(SEEDS / "004-telegram.txt"))
    assert out.returncode == 1 and "empty cells" in out.stdout


def test_unknown_backend_and_bad_options_exit_2_without_traceback():
    for spec in ("dancing-links", "naive:speed=3"):
        out = run("solve", "--backend", spec, str(SEEDS / "004-telegram.txt"))
        assert out.returncode == 2 and "Traceback" not in out.stderr
    out = run("solve", "--backend", "dancing-links", str(SEEDS / "004-telegram.txt"))
    assert "valid names: naive, naive-iterative" in out.stderr


def test_missing_file_and_bad_shape():
    out = run("solve", "no-such-file.txt")
    assert out.returncode == 2 and "cannot read no-such-file.txt" in out.stderr
    out = run("solve", "--shape", "7x7", "-", stdin="." * 49)
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_shape_option_reads_a_3x2_box_grid():
    out = run("solve", "--shape", "box 3x2", "--format", "json", "-", stdin="." * 36)
    record = json.loads(out.stdout)
    assert record["status"] == "solved"


def test_backends_lists_every_backend():
    out = run("backends")
    assert out.returncode == 0
    for name in ("naive", "naive-iterative", "mrv", "hybrid", "cpsat", "sat", "pyconstraint"):
        assert f"\n{name} " in out.stdout


def test_every_output_format_reads_back():
    from sudokucp.io.formats import WRITERS, parse_grid

    puzzle = load_puzzles(SEEDS / "002-logic-9x9.txt")[0]
    for fmt in (*WRITERS, "json"):
        out = run("solve", "--backend", "mrv", "--format", fmt, str(SEEDS / "002-logic-9x9.txt"))
        assert out.returncode == 0, (fmt, out.stderr)
        if fmt == "json":
            solution = json.loads(out.stdout)["solutions"][0]
        else:
            text = out.stdout.split("\n\n")[0] if fmt != "line" else out.stdout
            solution = parse_grid(text).cells
        expected = load_puzzles(SEEDS / "002-logic-9x9.solution.txt")[0]
        assert tuple(solution) == expected.cells, fmt
        assert puzzle.cells != expected.cells


def test_version_and_defaults_in_help():
    out = run("--version")
    assert out.returncode == 0 and out.stdout.startswith("sudoku-cp ")
    text = run("bench", "--help").stdout
    assert "(default: 1)" in text and "frozenset" not in text and "(default: True)" not in text


def test_counts_of_zero_are_refused():
    for args in (["bench", "--jobs", "0"], ["bench", "--max-puzzles", "0"],
                 ["generate", "--count", "0"]):
        out = run(*args, "--backends", "mrv", "--puzzles", "x.txt") if args[0] == "bench" \
            else run(*args)
        assert out.returncode == 2 and "must be at least 1" in out.stderr, args
        assert "Traceback" not in out.stderr


def test_solve_says_it_waits_on_a_terminal():
    import os
    import pty

    main, replica = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "sudokucp", "solve", "--backend", "mrv"],
                            stdin=replica, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    os.close(replica)
    os.write(main, b".14.........2..3\n\x04")
    out, err = proc.communicate(timeout=60)
    os.close(main)
    assert "reading grids from standard input" in err
    assert proc.returncode == 0 and "SOLVED" in out


def test_solve_timeout_is_hard_for_a_backend_that_cannot_be_interrupted():
    import os
    import time

    import fake_backends

    env = {**os.environ, "PYTHONPATH": fake_backends.pythonpath()}
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "sudokucp", "solve", "--backend",
                          fake_backends.spec(fake_backends.Stubborn), "--timeout", "1",
                          str(SEEDS / "004-telegram.txt")],
                         capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert time.monotonic() - start < 10  # the backend alone would run for minutes
    assert out.returncode == 1 and out.stdout.startswith("TIMEOUT"), out.stderr
    assert "killed after" in out.stdout


def test_count_as_json_gives_the_count_not_the_solutions():
    out = run("solve", "--backend", "naive", "--count", "--format", "json",
              str(SEEDS / "004-multiple.txt"))
    record = json.loads(out.stdout)
    puzzle = load_puzzles(SEEDS / "004-multiple.txt")[0]
    assert (record["count"], record["complete"]) == (28, True)
    assert "solutions" not in record
    assert (record["grid"], record["name"]) == (puzzle.to_line(), puzzle.name)
