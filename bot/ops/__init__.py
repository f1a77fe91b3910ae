"""What an operator watches: the metrics for Prometheus (``metrics``), the health checks
(``health``), and the HTTP pages that serve them (``server``; docs/operations.md).

The room reads the service (its figures, its store's operations through the store's
contract) and is told of the Discord adapter's interactions; only it imports
``prometheus_client``. The entry point (``bot/discord_bot/app.py``'s ``_serve``, from
``reel bot``) puts it together with the bot and, when it runs, the web board.
"""

from .health import Health, database_check, shards_check
from .metrics import Metrics, Shard
from .server import add_routes, serving

__all__ = [
    "Health",
    "Metrics",
    "Shard",
    "add_routes",
    "database_check",
    "serving",
    "shards_check",
]
