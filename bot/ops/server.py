"""``/metrics`` and ``/healthz`` over HTTP: on a port of their own (``REEL_METRICS_PORT``),
or added to the web board's server when it runs and no port of their own is set, where
they answer only a request made on this machine to its loopback address (a proxy that
publishes the board does not publish them).

Both answer GET only and hold no secret; still, keep them on a private address (the
default host is 127.0.0.1, ``REEL_METRICS_HOST`` another) and let Prometheus reach them
there (docs/operations.md).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
from collections.abc import AsyncIterator
from typing import Final
from urllib.parse import urlsplit

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from .health import Health
from .metrics import Metrics

log = logging.getLogger(__name__)

METRICS_PATH: Final = "/metrics"
HEALTH_PATH: Final = "/healthz"


def add_routes(
    app: web.Application, metrics: Metrics, health: Health, *, private: bool = False
) -> None:
    """Add ``/metrics`` and ``/healthz`` to ``app`` (a server of its own, or the web
    board's). ``private``: the server is the web board's, which a proxy may publish, so
    the pages answer only a request made on this machine to a loopback address and not
    passed on by a proxy; any other gets a 404, as if they were not there."""

    def hidden(request: web.Request) -> bool:
        return private and not from_this_machine(request)

    async def metrics_page(request: web.Request) -> web.Response:
        if hidden(request):
            raise web.HTTPNotFound(text="No such page.")
        body = generate_latest(metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def health_page(request: web.Request) -> web.Response:
        if hidden(request):
            raise web.HTTPNotFound(text="No such page.")
        healthy, words = await health.run()
        body = json.dumps({"status": "ok" if healthy else "failing", "checks": words})
        return web.Response(
            text=body + "\n",
            status=200 if healthy else 503,
            content_type="application/json",
            headers={"Cache-Control": "no-store"},
        )

    app.router.add_get(METRICS_PATH, metrics_page)
    app.router.add_get(HEALTH_PATH, health_page)


FORWARDED: Final = ("Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Real-IP")


def from_this_machine(request: web.Request) -> bool:
    """Whether ``request`` came from this machine to a loopback address, not through a
    proxy (a proxy on this machine connects from loopback too, but names the public host
    or says whom it forwards for)."""
    if any(name in request.headers for name in FORWARDED):
        return False
    try:
        host = urlsplit(f"//{request.host}").hostname or ""
    except ValueError:
        return False
    return _loopback(request.remote or "") and (host == "localhost" or _loopback(host))


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


@contextlib.asynccontextmanager
async def serving(host: str, port: int, metrics: Metrics, health: Health) -> AsyncIterator[int]:
    """The two pages on ``host``:``port`` (0: any free port, the one bound is given) while
    the context lasts. ``OSError`` if the address can't be had."""
    app = web.Application()
    add_routes(app, metrics, health)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = port
        for address in runner.addresses:
            if isinstance(address, tuple):
                bound = int(address[1])
        log.info("metrics at http://%s:%s%s, health at %s", host, bound, METRICS_PATH, HEALTH_PATH)
        yield bound
    finally:
        await runner.cleanup()
