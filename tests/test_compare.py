"""`sudoku-cp compare OLD NEW`: runs matched across two results folders, a planted regression
flagged with exit status 1, noise on tiny times flagging nothing, bad folders refused."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys

import pytest

from sudokucp.cli import main
from sudokucp.harness.bench import BenchConfig, bench
from sudokucp.harness.runlog import RESULTS, ResultLog
from sudokucp.reporting.compare import compare
from sudokucp.result import Row, Status

GRIDS = ["1.3.3.1.2.4.4.2.", ".2.4.4.2.1.3.3.1", "12...4.2..4...2.", "....3412...3.3.."]


def _bench(folder):
    """A results folder made by the harness: mrv and hybrid on four 4x4 grids."""
    puzzles = folder.parent / "tiny.txt"
    puzzles.write_text("\n".join(GRIDS) + "\n")
    bench(BenchConfig(backends=["mrv", "hybrid"], puzzles=[puzzles], out=folder, timeout=5,
                      memory_mb=None))
    return folder


@pytest.fixture(scope="module")
def old(tmp_path_factory):
    return _bench(tmp_path_factory.mktemp("old") / "runs")


def _rows(folder):
    return ResultLog(folder / RESULTS).load()[0]


def _write(folder, rows):
    folder.mkdir(parents=True)
    log = ResultLog(folder / RESULTS)
    log.open(append=False)
    for row in rows:
        log.write(row)
    log.close()
    return folder


def _planted(old, folder):
    """OLD's runs with one made unsolved and one made 0.5 s long."""
    rows = _rows(old)
    assert all(r.status is Status.SOLVED for r in rows) and len(rows) == 8
    rows[0] = dataclasses.replace(rows[0], status=Status.TIMEOUT, solutions=(), verified=None)
    rows[3] = dataclasses.replace(rows[3], seconds=0.5)
    return _write(folder, rows), rows


def test_a_planted_regression_is_flagged_and_exits_1(old, tmp_path, capsys):
    new, rows = _planted(old, tmp_path / "new")
    assert main(["compare", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "REGRESSIONS: 2 (1 newly unsolved, 1 slower)" in out
    flagged = [line for line in out.splitlines() if line.endswith(("| newly unsolved |",
                                                                   "| slower |"))]
    assert len(flagged) == 2
    assert rows[0].puzzle in flagged[0] + flagged[1] and rows[3].puzzle in flagged[0] + flagged[1]
    assert "8 in both, 0 only in OLD, 0 only in NEW" in out


def test_the_same_runs_made_again_flag_nothing(old, tmp_path, capsys):
    again = _bench(tmp_path / "again")  # real runs: tiny times that differ by timer noise
    assert main(["compare", str(old), str(again)]) == 0
    assert "no regression" in capsys.readouterr().out
    assert main(["compare", str(old), str(old)]) == 0


def test_the_per_backend_table_counts_changes(old, tmp_path):
    new, rows = _planted(old, tmp_path / "new")
    result = compare(_rows(old), rows)
    table = result.backends.set_index("backend")
    assert table["runs"].sum() == 8 and table["newly_unsolved"].sum() == 1
    assert table["slower"].sum() == 1 and table["new_solved"].sum() == 7
    hit = table.loc[rows[0].backend]
    assert hit["old_par2_ms"] < hit["new_par2_ms"]  # a time-out costs twice the 5 s limit
    assert hit["new_par2_ms"] >= 2 * 5 * 1000 / hit["runs"]  # in milliseconds


def _pair(old_s: float, new_s: float, old_status=Status.SOLVED, new_status=Status.SOLVED):
    base = Row(key="mrv|h|1", backend="mrv", puzzle="p", hash="h", timeout=2.0,
               status=old_status, seconds=old_s)
    return [base], [dataclasses.replace(base, status=new_status, seconds=new_s)]


@pytest.mark.parametrize("times, options, change", [
    ((0.0001, 0.005), {}, ""),  # 50x, but both under the 10 ms floor
    ((0.0001, 0.005), {"floor_ms": 0}, "slower"),
    ((0.010, 0.5), {}, "slower"),
    ((0.010, 0.5), {"slower": 100}, ""),
    ((0.5, 0.010), {}, "faster"),
    ((0.010, 0.019), {}, ""),
])
def test_the_threshold_and_the_floor(times, options, change):
    result = compare(*_pair(*times), **options)
    assert result.runs["change"].tolist() == [change]


def test_newly_solved_and_other_statuses_are_no_regression():
    assert compare(*_pair(2.0, 0.1, Status.TIMEOUT)).regressions.empty
    other = compare(*_pair(2.0, 0.1, Status.TIMEOUT, Status.CRASH))
    assert other.regressions.empty and other.runs["change"].tolist() == ["other status"]
    unsat = compare(*_pair(0.1, 0.1, Status.SOLVED, Status.UNSAT))
    assert unsat.regressions.empty  # both are answers


def test_the_csv_holds_every_matched_run(old, tmp_path):
    path = tmp_path / "runs.csv"
    assert main(["compare", str(old), str(old), "--csv", str(path)]) == 0
    lines = path.read_text().splitlines()
    assert len(lines) == 9 and "ratio" in lines[0] and "change" in lines[0]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "sudokucp", "compare", *map(str, args)],
                          capture_output=True, text=True, timeout=60)


def test_bad_folders_and_options_are_refused_in_one_line(old, tmp_path):
    other = _write(tmp_path / "other", [Row(key="x|y|1", backend="x", hash="y",
                                            status=Status.SOLVED)])
    for args, message in [((tmp_path / "missing", old), "no such folder"),
                          ((old, other), "no run in common"),
                          ((old, old, "--slower", "1"), "more than 1"),
                          ((old, old, "--floor-ms", "-1"), "at least 0")]:
        done = _cli(*args)
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_the_changed_runs_show_the_nodes_of_both_searches():
    from sudokucp.reporting.compare import shown_runs

    old, new = _pair(0.010, 0.5)
    old = [dataclasses.replace(old[0], stats={"nodes": 120})]
    new = [dataclasses.replace(new[0], stats={"nodes": 120})]
    table = shown_runs(compare(old, new))
    assert table.iloc[0][["old", "new", "nodes_old", "nodes_new", "change"]].tolist() == [
        "10 ms", "500 ms", 120, 120, "slower"]  # the same search: the time is the machine's
    assert "nodes_old" not in shown_runs(compare(*_pair(0.010, 0.5))).columns


def _repeated(folder, factors, repeats=3, puzzles=8, seed=0):
    """A results folder written by hand: each backend of `factors` on `puzzles` puzzles,
    `repeats` times, its times a baseline times `factor`, each jittered by up to 3% (drawn
    with `seed`)."""
    draw = random.Random(seed)
    rows = []
    for backend, factor in factors.items():
        for i in range(puzzles):
            for k in range(repeats):
                jitter = draw.uniform(0.97, 1.03)
                rows.append(Row(key=f"{backend}|h{i}|1" + (f"#{k}" if k else ""),
                                backend=backend, dataset="set", puzzle=f"p{i}", hash=f"h{i}",
                                status=Status.SOLVED, seconds=(0.02 + 0.01 * i) * factor * jitter,
                                timeout=5.0, repeat=k))
    return _write(folder, rows)


def test_with_repeats_a_planted_slowdown_of_a_backend_exits_1(tmp_path, capsys):
    old = _repeated(tmp_path / "old", {"mrv": 1.0, "hybrid": 1.0})
    new = _repeated(tmp_path / "new", {"mrv": 1.5, "hybrid": 1.0}, seed=1)
    assert main(["compare", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "rule: repeats: each puzzle's median over its repeats" in out
    assert "lower end is above 1.1x" in out and "16 in both (per backend and puzzle" in out
    assert "REGRESSIONS: mrv slower: NEW/OLD 1.4" in out and "(95% CI 1.4" in out
    assert "hybrid slower" not in out
    assert main(["compare", str(old), str(old)]) == 0
    assert "no regression" in capsys.readouterr().out


def test_with_repeats_the_interval_decides_and_single_puzzles_are_not_judged_on_time(tmp_path):
    from sudokucp.reporting.compare import PAIRED, PER_RUN, SAME

    old = _rows(_repeated(tmp_path / "old", {"mrv": 1.0, "hybrid": 1.0}))
    new = _rows(_repeated(tmp_path / "new", {"mrv": 1.05, "hybrid": 1.0}, seed=1))
    result = compare(old, new)
    assert (result.rule, result.slower) == (PAIRED, 1.1) and not result.regressed
    table = result.backends.set_index("backend")
    assert table.loc["mrv", "verdict"] == "slower, under 1.1x"
    assert table.loc["hybrid", "verdict"] == SAME
    assert 1 < table.loc["mrv", "ratio_low"] < table.loc["mrv", "ratio_high"] < 1.1
    assert table.loc["mrv", "puzzles"] == 8 and "slower" not in table.columns
    assert compare(old, new, slower=1.01).slower_backends["backend"].tolist() == ["mrv"]
    assert result.changes.empty  # no puzzle flagged on its own time
    assert len(result.runs) == 16 and result.only_old == result.only_new == 0
    single = compare(*_pair(0.010, 0.5))
    assert (single.rule, single.slower) == (PER_RUN, 2.0)


def _unsat(rows, count):
    """The first `count` rows turned into complete searches that claim no solution."""
    return [dataclasses.replace(r, status=Status.UNSAT, solutions=(), verified=None,
                                complete=True, count=0) if k < count else r
            for k, r in enumerate(rows)]


def test_compare_finds_a_claim_that_the_other_folders_solutions_refute(old, tmp_path, capsys):
    claims = _write(tmp_path / "claims", _unsat(_rows(old), 6))
    assert main(["compare", str(old), str(claims)]) == 1
    out = capsys.readouterr().out
    assert "REGRESSIONS: 6 (6 wrong in NEW)" in out
    assert main(["compare", str(claims), str(old)]) == 1  # the same claims in OLD
    assert "REGRESSIONS: 6 (6 wrong in OLD)" in capsys.readouterr().out
    result = compare(_rows(old), _rows(claims))
    assert result.backends["new_solved"].sum() == 2 and result.regressed
    assert result.backends["wrong_in_new"].sum() == 6
