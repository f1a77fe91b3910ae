"""Spectating: who may follow whose game live, and what a spectator sees of it.

A spectator sees the player's current game as the player does (the board, what
was just played), read-only. The front end keeps the live messages and redraws
them when the player's game changes (``GameService.on_change``); each redraw asks
``look`` what to show, so every rule below holds at every redraw, not only at the
start:

- nobody watches a player who turned ``watchable`` off (``/reel settings``); turning
  it off ends the live watches of that player at once (``on_unwatchable``);
- nobody watches themself (their own board is live already);
- a daily whose UTC day is not over is never shown (anyone watching could copy its
  moves): a watch of a player who starts one ends there;
- a watch follows one game: it ends when that game is over (the final board shown)
  or when the player has gone on to another.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from engine.daily import utc_date

from .contract import GameView, Settings
from .errors import BadInputError, NoGameError

log = logging.getLogger(__name__)

SELF: Final = "That's you: your own board already follows your game. Watch someone else."
NOT_WATCHABLE: Final = "This player has chosen not to be watched (their /reel settings)."
NO_GAME: Final = "This player has no game in play to watch just now."
GAME_OVER: Final = "This player's last game is over: /reel replay shows it move by move."
DAILY: Final = (
    "This player is playing the day's daily, which can't be watched until the day is over "
    "(midnight UTC), so no one can copy the moves."
)
# Why a live watch ended (the message says it under the last board shown).
ENDED_FINISHED: Final = "The game is over."
ENDED_UNWATCHABLE: Final = "The player turned off being watched."
ENDED_OTHER_GAME: Final = (
    "The player has left this game for another: /reel watch follows the new one."
)
ENDED_DAILY: Final = (
    "The player has started the day's daily, which can't be watched until the day ends."
)
ENDED_GONE: Final = "The game can't be read just now."


@dataclass(frozen=True, slots=True)
class WatchView:
    """What a live watch shows now: the game (None: nothing new may be shown, the last
    board stays) and, once the watch is over, why (``ended``)."""

    game: GameView | None
    ended: str | None = None

    @property
    def live(self) -> bool:
        return self.ended is None


class Watching:
    """The rules of spectating; see the module docstring."""

    def __init__(
        self,
        show: Callable[[int], Awaitable[GameView]],
        settings_of: Callable[[int], Awaitable[Settings]],
        clock: Callable[[], datetime],
    ) -> None:
        """``show(user_id)``: a player's game as it stands (``GameService.show``);
        ``settings_of``: their settings."""
        self._show = show
        self._settings_of = settings_of
        self._clock = clock
        self._unwatchable: list[Callable[[int], None]] = []

    def on_unwatchable(self, listener: Callable[[int], None]) -> None:
        """Call ``listener(user_id)`` when a player turns ``watchable`` off."""
        self._unwatchable.append(listener)

    def settings_saved(self, user_id: int, settings: Settings) -> None:
        """A player's settings were saved (``GameService.update_settings``)."""
        if settings.watchable:
            return
        for listener in self._unwatchable:
            try:
                listener(user_id)
            except Exception:
                log.exception("a listener of watches ending failed")

    async def start(self, watcher_id: int, player_id: int) -> GameView:
        """The game ``watcher_id`` starts watching; ``BadInputError`` saying why not."""
        if watcher_id == player_id:
            raise BadInputError(SELF)
        if not (await self._settings_of(player_id)).watchable:
            raise BadInputError(NOT_WATCHABLE)
        try:
            view = await self._show(player_id)
        except NoGameError:
            raise BadInputError(NO_GAME) from None
        if view.finished:
            raise BadInputError(GAME_OVER)
        if self._secret(view):
            raise BadInputError(DAILY)
        return view

    async def look(self, player_id: int, started_at: datetime | None) -> WatchView:
        """What a live watch of the game ``player_id`` started at ``started_at`` shows now.
        (A refusal of the service, such as the database failing, ends it as well.)"""
        if not (await self._settings_of(player_id)).watchable:
            return WatchView(None, ENDED_UNWATCHABLE)
        try:
            view = await self._show(player_id)
        except NoGameError:
            return WatchView(None, ENDED_OTHER_GAME)
        if self._secret(view):
            return WatchView(None, ENDED_DAILY)
        if view.finished:
            return WatchView(view, ENDED_FINISHED)
        if view.started_at != started_at:
            return WatchView(None, ENDED_OTHER_GAME)
        return WatchView(view)

    def _secret(self, view: GameView) -> bool:
        """Whether ``view`` is a daily whose day is not over."""
        day = view.daily_date
        return day is not None and day >= utc_date(self._clock())
