"""The replay page: one self-contained HTML file that replays a trace in the browser.

The events (sudokucp.teaching.trace) are embedded as JSON; the page's CSS and JavaScript,
package data in templates/, are inlined: no server, no network, nothing fetched.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from sudokucp.i18n import N_, _, language

TEMPLATES = ("replay.html", "replay.css", "replay.js")
WORDS = {  # the script's sentences: {name} is a value it fills in
    "cell": N_("r{row}c{column}"),
    "start": N_("start: {givens} givens, {empty} empty cells"),
    "guess": N_("GoForward: {cell} = {digit} (hypothesis, depth {depth})"),
    "deduced": N_("deduced: {cell} = {digit} (propagation, depth {depth})"),
    "remove": N_("taken back: {cell} (was {digit}, depth {depth})"),
    "backtrack": N_("GoBack: the node at depth {depth} failed"),
    "backtrack_at": N_("GoBack: the node at depth {depth} ({cell} = {digit}) failed"),
    "solution": N_("solution {count}: every cell filled"),
    "cut": N_("trace cut at {steps} steps"),
    "end": N_("end: {status}, {count} solution(s)"),
    "depth": N_("depth {depth}"),
    "summary": N_("{backend} on {puzzle}, {side}x{side} (boxes {rows}x{cols}): {steps} steps"),
    "a grid": N_("a grid"),
    "speed": N_("{rate} steps/s"),
    "play": N_("play"),
    "pause": N_("pause"),
}
PAGE_TEXT = re.compile(r"\{\{([^{}]+)\}\}")  # {{English text}} in replay.html, translated


def template(name: str) -> str:
    """A file of the package's templates folder."""
    return files("sudokucp.teaching").joinpath("templates", name).read_text(encoding="utf-8")


def safe_json(value: Any) -> str:
    """`value` as JSON that cannot end the <script> element holding it."""
    text = json.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def embed(events: Sequence[dict[str, Any]]) -> str:
    """The events as JSON that cannot end the <script> element holding it."""
    return safe_json(list(events))


def words() -> dict[str, str]:
    """The script's sentences in the current language."""
    return {key: _(text) for key, text in WORDS.items()}


def translated(page: str) -> str:
    """The page template with each {{English text}} in the current language, escaped."""
    def one(match: re.Match[str]) -> str:
        text = match.group(1)
        return language() if text == "lang" else html.escape(_(text))
    return PAGE_TEXT.sub(one, page)


def title(events: Sequence[dict[str, Any]]) -> str:
    head = events[0]
    side = head["side"]
    name = head.get("puzzle") or _("a grid")
    tail = events[-1]
    cut = (_(", the first {cap} of {steps} steps").format(cap=f"{tail['page_cap']:,}",
                                                          steps=f"{tail['steps']:,}")
           if "page_cap" in tail else "")
    return _("sudoku-cp trace: {backend} on {puzzle} ({side}x{side}{cut})").format(
        backend=head["backend"], puzzle=name, side=side, cut=cut)


def render(events: Sequence[dict[str, Any]]) -> str:
    """The page replaying `events` (a start event first, as teaching.trace.record returns), in
    the current language."""
    if not events or events[0].get("event") != "start":
        raise ValueError("a trace begins with its start event")
    page, style, script = (template(name) for name in TEMPLATES)
    before, after = translated(page).split("__TRACE__")
    script = script.replace("__WORDS__", safe_json(words()))
    parts = [before.replace("__TITLE__", html.escape(title(events)))
                   .replace("__STYLE__", style),
             embed(events),
             after.replace("__SCRIPT__", script)]
    return "".join(parts)
