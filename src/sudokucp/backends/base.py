"""Backend: solve() is the template (load, prepare, clock, deadline, limit, errors); a backend
writes _search, and _prepare when it builds something per shape.

The lifecycle of one solve(), in order (a variant the backend does not take, see `kinds`, ends
it at once: UNKNOWN, its error saying which rule is missing, nothing loaded):
1. `load()`: `module` and `loads` imported once per process; the seconds are `stats["load_s"]` of
   the first solve that paid them.
2. `prepare(shape)` -> `_prepare(shape)`: what every search of a shape shares (a model without
   the givens, a compiled kernel), built with the instance's options once per shape per instance;
   the seconds are `stats["build_s"]` of the solve that built it (absent from the others).
3. The clock starts; `deadline = start + time_limit`: the time limit covers the search only.
4. `_search(puzzle, limit, deadline) -> (solutions, complete, stats)`.
Steps 1 and 2 never count in `seconds`; a backend never shifts its deadline by hand.

The contract of `_search`, called once per solve() after the options were checked by the
constructor:

- solutions: up to `limit` grids (0 = every one), each a tuple of N*N digits; the judge checks them.
  Collect them in `self.collector()` (a list that counts every grid and keeps the first few the
  caller asked for, so counting runs in constant memory, and that hands each grid as it comes to
  a caller streaming them, see `streaming`); a plain list works too, handed over at the end.
  `counting` says how the backend's memory grows while it counts (`sudoku-cp backends`).
- complete: True only when the search space was exhausted, so the count (and UNSAT) is exact.
  A backend that can never prove a count says so with `complete = False` on the class or instance.
- deadline: a `time.perf_counter()` value, or None. Look at it with `expired(deadline)` every
  CHECK_EVERY nodes (`not nodes & CHECK_MASK`); past it, return what was found with complete False
  and `stats[TIMED_OUT] = 1`. A search that cannot look (a C call) sets `interruptible = False`:
  the harness then relies on its outside kill.
- stats: numbers only; `stats_keys` names those every result holds. The reports read `nodes`
  (values placed) and `guesses` (alternatives tried at branch points); `backtracks`,
  per-technique counts and `*_s` timings are shown as they are: `encode_s` for putting one
  grid's givens into the prepared model (inside the clock), `solve_s` for the solver's call.
- Errors are raised, not returned: solve() turns an exception (in _prepare too) into an ERROR
  result.
- Heavy imports happen in methods, never at module level: `available()` tries `module` alone.
"""

from __future__ import annotations

import abc
import contextlib
import importlib
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Protocol, runtime_checkable

from sudokucp.backends.names import spec_name
from sudokucp.clock import cpu_seconds
from sudokucp.errors import OptionError
from sudokucp.puzzle import MAX_SIDE, Grid, Puzzle, Shape
from sudokucp.result import Result, Status
from sudokucp.rules import CLASSIC_KIND, KINDS, WHAT

SearchOutcome = tuple[list[Grid], bool, dict[str, float]]  # solutions, complete, stats
TIMED_OUT = "timed_out"  # stats key a backend sets when its own time limit stopped it
PROGRAM_PEAK = "program_peak_kb"  # stats key: the peak resident memory (kB) of its programs
CHECK_EVERY = 1024  # nodes between two looks at the clock: a power of two
CHECK_MASK = CHECK_EVERY - 1  # `not nodes & CHECK_MASK` is true every CHECK_EVERY nodes


OnSolution = Callable[[Grid], None]  # told of each solution as the search finds it
CONSTANT = "constant memory"  # the usual `counting`: nothing kept per solution counted


@runtime_checkable
class Tracer(Protocol):
    """What a traced search tells as it goes (teaching/trace.py's Tracer writes it as events);
    depth = hypotheses on the path, 0 the root."""

    def place(self, depth: int, cell: int, digit: int, guess: bool = True) -> None:
        """A digit put in `cell`: a hypothesis at `depth`, or deduced in the node at `depth`."""

    def guess(self, cell: int, bit: int, vals: Sequence[int]) -> None:
        """A hypothesis (cell, digit bit) in the node whose board is `vals`."""

    def backtrack(self, depth: int | None = None) -> None:
        """The node at `depth` (None: the deepest open one) failed."""

    def retract(self, depth: int) -> None:
        """The node at `depth` is left without having failed."""

    def retreat(self, depth: int, failed: int) -> None:
        """Back up to the node at `depth`; the `failed` ones just below it failed."""


class Found:
    """The solutions of one search: every grid counted, the first `keep` kept (None: all), each
    handed to `on_solution` as it comes when a caller streams them.

    Appended to and measured with len() like a list, so `len(found) == limit` stops a search."""

    __slots__ = ("count", "keep", "kept", "on_solution")

    def __init__(self, keep: int | None = None, on_solution: OnSolution | None = None) -> None:
        self.count, self.keep, self.kept, self.on_solution = 0, keep, [], on_solution

    def append(self, grid: Sequence[int]) -> None:
        self.count += 1
        if self.on_solution is not None:
            self.on_solution(tuple(grid))
        if self.keep is None or len(self.kept) < self.keep:
            self.kept.append(tuple(grid))

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Grid]:
        return iter(self.kept)


class Backend(abc.ABC):
    """A way of solving. Options go to the constructor; solve() has one signature for all.

    An instance lives for many solves: the harness makes one per worker process and reuses it,
    so `_prepare` builds once per shape what later solves share. It is not re-entrant and not
    thread-safe: one solve at a time, from one thread.

    Capabilities, declared here with a default that means "not supported", set or overridden by
    the backends that have them, so that no caller asks a backend's name: `checker` (its rank as
    a uniqueness checker), `traceable` (it calls `tracer`), `compiles_ahead` (`compile_ahead`),
    `line_batch()` (a file of one-line grids solved in compiled batches), `max_side` (the
    largest side it takes), and `unavailable_reason()`, None unless a backend has a reason
    beyond a missing package. The batch hooks `solve_many`, `solve_array` and `solve_lines` are
    defined only by the backends that have them.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    extra: ClassVar[str | None] = None  # install extra that brings the package
    module: ClassVar[str | None] = None  # third-party module imported by available()
    package: ClassVar[str | None] = None  # PyPI distribution that brings `module`
    defaults: ClassVar[Mapping[str, Any]] = {}
    choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {}
    interruptible: ClassVar[bool] = True  # honours the cooperative deadline
    complete: bool = True  # its exhausted searches prove counts; an instance may say otherwise
    loads: ClassVar[tuple[str, ...]] = ()  # modules load() imports besides `module`
    _loaded: ClassVar[set[str]] = set()
    _keep: int | None = None  # solutions solve() keeps, for collector()
    _prepared: frozenset[Shape] = frozenset()  # shapes this instance's _prepare has built for
    _on_solution: OnSolution | None = None  # where solutions stream, see streaming()
    counting: ClassVar[str] = CONSTANT  # how memory grows with the count, said by `backends`
    stats_keys: ClassVar[tuple[str, ...]] = ()  # keys every result's stats hold (errors aside)
    kinds: ClassVar[frozenset[str]] = frozenset({CLASSIC_KIND})  # variants it solves (rules.KINDS)
    _available: ClassVar[dict[str, bool]] = {}
    checker: ClassVar[Mapping[str, int]] = {}
    """Its rank as a uniqueness checker by use, lowest tried first (the registry's checkers()):
    'classic' (grids under 16x16), 'large' (16x16 and up), 'variant', 'hard' (killer cages or
    pencil marks); a use it is absent from never picks it."""
    traceable: ClassVar[bool] = False  # calls `tracer` at its places (sudokucp.teaching.trace)
    compiles_ahead: ClassVar[bool] = False  # compile_ahead() builds its kernels before any solve
    max_side: ClassVar[int] = MAX_SIDE
    """The largest side it takes; solve() answers a larger grid UNKNOWN, its error saying so."""

    tracer: Tracer | None
    """Where a traced search tells its steps: set by sudokucp.teaching.trace around one solve,
    None otherwise. A backend that can be traced sets `tracer = None` in its class and calls it
    at its places (never a test in its inner loops when it is None)."""

    solve_many: Callable[..., Any]
    """`solve_many(puzzles, *, limit=1) -> batch`: grids of one shape in one call, no deadline;
    the batch holds per grid the first solution, the count, whether it is exact, and stats."""

    solve_array: Callable[..., Any]
    """`solve_array(grids, shape, *, limit=1) -> batch`: solve_many on a (grids x cells) integer
    array, 0 for a blank; a value out of range is a ValueError naming the grid."""

    solve_lines: Callable[..., Any]
    """`solve_lines(data, shape=None, *, limit=1) -> batch`: a text of one-line grids read and
    solved in compiled code, the text read and the answers of its grids."""

    def __init__(self, **options: Any) -> None:
        self.options = {**self.defaults, **{k: self._coerce(k, v) for k, v in options.items()}}

    @classmethod
    def _coerce(cls, key: str, value: Any) -> Any:
        if key not in cls.defaults:
            known = ", ".join(sorted(cls.defaults)) or "none"
            raise OptionError(f"backend {cls.name!r} has no option {key!r} (options: {known})")
        default = cls.defaults[key]
        try:
            if isinstance(default, bool) and isinstance(value, str):
                value = {"true": True, "1": True, "yes": True, "false": False, "0": False,
                         "no": False}[value.lower()]
            elif default is not None and not isinstance(default, str):
                value = type(default)(value)
        except (KeyError, ValueError, TypeError):
            raise OptionError(f"option {key!r} of {cls.name!r} takes a "
                              f"{type(default).__name__}, not {value!r}") from None
        allowed = cls.choices.get(key)
        if allowed is not None and value not in allowed:
            raise OptionError(f"option {key!r} of {cls.name!r} is one of "
                              f"{', '.join(map(str, allowed))}, not {value!r}")
        return value

    @property
    def cores(self) -> int:
        """Cores one run takes: the harness never runs more at once than it has."""
        return 1

    @classmethod
    def available(cls) -> bool:
        """Whether the package this backend needs is installed and nothing else is missing
        (unavailable_reason)."""
        return cls.installed() and cls.unavailable_reason() is None

    @classmethod
    def installed(cls) -> bool:
        """Whether the package this backend needs is installed, memoised. Only a missing module
        reads as not installed: a package that fails to import raises its own error."""
        if cls.module is None:
            return True
        if cls.module not in Backend._available:
            try:
                importlib.import_module(cls.module)
                Backend._available[cls.module] = True
            except ModuleNotFoundError as err:
                if err.name is None or cls.module.split(".")[0] != err.name.split(".")[0]:
                    raise
                Backend._available[cls.module] = False
        return Backend._available[cls.module]

    @classmethod
    def compile_ahead(cls, progress: Callable[[str, int, int], None] | None = None) -> str:
        """Build every kernel before the first solve (`backends --warm`), telling progress(what,
        done, total); what was built, in words. Only where `compiles_ahead` says so."""
        raise NotImplementedError(f"backend {cls.name} compiles nothing ahead")

    def line_batch(self, path: str, shape: Shape | None, limit: int,
                   keep: int | None) -> Any | None:
        """A file of one-line grids read and solved in compiled batches (`entries()`, and
        `solver(fallback)` giving each result as solve() would), or None: not supported here."""
        return None

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why this machine cannot run the backend beyond a missing package (no program, no
        device), or None; a backend that has one makes available() agree with it."""
        return None

    @classmethod
    def load(cls) -> float:
        """Import `module` and `loads` once per process; the seconds it took (0.0 once loaded)."""
        wanted = [m for m in (cls.module, *cls.loads) if m and m not in Backend._loaded]
        start = time.perf_counter()
        for name in wanted:
            importlib.import_module(name)
            Backend._loaded.add(name)
        return time.perf_counter() - start if wanted else 0.0

    @classmethod
    def version(cls) -> str:
        """Version of the package behind the backend, or of sudoku-cp for pure-Python ones."""
        from importlib import metadata

        dist = cls.distribution() or "sudoku-cp"
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed" if cls.distribution() else "dev"

    @classmethod
    def distribution(cls) -> str | None:
        """Name of the PyPI distribution the backend needs, if any."""
        return cls.package

    @cached_property
    def label(self) -> str:
        """Name with the options that differ from the defaults: 'mrv:order=static'."""
        changed = [f"{k}={v}" for k, v in sorted(self.options.items()) if self.defaults[k] != v]
        return ":".join([spec_name(type(self)), *changed])

    def collector(self) -> Found:
        """Where `_search` collects solutions: counts them all, keeps what solve() was asked to,
        or, while streaming, hands each one on and keeps none."""
        if self._on_solution is not None:
            return Found(0, self._on_solution)
        return Found(self._keep)

    @contextlib.contextmanager
    def streaming(self, on_solution: OnSolution) -> Iterator[None]:
        """Within it, solve() hands each solution to `on_solution` as it is found (at the end for
        a search that returns them all at once) and keeps none in its result."""
        self._on_solution = on_solution
        try:
            yield
        finally:
            self._on_solution = None

    def solve(self, puzzle: Puzzle, *, limit: int = 1, time_limit: float | None = None,
              keep: int | None = None) -> Result:
        """Search for up to `limit` solutions (0 = all) within `time_limit` seconds, keeping the
        first `keep` of them in the result (None: every one found); the count covers all."""
        if limit < 0:
            raise ValueError(f"limit must be 0 (all) or positive, not {limit}")
        if (puzzle.side > self.max_side
                or not puzzle.rules.classic) and (why := self.unsupported(puzzle)):
            return Result(self.label, puzzle.name, Status.UNKNOWN, error=why)
        self._keep = keep
        start, cpu = time.perf_counter(), cpu_seconds()
        try:
            before = {"load_s": self.load() or None, "build_s": self.prepare(puzzle.shape)}
            start, cpu = time.perf_counter(), cpu_seconds()  # imports and builds are not search
            deadline = None if time_limit is None else start + time_limit
            solutions, complete, stats = self._search(puzzle, limit, deadline)
        except Exception as err:  # a backend failure is a result, not a crash of the caller
            return Result(self.label, puzzle.name, Status.ERROR,
                          seconds=time.perf_counter() - start, cpu=cpu_seconds() - cpu,
                          error=f"{type(err).__name__}: {err}")
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
        stats = {**stats, **{k: v for k, v in before.items() if v is not None}}
        count = len(solutions)
        kept = self._hand_over(solutions)[:keep]
        status = self._status(count, complete, limit, deadline, bool(stats.get(TIMED_OUT)))
        return Result(self.label, puzzle.name, status, kept, complete, seconds, stats,
                      found=None if count == len(kept) else count, cpu=cpu)

    @classmethod
    def unsupported(cls, puzzle: Puzzle) -> str | None:
        """Why this backend cannot take the puzzle's variant ('backend mrv does not support
        killer cages') or its side, or None; solve() answers such a puzzle UNKNOWN with this as
        its error."""
        if puzzle.side > cls.max_side:
            return (f"backend {cls.name} takes sides up to {cls.max_side}, not "
                    f"{puzzle.side} ({puzzle.shape})")
        missing = puzzle.rules.features - cls.kinds
        if not missing:
            return None
        what = " and ".join(WHAT[k] for k in KINDS if k in missing)
        return f"backend {cls.name} does not support {what}"

    def prepare(self, shape: Shape) -> float | None:
        """Run `_prepare(shape)` unless this instance already has: its seconds, or None when
        nothing ran (already built, or a backend without one)."""
        if shape in self._prepared or type(self)._prepare is Backend._prepare:
            return None
        start = time.perf_counter()
        self._prepare(shape)
        self._prepared = self._prepared | {shape}
        return time.perf_counter() - start

    def _prepare(self, shape: Shape) -> None:  # noqa: B027 - optional: empty unless overridden
        """Optional: build what every search of `shape` shares (a model without the givens, a
        compiled kernel) with the instance's options; solve() calls it before the clock."""

    def _hand_over(self, solutions: Sequence[Grid] | Found) -> tuple[Grid, ...]:
        """The solutions to keep; while streaming, those not yet handed on go now and none stay."""
        streamed = getattr(solutions, "on_solution", None)
        if self._on_solution is None:
            return tuple(tuple(s) for s in solutions)
        if streamed is not self._on_solution:
            for grid in solutions:
                self._on_solution(tuple(grid))
        return ()

    @staticmethod
    def _status(count: int, complete: bool, limit: int, deadline: float | None,
                timed_out: bool) -> Status:
        if complete:
            return Status.SOLVED if count else Status.UNSAT
        if limit and count >= limit:
            return Status.SOLVED
        if timed_out or (deadline is not None and time.perf_counter() >= deadline):
            return Status.TIMEOUT
        return Status.UNKNOWN

    @abc.abstractmethod
    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        """Return (solutions up to limit, search exhausted, stats)."""
