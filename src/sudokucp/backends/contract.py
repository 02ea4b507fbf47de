"""The backend contract as checks anyone can run on a backend, registered or loaded by its import
path (`sudoku-cp backends --check SPEC`, as BenchExec's test_tool_info; tests/test_contract.py runs
the same checks on every backend of the registry).

Each check takes a fresh instance and raises ContractError saying what broke. No check reads a
stopwatch: a search is told its deadline has already passed (`late`), and the only timer is a
backstop (the main thread's alarm) that ends a search that never looks at its clock.
"""

from __future__ import annotations

import numbers
import random
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sudokucp.backends.base import TIMED_OUT, Backend
from sudokucp.check import is_solution
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Result, Status

SHAPES = (Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4))
CLASH_SHAPES = (Shape(2, 2), Shape(3, 3))
GRACE = 10.0  # backstop: a search told its deadline has passed answers within milliseconds
TIME_LIMIT = 60.0  # each solve of a check: a generous ceiling, never a measure
UNENDING = Puzzle.empty(Shape(4, 4))  # counting every 16x16 grid: no backend ever finishes
# The 28-solution seed 004-multiple with a 5 given in r1c4: 8 solutions remain.
EIGHT = ("809500007076089000030070890020708010700000002060120470697804231000906700"
         "000007906")


class ContractError(AssertionError):
    """A backend broke its contract: the message says how."""


class Overran(BaseException):
    """The backstop went off: a search still running GRACE seconds after its deadline (not an
    Exception, so that solve() cannot turn it into an ERROR result)."""


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


def eight_solutions() -> Puzzle:
    """A 9x9 grid with exactly eight solutions."""
    return Puzzle(Shape(3, 3), tuple(map(int, EIGHT)), "eight")


def expect(holds: bool, message: str) -> None:
    """A ContractError with `message` unless the contract `holds`."""
    if not holds:
        raise ContractError(message)


def honest(backend: Backend, puzzle: Puzzle, result: Result) -> Result:
    """The checks every result passes: no error, judged solutions, numeric stats holding the
    keys the backend promises."""
    who = f"{backend.label} on {puzzle.name}"
    expect(result.error is None, f"{who}: {result.error}")
    bad = [s for s in result.solutions if not is_solution(puzzle, s)]
    expect(not bad, f"{who}: the judge refuses {bad[0] if bad else ''}")
    missing = set(backend.stats_keys) - set(result.stats)
    expect(not missing, f"{backend.label} promised stats {sorted(missing)}")
    odd = {k: v for k, v in result.stats.items() if not isinstance(v, numbers.Real)}
    expect(not odd, f"{backend.label}: stats are numbers only, not {odd}")
    return result


@contextmanager
def backstop(seconds: float) -> Iterator[None]:
    """Raise Overran in the search if it runs past `seconds` (the main thread's alarm)."""
    def ring(signum: int, frame: object) -> None:
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

    def past_due(puzzle: Puzzle, limit: int, deadline: float | None):  # noqa: ANN202
        return search(puzzle, limit, None if deadline is None else time.perf_counter() - 1.0)

    backend._search = past_due  # type: ignore[method-assign]


def stopped_late(backend: Backend, grace: float = GRACE) -> Result:
    """Count every 16x16 grid with a deadline already passed: the result, or Overran."""
    backend.load()
    backend.prepare(UNENDING.shape)  # before the backstop: a compile is no search
    late(backend)
    with backstop(grace):
        return backend.solve(UNENDING, limit=0, keep=2, time_limit=3600)


# --- the checks -----------------------------------------------------------------------------

def check_shape(backend: Backend, shape: Shape) -> None:
    """A grid of `shape` with one solution is solved, and the judge accepts the answer."""
    puzzle = holed(shape)
    result = honest(backend, puzzle, backend.solve(puzzle, limit=2, time_limit=TIME_LIMIT))
    if not backend.complete and result.status is Status.UNKNOWN:
        return  # it may stop without an answer; what it answers is judged above
    expect((result.status, result.count) == (Status.SOLVED, 1),
           f"{backend.label} on {shape}: {result.status.value} with {result.count} "
           f"solutions, not SOLVED with 1")
    expect(result.complete or not backend.complete,
           f"{backend.label} on {shape}: the search of a unique grid is not complete")


def check_clashes(backend: Backend, shape: Shape) -> None:
    """Givens that repeat a digit in a row, a column or a box: UNSAT, or an error saying why."""
    for puzzle in clashes(shape):
        result = backend.solve(puzzle, limit=2, time_limit=TIME_LIMIT)
        if result.status is Status.ERROR:  # a refusal that says why
            expect(bool(result.error) and not result.solutions,
                   f"{backend.label} on {shape} {puzzle.name}: an error without a reason")
            continue
        honest(backend, puzzle, result)
        expect((result.status, result.complete, result.count) == (Status.UNSAT, True, 0),
               f"{backend.label} on {shape} {puzzle.name}: {result.status.value} "
               f"(complete {result.complete}, {result.count} solutions), not UNSAT")


def check_deadline(backend: Backend, grace: float = GRACE) -> None:
    """A search past its deadline stops within `grace` seconds and says TIMEOUT."""
    try:
        result = honest(backend, UNENDING, stopped_late(backend, grace))
    except Overran as err:
        raise ContractError(f"{backend.label} {err}: it never looks at its clock") from None
    expect(not result.complete, f"{backend.label}: a search stopped by its deadline is "
                                "not complete")
    if backend.complete or result.status is not Status.UNKNOWN:  # logic may be stuck first
        expect(result.status is Status.TIMEOUT and result.stats.get(TIMED_OUT) == 1,
               f"{backend.label} past its deadline: {result.status.value}, stats "
               f"{TIMED_OUT}={result.stats.get(TIMED_OUT)}, not TIMEOUT and 1")


def check_keep(backend: Backend) -> None:
    """`keep` holds the first solutions and the count covers them all (a complete backend)."""
    puzzle = eight_solutions()
    outcomes = [((0, None), (8, 8, True)), ((0, 3), (8, 3, True)), ((0, 0), (8, 0, True)),
                ((5, 2), (5, 2, False))]
    for (limit, keep), wanted in outcomes:
        result = honest(backend, puzzle, backend.solve(puzzle, limit=limit, keep=keep))
        got = (result.count, len(set(result.solutions)), result.complete)
        expect(got == wanted, f"{backend.label} with limit={limit} keep={keep}: (count, kept, "
                              f"complete) {got}, not {wanted}")
        expect(result.status is Status.SOLVED,
               f"{backend.label} with limit={limit}: {result.status.value}, not SOLVED")


def check_build_s(backend: Backend) -> None:
    """`build_s` comes with the first solve of each shape, when the backend builds one."""
    builds = type(backend)._prepare is not Backend._prepare
    four, nine = holed(Shape(2, 2)), holed(Shape(3, 3))
    results = [(p, backend.solve(p, time_limit=TIME_LIMIT)) for p in (four, four, nine)]
    for puzzle, result in results:
        honest(backend, puzzle, result)
    got = tuple("build_s" in r.stats for _, r in results)
    expect(got == (builds, False, builds),
           f"{backend.label}: build_s in the first, second and other-shape solves {got}, "
           f"not {(builds, False, builds)}")


@dataclass(frozen=True)
class Check:
    """One check of the contract, run on a fresh instance."""

    name: str
    run: Callable[[Backend], None]
    applies: Callable[[Backend], bool] = lambda backend: True


def checks() -> tuple[Check, ...]:
    """Every check, in the order `backends --check` runs them."""
    return (*(Check(f"solves {s}", lambda b, s=s: check_shape(b, s)) for s in SHAPES),
            *(Check(f"clashing givens {s}", lambda b, s=s: check_clashes(b, s))
              for s in CLASH_SHAPES),
            Check("keep and count", check_keep, lambda b: bool(b.complete)),
            Check("deadline", check_deadline, lambda b: b.interruptible),
            Check("build_s", check_build_s))


def run_checks(make: Callable[[], Backend]) -> Iterator[tuple[str, str | None]]:
    """(check, None) for each check passed, (check, why) for each failed or skipped ('skipped:
    ...'), each on a fresh instance from `make`; a crash of the backend is a failure."""
    for check in checks():
        backend = make()
        if not check.applies(backend):
            yield check.name, "skipped: " + ("not complete" if check.name.startswith("keep")
                                             else "not interruptible")
            continue
        try:
            check.run(backend)
        except (ContractError, Overran) as err:
            yield check.name, str(err)
        except Exception as err:  # a backend that raises out of solve() breaks the contract
            yield check.name, f"{type(err).__name__}: {err}"
        else:
            yield check.name, None
