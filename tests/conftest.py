"""Shared fixtures: the project's puzzles, the shipped samples of the public sets, every backend;
the session's own empty caches (numba's and the data sets'), so that a warm cache on the machine
changes no test's outcome."""

from __future__ import annotations

import importlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from sudokucp.backends import BACKENDS, backend_class

# The session's caches, made by the controlling process before xdist starts its workers (they
# inherit the environment), removed at its end: numba's (jit kernels), the data sets' (empty:
# tests that fetch give their own), and no 9x9 machine code built after a command (the tests of
# ahead.py build it in folders of their own).
SESSION_ENV = "SUDOKUCP_TEST_SESSION"


def pytest_configure(config) -> None:
    if os.environ.get(SESSION_ENV):
        return  # a worker of this session: set already
    folder = tempfile.mkdtemp(prefix="sudokucp-tests-")
    for name, sub in (("NUMBA_CACHE_DIR", "numba"), ("SUDOKUCP_CACHE", "datasets")):
        os.environ[name] = os.path.join(folder, sub)
    os.environ["SUDOKUCP_JIT_AHEAD"] = "load"
    os.environ[SESSION_ENV] = folder
    config._sudokucp_session = folder


SLOW_LIMIT = 600  # seconds: the backstop of a test marked slow, exempt from the 30 s limit


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_LIMIT))


def pytest_unconfigure(config) -> None:
    folder = getattr(config, "_sudokucp_session", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        del os.environ[SESSION_ENV]

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
DATA = ROOT / "tests" / "data"  # what the tests read besides the project's puzzles: README.md
PUBLIC = DATA / "puzzles"  # samples of the public sets


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
def public_sets() -> Path:
    """The shipped samples of the public puzzle sets (tests/data/puzzles)."""
    return PUBLIC


@pytest.fixture
def shared_puzzles() -> Path:
    """public_sets under its former name, for the tests that still use it."""
    return PUBLIC
