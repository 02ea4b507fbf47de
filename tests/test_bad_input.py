"""Bad input through the command line, as a user meets it: a clear message, a place, no traceback.

Every case runs through `solve`, `check` and `rate` once per module, in this process through the
command line's `main` (standard streams captured, an escaping exception kept as its traceback); then
each (case, command) pair is its own test. A few cases also run as `python -m sudokucp`, the way a
user starts it, and must end the same.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from sudokucp.cli import main

ROOT = Path(__file__).resolve().parents[1]
LINE = "8.9.....7...5.9....35.7.89..2.7.8.1.7.......2.6.1.547..97854230...9.67..5.......6"
ROWS = [LINE[i:i + 9] for i in range(0, 81, 9)]
SHORT_SOLUTION = "869312457427"  # a solution column cut short
COMMANDS = ("solve", "check", "rate")


def replace(text: str, at: int, char: str) -> str:
    return text[:at] + char + text[at + 1:]


def random_printable(seed: int) -> str:
    rng = random.Random(seed)
    return "\n".join("".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(1, 90)))
                     for _ in range(40)) + "\n"


@dataclass(frozen=True)
class Case:
    """A bad input: file content (or a path kind), options, and what each command must say."""

    content: bytes | None
    says: tuple[str, ...]  # fragments of the message, the place included where there is one
    options: tuple[str, ...] = ()
    path: str = "file"  # file, directory or missing
    exits: dict[str, int] = field(default_factory=dict)  # exit status per command (default 2)
    stream: dict[str, str] = field(default_factory=dict)  # stdout or stderr (default stderr)


def text(value: str) -> bytes:
    return value.encode()


CASES = {
    "bad character, first line": Case(
        text(f"{replace(LINE, 0, '?')}\n{LINE}\n"), ("line 1, column 1: character '?'",)),
    "bad character, middle line": Case(
        text(f"{LINE}\n{replace(LINE, 10, '@')}\n{LINE}\n"), ("line 2, column 11: character '@'",)),
    "bad character, last line": Case(
        text(f"{LINE}\n{LINE}\n{replace(LINE, 80, '%')}"), ("line 3, column 81: character '%'",)),
    "bad character, first row of a grid": Case(
        text("?" + "\n".join(ROWS)[1:] + "\n"), ("line 1, column 1: character '?'",)),
    "unknown header line": Case(
        text(f"name,answer\n{LINE}\n"), ("line 1, column 1: token 'name' is not a number",)),
    "CSV header, a solution too short": Case(
        text(f"quizzes,solutions\n{LINE.replace('.', '0')},{SHORT_SOLUTION}\n"),
        ("line 2, column 83: solution: wrong cell count: found 12, expected 81",)),
    "CSV header, an empty puzzle column": Case(
        text(f"puzzle,solution\n,{LINE}\n"), ("line 2: no puzzle on this line",)),
    "wrong cell count": Case(text(LINE[:-1] + "\n"), ("line 1: 80 cells fits no supported shape",)),
    "prime side": Case(text("." * 49 + "\n"), ("line 1: a side of 7 fits no supported shape",)),
    "wrong count for the given shape": Case(
        text(LINE + "\n"), ("line 1: wrong cell count: found 81, expected 36 for 6x6",),
        options=("--shape", "6x6")),
    "value too large": Case(
        text("17" + " 0" * 255 + "\n"),
        ("line 1, column 1: value 17 is larger than 16, the largest digit of a 16x16 grid",)),
    "letter beyond the shape": Case(
        text(replace(LINE, 3, "x") + "\n"),
        ("line 1, column 4: character 'x' is not a digit of a 9x9 grid",)),
    "not a number in a numeric grid": Case(
        text("1, 2, x3" + ", 0" * 13 + "\n"), ("line 1, column 7: token 'x3' is not a number",)),
    "bad field in a tab-separated grid": Case(
        text("\n".join("\t".join(r) for r in [replace(ROWS[0], 1, "?"), *ROWS[1:]]) + "\n"),
        ("line 1, column 3: field '?' is not a digit",)),
    "duplicate givens": Case(
        text("8.8" + "." * 78 + "\n"),
        ("line 1, column 3: duplicate given: digit 8 twice in row 1 (r1c1 and r1c3)",),
        exits={"check": 1}, stream={"check": "stdout"}),
    "empty file": Case(b"", ("no puzzle found",)),
    "only comments": Case(text("# a comment\n\n# another\n[Puzzles]\n"), ("no puzzle found",)),
    "binary garbage": Case(bytes(random.Random(1).randrange(256) for _ in range(300)) + b"\x00",
                           ("line 1",)),
    "not UTF-8": Case(text(f"{LINE}\n# caf") + b"\xe9\n" + text(LINE + "\n"),
                      ("line 2, column 6: not UTF-8 text (byte 0xE9)",)),
    "UTF-16": Case(LINE.encode("utf-16"), ("line 1: UTF-16 text: save the file as UTF-8",)),
    "a NUL byte": Case(text(f"{LINE}\nab\x00\n"), ("line 2, column 3: binary data",)),
    "a directory instead of a file": Case(None, ("Is a directory",), path="directory"),
    "a missing file": Case(None, ("No such file or directory",), path="missing"),
    "mixed shapes with --shape": Case(
        text(f"{LINE}\n{'1234' + '.' * 12}\n"),
        ("line 2: wrong cell count: found 16, expected 81 for 9x9",), options=("--shape", "9x9")),
    "truncated grid": Case(text("\n".join(ROWS[:7]) + "\n"),
                           ("line 7: the grid ends after 7 rows of 9 cells",)),
    "a row one cell short": Case(text("\n".join(ROWS[:5] + [ROWS[5][:-1]] + ROWS[6:]) + "\n"),
                                 ("line 6: 8 cells in this row, 9 in a row of the grid",)),
    "torn last line": Case(text(f"{LINE}\n{LINE}\n{LINE[:40]}"),
                           ("line 3: 40 cells fits no supported shape",)),
    "a line too long": Case(text(f"{LINE}\n{'1' * 70000}\n"),
                            ("line 2: a line of 70,000 characters is too long",)),
    "random printable text": Case(text(random_printable(3)), ("line 1",)),
    "many bad lines": Case(
        text("".join(f"{LINE[:-1]}\n" for _ in range(25))),
        ("line 10: 80 cells", "15 more unreadable entries not shown (25 in all)")),
}


def _write(name: str, folder: Path) -> Path:
    """The path a case hands to the commands, with its content written once."""
    case = CASES[name]
    if case.path == "directory":
        return folder
    if case.path == "missing":
        return folder / "absent.txt"
    path = folder / f"{name.replace(' ', '-').replace(',', '')}.txt"
    path.write_bytes(case.content)
    return path


def _args(name: str, command: str, path: Path) -> list[str]:
    args = [command, *CASES[name].options, str(path)]
    if command == "rate":
        args.insert(1, "--no-guesses")
    return args


def _run(name: str, command: str, path: Path) -> subprocess.CompletedProcess:
    """One case through `main` in this process: its exit status and what it wrote."""
    return _run_args(_args(name, command, path))


def _run_args(args: list[str]) -> subprocess.CompletedProcess:
    """`sudoku-cp ARGS` through `main` in this process: its exit status and what it wrote."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exit_:  # argparse's own errors
            code = exit_.code if isinstance(exit_.code, int) else 1
        except Exception:  # noqa: BLE001 - kept as the traceback a user would see
            err.write(traceback.format_exc())
            code = 1
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def _spawn(name: str, command: str, path: Path) -> subprocess.CompletedProcess:
    """One case as a user starts it: `python -m sudokucp` in its own process."""
    return subprocess.run([sys.executable, "-m", "sudokucp", *_args(name, command, path)],
                          capture_output=True, text=True, errors="replace", timeout=120, cwd=ROOT)


@pytest.fixture(scope="module")
def paths(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bad")
    return {name: _write(name, folder) for name in CASES}


@pytest.fixture(scope="module")
def outcomes(paths) -> dict[tuple[str, str], subprocess.CompletedProcess]:
    """Every case through every command, once."""
    return {(name, command): _run(name, command, paths[name])
            for name in CASES for command in COMMANDS}


SPAWNED = [("bad character, first line", "solve"), ("not UTF-8", "rate"),
           ("duplicate givens", "check"), ("UTF-16", "solve")]


@pytest.mark.parametrize(("name", "command"), SPAWNED)
def test_a_real_process_ends_as_main_does(outcomes, paths, name, command):
    spawned, inside = _spawn(name, command, paths[name]), outcomes[name, command]
    assert "Traceback" not in spawned.stderr, spawned.stderr
    assert (spawned.returncode, spawned.stderr) == (inside.returncode, inside.stderr)
    assert untimed(spawned.stdout) == untimed(inside.stdout)


def untimed(text: str) -> str:
    """Output with its measured seconds blanked: the one part two runs may differ in."""
    return re.sub(r"\d+\.\d+ s\b", "- s", text)


def test_at_least_twenty_classes_of_bad_input():
    assert len(CASES) >= 20


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_gets_a_message_a_place_and_no_traceback(outcomes, name, command):
    case, out = CASES[name], outcomes[name, command]
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == case.exits.get(command, 2), (out.returncode, out.stderr)
    said = out.stdout if case.stream.get(command) == "stdout" else out.stderr
    for fragment in case.says:
        assert fragment in said, (fragment, said)


def test_a_bad_line_does_not_stop_the_good_ones(outcomes):
    solved = outcomes["bad character, first line", "solve"]
    assert solved.stdout.count("SOLVED") == 1
    checked = outcomes["bad character, middle line", "check"]
    assert checked.stdout.count("INVALID") == 2  # two readable grids with empty cells
    rated = outcomes["not UTF-8", "rate"]
    assert "easy 2" in rated.stdout


def test_many_bad_lines_show_ten_in_full(outcomes):
    lines = outcomes["many bad lines", "solve"].stderr.splitlines()
    assert len(lines) == 11 and "line 11" not in "".join(lines)


# --- bench: another command's code; only its exit status and the absence of a traceback ------

@pytest.mark.parametrize("name", ["bad character, first line", "random printable text",
                                  "CSV header, an empty puzzle column"])
def test_bench_on_bad_input_fails_without_traceback(tmp_path, name):
    path = tmp_path / "bad.txt"
    path.write_bytes(CASES[name].content)
    out = _run_args(["bench", "--backends", "naive", "--puzzles", str(path), "--out",
                     str(tmp_path / "out"), "--timeout", "5"])
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr
