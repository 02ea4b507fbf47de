"""Shared fixtures: the project's puzzles, the shipped samples of the public sets, every backend;
the session's own caches, so that a warm cache on the machine changes no test's outcome."""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from sudokucp.backends import BACKENDS, UnknownBackend, backend_class, canonical, is_import_path

# The session's caches, set by the controlling process before xdist starts its workers (they
# inherit the environment): the data sets' empty (tests that fetch give their own), removed at
# the end; numba's the tests' own (.pytest_cache/d/sudokucp-numba), the jit kernels compiled
# into it before any test, once per version of their sources (warm_jit), never the user's; no
# 9x9 machine code built after a command (the tests of ahead.py build it in folders of theirs).
SESSION_ENV = "SUDOKUCP_TEST_SESSION"


def pytest_configure(config) -> None:
    if os.environ.get(SESSION_ENV):
        return  # a worker of this session: set already
    folder = tempfile.mkdtemp(prefix="sudokucp-tests-")
    cache = getattr(config, "cache", None)  # None with -p no:cacheprovider
    numba = cache.mkdir("sudokucp-numba") if cache is not None else Path(folder) / "numba"
    os.environ["NUMBA_CACHE_DIR"] = str(numba)
    os.environ["SUDOKUCP_CACHE"] = os.path.join(folder, "datasets")
    os.environ["SUDOKUCP_JIT_AHEAD"] = "load"
    os.environ[SESSION_ENV] = folder
    config._sudokucp_session = folder
    warm_jit(Path(numba))


WARM = ("import sys\n"
        "from sudokucp.backends.jit.kernels import compiled, entries\n"
        "for kernel in sys.argv[1:]:\n"
        "    if kernel == 'isomorph':  # canon's minlex search, compiled before its clock runs\n"
        "        from sudokucp.isomorph import canonical\n"
        "        from sudokucp.puzzle import Puzzle, Shape\n"
        "        canonical(Puzzle.empty(Shape(2, 2)), timeout=60)\n"
        "        continue\n"
        "    for entry, version in entries(kernel):\n"
        "        compiled(kernel, entry, version)\n")
# Two processes of about the same length (seconds of one core, cold): dfs 42 and groups 6;
# bands 17, cdcl 18, scan 1 and canon's minlex search (isomorph) 11.
HALVES = (["dfs", "groups"], ["bands", "cdcl", "scan", "isomorph"])


def warm_jit(folder: Path) -> None:
    """Compile every jit kernel, and canon's search, into the tests' numba cache, in two
    processes (HALVES), before any test's clock runs: a minute or two, once per version of the
    jit kernels' sources (a stamp marks it done; older versions' folders are removed)."""
    if importlib.util.find_spec("numba") is None:
        return
    from sudokucp.backends.jit import ahead

    stamp = ahead.kernel_folder(str(folder)) / "warm"
    if stamp.exists():
        return
    sys.stderr.write("compiling the jit kernels into the tests' cache (once per version of "
                     "their sources)…\n")
    runs = [subprocess.Popen([sys.executable, "-c", WARM, *half], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True) for half in HALVES]
    errors = [run.communicate()[1] for run in runs]
    if any(run.returncode for run in runs):
        sys.stderr.write("".join(errors)[-2000:])  # the tests that compile will say more
        return
    stamp.write_text("")
    ahead.prune(str(folder))


SLOW_LIMIT = 600  # seconds: the backstop of a test marked slow, exempt from the 30 s limit


def pytest_addoption(parser) -> None:
    parser.addoption("--backend", action="append", default=[], metavar="NAME",
                     help="run the tests parametrized by backend on this one only (repeatable: "
                          "a registry name or alias, or module:Class)")


def narrow(config, items) -> None:
    """--backend NAME: deselect the items parametrized with any other backend (a param naming
    one: 'mrv', 'mrv:order=static', 'module:Class'); the others stay."""
    wanted = config.getoption("backend")
    if not wanted:
        return
    try:
        keep = {n if is_import_path(n) else canonical(n) for n in wanted}
    except UnknownBackend as err:
        raise pytest.UsageError(str(err)) from None
    chosen, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        names = {backend_named(v) for v in params.values()} - {None}
        (dropped if names - keep else chosen).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = chosen


def backend_named(value: object) -> str | None:
    """The backend a param names: a registry name, or the module:Class of a Backend."""
    if not isinstance(value, str):
        return None
    head = value.split(":")
    if head[0] in BACKENDS:
        return head[0]
    path = ":".join(head[:2])
    if len(head) < 2 or not is_import_path(path):
        return None
    try:
        return path if backend_class(path) else None
    except (ImportError, ValueError):
        return None


def pytest_collection_modifyitems(config, items) -> None:
    """--backend's narrowing; the slow tests' backstop; the files holding one run first (each
    file keeps its order), so that `-n 2 --dist loadfile` hands the long files out before the
    short ones that even the two workers' loads at the end."""
    narrow(config, items)
    long_files = set()
    for item in items:
        if item.get_closest_marker("slow"):
            long_files.add(item.path)
            if not item.get_closest_marker("timeout"):
                item.add_marker(pytest.mark.timeout(SLOW_LIMIT))
    items.sort(key=lambda item: item.path not in long_files)  # stable: the rest keep theirs


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


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for a test module's pages (tests/browser.py's open_page)."""
    from browser import launched

    with launched() as browser:
        yield browser
