"""The command line starts without the heavy libraries: they load inside the commands and
backends that use them. Each check runs in a fresh interpreter and reads its sys.modules."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("pandas", "numpy", "matplotlib", "scipy", "ortools", "numba", "dask", "distributed",
         "pysat", "pycosat", "constraint", "minizinc")
GRID = ROOT / "puzzles" / "seeds" / "002-logic-9x9.txt"
MARK = "modules:"


def heavy_after(code: str) -> list[str]:
    """The heavy top-level packages loaded once `code` has run in a fresh interpreter."""
    script = (f"import sys\ntry:\n    {code}\nexcept SystemExit:\n    pass\nimport json\n"
              f"print({MARK!r} + json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})), "
              f"file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    line = next((x for x in out.stderr.splitlines() if x.startswith(MARK)), None)
    assert line is not None, out.stderr
    loaded = json.loads(line.removeprefix(MARK))
    return [name for name in HEAVY if name in loaded]


def test_heavy_after_sees_a_heavy_import():
    assert heavy_after("import json, numpy") == ["numpy"]


def test_building_the_whole_parser_imports_no_heavy_library():
    assert heavy_after("import sudokucp.cli; sudokucp.cli.build_parser()") == []


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["solve", "--help"],
                                  ["bench", "--help"], ["solve", str(GRID), "--backend", "hybrid"],
                                  ["solve", str(GRID), "--backend", "mrv", "--format", "json"]],
                         ids=" ".join)
def test_commands_that_need_none_import_no_heavy_library(argv):
    assert heavy_after(f"from sudokucp.cli import main; main({argv!r})") == []


def test_the_package_and_the_reader_import_no_heavy_library():
    assert heavy_after("import sudokucp, sudokucp.io.formats, sudokucp.backends") == []


def test_help_texts_made_when_shown_hold_their_values():
    from sudokucp.cli import build_parser
    from sudokucp.reporting.compare import SLOWER
    from sudokucp.teaching.ladder import RUNGS

    commands = build_parser()._subparsers._group_actions[0].choices
    assert f"(default {SLOWER:g})" in " ".join(commands["compare"].format_help().split())
    ladder = " ".join(commands["ladder"].format_help().split())
    assert all(rung.key in ladder for rung in RUNGS)
