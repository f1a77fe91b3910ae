"""Replays of finished games, move by move, with the solver's winning line to compare.

A replay shows a recorded game at move N: its stored moves replayed from the deal
with the engine (``movelist.replay``), so what it shows is exactly what was played.
Beside it runs a second track, the solver's winning line for the same deal: the
cards it had home after as many moves ("you at move 40: 31 cards home; the solver:
44"). A daily's line is its stored proof (``daily_deals.line``); another deal's is
searched once in the solver's pool (``jobs.verdict_job``, the winnable search's
budget) and kept in memory.

What may be replayed is decided here, by the service's clock:

- a daily's game (the scored attempt, an unscored replay of it, or any game of a deal
  that is the daily of today or of tomorrow, chosen ahead) is never shown to anyone
  else before that UTC day ends; its own player may replay it at once, privately
  (``ReplayView.private``);
- a player who turned ``watchable`` off is replayed by no one else.

"A finished game" is abstract (``Recorded``): the games of ``finished_games`` are one
kind (``"g"``); another table of finished games (a race's) plugs in with ``register``,
its own kind and loader, and its replays work the same, buttons included.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Final, TypeVar

from engine import Move, describe_move, line_length, render, variant_by_code
from engine.daily import utc_date

from ..store import FinishedGame, GameStore, StoreError
from . import jobs
from .contract import Settings
from .dailies import DailyDeals
from .errors import BadInputError, StorageError, storage_reason
from .movelist import ReplayError, new_deal, replay, stored_line
from .pool import POOL_FAILURES, SolverPool

log = logging.getLogger(__name__)

T = TypeVar("T")

GAME_KIND: Final = "g"  # a game of ``finished_games``
CHOICES_LIMIT: Final = 25  # recent games offered to pick from
SOLVER_CACHE: Final = 256  # deals whose solver track is kept in memory

NOT_WATCHABLE: Final = (
    "This player has chosen not to be watched, so their games can't be replayed by others."
)
NO_SUCH_GAME: Final = "There is no finished game with that number: pick one from the list."
UNREADABLE: Final = "That game's stored moves can't be replayed, sorry: it has been reported."


@dataclass(frozen=True, slots=True)
class Recorded:
    """A finished game, whatever table keeps it: what a replay needs of it."""

    kind: str  # which table (``GAME_KIND``; a race's own)
    key: int  # its id there
    user_id: int  # whose game
    variant: str
    deal_number: int
    moves: str  # the stored move list (``bot.service.movelist``)
    outcome: str  # won, lost, abandoned, resigned
    score: int
    finished_at: datetime
    daily_date: date | None = None  # a scored daily's date


Loader = Callable[[int], Awaitable[Recorded | None]]


def recorded(game: FinishedGame) -> Recorded:
    assert game.id is not None
    return Recorded(
        kind=GAME_KIND,
        key=game.id,
        user_id=game.user_id,
        variant=game.variant,
        deal_number=game.deal_number,
        moves=game.moves,
        outcome=game.outcome,
        score=game.score,
        finished_at=game.finished_at,
        daily_date=game.daily_date,
    )


@dataclass(frozen=True, slots=True)
class SolverTrack:
    """The solver's word on a deal: its verdict ("won", "unwinnable", "unknown") and,
    when won, the cards home after each move of its winning line (index 0: the deal)."""

    verdict: str
    scores: tuple[int, ...] = ()

    @property
    def length(self) -> int:
        """Moves in the winning line (0 when there is none)."""
        return max(len(self.scores) - 1, 0)

    def at(self, move: int) -> int | None:
        """Cards home after ``move`` moves of the line (its end's when shorter); None
        without a line."""
        if not self.scores:
            return None
        return self.scores[min(move, len(self.scores) - 1)]


@dataclass(frozen=True, slots=True)
class ReplayView:
    """A recorded game at move ``move`` of ``total``, as a replay shows it."""

    kind: str
    key: int
    viewer_id: int  # who is replaying
    player_id: int  # whose game
    deal_number: int
    daily_date: date | None
    outcome: str
    finished_at: datetime
    move: int  # 0 (the deal) .. total
    total: int
    board: str  # engine.render, in the viewer's suits
    score: int  # cards home at ``move``
    card_total: int
    last_move: str | None  # the move that led here, in words (None at the deal)
    solver: SolverTrack | None  # None: not available just now
    private: bool  # a daily not yet over, replayed by its own player: shown to them only
    variant: str = "vr"  # the game of the family it is a game of

    @property
    def solver_score(self) -> int | None:
        return None if self.solver is None else self.solver.at(self.move)


@dataclass(frozen=True, slots=True)
class ReplayChoice:
    """A finished game offered to pick: its id and a line naming it."""

    key: int
    label: str


def scores_along(deal_number: int, variant: str, moves: tuple[Move, ...]) -> tuple[int, ...]:
    """Cards home at the deal and after each of ``moves``."""
    game = new_deal(deal_number, variant_by_code(variant))
    scores = [game.score]
    for move in moves:
        game.play(move)
        scores.append(game.score)
    return tuple(scores)


def choice_label(game: Recorded, today: date) -> str:
    """``2026-11-28 · deal 16 · resigned, 31/104 in 40 moves`` (a daily: ``daily 2026-11-28``)."""
    what = f"daily {game.daily_date.isoformat()}" if game.daily_date else f"deal {game.deal_number}"
    if game.variant != "vr":
        what = f"{variant_by_code(game.variant).name} {what}"
    count = line_length(game.moves)
    total = variant_by_code(game.variant).card_total
    result = "won" if game.outcome == "won" else f"{game.outcome}, {game.score}/{total}"
    when = game.finished_at.date()
    day = "today" if when == today else when.isoformat()
    return f"#{game.key} · {day} · {what} · {result} in {count} moves"


class Replays:
    """Finished games at any move, and who may see them; see the module docstring."""

    def __init__(
        self,
        store: GameStore,
        pool: SolverPool,
        dailies: DailyDeals,
        clock: Callable[[], datetime],
        settings_of: Callable[[int], Awaitable[Settings]],
    ) -> None:
        self._store = store
        self._pool = pool
        self._dailies = dailies
        self._clock = clock
        self._settings_of = settings_of
        self._loaders: dict[str, Loader] = {GAME_KIND: self._finished}
        self._tracks: OrderedDict[tuple[str, int], SolverTrack] = OrderedDict()
        self._searches: dict[tuple[str, int], asyncio.Future[SolverTrack | None]] = {}

    def register(self, kind: str, loader: Loader) -> None:
        """Replay another kind of finished game (a race's): ``loader(key)`` reads one."""
        if not kind.isalnum() or kind in self._loaders:
            raise ValueError(f"replay kind {kind!r} is taken or not alphanumeric")
        self._loaders[kind] = loader

    # ------------------------------------------------------------------ finding a game

    async def find(
        self,
        viewer_id: int,
        player_id: int | None = None,
        day: date | None = None,
        key: int | None = None,
    ) -> Recorded:
        """The game ``/reel replay`` names: by id (``key``); else ``player_id``'s (default
        the viewer's) scored daily of ``day``; else their last game the viewer may replay.
        ``BadInputError`` saying why there is none."""
        player = viewer_id if player_id is None else player_id
        own = player == viewer_id
        if key is not None:
            game = await self.load(GAME_KIND, key)
            if game is None:
                raise BadInputError(NO_SUCH_GAME)
        elif day is not None:
            found = await self._read(self._store.daily_finished(player, day))
            if found is None:
                who = "You have" if own else "This player has"
                raise BadInputError(f"{who} no finished scored daily of {day.isoformat()}.")
            game = recorded(found)
        else:
            games = await self.recent(viewer_id, player)
            if not games:
                who = "You have" if own else "This player has"
                raise BadInputError(f"{who} no finished game to replay yet.")
            game = games[0]
        await self.check(viewer_id, game)
        return game

    async def recent(self, viewer_id: int, player_id: int) -> list[Recorded]:
        """``player_id``'s last finished games (at most ``CHOICES_LIMIT``), newest first,
        that ``viewer_id`` may replay."""
        rows = await self._read(self._store.recent_finished(player_id, CHOICES_LIMIT))
        games = [recorded(row) for row in rows]
        if viewer_id == player_id:
            return games
        if not (await self._settings_of(player_id)).watchable:
            return []
        return [g for g in games if await self.hidden_until(g) is None]

    async def choices(self, viewer_id: int, player_id: int, typed: str = "") -> list[ReplayChoice]:
        """The games to pick from (``recent``), whose line contains ``typed``."""
        today = utc_date(self._clock())
        wanted = typed.strip().casefold().lstrip("#")
        lines = [
            ReplayChoice(g.key, choice_label(g, today))
            for g in await self.recent(viewer_id, player_id)
        ]
        return [c for c in lines if wanted in c.label.casefold()]

    async def load(self, kind: str, key: int) -> Recorded | None:
        loader = self._loaders.get(kind)
        return None if loader is None else await loader(key)

    async def _finished(self, key: int) -> Recorded | None:
        found = await self._read(self._store.finished_game(key))
        return None if found is None else recorded(found)

    async def hidden_until(self, game: Recorded) -> date | None:
        """The daily whose day must end before others see ``game`` (its own date, or the
        date whose daily is its deal: today's, or tomorrow's chosen ahead), or None."""
        today = utc_date(self._clock())
        if game.daily_date is not None:
            return game.daily_date if game.daily_date >= today else None
        for day in (today, today + timedelta(days=1)):
            deal = await self._dailies.stored(day, game.variant)
            if deal is not None and deal.deal_number == game.deal_number:
                return day
        return None

    async def check(self, viewer_id: int, game: Recorded) -> None:
        """Refuse (``BadInputError``) a replay of ``game`` that ``viewer_id`` may not see."""
        if viewer_id == game.user_id:
            return
        if not (await self._settings_of(game.user_id)).watchable:
            raise BadInputError(NOT_WATCHABLE)
        day = await self.hidden_until(game)
        if day is not None:
            raise BadInputError(
                f"That game is of the daily of {day.isoformat()}: it can be replayed by others "
                "once that day is over (midnight UTC), so no one can copy its moves."
            )

    # ------------------------------------------------------------------ a position

    async def position(self, viewer_id: int, kind: str, key: int, move: int) -> ReplayView:
        """The game ``kind``/``key`` at ``move`` (clamped to 0..its length) for ``viewer_id``."""
        game = await self.load(kind, key)
        if game is None:
            raise BadInputError(NO_SUCH_GAME)
        await self.check(viewer_id, game)
        try:
            played, _ = replay(game.variant, game.deal_number, game.moves)
        except ReplayError as exc:
            log.error("finished game %s/%s does not replay: %s", kind, key, exc)
            raise BadInputError(UNREADABLE) from None
        history = played.history
        move = min(max(move, 0), len(history))
        board = new_deal(game.deal_number, played.variant)
        for earlier in history[: max(move - 1, 0)]:
            board.play(earlier)
        symbols = (await self._settings_of(viewer_id)).symbols
        last = None
        if move:
            last = describe_move(board, history[move - 1], symbols)
            board.play(history[move - 1])
        hidden = viewer_id == game.user_id and await self.hidden_until(game) is not None
        return ReplayView(
            kind=kind,
            key=key,
            viewer_id=viewer_id,
            player_id=game.user_id,
            deal_number=game.deal_number,
            daily_date=game.daily_date,
            outcome=game.outcome,
            finished_at=game.finished_at,
            move=move,
            total=len(history),
            board=render(board, symbols),
            score=board.score,
            card_total=board.variant.card_total,
            last_move=last,
            solver=await self.solver_track(game),
            private=hidden,
            variant=game.variant,
        )

    # ------------------------------------------------------------------ the solver's track

    async def solver_track(self, game: Recorded) -> SolverTrack | None:
        """The solver's word on ``game``'s deal (kept once known); None when the pool fails."""
        deal_key = (game.variant, game.deal_number)
        known = self._tracks.get(deal_key)
        if known is not None:
            self._tracks.move_to_end(deal_key)
            return known
        if game.daily_date is not None:
            daily = await self._dailies.stored(game.daily_date, game.variant)
            if daily is not None and daily.line is not None:
                what = f"the daily {daily.day}"
                line = stored_line(daily.deal_number, daily.line, what, game.variant)
                if line is not None and daily.deal_number == game.deal_number:
                    return self._keep(
                        deal_key,
                        SolverTrack("won", scores_along(game.deal_number, game.variant, line)),
                    )
        search = self._searches.get(deal_key)
        if search is None:
            search = asyncio.ensure_future(self._search(game.deal_number, game.variant))
            self._searches[deal_key] = search
            search.add_done_callback(lambda _: self._searches.pop(deal_key, None))
        track = await asyncio.shield(search)
        return None if track is None else self._keep(deal_key, track)

    async def _search(self, deal_number: int, variant: str) -> SolverTrack | None:
        try:
            verdict, line = await self._pool.run(jobs.verdict_job, deal_number, variant)
        except POOL_FAILURES as exc:
            log.error("the solver's line of deal %s failed in the pool: %s", deal_number, exc)
            self._pool.reset()
            return None
        scores = scores_along(deal_number, variant, line) if line else ()
        return SolverTrack(verdict, scores)

    def _keep(self, deal_key: tuple[str, int], track: SolverTrack) -> SolverTrack:
        self._tracks[deal_key] = track
        while len(self._tracks) > SOLVER_CACHE:
            self._tracks.popitem(last=False)
        return track

    async def _read(self, call: Awaitable[T]) -> T:
        """A store read; its failure as the service's ``StorageError``."""
        try:
            return await call
        except StoreError as exc:
            log.warning("a replay's read failed: %s", exc)
            raise StorageError(reason=storage_reason(exc)) from exc
