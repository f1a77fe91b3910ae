"""The daily's ghost: how the day's best finished run stood at the player's move number.

``/reel ghost`` turns it on (or off) for the player's daily in play; it is off by
default and can be turned on only while a daily is in play, so only once the
player's scored attempt has started (an unscored replay of the day comes after it).
While it is on, every board of that daily carries one more line (``GameView.ghost``):
the best recorded scored run of the date, ranked as the daily leaderboard ranks
(won, cards home, fewer moves, earlier finish; everywhere, not only this server),
and its cards home after as many moves as the player has made. It names no one and
shows no card: only a number to race against.

The choice is kept in memory, by player and date, so a restart of the bot turns it
off (nothing about it is stored), and a new date starts with it off. The best run is
read again for every board (one indexed row), so a better run finished meanwhile
takes over at once; its cards home move by move are computed once per run.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import date
from typing import Final

from ..store import FinishedGame, GameStore, StoreError
from .contract import GameView
from .errors import BadInputError
from .movelist import ReplayError, replay
from .replays import scores_along

log = logging.getLogger(__name__)

CURVES_KEPT: Final = 64  # best runs whose cards home by move are kept in memory
NOT_IN_A_DAILY: Final = (
    "The ghost runs only while you play a daily: start the day's daily first, then turn it on."
)
DAILY_OVER: Final = "Your daily is over: the ghost shows only while you play one."


class Ghosts:
    """Who has the ghost on, and the line it adds to their daily's board."""

    def __init__(self, store: GameStore, show: Callable[[int], Awaitable[GameView]]) -> None:
        """``show(user_id)``: the player's game as it stands (``GameService.show``), whose
        view passes through ``decorate``."""
        self._store = store
        self._show = show
        self._on: set[tuple[int, date, str]] = set()  # (player, date, game)
        self._curves: OrderedDict[int, tuple[int, ...]] = OrderedDict()

    def is_on(self, user_id: int, day: date, variant: str = "vr") -> bool:
        """Whether the player has the ghost on for the daily of ``day`` of ``variant``."""
        return (user_id, day, variant) in self._on

    async def toggle(self, user_id: int, on: bool | None = None) -> GameView:
        """Turn the ghost on or off (``on`` None: the other way) for the player's daily in
        play; the board as it now stands. ``BadInputError`` if no daily is in play
        (``NoGameError`` with no game at all)."""
        view = await self._show(user_id)
        day = view.daily_date
        if day is None:
            raise BadInputError(NOT_IN_A_DAILY)
        if view.finished:
            raise BadInputError(DAILY_OVER)
        key = (user_id, day, view.variant)
        wanted = key not in self._on if on is None else on
        if wanted:
            self._on.add(key)
        else:
            self._on.discard(key)
        shown = await self._show(user_id)
        note = (
            "Ghost on: your footer shows the day's best run at your move"
            if wanted
            else ("Ghost off")
        )
        return replace(shown, message=note)

    async def decorate(self, user_id: int, view: GameView) -> GameView:
        """``view`` with its ghost line, when the player has the ghost on for its daily."""
        day = view.daily_date
        if day is None or view.finished or not self.is_on(user_id, day, view.variant):
            return view
        try:
            best = await self._store.best_daily_run(day, view.variant)
        except StoreError as exc:  # the board goes out without its ghost
            log.warning("the ghost of the daily %s could not be read: %s", day, exc)
            return view
        return replace(view, ghost=self.line(best, view.move_count))

    def line(self, best: FinishedGame | None, move: int) -> str:
        """The ghost's line at the player's move ``move``."""
        if best is None:
            return "👻 Ghost: no one has finished this daily yet."
        scores = self._curve(best)
        if scores is None:
            return "👻 Ghost: the day's best run can't be read just now."
        length = len(scores) - 1
        if move <= length:
            return f"👻 Ghost: the day's best run had {scores[move]} cards home at move {move}."
        ended = "won" if best.won else "ended"
        return (
            f"👻 Ghost: the day's best run {ended} at move {length} with {scores[-1]} cards home."
        )

    def _curve(self, best: FinishedGame) -> tuple[int, ...] | None:
        assert best.id is not None
        known = self._curves.get(best.id)
        if known is not None:
            self._curves.move_to_end(best.id)
            return known
        try:
            game, _ = replay(best.variant, best.deal_number, best.moves)
        except ReplayError as exc:
            log.error("the daily's best run (game %s) does not replay: %s", best.id, exc)
            return None
        scores = scores_along(best.deal_number, best.variant, game.history)
        self._curves[best.id] = scores
        while len(self._curves) > CURVES_KEPT:
            self._curves.popitem(last=False)
        return scores
