"""What keeps the web board standing: per-address rates, socket caps, quiet accept errors.

- ``Rate``: a token bucket per client address. A sign-in (``POST /api/token``) and a
  socket's opening are what make the server call Discord (a code exchange with the
  client secret, an instance lookup with the bot's token): Discord bans an address after
  10,000 invalid requests in 10 minutes, which would take the bot down with the board,
  so a page that loops, or an attacker, is refused here (429) before Discord is called.
- ``SocketCaps``: at most ``PER_USER`` open sockets a player and ``TOTAL`` in all, so
  that held sockets can't use up the process's file descriptors (docs/operations.md says
  what ``LimitNOFILE=`` the unit sets, well above ``TOTAL``).
- ``QuietAccepts``: asyncio logs a failed ``accept()`` (out of descriptors) once per
  attempt, megabytes a second under a flood: the same record is let through once a
  minute, with how many were dropped.

A client's address is the peer's, or, when the peer is a proxy on this machine
(loopback), the last address its ``X-Forwarded-For`` names.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from aiohttp import web

from .protocol import encode, error_frame

# An address may be many players: an office's, or a proxy's (the Activity's players come
# through Discord's), so the rates per address are generous; what keeps Discord's
# threshold (10,000 invalid requests in 10 minutes) out of reach is the limit on all
# sign-ins together: at most 3,050 in any 10 minutes, whoever sends them.
SIGN_INS: Final = (30, 1.0)  # a burst of 30, then one a second, per address
ALL_SIGN_INS: Final = (50, 5.0)  # a burst of 50, then five a second, from every address
SOCKET_OPENS: Final = (100, 10.0)  # a burst of 100, then ten a second, per address
EVERYONE: Final = "*"  # the key of a rate over every address
PER_USER: Final = 8
TOTAL: Final = 2000
QUIET_FOR: Final = 60.0
MAX_KEYS: Final = 10_000  # addresses remembered at most (the oldest forgotten first)


def client_address(request: web.Request) -> str:
    """Who sent ``request``: the peer, or the client a proxy on this machine names."""
    peer = request.remote or ""
    forwarded = request.headers.get("X-Forwarded-For", "")
    if forwarded and _loopback(peer):
        last = forwarded.split(",")[-1].strip()
        if last:
            return last[:64]
    return peer


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


@dataclass
class Tally:
    """A count an operator's metric reads (``bot/ops/`` is handed it by plain callables)."""

    count: int = 0


@dataclass
class _Bucket:
    tokens: float
    at: float


class Rate:
    """A token bucket per key: ``burst`` at once, then ``per_second``."""

    def __init__(
        self, burst: int, per_second: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self.refused = 0  # requests refused so far (a figure for operators and benches)

    def take(self, key: str) -> float:
        """0 if ``key`` may go on now (one token taken), else the seconds to wait."""
        now = self._clock()
        bucket = self._buckets.pop(key, None)  # re-inserted last: the dict is oldest-first
        if bucket is None:
            bucket = _Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.per_second)
        bucket.at = now
        self._buckets[key] = bucket
        while len(self._buckets) > MAX_KEYS:
            del self._buckets[next(iter(self._buckets))]
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        self.refused += 1
        return (1 - bucket.tokens) / self.per_second


def too_many(wait: float, what: str) -> web.Response:
    """The 429 answer of a refused request, with ``Retry-After``."""
    seconds = max(1, round(wait + 0.5))
    message = f"Too many {what} from your address: try again in {seconds} s."
    return web.json_response(
        error_frame("too-many", message),
        status=429,
        headers={"Retry-After": str(seconds), "Cache-Control": "no-store"},
        dumps=encode,
    )


class Sparse:
    """A log line let through once every ``QUIET_FOR`` s per key: ``due`` says how many
    were held back since the last (None: not yet due)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last: dict[str, tuple[float, int]] = {}

    def due(self, key: str) -> int | None:
        now = self._clock()
        last, held = self._last.get(key, (-QUIET_FOR, 0))
        if now - last < QUIET_FOR:
            self._last[key] = (last, held + 1)
            return None
        self._last[key] = (now, 0)
        if len(self._last) > MAX_KEYS:
            del self._last[next(iter(self._last))]
        return held


class SocketCaps:
    """The open sockets, by player and in all, under their caps."""

    def __init__(self, per_user: int = PER_USER, total: int = TOTAL) -> None:
        self.per_user = per_user
        self.total = total
        self._open = 0
        self._by_user: dict[int, int] = {}

    def refusal(self, user_id: int | None) -> str | None:
        """Why one more socket (of ``user_id``) may not open now, or None."""
        if self._open >= self.total:
            return "The board is full right now: try again in a minute."
        if user_id is not None and self._by_user.get(user_id, 0) >= self.per_user:
            return (
                f"You have {self.per_user} boards open already: close one (a tab) to open another."
            )
        return None

    def opened(self, user_id: int | None) -> None:
        self._open += 1
        if user_id is not None:
            self._by_user[user_id] = self._by_user.get(user_id, 0) + 1

    def closed(self, user_id: int | None) -> None:
        self._open -= 1
        if user_id is not None:
            left = self._by_user.get(user_id, 1) - 1
            if left > 0:
                self._by_user[user_id] = left
            else:
                self._by_user.pop(user_id, None)

    def __len__(self) -> int:
        return self._open


class QuietAccepts(logging.Filter):
    """Let one record of each kind of failed ``accept()`` through every ``QUIET_FOR`` s
    (``Sparse``), saying how many like it were dropped since."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._sparse = Sparse(clock)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "accept" not in message:
            return True
        held = self._sparse.due(message[:80])
        if held is None:
            return False
        if held:
            record.msg = f"{record.msg} ({held} like it dropped from the log)"
        return True


_QUIET: Final = QuietAccepts()


def quiet_accept_errors() -> None:
    """Filter asyncio's logger (once per process)."""
    logger = logging.getLogger("asyncio")
    if _QUIET not in logger.filters:
        logger.addFilter(_QUIET)
