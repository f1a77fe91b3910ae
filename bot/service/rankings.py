"""Rankings: the leaderboards and the player figures, read-only.

See ``docs/daily.md`` for what each board ranks and how. The results and
totals they read are written by the game calls, in the same transaction as
a game's last change.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, datetime

from engine.daily import utc_date

from ..store import (
    MIN_GAMES_FOR_RATE,
    DailyDeal,
    DailyResult,
    GameStore,
    PeriodResult,
    StoreError,
    Totals,
)
from .contract import (
    MAX_PAGE_SIZE,
    LeaderboardKind,
    LeaderboardPage,
    LeaderboardRow,
    LeaderboardScope,
    PlayerStats,
)
from .dailies import DailyDeals
from .errors import BadInputError, StorageError
from .periods import PERIOD_KINDS, period_bounds

log = logging.getLogger(__name__)

UNREADABLE_BOARD = "The leaderboard can't be read just now. Try again."


class Rankings:
    """The leaderboards and stats over ``store``; today is UTC by ``clock``."""

    def __init__(
        self, store: GameStore, dailies: DailyDeals, clock: Callable[[], datetime]
    ) -> None:
        self._store = store
        self._dailies = dailies
        self._clock = clock

    async def leaderboard(
        self,
        kind: LeaderboardKind = "daily",
        scope: LeaderboardScope = "server",
        guild_id: int | None = None,
        *,
        day: date | None = None,
        page: int = 0,
        page_size: int = 10,
        variant: str = "vr",
    ) -> LeaderboardPage:
        """A page of a leaderboard of the game ``variant``. ``day`` defaults to today
        (UTC): the daily of that date, or the week or month holding it (the page's
        ``day`` is then the period's first date, ``last_day`` its last); a page past the
        end gives the last page (``page`` says which)."""
        today = utc_date(self._clock())
        day = check_query(kind, scope, guild_id, day, page, page_size, today)
        where = guild_id if scope == "server" else None
        span = _span(kind, day)
        total, rows = await self._board(where, span, page, page_size, variant)
        page_count = max(1, -(-total // page_size))
        if page >= page_count:
            page = page_count - 1
            total, rows = await self._board(where, span, page, page_size, variant)
            page_count = max(1, -(-total // page_size))
        known = await self._daily(day, variant) if kind == "daily" and day is not None else None
        return LeaderboardPage(
            kind=kind,
            scope=scope,
            guild_id=where,
            day=None if span is None else span[0],
            page=page,
            page_count=page_count,
            total=total,
            rows=tuple(rows),
            par=None if known is None else known.par,
            rating=None if known is None else known.rating,
            today=span is not None and span[0] <= today <= span[1],
            last_day=span[1] if span is not None and kind != "daily" else None,
            variant=variant,
        )

    async def stats(
        self, user_id: int, deal_number: int | None = None, variant: str = "vr"
    ) -> PlayerStats:
        """The user's figures over their finished games of ``variant`` (zeros for a new
        player), and their record on deal ``deal_number`` of it (their current game's)."""
        today = utc_date(self._clock())
        try:
            totals = await self._store.player_totals(user_id, variant)
            record = (0, 0)
            if deal_number is not None:
                record = await self._store.deal_record(user_id, deal_number, variant)
        except StoreError as exc:
            log.error("database failure reading stats of %s: %s", user_id, exc, exc_info=exc)
            raise StorageError("Your stats can't be read just now. Try again.") from exc
        if totals is None:
            return PlayerStats(
                user_id, 0, 0, 0.0, 0, 0, 0, 0, 0, deal_number, *record, variant=variant
            )
        return PlayerStats(
            user_id=user_id,
            games=totals.games,
            wins=totals.wins,
            win_rate=totals.wins / totals.games if totals.games else 0.0,
            current_streak=totals.current_streak(today),
            best_streak=totals.best_streak,
            best_score=totals.best_score,
            dailies=totals.dailies,
            daily_wins=totals.daily_wins,
            deal_number=deal_number,
            deal_games=record[0],
            deal_wins=record[1],
            variant=variant,
        )

    async def _daily(self, day: date, variant: str) -> DailyDeal | None:
        """The daily deal of ``day`` of ``variant``, if known (for its par and rating)."""
        try:
            return await self._dailies.stored(day, variant)
        except StoreError as exc:
            log.error("database failure reading the daily of %s: %s", day, exc, exc_info=exc)
            raise StorageError(UNREADABLE_BOARD) from exc

    async def _board(
        self,
        guild_id: int | None,
        span: tuple[date, date] | None,
        page: int,
        page_size: int,
        variant: str,
    ) -> tuple[int, list[LeaderboardRow]]:
        """The rows of a page of the board of the dates ``span`` (one date: a daily; more:
        a period), or of the all-time board (``span`` None), and the rows on the whole
        board."""
        offset = page * page_size
        try:
            if span is not None and span[0] == span[1]:
                total, results = await self._store.daily_board(
                    span[0], guild_id, offset, page_size, variant
                )
                return total, [daily_row(offset + i, r) for i, r in enumerate(results, 1)]
            if span is not None:
                first, last = span
                total, sums = await self._store.period_board(
                    first, last, guild_id, offset, page_size, variant
                )
                return total, [period_row(offset + i, r) for i, r in enumerate(sums, 1)]
            total, totals = await self._store.all_time_board(guild_id, offset, page_size, variant)
        except StoreError as exc:
            log.error("database failure reading a leaderboard: %s", exc, exc_info=exc)
            raise StorageError(UNREADABLE_BOARD) from exc
        return total, [all_time_row(offset + i, t) for i, t in enumerate(totals, 1)]


def _span(kind: LeaderboardKind, day: date | None) -> tuple[date, date] | None:
    """The dates a board covers: the daily's one date, a period's, none for all-time."""
    if day is None:
        return None
    if kind == "weekly" or kind == "seasonal":
        return period_bounds(kind, day)
    return day, day


def check_query(
    kind: str,
    scope: str,
    guild_id: int | None,
    day: date | None,
    page: int,
    page_size: int,
    today: date,
) -> date | None:
    """The date of the board asked for (today for a daily without one; None for all-time);
    ``BadInputError`` saying why if the board can't be asked for so."""
    if kind not in ("daily", "all-time", *PERIOD_KINDS):
        raise BadInputError(
            f"There is no {kind!r} leaderboard: choose daily, weekly, seasonal or all-time."
        )
    if scope not in ("server", "global"):
        raise BadInputError(f"There is no {scope!r} scope: choose server or global.")
    if scope == "server" and guild_id is None:
        raise BadInputError(
            "Server leaderboards need a server: use this command in a server, "
            "or choose the global leaderboard."
        )
    if page < 0:
        raise BadInputError(f"There is no page {page}: pages are numbered from 0.")
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise BadInputError(f"A page holds 1 to {MAX_PAGE_SIZE} rows, not {page_size}.")
    if kind == "all-time":
        if day is not None:
            raise BadInputError(
                "A date goes with the daily, weekly or seasonal leaderboard, not all-time."
            )
        return None
    if day is None:
        return today
    if day > today:
        what = "The daily of" if kind == "daily" else f"The {kind} board holding"
        raise BadInputError(
            f"{what} {day.isoformat()} hasn't started yet (today is {today.isoformat()} UTC)."
        )
    return day


def daily_row(rank: int, result: DailyResult) -> LeaderboardRow:
    return LeaderboardRow(
        rank=rank,
        user_id=result.user_id,
        won=result.won,
        score=result.score,
        moves=result.move_count,
        undos=result.undos,
        seconds=result.duration_s,
        wins=None,
        games=None,
        win_rate=None,
        best_streak=None,
        assisted=result.assisted,
    )


def all_time_row(rank: int, totals: Totals) -> LeaderboardRow:
    games = totals.games
    return LeaderboardRow(
        rank=rank,
        user_id=totals.user_id,
        won=None,
        score=None,
        moves=None,
        undos=None,
        seconds=None,
        wins=totals.wins,
        games=games,
        win_rate=totals.wins / games if games >= MIN_GAMES_FOR_RATE else None,
        best_streak=totals.best_streak,
    )


def period_row(rank: int, result: PeriodResult) -> LeaderboardRow:
    """A player's scored dailies of a period: ``wins`` of ``games`` dailies, ``score`` cards
    home and ``moves`` in all."""
    return LeaderboardRow(
        rank=rank,
        user_id=result.user_id,
        won=None,
        score=result.score,
        moves=result.moves,
        undos=None,
        seconds=None,
        wins=result.wins,
        games=result.dailies,
        win_rate=None,
        best_streak=None,
        assisted=result.assisted,
    )
