"""Status and Result: what a backend says of one puzzle; Row: what the harness writes of a run."""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any

from sudokucp.puzzle import Grid


class Status(enum.Enum):
    """Outcome of a run. The harness adds WRONG, CRASH and MEMOUT."""

    SOLVED = "solved"
    UNSAT = "unsat"
    UNKNOWN = "unknown"  # stopped without an answer (logic stuck, node limit): never UNSAT
    TIMEOUT = "timeout"
    ERROR = "error"
    WRONG = "wrong"
    CRASH = "crash"
    MEMOUT = "memout"


ANSWERED = frozenset({Status.SOLVED, Status.UNSAT})  # an answer: its time says what one costs


@dataclass(frozen=True)
class Result:
    """Solutions found (up to the limit), whether the search was exhaustive, time and stats."""

    backend: str
    puzzle: str
    status: Status
    solutions: tuple[Grid, ...] = ()
    complete: bool = False  # search space exhausted: the count is exact
    seconds: float = 0.0
    stats: Mapping[str, float] = field(default_factory=dict)
    error: str | None = None
    found: int | None = None  # solutions counted, when more than those kept in `solutions`
    cpu: float | None = None  # CPU seconds of the search: every thread, and children waited for

    @property
    def count(self) -> int:
        return len(self.solutions) if self.found is None else self.found

    @property
    def solution(self) -> Grid | None:
        return self.solutions[0] if self.solutions else None

    @property
    def unique(self) -> bool | None:
        """True/False when the search proved it, None when it cannot say."""
        if self.count >= 2:
            return False
        return self.count == 1 if self.complete else None

    def describe_count(self) -> str:
        """'28 solutions', 'at least 2 solutions', 'no solution'."""
        n = self.count
        word = "solution" if n == 1 else "solutions"
        if self.complete:
            return f"{n} {word}" if n else "no solution"
        return f"at least {n} {word}" if n else "no solution found"

    def to_dict(self) -> dict[str, Any]:
        return {"backend": self.backend, "puzzle": self.puzzle, "status": self.status.value,
                "solutions": [list(s) for s in self.solutions], "complete": self.complete,
                "seconds": self.seconds, "stats": dict(self.stats), "error": self.error,
                "count": self.count, "cpu": self.cpu}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        solutions = tuple(tuple(s) for s in data.get("solutions", ()))
        count = data.get("count", len(solutions))
        cpu = data.get("cpu")
        return cls(data["backend"], data["puzzle"], Status(data["status"]), solutions,
                   bool(data["complete"]), float(data["seconds"]), dict(data.get("stats", {})),
                   data.get("error"), None if count == len(solutions) else count,
                   None if cpu is None else float(cpu))


def _column(default: Any = None, *, name: str | None = None, item: str | None = None,
            **kwargs: Any) -> Any:
    """A Row field that is also a column of results.csv: named `name` (the field's own name by
    default), holding the value's `item` when one is given."""
    if "default_factory" not in kwargs:
        kwargs["default"] = default
    return field(metadata={"column": name, "item": item}, **kwargs)


@dataclass(frozen=True, kw_only=True)
class Row:
    """One finished run, as a line of results.jsonl; the fields made with `_column` are the
    columns of results.csv, in this order."""

    key: str  # run_key(label, hash, limit): what --resume skips
    dataset: str = _column("")
    puzzle: str = _column("")
    hash: str = _column("")
    backend: str = _column("")  # the label: name with the options that differ from the defaults
    name: str | None = _column()
    status: Status = _column(Status.ERROR)
    verified: bool | None = _column()  # None: no solution claimed
    seconds: float = _column(0.0)  # what reports rank by: `cpu` or `wall`, as `measure` says
    cpu: float | None = _column()  # CPU seconds of the search (None: a log from before CPU time)
    wall: float = _column(0.0)  # wall seconds of the search (before CPU time: the parent's)
    rss_mb: float | None = _column()  # peak resident memory, MB: whose, `rss_scope` says
    repeat: int = _column(0)  # which of the --repeat runs of this backend on this puzzle
    form: int = _column(0)  # which --isomorphs form was searched (0: the puzzle as given)
    count: int = _column(0)
    complete: bool = _column(False)
    limit: int = _column(1)
    timeout: float | None = _column()
    cpu_limit: float | None = _column()
    error: str | None = _column()
    versions: Mapping[str, str | None] = _column(name="version", item="backend",
                                                 default_factory=dict)
    grid: str = _column("")
    box: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    solutions: tuple[str, ...] = ()
    stats: Mapping[str, float] = field(default_factory=dict)
    memory_mb: int | None = None
    limit_hit: str | None = None  # for a TIMEOUT: "cpu" or "wall", the limit that stopped it
    measure: str = "wall"  # what `seconds` holds; logs from before CPU time held wall seconds
    rss_scope: str | None = None  # "run": the run's own peak; "worker": the worker's over its
    # life (no reset possible); None: a log from before the difference (the worker's)
    rss_start_mb: float | None = None  # the worker's resident memory as the run began, MB

    @property
    def answered(self) -> bool:
        return self.status in ANSWERED

    @classmethod
    def columns(cls) -> tuple[str, ...]:
        """The results.csv columns, in order."""
        return tuple(_column_name(f) for f in fields(cls) if "column" in f.metadata)

    def record(self) -> dict[str, Any]:
        """The results.csv cells of this row, column by column."""
        cells = {}
        for f in fields(self):
            if "column" in f.metadata:
                value = getattr(self, f.name)
                item = f.metadata["item"]
                cells[_column_name(f)] = value.get(item) if item else value
        cells["status"] = self.status.value
        return cells

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this row (the keys of results.jsonl)."""
        data = dict(vars(self))
        data |= {"status": self.status.value, "solutions": list(self.solutions),
                 "options": dict(self.options), "stats": dict(self.stats),
                 "versions": dict(self.versions)}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Row:
        """A row from its JSON object; keys it does not know are ignored, missing ones default.
        RowError names the first field of a wrong type or out of range."""
        if not isinstance(data, Mapping):
            raise RowError(f"a JSON {_json_type(data)}, not an object")
        for name in REQUIRED:
            if name not in data:
                raise RowError(f"field '{name}' is missing")
        values = {name: _checked(name, data[name]) for name in FIELD_CHECKS if name in data}
        values["status"] = Status(data["status"])
        values["solutions"] = tuple(data.get("solutions", ()))
        for name in ("options", "stats", "versions"):
            if name in values:
                values[name] = dict(values[name])
        return cls(**values)


class RowError(ValueError):
    """A results.jsonl line that is no row: "field 'seconds' is 'abc', not a number"."""


LARGEST = 2**53  # the largest whole number a float holds exactly: medians of counts stay whole
BOUND = f"{LARGEST:.2g}"
STATUS_VALUES = frozenset(status.value for status in Status)


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _is_flag(value: Any) -> bool:
    return isinstance(value, bool)


def is_real(value: Any) -> bool:
    """An int or a float (not a bool), finite and within what a table holds."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return -LARGEST <= value <= LARGEST and value == value


def is_amount(value: Any) -> bool:
    """A finite number, 0 or more."""
    return is_real(value) and value >= 0


def _is_count(value: Any) -> bool:
    """A whole number, 0 or more."""
    return is_amount(value) and isinstance(value, int)


def _or_none(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


def _mapping_of(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, Mapping) and all(map(check, value.values()))


def is_strings(value: Any) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)


FIELD_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {  # field: its test, what it is
    **dict.fromkeys(("key", "dataset", "puzzle", "hash", "backend", "grid", "box"),
                    (_is_text, "a string")),
    **dict.fromkeys(("name", "error"), (_or_none(_is_text), "a string or null")),
    "status": (lambda v: isinstance(v, str) and v in STATUS_VALUES,
               "a status (" + ", ".join(sorted(STATUS_VALUES)) + ")"),
    "verified": (_or_none(_is_flag), "true, false or null"),
    "complete": (_is_flag, "true or false"),
    **dict.fromkeys(("seconds", "wall"), (is_amount, f"a number from 0 to {BOUND}")),
    **dict.fromkeys(("cpu", "rss_mb", "timeout", "cpu_limit", "rss_start_mb"),
                    (_or_none(is_amount), f"a number from 0 to {BOUND}, or null")),
    **dict.fromkeys(("repeat", "form", "count", "limit"),
                    (_is_count, f"a whole number from 0 to {BOUND}")),
    "memory_mb": (_or_none(_is_count), f"a whole number from 0 to {BOUND}, or null"),
    "versions": (_mapping_of(_or_none(_is_text)), "an object of strings or nulls"),
    "options": (lambda v: isinstance(v, Mapping), "an object"),
    "stats": (_mapping_of(is_real), f"an object of numbers from -{BOUND} to {BOUND}"),
    "solutions": (is_strings, "a list of strings"),
    "limit_hit": (lambda v: v in (None, "cpu", "wall"), "'cpu', 'wall' or null"),
    "measure": (lambda v: v in ("cpu", "wall"), "'cpu' or 'wall'"),
    "rss_scope": (lambda v: v in (None, "run", "worker"), "'run', 'worker' or null"),
}
REQUIRED = ("key", "status")


def _checked(name: str, value: Any) -> Any:
    """`value` when it passes the field's test; RowError otherwise."""
    check, what = FIELD_CHECKS[name]
    if not check(value):
        raise RowError(f"field '{name}' is {_shown(value)}, not {what}")
    return value


def _shown(value: Any) -> str:
    """A short rendering of a JSON value for a message."""
    try:
        plain = value is None or isinstance(value, bool | float)
        text = json.dumps(value) if plain else repr(value)
    except ValueError:  # an integer too long to write out
        text = "a number too long to write"
    return text if len(text) <= 40 else text[:37] + "..."


def _json_type(value: Any) -> str:
    """What JSON calls the type of a value that is not an object."""
    names = {list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")


def _column_name(f: Field) -> str:
    return f.metadata["column"] or f.name
