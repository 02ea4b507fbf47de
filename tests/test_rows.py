"""The row the harness writes: its columns, its JSON keys, and the committed comparison's log."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from sudokucp.backends import backend_class, from_spec
from sudokucp.harness.bench import BenchConfig
from sudokucp.harness.runlog import RESULTS, BenchError, ResultLog
from sudokucp.reporting.bench_report import bench_and_report
from sudokucp.reporting.report import RESULT_COLUMNS, results_frame
from sudokucp.result import ANSWERED, Row, Status

COMPARISON = Path(__file__).resolve().parents[1] / "reports" / "comparison"


def _committed(tmp_path: Path, per_dataset: int | None = None) -> Path:
    """A copy of the committed results log (loading cuts a torn last line off in place); with
    `per_dataset`, only the runs of each data set's first grids (every backend's run of each)."""
    out = tmp_path / "comparison"
    out.mkdir()
    if per_dataset is None:
        shutil.copy(COMPARISON / RESULTS, out / RESULTS)
        return out
    kept: dict[str, set[str]] = {}
    with (COMPARISON / RESULTS).open() as log, (out / RESULTS).open("w") as copy:
        for line in log:
            run = json.loads(line)
            grids = kept.setdefault(run["dataset"], set())
            if run["hash"] in grids or len(grids) < per_dataset:
                grids.add(run["hash"])
                copy.write(line)
    return out


def test_the_row_type_makes_the_result_columns_in_order():
    assert list(Row.columns()) == RESULT_COLUMNS
    assert RESULT_COLUMNS[:6] == ["dataset", "puzzle", "hash", "backend", "name", "status"]
    assert "version" in RESULT_COLUMNS and "versions" not in RESULT_COLUMNS


def test_answered_means_solved_or_unsat():
    assert set(ANSWERED) == {Status.SOLVED, Status.UNSAT}


def test_the_committed_log_loads_with_its_keys_unchanged(tmp_path):
    path = _committed(tmp_path) / RESULTS
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    rows, notes = ResultLog(path).load()
    assert notes == [] and len(rows) == len(lines) > 0
    assert [{k: found[k] for k in line}
            for found, line in zip((row.to_dict() for row in rows), lines)] == lines
    assert {row.measure for row in rows} == {"wall"} and {row.repeat for row in rows} == {0}
    frame = results_frame(rows)
    assert list(frame.columns[:len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    assert set(frame["status"]) <= {status.value for status in Status}


def test_resume_over_the_committed_log_runs_nothing_again(tmp_path):
    out = _committed(tmp_path, per_dataset=5)  # the whole log: the test above
    rows, _ = ResultLog(out / RESULTS).load()
    assert len({row.dataset for row in rows}) == 3 and len(rows) >= 3 * 5 * 10
    backends = sorted({row.backend for row in rows})
    missing = [name for name in backends if not backend_class(name).available()]
    if missing:
        pytest.skip(f"the committed comparison ran {', '.join(missing)}, not installed here")
    puzzles = []
    for dataset, grids in _grids_by_dataset(rows).items():  # the puzzles the runs read
        puzzles.append(tmp_path / f"{dataset}.txt")
        puzzles[-1].write_text("".join(f"{grid}\n" for grid in grids))
    config = BenchConfig(backends=backends, puzzles=puzzles, out=out, timeout=10, jobs=2,
                         resume=True, seed=1,
                         max_puzzles=1000)  # the settings of the command in reports/README.md
    logged = {row.backend: row.versions.get("backend") for row in rows}
    changed = {b for b, v in logged.items() if from_spec(b).version() != v}
    if changed:  # an upgrade dates the example: refused, then resumed without those backends
        with pytest.raises(BenchError, match="version"):
            bench_and_report(config)
        rows = [row for row in rows if row.backend not in changed]
        (out / RESULTS).write_text("".join(f"{line}\n" for line in (out / RESULTS).read_text()
                                           .splitlines() if json.loads(line)["backend"]
                                           not in changed))
        config = replace(config, backends=[b for b in backends if b not in changed])
    assert len(rows) >= 3 * 5 * 5
    outcome = bench_and_report(config)
    assert (outcome.ran, outcome.skipped) == (0, len(rows))
    assert len(outcome.rows) == len(rows)
    assert [note.split(': ', 1)[1] for note in outcome.notes] == [
        f"{len(rows)} runs logged before CPU time was measured keep their wall time in the "
        "tables"]  # the committed log predates CPU time
    assert (out / "summary.csv").read_text().startswith("backend,dataset,puzzles,runs,solved")
    assert "- timeout: 10 s per run" in (out / "summary.md").read_text()


def _grids_by_dataset(rows: list[Row]) -> dict[str, list[str]]:
    """Each data set's grids, once each, in the order of the log."""
    grids: dict[str, dict[str, None]] = {}
    for row in rows:
        grids.setdefault(row.dataset, {})[row.grid] = None
    return {dataset: list(found) for dataset, found in grids.items()}
