"""--resume refuses another --seed than the isomorphs of the folder were drawn with: two sets of
forms would otherwise be counted side by side as one."""

from __future__ import annotations

from sudokucp.cli import main
from sudokucp.harness.runplan import key_seed, run_key

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_resume_refuses_another_seed_than_the_isomorphs_were_drawn_with(tmp_path, capsys):
    grids = tmp_path / "easy.txt"
    grids.write_text(EASY + "\n")
    bench = ["bench", "--puzzles", str(grids), "--backends", "mrv", "--isomorphs", "2",
             "--out", str(tmp_path / "out")]
    assert main([*bench, "--seed", "5"]) == 0
    log = (tmp_path / "out" / "results.jsonl").read_text()
    capsys.readouterr()
    for other in (["--seed", "6"], []):
        assert main([*bench, "--resume", *other]) == 2
        err = capsys.readouterr().err
        assert "drawn with --seed 5" in err and len(err.strip().splitlines()) == 1
    assert (tmp_path / "out" / "results.jsonl").read_text() == log  # nothing added
    assert main([*bench, "--resume", "--seed", "5"]) == 0


def test_key_seed_reads_the_seed_of_an_isomorph_key():
    assert key_seed(run_key("mrv", "abc", 1, 0, 2, 5)) == 5
    assert key_seed(run_key("mrv", "abc", 1, 3, 1, 0)) == 0
    assert key_seed(run_key("mrv", "abc", 1, 3)) is None
    assert key_seed("command:run=a~1@2|abc|1") is None  # a label may hold anything


def test_resume_refuses_another_seed_than_the_runs_were_shuffled_with(tmp_path, capsys):
    grids = tmp_path / "easy.txt"
    grids.write_text(EASY + "\n")
    bench = ["bench", "--puzzles", str(grids), "--backends", "mrv", "--repeat", "2",
             "--out", str(tmp_path / "out")]
    assert main(bench) == 0  # repeats: shuffled with seed 0
    capsys.readouterr()
    assert main([*bench, "--resume", "--seed", "3"]) == 2
    err = capsys.readouterr().err
    assert "made in the order of --seed 0" in err and len(err.strip().splitlines()) == 1
    assert main([*bench, "--resume", "--seed", "0"]) == 0
