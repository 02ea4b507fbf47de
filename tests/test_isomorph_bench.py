"""bench --isomorphs: each puzzle also run as random isomorphs, solutions mapped back and judged
on the puzzle as given, and the spread of each backend's time over the forms in the tables."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sudokucp import isomorph
from sudokucp.backends import get_backend
from sudokucp.cli import main
from sudokucp.executors import Outcome, Task
from sudokucp.harness.bench import BenchConfig, bench
from sudokucp.harness.runcheck import verify
from sudokucp.harness.runplan import Contender, load_dataset, plan
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import Puzzle, to_line
from sudokucp.reporting.bench_report import bench_and_report
from sudokucp.reporting.forms import forms_frame
from sudokucp.result import Result, Status

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
FOUR, NINE = PUZZLES / "examples" / "4x4.txt", PUZZLES / "generated" / "9x9-simple.txt"


def contenders(*names: str) -> list[Contender]:
    return [Contender(n, n, {}, "1", 1) for n in names]


def test_plan_runs_every_form_of_every_puzzle_once() -> None:
    data = [load_dataset(FOUR)]
    tasks = plan(contenders("mrv", "naive"), data, isomorphs=3, repeat=2, seed=7)
    puzzles = data[0].puzzles
    assert len(tasks) == 2 * 2 * 4 * len(puzzles) == len({t.key for t in tasks})
    for task in tasks:
        original = next(p for p in puzzles if p.to_line() == task.meta["grid"])
        assert isomorph.canonical(task.puzzle) == isomorph.canonical(original)
        assert (task.puzzle == original) == (task.meta.get("form", 0) == 0)
    again = plan(contenders("mrv", "naive"), data, isomorphs=3, repeat=2, seed=7)
    other = plan(contenders("mrv", "naive"), data, isomorphs=3, repeat=2, seed=8)
    assert {(t.key, t.puzzle) for t in again} == {(t.key, t.puzzle) for t in tasks}
    assert {t.puzzle for t in other} != {t.puzzle for t in tasks}
    assert not {t.key for t in other if "~" in t.key} & {t.key for t in tasks}


def _outcome(task: Task, solutions: tuple) -> Outcome:
    result = Result(task.spec, task.puzzle.name, Status.SOLVED, solutions, seconds=0.01, cpu=0.01)
    return Outcome(task, result, 0.01)


def test_a_form_s_solution_is_mapped_back_and_judged_on_the_puzzle_as_given() -> None:
    data = [load_dataset(NINE, max_puzzles=2)]
    tasks = [t for t in plan(contenders("mrv"), data, isomorphs=2, seed=1) if t.meta.get("form")]
    mrv = get_backend("mrv")
    for task in tasks:
        original = parse_grid(task.meta["grid"])
        row = verify(_outcome(task, mrv.solve(task.puzzle).solutions))
        assert row.status is Status.SOLVED and row.verified and row.form == task.meta["form"]
        assert row.hash == original.digest and row.grid == original.to_line()
        assert row.solutions == (to_line(original.shape, mrv.solve(original).solution),)
        as_searched = verify(_outcome(task, (mrv.solve(original).solution,)))  # not mapped back
        assert as_searched.status is Status.WRONG


def test_bench_with_isomorphs_writes_the_order_bias_table(tmp_path: Path) -> None:
    config = BenchConfig(backends=["naive", "hybrid"], puzzles=[str(FOUR)], out=tmp_path,
                         isomorphs=3, repeat=1, seed=2, timeout=20, memory_mb=None)
    outcome = bench_and_report(config)
    assert {r.form for r in outcome.rows} == {0, 1, 2, 3}
    assert all(r.status is Status.SOLVED and r.verified for r in outcome.rows)
    assert not outcome.disagreements  # the forms' solutions, mapped back, agree
    forms = pd.read_csv(tmp_path / "forms.csv")
    assert set(forms["backend"]) == {"naive", "hybrid"} and set(forms["forms"]) == {4}
    assert (forms["ratio_median"] >= 1).all()
    assert "Order bias" in (tmp_path / "summary.md").read_text()


def test_without_isomorphs_there_is_no_forms_table(tmp_path: Path) -> None:
    config = BenchConfig(backends=["mrv"], puzzles=[str(FOUR)], out=tmp_path, timeout=20,
                         memory_mb=None, max_puzzles=2)
    outcome = bench(config)
    assert {r.form for r in outcome.rows} == {0}
    assert forms_frame(pd.DataFrame([r.record() for r in outcome.rows])).empty


def test_forms_frame_takes_the_spread_of_each_puzzle_s_forms() -> None:
    def run(backend: str, digest: str, form: int, seconds: float, status: str = "solved"):
        return {"backend": backend, "hash": digest, "form": form, "seconds": seconds,
                "status": status}

    rows = [run("a", "p", 0, 1.0), run("a", "p", 1, 3.0), run("a", "p", 2, 2.0),
            run("a", "q", 0, 0.5), run("a", "q", 1, 0.5), run("a", "q", 2, 0.5),
            run("a", "s", 0, 0.5), run("a", "s", 1, 10.0, "timeout"), run("a", "s", 2, 0.4),
            run("b", "p", 0, 10.0, "timeout"), run("b", "p", 1, 10.0, "timeout")]
    frame = forms_frame(pd.DataFrame(rows)).set_index("backend")
    assert frame.loc["a", "puzzles"] == 3 and frame.loc["a", "split"] == 1
    assert frame.loc["a", "answered"] == "8/9" and frame.loc["b", "answered"] == "0/2"
    assert frame.loc["a", "ratio_max"] == pytest.approx(3.0)
    assert frame.loc["a", "ratio_median"] == pytest.approx(2.0)  # of 3.0 and 1.0
    assert frame.loc["a", "cv_median"] == pytest.approx((1.0 / 2.0) / 2)  # of 0.5 and 0
    assert frame.loc["b", "unanswered"] == 1 and pd.isna(frame.loc["b", "ratio_median"])


def test_cli_isomorphs(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out"
    assert main(["bench", "--puzzles", str(FOUR), "--backends", "mrv", "--isomorphs", "2",
                 "--seed", "3", "--max-puzzles", "2", "--out", str(out)]) == 0
    assert "forms.csv" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:  # refused by the parser, before any run
        main(["bench", "--puzzles", str(FOUR), "--backends", "mrv", "--isomorphs", "-1",
              "--out", str(out)])
    assert refused.value.code == 2 and "-1 must be at least 0" in capsys.readouterr().err


def test_a_variant_runs_as_given_only_and_is_refused_a_canonical_form(tmp_path: Path) -> None:
    from sudokucp.executors.dask_cluster import pack, unpack
    from sudokucp.rules import Rules

    n = 4
    x = Rules(units=(tuple(i * n + i for i in range(n)), tuple(i * n + n - 1 - i
                                                                for i in range(n))))
    base = load_dataset(FOUR).puzzles[0]
    variant = Puzzle(base.shape, base.cells, "x", x)
    tasks = plan(contenders("mrv"), [load_dataset(FOUR)], isomorphs=2)
    data = type(load_dataset(FOUR))("x", [variant])
    assert len(plan(contenders("mrv"), [data], isomorphs=2)) == 1 < len(tasks)
    with pytest.raises(ValueError, match="classic grids"):
        isomorph.canonical(variant)
    assert unpack(pack(variant)) == variant and unpack(pack(variant)).rules == x
