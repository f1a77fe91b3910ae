"""Web sessions (``bot/web/sessions.py``): signed by the server, bound to a user and an
Activity instance, expiring; read from a cookie, a bearer header or the socket's
subprotocol; a forged, changed or expired one is nobody. And the key kept beside the
database when no setting gives one (``bot/web/local.py``)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from bot.web.local import kept_secret
from bot.web.sessions import COOKIE, LIFETIME, Sessions

KEY = b"k" * 32


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_session_names_its_user_and_instance_until_it_expires() -> None:
    clock = Clock()
    sessions = Sessions(secret=KEY, clock=clock)
    token = sessions.open(42, "i-1", 7, 8)
    found = sessions.read(token)
    assert found is not None and (found.user_id, found.instance_id) == (42, "i-1")
    assert (found.guild_id, found.channel_id, found.expires) == (7, 8, clock.now + LIFETIME)
    assert Sessions(secret=KEY, clock=clock).read(token) is not None  # any process with it
    clock.now += LIFETIME + 1
    assert sessions.read(token) is None


def test_a_forged_or_changed_session_is_nobody() -> None:
    sessions = Sessions(secret=KEY)
    token = sessions.open(42)
    payload, signature = token.split(".")
    other = Sessions(secret=b"o" * 32).open(43)
    assert Sessions(secret=KEY).read(other) is None  # another key
    assert sessions.read(f"{other.split('.')[0]}.{signature}") is None  # another body
    assert sessions.read(payload) is None and sessions.read("") is None
    assert sessions.read("x" * 2000) is None
    sessions.close(token)
    assert sessions.read(token) is None


def test_a_request_carries_its_session_in_a_cookie_a_header_or_the_subprotocol() -> None:
    sessions = Sessions(secret=KEY)
    token = sessions.open(42)
    assert sessions.user({COOKIE: token}) == 42
    assert sessions.user({}, {"Authorization": f"Bearer {token}"}) == 42
    assert sessions.user({}, {"Sec-WebSocket-Protocol": f"reel, session.{token}"}) == 42
    assert sessions.user({}, {}) is None
    assert Sessions(5, secret=KEY).user({COOKIE: "forged"}) == 5  # the local player


def test_a_short_key_is_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        Sessions(secret=b"short")


def test_the_kept_key_is_made_once_and_only_its_owner_reads_it(tmp_path: Path) -> None:
    key = kept_secret(tmp_path / "data")
    path = tmp_path / "data" / "session.key"
    assert len(key) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert kept_secret(tmp_path / "data") == key
