"""The replay page: one self-contained HTML file that replays a trace in the browser.

The events (sudokucp.teaching.trace) are embedded as JSON; the page's CSS and JavaScript,
package data in templates/, are inlined: no server, no network, nothing fetched.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

TEMPLATES = ("replay.html", "replay.css", "replay.js")


def template(name: str) -> str:
    """A file of the package's templates folder."""
    return files("sudokucp.teaching").joinpath("templates", name).read_text(encoding="utf-8")


def embed(events: Sequence[dict[str, Any]]) -> str:
    """The events as JSON that cannot end the <script> element holding it."""
    text = json.dumps(list(events), separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def title(events: Sequence[dict[str, Any]]) -> str:
    head = events[0]
    side = head["side"]
    name = head.get("puzzle") or "a grid"
    tail = events[-1]
    cut = (f", the first {tail['page_cap']:,} of {tail['steps']:,} steps"
           if "page_cap" in tail else "")
    return f"sudoku-cp trace: {head['backend']} on {name} ({side}x{side}{cut})"


def render(events: Sequence[dict[str, Any]]) -> str:
    """The page replaying `events` (a start event first, as teaching.trace.record returns)."""
    if not events or events[0].get("event") != "start":
        raise ValueError("a trace begins with its start event")
    page, style, script = (template(name) for name in TEMPLATES)
    before, after = page.split("__TRACE__")
    parts = [before.replace("__TITLE__", html.escape(title(events)))
                   .replace("__STYLE__", style),
             embed(events),
             after.replace("__SCRIPT__", script)]
    return "".join(parts)
