"""The records a store reads and writes: what callers of any backend see.

Plain frozen dataclasses with no database in them. ``DailyDeal`` lives here (the
service's ``daily_rules`` makes it) so that the store imports nothing from the layers
above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Final, Literal

from engine import line_length

Outcome = Literal["won", "lost", "abandoned", "resigned"]
OUTCOMES: Final = ("won", "lost", "abandoned", "resigned")
GameStatus = Literal["playing", "stuck", "won", "resigned"]
GAME_STATUSES: Final = ("playing", "stuck", "won", "resigned")

# The all-time ranking key after wins is the win rate, none (ranked after any
# rate) below MIN_GAMES_FOR_RATE games. The SQLite schema writes the number into
# its ranking indexes (migration 2): changing it needs a migration that
# recreates them.
MIN_GAMES_FOR_RATE: Final = 5


@dataclass(frozen=True, slots=True)
class CurrentGame:
    """A user's current game as stored: the deal and the moves played since."""

    user_id: int
    guild_id: int | None
    variant: str
    deal_number: int
    moves: str  # the move list, see bot.service.movelist (engine notation joined by ";")
    status: str  # one of GAME_STATUSES for a sound row
    version: int
    undo_count: int
    started_at: datetime
    updated_at: datetime
    daily_date: date | None = None  # the daily challenge this game is (None: not a daily)
    scored: bool = True  # False for an unscored replay of a daily already played
    assisted: bool = False  # a hint was asked for in this game
    # The winning line from the deal that the hints continue (the solver's proof of
    # the deal, or the moves and line of the last hint that found one), in the
    # notation of ``moves`` without marks; None when no line is known.
    hint_line: str | None = None
    # A hint's proof that the game is lost: the moves played when the solver proved
    # it (same notation; "" for the deal itself), and the move count from which it
    # could still be won (None: none found); lost_line None when there is no proof.
    lost_line: str | None = None
    lost_back: int | None = None
    # The moves taken back that redo plays again, the next one first, in the notation
    # of ``moves`` ("" when there are none: a new move clears them).
    redo: str = ""
    # The game clock: milliseconds of play counted up to ``updated_at`` (the service
    # counts each pause between actions up to a cap: docs/rules.md, "The clock").
    played_ms: int = 0


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game over and recorded, credited to the server where it was started."""

    user_id: int
    guild_id: int | None
    variant: str
    deal_number: int
    outcome: Outcome
    score: int
    moves: str
    undos: int
    duration_s: int
    started_at: datetime
    finished_at: datetime
    daily_date: date | None = None  # set only for a user's scored daily of that date
    id: int | None = None  # given by the database
    assisted: bool = False  # a hint was asked for in this game

    @property
    def won(self) -> bool:
        return self.outcome == "won"

    @property
    def move_count(self) -> int:
        """Moves played (automatic ones included): the entries of the move list."""
        return line_length(self.moves)


@dataclass(frozen=True, slots=True)
class GameStart:
    """A new current game for a player (``GameStore.start_game``), replacing the row at
    ``replaces_version`` (None: whatever is there)."""

    user_id: int
    guild_id: int | None
    variant: str
    deal_number: int
    moves: str
    status: GameStatus
    started_at: datetime
    replaces_version: int | None
    daily_date: date | None = None
    scored: bool = True
    hint_line: str | None = None  # the deal's winning line, if proven (``CurrentGame``'s)


@dataclass(frozen=True, slots=True)
class GameUpdate:
    """A new state of a current game, written only if the row is still at ``expected_version``."""

    user_id: int
    expected_version: int
    version: int
    moves: str
    status: GameStatus
    undo_count: int
    updated_at: datetime
    redo: str = ""  # the moves redo plays again (``CurrentGame.redo``)
    played_ms: int = 0  # the game clock at ``updated_at`` (``CurrentGame.played_ms``)
    # the player's settings the new state was worked out with (automatic Aces decides
    # which moves a command plays): written only if they are still the stored ones
    settings: SettingsCheck | None = None


@dataclass(frozen=True, slots=True)
class SettingsCheck:
    """The settings a write was worked out with, checked by the write: it applies only
    if the player's stored settings are ``expected``, or ``default`` when they have none
    stored (a new player's). Values are compared, not versions: settings changed and
    changed back give the same moves."""

    expected: UserSettings
    default: UserSettings


@dataclass(frozen=True, slots=True)
class DailyResult:
    """A row of a daily leaderboard: one user's scored daily of the date."""

    user_id: int
    guild_id: int | None
    won: bool
    score: int
    move_count: int
    undos: int
    duration_s: int
    finished_at: datetime
    assisted: bool = False  # the player asked for a hint


@dataclass(frozen=True, slots=True)
class Totals:
    """A row of an all-time leaderboard: a user's totals (over one server, or everywhere)."""

    user_id: int
    games: int
    wins: int
    best_streak: int  # the user's best daily streak, everywhere


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """A user's figures over all their finished games, kept with every result."""

    user_id: int
    games: int
    wins: int
    best_score: int
    dailies: int  # scored dailies finished
    daily_wins: int
    best_streak: int
    last_daily: date | None  # the latest date of a scored daily
    daily_run: int  # consecutive dates of scored dailies ending at last_daily

    def current_streak(self, today: date) -> int:
        """The streak still alive on ``today``: the run ending today or yesterday, else 0."""
        if self.last_daily is None or (today - self.last_daily).days > 1:
            return 0
        return self.daily_run


@dataclass(frozen=True, slots=True)
class UserSettings:
    symbols: bool
    auto_aces: bool
    winnable: bool = False  # v5: a random new game is a deal the solver proved winnable
    watchable: bool = True  # v9: others may watch the player's games (/reel watch)
    reminders: bool = False  # v9: a reminder before the rollover when a streak would break
    picture: bool = False  # v11: the board drawn as a picture instead of text
    fair_hints: bool = True  # v14: hints by the blind player (False: the solver's)


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """The deal of a date's daily, with the solver's proof that it can be won."""

    day: date
    deal_number: int
    line: str | None  # the winning line, moves in notation joined by ";" (None: no proof)
    par: int | None  # the number of moves of that line (None: no proof)
    variant: str = "vr"  # the game (each game of the family has its own daily)
    rating: str | None = None  # v15: Easy, Medium, Hard or Expert (None: not rated)

    @property
    def proven(self) -> bool:
        return self.line is not None


@dataclass(frozen=True, slots=True)
class PeriodResult:
    """A row of a weekly or seasonal board: one user's scored dailies of the period, summed."""

    user_id: int
    dailies: int  # scored dailies finished in the period
    wins: int  # of them, won
    score: int  # cards home, over them all
    moves: int  # moves, over them all
    assisted: bool = False  # a hint was asked for in one of them


# ---------------------------------------------------------------------- races
# (migration 10, docs/races.md)

RaceState = Literal["lobby", "running", "over", "cancelled"]
RacerStatus = Literal["joined", "racing", "won", "left", "timed_out"]
RACE_STATES: Final = ("lobby", "running", "over", "cancelled")
RACER_STATUSES: Final = ("joined", "racing", "won", "left", "timed_out")


@dataclass(frozen=True, slots=True)
class RaceRow:
    """A race as stored."""

    race_id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    variant: str
    deal_number: int
    limit_s: int
    capacity: int
    state: RaceState
    created_at: datetime
    starts_at: datetime
    started_at: datetime | None = None
    ended_at: datetime | None = None
    message_id: int | None = None
    # v16: the computer races too, a move every this many seconds (None: no computer);
    # its racer row's user id is ``computer_id(race_id)``
    computer_pace_s: int | None = None


def computer_id(race_id: int) -> int:
    """The user id of race ``race_id``'s computer racer: the race's id, negated (no user
    of Discord, nor the terminal's player, has a negative id)."""
    return -race_id


@dataclass(frozen=True, slots=True)
class RacerRow:
    """A racer of a race and their game as stored (the moves in the notation of
    ``current_games.moves``), with their place once the race is over."""

    race_id: int
    user_id: int
    joined_at: datetime
    status: RacerStatus
    moves: str = ""
    version: int = 0
    undo_count: int = 0
    score: int = 0
    move_count: int = 0
    elapsed_s: float = 0.0
    place: int | None = None


@dataclass(frozen=True, slots=True)
class RaceRecord:
    """A player's races over: how many, how many won (first place), their best place."""

    played: int
    won: int
    best_place: int | None
