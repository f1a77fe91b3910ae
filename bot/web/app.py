"""The web board's server: an aiohttp application over one ``GameService``.

Routes:

- ``GET /``: the page (``static/index.html``, never cached: it names the current build);
- ``GET /assets/NAME``: the page's script and style, content-hashed names, cached for a
  year (a new build has new names);
- ``GET /ws``: the board's WebSocket (``socket.py``);
- ``GET /api/board``: the current board as JSON; ``POST /api/play``: one request as the
  socket takes it (``protocol.py``), answered with its frames;
- ``GET /api/activity``: what the page may do; ``POST /api/token``: Discord's sign-in
  (``activity.py``), where the Activity is served.

Every answer carries a Content-Security-Policy that lets the page load and connect only
to this origin (no inline script, no other host), and ``nosniff``. A WebSocket or a POST
from a page of another origin is refused (403), and so is a request whose Host is not
this server's own name when it listens on the loopback address: a web page elsewhere
can't play your game through your browser.
"""

from __future__ import annotations

import logging
import mimetypes
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from aiohttp import web

from ..service import GameService
from ..service.cooldown import Cooldown
from .activity import Activity, RoomSocket, install
from .play import current
from .protocol import encode, error_frame
from .sessions import NO_SESSION, Sessions
from .socket import SOCKET_CAP, LiveBoards, first_frame, handle, serve_socket

log = logging.getLogger(__name__)

STATIC: Final = Path(__file__).resolve().parent / "static"
CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
CSP_FRAMED: Final = CSP.replace(
    "frame-ancestors 'none'",
    "frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com",
)
"""The same, where the Activity is served: Discord's client frames the page."""
LONG_CACHE: Final = "public, max-age=31536000, immutable"
LOOPBACK_NAMES: Final = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
MISSING_BUILD: Final = (
    "<!doctype html><title>Virginia Reel</title><p>The board's files are missing from this "
    "install: build them with <code>npm ci &amp;&amp; npm run build</code> in <code>web/</code>."
)


@dataclass(frozen=True, slots=True)
class WebParts:
    """What the handlers share: the service, who plays, the cooldown, the live boards."""

    service: GameService
    sessions: Sessions
    cooldown: Cooldown | None
    live: LiveBoards
    loopback: bool  # listening on the loopback address only: the Host must name it
    activity: Activity | None = None  # Discord's sign-in and the rooms
    hosts: frozenset[str] = frozenset()  # other names the Host may give (the public one)
    origins: frozenset[str] = frozenset()  # other origins whose pages may play (Discord's)


PARTS: Final = web.AppKey("parts", WebParts)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def create_app(
    service: GameService,
    sessions: Sessions,
    cooldown: Cooldown | None,
    *,
    loopback: bool = True,
    static: Path = STATIC,
    activity: Activity | None = None,
    public_url: str | None = None,
) -> web.Application:
    """The web board's application over ``service`` (see the module docstring).
    ``activity``: Discord's sign-in and the Activity's rooms; ``public_url``: the address
    the players reach it at (``REEL_WEB_PUBLIC_URL``), behind a proxy."""
    app = web.Application(middlewares=[guard], client_max_size=SOCKET_CAP)
    hosts = frozenset() if public_url is None else frozenset({urlsplit(public_url).netloc})
    origins: frozenset[str] = frozenset()
    if activity is not None and activity.discord is not None:  # Discord's proxy, in its iframe
        origins = frozenset({f"{activity.discord.client_id}.discordsays.com"})
    live = LiveBoards(service)
    parts = WebParts(service, sessions, cooldown, live, loopback, activity, hosts, origins)
    app[PARTS] = parts
    if activity is not None:
        install(app, activity)
    assets = load_assets(static)
    app.router.add_get("/", index_handler(assets))
    app.router.add_get("/assets/{name}", asset_handler(assets))
    app.router.add_get("/ws", socket_handler)
    app.router.add_get("/api/board", board_handler)
    app.router.add_post("/api/play", play_handler)
    app.router.add_get("/api/activity", config_handler)

    async def closing(app: web.Application) -> None:
        await parts.live.close()
        if activity is not None:
            await activity.rooms.close()

    app.on_shutdown.append(closing)
    return app


def load_assets(static: Path) -> dict[str, tuple[bytes, str]]:
    """The built files by name (``index.html`` and ``assets/...``), read once."""
    found: dict[str, tuple[bytes, str]] = {}
    if not static.is_dir():
        return found
    for path in sorted(static.rglob("*")):
        if path.is_file():
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind == "application/javascript":
                kind += "; charset=utf-8"
            found[path.relative_to(static).as_posix()] = (path.read_bytes(), kind)
    return found


def index_handler(assets: dict[str, tuple[bytes, str]]) -> Handler:
    async def index(request: web.Request) -> web.StreamResponse:
        body, kind = assets.get("index.html", (MISSING_BUILD.encode(), "text/html; charset=utf-8"))
        return web.Response(body=body, headers={"Content-Type": kind, "Cache-Control": "no-cache"})

    return index


def asset_handler(assets: dict[str, tuple[bytes, str]]) -> Handler:
    async def asset(request: web.Request) -> web.StreamResponse:
        found = assets.get("assets/" + request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound(text="No such file.")
        body, kind = found
        return web.Response(body=body, headers={"Content-Type": kind, "Cache-Control": LONG_CACHE})

    return asset


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The security headers on every answer; foreign origins and hosts refused."""
    refusal = foreign(request)
    if refusal is not None:
        log.warning("web request refused: %s (%s %s)", refusal, request.method, request.path)
        response: web.StreamResponse = web.json_response(
            error_frame("forbidden", refusal), status=403, dumps=encode
        )
    else:
        try:
            response = await handler(request)
        except web.HTTPException as exc:  # a 404: raised on, with the headers
            secured(exc)
            raise
    secured(response, request.app[PARTS].activity is not None)
    return response


def secured(response: web.StreamResponse, framed: bool = False) -> None:
    """The security headers; ``framed``: Discord may show the page in its iframe."""
    response.headers["Content-Security-Policy"] = CSP_FRAMED if framed else CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"


def foreign(request: web.Request) -> str | None:
    """Why ``request`` comes from elsewhere (another origin, a host name not ours), or None."""
    host, parts = request.host, request.app[PARTS]
    if (
        parts.loopback
        and host not in parts.hosts
        and (urlsplit(f"//{host}").hostname or "") not in {n.strip("[]") for n in LOOPBACK_NAMES}
    ):
        return f"this server answers to its loopback address only, not to host {host!r}"
    origin = request.headers.get("Origin")
    changes = request.method not in ("GET", "HEAD") or request.path == "/ws"
    if changes and origin is not None:
        netloc = urlsplit(origin).netloc
        if netloc != host and netloc not in parts.hosts and netloc not in parts.origins:
            return f"a page of another origin ({origin}) may not play here"
    return None


async def socket_handler(request: web.Request) -> web.StreamResponse:
    parts = request.app[PARTS]
    session = parts.sessions.find(request.cookies, request.headers)
    user_id = None if session is None else session.user_id
    extra = None
    if session is not None and session.instance_id is not None and parts.activity is not None:
        extra = RoomSocket(parts.activity.rooms, session)  # an Activity's room
    return await serve_socket(request, parts.service, parts.live, parts.cooldown, user_id, extra)


async def config_handler(request: web.Request) -> web.StreamResponse:
    """``GET /api/activity``: what the page may do (nothing secret): the application's
    client id (None: no sign-in with Discord here), whether the SDK's mock may stand in
    for Discord (a test or local mode), whether a local player plays with no sign-in."""
    parts = request.app[PARTS]
    activity = parts.activity
    discord = None if activity is None else activity.discord
    found = {
        "client_id": None if discord is None else discord.client_id,
        "mock": activity is not None and activity.mock,
        "local": parts.sessions.local_user is not None,
    }
    return web.json_response(found, headers={"Cache-Control": "no-store"}, dumps=encode)


async def board_handler(request: web.Request) -> web.StreamResponse:
    """``GET /api/board``: the board of the session's player (401 without one)."""
    parts = request.app[PARTS]
    user_id = parts.sessions.user(request.cookies, request.headers)
    if user_id is None:
        return web.json_response(error_frame("no-session", NO_SESSION), status=401, dumps=encode)
    return web.json_response(await current(parts.service, user_id), dumps=encode)


async def play_handler(request: web.Request) -> web.StreamResponse:
    """``POST /api/play``: one request, as the socket takes it; its frames."""
    parts = request.app[PARTS]
    if request.content_type != "application/json":
        message = "Send the request as JSON (Content-Type: application/json)."
        return web.json_response(error_frame("bad-frame", message), status=415, dumps=encode)
    body = await request.read()
    user_id = parts.sessions.user(request.cookies, request.headers)
    frames = await handle(body, parts.service, parts.cooldown, user_id)
    status = 401 if frames[0].get("code") == "no-session" else 200
    return web.json_response(first_frame(frames), status=status, dumps=encode)
