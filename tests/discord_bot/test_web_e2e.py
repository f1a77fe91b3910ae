"""The web board beside the bot (``reel bot`` with ``REEL_WEB_PORT``), on the fake Discord:
one service, so a move in chat shows on an open web board within a second, and a web move
shows on the chat board at its next refresh; the bot's cooldown is the web's too; and the
real ``reel bot`` process starts the board, warns of its local player, and stops with it.
"""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path

import aiohttp
import pytest
from fake_discord import FakeDiscord
from harness import DEAL_NUMBER, Launch, new_game, public_board
from playwright.async_api import Browser
from test_process_e2e import BotProcess, version

from bot.discord_bot.app import EXIT_OK
from bot.service.cooldown import Cooldown
from bot.web.local import beside_bot
from tests.web.browser import browser, version_after  # noqa: F401
from tests.web.pages import Page


def ws(url: str) -> str:
    return url.replace("http://", "ws://") + "ws"


async def test_a_chat_move_shows_on_the_open_web_board_and_a_web_move_in_chat(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    cooldown = Cooldown()
    running = await launch(cooldown=cooldown)
    board = await new_game(fake, alice)
    async with (
        beside_bot("127.0.0.1", 0, alice.id)(running.service, cooldown) as url,
        aiohttp.ClientSession() as http,
    ):
        page = await Page.open(http, ws(url))
        shown = await page.next("board")
        assert shown["version"] == version(board) and shown["board"]["deal"] == str(DEAL_NUMBER)
        since = time.monotonic()
        dealt = await public_board(await fake.slash(alice, "reel", sub="deal"))
        pushed = await page.next("board", timeout=1.0)
        assert time.monotonic() - since < 1.0
        assert pushed["version"] == version(dealt)
        (played,) = await page.ask({"type": "undo", "version": pushed["version"]})
        assert played["type"] == "board"
        refreshed = await public_board(await fake.slash(alice, "reel", sub="show"))
        assert version(refreshed) == played["version"]
        await page.close()


async def test_the_web_board_takes_from_the_bots_cooldown(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    cooldown = Cooldown()
    running = await launch(cooldown=cooldown)
    await new_game(fake, alice)  # one action of alice's
    async with (
        beside_bot("127.0.0.1", 0, alice.id)(running.service, cooldown) as url,
        aiohttp.ClientSession() as http,
    ):
        page = await Page.open(http, ws(url))
        await page.next("board")
        for _ in range(cooldown.burst):
            await page.send({"type": "board"})
        errors = []
        while len(page.frames) < 2 + cooldown.burst:
            frame = await page.receive()
            if frame["type"] == "error":
                errors.append(frame)
        assert [e["code"] for e in errors] == ["too-fast"]  # the chat's action counted


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_reel_bot_with_reel_web_port_serves_the_board_in_its_own_process(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    port = free_port()
    web = {"REEL_WEB_PORT": str(port), "REEL_WEB_LOCAL_USER": str(alice.id)}
    process = BotProcess(fake, tmp_path, web)
    try:
        await process.connected()
        await process.logged(f"web board at http://127.0.0.1:{port}/")
        assert "REEL_WEB_LOCAL_USER is set" in process.output
        board = await new_game(fake, alice)
        async with aiohttp.ClientSession() as http:
            page = await Page.open(http, f"ws://127.0.0.1:{port}/ws")
            assert (await page.next("board"))["version"] == version(board)
            await public_board(await fake.slash(alice, "reel", sub="deal"))
            assert (await page.next("board", timeout=1.0))["version"] == version(board) + 1
            await page.close()
        since = process.signal(signal.SIGTERM)
        assert await process.exited(since, 10.0) == EXIT_OK
        assert "web board stopped" in process.output
    finally:
        if process.proc.poll() is None:
            process.kill()


@pytest.mark.browser
async def test_a_chat_button_shows_on_the_web_board_in_the_browser(
    fake_discord: FakeDiscord,
    launch: Launch,
    browser: Browser,  # noqa: F811
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    running = await launch()
    board = await new_game(fake, alice)
    async with beside_bot("127.0.0.1", 0, alice.id)(running.service, None) as url:
        page = await browser.new_page()
        await page.goto(url)
        await version_after(page, version(board))
        clicked = await fake.click(alice, board, board.custom_ids[0])  # Deal (9 left)
        dealt = await clicked.wait_message()
        since = time.monotonic()
        await version_after(page, version(dealt), timeout=1000)
        assert time.monotonic() - since < 1.0
        view = await running.service.show(alice.id)
        assert await page.get_attribute("#board", "data-position") == view.position
        await page.close()
