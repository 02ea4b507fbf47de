"""The README agrees with the program: its command list names every command of `sudoku-cp
--help` and each synopsis every option of that command's `--help`; its Python blocks run on a
fresh clone, offline, with an empty data-set cache."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT

from sudokucp.cli import COMMANDS, build_parser

README = (ROOT / "README.md").read_text(encoding="utf-8")
NOT_RUN = "<!-- not run by the tests: "  # put right above a Python block that cannot run here


def section(title: str) -> str:
    """The README's text under `## title`, up to the next such heading."""
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else None]


def synopses() -> dict[str, str]:
    """The Command line section's first block: each command's lines joined, by command."""
    block = section("Command line").split("```sh\n", 1)[1].split("```", 1)[0]
    found: dict[str, str] = {}
    for line in block.splitlines():
        words = line.split()
        if len(words) > 1 and words[0] == "sudoku-cp" and not words[1].startswith("-"):
            found[words[1]] = found.get(words[1], "") + " " + line.split("#", 1)[0]
    return found


def options(parser: argparse.ArgumentParser) -> set[str]:
    """The long options of a parser and of its subcommands' parsers, but --help."""
    found = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= options(sub)
        found |= {o for o in action.option_strings if o.startswith("--") and o != "--help"}
    return found


def command_parser(name: str) -> argparse.ArgumentParser:
    parser = build_parser(name)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def test_the_command_list_names_every_command():
    assert sorted(synopses()) == sorted(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_synopsis_names_every_option_of_its_help(name):
    text = synopses().get(name, "")
    missing = sorted(o for o in options(command_parser(name))
                     if not re.search(rf"{re.escape(o)}(?![\w-])", text))
    assert missing == [], f"the README's synopsis of {name} lacks {', '.join(missing)}"


def python_blocks() -> list[tuple[int, str]]:
    """(line, code) of each ```python block of the README, but those marked NOT_RUN."""
    blocks = []
    for found in re.finditer(r"```python\n(.*?)```", README, re.S):
        before = README[:found.start()].rstrip().splitlines()[-1]
        if not before.startswith(NOT_RUN):
            blocks.append((README[:found.start()].count("\n") + 1, found.group(1)))
    return blocks


def test_the_blocks_not_run_say_why():
    marks = [line for line in README.splitlines() if line.startswith(NOT_RUN)]
    assert len(marks) == README.count("```python") - len(python_blocks())
    assert all(line.endswith("-->") and len(line) > len(NOT_RUN) + 10 for line in marks)


@pytest.mark.parametrize("line,code", [pytest.param(line, code, id=f"line-{line}")
                                       for line, code in python_blocks()])
def test_a_python_block_runs_offline_with_an_empty_cache(tmp_path, line, code):
    """In the checkout's folder (the blocks name its files), with an empty data-set cache and a
    mirror that refuses every connection: no download can happen."""
    env = {**os.environ, "SUDOKUCP_CACHE": str(tmp_path / "cache"),
           "SUDOKUCP_MIRROR": "http://127.0.0.1:9", "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, f"README line {line}:\n{done.stderr[-3000:]}"
