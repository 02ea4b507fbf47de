"""The GPU batch backend against its targets, written to reports/gpu.md.

    python benchmarks/gpu.py [--datasets ../shared/datasets/raw] [--sizes 1000,10000,100000,1000000]
        [--rounds 3] [--budget 4096] [--small-budget 256] [--skip-options] [--skip-cpu]
        [--out reports/gpu.md]

Needs a machine with an NVIDIA GPU and `pip install 'sudoku-cp[gpu]'`; elsewhere it says why and
exits 1. Uniqueness is proved (limit 2) on every grid and every solution is judged by
sudokucp.check on the host, inside the timed batch; a wrong solution or a count other than 1
stops the script.

(a) royle17 (49,151 grids, repeated to each size): grids/s against the batch size, end to end
    (host-to-device copy, kernel, copy back, CPU handover, verification) and each phase apart.
(b) forum_hardest_1905_11+ (48,766 grids), the same at its own size.
(c) The tail: the slowest grid (most guesses) launched alone, as a share of the batch's kernel
    time, and the slowest 1% launched alone.
(d) Ideas that cut the tail, one at a time against the defaults: sorting by givens, smaller
    blocks (finished warps and blocks retire sooner), a small guess budget with the rest handed
    to the CPU, a small budget with a second launch for the rest.
(e) The jit backend on all host cores (one process per core, solve_array on equal chunks).
Times are medians of --rounds rounds; the kernel is compiled before any timing.

Why not the harness (`common.measure`): the gpu backend's unit of work is a batch of thousands to
a million grids in one kernel launch, timed phase by phase (copies, kernel, CPU handover,
verification); the harness times one solve of one puzzle per run, in a worker of its own. The
batch is the thing measured here, and every solution in it is still judged by sudokucp.check.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from common import ROOT, Provenance, write_report

from sudokucp.backends.jit.gpu import Gpu, GpuBatch
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Shape

SHAPE = Shape(3, 3)
FILES = {"royle17": "royle17.txt", "forum_hardest_1905_11+": "forum_hardest_1905_11plus.txt"}
PHASES = ("to_device", "kernel", "to_host", "second", "cpu", "verify")
TDOKU = ("tdoku's published single-core figures, for orientation: about 326,000 royle17 grids/s "
         "and 21,000 forum_hardest_1905_11+ grids/s.")


class Wrong(RuntimeError):
    """A count other than the known one: every grid of these sets has exactly one solution."""


def grids(path: Path) -> Any:
    """A file of 81-character grids as a (grids x 81) uint8 array."""
    import numpy as np

    return np.array([p.cells for p in load_puzzles(path)], np.uint8)


def repeated(array: Any, size: int) -> Any:
    """The rows of `array` repeated (and cut) to `size` rows."""
    import numpy as np

    return np.resize(array, (size, array.shape[1]))


def run(gpu: Gpu, array: Any) -> GpuBatch:
    """One judged batch (limit 2) whose every grid must be unique."""
    batch = gpu.solve_array(array, SHAPE, limit=2)
    if not (batch.counts == 1).all() or not batch.complete.all():
        bad = int((batch.counts != 1).argmax())
        raise Wrong(f"grid {bad}: {batch.counts[bad]} solutions (complete "
                    f"{bool(batch.complete[bad])}), expected exactly one")
    return batch


def rounds(gpu: Gpu, array: Any, count: int) -> tuple[dict[str, float], GpuBatch]:
    """Median seconds of each phase and of the total over `count` batches; the last batch."""
    seen: dict[str, list[float]] = {}
    for _ in range(count):
        batch = run(gpu, array)
        for key in (*PHASES, "total"):
            seen.setdefault(key, []).append(batch.seconds.get(key, 0.0))
    return {k: statistics.median(v) for k, v in seen.items()}, batch


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}" if seconds > 0 else "-"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f}"


HEADER = ["| grids | grids/s end to end | grids/s kernel | to device ms | kernel ms | to host ms "
          "| 2nd launch ms | CPU ms | verify ms | total ms | handed to CPU |",
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]


def row(label: str, size: int, t: dict[str, float], batch: GpuBatch) -> str:
    phases = " | ".join(ms(t[k]) for k in PHASES)
    return (f"| {label} | {rate(size, t['total'])} | {rate(size, t['kernel'])} | {phases} | "
            f"{ms(t['total'])} | {int(batch.handed.sum()):,} |")


def section_sizes(gpu: Gpu, royle: Any, sizes: list[int], count: int) -> tuple[list[str], dict]:
    lines = ["## (a) royle17 against the batch size (limit 2, every solution judged)", "",
             f"{royle.shape[0]:,} grids repeated to each size; medians of {count} rounds.", "",
             *HEADER]
    best = {}
    for size in sizes:
        t, batch = rounds(gpu, repeated(royle, size), count)
        lines.append(row(f"{size:,}", size, t, batch))
        best[size] = t
    lines.append("")
    return lines, best


def section_hard(gpu: Gpu, hard: Any, count: int) -> tuple[list[str], dict]:
    t, batch = rounds(gpu, hard, count)
    lines = ["## (b) forum_hardest_1905_11+ (limit 2, every solution judged)", "",
             f"All {hard.shape[0]:,} grids in one batch; medians of {count} rounds.", "",
             *HEADER, row(f"{hard.shape[0]:,}", hard.shape[0], t, batch), "",
             f"- guesses per grid: median {statistics.median(batch.guesses.tolist()):,.0f}, "
             f"max {int(batch.guesses.max()):,}", ""]
    return lines, t


def alone(gpu: Gpu, array: Any, count: int) -> float:
    """Median kernel seconds of `array` launched by itself."""
    return statistics.median(run(gpu, array).seconds["kernel"] for _ in range(count))


def section_tail(gpu: Gpu, sets: dict[str, Any], count: int) -> list[str]:
    import numpy as np

    lines = ["## (c) The tail: the slowest grids launched alone", "",
             "| set | batch kernel ms | slowest grid (guesses) alone ms | share | slowest 1% "
             "alone ms | share |", "|---|---:|---:|---:|---:|---:|"]
    for name, array in sets.items():
        t, batch = rounds(gpu, array, count)
        order = np.argsort(batch.guesses)[::-1]
        one = alone(gpu, array[order[:1]], count)
        top = alone(gpu, array[order[:max(1, len(order) // 100)]], count)
        lines.append(f"| {name} (slowest: {int(batch.guesses[order[0]]):,} guesses) | "
                     f"{ms(t['kernel'])} | "
                     f"{ms(one)} | {one / t['kernel']:.0%} | {ms(top)} | "
                     f"{top / t['kernel']:.0%} |")
    return [*lines, "", "- share = the grids alone over the whole batch's kernel time: how "
            "much of the batch waits on them.", ""]


def section_options(budget: int, small: int, sets: dict[str, Any], count: int) -> list[str]:
    variants = {"defaults": {}, "order=givens": {"order": "givens"},
                "block=32": {"block": 32}, "block=256": {"block": 256},
                f"budget={small}, rest on the CPU": {"budget": small},
                f"budget={small}, second launch": {"budget": small, "second": budget}}
    lines = ["## (d) Cutting the tail, one idea at a time (limit 2, every solution judged)", ""]
    for name, array in sets.items():
        lines += [f"### {name}, {array.shape[0]:,} grids", "", *HEADER]
        for label, options in variants.items():
            gpu = Gpu(**{"budget": budget, **options})
            gpu.warm(SHAPE)
            t, batch = rounds(gpu, array, count)
            lines.append(row(label, array.shape[0], t, batch))
        lines.append("")
    return lines


def _chunk(array: Any) -> tuple[float, int]:
    """In a worker: solve a chunk with jit (limit 2); (seconds, grids proved unique)."""
    from sudokucp.backends.jit.jit import Jit

    batch = Jit(search="dfs").solve_array(array, SHAPE, limit=2)
    return batch.seconds, int(((batch.counts == 1) & batch.complete).sum())


def _warm_worker(_: int = 0) -> None:
    """Load jit's compiled search in a worker, then hold it a moment so that every worker of
    the pool starts and warms up before the timed rounds."""
    import numpy as np

    _chunk(np.zeros((1, SHAPE.cells), np.uint8))
    time.sleep(1.0)


def section_cpu(sets: dict[str, Any], count: int) -> list[str]:
    import numpy as np

    cores = os.cpu_count() or 1
    lines = [f"## (e) The jit backend on all {cores} host cores (limit 2)", "",
             "One process per core, each solving an equal chunk with `solve_array`; wall time "
             f"of the whole set, median of {count} rounds (solutions judged in (a) and (b), "
             "not here).",
             "", "| set | grids | wall s | grids/s |", "|---|---:|---:|---:|"]
    spawn = multiprocessing.get_context("spawn")  # no child inherits the parent's CUDA context
    with ProcessPoolExecutor(cores, mp_context=spawn) as pool:
        list(pool.map(_warm_worker, range(cores)))
        for name, array in sets.items():
            walls = []
            for _ in range(count):
                t0 = time.perf_counter()
                done = sum(n for _, n in pool.map(_chunk, np.array_split(array, cores)))
                walls.append(time.perf_counter() - t0)
                if done != array.shape[0]:
                    raise Wrong(f"jit proved {done} of {array.shape[0]} {name} grids unique")
            wall = statistics.median(walls)
            lines.append(f"| {name} | {array.shape[0]:,} | {wall:.3f} | "
                         f"{rate(array.shape[0], wall)} |")
    return [*lines, ""]


def floors(best: dict[int, dict[str, float]], hard: dict[str, float], hard_size: int) -> list[str]:
    top = max(best)
    r, h = top / best[top]["total"], hard_size / hard["total"]
    return ["## Floors", "",
            f"- royle17, {top:,} grids, end to end: {r:,.0f} grids/s "
            f"({'meets' if r >= 1_000_000 else 'below'} the floor of 1,000,000)",
            f"- forum_hardest_1905_11+, end to end: {h:,.0f} grids/s "
            f"({'meets' if h >= 50_000 else 'below'} the floor of 50,000)", f"- {TDOKU}", ""]


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=Path,
                        default=ROOT.parent / "shared" / "datasets" / "raw",
                        help="folder holding royle17.txt and forum_hardest_1905_11plus.txt")
    parser.add_argument("--sizes", default="1000,10000,100000,1000000",
                        help="royle17 batch sizes, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per figure (median)")
    parser.add_argument("--budget", type=int, default=Gpu.defaults["budget"],
                        help="guesses per thread before a grid goes to the CPU")
    parser.add_argument("--small-budget", type=int, default=256,
                        help="the budget of table (d)'s options that split the hard grids off")
    parser.add_argument("--skip-options", action="store_true", help="leave out table (d)")
    parser.add_argument("--skip-cpu", action="store_true", help="leave out table (e)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "gpu.md")
    args = parser.parse_args(argv)
    try:
        args.sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes takes whole numbers separated by commas, not {args.sizes!r}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    reason = Gpu.unavailable_reason()
    if reason:
        sys.exit(f"benchmarks/gpu.py needs the gpu backend, which cannot run here: {reason}")
    missing = [str(args.datasets / f) for f in FILES.values() if not (args.datasets / f).is_file()]
    if missing:
        sys.exit(f"benchmarks/gpu.py: missing {', '.join(missing)} (see --datasets; "
                 "`sudoku-cp datasets` fetches them)")
    started, provenance = time.perf_counter(), Provenance()
    royle, hard = (grids(args.datasets / f) for f in FILES.values())
    gpu = Gpu(budget=args.budget)
    gpu.warm(SHAPE)
    body, best = section_sizes(gpu, royle, args.sizes, args.rounds)
    lines, hard_t = section_hard(gpu, hard, args.rounds)
    body += lines
    sets = {"royle17": royle, "forum_hardest_1905_11+": hard}
    body += section_tail(gpu, sets, args.rounds)
    if not args.skip_options:
        body += section_options(args.budget, args.small_budget, sets, args.rounds)
    if not args.skip_cpu:
        body += section_cpu(sets, args.rounds)
    body = floors(best, hard_t, hard.shape[0]) + body
    top = ["# The GPU batch backend (`gpu`)", "", *provenance.lines(),
           f"- took {(time.perf_counter() - started) / 60:.1f} min",
           f"- device: {Gpu.device()}",
           f"- CUDA target: {Gpu.version()}; options: budget={args.budget}, "
           f"block={gpu.options['block']}", ""]
    write_report(args.out, "\n".join(top + body) + "\n")


if __name__ == "__main__":
    try:
        main()
    except Wrong as err:
        sys.exit(f"benchmarks/gpu.py: {err}")
