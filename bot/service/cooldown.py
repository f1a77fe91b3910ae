"""Abuse control: a per-user cooldown on commands and clicks, shared by the front ends.

The Discord bot and the web board (``bot.web``) take from one ``Cooldown`` when they run
in one process (``reel bot`` with ``REEL_WEB_PORT``), so a player's actions count
alike wherever they are made.

Each user has a bucket of ``burst`` actions that refills at ``rate`` a second (a token
bucket). A player clicking as fast as a person can never meets it; a player mashing a
button, or a script sending fifty commands a second, is slowed: the action over the
limit is answered with how long to wait, and nothing is done. Each user has their own
bucket, so nobody else is slowed. Typing in an autocomplete costs nothing (Discord sends
one per keystroke).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Final

RATE: Final = 3.0
"""Actions a second a user may keep up."""
BURST: Final = 8
"""Actions a user may take at once after a pause."""
PRUNE_AT: Final = 10_000
"""Buckets kept before the full ones (users idle long enough) are forgotten."""


def slow_down(wait: float) -> str:
    """The answer to an action over the limit (private in Discord, an error frame on the web)."""
    seconds = max(0.1, math.ceil(wait * 10) / 10)
    return f"You're going a little fast: that wasn't done. Try again in {seconds:.1f} s."


class Cooldown:
    """Per-user token buckets: ``take(user)`` is 0.0 if the user may act now (and counts
    the action), else the seconds until they may."""

    def __init__(
        self,
        rate: float = RATE,
        burst: int = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a cooldown needs a positive rate and a burst of at least 1")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[int, tuple[float, float]] = {}  # user -> (tokens, when)
        self.refused = 0  # actions refused as too fast, since the start (metrics)

    def take(self, user_id: int) -> float:
        now = self._clock()
        tokens, then = self._buckets.get(user_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[user_id] = (tokens, now)
            self.refused += 1
            return (1.0 - tokens) / self.rate
        self._buckets[user_id] = (tokens - 1.0, now)
        if len(self._buckets) > PRUNE_AT:
            self._prune(now)
        return 0.0

    def _prune(self, now: float) -> None:
        """Forget the buckets that have refilled (their users are as new)."""
        full = self.burst / self.rate
        self._buckets = {u: b for u, b in self._buckets.items() if now - b[1] < full}

    def __len__(self) -> int:
        return len(self._buckets)
