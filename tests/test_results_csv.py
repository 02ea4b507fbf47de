"""results.csv written by column: the text pandas' to_csv writes, cell for cell."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from sudokucp.reporting import results_csv
from sudokucp.reporting.results_csv import write_results_csv


def _frame() -> pd.DataFrame:
    return pd.DataFrame({
        "puzzle": pd.array(["p,1", 'say "hi"', "two\nlines", None, "plain"], dtype="str"),
        "status": ["solved", "timeout", "wrong", "error", "solved"],
        "verified": [True, False, True, False, True],
        "maybe": [True, None, False, None, True],
        "seconds": [0.1, 1e16, 1e-07, np.nan, -0.0],
        "big": [np.inf, 123456789.123, 2.5e-300, 0.0005930000000000102, 1 / 3],
        "count": np.array([0, 1, 2**53, -3, 7], dtype=np.int64),
        "error": [None, "answered after 12.00 s, past the 10 s limit", np.nan, "x", pd.NA],
        "mixed": [None, 2.5, "z", 3, np.float64(0.25)],
        "nodes": pd.array([1, None, 3, 4, 5], dtype="Int64"),
    })


def _written(frame: pd.DataFrame, tmp_path) -> str:
    path = tmp_path / "results.csv"
    write_results_csv(frame, path)
    return path.read_bytes().decode("utf-8")


def test_the_text_is_the_text_to_csv_writes(tmp_path):
    frame = _frame()
    assert _written(frame, tmp_path) == frame.to_csv(index=False)


def test_blocks_of_rows_join_into_one_file(tmp_path, monkeypatch):
    monkeypatch.setattr(results_csv, "BLOCK", 2)
    frame = pd.concat([_frame()] * 3, ignore_index=True)
    assert _written(frame, tmp_path) == frame.to_csv(index=False)


def test_no_row_writes_the_header_alone(tmp_path):
    frame = _frame().iloc[:0]
    assert _written(frame, tmp_path) == frame.to_csv(index=False) == (
        ",".join(frame.columns) + "\n")


def test_a_carriage_return_is_quoted_so_the_file_reads_back(tmp_path):
    frame = pd.DataFrame({"error": ["torn\rline", "fine"], "seconds": [1.5, 2.0]})
    text = _written(frame, tmp_path)
    assert '"torn\rline"' in text
    back = pd.read_csv(io.StringIO(text))
    assert back["error"].tolist() == ["torn\rline", "fine"]
    assert back["seconds"].tolist() == [1.5, 2.0]
