"""``reel web`` as a player runs it: a process that prints its address, serves the board
for the local player (the terminal's), and stops cleanly on Ctrl-C with the game saved."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
from pages import Page
from webserver import DEAL

from bot.cli import build_parser
from bot.service import LOCAL_USER_ID, GameService
from bot.store import Store

ROOT = Path(__file__).resolve().parent.parent.parent
START_TIMEOUT = 60.0  # a loaded machine imports slowly


def started(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REEL_", "DISCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "web", "--port", "0", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,  # no .env there
        env=env,
    )


async def address_of(proc: subprocess.Popen[str]) -> str:
    """The address the process printed (its first line)."""
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), START_TIMEOUT)
    assert "http://127.0.0.1:" in line, f"unexpected first line: {line!r}"
    return line.split("at ", 1)[1].split()[0]


def test_reel_web_takes_host_port_and_open() -> None:
    args = build_parser().parse_args(["web", "--port", "9000", "--host", "0.0.0.0", "--open"])
    assert (args.command, args.port, args.host, args.open) == ("web", 9000, "0.0.0.0", True)
    defaults = build_parser().parse_args(["web"])
    assert (defaults.host, defaults.port, defaults.open) == ("127.0.0.1", 8080, False)


async def test_reel_web_serves_the_local_players_game_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    db = tmp_path / "reel.db"
    store = await Store.open(db)
    service = GameService(store)
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)  # as 'reel play' left it
    await service.close()
    proc = started(tmp_path, "--db", str(db))
    try:
        url = await address_of(proc)
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as got:
                assert got.status == 200 and "Content-Security-Policy" in got.headers
            page = await Page.open(http, url.replace("http://", "ws://") + "ws")
            board = await page.next("board")
            assert board["version"] == view.version and board["board"]["deal"] == str(DEAL)
            (played,) = await page.ask({"type": "deal", "version": view.version})
            assert played["version"] == view.version + 1
            await page.close()
        since = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, _ = await asyncio.to_thread(proc.communicate, timeout=30)
        assert proc.returncode == 0 and time.monotonic() - since < 10
        assert "Stopped: your game is saved." in out and "Traceback" not in out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    store = await Store.open(db)
    row = await store.load_game(LOCAL_USER_ID)
    await store.close()
    assert row is not None and row.version == view.version + 1


async def test_reel_web_says_so_when_its_port_is_taken(tmp_path: Path) -> None:
    holder = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = holder.sockets[0].getsockname()[1]
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("REEL_", "DISCORD_"))}
        env["PYTHONPATH"] = str(ROOT)
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot.cli", "web", "--port", str(port), "--db", "x.db"],
            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=START_TIMEOUT,
        )  # fmt: skip
    finally:
        holder.close()
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stdout + done.stderr
