"""Shared fixtures: the project's puzzles, the shared puzzle sets when present, every backend."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from sudokucp.backends import BACKENDS, backend_class

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
SHARED = ROOT.parent / "shared" / "puzzles"


def _installed(name: str) -> bool:
    module = BACKENDS[name].partition(":")[0]
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name == module:
            return False
        raise
    return backend_class(name).available()


INSTALLED = [name for name in BACKENDS if _installed(name)]
COMPLETE = [name for name in INSTALLED if backend_class(name).complete]  # they prove counts


@pytest.fixture(params=INSTALLED)
def solver(request):
    """Every backend whose module and package import here."""
    return backend_class(request.param)()


@pytest.fixture(params=COMPLETE)
def complete_solver(request):
    """Every backend whose search is complete (counts and UNSAT are exact)."""
    return backend_class(request.param)()


@pytest.fixture
def shared_puzzles() -> Path:
    """../shared/puzzles beside the checkout; skipped with the reason where it is absent."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent: the public puzzle sets live beside the checkout, "
                    "not in it")
    return SHARED
