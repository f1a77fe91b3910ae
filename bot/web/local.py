"""Running the web board: alone (``reel web``, one local player), or beside the bot.

``serve`` runs the server over a service until SIGINT or SIGTERM (``reel web``, from
``bot.cli.web``, which opens the store). ``beside_bot`` is what ``reel bot`` runs
in its own event loop when ``REEL_WEB_PORT`` is set: the same application over the
bot's service and the bot's cooldown, so a move in chat and a move on the page go
through one service, one lock per player, one version counter.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import os
import secrets
import signal
import sys
import webbrowser
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from aiohttp import web

from ..service import LOCAL_USER_ID, GameService
from ..service.cooldown import Cooldown
from .activity import Activity
from .app import create_app, figures
from .discord_api import DiscordApi
from .rooms import Announce, Rooms
from .sessions import Sessions

log = logging.getLogger(__name__)

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8080


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (the whole 127.0.0.0/8 and ::1) or localhost."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


Figures = Callable[[], Mapping[str, float]]
"""The board's own figures, read when asked (``app.figures``: refusals, sockets open)."""
Routes = Callable[[web.Application, Figures], None]
"""What the caller adds to the board's server, given the board's figures (``reel bot``:
``/metrics`` and ``/healthz``, and the figures in its metrics)."""


class Beside(Protocol):
    """Started by ``reel bot`` over its service and cooldown (it gives the board's address),
    stopped before the service; ``announce`` posts the standings of a race an Activity's
    room opened (``rooms.Announce``), ``routes`` adds the caller's pages."""

    def __call__(
        self,
        service: GameService,
        cooldown: Cooldown | None,
        announce: Announce | None = None,
        routes: Routes | None = None,
        /,
    ) -> AbstractAsyncContextManager[str]: ...


SECRET_FILE: Final = "session.key"


@dataclass(frozen=True, slots=True)
class ActivitySettings:
    """The Activity's settings (``docs/activity.md``): the application's client id and
    secret (None: no sign-in with Discord), the bot's token (the instance lookups), the
    REST base, the sessions' key, the SDK's mock allowed, the public address."""

    client_id: str | None
    client_secret: str | None
    bot_token: str | None
    api_base: str | None
    secret: bytes
    mock: bool = False
    public_url: str | None = None
    race_deal: int | None = None  # the deal of the rooms' races (tests); None: random


def kept_secret(folder: Path) -> bytes:
    """The sessions' key kept in ``folder/session.key`` (made once, readable by its owner
    only): sessions stay valid over a restart, and no setting is needed on one machine."""
    path = folder / SECRET_FILE
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (FileNotFoundError, ValueError):
        pass
    folder.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as kept:
        kept.write(key.hex() + "\n")
    log.info("made the web sessions' key in %s", path)
    return key


def activity_setup(
    settings: ActivitySettings | None, service: GameService, announce: Announce | None
) -> Activity | None:
    """The Activity's parts for one server (None: no Activity settings)."""
    if settings is None:
        return None
    discord = None
    if settings.client_id and settings.client_secret:
        discord = DiscordApi(
            settings.client_id, settings.client_secret, settings.bot_token, settings.api_base
        )
    sessions = Sessions(secret=settings.secret)
    rooms = Rooms(service, discord, announce, race_deal=settings.race_deal)
    return Activity(sessions, rooms, discord, settings.mock)


def address(host: str, port: int) -> str:
    """The board's address as a browser takes it."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


async def start(
    service: GameService,
    sessions: Sessions,
    cooldown: Cooldown | None,
    host: str,
    port: int,
    *,
    activity: Activity | None = None,
    public_url: str | None = None,
    routes: Routes | None = None,
) -> web.AppRunner:
    """The server listening on ``host``:``port`` (port 0: any free one), with ``routes``
    added; stop it with ``runner.cleanup()``. ``OSError`` when the address can't be had."""
    app = create_app(
        service,
        sessions,
        cooldown,
        activity=activity,
        public_url=public_url,
    )
    if routes is not None:
        routes(app, functools.partial(figures, app))
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


def bound_port(runner: web.AppRunner) -> int:
    """The port the server listens on (the one chosen, for port 0)."""
    for address_ in runner.addresses:
        if isinstance(address_, tuple):
            return int(address_[1])
    raise RuntimeError("the web server listens on no TCP port")


async def serve(service: GameService, host: str, port: int, *, open_browser: bool = False) -> int:
    """``reel web``: the board for the local player until a signal; the exit code."""
    try:
        sessions = Sessions(LOCAL_USER_ID, tokens=False)  # no sign-in: no token counts
        runner = await start(service, sessions, Cooldown(), host, port)
    except OSError as exc:
        print(f"reel web: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    url = address(host, bound_port(runner))
    print(f"Virginia Reel is on the web board at {url} (Ctrl-C to stop)", flush=True)
    if not is_loopback(host):
        print(f"Warning: listening on {host}, not the loopback address: anyone who can reach "
              "it plays your game.", flush=True)  # fmt: skip
    if open_browser:
        webbrowser.open(url)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
    print("Stopped: your game is saved.", flush=True)
    return 0


def beside_bot(
    host: str, port: int, local_user: int | None, activity: ActivitySettings | None = None
) -> Beside:
    """The web board for ``reel bot`` (``REEL_WEB_PORT``): every play request refused
    without a session, unless ``local_user`` (``REEL_WEB_LOCAL_USER``) plays for all;
    with ``activity``, the Activity's sign-in and rooms."""

    @contextlib.asynccontextmanager
    async def running(
        service: GameService,
        cooldown: Cooldown | None,
        announce: Announce | None = None,
        routes: Routes | None = None,
    ) -> AsyncIterator[str]:
        parts = activity_setup(activity, service, announce)
        sessions = Sessions(local_user) if parts is None else parts.sessions
        sessions.local_user = local_user
        public = None if activity is None else activity.public_url
        runner = await start(
            service,
            sessions,
            cooldown,
            host,
            port,
            activity=parts,
            public_url=public,
            routes=routes,
        )
        url = address(host, bound_port(runner))
        log.info("web board at %s", url)
        if local_user is not None:
            log.warning(
                "REEL_WEB_LOCAL_USER is set: whoever reaches the web board at %s plays as "
                "user %s, with no sign-in",
                url,
                local_user,
            )
        try:
            yield url
        finally:
            await runner.cleanup()
            log.info("web board stopped")

    return running
