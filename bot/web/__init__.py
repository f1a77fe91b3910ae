"""The web board: Virginia Reel in a browser, over the same ``GameService`` as the chat.

Its rooms: ``app`` (the aiohttp application: the page, its assets, the JSON API, the
security headers), ``socket`` (one WebSocket per open board, and the live boards that
follow the service's changes), ``protocol`` (the messages, read strictly), ``play`` (a
request carried out on the service), ``board`` (a game as the page draws it),
``sessions`` (who a request plays for), ``local`` (``reel web``, and the server beside
``reel bot``). The page itself is built from ``web/`` (TypeScript) into ``static/``.
It imports the service, never the store: ``docs/web.md``, ``docs/architecture.md``.
"""

from .app import create_app
from .sessions import Sessions

__all__ = ["Sessions", "create_app"]
