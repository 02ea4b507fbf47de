"""Executors by name: where the harness's runs execute. A new one is a module here, a line in
EXECUTORS and its `--executor` choice appears in `sudoku-cp bench`."""

from __future__ import annotations

import importlib
from typing import Any

from sudokucp.executors.base import Executor, Outcome, ResourceLimits, Task

EXECUTORS: dict[str, str] = {
    "local": "sudokucp.executors.local:LocalExecutor",
    "dask": "sudokucp.executors.dask_cluster:DaskExecutor",
}


class UnknownExecutor(ValueError):
    """A name that is not in EXECUTORS."""


def make_executor(name: str, **options: Any) -> Executor:
    """The executor registered under `name`, built with `options` (local: jobs;
    dask: jobs, scheduler, workers, chunk)."""
    if name not in EXECUTORS:
        raise UnknownExecutor(f"unknown executor {name!r}; valid names: {', '.join(EXECUTORS)}")
    module, _, attr = EXECUTORS[name].partition(":")
    return getattr(importlib.import_module(module), attr)(**options)


__all__ = ["EXECUTORS", "Executor", "Outcome", "ResourceLimits", "Task", "UnknownExecutor",
           "make_executor"]
