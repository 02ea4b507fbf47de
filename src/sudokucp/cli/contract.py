"""`sudoku-cp backends --check SPEC`: the contract checks (sudokucp/backends/contract.py) run on
one backend, registered or loaded by its import path, a line per check."""

from __future__ import annotations

from sudokucp.backends import BackendUnavailable, backend_class, parse_spec, unavailable_reason
from sudokucp.backends.base import Backend
from sudokucp.cli.common import EXIT_OK, EXIT_UNSOLVED, CommandError


def run_check(spec: str) -> int:
    """Each check as 'ok', 'FAIL' or 'skip' with its name (and why); 0 when none failed, 1 when
    one did, 2 (CommandError, UnknownBackend, OptionError) for a spec that cannot be loaded."""
    from sudokucp.backends.contract import run_checks

    make = _maker(spec)
    failed = skipped = 0
    for name, why in run_checks(make):
        mark = "ok" if why is None else "skip" if why.startswith("skipped: ") else "FAIL"
        failed, skipped = failed + (mark == "FAIL"), skipped + (mark == "skip")
        print(f"{mark:<5} {name}" + ("" if why is None else f": {why.removeprefix('skipped: ')}"),
              flush=True)
    label = make().label
    left = f" ({skipped} not for it, skipped)" if skipped else ""
    print(f"{label}: {failed} check(s) failed{left}" if failed
          else f"{label}: every check passed{left}")
    return EXIT_UNSOLVED if failed else EXIT_OK


def _maker(spec: str):  # noqa: ANN202 - a factory of fresh instances
    """A function that makes a fresh instance of the spec's backend, tried once here so that a
    spec that cannot be loaded is refused before any check."""
    name, options = parse_spec(spec)
    try:
        cls = backend_class(name)
    except (ImportError, SyntaxError) as err:
        raise CommandError(f"--check: cannot load backend {spec!r}: "
                           f"{type(err).__name__}: {err}") from None
    if not cls.available():
        raise BackendUnavailable(f"backend {cls.name!r}: {unavailable_reason(cls)}")

    def make() -> Backend:
        return cls(**options)

    make()  # a bad option is an OptionError now, not a failure of every check
    return make
