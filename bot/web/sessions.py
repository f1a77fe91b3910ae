"""Who a web request plays for: a session, or the local player, or nobody.

The server never takes a player's id from a page: a request plays for the user of its
session (the ``reel_session`` cookie, a random token the server handed out), and only
for that user's game. ``reel web`` has one local player and no sign-in: every request
plays for ``LOCAL_USER_ID``, the terminal's player. Beside the bot (``reel bot`` with
``REEL_WEB_PORT``) there is no local player unless the operator names one
(``REEL_WEB_LOCAL_USER``): without a session, every play request is refused. Sessions
are opened by the code that signs a player in (the next issue's Discord sign-in; the
tests), with ``Sessions.open``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Final

from ..service import LOCAL_USER_ID

COOKIE: Final = "reel_session"
NO_SESSION: Final = (
    "Nobody is signed in on this board, so nothing was played. Sign-in comes with "
    "Discord; until then the bot's operator can name a local player (REEL_WEB_LOCAL_USER)."
)

__all__ = ["COOKIE", "LOCAL_USER_ID", "NO_SESSION", "Sessions"]


class Sessions:
    """The open sessions (token → user id), and the local player, if any."""

    def __init__(self, local_user: int | None = None) -> None:
        self.local_user = local_user
        self._users: dict[str, int] = {}

    def open(self, user_id: int) -> str:
        """A new session for ``user_id``: its token, for the ``reel_session`` cookie."""
        token = secrets.token_urlsafe(32)
        self._users[token] = user_id
        return token

    def close(self, token: str) -> None:
        self._users.pop(token, None)

    def user(self, cookies: Mapping[str, str]) -> int | None:
        """The user a request with ``cookies`` plays for; None: nobody (refused)."""
        token = cookies.get(COOKIE)
        if token is not None and token in self._users:
            return self._users[token]
        return self.local_user
