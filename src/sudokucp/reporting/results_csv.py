"""results.csv written a block of rows at a time, each column turned to text at once: the text
pandas' `to_csv` writes (floats at full precision by repr, missing values empty, a cell quoted
when it holds a comma, a quote or a line break), in a fraction of its time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

BLOCK = 50_000  # rows turned to text at a time
SPECIAL = (",", '"', "\n", "\r")  # a cell holding one of these is quoted


def write_results_csv(frame: pd.DataFrame, path: str | Path) -> None:
    """Write `frame` (no index) to `path` as CSV, a header line then a line per row."""
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(",".join(map(quoted, map(str, frame.columns))) + "\n")
        for start in range(0, len(frame), BLOCK):
            block = frame.iloc[start:start + BLOCK]
            cells = [column_text(block[name]) for name in block.columns]
            out.write("\n".join(map(",".join, zip(*cells))) + "\n")


def column_text(column: pd.Series) -> list[str]:
    """The cells of a column as to_csv writes them: floats by repr, bools and whole numbers
    by str, missing values empty, texts quoted where needed."""
    kind = column.dtype.kind if isinstance(column.dtype, np.dtype) else "O"
    values = column.to_numpy(dtype=None if kind != "O" else object)
    if kind == "f":
        text = list(map(repr, values.tolist()))
        for place in np.flatnonzero(np.isnan(values)).tolist():
            text[place] = ""
        return text
    if kind in "iub":
        return list(map(str, values.tolist()))
    strings = isinstance(column.dtype, pd.StringDtype)  # str, or missing (emptied below)
    text = values.tolist() if strings else list(map(_text, values.tolist()))
    for place in np.flatnonzero(pd.isna(column).to_numpy()).tolist():
        text[place] = ""
    every = "".join(text)
    if any(mark in every for mark in SPECIAL):
        return list(map(quoted, text))
    return text


def _text(value: Any) -> str:
    """A cell's text as Python's csv module writes it: floats by repr, the rest by str."""
    if type(value) is str:
        return value
    return repr(float(value)) if isinstance(value, float) else str(value)


def quoted(cell: str) -> str:
    """The cell in double quotes (its quotes doubled) when it holds a comma, a quote or a line
    break; as it is otherwise."""
    if any(mark in cell for mark in SPECIAL):
        return '"' + cell.replace('"', '""') + '"'
    return cell
