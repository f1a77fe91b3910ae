"""The daily deals: THE deal of each date and game, found once by the solver and stored.

Each game of the family (``engine.VARIANTS``) has its own daily; Virginia Reel's (``"vr"``)
is the default everywhere a game is not named.

Once a deal is chosen, its difficulty is rated in the background (``daily_rules.rate_deal``:
a few blind games, seconds with the compiled solver) and stored with it: the daily is
dealt at once, and its rating shows from the board drawn after it is known."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from datetime import date, timedelta
from typing import Any, Final

from ..store import DailyDeal, GameStore, StoreError
from . import jobs
from .daily_rules import DAILY_CANDIDATES, RATING_GAMES, daily_budget
from .errors import DailyUnavailableError, StorageError
from .pool import POOL_FAILURES, SolverPool

log = logging.getLogger(__name__)

DAILY_CACHE: Final = 16  # daily deals kept in memory (dates)


class DailyDeals:
    """The daily deal of each date, from memory, the database, or found by the solver.

    ``candidates``: deals the search tries before it falls back
    (``daily_rules.find_daily_deal``); ``warm``: after a daily is dealt, find
    tomorrow's in the background (the bot does; tests and the terminal don't);
    ``rating_games``: blind games the deal's difficulty is rated from (``rate_deal``).
    """

    def __init__(
        self,
        store: GameStore,
        pool: SolverPool,
        candidates: int = DAILY_CANDIDATES,
        warm: bool = False,
        rating_games: int = RATING_GAMES,
    ) -> None:
        self._store = store
        self._pool = pool
        self._candidates = candidates
        self._rating_games = rating_games
        self._warm = warm
        self._known: OrderedDict[tuple[date, str], DailyDeal] = OrderedDict()
        self._pending: dict[tuple[date, str], asyncio.Future[DailyDeal]] = {}
        self._rating: dict[tuple[date, str], asyncio.Future[None]] = {}

    async def get(self, day: date, variant: str = "vr") -> DailyDeal:
        """THE deal of ``day``'s daily of the game ``variant``.

        Found once per date (in the solver pool; concurrent callers share one
        search) and stored, the first writer winning, so it never changes
        afterwards. A deal without a proof (no candidate proven) is logged as a
        warning and stored too.
        """
        cached = self._known.get((day, variant))
        if cached is not None:
            return cached
        # shield: a caller giving up (cancelled) does not stop the search others wait for
        deal = await asyncio.shield(self._pending_search(day, variant))
        tomorrow = (day + timedelta(days=1), variant)
        if self._warm and tomorrow not in self._known:
            self._pending_search(*tomorrow).add_done_callback(_warmed)
        return deal

    async def stored(self, day: date, variant: str = "vr") -> DailyDeal | None:
        """The deal of ``day``'s daily of ``variant`` if it is known (memory or database);
        never searches. Raises ``StoreError``."""
        cached = self._known.get((day, variant))
        if cached is None:
            cached = await self._store.load_daily_deal(day, variant)
            if cached is not None:
                self._remember(cached)
        return cached

    def par(self, day: date | None, deal_number: int, variant: str = "vr") -> int | None:
        """The par of the daily of ``day`` of ``variant`` if that is the deal being played
        and it is known in memory."""
        known = self.known(day, deal_number, variant)
        return None if known is None else known.par

    def known(self, day: date | None, deal_number: int, variant: str = "vr") -> DailyDeal | None:
        """The daily of ``day`` of ``variant`` if that is the deal being played and it is
        known in memory (its par, its rating)."""
        known = None if day is None else self._known.get((day, variant))
        return known if known is not None and known.deal_number == deal_number else None

    async def find(self, day: date, variant: str = "vr") -> DailyDeal:
        """The proof search for ``day``'s daily of ``variant`` in the solver pool (tests
        replace this method)."""
        candidates = self._count(variant)
        try:
            return await self._pool.run(jobs.daily_job, day.isoformat(), candidates, variant)
        except POOL_FAILURES as exc:
            log.error("daily search for %s failed in the solver pool: %s", day, exc)
            self._pool.reset()
            raise DailyUnavailableError() from exc

    def _count(self, variant: str) -> int:
        """Candidates the search of a daily of ``variant`` tries."""
        return min(self._candidates, daily_budget(variant)[0])

    async def close(self) -> None:
        """Stop the searches and ratings under way and forget the deals."""
        waiting: list[asyncio.Future[Any]] = [*self._pending.values(), *self._rating.values()]
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        self._known.clear()

    def _pending_search(self, day: date, variant: str) -> asyncio.Future[DailyDeal]:
        """The one search (or database read) for ``day``'s deal of ``variant`` under way,
        started if none is."""
        key = (day, variant)
        pending = self._pending.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._choose(day, variant))
            self._pending[key] = pending

            def done(_: asyncio.Future[DailyDeal]) -> None:
                self._pending.pop(key, None)

            pending.add_done_callback(done)
        return pending

    async def _choose(self, day: date, variant: str) -> DailyDeal:
        try:
            stored = await self._store.load_daily_deal(day, variant)
            if stored is None:
                found = await self.find(day, variant)
                if not found.proven:
                    log.warning(
                        "no deal proven winnable among %d candidates for the daily of %s "
                        "(%s): falling back to deal %d, unproven",
                        self._count(variant),
                        day.isoformat(),
                        variant,
                        found.deal_number,
                    )
                stored = await self._store.save_daily_deal(found)
        except StoreError as exc:
            log.error("database failure choosing the daily of %s: %s", day, exc, exc_info=exc)
            raise StorageError("Today's daily can't be dealt just now. Try again.") from exc
        self._remember(stored)
        self._rate_later(stored)
        return stored

    def _rate_later(self, deal: DailyDeal) -> None:
        """Rate ``deal`` in the background if it is not rated yet (one rating at a time per
        date and game; none with no rating games)."""
        key = (deal.day, deal.variant)
        if deal.rating is not None or self._rating_games < 1 or key in self._rating:
            return
        task = asyncio.ensure_future(self._rate(deal))
        self._rating[key] = task
        task.add_done_callback(lambda _: self._rating.pop(key, None))

    async def _rate(self, deal: DailyDeal) -> None:
        """The blind games of ``deal`` in the pool, and the rating stored (the first one
        stored stays); a failure is logged, and the next day's first board tries again."""
        try:
            rating = await self._pool.run(
                jobs.rating_job, deal.deal_number, deal.variant, self._rating_games
            )
            if rating is None:
                return
            stored = await self._store.save_daily_rating(deal.day, deal.variant, rating)
        except asyncio.CancelledError:
            raise
        except (StoreError, *POOL_FAILURES) as exc:
            log.error("rating the daily of %s (%s) failed: %s", deal.day, deal.variant, exc)
            return
        if stored is not None:
            self._remember(stored)

    async def rated(self, day: date, variant: str = "vr") -> None:
        """Wait for the rating of ``day``'s daily of ``variant`` under way, if one is."""
        task = self._rating.get((day, variant))
        if task is not None:
            await asyncio.shield(task)

    def _remember(self, deal: DailyDeal) -> None:
        key = (deal.day, deal.variant)
        self._known[key] = deal
        self._known.move_to_end(key)
        while len(self._known) > DAILY_CACHE:
            self._known.popitem(last=False)


def _warmed(task: asyncio.Future[DailyDeal]) -> None:
    """A background search for the next daily ended: log a failure (it is retried on need)."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("could not find the next daily in advance: %s", task.exception())
