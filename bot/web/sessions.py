"""Who a web request plays for: a session, or the local player, or nobody.

The server never takes a player's id from a page: a request plays for the user of its
session, and only for that user's game. A session is a token the server signed: the
user's id, the Activity instance they signed in from (if any, with its server and
channel), and when it expires, with an HMAC-SHA256 of all that under the server's secret
(``REEL_SESSION_SECRET``, or one generated and kept beside the database: ``local.py``).
Nothing is kept in memory, so every process that has the secret reads the same
sessions; a page can't forge or stretch one. Discord's sign-in (``activity.py``) opens
them; the page sends the token back as the ``reel_session`` cookie, an
``Authorization: Bearer`` header, or, on the WebSocket, the ``session.<token>``
subprotocol (a cookie in Discord's iframe is a third-party cookie, which a browser may
refuse).

``reel web`` has one local player and no sign-in: every request plays for
``LOCAL_USER_ID``, the terminal's player. Beside the bot (``reel bot`` with
``REEL_WEB_PORT``) there is no local player unless the operator names one
(``REEL_WEB_LOCAL_USER``): without a session, every play request is refused.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from ..service import LOCAL_USER_ID
from .wire import TOKEN_PROTOCOL

COOKIE: Final = "reel_session"
LIFETIME: Final = 12 * 3600.0
"""Seconds a session lasts: a long evening of play; the page signs in again after."""
MIN_SECRET: Final = 32
"""Bytes of secret at least (``REEL_SESSION_SECRET`` has at least 32 characters)."""
NO_SESSION: Final = (
    "Nobody is signed in on this board, so nothing was played. Open it in Discord (the "
    "Activity signs you in), or play on your own computer with reel web (the bot's "
    "operator may also name a local player: REEL_WEB_LOCAL_USER)."
)

__all__ = ["COOKIE", "LOCAL_USER_ID", "NO_SESSION", "Session", "Sessions"]


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in player: who, where they signed in from, and until when."""

    user_id: int
    expires: float  # Unix time
    instance_id: str | None = None  # the Activity instance (its room), if any
    guild_id: int | None = None
    channel_id: int | None = None
    token: str | None = field(default=None, compare=False)  # what the page sent (close it)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    """Signed sessions under one secret, and the local player, if any."""

    def __init__(
        self,
        local_user: int | None = None,
        *,
        secret: bytes | None = None,
        lifetime: float = LIFETIME,
        clock: Callable[[], float] = time.time,
        tokens: bool = True,
    ) -> None:
        """``secret``: the signing key (None: a random one, good for this process only);
        ``tokens``: whether a request's session token counts at all (``reel web``, with no
        sign-in, plays for its local player whatever cookie another page on 127.0.0.1 set)."""
        if secret is not None and len(secret) < MIN_SECRET:
            raise ValueError(f"a session secret has {MIN_SECRET} bytes at least")
        self.local_user = local_user
        self._secret = secret if secret is not None else secrets.token_bytes(MIN_SECRET)
        self._lifetime = lifetime
        self._clock = clock
        self.tokens = tokens
        self._closed: set[str] = set()

    def open(
        self,
        user_id: int,
        instance_id: str | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> str:
        """A new session for ``user_id`` (signed in from ``instance_id``): its token."""
        body = {"u": user_id, "e": int(self._clock() + self._lifetime), "n": secrets.token_hex(4)}
        if instance_id is not None:
            body.update({"i": instance_id, "g": guild_id, "c": channel_id})
        payload = _b64(json.dumps(body, separators=(",", ":")).encode())
        return f"{payload}.{self._sign(payload)}"

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._secret, payload.encode(), hashlib.sha256).digest())

    def now(self) -> float:
        """The sessions' clock (Unix time)."""
        return self._clock()

    def close(self, token: str | None) -> None:
        """End a session before its time (this process's memory: a sign-out, or its
        player left the Activity's instance)."""
        if token is not None:
            self._closed.add(token)

    def read(self, token: str | None) -> Session | None:
        """The session of ``token``, if the server signed it and it has not expired."""
        if not token or len(token) > 1024 or not token.isascii() or token in self._closed:
            return None  # (a token is ASCII: compare_digest takes no other str)
        payload, dot, signature = token.partition(".")
        if not dot or not hmac.compare_digest(signature, self._sign(payload)):
            return None
        try:
            body = json.loads(_unb64(payload))
            session = Session(
                user_id=int(body["u"]),
                expires=float(body["e"]),
                instance_id=body.get("i"),
                guild_id=None if body.get("g") is None else int(body["g"]),
                channel_id=None if body.get("c") is None else int(body["c"]),
                token=token,
            )
        except (ValueError, KeyError, TypeError, binascii.Error):
            return None
        return session if session.expires > self._clock() else None

    def find(self, cookies: Mapping[str, str], headers: Mapping[str, str]) -> Session | None:
        """The session a request carries (its cookie, a bearer header or the socket's
        subprotocol), or the local player's, or None."""
        for token in _tokens(cookies, headers) if self.tokens else ():
            found = self.read(token)
            if found is not None:
                return found
        if self.local_user is not None:
            return Session(self.local_user, float("inf"))
        return None

    def user(
        self, cookies: Mapping[str, str], headers: Mapping[str, str] | None = None
    ) -> int | None:
        """The user a request plays for; None: nobody (refused)."""
        found = self.find(cookies, headers or {})
        return None if found is None else found.user_id


def _tokens(cookies: Mapping[str, str], headers: Mapping[str, str]) -> list[str]:
    tokens = []
    auth = headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        tokens.append(auth[7:].strip())
    for name in headers.get("Sec-WebSocket-Protocol", "").split(","):
        if name.strip().startswith(TOKEN_PROTOCOL):
            tokens.append(name.strip()[len(TOKEN_PROTOCOL) :])
    if COOKIE in cookies:
        tokens.append(cookies[COOKIE])
    return tokens
