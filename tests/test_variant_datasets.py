"""The published killer sets of the catalogue: their pins against the upstream files shipped in
tests/data/upstream, the cage-list converter, downloads from a local HTTP server serving those
files, and the converted puzzles: the rules the JSON reader gives the same files, one solution
each."""

from __future__ import annotations

import hashlib

import pytest
from test_datasets import UPSTREAM, server  # noqa: F401 - the fixture mirror() builds on
from test_variants import KILLERS, WIKIPEDIA_SOLUTION, killer_file

from sudokucp import datasets
from sudokucp.backends import available_backends, get_backend
from sudokucp.check import is_solution
from sudokucp.cli import main
from sudokucp.datasets.catalog import BY_NAME
from sudokucp.datasets.convert import ConvertError, convert, to_text
from sudokucp.io.formats import read_puzzles

SOLVER = "sat" if "sat" in available_backends() else "cpsat"  # fast on killers without givens
TWO_CAGES = '[{"result": 3, "indices": [[1, 1], [1, 2]]}, {"result": 7, "indices": [[4, 4]]}]'


@pytest.fixture
def mirror(server):  # noqa: F811 - the fixture imported above
    """test_datasets's local server (127.0.0.1; the cache in tmp_path) serving the upstream
    files as the catalogue's mirror."""
    server.root = UPSTREAM
    return server


def test_the_catalogue_pins_the_shipped_killer_files():
    assert sorted(d.name for d in BY_NAME.values() if d.converter == "killer") == sorted(KILLERS)
    for name in KILLERS:
        data = BY_NAME[name]
        body = (UPSTREAM / data.raw).read_bytes()
        assert (hashlib.sha256(body).hexdigest(), len(body)) == (data.sha256, data.size)
        assert data.raw == f"{name}.json" and data.puzzles == 1 and data.shape == "9x9"
        assert data.url.endswith(data.path) and data.commit in data.url


@pytest.mark.parametrize("name", KILLERS)
def test_fetch_installs_a_killer_the_json_reader_reads_alike(mirror, name):
    path = datasets.fetch(name)
    entries = read_puzzles(path)
    assert len(entries) == 1 and entries[0].error is None, entries[0].error
    puzzle = entries[0].puzzle
    assert puzzle.name == f"{name}#1" and puzzle.kind == "killer"
    reference = read_puzzles(killer_file(name))[0].puzzle
    assert puzzle.rules == reference.rules and puzzle.cells == reference.cells
    assert puzzle.shape == reference.shape
    result = get_backend(SOLVER).solve(puzzle, limit=2)
    assert result.count == 1 and result.complete
    assert is_solution(puzzle, result.solution)


def test_a_killer_name_works_in_fetch_and_solve(mirror, capsys):
    assert main(["datasets", "fetch", "killer_en_wikipedia"]) == 0
    captured = capsys.readouterr()
    assert "fetching killer_en_wikipedia from" in captured.err
    assert captured.out.strip().endswith("killer_en_wikipedia.txt")
    assert main(["solve", "killer_en_wikipedia", "-b", SOLVER, "--format", "line"]) == 0
    assert capsys.readouterr().out.split() == [WIKIPEDIA_SOLUTION]


def test_the_listing_names_the_killer_sets(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path))
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    for name in KILLERS:
        assert name in out
    assert "Wikunia/ConstraintSolver.jl" in out


def test_the_converter_writes_a_named_variant_block(tmp_path):
    items = convert(TWO_CAGES, "killer")
    assert [(i.index, i.side, i.comment) for i in items] == [(1, 4, "2 cages")]
    path = tmp_path / "two.txt"
    path.write_text(to_text(items, ["two: a header"]) + to_text(items, ["other"], "three"))
    entries = read_puzzles(path)
    assert [e.error for e in entries] == [None, None]
    assert [e.puzzle.name for e in entries] == ["two#1", "three#1"]
    cages = entries[0].puzzle.rules.cages
    assert [(c.cells, c.total) for c in cages] == [((0, 1), 3), ((15,), 7)]


@pytest.mark.parametrize(("text", "reason"), [
    ("{not json", "not JSON"),
    ('{"result": 3}', "not a killer's cage list"),
    ("[]", "not a killer's cage list"),
    ('[{"result": 3, "indices": [[1, "x"]]}]', r"indices\[0\]\[1\]: 'x' is not a whole number"),
    ('[{"result": 3, "indices": [[1, 1]]}, {"result": 9, "indices": [[1, 1], [4, 4]]}]',
     "overlaps another cage")])
def test_a_bad_cage_list_says_why(text, reason):
    with pytest.raises(ConvertError, match=reason):
        convert(text, "killer")
