"""Named public collections: the catalogue, download with a pinned SHA-256, conversion, cache.

`fetch("top95")` gives the converted file's path, downloading it the first time;
`source("top95")` does the same for a command's FILE argument and passes real paths through.
"""

from __future__ import annotations

from pathlib import Path

from sudokucp.datasets.catalog import BY_NAME, CATALOG, DataSet
from sudokucp.datasets.fetch import (
    CACHE_ENV,
    MIRROR_ENV,
    DatasetError,
    add,
    by_hand,
    cache_dir,
    cached,
    fetch,
    get,
    next_step,
    source_url,
)


def source(text: str, progress: bool = False) -> str:
    """A puzzle source as given: a path (or '-') as it is, a set's name as its converted file
    (fetched on first use). A name that is both a file here and a set reads the file."""
    if text == "-" or Path(text).exists() or text not in BY_NAME:
        return text
    return str(fetch(text, progress))


__all__ = ["BY_NAME", "CACHE_ENV", "CATALOG", "MIRROR_ENV", "DataSet", "DatasetError", "add",
           "by_hand", "cache_dir", "cached", "fetch", "get", "next_step", "source",
           "source_url"]
