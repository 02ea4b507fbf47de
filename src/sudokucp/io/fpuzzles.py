"""Readers and writers of f-puzzles strings and of variant JSON files.

f-puzzles (and SudokuPad's import of it) exchange a puzzle as base64 of LZ-string compressed
JSON, alone or after '?load=' in a link: its givens, diagonals, extra regions, killer cages,
irregular regions, given pencil marks, anti-knight and anti-king are read; any other
constraint is refused by name. A .json file holds a killer's cages ({"result": sum,
"indices": [[row, col], ...]} each, 1-based; ConstraintSolver.jl's benchmark data) or an
f-puzzles object.

Each structure is checked against its schema (FPUZZLES, KILLER: io/schema.py's checks) before
any of it is used: a field of the wrong type, range or size is one PuzzleError naming it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sudokucp.io.schema import (
    MAX_ITEMS,
    Check,
    at_least,
    digit,
    flag,
    grid,
    items,
    loads,
    optional,
    position,
    record,
    text,
    validate,
    whole,
)
from sudokucp.io.variants import refuse_clashes
from sudokucp.puzzle import LINE_SIDE, Puzzle, PuzzleError, Shape, geometry
from sudokucp.rules import Cage, Rules, diagonal_cells, digits_of, window_cells

FPUZZLES_START = "N4Ig"  # how LZ-string's base64 of '{"' begins: every f-puzzles string
FPUZZLES_IGNORED = frozenset({"size", "grid", "title", "author", "ruleset", "solution", "text",
                              "line", "rectangle", "circle", "cage", "disabledlogic",
                              "truecandidatesoptions", "negative", "highlight",
                              "activeConstraints"})  # no rule
FPUZZLES_READ = frozenset({"diagonal+", "diagonal-", "extraregion", "killercage", "antiknight",
                           "antiking"})


def cage_sum(value: Any, side: int) -> None:
    """A cage's sum: none ('' or absent), or 1 to the sum of every digit."""
    if value not in (None, ""):
        whole(at_least(1), lambda n: n * (n + 1) // 2, numeral=True)(value, side)


FPUZZLES_CELL: Check = optional(record({
    "value": optional(whole(at_least(1), lambda n: n, numeral=True)),
    "given": flag,
    "region": optional(whole(at_least(0), lambda n: n - 1)),
    "givenPencilMarks": optional(items(digit, at_least(0), lambda n: n)),
}))
FPUZZLES: Check = record({  # checked once 'size' has given the side
    "title": text,
    "grid": grid(FPUZZLES_CELL),
    **dict.fromkeys(("diagonal+", "diagonal-", "antiknight", "antiking"), flag),
    "extraregion": optional(items(record({"cells": items(position, at_least(1), lambda n: n)}),
                                  at_least(0), at_least(MAX_ITEMS))),
    "killercage": optional(items(record({"cells": items(position, at_least(1), lambda n: n),
                                         "value": cage_sum}),
                                 at_least(0), at_least(MAX_ITEMS))),
})
# variants are written a character per cell (io/variants.py): sides up to LINE_SIDE
MAX_SIDE = LINE_SIDE
SIZE: Check = record({"size": whole(at_least(4), at_least(MAX_SIDE))})
KILLER: Check = items(record({
    "result": optional(whole(at_least(1), at_least(MAX_SIDE * (MAX_SIDE + 1) // 2))),
    "indices": items(items(whole(at_least(1), at_least(MAX_SIDE)), at_least(2), at_least(2)),
                     at_least(1), at_least(MAX_SIDE)),
}), at_least(1), at_least(MAX_ITEMS))


# --- f-puzzles -----------------------------------------------------------------------------------

def fpuzzles_payload(text: str) -> str | None:
    """The base64 data of an f-puzzles string or link on a line, or None when it is none."""
    from urllib.parse import unquote

    stripped = text.strip()
    _, sep, after = stripped.partition("load=")
    data = unquote(after.split("&")[0]) if sep else stripped
    return data if data.startswith(FPUZZLES_START) and " " not in data else None


def read_fpuzzles(text: str, name: str = "", line: int | None = None) -> Puzzle:
    """The puzzle of an f-puzzles string (base64 of LZ-string compressed JSON) or link."""
    data = fpuzzles_payload(text)
    if data is None:
        raise PuzzleError("not an f-puzzles string (it starts with N4Ig, alone or after "
                          "'?load=')", line=line)
    try:
        import lzstring
    except ModuleNotFoundError:
        raise PuzzleError("reading f-puzzles needs the package lzstring: pip install "
                          "'sudoku-cp[variants]'", line=line) from None
    try:
        try:
            decoded = lzstring.LZString().decompressFromBase64(data)
        except (ValueError, TypeError, IndexError, KeyError):
            decoded = None
        found = loads(decoded, "f-puzzles") if decoded else None
        if not isinstance(found, dict):
            raise PuzzleError("the f-puzzles string does not decompress to a puzzle (cut short "
                              "when pasted?)")
        return fpuzzles_puzzle(found, name)
    except PuzzleError as err:
        raise err.at_line(line) if line is not None else err from None


def fpuzzles_puzzle(data: Any, name: str = "") -> Puzzle:
    """The puzzle of an f-puzzles JSON object, checked against FPUZZLES first."""
    validate(data, record({}), 0, "f-puzzles")
    _refuse_constraints(data)
    validate(data, SIZE, 0, "f-puzzles")
    shape = _fpuzzles_shape(data)
    n = shape.side
    validate(data, FPUZZLES, n, "f-puzzles")
    cells = [c or {} for row in data["grid"] for c in row]
    givens = tuple(int(c.get("value") or 0) if c.get("given") else 0 for c in cells)
    rules = Rules(diagonals=bool(data.get("diagonal+")) and bool(data.get("diagonal-")),
                  windows=_windows(data, shape), units=_fpuzzles_units(data, shape),
                  regions=_fpuzzles_regions(cells, shape),
                  cages=tuple(Cage(_positions(c["cells"], n),
                                   int(c["value"]) if str(c.get("value") or "").strip()
                                   else None)
                              for c in data.get("killercage") or ()),
                  candidates=_fpuzzles_candidates(cells, n),
                  anti_knight=bool(data.get("antiknight")), anti_king=bool(data.get("antiking")))
    title = name or str(data.get("title") or "")
    why = rules.problem(n)
    if why:
        raise PuzzleError(f"f-puzzles: {why}")
    refuse_clashes(shape, givens, rules, {})
    return Puzzle(shape, givens, title, rules)


def _refuse_constraints(data: Mapping[str, Any]) -> None:
    for key, value in data.items():
        if value and key not in FPUZZLES_IGNORED and key not in FPUZZLES_READ:
            raise PuzzleError(f"f-puzzles constraint {str(key)[:40]!r} is not supported (read: "
                              f"the givens, diagonals, extra regions, killer cages, irregular "
                              f"regions, given pencil marks, anti-knight and anti-king)")


def _fpuzzles_shape(data: Mapping[str, Any]) -> Shape:
    if data.get("size") is None:
        raise PuzzleError("an f-puzzles puzzle has no 'size'")
    try:
        return Shape.for_side(data["size"])
    except PuzzleError as err:
        raise PuzzleError(f"f-puzzles: size: {err.reason}") from None


def _positions(names: Sequence[str], side: int) -> tuple[int, ...]:
    """Cells of f-puzzles positions ('R1C1'), checked by the schema."""
    cells = []
    for pos in names:
        row, col = (int(x) for x in pos.upper().lstrip("R").split("C"))
        cells.append((row - 1) * side + col - 1)
    return tuple(cells)


def _extra(data: Mapping[str, Any], side: int) -> list[tuple[int, ...]]:
    """The extra regions and a lone diagonal, as groups of cells."""
    out = [tuple(sorted(_positions(r["cells"], side))) for r in data.get("extraregion") or ()]
    main, anti = diagonal_cells(side)
    if bool(data.get("diagonal+")) != bool(data.get("diagonal-")):
        out.append(anti if data.get("diagonal+") else main)
    return out


def _windows(data: Mapping[str, Any], shape: Shape) -> bool:
    """Whether the extra regions include every windoku window."""
    windows = {tuple(sorted(w)) for w in window_cells(shape.box_rows, shape.box_cols)}
    return bool(windows) and windows <= set(_extra(data, shape.side))


def _fpuzzles_units(data: Mapping[str, Any], shape: Shape) -> tuple[tuple[int, ...], ...]:
    extra = _extra(data, shape.side)
    if _windows(data, shape):
        windows = {tuple(sorted(w)) for w in window_cells(shape.box_rows, shape.box_cols)}
        extra = [u for u in extra if u not in windows]
    return tuple(extra)


def _fpuzzles_regions(cells: Sequence[Mapping[str, Any]], shape: Shape
                      ) -> tuple[tuple[int, ...], ...]:
    """Irregular regions when a cell names one (0-based); () when they are the boxes."""
    if not any(c.get("region") is not None for c in cells):
        return ()
    n = shape.side
    boxes = geometry(shape).cell_units
    found: dict[int, list[int]] = {}
    for cell, c in enumerate(cells):
        region = c.get("region")
        found.setdefault(boxes[cell][2] - 2 * n if region is None else region, []).append(cell)
    regions = tuple(tuple(v) for v in found.values())
    standard = {tuple(b) for b in geometry(shape).units[2 * n:]}
    return () if {tuple(sorted(r)) for r in regions} == standard else regions


def _fpuzzles_candidates(cells: Sequence[Mapping[str, Any]], side: int) -> tuple[int, ...]:
    """Given pencil marks as masks (every digit where a cell has none); () when none is."""
    if not any(c.get("givenPencilMarks") for c in cells):
        return ()
    full = (1 << side) - 1
    return tuple(sum(1 << (d - 1) for d in set(c.get("givenPencilMarks") or ())) or full
                 for c in cells)


def to_fpuzzles_json(puzzle: Puzzle) -> dict[str, Any]:
    """The f-puzzles JSON object of a puzzle."""
    n, rules = puzzle.side, puzzle.rules
    region = {c: k for k, cells in enumerate(rules.regions) for c in cells}
    full = (1 << n) - 1
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            cell, entry = i * n + j, {}
            if puzzle.cells[cell]:
                entry.update(value=puzzle.cells[cell], given=True)
            if rules.regions:
                entry["region"] = region[cell]
            if rules.candidates and rules.candidates[cell] != full:
                entry["givenPencilMarks"] = digits_of(rules.candidates[cell])
            row.append(entry)
        rows.append(row)
    data: dict[str, Any] = {"size": n, "title": puzzle.name, "grid": rows}
    if rules.diagonals:
        data["diagonal+"] = data["diagonal-"] = True
    for key, on in (("antiknight", rules.anti_knight), ("antiking", rules.anti_king)):
        if on:
            data[key] = True
    extra = [*(window_cells(puzzle.shape.box_rows, puzzle.shape.box_cols) if rules.windows
               else ()), *rules.units]
    if extra:
        data["extraregion"] = [{"cells": [_position(c, n) for c in u]} for u in extra]
    if rules.cages:
        data["killercage"] = [{"cells": [_position(c, n) for c in cage.cells],
                               **({} if cage.total is None else {"value": str(cage.total)})}
                              for cage in rules.cages]
    return data


def _position(cell: int, side: int) -> str:
    return f"R{cell // side + 1}C{cell % side + 1}"


def to_fpuzzles(puzzle: Puzzle) -> str:
    """The f-puzzles string of a puzzle: base64 of LZ-string compressed JSON."""
    import lzstring

    text = json.dumps(to_fpuzzles_json(puzzle), separators=(",", ":"))
    return lzstring.LZString().compressToBase64(text)


# --- JSON files ----------------------------------------------------------------------------------

def json_puzzles(text: str, stem: str = "") -> list[Puzzle] | None:
    """The puzzle of a JSON file: a killer's cage list or an f-puzzles object; None when the
    text is neither (another reader may take it)."""
    data = loads(text, "JSON")
    if isinstance(data, dict) and "grid" in data and "size" in data:
        return [fpuzzles_puzzle(data, stem)]
    if isinstance(data, list) and data and all(isinstance(c, dict) and "indices" in c
                                               for c in data):
        return [killer_cages(data, stem)]
    return None


def killer_cages(cages: Any, name: str = "") -> Puzzle:
    """A killer without givens from cages {"result": sum, "indices": [[row, col], ...]}
    (1-based), checked against KILLER; the side is the largest row or column named."""
    validate(cages, KILLER, 0, "killer JSON")
    spots = [[(r, c) for r, c in cage["indices"]] for cage in cages]
    side = max(max(r, c) for cells in spots for r, c in cells)
    try:
        shape = Shape.for_side(side)
    except PuzzleError as err:
        raise PuzzleError(f"killer JSON: the largest row or column, {side}: {err.reason}"
                          ) from None
    made = tuple(Cage(tuple((r - 1) * side + c - 1 for r, c in cells), cage.get("result"))
                 for cells, cage in zip(spots, cages))
    rules = Rules(cages=made)
    why = rules.problem(side)
    if why:
        raise PuzzleError(f"killer JSON: {why}")
    return Puzzle(shape, (0,) * shape.cells, name, rules)

