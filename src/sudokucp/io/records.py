"""One-puzzle lines: where the puzzle, its index, comment and solution sit on a line.

Forms: 'index<TAB>puzzle<TAB>comment', CSV rows ('puzzle,solution' or the columns a header names),
'puzzle:count[:solution]', 'puzzle label', and a bare puzzle in any layout of tokens.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sudokucp.io.tokens import is_numeric, is_tabbed

PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz", "question", "grid", "sudoku")
SOLUTION_COLUMNS = ("solution", "solutions", "answer", "answers")
MIN_CSV_FIELD = 16  # the shortest one-line puzzle: a CSV row's puzzle field is at least this long
QUOTES = "\"' "


@dataclass(frozen=True)
class Columns:
    """Where a CSV header puts the puzzle and the solution."""

    puzzle: int
    solution: int | None = None


@dataclass(frozen=True)
class Record:
    """A line cut into its fields; offsets count the characters before a field."""

    puzzle: str
    offset: int = 0
    index: str = ""
    comment: str = ""
    solution: str = ""
    solution_offset: int = 0


def csv_header(line: str) -> Columns | None:
    """The columns of a header such as 'quizzes,solutions' or 'id,puzzle,solution'; else None."""
    names = [field.strip(QUOTES).lower() for field in line.split(",")]
    if not all(name.isidentifier() for name in names):
        return None
    puzzle = next((names.index(n) for n in PUZZLE_COLUMNS if n in names), None)
    solution = next((names.index(n) for n in SOLUTION_COLUMNS if n in names), None)
    return Columns(puzzle, solution) if puzzle is not None else None


def _field(fields: list[str], index: int | None) -> tuple[str, int]:
    """(text, offset) of fields[index] of a comma-separated line, quotes and spaces stripped."""
    if index is None or index >= len(fields):
        return "", 0
    raw = fields[index]
    text = raw.strip(QUOTES)
    before = sum(len(f) + 1 for f in fields[:index])
    return text, before + (raw.index(text) if text else 0)


def csv_record(line: str, columns: Columns) -> Record:
    """The puzzle and solution columns of a CSV row; the other columns form the comment."""
    fields = line.split(",")
    puzzle, offset = _field(fields, columns.puzzle)
    solution, solution_offset = _field(fields, columns.solution)
    used = {columns.puzzle, columns.solution}
    comment = ",".join(f.strip() for i, f in enumerate(fields) if i not in used)
    return Record(puzzle, offset, comment=comment, solution=solution,
                  solution_offset=solution_offset)


def _is_csv_row(line: str) -> bool:
    return "," in line and len(line.partition(",")[0].strip(QUOTES)) >= MIN_CSV_FIELD


def _indexed(line: str) -> Record:
    """'index<TAB>puzzle<TAB>comment', or 'puzzle<TAB>comment'."""
    fields = line.split("\t")
    if len(fields) >= 2 and fields[0].strip().isdigit() and fields[0].strip().isascii():
        at = len(fields[0]) + 1
        puzzle = fields[1].strip()
        offset = at + fields[1].index(puzzle) if puzzle else at
        return Record(puzzle, offset, fields[0].strip(), " ".join(f.strip() for f in fields[2:]))
    puzzle = fields[0].strip()
    return Record(puzzle, fields[0].index(puzzle) if puzzle else 0,
                  comment=" ".join(f.strip() for f in fields[1:]))


def _counted(line: str) -> Record:
    """'puzzle:count[:solution]' (tdoku), or 'puzzle label'; spaced tokens are one puzzle."""
    text = line.strip()
    offset = len(line) - len(line.lstrip())
    words = text.split()
    if all(len(w) <= 2 for w in words):
        return Record(text, offset)
    head, _, rest = text.partition(" ")
    puzzle, _, extra = head.partition(":")
    count, _, solution = extra.partition(":")
    comment = " ".join(x for x in (extra, rest.strip()) if x)
    solution_offset = offset + len(puzzle) + len(count) + 2
    return Record(puzzle, offset, comment=comment, solution=solution if count == "1" else "",
                  solution_offset=solution_offset)


def _whole(line: str) -> Record:
    return Record(line)


FORMS: dict[str, tuple[Callable[[str], bool], Callable[[str], Record]]] = {
    "tab-separated grid": (is_tabbed, _whole),
    "indexed": (lambda line: "\t" in line, _indexed),
    "csv row": (_is_csv_row, lambda line: csv_record(line, Columns(0, 1))),
    "numbers": (is_numeric, _whole),
}


def split_record(line: str, columns: Columns | None = None) -> Record:
    """The fields of a one-puzzle line (CSV columns after a header)."""
    if columns is not None:
        return csv_record(line, columns)
    for detect, split in FORMS.values():
        if detect(line):
            return split(line)
    return _counted(line)
