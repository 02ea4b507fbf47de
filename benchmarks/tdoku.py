"""tdoku (Tom Dillon's C++ solver, SIMD), built from its source beside the project and called on
whole sets in the benchmark's own process, so that the `jit` batch and it are timed alike: one
call per set, CPU time. Not part of the package: `benchmarks/jit.py` uses it when a C++ compiler
and tdoku's source are found, and says why not otherwise.

The library is tdoku's `solver_dpll_triad_simd.cc` and `util.cc`, compiled as its build does
(-O3 -march=native), with a loop over the grids (DRIVER) so that no Python runs per grid.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path
from typing import Any

SOURCES = ("src/solver_dpll_triad_simd.cc", "src/util.cc")
DRIVER = """
#include <cstddef>
#include <cstdint>
extern "C" size_t TdokuSolverDpllTriadSimd(const char*, size_t, uint32_t, char*, size_t*);
extern "C" long count_all(const char* lines, long n, long stride, long limit, long* counts,
                          long* guesses) {
  char solution[81];
  for (long i = 0; i < n; i++) {
    size_t g = 0;
    counts[i] = (long)TdokuSolverDpllTriadSimd(lines + i * stride, (size_t)limit, 0, solution, &g);
    guesses[i] = (long)g;
  }
  return n;
}
"""


def build(source: Path, folder: Path) -> Path | str:
    """The shared library built in `folder` from tdoku's source tree, or why it was not."""
    compiler = shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        return "no C++ compiler (g++ or clang++) on the PATH"
    missing = [name for name in SOURCES if not (source / name).is_file()]
    if missing:
        return f"tdoku's source not found at {source} (no {missing[0]}; pass --tdoku DIR)"
    driver = folder / "count_all.cc"
    driver.write_text(DRIVER)
    library = folder / "libtdoku_count.so"
    command = [compiler, "-O3", "-march=native", "-std=c++17", "-shared", "-fPIC",
               f"-I{source / 'src'}", f"-I{source / 'include'}",
               *(str(source / name) for name in SOURCES), str(driver), "-o", str(library)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        return f"tdoku did not build: {done.stderr.strip().splitlines()[-1:]}"
    return library


def revision(source: Path) -> str:
    """The commit of tdoku's source tree, where it is a git checkout."""
    done = subprocess.run(["git", "-C", str(source), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def as_text(grids: Any) -> bytes:
    """9x9 grids (an integer array, 0 for a blank) as tdoku reads them: 81 characters, '.' for
    a blank, and a newline each."""
    import numpy as np

    chars = np.where(grids > 0, grids + ord("0"), ord(".")).astype(np.uint8)
    return np.hstack([chars, np.full((len(grids), 1), ord("\n"), np.uint8)]).tobytes()


class Tdoku:
    """The built library: counts (up to a limit) and guesses of many grids in one call."""

    def __init__(self, library: Path) -> None:
        self.lib = ctypes.CDLL(str(library))
        self.lib.count_all.restype = ctypes.c_long

    def count(self, text: bytes, limit: int) -> tuple[Any, Any]:
        """The solutions counted (up to `limit`) and the guesses of each grid of `as_text`."""
        import numpy as np

        n = len(text) // 82
        counts, guesses = np.zeros(n, np.int64), np.zeros(n, np.int64)
        self.lib.count_all(text, n, 82, limit, counts.ctypes.data_as(ctypes.c_void_p),
                           guesses.ctypes.data_as(ctypes.c_void_p))
        return counts, guesses
