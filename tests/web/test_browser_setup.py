"""The browser tests' own rule: without Chromium they skip and say how to install it,
unless REEL_REQUIRE_BROWSER=1 (CI) turns the skip into a failure."""

from __future__ import annotations

import browser as browser_module
import pytest


def test_no_chromium_skips_naming_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_module, "chromium", lambda: None)
    monkeypatch.delenv("REEL_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium"):
        browser_module.required_chromium()


def test_no_chromium_fails_where_a_browser_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_module, "chromium", lambda: None)
    monkeypatch.setenv("REEL_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="REEL_REQUIRE_BROWSER=1"):
        browser_module.required_chromium()


def test_playwright_is_never_asked_for_a_browser_of_its_own() -> None:
    # the pinned Playwright's bundled Chromium is not newer than Debian's (pyproject.toml)
    from importlib.metadata import version

    major, minor = (int(p) for p in version("playwright").split(".")[:2])
    assert (major, minor) < (1, 65)
    assert "--disable-background-networking" in browser_module.FLAGS
