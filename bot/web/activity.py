"""Virginia Reel as a Discord Activity: the sign-in, and the sockets of a room.

Inside Discord the page runs the Embedded App SDK's flow (``web/src/activity.ts``):
``ready()``, ``authorize()`` for a code, then ``POST /api/token`` here with the code
and the instance id. The server exchanges the code with Discord (with the client id and
secret of the settings: the secret never reaches the page), asks who the token belongs
to, checks with the bot's token that this user is in that instance, and opens a
session bound to the user and the instance (``sessions.py``: signed, expiring). It
answers with the access token, which the page hands to the SDK's ``authenticate()``,
and the session, which the page's socket carries.

``GET /api/activity`` tells the page what it may do: the client id (not a secret),
whether ``DiscordSDKMock`` may stand in for Discord outside it (``REEL_ACTIVITY_MOCK``:
a test or local mode only), and whether a local player plays with no sign-in
(``reel web``). A page opened outside Discord, in production, says where it runs.

A socket whose session came from an instance plays in the instance's room
(``rooms/``, ``RoomSocket``); the room is checked with Discord again when it opens.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any, Final

from aiohttp import web

from .discord_api import DiscordApi, DiscordError, instance_id_ok
from .limits import (
    ALL_SIGN_INS,
    EVERYONE,
    SIGN_INS,
    Rate,
    Sparse,
    Tally,
    client_address,
    too_many,
)
from .protocol import Request, encode, error_frame
from .rooms import OTHER_SHARD, Rooms, Seat
from .sessions import COOKIE, Session, Sessions
from .socket import OpenBoard, RoomRefused
from .wire import Frame, SignedIn, SignedUser, SignInRequest

log = logging.getLogger(__name__)

MAX_BODY: Final = 2048
MAX_CODE: Final = 200
NOT_SET_UP: Final = (
    "Sign-in with Discord is not set up on this server: its operator sets "
    "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (docs/activity.md)."
)


@dataclass(frozen=True, slots=True)
class Activity:
    """What the sign-in needs: the sessions, the rooms and Discord's API (None: no
    Discord application set up), and whether the SDK's mock may stand in for Discord."""

    sessions: Sessions
    rooms: Rooms
    discord: DiscordApi | None
    mock: bool = False
    sign_ins: Rate = field(default_factory=lambda: Rate(*SIGN_INS))  # per address
    all_sign_ins: Rate = field(default_factory=lambda: Rate(*ALL_SIGN_INS))  # in all
    refused: Tally = field(default_factory=Tally)  # sign-ins refused (a metric's figure)
    quiet: Sparse = field(default_factory=Sparse)  # the log of a flood of them, sparse


ACTIVITY: Final = web.AppKey("activity", Activity)


def install(app: web.Application, activity: Activity) -> None:
    """The Activity's routes on the web board's application."""
    app[ACTIVITY] = activity
    app.router.add_post("/api/token", token_handler)


def _refusal(code: str, message: str, status: int) -> web.Response:
    return web.json_response(error_frame(code, message), status=status, dumps=encode)


async def token_handler(request: web.Request) -> web.StreamResponse:
    """``POST /api/token``: a sign-in's code for a session (see the module docstring)."""
    activity = request.app[ACTIVITY]
    if activity.discord is None:
        return _refusal("not-set-up", NOT_SET_UP, 503)
    address = client_address(request)
    wait = activity.sign_ins.take(address)  # before Discord hears of it
    if wait <= 0:
        wait = activity.all_sign_ins.take(EVERYONE)
    if wait > 0:  # counted each, logged once a minute an address (a flood floods no log)
        activity.refused.count += 1
        if (held := activity.quiet.due(address)) is not None:
            log.warning("sign-ins refused from %s: too many (%d more since)", address, held)
        return too_many(wait, "sign-ins")
    try:
        code, instance_id = await _sign_in_request(request)
        token = await activity.discord.exchange(code)
        user = await activity.discord.me(token)
        place = await activity.rooms.instance(instance_id, fresh=True)
    except _BadRequest as exc:
        _refused(activity, address, str(exc))
        return _refusal("bad-request", str(exc), 400)
    except DiscordError as exc:
        _refused(activity, address, exc.message)
        return _refusal("discord", exc.message, exc.status)
    if user.user_id not in place.users:
        _refused(activity, address, f"user {user.user_id} is not in instance {instance_id}")
        return _refusal("not-in-room", "You are not in this Activity: open it from Discord.", 403)
    if not activity.rooms.owns(place.guild_id):
        return _refusal("other-shard", OTHER_SHARD, 409)
    activity.rooms.names[user.user_id] = user.name
    session = activity.sessions.open(user.user_id, instance_id, place.guild_id, place.channel_id)
    found = activity.sessions.read(session)
    assert found is not None
    answer = web.json_response(
        SignedIn(
            access_token=token,
            session=session,
            user=SignedUser(id=str(user.user_id), name=user.name),
            expires=int(found.expires),
        ),
        headers={"Cache-Control": "no-store"},
        dumps=encode,
    )
    # The page lives in Discord's iframe: a third-party context, where a browser keeps a
    # cookie only with SameSite=None and Secure, and Partitioned (CHIPS) for the Discord
    # site that frames it. (Python 3.11's cookies don't know Partitioned: written here.)
    lifetime = int(found.expires - activity.sessions.now())
    answer.headers.add(
        "Set-Cookie",
        f"{COOKIE}={session}; Max-Age={lifetime}; Path=/; HttpOnly; Secure; SameSite=None; "
        "Partitioned",
    )
    return answer


def _refused(activity: Activity, address: str, why: str) -> None:
    """Count and log a refused sign-in (never its code: a code is a credential)."""
    activity.refused.count += 1
    log.warning("sign-in refused from %s: %s", address, why)


async def still_here(activity: Activity, session: Session) -> str | None:
    """Why the JSON API refuses an Activity's session whose player left its instance (the
    session ends), or None: in it (the room's lookups, so not a call to Discord each)."""
    if session.instance_id is None:
        return None
    try:
        await activity.rooms.still_in(session)
    except DiscordError as exc:
        if exc.status == 403:
            activity.sessions.close(session.token)
        return exc.message
    return None


class _BadRequest(ValueError):
    pass


async def _sign_in_request(request: web.Request) -> tuple[str, str]:
    """The code and instance id of a sign-in request, checked."""
    if request.content_type != "application/json":
        raise _BadRequest("Send the sign-in as JSON (Content-Type: application/json).")
    body = await request.content.read(MAX_BODY + 1)
    if len(body) > MAX_BODY:
        raise _BadRequest(f"A sign-in request has {MAX_BODY} bytes at most.")
    try:
        data: Any = json.loads(body)
    except (ValueError, RecursionError):  # (2,040 "[" are nested deeper than json goes)
        raise _BadRequest('That is not JSON: send {"code": ..., "instance_id": ...}.') from None
    if not isinstance(data, dict):
        raise _BadRequest('A sign-in is a JSON object: {"code": ..., "instance_id": ...}.')
    code, instance_id = data.get("code"), data.get("instance_id")
    if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE:
        raise _BadRequest("A sign-in needs the code Discord's authorize gave (text).")
    if not isinstance(instance_id, str) or not instance_id:
        raise _BadRequest("A sign-in needs the Activity's instance id (the SDK's instanceId).")
    if not instance_id_ok(instance_id):
        raise _BadRequest("That is not an Activity instance id (the SDK's instanceId).")
    extra = sorted(set(data) - set(SignInRequest.__annotations__))
    if extra:
        raise _BadRequest(f"A sign-in has no field {extra[0][:40]!r}: only code and instance_id.")
    return code, instance_id


class RoomSocket:
    """One socket in an Activity's room (``socket.Extra``)."""

    def __init__(self, rooms: Rooms, session: Session, sessions: Sessions) -> None:
        assert session.instance_id is not None
        self._rooms = rooms
        self._sessions = sessions
        self._session = session
        self._instance = session.instance_id
        self._seat: Seat | None = None

    async def opened(self, board: OpenBoard) -> list[Frame]:
        try:
            self._seat = await self._rooms.enter(self._session, board)
        except DiscordError as exc:
            if exc.status == 403:  # the player left the instance: their session ends
                self._sessions.close(self._session.token)
            raise RoomRefused(error_frame("not-in-room", exc.message)) from None
        return await self._rooms.welcome(self._instance, self._seat)

    async def answer(self, request: Request) -> list[Frame] | None:
        if self._seat is None:
            return None
        return await self._rooms.answer(self._instance, self._seat, request)

    def closed(self) -> None:
        if self._seat is not None:
            self._rooms.leave(self._instance, self._seat)
