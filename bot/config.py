"""Settings from the environment or a ``.env`` file (every one listed in ``.env.example``)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

from dotenv import dotenv_values
from platformdirs import user_data_path

# One save per user, wherever the game is started: the platform's data folder
# (~/.local/share/virginia-reel on Linux, as XDG_DATA_HOME says; ~/Library/Application
# Support on macOS; %LOCALAPPDATA% on Windows).
DEFAULT_DB_PATH = user_data_path("virginia-reel", appauthor=False) / "reel.db"


class ConfigError(ValueError):
    """A setting with a value we cannot use; the message names the setting."""


def _split_url(text: str) -> SplitResult | None:
    """``text`` split as a URL, None if it is not one (a port that is not a number)."""
    try:
        parts = urlsplit(text)
        _ = parts.port  # a port that is not a number raises ValueError
    except ValueError:
        return None
    return parts


def _endpoint(values: Mapping[str, str], name: str, schemes: tuple[str, ...]) -> str | None:
    """The URL in setting ``name`` (None when empty: Discord's own), if its scheme is one
    of ``schemes`` and it names a host; without a trailing slash."""
    text = values.get(name, "").strip()
    if not text:
        return None
    parts = _split_url(text)
    if parts is None or parts.scheme.lower() not in schemes or not parts.hostname:
        kinds = " or ".join(f"{scheme}://" for scheme in schemes)
        raise ConfigError(f"{name} must be a {kinds} URL with a host, not {text!r}")
    return text.rstrip("/")


def _shard_count(values: Mapping[str, str]) -> int | None:
    """``REEL_SHARD_COUNT``: a positive whole number, or None when empty."""
    text = values.get("REEL_SHARD_COUNT", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(
            f"REEL_SHARD_COUNT must be a whole number of shards, 1 or more, not {text!r}"
        )
    return int(text)


def _shard_ids(values: Mapping[str, str], count: int | None) -> tuple[int, ...] | None:
    """``REEL_SHARD_IDS``: shard numbers and ranges (``0,1``, ``0-3``, ``0-1,4``), each
    below ``count``, in order without repeats; None when empty (every shard)."""
    text = values.get("REEL_SHARD_IDS", "").strip()
    if not text:
        return None
    if count is None:
        raise ConfigError(
            "REEL_SHARD_IDS needs REEL_SHARD_COUNT: set the total number of shards of the "
            "whole bot, the same in every process"
        )
    ids: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        low, high = low.strip(), high.strip() if dash else low.strip()
        if not (low.isdigit() and high.isdigit()) or int(low) > int(high):
            raise ConfigError(
                f"REEL_SHARD_IDS must list shard numbers or ranges like 0,1 or 0-3, not {text!r}"
            )
        ids.extend(range(int(low), int(high) + 1))
    if max(ids) >= count:
        raise ConfigError(
            f"REEL_SHARD_IDS: shard {max(ids)} does not exist with REEL_SHARD_COUNT={count} "
            f"(shards are numbered 0 to {count - 1})"
        )
    if len(set(ids)) != len(ids):
        raise ConfigError(f"REEL_SHARD_IDS names a shard twice: {text!r}")
    return tuple(sorted(ids))


def _database_url(values: Mapping[str, str]) -> str | None:
    """``REEL_DATABASE_URL``: a ``postgresql://`` (or ``postgres://``) URL, None when empty
    (the SQLite file of ``REEL_DB``)."""
    text = values.get("REEL_DATABASE_URL", "").strip()
    if not text:
        return None
    parts = _split_url(text)
    if parts is None or parts.scheme.lower() not in ("postgresql", "postgres"):
        shown = text if parts is None or parts.password is None else "(a URL with a password)"
        raise ConfigError(
            "REEL_DATABASE_URL must be a PostgreSQL URL, postgresql://user:password@host:port/"
            f"database, not {shown!r} (leave it empty to use the SQLite file of REEL_DB)"
        )
    return text


def _port(values: Mapping[str, str], name: str) -> int | None:
    """``name`` (``REEL_WEB_PORT``, ``REEL_METRICS_PORT``): a port (1-65535), None when empty."""
    text = values.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConfigError(f"{name} must be a port number from 1 to 65535, not {text!r}")
    return int(text)


def _web_local_user(values: Mapping[str, str]) -> int | None:
    """``REEL_WEB_LOCAL_USER``: the Discord user id the web board plays for without a
    sign-in; None when empty (nobody: every play request refused)."""
    text = values.get("REEL_WEB_LOCAL_USER", "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise ConfigError(f"REEL_WEB_LOCAL_USER must be a Discord user id (digits), not {text!r}")
    return int(text)


def _client_id(values: Mapping[str, str]) -> str | None:
    """``DISCORD_CLIENT_ID``: the application's id (digits), None when empty."""
    text = values.get("DISCORD_CLIENT_ID", "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()):
        raise ConfigError(
            f"DISCORD_CLIENT_ID must be the application's id (digits, General Information > "
            f"Application ID in the developer portal), not {text!r}"
        )
    return text


def _session_secret(values: Mapping[str, str]) -> str | None:
    """``REEL_SESSION_SECRET``: at least 32 characters, None when empty (generated)."""
    text = values.get("REEL_SESSION_SECRET", "").strip()
    if text and len(text) < 32:
        raise ConfigError(
            f"REEL_SESSION_SECRET must have 32 characters at least (it has {len(text)}): "
            "make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"
        )
    return text or None


HINT_DEADLINE_RANGE = (0.5, 600.0)
"""``REEL_HINT_DEADLINE``'s bounds, in seconds: Discord takes a deferred answer for 15
minutes, and a player waits much less."""


def _hint_deadline(values: Mapping[str, str]) -> float | None:
    """``REEL_HINT_DEADLINE``: seconds a hint may take (a number within
    ``HINT_DEADLINE_RANGE``); None when empty (the service's default)."""
    text = values.get("REEL_HINT_DEADLINE", "").strip()
    if not text:
        return None
    low, high = HINT_DEADLINE_RANGE
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not low <= seconds <= high:  # (not a number, NaN included, fails too)
        raise ConfigError(
            f"REEL_HINT_DEADLINE must be a number of seconds from {low:g} to {high:g}, not {text!r}"
        )
    return seconds


def _flag(values: Mapping[str, str], name: str) -> bool:
    """A yes-or-no setting: 1, true or yes; 0, false, no or empty."""
    text = values.get(name, "").strip().lower()
    if text in ("", "0", "false", "no"):
        return False
    if text in ("1", "true", "yes"):
        return True
    raise ConfigError(f"{name} must be 1 or 0 (yes or no), not {text!r}")


def shard_filter(count: int, shards: list[int]) -> Callable[[int | None], bool]:
    """Whether a server (None: a DM, which is shard 0's) is on one of ``shards`` of
    ``count``, by Discord's rule: ``(guild_id >> 22) % count``."""
    mine = frozenset(shards)
    return lambda guild_id: (0 if guild_id is None else (guild_id >> 22) % count) in mine


@dataclass(frozen=True, slots=True)
class Config:
    discord_token: str | None
    db_path: Path
    dev_guild_id: int | None
    log_level: str
    discord_api: str | None = None
    """REST base (``REEL_DISCORD_API``), e.g. a REST proxy's ``http://host:port/api/v10``;
    None: Discord's own."""
    discord_gateway: str | None = None
    """Gateway websocket URL (``REEL_DISCORD_GATEWAY``); None: Discord's own."""
    shard_count: int | None = None
    """Shards of the whole bot (``REEL_SHARD_COUNT``); None: as many as Discord advises."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``REEL_SHARD_IDS``); None: every one."""
    database_url: str | None = None
    """A PostgreSQL database (``REEL_DATABASE_URL``) instead of the SQLite file ``db_path``."""
    web_port: int | None = None
    """The web board's port beside the bot (``REEL_WEB_PORT``); None: no web board."""
    web_host: str = "127.0.0.1"
    """The address it listens on (``REEL_WEB_HOST``)."""
    web_local_user: int | None = None
    """The user the web board plays for with no sign-in (``REEL_WEB_LOCAL_USER``)."""
    discord_client_id: str | None = None
    """The application's id, the OAuth2 client id (``DISCORD_CLIENT_ID``): the Activity's
    sign-in; None: no Activity."""
    discord_client_secret: str | None = None
    """Its OAuth2 secret (``DISCORD_CLIENT_SECRET``), to exchange a sign-in's code."""
    session_secret: str | None = None
    """The key web sessions are signed with (``REEL_SESSION_SECRET``); None: generated
    once and kept beside the database (``bot/web/local.py``)."""
    activity_mock: bool = False
    """``REEL_ACTIVITY_MOCK``: the page may use the SDK's mock outside Discord (a test or
    local mode: never in production)."""
    web_public_url: str | None = None
    """The HTTPS address the players reach the board at, through a proxy
    (``REEL_WEB_PUBLIC_URL``): its host is accepted as the Host of a request."""
    metrics_port: int | None = None
    """``/metrics`` and ``/healthz`` on a port of their own (``REEL_METRICS_PORT``); None:
    on the web board's port if it runs, else not served."""
    metrics_host: str = "127.0.0.1"
    """The address they listen on (``REEL_METRICS_HOST``)."""
    hint_deadline: float | None = None
    """Seconds a hint may take before it is the rule of thumb's move
    (``REEL_HINT_DEADLINE``); None: the service's ``HINT_DEADLINE``."""
    db_from: str = "the default"
    """Where the database setting came from, for the start-up log: "REEL_DB in the
    environment", "REEL_DB in .env", "REEL_DATABASE_URL in ...", or "the default"."""

    @property
    def database(self) -> str:
        """Where the games are: the PostgreSQL URL if set, else the SQLite file's path."""
        return self.database_url or str(self.db_path)

    def __repr__(self) -> str:  # never print the token
        token = "set" if self.discord_token else "unset"
        return (
            f"Config(discord_token=<{token}>, db_path={str(self.db_path)!r}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level!r}, "
            f"discord_api={self.discord_api!r}, discord_gateway={self.discord_gateway!r}, "
            f"shard_count={self.shard_count}, shard_ids={self.shard_ids}, "
            f"database_url=<{'set' if self.database_url else 'unset'}>, "
            f"web_port={self.web_port}, web_host={self.web_host!r}, "
            f"web_local_user={self.web_local_user}, "
            f"discord_client_id={self.discord_client_id!r}, "
            f"discord_client_secret=<{'set' if self.discord_client_secret else 'unset'}>, "
            f"session_secret=<{'set' if self.session_secret else 'unset'}>, "
            f"activity_mock={self.activity_mock}, web_public_url={self.web_public_url!r}"
            f", metrics_port={self.metrics_port}, "
            f"metrics_host={self.metrics_host!r}, hint_deadline={self.hint_deadline})"
        )

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, dotenv_path: str | Path = ".env"
    ) -> Config:
        """Read settings: the process environment wins over ``.env``, which wins over
        defaults; a setting set empty (``REEL_DB=``) counts as not set, so it never wins
        over one set elsewhere (docs/operations.md)."""
        values: dict[str, str] = {}
        origin: dict[str, str] = {}
        if Path(dotenv_path).is_file():
            for key, value in dotenv_values(dotenv_path).items():
                if value is not None and value.strip():
                    values[key], origin[key] = value, ".env"
        for key, value in (os.environ if env is None else env).items():
            if value.strip():
                values[key], origin[key] = value, "the environment"
        token = values.get("DISCORD_TOKEN", "").strip() or None
        db_path = Path(values.get("REEL_DB", "").strip() or DEFAULT_DB_PATH)
        guild_text = values.get("REEL_DEV_GUILD", "").strip()
        dev_guild_id: int | None = None
        if guild_text:
            if not guild_text.isdigit():
                raise ConfigError(
                    f"REEL_DEV_GUILD must be a server id (digits only), not {guild_text!r}"
                )
            dev_guild_id = int(guild_text)
        log_level = values.get("REEL_LOG_LEVEL", "").strip().upper() or "INFO"
        if not isinstance(logging.getLevelName(log_level), int):
            raise ConfigError(
                f"REEL_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {log_level!r}"
            )
        shard_count = _shard_count(values)
        return cls(
            token,
            db_path,
            dev_guild_id,
            log_level,
            discord_api=_endpoint(values, "REEL_DISCORD_API", ("http", "https")),
            discord_gateway=_endpoint(values, "REEL_DISCORD_GATEWAY", ("ws", "wss")),
            shard_count=shard_count,
            shard_ids=_shard_ids(values, shard_count),
            database_url=_database_url(values),
            web_port=_port(values, "REEL_WEB_PORT"),
            web_host=values.get("REEL_WEB_HOST", "").strip() or "127.0.0.1",
            web_local_user=_web_local_user(values),
            discord_client_id=_client_id(values),
            discord_client_secret=values.get("DISCORD_CLIENT_SECRET", "").strip() or None,
            session_secret=_session_secret(values),
            activity_mock=_flag(values, "REEL_ACTIVITY_MOCK"),
            web_public_url=_endpoint(values, "REEL_WEB_PUBLIC_URL", ("https", "http")),
            metrics_port=_port(values, "REEL_METRICS_PORT"),
            metrics_host=values.get("REEL_METRICS_HOST", "").strip() or "127.0.0.1",
            hint_deadline=_hint_deadline(values),
            db_from=_database_origin(values, origin),
        )

    def with_db_file(self, path: Path, origin: str) -> Config:
        """This config on the SQLite file ``path`` (``--db PATH``), said to come from
        ``origin``; a PostgreSQL URL setting is then not used."""
        return replace(self, db_path=path, database_url=None, db_from=origin)


def _database_origin(values: Mapping[str, str], origin: Mapping[str, str]) -> str:
    """Where the database setting came from: the URL's or the file's setting, or none."""
    for name in ("REEL_DATABASE_URL", "REEL_DB"):
        if name in values:
            return f"{name} in {origin[name]}"
    return "the default"
