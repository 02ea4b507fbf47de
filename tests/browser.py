"""A real headless browser for the tests of HTML pages: Debian's Chromium driven by Playwright.

`open_page(path)` loads a local file and returns the page with the console errors it logged;
the tests that use it skip with the reason where Playwright or Chromium is missing.
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
def open_page(path: Path) -> Iterator[tuple[object, list[str]]]:
    """A headless page showing the file at `path`, and the console and page errors it logs."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (the [dev] extra has it)")
    executable = chromium_path()
    errors: list[str] = []
    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=executable, headless=True,
                                       args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(Path(path).resolve().as_uri())
            yield page, errors
        finally:
            browser.close()
