"""Imported structures (f-puzzles objects, killer JSON) checked against their schemas before use:
a bad field is one line naming it, a bad record leaves the others of its file running, no value
is silently changed, and a huge size is refused at once."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sudokucp.cli import main
from sudokucp.io.formats import parse_grid, read_puzzles
from sudokucp.io.fpuzzles import fpuzzles_puzzle, killer_cages, to_fpuzzles_json
from sudokucp.puzzle import PuzzleError, Shape

lzstring = pytest.importorskip("lzstring")

GOOD = "1......2.3......"  # a 4x4 grid with 2 solutions: solved, rated, exported
OTHER = ".2....1........."
HUGE = 10**30


@contextmanager
def never_hangs(seconds: int = 60) -> Iterator[None]:
    """Fail, rather than hang the suite, where a refusal never comes (not a speed test)."""

    def stop(signum, frame):
        raise AssertionError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def fpuzzles(cell: dict | None = None, **fields) -> dict:
    """The f-puzzles object of GOOD with top-level fields and r1c2's fields replaced."""
    data = json.loads(json.dumps(to_fpuzzles_json(parse_grid(GOOD))))
    data.update(fields)
    if cell is not None:
        data["grid"][0][1].update(cell)
    return data


def packed(data: object) -> str:
    return lzstring.LZString().compressToBase64(json.dumps(data))


BAD_FPUZZLES = {  # case: (object, the message)
    "killercage of strings": (fpuzzles(killercage=["x"]),
                              "f-puzzles: killercage[0]: 'x' is not an object {...}"),
    "killercage cells 5": (fpuzzles(killercage=[{"cells": 5, "value": "3"}]),
                           "f-puzzles: killercage[0].cells: 5 is not a list"),
    "extraregion of strings": (fpuzzles(extraregion=["x"]),
                               "f-puzzles: extraregion[0]: 'x' is not an object {...}"),
    "pencil marks 5": (fpuzzles({"givenPencilMarks": 5}),
                       "f-puzzles: grid r1c2.givenPencilMarks: 5 is not a list"),
    "pencil marks of objects": (fpuzzles({"givenPencilMarks": [{"a": 1}]}),
                                'f-puzzles: grid r1c2.givenPencilMarks[0]: {"a": 1} is not a '
                                "digit of a 4x4 grid"),
    "size -9": (fpuzzles(size=-9), "f-puzzles: size: -9 is not from 4 to 35"),
    "size a string": (fpuzzles(size="9"), "f-puzzles: size: '9' is not a whole number"),
    "grid cut short": (fpuzzles(grid=[[{}]]), "f-puzzles: grid: not 4 rows of 4 cells"),
    "region off": (fpuzzles({"region": 7}), "f-puzzles: grid r1c2.region: 7 is not from 0 to 3"),
    "cage off the grid": (fpuzzles(killercage=[{"cells": ["R9C9"], "value": "3"}]),
                          "f-puzzles: killercage[0].cells[0]: R9C9 is off the 4x4 grid"),
}


@pytest.mark.parametrize("case", BAD_FPUZZLES)
def test_fpuzzles_fields_are_checked_in_one_line(case: str, tmp_path: Path, capsys) -> None:
    data, message = BAD_FPUZZLES[case]
    with pytest.raises(PuzzleError) as err:
        fpuzzles_puzzle(data)
    assert err.value.reason == message
    path = tmp_path / "one.json"
    path.write_text(json.dumps(data))
    assert main(["solve", str(path)]) == 2
    err_text = capsys.readouterr().err
    assert err_text.strip() == f"sudoku-cp: {path}: line 1: {message}"


def test_fpuzzles_killercage_of_strings_is_one_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "cages.txt"
    path.write_text(packed(fpuzzles(killercage=["x"])) + "\n")
    assert main(["solve", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"sudoku-cp: {path}: line 1: f-puzzles: killercage[0]: 'x' is not an object {{...}}"]


BAD_KILLERS = {
    "indices empty": ([{"result": 3, "indices": []}],
                      "killer JSON: [0].indices: a list of 0 items, not 1 to 35"),
    "index a string": ([{"result": 3, "indices": [[1, 1], [1, "x"]]}],
                       "killer JSON: [0].indices[1][1]: 'x' is not a whole number"),
    "index not a pair": ([{"result": 3, "indices": [[1, 1, 1]]}],
                         "killer JSON: [0].indices[0]: a list of 3 items, not 2 to 2"),
    "cage not an object": (["x"], "killer JSON: [0]: 'x' is not an object {...}"),
}


@pytest.mark.parametrize("case", BAD_KILLERS)
def test_killer_json_fields_are_checked_in_one_line(case: str, tmp_path: Path) -> None:
    cages, message = BAD_KILLERS[case]
    with pytest.raises(PuzzleError) as err:
        killer_cages(cages)
    assert err.value.reason == message


def test_json_nested_100000_deep_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["solve", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"sudoku-cp: {path}: line 1: JSON: nested too deep to read"]
    line = tmp_path / "deep.txt"
    line.write_text(packed(json.loads("[" * 500 + "]" * 500)) + "\n")  # no object: refused
    entries = read_puzzles(line)
    assert entries[0].error is not None


@pytest.fixture
def many(tmp_path: Path) -> Path:
    """Good grids around bad f-puzzles records, one a line."""
    bad = [packed(data) for data, _ in BAD_FPUZZLES.values()]
    path = tmp_path / "many.txt"
    path.write_text("\n".join([GOOD, *bad, OTHER]) + "\n")
    return path


@pytest.mark.parametrize("command", ["solve", "rate", "canon", "export", "overlap", "bench"])
def test_a_bad_record_leaves_the_other_records_running(command: str, many: Path, tmp_path: Path,
                                                       capsys) -> None:
    argv = {"solve": ["solve", str(many)], "rate": ["rate", str(many)],
            "canon": ["canon", str(many)],
            "export": ["export", str(many), "--to", "dimacs", "--out", str(tmp_path / "out")],
            "overlap": ["datasets", "overlap", str(many), str(many)],
            "bench": ["bench", "--puzzles", str(many), "--backends", "mrv", "--timeout", "20",
                      "--out", str(tmp_path / "bench")]}[command]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.startswith("sudoku-cp: ")
             and "noise warning" not in line]
    reads = 2 if command == "overlap" else 1  # overlap reads its two files
    assert len(lines) == reads * len(BAD_FPUZZLES) and "Traceback" not in err
    assert all(line.startswith(f"sudoku-cp: {many}: line ") for line in lines)
    if command == "bench":
        import csv

        with open(tmp_path / "bench" / "results.csv", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        assert [row["puzzle"] for row in rows] == ["many:1", f"many:{len(BAD_FPUZZLES) + 2}"]
    elif command == "export":
        assert len(list((tmp_path / "out").iterdir())) == 2
    elif command == "overlap":
        assert "2 puzzles" in out
    else:
        assert "many:1" in out and f"many:{len(BAD_FPUZZLES) + 2}" in out or command == "canon"
        assert len([line for line in out.splitlines() if line.strip()]) >= 2


VALUES = {  # each a value a reader once changed silently
    "pencil mark 12": (fpuzzles({"givenPencilMarks": [12]}),
                       "f-puzzles: grid r1c2.givenPencilMarks[0]: 12 is not a digit of a 4x4 grid"),
    "given 1.5": (fpuzzles({"value": 1.5, "given": True}),
                  "f-puzzles: grid r1c2.value: 1.5 is not a whole number"),
    "duplicate given": (fpuzzles({"value": 1, "given": True}),
                        "duplicate given: digit 1 twice in row 1 (r1c1 and r1c2)"),
    "killer index 1.5": ([{"result": 3, "indices": [[1, 1.5], [1, 2]]}],
                         "killer JSON: [0].indices[0][1]: 1.5 is not a whole number"),
    "killer result true": ([{"result": True, "indices": [[1, 1], [1, 2]]}],
                           "killer JSON: [0].result: true is not a whole number"),
}


@pytest.mark.parametrize("case", VALUES)
def test_values_are_refused_never_silently_changed(case: str) -> None:
    data, message = VALUES[case]
    with pytest.raises(PuzzleError) as err:
        (fpuzzles_puzzle if isinstance(data, dict) else killer_cages)(data)
    assert err.value.reason == message


def test_duplicate_fpuzzles_givens_read_as_text_files_say(tmp_path: Path) -> None:
    text_error = read_puzzles(["11..", "....", "....", "...."])[0].error
    path = tmp_path / "dup.txt"
    path.write_text(packed(fpuzzles({"value": 1, "given": True})) + "\n")
    error = read_puzzles(path)[0].error
    assert text_error is not None and error is not None
    assert error.reason.split(":")[0] == text_error.reason.split(":")[0] == "duplicate given"


@pytest.mark.parametrize("where", ["for_side", "for_cells", "parse", "fpuzzles", "killer",
                                   "cli"])
def test_huge_sizes_are_refused_at_once(where: str, capsys) -> None:
    with never_hangs():
        if where == "cli":
            with pytest.raises(SystemExit):
                main(["solve", "--shape", str(HUGE), "-"])
            assert "fits no supported shape" in capsys.readouterr().err
            return
        with pytest.raises(PuzzleError, match="35|no supported shape"):
            {"for_side": lambda: Shape.for_side(HUGE),
             "for_cells": lambda: Shape.for_cells(HUGE * HUGE),
             "parse": lambda: Shape.parse(f"{HUGE}x{HUGE}"),
             "fpuzzles": lambda: fpuzzles_puzzle(fpuzzles(size=HUGE)),
             "killer": lambda: killer_cages([{"result": 3, "indices": [[1, HUGE]]}])}[where]()


def test_a_negative_shape_names_the_range(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--shape", "-9", "-"])
    err = capsys.readouterr().err
    assert "a side of -9 fits no supported shape (sides 4 to 64" in err
    assert "invalid shape_arg value" not in err


@pytest.mark.parametrize(("cages", "message"), [
    ([{"cells": ["R1C1", "R1C1"], "value": "3"}], "f-puzzles: cage r1c1 r1c1 names a cell twice"),
    ([{"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R1C2"], "value": "2"}],
     "f-puzzles: cage r1c2 overlaps another cage"),
])
def test_cage_errors_name_cells_r1c1(cages: list, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        fpuzzles_puzzle(fpuzzles(killercage=cages))
    assert err.value.reason == message
    from sudokucp.rules import Cage, Rules

    assert Rules(cages=(Cage((0, 81), 5),)).problem(9) == ("cage r1c1 81 has cell 81 (row-major), "
                                                           "off the 9x9 grid")


LONG = "9" * 5000  # past the 4300 digits int() reads


@pytest.mark.parametrize(("text", "words"), [
    (f"# variant: killer\n{'.' * 16}\ncage 3: r{LONG}c1 r1c2\n",
     "line 3, column 9: 999999999999... (5000 digits) is larger than any grid's"),
    (f"# variant: killer\n{'.' * 16}\ncage {LONG}: r1c1 r1c2\n",
     "line 3, column 6: 999999999999... (5000 digits) is larger than any grid's"),
])
def test_a_number_of_5000_digits_is_one_line(text: str, words: str, tmp_path: Path,
                                             capsys) -> None:
    path = tmp_path / "long.txt"
    path.write_text(text)
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1 and words in err, err


def test_a_token_of_5000_digits_is_a_value_too_large() -> None:
    from sudokucp.io.tokens import build, value_of

    cells = [(value_of(LONG), LONG, 1, 1)] + [(0, ".", 1, k) for k in range(2, 17)]
    with pytest.raises(PuzzleError, match=r"column 1: value 999999999999\.\.\. \(5000 digits\) "
                                          r"is larger than 4"):
        build(cells, Shape(2, 2))
