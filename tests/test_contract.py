"""The written backend contract, held by every backend of the registry and by the template (loaded
by its import path): the deadline, `keep`, clashing givens, every shape against the judge, the
stats each promises (the checks of sudokucp/backends/contract.py, which `sudoku-cp backends
--check` runs too), and the lifecycle (load, prepare, clock, search). No backend is named here:
the lists come from `BACKENDS` and from each class's `choices`; a backend not installed is skipped
with its reason. No assertion reads a stopwatch: a search is told its deadline has already passed
(`late`), and the only timer is a backstop that ends a search that never looks at its clock.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
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
    unavailable_reason,
)
from sudokucp.backends.base import TIMED_OUT, Backend
from sudokucp.backends.contract import (
    CLASH_SHAPES,
    SHAPES,
    UNENDING,
    ContractError,
    Overran,
    check_build_s,
    check_clashes,
    check_deadline,
    check_keep,
    check_shape,
    holed,
    stopped_late,
)
from sudokucp.backends.template import Template
from sudokucp.io.formats import read_puzzles
from sudokucp.puzzle import Shape
from sudokucp.result import Status

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "puzzles" / "seeds"
TEMPLATE = "sudokucp.backends.template:Template"
SPECS = [*BACKENDS, TEMPLATE]


def variants(spec: str) -> list[str]:
    """The spec with its defaults, then with each other value of each option that has choices."""
    cls = backend_class(spec)
    return [spec] + [f"{spec}:{key}={value}" for key, values in cls.choices.items()
                     for value in values if value != cls.defaults[key]]


def instance(spec: str) -> Backend:
    """The backend of a spec, or a skip naming why it cannot run here."""
    name, options = parse_spec(spec)
    cls = backend_class(name)
    if not cls.available():
        pytest.skip(f"{spec}: {unavailable_reason(cls)}")
    return cls(**options)


@pytest.fixture(params=SPECS)
def backend(request) -> Backend:
    """Every backend of the registry, and the template by its import path."""
    return instance(request.param)


# --- the deadline ---------------------------------------------------------------------------------

# A search that cannot look at its clock mid-search (pyconstraint) is left out: only the outside
# kill stops it (tests/test_executors.py).
@pytest.mark.parametrize("spec", [v for spec in SPECS for v in variants(spec)
                                  if backend_class(spec).interruptible])
def test_a_search_past_its_deadline_stops_and_says_so(spec):
    check_deadline(instance(spec))


class ClockBlind(Template):
    """A trial backend whose search never looks at its clock."""

    def _search(self, puzzle, limit, deadline):
        return super()._search(puzzle, limit, None)


class Mute(Template):
    """A trial backend that stops at its deadline without saying why."""

    def _search(self, puzzle, limit, deadline):
        solutions, complete, stats = super()._search(puzzle, limit, deadline)
        stats.pop(TIMED_OUT, None)
        return solutions, complete, stats


def test_the_deadline_check_catches_a_search_that_never_looks():
    with pytest.raises(Overran):
        stopped_late(ClockBlind(), grace=0.5)
    with pytest.raises(ContractError, match="never looks at its clock"):
        check_deadline(ClockBlind(), grace=0.5)
    result = stopped_late(Mute())
    assert result.status is Status.UNKNOWN and TIMED_OUT not in result.stats
    with pytest.raises(ContractError, match="not TIMEOUT"):
        check_deadline(Mute())


def test_a_real_clock_ends_a_search_that_cannot_finish():
    result = Template().solve(UNENDING, limit=0, keep=0, time_limit=0.05)
    assert (result.status, result.complete, result.stats[TIMED_OUT]) == (Status.TIMEOUT, False, 1)
    assert result.seconds >= 0.05 and result.count > 0  # TIMED_OUT means the deadline passed


# --- what every backend holds ---------------------------------------------------------------------

@pytest.mark.parametrize("spec", [spec for spec in SPECS if backend_class(spec).complete])
def test_keep_holds_the_first_solutions_and_counts_them_all(spec):
    """Every backend that proves counts (logic does not)."""
    check_keep(instance(spec))


@pytest.mark.parametrize("shape", CLASH_SHAPES, ids=str)
def test_clashing_givens_are_unsat_or_refused(backend, shape):
    check_clashes(backend, shape)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_shape_is_solved_and_the_judge_agrees(backend, shape):
    check_shape(backend, shape)


def test_build_s_comes_with_the_first_solve_of_a_shape(backend):
    check_build_s(backend)


# --- the lifecycle, on the base class -------------------------------------------------------------

class Recorder(Template):
    """The template, writing down when _prepare ran and which deadline _search was given."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.log: list[tuple] = []

    def _prepare(self, shape):
        super()._prepare(shape)
        self.log.append(("prepare", shape, time.perf_counter()))

    def _search(self, puzzle, limit, deadline):
        self.log.append(("search", puzzle.shape, deadline))
        return super()._search(puzzle, limit, deadline)


def test_prepare_runs_once_per_shape_and_instance_before_the_clock():
    backend, four, six = Recorder(), holed(Shape(2, 2)), holed(Shape(2, 3))
    first, again, other = (backend.solve(p, time_limit=60) for p in (four, four, six))
    assert [(kind, shape) for kind, shape, _ in backend.log] == [
        ("prepare", four.shape), ("search", four.shape), ("search", four.shape),
        ("prepare", six.shape), ("search", six.shape)]
    built_at, deadline = backend.log[0][2], backend.log[1][2]
    assert deadline - 60 >= built_at  # the clock started once the build was done
    assert "build_s" in first.stats and "build_s" not in again.stats and "build_s" in other.stats
    assert "build_s" in Recorder().solve(four).stats  # each instance builds its own


def test_a_failing_build_is_an_error_result_and_is_tried_again():
    class Failing(Template):
        tries = 0

        def _prepare(self, shape):
            self.tries += 1
            raise RuntimeError("no model for this shape")

    backend = Failing()
    for _ in range(2):
        result = backend.solve(holed(Shape(2, 2)))
        assert result.status is Status.ERROR and "no model for this shape" in result.error
    assert backend.tries == 2


def test_the_optional_hooks_are_declared_on_the_base_class():
    declared = Backend.__annotations__
    hooks = ("tracer", "solve_many", "solve_array", "solve_lines")
    assert set(hooks) <= set(declared)
    backend = Template()
    assert not any(hasattr(backend, hook) for hook in hooks)
    assert Template.unavailable_reason() is None


def test_imports_are_loaded_before_the_clock(monkeypatch):
    pytest.importorskip("ortools", reason="OR-tools is not installed")
    backend = get_backend("cpsat")
    monkeypatch.setattr(Backend, "_loaded", set())  # as in a fresh process
    puzzle = read_puzzles(SEEDS / "004-telegram.txt")[0].puzzle
    first = backend.solve(puzzle)
    second = backend.solve(puzzle)
    assert first.stats["load_s"] >= 0 and "load_s" not in second.stats
    assert first.status is second.status is Status.SOLVED


# --- the registry and the template ---------------------------------------------------------------

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


def test_the_template_counts_alike_in_both_orders():
    puzzle = read_puzzles(SEEDS / "004-multiple.txt")[0].puzzle
    results = [from_spec(f"{TEMPLATE}:reverse={r}").solve(puzzle, limit=0) for r in (False, True)]
    assert [(r.status, r.count) for r in results] == [(Status.SOLVED, 28)] * 2
    assert set(results[0].solutions) == set(results[1].solutions)


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


def test_cpsat_refuses_zero_workers():
    pytest.importorskip("ortools", reason="OR-tools is not installed")
    with pytest.raises(OptionError, match="from 1 to 10,000 .*, not 0"):
        from_spec("cpsat:workers=0")


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
    assert "pip install" in unavailable_reason(Missing)
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
