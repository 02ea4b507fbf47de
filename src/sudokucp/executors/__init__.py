"""Executors by name: where the harness's runs execute. A new one is a module here, a line in
EXECUTORS and its `--executor` choice appears in `sudoku-cp bench`; a module that checks its
options before any work defines `check_options(options) -> options`."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from sudokucp.executors.base import Executor, ExecutorError, Outcome, ResourceLimits, Task

EXECUTORS: dict[str, str] = {
    "local": "sudokucp.executors.local:LocalExecutor",
    "dask": "sudokucp.executors.dask_cluster:DaskExecutor",
}


class UnknownExecutor(ValueError):
    """A name that is not in EXECUTORS."""


def make_executor(name: str, **options: Any) -> Executor:
    """The executor registered under `name`, built with `options` (local: jobs;
    dask: jobs, scheduler, workers, chunk)."""
    return getattr(_module(name), EXECUTORS[name].partition(":")[2])(**options)


def check_options(name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options executor `name` will be built with, checked before any work (dask: the
    extra, the scheduler's address, the number of workers) and completed where the executor
    fills in a default; ExecutorError says what is wrong."""
    check = getattr(_module(name), "check_options", None)
    return dict(options) if check is None else check(options)


def _module(name: str) -> ModuleType:
    """The module of the executor registered under `name`; UnknownExecutor for another name."""
    if name not in EXECUTORS:
        raise UnknownExecutor(f"unknown executor {name!r}; valid names: {', '.join(EXECUTORS)}")
    return importlib.import_module(EXECUTORS[name].partition(":")[0])


__all__ = ["EXECUTORS", "Executor", "ExecutorError", "Outcome", "ResourceLimits", "Task",
           "UnknownExecutor", "check_options", "make_executor"]
