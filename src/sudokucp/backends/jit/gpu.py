"""Batched GPU search (numba's CUDA target): one thread per grid, the rest handed to the CPU.

`solve_array` is the point: an array of grids goes to the device in one copy, one launch of
the kernel in gpu_kernel.py searches them all (singles to a fixpoint, fewest candidates
first, an explicit stack in local memory), and the answers come back in one copy. A grid whose
thread ran out of its guess budget or its stack comes back unfinished and is solved by the `jit`
backend on the host, so every grid of a batch ends answered; every solution is then checked by
the judge (sudokucp.check). `solve` runs a batch of one, for the comparison harness.

Options: `budget` = guesses one thread may try before its grid is handed on (0: no limit),
`depth` = frames of its stack (0: 2N + 8), `block` = threads per block, `order=givens` launches
the grids sorted by their number of givens (neighbouring threads then search alike grids),
`second` = a second launch with this budget for the grids the first one left, before the CPU.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sudokucp.backends.base import Backend, OptionError, SearchOutcome
from sudokucp.backends.jit.jit import Jit
from sudokucp.backends.jit.kernels import numpy_module as _np
from sudokucp.backends.jit.kernels import refuse_values_out_of_range
from sudokucp.puzzle import Puzzle, Shape

NO_BUDGET = 2**31 - 1  # the kernel's budget when the option says none
MAX_KEEP = 64  # solutions one solve() keeps on the device; a grid with more goes to jit


class WrongSolution(RuntimeError):
    """A solution that the judge refused: a bug, never a result."""


@dataclass
class GpuBatch:
    """What solve_array returns, one row per grid (as jit's Batch, with where each was solved).

    status: how the first launch ended per grid (gpu_kernel.STATUSES); handed: grids the GPU
    left unfinished, solved on the host by `jit`; seconds: the phases and their total."""

    solutions: Any  # int64 (grids x cells): the first solution, zeros when none
    counts: Any  # int64 (grids,): solutions found, up to the limit
    complete: Any  # bool (grids,): search exhausted, so the count is exact
    guesses: Any  # int64 (grids,): alternatives tried, on the GPU and on the host
    status: Any  # int32 (grids,): the first launch's ending
    handed: Any  # bool (grids,)
    seconds: dict[str, float] = field(default_factory=dict)


class Gpu(Backend):
    """One CUDA thread per grid; grids left unfinished are solved by the jit backend."""

    name = "gpu"
    description = ("NVIDIA GPU (numba CUDA): one thread per grid, singles to a fixpoint, fewest "
                   "candidates first; batches of grids in one launch, the rest on the CPU")
    extra = "gpu"
    module = "numba.cuda"
    package = "numba-cuda"
    loads = ("numba", "sudokucp.backends.jit.gpu_kernel")
    defaults = {"budget": 4096, "depth": 0, "block": 64, "order": "none", "second": 0}
    choices = {"order": ("none", "givens")}
    stats_keys = ("guesses",)
    max_side = 32  # candidates are uint32 bitmasks on the device past 16x16
    _reason: ClassVar[dict[str, str | None]] = {}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        for key, low, high in (("budget", 0, NO_BUDGET), ("depth", 0, 4096), ("block", 1, 1024),
                               ("second", 0, NO_BUDGET)):
            if not low <= self.options[key] <= high:
                raise OptionError(f"option {key!r} of 'gpu' takes {low} to {high}, not "
                                  f"{self.options[key]}")
        self.host = Jit(search="dfs")  # takes the grids the device leaves unfinished

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why this machine cannot run the backend (None: it can), memoised."""
        if "gpu" not in cls._reason:
            cls._reason["gpu"] = cls._find_reason()
        return cls._reason["gpu"]

    @staticmethod
    def _find_reason() -> str | None:
        try:
            import numba
            from numba import cuda
        except ModuleNotFoundError as err:
            if not (err.name or "").startswith("numba"):
                raise
            return "numba's CUDA target is not installed: pip install 'sudoku-cp[gpu]'"
        if numba.config.ENABLE_CUDASIM:
            return "numba's CUDA simulator is on (NUMBA_ENABLE_CUDASIM=1): it is not a device"
        if not cuda.is_available():
            said = [line.strip() for line in str(cuda.cuda_error() or "").splitlines()]
            first = next((line for line in said if line), "")
            return f"no CUDA device: {first}" if first else "no CUDA device found"
        return None

    @classmethod
    def version(cls) -> str:
        """numba-cuda's version, or numba's where its own (older) CUDA target is the one used."""
        from importlib import metadata

        for dist, suffix in (("numba-cuda", ""), ("numba", " (its own CUDA target)")):
            try:
                return f"{dist} {metadata.version(dist)}{suffix}"
            except metadata.PackageNotFoundError:
                continue
        return "not installed"

    @classmethod
    def device(cls) -> str:
        """The device's name and compute capability, as reports name it."""
        from numba import cuda

        dev = cuda.get_current_device()
        name = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
        return f"{name} (compute capability {'.'.join(map(str, dev.compute_capability))})"

    def depth(self, shape: Shape) -> int:
        """Frames of each thread's stack."""
        from sudokucp.backends.jit.gpu_kernel import frames

        return self.options["depth"] or frames(shape)

    def warm(self, shape: Shape) -> float:
        """Compile the kernel for a shape and jit's batch search (which takes the grids the
        kernel leaves) by solving one empty grid with each; the seconds it took."""
        t0 = time.perf_counter()
        empty = _np().zeros((1, shape.cells), _np().uint8)
        self._launch(empty, shape, 1, 1, 1)
        self.host.solve_array(empty, shape, limit=1)
        return time.perf_counter() - t0

    def _prepare(self, shape: Shape) -> None:
        """The kernel compiled for the shape and this instance's depth, and the host's jit."""
        self.warm(shape)
        self.host.prepare(shape)

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        from sudokucp.backends.jit.gpu_kernel import EXHAUSTED, LIMIT

        np, shape = _np(), puzzle.shape
        slots = min(limit or MAX_KEEP, MAX_KEEP, MAX_KEEP if self._keep is None else
                    max(1, self._keep))
        sols, count, status, guesses = self._launch(
            np.array([puzzle.cells], np.uint8), shape, limit, slots,
            self.options["budget"] or NO_BUDGET)
        stats: dict[str, float] = {"guesses": int(guesses[0])}
        found, total = self.collector(), int(count[0])
        wanted = total if self._keep is None else min(total, self._keep)
        if status[0] not in (EXHAUSTED, LIMIT) or wanted > slots:  # unfinished, or too many
            return self._on_cpu(puzzle, limit, deadline, stats)    # solutions to keep them all
        for grid in sols[0, :min(total, slots)].tolist():
            found.append(grid)
        found.count = total
        return found, bool(status[0] == EXHAUSTED), stats

    def _on_cpu(self, puzzle: Puzzle, limit: int, deadline: float | None,
                stats: dict[str, float]) -> SearchOutcome:
        """The grid the thread left, solved by jit within what is left of the deadline."""
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        result = self.host.solve(puzzle, limit=limit, time_limit=left, keep=self._keep)
        if result.error:
            raise RuntimeError(f"jit, given the grid the GPU left: {result.error}")
        found = self.collector()
        for grid in result.solutions:
            found.append(grid)
        found.count = result.found if result.found is not None else len(result.solutions)
        cpu = {f"cpu_{k}": v for k, v in result.stats.items() if k not in ("load_s", "build_s")}
        stats = {**stats, **cpu, "handed": 1, "guesses": stats["guesses"] +
                 result.stats.get("guesses", 0)}
        if result.stats.get("timed_out"):
            stats["timed_out"] = 1
        return found, result.complete, stats

    def _launch(self, grids: Any, shape: Shape, limit: int, keep: int, budget: int,
                times: dict[str, float] | None = None) -> tuple:
        """One kernel launch on uint8 grids: (solutions, counts, status, guesses) on the host,
        the seconds of each phase added to `times` (to_device, kernel, to_host)."""
        from numba import cuda

        from sudokucp.backends.jit.gpu_kernel import build

        np, m = _np(), grids.shape[0]
        kernel = build(shape, self.depth(shape))
        block = self.options["block"]
        times = {} if times is None else times
        t0 = time.perf_counter()
        d_grids = cuda.to_device(grids)
        sols = cuda.device_array((m, keep, shape.cells), np.uint8)
        counts, status, guesses = (cuda.device_array(m, np.int32) for _ in range(3))
        cuda.synchronize()
        t1 = time.perf_counter()
        kernel[(m + block - 1) // block, block](d_grids, limit, budget, sols, counts, status,
                                                guesses)
        cuda.synchronize()
        t2 = time.perf_counter()
        out = (sols.copy_to_host(), counts.copy_to_host(), status.copy_to_host(),
               guesses.copy_to_host())
        t3 = time.perf_counter()
        for key, spent in (("to_device", t1 - t0), ("kernel", t2 - t1), ("to_host", t3 - t2)):
            times[key] = times.get(key, 0.0) + spent
        return out

    def solve_array(self, grids: Any, shape: Shape, *, limit: int = 1) -> GpuBatch:
        """Solve a (grids x cells) integer array of one shape (0 = blank), limit 1 or 2, every
        grid answered (the unfinished ones by jit) and every solution judged."""
        if limit not in (1, 2):
            raise ValueError(f"solve_array finds one solution or proves uniqueness: limit 1 or "
                             f"2, not {limit}")
        np = _np()
        start = time.perf_counter()
        grids = _checked(np, grids, shape)
        from sudokucp.backends.jit.gpu_kernel import EXHAUSTED, LIMIT  # numba: after the checks

        m, times = grids.shape[0], {}
        order = self._order(np, grids)
        work = grids if order is None else grids[order]
        sols, counts, status, guesses = self._launch(work, shape, limit, 1,
                                                     self.options["budget"] or NO_BUDGET, times)
        if order is not None:  # back to the caller's order
            back = np.empty_like(order)
            back[order] = np.arange(m)
            sols, counts, status, guesses = sols[back], counts[back], status[back], guesses[back]
        sols = sols[:, 0].astype(np.int64)
        counts, guesses = counts.astype(np.int64), guesses.astype(np.int64)
        done = (status == EXHAUSTED) | (status == LIMIT)
        sols[counts == 0] = 0
        first = status.copy()
        handed = ~done
        if self.options["second"] and handed.any():
            self._again(grids, shape, limit, handed, (sols, counts, status, guesses), times)
            done = (status == EXHAUSTED) | (status == LIMIT)
        rest = np.flatnonzero(~done)
        complete = status == EXHAUSTED
        if rest.size:
            t0 = time.perf_counter()
            self._on_host(grids, shape, limit, rest, (sols, counts, complete, guesses))
            times["cpu"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        _judge(grids, sols, counts, shape)
        times["verify"] = time.perf_counter() - t0
        times["total"] = time.perf_counter() - start
        return GpuBatch(sols, counts, complete, guesses, first, handed, times)

    def _order(self, np: Any, grids: Any) -> Any:
        """The launch order (None: as given): fewest givens first for order=givens."""
        if self.options["order"] == "none":
            return None
        return np.argsort(np.count_nonzero(grids, axis=1), kind="stable")

    def _again(self, grids: Any, shape: Shape, limit: int, handed: Any, out: tuple,
               times: dict[str, float]) -> None:
        """A second launch, budget `second`, on the grids the first one left; `out` updated."""
        np = _np()
        which = np.flatnonzero(handed)
        part: dict[str, float] = {}
        sols, counts, status, guesses = self._launch(grids[which], shape, limit, 1,
                                                     self.options["second"], part)
        out[0][which] = np.where(counts[:, None] > 0, sols[:, 0], 0)
        out[1][which] = counts
        out[2][which] = status
        out[3][which] += guesses
        times["second"] = sum(part.values())

    def _on_host(self, grids: Any, shape: Shape, limit: int, rest: Any, out: tuple) -> None:
        """The grids still unfinished, solved by jit's batch call; `out` updated."""
        batch = self.host.solve_array(grids[rest], shape, limit=limit)
        out[0][rest] = batch.solutions
        out[1][rest] = batch.counts
        out[2][rest] = batch.complete
        out[3][rest] += batch.stats[:, 1]


def _checked(np: Any, grids: Any, shape: Shape) -> Any:
    """The grids as a C-contiguous uint8 array, or a ValueError naming what is wrong."""
    grids = np.asarray(grids)
    if grids.ndim != 2 or grids.shape[1] != shape.cells or grids.shape[0] == 0:
        raise ValueError(f"expected a non-empty array of {shape} grids ({shape.cells} columns), "
                         f"not one of shape {grids.shape}")
    if grids.dtype.kind not in "iub":
        raise ValueError(f"expected grids of whole numbers, not of {grids.dtype}")
    refuse_values_out_of_range(np, grids, shape)
    return np.ascontiguousarray(grids, np.uint8)


def _judge(grids: Any, sols: Any, counts: Any, shape: Shape) -> None:
    """Every solution found, checked by sudokucp.check (whole arrays at once); a refused one
    raises WrongSolution naming what is wrong."""
    from sudokucp.check import explain, solved_rows

    np = _np()
    found = np.flatnonzero(counts > 0)
    ok = solved_rows(shape, grids[found], sols[found])
    if not ok.all():
        i = int(found[np.flatnonzero(~ok)[0]])
        puzzle, grid = Puzzle(shape, tuple(grids[i].tolist())), sols[i].tolist()
        raise WrongSolution(f"grid {i}: the solution returned is wrong: "
                            f"{'; '.join(explain(puzzle, grid)[:3])}")
