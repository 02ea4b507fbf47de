"""puzzles.jsonl: each grid and each claimed solution written once per results folder, the rows
naming them; folders of the earlier format (rows that carry their grid) still load and resume."""

from __future__ import annotations

import json
import platform
from pathlib import Path

from sudokucp.generators.balanced import make_one
from sudokucp.harness import puzzlelog
from sudokucp.harness.bench import BenchConfig, bench
from sudokucp.harness.puzzlelog import PUZZLES, Stored, digest, expand
from sudokucp.harness.runlog import RESULTS, ResultLog
from sudokucp.puzzle import Shape
from sudokucp.reporting.results_folder import load_folder
from sudokucp.result import Row, Status

FOUR = Path(__file__).resolve().parents[1] / "puzzles" / "examples" / "4x4.txt"  # 5 grids
GRID, SOLUTION, HASH = ".14.........2..3", "3142423113242413", "16914e6d8dcbc2c0"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _fields(rows: list[Row]) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {row.key: (row.grid, row.solutions) for row in rows}


def test_a_bench_stores_each_grid_and_solution_once_and_reads_them_back(tmp_path):
    config = BenchConfig(backends=["mrv", "hybrid"], puzzles=[str(FOUR)], out=tmp_path / "out",
                         timeout=5, memory_mb=None, repeat=2)
    outcome = bench(config)
    rows, stored = _lines(config.out / RESULTS), _lines(config.out / PUZZLES)
    assert len(rows) == 5 * 2 * 2
    assert not any("grid" in row or "solutions" in row for row in rows)
    grids = [r["hash"] for r in stored if "grid" in r]
    solutions = [r["solution"] for r in stored if "solution" in r]
    assert sorted(grids) == sorted({row["hash"] for row in rows})  # each once
    assert len(solutions) == len(set(solutions)) == len({s for r in outcome.rows
                                                          for s in r.solutions})
    assert {ref for row in rows for ref in row["refs"]} == {digest(s) for s in solutions}
    made = _fields(outcome.rows)
    assert all(grid and solutions for grid, solutions in made.values())
    assert _fields(ResultLog(config.out / RESULTS).load()[0]) == made
    assert _fields(load_folder(config.out).rows) == made


def _old_line(backend: str = "mrv") -> str:
    """A row as results.jsonl held it before puzzles.jsonl: the grid and solutions in the row."""
    return json.dumps({
        "key": f"{backend}|{HASH}|1", "dataset": "one", "puzzle": "one:1", "hash": HASH,
        "backend": backend, "name": backend, "status": "solved", "verified": True,
        "seconds": 0.0003, "cpu": 0.0003, "wall": 0.0003, "rss_mb": 18.1, "repeat": 0,
        "form": 0, "count": 1, "complete": False, "limit": 1, "timeout": 5.0,
        "cpu_limit": None, "error": None, "grid": GRID, "box": "2x2",
        "versions": {"backend": "0.1.0", "python": platform.python_version()},
        "options": {}, "solutions": [SOLUTION], "stats": {"nodes": 12}, "memory_mb": None,
        "limit_hit": None, "measure": "cpu"})


def test_a_folder_of_the_earlier_format_loads_and_resumes(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / RESULTS).write_text(_old_line() + "\n")
    [row] = load_folder(out).rows
    assert (row.grid, row.solutions, row.status) == (GRID, (SOLUTION,), Status.SOLVED)
    assert _fields(ResultLog(out / RESULTS).load()[0]) == _fields([row])
    (tmp_path / "one.txt").write_text(GRID + "\n")
    config = BenchConfig(backends=["mrv", "hybrid"], puzzles=[str(tmp_path / "one.txt")],
                         out=out, timeout=5, memory_mb=None, resume=True)
    outcome = bench(config)
    assert (outcome.ran, outcome.skipped) == (1, 1)
    old, new = _lines(out / RESULTS)
    assert old["grid"] == GRID and "refs" not in old  # left as it was
    assert "grid" not in new and new["refs"] == [digest(SOLUTION)]
    loaded = load_folder(out)
    assert loaded.notes == [] and not loaded.disagreements
    assert {(r.backend, r.grid, r.solutions) for r in loaded.rows} == {
        ("mrv", GRID, (SOLUTION,)), ("hybrid", GRID, (SOLUTION,))}


def test_a_row_whose_puzzle_is_not_stored_is_a_note_and_runs_again(tmp_path):
    (tmp_path / "one.txt").write_text(GRID + "\n")
    config = BenchConfig(backends=["mrv"], puzzles=[str(tmp_path / "one.txt")],
                         out=tmp_path / "out", timeout=5, memory_mb=None)
    bench(config)
    (config.out / PUZZLES).write_text("")  # lost
    loaded_notes = load_folder_notes(config.out)
    assert loaded_notes == [f"{config.out / RESULTS}: line 1: its puzzle {HASH} is not in "
                            f"{PUZZLES}; skipped"]
    config.resume = True
    outcome = bench(config)
    assert (outcome.ran, outcome.skipped) == (1, 0) and outcome.notes == loaded_notes
    assert [r["hash"] for r in _lines(config.out / PUZZLES) if "grid" in r] == [HASH]
    assert _fields(load_folder(config.out).rows)[f"mrv|{HASH}|1"] == (GRID, (SOLUTION,))


def load_folder_notes(folder: Path) -> list[str]:
    """The notes of a folder's rows, read without touching it (no row at all: none)."""
    from sudokucp.reporting.results_folder import read_rows

    return read_rows(folder / RESULTS)[1]


def test_a_torn_last_record_is_cut_off_by_resume_and_left_by_report(tmp_path):
    (tmp_path / "one.txt").write_text(GRID + "\n")
    config = BenchConfig(backends=["mrv"], puzzles=[str(tmp_path / "one.txt")],
                         out=tmp_path / "out", timeout=5, memory_mb=None)
    bench(config)
    whole = (config.out / PUZZLES).read_bytes()
    (config.out / PUZZLES).write_bytes(whole + b'{"hash": "abc", "gri')  # a disk that filled
    assert len(load_folder(config.out).rows) == 1
    assert (config.out / PUZZLES).read_bytes().endswith(b'"gri')  # report reads, never writes
    rows, notes = ResultLog(config.out / RESULTS).load()
    assert len(rows) == 1 and notes == [f"{config.out / PUZZLES}: line 3 is not a puzzle "
                                        f"record; cut off"]
    assert (config.out / PUZZLES).read_bytes() == whole


def test_a_false_solution_stored_by_reference_is_judged_again(tmp_path):
    (tmp_path / "one.txt").write_text(GRID + "\n")
    config = BenchConfig(backends=["mrv"], puzzles=[str(tmp_path / "one.txt")],
                         out=tmp_path / "out", timeout=5, memory_mb=None)
    bench(config)
    lie = "1" * 16
    (config.out / PUZZLES).write_text(f'{{"hash": "{HASH}", "grid": "{GRID}"}}\n'
                                      f'{{"ref": "{digest(SOLUTION)}", "solution": "{lie}"}}\n')
    notes = load_folder_notes(config.out)  # a record whose text is not its digest's: no record
    assert notes == [f"{config.out / PUZZLES}: line 2 is not a puzzle record; skipped",
                            f"{config.out / RESULTS}: line 1: its solution {digest(SOLUTION)} "
                            f"is not in {PUZZLES}; skipped"]
    with (config.out / PUZZLES).open("a") as handle:  # one whose digest matches
        handle.write(json.dumps({"ref": digest(lie), "solution": lie}) + "\n")
    row = json.loads((config.out / RESULTS).read_text()) | {"refs": [digest(lie)]}
    (config.out / RESULTS).write_text(json.dumps(row) + "\n")
    [judged] = load_folder(config.out).rows
    assert judged.status is Status.WRONG and "invalid solution" in judged.error


def test_a_grid_of_64x64_is_stored_once_not_once_per_row(tmp_path):
    puzzle = make_one(Shape(8, 8), 0.05, "random", 1).puzzle
    (tmp_path / "big.txt").write_text(puzzle.to_line() + "\n")
    config = BenchConfig(backends=["mrv"], puzzles=[str(tmp_path / "big.txt")],
                         out=tmp_path / "out", timeout=60, memory_mb=None, repeat=3)
    outcome = bench(config)
    assert [row.status for row in outcome.rows] == [Status.SOLVED] * 3
    line = len(puzzle.to_line())
    assert line > 4096 * 2  # a number and a space a cell
    rows = (config.out / RESULTS).read_bytes().splitlines()
    assert len(rows) == 3 and max(map(len, rows)) < 1500
    assert len((config.out / PUZZLES).read_bytes()) < 2.2 * line  # the grid and its solution


def test_another_text_of_a_stored_puzzle_and_a_shared_digest_stay_in_the_row(monkeypatch):
    stored = Stored()
    first = Row(key="a", hash=HASH, grid=GRID, solutions=(SOLUTION,))
    records, data = stored.compact(first)
    assert [set(r) for r in records] == [{"hash", "grid"}, {"ref", "solution"}]
    assert "grid" not in data and data["refs"] == [digest(SOLUTION)]
    stored.keep(records)
    other = Row(key="b", hash=HASH, grid=GRID.replace(".", "0"), solutions=(SOLUTION,))
    records, data = stored.compact(other)
    assert records == [] and data["grid"] == other.grid
    monkeypatch.setattr(puzzlelog, "digest", lambda line: "same")  # two lines, one digest
    stored = Stored(solutions={"same": SOLUTION})
    twin = SOLUTION.replace("3", "4")
    records, data = stored.compact(Row(key="c", hash="h", grid=GRID, solutions=(twin,)))
    assert data["solutions"] == [twin] and data["refs"] == ["same"]
    stored.keep(records)
    assert expand(data, stored)["solutions"] == [twin]
