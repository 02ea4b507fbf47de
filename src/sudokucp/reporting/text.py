"""How the reports write numbers and names: three significant digits and never scientific
notation; names from the runs (backends, puzzles, error messages) made inert in Markdown."""

from __future__ import annotations

import html
import math
import re
from typing import Any

DIGITS = 3  # significant digits of every time and ratio the reports print
MARKDOWN = re.compile(r"([\\`*\[\]|])")  # what would make Markdown of a name: escaped
CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")  # a code span: a fence, the same fence


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


def code(text: Any) -> str:
    """`text` as a Markdown code span: its fence longer than any run of backticks inside, so
    that a backtick in a file name cannot close it early."""
    text = str(text).replace("\r", " ").replace("\n", " ")
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def spans(text: str) -> list[tuple[bool, str]]:
    """`text` cut into plain parts and code spans' contents: (is_code, content)."""
    parts, end = [], 0
    for span in CODE.finditer(text):
        inner = span.group(2)
        if inner[:1] == inner[-1:] == " " and inner.strip():
            inner = inner[1:-1]
        parts += [(False, text[end:span.start()]), (True, inner)]
        end = span.end()
    return [*parts, (False, text[end:])]


def md_line(text: str) -> str:
    """A line that may hold code spans (kept as code, inert), the rest escaped as md() does."""
    return "".join(code(part) if is_code else md(part) for is_code, part in spans(text))
