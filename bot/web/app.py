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
from a page of another origin is refused (403), and so is a request whose Host does not
name this server: an address (an IP literal: a DNS rebinding attack needs a name of its
own), ``localhost``, or the public URL's host. A web page elsewhere can't play your game
through your browser, whatever address the server listens on.
"""

from __future__ import annotations

import ipaddress
import logging
import mimetypes
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from aiohttp import web

from ..service import GameService
from ..service.cooldown import Cooldown
from .activity import Activity, RoomSocket, install, still_here
from .limits import SOCKET_OPENS, Rate, SocketCaps, client_address, quiet_accept_errors, too_many
from .play import current
from .protocol import encode, error_frame
from .sessions import NO_SESSION, Sessions
from .socket import SOCKET_CAP, LiveBoards, first_frame, handle, serve_socket
from .wire import ActivityConfig

log = logging.getLogger(__name__)

STATIC: Final = Path(__file__).resolve().parent / "static"
CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
DISCORD_CLIENTS: Final = "https://discord.com https://ptb.discord.com https://canary.discord.com"
"""The origins of Discord's own clients (stable, public test build, canary), which frame an
Activity's page."""


def framed_csp(client_id: str | None) -> str:
    """The policy where the Activity is served: Discord's clients may frame the page, and
    this application's own proxy origin (``https://CLIENT_ID.discordsays.com``), no other
    application's."""
    ancestors = DISCORD_CLIENTS
    if client_id is not None:
        ancestors += f" https://{client_id}.discordsays.com"
    return CSP.replace("frame-ancestors 'none'", f"frame-ancestors {ancestors}")


LONG_CACHE: Final = "public, max-age=31536000, immutable"
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
    activity: Activity | None = None  # Discord's sign-in and the rooms
    hosts: frozenset[str] = frozenset()  # other names the Host may give (the public one)
    origins: frozenset[str] = frozenset()  # other origins whose pages may play (Discord's)
    csp: str = CSP  # the Content-Security-Policy of every answer (framed_csp: the Activity)
    opens: Rate = field(default_factory=lambda: Rate(*SOCKET_OPENS))  # per address
    caps: SocketCaps = field(default_factory=SocketCaps)  # sockets by player and in all


PARTS: Final = web.AppKey("parts", WebParts)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def create_app(
    service: GameService,
    sessions: Sessions,
    cooldown: Cooldown | None,
    *,
    static: Path = STATIC,
    activity: Activity | None = None,
    public_url: str | None = None,
) -> web.Application:
    """The web board's application over ``service`` (see the module docstring).
    ``activity``: Discord's sign-in and the Activity's rooms; ``public_url``: the address
    the players reach it at (``REEL_WEB_PUBLIC_URL``), behind a proxy."""
    app = web.Application(middlewares=[guard], client_max_size=SOCKET_CAP)
    app.on_response_prepare.append(plain_server_header)
    quiet_accept_errors()
    hosts = frozenset() if public_url is None else frozenset({urlsplit(public_url).netloc})
    origins: frozenset[str] = frozenset()
    if activity is not None and activity.discord is not None:  # Discord's proxy, in its iframe
        origins = frozenset({f"{activity.discord.client_id}.discordsays.com"})
    live = LiveBoards(service)
    csp = CSP
    if activity is not None:
        csp = framed_csp(None if activity.discord is None else activity.discord.client_id)
    parts = WebParts(service, sessions, cooldown, live, activity, hosts, origins, csp)
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
            secured(exc, request.app[PARTS].csp)
            raise
    secured(response, request.app[PARTS].csp)
    return response


async def plain_server_header(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer, a socket's handshake too, names the server without versions."""
    response.headers["Server"] = "reel"


def secured(response: web.StreamResponse, policy: str = CSP) -> None:
    """The security headers, with the Content-Security-Policy ``policy``."""
    response.headers["Content-Security-Policy"] = policy
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"


def foreign(request: web.Request) -> str | None:
    """Why ``request`` comes from elsewhere (another origin, a host name not ours), or None."""
    host, parts = request.host, request.app[PARTS]
    if not names_this_server(host, parts.hosts):
        return (
            f"this server answers to its own address, localhost or its public URL's host "
            f"(REEL_WEB_PUBLIC_URL), not to host {host[:100]!r}"
        )
    origin = request.headers.get("Origin")
    changes = request.method not in ("GET", "HEAD") or request.path == "/ws"
    if changes and origin is not None:
        netloc = urlsplit(origin).netloc
        if netloc != host and netloc not in parts.hosts and netloc not in parts.origins:
            return f"a page of another origin ({origin}) may not play here"
    return None


def figures(app: web.Application) -> dict[str, float]:
    """What an operator watches of this board (``bot/ops/`` reads it, given it by
    whoever starts the board): refusals of the limits, and the sockets open now."""
    parts = app[PARTS]
    refused_sign_ins = 0 if parts.activity is None else parts.activity.refused.count
    return {
        "sockets_open": float(len(parts.caps)),
        "socket_opens_refused": float(parts.opens.refused),
        "sign_ins_refused": float(refused_sign_ins),
    }


def names_this_server(host: str, public: frozenset[str]) -> bool:
    """Whether a request's Host names this server: one of the ``public`` hosts (with its
    port), ``localhost``, or an IP address (no fixed list: 127.0.0.2 and [::1] are ours
    when we listen there, and a rebinding page can only send its own name)."""
    if host in public:
        return True
    try:
        name = urlsplit(f"//{host}").hostname or ""
    except ValueError:  # a malformed Host ("[::1")
        return False
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


async def socket_handler(request: web.Request) -> web.StreamResponse:
    """``GET /ws``: a board's socket, within the address's rate and the socket caps."""
    parts = request.app[PARTS]
    wait = parts.opens.take(client_address(request))
    if wait > 0:
        return too_many(wait, "boards opened")
    session = parts.sessions.find(request.cookies, request.headers)
    user_id = None if session is None else session.user_id
    refusal = parts.caps.refusal(user_id)
    if refusal is not None:
        return web.json_response(error_frame("too-many", refusal), status=503, dumps=encode)
    extra = None
    if session is not None and session.instance_id is not None and parts.activity is not None:
        extra = RoomSocket(parts.activity.rooms, session, parts.sessions)  # a room
    parts.caps.opened(user_id)
    try:
        return await serve_socket(
            request, parts.service, parts.live, parts.cooldown, user_id, extra
        )
    finally:
        parts.caps.closed(user_id)


async def config_handler(request: web.Request) -> web.StreamResponse:
    """``GET /api/activity``: what the page may do (nothing secret): the application's
    client id (None: no sign-in with Discord here), whether the SDK's mock may stand in
    for Discord (a test or local mode), whether a local player plays with no sign-in."""
    parts = request.app[PARTS]
    activity = parts.activity
    discord = None if activity is None else activity.discord
    found = ActivityConfig(
        client_id=None if discord is None else discord.client_id,
        mock=activity is not None and activity.mock,
        local=parts.sessions.local_user is not None,
    )
    return web.json_response(found, headers={"Cache-Control": "no-store"}, dumps=encode)


async def board_handler(request: web.Request) -> web.StreamResponse:
    """``GET /api/board``: the board of the session's player (401 without one)."""
    parts = request.app[PARTS]
    user_id, refusal = await api_player(request)
    if refusal is not None:
        return refusal
    assert user_id is not None
    return web.json_response(await current(parts.service, user_id), dumps=encode)


async def api_player(request: web.Request) -> tuple[int | None, web.Response | None]:
    """Whom a JSON API request plays for, or its refusal: none without a session (401);
    an Activity's session whose player left the instance ends (403)."""
    parts = request.app[PARTS]
    session = parts.sessions.find(request.cookies, request.headers)
    if session is None:
        refused = error_frame("no-session", NO_SESSION)
        return None, web.json_response(refused, status=401, dumps=encode)
    if parts.activity is not None and (gone := await still_here(parts.activity, session)):
        return None, web.json_response(error_frame("not-in-room", gone), status=403, dumps=encode)
    return session.user_id, None


async def play_handler(request: web.Request) -> web.StreamResponse:
    """``POST /api/play``: one request, as the socket takes it; its frames."""
    parts = request.app[PARTS]
    if request.content_type != "application/json":
        message = "Send the request as JSON (Content-Type: application/json)."
        return web.json_response(error_frame("bad-frame", message), status=415, dumps=encode)
    body = await request.read()
    user_id, refusal = await api_player(request)
    if refusal is not None and refusal.status != 401:  # (no session: the frames say so)
        return refusal
    frames = await handle(body, parts.service, parts.cooldown, user_id)
    first = frames[0]
    status = 401 if first["type"] == "error" and first["code"] == "no-session" else 200
    return web.json_response(first_frame(frames), status=status, dumps=encode)
