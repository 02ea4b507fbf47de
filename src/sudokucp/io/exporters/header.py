"""The comment lines every exported file opens with, and reading them back: the format, the shape,
the puzzle's name, hash and givens, and how a model decodes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sudokucp.puzzle import LINE_SIDE, SYMBOLS, Puzzle, PuzzleError, Shape

TAG = "sudoku-cp export"
FIELDS = re.compile(r"^(?:c|\*|%|<!--)?\s*(sudoku-cp export|shape|puzzle|givens): (.*?)\s*"
                    r"(?:-->)?$")
SCANNED = 40  # lines looked at for the header


@dataclass(frozen=True)
class Header:
    """What an exported file says of itself."""

    format: str
    puzzle: Puzzle


def header_lines(puzzle: Puzzle, title: str, how: str) -> list[str]:
    """The comment lines (without their comment marker) of an exported puzzle."""
    shape = puzzle.shape
    return [f"{TAG}: {title}",
            f"shape: {shape} (boxes {shape.box_rows}x{shape.box_cols})",
            f"puzzle: {safe(puzzle.name) or '-'}   hash: {puzzle.digest}",
            f"givens: {puzzle.to_line()}",
            f"decode: {how}",
            "a solver's output decodes with: sudoku-cp decode THIS_FILE OUTPUT"]


def safe(name: str) -> str:
    """A name fit for any comment: one line, no '--' (which ends an XML comment)."""
    return " ".join(name.split()).replace("--", "-")


def read_header(text: str, formats: dict[str, str]) -> Header:
    """The header of an exported file; `formats` maps each title to its format name. A file
    without one is a PuzzleError saying so."""
    found: dict[str, str] = {}
    for line in text.splitlines()[:SCANNED]:
        match = FIELDS.match(line.strip())
        if match:
            found.setdefault(match.group(1), match.group(2).strip())
    missing = [k for k in (TAG, "shape", "givens") if k not in found]
    if missing:
        raise PuzzleError(f"not a file of `sudoku-cp export`: no {', '.join(missing)} line "
                          f"in its first {SCANNED} lines")
    title = found[TAG]
    if title not in formats:
        raise PuzzleError(f"unknown export format {title!r}")
    boxes = re.search(r"boxes (\d+)x(\d+)", found["shape"])
    if boxes is None:
        raise PuzzleError(f"cannot read the shape line {found['shape']!r}")
    shape = Shape(int(boxes.group(1)), int(boxes.group(2)))
    name = found.get("puzzle", "-").split("   hash:")[0].strip()
    return Header(formats[title], Puzzle(shape, givens_of(found["givens"], shape),
                                         "" if name == "-" else name))


def givens_of(line: str, shape: Shape) -> tuple[int, ...]:
    """The cells of a givens line as written (repeated givens kept: such a grid is UNSAT)."""
    if shape.side > LINE_SIDE:
        return _numbers_of(line, shape)
    symbols = SYMBOLS[:shape.side + 1]
    bad = next((ch for ch in line if ch not in symbols), None)
    if bad is not None or len(line) != shape.cells:
        raise PuzzleError(f"the givens line is not a {shape} grid of '.' and 1-{symbols[-1]}")
    return tuple(symbols.index(ch) for ch in line)


def _numbers_of(line: str, shape: Shape) -> tuple[int, ...]:
    """The cells of a givens line past a side of 35: numbers apart, '.' for a blank."""
    words = line.split()
    values = [0 if w == "." else int(w) if w.isascii() and w.isdigit() else -1 for w in words]
    if len(values) != shape.cells or not all(0 <= v <= shape.side for v in values):
        raise PuzzleError(f"the givens line is not a {shape} grid of '.' and 1-{shape.side}")
    return tuple(values)
