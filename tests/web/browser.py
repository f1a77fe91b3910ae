"""Debian's Chromium for the browser tests, driven by Playwright: never a browser of
Playwright's own (nothing is downloaded), headless, with the flags that keep it off the
network. Where no Chromium is found the tests skip, naming the command that installs it,
unless ``REEL_REQUIRE_BROWSER=1`` (set by .ci/run) makes that a failure.

The board's hooks (docs/web.md): the root ``#board`` carries ``data-position`` and
``data-version``, each pile ``data-pile``, each card ``data-card``."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

INSTALL = "apt-get install -y chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parent.parent.parent
ARTIFACTS = Path(os.environ.get("REEL_TEST_ARTIFACTS") or ROOT / ".artifacts")
"""Where browser tests keep their screenshots (git-ignored; CI may collect them)."""


def chromium() -> str | None:
    """Debian's Chromium, if installed."""
    for name in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if name and Path(name).is_file() and os.access(name, os.X_OK):
            return name
    return None


def required_chromium() -> str:
    """Chromium's path; where there is none, the test skips naming the install command,
    or fails if ``REEL_REQUIRE_BROWSER=1``."""
    path = chromium()
    if path is None:
        reason = f"no Chromium found: install Debian's with `{INSTALL}`"
        if os.environ.get("REEL_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{reason} (REEL_REQUIRE_BROWSER=1 requires it)")
        pytest.skip(reason)
    return path


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    path = required_chromium()
    async with async_playwright() as playwright:  # each launch has a fresh profile
        launched = await playwright.chromium.launch(executable_path=path, headless=True, args=FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


async def version_after(page: Page, version: int, timeout: float = 5000) -> None:
    """Wait until the board shows ``version`` (``data-version``)."""
    await page.wait_for_function(
        "v => document.getElementById('board').dataset.version === v",
        arg=str(version),
        timeout=timeout,
    )


async def position(page: Page) -> str:
    value = await page.get_attribute("#board", "data-position")
    assert value is not None
    return value


async def drag(page: Page, source: str, target: str) -> None:
    """Drag the available card of pile ``source`` onto pile ``target`` with the mouse."""
    card = page.locator(f'[data-pile="{source}"] .card.movable').last
    await card.scroll_into_view_if_needed()
    box = await card.bounding_box()
    goal = await page.locator(f'[data-pile="{target}"]').bounding_box()
    assert box is not None and goal is not None, f"{source} or {target} is not on the board"
    size = page.viewport_size
    assert size is not None and goal["y"] >= 0 and goal["y"] + 10 <= size["height"], (
        f"{target} is off the screen while {source} is on it"
    )
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 4
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 12, y + 12, steps=2)
    await page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 3, steps=4)
    await page.mouse.up()
