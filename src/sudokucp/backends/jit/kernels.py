"""The jit kernels' loading: numba's cache folder, importing and compiling each kernel once per
process (`warm`), and the arrays every kernel reads (grids, unit tables, cell positions).

Importing a kernel compiles it, or loads its machine code from numba's cache on disk; `warm` then
runs it once on an empty 4x4 grid so that every entry point is compiled before a timed search.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from sudokucp.puzzle import Shape, geometry

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
def tables(shape: Shape) -> tuple[Any, Any, Any]:
    """units (3N x N), peers (cells x peers) and cell_units (cells x 3) as int64 arrays."""
    np = numpy_module()
    g = geometry(shape)
    return (np.array(g.units, np.int64), np.array(g.peers, np.int64),
            np.array(g.cell_units, np.int64))


@cache
def cell_positions(shape: Shape) -> Any:
    """The place of each cell in its row, column and box (for the learning kernel)."""
    from sudokucp.backends.jit.cdcl_state import positions

    units, _, cunits = tables(shape)
    return positions(units, cunits)


@contextmanager
def cache_folder() -> Iterator[None]:
    """While the kernel modules are imported, numba's cache folder is one named by a hash of
    every kernel module's source: numba checks only a function's own file, so an edit to one
    module would otherwise load another's machine code compiled against the old one."""
    import numba

    folder = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.read_bytes())
    base = numba.config.CACHE_DIR or str(folder / "__pycache__")
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = os.path.join(base, f"jit-{digest.hexdigest()[:16]}")
    try:
        yield
    finally:
        numba.config.CACHE_DIR = saved


def cached(module: str) -> bool:
    """Whether numba's cache folder (as set by cache_folder) holds machine code of `module`."""
    import numba

    folder = Path(numba.config.CACHE_DIR)
    return folder.is_dir() and any(folder.rglob(f"{module}.*.nbi"))


@cache
def say_compiling() -> None:
    """Tell, once per process, that the first use compiles for a while (the CLI shows it)."""
    logger.info("compiling the jit kernels (first use; cached afterwards)…")


@cache
def warm(kernel: str) -> ModuleType:
    """Import and compile a kernel ("dfs" or "cdcl") once per process, by solving an empty 4x4
    grid (Jit._prepare calls it before the clock)."""
    np = numpy_module()
    shape = Shape(2, 2)
    grid = as_grid((0,) * 16)
    if kernel == "cdcl":
        warm("dfs")  # its propagation prepares the root
    with cache_folder():
        if not cached(kernel):
            say_compiling()
        if kernel == "dfs":
            from sudokucp.backends.jit import dfs as module
        else:
            from sudokucp.backends.jit import cdcl as module
    if kernel == "dfs":
        geo = module.layout(4, 2, 2, 0, 0, 1, 1)
        buffers = module.buffers(geo, 1)
        module.run(grid, *tables(shape), geo, *buffers, -1)
        module.start(grid, *tables(shape), geo, *buffers[:3], *buffers[4:])
        module.run_many(np.zeros((1, 16), np.uint8), *tables(shape), geo,
                        np.zeros((1, 16), np.int64), np.zeros(1, np.int64),
                        np.zeros(1, np.bool_), np.zeros((1, 3), np.int64))
    else:
        module.run(grid, np.full(16, 15, np.int64), *tables(shape), cell_positions(shape),
                   *module.state(4, 1, 1, 1), -1)
    return module
