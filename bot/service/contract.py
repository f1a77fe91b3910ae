"""The contract both front ends import: what the service's calls answer.

Plain frozen values, built by the service and shown by the front ends
(``bot.discord_bot.embeds``, ``bot.terminal``); no behaviour beyond a
property or two. The errors the calls raise are in ``bot.service.errors``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Final, Literal, TypedDict

from engine import Status
from engine.solver.hints import HintSource

from ..store import MIN_GAMES_FOR_RATE

__all__ = [
    "CONFIRM_UNDO",
    "LOCAL_USER_ID",
    "MAX_PAGE_SIZE",
    "MIN_GAMES_FOR_RATE",
    "GameView",
    "HintView",
    "LeaderboardKind",
    "LeaderboardPage",
    "LeaderboardRow",
    "LeaderboardScope",
    "MoveChoice",
    "PlayerStats",
    "Settings",
    "format_duration",
    "utcnow",
]

LOCAL_USER_ID: Final = 0
"""The one local player of the terminal game and of ``reel web``: one save, both ways."""
CONFIRM_UNDO: Final = 10  # an undo of more moves than this is asked about first
MAX_PAGE_SIZE: Final = 50  # rows on a leaderboard page, at most
LeaderboardKind = Literal["daily", "all-time", "weekly", "seasonal"]
LeaderboardScope = Literal["server", "global"]


def format_duration(seconds: int | None) -> str:
    """Seconds as both front ends show them: ``m:ss`` or ``h:mm:ss``; ``—`` when unknown."""
    if seconds is None or seconds < 0:
        return "—"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def utcnow() -> datetime:
    """The service's default clock."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class MoveChoice:
    text: str  # the move in notation, e.g. "R3 A5", "R6 ACE", "deal"
    label: str  # in words, e.g. "R3 5♥ → A5 on 2♥"
    # The engine's warning, in a few words, if the move opens a space that no available
    # card can fill while the stock has cards (``Game.space_warning``); else None.
    note: str | None = None


@dataclass(frozen=True, slots=True)
class GameView:
    """Everything a front end needs to show a game after a call."""

    user_id: int
    guild_id: int | None  # server where the game was started (None: DM / terminal)
    deal_number: int
    board: str  # engine.render(...) with the user's suit setting
    status: Status  # PLAYING / WON / STUCK
    score: int  # cards on foundations 0..104
    move_count: int
    undo_count: int
    deals_left: int
    version: int  # game version counter; +1 on every change of the game
    can_deal: bool
    can_undo: bool
    can_auto: bool  # a safe move (reserve Ace -> Ace pile) is available
    message: str | None  # what just happened
    warning: str | None  # the engine's SpaceWarning message for the last move
    finished: bool  # the game is over and recorded (won, resigned, abandoned)
    daily_date: date | None = None  # the date of the daily this game is (None: not a daily)
    scored: bool = True  # False for an unscored replay of a daily already played that day
    share_text: str | None = None  # after a scored daily ends: a spoiler-free line to post
    next_daily_at: datetime | None = None  # for a daily: when the next one starts (UTC midnight)
    # For a daily of an earlier date (still shown after midnight): today, whose daily is open.
    later_daily: date | None = None
    assisted: bool = False  # a hint was asked for in this game (marked on the daily board)
    par: int | None = None  # for a daily: moves in the solver's winning line (None: no proof)
    # The legal moves but the deal, most useful first (``move_choices``' order), while
    # the game is in play: what a front end offers to click (the deal has its own button).
    moves: tuple[MoveChoice, ...] = ()
    # The game clock, while in play: seconds since the deal, and when the deal was. Not
    # compared: two views of the same game at two moments are equal.
    elapsed_s: int | None = field(default=None, compare=False)
    started_at: datetime | None = field(default=None, compare=False)
    can_redo: bool = False  # moves taken back wait to be played again
    redo_count: int = 0  # how many (commands, as undo counts them)
    practice: bool = False  # a past date's daily played unscored (``/reel daily date:``)
    ghost: str | None = None  # a daily with the ghost on: the day's best run at this move
    # The position (``engine.format_position``), for a front end that draws the board
    # (``bot.pictures``), and whether the player asked for it drawn (``Settings.picture``).
    position: str = ""
    picture: bool = False
    variant: str = "vr"  # the game of the family (``engine.VARIANTS``) this one is of
    undoable: int = 0  # commands that undo can take back now (as ``redo_count`` counts)
    rating: str | None = None  # for a daily: its difficulty (docs/daily.md); None: unrated

    @property
    def in_progress(self) -> bool:
        """A game in play that a new game or resigning would end and record (front ends
        ask first): one with moves of the player's, or a scored daily even untouched
        (ending it spends the day's one scored attempt)."""
        if self.finished or self.status is not Status.PLAYING:
            return False
        return self.can_undo or self.undo_count > 0 or self.can_redo or self.daily_in_play

    @property
    def daily_in_play(self) -> bool:
        """A scored daily neither over nor stuck: the service refuses to end it with a new
        game (``DailyInProgressError``), so front ends don't ask about that."""
        daily = self.daily_date is not None and self.scored and not self.practice
        return daily and not self.finished and self.status is not Status.STUCK

    @property
    def hint_marks_assisted(self) -> bool:
        """Whether a hint now would newly mark a scored daily as assisted (front ends warn)."""
        daily = self.daily_date is not None and self.scored
        return daily and not self.assisted and not self.finished


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """A line of a leaderboard: the daily fields or the all-time fields are set, not both."""

    rank: int  # 1-based position on the whole board
    user_id: int
    won: bool | None  # daily: the scored attempt's result
    score: int | None  # daily: cards home 0..104
    moves: int | None  # daily
    undos: int | None  # daily
    seconds: int | None  # daily: from the deal to the end
    wins: int | None  # all-time
    games: int | None  # all-time
    win_rate: float | None  # all-time: wins / games, None below MIN_GAMES_FOR_RATE games
    best_streak: int | None  # all-time: the user's best daily streak (everywhere)
    assisted: bool = False  # daily: the player asked for a hint in that game


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    kind: LeaderboardKind
    scope: LeaderboardScope
    guild_id: int | None  # the server (None for global)
    day: date | None  # the daily's date (None for all-time)
    page: int  # 0-based, clamped to the last page
    page_count: int  # at least 1, even for an empty board
    total: int  # rows on the whole board
    rows: tuple[LeaderboardRow, ...]
    par: int | None = None  # daily: moves in the solver's winning line of the date's deal
    today: bool = False  # daily: the date is today (UTC), the daily that ``daily`` deals
    last_day: date | None = None  # weekly, seasonal: the period's last date (``day``: its first)
    variant: str = "vr"  # the game whose board this is (each game has its own)
    rating: str | None = None  # daily: the deal's difficulty (docs/daily.md), None unrated


@dataclass(frozen=True, slots=True)
class HintView:
    """The answer to ``hint``: what to play next, in notation and in words, and why.

    ``source`` says how sure the hint is (``engine.solver.hints``): "solver" (the
    first move of a winning line the solver found; ``remaining`` moves are
    left in that line, this one included), "heuristic" (the search ran out of
    time undecided, its own budget or the hint's deadline: the best move by rule
    of thumb, and ``message`` says so), "lost" (the solver
    proved no winning line exists from here: ``move`` is the rule-of-thumb
    move to get more cards home, or None when no move is left), "none"
    (nothing to hint). ``message`` is the whole answer in one or two
    sentences for the player, the assisted note included. Nothing is played:
    ``game`` is the game as it stands (``assisted`` now True); its version
    is unchanged, so the board's buttons keep working.
    """

    move: str | None  # the move in notation, e.g. "R3 A5" or "deal"; None if no move
    label: str | None  # in words, e.g. "R3 5♥ → A5 on 2♥"
    source: HintSource
    remaining: int | None  # moves left in the winning line found (source "solver")
    message: str  # the sentence for the player
    newly_assisted: bool  # this hint is the one that marked the game assisted
    game: GameView
    # "lost": the last move count from which the game can still be won, one that undo
    # goes back to (``undo_target``), when the solver found one looking back; None otherwise
    winnable_at: int | None = None
    back_to: str | None = None  # ``winnable_at`` for the player: "move 5", or "the start"
    # source "blind" (a fair hint): of the ``worlds`` stock orders the blind player tried,
    # the ``wins`` the move was shown to win (None for the solver's hints)
    wins: int | None = None
    worlds: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    games: int  # finished games, everywhere, dailies and replays included
    wins: int
    win_rate: float  # wins / games (0.0 with no games)
    current_streak: int  # daily streak still alive (last scored daily today or yesterday)
    best_streak: int
    best_score: int  # most cards home in a game
    dailies: int  # scored dailies finished
    daily_wins: int
    # The deal of the current game (None: no game), and the player's finished games of
    # it and wins ("have I won this deal before?"), that game included once it is over.
    deal_number: int | None = None
    deal_games: int = 0
    deal_wins: int = 0
    # Races over (``/reel race``): how many, won (first place), the best place (None: none).
    races: int = 0
    race_wins: int = 0
    best_place: int | None = None
    variant: str = "vr"  # the game these figures are of (races: Virginia Reel's only)


@dataclass(frozen=True, slots=True)
class Settings:
    """A player's choices; the defaults are a new player's, in both front ends."""

    symbols: bool = True  # suit symbols (♠♥♦♣) or letters (S H D C)
    auto_aces: bool = True  # play reserve Aces to the Ace pile after each move
    winnable: bool = True  # a random new game is a deal the solver proved winnable
    watchable: bool = True  # others may watch this player's games (/reel watch)
    reminders: bool = False  # a reminder before the UTC rollover when a streak would break
    picture: bool = False  # the board drawn as a picture (PNG) instead of monospace text
    # hints by the blind player, who can't see the stock's order either (the default: a
    # fair hint); False: the solver's, which knows it (docs/solver.md, "Fair hints")
    fair_hints: bool = True


class SettingsChange(TypedDict, total=False):
    """The settings ``GameService.update_settings`` may change (None: unchanged)."""

    symbols: bool | None
    auto_aces: bool | None
    winnable: bool | None
    watchable: bool | None
    reminders: bool | None
    picture: bool | None
    fair_hints: bool | None
