"""The 9x9 path's machine code built ahead (backends/jit/ahead.py): the first command that compiles
builds it in the user's cache folder once it has answered; a later command loads it without
importing numba and gives the answers of numba's kernels; without a compiler or without
numba.pycc nothing is built, the reason is said once, and numba's cache serves."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sudokucp.check import is_solution
from sudokucp.io.formats import load_puzzles, parse_grid

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
pytest.importorskip("numba")
pytestmark = pytest.mark.skipif(shutil.which(os.environ.get("CC", "cc")) is None,
                                reason="no C compiler: the machine code cannot be built ahead")


def command_then(said: str) -> str:
    """A script: the command line on its arguments, then `said` (code that writes one line on
    standard error), then the command's exit status."""
    return ("import sys\nfrom sudokucp.cli import main\ncode = main(sys.argv[1:])\n"
            f"{said}sys.exit(code)\n")


RUN = command_then("sys.stderr.write(f'numba imported: {\"numba\" in sys.modules}\\n')\n")
MODULE_PATH = "from sudokucp.backends.jit import ahead\nprint(ahead.module_path())"
GRID = load_puzzles(PUZZLES / "generated" / "9x9-expert.txt")[0].to_line()


def user_env(home: Path, **more: str) -> dict:
    """A user's environment: the cache folder under `home` (XDG_CACHE_HOME, as platformdirs
    reads it), no NUMBA_CACHE_DIR, the machine code built after a command (the default)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "SUDOKUCP_JIT_AHEAD", "SUDOKUCP_TEST_SESSION")}
    return {**env, "XDG_CACHE_HOME": str(home), **more}


def sources() -> set[Path]:
    """The files of the jit's package but Python's own bytecode."""
    jit = ROOT / "src" / "sudokucp" / "backends" / "jit"
    return {p for p in jit.rglob("*") if p.is_file() and p.suffix != ".pyc"}


def run(env: dict, code: str) -> str:
    """What `code` prints in a fresh process."""
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


# The command line, then how many versions of each step of the band-wise search it compiled.
FIRST = command_then(
    "from sudokucp.backends.jit import bands\n"
    "steps = ('run', 'load', 'put', 'propagate', 'branch', 'run_many')\n"
    "counts = (len(getattr(bands, step).signatures) for step in steps)\n"
    "sys.stderr.write(f'band steps compiled: {\" \".join(map(str, counts))}\\n')\n")


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    """A user's first `solve --backend jit` on one grid in an empty cache folder: its
    environment, what it printed and said, and the files under src/ before it."""
    home = tmp_path_factory.mktemp("cache-home")
    env, before = user_env(home), sources()
    done = subprocess.run([sys.executable, "-c", FIRST, "solve", "-", "--backend", "jit",
                           "--format", "json"], env=env, input=GRID + "\n", capture_output=True,
                          text=True, check=True)
    return env, done.stdout, done.stderr.splitlines(), before


@pytest.fixture(scope="module")
def cache(first):
    """An environment whose cache folder holds the module built ahead."""
    return first[0]


@pytest.mark.slow  # it holds the module's set-up: a first compile, then the build
def test_the_first_solve_answers_then_builds_the_module_in_the_user_cache(first):
    env, out, said, before = first
    path = Path(run(env, MODULE_PATH))
    assert path.is_file() and path.is_relative_to(env["XDG_CACHE_HOME"])
    assert is_solution(parse_grid(GRID), tuple(json.loads(out)["solutions"][0]))
    assert said[0].startswith("sudoku-cp: compiling the jit kernels")
    assert said[1].startswith("sudoku-cp: building the 9x9 path's machine code for later runs")
    assert said[2] == f"sudoku-cp: the 9x9 path's machine code built: {path}"
    assert sources() == before  # nothing written into the package
    # the band-wise one-grid search compiled its own steps, once each, and no batch
    assert said[3] == "band steps compiled: 1 1 1 1 1 0"


def without_module(env: dict, home: Path, **more: str) -> dict:
    """A copy of env's cache folder (numba's machine code warm) without the module built ahead:
    the environment of a user whose build did not happen."""
    built = Path(run(env, MODULE_PATH))
    shutil.copytree(env["XDG_CACHE_HOME"], home)
    copy = home / built.relative_to(env["XDG_CACHE_HOME"])
    copy.unlink()
    return user_env(home, **more)


def solve_once(env: dict) -> tuple[dict, list[str]]:
    """`sudoku-cp solve - --backend jit --format json` on GRID: its answer and its messages."""
    done = subprocess.run([sys.executable, "-c", RUN, "solve", "-", "--backend", "jit",
                           "--format", "json"], env=env, input=GRID + "\n", capture_output=True,
                          text=True, check=True)
    found = json.loads(done.stdout)
    return {k: found[k] for k in ("status", "solutions", "count")}, done.stderr.splitlines()


BLOCK_PYCC = ("import importlib.abc, sys\n"
              "class Block(importlib.abc.MetaPathFinder):\n"
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name == 'numba.pycc':\n"
              "            raise ModuleNotFoundError(\"No module named 'numba.pycc'\")\n"
              "sys.meta_path.insert(0, Block())\n")


@pytest.mark.parametrize("how", ["no compiler", "no pycc"])
def test_a_failed_build_is_said_once_and_numba_answers(cache, tmp_path, how):
    """Without a C compiler (CC=/bin/false), or with a numba that has no pycc: the first solve
    answers from numba's cache, says why nothing was built and notes it; the next solve does
    not try again and answers the same."""
    more = {"CC": "/bin/false"}
    if how == "no pycc":
        (tmp_path / "site").mkdir()
        (tmp_path / "site" / "sitecustomize.py").write_text(BLOCK_PYCC)
        more = {"PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path / "site"),
                                                            os.environ.get("PYTHONPATH")]))}
    env = without_module(cache, tmp_path / "home", **more)
    found, said = solve_once(env)
    again, said_again = solve_once(env)
    assert found == again and found["status"] == "solved"
    assert is_solution(parse_grid(GRID), tuple(found["solutions"][0]))
    assert said[0].startswith("sudoku-cp: building the 9x9 path's machine code")
    assert said[1].startswith("sudoku-cp: the 9x9 path's machine code not built (")
    assert ("pycc" in said[1]) == (how == "no pycc")
    assert said[-1] == said_again[-1] == "numba imported: True"
    assert said_again == ["numba imported: True"]  # no second try, no compile
    assert not Path(run(env, MODULE_PATH)).exists()
    assert run(env, "from sudokucp.backends.jit import ahead\n"
               "print(ahead.failure_path().read_text())") == said[1].split(" not built (")[1][:-1]


def test_a_build_asked_for_tries_again_after_a_failure(cache, tmp_path, monkeypatch):
    """A noted failure stops the builds after a command, not the one `backends --warm jit`
    asks for (build_apart), which clears the note once it succeeds. The builder's process is
    stood in for by a copy of the module the first solve built (that build is tested above)."""
    from sudokucp.backends.jit import ahead

    built = Path(run(cache, MODULE_PATH))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv(ahead.MODE_ENV, "auto")
    ahead.module.cache_clear()
    ahead.kernel.cache_clear()
    note = ahead.failure_path()
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("CompilerError: cc failed\n")
    builds = []

    def builder(command, **_):
        builds.append(command)
        shutil.copyfile(built, ahead.module_path())
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(ahead.subprocess, "run", builder)
    try:
        assert ahead.build_after_answers() is None and builds == []  # the note holds it back
        assert ahead.build_apart() == f"built: {ahead.module_path()}"
        assert len(builds) == 1 and not note.exists() and ahead.module() is not None
    finally:
        ahead.module.cache_clear()
        ahead.kernel.cache_clear()


@pytest.mark.slow
def test_the_compile_tests_pass_after_a_warm_up(cache):
    """With the module built in the user's cache folder (a warm-up), the tests of numba's
    compiles still pass: the tests run with caches of their own (numba's the tests' folder in
    .pytest_cache, warm already)."""
    names = ("test_the_first_result_reports_the_compile_apart or "
             "test_a_nine_by_nine_solve_compiles_only_its_entry_point")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-o", "addopts=",
                           "-q",
                           str(ROOT / "tests" / "test_jit.py"), "-k",
                           names], env=cache, cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]


def solve(env: dict, how: str, args: list[str], stdin: str | None = None
          ) -> tuple[list, list[str]]:
    """`sudoku-cp ARGS` in a fresh process (`how`: 'ahead', or 'numba' with the module ignored,
    SUDOKUCP_JIT_AHEAD=off, and the kernels from the tests' warm numba cache): its JSON objects,
    timings left out, and its messages, the last whether numba was imported."""
    if how == "numba":
        env = {**env, "SUDOKUCP_JIT_AHEAD": "off", "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"]}
    done = subprocess.run([sys.executable, "-c", RUN, *args, "--format", "json"], env=env,
                          input=stdin, capture_output=True, text=True, check=False)
    assert done.returncode in (0, 2), done.stderr  # 2: a line could not be read
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    for found in objects:
        found.pop("seconds", None)
        found.pop("cpu", None)
        found["stats"] = {k: v for k, v in (found.get("stats") or {}).items()
                          if not k.endswith("_s")}
    return objects, done.stderr.strip().splitlines()


@pytest.mark.jit  # numba's side reads the tests' warm cache
def test_a_file_of_lines_is_solved_without_numba_and_as_numba_solves_it(cache, tmp_path):
    grids = [p.to_line() for p in load_puzzles(PUZZLES / "generated" / "9x9-expert.txt")]
    lines = [*grids, "1" + "." * 80, "11" + "." * 79, "not a grid", grids[0]]
    path = tmp_path / "grids.txt"
    path.write_text("\n".join(lines) + "\n")
    args = ["solve", str(path), "--backend", "jit", "--limit", "2"]
    ahead, said = solve(cache, "ahead", args)
    numba, said_numba = solve(cache, "numba", args)
    assert said[-1] == "numba imported: False" and said_numba[-1] == "numba imported: True"
    assert ahead == numba and said[:-1] == said_numba[:-1]
    assert "line 12, column 2: duplicate given" in said[0] and "line 13: " in said[1]
    counts = [found["count"] for found in ahead]
    assert counts == [1] * len(grids) + [2, 1]
    for line, found in zip([*grids, grids[0]], [*ahead[:len(grids)], ahead[-1]]):
        assert is_solution(parse_grid(line), tuple(found["solutions"][0]))


@pytest.mark.jit
def test_one_grid_on_standard_input_is_searched_without_numba(cache):
    line = load_puzzles(PUZZLES / "generated" / "9x9-expert.txt")[0].to_line()
    args = ["solve", "-", "--backend", "jit"]
    ahead, said = solve(cache, "ahead", args, stdin=line + "\n")
    numba, _ = solve(cache, "numba", args, stdin=line + "\n")
    assert said[-1] == "numba imported: False"
    assert ahead == numba and ahead[0]["status"] == "solved"
    assert is_solution(parse_grid(line), tuple(ahead[0]["solutions"][0]))


def test_without_a_compiler_nothing_is_built_and_the_reason_is_said(cache, tmp_path):
    """A module there that does not load is built again; a failed build leaves the file as it
    was, and says why in one line."""
    env = {**cache, "CC": str(tmp_path / "no-cc")}
    code = ("from sudokucp.backends.jit import ahead\n"
            "path = ahead.module_path()\n"
            "before = path.stat().st_mtime_ns\n"
            "print(ahead.build_apart())\n"
            "print(path.stat().st_mtime_ns == before)\n")
    path = Path(subprocess.run([sys.executable, "-c", "from sudokucp.backends.jit import ahead\n"
                                "print(ahead.module_path())"], env=cache, capture_output=True,
                               text=True, check=True).stdout.strip())
    kept = path.with_name(path.name + ".kept")
    path.rename(kept)
    try:
        path.write_bytes(b"not an extension module")
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True)
        assert path.read_bytes() == b"not an extension module"
    finally:
        kept.replace(path)
        Path(run(cache, "from sudokucp.backends.jit import ahead\n"
                 "print(ahead.failure_path())")).unlink()  # noted: the later tests' copies lack it
    said, unchanged = done.stdout.strip().splitlines()
    assert said.startswith("not built (") and "compiler" in said
    assert unchanged == "True"


def test_a_module_that_loads_is_not_built_again(cache):
    code = ("from sudokucp.backends.jit import ahead\n"
            "print(ahead.build_apart())\n")
    done = subprocess.run([sys.executable, "-c", code], env=cache, capture_output=True,
                          text=True, check=True)
    assert done.stdout.startswith("built already: ")
