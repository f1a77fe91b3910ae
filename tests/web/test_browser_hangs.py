"""The web board never hangs, in a real browser (Debian's Chromium through Playwright): a
request its socket's close leaves unanswered is given up (the dragged card goes back, the
status line says why), so is one answered by ``no-game``; a frame denied the browser's
storage still shows the board and says what it can't keep. (The Activity's ``ready()``
that Discord never answers: ``tests/discord_bot/test_activity_browser.py``.)"""

from __future__ import annotations

import asyncio
import json

import pytest
from browser import browser, drag, position, version_after  # noqa: F401
from playwright.async_api import Browser, Page, WebSocketRoute
from webserver import DEAL, Serve

from bot.service import LOCAL_USER_ID, GameService
from engine import Game, format_position

pytestmark = pytest.mark.browser
NO_GAME = "You have no game in progress: the test's server says so."


async def errors_of(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


async def drop(ws: WebSocketRoute) -> None:
    """Close the page's socket as a proxy dropping it would (1001)."""
    await ws.close(code=1001, reason="dropped by the test")


@pytest.mark.parametrize("answer", ["closed", "no-game"])
async def test_a_drop_whose_request_is_never_answered_gives_the_card_back(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
    answer: str,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    served = await serve()
    page = await browser.new_page(reduced_motion="reduce")
    errors = await errors_of(page)
    sockets: list[WebSocketRoute] = []
    held: list[dict[str, object]] = []
    closing: list[asyncio.Future[None]] = []

    def route(ws: WebSocketRoute) -> None:
        """The first socket goes to the server, but its move never does: the socket is
        closed (as a proxy drops it) or answered ``no-game``. Later sockets reach no
        server, so no board comes to put the status line back."""
        sockets.append(ws)
        if len(sockets) > 1:
            return
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") != "move":
                server.send(message)
                return
            held.append(frame)
            if answer == "no-game":
                reply = {"type": "no-game", "id": frame["id"], "version": None, "message": NO_GAME}
                ws.send(json.dumps(reply))
            else:
                closing.append(asyncio.ensure_future(drop(ws)))

        ws.on_message(to_server)

    await page.route_web_socket("**/ws", route)
    await page.goto(served.base + "/")
    await version_after(page, view.version)
    game = Game.new(DEAL)
    move = next(m for m in game.legal_moves() if not m.is_deal and m.src != m.dst)
    await drag(page, str(move.src), str(move.dst))
    await page.wait_for_function("() => !document.querySelector('.ghost')", timeout=5000)
    assert [frame["move"] for frame in held] == [f"{move.src} {move.dst}"]
    await asyncio.gather(*closing)
    status = await page.inner_text("#status")
    if answer == "closed":
        assert "connection dropped before the server answered" in status
        assert await page.get_attribute("#status", "class") == "status error"
        assert await page.locator(".lifted").count() == 0  # the card is back on its pile
        assert await position(page) == format_position(game)
    else:
        assert status == NO_GAME
    assert (await service.show(LOCAL_USER_ID)).version == view.version
    assert errors == []


async def test_a_frame_denied_storage_still_shows_the_board_and_says_so(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    served = await serve()
    page = await browser.new_page()
    errors = await errors_of(page)
    # as in a third-party frame whose browser blocks its storage: reading it throws
    await page.add_init_script(
        """Object.defineProperty(window, "localStorage", {
            configurable: true,
            get() { throw new DOMException("Access is denied.", "SecurityError"); },
        });"""
    )
    await page.goto(served.base + "/")
    await version_after(page, view.version)
    assert await position(page) == format_position(Game.new(DEAL))
    note = page.locator("#storage-note")
    assert await note.is_visible() and "storage is blocked" in await note.inner_text()
    await page.check("#set-four")  # works for the page's life, kept nowhere
    assert await page.evaluate("document.documentElement.classList.contains('four')")
    await page.click("nav [data-command=deal]")  # and the board plays
    await version_after(page, view.version + 1)
    assert errors == []


async def test_a_frame_the_wire_does_not_define_is_logged_and_ignored(
    browser: Browser,  # noqa: F811
    serve: Serve,
    service: GameService,
) -> None:
    """The page checks every frame against the wire's definitions (``web/src/wire.ts``,
    generated from ``bot/web/wire.py``) before it uses it: an unknown type, a frame
    without a required field or with a field of the wrong kind, a message that is no
    frame, is logged and ignored, and the board plays on."""
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    served = await serve()
    page = await browser.new_page()
    errors = await errors_of(page)
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text))
    sockets: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        sockets.append(ws)
        ws.connect_to_server()  # both ways, as they come; the test adds its own frames

    await page.route_web_socket("**/ws", route)
    await page.goto(served.base + "/")
    await version_after(page, view.version)
    bogus = [
        {"type": "surprise", "id": None},
        {"type": "board", "id": None, "version": view.version + 5},  # no board
        {"type": "error", "id": None, "code": "odd", "message": 7, "version": None},
        ["type", "board"],
    ]
    for frame in bogus:
        sockets[0].send(json.dumps(frame))
    sockets[0].send("not JSON")
    await page.click("nav [data-command=deal]")  # the board plays on
    await version_after(page, view.version + 1)
    for _ in range(50):  # (the console's messages come on their own)
        if len([w for w in warnings if w.startswith("reel: a ")]) > len(bogus):
            break
        await asyncio.sleep(0.1)
    ignored = [w for w in warnings if w.startswith("reel: a frame was ignored")]
    assert [w.split(")")[0] for w in ignored] == [
        'reel: a frame was ignored (no frame of type "surprise"',
        "reel: a frame was ignored (board frame without its board",
        "reel: a frame was ignored (error frame whose message is number, not string",
        "reel: a frame was ignored (not an object but array",
    ]
    assert any(w.startswith("reel: a message that is not JSON was ignored") for w in warnings)
    assert errors == []
    assert await page.get_attribute("#board", "data-version") == str(view.version + 1)
    assert "7" not in await page.inner_text("#status")
