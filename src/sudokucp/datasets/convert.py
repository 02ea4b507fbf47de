"""Converters: an upstream file's text -> the project's format, one converter per upstream format.

The project's format: '#' lines saying where the set comes from, then one puzzle per line as
'K<TAB>puzzle[<TAB>comment]' (a form records.py reads), K the puzzle's place in the upstream
file, so that puzzle K of set S is named 'S#K' in every result. A variant (a killer's cages) is
written as a variant block (io/variants.py) named 'S#K' by its '# name:' line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sudokucp.io.fpuzzles import killer_cages
from sudokucp.io.records import csv_header, csv_record
from sudokucp.io.tokens import CELL_COUNTS
from sudokucp.io.variants import to_text as block_text
from sudokucp.puzzle import DIGITS, PuzzleError

BLANKS = frozenset("0._-*")
VALUES = {**{ch: ch for ch in DIGITS}, **{ch.lower(): ch for ch in DIGITS if ch.isalpha()},
          **{ch: "." for ch in BLANKS}}
TABLE = str.maketrans(VALUES)
ALLOWED = frozenset("." + DIGITS)
ARRAY = re.compile(r"examples\[\]\s*=\s*\{(.*?)\};", re.DOTALL)
COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
LITERALS = re.compile(r'"([^"\\]*)"|(,)')


class ConvertError(ValueError):
    """An upstream file that does not read as its format says."""


@dataclass(frozen=True)
class Item:
    """One puzzle of a converted set: its place upstream, one-line cells, a comment, and for a
    variant its whole block (header, grid and rules) without a name."""

    index: int
    puzzle: str
    comment: str = ""
    block: str = ""

    @property
    def side(self) -> int:
        return round(len(self.puzzle) ** 0.5)


def cells(text: str, where: str) -> str:
    """A one-line puzzle with '.' for blanks and upper-case letters, checked for its length."""
    out = text.translate(TABLE)
    if not ALLOWED.issuperset(out):
        column, ch = next((k, c) for k, c in enumerate(out, 1) if c not in ALLOWED)
        raise ConvertError(f"{where}, column {column}: {text[column - 1]!r} is no digit nor "
                           f"blank")
    if len(out) not in CELL_COUNTS:
        raise ConvertError(f"{where}: {len(out)} cells, which make no grid")
    side, top = round(len(out) ** 0.5), max(out)
    if top != "." and DIGITS.index(top) >= side:
        raise ConvertError(f"{where}: {top!r} is larger than {side}, the largest digit of a "
                           f"{side}x{side} grid")
    return out


def _records(text: str) -> Iterator[tuple[str, str]]:
    """('line N', text) of the lines that are neither blank nor '#' comments; CR dropped."""
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r").strip()
        if line and not line.startswith("#"):
            yield f"line {number}", line


def lines(text: str) -> Iterator[Item]:
    """One puzzle per line, optionally followed by a label; '#' headers, blank lines and CRLF."""
    for index, (where, line) in enumerate(_records(text), 1):
        puzzle, _, label = line.partition(" ")
        yield Item(index, cells(puzzle, where), " ".join(label.split()))


def counted(text: str) -> Iterator[Item]:
    """tdoku's 'puzzle:count[:solution]': the count, and the solution when there is one."""
    for index, (where, line) in enumerate(_records(text), 1):
        puzzle, _, rest = line.partition(":")
        count, _, solution = rest.partition(":")
        if not count.isdigit():
            raise ConvertError(f"{where}: {count!r} is not a count of solutions")
        noun = "solution" if count == "1" else "solutions"
        comment = f"{count} {noun}" + (f" {cells(solution, where)}" if solution else "")
        yield Item(index, cells(puzzle, where), comment)


def csv_rows(text: str) -> Iterator[Item]:
    """A CSV with a header naming the puzzle column (Kaggle's 'quizzes,solutions')."""
    rows = _records(text)
    where, header = next(rows, ("line 1", ""))
    columns = csv_header(header)
    if columns is None:
        raise ConvertError(f"{where}: {header[:40]!r} is no CSV header naming a puzzle "
                           f"column (quizzes, puzzle, ...)")
    for index, (where, line) in enumerate(rows, 1):
        record = csv_record(line, columns)
        solution = f"solution {cells(record.solution, where)}" if record.solution else ""
        yield Item(index, cells(record.puzzle, where), solution)


def gecode(text: str) -> Iterator[Item]:
    """The `examples[]` array of Gecode's sudoku-instances.hh: string literals concatenated up
    to each comma, comments skipped, read as Gecode reads them (0 or any symbol: blank)."""
    found = ARRAY.search(text)
    if found is None:
        raise ConvertError("no 'examples[] = { ... };' array in this C++ source")
    parts: list[str] = []
    index = 0
    for literal, comma in LITERALS.findall(COMMENTS.sub("", found.group(1))):
        if comma:
            if parts:
                yield _gecode_item(index, "".join(parts))
                index, parts = index + 1, []
        else:
            parts.append(literal)
    if parts:
        yield _gecode_item(index, "".join(parts))


def _gecode_item(index: int, text: str) -> Item:
    side = round(len(text) ** 0.5)
    out = []
    for ch in text.upper():
        value = DIGITS.find(ch) + 1 if ch.isalnum() and ch != "0" else 0
        out.append(DIGITS[value - 1] if 0 < value <= side else ".")
    return Item(index, cells("".join(out), f"instance {index}"), f"Gecode instance {index}")


def killer(text: str) -> Iterator[Item]:
    """A killer as a JSON list of cages {"result": sum, "indices": [[row, column], ...]}
    (1-based; ConstraintSolver.jl's benchmark data), read as the JSON reader reads it."""
    try:
        cages = json.loads(text)
    except ValueError as err:
        raise ConvertError(f"not JSON: {err}") from None
    if not (isinstance(cages, list) and cages and all(isinstance(c, dict) for c in cages)):
        raise ConvertError("not a killer's cage list ([{\"result\": sum, \"indices\": "
                           "[[row, column], ...]}, ...])")
    try:
        puzzle = killer_cages(cages)
    except PuzzleError as err:
        raise ConvertError(str(err)) from None
    yield Item(1, puzzle.to_line(), f"{len(cages)} cages", block_text(puzzle))


CONVERTERS: dict[str, Callable[[str], Iterator[Item]]] = {
    "lines": lines, "counted": counted, "csv": csv_rows, "gecode": gecode, "killer": killer}


def convert(text: str, converter: str, side: int | None = None) -> list[Item]:
    """The puzzles of an upstream text, read by `converter`; only those of `side` when given."""
    return [item for item in CONVERTERS[converter](text) if side is None or item.side == side]


def to_text(items: list[Item], header: list[str], name: str | None = None) -> str:
    """The project's format: '#' header lines, then 'K<TAB>puzzle[<TAB>comment]' lines, or a
    variant block per variant named 'NAME#K' (NAME: the set's name, by default the first header
    line up to its first ':')."""
    name = header[0].split(":")[0].strip() if name is None and header else name or ""
    body = [_variant(i, name) if i.block else
            f"{i.index}\t{i.puzzle}" + (f"\t{i.comment}" if i.comment else "") for i in items]
    return "\n".join([*(f"# {line}" for line in header), *body]) + "\n"


def _variant(item: Item, name: str) -> str:
    """A variant block after a blank line, its '# name:' line (and comment) after the header."""
    first, _, rest = item.block.rstrip("\n").partition("\n")
    named = [first, f"# name: {name}#{item.index}",
             *([f"# {item.comment}"] if item.comment else []), rest]
    return "\n" + "\n".join(named) + "\n"
