"""The exporters and their decoders: every format round-trips through a solver that knows
nothing of Sudoku (pycosat on the DIMACS; the OPB and the XCSP3 read by small readers of this
file and handed to pycosat; MiniZinc and Gecode on the .mzn, .dzn and .fzn) back to a grid the
judge accepts, for 4x4 to 25x25; an UNSAT grid comes back UNSAT from every format; output that
cannot be read is a DecodeError saying why; the export and decode commands."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from itertools import combinations, product
from pathlib import Path

import pytest

from sudokucp.check import is_solution
from sudokucp.cli import main
from sudokucp.io.exporters import (
    FORMATS,
    DecodeError,
    WrongModel,
    decode,
    export,
    instance_header,
    model_text,
)
from sudokucp.io.exporters.answer import MAX_LINE
from sudokucp.io.exporters.cnf import read_sat
from sudokucp.io.exporters.mzn import read_minizinc
from sudokucp.io.exporters.xcsp3 import read_xcsp3
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import Puzzle, Shape

pycosat = pytest.importorskip("pycosat", reason="pycosat (the [sat] extra) is not installed")

SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4), Shape(4, 4), Shape(5, 5)]
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NO_PLACE = Puzzle(Shape(2, 2), (1, 2, 3, 0, 0, 0, 0, 4, *[0] * 8), "no-place")  # r1c4 needs 4
CLASH = Puzzle(Shape(3, 3), (5, 5) + (0,) * 79, "clash")  # two 5s in row 1
MINIZINC = shutil.which("minizinc")
needs_minizinc = pytest.mark.skipif(MINIZINC is None, reason="MiniZinc is not installed "
                                    "(apt-get install minizinc flatzinc)")


def holed(shape: Shape, share: float = 0.4, seed: int = 1) -> Puzzle:
    """A solved grid of the shape with a share of its cells blanked."""
    r, c, n = shape.box_rows, shape.box_cols, shape.side
    full = [((i % r) * c + i // r + j) % n + 1 for i in range(n) for j in range(n)]
    rng = random.Random(seed)
    return Puzzle(shape, tuple(0 if rng.random() < share else v for v in full), str(shape))


# --- solvers that know nothing of Sudoku ----------------------------------------------------------

def solve_dimacs(text: str) -> str:
    """pycosat on a DIMACS file, answering as a SAT competition solver does."""
    problem = re.search(r"^p cnf (\d+) (\d+)$", text, re.MULTILINE)
    body = [line for line in text.splitlines() if line and line[0] not in "cp"]
    found = [[int(v) for v in line.split()[:-1]] for line in body]
    assert problem and len(found) == int(problem.group(2)), "the p line counts the clauses"
    assert all(line.split()[-1] == "0" for line in body)
    return sat_output(found, int(problem.group(1)))


def sat_output(found: list[list[int]], variables: int) -> str:
    model = pycosat.solve(found, vars=variables)
    if model == "UNSAT":
        return "c pycosat\ns UNSATISFIABLE\n"
    return "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n"


OPB_TERM = re.compile(r"([+-]1) x(\d+)")


def solve_opb(text: str) -> str:
    """The OPB's constraints (unit weights) as clauses, to pycosat; PB competition output."""
    head = re.match(r"\* #variable= (\d+) #constraint= (\d+)", text)
    rows = [line for line in text.splitlines() if line and not line.startswith("*")]
    assert head and len(rows) == int(head.group(2))
    found: list[list[int]] = []
    for row in rows:
        terms = OPB_TERM.findall(row)
        relation, bound = re.search(r"(>=|=) (-?\d+) ;$", row).groups()
        weight, names = {int(w) for w, _ in terms}, [int(v) for _, v in terms]
        assert len(weight) == 1, row
        found += cardinality(names, weight.pop(), relation, int(bound), row)
    model = pycosat.solve(found, vars=int(head.group(1)))
    if model == "UNSAT":
        return "s UNSATISFIABLE\n"
    return "s SATISFIABLE\nv " + " ".join(f"x{v}" if v > 0 else f"-x{-v}" for v in model) + "\n"


def cardinality(names: list[int], weight: int, relation: str, bound: int,
                row: str) -> list[list[int]]:
    """Clauses of sum(weight * x) relation bound, for the cases the exporter writes."""
    least = bound if weight > 0 else None  # at least `least` true
    most = -bound if weight < 0 else None  # at most `most` true
    if relation == "=" and weight > 0:
        least, most = bound, bound
    out = []
    if least is not None:
        assert least == 1, row
        out.append(names)
    if most == 1:
        out += [[-a, -b] for a, b in combinations(names, 2)]
    elif most is not None:
        assert most == len(names) - 1, row
        out.append([-v for v in names])
    return out


def solve_xcsp3(text: str) -> str:
    """A small XCSP3 reader (an integer array, allDifferent groups, instantiations, conflict
    tables), its CSP as clauses (one variable per variable and value), to pycosat; XCSP3
    competition output."""
    root = ET.fromstring(re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL))
    array = root.find("variables/array")
    rows, cols = map(int, re.findall(r"\[(\d+)\]", array.get("size")))
    low, high = map(int, array.text.split(".."))
    values = range(low, high + 1)
    size = len(values)

    def lit(cell: int, value: int) -> int:
        return cell * size + value - low + 1

    def cells(token: str) -> list[int]:
        axes = [range(n) if not part else range(int(part.split("..")[0]),
                                                int(part.split("..")[-1]) + 1)
                for part, n in zip(re.findall(r"\[([0-9.]*)\]", token), (rows, cols))]
        return [i * cols + j for i, j in product(*axes)]

    found = [[lit(cell, v) for v in values] for cell in range(rows * cols)]
    found += [[-lit(cell, a), -lit(cell, b)] for cell in range(rows * cols)
              for a, b in combinations(values, 2)]
    for group in root.iter("group"):
        assert group.find("allDifferent").text.strip() == "%..."
        for args in group.iter("args"):
            scope = [c for token in args.text.split() for c in cells(token)]
            found += [[-lit(a, v), -lit(b, v)] for a, b in combinations(scope, 2) for v in values]
    for fixed in root.iter("instantiation"):
        scope = [c for token in fixed.find("list").text.split() for c in cells(token)]
        found += [[lit(c, int(v))] for c, v in zip(scope, fixed.find("values").text.split())]
    for table in root.iter("extension"):
        scope = [c for token in table.find("list").text.split() for c in cells(token)]
        for row in re.findall(r"\(([^)]*)\)", table.find("conflicts").text):
            found.append([-lit(c, int(v)) for c, v in zip(scope, row.split(","))])
    model = pycosat.solve(found, vars=rows * cols * size)
    if model == "UNSAT":
        return "s UNSATISFIABLE\n"
    chosen = {(v - 1) // size: (v - 1) % size + low for v in model if v > 0}
    digits = " ".join(str(chosen[cell]) for cell in range(rows * cols))
    return (f"s SATISFIABLE\nv <instantiation type='solution'> <list> x[][] </list> "
            f"<values> {digits} </values> </instantiation>\n")


IN_PROCESS = {"dimacs": solve_dimacs, "opb": solve_opb, "xcsp3": solve_xcsp3}


def run_minizinc(fmt: str, puzzle: Puzzle, folder: Path) -> str:
    """MiniZinc (Gecode) on the exported .mzn, or sudoku.mzn with the .dzn; fzn-gecode on
    the .fzn."""
    path = folder / f"p{FORMATS[fmt].suffix}"
    path.write_text(export(puzzle, fmt))
    if fmt == "dzn":
        (folder / "sudoku.mzn").write_text(model_text())
        argv = [MINIZINC, "--solver", "gecode", str(folder / "sudoku.mzn"), str(path)]
    elif fmt == "mzn":
        argv = [MINIZINC, "--solver", "gecode", str(path)]
    else:
        argv = [shutil.which("fzn-gecode") or "fzn-gecode", str(path)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True).stdout


# --- round trips ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt, shape", [("dimacs", s) for s in SHAPES]
                         + [("xcsp3", s) for s in SHAPES[:5]],  # 25x25: slow in the reader here
                         ids=str)
def test_a_round_trip_gives_a_solution(fmt, shape):
    puzzle = holed(shape)
    text = export(puzzle, fmt)
    assert instance_header(text).puzzle == puzzle and instance_header(text).format == fmt
    answer = decode(IN_PROCESS[fmt](text), fmt, shape)
    assert answer.verdict == "SAT" and is_solution(puzzle, answer.grids[0])


@pytest.mark.parametrize("encoding", ["minimal", "extended"])
@pytest.mark.parametrize("shape", SHAPES[:5], ids=str)
def test_opb_and_both_encodings_round_trip(shape, encoding):
    puzzle = holed(shape, seed=2)
    for fmt, solve in (("opb", solve_opb), ("dimacs", solve_dimacs)):
        answer = decode(solve(export(puzzle, fmt, encoding=encoding)), fmt, shape)
        assert is_solution(puzzle, answer.grids[0]), (fmt, encoding)


@needs_minizinc
@pytest.mark.parametrize("fmt", ["mzn", "dzn", "fzn"])
@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4)], ids=str)
def test_minizinc_formats_round_trip(fmt, shape, tmp_path):
    puzzle = holed(shape)
    answer = decode(run_minizinc(fmt, puzzle, tmp_path), fmt, shape)
    assert answer.verdict == "SAT" and is_solution(puzzle, answer.grids[0])


@pytest.mark.parametrize("fmt, rounds", [("dimacs", 29), ("opb", 3), ("xcsp3", 3)])
def test_a_blocked_grid_leads_to_the_other_solutions(fmt, rounds):
    """Ruling out the grids found gives a new solution each time; in DIMACS, all 28 and then
    UNSAT."""
    puzzle = parse_grid("809000007076089000030070890020708010700000002060120470697804231"
                          "000906700000007906")  # 28 solutions
    seen: list[tuple[int, ...]] = []
    for _ in range(rounds):
        answer = decode(IN_PROCESS[fmt](export(puzzle, fmt, blocked=seen)), fmt, puzzle.shape)
        if answer.verdict == "UNSAT":
            break
        assert answer.grids[0] not in seen and is_solution(puzzle, answer.grids[0])
        seen.append(answer.grids[0])
    assert len(seen) == min(rounds, 28) and answer.verdict == ("UNSAT" if rounds > 28 else "SAT")


@pytest.mark.parametrize("puzzle", [NO_PLACE, CLASH], ids=lambda p: p.name)
def test_an_unsat_grid_is_unsat_in_every_format(puzzle, tmp_path):
    for fmt, solve in IN_PROCESS.items():
        answer = decode(solve(export(puzzle, fmt)), fmt, puzzle.shape)
        assert (answer.verdict, answer.complete, answer.grids) == ("UNSAT", True, []), fmt
    if MINIZINC is None:
        pytest.skip("the in-process formats passed; MiniZinc is not installed for mzn/dzn/fzn")
    for fmt in ("mzn", "dzn", "fzn"):
        answer = decode(run_minizinc(fmt, puzzle, tmp_path), fmt, puzzle.shape)
        assert (answer.verdict, answer.complete) == ("UNSAT", True), fmt


# --- reading what solvers print -------------------------------------------------------------------

ACE_4X4 = ("\x1b[92ms SATISFIABLE\x1b[0m\n\x1b[92m\nv\x1b[0m  <instantiation id='sol1' "
           "type='solution'> <list> x[][] </list> <values> 1 4 2 3 2 3 4 1 3 2 1 4 4 1 3 2 "
           "</values> </instantiation>\n\x1b[92m\nd WRONG DECISIONS\x1b[0m  0  (0.00 wrg/s)\n"
           "\x1b[92md CPU       \x1b[0m 1.106\n\x1b[91md INCOMPLETE EXPLORATION\x1b[0m\n")
CADICAL_TAIL = ("c conflicts:                    29     39944.90    per second\n"
                "c decisions:                    40     55096.42    per second\n"
                "c total process time since initialization:         0.02    seconds\n")


def test_recorded_ace_output_is_read():
    """ACE 2.6's own output on a 4x4 instance (colours and all), recorded."""
    answer = read_xcsp3(ACE_4X4, Shape(2, 2))
    assert answer.grids == [(1, 4, 2, 3, 2, 3, 4, 1, 3, 2, 1, 4, 4, 1, 3, 2)]
    assert answer.stats == {"wrong_decisions": 0, "solver_s": 1.106} and not answer.complete


def test_statistics_lines_of_known_solvers():
    model = " ".join(str(-v if v % 4 != 1 else v) for v in range(1, 65))
    answer = read_sat(f"{CADICAL_TAIL}s SATISFIABLE\nv {model} 0\n", Shape(2, 2), 10)
    assert answer.stats == {"conflicts": 29, "decisions": 40, "solver_s": 0.02}
    minisat = read_sat("SAT\n" + model + " 0\n", Shape(2, 2), 10)  # MiniSat's result file
    assert minisat.grids == answer.grids == [(1,) * 16]  # decoded as written: the judge refuses


@pytest.mark.parametrize("text, code, words", [
    ("", 0, "no verdict"),
    ("hello world\n", 0, "neither a verdict, a model nor a comment: 'hello world'"),
    ("s SATISFIABLE\n", 10, "prints no model"),
    ("s SATISFIABLE\nv 1 -2 3\n", 10, "without its closing 0"),
    ("s SATISFIABLE\nv 1 0\n", 10, "gives no digit to 15 cells"),
    ("s SATISFIABLE\nv 1 2 0\n", 10, "puts 1 and 2 in r1c1"),
    ("s SATISFIABLE\nv 99 0\n", 10, "literal 99 is no variable"),
    ("s UNSATISFIABLE\n", 10, "exit status 10 says SAT"),
    ("s MAYBE\n", 0, "unknown verdict"),
])
def test_sat_output_that_cannot_be_read(text, code, words):
    with pytest.raises(DecodeError, match=re.escape(words)):
        read_sat(text, Shape(2, 2), code)


@pytest.mark.parametrize("text, words", [
    ("", "no solution"),
    ("[1, 2, 3]\n----------\n", "3 values, not the 16"),
    ("[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2,\n", "ends inside a solution"),
    ("x = 7;\n----------\n", "holds no [...] list"),
    ("=====ERROR=====\n", "reports =====ERROR====="),
    ("[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 17]\n----------\n", "r4c4 is 17"),
])
def test_minizinc_output_that_cannot_be_read(text, words):
    with pytest.raises(DecodeError, match=re.escape(words)):
        read_minizinc(text, Shape(2, 2))


@pytest.mark.parametrize("text, words", [
    ("", "no verdict"),
    ("s SATISFIABLE\n", "no complete <instantiation>"),
    ("s SATISFIABLE\nv <instantiation> <list> x[0][] </list> <values> 1 2 3 4 </values> "
     "</instantiation>\n", "gives 4 of the 16 cells"),
    ("s SATISFIABLE\nv <instantiation> <list> x[][] </list> <values> 1 2 </values> "
     "</instantiation>\n", "16 variables with 2 values"),
    ("s SATISFIABLE\nv <instantiation> <list> y[][] </list> <values> 1 </values> "
     "</instantiation>\n", "not a variable of the array x"),
])
def test_xcsp3_output_that_cannot_be_read(text, words):
    with pytest.raises(DecodeError, match=re.escape(words)):
        read_xcsp3(text, Shape(2, 2))


def test_minizinc_markers():
    grid = "[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]\n----------\n"
    assert read_minizinc(grid + "==========\n", Shape(2, 2)).complete
    assert not read_minizinc(grid, Shape(2, 2)).complete
    unsat = read_minizinc("=====UNSATISFIABLE=====\n", Shape(2, 2))
    assert (unsat.verdict, unsat.complete) == ("UNSAT", True)
    fzn = read_minizinc("x = array2d(1..2, 1..8, " + grid.split("\n")[0] + ");\n----------\n",
                        Shape(2, 2))
    assert fzn.grids[0][:4] == (1, 2, 3, 4)


# --- the commands ---------------------------------------------------------------------------------

def test_export_writes_one_file_per_puzzle_and_decode_judges(tmp_path, capsys):
    source = tmp_path / "two.txt"
    source.write_text(f"{HARD}\nnot a grid\n{holed(Shape(3, 3)).to_line()}\n")
    code = main(["export", str(source), "--to", "dimacs", "--out", str(tmp_path / "out")])
    captured = capsys.readouterr()
    assert code == 2 and "line 2" in captured.err  # the bad entry is named, the others written
    written = captured.out.split()
    assert [Path(p).name for p in written] == ["two-0001.cnf", "two-0003.cnf"]
    first = Path(written[0])
    assert "c puzzle: two:1 " in first.read_text()
    (tmp_path / "answer.txt").write_text(solve_dimacs(first.read_text()))
    assert main(["decode", str(first), str(tmp_path / "answer.txt")]) == 0
    out = capsys.readouterr().out.split()
    assert out[0] == "SOLVED" and is_solution(parse_grid(HARD), parse_grid(out[1]).cells)


def test_decode_says_wrong_unsat_and_unreadable(tmp_path, capsys):
    path = tmp_path / "p.cnf"
    path.write_text(export(parse_grid(HARD), "dimacs"))
    right = solve_dimacs(path.read_text())
    assert right.startswith("s SATISFIABLE\nv -1 -2 -3 4 -5 ")  # r1c1 holds its given 4
    wrong = right.replace("v -1 -2 -3 4 ", "v -1 -2 3 -4 ", 1)  # a planted wrong model: a 3
    (tmp_path / "wrong.txt").write_text(wrong)
    assert main(["decode", str(path), str(tmp_path / "wrong.txt")]) == 1
    assert capsys.readouterr().out.startswith("WRONG: r1c1 changes the given 4 to 3")
    (tmp_path / "unsat.txt").write_text("s UNSATISFIABLE\n")
    assert main(["decode", str(path), str(tmp_path / "unsat.txt")]) == 1
    assert capsys.readouterr().out == "UNSAT (the search was exhausted)\n"
    (tmp_path / "junk.txt").write_text("Segmentation fault\n")
    assert main(["decode", str(path), str(tmp_path / "junk.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "neither a verdict" in err
    assert main(["decode", str(tmp_path / "junk.txt"), str(tmp_path / "junk.txt")]) == 2
    assert "not a file of `sudoku-cp export`" in capsys.readouterr().err


@needs_minizinc
def test_export_dzn_writes_the_model_once(tmp_path, capsys):
    source = tmp_path / "two.txt"
    source.write_text(f"{HARD}\n{holed(Shape(3, 3)).to_line()}\n")
    assert main(["export", str(source), "--to", "dzn", "--out", str(tmp_path)]) == 0
    names = [Path(p).name for p in capsys.readouterr().out.split()]
    assert names == ["sudoku.mzn", "two-0001.dzn", "two-0002.dzn"]
    out = subprocess.run([MINIZINC, str(tmp_path / "sudoku.mzn"), str(tmp_path / "two-0001.dzn")],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    (tmp_path / "out.txt").write_text(out)
    assert main(["decode", str(tmp_path / "two-0001.dzn"), str(tmp_path / "out.txt")]) == 0


def test_export_fzn_without_minizinc_says_how_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    (tmp_path / "one.txt").write_text(HARD + "\n")
    assert main(["export", str(tmp_path / "one.txt"), "--to", "fzn",
                 "--out", str(tmp_path)]) == 2
    assert "apt-get install minizinc" in capsys.readouterr().err


# --- a contradictory model; a stream of output held in small constant memory ----------------------

FOUR = "1234341221434321"  # a solved 4x4 grid, its model below


def four_model(extra: str = "") -> str:
    """The 's' and 'v' lines of FOUR's model (variables cell*4 + d), `extra` literals first."""
    true = {c * 4 + int(d) for c, d in enumerate(FOUR)}
    return "s SATISFIABLE\nv " + extra + " ".join(str(v if v in true else -v)
                                                 for v in range(1, 65)) + " 0\n"


def test_decode_refuses_a_contradictory_model_as_wrong(tmp_path, capsys):
    both = four_model("-1 ")  # 1 (digit 1 in r1c1) true and false
    with pytest.raises(WrongModel, match=r"the model holds both 1 and -1 \(1 in r1c1 and not\): "
                                         r"a contradictory model"):
        read_sat(both, Shape(2, 2), 10)
    assert read_sat(four_model("1 "), Shape(2, 2), 10).grids[0] == tuple(map(int, FOUR))
    path = tmp_path / "p.cnf"
    path.write_text(export(parse_grid("1..." + "." * 12), "dimacs"))
    (tmp_path / "both.txt").write_text(both)
    assert main(["decode", str(path), str(tmp_path / "both.txt")]) == 1
    out = capsys.readouterr().out
    assert out.startswith("WRONG: the model holds both 1 and -1") and out.count("\n") == 1
    (tmp_path / "two.txt").write_text("s SATISFIABLE\nv 1 2 0\n")
    assert main(["decode", str(path), str(tmp_path / "two.txt")]) == 1
    assert capsys.readouterr().out.startswith("WRONG: the model puts 1 and 2 in r1c1")


class Comments:
    """A solver's output as a stream of `lines` comment lines then FOUR's model, made as it is
    read: nothing of it exists before the reader asks for it."""

    def __init__(self, lines: int, tail: str) -> None:
        self.lines, self.tail, self.served = lines, tail.splitlines(keepends=True), 0

    def readline(self, size: int = -1) -> str:
        self.served += 1
        if self.served <= self.lines:
            return f"c {'x' * 200} {self.served}\n"
        return self.tail.pop(0) if self.tail else ""


def test_decode_streams_the_output_keeping_only_the_model():
    import tracemalloc

    lines = 50_000  # 10 MB of comments
    tracemalloc.start()
    try:
        answer = read_sat(Comments(lines, four_model()), Shape(2, 2), 10)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer.grids == [tuple(map(int, FOUR))]
    assert peak < 1_000_000  # the comments (10 MB) were never held, only a line at a time


def test_decode_caps_what_it_keeps(tmp_path):
    many = "s SATISFIABLE\n" + "v " + " ".join(["1"] * 200) + "\n"  # past twice the 64 variables
    with pytest.raises(DecodeError, match="more than 128 literals"):
        read_sat(many, Shape(2, 2), 10)
    long_line = tmp_path / "long.txt"
    long_line.write_text("s SATISFIABLE\nv " + "1 " * (MAX_LINE // 2 + 1) + "0\n")
    with long_line.open() as handle, pytest.raises(DecodeError, match="line 2: longer than"):
        read_sat(handle, Shape(2, 2), 10)
    cut = tmp_path / "cut.txt"
    cut.write_text("c " + "x" * (3 << 20) + "\n" + four_model())
    with cut.open() as handle:
        assert read_sat(handle, Shape(2, 2), 10).grids == [tuple(map(int, FOUR))]
    blocks = "[1, 1, 1, 1]\n" * 100_000  # 1.2 MB of one solution, never closed
    with pytest.raises(DecodeError, match="a solution of more than"):
        read_minizinc(blocks, Shape(2, 2))
    with pytest.raises(DecodeError, match="'v' lines of more than"):
        read_xcsp3("s SATISFIABLE\n" + "v <instantiation>\n" * 300_000, Shape(2, 2))
