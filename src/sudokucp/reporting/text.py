"""How the reports write numbers and names: three significant digits and never scientific
notation; names from the runs (backends, puzzles, error messages) made inert in Markdown."""

from __future__ import annotations

import html
import math
import re
from typing import Any

DIGITS = 3  # significant digits of every time and ratio the reports print
MARKDOWN = re.compile(r"([\\`*\[\]|])")  # what would make Markdown of a name: escaped
CODE = re.compile(r"(`[^`]*`)")  # a code span of a settings line, already inert


def sig(value: float, digits: int = DIGITS) -> str:
    """`value` with `digits` significant digits, trailing zeros kept, in positional notation
    ('0.0622', '1.10', '1230'); '' for NaN, 'inf' for infinity."""
    if value != value:
        return ""
    if math.isinf(value) or value == 0:
        return "inf" if math.isinf(value) else "0"
    rounded = float(f"{value:.{digits - 1}e}")
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(rounded))))
    return f"{rounded:.{decimals}f}"


def times(ratio: float) -> str:
    """A ratio as '1.24×'."""
    return f"{sig(ratio)}×"


def interval(low: float, high: float) -> str:
    """'[1.10, 1.41]'."""
    return f"[{sig(low)}, {sig(high)}]"


def md(text: Any) -> str:
    """Text from the runs, inert in Markdown: HTML's special characters as entities, Markdown's
    backslash-escaped, line breaks as spaces."""
    plain = html.escape(str(text), quote=False).replace("\r", " ").replace("\n", " ")
    return MARKDOWN.sub(r"\\\1", plain)


def md_line(text: str) -> str:
    """A line that may hold `code` spans (inert as they are, a backtick inside one cannot
    close it early), the rest escaped as md() does."""
    return "".join(part if CODE.fullmatch(part) else md(part) for part in CODE.split(text))
