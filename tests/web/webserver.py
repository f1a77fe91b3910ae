"""The web server as the web tests get it from the ``serve`` fixture (conftest.py), and
the deal they play."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web
from pages import Page

from bot.service import GameService
from bot.web import Sessions

DEAL = 16  # a deal the solver wins in well under a second


@dataclass
class Served:
    """A running web server, its service and sessions, and an HTTP client session."""

    service: GameService
    sessions: Sessions
    runner: web.AppRunner
    http: aiohttp.ClientSession
    base: str  # http://127.0.0.1:PORT
    clients: list[aiohttp.ClientSession] = field(default_factory=list)  # one per session

    @property
    def ws_url(self) -> str:
        return self.base.replace("http://", "ws://") + "/ws"

    async def page(self, token: str | None = None, **kwargs: object) -> Page:
        """A new board's socket (as the session of ``token``, if given)."""
        cookies = {"reel_session": token} if token else None
        if cookies:
            session = aiohttp.ClientSession(cookies=cookies)
            self.clients.append(session)
            return await Page.open(session, self.ws_url, **kwargs)
        return await Page.open(self.http, self.ws_url, **kwargs)


Serve = Callable[..., Awaitable[Served]]
