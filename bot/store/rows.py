"""Stored rows to records and back, for every backend: the columns read and their values.

Both schemas (``sqlite/migrations/``, ``postgres/migrations/``) store the same columns
the same way: timestamps and dates as ISO 8601 text, flags as 0/1. So one set of column
lists and converters serves both backends (each backend's SQL only differs in dialect).
A value of the wrong type (a row written by hand or by a bug) raises ``CorruptRowError``
naming the column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from datetime import date, datetime
from typing import Any, Final

from .errors import CorruptRowError
from .records import (
    OUTCOMES,
    RACE_STATES,
    RACER_STATUSES,
    CurrentGame,
    DailyDeal,
    DailyResult,
    FinishedGame,
    GameStart,
    GameUpdate,
    PeriodResult,
    PlayerTotals,
    RaceRow,
    RacerRow,
    Totals,
    UserSettings,
)

Row = tuple[Any, ...]

# The columns read, in the order the converters below take them.
CURRENT_COLUMNS: Final = (
    "user_id, guild_id, variant, deal_number, moves, status, version, undo_count, "
    "started_at, updated_at, daily_date, scored, assisted, hint_line, lost_line, lost_back, "
    "redo_moves, played_ms"
)
FINISHED_COLUMNS: Final = (
    "id, user_id, guild_id, variant, deal_number, outcome, score, moves, undos, duration_s, "
    "started_at, finished_at, daily_date, assisted"
)
RACE_COLUMNS: Final = (
    "race_id, guild_id, channel_id, host_id, variant, deal_number, limit_s, capacity, state, "
    "created_at, starts_at, started_at, ended_at, message_id, computer_pace_s"
)
RACER_COLUMNS: Final = (
    "race_id, user_id, joined_at, status, moves, version, undo_count, score, move_count, "
    "elapsed_s, place"
)

SETTINGS_FLAGS: Final = tuple(flag.name for flag in fields(UserSettings))  # its columns' names
# A player's stored settings as one number, a bit a flag (``settings_mask``): what a
# checked write (``GameUpdate.settings``) compares in its WHERE.
SETTINGS_MASK: Final = " + ".join(f"{flag} * {1 << i}" for i, flag in enumerate(SETTINGS_FLAGS))


def settings_mask(settings: UserSettings) -> int:
    return sum(int(getattr(settings, flag)) << i for i, flag in enumerate(SETTINGS_FLAGS))


def timestamp(value: datetime) -> str:
    return value.isoformat()


def parse_timestamp(value: object, column: str) -> datetime:
    if not isinstance(value, str):
        raise CorruptRowError(f"{column} is {value!r}, not a timestamp")
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise CorruptRowError(f"{column} is {value!r}, not a timestamp") from None


def parse_date(value: object, column: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(as_text(value, column))
    except ValueError:
        raise CorruptRowError(f"{column} is {value!r}, not a date") from None


def as_int(value: object, column: str) -> int:
    if not isinstance(value, int):
        raise CorruptRowError(f"{column} is {value!r}, not a whole number")
    return value


def opt_int(value: object, column: str) -> int | None:
    return None if value is None else as_int(value, column)


def as_text(value: object, column: str) -> str:
    if not isinstance(value, str):
        raise CorruptRowError(f"{column} is {value!r}, not text")
    return value


def current_from_row(row: Row) -> CurrentGame:
    user_id, guild_id, variant, deal_number, moves, status, version, undo_count = row[:8]
    started_at, updated_at, daily_date, scored, assisted, hint_line, lost_line = row[8:15]
    lost_back, redo, played_ms = row[15:]
    if scored not in (0, 1):
        raise CorruptRowError(f"scored is {scored!r}, not 0 or 1")
    if assisted not in (0, 1):
        raise CorruptRowError(f"assisted is {assisted!r}, not 0 or 1")
    return CurrentGame(
        user_id=as_int(user_id, "user_id"),
        guild_id=opt_int(guild_id, "guild_id"),
        variant=as_text(variant, "variant"),
        deal_number=as_int(deal_number, "deal_number"),
        moves=as_text(moves, "moves"),
        status=as_text(status, "status"),
        version=as_int(version, "version"),
        undo_count=as_int(undo_count, "undo_count"),
        started_at=parse_timestamp(started_at, "started_at"),
        updated_at=parse_timestamp(updated_at, "updated_at"),
        daily_date=parse_date(daily_date, "daily_date"),
        scored=bool(scored),
        assisted=bool(assisted),
        hint_line=None if hint_line is None else as_text(hint_line, "hint_line"),
        lost_line=None if lost_line is None else as_text(lost_line, "lost_line"),
        lost_back=opt_int(lost_back, "lost_back"),
        redo=as_text(redo, "redo_moves"),
        played_ms=as_int(played_ms, "played_ms"),
    )


def daily_deal_from_row(day: date, row: Row, variant: str = "vr") -> DailyDeal:
    deal_number, line, par, rating = row
    return DailyDeal(
        day=day,
        deal_number=as_int(deal_number, "deal_number"),
        line=None if line is None else as_text(line, "line"),
        par=opt_int(par, "par"),
        variant=variant,
        rating=None if rating is None else as_text(rating, "rating"),
    )


def finished_from_row(row: Row) -> FinishedGame:
    id_, user_id, guild_id, variant, deal_number, outcome, score, moves = row[:8]
    undos, duration_s, started_at, finished_at, daily_date, assisted = row[8:]
    if outcome not in OUTCOMES:
        raise CorruptRowError(f"outcome is {outcome!r}")
    return FinishedGame(
        id=as_int(id_, "id"),
        user_id=as_int(user_id, "user_id"),
        guild_id=opt_int(guild_id, "guild_id"),
        variant=as_text(variant, "variant"),
        deal_number=as_int(deal_number, "deal_number"),
        outcome=outcome,
        score=as_int(score, "score"),
        moves=as_text(moves, "moves"),
        undos=as_int(undos, "undos"),
        duration_s=as_int(duration_s, "duration_s"),
        started_at=parse_timestamp(started_at, "started_at"),
        finished_at=parse_timestamp(finished_at, "finished_at"),
        daily_date=parse_date(daily_date, "daily_date"),
        assisted=bool(assisted),
    )


def daily_deal_params(deal: DailyDeal) -> tuple[object, ...]:
    """The parameters ``SAVE_DAILY_DEAL_SQL`` takes, in order; the first two (the date and
    the game) are ``DAILY_DEAL_SQL``'s, which reads the stored one back."""
    return (deal.day.isoformat(), deal.variant, deal.deal_number, deal.line, deal.par, deal.rating)


def start_params(g: GameStart) -> dict[str, object]:
    return {
        "user_id": g.user_id,
        "guild_id": g.guild_id,
        "variant": g.variant,
        "deal_number": g.deal_number,
        "moves": g.moves,
        "status": g.status,
        "started_at": timestamp(g.started_at),
        "replaces_version": g.replaces_version,
        "daily_date": None if g.daily_date is None else g.daily_date.isoformat(),
        "scored": int(g.scored),
        "hint_line": g.hint_line,
    }


def update_params(u: GameUpdate) -> dict[str, object]:
    return {
        "version": u.version,
        "moves": u.moves,
        "status": u.status,
        "undo_count": u.undo_count,
        "redo": u.redo,
        "updated_at": timestamp(u.updated_at),
        "played_ms": u.played_ms,
        "user_id": u.user_id,
        "expected_version": u.expected_version,
        # None: not checked; else the settings' mask as stored, or as a new player's
        "settings": None if u.settings is None else settings_mask(u.settings.expected),
        "default_settings": None if u.settings is None else settings_mask(u.settings.default),
    }


def finished_params(f: FinishedGame) -> dict[str, object]:
    """The parameters ``record_results`` takes for one finished game."""
    return {
        "user_id": f.user_id,
        "guild_id": f.guild_id,
        "variant": f.variant,
        "deal_number": f.deal_number,
        "outcome": f.outcome,
        "won": int(f.won),
        "score": f.score,
        "moves": f.moves,
        "undos": f.undos,
        "duration_s": f.duration_s,
        "started_at": timestamp(f.started_at),
        "finished_at": timestamp(f.finished_at),
        "daily_date": None if f.daily_date is None else f.daily_date.isoformat(),
        "move_count": f.move_count,
        "assisted": int(f.assisted),
    }


def daily_result_from_row(r: Row) -> DailyResult:
    return DailyResult(
        user_id=as_int(r[0], "user_id"),
        guild_id=opt_int(r[1], "guild_id"),
        won=bool(r[2]),
        score=as_int(r[3], "score"),
        move_count=as_int(r[4], "move_count"),
        undos=as_int(r[5], "undos"),
        duration_s=as_int(r[6], "duration_s"),
        finished_at=parse_timestamp(r[7], "finished_at"),
        assisted=bool(r[8]),
    )


def totals_from_row(r: Row) -> Totals:
    return Totals(
        user_id=as_int(r[0], "user_id"),
        games=as_int(r[1], "games"),
        wins=as_int(r[2], "wins"),
        best_streak=as_int(r[3], "best_streak"),
    )


def player_totals_from_row(row: Row) -> PlayerTotals:
    user, games, wins, best_score, dailies, daily_wins, best_streak = (
        as_int(value, "player_totals") for value in row[:7]
    )
    return PlayerTotals(
        user_id=user,
        games=games,
        wins=wins,
        best_score=best_score,
        dailies=dailies,
        daily_wins=daily_wins,
        best_streak=best_streak,
        last_daily=parse_date(row[7], "last_daily"),
        daily_run=as_int(row[8], "daily_run"),
    )


def settings_from_row(row: Row) -> UserSettings:
    return UserSettings(
        symbols=bool(row[0]),
        auto_aces=bool(row[1]),
        winnable=bool(row[2]),
        watchable=bool(row[3]),
        reminders=bool(row[4]),
        picture=bool(row[5]),
        fair_hints=bool(row[6]),
    )


def period_result_from_row(r: Row) -> PeriodResult:
    return PeriodResult(
        user_id=as_int(r[0], "user_id"),
        dailies=as_int(r[1], "dailies"),
        wins=as_int(r[2], "wins"),
        score=as_int(r[3], "cards"),
        moves=as_int(r[4], "moves"),
        assisted=bool(r[5]),
    )


# --------------------------------------------------------------------------- races


def row_int(value: object, column: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CorruptRowError(f"{column} is {value!r}, not an integer")
    return value


def _when(value: object, column: str) -> datetime | None:
    return None if value is None else parse_timestamp(value, column)


def race_from_row(row: Sequence[Any]) -> RaceRow:
    state = row[8]
    if state not in RACE_STATES:
        raise CorruptRowError(f"races.state is {state!r}")
    return RaceRow(
        race_id=row_int(row[0], "races.race_id"),
        guild_id=None if row[1] is None else row_int(row[1], "races.guild_id"),
        channel_id=row_int(row[2], "races.channel_id"),
        host_id=row_int(row[3], "races.host_id"),
        variant=str(row[4]),
        deal_number=row_int(row[5], "races.deal_number"),
        limit_s=row_int(row[6], "races.limit_s"),
        capacity=row_int(row[7], "races.capacity"),
        state=state,
        created_at=parse_timestamp(row[9], "races.created_at"),
        starts_at=parse_timestamp(row[10], "races.starts_at"),
        started_at=_when(row[11], "races.started_at"),
        ended_at=_when(row[12], "races.ended_at"),
        message_id=None if row[13] is None else row_int(row[13], "races.message_id"),
        computer_pace_s=None if row[14] is None else row_int(row[14], "races.computer_pace_s"),
    )


def racer_from_row(row: Sequence[Any]) -> RacerRow:
    status = row[3]
    if status not in RACER_STATUSES:
        raise CorruptRowError(f"racers.status is {status!r}")
    return RacerRow(
        race_id=row_int(row[0], "racers.race_id"),
        user_id=row_int(row[1], "racers.user_id"),
        joined_at=parse_timestamp(row[2], "racers.joined_at"),
        status=status,
        moves=str(row[4]),
        version=row_int(row[5], "racers.version"),
        undo_count=row_int(row[6], "racers.undo_count"),
        score=row_int(row[7], "racers.score"),
        move_count=row_int(row[8], "racers.move_count"),
        elapsed_s=float(row[9]),
        place=None if row[10] is None else row_int(row[10], "racers.place"),
    )


def racer_params(racer: RacerRow, expected_version: int) -> dict[str, object]:
    return {
        "race_id": racer.race_id,
        "user_id": racer.user_id,
        "status": racer.status,
        "moves": racer.moves,
        "version": racer.version,
        "undo_count": racer.undo_count,
        "score": racer.score,
        "move_count": racer.move_count,
        "elapsed_s": racer.elapsed_s,
        "place": racer.place,
        "expected_version": expected_version,
    }
