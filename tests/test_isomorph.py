"""The symmetry group, random isomorphs and minlex canonical forms; the canon command."""

from __future__ import annotations

import random
from math import factorial
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokucp import isomorph
from sudokucp.backends import get_backend
from sudokucp.cli import main
from sudokucp.cli.canon import add_canon
from sudokucp.cli.common import Parser
from sudokucp.generators.generator import fill_grid
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import Puzzle, Shape

SHAPES = {"4x4": Shape(2, 2), "6x6": Shape(2, 3), "9x9": Shape(3, 3), "12x12": Shape(3, 4),
          "16x16": Shape(4, 4)}
GENERATED = Path(__file__).parent.parent / "puzzles" / "generated"


def puzzles_of(name: str) -> list[Puzzle]:
    """The puzzles of puzzles/generated/<name>.txt."""
    from sudokucp.io.formats import iter_entries

    found = [e.puzzle for e in iter_entries(str(GENERATED / f"{name}.txt"), shape=None)]
    return [p for p in found if p is not None]


def random_puzzle(shape: Shape, seed: int, keep: float) -> tuple[int, ...]:
    """A full grid with each cell kept with probability `keep` (not always unique)."""
    rng = random.Random(seed)
    return tuple(v if rng.random() < keep else 0 for v in fill_grid(shape, rng))


def test_group_order_matches_the_literature() -> None:
    assert isomorph.group_order(SHAPES["4x4"]) == 3072 == factorial(4) * 128
    assert isomorph.group_order(SHAPES["9x9"]) == factorial(9) * 3_359_232
    assert 3_359_232 == 2 * 6**8
    assert isomorph.group_order(SHAPES["6x6"]) == factorial(6) * (3 * 2**3 * 2) * (2 * 6**2)
    for name in ("4x4", "6x6"):  # the geometric part, counted one by one
        geometric = sum(1 for _ in isomorph.geometric_transforms(SHAPES[name]))
        assert geometric * factorial(SHAPES[name].side) == isomorph.group_order(SHAPES[name])


def test_transposition_only_for_square_boxes() -> None:
    t = isomorph.identity(SHAPES["6x6"])
    with pytest.raises(ValueError, match="cannot be transposed"):
        isomorph.Transform(t.shape, t.digits, t.bands, t.band_rows, t.stacks, t.stack_cols, True)
    with pytest.raises(ValueError, match="not a transform"):
        isomorph.Transform(t.shape, t.digits, (0, 0, 1), t.band_rows, t.stacks, t.stack_cols)


@pytest.mark.parametrize(("name", "count"), [("4x4", 200), ("6x6", 200), ("9x9", 200),
                                             ("12x12", 20), ("16x16", 20)])
def test_transforms_invert_and_keep_the_canonical_form(name: str, count: int) -> None:
    shape, rng = SHAPES[name], random.Random(name)
    base = puzzles_of(name if name != "9x9" else "9x9-expert")
    for i in range(count):
        puzzle = base[i % len(base)]
        moved, t = isomorph.transform(puzzle, rng)
        assert isomorph.apply(isomorph.invert(t), moved.cells) == puzzle.cells
        if i < {12: 4, 16: 2}.get(shape.side, count):  # large shapes: a few forms (~1 s each)
            assert isomorph.canonical(moved) == isomorph.canonical(puzzle)
    assert any(isomorph.apply(isomorph.random_transform(shape, rng), base[0].cells)
               != base[0].cells for _ in range(3))


@pytest.mark.parametrize("name", ["4x4", "6x6", "9x9"])
def test_a_solution_maps_back_exactly(name: str) -> None:
    shape, rng, mrv = SHAPES[name], random.Random(1), get_backend("mrv")
    for puzzle in puzzles_of(name if name != "9x9" else "9x9-simple")[:5]:
        original = mrv.solve(puzzle).solution
        moved, t = isomorph.transform(puzzle, rng)
        solved = mrv.solve(moved).solution
        assert original is not None and solved is not None and shape == puzzle.shape
        assert isomorph.apply(isomorph.invert(t), solved) == original


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["4x4", "6x6"]), st.integers(0, 10**6),
       st.sampled_from([0.0, 0.2, 0.4, 0.7, 1.0]))
def test_pruned_form_equals_brute_force(name: str, seed: int, keep: float) -> None:
    shape = SHAPES[name]
    cells = random_puzzle(shape, seed, keep)
    assert isomorph.canonical(cells, shape) == isomorph.brute_canonical(cells, shape)


@settings(max_examples=250, deadline=None)
@given(st.sampled_from(["4x4", "6x6", "9x9"]), st.integers(0, 10**6),
       st.sampled_from([0.15, 0.3, 0.5, 1.0]))
def test_form_is_invariant_under_random_transforms(name: str, seed: int, keep: float) -> None:
    shape, rng = SHAPES[name], random.Random(seed)
    cells = random_puzzle(shape, seed, keep)
    moved = isomorph.apply(isomorph.random_transform(shape, rng), cells)
    form, onto = isomorph.canonical_transform(moved, shape)
    assert form == isomorph.canonical(cells, shape)
    assert isomorph.apply(onto, moved) == form  # the transform returned reaches the form


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]),
       st.integers(0, 10**6), st.sampled_from([0.0, 0.2, 0.35, 0.6, 1.0]))
def test_compiled_search_equals_the_pure_python_one(shape: Shape, seed: int, keep: float) -> None:
    pytest.importorskip("numba", reason="the compiled search needs numba (the [jit] extra)")
    if shape.side == 9 and keep not in (0.2, 0.35):  # the pure-Python search takes seconds there
        keep = 0.2
    cells = random_puzzle(shape, seed, keep)
    compiled = isomorph._compiled_search(cells, shape)
    python = isomorph._python_search(cells, shape)
    assert compiled is not None and compiled[0] == python[0]
    for form, *how in (compiled, python):
        assert isomorph.apply(isomorph._transform_of(shape, *how), cells) == form


def test_forms_with_repeated_digits_still_match_brute_force() -> None:
    cells = (1, 1, 0, 2) + (0,) * 8 + (2, 0, 0, 1)  # not a valid puzzle, but a grid of cells
    assert isomorph.canonical(cells) == isomorph.brute_canonical(cells, SHAPES["4x4"])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.sampled_from([0.2, 0.3, 0.5]))
def test_different_solution_counts_never_share_a_form(one: int, two: int, keep: float) -> None:
    shape, mrv = SHAPES["4x4"], get_backend("mrv")
    a, b = (Puzzle(shape, random_puzzle(shape, s, keep)) for s in (one, two))
    count_a, count_b = (mrv.solve(p, limit=0).count for p in (a, b))
    if count_a != count_b:
        assert isomorph.canonical(a) != isomorph.canonical(b)
    moved, _ = isomorph.transform(a, random.Random(one))
    assert mrv.solve(moved, limit=0).count == count_a


def test_nine_by_nine_classes_are_told_apart() -> None:
    base = [p for level in ("easy", "expert") for p in puzzles_of(f"9x9-{level}")]
    forms = {isomorph.canonical(p) for p in base}
    assert len(forms) == len({p.cells for p in base})
    form = isomorph.canonical(base[0])
    assert form[0] == 0 and max(form) == 9 and sum(1 for v in form if v) == base[0].givens


def transformed_file(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """The puzzles of a generated file, and each of them transformed at random."""
    rng, puzzles = random.Random(5), puzzles_of(name)
    plain, moved = tmp_path / "plain.txt", tmp_path / "moved.txt"
    plain.write_text("".join(p.to_line() + "\n" for p in puzzles))
    moved.write_text("".join(isomorph.transform(p, rng)[0].to_line() + "\n"
                             for p in reversed(puzzles)))
    return plain, moved


def run_canon(argv: list[str]) -> int:
    """The canon command through its own parser (no need for it to be registered)."""
    parser = Parser(prog="sudoku-cp")
    add_canon(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["canon", *argv])
    return args.handler(args)


def test_canon_command_prints_the_same_forms_for_isomorphs(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture) -> None:
    plain, moved = transformed_file(tmp_path, "9x9-easy")
    assert run_canon([str(plain)]) == 0
    first = capsys.readouterr().out.splitlines()
    assert run_canon([str(moved)]) == 0
    second = capsys.readouterr().out.splitlines()
    assert len(first) == len(plain.read_text().splitlines()) and set(first) == set(second)
    assert first != plain.read_text().splitlines()


def test_canon_dedupe_counts_classes(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    plain, moved = transformed_file(tmp_path, "6x6")
    both = tmp_path / "both.txt"
    both.write_text(plain.read_text() + moved.read_text())
    assert run_canon([str(both), "--dedupe"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{line}  2" for line in plain.read_text().splitlines()]


def test_canon_reports_a_bad_line_in_one_line(tmp_path: Path,
                                              capsys: pytest.CaptureFixture) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1234" + "." * 12 + "\n12x4" + "." * 12 + "\n")
    assert run_canon([str(bad)]) == 2
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1 and len(err.splitlines()) == 1
    assert "line 2" in err and "Traceback" not in err


def test_canon_through_main(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    plain, moved = transformed_file(tmp_path, "4x4")
    assert main(["canon", str(plain)]) == 0
    first = capsys.readouterr().out.splitlines()
    assert main(["canon", str(moved)]) == 0
    assert set(first) == set(capsys.readouterr().out.splitlines())
    assert main(["canon", str(tmp_path / "missing.txt")]) == 2




SEEDS = Path(__file__).parent.parent / "puzzles" / "seeds"


@pytest.mark.parametrize("backend", ["naive", "mrv"])
def test_solve_isomorph_finds_the_same_solutions_for_the_grid_as_given(
        backend: str, capsys: pytest.CaptureFixture) -> None:
    many = str(SEEDS / "004-multiple.txt")
    lines = {}
    for extra in ([], ["--isomorph", "5"], ["--isomorph", "6"]):
        assert main(["solve", many, "--backend", backend, "--all", "--format", "line", *extra]) == 0
        out = capsys.readouterr().out.splitlines()
        lines[tuple(extra)] = {line for line in out if not line.startswith("#")}
    assert len(lines[()]) == 28
    assert all(found == lines[()] for found in lines.values())


def test_solve_isomorph_searches_another_form() -> None:
    from sudokucp.cli.solve import _form

    puzzle = puzzles_of("9x9-simple")[0]
    searched, back = _form(puzzle, random.Random(2))
    assert searched.cells != puzzle.cells
    solution = get_backend("mrv").solve(searched).solution
    assert back(solution) == get_backend("mrv").solve(puzzle).solution


def test_datasets_overlap_counts_classes_within_and_across(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    plain, moved = transformed_file(tmp_path, "9x9-easy")
    count = len(plain.read_text().splitlines())
    lines = moved.read_text().splitlines()
    twice = tmp_path / "twice.txt"
    twice.write_text("\n".join(lines[:3] + lines[:1]) + "\n")  # 3 classes, one of them twice
    assert main(["datasets", "overlap", str(plain), str(twice), "--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{plain}: {count} puzzles, {count} classes (0 duplicates within)"
    assert out[1] == f"{twice}: 4 puzzles, 3 classes (1 duplicate within)"
    assert out[2] == f"shared: 3 classes (3 puzzles of {plain}, 4 of {twice})"
    assert len(out) == 6 and all(" = " in line for line in out[3:])


def test_canon_writes_grids_on_request(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    plain, _ = transformed_file(tmp_path, "4x4")
    assert run_canon([str(plain)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert run_canon([str(plain), "--format", "grid"]) == 0
    grids = capsys.readouterr().out.strip().split("\n\n")
    shape = SHAPES["4x4"]
    assert [parse_grid(g, shape=shape).to_line() for g in grids] == lines


# --- a search that would take hours stops at its timeout ------------------------------------

# generate --shape 25x25 --givens 375 --seed 3: a minlex search of hours
HARD_25 = (".N...A.......1IJ7O.G4.B.9OM...8N9C1B.DG.K.F..5..2..B1.F2G6.35..4...C9..8.P..H45EBFIJK"
           "L....MD86P.OA1...A..L74H.9.FN.2B..5CDME..1.CB.....72GIDA.EK.358.OGFDMI7..K8EN.OBH..12"
           ".49.A.K3A9E2B..P..FJG.I..1ML.H245E.N...C1H.L3...M7.JI6..8..OI1.59.M4A..N.L.BG2..E.2N."
           "6.1F.J..BA.KLPM7I.536.......AN..1..D..B.M2FK.....8.J2M..5LHO..6.F9C14NIG...5B.3..CK.F"
           "79..N8H.A.K5.F.4.E7D23...ICG81OLJB64A8...5CN.I62.79.DF.GPO..3..6.DOP97.1N5HL.A..K...."
           "F.PI..K.1G.B.386M2..AEDJ.5.NODF4..JA9EMG.PK...76..1...KM6A.2.L..45G7O3.F.9.7I..HG.ND4"
           "OFJ.1..9A.6K58B.D.G1J....3.A.9BH4C.IN7O....2...FLAHK..583.D.E1..48.OL593.6BM4...1F..."
           ".APH.AJK.61C..P...2..O5.ID...F")


def test_canon_on_25x25_stops_at_its_timeout_with_a_clear_message(tmp_path, capsys):
    """The deadline is checked inside the compiled search (and the Python one): a timeout that
    has passed at once stops it at its first look at the clock, whatever the machine."""
    hard = parse_grid(HARD_25)
    with pytest.raises(isomorph.TooLong, match=r"no canonical form of this 25x25 grid within "
                                               r"1e-06 s"):
        isomorph.canonical(hard, timeout=1e-6)
    path = tmp_path / "mixed.txt"
    path.write_text(f"1...\n..2.\n.3..\n...4\n\n{HARD_25}\n.2..\n....\n....\n...1\n")
    assert main(["canon", str(path), "--timeout", "1e-6"]) == 2
    out, err = capsys.readouterr()
    assert len(out.split()) == 2  # the two 4x4 grids, each its form
    assert err.splitlines() == [f"sudoku-cp: {path}: line 6: no canonical form of this 25x25 grid "
                                f"within 1e-06 s: the minlex search tries every order of the rows "
                                f"and columns that tie, which on a large grid with many blanks "
                                f"can take hours"]


def test_the_python_search_stops_at_its_timeout_too(monkeypatch):
    monkeypatch.setattr(isomorph, "_kernel", lambda: None)
    with pytest.raises(isomorph.TooLong):
        isomorph.canonical(parse_grid(HARD_25), timeout=1e-6)


def test_canon_shows_its_progress_on_a_long_file(tmp_path, capsys, monkeypatch):
    from sudokucp.cli import canon

    monkeypatch.setattr(canon, "EVERY", 0.0)  # a line before every puzzle
    path = tmp_path / "three.txt"
    path.write_text("1...\n..2.\n.3..\n...4\n\n.2..\n....\n....\n...1\n")
    assert main(["canon", str(path)]) == 0
    assert capsys.readouterr().err.splitlines() == ["canon: 0 puzzles read, 0 classes",
                                                    "canon: 1 puzzles read, 1 classes"]


def test_overlap_names_a_grid_whose_form_takes_too_long(tmp_path, capsys, monkeypatch):
    from sudokucp.cli import datasets

    monkeypatch.setattr(datasets, "FORM_SECONDS", 1e-6)
    path = tmp_path / "hard.txt"
    path.write_text(HARD_25 + "\n")
    assert main(["datasets", "overlap", str(path), str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "hard:1: no canonical form of this 25x25 grid within 1e-06 s" in err[0]
