"""The results log read in bulk: the quick path makes the rows Row.from_dict makes, and never
takes a line Row.from_dict would refuse."""

from __future__ import annotations

import json

import pytest

from sudokucp.reporting.log_rows import TYPES, quick_rows, read_lines
from sudokucp.result import FIELD_CHECKS, LARGEST, Row, RowError, Status

ROW = Row(key="mrv|h1|1", dataset="set", puzzle="p1", hash="h1", backend="mrv", name="mrv",
          status=Status.SOLVED, verified=True, seconds=0.002, cpu=0.002, wall=0.003, rss_mb=40.5,
          count=1, complete=True, timeout=10.0, versions={"backend": "1.0", "python": "3.11"},
          grid="1234341221434321", box="2x2", options={"order": "static"},
          solutions=("1234341221434321",), stats={"nodes": 3, "logic_s": 0.001},
          memory_mb=4096, measure="cpu")


def _plain(**changes: object) -> dict:
    data = json.loads(json.dumps(ROW.to_dict()))
    data.update(changes)
    return data


def test_every_field_of_a_row_has_a_quick_type():
    assert set(TYPES) == set(FIELD_CHECKS)


@pytest.mark.parametrize("data", [
    _plain(),
    {"key": "k", "status": "timeout"},  # every other field left to its default
    _plain(unknown="ignored", error="boom", limit_hit="wall", cpu=None, stats={}),
    _plain(seconds=0, stats={"delta": -5.5}, versions={"backend": None}, solutions=[]),
])
def test_the_quick_path_makes_the_row_from_dict_makes(data):
    (row,) = quick_rows([data])
    assert row is not None and row == Row.from_dict(data)
    assert row.options is not data.get("options")  # a copy, as from_dict keeps


@pytest.mark.parametrize("changes", [
    {"seconds": -1}, {"seconds": float("nan")}, {"wall": float("inf")}, {"seconds": "1"},
    {"repeat": 1.0}, {"count": True}, {"limit": LARGEST + 1}, {"cpu": LARGEST * 2.0},
    {"status": "fine"}, {"measure": "both"}, {"limit_hit": "memory"}, {"verified": 1},
    {"stats": {"nodes": True}}, {"stats": {"x": float("nan")}}, {"stats": {"x": -LARGEST - 1}},
    {"versions": {"backend": 3}}, {"solutions": ["ab", 5]}, {"solutions": "ab"},
    {"options": []}, {"grid": None}, {"memory_mb": -4},
    {"stats": {"x": 0.5, "y": 10**400}}, {"stats": {"x": float("inf"), "y": float("-inf")}},
    {"count": 10**400}, {"rss_mb": float("-inf")},
])
def test_a_value_from_dict_refuses_never_takes_the_quick_path(changes):
    bad = _plain(**changes)
    with pytest.raises(RowError):
        Row.from_dict(bad)
    quick = quick_rows([bad, _plain()])
    assert quick[0] is None  # checked by Row.from_dict, which names the field
    assert quick[1] in (None, Row.from_dict(_plain()))  # a column that fails: every line


def test_a_bad_line_is_named_and_the_others_read(tmp_path):
    lines = [json.dumps(_plain()).encode(), b'{"key": "torn', json.dumps(
        _plain(seconds="abc")).encode(), b"", json.dumps(_plain(key="two")).encode()]
    rows, notes = read_lines(tmp_path / "results.jsonl", lines)
    assert [row.key for row in rows] == ["mrv|h1|1", "two"]
    assert [note.split(": ", 1)[1] for note in notes] == [
        "line 2 is not a result record; skipped",
        "line 3: field 'seconds' is 'abc', not a number from 0 to 9e+15; skipped"]


@pytest.mark.parametrize("enabled", [True, False])
def test_reading_a_folder_leaves_the_collector_as_it_found_it(tmp_path, enabled):
    import gc

    from test_html_report import write_log

    from sudokucp.reporting.results_folder import load_folder

    folder = write_log(tmp_path / "runs")
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert len(load_folder(folder).rows) == 18
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("line", [
    json.dumps(_plain()).encode(), b'{"a": 1}  \t\r', b'{"a": 1} x', b'{"a": 1}{"b": 2}',
    b' {"a": 1}', b'[1, 2]', b'{', b'{}', b'{"a": NaN, "b": -Infinity}', b'{"a": "\xff"}',
    b'{"a": "\\ud800"}', b'{"a": "tab\there"}', '{"é": "ü"}'.encode(), b'{"a": 1}\x00',
    '{"a": 1}'.encode("utf-16-le"), b'{"a": ' + b'[' * 100_000 + b']' * 100_000 + b'}',
    b'{"a": 1, "a": 2}', b'{"big": 1' + b'0' * 400 + b'}',
])
def test_a_line_is_decoded_as_json_loads_decodes_it(line):
    from sudokucp.reporting.log_rows import decoded

    try:
        expected: object = json.loads(line)
    except (ValueError, RecursionError) as err:
        expected = type(err)
    try:
        found: object = decoded(line)
    except (ValueError, RecursionError) as err:
        found = type(err)
    assert found == expected or (found != found and expected != expected)
    assert type(found) is type(expected)


@pytest.mark.parametrize("text", [
    b"", b"x", b"\n", b"\r", b"\r\n", b"a\r\nb\rc\n\nd", b"a\n\r\nb\r\r\n", b'{"a": 1}\n' * 5,
    b"one\ntwo\r\nthree\rfour\n\n",
])
def test_the_log_read_by_blocks_has_the_lines_of_its_whole_text(text):
    import io

    from sudokucp.reporting.results_folder import log_lines

    for block in (1, 2, 3, 5, 64):
        assert list(log_lines(io.BytesIO(text), block)) == text.splitlines()
