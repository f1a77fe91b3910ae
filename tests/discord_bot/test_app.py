"""Running the bot: a missing or rejected token is one clear line and a non-zero exit;
the settings for another Discord endpoint; the gate a stop closes (the stop itself is
tested on the real process in test_process_e2e.py)."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest
import yarl
from fake_discord import FakeDiscord

import bot.discord_bot.gate as gate_module
from bot.config import Config
from bot.discord_bot.app import EXIT_BAD_TOKEN, _serve, use_endpoints
from bot.discord_bot.gate import Gate


def run(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["REEL_DB"] = str(tmp_path / "reel.db")
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path
    )


@pytest.mark.parametrize("args", [["-m", "bot.cli", "bot"], ["-m", "bot"]])
def test_a_missing_token_is_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    result = run(args, tmp_path)
    assert result.returncode == EXIT_BAD_TOKEN
    assert result.stderr.strip().count("\n") == 0
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Traceback" not in result.stderr


async def test_a_rejected_token_is_one_line_and_never_logged(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    token = "bad-token"
    assert token in fake_discord.rejected_tokens
    config = Config(
        discord_token=token, db_path=tmp_path / "reel.db", dev_guild_id=None, log_level="DEBUG"
    )
    with caplog.at_level(logging.DEBUG):
        code = await _serve(config, token, sync_global=False)
    err = capsys.readouterr().err
    assert code == EXIT_BAD_TOKEN
    assert err.strip().count("\n") == 0 and "token" in err.lower()
    assert "Traceback" not in err
    assert token not in caplog.text


def test_the_discord_endpoints_are_applied_only_when_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    unset = Config.from_env({}, dotenv_path=tmp_path / "x")
    before = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    use_endpoints(unset)
    assert before == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    proxied = Config.from_env(
        {
            "REEL_DISCORD_API": "http://127.0.0.1:8080/api/v10",
            "REEL_DISCORD_GATEWAY": "ws://127.0.0.1:8081/",
        },
        dotenv_path=tmp_path / "x",
    )
    use_endpoints(proxied)
    assert discord.http.Route.BASE == "http://127.0.0.1:8080/api/v10"
    assert yarl.URL("ws://127.0.0.1:8081") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


async def test_the_gate_waits_for_the_work_it_let_in_and_no_longer_than_told() -> None:
    gate = Gate()
    release = asyncio.Event()

    async def interaction(wait: bool) -> bool:
        allowed = gate.enter()
        if wait:
            await release.wait()
        return allowed

    slow = asyncio.create_task(interaction(True))
    await asyncio.sleep(0)
    assert len(gate) == 1
    gate.close()
    assert await asyncio.create_task(interaction(False)) is False  # refused once closed
    assert await gate.drain(0.05) == 1  # still running after the wait
    release.set()
    assert await gate.drain(5.0) == 0
    assert await slow is True and len(gate) == 0


async def test_the_gate_does_not_wait_out_a_stream_of_refusals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(gate_module, "REFUSAL_WAIT", 0.05)
    gate = Gate()
    gate.close()
    stuck = asyncio.Event()

    async def refused() -> bool:
        allowed = gate.enter()
        await stuck.wait()  # a refusal whose answer never goes out
        return allowed

    refusal = asyncio.create_task(refused())
    await asyncio.sleep(0)
    assert len(gate) == 1
    # No work was let in: the drain waits REFUSAL_WAIT for the refusal, not its 30 s.
    assert await asyncio.wait_for(gate.drain(30.0), 10.0) == 1
    stuck.set()
    assert await refusal is False
