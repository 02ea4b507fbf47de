"""Machine code built ahead of time for the 9x9 path of a command: the band-wise search (bands.py's
`run` and `run_many`) and the reading of one-line grids (scan.py's `scan`), built by
numba.pycc into an extension module beside numba's cache, which a later process loads without
importing numba (numba's import and its cache loads take about 0.7 s of a command).

Both live in the user's cache folder (platformdirs), or under $NUMBA_CACHE_DIR when it is set;
never in the package. The first `solve --backend jit` that finds no module builds it once it has
answered (`build_after_answers`, saying so); `sudoku-cp backends --warm jit` builds it ahead
(`build_apart`, in a process that runs kernels.py). A C compiler and numba.pycc are needed: without
them nothing is built, the failure is noted so that no later command tries again, and the kernels
load from numba's cache as before. $SUDOKUCP_JIT_AHEAD: `auto` (the default), `load` (load a
module, never build one after a command) or `off` (numba's cache alone). The module's file is named
by the kernels' sources (the cache folder, as numba's cache is) and by the processor it was built
for. The functions are those numba compiles (the same typed source), so their answers are the same.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import logging
import os
import platform
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

MODULE = "sudokucp_jit_ahead"  # the extension module's name (its init function's)
ENTRIES = (("bands", "run", 0), ("bands", "run_many", 0), ("scan", "scan", 0))
BUILDER = "sudokucp.backends.jit.kernels"  # `python -m` it: compiles ENTRIES, builds the module
HERE = Path(__file__).parent
MODE_ENV, MODES = "SUDOKUCP_JIT_AHEAD", ("auto", "load", "off")
logger = logging.getLogger(__name__)


def mode() -> str:
    """$SUDOKUCP_JIT_AHEAD: auto (load, and build after a command that lacks the module), load
    (never build after a command) or off (neither load nor build); auto when unset or unknown."""
    value = os.environ.get(MODE_ENV, "").strip().lower()
    return value if value in MODES else "auto"


def cache_base() -> Path:
    """The user's cache folder for sudoku-cp's compiled code (platformdirs; without it
    $XDG_CACHE_HOME or ~/.cache): never the package's folder, which may be site-packages."""
    try:
        import platformdirs
    except ImportError:
        home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        return Path(home) / "sudoku-cp" / "numba"
    return Path(platformdirs.user_cache_dir("sudoku-cp")) / "numba"


@cache
def source_digest() -> str:
    """A hash of every kernel module's source: the cache folder's name."""
    digest = hashlib.sha256()
    for path in sorted(HERE.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def kernel_folder(base: str | None = None) -> Path:
    """The folder of the kernels' machine code under a cache base (None: NUMBA_CACHE_DIR's; empty:
    the user's cache folder, cache_base): one per version of the sources."""
    base = os.environ.get("NUMBA_CACHE_DIR", "") if base is None else base
    return Path(base or cache_base()) / f"jit-{source_digest()}"


def stale_folders(base: str | None = None) -> list[Path]:
    """The cache folders beside this version's that earlier versions of the sources left."""
    mine = kernel_folder(base)
    return sorted(path for path in mine.parent.glob("jit-*")
                  if path != mine and path.is_dir() and re.fullmatch(r"jit-[0-9a-f]{16}",
                                                                      path.name))


def prune(base: str | None = None) -> tuple[int, int]:
    """Remove the stale cache folders (stale_folders); how many went, and their bytes."""
    folders = stale_folders(base)
    size = sum(f.stat().st_size for folder in folders for f in folder.rglob("*") if f.is_file())
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
    return len(folders), size


@cache
def processor() -> str:
    """A short name of this processor's model and features (machine code is built for them)."""
    text = platform.machine() + platform.processor()
    try:
        info = Path("/proc/cpuinfo").read_text(errors="replace").splitlines()
    except OSError:
        info = []
    text += "".join(line for line in info if line.startswith(("model name", "flags"))
                    )[:4096]
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def module_path(base: str | None = None) -> Path:
    """Where the extension module of these sources and this processor lives."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return kernel_folder(base) / f"{MODULE}-{processor()}{suffix}"


@cache
def module() -> ModuleType | None:
    """The extension module built for these sources and this processor, loaded once per
    process; None when there is none (or it cannot be loaded)."""
    path = module_path()
    if mode() == "off" or not path.is_file():
        return None
    loader = importlib.machinery.ExtensionFileLoader(MODULE, str(path))
    spec = importlib.util.spec_from_file_location(MODULE, path, loader=loader)
    if spec is None:
        return None
    try:
        found = importlib.util.module_from_spec(spec)
        loader.exec_module(found)
    except (ImportError, OSError):
        return None
    return found


@cache
def kernel(name: str, version: int) -> ModuleType | None:
    """A kernel's module as the callers read it (its layout, buffers and constants), with the
    functions built ahead for that version in place of numba's; None when none were built."""
    built = module()
    entries = [entry for kernel, entry, v in ENTRIES if (kernel, v) == (name, version)]
    if built is None or not entries:
        return None
    view = ModuleType(f"{name} (built ahead)")
    if name == "bands":
        from sudokucp.backends.jit import band_layout

        view.__dict__.update({k: v for k, v in vars(band_layout).items() if k[0] != "_"})
    for entry in entries:
        setattr(view, entry, getattr(built, f"{name}_{entry}"))
    return view


# --- building ------------------------------------------------------------------------------------

def failure_path() -> Path:
    """The note that a build of this module failed (its reason inside): no command after it
    tries again on its own; `backends --warm jit` does."""
    return module_path().with_name(f"{MODULE}-{processor()}.failed")


def build_apart() -> str:
    """Build the module in a process of its own (numba compiles there only what it needs),
    unless one built for these sources and this processor loads already; what happened, in a
    few words. A failure is noted (failure_path), a success clears the note."""
    if mode() == "off":
        return f"not built ({MODE_ENV}=off)"
    if module() is not None:
        return f"built already: {module_path()}"
    done = subprocess.run([sys.executable, "-m", BUILDER], capture_output=True, text=True,
                          check=False)
    module.cache_clear()
    kernel.cache_clear()
    if done.returncode or module() is None:
        last = (done.stderr.strip().splitlines() or ["the module does not load"])[-1]
        with contextlib.suppress(OSError):
            failure_path().parent.mkdir(parents=True, exist_ok=True)
            failure_path().write_text(last + "\n")
        return f"not built ({last})"
    failure_path().unlink(missing_ok=True)
    return f"built: {module_path()}"


def build_after_answers() -> str | None:
    """After a command has answered: build the module where it is missing (mode auto), unless
    a build failed before; the outcome, announced first (it takes a while), or None."""
    if mode() != "auto" or module() is not None or failure_path().exists():
        return None
    if importlib.util.find_spec("numba") is None:
        return None
    logger.info("building the 9x9 path's machine code for later runs (once; about a minute; "
                "%s=load skips it)…", MODE_ENV)
    done = build_apart()
    logger.info("the 9x9 path's machine code %s", done)
    return done


def build(compiled: Callable[[str, str, int], ModuleType]) -> Path:
    """Compile ENTRIES (`compiled`: kernels.compiled) with numba.pycc into the module for these
    sources and this processor."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc's pending deprecation
        from numba.pycc import CC
    path = module_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    cc = CC(MODULE)
    part = f"{path.name}.{os.getpid()}.part"  # two builds at once each write their own
    cc.output_dir, cc.output_file, cc.target_cpu = str(path.parent), part, "host"
    for name, entry, version in ENTRIES:
        dispatcher = getattr(compiled(name, entry, version), entry)
        signatures = dispatcher.nopython_signatures
        if len(signatures) != 1:
            raise RuntimeError(f"{name}.{entry}: {len(signatures)} compiled versions, not one")
        cc.export(f"{name}_{entry}", signatures[0])(dispatcher.py_func)
    cc.compile()
    os.replace(path.parent / cc.output_file, path)
    return path


def main(compiled: Callable[[str, str, int], ModuleType]) -> int:
    """`python -m sudokucp.backends.jit.kernels` (BUILDER): build the module; a line on
    failure."""
    try:
        build(compiled)
    except Exception as err:  # noqa: BLE001 - a compiler missing or failing: said, not raised
        first = str(err).splitlines()[0].split(". ")[0] if str(err) else ""
        sys.stderr.write(f"{type(err).__name__}: {first}\n")
        return 1
    return 0
