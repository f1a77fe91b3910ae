"""Health: whether this process can serve, for a load balancer, systemd or Kubernetes.

``/healthz`` answers 200 when every check passes and 503 when one fails, with a JSON body
naming each check and what it found (docs/operations.md):

- ``database``: a small read answers within ``DATABASE_WAIT`` seconds (the store's
  ``ping``); it fails while the database can't be reached (PostgreSQL down or refusing,
  the SQLite file gone or read-only...);
- ``shards`` (the Discord bot): every shard this process runs is connected; it fails
  while one is down (before the first connection too, so a process is healthy once it
  can serve).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from ..service import GameService
from .metrics import Shard

log = logging.getLogger(__name__)

DATABASE_WAIT: Final = 2.0

Check = Callable[[], Awaitable[tuple[bool, str]]]
"""One check: whether it passes, and a short word on what it found."""


@dataclass
class Health:
    """The checks of one process, by name."""

    checks: dict[str, Check] = field(default_factory=dict)

    async def run(self) -> tuple[bool, dict[str, str]]:
        """Every check, at once: whether all pass, and each one's word ("ok" or why not)."""
        names = list(self.checks)
        found = await asyncio.gather(*(self.checks[n]() for n in names), return_exceptions=True)
        words: dict[str, str] = {}
        healthy = True
        for name, result in zip(names, found, strict=True):
            if isinstance(result, BaseException):  # its text logged, not published
                log.warning("health check %s failed", name, exc_info=result)
                passed, word = False, f"failed ({type(result).__name__})"
            else:
                passed, word = result
            healthy = healthy and passed
            words[name] = word
        return healthy, words


def database_check(service: GameService) -> Check:
    """The database answers a small read in time."""

    async def check() -> tuple[bool, str]:
        try:
            await asyncio.wait_for(service.store.ping(), DATABASE_WAIT)
        except TimeoutError:
            return False, f"no answer within {DATABASE_WAIT:g} s"
        except Exception as exc:  # the store's error: it can't be reached
            # Its text may name the database's user, host and database: logged, not shown.
            log.warning("health check: the database is unreachable: %s", exc)
            return False, f"unreachable ({type(exc).__name__})"
        return True, "ok"

    return check


def shards_check(shards: Callable[[], Sequence[Shard]]) -> Check:
    """Every shard of this process is connected."""

    async def check() -> tuple[bool, str]:
        found = list(shards())
        down = [str(s.shard_id) for s in found if not s.up]
        if not found:
            return False, "no shard connected yet"
        if down:
            return False, f"shard(s) {','.join(down)} down"
        return True, "ok: shard(s) " + ",".join(str(s.shard_id) for s in found)

    return check
