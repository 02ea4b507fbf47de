"""The backends command: every backend listed (availability, version, options, kinds, memory
while counting), its kernels compiled ahead (--warm), its contract checked (--check)."""

from __future__ import annotations

import argparse
import sys

from sudokucp.backends import ALIASES, BACKENDS, WRAPPERS, backend_class, unavailable_reason
from sudokucp.cli.common import EXIT_OK, CommandError, add_command, terminal_columns


def add_backends(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "backends", run_backends)
    p.add_argument("--warm", metavar="BACKEND",
                   help="compile a compiled backend's kernels now (jit), a line for each, so "
                        "that no later run waits for them")
    p.add_argument("--check", metavar="SPEC",
                   help="run the backend contract's checks on one backend, registered or "
                        "module:Class; exit 0 when all pass, 1 naming each failure")


def run_backends(args: argparse.Namespace) -> int:
    """Every backend as a line (name, available, version) and its options, description and
    why it is not available below it, all wrapped to the terminal's width."""
    if args.warm:
        return _warm(args.warm)
    if args.check:
        from sudokucp.cli.contract import run_check

        return run_check(args.check)
    width = max(terminal_columns(), 40)
    rows, notes, counting = [("name", "available", "version")], [], []
    for name in [*BACKENDS, *WRAPPERS]:
        try:
            cls = backend_class(name)
        except ImportError as err:
            rows.append((name, "no", "-"))
            notes.append([f"cannot load: {err}"])
            continue
        options = " ".join(f"{k}={v}" for k, v in cls.defaults.items()) or "-"
        rows.append((name, "yes" if cls.available() else "no", cls.version()))
        notes.append([cls.description, f"options: {options}", f"kinds: {_kinds(cls)}",
                      f"sides: 4 to {cls.max_side}"]
                     + ([] if cls.available() else [f"not available: {unavailable_reason(cls)}"]))
        counting.append((name, cls.counting))
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    print(_row(rows[0], widths))
    for row, lines in zip(rows[1:], notes):
        print(_row(row, widths))
        for line in lines:
            print(_wrap(line, width, "    ", "      "))
    print("\n" + _wrap("memory while counting (solve --count, --all; cap it with solve "
                       "--memory MB):", width, "", ""))
    first = max(len(name) for name, _ in counting)
    for name, how in counting:
        print(_wrap(how, width, f"  {name.ljust(first)}  ", " " * (first + 4)))
    aliases = ", ".join(f"{a} -> {n}" for a, n in sorted(ALIASES.items()))
    print("\n" + _wrap(f"aliases: {aliases}", width, "", "  "))
    return EXIT_OK


def _kinds(cls: type) -> str:
    """The puzzle kinds a backend takes, in the order of sudokucp.rules.KINDS."""
    from sudokucp.rules import CLASSIC_KIND, KINDS

    return ", ".join(k for k in (CLASSIC_KIND, *KINDS) if k in cls.kinds)


def _warm(name: str) -> int:
    """Compile a backend's kernels ahead (its compile_ahead hook), a progress line for each."""
    import time

    cls = backend_class(name)
    if not cls.compiles_ahead:
        raise CommandError(f"--warm: {name} compiles nothing ahead (jit does)")
    if not cls.available():
        raise CommandError(f"--warm: {name} is not available here: {unavailable_reason(cls)}")
    start = time.perf_counter()
    done = cls.compile_ahead(lambda what, i, total: print(
        f"{name}: {what} ({i + 1}/{total})…", file=sys.stderr, flush=True))
    print(f"{name}: in {time.perf_counter() - start:.1f} s, {done}")
    return EXIT_OK


def _wrap(text: str, width: int, first: str, rest: str) -> str:
    """`text` in lines of `width`, the first after `first`, the others after `rest`; words whole."""
    import textwrap

    return textwrap.fill(text, width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def _row(row: tuple[str, str, str], widths: list[int]) -> str:
    """Name and availability padded to their columns, then the version."""
    return "  ".join([*(c.ljust(w) for c, w in zip(row, widths)), row[2]])
