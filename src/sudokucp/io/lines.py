"""The lines of a puzzle file or text: decoded (UTF-8, a BOM, CRLF or a lone CR; UTF-16 and
binary data refused with their line), numbered, and sorted by kind (blank, comment, title, CSV
header, cells, broken) for the reader of formats.py. A line that holds one grid's cells and
nothing else is marked `plain` at once (plain.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from sudokucp.io.plain import plain_text
from sudokucp.io.records import csv_header
from sudokucp.io.tokens import is_tabbed
from sudokucp.puzzle import PuzzleError

# kinds of line
BLANK, COMMENT, TITLE, HEADER = "blank", "comment", "title", "header"
CELLS, BROKEN = "cells", "broken"
RULE_CHARS = frozenset(" \t|-+=[]{};,")
MAX_LINE = 1 << 16  # characters; the longest puzzle line (625 numbers and a comment) is far shorter
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


class Line(NamedTuple):
    """A numbered line of a file and what kind of line it is; `plain`: one grid's cells only."""

    number: int
    kind: str
    text: str = ""
    error: PuzzleError | None = None
    plain: bool = False


def _kind(text: str) -> str:
    if is_tabbed(text):
        return CELLS  # even a row of empty fields
    stripped = text.strip()
    if not stripped:
        return BLANK
    if stripped[0] == "#" or _is_section(stripped) or set(stripped) <= RULE_CHARS:
        return COMMENT
    if _is_title(stripped):
        return TITLE
    return HEADER if csv_header(stripped) is not None else CELLS


def _is_section(text: str) -> bool:
    """An .sdk section header such as '[Puzzle]' (not '[[7,6,0' nor '[| 7;6')."""
    return (text[0] == "[" and text[-1] == "]" and text[1:2].isalpha()
            and not any(ch in ",;|[" for ch in text[1:-1]))


def _is_title(text: str) -> bool:
    """A grid's title such as 'Grid 01' or 'Puzzle #3'."""
    words = text.split()
    return (len(words) == 2 and len(words[0]) >= 3 and words[0].isascii() and words[0].isalpha()
            and words[1].lstrip("#").isascii() and words[1].lstrip("#").isdigit())


def _decode(raw: str | bytes, number: int) -> str | PuzzleError:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            column = len(raw[:err.start].decode("utf-8", "replace")) + 1
            return PuzzleError(f"not UTF-8 text (byte 0x{raw[err.start]:02X})", line=number,
                               column=column)
    if "\x00" in raw:
        return PuzzleError("binary data, not text (a NUL byte)", line=number,
                           column=raw.index("\x00") + 1)
    return raw


def _classify(number: int, text: str) -> Line:
    if len(text) > MAX_LINE:
        error = PuzzleError(f"a line of {len(text):,} characters is too long for a puzzle",
                            line=number)
        return Line(number, BROKEN, error=error)
    return Line(number, _kind(text), text)


def numbered_lines(raw_lines: Iterable[str | bytes]) -> Iterator[Line]:
    """Numbered lines of a text, sorted by kind; CRLF, a lone CR and a UTF-8 BOM are fine."""
    number = 0
    for raw in raw_lines:
        plain = plain_text(raw)  # the common case, at once
        if plain is not None:
            number += 1
            yield Line(number, CELLS, plain, None, True)
            continue
        if number == 0 and isinstance(raw, bytes) and raw[:2] in UTF16_MARKS:
            yield Line(1, BROKEN, error=PuzzleError("UTF-16 text: save the file as UTF-8", line=1))
            return
        text = _decode(raw, number + 1)
        if isinstance(text, PuzzleError):
            number += 1
            yield Line(number, BROKEN, error=text)
            continue
        if number == 0:
            text = text.removeprefix("\ufeff")
        for piece in text.removesuffix("\n").removesuffix("\r").split("\r"):
            number += 1
            yield _classify(number, piece)
