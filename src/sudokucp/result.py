"""Status and Result: what a backend says of one puzzle."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
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

    @property
    def count(self) -> int:
        return len(self.solutions)

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
                "seconds": self.seconds, "stats": dict(self.stats), "error": self.error}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        return cls(data["backend"], data["puzzle"], Status(data["status"]),
                   tuple(tuple(s) for s in data.get("solutions", ())), bool(data["complete"]),
                   float(data["seconds"]), dict(data.get("stats", {})), data.get("error"))
