"""Running the bot: a missing or rejected token is one clear line and a non-zero exit."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_discord import FakeDiscord

from bot.config import Config
from bot.discord_bot.app import EXIT_BAD_TOKEN, _serve


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
