"""The datasets command: list the named collections, fetch one, or install a copy made by hand."""

from __future__ import annotations

import argparse
import sys

from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    BadEntries,
    CommandError,
    add_command,
    plural,
    read_entries,
    shape_arg,
)


def add_datasets(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "datasets", run_datasets)
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    fetch = actions.add_parser("fetch", help="download, check and convert sets",
                               description="Download each set from its pinned URL (needs the "
                                           "[datasets] extra), check its SHA-256, convert it and "
                                           "print the converted file's path.")
    fetch.add_argument("names", nargs="+", metavar="NAME")
    add = actions.add_parser("add", help="install a set's upstream file obtained by hand",
                             description="Check FILE against the set's pinned SHA-256 and "
                                         "size, keep it in the cache and convert it (for a "
                                         "machine without a network).")
    add.add_argument("name", metavar="NAME")
    add.add_argument("file", metavar="FILE")
    overlap = actions.add_parser("overlap", help="puzzles two sets share up to isomorphism",
                                 description="Group the puzzles of A and of B by canonical form "
                                             "(`sudoku-cp canon`) and count the classes each "
                                             "holds, the duplicates within each, and the classes "
                                             "both hold. A and B are set names or files.")
    overlap.add_argument("first", metavar="A")
    overlap.add_argument("second", metavar="B")
    overlap.add_argument("--list", action="store_true",
                         help="also print each shared class: its first puzzle in A and in B")
    overlap.add_argument("--shape", type=shape_arg,
                         help="grid shape when the cell count is ambiguous")


def run_datasets(args: argparse.Namespace) -> int:
    from sudokucp import datasets

    try:
        if args.action == "fetch":
            for name in args.names:
                print(fetch_one(name))
        elif args.action == "overlap":
            return run_overlap(args)
        elif args.action == "add":
            path, digest = datasets.add(args.name, args.file)
            pinned = "matches the pin" if datasets.get(args.name).pinned else "(not pinned)"
            print(f"{args.file}: SHA-256 {digest} {pinned}; converted to {path}")
        else:
            print(listing())
    except datasets.DatasetError as err:
        raise CommandError(str(err)) from None
    return EXIT_OK


FORM_SECONDS = 10.0  # for one grid's canonical form (as `sudoku-cp canon`'s --timeout)


def run_overlap(args: argparse.Namespace) -> int:
    """Print each set's classes and duplicates, then the classes both hold."""
    from sudokucp.isomorph import classes

    grouped, code = [], EXIT_OK
    for source in (args.first, args.second):
        bad, good = BadEntries(source), []
        for entry in read_entries(source, args.shape):
            if entry.puzzle is None:
                bad.report(entry)
                code = EXIT_USAGE
            else:
                good.append(entry.puzzle)
        bad.finish()
        try:
            grouped.append(classes(good, timeout=FORM_SECONDS))
        except ValueError as err:  # a variant, or a form not found in time
            raise CommandError(f"{source}: {err}") from None
        held = sum(len(members) for members in grouped[-1].values())
        print(f"{source}: {plural(held, 'puzzle')}, {_classes(len(grouped[-1]))}"
              f" ({plural(held - len(grouped[-1]), 'duplicate')} within)")
    one, two = grouped
    shared = [form for form in one if form in two]
    print(f"shared: {_classes(len(shared))} "
          f"({plural(sum(len(one[f]) for f in shared), 'puzzle')} of {args.first}, "
          f"{sum(len(two[f]) for f in shared)} of {args.second})")
    for form in shared if args.list else ():
        print(f"{one[form][0].name or '-'} = {two[form][0].name or '-'}  "
              f"{one[form][0].to_line()}  {two[form][0].to_line()}")
    return code


def _classes(count: int) -> str:
    return f"{count} class" if count == 1 else f"{count} classes"


def fetch_one(name: str) -> str:
    """The converted file of a set, saying on standard error what is done to make it: a
    download, or only a conversion of the upstream file already cached."""
    from sudokucp import datasets

    step = datasets.next_step(name)
    if step is not None:
        print(f"sudoku-cp: {step}", file=sys.stderr)
    return str(datasets.fetch(name, progress=True))


def listing() -> str:
    """The catalogue as an aligned table, then where the cache is."""
    from sudokucp import datasets

    rows = [("name", "puzzles", "shape", "licence", "cached", "source")]
    for data in datasets.CATALOG:
        count = f"{data.puzzles:,}" if data.puzzles is not None else "?"
        cached = "yes" if _is_cached(data.name) else ("no" if data.pinned else "by hand")
        rows.append((data.name, count, data.shape, data.licence, cached,
                     f"{data.repo}: {data.path}"))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = ["  ".join(cell.rjust(w) if i == 1 else cell.ljust(w)
                       for i, (cell, w) in enumerate(zip(row, widths))) + "  " + row[5]
             for row in rows]
    pinned = sum(d.pinned for d in datasets.CATALOG)
    lines.append(f"\n{plural(pinned, 'set')} pinned to a commit and a SHA-256 (`sudoku-cp "
                 f"datasets fetch NAME`); 'by hand': `sudoku-cp datasets add NAME FILE`")
    lines.append(f"cache: {_cache()}")
    return "\n".join(lines)


def _is_cached(name: str) -> bool:
    from sudokucp import datasets

    try:
        return datasets.cached(name) is not None
    except datasets.DatasetError:  # no cache folder can be named here
        return False


def _cache() -> str:
    from sudokucp import datasets

    try:
        return str(datasets.cache_dir())
    except datasets.DatasetError as err:
        return str(err)
