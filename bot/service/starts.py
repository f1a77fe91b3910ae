"""New games: a deal, today's daily, and whether starting one ends a game in progress.

``NewGames`` is the part of ``GameService`` (``games``) that deals new current games;
``GameService`` inherits it, and provides the parts it names as abstract (the store, the
locks, the view of a game). An unfinished game replaced by a new one is recorded first
(as abandoned, or lost if stuck), unless the player never touched it; a scored daily in
play is never replaced (``DailyInProgressError``). ``would_end`` tells a front end, before
it calls, whether the call would end a game in progress, so that it asks the player first.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import date, datetime
from typing import Final, Literal

from engine import DealNumberError, Move, Status, format_line
from engine.daily import utc_date
from engine.deal import check_deal_number

from ..store import DailyDeal, FinishedGame, GameStart, GameStore, Outcome, StoreError
from .cache import LruCache, PlayerLocks
from .contract import GameView, Settings
from .dailies import DailyDeals
from .entry import GameInMemory, check_replace, dealt, proof_of
from .errors import (
    NEWER_GAME_MESSAGE,
    BadInputError,
    CorruptGameError,
    StaleVersionError,
    StorageError,
)
from .family import game_code, of_game
from .movelist import DEFAULT_VARIANT
from .outside import Outside
from .practice import practised
from .proofs import DealProofs
from .wording import aces_note, sentence

RANDOM_DEAL_MAX: Final = 999_999_999
WINNABLE_UNPROVEN: Final = " · no deal could be proven winnable just now, so this one may not be"
PROVEN_LOST: Final = " · the solver has proven this deal can't be won: try another for a win"
Ending = Literal["new", "daily", "resign"]
"""A call that may end the game in play: ``new_game``, ``daily``, ``resign``."""


class NewGames(ABC):
    """``GameService``'s new games (see the module docstring)."""

    _store: GameStore
    _clock: Callable[[], datetime]
    _rng: random.Random
    _proofs: DealProofs
    _dailies: DailyDeals
    locks: PlayerLocks
    games: LruCache[GameInMemory]
    _outside: Outside

    @abstractmethod
    async def get_settings(self, user_id: int) -> Settings: ...

    @abstractmethod
    async def _get_settings(self, user_id: int) -> Settings: ...

    @abstractmethod
    async def _entry(self, user_id: int) -> GameInMemory | None: ...

    @abstractmethod
    async def _view(
        self, user_id: int, entry: GameInMemory, message: str | None, warning: str | None = None
    ) -> GameView: ...

    @abstractmethod
    def _storage_failure(self, user_id: int, exc: BaseException) -> StorageError: ...

    @abstractmethod
    def _changed(self, user_id: int, version: int) -> None: ...

    async def would_end(
        self, user_id: int, call: Ending, variant: str | None = None
    ) -> GameView | None:
        """The game in progress (``GameView.in_progress``) that ``call`` would end and
        record, the front ends ask the player first; None when nothing would be lost: no
        such game, the call resumes it (``daily`` of today's daily in play), or the call
        would be refused anyway and says why itself (a new game over a scored daily).
        ``variant``: the game of the daily (``daily``; Virginia Reel's by default)."""
        async with self.locks(user_id):
            old = await self._old_entry(user_id)
            if old is None:
                return None
            view = await self._view(user_id, old, None)
        if not view.in_progress:
            return None
        if call == "new" and old.daily_in_play():
            return None  # refused: the daily is finished or resigned first
        today = old.daily_date == utc_date(self._clock())
        resumed = old.variant == game_code(variant or DEFAULT_VARIANT) or old.daily_in_play()
        if call == "daily" and today and resumed:
            return None  # resumed; or refused, another game's daily in play
        return view

    async def new_game(
        self,
        user_id: int,
        guild_id: int | None,
        deal_number: int | None = None,
        *,
        replaces_version: int | None = None,
        variant: str | None = None,
    ) -> GameView:
        """Deal a new game of the game ``variant`` (by default the game of the current one,
        else Virginia Reel; a random deal when None); an unfinished game is recorded first.

        With the ``winnable`` setting on, the random deal is the first from a random
        number on that the solver proves winnable (searched in the pool, as the daily's
        deal is); if the search fails, the random number itself, said to be unproven.

        ``replaces_version``: the version of the board asking (a New game button). If
        the current game is unfinished and at another version, the player has moved on
        to a game that board never showed: nothing is started or recorded, and
        ``StaleVersionError`` says so (checked under the lock: two clicks, one game).

        A scored daily still in play (not over, not stuck) is not ended by a new game:
        ``DailyInProgressError`` asks the player to finish or resign it, so that a stray
        command never spends the day's one scored attempt.
        """
        chosen = deal_number is not None
        if deal_number is None:
            deal_number = self._rng.randint(1, RANDOM_DEAL_MAX)
        try:
            check_deal_number(deal_number)
        except DealNumberError as exc:
            raise BadInputError(sentence(str(exc))) from None
        async with self.locks(user_id):
            old = await self._old_entry(user_id)  # on a shared database, with the settings
            variant = game_code(variant or (DEFAULT_VARIANT if old is None else old.variant))
            if not (await self._get_settings(user_id)).winnable:
                return await self._deal_new(
                    user_id, guild_id, deal_number, replaces_version, variant
                )
            # A refusal comes before the search, not after it; the search runs outside
            # the lock (it may take a moment), so the checks are made again after it.
            check_replace(old, replaces_version)
        # With the setting, the solver's word on the deal first: a random deal is the
        # first proven winnable from the number drawn; a chosen one gets its verdict.
        verdict, proof = None, None
        if chosen:
            verdict, proof = await self._proofs.verdict(deal_number, variant)
        elif (found := await self._proofs.winnable_from(deal_number, variant)) is not None:
            deal_number, proof = found
        note = ""
        if not chosen:
            note = " · proven winnable" if proof is not None else WINNABLE_UNPROVEN
        async with self.locks(user_id):
            return await self._deal_new(
                user_id, guild_id, deal_number, replaces_version, variant, proof, note,
                lost=verdict == "unwinnable",
            )  # fmt: skip

    async def _deal_new(
        self,
        user_id: int,
        guild_id: int | None,
        deal_number: int,
        replaces_version: int | None,
        variant: str,
        proof: tuple[Move, ...] | None = None,
        note: str = "",
        *,
        lost: bool = False,
    ) -> GameView:
        """``new_game``'s start, the player's lock held: ``note`` said of the deal, ``lost``
        if the solver has proven it can't be won."""
        old = await self._old_entry(user_id)
        check_replace(old, replaces_version)
        entry, ended = await self._start(
            user_id, guild_id, deal_number, old, proof=proof, variant=variant
        )
        message = f"New game{of_game(variant)}: deal {deal_number}{ended}{note}"
        if lost:
            entry.lost_after = ((), None)  # the hints know it from the start
            message += PROVEN_LOST
        return await self._view(user_id, entry, message + aces_note(entry))

    async def daily(
        self,
        user_id: int,
        guild_id: int | None,
        variant: str = DEFAULT_VARIANT,
        *,
        replaces_version: int | None = None,
    ) -> GameView:
        """Start today's daily of the game ``variant`` (UTC, by the service clock), or resume
        it if it is in progress.

        The user's first daily game of a date is their scored attempt; once
        it is over, another call starts an unscored replay. An unfinished
        other game (a normal one, or an earlier date's daily) is recorded
        first, as ``new_game`` does; ``replaces_version`` as in ``new_game`` (the
        version of the game the player was asked about).
        """
        today, variant = utc_date(self._clock()), game_code(variant)
        deal = await self.daily_deal(today, variant)  # outside the lock: it may take a second
        name = f"Daily {today.isoformat()}{of_game(variant)}"
        async with self.locks(user_id):
            old = await self._old_entry(user_id)
            if old is not None and not old.finished and old.daily_date == today:
                if old.variant == variant:
                    kind = "" if old.scored else " (replay, not scored)"
                    return await self._view(user_id, old, f"{name}{kind}: your game in progress")
                check_replace(old, None)  # another game's scored daily in play is not ended
            stale = replaces_version is not None and old is not None and not old.finished
            if stale and old is not None and old.version != replaces_version:
                raise StaleVersionError(NEWER_GAME_MESSAGE)  # the game asked about moved on
            try:
                scored = not await self._store.has_daily_attempt(user_id, today, variant)
            except StoreError as exc:
                raise self._storage_failure(user_id, exc) from exc
            proof = proof_of(deal)
            entry, note = await self._start(
                user_id, guild_id, deal.deal_number, old, today, scored, proof, variant
            )
            kind = "" if scored else " (replay, not scored)"
            message = f"{name}{kind}: deal {deal.deal_number}{note}"
            return await self._view(user_id, entry, message + aces_note(entry))

    async def _game_of(self, user_id: int, variant: str | None) -> str:
        """``variant`` checked; None: the game of the user's current game (Virginia Reel
        if none)."""
        old = None if variant is not None else await self._old_entry(user_id)
        return game_code(variant or (DEFAULT_VARIANT if old is None else old.variant))

    async def daily_deal(self, day: date, variant: str = DEFAULT_VARIANT) -> DailyDeal:
        """THE deal of ``day``'s daily of ``variant`` (``DailyDeals.get``): found once, then
        stored."""
        return await self._dailies.get(day, variant)

    async def _old_entry(self, user_id: int) -> GameInMemory | None:
        try:
            return await self._entry(user_id)
        except CorruptGameError:
            return None  # logged already; the new game replaces the row, recording nothing

    async def _start(
        self,
        user_id: int,
        guild_id: int | None,
        deal_number: int,
        old: GameInMemory | None,
        daily_date: date | None = None,
        scored: bool = True,
        proof: tuple[Move, ...] | None = None,
        variant: str = DEFAULT_VARIANT,
    ) -> tuple[GameInMemory, str]:
        """Deal and store a new current game over ``old`` (recorded first if unfinished and
        touched); the game, and a note on what became of ``old`` for the message. ``proof``:
        the deal's winning line if known (a daily, a proven deal): hints continue it. Lock held."""
        settings = await self._get_settings(user_id)
        now = self._clock()
        finished: FinishedGame | None = None
        note = ""
        if old is not None and not (old.finished or old.untouched() or practised(old)):
            outcome: Outcome = "lost" if old.state is Status.STUCK else "abandoned"
            finished = old.record(user_id, outcome, now)
            what = f"deal {old.game.deal_number}"
            if old.scored_daily:
                what = f"daily {old.daily_date}"
            note = f" ({what} recorded as {outcome})"
        entry = dealt(
            deal_number,
            guild_id,
            now,
            auto_aces=settings.auto_aces,
            daily_date=daily_date,
            scored=scored,
            proof=proof,
            variant_code=variant,
        )
        self.games.drop(user_id)
        try:
            start = GameStart(
                user_id=user_id,
                guild_id=guild_id,
                variant=entry.variant,
                deal_number=deal_number,
                moves=entry.moves_text,
                status=entry.status,
                started_at=now,
                replaces_version=None if old is None else old.version,
                daily_date=daily_date,
                scored=scored,
                hint_line=None if proof is None else format_line(proof),
            )
            seen = self._outside.count
            version = await self._store.start_game(start, finished)
        except StoreError as exc:
            raise self._storage_failure(user_id, exc) from exc
        if version is None:
            raise StaleVersionError()
        entry.version, entry.seen = version, seen
        self.games.put(user_id, entry)
        self._changed(user_id, version)
        return entry, note
