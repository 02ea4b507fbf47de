"""The written backend contract: the template backend, module:Class specs, available(), the
class attributes that replace checks by name, and the time-out flag."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sudokucp.backends import (
    BACKENDS,
    OptionError,
    UnknownBackend,
    backend_class,
    from_spec,
    get_backend,
    parse_spec,
)
from sudokucp.backends.base import TIMED_OUT, Backend
from sudokucp.check import is_solution
from sudokucp.io.formats import read_puzzles
from sudokucp.result import Status

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "puzzles" / "seeds"
TEMPLATE = "sudokucp.backends.template:Template"


def test_a_backend_loads_by_its_import_path():
    assert parse_spec(f"{TEMPLATE}:reverse=true") == (TEMPLATE, {"reverse": "true"})
    backend = from_spec(f"{TEMPLATE}:reverse=true")
    assert backend.options == {"reverse": True}
    assert backend.label == f"{TEMPLATE}:reverse=True"
    assert from_spec(backend.label).options == backend.options  # a worker rebuilds it by label


def test_a_registered_backend_keeps_its_short_label_by_path():
    assert from_spec("sudokucp.backends.mrv:MRV:order=static").label == "mrv:order=static"


@pytest.mark.parametrize("spec, words", [
    ("no_such_module_xyz:Thing", "no module named 'no_such_module_xyz'"),
    ("sudokucp.backends.template:Missing", "has no 'Missing'"),
    ("sudokucp.puzzle:Shape", "not a Backend subclass"),
])
def test_a_bad_import_path_is_a_clear_error(spec, words):
    with pytest.raises(UnknownBackend, match=words):
        from_spec(spec)


def test_the_template_counts_and_passes_the_judge():
    puzzle = read_puzzles(SEEDS / "004-multiple.txt")[0].puzzle
    for reverse in (False, True):
        result = from_spec(f"{TEMPLATE}:reverse={reverse}").solve(puzzle, limit=0)
        assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)
        assert all(is_solution(puzzle, s) for s in result.solutions)
    naive = get_backend("naive").solve(puzzle, limit=0)
    assert set(naive.solutions) == set(result.solutions)


@pytest.mark.parametrize("spec", ["naive", "naive-iterative", "mrv:order=static", TEMPLATE])
def test_a_search_stopped_by_its_deadline_says_so(spec):
    puzzle = read_puzzles(SEEDS / "001-anti-backtracking.txt")[0].puzzle
    result = from_spec(spec).solve(puzzle, limit=1, time_limit=0.02)  # far below any solve
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.stats[TIMED_OUT] == 1
    assert result.seconds < 2


def test_complete_and_cores_are_attributes_not_names():
    assert get_backend("naive").complete and get_backend("naive").cores == 1
    assert not backend_class("logic").complete
    pytest.importorskip("constraint", reason="python-constraint2 is not installed")
    assert get_backend("pyconstraint").complete
    assert not get_backend("pyconstraint", solver="minconflicts").complete


def test_cpsat_takes_as_many_cores_as_workers():
    pytest.importorskip("ortools", reason="OR-tools is not installed")
    assert get_backend("cpsat").cores == 1
    assert get_backend("cpsat", workers=2).cores == 2


def _module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str) -> None:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))


def test_available_is_false_only_when_the_module_is_missing(tmp_path, monkeypatch):
    _module(tmp_path, monkeypatch, "broken_solver_pkg", "import missing_dependency_of_it\n")

    class Missing(Backend):
        name, description, module = "missing", "a package not installed", "absent_pkg_xyz"

        def _search(self, puzzle, limit, deadline):
            raise AssertionError("never called")

    class Broken(Missing):
        name, module = "broken", "broken_solver_pkg"

    assert Missing.available() is False
    with pytest.raises(ModuleNotFoundError, match="missing_dependency_of_it"):
        Broken.available()  # an installed package that fails to import shows its own error


def test_solve_runs_a_backend_from_outside_the_package(tmp_path):
    (tmp_path / "outside_backend.py").write_text(textwrap.dedent('''
        from sudokucp.backends.template import Template

        class Outside(Template):
            name = "outside"
    '''))
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "sudokucp", "solve", "--backend",
                          "outside_backend:Outside", "--count", str(SEEDS / "004-multiple.txt")],
                         capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("SOLVED  28 solutions  ")
    assert "outside" not in BACKENDS


def test_cpsat_refuses_zero_workers():
    pytest.importorskip("ortools", reason="OR-tools is not installed")
    with pytest.raises(OptionError, match="from 1 to 10,000 .*, not 0"):
        from_spec("cpsat:workers=0")


def test_imports_are_loaded_before_the_clock(monkeypatch):
    pytest.importorskip("ortools", reason="OR-tools is not installed")
    backend = get_backend("cpsat")
    monkeypatch.setattr(Backend, "_loaded", set())  # as in a fresh process
    puzzle = read_puzzles(SEEDS / "004-telegram.txt")[0].puzzle
    first = backend.solve(puzzle)
    second = backend.solve(puzzle)
    assert first.stats["load_s"] >= 0 and "load_s" not in second.stats
    assert first.status is second.status is Status.SOLVED


def test_the_time_limit_runs_from_the_end_of_the_build(monkeypatch):
    pytest.importorskip("ortools", reason="OR-tools is not installed")
    from sudokucp.backends import cpsat

    def slow_build(model, puzzle):
        import time

        time.sleep(0.3)
        return cpsat.build_integer(model, puzzle)

    monkeypatch.setitem(cpsat.BUILDERS, "integer", slow_build)
    puzzle = read_puzzles(SEEDS / "004-telegram.txt")[0].puzzle
    result = get_backend("cpsat").solve(puzzle, time_limit=0.25)
    assert result.status is Status.SOLVED and result.stats["build_s"] >= 0.3


@pytest.mark.parametrize("spec", ["naive", "naive-iterative", "mrv", "mrv:order=static", "hybrid",
                                  TEMPLATE, "cpsat", "sat",
                                  "pyconstraint"])
def test_counting_keeps_only_what_it_is_asked_to(spec):
    backend = from_spec(spec)
    if not backend.available():
        pytest.skip(f"{spec} is not installed here")
    puzzle = read_puzzles(SEEDS / "004-multiple.txt")[0].puzzle
    result = backend.solve(puzzle, limit=0, keep=3)
    assert (result.count, len(result.solutions), result.complete) == (28, 3, True)
    assert all(is_solution(puzzle, s) for s in result.solutions)
    assert backend.solve(puzzle, limit=0, keep=0).solutions == ()
    assert backend.solve(puzzle, limit=0).count == len(backend.solve(puzzle, limit=0).solutions)
