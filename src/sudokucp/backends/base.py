"""Backend: solve() is the template (timing, deadline, limit, errors); a backend writes _search."""

from __future__ import annotations

import abc
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from sudokucp.puzzle import Grid, Puzzle
from sudokucp.result import Result, Status

SearchOutcome = tuple[list[Grid], bool, dict[str, float]]  # solutions, complete, stats
TIMED_OUT = "timed_out"  # stats key a backend sets when its own time limit stopped it


class OptionError(ValueError):
    """An option a backend does not have, or a value it does not accept."""


class Backend(abc.ABC):
    """A way of solving. Options go to the constructor; solve() has one signature for all."""

    name: ClassVar[str]
    description: ClassVar[str]
    extra: ClassVar[str | None] = None  # install extra that brings the package
    module: ClassVar[str | None] = None  # third-party module imported by available()
    package: ClassVar[str | None] = None  # PyPI distribution that brings `module`
    defaults: ClassVar[Mapping[str, Any]] = {}
    choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {}
    interruptible: ClassVar[bool] = True  # honours the cooperative deadline
    _available: ClassVar[dict[str, bool]] = {}

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

    @classmethod
    def available(cls) -> bool:
        """Whether the package this backend needs imports, memoised."""
        if cls.module is None:
            return True
        if cls.module not in Backend._available:
            try:
                __import__(cls.module)
                Backend._available[cls.module] = True
            except Exception:
                Backend._available[cls.module] = False
        return Backend._available[cls.module]

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

    @property
    def label(self) -> str:
        """Name with the options that differ from the defaults: 'mrv:order=static'."""
        changed = [f"{k}={v}" for k, v in sorted(self.options.items()) if self.defaults[k] != v]
        return ":".join([self.name, *changed])

    def solve(self, puzzle: Puzzle, *, limit: int = 1, time_limit: float | None = None) -> Result:
        """Search for up to `limit` solutions (0 = all) within `time_limit` seconds."""
        if limit < 0:
            raise ValueError(f"limit must be 0 (all) or positive, not {limit}")
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        try:
            solutions, complete, stats = self._search(puzzle, limit, deadline)
        except Exception as err:  # a backend failure is a result, not a crash of the caller
            return Result(self.label, puzzle.name, Status.ERROR,
                          seconds=time.perf_counter() - start,
                          error=f"{type(err).__name__}: {err}")
        seconds = time.perf_counter() - start
        status = self._status(solutions, complete, limit, deadline, bool(stats.get(TIMED_OUT)))
        return Result(self.label, puzzle.name, status, tuple(tuple(s) for s in solutions),
                      complete, seconds, stats)

    @staticmethod
    def _status(solutions: list[Grid], complete: bool, limit: int, deadline: float | None,
                timed_out: bool) -> Status:
        if complete:
            return Status.SOLVED if solutions else Status.UNSAT
        if limit and len(solutions) >= limit:
            return Status.SOLVED
        if timed_out or (deadline is not None and time.perf_counter() >= deadline):
            return Status.TIMEOUT
        return Status.UNKNOWN

    @abc.abstractmethod
    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        """Return (solutions up to limit, search exhausted, stats)."""
