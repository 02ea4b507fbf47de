"""What compare and ladder read: backends (specs, names, Backend classes) and puzzles (files, data
sets, grids as text, Puzzles), the grids given one by one written as a file of their own."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sudokucp.backends import Backend, spec_name, split_specs
from sudokucp.harness.runplan import load_dataset
from sudokucp.i18n import _
from sudokucp.io.arguments import ArgumentError
from sudokucp.io.formats import parse_grid, parse_many
from sudokucp.io.variants import to_text
from sudokucp.puzzle import Puzzle, PuzzleError, Shape

PuzzlesLike = str | Path | Puzzle | Iterable[str | Path | Puzzle]
BackendsLike = str | type[Backend] | Iterable[str | type[Backend]]
GRIDS = "puzzles"  # the set that grids given one by one form (their file's stem)
MAX_PATH = 4096  # characters: a longer text is no path (the kernel's PATH_MAX)


def backend_specs(backends: BackendsLike) -> list[str]:
    """Specs from 'mrv, naive', 'all', a list of specs, or Backend subclasses; a class the
    worker processes cannot import (one defined in the notebook itself) is refused."""
    items = [backends] if isinstance(backends, str | type) else _listed(backends, "backends")
    specs = []
    for item in items:
        if isinstance(item, type):
            specs.append(_importable(item))
        elif isinstance(item, str):
            specs += split_specs(item)
        else:
            raise ArgumentError(_("backends: {item} is neither a backend's name nor a Backend "
                                  "class").format(item=_shown(item)))
    if not specs:
        raise ValueError(_("no backend to compare: name some, e.g. 'mrv, naive' or 'all'"))
    return specs


def _importable(cls: type[Backend]) -> str:
    """'module:Class' for a backend class; ValueError for one of the notebook's own module."""
    if not issubclass(cls, Backend):
        raise ValueError(_("{name} is not a Backend subclass").format(name=cls.__name__))
    if cls.__module__ == "__main__":
        raise ValueError(_("{name} is defined in the notebook itself, which the worker "
                           "processes cannot import: save it in a file (%%writefile "
                           "my_backend.py) and name it 'my_backend:{name}'").format(
            name=cls.__qualname__))
    return spec_name(cls)


def _listed(items: Any, what: str) -> list[Any]:
    """A list of what an iterable holds; ArgumentError naming `what` for anything else."""
    if isinstance(items, Iterable) and not isinstance(items, bytes | dict):
        return list(items)
    raise ArgumentError(_("{what}: {item} is neither a name nor a list of them").format(
        what=what, item=_shown(items)))


def _source_of(text: str) -> str | None:
    """A file's path, or a data set's converted file (fetched on first use); None when `text`
    is neither (text of several lines, or too long for a path, is never a path)."""
    if "\n" in text or len(text) > MAX_PATH:
        return None
    try:
        if Path(text).is_file():
            return text
    except (OSError, ValueError):
        return None
    from sudokucp import datasets

    if text in datasets.BY_NAME:
        return datasets.source(text)
    return None


def sources(puzzles: PuzzlesLike) -> tuple[list[str], list[Puzzle]]:
    """The files to read (paths, data sets fetched) and the puzzles given one by one (Puzzle
    objects, or grids as text)."""
    items = ([puzzles] if isinstance(puzzles, str | Path | Puzzle)
             else _listed(puzzles, "puzzles"))
    files, grids = [], []
    for item in items:
        if isinstance(item, Puzzle):
            grids.append(item)
            continue
        if not isinstance(item, str | Path):
            raise ArgumentError(_("puzzles: {item} is neither a file, a data set, a grid nor a "
                                  "Puzzle").format(item=_shown(item)))
        found = _source_of(str(item))
        if found is not None:
            files.append(found)
            continue
        grids += _read_text(str(item))
    if not files and not grids:
        raise ValueError(_("no puzzle given"))
    return files, grids


def _read_text(text: str) -> list[Puzzle]:
    """The puzzles of text given in place of a file, read as the file would be (comments,
    titles, one grid a line or over several lines); a bad entry is refused with its line."""
    entries = list(parse_many(text, stem=GRIDS)) if "\n" in text.strip() else []
    if not entries:
        try:
            return [parse_grid(text)]
        except PuzzleError as err:
            raise ArgumentError(_("{item}: no such file, no data set of that name, and not a "
                                  "grid ({reason})").format(item=_shown(text), reason=err)
                                ) from None
    for entry in entries:
        if entry.error is not None:
            raise ArgumentError(f"{_shown(text)}: {entry.error}")
    return [entry.puzzle for entry in entries]


def _shown(item: object) -> str:
    """A text or path quoted, anything else as Python writes it; cut short."""
    if not isinstance(item, str | Path):
        text = repr(item)
        return text if len(text) <= 40 else text[:37] + "..."
    text = str(item)
    return repr(text if len(text) <= 40 else text[:37] + "...")


def write_grids(grids: Sequence[Puzzle], folder: Path, name: str = GRIDS) -> Path:
    """The puzzles given one by one as `name`.txt, one-line grids, in `folder` (the tables call
    their set `name`); a shape whose boxes a line does not say (3x2 where the side says 2x3) is
    refused."""
    for puzzle in grids:
        if Shape.for_side(puzzle.side) != puzzle.shape:
            raise ValueError(_("{name}: a grid with {rows}x{cols} boxes cannot be written on "
                               "one line; give it in a file").format(
                name=puzzle.name or puzzle.to_line()[:20], rows=puzzle.shape.box_rows,
                cols=puzzle.shape.box_cols))
    if not re.fullmatch(r"[\w.-]+", name):
        raise ValueError(_("{name!r} cannot name a set of grids: use letters, digits, '_', '.' "
                           "or '-'").format(name=name))
    path = folder / f"{name}.txt"
    path.write_text("".join(p.to_line() + "\n" if p.rules.classic else to_text(p) + "\n"
                            for p in grids), encoding="utf-8")
    return path

def puzzle_sets(puzzles: PuzzlesLike, max_puzzles: int | None = None, name: str = GRIDS
                ) -> list[tuple[str, list[Puzzle]]]:
    """(name, puzzles) per file or data set, then the puzzles given one by one as one set,
    `name`."""
    files, grids = sources(puzzles)
    sets = []
    for path in files:
        data = load_dataset(path, max_puzzles)
        if data.problems:
            raise ValueError("; ".join(data.problems[:3]))
        sets.append((data.name, data.puzzles))
    if grids:
        sets.append((name, grids[:max_puzzles]))
    return sets

