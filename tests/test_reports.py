"""Every file in reports/ can be made again: it names the command that made it and the commit it
was made at (from a clean tree), and quotes no path of the machine it ran on. A table or a plot
is vouched for by the report beside it in its folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "reports"
TEXTS = (".md", ".html")  # a report: it names its command and commit itself
DATA = (".csv", ".jsonl", ".png", ".svg")  # vouched for by a report in the same folder
INDEX = REPORTS / "README.md"  # the commands of every report, made at no one commit
COMMAND = re.compile(r"(?:`|<code>)(?:python benchmarks/[\w./-]+\.py|sudoku-cp [a-z]+)\b"
                     r".*?(?:`|</code>)", re.DOTALL)
COMMIT = re.compile(r"\bcommit(?: of [^:\n]*)?:?\s+`?([0-9a-f]{7,40})\b")
DIRTY = re.compile(r"dirty tree|uncommitted", re.IGNORECASE)
MACHINE_PATH = re.compile(r"(?<![\w.<>~-])(/work/|/tmp/|/home/|/root/|/Users/)|\.venv/")


def files() -> list[Path]:
    return sorted(p for p in REPORTS.rglob("*") if p.is_file())


def named(path: Path) -> str:
    return str(path.relative_to(ROOT))


def texts() -> list[Path]:
    return [p for p in files() if p.suffix in TEXTS and p != INDEX]


@pytest.mark.parametrize("path", texts(), ids=named)
def test_a_report_names_its_command(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert COMMAND.search(text), (f"{named(path)}: no command that made it "
                                  f"(`python benchmarks/x.py ...` or `sudoku-cp ...`)")


@pytest.mark.parametrize("path", texts(), ids=named)
def test_a_report_names_a_clean_commit(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if COMMIT.search(line)]
    assert lines, f"{named(path)}: no commit it was made at ('commit: abc1234')"
    dirty = [line for line in lines if DIRTY.search(line)]
    assert not dirty, f"{named(path)}: made from a dirty tree: {dirty[0].strip()[:120]}"


@pytest.mark.parametrize("path", [p for p in files() if p.suffix in DATA], ids=named)
def test_data_stand_beside_a_report(path: Path) -> None:
    beside = [p for p in path.parent.iterdir() if p.suffix in TEXTS]
    assert beside, f"{named(path)}: no report in its folder names the command that made it"


@pytest.mark.parametrize("path", [p for p in files() if p.suffix != ".png"], ids=named)
def test_no_path_of_the_machine(path: Path) -> None:
    found = []
    with path.open(encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, 1):
            match = MACHINE_PATH.search(line)
            if match:
                found.append(f"line {number}: {line[max(0, match.start() - 20):match.end() + 40]}")
    assert not found, (f"{named(path)}: quotes a path of the machine it ran on (show it "
                       f"relative to the checkout, `~` or `<tmp>`): {found[0].strip()}")


def test_every_file_is_checked() -> None:
    unknown = [named(p) for p in files() if p.suffix not in TEXTS + DATA]
    assert not unknown, f"files of a kind these tests do not check: {unknown}"


def test_paths_are_shown_relative_to_the_checkout(tmp_path: Path) -> None:
    from sudokucp.reporting.provenance import shown_command, shown_paths

    root = tmp_path / "main"
    text = f"{root}/benchmarks/x.py --puzzles={tmp_path}/shared/royle17.txt in {root}/src."
    assert shown_paths(text, root) == ("benchmarks/x.py --puzzles=../shared/royle17.txt in "
                                       "src.")
    assert shown_command([f"{root}/benchmarks/x.py", "--out", "reports/x.md"],
                         root=root) == "python benchmarks/x.py --out reports/x.md"


def test_a_dirty_tree_is_said(tmp_path: Path) -> None:
    import subprocess

    from sudokucp.reporting.provenance import commit_line

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                       cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "code.py").write_text("x = 1\n")
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "r.md").write_text("old\n")
    git("add", ".")
    git("commit", "-q", "-m", "one")
    clean = commit_line(tmp_path)
    assert re.fullmatch(r"[0-9a-f]{7,40}", clean)
    (tmp_path / "reports" / "r.md").write_text("new\n")
    assert commit_line(tmp_path) == clean  # a report written again is no change of the code
    (tmp_path / "code.py").write_text("x = 2\n")
    assert commit_line(tmp_path) == f"{clean}, dirty tree: uncommitted changes"
