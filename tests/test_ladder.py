"""The propagation ladder: rungs run in killable workers, the table, the files, the command."""

from pathlib import Path

import pytest

from sudokucp.backends import backend_class
from sudokucp.cli import main
from sudokucp.io.formats import load_puzzles
from sudokucp.teaching import ladder

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
TELEGRAM = PUZZLES / "seeds" / "004-telegram.txt"
HARD = PUZZLES / "seeds" / "001-anti-backtracking.txt"


def installed(rungs):
    return [r for r in rungs if backend_class(r.spec.partition(":")[0]).available()]


def test_more_inference_never_grows_the_tree_on_the_seeds_telegram():
    rungs = installed(ladder.RUNGS)
    runs = ladder.climb([("telegram", load_puzzles(TELEGRAM))], rungs, timeout=30, jobs=2)
    assert [r.rung for r in runs] == [r.key for r in rungs]
    assert all(r.solved and r.status == "solved" for r in runs)
    nodes = {r.rung: r.nodes for r in runs}
    assert nodes["none"] > nodes["fc"] > nodes["fc+mrv"] > nodes["singles"] == 0
    rows = ladder.table(runs, rungs)
    assert [row["rung"] for row in rows] == [r.key for r in rungs]
    assert not any(row["lower"] for row in rows)
    assert rows[0]["shrink"] is None and rows[1]["shrink_grids"] == 1
    assert rows[1]["shrink"] == (nodes["none"] + 1) / (nodes["fc"] + 1)


def test_a_hopeless_rung_times_out_and_the_table_says_it_is_a_lower_bound(tmp_path):
    rungs = ladder.pick_rungs("none,singles")
    runs = ladder.climb([("hard", load_puzzles(HARD))], rungs, timeout=0.3)
    plain, singles = runs
    assert (plain.solved, plain.status, plain.seconds >= 0.3) == (False, "timeout", True)
    assert plain.nodes and plain.nodes >= 1024  # the work done before the clock stopped it
    assert singles.solved
    rows = ladder.write(runs, rungs, 0.3, tmp_path)
    assert rows[0]["lower"] and rows[0]["timeouts"] == 1 and not rows[1]["lower"]
    text = (tmp_path / "ladder.md").read_text()
    assert "| hard | 9x9 | `none` |" in text and "≥" in text
    assert (tmp_path / "ladder.png").stat().st_size > 1000
    assert (tmp_path / "ladder_runs.csv").read_text().count("\n") == 3


def test_rung_names_are_checked():
    assert [r.key for r in ladder.pick_rungs("fc,none")] == ["none", "fc"]
    with pytest.raises(ValueError, match="unknown rung 'mac'.*fc\\+mrv"):
        ladder.pick_rungs("fc,mac")


def test_the_command_writes_its_report(tmp_path, capsys):
    out = tmp_path / "report"
    code = main(["ladder", str(TELEGRAM), str(PUZZLES / "generated" / "4x4.txt"), "--sample", "3",
                 "--rungs", "fc+mrv,singles", "--out", str(out), "--timeout", "10"])
    assert code == 0
    table = capsys.readouterr().out
    assert "| 004-telegram | 9x9 | `fc+mrv` |" in table and "| 4x4 | 4x4 | `singles` |" in table
    assert "3 / 3" in table
    assert {p.name for p in out.iterdir()} >= {"ladder.md", "ladder.csv", "ladder_runs.csv",
                                               "ladder.png"}
    assert "sudoku-cp ladder" in (out / "ladder.md").read_text()


def test_bad_options_get_a_message(capsys):
    assert main(["ladder", str(TELEGRAM), "--rungs", "bogus"]) == 2
    assert "unknown rung 'bogus'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["ladder", str(TELEGRAM), "--timeout", "0"])
    assert "must be positive" in capsys.readouterr().err


def test_bad_files_get_a_message(tmp_path, capsys):
    assert main(["ladder", str(tmp_path / "absent.txt")]) == 2
    assert "absent.txt: no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("12345678\n")
    assert main(["ladder", str(bad), "--out", str(tmp_path)]) == 2
    assert "bad.txt" in capsys.readouterr().err

