"""The explain command: the logic engine's solution path in words, or a hint for the next step."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_UNSOLVED,
    EXIT_USAGE,
    BadEntries,
    add_command,
    add_input,
    add_lang,
    add_shape,
    count_arg,
    read_entries,
    whole_at_least,
    with_many,
)
from sudokucp.puzzle import Shape, cell_name

if TYPE_CHECKING:
    from sudokucp.teaching.explain import Move


def add_explain(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "explain", run_explain)
    add_input(p)
    p.add_argument("--hint", action="store_true",
                   help="print only a hint for the next step, at the --level asked")
    p.add_argument("--level", type=_level, default=1, metavar="LEVEL",
                   help="how much a hint tells: 1 the technique, 2 where to look, 3 the move")
    p.add_argument("--max-steps", type=count_arg, metavar="N",
                   help="stop after N steps")
    p.add_argument("--format", choices=("text", "jsonl"), default="text",
                   help="numbered sentences (default), or one JSON object per step")
    add_shape(p)
    add_lang(p)


def _level(text: str) -> int:
    level = whole_at_least(text, 1)
    if level > 3:
        raise argparse.ArgumentTypeError(f"hint level {text} is not 1, 2 or 3")
    return level


def run_explain(args: argparse.Namespace) -> int:
    from sudokucp.teaching.explain import explain

    bad, code = BadEntries(args.file), EXIT_OK
    entries, many = with_many(read_entries(args.file, args.shape))
    for entry in entries:
        if entry.error is not None:
            bad.report(entry)
            code = EXIT_USAGE
            continue
        if many:
            print(f"# {entry.puzzle.name}")
        limit = 1 if args.hint else args.max_steps
        moves = list(explain(entry.puzzle, max_steps=limit))
        show(moves, args, entry.puzzle.shape)
        if moves[-1].kind in ("stuck", "contradiction") and code == EXIT_OK:
            code = EXIT_UNSOLVED
    bad.finish()
    return code


def show(moves: list[Move], args: argparse.Namespace, shape: Shape) -> None:
    """Print the moves as numbered sentences, JSON lines, or one hint."""
    if args.hint:
        print(moves[0].hint(args.level))
        return
    for number, move in enumerate(moves, 1):
        if args.format == "jsonl":
            print(json.dumps(as_json(move, number, shape)))
        else:
            print(f"{number:>4}. {move.text}")


def as_json(move: Move, number: int, shape: Shape) -> dict[str, object]:
    """One step as a JSON object, cells in players' notation."""

    def marks(pairs: tuple[tuple[int, int], ...]) -> list[dict[str, object]]:
        return [{"cell": cell_name(shape, c), "digit": d} for c, d in pairs]

    return {"step": number, "kind": move.kind, "technique": move.technique,
            "where": move.where, "text": move.text, "placed": marks(move.placed),
            "removed": marks(move.removed)}
