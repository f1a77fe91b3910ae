"""The set-up docs/operations.md documents, run as systemd would run it: the database the
bot opens is the one the page says, whatever the order of systemd's settings."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from bot import config as config_module
from bot.config import DEFAULT_DB_PATH, Config

REPO = Path(__file__).resolve().parents[2]
OPERATIONS = REPO / "docs" / "operations.md"
EXAMPLE = REPO / ".env.example"
SERVICE = "# /etc/systemd/system/reel.service"


def documented_unit() -> str:
    """The bot's unit, as docs/operations.md gives it (the ini block that names it)."""
    blocks: list[str] = re.findall(r"```ini\n(.*?)```", OPERATIONS.read_text("utf-8"), re.S)
    [unit] = [block for block in blocks if block.startswith(SERVICE)]
    return unit


def service_settings(unit: str) -> list[tuple[str, str]]:
    """The ``[Service]`` section's settings, in order, as (name, value)."""
    section = unit.split("[Service]", 1)[1].split("\n[", 1)[0]
    pairs = []
    for line in section.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            pairs.append((name.strip(), value.strip()))
    return pairs


def systemd_environment_file(text: str) -> Iterator[tuple[str, str]]:
    """A file read as systemd's ``EnvironmentFile=`` reads it: ``NAME=VALUE`` lines, ``#``
    and ``;`` comments, one pair of quotes around a value removed; an empty value is
    still a value."""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")) or "=" not in line:
            continue
        name, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        yield name.strip(), value


def systemd_environment(unit: str, base: Mapping[str, str]) -> dict[str, str]:
    """The process environment systemd gives the unit's program: ``base``, then every
    ``Environment=``, then every ``EnvironmentFile=``, whose values override the
    ``Environment=`` ones (systemd.exec(5))."""
    env = dict(base)
    settings = service_settings(unit)
    for name, value in settings:
        if name == "Environment":
            key, _, val = value.strip('"').partition("=")
            env[key] = val
    for name, value in settings:
        if name == "EnvironmentFile":
            path = Path(value.lstrip("-"))
            env.update(systemd_environment_file(path.read_text(encoding="utf-8")))
    return env


def on_server(text: str, root: Path) -> str:
    """The page's paths moved under ``root``, a server of the test's own."""
    for folder in ("/opt/reel", "/var/lib/reel", "/var/backups/reel"):
        text = text.replace(folder, f"{root}{folder}")
    return text


def documented_dotenv(root: Path) -> str:
    """``.env.example`` with the edits the page asks for: the token set, and ``REEL_DB``
    uncommented as the page says."""
    text = EXAMPLE.read_text(encoding="utf-8")
    text = text.replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=a-token\n")
    assert "# REEL_DB=/var/lib/reel/reel.db\n" in text  # the line the page asks to uncomment
    text = text.replace("# REEL_DB=/var/lib/reel/reel.db\n", "REEL_DB=/var/lib/reel/reel.db\n")
    return on_server(text, root)


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections (bound, not listening): the bot
    opens its database, then fails to reach Discord and exits."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def start_bot(unit: str, env: Mapping[str, str], port: int) -> subprocess.CompletedProcess[str]:
    """The unit's ``ExecStart`` (``reel bot``, from this source tree) in its
    ``WorkingDirectory`` with ``env``, pointed at a Discord that refuses to connect."""
    settings = dict(service_settings(unit))
    assert settings["ExecStart"].endswith("/.venv/bin/reel bot")
    env = {**env, "PYTHONPATH": str(REPO)}
    env["REEL_DISCORD_API"] = f"http://127.0.0.1:{port}/api/v10"
    env["REEL_DISCORD_GATEWAY"] = f"ws://127.0.0.1:{port}/"
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "bot"],
        cwd=settings["WorkingDirectory"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def server(tmp_path: Path) -> tuple[Path, str, dict[str, str]]:
    """The page's install under ``tmp_path``: its unit, and the base environment of a
    system service (no XDG settings, the ``reel`` user's home)."""
    root = tmp_path / "server"
    home = root / "opt" / "reel"
    home.mkdir(parents=True)
    (root / "var" / "lib" / "reel").mkdir(parents=True)
    (home / ".env").write_text(documented_dotenv(root), encoding="utf-8")
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    return root, on_server(documented_unit(), root), base


def test_the_documented_unit_opens_the_documented_database(
    tmp_path: Path, closed_port: int
) -> None:
    root, unit, base = server(tmp_path)
    result = start_bot(unit, systemd_environment(unit, base), closed_port)
    database = root / "var" / "lib" / "reel" / "reel.db"
    assert result.returncode == 1, result.stderr  # the database opened, Discord refused
    assert f"database: SQLite file {database} (from REEL_DB in .env)" in result.stderr
    data = root / "opt" / "reel" / ".local" / "share" / "virginia-reel"
    assert f"data folder (the default database's place): {data}" in result.stderr
    assert database.is_file() and not data.exists()


@pytest.mark.parametrize("file_first", [True, False])
def test_a_unit_setting_is_not_hidden_by_the_copied_example_in_either_order(
    tmp_path: Path, closed_port: int, file_first: bool
) -> None:
    # An operator who also reads .env with EnvironmentFile= and sets REEL_DB in the unit:
    # the .env.example copy sets no REEL_DB (commented out), so the unit's value holds,
    # whichever of the two lines comes first.
    root, unit, base = server(tmp_path)
    dotenv = root / "opt" / "reel" / ".env"
    dotenv.write_text(
        on_server(EXAMPLE.read_text(encoding="utf-8"), root).replace(
            "DISCORD_TOKEN=\n", "DISCORD_TOKEN=a-token\n"
        ),
        encoding="utf-8",
    )
    chosen = root / "var" / "lib" / "reel" / "chosen.db"
    lines = [f"EnvironmentFile={dotenv}", f"Environment=REEL_DB={chosen}"]
    extra = "\n".join(lines if file_first else lines[::-1])
    unit = unit.replace("[Service]\n", f"[Service]\n{extra}\n")
    result = start_bot(unit, systemd_environment(unit, base), closed_port)
    assert f"database: SQLite file {chosen} (from REEL_DB in the environment)" in result.stderr


def test_an_empty_setting_never_wins_over_a_set_one(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("REEL_DB=/srv/games.db\nREEL_LOG_LEVEL=\n")
    config = Config.from_env({"REEL_DB": "", "REEL_LOG_LEVEL": "DEBUG"}, dotenv_path=dotenv)
    assert (config.db_path, config.db_from) == (Path("/srv/games.db"), "REEL_DB in .env")
    assert config.log_level == "DEBUG"
    dotenv.write_text("REEL_DB=\n")
    config = Config.from_env({"REEL_DB": "/srv/env.db"}, dotenv_path=dotenv)
    assert (config.db_path, config.db_from) == (Path("/srv/env.db"), "REEL_DB in the environment")
    config = Config.from_env({"REEL_DB": " "}, dotenv_path=dotenv)
    assert (config.db_path, config.db_from) == (DEFAULT_DB_PATH, "the default")


def test_the_example_lists_every_setting_with_a_comment_and_sets_only_the_token() -> None:
    source = Path(config_module.__file__).read_text(encoding="utf-8")
    read = set(re.findall(r'"((?:REEL|DISCORD)_[A-Z_]+)"', source))
    assert {"DISCORD_TOKEN", "REEL_DB", "REEL_DATABASE_URL"} <= read
    example = EXAMPLE.read_text(encoding="utf-8")
    blocks = example.split("\n\n")
    for name in read:
        [block] = [b for b in blocks if re.search(rf"^#? ?{name}=", b, re.M)]
        assert block.lstrip().startswith("#"), f"{name} has no comment"
    active = [line for line in example.splitlines() if re.match(r"[A-Z_]+=", line)]
    assert active == ["DISCORD_TOKEN="]  # a copy sets nothing the operator didn't choose
