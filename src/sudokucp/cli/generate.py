"""The generate command, with the wording of a generated file's header and its command line."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from sudokucp.backends import (
    from_spec,
)
from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_UNSOLVED,
    CommandError,
    add_command,
    count_arg,
    fail,
    shape_arg,
    size_arg,
)
from sudokucp.cli.output import Output
from sudokucp.generators.balanced import BALANCES
from sudokucp.puzzle import Shape

if TYPE_CHECKING:
    from sudokucp.backends.base import Backend

GENERATE_COST = ("What one minimal puzzle costs (reports/generate.md, a 2-core machine): 9x9 "
                 "about a hundredth of a second; 12x12 well under a second; 16x16 1 to 5 s with "
                 "the sat checker (3 s and up with the hybrid); 25x25 from a few minutes to over "
                 "half an hour with sat. Progress shows on a terminal. --givens stops early and "
                 "is far cheaper on large shapes (25x25 at 375 givens: under a second).")
VARIANT_COST = ("With --kind, one 9x9 puzzle costs a tenth to a quarter of a second of CPU with "
                "the sat checker (x, windoku, jigsaw, extra units, killer) and about nine "
                "seconds for pencil-mark (some 350 checks without givens); 6x6 a few "
                "hundredths.")
HOLES_TEXT = ("With --holes F: generalized Sudoku instead, any side to 64: a random full grid "
              "with round(F*N*N) holes placed at random, singly or doubly balanced "
              "(--balance); satisfiable, unique only with --unique.")
KIND_HELP = ("variant to make: x, windoku, jigsaw (random regions), killer (random cages, few "
             "or no givens), pencil-mark (candidates, no givens), extra-units, anti-knight, "
             "anti-king; join several with '+' (x+killer). Written as variant blocks that "
             "solve reads")


def add_generate(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "generate", run_generate, description=" ".join((
        "Make COUNT puzzles with exactly one solution: a random full grid, then clues removed "
        "while a complete backend at limit 2 still finds one solution. The same seed gives the "
        "same puzzles.", GENERATE_COST, VARIANT_COST, HOLES_TEXT)))
    p.add_argument("--shape", type=shape_arg, default=Shape(3, 3),
                   help="9x9 (default), 6x6, 16x16, 36x36 to 64x64, box 2x3, or 30x30:5x6 "
                        "(side and boxes)")
    p.add_argument("--count", type=count_arg, default=1, metavar="K", help="puzzles to make (1)")
    p.add_argument("--seed", default="0", metavar="S", help="seed of every random choice (0)")
    p.add_argument("--kind", metavar="KIND", help=KIND_HELP)
    how_far = p.add_mutually_exclusive_group()
    how_far.add_argument("--minimal", action="store_true",
                         help="try every clue once: no clue left can go (the default)")
    how_far.add_argument("--givens", type=size_arg, metavar="G",
                         help="stop at G givens (G-1 with --symmetric pairs), not minimal; says "
                              "so when G cannot be reached")
    p.add_argument("--symmetric", action="store_true",
                   help="remove cells in 180-degree rotationally symmetric pairs")
    p.add_argument("--difficulty", choices=("simple", "easy", "intermediate", "expert"),
                   help="keep only puzzles that `sudoku-cp rate` puts in this class")
    p.add_argument("--tries", type=count_arg, metavar="T",
                   help="with --difficulty or --unique: puzzles to make at most (100 per puzzle "
                        "asked)")
    p.add_argument("-b", "--backend", help="uniqueness checker (default: hybrid up to 12x12, sat "
                                           "from 16x16, the next that works otherwise; with "
                                           "--kind: sat, then mrv or cpsat)")
    p.add_argument("-o", "--out", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--holes", type=fraction_arg, metavar="F",
                   help="generalized Sudoku: a random full grid (any shape, 30x30:5x6 boxes "
                        "too) with round(F*N*N) holes; satisfiable, not minimal")
    p.add_argument("--balance", choices=BALANCES, metavar="HOW",
                   help="with --holes: random (default), singly (the same number of holes in "
                        "every row and column, give or take one) or doubly (in every box too)")
    p.add_argument("--unique", action="store_true",
                   help="with --holes: keep only the puzzles the checker (-b) proves unique at "
                        "limit 2 within 60 s each (--tries bounds the puzzles made)")


def fraction_arg(text: str) -> float:
    """A fraction of the cells, 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a fraction from 0 to 1 (0.42)")
    return value


def run_generate(args: argparse.Namespace) -> int:
    from sudokucp.generators import generator

    if args.holes is not None:
        from sudokucp.cli.generate_holes import run_holes

        return run_holes(args)
    if args.kind is not None:
        return run_variants(args)
    refuse_bad_options(args)
    try:
        backend = from_spec(args.backend) if args.backend else generator.checker(args.shape)
    except generator.GenerateError as err:
        raise CommandError(str(err)) from None
    options = {"givens": args.givens, "symmetric": args.symmetric,
               "difficulty": args.difficulty, "tries": args.tries}
    lines = header(args.shape, args.count, args.seed, backend, **options)
    progress = _progress(args.count) if sys.stderr.isatty() else None
    code = EXIT_OK
    with Output(args.out) as out:
        out.write("\n".join(lines) + "\n")
        try:
            for made in generator.generate(args.shape, args.count, args.seed, backend=backend,
                                           progress=progress, **options):
                out.write(made.puzzle.to_line() + "\n")
                out.flush()
                if args.givens is not None and made.puzzle.givens > args.givens:
                    fail(f"puzzle {made.seed}: {args.givens} givens cannot be reached, "
                         f"stopped at {made.puzzle.givens} (minimal)")
        except generator.GenerateError as err:
            fail(str(err))
            code = EXIT_UNSOLVED
    if progress is not None:
        print(file=sys.stderr)
    return code


def run_variants(args: argparse.Namespace) -> int:
    """generate --kind: variant blocks, each named by its seed string."""
    from sudokucp.generators import variant_generator as vg
    from sudokucp.generators.generator import GenerateError
    from sudokucp.io.variants import to_text

    try:
        kinds = vg.parse_kinds(args.kind)
        refuse_bad_variant_options(args, kinds)
        if args.backend:
            backend = from_spec(args.backend)
            vg.refuse_checker(backend, kinds)
        else:
            backend = vg.checker(args.shape, kinds)
    except GenerateError as err:
        raise CommandError(str(err)) from None
    options = {"givens": args.givens, "symmetric": args.symmetric}
    lines = variant_header(args.shape, kinds, args.count, args.seed, backend, **options)
    progress = _progress(args.count) if sys.stderr.isatty() else None
    code = EXIT_OK
    with Output(args.out) as out:
        out.write("\n".join(lines) + "\n")
        try:
            for made in vg.generate_variants(args.shape, kinds, args.count, args.seed,
                                             backend=backend, progress=progress, **options):
                out.write("\n" + to_text(made.puzzle))
                out.flush()
                if args.givens is not None and made.puzzle.givens > args.givens:
                    fail(f"puzzle {made.seed}: {args.givens} givens cannot be reached, "
                         f"stopped at {made.puzzle.givens} (minimal)")
        except GenerateError as err:
            fail(str(err))
            code = EXIT_UNSOLVED
    if progress is not None:
        print(file=sys.stderr)
    return code


def refuse_bad_variant_options(args: argparse.Namespace, kinds: frozenset[str]) -> None:
    """Refuse, before anything is printed, the options a variant does not take."""
    if args.balance is not None or args.unique:
        raise CommandError("--balance and --unique place and check holes: add --holes F "
                           "(without --kind)")
    if args.difficulty is not None or args.tries is not None:
        raise CommandError("--difficulty and --tries rate classic grids only: leave them out "
                           "with --kind")
    if "pencil-mark" in kinds and (args.givens is not None or args.symmetric):
        raise CommandError("a pencil-mark puzzle has no givens (its candidates are what is "
                           "given): leave --givens and --symmetric out")
    if args.givens is not None and args.givens > args.shape.cells:
        raise CommandError(f"--givens {args.givens}: a {args.shape} grid has "
                           f"{args.shape.cells} cells, so at most {args.shape.cells} givens")


def refuse_bad_options(args: argparse.Namespace) -> None:
    """Refuse, before anything is printed, a --givens the shape cannot hold and --tries alone."""
    if args.balance is not None or args.unique:
        raise CommandError("--balance and --unique place and check holes: add --holes F")
    if args.givens is not None and args.givens > args.shape.cells:
        raise CommandError(f"--givens {args.givens}: a {args.shape} grid has "
                           f"{args.shape.cells} cells, so at most {args.shape.cells} givens")
    if args.tries is not None and args.difficulty is None:
        raise CommandError("--tries bounds the puzzles made while looking for a --difficulty: "
                           "add --difficulty, or leave --tries out")


def _progress(count: int):
    """A progress line on standard error, redrawn in place."""
    def show(index: int, done: int, total: int, givens: int) -> None:
        print(f"\rpuzzle {index + 1}/{count}: clue {done}/{total}, {givens} givens   ",
              end="", file=sys.stderr, flush=True)
    return show


def command_line(shape: Shape, count: int, seed: int | str, *, givens: int | None = None,
                 symmetric: bool = False, difficulty: str | None = None,
                 tries: int | None = None) -> str:
    """The command that makes exactly these puzzles again."""
    words = ["sudoku-cp generate", f"--shape {shape}", f"--count {count}", f"--seed {seed}",
             f"--givens {givens}" if givens is not None else "--minimal",
             "--symmetric" if symmetric else "",
             f"--difficulty {difficulty}" if difficulty else "",
             f"--tries {tries}" if difficulty and tries else ""]
    if shape != Shape.for_side(shape.side):
        words[1] = f"--shape 'box {shape.box_rows}x{shape.box_cols}'"
    return " ".join(w for w in words if w)


def header(shape: Shape, count: int, seed: int | str, backend: Backend, *,
           givens: int | None = None, symmetric: bool = False, difficulty: str | None = None,
           tries: int | None = None) -> list[str]:
    """Comment lines that open a generated file: the command, the seed, how clues were removed."""
    from sudokucp.generators.generator import puzzle_seed

    removal = (f"clues removed in random order down to {givens} givens (not minimal)"
               if givens is not None else "minimal: every clue tried once, none can be removed")
    if symmetric:
        removal += "; cells removed in 180-degree symmetric pairs"
    command = command_line(shape, count, seed, givens=givens, symmetric=symmetric,
                           difficulty=difficulty, tries=tries)
    lines = [f"# {command}",
             f"# {shape} ({shape.box_rows}x{shape.box_cols} boxes), seed {seed}; puzzle i uses "
             f"random.Random('{puzzle_seed(seed, shape, 0)[:-1]}i')",
             f"# {removal}; unique: checked by {backend.label} at limit 2"]
    if difficulty:
        lines.append(f"# kept only the puzzles `sudoku-cp rate` puts in class {difficulty}")
    return lines


def variant_command_line(shape: Shape, kinds: frozenset[str], count: int, seed: int | str, *,
                         givens: int | None = None, symmetric: bool = False) -> str:
    """The command that makes exactly these variant puzzles again."""
    from sudokucp.generators.variant_generator import kind_name

    words = command_line(shape, count, seed, givens=givens, symmetric=symmetric).split(" ")
    return " ".join([*words[:2], f"--kind {kind_name(kinds)}", *words[2:]])


def variant_header(shape: Shape, kinds: frozenset[str], count: int, seed: int | str,
                   backend: Backend, *, givens: int | None = None,
                   symmetric: bool = False) -> list[str]:
    """Comment lines that open a generated variant file: the command, the seed, the method."""
    from sudokucp.generators.variant_generator import kind_name, variant_seed

    name = kind_name(kinds)
    if "pencil-mark" in kinds:
        removal = ("no givens: wrong candidates struck in random order until one solution "
                   "is left, then each struck one put back while it stays (minimal)")
    elif givens is not None:
        removal = f"givens removed in random order down to {givens} (not minimal)"
    else:
        removal = "minimal: every given tried once, none can be removed"
        if "killer" in kinds:
            removal = "no givens when the cages alone leave one solution, else " + removal
    if symmetric:
        removal += "; cells removed in 180-degree symmetric pairs"
    command = variant_command_line(shape, kinds, count, seed, givens=givens, symmetric=symmetric)
    return [f"# {command}",
            f"# {shape} ({shape.box_rows}x{shape.box_cols} boxes) {name}, seed {seed}; puzzle i "
            f"uses random.Random('{variant_seed(seed, kinds, shape, 0)[:-1]}i')",
            f"# {removal}; unique: checked by {backend.label} at limit 2"]
