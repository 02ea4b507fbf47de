"""The runs that ended in error or crash, their reasons grouped and counted per backend: for the
console's last lines, summary.md and report.html."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from sudokucp.i18n import _, ngettext
from sudokucp.reporting.text import md
from sudokucp.result import Status

FAILED = (Status.ERROR, Status.CRASH)  # the statuses whose reasons are shown
LONGEST = 200  # characters of a reason kept (the whole one is in results.csv)


@dataclass(frozen=True)
class Failure:
    """`runs` runs of `backend` that ended `status` (error, crash) for the same `reason`."""

    backend: str
    status: str
    reason: str
    runs: int


def failures(runs: Iterable[tuple[str, object, object]]) -> list[Failure]:
    """(backend, status, error) of every run, the error and crash runs grouped by backend,
    status and reason (its first line, cut to LONGEST characters): by backend, then the most
    runs first."""
    words = {status.value for status in FAILED}
    counted: Counter[tuple[str, str, str]] = Counter()
    for backend, status, error in runs:
        word = getattr(status, "value", status)
        if word in words:
            counted[(str(backend), str(word), reason_of(error))] += 1
    return [Failure(backend, status, reason, count) for (backend, status, reason), count in
            sorted(counted.items(), key=lambda item: (item[0][0], -item[1], item[0][1:]))]


def reason_of(error: object) -> str:
    """An error's first line, cut to LONGEST characters; a stand-in when none was given."""
    text = "" if error is None or error != error else str(error).strip()
    first = text.splitlines()[0].strip() if text else ""
    if not first:
        return _("(no reason given)")
    return first if len(first) <= LONGEST else first[:LONGEST - 1] + "…"


def failure_text(failure: Failure) -> str:
    """'3 error: cannot run ...'."""
    return ngettext("{count} run {status}: {reason}", "{count} runs {status}: {reason}",
                    failure.runs).format(count=failure.runs, status=failure.status,
                                         reason=failure.reason)


def console_lines(found: list[Failure]) -> list[str]:
    """A heading, then per backend its grouped reasons; nothing when no run failed."""
    if not found:
        return []
    lines = [_("Runs that ended in error or crash, by backend and reason:")]
    for failure in found:
        lines.append(f"  {failure.backend}: {failure_text(failure)}")
    return lines


def markdown_lines(found: list[Failure]) -> list[str]:
    """A section of summary.md, names and reasons escaped; nothing when no run failed."""
    if not found:
        return []
    return [f"## {_('Errors and crashes')}", "",
            *(f"- **{md(f.backend)}**: {md(failure_text(f))}" for f in found),
            "", _("Every run's whole message is in `results.csv`'s `error` column."), ""]


def html_section(found: list[Failure]) -> str:
    """The same as an HTML section (id 'failures'), escaped; '' when no run failed."""
    if not found:
        return ""
    items = "".join(f"<li><b>{html.escape(f.backend)}</b>: {html.escape(failure_text(f))}</li>"
                    for f in found)
    return (f'<section id="failures" class="warning"><h2>{html.escape(_("Errors and crashes"))}'
            f"</h2><ul>{items}</ul></section>")


def summary_line(found: list[Failure]) -> str:
    """'5 runs ended in error or crash: cmd (5 error)': which, for the exit status."""
    runs = sum(f.runs for f in found)
    per: Counter[tuple[str, str]] = Counter()
    for f in found:
        per[(f.backend, f.status)] += f.runs
    which = ", ".join(f"{backend} ({count} {status})" for (backend, status), count in per.items())
    return ngettext("{count} run ended in error or crash: {which}",
                    "{count} runs ended in error or crash: {which}", runs).format(
        count=runs, which=which)
