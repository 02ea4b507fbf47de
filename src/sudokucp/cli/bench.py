"""The bench command: a comparison of backends on puzzle files, stopped cleanly by a signal."""

from __future__ import annotations

import argparse
import shlex
import signal
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sudokucp.cli.common import (
    CommandError,
    add_command,
    add_lang,
    count_arg,
    fail,
    isomorphs_arg,
    memory_arg,
    puzzle_source,
    repeat_arg,
    require_cpu_limit,
    seconds_arg,
    stopped_by_signals,
    whole_arg,
)
from sudokucp.cli.report import (
    add_scatter,
    answer_lines,
    scatter_pairs,
    status_counts,
    verdict,
)

if TYPE_CHECKING:
    from sudokucp.result import Status


def add_bench(sub: argparse._SubParsersAction) -> None:
    from sudokucp.executors import EXECUTORS
    from sudokucp.result import Status

    p = add_command(sub, "bench", run_bench)
    p.add_argument("--backends", nargs="+", required=True, metavar="SPEC",
                   help="backend specs, comma- or space-separated, with options "
                        "(mrv:order=static, cpsat:workers=2), or 'all'; any program: "
                        "'command:run=./mysolver {file}'")
    p.add_argument("--puzzles", nargs="+", required=True, metavar="FILE",
                   help="puzzle files, or names of data sets (`sudoku-cp datasets`), fetched "
                        "on first use")
    p.add_argument("--limit", type=whole_arg, choices=(0, 1, 2), default=1,
                   help="solutions to look for: 1 (default), 2 (uniqueness) or 0 (all)")
    p.add_argument("--timeout", type=seconds_arg, default=10.0, metavar="S",
                   help="seconds per run (default 10); the worker is killed shortly after")
    p.add_argument("--cpu-limit", type=seconds_arg, metavar="S",
                   help="CPU seconds per run (every thread and child program counted); a run "
                        "past it is killed and reads TIMEOUT. Needs Linux's /proc")
    p.add_argument("--measure", choices=("cpu", "wall"), default="cpu",
                   help="the time the tables rank by: cpu (default: CPU seconds of the search) "
                        "or wall (wall-clock seconds of the search); both are logged")
    p.add_argument("--repeat", type=repeat_arg, default=1, metavar="K",
                   help="run each backend on each puzzle K times (1 to 1000), every run in an "
                        "order shuffled by --seed (0 if not given); the tables take each "
                        "puzzle's median")
    p.add_argument("--isomorphs", type=isomorphs_arg, default=0, metavar="K",
                   help="also run each backend on K random isomorphs of each puzzle (0 to "
                        "1000; digits relabelled, rows, columns, bands and stacks "
                        "reordered), drawn with --seed; solutions are mapped back and judged "
                        "on the puzzle as given, and summary.md shows each backend's spread "
                        "over the forms")
    p.add_argument("--pin", action="store_true",
                   help="pin each run's worker to cores of its own (local executor)")
    p.add_argument("--jobs", type=count_arg, default=1, metavar="J",
                   help="runs in parallel, capped by the cores (a CP-SAT run counts its workers)")
    p.add_argument("--out", default="bench-out", metavar="DIR",
                   help="output folder, made with its parents if missing (default bench-out)")
    p.add_argument("--resume", action="store_true",
                   help="skip the runs already in DIR/results.jsonl (without it or "
                        "--overwrite, a DIR holding runs is refused); refused when they were "
                        "made with another --limit, --timeout, --memory or backend version")
    p.add_argument("--overwrite", action="store_true",
                   help="start over in a DIR that holds the runs of an earlier bench, replacing "
                        "its results.jsonl")
    p.add_argument("--retry", type=_statuses, default=frozenset(), metavar="STATUS,...",
                   help="with --resume: run again the finished runs that ended so, e.g. "
                        "crash,timeout (statuses: " + ", ".join(s.value for s in Status) + ")")
    p.add_argument("--seed", type=whole_arg, metavar="S",
                   help="shuffle the order of all runs with this seed (and draw the "
                        "--isomorphs forms)")
    p.add_argument("--memory", type=memory_arg, default=4096, metavar="MB",
                   help="address-space cap per worker (default 4096; 0 = none)")
    p.add_argument("--max-puzzles", type=count_arg, metavar="K",
                   help="the first K puzzles of each file")
    p.add_argument("--executor", choices=list(EXECUTORS), default="local",
                   help="where the runs execute (default local: worker processes here; "
                        "dask: a Dask cluster, needs the [dask] extra)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --executor dask: a running scheduler, e.g. tcp://HOST:8786 "
                        "(otherwise a local cluster is started)")
    p.add_argument("--workers", type=count_arg, metavar="N",
                   help="with --executor dask and no --scheduler: Dask worker processes to "
                        "start here (default: the usable cores)")
    p.add_argument("--chunk", type=count_arg, metavar="K",
                   help="with --executor dask: runs per Dask task (default: adapts, about 2 s "
                        "of work)")
    add_scatter(p)
    p.add_argument("--no-fail-on-disagreement", dest="fail_on_disagreement",
                   action="store_false", help="exit 0 even when answers are wrong or disagree")
    add_lang(p)


def _statuses(text: str) -> frozenset[Status]:
    """'crash,timeout' as statuses; plural and past forms (crashes, crashed) read the same."""
    from sudokucp.result import Status

    names = {status.value: status for status in Status}
    found = set()
    for word in filter(None, (w.strip().lower() for w in text.split(","))):
        forms = (word, word.removesuffix("es"), word.removesuffix("s"), word.removesuffix("ed"))
        name = next((form for form in forms if form in names), None)
        if name is None:
            raise argparse.ArgumentTypeError(f"{word!r} is not a status; choose from "
                                             f"{', '.join(names)}")
        found.add(names[name])
    return frozenset(found)


def _stopped(received: list[int]) -> int:
    """Say which signal stopped the bench; exit status 128 + its number (130, 143)."""
    signum = received[0] if received else signal.SIGINT
    fail(f"interrupted by {signal.Signals(signum).name}; every finished run is kept "
         f"(use --resume to go on)")
    return 128 + signum


def _executor_options(args: argparse.Namespace) -> dict[str, object]:
    """The options of --executor dask (refused with another executor), checked and completed by
    the executor before any work: a local cluster's worker count is filled in, for the summary."""
    from sudokucp.executors import ExecutorError, check_options

    given = {name: getattr(args, name) for name in ("scheduler", "workers", "chunk")
             if getattr(args, name) is not None}
    if args.executor != "dask" and given:
        raise CommandError(f"--{next(iter(given))} goes with --executor dask")
    try:
        return check_options(args.executor, given)
    except ExecutorError as err:
        raise CommandError(str(err)) from None


def refuse_missing_programs(specs: Sequence[str]) -> None:
    """A `command:` backend whose program cannot start here is refused before any run, as a
    preset whose program is missing is (BackendUnavailable: exit 2, one line)."""
    from sudokucp.backends import BackendUnavailable, from_spec, missing_program
    from sudokucp.i18n import _

    for spec in specs:
        if spec.strip().lower() == "all":
            continue
        backend = from_spec(spec)
        reason = missing_program(backend)
        if reason:
            raise BackendUnavailable(_("backend {label!r}: {reason}").format(
                label=backend.label, reason=reason))


def run_bench(args: argparse.Namespace) -> int:
    from pathlib import Path

    from sudokucp.backends import split_specs
    from sudokucp.cli.progress import Progress
    from sudokucp.executors import ExecutorError
    from sudokucp.executors.local import usable_cores
    from sudokucp.harness.bench import BenchConfig
    from sudokucp.harness.runlog import BenchError
    from sudokucp.harness.runplan import resolve
    from sudokucp.reporting.bench_report import bench_and_report

    if args.retry and not args.resume:
        raise CommandError("--retry runs again some runs of an earlier bench: add --resume")
    if args.resume and args.overwrite:
        raise CommandError("--resume goes on with the runs in --out, --overwrite replaces them: "
                           "choose one")
    if args.jobs > usable_cores():
        fail(f"--jobs {args.jobs} exceeds the {usable_cores()} usable cores: using "
             f"{usable_cores()}" + (" (each pinned worker takes a core of its own)"
                                    if args.pin else ""))
    if args.pin and args.executor != "local":
        raise CommandError("--pin goes with the local executor (a Dask worker runs one run at "
                           "a time: pin its process from the cluster's side)")
    require_cpu_limit(args.cpu_limit)
    cluster = _executor_options(args)
    specs = [s for item in args.backends for s in split_specs(item)]
    refuse_missing_programs(specs)
    chosen = scatter_pairs(args.scatter, [c.label for c in resolve(specs)] if args.scatter else [])
    command = shlex.join(["sudoku-cp", *args.argv]) if getattr(args, "argv", None) else None
    puzzles = [puzzle_source(p) for p in args.puzzles]
    config = BenchConfig(backends=specs, puzzles=puzzles, out=Path(args.out), limit=args.limit,
                         timeout=args.timeout, jobs=args.jobs, resume=args.resume,
                         seed=args.seed, memory_mb=args.memory or None,
                         max_puzzles=args.max_puzzles, executor=args.executor, retry=args.retry,
                         command=command, cluster=cluster, repeat=args.repeat,
                         isomorphs=args.isomorphs,
                         measure=args.measure, cpu_limit=args.cpu_limit, pin=args.pin,
                         overwrite=args.overwrite)
    progress: list[Progress] = []
    with stopped_by_signals() as received:
        try:
            outcome = bench_and_report(config, on_row=lambda row: progress[0](row),
                                       on_plan=lambda total: progress.append(Progress(total)),
                                       scatter=chosen)
        except (BenchError, ExecutorError) as err:
            raise CommandError(str(err)) from None
        except KeyboardInterrupt:  # before the runs began, or while the tables were written
            return _stopped(received)
    if progress:
        progress[0].finish()
    for problem in [*outcome.notes, *outcome.problems]:
        fail(problem)
    for warning in outcome.measurement.get("warnings", []):
        fail(f"noise warning: {warning}")
    from sudokucp.i18n import _, ngettext

    log = config.out / "results.jsonl"
    print(ngettext("{count} run done, {skipped} already in {log}",
                   "{count} runs done, {skipped} already in {log}", outcome.ran).format(
        count=outcome.ran, skipped=outcome.skipped, log=log))
    print(status_counts(outcome.rows))
    for d in outcome.disagreements:
        print(f"DISAGREEMENT {d.puzzle} ({d.hash}): {d.message}")
    print(_("wrote {files}").format(files=", ".join(str(p) for p in outcome.files)))
    for line in answer_lines(outcome.rows, outcome.files, outcome.settings):
        print(line)
    if outcome.interrupted:
        return _stopped(received)
    return verdict(outcome.rows, outcome.disagreements, outcome.problems,
                   args.fail_on_disagreement)
