"""The jit kernels' loading: numba's cache folder, compiling each entry point once per process
when a call first needs it (`ready`), or all of them ahead (`warm_all`, for `sudoku-cp backends
--warm jit`), and the arrays the kernels read (unit tables, cell positions).

An entry point compiles on its first call, or loads its machine code from numba's cache on disk
(ahead.py's folder: the user's cache, never the package); a command that went this way builds
the 9x9 path ahead once it has answered (ahead.build_after_answers);
`ready` makes that call on an empty grid (4x4; 9x9 for bands), so that a timed search
never holds it. Only what a call needs is compiled: a kernel's one-grid search (`run`) and its
batch (`run_many`) apart; dfs in two versions (no matching filter: the levels singles and
locked; the filter on the units: alldiff and full); the reading of one-line grids (scan) apart.
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from sudokucp.backends.jit import ahead
from sudokucp.backends.jit.layout import FULL, LOCKED, answers
from sudokucp.backends.jit.layout import tables as layout_tables
from sudokucp.puzzle import Shape
from sudokucp.rules import CLASSIC

logger = logging.getLogger(__name__)


def numpy_module() -> ModuleType:
    """numpy, imported on first use (the backend's module loads without it)."""
    import numpy

    return numpy


def as_grid(cells: tuple[int, ...]) -> Any:
    """The cells as the kernels read them: a uint8 array (the cheapest to make), writable like
    the rows of solve_array's batches, so that numba compiles one version of each kernel."""
    np = numpy_module()
    return np.frombuffer(bytearray(cells), np.uint8)


def refuse_values_out_of_range(np: ModuleType, grids: Any, shape: Shape) -> None:
    """A ValueError naming the first of the grids (rows) with a value outside 0 (blank) to N."""
    if grids.size and (grids.min() < 0 or grids.max() > shape.side):  # the rows only then
        bad = np.flatnonzero(((grids < 0) | (grids > shape.side)).any(axis=1))
        raise ValueError(f"grid {bad[0]} holds a value outside 0-{shape.side} "
                         f"({bad.size} grids do)")


@cache
def learning_tables(shape: Shape) -> tuple[Any, ...]:
    """units, peers and cunits of a classic grid (layout.tables) and the place of each cell in its
    row, column and box: what the learning kernel reads of a shape (cdcl_state.state)."""
    from sudokucp.backends.jit.cdcl_state import positions

    units, peers, cunits = layout_tables(shape, CLASSIC)[:3]
    return units, peers, cunits, positions(units, cunits)


@contextmanager
def cache_folder() -> Iterator[None]:
    """While the kernel modules are imported, numba's cache folder is one named by a hash of
    every kernel module's source: numba checks only a function's own file, so an edit to one
    module would otherwise load another's machine code compiled against the old one."""
    import numba

    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(ahead.kernel_folder(saved))
    try:
        yield
    finally:
        numba.config.CACHE_DIR = saved


def cached(module: str, entry: str = "") -> bool:
    """Whether numba's cache folder (as set by cache_folder) holds machine code of `module` (of
    its function `entry` when given)."""
    import numba

    folder = Path(numba.config.CACHE_DIR)
    pattern = f"{module}.{entry}-*.nbi" if entry else f"{module}.*.nbi"
    return folder.is_dir() and any(folder.rglob(pattern))


@cache
def say_compiling() -> None:
    """Tell, once per process, that the first use compiles for a while (the CLI shows it)."""
    logger.info("compiling the jit kernels (first use; cached afterwards; `sudoku-cp backends "
                "--warm jit` builds them all ahead)…")


@cache
def numba_registries() -> None:
    """numba's lowering registries loaded once, before the first compile or cache load, without
    importing scipy.linalg, which numba does only to tell whether np.convolve may call BLAS
    (about 0.35 s); it imports as usual afterwards, and numba's linear algebra still finds it."""
    import numba  # noqa: F401 - numba's own imports come first
    from numba.core.registry import cpu_target

    blocked = "scipy.linalg" not in sys.modules
    if blocked:
        sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # its import fails at once
    try:
        cpu_target.target_context.refresh()
    finally:
        if blocked:
            del sys.modules["scipy.linalg"]


def module(kernel: str) -> ModuleType:
    """The module of a kernel (one of KERNELS), imported with numba's cache folder set."""
    if kernel not in KERNELS:
        raise ValueError(f"no jit kernel {kernel!r} (kernels: {', '.join(KERNELS)})")
    numba_registries()
    with cache_folder():
        return importlib.import_module(f"sudokucp.backends.jit.{kernel}")


LIGHT, STRONG = range(2)  # dfs's versions: no matching filter, the filter on the units
ENTRIES = (("dfs", "run", LIGHT), ("dfs", "run_many", LIGHT), ("dfs", "run", STRONG),
           ("dfs", "run_many", STRONG), ("bands", "run", 0), ("bands", "run_many", 0),
           ("cdcl", "run", 0), ("scan", "scan", 0))  # every compiled version, in warm_all's order
KERNELS = tuple(dict.fromkeys(kernel for kernel, _, _ in ENTRIES))  # the modules of compiled code
VERSIONS = {("dfs", STRONG): " (strong)"}  # as warm_all names them


@cache
def ready(kernel: str, entry: str = "run", version: int = 0) -> ModuleType:
    """The kernel's module with `entry` ready to call, once per process: the machine code built
    ahead where there is some (ahead.py: numba is not even imported), else `compiled`."""
    built = ahead.kernel(kernel, version)
    if built is not None and hasattr(built, entry):
        return built
    return compiled(kernel, entry, version)


@cache
def compiled(kernel: str, entry: str = "run", version: int = 0) -> ModuleType:
    """The kernel's module with `entry` compiled (or loaded from numba's cache) by a call on an
    empty grid; `version`: for dfs LIGHT (no matching filter, mate None), STRONG (the filter on
    the units: alldiff, full)."""
    found = module(kernel)
    with cache_folder():
        if not cached(found.__name__.rsplit(".", 1)[1], entry):
            say_compiling()
        CALLS[kernel](found, entry, version)
    from sudokucp.backends import after_answers

    after_answers(ahead.build_after_answers)  # numba's path used: the 9x9 one built for later
    return found


def _call_dfs(k: ModuleType, entry: str, version: int) -> None:
    """One call of a dfs entry point on an empty 4x4 grid, at a level of its version."""
    geo = k.layout(4, 2, 2, (LOCKED, FULL)[version], 0, 1, 1)
    _call_search(k, entry, k.state(k.tables(Shape(2, 2), CLASSIC), geo, 1), 16)


def _call_search(k: ModuleType, entry: str, state: Any, cells: int) -> None:
    """One call of a depth-first kernel's entry point (run or run_many) on a state and an empty
    grid."""
    grid = as_grid((0,) * cells)
    if entry == "run":
        k.run(grid, state, -1)
    else:
        k.run_many(grid.reshape(1, cells), state, answers(1, 1, cells, timed=True))


def _call_cdcl(k: ModuleType, entry: str, version: int) -> None:
    """One clause-learning search of an empty 4x4 grid."""
    k.run(as_grid((0,) * 16), k.state(learning_tables(Shape(2, 2)), 1, 1, 1), -1)


def _call_scan(k: ModuleType, entry: str, version: int) -> None:
    """The reading of one empty 4x4 grid's line."""
    np = numpy_module()
    cunits = layout_tables(Shape(2, 2), CLASSIC)[2]
    k.scan(np.frombuffer(b"." * 16 + b"\n", np.uint8), np.zeros(256, np.uint8), cunits,
           16, 100, np.zeros(1, np.uint8), np.zeros(1, np.int64), np.zeros((1, 16), np.uint8),
           np.zeros(12, np.int64))


def _call_bands(k: ModuleType, entry: str, version: int) -> None:
    """One call of a bands entry point on an empty 9x9 grid."""
    _call_search(k, entry, k.state(k.layout(1, 1), 1), 81)


CALLS = {"dfs": _call_dfs, "bands": _call_bands, "cdcl": _call_cdcl, "scan": _call_scan}


def entries(kernel: str) -> list[tuple[str, int]]:
    """(entry, version) of every compiled version of a kernel's entry points (see ready)."""
    return [(entry, version) for name, entry, version in ENTRIES if name == kernel]


def warm_all(progress: Callable[[str, int, int], None] | None = None) -> str:
    """Compile (or load) every entry point of every kernel, then build the machine code of the
    9x9 path ahead (ahead.py), telling `progress` (name, index, total) before each step, and
    remove the caches of earlier versions of the sources; what was done, in a few words."""
    total = len(ENTRIES) + 1
    for i, (kernel, entry, version) in enumerate(ENTRIES):
        if progress is not None:
            progress(f"{kernel}.{entry}{VERSIONS.get((kernel, version), '')}", i, total)
        ready(kernel, entry, version)
    if progress is not None:
        progress("the 9x9 path built ahead (numba.pycc, a C compiler)", len(ENTRIES), total)
    built = ahead.build_apart()
    removed, size = ahead.prune()
    return built + (f"; {removed} stale cache folder{'s' * (removed != 1)} of earlier sources "
                    f"removed ({size / 2**20:.1f} MB)" if removed else "")


if __name__ == "__main__":  # ahead.build_apart's process: the 9x9 path's machine code built
    sys.exit(ahead.main(compiled))
