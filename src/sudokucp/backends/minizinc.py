"""One MiniZinc model (sudoku.mzn: all_different per unit, the givens as data) solved through the
`minizinc` package by a solver of the MiniZinc install (Gecode by default). The model branches on
dom/wdeg (the smallest domain over the constraints' failure weights), which on the Gecode 25x25
grids tried beat first_fail by orders of magnitude.

The toolchain is not on PyPI: the backend is available only where the `minizinc` binary is found
(Debian/Ubuntu: `apt-get install minizinc flatzinc`). Each solve runs MiniZinc once: flattening,
then the solver. MiniZinc's time limit covers both, so the time left is passed whole; `build_s`
is MiniZinc's flattening time and `solve_s` the solver's. Counting asks for `limit` solutions
(all of them for 0); the count is exact when MiniZinc reports the search exhausted.
Stats read back: nodes and failures (the solver's), build_s, solve_s.
"""

from __future__ import annotations

import shutil
import time
import warnings
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, OptionError, SearchOutcome
from sudokucp.puzzle import Grid, Puzzle

MODEL = "sudoku.mzn"
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
def instance_for(solver_id: str) -> Any:
    """sudoku.mzn on a solver of the install, without data (MiniZinc reads the model once)."""
    import minizinc

    model = minizinc.Model(Path(__file__).with_name(MODEL))
    return minizinc.Instance(minizinc.Solver.lookup(solver_id), model)


def grid_of(solution: Any) -> Grid:
    """The cells of one MiniZinc solution, row-major."""
    return tuple(v for line in solution.x for v in line)


class MiniZinc(Backend):
    """sudoku.mzn flattened by MiniZinc and solved by Gecode (or another installed CP solver)."""

    name = "minizinc"
    description = ("MiniZinc model (all_different per unit, givens as data) solved by Gecode or "
                   "another solver of the MiniZinc install; needs the minizinc binary")
    extra = "minizinc"
    module = "minizinc"
    package = "minizinc"
    defaults = {"solver": "gecode", "domain": True}

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
    def available(cls) -> bool:
        """Whether the minizinc package imports and finds the minizinc binary."""
        return unavailable_reason() is None

    @classmethod
    def version(cls) -> str:
        """MiniZinc's version and the Python package's: 'MiniZinc 2.6.4 (python 0.10.0)'."""
        package = super().version()
        if not cls.available():
            return package
        import minizinc

        return f"MiniZinc {'.'.join(map(str, minizinc.default_driver.parsed_version))} " \
               f"(python {package})"

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        import minizinc
        from minizinc.error import MiniZincWarning

        n, shape = puzzle.side, puzzle.shape
        left = None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
        with self._instance().branch() as instance, warnings.catch_warnings():
            warnings.simplefilter("ignore", MiniZincWarning)  # Gecode 6.2's library is dated
            instance["r"], instance["c"] = shape.box_rows, shape.box_cols
            instance["dom"] = self.options["domain"]
            instance["givens"] = [list(puzzle.cells[i * n:(i + 1) * n]) for i in range(n)]
            result = instance.solve(time_limit=None if left is None else timedelta(seconds=left),
                                    all_solutions=not limit, nr_solutions=limit or None)
        return self._read(minizinc.Status, result, limit, deadline is not None)

    def _read(self, status: Any, result: Any, limit: int, timed: bool) -> SearchOutcome:
        if result.status is status.ERROR:
            raise RuntimeError(f"MiniZinc reported an error: {result.statistics}")
        solutions = result.solution or []
        found = self.collector()
        for solution in solutions if isinstance(solutions, list) else [solutions]:
            found.append(grid_of(solution))
        complete = result.status in (status.ALL_SOLUTIONS, status.UNSATISFIABLE)
        stats = self._stats(result.statistics)
        if timed and not complete and len(found) != limit:
            stats[TIMED_OUT] = 1
        return found, complete, stats

    @staticmethod
    def _stats(raw: dict[str, Any]) -> dict[str, float]:
        stats = {k: float(raw[k]) for k in ("nodes", "failures") if k in raw}
        for key, name in (("flatTime", "build_s"), ("solveTime", "solve_s")):
            if key in raw:
                stats[name] = raw[key].total_seconds()
        return stats

    def _instance(self) -> Any:
        """The model on the chosen solver, analysed once per process; each grid is a branch."""
        return instance_for(usable_solvers()[self.options["solver"]])
