"""The written backend contract, held by every backend of the registry and by the template (loaded
by its import path): the deadline, `keep`, clashing givens, every shape against the judge, the
stats each promises, and the lifecycle (load, prepare, clock, search). No backend is named here:
the lists come from `BACKENDS` and from each class's `choices`; a backend not installed is skipped
with its reason. No assertion reads a stopwatch: a search is told its deadline has already passed
(`late`), and the only timer is a backstop that ends a search that never looks at its clock.
"""

from __future__ import annotations

import numbers
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
from sudokucp.backends.template import Template
from sudokucp.check import is_solution
from sudokucp.io.formats import read_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Result, Status

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "puzzles" / "seeds"
TEMPLATE = "sudokucp.backends.template:Template"
SPECS = [*BACKENDS, TEMPLATE]
SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4)]
GRACE = 10.0  # backstop: a search told its deadline has passed answers within milliseconds
UNENDING = Puzzle.empty(Shape(4, 4))  # counting every 16x16 grid: no backend ever finishes


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


def holed(shape: Shape, share: float = 0.4, seed: int = 1) -> Puzzle:
    """A solved grid of the shape with a share of its cells blanked (unique for these seeds)."""
    r, c, n = shape.box_rows, shape.box_cols, shape.side
    full = [((i % r) * c + i // r + j) % n + 1 for i in range(n) for j in range(n)]
    rng = random.Random(seed)
    return Puzzle(shape, tuple(0 if rng.random() < share else v for v in full), name=str(shape))


def clashes(shape: Shape) -> Iterator[Puzzle]:
    """Grids whose givens repeat a digit in a row, in a column, then in a box."""
    n = shape.side
    for other in (1, n, n + 1):
        cells = [0] * shape.cells
        cells[0] = cells[other] = 1
        yield Puzzle(shape, tuple(cells), name=f"clash-{other}")


def honest(backend: Backend, puzzle: Puzzle, result: Result) -> Result:
    """The checks every result passes: no error, judged solutions, numeric stats holding the
    keys the backend promises."""
    assert result.error is None, f"{backend.label} on {puzzle.name}: {result.error}"
    bad = [s for s in result.solutions if not is_solution(puzzle, s)]
    assert not bad, f"{backend.label} on {puzzle.name}: the judge refuses {bad[0]}"
    missing = set(backend.stats_keys) - set(result.stats)
    assert not missing, f"{backend.label} promised stats {sorted(missing)}"
    odd = {k: v for k, v in result.stats.items() if not isinstance(v, numbers.Real)}
    assert not odd, f"{backend.label}: stats are numbers only, not {odd}"
    return result


# --- the deadline ---------------------------------------------------------------------------------

class Overran(BaseException):
    """The backstop went off: a search still running GRACE seconds after its deadline (not an
    Exception, so that solve() cannot turn it into an ERROR result)."""


@contextmanager
def backstop(seconds: float) -> Iterator[None]:
    """Raise Overran in the search if it runs past `seconds` (the main thread's alarm)."""
    def ring(signum, frame):
        raise Overran(f"still searching {seconds} s after its deadline")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def late(backend: Backend) -> None:
    """Hand the backend's search a deadline one second gone: its first look at the clock finds
    it passed, however fast or loaded the machine."""
    search = backend._search

    def past_due(puzzle: Puzzle, limit: int, deadline: float | None):
        return search(puzzle, limit, None if deadline is None else time.perf_counter() - 1.0)

    backend._search = past_due  # type: ignore[method-assign]


def stopped_late(backend: Backend, grace: float = GRACE) -> Result:
    """Count every 16x16 grid with a deadline already passed: the result, or Overran."""
    backend.load()
    backend.prepare(UNENDING.shape)  # before the backstop: a compile is no search
    late(backend)
    with backstop(grace):
        return backend.solve(UNENDING, limit=0, keep=2, time_limit=3600)


# A search that cannot look at its clock mid-search (pyconstraint) is left out: only the outside
# kill stops it (tests/test_executors.py).
@pytest.mark.parametrize("spec", [v for spec in SPECS for v in variants(spec)
                                  if backend_class(spec).interruptible])
def test_a_search_past_its_deadline_stops_and_says_so(spec):
    backend = instance(spec)
    try:
        result = honest(backend, UNENDING, stopped_late(backend))
    except Overran as err:
        pytest.fail(f"{spec} {err}: it never looks at its clock")
    assert not result.complete
    if backend.complete or result.status is not Status.UNKNOWN:  # logic may be stuck first
        assert result.status is Status.TIMEOUT and result.stats[TIMED_OUT] == 1, result


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
    result = stopped_late(Mute())
    assert result.status is Status.UNKNOWN and TIMED_OUT not in result.stats  # refused above


def test_a_real_clock_ends_a_search_that_cannot_finish():
    result = Template().solve(UNENDING, limit=0, keep=0, time_limit=0.05)
    assert (result.status, result.complete, result.stats[TIMED_OUT]) == (Status.TIMEOUT, False, 1)
    assert result.seconds >= 0.05 and result.count > 0  # TIMED_OUT means the deadline passed


# --- what every backend holds ---------------------------------------------------------------------

def eight_solutions() -> Puzzle:
    """The 28-solution seed with a 5 given in r1c4: 8 of its solutions remain (each counted
    solution costs the SAT programs a process)."""
    seed = read_puzzles(SEEDS / "004-multiple.txt")[0].puzzle
    cells = list(seed.cells)
    assert cells[3] == 0
    cells[3] = 5
    return Puzzle(seed.shape, tuple(cells), seed.name)


@pytest.mark.parametrize("spec", [spec for spec in SPECS if backend_class(spec).complete])
def test_keep_holds_the_first_solutions_and_counts_them_all(spec):
    """Every backend that proves counts (logic does not)."""
    backend = instance(spec)
    puzzle = eight_solutions()
    every = honest(backend, puzzle, backend.solve(puzzle, limit=0))
    assert (every.count, len(set(every.solutions)), every.complete) == (8, 8, True)
    kept = honest(backend, puzzle, backend.solve(puzzle, limit=0, keep=3))
    assert (kept.count, len(kept.solutions), kept.complete) == (8, 3, True)
    none = honest(backend, puzzle, backend.solve(puzzle, limit=0, keep=0))
    assert (none.count, none.solutions) == (8, ())
    some = honest(backend, puzzle, backend.solve(puzzle, limit=5, keep=2))
    assert (some.status, some.count, len(some.solutions), some.complete) == (
        Status.SOLVED, 5, 2, False)


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(3, 3)], ids=str)
def test_clashing_givens_are_unsat_or_refused(backend, shape):
    for puzzle in clashes(shape):
        result = backend.solve(puzzle, limit=2, time_limit=60)
        if result.status is Status.ERROR:  # a refusal that says why
            assert result.error and not result.solutions, puzzle.name
            continue
        honest(backend, puzzle, result)
        assert (result.status, result.complete, result.count) == (Status.UNSAT, True, 0), \
            (puzzle.name, result)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_shape_is_solved_and_the_judge_agrees(backend, shape):
    puzzle = holed(shape)
    result = honest(backend, puzzle, backend.solve(puzzle, limit=2, time_limit=60))
    if not backend.complete and result.status is Status.UNKNOWN:
        return  # it may stop without an answer; what it answers is judged above
    assert (result.status, result.count) == (Status.SOLVED, 1), result
    assert result.complete or not backend.complete


def test_build_s_comes_with_the_first_solve_of_a_shape(backend):
    builds = type(backend)._prepare is not Backend._prepare
    four, nine = holed(Shape(2, 2)), holed(Shape(3, 3))
    first, again, other = (backend.solve(p, time_limit=60) for p in (four, four, nine))
    for puzzle, result in ((four, first), (four, again), (nine, other)):
        honest(backend, puzzle, result)
    assert ("build_s" in first.stats, "build_s" in again.stats, "build_s" in other.stats) == (
        builds, False, builds)


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
    assert {"tracer", "solve_many", "solve_array"} <= set(declared)
    backend = Template()
    assert not any(hasattr(backend, hook) for hook in ("tracer", "solve_many", "solve_array"))
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
