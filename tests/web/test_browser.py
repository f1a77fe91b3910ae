"""The web board in a real browser (Debian's Chromium through Playwright), played through
its hooks as a player and as a tool would: ``data-position`` on the board's root compared
with the engine's position after every move."""

from __future__ import annotations

import re

import pytest
from browser import ARTIFACTS, browser, drag, position, version_after  # noqa: F401
from playwright.async_api import Browser, Dialog, Page
from playwright.async_api import Error as PlaywrightError
from webserver import DEAL, Serve, Served

from bot.service import LOCAL_USER_ID, GameService
from engine import MAX_DEAL, VARIANTS, Game, IllegalMoveError, Pile, format_position, parse_move
from engine.solver import solve

pytestmark = pytest.mark.browser


async def opened(browser: Browser, served: Served, **options: object) -> Page:  # noqa: F811
    page = await browser.new_page(**options)  # type: ignore[arg-type]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    await page.goto(served.base + "/")
    await page.wait_for_selector("#board[data-version]")
    page.errors = errors  # type: ignore[attr-defined]
    return page


async def test_a_whole_deal_is_won_by_dragging_along_the_solvers_line(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await opened(browser, await serve())
    game = Game.new(DEAL)
    solution = solve(game.copy(), max_nodes=500_000)
    assert solution.verdict == "won"
    assert await position(page) == format_position(game)
    version = view.version
    for move in solution.line:
        if move.is_deal:
            await page.click('[data-pile="STOCK"]')
        else:
            await drag(page, str(move.src), str(move.dst))
        game.play(move)
        version += 1
        try:
            await version_after(page, version)
        except PlaywrightError:
            status = await page.inner_text("#status")
            raise AssertionError(f"{move} was not played: the page says {status!r}") from None
        assert await position(page) == format_position(game), f"after {move}"
    assert game.is_won()
    assert await page.get_attribute("#board", "data-status") == "won"
    assert "You won deal" in await page.inner_text("#screen")
    assert page.errors == []  # type: ignore[attr-defined]


async def test_an_illegal_drop_returns_the_card_with_the_reason(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await opened(browser, await serve())
    game = Game.new(DEAL)
    source, target, reason = next(
        (src, dst, str(exc))
        for src in (f"R{i}" for i in range(1, 9))
        if game.pile(parse_move(game, f"{src} ACE").src)  # type: ignore[arg-type]
        for dst in ("A3", "B4", "C5", "A6")
        for exc in [_refusal(game, f"{src} {dst}")]
        if exc is not None
    )
    card = await page.get_attribute(f'[data-pile="{source}"] .card', "data-card")
    await drag(page, source, target)
    status = page.locator("#status.error")
    await status.wait_for()
    assert reason.split(":")[0].lower()[:20] in (await status.inner_text()).lower()
    await page.wait_for_function("() => !document.querySelector('.ghost')")
    assert await page.get_attribute(f'[data-pile="{source}"] .card', "data-card") == card
    assert await page.locator(".lifted").count() == 0
    assert await position(page) == format_position(game)
    assert (await service.show(LOCAL_USER_ID)).version == view.version
    # dropped off the board: returned too, with the reason
    await drag(page, source, "STOCK")
    await page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('off')"
    )
    assert await position(page) == format_position(game)


def _refusal(game: Game, text: str) -> IllegalMoveError | None:
    try:
        game.kind(parse_move(game, text))
    except IllegalMoveError as exc:
        return exc
    return None


async def test_a_move_made_in_chat_shows_on_the_open_board(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await opened(browser, await serve())
    dealt = await service.deal(LOCAL_USER_ID, view.version)  # a chat button's call
    await version_after(page, dealt.version, timeout=1000)
    assert await position(page) == dealt.position


async def test_a_stale_drop_from_a_second_tab_is_refused_and_the_tab_catches_up(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    served = await serve()
    # two windows (a context each), both visible, as a player's two windows side by side:
    # two tabs of one window would leave the first hidden, its animation frames stopped
    first, second = await browser.new_page(), await browser.new_page()
    for tab in (first, second):
        await tab.goto(served.base + "/")
        await version_after(tab, view.version)
    game = Game.new(DEAL)
    one, two = [m for m in game.legal_moves() if not m.is_deal and m.src != m.dst][:2]
    # the second tab picks a card up ...
    card = second.locator(f'[data-pile="{two.src}"] .card.movable').last
    box = await card.bounding_box()
    assert box is not None
    await second.mouse.move(box["x"] + 5, box["y"] + 5)
    await second.mouse.down()
    await second.mouse.move(box["x"] + 30, box["y"] + 30, steps=3)
    # ... the first tab plays meanwhile, and the second tab's board follows at once
    await drag(first, str(one.src), str(one.dst))
    await version_after(first, view.version + 1)
    await version_after(second, view.version + 1)
    goal = await second.locator(f'[data-pile="{two.dst}"]').bounding_box()
    assert goal is not None
    await second.mouse.move(goal["x"] + 10, goal["y"] + 10, steps=3)
    await second.mouse.up()
    await second.locator("#status.error").wait_for()
    assert "out of date" in await second.inner_text("#status")
    game.play(one)
    assert await position(second) == format_position(game) == await position(first)
    assert (await service.show(LOCAL_USER_ID)).version == view.version + 1


async def test_a_drag_whose_card_a_pushed_board_takes_away_is_cancelled(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await opened(browser, await serve())
    card = page.locator('[data-pile="R1"] .card.movable')
    held = await card.get_attribute("data-card")
    box = await card.bounding_box()
    assert box is not None
    await page.mouse.move(box["x"] + 5, box["y"] + 5)
    await page.mouse.down()
    await page.mouse.move(box["x"] + 30, box["y"] + 30, steps=3)
    await page.locator(".ghost").wait_for()
    assert await page.locator('[data-pile="R1"] .card.lifted').count() == 1
    dealt = await service.deal(LOCAL_USER_ID, view.version)  # a chat move covers R1's card
    await version_after(page, dealt.version, timeout=1000)
    # let go at once: no ghost, nothing dimmed or marked, and the status line says why
    assert await page.locator(".ghost").count() == 0
    assert await page.locator(".lifted, .chosen, .target").count() == 0
    assert "moved meanwhile" in await page.inner_text("#status.note")
    assert await page.get_attribute('[data-pile="R1"] .card', "data-card") != held
    # the release, on the stock, is no tap: nothing is sent (a tap there would deal)
    stock = await page.locator('[data-pile="STOCK"]').bounding_box()
    assert stock is not None
    await page.mouse.move(stock["x"] + 10, stock["y"] + 10, steps=3)
    await page.mouse.up()
    await page.wait_for_timeout(300)
    assert (await service.show(LOCAL_USER_ID)).version == dealt.version
    assert await page.get_attribute("#board", "data-version") == str(dealt.version)
    assert page.errors == []  # type: ignore[attr-defined]


async def test_a_phone_shows_the_whole_board_without_sideways_scrolling(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await opened(browser, await serve(), viewport={"width": 390, "height": 844})
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    for pile in await page.locator("[data-pile]").all():
        box = await pile.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert await page.locator("[data-pile]").count() == 24 + 8 + 2  # rows, reserve, stock, Aces
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / "phone-390x844.png"), full_page=True)


async def test_keyboard_only_play(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await opened(browser, await serve())
    game = Game.new(DEAL)
    move = next(m for m in game.legal_moves() if not m.is_deal)
    for _ in range(10):  # Tab to the move box
        if await page.evaluate("document.activeElement.id") == "move":
            break
        await page.keyboard.press("Tab")
    assert await page.evaluate("document.activeElement.id") == "move"
    await page.keyboard.type(str(move).lower())
    await page.keyboard.press("Enter")
    game.play(move)
    await version_after(page, view.version + 1)
    assert await position(page) == format_position(game)
    assert await page.input_value("#move") == ""
    await page.keyboard.type("undo")
    await page.keyboard.press("Enter")
    await version_after(page, view.version + 2)
    assert await position(page) == format_position(Game.new(DEAL))


async def test_tap_tap_and_double_tap_play_and_a_hint_shows_on_the_board(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await opened(browser, await serve(), reduced_motion="reduce")
    game = Game.new(DEAL)
    move = next(m for m in game.legal_moves() if not m.is_deal)
    await page.click(f'[data-pile="{move.src}"] .card.movable')
    targets = await page.locator(".target").evaluate_all("els => els.map(e => e.dataset.pile)")
    assert str(move.dst) in targets
    await page.click(f'[data-pile="{move.dst}"]')
    game.play(move)
    await version_after(page, view.version + 1)
    assert await position(page) == format_position(game)
    single = next(
        m
        for m in game.legal_moves()
        if not m.is_deal and [n.src for n in game.legal_moves()].count(m.src) == 1
    )
    await page.dblclick(f'[data-pile="{single.src}"] .card.movable')
    game.play(single)
    await version_after(page, view.version + 2)
    assert await position(page) == format_position(game)
    await page.click("nav [data-command=hint]")
    await page.locator(".hinted").first.wait_for()
    assert await page.locator("#status.note").inner_text() != ""
    animation = await page.locator(".hinted").first.evaluate(
        "e => getComputedStyle(e).animationName"
    )
    assert animation == "none"  # reduced motion: no pulse


@pytest.mark.parametrize("size", [None, {"width": 390, "height": 844}], ids=["desktop", "phone"])
async def test_a_move_that_would_stop_the_deal_is_marked_before_it_is_played(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
    size: dict[str, int] | None,
) -> None:
    deal = 4  # B6 to B3 leaves a space in row B that no Three can fill yet
    view = await service.new_game(LOCAL_USER_ID, None, deal)
    sized = {} if size is None else {"viewport": size}
    page = await opened(browser, await serve(), reduced_motion="reduce", **sized)
    game = Game.new(deal)
    move = parse_move(game, "B6 B3")
    warning = game.space_warning(move)
    assert warning is not None
    before = await page.inner_text("#status")
    await page.click('[data-pile="B6"] .card.movable')  # chosen: its targets marked
    marked = page.locator('[data-pile="B3"].target.warn')
    await marked.wait_for()
    assert await marked.get_attribute("data-warning") == warning.short
    quiet = [t for t in game.legal_moves() if t.src == move.src and not game.space_warning(t)]
    for target in quiet:
        assert await page.locator(f'[data-pile="{target.dst}"].target.warn').count() == 0
    status = page.locator("#status.note")
    assert warning.short in await status.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = "warned-target.png" if size is None else "warned-target-phone.png"
    await page.screenshot(path=str(ARTIFACTS / name), full_page=True)
    await page.wait_for_timeout(500)  # past a double tap, which would send the card home
    await page.click('[data-pile="B6"] .card.movable')  # put down: the warning goes
    await page.wait_for_function(
        "text => document.getElementById('status').textContent === text", arg=before
    )
    assert await page.locator(".warn").count() == 0
    await page.wait_for_timeout(500)
    await page.click('[data-pile="B6"] .card.movable')
    await page.click('[data-pile="B3"]')  # played all the same: the board's warning stays
    game.play(move)
    await version_after(page, view.version + 1)
    assert await position(page) == format_position(game)
    assert warning.message in await page.inner_text("#status")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("code", list(VARIANTS))
async def test_each_game_of_the_family_renders_and_takes_a_move(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
    code: str,
) -> None:
    variant = VARIANTS[code]
    view = await service.new_game(LOCAL_USER_ID, None, 7, variant=code)
    page = await opened(browser, await serve(), viewport={"width": 360, "height": 780})
    game = Game.new(7, variant)
    assert await position(page) == format_position(game)
    piles = 3 * variant.piles_per_row + variant.reserve_piles
    assert await page.locator(".row-pile, .reserve-pile").count() == piles
    cards = await page.locator("#board [data-card]").count()
    assert cards == sum(len(game.pile(p)) for p in _row_piles(game)) + _reserve_tops(game) + (
        1 if game.aces else 0
    )
    assert await page.evaluate("document.documentElement.scrollWidth") <= 360
    move = next((m for m in game.legal_moves() if not m.is_deal), None)
    if move is None:
        await page.click('[data-pile="STOCK"]')
        move = game.legal_moves()[-1]
    else:
        await drag(page, str(move.src), str(move.dst))
    game.play(move)
    await version_after(page, view.version + 1)
    assert await position(page) == format_position(game)


def _row_piles(game: Game) -> list[Pile]:
    return [Pile("row", row, col) for row in range(3) for col in range(game.width)]


def _reserve_tops(game: Game) -> int:
    return sum(1 for pile in game.reserve if pile)


async def test_a_drag_across_the_end_of_game_screen_selects_nothing(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    await service.new_game(LOCAL_USER_ID, None, DEAL)
    await service.move(LOCAL_USER_ID, str(next(m for m in Game.new(DEAL).legal_moves())))
    await service.resign(LOCAL_USER_ID)
    page = await opened(browser, await serve())
    await page.wait_for_selector("#screen:not([hidden])")
    box = await page.locator("#screen-text").bounding_box()
    assert box is not None and "is over" in await page.inner_text("#screen-text")
    # pressed left of the words and dragged across them, as a card dragged over it would be
    await page.mouse.move(box["x"] - 20, box["y"] + box["height"] / 2)
    await page.mouse.down()
    await page.mouse.move(box["x"] + box["width"] + 20, box["y"] + box["height"], steps=8)
    await page.mouse.up()
    assert await page.evaluate("getSelection().toString()") == ""
    await page.dblclick("#screen-text")  # nor a double click on a word
    assert await page.evaluate("getSelection().toString()") == ""
    assert page.errors == []  # type: ignore[attr-defined]


async def test_a_ten_shows_as_t_on_its_card_as_in_every_message(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    await service.new_game(LOCAL_USER_ID, None, 1)  # T♦ at B6 and T♣ at C4
    page = await opened(browser, await serve())
    corners = await page.eval_on_selector_all(
        "#board .card[data-card]",
        "cards => cards.map(c => [c.dataset.card, c.querySelector('.corner').textContent])",
    )
    tens = [text for code, text in corners if code.startswith("T")]
    assert tens and all(text[0] == "T" for text in tens), tens
    assert all(text[0] == code[0] for code, text in corners)
    assert not any("10" in text for _, text in corners)


async def test_a_deal_number_past_javascripts_numbers_starts_that_very_deal(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    view = await service.deal(LOCAL_USER_ID, view.version)  # a game in progress: asked first
    page = await opened(browser, await serve())
    asked: list[str] = []

    async def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        await dialog.accept()

    page.on("dialog", answer)
    for deal in (2**53 + 1, MAX_DEAL):  # 9007199254740993: as a double, ...992
        await page.fill("#deal-number", str(deal))
        await page.click("#start [data-command=new]")
        await page.wait_for_function(
            "t => document.getElementById('title').textContent === t",
            arg=f"Virginia Reel · deal {deal}",
        )
        assert (await service.show(LOCAL_USER_ID)).deal_number == deal
        assert await position(page) == format_position(Game.new(deal))
    assert asked == ["End the game in progress? It is recorded as abandoned."]
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("typed", ["abc", "12a", "0", str(MAX_DEAL + 1)])
async def test_a_deal_number_that_is_none_is_refused_before_anything_is_asked(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
    typed: str,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    view = await service.deal(LOCAL_USER_ID, view.version)  # a game in progress
    page = await opened(browser, await serve())
    asked: list[str] = []
    page.on("dialog", lambda dialog: asked.append(dialog.message))  # (then dismissed)
    await page.fill("#deal-number", typed)
    await page.click("#start [data-command=new]")
    await page.locator("#status.error").wait_for()
    said = await page.inner_text("#status")
    assert said == f"A deal number is a whole number from 1 to {MAX_DEAL}, like 42, not '{typed}'."
    assert asked == []
    shown = await service.show(LOCAL_USER_ID)
    assert (shown.deal_number, shown.version) == (DEAL, view.version)


async def test_the_move_box_takes_undo_n_and_redo_n_as_the_terminal_does(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    game = Game.new(DEAL)
    for _ in range(2):
        move = next(m for m in game.legal_moves() if not m.is_deal and m.src != m.dst)
        view = await service.move(LOCAL_USER_ID, str(move), view.version)
        game.play(move)
    page = await opened(browser, await serve())
    await page.fill("#move", "undo two")  # refused by the page: nothing is sent
    await page.press("#move", "Enter")
    await page.locator("#status.error").wait_for()
    assert "'undo N' for the last N moves" in await page.inner_text("#status")
    await page.fill("#move", "Undo 2")
    await page.press("#move", "Enter")
    await version_after(page, view.version + 1)
    assert await position(page) == format_position(Game.new(DEAL))
    assert await page.input_value("#move") == ""
    await page.fill("#move", "redo 2")
    await page.press("#move", "Enter")
    await version_after(page, view.version + 2)
    assert await position(page) == format_position(game)
    assert (await service.show(LOCAL_USER_ID)).version == view.version + 2
    assert page.errors == []  # type: ignore[attr-defined]


async def test_a_lost_games_hint_says_what_to_type_and_the_move_box_takes_it(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    view = await service.move(LOCAL_USER_ID, "C3 ACE", view.version)  # a space none can fill
    page = await opened(browser, await serve())
    await page.click("nav [data-command=hint]")
    await page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('undo back to there')",
        timeout=20_000,
    )
    said = await page.inner_text("#status")
    advice = re.search(r"Type '([^']+)' in the Move box", said)
    assert advice is not None and advice.group(1) == "undo to 0", said
    await page.fill("#move", advice.group(1))
    await page.press("#move", "Enter")
    await version_after(page, view.version + 1)
    assert await position(page) == format_position(Game.new(DEAL))
    assert "Back at the start" in await page.inner_text("#status")
