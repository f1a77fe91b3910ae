"""The Discord Activity in a real browser (Debian's Chromium through Playwright), with the
Embedded App SDK mocked (``DiscordSDKMock``, as the server's test mode allows) and the
fake Discord answering the token exchange, ``users/@me`` and the instance lookups: a
player launched from a chat button signs in and plays a move; two players in one
instance race to a finish and both pages, the database and the channel's standings
message agree; a third user not in the instance is refused; a socket dropped mid-race
reconnects with nothing lost; a page opened outside Discord in production says where
the board runs; a sign-in Discord or the server never answers is given up, saying so."""

from __future__ import annotations

import time
from typing import Any

import pytest
from activity import Served, message_where, race_line, serving
from fake_discord import LAUNCH_ACTIVITY, FakeDiscord, FakeUser
from harness import DEAL_NUMBER, Launch, Running, description, new_game
from playwright.async_api import Browser, Page

from engine import Move
from tests.web.browser import ARTIFACTS, browser, drag, version_after  # noqa: F401

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1100, "height": 860}
PHONE = {"width": 390, "height": 844}


async def opened(
    browser: Browser,  # noqa: F811
    served: Served,
    fake: FakeDiscord,
    user: FakeUser,
    instance: str,
    **options: Any,
) -> Page:
    """``user``'s page of the Activity in ``instance``, signed in through the mocked SDK
    with a code the fake Discord gave them."""
    page = await browser.new_page(**options)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    place = fake.activity_instances[instance]
    query = (
        f"instance_id={instance}&mock_code={fake.authorization_code(user)}"
        f"&guild_id={place['guild_id']}&channel_id={place['channel_id']}"
    )
    await page.goto(f"{served.url}?{query}")
    return page


async def in_room(page: Page) -> None:
    await page.wait_for_selector("#room:not([hidden])")


async def typed(page: Page, move: str, version: int) -> int:
    """Play ``move`` by the move box (Enter) on the board of ``version``; the board's
    version once the move is answered (the box emptied), past ``version``: a racer's last
    move may be further on by then (the race's end writes every racer's row)."""
    await page.fill("#move", move)
    await page.press("#move", "Enter")
    await page.wait_for_function("() => document.getElementById('move').value === ''")
    shown = await page.get_attribute("#board", "data-version")
    assert shown is not None and int(shown) > version
    return int(shown)


def playable(move: Move) -> str:
    """A move as the move box takes it."""
    return "deal" if move.is_deal else str(move)


async def version(page: Page) -> int:
    return int(await page.get_attribute("#board", "data-version") or -1)


async def standings(page: Page) -> list[tuple[str, str, str, str, str]]:
    rows = page.locator("#standings li")
    return [
        tuple(  # type: ignore[misc]
            [
                await rows.nth(i).get_attribute(f"data-{name}") or ""
                for name in ("racer", "place", "score", "moves", "status")
            ]
        )
        for i in range(await rows.count())
    ]


async def test_launched_from_a_chat_button_a_player_signs_in_and_plays_a_move(
    fake_discord: FakeDiscord,
    launch: Launch,
    browser: Browser,  # noqa: F811
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    running = await launch()
    chat = await new_game(fake, alice)  # deal 16, on a chat board
    clicked = await fake.click(alice, chat, label="Play on the board")
    await clicked.wait_response()
    assert clicked.callback_type == LAUNCH_ACTIVITY and clicked.activity_instance_id
    async with serving(fake, running) as served:
        page = await opened(browser, served, fake, alice, clicked.activity_instance_id)
        await in_room(page)
        shown = await running.service.show(alice.id)
        await version_after(page, shown.version)
        assert await page.get_attribute("#board", "data-position") == shown.position
        assert await page.inner_text("#room h2") == "Your own game"
        legal = next(iter((await running.service.show(alice.id)).moves))
        source, target = legal.text.split(" ")
        await drag(page, source, target)
        await version_after(page, shown.version + 1)
        after = await running.service.show(alice.id)
        assert after.version == shown.version + 1 and after.move_count >= 1
        assert await page.get_attribute("#board", "data-position") == after.position
        assert after.deal_number == DEAL_NUMBER
        assert page.errors == []  # type: ignore[attr-defined]


async def test_two_browsers_race_to_a_finish_and_everyone_agrees_on_the_standings(
    fake_discord: FakeDiscord,
    launch: Launch,
    browser: Browser,  # noqa: F811
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    running = await launch()
    instance = fake.add_activity_instance([alice, bob])
    async with serving(fake, running) as served:
        first = await opened(browser, served, fake, alice, instance, viewport=DESKTOP)
        await in_room(first)
        second = await opened(browser, served, fake, bob, instance, viewport=PHONE)
        await in_room(second)
        for page in (first, second):
            await page.wait_for_selector("#room[data-race-state=lobby] #standings li >> nth=1")
        assert await second.locator("#race-start").count() == 0  # the host's (alice's)
        await first.click("#race-start")
        for page in (first, second):
            await page.wait_for_selector("#board[data-view^='race:']")
        race_id = int(await first.get_attribute("#room", "data-race") or 0)
        line = race_line()
        halfway = len(line) // 2
        versions = {alice.id: await version(first), bob.id: await version(second)}
        for page, user in ((first, alice), (second, bob)):
            for move, position in line[:halfway]:
                versions[user.id] = await typed(page, playable(move), versions[user.id])
                assert await page.get_attribute("#board", "data-position") == position
        await first.wait_for_function(  # the standings of both, live
            "n => [...document.querySelectorAll('#standings li')]"
            ".every(li => li.dataset.moves === n)",
            arg=await first.get_attribute(f"#standings li[data-racer='{alice.id}']", "data-moves"),
        )
        for page, name in ((first, "desktop"), (second, "phone")):
            await page.locator("#move").blur()
            await page.evaluate("window.scrollTo(0, 0)")
            await page.screenshot(path=str(ARTIFACTS / f"activity-race-{name}.png"))
        await second.click(f"#standings li[data-racer='{alice.id}'] button")  # watch alice
        await second.wait_for_selector(f"#board[data-view='race:{race_id}:{alice.id}']")
        assert await second.get_attribute("#board", "data-read-only") == "true"
        assert await second.locator("#board .movable").count() == 0
        for move, position in line[halfway:]:  # alice plays on: bob sees it live
            versions[alice.id] = await typed(first, playable(move), versions[alice.id])
            assert await first.get_attribute("#board", "data-position") == position
        await second.wait_for_function(
            "p => document.getElementById('board').dataset.position === p", arg=line[-1][1]
        )
        await second.click("#standings li.you button")  # back to bob's own race board
        await second.wait_for_selector(f"#board[data-view='race:{race_id}:{bob.id}']")
        for move, position in line[halfway:]:
            versions[bob.id] = await typed(second, playable(move), versions[bob.id])
            assert await second.get_attribute("#board", "data-position") == position
        for page in (first, second):
            await page.wait_for_selector("#room[data-race-state=over]")
        view = await running.service.races.standings(race_id)
        stored = [(str(r.user_id), str(r.place), str(r.score), str(r.moves), r.status)
                  for r in view.racers]  # fmt: skip
        assert [r[0] for r in stored] == [str(alice.id), str(bob.id)]  # alice finished first
        assert await standings(first) == stored == await standings(second)
        message = await message_where(fake, race_id, "final standings")
        shown = [line for line in description(message).splitlines() if "<@" in line]
        for racer, row in zip(view.racers, shown, strict=True):
            assert f"<@{racer.user_id}>" in row and f"{racer.score}/104 home" in row
            assert f"{racer.moves} moves" in row and row.startswith(f"` {racer.place}.`")
        assert first.errors == [] and second.errors == []  # type: ignore[attr-defined]


async def test_a_user_not_in_the_instance_is_refused(
    fake_discord: FakeDiscord,
    launch: Launch,
    browser: Browser,  # noqa: F811
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    carol = fake.add_user("carol")
    running = await launch()
    instance = fake.add_activity_instance([alice, bob])
    async with serving(fake, running) as served:
        page = await opened(browser, served, fake, carol, instance)
        note = page.locator("#outside")
        await note.wait_for()
        assert "You are not in this Activity" in await note.inner_text()
        assert await page.locator("#room").is_hidden()
        assert await page.locator("#board").is_hidden()
        assert running.service.races is not None
        assert not any(cookie["name"] == "reel_session" for cookie in await page.context.cookies())


async def test_a_socket_dropped_mid_race_reconnects_with_nothing_lost(
    fake_discord: FakeDiscord,
    launch: Launch,
    browser: Browser,  # noqa: F811
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    running = await launch()
    instance = fake.add_activity_instance([alice, bob])
    async with serving(fake, running) as served:
        first = await opened(browser, served, fake, alice, instance)
        await in_room(first)
        second = await opened(browser, served, fake, bob, instance)
        await first.wait_for_selector("#room[data-race-state=lobby] #standings li >> nth=1")
        await first.click("#race-start")
        await first.wait_for_selector("#board[data-view^='race:']")
        race_id = int(await first.get_attribute("#room", "data-race") or 0)
        line = race_line()
        current = await version(first)
        for move, _ in line[:10]:
            current = await typed(first, playable(move), current)
        assert await served.drop(alice) == 1
        await first.wait_for_selector("body.offline", timeout=2000)
        move, position = line[10]  # played while the socket is down: sent once it is back
        await first.fill("#move", playable(move))
        await first.press("#move", "Enter")
        since = time.monotonic()
        await first.wait_for_selector("body:not(.offline)", timeout=5000)
        await version_after(first, current + 1)
        assert time.monotonic() - since < 5
        stored = await running.service.races.board(race_id, alice.id)
        assert stored.game.version == current + 1 and stored.game.position == position
        assert await first.get_attribute("#board", "data-position") == position
        assert await first.get_attribute("#board", "data-view") == f"race:{race_id}:{alice.id}"
        row = f"#standings li[data-racer='{alice.id}']"
        for page in (first, second):  # the standings in both pages have the move
            await page.wait_for_function(
                "([sel, moves]) => document.querySelector(sel)?.dataset.moves === moves",
                arg=[row, str(stored.game.move_count)],
            )
            assert await page.get_attribute(row, "data-score") == str(stored.game.score)


async def test_outside_discord_in_production_the_page_says_where_it_runs(
    fake_discord: FakeDiscord,
    launch: Launch,
    browser: Browser,  # noqa: F811
) -> None:
    running: Running = await launch()
    async with serving(fake_discord, running, mock=False) as served:
        page = await browser.new_page()
        await page.goto(served.url)
        note = page.locator("#outside")
        await note.wait_for()
        text = await note.inner_text()
        assert "runs inside Discord" in text and "reel web" in text


async def test_when_discord_never_answers_ready_the_page_says_so(
    fake_discord: FakeDiscord,
    launch: Launch,
    browser: Browser,  # noqa: F811
) -> None:
    """Opened as in Discord's frame (frame_id, instance_id, platform) but with no Discord
    around it: the SDK's handshake goes unanswered, so its ready() never resolves. The
    page's clock is the test's, moved on past the wait: no real time is waited."""
    running: Running = await launch()
    async with serving(fake_discord, running, mock=False) as served:
        page = await browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.clock.install()
        await page.goto(f"{served.url}?frame_id=f-1&instance_id=i-1&platform=desktop")
        await page.locator("#status", has_text="Waiting for Discord").wait_for()
        await page.clock.fast_forward("01:00")
        note = page.locator("#outside")
        await note.wait_for()
        text = await note.inner_text()
        assert "Discord did not answer the Activity's start" in text and "ready()" in text
        assert "open it again" in text and await page.inner_text("#status") == text
        assert await page.locator("#board").is_hidden()
        assert errors == []


async def test_when_the_sign_in_goes_unanswered_the_page_says_so(
    fake_discord: FakeDiscord,
    launch: Launch,
    browser: Browser,  # noqa: F811
) -> None:
    """The SDK is ready, but the code's exchange (``POST /api/token``) is never answered
    (held by the test): the page gives up after its wait and says what to do, instead of
    "Signing in…" for ever. The page's clock is the test's: no real time is waited."""
    alice = fake_discord.user("alice")
    running: Running = await launch()
    instance = fake_discord.add_activity_instance([alice])
    async with serving(fake_discord, running) as served:
        page = await browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        held: list[object] = []
        await page.route("**/api/token", lambda route: held.append(route))  # never answered
        await page.clock.install()
        place = fake_discord.activity_instances[instance]
        query = (
            f"instance_id={instance}&mock_code={fake_discord.authorization_code(alice)}"
            f"&guild_id={place['guild_id']}&channel_id={place['channel_id']}"
        )
        await page.goto(f"{served.url}?{query}")
        await page.locator("#status", has_text="Signing in").wait_for()
        await page.wait_for_function("() => true")  # the request is out
        await page.clock.fast_forward("01:00")
        note = page.locator("#outside")
        await note.wait_for()
        text = await note.inner_text()
        assert "did not answer the sign-in" in text and "open it again" in text
        assert held and errors == []
