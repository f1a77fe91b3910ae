"""The solver's word on a new game's deal, searched in the pool before it is dealt: a
random deal proven winnable (the winnable setting), and a chosen deal's verdict."""

from __future__ import annotations

import logging

from engine import DealNumberError, Move
from engine.deal import check_deal_number

from . import jobs
from .pool import POOL_FAILURES, SolverPool

log = logging.getLogger(__name__)


class DealProofs:
    """Searches in ``pool``; ``candidates``: deals the winnable search tries."""

    def __init__(self, pool: SolverPool, candidates: int) -> None:
        self._pool = pool
        self._candidates = candidates

    async def winnable_from(
        self, start: int, variant: str = "vr"
    ) -> tuple[int, tuple[Move, ...]] | None:
        """The first deal from ``start`` on that the solver proves winnable, and its winning
        line, searched as the daily's deal is (``jobs.winnable_job``); None, logged, if
        none is found or the pool fails (the game is then dealt unproven, and says so)."""
        try:
            found = await self._pool.run(jobs.winnable_job, start, self._candidates, variant)
        except POOL_FAILURES as exc:
            log.error("the search for a winnable deal failed in the solver pool: %s", exc)
            self._pool.reset()
            return None
        if found is None:
            log.warning("no deal proven winnable among %d from %d", self._candidates, start)
        return found

    async def verdict(
        self, deal_number: int, variant: str = "vr"
    ) -> tuple[str | None, tuple[Move, ...] | None]:
        """A chosen deal's verdict within the winnable search's budget ("won",
        "unwinnable", "unknown"; None if the pool failed) and, when won, its winning
        line; a deal number that is no deal has none (the deal itself refuses it)."""
        try:
            check_deal_number(deal_number)
        except DealNumberError:
            return None, None
        try:
            verdict, line = await self._pool.run(jobs.verdict_job, deal_number, variant)
        except POOL_FAILURES as exc:
            log.error("the verdict on deal %d failed in the solver pool: %s", deal_number, exc)
            self._pool.reset()
            return None, None
        return verdict, (line or None)
