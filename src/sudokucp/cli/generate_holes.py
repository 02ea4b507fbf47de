"""generate --holes: generalized Sudoku, a random full grid with holes at a fraction, placed at
random, singly or doubly balanced (sudokucp.generators.balanced), one puzzle a line."""

from __future__ import annotations

import argparse

from sudokucp.backends import from_spec
from sudokucp.cli.common import EXIT_OK, EXIT_UNSOLVED, CommandError, fail
from sudokucp.cli.output import Output
from sudokucp.generators import balanced
from sudokucp.puzzle import Shape

REFUSED = (("kind", "--kind"), ("givens", "--givens"), ("minimal", "--minimal"),
           ("symmetric", "--symmetric"), ("difficulty", "--difficulty"))


def run_holes(args: argparse.Namespace) -> int:
    """Write the header, then each puzzle as it is made (and, with --unique, proven unique)."""
    refuse_hole_options(args)
    checker = _checker(args) if args.unique else None
    how = args.balance or "random"
    lines = holes_header(args.shape, args.count, args.seed, args.holes, how, checker, args.tries)
    code = EXIT_OK
    with Output(args.out) as out:
        out.write("\n".join(lines) + "\n")
        try:
            for made in balanced.generate_balanced(args.shape, args.count, args.holes, how,
                                                   args.seed, checker=checker,
                                                   tries=args.tries):
                out.write(made.puzzle.to_line() + "\n")
                out.flush()
        except balanced.BalanceError as err:
            fail(str(err))
            code = EXIT_UNSOLVED
    return code


def refuse_hole_options(args: argparse.Namespace) -> None:
    """Refuse, before anything is printed, the options of minimal and variant puzzles."""
    given = [flag for key, flag in REFUSED if getattr(args, key)]
    if given:
        raise CommandError(f"{', '.join(given)} belong to puzzles made by removing clues: "
                           f"leave them out with --holes")
    if args.tries is not None and not args.unique:
        raise CommandError("--tries bounds the puzzles made while looking for unique ones: add "
                           "--unique, or leave --tries out")
    if args.backend and not args.unique:
        raise CommandError("-b picks the uniqueness checker: add --unique, or leave -b out")


def _checker(args: argparse.Namespace):
    """The complete backend that proves each puzzle unique: -b, or the registry's first."""
    from sudokucp.generators import generator

    try:
        backend = from_spec(args.backend) if args.backend else generator.checker(args.shape)
    except generator.GenerateError as err:
        raise CommandError(str(err)) from None
    if not backend.complete:
        raise CommandError(f"--unique: {backend.label} cannot prove a count (not complete)")
    return backend


def holes_command(shape: Shape, count: int, seed: int | str, fraction: float, how: str,
                  unique: bool, tries: int | None) -> str:
    """The command that makes exactly these puzzles again."""
    boxes = f"{shape}:{shape.box_rows}x{shape.box_cols}"
    words = ["sudoku-cp generate", f"--shape {boxes}", f"--holes {fraction}",
             f"--balance {how}", "--unique" if unique else "", f"--tries {tries}" if tries else "",
             f"--count {count}", f"--seed {seed}"]
    return " ".join(w for w in words if w)


def holes_header(shape: Shape, count: int, seed: int | str, fraction: float, how: str,
                 checker, tries: int | None) -> list[str]:
    """Comment lines that open the file: the command, the seed, the grid's and holes' method."""
    holes = balanced.hole_count(shape, fraction)
    key = balanced.balanced_seed(seed, shape, fraction, how, 0)[:-1]
    placed = {"random": "a uniform random set of cells",
              "singly": "as many in every row and column, give or take one",
              "doubly": "as many in every row, column and box, give or take one"}[how]
    check = (f"unique: proven by {checker.label} at limit 2 within "
             f"{balanced.UNIQUE_SECONDS:g} s, the others dropped" if checker is not None else
             "satisfiable by construction; not checked for uniqueness")
    return [f"# {holes_command(shape, count, seed, fraction, how, checker is not None, tries)}",
            f"# {shape} ({shape.box_rows}x{shape.box_cols} boxes), seed {seed}; puzzle i uses "
            f"random.Random('{key}i')",
            f"# full grid: the pattern grid permuted and mixed by "
            f"{balanced.MIX_PER_CELL} chain swaps per cell (sudokucp.generators.balanced)",
            f"# {holes} holes (F = {fraction}), {how}: {placed}; {check}"]
