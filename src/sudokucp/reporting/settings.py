"""The settings of a bench as summary.md and report.html list them, one line each with its
unit, and the bench's noise warnings."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sudokucp.i18n import N_, _
from sudokucp.reporting.provenance import commit_line, shown_path, shown_paths
from sudokucp.reporting.text import code


def _runs(v: Any) -> str:
    made, read = v
    if read:
        return _("runs in the tables: {total} ({made} made by this command, {read} read from "
                 "results.jsonl: the date, machine and load above are this command's, not those "
                 "of the runs it read)").format(total=sum(v), made=made, read=read)
    return _("runs in the tables: {total} ({made} made by this command, {read} read from "
             "results.jsonl)").format(total=sum(v), made=made, read=read)


def _repeat(v: int) -> str:
    if v > 1:
        return _("repeats: {count} runs of each backend on each puzzle; every table but "
                 "results.csv takes each puzzle's median over them").format(count=v)
    return _("repeats: 1 (one run of each backend on each puzzle)")


SETTING_LINES: dict[str, Callable[[Any], str]] = {  # key of the settings: its line, units named
    "command": lambda v: _("command: {command}").format(command=code(shown_paths(v))),
    "commit": lambda v: _("commit of the code that wrote this report: {commit}").format(commit=v),
    "date": lambda v: _("date: {date} (start)").format(date=v),
    "machine": lambda v: _("machine: {machine}").format(machine=v),
    "load": lambda v: _("load average at the start (1, 5, 15 min): {load}").format(load=v),
    "python": lambda v: _("Python: {version}").format(version=v),
    "backends": lambda v: _("backend versions: {versions}").format(
        versions=", ".join(f"{k} {x}" for k, x in v.items())),
    "runs": _runs,
    "limit": lambda v: _("solutions sought per run: {limit}").format(limit=v or _("all")),
    "timeout": lambda v: (_("timeout: {seconds} s per run").format(seconds=f"{v:g}") if v
                          else _("timeout: none")),
    "memory_mb": lambda v: (_("memory: {mb} MB per worker").format(mb=v) if v
                            else _("memory: no cap")),
    "jobs": lambda v: _("jobs: {jobs} (runs at a time)").format(jobs=v),
    "seed": lambda v: _("seed: {seed} (the order of all runs shuffled)").format(seed=v),
    "retry": lambda v: _("retried: the runs that had ended {statuses}").format(
        statuses=", ".join(v)),
    "puzzles": lambda v: _("puzzles: {files}").format(
        files=", ".join(code(shown_path(p)) for p in v)),
    "max_puzzles": lambda v: _("at most {count} puzzles per file").format(count=v),
    "rebuilt": lambda v: _("tables rebuilt from results.jsonl alone: {command} (the log holds "
                           "no date, machine or load of its runs)").format(
        command=code(shown_paths(v))),
    "read": lambda v: _("runs in the tables: {count}, read from results.jsonl").format(count=v),
    "datasets": lambda v: _("data sets: {sets}").format(sets=", ".join(
        _("{name} ({count} puzzles)").format(name=k, count=n) for k, n in v.items())),
    "measure": lambda v: _(MEASURES[v]) if v in MEASURES else _("times: {measure}").format(
        measure=v),
    "repeat": _repeat,
    "cpu_limit": lambda v: (_("CPU time limit: {seconds} s per run").format(seconds=f"{v:g}")
                            if v else _("CPU time limit: none")),
    "pin": lambda v: (_("workers pinned: each worker bound to a CPU core of its own") if v else
                      _("workers not pinned to CPU cores")),
    "load_end": lambda v: _("load average at the end (1, 5, 15 min): {load}").format(load=v),
    "calibration": lambda v: _calibration(v),
    "executor": lambda v: _executor(v),
}
NONE_SAID = ("timeout", "memory_mb", "cpu_limit")  # settings whose None is said: 'none'


def stamped(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings with the commit of the code writing the report, after the command that
    wrote it (a commit already there is kept)."""
    items = list(settings.items())
    if "commit" not in settings:
        at = next((i + 1 for i, (k, _v) in enumerate(items) if k in ("command", "rebuilt")), 0)
        items.insert(at, ("commit", commit_line()))
    return dict(items)


def settings_lines(settings: Mapping[str, Any]) -> list[str]:
    """One list item per setting, with its unit; empty ones left out (a time-out, a CPU time
    limit or a memory cap of None says 'none')."""
    return [f"- {SETTING_LINES[k](v)}" for k, v in settings.items() if k in SETTING_LINES
            and (v not in (None, [], {}) or k in NONE_SAID)]


def noise_of(settings: Mapping[str, Any]) -> tuple[list[str], bool]:
    """The bench's measurement warnings, and whether it ran its noise checks (a calibration
    loop, None when it ran none); settings from before those checks give ([], False)."""
    return ([str(w) for w in settings.get("warnings") or []],
            settings.get("calibration") is not None)


def _calibration(v: Mapping[str, Any]) -> str:
    """The calibration loop's line: points, median, spreads as shares of the median, and the
    wall time's excess over CPU time when given."""
    def share(x: Any) -> str:
        return "?" if x is None else f"{float(x):.1%}"

    median = v.get("median_ms")
    waited = (_("; wall time {share} over CPU time at the median point").format(
        share=share(v["waiting"])) if v.get("waiting") is not None else "")
    return _("calibration loop: {points} points, median {median} ms; spread (max - min over "
             "the median) {wall} of wall time, {cpu} of CPU time{waited}").format(
        points=v.get("runs", "?"), median="?" if median is None else f"{float(median):.3g}",
        wall=share(v.get("spread")), cpu=share(v.get("cpu_spread")), waited=waited)


def _executor(v: Mapping[str, Any]) -> str:
    """Where the runs ran: local worker processes (--jobs), or a Dask cluster, local with its
    worker count or at a scheduler's address, and its chunks."""
    name = v.get("name", "local")
    if name != "dask":
        return _("executor: {name} (worker processes on this machine, jobs at a time)").format(
            name=name)
    if v.get("scheduler"):
        where = _("the cluster at {address}, with the workers started there").format(
            address=v["scheduler"])
    else:
        where = (_("a local cluster of {count} worker processes").format(count=v["workers"])
                 if v.get("workers") else
                 _("a local cluster of one worker process per usable core"))
    chunks = (_("{count} runs per Dask task").format(count=v["chunk"]) if v.get("chunk")
              else _("runs per Dask task adapted to about 2 s of work"))
    return _("executor: dask, {where}; one run at a time per Dask thread (jobs does not "
             "apply); {chunks}").format(where=where, chunks=chunks)


MEASURES = {"cpu": N_("times: CPU seconds of the search (user + system, every thread, "
                      "children included)"),
            "wall": N_("times: wall-clock seconds of the search")}
