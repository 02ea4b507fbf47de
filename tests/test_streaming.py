"""Every command that reads puzzles streams them: fed a 50 MB file, bench --max-puzzles 5, rate,
solve --all and check print their first line within seconds, under an address-space cap far below
what reading the whole file takes; solutions stream as they are found and `| head` ends quietly.

Bounds are generous (first line within FIRST_LINE_S, RLIMIT_AS of CAP_MB): they catch a command
that reads the whole file or keeps every solution, not a slow machine."""

from __future__ import annotations

import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sudokucp.backends import get_backend
from sudokucp.cli import main
from sudokucp.cli import trace as trace_cli
from sudokucp.harness.runplan import load_dataset
from sudokucp.io.formats import parse_grid

ROOT = Path(__file__).resolve().parents[1]
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
MANY = "".join(d if i % 6 == 0 else "." for i, d in enumerate(SOLVED))  # 14 givens
SIZE = 50_000_000  # bytes of the generated file
CAP_MB = 600  # address space of each command: the whole file parsed takes far more
FIRST_LINE_S = 20.0
WATCHDOG_S = 90.0  # a command still silent then is killed: the test fails instead of hanging


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> dict[str, Path]:
    """50 MB files of easy 9x9 lines: plain, and behind a grid with 14 givens (billions of
    solutions) or a filled grid."""
    folder = tmp_path_factory.mktemp("streaming")
    body = (EASY + "\n") * (SIZE // (len(EASY) + 1))
    files = {}
    for name, first in (("easy", ""), ("many", MANY + "\n"), ("filled", SOLVED + "\n")):
        files[name] = folder / f"{name}.txt"
        files[name].write_text(first + body)
    return files


def _cap_memory() -> None:
    cap = CAP_MB << 20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def first_lines(args: list[str], count: int = 1) -> tuple[list[str], float, int]:
    """The first `count` lines the command prints, the seconds they took and its exit status
    (-9 when it was killed after them, which ends a command that would run long)."""
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "sudokucp", *args], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             preexec_fn=_cap_memory)
    watchdog = threading.Timer(WATCHDOG_S, child.kill)
    watchdog.start()
    try:
        lines = [_read_line(child, start) for _ in range(count)]
        took = time.monotonic() - start
    finally:
        watchdog.cancel()
        child.kill()
        child.wait()
    return lines, took, child.returncode


def _read_line(child: subprocess.Popen, start: float) -> str:
    line = child.stdout.readline()
    assert line, f"no output, exit status {child.poll()} after {time.monotonic() - start:.1f} s"
    return line.rstrip("\n")


def _two_solutions_of_many(lines: list[str]) -> bool:
    """Two different solutions of MANY (the easy lines after it have one, the same)."""
    fits = all(all(g in (".", d) for g, d in zip(MANY, line)) for line in lines)
    return fits and lines[0] != lines[1]


@pytest.mark.parametrize("args, expect", [
    (["rate", "--no-guesses", "{easy}"], lambda lines: lines[0].startswith("puzzle")),
    (["check", "{filled}"], lambda lines: lines[0].startswith("VALID")),
    (["solve", "--all", "--backend", "mrv", "--format", "line", "{many}"], _two_solutions_of_many),
], ids=["rate", "check", "solve-all"])
def test_a_50_mb_file_streams(big, tmp_path, args, expect):
    args = [a.format(**big) for a in args]
    lines, took, _ = first_lines(args, 2)
    assert took < FIRST_LINE_S, (args[0], took)
    assert expect(lines), lines


def test_bench_max_puzzles_reads_no_further(big, tmp_path):
    """Its output comes at the end: the whole bench runs under the cap, well within its timeout."""
    out = subprocess.run([sys.executable, "-m", "sudokucp", "bench", "--backends", "mrv",
                          "--puzzles", str(big["easy"]), "--max-puzzles", "5", "--jobs", "1",
                          "--memory", "0", "--out", str(tmp_path / "b")], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, preexec_fn=_cap_memory)
    assert out.returncode == 0, out.stderr[-2000:]


def test_load_dataset_stops_at_max_puzzles(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(EASY + "\n" + EASY + "\n" + "bad line\n")
    data = load_dataset(path, 1)
    assert len(data.puzzles) == 1 and data.problems == []


def test_solutions_stream_as_the_search_finds_them():
    seen: list[tuple[int, ...]] = []
    backend = get_backend("mrv")
    with backend.streaming(seen.append):
        result = backend.solve(parse_grid(MANY), limit=50)
    assert len(set(seen)) == 50 and result.count == 50 and result.solutions == ()


@pytest.mark.parametrize("name", ["mrv", "cpsat", "sat"])
def test_a_closed_output_ends_solve_all_quietly(name):
    pytest.importorskip({"mrv": "sudokucp", "cpsat": "ortools", "sat": "pycosat"}[name])
    shell = (f"set -o pipefail; {sys.executable} -m sudokucp solve --all --backend {name} "
             f"--format line - | head -2")
    out = subprocess.run(["bash", "-c", shell], input=MANY, capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 2, out.stderr
    assert "Traceback" not in out.stderr and out.stderr == "", out.stderr


def test_backends_say_how_counting_memory_grows(capsys):
    assert main(["backends"]) == 0
    said = capsys.readouterr().out
    assert "memory while counting" in said
    assert any(line.split()[:2] == ["sat", "grows"] for line in said.splitlines())


def test_the_replay_page_keeps_the_first_steps(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(trace_cli, "PAGE_STEPS", 50)
    grid = tmp_path / "many.txt"
    grid.write_text(MANY + "\n")
    page = tmp_path / "page.html"
    main(["trace", str(grid), "--backend", "mrv", "--limit", "0", "--max-steps", "2000",
          "--html", str(page)])
    err = capsys.readouterr().err
    assert "first 50 of the 2,000 steps" in err
    text = page.read_text(encoding="utf-8")
    assert "the first 50 of 2,000 steps" in text and text.count('"step":') == 50
