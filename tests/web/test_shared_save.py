"""``reel web`` beside ``reel play`` on one SQLite save (README, docs/web.md): two real
processes, one game. A move made at the prompt reaches the open web page (pushed) and
``GET /api/board``, and the page's next move is played; a move made on the web is what the
prompt's ``board`` shows, and the prompt's next move is played too (docs/storage.md, "Two
processes on one file")."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
from pages import Page, answer_of
from test_reel_web import ROOT, START_TIMEOUT, address_of, started
from webserver import DEAL

from bot.service import LOCAL_USER_ID, GameService, GameView, Settings
from bot.store import Store

PUSHED = 5.0  # seconds a test waits for a board pushed (it comes within about 0.25 s)
PLAIN = Settings(auto_aces=False, winnable=False)  # the deal asked for, no Aces moving


class Prompt:
    """``reel play`` in a process: lines typed at its prompt, its output read as it comes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.out = ""
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while chunk := await self.proc.stdout.read(4096):
            self.out += chunk.decode()

    async def said(self, text: str, since: int = 0) -> str:
        """The output from ``since`` on, once ``text`` is in it."""
        async with asyncio.timeout(START_TIMEOUT):
            while text not in self.out[since:]:
                if self._reader.done():
                    raise AssertionError(f"reel play ended before saying {text!r}: {self.out}")
                await asyncio.sleep(0.02)
        return self.out[since:]

    async def type(self, line: str, until: str) -> str:
        """Type ``line``; what the prompt answers, up to ``until`` (included)."""
        assert self.proc.stdin is not None
        mark = len(self.out)
        self.proc.stdin.write(f"{line}\n".encode())
        await self.proc.stdin.drain()
        return await self.said(until, mark)


@contextlib.asynccontextmanager
async def prompt(db: Path, cwd: Path) -> AsyncIterator[Prompt]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REEL_", "DISCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    pipe = asyncio.subprocess.PIPE
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "play", "--db", str(db),
        stdin=pipe, stdout=pipe, stderr=asyncio.subprocess.STDOUT, cwd=cwd, env=env,
    )  # fmt: skip
    playing = Prompt(proc)
    try:
        await playing.said("Type 'help' for the commands")
        yield playing
        assert proc.stdin is not None
        proc.stdin.write(b"quit\n")
        await proc.stdin.drain()
        async with asyncio.timeout(START_TIMEOUT):
            assert await proc.wait() == 0, playing.out
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def saved_game(db: Path) -> GameView:
    """The terminal's player's game, dealt and saved as ``reel play`` leaves it."""
    service = GameService(await Store.open(db), new_player=PLAIN)
    try:
        await service.update_settings(LOCAL_USER_ID, auto_aces=False, winnable=False)
        return await service.new_game(LOCAL_USER_ID, None, DEAL)
    finally:
        await service.close()


async def board_at(page: Page, version: int) -> dict[str, Any]:
    """The board of ``version`` sent to ``page`` (pushed: nothing asked), the boards it was
    sent before it skipped; it fails unless that comes within ``PUSHED`` seconds."""
    async with asyncio.timeout(PUSHED):
        while (board := await page.next("board"))["version"] != version:
            assert board["version"] < version, board
    assert board.get("id") is None  # pushed, not an answer
    return board


async def board_of_api(http: aiohttp.ClientSession, url: str) -> dict[str, Any]:
    async with http.get(url + "api/board") as got:
        assert got.status == 200
        frame = await answer_of(got)
    assert frame["type"] == "board"
    return dict(frame)


async def test_reel_web_and_reel_play_on_one_save_show_and_play_each_others_moves(
    tmp_path: Path,
) -> None:
    db = tmp_path / "reel.db"
    start = await saved_game(db)
    web = started(tmp_path, "--db", str(db))
    try:
        url = await address_of(web)
        async with aiohttp.ClientSession() as http, prompt(db, tmp_path) as play:
            page = await Page.open(http, url.replace("http://", "ws://") + "ws")
            assert (await page.next("board"))["version"] == start.version

            # at the prompt: the open page is pushed the new board, the API shows it
            await play.type("deal", until=f"Deal {DEAL} · move 1")
            pushed = await board_at(page, start.version + 1)
            assert pushed["board"]["moves"] == 1
            assert (await board_of_api(http, url))["version"] == start.version + 1

            # the page's next move, made on the board it was pushed, is played
            (dealt,) = await page.ask({"type": "deal", "version": start.version + 1})
            assert dealt["type"] == "board" and dealt["version"] == start.version + 2

            # at the prompt: 'board' shows the web's move, and the next move is played
            shown = await play.type("board", until="Time ")
            assert f"Deal {DEAL} · move 2" in shown and "stock 7 deals" in shown
            answer = await play.type("deal", until=f"Deal {DEAL} · move 3")
            assert "nothing was played" not in answer
            pushed = await board_at(page, start.version + 3)
            assert pushed["board"]["moves"] == 3
            await page.close()
        web.send_signal(signal.SIGINT)
        out, _ = await asyncio.to_thread(web.communicate, timeout=30)
        assert web.returncode == 0 and "Traceback" not in out, out
    finally:
        if web.poll() is None:
            web.kill()
            web.wait()
    store = await Store.open(db)
    try:
        row = await store.load_game(LOCAL_USER_ID)
    finally:
        await store.close()
    assert row is not None and row.moves == "deal;deal;deal"  # each played once, in turn
    assert row.version == start.version + 4  # and the clock saved when the prompt quit
