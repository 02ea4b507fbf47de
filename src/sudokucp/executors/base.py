"""What every executor shares: the Executor protocol, Task, Outcome, ResourceLimits, and the one
JSON form (to_json / from_json) of what crosses a process boundary: tasks and results."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Result
from sudokucp.rules import CLASSIC, Rules

GRACE = 0.5  # seconds past the time limit before the kill
KEEP = 1000  # solutions a run keeps by default: enough to cross-check counts, bounded in memory


class ExecutorError(RuntimeError):
    """An executor that cannot run a sweep (or no longer can): options it refuses, a missing
    extra, a cluster lost; the message says why."""


@dataclass(frozen=True)
class ResourceLimits:
    """The limits of one run, enforced from outside the solver: seconds of search (None: none),
    the grace before the kill, an address-space cap in MB (None: none), the cores it takes and
    CPU seconds (None: none; the run is killed as soon as it has used more)."""

    time_limit: float | None = None
    grace: float = GRACE
    memory_mb: int | None = None
    cores: int = 1
    cpu_limit: float | None = None


@dataclass(frozen=True)
class Task:
    """One run: a backend spec on one puzzle with a solution limit, within resource limits."""

    key: str
    spec: str
    puzzle: Puzzle
    limit: int = 1
    limits: ResourceLimits = ResourceLimits()
    meta: Mapping[str, Any] = field(default_factory=dict)
    keep: int | None = KEEP  # solutions the result keeps; all of them are counted


@dataclass(frozen=True)
class Outcome:
    """What became of a task: the result (status may be TIMEOUT, CRASH, MEMOUT), the wall time
    the parent measured from the start of the search, the peak resident memory (MB), for a run
    killed at a limit which one ("cpu" or "wall"), whose peak `rss_mb` is: the run's own
    ("run") or the worker's over its life ("worker", where no reset was possible), and the
    worker's resident memory when the run began (MB; None: unknown)."""

    task: Task
    result: Result
    wall: float
    rss_mb: float | None = None
    limit_hit: str | None = None
    rss_scope: str = "worker"
    rss_start_mb: float | None = None


class Executor(Protocol):
    """Where runs execute: tasks go in with submit, outcomes come out of results as they finish;
    close kills whatever still runs. A context manager closes on exit."""

    def submit(self, task: Task) -> None: ...

    def results(self) -> Iterator[Outcome]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def to_json(value: Task | Result) -> dict[str, Any]:
    """The JSON-ready form of a task or a result: {"task": {...}} or {"result": {...}}."""
    if isinstance(value, Result):
        return {"result": value.to_dict()}
    puzzle = value.puzzle
    return {"task": {"key": value.key, "spec": value.spec, "limit": value.limit,
                     "box": [puzzle.shape.box_rows, puzzle.shape.box_cols],
                     "cells": puzzle.cells, "name": puzzle.name,
                     "limits": vars(value.limits), "meta": value.meta, "keep": value.keep,
                     **({} if puzzle.rules.classic else {"rules": puzzle.rules.to_dict()})}}


def from_json(data: Mapping[str, Any]) -> Task | Result:
    """The task or the result of a `to_json` form (other keys beside it are left alone)."""
    if "result" in data:
        return Result.from_dict(data["result"])
    task = data["task"]
    rules = Rules.from_dict(task["rules"]) if "rules" in task else CLASSIC  # a variant's
    puzzle = Puzzle(Shape(*task["box"]), tuple(task["cells"]), task["name"], rules)
    return Task(task["key"], task["spec"], puzzle, task["limit"],
                ResourceLimits(**task["limits"]), task["meta"], task.get("keep", KEEP))
