"""Variants: the rules a puzzle carries, the judge's reasons, and the text and f-puzzles formats.

The puzzles drawn here (`variant_puzzle`) serve tests/test_variants_backends.py too: rules of
each kind on 4x4 to 9x9 grids, givens and cage sums taken from a grid that keeps the unit rules
(4x4: found by enumerating every Latin square, an oracle that belongs to no backend).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace
from functools import cache
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokucp.backends import get_backend
from sudokucp.check import explain, is_solution
from sudokucp.executors.base import Task, from_json, to_json
from sudokucp.io.formats import parse_grid, parse_many, read_puzzles
from sudokucp.io.fpuzzles import fpuzzles_payload, read_fpuzzles, to_fpuzzles, to_fpuzzles_json
from sudokucp.io.variants import to_text
from sudokucp.layout import layout
from sudokucp.puzzle import Puzzle, PuzzleError, Shape, geometry
from sudokucp.result import Status
from sudokucp.rules import KINDS, Cage, Rules, connected, window_cells

RAW = Path(__file__).resolve().parent / "data" / "upstream"  # the killers' upstream files
KILLERS = ("killer_en_wikipedia", "killer_niallsudoku_5500", "killer_niallsudoku_5501",
           "killer_niallsudoku_5502", "killer_niallsudoku_5503", "killer_niallsudoku_6249",
           "killer_niallsudoku_6417")
SHAPES = (Shape(2, 2), Shape(2, 3), Shape(3, 3))
FEW = settings(max_examples=40, deadline=None, derandomize=True)
# An X-sudoku as f-puzzles links it (a public example of its import format) and its givens.
FPUZZLES_X = (
    "https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSQA3AQwBsBXOeAdlTQgpg"
    "DsEAXDBkmSGDBlWgwQBmVuy69+MUdXqMArDI7d4fAQF1khMSoQAODXO0KRpa8PLKJSc1p2KbN/YSXjGAJmfyAu6g"
    "DowAbAGWQSE+CCzosi5WwbZEnnYZ3sbw0gmagW4x2ep5Fq5ZjhGlSdFpBpnBRo4AjJHlKY2hUm1W6bZNfj219rHw"
    "ZtUFqSPZACxDhXVeHUUt8xWMKBNRC52jJWz52yJ9y+sI+4mTywNxax71Uw0ZN/BzW+W6+iDYEFRoAPacWgAagKqB"
    "+f0BtAAtJMgA===")
FPUZZLES_X_GIVENS = ("..7....358.....9...2.67.........356.....1...3..2.8..4....19..5....."
                     "5..7.........4")


def killer_file(stem: str) -> Path:
    """A published killer's upstream file (tests/data/upstream)."""
    return RAW / f"{stem}.json"


# --- puzzles of every kind, drawn from a seed ----------------------------------------------------

def pattern_grid(shape: Shape, rng: random.Random) -> list[int]:
    """A classic solution: the banded pattern, digits, rows in bands and bands shuffled."""
    n, r, c = shape.side, shape.box_rows, shape.box_cols
    digits = rng.sample(range(1, n + 1), n)
    rows = [b * r + i for b in rng.sample(range(c), c) for i in rng.sample(range(r), r)]
    cols = [b * c + j for b in rng.sample(range(r), r) for j in rng.sample(range(c), c)]
    return [digits[(c * (i % r) + i // r + j) % n] for i in rows for j in cols]


def random_regions(shape: Shape, rng: random.Random, swaps: int = 30) -> tuple[tuple[int, ...]]:
    """Connected regions of N cells: the boxes, then cells swapped between neighbouring
    regions while both stay connected."""
    n = shape.side
    regions = [set(b) for b in geometry(shape).units[2 * n:]]
    owner = {cell: k for k, region in enumerate(regions) for cell in region}
    for _ in range(swaps * 4):
        a = rng.randrange(n * n)
        row, col = divmod(a, n)
        b = rng.choice([r * n + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1),
                                                (row, col + 1)) if 0 <= r < n and 0 <= c < n])
        ka, kb = owner[a], owner[b]
        if ka == kb:
            continue
        c = rng.choice(sorted(x for x in regions[kb] if x != b and any(
            owner.get(y) == ka for y in (x - n, x + n) + ((x - 1,) if x % n else ())
            + ((x + 1,) if x % n < n - 1 else ()))) or [None])
        if c is None:
            continue
        one, two = regions[ka] - {a} | {c}, regions[kb] - {c} | {a}
        if connected(n, one) and connected(n, two):
            regions[ka], regions[kb] = one, two
            owner[a], owner[c] = kb, ka
    return tuple(tuple(sorted(r)) for r in regions)


@cache
def latin_squares(side: int) -> list[tuple[int, ...]]:
    """Every Latin square of a small side (576 of side 4)."""
    rows = list(permutations(range(1, side + 1)))
    squares: list[tuple[int, ...]] = []

    def extend(grid: list[tuple[int, ...]]) -> None:
        if len(grid) == side:
            squares.append(tuple(v for row in grid for v in row))
            return
        for row in rows:
            if all(row[j] != g[j] for g in grid for j in range(side)):
                extend([*grid, row])

    extend([])
    return squares


def unit_rules(shape: Shape, kinds: set[str], rng: random.Random) -> Rules:
    """The unit kinds of `kinds`: diagonals, windows, regions, extra units."""
    n = shape.side
    units = []
    if "extra-units" in kinds:
        for _ in range(rng.randint(1, 2)):
            units.append(tuple(rng.sample(range(n * n), rng.randint(2, n))))
    return Rules(diagonals="x" in kinds, windows="windoku" in kinds,
                 regions=random_regions(shape, rng) if "jigsaw" in kinds else (),
                 units=tuple(units), anti_knight="anti-knight" in kinds,
                 anti_king="anti-king" in kinds)


def reference_grid(shape: Shape, rules: Rules, rng: random.Random) -> list[int] | None:
    """A grid keeping the unit rules: a random Latin square that does (4x4), else a classic
    pattern when nothing beyond boxes is asked, else CP-SAT's answer on the empty grid (None
    when the rules admit no grid: CP-SAT refutes a 9x9 jigsaw with anti-knight in 0.3 s, where
    pycosat took 6 to 12 s)."""
    if shape.side == 4:
        keeping = [g for g in latin_squares(4) if is_solution(Puzzle(shape, g, "", rules), g)]
        return list(rng.choice(keeping)) if keeping else None
    if rules.classic:
        return pattern_grid(shape, rng)
    result = get_backend("cpsat").solve(Puzzle(shape, (0,) * shape.cells, "", rules))
    return list(result.solution) if result.solution else None


def random_cages(shape: Shape, grid: list[int], rng: random.Random) -> tuple[Cage, ...]:
    """Cages of up to four orthogonal neighbours with distinct digits in `grid`, most with the
    grid's sum; some cells left out."""
    n, left, cages = shape.side, set(range(shape.cells)), []
    while left:
        cells = [rng.choice(sorted(left))]
        left.discard(cells[0])
        for _ in range(rng.randint(0, 3)):
            x = rng.choice(cells)
            near = [y for y in (x - n, x + n, x - 1 if x % n else -1, x + 1 if x % n < n - 1
                                else -1) if y in left and grid[y] not in {grid[c] for c in cells}]
            if near:
                cells.append(rng.choice(near))
                left.discard(cells[-1])
        if rng.random() < 0.9:
            cages.append(Cage(tuple(cells), sum(grid[c] for c in cells)
                              if rng.random() < 0.85 else None))
    return tuple(cages)


def clash_free_givens(shape: Shape, rules: Rules, rng: random.Random, fill: float
                      ) -> tuple[int, ...]:
    """Random givens, each kept only where no group already holds its digit."""
    peers, givens = layout(shape, rules).peers, [0] * shape.cells
    for cell in range(shape.cells):
        digit = rng.randint(1, shape.side)
        if rng.random() < fill and all(givens[p] != digit for p in peers[cell]):
            givens[cell] = digit
    return tuple(givens)


def variant_puzzle(seed: int, shape: Shape, kinds: set[str], fill: float) -> Puzzle:
    """A puzzle of the kinds asked on `shape`, with about `fill` of its cells given; solvable
    unless the drawn unit rules admit no grid. Then a 4x4 has random givens (the backends must
    agree it has no solution, or on what it has); a larger grid drops the anti-king, then the
    anti-knight rule, whose sparse unsolvable grids take a blind search too long to refute."""
    rng = random.Random(seed)
    rules = unit_rules(shape, kinds, rng)
    grid = reference_grid(shape, rules, rng)
    for flag in ("anti_king", "anti_knight"):
        if grid is None and shape.side > 4 and getattr(rules, flag):
            rules = replace(rules, **{flag: False})
            grid = reference_grid(shape, rules, rng)
    if grid is None:
        return Puzzle(shape, clash_free_givens(shape, rules, rng, fill / 3),
                      f"unsolvable-{seed}", rules)
    cages = random_cages(shape, grid, rng) if "killer" in kinds else ()
    candidates = ()
    if "pencil-mark" in kinds:
        candidates = tuple((1 << (v - 1)) | rng.getrandbits(shape.side) & (1 << shape.side) - 1
                           for v in grid)
    full = replace(rules, cages=cages, candidates=candidates)
    givens = tuple(v if rng.random() < fill else 0 for v in grid)
    return Puzzle(shape, givens, f"{'+'.join(sorted(kinds)) or 'classic'}-{seed}", full)


KIND_SETS = st.sets(st.sampled_from(KINDS), min_size=1, max_size=3)


@st.composite
def puzzles(draw, shapes=SHAPES, fill=(0.0, 0.7)) -> Puzzle:
    """A drawn variant puzzle."""
    return variant_puzzle(draw(st.integers(0, 10 ** 6)), draw(st.sampled_from(shapes)),
                          draw(KIND_SETS), draw(st.floats(*fill)))


# --- rules and the puzzle -----------------------------------------------------------------------

def test_classic_puzzle_keeps_its_digest_and_equality():
    puzzle = parse_grid("1...\n..2.\n.3..\n...4", name="a")
    text = f"2x2:{puzzle.to_line()}"
    assert puzzle.digest == hashlib.sha1(text.encode()).hexdigest()[:16]
    assert puzzle.kind == "classic" and puzzle.rules.classic
    assert puzzle == Puzzle(puzzle.shape, puzzle.cells, "another name", Rules())
    assert Puzzle.from_checked(puzzle.shape, puzzle.cells).rules == Rules()


def test_a_variant_digest_and_equality_include_its_rules():
    shape = Shape(2, 2)
    plain = Puzzle.empty(shape)
    x = Puzzle(shape, plain.cells, "", Rules(diagonals=True))
    assert x != plain and x.digest != plain.digest and x.kind == "x"
    same = Puzzle(shape, plain.cells, "", Rules(cages=(Cage((5, 4), 3), Cage((0, 1)))))
    again = Puzzle(shape, plain.cells, "", Rules(cages=(Cage((0, 1)), Cage((4, 5), 3))))
    assert same == again and same.digest == again.digest and hash(same) == hash(again)
    assert same.with_cells(plain.cells).rules == same.rules


@pytest.mark.parametrize(("rules", "kind"), [
    (Rules(diagonals=True), "x"), (Rules(windows=True), "windoku"),
    (Rules(units=((0, 5, 10),)), "extra-units"), (Rules(cages=(Cage((0, 1), 3),)), "killer"),
    (Rules(candidates=(15,) * 16), "pencil-mark"),
    (Rules(diagonals=True, cages=(Cage((0, 1), 3),)), "x+killer"),
    (Rules(anti_knight=True), "anti-knight"),
    (Rules(anti_king=True, diagonals=True), "x+anti-king")])
def test_kind_names_the_variant(rules, kind):
    assert Puzzle(Shape(2, 2), (0,) * 16, "", rules).kind == kind


@pytest.mark.parametrize(("rules", "reason"), [
    (Rules(regions=((0, 1, 2, 3),) * 4), "overlap"),
    (Rules(regions=((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11))), "3 regions"),
    (Rules(regions=((0, 1, 2, 15), (3, 4, 5, 6), (7, 8, 9, 10), (11, 12, 13, 14))),
     "not connected"),
    (Rules(cages=(Cage((0, 1), 3), Cage((1, 2), 5))), "overlaps"),
    (Rules(cages=(Cage((0, 99), 3),)), "off the 4x4 grid"),
    (Rules(units=((0, 1, 2, 3, 4),)), "5 cells"),
    (Rules(candidates=(15,) * 15 + (0,)), "r4c4 has no candidate")])
def test_rules_that_cannot_hold_are_refused(rules, reason):
    with pytest.raises(PuzzleError, match=reason):
        Puzzle(Shape(2, 2), (0,) * 16, "", rules)


def test_windows_sit_one_cell_in():
    assert window_cells(3, 3)[0] == (10, 11, 12, 19, 20, 21, 28, 29, 30)
    assert len(window_cells(3, 3)) == 4 and len(window_cells(2, 2)) == 1
    assert len(window_cells(2, 3)) == 2


# --- the judge ----------------------------------------------------------------------------------

WIKIPEDIA_SOLUTION = ("215647398368952174794381652586274931142593867973816425821739546"
                      "659428713437165289")


def test_the_judge_gives_each_rule_its_reason():
    shape = Shape(3, 3)
    grid = [int(ch) for ch in WIKIPEDIA_SOLUTION]
    cage = Cage((0, 9), grid[0] + grid[9] + 1)
    assert explain(Puzzle(shape, (0,) * 81, "", Rules(cages=(cage,))), grid) == [
        f"cage r1c1-r2c1 sums to {grid[0] + grid[9]}, not {cage.total}"]
    x = explain(Puzzle(shape, (0,) * 81, "", Rules(diagonals=True)), grid)
    assert x and all(line.startswith("diagonal r1c") and " repeats " in line for line in x)
    marks = Rules(candidates=(511,) * 10 + (0b101,) + (511,) * 70)
    assert explain(Puzzle(shape, (0,) * 81, "", marks), grid) == [
        f"r2c2 is {grid[10]}, not one of its candidates 1 3"]
    rows = tuple(tuple(range(i * 9, i * 9 + 9)) for i in range(9))  # regions: the rows
    assert explain(Puzzle(shape, (0,) * 81, "", Rules(regions=rows)), grid) == []
    found = explain(Puzzle(shape, (0,) * 81, "", Rules(regions=rows)), [1] * 9 + grid[9:])
    assert "region 1 repeats 1 (r1c1 and r1c2)" in found
    assert "digit 1 twice in row 1 (r1c1 and r1c2)" in found


def test_the_judge_names_a_knight_or_king_move_that_repeats():
    shape, grid = Shape(3, 3), [int(ch) for ch in WIKIPEDIA_SOLUTION]
    knight = explain(Puzzle(shape, (0,) * 81, "", Rules(anti_knight=True)), grid)
    assert knight[0] == "knight's move r1c3-r2c5 repeats 5 (r1c3 and r2c5)"
    king = explain(Puzzle(shape, (0,) * 81, "", Rules(anti_king=True)), grid)
    assert "king's move r2c7-r3c6 repeats 1 (r2c7 and r3c6)" in king


def chess_pairs(side: int, steps: set[tuple[int, int]]) -> set[frozenset[int]]:
    """Every pair of cells a step of `steps` apart, counted here without the rules' tables."""
    return {frozenset((r * side + c, (r + dr) * side + c + dc)) for r in range(side)
            for c in range(side) for dr, dc in steps
            if 0 <= r + dr < side and 0 <= c + dc < side}


@pytest.mark.parametrize("spec", ["mrv", "sat"])
def test_an_anti_knight_anti_king_grid_keeps_every_move_apart(spec):
    rules = Rules(anti_knight=True, anti_king=True)
    result = get_backend(spec).solve(Puzzle(Shape(3, 3), (0,) * 81, "", rules), limit=1)
    assert result.status is Status.SOLVED, result.error
    grid = result.solution
    knight = {(a, b) for a in (1, -1, 2, -2) for b in (1, -1, 2, -2) if abs(a) != abs(b)}
    king = {(1, 1), (1, -1), (-1, 1), (-1, -1)}
    for a, b in chess_pairs(9, knight | king):
        assert grid[a] != grid[b], (a, b)
    assert len(chess_pairs(9, knight)) == 224 and len(chess_pairs(9, king)) == 128


def test_rows_columns_and_boxes_keep_the_classic_messages():
    puzzle = Puzzle.empty(Shape(2, 2))
    grid = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 2]
    classic = explain(puzzle, grid)
    assert classic == ["digit 2 twice in row 4 (r4c3 and r4c4)",
                       "digit 2 twice in column 4 (r2c4 and r4c4)",
                       "digit 2 twice in box 4 (r4c3 and r4c4)"]
    any_digit = Puzzle(puzzle.shape, puzzle.cells, "", Rules(candidates=(15,) * 16))
    assert explain(any_digit, grid) == classic


@FEW
@given(puzzles(shapes=(Shape(2, 2),)))
def test_judge_agrees_with_its_reasons_on_every_latin_square(puzzle):
    for grid in latin_squares(4):
        assert is_solution(puzzle, grid) == (explain(puzzle, grid) == [])


# --- the text format ----------------------------------------------------------------------------

@FEW
@given(puzzles())
def test_the_text_format_reads_back_what_it_writes(puzzle):
    text = to_text(puzzle)
    entries = list(parse_many(text))
    assert len(entries) == 1 and entries[0].error is None, entries[0].error
    assert entries[0].puzzle == puzzle and entries[0].puzzle.name == puzzle.name
    assert parse_grid(text) == puzzle


JIGSAW = """# variant: jigsaw
# name: a jigsaw
1 . . .
. . . .
. . . .
. . . 2
regions:
AABB
ACBB
ACDD
CCDD
"""


def test_a_file_mixes_variant_blocks_and_classic_lines(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text("1...\n..2.\n.3..\n...4\n\n" + JIGSAW + "\n# variant: x killer\n"
                    + "." * 16 + "\ncage 3: r1c1 r1c2\ncage: r2c1 r2c2\n\n" + "." * 81 + "\n")
    entries = read_puzzles(path)
    assert [e.error for e in entries] == [None] * 4
    kinds = [e.puzzle.kind for e in entries]
    assert kinds == ["classic", "jigsaw", "x+killer", "classic"]
    jigsaw = entries[1].puzzle
    assert jigsaw.name == "a jigsaw" and jigsaw.cells[0] == 1
    assert jigsaw.rules.regions[0] == (0, 1, 4, 8)
    assert entries[2].puzzle.rules.cages == (Cage((0, 1), 3), Cage((4, 5)))


@pytest.mark.parametrize(("text", "where", "reason"), [
    ("# variant: x diagonal\n" + "." * 16, (1, 14), "unknown variant 'diagonal'"),
    ("# variant: killer\n" + "." * 16 + "\ncage 3: r1c1 rXc2", (3, 14), "not a cell"),
    ("# variant: killer\n" + "." * 16 + "\ncage 3: r1c1 r5c1", (3, 14), "off the 4x4 grid"),
    ("# variant: killer\n" + "." * 16, (1, None), "no cage line"),
    ("# variant: x\n" + "." * 16 + "\ncage 3: r1c1 r1c2", (1, None), "does not name killer"),
    ("# variant: killer\n" + "." * 16 + "\ncage 3: r1c1 r1c2\ncage: r1c2 r2c2", (4, None),
     "overlaps"),
    (JIGSAW.replace("CCDD", "CCDA"), (7, None), "region 1 has 5 cells, not 4"),
    (JIGSAW.replace("CCDD", "CCD"), (11, None), "3 region labels"),
    (JIGSAW.replace("1 . . .", "1 1 . ."), (3, 3), "duplicate given: digit 1 twice in row 1"),
    (JIGSAW.replace(". . . 2", ". . . 1").replace("1 . . .", ". . . ."), None, None),
    ("# variant: pencil-mark\n1...\n....\n....\n....\ncandidates:\n2 . . .\n. . . .\n. . . .\n"
     ". . . .", (2, 1), "r1c1 is given 1, not one of its candidates 2"),
    ("# variant: pencil-mark\n" + "." * 16 + "\ncandidates:\n15 . . .\n. . . .\n. . . .\n"
     ". . . .", (4, 2), "'5' is not a digit")])
def test_bad_variant_blocks_name_the_place(text, where, reason):
    entries = list(parse_many(text))
    assert len(entries) == 1
    if where is None:  # a sound block: no error
        assert entries[0].error is None
        return
    error = entries[0].error
    assert error is not None and reason in error.reason, error
    assert (error.line, error.column) == where


def test_a_given_repeated_in_a_region_is_refused_with_its_place():
    text = JIGSAW.replace(". . . .\n. . . 2", ". . 2 .\n. . . 2")
    error = list(parse_many(text))[0].error
    assert error is not None
    assert error.reason == "duplicate given: digit 2 twice in region 4 (r3c3 and r4c4)"
    assert (error.line, error.column) == (6, 7)


# --- f-puzzles ----------------------------------------------------------------------------------

def test_an_f_puzzles_link_loads():
    pytest.importorskip("lzstring")
    puzzle = parse_grid(FPUZZLES_X)
    assert puzzle.kind == "x" and puzzle.to_line() == FPUZZLES_X_GIVENS
    entries = list(parse_many(f"1...\n..2.\n.3..\n...4\n\n{FPUZZLES_X}\n"))
    assert [e.puzzle.kind for e in entries] == ["classic", "x"]


@settings(max_examples=20, deadline=None, derandomize=True)
@given(puzzles())
def test_f_puzzles_reads_back_what_it_writes(puzzle):
    pytest.importorskip("lzstring")
    text = to_fpuzzles(puzzle)
    assert fpuzzles_payload(text) == text
    assert read_fpuzzles(text, puzzle.name) == puzzle
    assert read_fpuzzles(f"https://f-puzzles.com/?load={text}") == puzzle


def test_f_puzzles_constraints_beyond_the_kinds_are_refused():
    lzstring = pytest.importorskip("lzstring")
    import json

    data = to_fpuzzles_json(Puzzle.empty(Shape(3, 3)))
    data["thermometer"] = [{"lines": [["R1C1", "R1C2"]]}]
    text = lzstring.LZString().compressToBase64(json.dumps(data))
    with pytest.raises(PuzzleError, match="f-puzzles constraint 'thermometer' is not supported"):
        read_fpuzzles(text)
    with pytest.raises(PuzzleError, match="does not decompress"):
        read_fpuzzles(text[:40])


def test_one_f_puzzles_diagonal_is_an_extra_unit():
    data = to_fpuzzles_json(Puzzle.empty(Shape(2, 2)))
    data["diagonal-"] = True
    from sudokucp.io.fpuzzles import fpuzzles_puzzle

    assert fpuzzles_puzzle(data).rules == Rules(units=((0, 5, 10, 15),))


# --- JSON files: the published killers ----------------------------------------------------------

@pytest.mark.parametrize("stem", KILLERS)
def test_the_published_killers_load(stem):
    entries = read_puzzles(killer_file(stem))
    assert len(entries) == 1 and entries[0].error is None
    puzzle = entries[0].puzzle
    assert puzzle.kind == "killer" and puzzle.name == stem and puzzle.side == 9
    covered = sorted(c for cage in puzzle.rules.cages for c in cage.cells)
    assert covered == list(range(81))  # every cell in one cage, as their source says
    assert sum(cage.total for cage in puzzle.rules.cages) == 9 * 45


def test_the_wikipedia_killer_has_its_published_solution():
    puzzle = read_puzzles(killer_file("killer_en_wikipedia"))[0].puzzle
    assert is_solution(puzzle, [int(ch) for ch in WIKIPEDIA_SOLUTION])


def test_a_json_file_that_is_no_variant_goes_to_the_line_reader(tmp_path):
    path = tmp_path / "grid.json"
    path.write_text("[[1,0,0,0],[0,0,2,0],[0,3,0,0],[0,0,0,4]]\n")
    entries = read_puzzles(path)
    assert [e.error for e in entries] == [None] and entries[0].puzzle.kind == "classic"
    bad = tmp_path / "bad.json"
    bad.write_text('[{"result": 3, "indices": [[1, 1], [1, "x"]]}]')
    error = read_puzzles(bad)[0].error
    assert error is not None and error.line == 1
    assert error.reason == "killer JSON: [0].indices[1][1]: 'x' is not a whole number"


# --- across a process boundary; a backend that does not take a kind -----------------------------

def test_a_task_carries_its_rules_to_a_worker():
    puzzle = variant_puzzle(3, Shape(2, 3), {"killer", "x", "pencil-mark"}, 0.3)
    task = Task("k", "cpsat", puzzle)
    import json

    back = from_json(json.loads(json.dumps(to_json(task))))
    assert back.puzzle == puzzle and back.puzzle.rules == puzzle.rules
    classic = to_json(Task("k", "cpsat", Puzzle.empty(Shape(2, 2))))
    assert "rules" not in classic["task"]


@pytest.mark.parametrize(("kinds", "what"), [
    ({"killer"}, "killer cages"), ({"x", "jigsaw"}, "diagonals (X-sudoku) and jigsaw regions")])
def test_a_backend_refuses_a_kind_it_does_not_take(kinds, what):
    puzzle = variant_puzzle(1, Shape(2, 2), kinds, 0.5)
    result = get_backend("logic").solve(puzzle)
    assert result.status is Status.UNKNOWN and not result.solutions
    assert result.error == f"backend logic does not support {what}"


def test_layout_names_every_group():
    lay = layout(Shape(2, 2), Rules(diagonals=True, windows=True, cages=(Cage((0, 1), 3),)))
    assert lay.names[:4] == ("row 1", "row 2", "row 3", "row 4")
    assert lay.names[8:] == ("box 1", "box 2", "box 3", "box 4", "diagonal r1c1-r4c4",
                             "diagonal r1c4-r4c1", "window 1", "cage r1c1-r1c2")
    assert lay.sums == (((0, 1), 3),) and 1 in lay.peers[0] and 15 in lay.peers[0]
