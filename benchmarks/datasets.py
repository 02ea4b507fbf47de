"""The whole public sets checked (the tests read samples of them, tests/data/upstream): the
catalogue against the data-set manifest, each pinned upstream file against its SHA-256, size and
puzzle count, converted and read back by the project's reader (reports/datasets.md).

    python benchmarks/datasets.py [--shared ../shared/datasets] [--out reports/datasets.md]

The upstream files come from --shared (MANIFEST.tsv and raw/), else from the data-set cache
(`sudoku-cp datasets fetch NAME` puts them there; the manifest check is then left out). A set
whose file is in neither is listed as not checked. Exit status 1 when anything disagrees.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from common import Provenance, write_report  # noqa: E402

from sudokucp import datasets  # noqa: E402
from sudokucp.datasets.catalog import BY_NAME, CATALOG  # noqa: E402
from sudokucp.datasets.convert import convert, to_text  # noqa: E402
from sudokucp.io.files import write_text  # noqa: E402
from sudokucp.io.formats import read_puzzles  # noqa: E402

INVALID = "sudopedia_invalid"  # 3 of its 7 repeat a given: the reader refuses exactly those


def manifest_problems(shared: Path) -> list[str]:
    """Where the catalogue and MANIFEST.tsv disagree on a set's pin."""
    with (shared / "MANIFEST.tsv").open(newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    problems = []
    for row in rows:
        data = BY_NAME.get(row["name"])
        if data is None:
            problems.append(f"{row['name']}: in the manifest, not in the catalogue")
            continue
        mine = (data.url, data.sha256, data.size, data.licence, data.commit, data.puzzles)
        theirs = (row["url"], row["sha256"], int(row["bytes"]), row["licence"], row["commit"],
                  int(row["puzzles"]))
        if mine != theirs:
            problems.append(f"{row['name']}: catalogue {mine} != manifest {theirs}")
    return problems


def raw_file(data, shared: Path | None) -> Path | None:
    """The set's upstream file: beside the checkout, else in the data-set cache."""
    if shared is not None and (shared / "raw" / data.raw).is_file():
        return shared / "raw" / data.raw
    try:
        cached = datasets.cache_dir() / "raw" / data.raw
    except datasets.DatasetError:
        return None
    return cached if cached.is_file() else None


def check(data, raw: Path, folder: Path) -> str | None:
    """What is wrong with one set's whole file (None: nothing)."""
    body = raw.read_bytes()
    if (hashlib.sha256(body).hexdigest(), len(body)) != (data.sha256, data.size):
        return f"{raw}: off its pin"
    items = convert(body.decode(), data.converter, data.side)
    if len(items) != data.puzzles or len({i.index for i in items}) != len(items):
        return f"{len(items)} puzzles converted, {data.puzzles} expected"
    path = folder / f"{data.name}.txt"
    write_text(path, to_text(items, [data.name], data.name))
    entries = read_puzzles(path)
    bad = [e.comment for e in entries if e.error is not None]
    expected = ["box duplicate", "column duplicate", "row duplicate"] if data.name == INVALID \
        else []
    if len(entries) != len(items) or bad != expected:
        return f"read back: {len(entries)} entries, refused {bad}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "datasets.md")
    args = parser.parse_args(argv)
    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])
    shared = args.shared if (args.shared / "MANIFEST.tsv").is_file() else None
    problems = manifest_problems(shared) if shared else []
    lines = ["# The public sets, whole", "",
             f"- upstream files from {args.shared if shared else 'the data-set cache'}",
             "", "| set | puzzles | check |", "|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        for data in (d for d in CATALOG if d.pinned):
            raw = raw_file(data, shared)
            wrong = check(data, raw, Path(folder)) if raw else None
            problems += [f"{data.name}: {wrong}"] if wrong else []
            verdict = "not checked (no file)" if raw is None else wrong or "as pinned"
            lines.append(f"| {data.name} | {data.puzzles:,} | {verdict} |")
    lines += ["", "Manifest: " + ("not read" if not shared else
                                  "agrees" if not manifest_problems(shared) else "disagrees"),
              *(f"- {p}" for p in problems), ""]
    lines[2:2] = provenance.lines()  # the load at the end taken now
    write_report(args.out, "\n".join(lines))
    print("\n".join(lines))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
