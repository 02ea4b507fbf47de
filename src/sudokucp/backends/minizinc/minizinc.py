"""One MiniZinc model (sudoku.mzn: all_different per unit, the givens as data) solved through the
`minizinc` package by a solver of the MiniZinc install (Gecode by default). The model branches on
dom/wdeg (the smallest domain over the constraints' failure weights), which on the Gecode 25x25
grids tried beat first_fail by orders of magnitude.

The toolchain is not on PyPI: the backend is available only where the `minizinc` binary is found
(Debian/Ubuntu: `apt-get install minizinc flatzinc`). Each solve runs MiniZinc once: flattening,
then the solver. MiniZinc's time limit covers both, so the time left is passed whole; `encode_s`
is MiniZinc's flattening time (flatTime) and `solve_s` the solver's; the model is analysed once
per process, before the clock (`_prepare`). Counting asks for `limit` solutions
(all of them for 0) and reads them as MiniZinc streams them, each handed to the collector and
dropped (the package's `solve` would gather every one: 1.3 GB for 1.9 M solutions); the count is
exact when MiniZinc reports the search exhausted.
Stats read back: nodes and failures (the solver's), encode_s, solve_s.
A variant runs sudoku_variant.mzn, whose data are the groups, cage sums and candidates of
sudokucp.layout. Both models and their data come from sudokucp.encodings.mzn.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import threading
import time
import warnings
from collections.abc import Iterator
from datetime import timedelta
from functools import cache
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, Found, OptionError, SearchOutcome
from sudokucp.encodings.mzn import MODEL, model_data, model_of, model_path
from sudokucp.puzzle import Grid, Puzzle, Shape
from sudokucp.rules import CLASSIC_KIND, KINDS

INSTALL = ("the MiniZinc toolchain is not installed (no `minizinc` binary on PATH): "
           "apt-get install minizinc flatzinc (Debian, Ubuntu), or MiniZinc's own bundle")
PIP = "the Python package minizinc is not installed: pip install 'sudoku-cp[minizinc]'"


@cache
def unavailable_reason() -> str | None:
    """Why the backend cannot run here (package or binary missing), or None."""
    try:
        with warnings.catch_warnings():  # its "MiniZinc was not found" is said by INSTALL
            warnings.simplefilter("ignore", RuntimeWarning)
            import minizinc
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] != "minizinc":
            raise
        return PIP
    return INSTALL if minizinc.default_driver is None else None


@cache
def usable_solvers() -> dict[str, str]:
    """Short name -> id of the CP solvers of the install whose executable is present."""
    import minizinc

    found = {}
    for solvers in minizinc.default_driver.available_solvers().values():
        for s in solvers:
            runs = s.executable and shutil.which(s.executable) and not s.isGUIApplication
            if "cp" in s.tags and runs:
                found[s.id.rsplit(".", 1)[-1]] = s.id
    return found


@cache
def instance_for(solver_id: str, model_file: str = MODEL) -> Any:
    """A model (sudoku.mzn by default) on a solver of the install, without data (MiniZinc reads
    the model once)."""
    import minizinc

    model = minizinc.Model(model_path(model_file))
    return minizinc.Instance(minizinc.Solver.lookup(solver_id), model)


class _Watched:
    """The install's driver, keeping the MiniZinc processes it starts so that Ctrl-C can stop
    them; a process started after Ctrl-C is stopped at once."""

    def __init__(self, driver: Any) -> None:
        self.driver, self.processes, self.interrupts = driver, [], 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.driver, name)

    async def _create_process(self, *args: Any, **kwargs: Any) -> Any:
        process = await self.driver._create_process(*args, **kwargs)
        self.processes.append(process)
        if self.interrupts:
            self.stop(signal.SIGTERM)
        return process

    def stop(self, signum: int) -> None:
        """Send `signum` to every MiniZinc process still running."""
        for process in self.processes:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signum)


@contextlib.contextmanager
def stop_on_interrupt(instance: Any) -> Iterator[None]:
    """While the block runs MiniZinc, the first Ctrl-C terminates it (MiniZinc stops its solver
    and ends its output, which is read to the end, so no pipe stays full) and KeyboardInterrupt
    is raised when the block ends; a second Ctrl-C kills it and raises at once. Elsewhere than
    in the main thread, or under a SIGINT handler of the caller's, the block runs as it is."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    watched = instance._driver = _Watched(instance._driver)  # the package's one driver slot

    def on_interrupt(signum: int, frame: Any) -> None:
        watched.interrupts += 1
        watched.stop(signal.SIGTERM if watched.interrupts == 1 else signal.SIGKILL)
        if watched.interrupts > 1:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    except Exception:
        if not watched.interrupts:
            raise  # else MiniZinc's complaint at SIGTERM: the Ctrl-C below says it all
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        instance._driver = watched.driver
    if watched.interrupts:
        raise KeyboardInterrupt


def grid_of(solution: Any) -> Grid:
    """The cells of one MiniZinc solution, row-major (a variant's x is one array already)."""
    x = solution.x
    return tuple(x) if x and not isinstance(x[0], list) else tuple(v for line in x for v in line)


class MiniZinc(Backend):
    """sudoku.mzn flattened by MiniZinc and solved by Gecode (or another installed CP solver)."""

    name = "minizinc"
    description = ("MiniZinc model (all_different per unit, givens as data) solved by Gecode or "
                   "another solver of the MiniZinc install; needs the minizinc binary")
    extra = "minizinc"
    module = "minizinc"
    package = "minizinc"
    defaults = {"solver": "gecode", "domain": True}
    counting = "constant memory: solutions read as MiniZinc streams them"
    kinds = frozenset({CLASSIC_KIND, *KINDS})  # a variant: sudoku_variant.mzn

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        usable = usable_solvers() if self.available() else {}
        if usable and self.options["solver"] not in usable:
            raise OptionError(f"option 'solver' of 'minizinc' is a solver of this MiniZinc "
                              f"install: {', '.join(sorted(usable))}, not "
                              f"{self.options['solver']!r}")

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why the backend cannot run here, naming the install step; None when it can."""
        return unavailable_reason()

    @classmethod
    def version(cls) -> str:
        """MiniZinc's version and the Python package's: 'MiniZinc 2.6.4 (python 0.10.0)'."""
        package = super().version()
        if not cls.available():
            return package
        import minizinc

        return f"MiniZinc {'.'.join(map(str, minizinc.default_driver.parsed_version))} " \
               f"(python {package})"

    def _prepare(self, shape: Shape) -> None:
        """The model on the chosen solver, analysed (once per process: every shape shares it)."""
        self._instance()

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        import minizinc
        from minizinc.error import MiniZincWarning

        left = None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
        found = self.collector()
        with self._instance(model_of(puzzle)).branch() as instance, warnings.catch_warnings():
            warnings.simplefilter("ignore", MiniZincWarning)  # Gecode 6.2's library is dated
            instance["dom"] = self.options["domain"]
            for key, value in model_data(puzzle).items():
                instance[key] = value
            with stop_on_interrupt(instance):
                outcome, raw = asyncio.run(self._stream(instance, found, limit, left))
        return self._read(minizinc.Status, outcome, raw, found, limit, deadline is not None)

    @staticmethod
    async def _stream(instance: Any, found: Found, limit: int,
                      left: float | None) -> tuple[Any, dict[str, Any]]:
        """Each solution into `found` as MiniZinc prints it; the last status and the statistics."""
        status, statistics = None, {}
        async for result in instance.solutions(
                time_limit=None if left is None else timedelta(seconds=left),
                all_solutions=not limit, nr_solutions=limit or None):
            status = result.status
            statistics.update(result.statistics)
            if result.solution is not None:
                found.append(grid_of(result.solution))
        return status, statistics

    def _read(self, status: Any, outcome: Any, raw: dict[str, Any], found: Found, limit: int,
              timed: bool) -> SearchOutcome:
        if outcome is status.ERROR:
            raise RuntimeError(f"MiniZinc reported an error: {raw}")
        complete = outcome in (status.ALL_SOLUTIONS, status.UNSATISFIABLE)
        stats = self._stats(raw)
        if timed and not complete and not (limit and len(found) >= limit):
            stats[TIMED_OUT] = 1
        return found, complete, stats

    @staticmethod
    def _stats(raw: dict[str, Any]) -> dict[str, float]:
        stats = {k: float(raw[k]) for k in ("nodes", "failures") if k in raw}
        for key, name in (("flatTime", "encode_s"), ("solveTime", "solve_s")):
            if key in raw:
                stats[name] = raw[key].total_seconds()
        return stats

    def _instance(self, model: str = MODEL) -> Any:
        """The model on the chosen solver, analysed once per process; each grid is a branch."""
        return instance_for(usable_solvers()[self.options["solver"]], model)
