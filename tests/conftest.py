"""Shared fixtures: the project's puzzles, the shipped samples of the public sets, every backend;
the session's own caches, so that a warm cache on the machine changes no test's outcome."""

from __future__ import annotations

import errno
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from sudokucp.backends import BACKENDS, UnknownBackend, backend_class, canonical, is_import_path

# The session's caches, set by the controlling process before xdist starts its workers (they
# inherit the environment): the data sets' empty (tests that fetch give their own), removed at
# the end; numba's the tests' own (.pytest_cache/d/sudokucp-numba), never the user's, the jit
# kernels compiled into it once per version of their sources (warm_jit), in two processes that
# run beside the first tests: a test that uses the kernels waits for them (uses_jit); no 9x9
# machine code built after a command (the tests of ahead.py build it in folders of theirs).
SESSION_ENV = "SUDOKUCP_TEST_SESSION"
WARM_ENV = "SUDOKUCP_TEST_WARM"  # the warm-up's folder and its processes' ids: folder|pid,pid


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "jit: uses the jit kernels (waits for their warm-up)")
    if os.environ.get(SESSION_ENV):
        return  # a worker of this session: set already
    write_bytecode()
    folder = tempfile.mkdtemp(prefix="sudokucp-tests-")
    cache = getattr(config, "cache", None)  # None with -p no:cacheprovider
    numba = cache.mkdir("sudokucp-numba") if cache is not None else Path(folder) / "numba"
    os.environ["NUMBA_CACHE_DIR"] = str(numba)
    os.environ["SUDOKUCP_CACHE"] = os.path.join(folder, "datasets")
    os.environ["SUDOKUCP_JIT_AHEAD"] = "load"
    os.environ[SESSION_ENV] = folder
    config._sudokucp_session = folder
    config._sudokucp_warm = []
    if getattr(config.option, "numprocesses", None):  # xdist's workers inherit the environment
        config._sudokucp_warm = warm_jit(Path(numba), Path(folder))  # before they collect
        config.option.loadscopereorder = False  # files handed out in the order set below


def write_bytecode() -> None:
    """The tests' processes keep their compiled bytecode (__pycache__, as Python does by
    default) even where PYTHONDONTWRITEBYTECODE is set, as in many container images: a run
    starts Python about 300 times (the harness's workers, the command line), and each would
    compile the package's modules anew (about 0.1 s of CPU each)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def start_warm(config, items) -> None:
    """One process (no xdist): the warm-up starts once collected, and only when a test uses
    the kernels (and is to run: not with --collect-only)."""
    folder = getattr(config, "_sudokucp_session", None)
    if folder and not (config.option.collectonly or config._sudokucp_warm) \
            and any(map(uses_jit, items)):
        config._sudokucp_warm = warm_jit(Path(os.environ["NUMBA_CACHE_DIR"]), Path(folder))


STRONG_FIRST = "dfs-strong-first"  # the warm-up's note of what dfs's strong batch compiled
WARM = ("import sys\n"
        "from pathlib import Path\n"
        "from sudokucp.backends.jit.kernels import compiled, entries\n"
        "for kernel in sys.argv[2:]:\n"
        "    if kernel == 'dfs':  # the strong batch first, alone: what it compiles, for test_jit\n"
        "        from sudokucp.backends.jit import matching\n"
        "        from sudokucp.backends.jit.kernels import STRONG, ready\n"
        "        dfs = ready('dfs', 'run_many', STRONG)\n"
        "        steps = (dfs.run_many, dfs.fixpoint, matching.alldiff, matching.gac, dfs.run)\n"
        "        if not any(step.stats.cache_hits for step in steps):  # all compiled here:\n"
        "            # none loaded from what another process saved meanwhile\n"
        f"            Path(sys.argv[1]).with_name({STRONG_FIRST!r}).write_text(\n"
        "                ' '.join(str(len(step.signatures)) for step in steps))\n"
        "    if kernel == 'isomorph':  # canon's minlex search, compiled before its clock runs\n"
        "        from sudokucp.isomorph import canonical\n"
        "        from sudokucp.puzzle import Puzzle, Shape\n"
        "        canonical(Puzzle.empty(Shape(2, 2)), timeout=60)\n"
        "        continue\n"
        "    for entry, version in entries(kernel):\n"
        "        compiled(kernel, entry, version)\n"
        "Path(sys.argv[1]).write_text('')\n")
# Two processes of about the same length (CPU seconds, cold, numba's import included, measured
# at a load of 3): dfs 27 (classic grids and variants); cdcl 14, bands 6, scan 1 and canon's
# minlex search (isomorph) 10.
HALVES = (["dfs"], ["cdcl", "bands", "scan", "isomorph"])
WARM_WAIT = 600  # seconds a test waits for the warm-up at most (then it compiles what it needs)


def warm_jit(numba: Path, session: Path) -> list[subprocess.Popen]:
    """Start compiling every jit kernel, and canon's search, into the tests' numba cache, in two
    processes (HALVES) that run beside the tests, once per version of the jit kernels' sources
    (finish_warm marks it done); their processes (none when the cache is warm)."""
    if importlib.util.find_spec("numba") is None:
        return []
    from sudokucp.backends.jit import ahead

    if (ahead.kernel_folder(str(numba)) / "warm").exists():
        return []
    sys.stderr.write("compiling the jit kernels into the tests' cache, beside the first tests "
                     "(once per version of their sources)…\n")
    runs = [subprocess.Popen([sys.executable, "-c", WARM, str(session / f"warm-{i}"), *half],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for i, half in enumerate(HALVES)]
    os.environ[WARM_ENV] = f"{session}|{','.join(str(run.pid) for run in runs)}"
    return runs


def pytest_sessionfinish(session, exitstatus) -> None:
    """An interrupted session (Ctrl-C) stops the warm-up rather than waiting for it."""
    if exitstatus == pytest.ExitCode.INTERRUPTED:
        for run in getattr(session.config, "_sudokucp_warm", []):
            run.kill()


def finish_warm(runs: list[subprocess.Popen]) -> None:
    """Wait for the warm-up's processes; when both did their part, mark the cache warm and
    remove older versions' folders, else say why (nothing when they were stopped)."""
    errors = [run.communicate()[1] for run in runs]
    if not runs or any(run.returncode < 0 for run in runs):
        return
    if any(run.returncode for run in runs):
        sys.stderr.write("the jit warm-up failed (the tests compiled what they used):\n"
                         + "".join(errors)[-2000:])
        return
    from sudokucp.backends.jit import ahead

    folder = os.environ["NUMBA_CACHE_DIR"]
    (ahead.kernel_folder(folder) / "warm").write_text("")
    ahead.prune(folder)


def wait_for_warm() -> None:
    """Return once each warm-up process has marked its part done or is gone (or WARM_WAIT)."""
    folder, _, pids = os.environ.get(WARM_ENV, "").partition("|")
    pending = [(Path(folder) / f"warm-{i}", int(pid))
               for i, pid in enumerate(filter(None, pids.split(",")))]
    deadline = time.monotonic() + WARM_WAIT
    while time.monotonic() < deadline:
        pending = [(mark, pid) for mark, pid in pending if not mark.exists() and alive(pid)]
        if not pending:
            return
        time.sleep(0.2)


def alive(pid: int) -> bool:
    """Whether a process of this id still runs (a finished child not yet reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


# The jit's own tests (not test_jit_ahead's, which compile in caches of their own) and canon's,
# whose minlex search the warm-up compiles too.
JIT_FILES = {"test_jit.py", "test_variants_jit.py", "test_isomorph.py", "test_isomorph_bench.py"}


def uses_jit(item) -> bool:
    """A test that runs the jit kernels in the tests' cache: in a jit test file, marked jit (a
    module's pytestmark too: crossval's workers, the gpu's CPU handover), or on the jit backend."""
    if item.get_closest_marker("jit") or item.path.name in JIT_FILES:
        return True
    params = getattr(getattr(item, "callspec", None), "params", {})
    return "jit" in {backend_named(v) for v in params.values()}


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """A test of the jit kernels (marked jit once collected) waits for their warm-up first,
    outside its time limit."""
    if item.get_closest_marker("jit"):
        wait_for_warm()
    yield


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
    """--backend's narrowing; the slow tests' backstop; the order of the files (each keeps its
    own): those without a test of the jit kernels first, so that the kernels' warm-up runs
    beside them, and in each part those holding a slow test first, so that `-n 2 --dist
    loadfile` hands the long files out before the short ones that even the workers' loads."""
    narrow(config, items)
    long_files, jit_files = set(), set()
    for item in items:
        if item.get_closest_marker("slow"):
            long_files.add(item.path)
            if not item.get_closest_marker("timeout"):
                item.add_marker(pytest.mark.timeout(SLOW_LIMIT))
        if uses_jit(item):
            item.add_marker(pytest.mark.jit)
            jit_files.add(item.path)
    items.sort(key=lambda item: (item.path in jit_files, item.path not in long_files))
    start_warm(config, items)


def pytest_unconfigure(config) -> None:
    finish_warm(getattr(config, "_sudokucp_warm", []))
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


@pytest.fixture
def locked_folder(tmp_path):
    """(folder, reason): an empty folder that refuses new files and the reason the system gives.
    Its mode (0o555) for a user; for root, who writes whatever the mode, the immutable flag
    (chattr +i: 'Operation not permitted'), else a skip that says why."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    if not os.access(folder, os.W_OK):
        yield folder, "Permission denied"
        folder.chmod(0o755)
        return
    folder.chmod(0o755)
    immutable = shutil.which("chattr")
    if immutable is None or subprocess.run([immutable, "+i", str(folder)],
                                           capture_output=True).returncode:
        pytest.skip("root writes in any folder whatever its mode, and chattr +i (the immutable "
                    "flag, which needs CAP_LINUX_IMMUTABLE) is not at hand")
    try:
        yield folder, os.strerror(errno.EPERM)
    finally:
        subprocess.run([immutable, "-i", str(folder)], check=True)
