"""The 9x9 path's machine code built ahead (backends/jit/ahead.py): a command loads it without
importing numba and gives the answers of numba's kernels; without a compiler it says so."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sudokucp.check import is_solution
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle
from tests.conftest import PUZZLES

pytest.importorskip("numba")
pytestmark = pytest.mark.skipif(shutil.which(os.environ.get("CC", "cc")) is None,
                                reason="no C compiler: the machine code cannot be built ahead")

RUN = ("import sys\n"
       "from sudokucp.backends.jit import ahead\n"
       "if sys.argv[1] == 'numba':\n"
       "    ahead.module = lambda: None\n"
       "from sudokucp.cli import main\n"
       "code = main(sys.argv[2:])\n"
       "sys.stderr.write(f'numba imported: {\"numba\" in sys.modules}\\n')\n"
       "sys.exit(code)\n")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """An environment whose numba cache folder holds the module built ahead."""
    folder = tmp_path_factory.mktemp("numba-cache")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder)}
    subprocess.run([sys.executable, "-m", "sudokucp.backends.jit.ahead"], env=env, check=True,
                   capture_output=True, text=True)
    return env


def solve(env: dict, how: str, args: list[str], stdin: str | None = None
          ) -> tuple[list, list[str]]:
    """`sudoku-cp ARGS` in a fresh process (`how`: 'ahead', or 'numba' with the module ignored):
    its JSON objects, timings left out, and its messages, the last whether numba was imported."""
    done = subprocess.run([sys.executable, "-c", RUN, how, *args, "--format", "json"], env=env,
                          input=stdin, capture_output=True, text=True, check=False)
    assert done.returncode in (0, 2), done.stderr  # 2: a line could not be read
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    for found in objects:
        found.pop("seconds", None)
        found.pop("cpu", None)
        found["stats"] = {k: v for k, v in (found.get("stats") or {}).items()
                          if not k.endswith("_s")}
    return objects, done.stderr.strip().splitlines()


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
        assert is_solution(Puzzle.parse(line), tuple(found["solutions"][0]))


def test_one_grid_on_standard_input_is_searched_without_numba(cache):
    line = load_puzzles(PUZZLES / "generated" / "9x9-expert.txt")[0].to_line()
    args = ["solve", "-", "--backend", "jit"]
    ahead, said = solve(cache, "ahead", args, stdin=line + "\n")
    numba, _ = solve(cache, "numba", args, stdin=line + "\n")
    assert said[-1] == "numba imported: False"
    assert ahead == numba and ahead[0]["status"] == "solved"
    assert is_solution(Puzzle.parse(line), tuple(ahead[0]["solutions"][0]))


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
    said, unchanged = done.stdout.strip().splitlines()
    assert said.startswith("not built (") and "compiler" in said
    assert unchanged == "True"


def test_a_module_that_loads_is_not_built_again(cache):
    code = ("from sudokucp.backends.jit import ahead\n"
            "print(ahead.build_apart())\n")
    done = subprocess.run([sys.executable, "-c", code], env=cache, capture_output=True,
                          text=True, check=True)
    assert done.stdout.startswith("built already: ")
