"""`sudoku-cp report DIR` ends as bench ends: the runs that ended in error or crash grouped per
backend, the answer and its rule on the console, and bench's exit status."""

from __future__ import annotations

from pathlib import Path

from sudokucp.cli import main

FOUR = Path(__file__).resolve().parents[1] / "puzzles" / "examples" / "4x4.txt"  # 5 grids
RULE = "Ranked by puzzles solved"


def _bench(out: Path, *backends: str) -> list[str]:
    return ["bench", "--backends", *backends, "--puzzles", str(FOUR), "--max-puzzles", "2",
            "--out", str(out), "--timeout", "20"]


def _tail(text: str) -> list[str]:
    """The console's lines from the first of the answer's (errors, or 'Answer:') to the end."""
    lines = text.splitlines()
    heads = [i for i, line in enumerate(lines)
             if line.startswith("Runs that ended in error") or line == "Answer:"]
    return lines[heads[0]:] if heads else []


def test_report_prints_the_errors_and_the_answer_as_bench_did_and_exits_1(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(_bench(out, "mrv", "command:run=false {file}")) == 1
    bench = capsys.readouterr()
    assert main(["report", str(out), "--out", str(tmp_path / "again")]) == 1
    report = capsys.readouterr()
    tail = _tail(report.out)
    assert tail == _tail(bench.out)
    assert tail[0] == "Runs that ended in error or crash, by backend and reason:"
    assert tail[1].startswith("  command:run=false {file}: 2 runs error: RuntimeError: ")
    assert tail[tail.index("Answer:") + 1].startswith("4x4 (2 puzzles): mrv 1 (fastest) · ")
    assert tail[-1].startswith(RULE)
    assert "4 runs: 2 solved, 2 error" in report.out
    assert "2 runs ended in error or crash: command:run=false {file} (2 error)" in report.err
    assert "Traceback" not in report.err


def test_report_of_a_clean_folder_prints_the_answer_and_exits_0(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(_bench(out, "mrv")) == 0
    bench = capsys.readouterr()
    assert main(["report", str(out)]) == 0
    report = capsys.readouterr()
    tail = _tail(report.out)
    assert tail == _tail(bench.out) and tail[0] == "Answer:"
    assert tail[1].startswith("4x4 (2 puzzles): mrv 1 (fastest)")
    assert tail[-1].startswith(RULE) and "error or crash" not in report.out + report.err


def test_report_where_no_run_answered_says_so_and_exits_1(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(_bench(out, "command:run=false {file}")) == 1
    capsys.readouterr()
    assert main(["report", str(out)]) == 1
    report = capsys.readouterr()
    assert "2 runs: 2 error" in report.out and "no run answered" in report.err
