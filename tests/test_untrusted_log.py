"""The results log is untrusted input to `report` and `compare`: a field of the wrong type or out
of range is a note naming its line, never a traceback; a claimed solution is judged again."""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokucp.cli import main
from sudokucp.harness.bench import BenchConfig, bench
from sudokucp.harness.puzzlelog import PUZZLES
from sudokucp.harness.runlog import RESULTS, ResultLog
from sudokucp.reporting.results_folder import load_folder
from sudokucp.result import Row, RowError

FOUR = Path(__file__).resolve().parents[1] / "puzzles" / "examples" / "4x4.txt"  # 5 grids


@pytest.fixture(scope="module")
def real_out(tmp_path_factory) -> Path:
    """A real results folder: mrv and hybrid on the five 4x4 examples."""
    out = tmp_path_factory.mktemp("real") / "out"
    bench(BenchConfig(backends=["mrv", "hybrid"], puzzles=[str(FOUR)], out=out, timeout=5,
                      memory_mb=None))
    return out


@pytest.fixture(scope="module")
def real(real_out) -> list[str]:
    """The lines of the real folder's results.jsonl."""
    lines = (real_out / RESULTS).read_text().splitlines()
    assert len(lines) == 10
    return lines


@pytest.fixture(scope="module")
def stored(real_out) -> str:
    """The real folder's puzzles.jsonl, the grids and solutions its rows name."""
    return (real_out / PUZZLES).read_text()


def _folder(root: Path, lines: list[str], stored: str) -> Path:
    """A fresh results folder holding `lines` as its results.jsonl, `stored` as puzzles.jsonl."""
    folder = Path(root)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / RESULTS).write_text("".join(f"{line}\n" for line in lines))
    (folder / PUZZLES).write_text(stored)
    return folder


def _mutated(lines: list[str], number: int, name: str, value: object) -> list[str]:
    """The log with field `name` of line `number` (from 1) set to `value`."""
    data = json.loads(lines[number - 1]) | {name: value}
    return lines[:number - 1] + [json.dumps(data)] + lines[number:]


def _run(*argv: str) -> tuple[int, str, str]:
    """`sudoku-cp ARGV` in this process, plots left out: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with (contextlib.redirect_stdout(out), contextlib.redirect_stderr(err),
          mock.patch("sudokucp.reporting.report._plots", return_value=None)):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


TEXTS = ("key", "dataset", "puzzle", "hash", "backend", "grid", "box")
AMOUNTS = ("seconds", "wall")
COUNTS = ("repeat", "form", "count", "limit")
OPTIONAL = {"name": "text", "error": "text", "cpu": "amount", "rss_mb": "amount",
            "timeout": "amount", "cpu_limit": "amount", "memory_mb": "count",
            "verified": "flag"}
HUGE = st.integers(min_value=2**53 + 1, max_value=2**200)
NOT_FINITE = st.sampled_from([math.nan, math.inf, -math.inf])
SHAPES = st.one_of(st.lists(st.integers(), max_size=3),
                   st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
NOT_TEXT = st.one_of(st.integers(), st.floats(allow_nan=True), st.booleans(), SHAPES)
NOT_NUMBER = st.one_of(st.text(max_size=5), st.booleans(), SHAPES, NOT_FINITE, HUGE,
                       st.integers(max_value=-1), st.floats(max_value=-1e-9))
NOT_COUNT = st.one_of(NOT_NUMBER, st.floats(min_value=0, max_value=1e6))
NOT_FLAG = st.one_of(st.integers(), st.floats(), st.text(max_size=5), SHAPES)
WRONG = {  # field: values it must refuse
    **dict.fromkeys(TEXTS, st.one_of(st.none(), NOT_TEXT)),
    **dict.fromkeys(AMOUNTS, st.one_of(st.none(), NOT_NUMBER)),
    **dict.fromkeys(COUNTS, st.one_of(st.none(), NOT_COUNT)),
    "name": NOT_TEXT, "error": NOT_TEXT,
    "cpu": NOT_NUMBER, "rss_mb": NOT_NUMBER, "timeout": NOT_NUMBER, "cpu_limit": NOT_NUMBER,
    "memory_mb": NOT_COUNT,
    "complete": st.one_of(st.none(), NOT_FLAG), "verified": NOT_FLAG,
    "status": st.one_of(st.none(), NOT_TEXT, st.sampled_from(["SOLVED", "ok", ""])),
    "measure": st.one_of(st.none(), NOT_TEXT, st.just("cycles")),
    "limit_hit": st.one_of(NOT_TEXT, st.just("both")),
    "rss_scope": st.one_of(NOT_TEXT, st.just("process")),
    "rss_start_mb": NOT_NUMBER,
    "versions": st.one_of(st.none(), NOT_TEXT.filter(lambda v: not isinstance(v, dict)),
                          st.just({"backend": 3}), st.just({"python": ["3"]})),
    "options": st.one_of(st.none(), NOT_TEXT.filter(lambda v: not isinstance(v, dict)),
                         st.text(max_size=3)),
    "stats": st.one_of(st.none(), NOT_TEXT.filter(lambda v: not isinstance(v, dict)),
                       st.text(max_size=3), st.dictionaries(st.just("nodes"), st.one_of(
                           st.text(max_size=3), st.none(), NOT_FINITE, HUGE), min_size=1)),
    "solutions": st.one_of(st.text(max_size=5), st.integers(), st.dictionaries(
        st.text(max_size=2), st.text(max_size=2), min_size=1), st.lists(st.integers(),
                                                                        min_size=1)),
}
JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                              st.text(max_size=20)),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(st.text(max_size=5), inner,
                                                            max_size=3)), max_leaves=6)


def test_every_field_of_a_row_has_a_check():
    from dataclasses import fields

    from sudokucp.result import FIELD_CHECKS

    assert set(FIELD_CHECKS) == {f.name for f in fields(Row)} == set(WRONG)


@pytest.mark.parametrize("name, value, words", [
    ("seconds", "abc", "field 'seconds' is 'abc', not a number"),
    ("limit", "one", "field 'limit' is 'one', not a whole number"),
    ("stats", [1, 2], "field 'stats' is [1, 2], not an object"),
    ("versions", None, "field 'versions' is null, not an object"),
    ("timeout", math.inf, "field 'timeout' is Infinity, not a number"),
    ("cpu", "x", "field 'cpu' is 'x', not a number"),
    ("repeat", -1, "field 'repeat' is -1, not a whole number from 0"),
    ("solutions", "1234", "field 'solutions' is '1234', not a list of strings"),
])
def test_a_field_of_the_wrong_type_is_a_note_naming_its_line(real, stored, tmp_path, name,
                                                              value, words):
    folder = _folder(tmp_path / "runs", _mutated(real, 3, name, value), stored)
    loaded = load_folder(folder)
    assert len(loaded.rows) == len(real) - 1
    assert len(loaded.notes) == 1
    assert loaded.notes[0].startswith(f"{folder / RESULTS}: line 3: {words}")
    assert loaded.notes[0].endswith("; skipped")
    code, out, err = _run("report", str(folder), "--out", str(tmp_path / "tables"))
    assert code == 2 and f"line 3: {words}" in err and "read 9 runs" in out
    rows, notes = ResultLog(folder / RESULTS).load()  # as --resume reads it
    assert len(rows) == len(real) - 1 and notes == loaded.notes


def test_a_complete_bad_last_line_is_skipped_not_cut_off(real, stored, tmp_path):
    folder = _folder(tmp_path / "runs", _mutated(real, len(real), "seconds", "abc"), stored)
    before = (folder / RESULTS).read_bytes()
    rows, notes = ResultLog(folder / RESULTS).load()
    assert len(rows) == len(real) - 1 and notes[0].endswith("not a number from 0 to 9e+15; "
                                                            "skipped")
    assert (folder / RESULTS).read_bytes() == before  # only a torn (non-JSON) line is cut


def test_the_committed_shape_of_older_rows_still_loads():
    old = {"key": "mrv|h|1", "backend": "mrv", "status": "solved", "seconds": 0.1,
           "solutions": None}  # before cpu, wall, repeat, measure; a null list of solutions
    assert Row.from_dict(old | {"solutions": []}).measure == "wall"
    with pytest.raises(RowError, match="field 'solutions' is null"):
        Row.from_dict(old)
    with pytest.raises(RowError, match="field 'status' is missing"):
        Row.from_dict({"key": "k"})


def _one_wrong_field():
    return st.sampled_from(sorted(WRONG)).flatmap(
        lambda name: st.tuples(st.just(name), WRONG[name]))


@pytest.mark.slow  # each example writes a whole report: about 4 s on a quiet core
@settings(max_examples=8, deadline=None)
@given(line=st.integers(1, 10), field_value=_one_wrong_field())
def test_any_wrong_value_is_a_note_and_report_and_compare_go_on(real, stored, tmp_path_factory,
                                                                  line, field_value):
    name, value = field_value
    root = tmp_path_factory.mktemp("case")
    folder = _folder(root / "runs", _mutated(real, line, name, value), stored)
    code, out, err = _run("report", str(folder), "--out", str(root / "tables"))
    assert code == 2, err
    assert f"line {line}: field '{name}' is " in err and "Traceback" not in err
    assert f"read {len(real) - 1} runs" in out
    code, out, err = _run("compare", str(_folder(root / "same", real, stored)), str(folder))
    assert code in (0, 1) and f"line {line}: field '{name}' is " in err


@pytest.mark.slow  # each example writes a whole report
@settings(max_examples=8, deadline=None)
@given(line=st.integers(1, 10), name=st.sampled_from(sorted(WRONG)), value=JSON)
def test_any_json_value_in_any_field_never_escapes(real, stored, tmp_path_factory, line, name,
                                                   value):
    root = tmp_path_factory.mktemp("case")
    folder = _folder(root / "runs", _mutated(real, line, name, value), stored)
    code, _, err = _run("report", str(folder), "--out", str(root / "tables"))
    noted = f"line {line}: " in err
    assert (code == 0 and not noted) or code == 1 or (code == 2 and noted), err
    code, _, err = _run("compare", str(folder), str(_folder(root / "same", real, stored)))
    assert code in (0, 1, 2)


def test_report_judges_claimed_solutions_again(real, stored, tmp_path):
    """A row that claims 111...1 and says it was verified is WRONG, as bench would have found."""
    data = json.loads(real[0])
    lie = "1" * 16  # as many cells as a 4x4 grid
    lines = _mutated(real, 1, "solutions", [lie])
    folder = _folder(tmp_path / "runs", lines, stored)
    loaded = load_folder(folder)
    wrong = [row for row in loaded.rows if row.key == data["key"]]
    assert wrong[0].status.value == "wrong" and wrong[0].verified is False
    assert "invalid solution" in wrong[0].error
    code, out, err = _run("report", str(folder), "--out", str(tmp_path / "tables"))
    assert code == 1, err
    assert f"DISAGREEMENT {data['puzzle']}" in out and "invalid solution" in out
    clean = _run("report", str(_folder(tmp_path / "clean", real, stored)), "--out",
                 str(tmp_path / "t2"))
    assert clean[0] == 0, clean[2]


def test_report_refuses_a_claim_it_cannot_check(real, stored, tmp_path):
    folder = _folder(tmp_path / "runs", _mutated(real, 2, "grid", "not a grid"), stored)
    row = next(r for r in load_folder(folder).rows if r.grid == "not a grid")
    assert row.status.value == "wrong" and "its grid cannot be read" in row.error
    code, out, _ = _run("report", str(folder), "--out", str(tmp_path / "tables"))
    assert code == 1 and "its grid cannot be read" in out


def test_report_with_plots_on_a_log_with_bad_lines(real, stored, tmp_path):
    lines = _mutated(_mutated(real, 2, "stats", None), 5, "seconds", math.nan)
    folder = _folder(tmp_path / "runs", lines, stored)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["report", str(folder)]) == 2
    assert "line 2: field 'stats' is null" in err.getvalue()
    assert "line 5: field 'seconds' is NaN" in err.getvalue()
    assert (folder / "cactus.png").exists() and (folder / "report.html").exists()
    assert "line 5: field 'seconds' is NaN" in (folder / "summary.md").read_text()
