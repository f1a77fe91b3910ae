"""The web board's layout in a real browser (issue 59, item 7): on a laptop's screen the
board of a late position, the stock, the Ace pile, the status line and the controls are
all on screen without scrolling; on a phone the column numbers the Move box needs are
shown, Three Up's second half does not repeat the row labels, the score line takes at
most two lines, and the ⚠ badge covers no pile's count."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from browser import browser, position  # noqa: F401
from playwright.async_api import Browser, Page
from webserver import DEAL, Serve, Served

from bot.service import LOCAL_USER_ID, GameService
from engine import VARIANTS, Game, Move, format_position
from engine.solver import solve

pytestmark = pytest.mark.browser

LAPTOPS = [{"width": 1280, "height": 800}, {"width": 1366, "height": 768}]
PHONE = {"width": 390, "height": 844}
TALLEST = 4  # a row pile holds its base and three more (2-5-8-J): the most it grows to
LONG_PILED = {"vr": 1, "rp": 4, "tu": 1, "bj": 1, "bp": 1}
"""A deal of each game whose solver's line reaches a position where every row has a pile
of four cards: the tallest board the game has."""

CONTROLS = [
    "#move",
    "#entry button",
    "nav.controls button",
    "#start select",
    "#start input",
    "#start button",
    ".settings input",
]

OFF_SCREEN = """selectors => {
    const out = [];
    for (const selector of selectors) {
        const found = document.querySelectorAll(selector);
        if (found.length === 0) out.push(`${selector}: none`);
        for (const el of found) {
            const r = el.getBoundingClientRect();
            const name = el.dataset.pile || el.dataset.command || el.id || selector;
            if (r.width === 0 || r.height === 0) out.push(`${name}: not drawn`);
            else if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
                out.push(`${name}: ${Math.round(r.left)},${Math.round(r.top)} to ` +
                         `${Math.round(r.right)},${Math.round(r.bottom)}`);
        }
    }
    return out;
}"""

BADGE = """pile => {
    const r = pile.getBoundingClientRect();
    const s = getComputedStyle(pile, '::after');
    const px = (v) => parseFloat(v) || 0;
    const width = px(s.width) + px(s.paddingLeft) + px(s.paddingRight);
    const height = px(s.height) + px(s.paddingTop) + px(s.paddingBottom);
    return {content: s.content, x: r.right - px(s.right) - width, y: r.top + px(s.top),
            width, height};
}"""


async def opened(browser: Browser, served: Served, viewport: dict[str, int]) -> Page:  # noqa: F811
    page = await browser.new_page(viewport=viewport, reduced_motion="reduce")  # type: ignore[arg-type]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    await page.goto(served.base + "/")
    await page.wait_for_selector("#board[data-version]")
    page.errors = errors  # type: ignore[attr-defined]
    return page


def long_piled(code: str) -> tuple[Game, tuple[Move, ...]]:
    """The solver's line of ``code``'s long-piled deal up to the first position where every
    row has a pile of four cards, and that position."""
    game = Game.new(LONG_PILED[code], VARIANTS[code])
    solution = solve(game.copy(), max_nodes=500_000)
    assert solution.verdict == "won"
    for n, move in enumerate(solution.line):
        game.play(move)
        if all(max(len(pile) for pile in game.row(row)) == TALLEST for row in range(3)):
            return game, solution.line[: n + 1]
    raise AssertionError(f"no position of {code} deal {LONG_PILED[code]} has every row at four")


async def played(service: GameService, code: str) -> Game:
    """``code``'s long-piled position, played through the service (no automatic Aces, so
    the position is the solver's)."""
    await service.update_settings(LOCAL_USER_ID, auto_aces=False)
    await service.new_game(LOCAL_USER_ID, None, LONG_PILED[code], variant=code)
    game, line = long_piled(code)
    for move in line:
        if move.is_deal:
            await service.deal(LOCAL_USER_ID)
        else:
            await service.move(LOCAL_USER_ID, str(move))
    return game


def overlap(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two boxes (x, y, width, height) share any area."""
    return bool(
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize("code", list(LONG_PILED))
async def test_a_laptop_shows_the_tallest_board_the_status_line_and_the_controls_without_scrolling(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
    code: str,
) -> None:
    game = await played(service, code)
    served = await serve()
    for viewport in LAPTOPS:
        page = await opened(browser, served, viewport)
        assert await position(page) == format_position(game)
        size = f"{viewport['width']}x{viewport['height']}"
        await page.fill("#move", "r1 r1")  # refused: the reason is on the status line
        await page.press("#move", "Enter")
        await page.locator("#status.error").wait_for()
        assert await page.inner_text("#status") != ""
        scroll = await page.evaluate(
            "() => [document.scrollingElement.scrollHeight, innerHeight,"
            " document.scrollingElement.scrollWidth, innerWidth]"
        )
        assert scroll[0] <= scroll[1] and scroll[2] <= scroll[3], f"{code} at {size}: {scroll}"
        shown = ["#board", '[data-pile="STOCK"]', '[data-pile="ACE"]', "[data-pile]", "#status"]
        off = await page.evaluate(OFF_SCREEN, shown + CONTROLS)
        assert off == [], f"{code} at {size}, off the screen: {off}"
        if game.width == 12:  # the halves side by side: each row one line across the board
            for row in "ABCR":
                first = await page.locator(f'[data-pile="{row}1"]').bounding_box()
                second = await page.locator(f'[data-pile="{row}7"]').bounding_box()
                assert first is not None and second is not None
                assert abs(first["y"] - second["y"]) < 1, f"{code} at {size}: {row}1 and {row}7"
        assert page.errors == []  # type: ignore[attr-defined]
        await page.close()


async def test_a_phone_shows_the_column_numbers_over_the_piles(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await opened(browser, await serve(), PHONE)
    numbers = page.locator("#board .number")
    assert await numbers.all_inner_texts() == [str(n) for n in range(1, 9)]
    for column, number in enumerate(await numbers.all(), start=1):
        box = await number.bounding_box()
        pile = await page.locator(f'[data-pile="A{column}"]').bounding_box()
        assert box is not None and pile is not None and box["height"] > 0
        assert box["y"] + box["height"] <= pile["y"] + 1, f"{column} is not over A{column}"
        middle, pile_middle = box["x"] + box["width"] / 2, pile["x"] + pile["width"] / 2
        assert abs(middle - pile_middle) < 2, f"{column} is not over A{column}"


async def test_three_up_on_a_phone_goes_on_without_new_row_labels_under_a_short_score_line(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    await service.daily(LOCAL_USER_ID, None, "tu")  # the longest score line: daily and par
    page = await opened(browser, await serve(), PHONE)
    first, second = page.locator("#board .half").nth(0), page.locator("#board .half").nth(1)
    one, two = await first.bounding_box(), await second.bounding_box()
    assert one is not None and two is not None and two["y"] >= one["y"] + one["height"]
    assert await first.locator(".label").all_inner_texts() == ["", "A", "B", "C", "R"]
    assert [t.strip() for t in await second.locator(".label").all_inner_texts()] == [""] * 5
    assert await second.locator(".number").all_inner_texts() == [str(n) for n in range(7, 13)]
    figures = await page.inner_text("#figures")
    assert "daily" in figures
    lines = await page.eval_on_selector(
        "#figures",
        "p => p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)",
    )
    assert lines <= 2.05, f"the score line takes {lines:.1f} lines: {figures!r}"
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("viewport", [PHONE, *LAPTOPS], ids=["phone", "1280", "1366"])
async def test_the_warning_badge_covers_no_piles_count(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
    viewport: dict[str, int],
) -> None:
    deal = 1  # C2 to the Ace pile leaves a space in row C that no Four can fill yet
    await service.update_settings(LOCAL_USER_ID, auto_aces=False)
    await service.new_game(LOCAL_USER_ID, None, deal)
    game = Game.new(deal)
    assert any(str(m) == "C2 ACE" and game.space_warning(m) for m in game.legal_moves())
    page = await opened(browser, await serve(), viewport)
    await page.click('[data-pile="C2"] .card.movable')
    await page.locator('[data-pile="ACE"].target.warn').wait_for()
    warned = await page.locator(".target.warn").all()
    assert warned
    counts = [
        box
        for count in await page.locator("#board .depth, #board .caption").all()
        for box in [await count.bounding_box()]
        if box is not None
    ]
    assert len(counts) == 8 + 2  # the reserve's depths, the stock's and the Ace pile's
    for pile in warned:
        badge = await pile.evaluate(BADGE)
        assert badge["content"] == '"⚠"' and badge["width"] > 0
        name = await pile.get_attribute("data-pile")
        covered = [count for count in counts if overlap(badge, count)]
        assert covered == [], f"the ⚠ of {name} at {badge} covers a count at {covered}"
