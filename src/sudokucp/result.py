"""Status and Result: what a backend says of one puzzle; Row: what the harness writes of a run."""

from __future__ import annotations

import enum
from collections.abc import Mapping
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
    rss_mb: float | None = _column()  # the worker's peak resident memory, MB
    repeat: int = _column(0)  # which of the --repeat runs of this backend on this puzzle
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
        """A row from its JSON object; keys it does not know are ignored, missing ones default."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["status"] = Status(data["status"])
        values["solutions"] = tuple(data.get("solutions") or ())
        return cls(**values)


def _column_name(f: Field) -> str:
    return f.metadata["column"] or f.name
