"""What a store does, whatever the database: the API the service calls.

``GameStore`` is the contract every backend implements (SQLite,
``bot.store.sqlite.SQLiteStore``, and PostgreSQL, ``bot.store.postgres.PostgresStore``).
It speaks in the records of ``bot.store.records`` and raises only the errors of
``bot.store.errors``.

What every backend promises:

- Each call is one operation, atomic: a write applies whole or not at all, and
  a call that writes a current game and records a finished one does both in
  one transaction.
- Once a call has reached the database it runs to its end even if the caller
  is cancelled (the result is then simply not delivered).
- Versions: a write carries the version it expects and applies nothing if the
  row has moved on (``False`` / ``None``, never an exception).
- A call returns only after its transaction is durable.
- Changes made by other processes (a shared database) are told to whoever follows them
  (``follow_changes``), at least once each, soon after they are made (PostgreSQL). A
  backend that can't say what changed (SQLite) says at least that something did, when
  asked (``outside_writes``): its caller then checks what it remembers before using it.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Literal, Protocol, Self, TypeVar

from .errors import StoreBusyError, StoreError
from .records import (
    CurrentGame,
    DailyDeal,
    DailyResult,
    FinishedGame,
    GameStart,
    GameUpdate,
    PeriodResult,
    PlayerTotals,
    RaceRecord,
    RaceRow,
    RacerRow,
    RaceState,
    Totals,
    UserSettings,
)

_T = TypeVar("_T")
OperationOutcome = Literal["ok", "busy", "error"]
"""How a store operation ended, for ``GameStore.on_operation``: done, refused as busy
(``StoreBusyError``: nothing applied), or failed otherwise."""


class ChangeListener(Protocol):
    """Who follows the changes other processes make to a shared database
    (``GameStore.follow_changes``). Called in the event loop; none may block."""

    def game_changed(self, user_id: int, version: int) -> None:
        """A player's current game was stored at ``version`` (a move, a new game...)."""

    def race_changed(self, race_id: int) -> None:
        """A race's rows changed (a racer joined or moved, it started or ended...)."""

    def reconnected(self) -> None:
        """The changes may have missed some (the connection they come by was lost, and is
        back): what is followed is to be read again, from the stored versions."""


class RaceStore(ABC):
    """The races and their racers' games (``docs/races.md``), reached as ``store.races``.
    Each call is one operation of the store, with the promises above: atomic (a start or
    an end writes the race and all its racers in one transaction), versioned, durable."""

    @abstractmethod
    async def open_race(self, race: RaceRow) -> int:
        """Store a new race in its lobby with its host as its first racer; its id."""

    @abstractmethod
    async def add_racer(self, race_id: int, user_id: int, joined_at: datetime) -> None:
        """A player joins a race in its lobby."""

    @abstractmethod
    async def remove_racer(self, race_id: int, user_id: int) -> None:
        """A racer leaves a race still in its lobby (nothing of theirs is kept)."""

    @abstractmethod
    async def set_message(self, race_id: int, message_id: int) -> None:
        """The race's lobby (later standings) message."""

    @abstractmethod
    async def start_race(
        self, race_id: int, started_at: datetime, racers: Sequence[RacerRow]
    ) -> None:
        """The race starts: its state and every racer's first game state, at once."""

    @abstractmethod
    async def save_racer(self, racer: RacerRow, expected_version: int) -> bool:
        """A racer's game moved on; False (nothing written) if not at ``expected_version``,
        or if the race is no longer running (ended by another process meanwhile)."""

    @abstractmethod
    async def end_race(
        self,
        race_id: int,
        state: RaceState,
        ended_at: datetime,
        racers: Sequence[tuple[RacerRow, int]],
    ) -> bool:
        """The race is over (or cancelled): its state, each racer's last state and place
        (with the version each is expected at), in one transaction; False, nothing written,
        if a racer's row is not at the version expected (moved by another process)."""

    @abstractmethod
    async def open_races(self) -> list[tuple[RaceRow, list[RacerRow]]]:
        """Every race in its lobby or running, with its racers (for a restart)."""

    @abstractmethod
    async def load_race(self, race_id: int) -> tuple[RaceRow, list[RacerRow]] | None:
        """A race and its racers, None if there is no such race."""

    @abstractmethod
    async def record(self, user_id: int) -> RaceRecord:
        """The user's races over: played, won, best place."""

    @abstractmethod
    async def racer_key(self, race_id: int, user_id: int) -> int | None:
        """A racer's game's number (stable, unique among racers' games), for replays."""

    @abstractmethod
    async def racer_by_key(self, key: int) -> tuple[RaceRow, RacerRow] | None:
        """The race and the racer whose game ``racer_key`` numbered, None if none."""


class GameStore(ABC):
    """The game database. ``async with`` a store connects it and closes it.
    ``races``: its races (``RaceStore``)."""

    races: RaceStore
    shared: bool = False
    """Whether other processes may write the same database (PostgreSQL): a caller then
    checks what it remembers of a game against ``game_version`` before using it."""

    async def game_version(self, user_id: int) -> int | None:
        """The stored version of the user's current game, None if none (a cheap read)."""
        game = await self.load_game(user_id)
        return None if game is None else game.version

    async def game_version_and_settings(
        self, user_id: int
    ) -> tuple[int | None, UserSettings | None]:
        """``game_version`` and ``load_settings`` of the user at once: what a command on
        a shared database checks first (a backend answers both in one round trip)."""
        return await self.game_version(user_id), await self.load_settings(user_id)

    async def game_versions(self, user_ids: Collection[int]) -> dict[int, int]:
        """The stored versions of these players' current games (those who have one):
        what a follower of changes reads to catch up after missing some."""
        found = {user: await self.game_version(user) for user in user_ids}
        return {user: version for user, version in found.items() if version is not None}

    async def outside_writes(self) -> int:
        """How many times this store has found, when asked, that another process (another
        connection) had committed to the database since it last looked: the same number
        again means nothing was written by anyone else in between, so what the caller read
        before asking is still as stored. A cheap call, a round trip to the database with
        no read of a table: SQLite asks ``PRAGMA data_version`` on the store's connection,
        which changes when another connection commits, never for its own commits.

        A backend that tells of every change (``follow_changes``) and whose callers check
        what they remember against the stored version anyway (``shared``: PostgreSQL)
        answers 0, always."""
        return 0

    change_listeners: tuple[ChangeListener, ...] = ()
    tells_changes: bool = False
    """Whether ``follow_changes`` tells of other processes' changes (PostgreSQL)."""

    def follow_changes(self, listener: ChangeListener) -> None:
        """Tell ``listener`` of the changes other processes make to the database, from now
        on (``ChangeListener``). A backend that can't tell what another process wrote
        (SQLite) tells it nothing: its caller asks ``outside_writes`` instead."""
        self.change_listeners = (*self.change_listeners, listener)

    _operation_listeners: tuple[Callable[[float, OperationOutcome], None], ...] = ()

    def on_operation(self, listener: Callable[[float, OperationOutcome], None]) -> None:
        """Call ``listener(seconds, outcome)`` after each operation on the database (the
        wait for a connection included): metrics. It must not block or raise."""
        self._operation_listeners = (*self._operation_listeners, listener)

    async def timed(self, operation: Awaitable[_T]) -> _T:
        """Await ``operation`` (a backend's), telling the ``on_operation`` listeners how long
        it took and how it ended: "busy" for ``StoreBusyError``, "error" for another
        ``StoreError``, else "ok" (a write refused at a stale version is done: "ok")."""
        started = time.perf_counter()
        outcome: OperationOutcome = "ok"
        try:
            return await operation
        except StoreBusyError:
            outcome = "busy"
            raise
        except StoreError:
            outcome = "error"
            raise
        finally:
            seconds = time.perf_counter() - started
            for listener in self._operation_listeners:
                listener(seconds, outcome)

    async def ping(self) -> None:
        """Read something small from the database: returns if it answers, else raises
        ``StoreError`` (a health check)."""
        await self.schema_version()

    @abstractmethod
    async def connect(self) -> None:
        """Open the database (creating it if needed) and apply pending migrations.

        ``SchemaTooNewError`` if it was written by a newer program;
        ``StoreUnavailableError`` if it can't be opened. Connecting an open store
        does nothing.
        """

    @abstractmethod
    async def close(self) -> None:
        """Close the database; operations already under way finish first."""

    @abstractmethod
    def on_reopen(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` whenever the database is opened again under the caller (a
        file replaced, a connection lost): what the caller remembers of its rows may be
        out of date. A backend that never reopens calls it never."""

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of migrations applied to the database."""

    # ------------------------------------------------------------------ current games

    @abstractmethod
    async def load_game(self, user_id: int) -> CurrentGame | None:
        """The user's current game, or None. ``CorruptRowError`` if a value has the wrong type."""

    @abstractmethod
    async def start_game(
        self, start: GameStart, finished: FinishedGame | None = None
    ) -> int | None:
        """Make the player's new current game ``start``, recording ``finished`` (the one
        it replaces) in the same transaction.

        The new game's version is one more than the row it replaces (1 for a
        first game), so versions never repeat for a user. With
        ``start.replaces_version`` set, the old row must still be at that version;
        with None, whatever is there is replaced. Returns the new version, or
        None (and writes nothing) if the old row had moved on, or if the game
        is a scored daily and the user's scored attempt of that date already
        exists (another process started it meanwhile).
        """

    @abstractmethod
    async def save_game(self, update: GameUpdate, finished: FinishedGame | None = None) -> bool:
        """Write a new state of a current game (and record it as finished, atomically).

        Returns False, writing nothing, if the row is no longer at
        ``update.expected_version`` (changed by another process) or is gone, or if
        ``update.settings`` is given and the player's stored settings are not the ones
        it expects (``SettingsCheck``).
        """

    @abstractmethod
    async def mark_assisted(
        self,
        user_id: int,
        version: int,
        hint_line: str | None = None,
        lost: tuple[str, int | None] | None = None,
    ) -> bool:
        """Mark the user's current game assisted (a hint was asked for), and keep
        ``hint_line`` as its hint line if given, and ``lost`` (``lost_line``,
        ``lost_back``) as its proof of loss if given (None keeps what is stored);
        its version stays.

        Returns False, writing nothing, if the row is no longer at ``version``.
        """

    # ------------------------------------------------------------------ finished games

    @abstractmethod
    async def finished_games(self, user_id: int | None = None) -> list[FinishedGame]:
        """Recorded games, oldest first: one user's, or everyone's."""

    @abstractmethod
    async def finished_game(self, game_id: int) -> FinishedGame | None:
        """The recorded game with this id (``FinishedGame.id``), or None."""

    @abstractmethod
    async def recent_finished(self, user_id: int, limit: int) -> list[FinishedGame]:
        """The user's last ``limit`` recorded games, the newest first."""

    # ------------------------------------------------------------------ daily and leaderboards

    @abstractmethod
    async def has_daily_attempt(self, user_id: int, day: date, variant: str = "vr") -> bool:
        """Whether the user has started their scored daily of ``day`` (finished or not)
        of the game ``variant``."""

    @abstractmethod
    async def daily_board(
        self, day: date, guild_id: int | None, offset: int, limit: int, variant: str = "vr"
    ) -> tuple[int, list[DailyResult]]:
        """(total, rows) of the daily leaderboard of ``day`` of the game ``variant``: one
        server's, or global (None).

        Ranked won first, then more cards home, fewer moves, earlier finish
        (then user id).
        """

    @abstractmethod
    async def all_time_board(
        self, guild_id: int | None, offset: int, limit: int, variant: str = "vr"
    ) -> tuple[int, list[Totals]]:
        """(total, rows) of the all-time leaderboard of the game ``variant``: one server's,
        or global (None).

        Ranked by wins, then win rate (none below ``MIN_GAMES_FOR_RATE``
        games, ranked after any rate), then games, then user id.
        """

    @abstractmethod
    async def player_totals(self, user_id: int, variant: str = "vr") -> PlayerTotals | None:
        """The user's totals in the game ``variant``, or None if they have finished no game
        of it."""

    @abstractmethod
    async def deal_record(
        self, user_id: int, deal_number: int, variant: str = "vr"
    ) -> tuple[int, int]:
        """(games, wins): the user's finished games of deal ``deal_number`` of ``variant``."""

    @abstractmethod
    async def load_daily_deal(self, day: date, variant: str = "vr") -> DailyDeal | None:
        """The stored deal of ``day``'s daily of ``variant``, or None if none was chosen yet."""

    @abstractmethod
    async def save_daily_deal(self, deal: DailyDeal) -> DailyDeal:
        """Store ``deal`` unless its date and game have one already; returns the one stored.

        The first writer wins (another process may have chosen the date's deal
        meanwhile), so a date's deal never changes once stored.
        """

    @abstractmethod
    async def save_daily_rating(self, day: date, variant: str, rating: str) -> DailyDeal | None:
        """Rate the stored deal of ``day``'s daily of ``variant``, unless it is rated already
        (the first rating stays: it never changes); the deal as stored, None if none is."""

    @abstractmethod
    async def daily_finished(
        self, user_id: int, day: date, variant: str = "vr"
    ) -> FinishedGame | None:
        """The user's scored daily of ``day`` of ``variant`` if it is over (recorded), or None."""

    @abstractmethod
    async def best_daily_run(self, day: date, variant: str = "vr") -> FinishedGame | None:
        """The best recorded scored daily of ``day`` of ``variant`` everywhere, ranked as the daily
        leaderboard ranks (``daily_board``), or None if no one has finished it."""

    # ------------------------------------------------------------------ settings

    @abstractmethod
    async def load_settings(self, user_id: int) -> UserSettings | None:
        """The user's settings, or None if they never saved any."""

    @abstractmethod
    async def save_settings(self, user_id: int, settings: UserSettings) -> None:
        """Replace the user's settings."""

    # ------------------------------------------------------------------ bulk

    @abstractmethod
    async def import_results(self, records: Iterable[Mapping[str, object]]) -> int:
        """Write finished games (rows of ``finished_games`` as dicts) with their totals,
        in one transaction; how many were written."""

    # ------------------------------------------------------------------ periods, reminders

    @abstractmethod
    async def period_board(
        self,
        first: date,
        last: date,
        guild_id: int | None,
        offset: int,
        limit: int,
        variant: str = "vr",
    ) -> tuple[int, list[PeriodResult]]:
        """(total, rows) of the board of the scored dailies of ``variant`` dated ``first``
        to ``last`` (both included), one row per player: one server's, or global (None). Ranked by
        dailies won, then cards home in all, fewer moves in all, more dailies, user id."""

    @abstractmethod
    async def reminder_candidates(self, today: date) -> list[tuple[int, int]]:
        """(user id, current streak) of the players with the streak reminder on (of Virginia
        Reel's daily, the default game's) whose
        latest scored daily is the day before ``today`` and who have not started
        ``today``'s scored daily, by user id."""
