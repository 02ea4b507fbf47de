"""Schemas of the imported structures: each field's type, range and size, checked before a
reader uses any of it. A mismatch is one PuzzleError naming the field ('killercage[2].cells')
and what it holds; fields a schema does not list are left alone (the reader may refuse them).

A schema is a table field -> Check; a Check takes the value and the grid's side (0 while the
side is not known yet) and raises Refused with the reason. The tables of each format live
beside its reader (io/fpuzzles.py); the checks here are the few they are made of.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from sudokucp.puzzle import MAX_SIDE, PuzzleError

Check = Callable[[Any, int], None]  # (value, side); raises Refused
Bound = Callable[[int], int]  # a limit computed from the side
Schema = Mapping[str, Check]
POSITION = re.compile(r"R(\d{1,4})C(\d{1,4})", re.IGNORECASE)
MAX_ITEMS = MAX_SIDE * MAX_SIDE  # no list of an imported puzzle holds more
MAX_DIGITS = 6  # characters of a number written as text: no sum or index is longer


class Refused(Exception):
    """A value that fails its check: the reason, and the path to it from the checked root."""

    def __init__(self, reason: str, path: str = "") -> None:
        super().__init__(reason)
        self.reason, self.path = reason, path

    def under(self, step: str) -> Refused:
        return Refused(self.reason, step + self.path)


def shown(value: Any) -> str:
    """A value as a message quotes it, cut short."""
    text = json.dumps(value) if isinstance(value, (list, dict, bool)) or value is None \
        else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def whole(low: Bound, high: Bound, *, numeral: bool = False) -> Check:
    """A whole number from low(side) to high(side): never a bool or a float; a string of
    digits too when `numeral` (f-puzzles writes cage sums as strings)."""

    def check(value: Any, side: int) -> None:
        if numeral and isinstance(value, str) and re.fullmatch(rf"\s*\d{{1,{MAX_DIGITS}}}\s*",
                                                               value):
            value = int(value)
        if type(value) is not int:
            raise Refused(f"{shown(value)} is not a whole number")
        lo, hi = low(side), high(side)
        if not lo <= value <= hi:
            raise Refused(f"{value} is not from {lo} to {hi}")

    return check


def flag(value: Any, side: int) -> None:
    """true, false or absent (null)."""
    if value is not None and not isinstance(value, bool):
        raise Refused(f"{shown(value)} is not true or false")


def text(value: Any, side: int) -> None:
    """A string, or absent."""
    if value is not None and not isinstance(value, str):
        raise Refused(f"{shown(value)} is not a string")


def position(value: Any, side: int) -> None:
    """A cell written R1C1 on the grid."""
    found = POSITION.fullmatch(value) if isinstance(value, str) else None
    if not found:
        raise Refused(f"{shown(value)} is not a cell such as R1C1")
    row, col = int(found.group(1)), int(found.group(2))
    if not (1 <= row <= side and 1 <= col <= side):
        raise Refused(f"{value} is off the {side}x{side} grid")


def optional(check: Check) -> Check:
    """`check`, or absent (null)."""

    def check_optional(value: Any, side: int) -> None:
        if value is not None:
            check(value, side)

    return check_optional


def items(check: Check, low: Bound, high: Bound) -> Check:
    """A list of low(side) to high(side) items, each passing `check` (its index named)."""

    def check_list(value: Any, side: int) -> None:
        if not isinstance(value, list):
            raise Refused(f"{shown(value)} is not a list")
        lo, hi = low(side), high(side)
        if not lo <= len(value) <= hi:
            raise Refused(f"a list of {len(value)} items, not {lo} to {hi}")
        for k, item in enumerate(value):
            under(f"[{k}]", check, item, side)

    return check_list


def record(schema: Schema) -> Check:
    """An object whose fields pass their checks (a field not listed is left alone)."""

    def check(value: Any, side: int) -> None:
        if not isinstance(value, dict):
            raise Refused(f"{shown(value)} is not an object {{...}}")
        for key, check_field in schema.items():
            under(f".{key}", check_field, value.get(key), side)

    return check


def under(path: str, check: Check, value: Any, side: int) -> None:
    """Run `check` on a part of a value; a refusal is named at `path` below it."""
    try:
        check(value, side)
    except Refused as err:
        raise err.under(path) from None


def validate(value: Any, check: Check, side: int, what: str) -> None:
    """Raise PuzzleError naming the field of `what` ('f-puzzles', 'killer JSON') that fails."""
    try:
        check(value, side)
    except Refused as err:
        field = err.path.lstrip(".")
        raise PuzzleError(f"{what}: {field}: {err.reason}" if field else f"{what}: {err.reason}"
                          ) from None


def loads(raw: str, what: str) -> Any:
    """JSON text read; None when it is no JSON; nesting too deep to read is refused."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise PuzzleError(f"{what}: nested too deep to read") from None
    except ValueError:
        return None


def at_least(low: int) -> Bound:
    """A fixed bound, as `items` and `whole` take them."""
    return lambda side: low


def digit(value: Any, side: int) -> None:
    """A digit of the grid, 1 to side."""
    if type(value) is not int:
        raise Refused(f"{shown(value)} is not a digit of a {side}x{side} grid")
    if not 1 <= value <= side:
        raise Refused(f"{value} is not a digit of a {side}x{side} grid")


def grid(cell: Check) -> Check:
    """side rows of side cells, each passing `cell` (named r1c1)."""

    def check(value: Any, side: int) -> None:
        if not (isinstance(value, list) and len(value) == side
                and all(isinstance(row, list) and len(row) == side for row in value)):
            raise Refused(f"not {side} rows of {side} cells")
        for i, row in enumerate(value):
            for j, item in enumerate(row):
                under(f" r{i + 1}c{j + 1}", cell, item, side)

    return check
