"""The three calls the Activity's server makes to Discord's REST API, with aiohttp.

- ``exchange``: a sign-in's code for the player's access token (``POST oauth2/token``,
  a form with the application's client id and secret: the secret never leaves the server);
- ``me``: who that token belongs to (``GET users/@me`` with ``Bearer``);
- ``instance``: an Activity instance as Discord knows it (``GET
  applications/{app}/activity-instances/{instance}`` with the bot's token): its server,
  its channel and the users in it, so a page can't claim a room it is not in.

Each failure is a ``DiscordError`` whose message a player can read; none of them says
the secret or a token. ``base`` is ``REEL_DISCORD_API`` or Discord's own.
"""

from __future__ import annotations

import logging
import math
import re
import time
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

import aiohttp

log = logging.getLogger(__name__)

DISCORD_API: Final = "https://discord.com/api/v10"
TIMEOUT: Final = aiohttp.ClientTimeout(total=10.0)
INSTANCE_ID: Final = re.compile(r"[A-Za-z0-9_:.-]{1,100}")
"""An Activity instance id, matched whole (``fullmatch``: no trailing newline) and never
all dots (a ``.`` or ``..`` path segment would climb out of Discord's URL)."""


def instance_id_ok(text: str) -> bool:
    """Whether ``text`` is an Activity instance id the server asks Discord about."""
    return INSTANCE_ID.fullmatch(text) is not None and text.strip(".") != ""


RETRY_AFTER_MAX: Final = 600.0  # seconds: a Retry-After beyond this is read as this


def _retry_after(header: str | None) -> float:
    """The seconds a 429's ``Retry-After`` asks for (1 s when it says nothing usable)."""
    try:
        seconds = float(header) if header is not None else 1.0
    except ValueError:
        return 1.0
    return min(max(seconds, 0.0), RETRY_AFTER_MAX) if math.isfinite(seconds) else 1.0


def _rate_limited(what: str, seconds: float) -> str:
    return f"Discord asks this server to wait before {what}: try again in {math.ceil(seconds)} s."


class DiscordError(Exception):
    """A call to Discord failed: ``message`` says what, for the player; ``status`` the
    HTTP status to answer the page with."""

    def __init__(self, message: str, status: int = 502) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True, slots=True)
class Instance:
    """An Activity instance: where it runs, and who is in it."""

    instance_id: str
    guild_id: int | None  # None: a DM or a group DM
    channel_id: int
    users: frozenset[int]


@dataclass(frozen=True, slots=True)
class DiscordUser:
    user_id: int
    name: str  # the display name (global name), else the user name


class DiscordApi:
    """The application's side of Discord's API (see the module docstring)."""

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        bot_token: str | None,
        base: str | None = None,
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._base = (base or DISCORD_API).rstrip("/")
        self._http: aiohttp.ClientSession | None = None
        self._wait_until = 0.0  # monotonic time before which Discord asked us not to call

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def _call(self, method: str, path: str, what: str, **kwargs: Any) -> Any:
        """The JSON answer of one call; ``DiscordError`` naming ``what`` on a failure. A
        429's ``Retry-After`` is honoured: no call goes out until it has passed."""
        waiting = self._wait_until - time.monotonic()
        if waiting > 0:
            raise DiscordError(_rate_limited(what, waiting), 503)
        try:
            async with self._session().request(method, self._base + path, **kwargs) as answer:
                if answer.status == 429:
                    waiting = _retry_after(answer.headers.get("Retry-After"))
                    self._wait_until = max(self._wait_until, time.monotonic() + waiting)
                    log.warning("Discord rate-limited %s %s: waiting %.1f s", method, path, waiting)
                    raise DiscordError(_rate_limited(what, waiting), 503)
                if answer.status in (401, 403):
                    raise DiscordError(f"Discord refused {what} (HTTP {answer.status}).", 401)
                if answer.status == 404:
                    raise DiscordError(f"Discord does not know {what}.", 404)
                if answer.status == 400:
                    raise DiscordError(f"Discord refused {what}: it is not valid.", 400)
                if answer.status >= 300:
                    raise DiscordError(f"Discord failed {what} (HTTP {answer.status}): try again.")
                return await answer.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            log.warning("Discord call failed: %s %s: %s", method, path, exc)
            raise DiscordError(f"Discord could not be reached for {what}: try again.") from None

    async def exchange(self, code: str) -> str:
        """The access token a sign-in's ``code`` stands for."""
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        found = await self._call("POST", "/oauth2/token", "the sign-in code", data=form)
        token = found.get("access_token") if isinstance(found, dict) else None
        if not isinstance(token, str) or not token:
            raise DiscordError("Discord's answer to the sign-in had no access token.")
        return token

    async def me(self, access_token: str) -> DiscordUser:
        """The user ``access_token`` belongs to."""
        headers = {"Authorization": f"Bearer {access_token}"}
        found = await self._call("GET", "/users/@me", "the signed-in user", headers=headers)
        try:
            name = found.get("global_name") or found.get("username") or "a player"
            return DiscordUser(int(found["id"]), str(name)[:40])
        except (KeyError, TypeError, ValueError, AttributeError):
            raise DiscordError("Discord's answer about the signed-in user had no id.") from None

    async def instance(self, instance_id: str) -> Instance:
        """The Activity instance ``instance_id``: its place and its users."""
        if not instance_id_ok(instance_id):
            raise DiscordError("That is not an Activity instance id.", 400)
        if not self._bot_token:
            raise DiscordError("The bot's token is not set, so rooms can't be checked.", 503)
        quoted = quote(instance_id, safe="")
        path = f"/applications/{quote(self.client_id, safe='')}/activity-instances/{quoted}"
        headers = {"Authorization": f"Bot {self._bot_token}"}
        found = await self._call("GET", path, "this Activity instance", headers=headers)
        try:
            location = found["location"]
            guild = location.get("guild_id")
            return Instance(
                instance_id=instance_id,
                guild_id=None if guild is None else int(guild),
                channel_id=int(location["channel_id"]),
                users=frozenset(int(user) for user in found.get("users") or ()),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise DiscordError(
                "Discord's answer about the Activity instance was not whole."
            ) from None
