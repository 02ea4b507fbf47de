"""Exit statuses on failure paths (issue 24): a bench where no run answered, a bench folder that
holds earlier runs, generate options refused before anything is printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokucp.cli import main
from sudokucp.harness.bench import BenchConfig, bench
from sudokucp.harness.runlog import RESULTS, BenchError

FOUR = Path(__file__).resolve().parents[1] / "puzzles" / "examples" / "4x4.txt"  # 5 grids


def _bench(out: Path, *more: str, backend: str = "mrv") -> list[str]:
    return ["bench", "--backends", backend, "--puzzles", str(FOUR), "--max-puzzles", "2",
            "--out", str(out), "--timeout", "20", *more]


def test_a_bench_where_no_run_answered_counts_its_statuses_and_exits_1(tmp_path, capsys):
    assert main(_bench(tmp_path / "out", backend="command:run=false {file}")) == 1
    done = capsys.readouterr()
    assert "2 runs: 2 error" in done.out
    assert "no run answered" in done.err and "Traceback" not in done.err


def test_a_command_whose_program_is_missing_is_refused_before_any_run(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(_bench(out, backend="command:run=no-such-solver-here {file}")) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "'no-such-solver-here' is not on PATH" in err
    assert not (out / RESULTS).exists()
    assert main(_bench(out, backend=f"command:run={tmp_path / 'absent'} {{file}}")) == 2
    assert "is not an executable file" in capsys.readouterr().err


def test_errors_are_grouped_by_backend_on_the_console_and_exit_1(tmp_path, capsys):
    both = ["mrv", "command:run=false {file}"]
    assert main([*_bench(tmp_path / "out", backend=both[0]), "--backends", *both]) == 1
    done = capsys.readouterr()
    out = done.out.splitlines()
    start = out.index("Runs that ended in error or crash, by backend and reason:")
    assert out[start + 1].startswith("  command:run=false {file}: 2 runs error: RuntimeError: ")
    assert out[out.index("Answer:") + 1].startswith("4x4 (2 puzzles): mrv 1 (fastest) · ")
    assert "2 runs ended in error or crash: command:run=false {file} (2 error)" in done.err
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert summary.index("## Answer") < summary.index("## Errors and crashes")
    assert "- **command:run=false {file}**: 2 runs error: RuntimeError" in summary


def test_a_bench_that_answered_counts_its_statuses_and_exits_0(tmp_path, capsys):
    assert main(_bench(tmp_path / "out")) == 0
    assert "2 runs: 2 solved" in capsys.readouterr().out


def test_a_folder_with_earlier_runs_needs_resume_or_overwrite(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(_bench(out, "--max-puzzles", "1")) == 0
    before = (out / RESULTS).read_text()
    capsys.readouterr()
    assert main(_bench(out)) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "already holds the runs" in err
    assert "--resume" in err and "--overwrite" in err
    assert (out / RESULTS).read_text() == before  # nothing replaced
    assert main(_bench(out, "--resume", "--overwrite")) == 2
    assert "choose one" in capsys.readouterr().err
    assert main(_bench(out, "--overwrite", "--max-puzzles", "2")) == 0
    assert len((out / RESULTS).read_text().splitlines()) == 2


def test_the_api_refuses_only_when_told_not_to_overwrite(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / RESULTS).write_text('{"earlier": "run"}\n')
    with pytest.raises(BenchError, match="--resume to go on with them, or --overwrite"):
        bench(BenchConfig(backends=["mrv"], puzzles=[str(FOUR)], out=out, max_puzzles=1,
                          overwrite=False))
    assert (out / RESULTS).read_text() == '{"earlier": "run"}\n'


@pytest.mark.parametrize("args, words", [
    (["--givens", "17"], ["--givens 17", "16 cells"]),
    (["--givens", "1000"], ["--givens 1000"]),
    (["--givens", "-5"], ["--givens", "at least 0"]),
    (["--tries", "3"], ["--tries", "--difficulty"]),
])
def test_generate_refuses_before_printing_anything(args, words, capsys):
    try:
        code = main(["generate", "--shape", "4x4", *args])
    except SystemExit as stop:  # refused by the parser
        code = stop.code
    done = capsys.readouterr()
    assert code == 2 and done.out == ""
    assert len(done.err.splitlines()) == 1 and all(w in done.err for w in words), done.err
