"""A real headless browser for the tests of HTML pages: Debian's Chromium driven by Playwright.

`launched()` starts one browser (conftest's `chromium` fixture: one per test module), and
`open_page(browser, path)` loads a local file in a fresh context of it and returns the page with
the console errors it logged; the tests that use it skip with the reason where Playwright or
Chromium is missing.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def chromium_path() -> str:
    """The system Chromium, or a skip naming what to install."""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium on this machine: `apt-get install -y chromium` (.ci/run does)")


@contextmanager
def launched() -> Iterator[object]:
    """A headless Chromium, closed on leaving (Playwright's loop runs meanwhile: no asyncio.run)."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (the [dev] extra has it)")
    executable = chromium_path()
    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=executable, headless=True,
                                       args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def open_page(browser, path: Path) -> Iterator[tuple[object, list[str]]]:
    """A page of its own showing the file at `path`, and the console and page errors it logs."""
    errors: list[str] = []
    context = browser.new_context()
    try:
        page = context.new_page()
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(Path(path).resolve().as_uri())
        yield page, errors
    finally:
        context.close()
