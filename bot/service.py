"""The game service: the one async API that both front ends (Discord and terminal) call.

Every player has at most one current game, across servers. A call names the
player; the service loads the game (from a bounded in-memory cache, or by
replaying the stored move list from the deal), checks the call, plays it on
the engine, writes the new state to SQLite in its own transaction, and only
then answers with a ``GameView``. If the write fails the cached game is
dropped, so memory never runs ahead of the disk.

Calls for one player are serialized by a per-player lock; calls for different
players run side by side. A mutating call may carry the version of the board
it was made from: if the game has changed since, it is refused with
``StaleVersionError`` and nothing is applied, so two clicks on the same
button play one move.

Stored move list: the engine notation of each move since the deal, joined by
``;`` (``R3 A5;R6 ACE;deal``). A move played automatically as part of the
command before it (an Ace played by the auto-Aces setting, or the second and
later moves of ``auto``) carries a ``+`` prefix, so ``undo`` takes back a
whole command. A game has at most about 110 moves, so the list stays under
1 KB.

Hints (``hint``) run the solver (``engine.solver.hints``) in a process pool, off
the event loop: see ``GameService.hint``. The winning line a hint found is
kept with the game in memory, so the next hints continue it with no search
while the game follows it. A game in which a hint was asked for is marked
assisted, and so is its result on the daily leaderboard.

The daily challenge (``daily``), the leaderboards (``leaderboard``) and the
player figures (``stats``) are described in ``docs/daily.md``: a daily is a
current game like any other, carrying its date and whether it is the user's
scored attempt of that date; results and the totals the leaderboards read
are written in the same transaction as the game's last change.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import random
import signal
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Final, Literal, NoReturn, TypeVar

from engine import (
    DEAL,
    AmbiguousMoveError,
    DealNumberError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    LineError,
    Move,
    Status,
    Variant,
    format_line,
    parse_move,
    play_line,
    render,
    variant_by_code,
)
from engine.deal import check_deal_number
from engine.notation import LINE_SEPARATOR, describe_move, format_line_move, format_position
from engine.solver.hints import REWIND_NODES, HintSource, known_hint, line_left

from . import jobs
from .daily import (
    DAILY_CANDIDATES,
    next_daily_start,
    share_text,
    utc_date,
)
from .store import (
    MIN_GAMES_FOR_RATE,
    CorruptRowError,
    DailyDeal,
    FinishedGame,
    GameStatus,
    GameUpdate,
    Outcome,
    Store,
    StoreError,
    UserSettings,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

RANDOM_DEAL_MAX: Final = 999_999_999
MAX_CHOICE_CHARS: Final = 100
MAX_MOVE_TEXT: Final = 100
DEFAULT_VARIANT: Final = "vr"
FINISHED_STATUSES: Final = frozenset({"won", "resigned"})
SOLVER_WORKERS: Final = 2  # processes in the solver pool
HINT_SECONDS: Final = 1.0  # the solver's time budget for a hint
HINT_NODES: Final = 1_000_000  # and its node budget (the time runs out first)
DAILY_CACHE: Final = 16  # daily deals kept in memory (dates)

MAX_PAGE_SIZE: Final = 50
LeaderboardKind = Literal["daily", "all-time"]
LeaderboardScope = Literal["server", "global"]

__all__ = [
    "MIN_GAMES_FOR_RATE",
    "BadInputError",
    "Commands",
    "CorruptGameError",
    "DailyDeal",
    "DailyInProgressError",
    "DailyUnavailableError",
    "GameService",
    "GameView",
    "HintUnavailableError",
    "HintView",
    "LeaderboardPage",
    "LeaderboardRow",
    "MoveChoice",
    "MoveError",
    "NoGameError",
    "PlayerStats",
    "ServiceError",
    "Settings",
    "StaleVersionError",
    "StorageError",
    "utcnow",
]


def utcnow() -> datetime:
    return datetime.now(UTC)


# ---------------------------------------------------------------------- the API's values


@dataclass(frozen=True, slots=True)
class MoveChoice:
    text: str  # the move in notation, e.g. "R3 A5", "R6 ACE", "deal" (<= 100 chars)
    label: str  # in words, e.g. "R3 5♥ → A5 on 2♥" (<= 100 chars)
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


@dataclass(frozen=True, slots=True)
class HintView:
    """The answer to ``hint``: what to play next, in notation and in words, and why.

    ``source`` says how sure the hint is (``engine.solver.hints``): "solver" (the
    first move of a winning line the solver found; ``remaining`` moves are
    left in that line, this one included), "heuristic" (the solver ran out of
    time undecided: the best move by rule of thumb), "lost" (the solver
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


@dataclass(frozen=True, slots=True)
class Commands:
    """How a front end's player gives the commands that the service's messages name."""

    new: str = "/reel new"
    resign: str = "/reel resign"


DISCORD_COMMANDS: Final = Commands()


@dataclass(frozen=True, slots=True)
class Settings:
    symbols: bool = True  # suit symbols (♠♥♦♣) or letters (S H D C)
    auto_aces: bool = False  # play reserve Aces to the Ace pile after each move
    winnable: bool = False  # a random new game is a deal the solver proved winnable


# ---------------------------------------------------------------------- errors


class ServiceError(Exception):
    """A call the service refuses; ``message`` is a sentence for the player."""

    default_message = "That didn't work."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)


def _no_game_text(commands: Commands) -> str:
    return f"You have no game in progress. Start one with {commands.new}."


def _corrupt_text(commands: Commands) -> str:
    return (
        "Your saved game can't be read, sorry: it has been reported. "
        f"Start a new game with {commands.new}."
    )


class NoGameError(ServiceError):
    default_message = _no_game_text(DISCORD_COMMANDS)


class StaleVersionError(ServiceError):
    default_message = (
        "This board is out of date: your game has changed since it was shown, "
        "so nothing was played. Here is the current board."
    )


# A hint asked from an old board: nothing is shown or marked, so "here is the
# current board" would be wrong.
STALE_HINT_MESSAGE = (
    "This board is out of date: your game has changed since it was shown, "
    "so no hint was given and nothing was marked. Ask again on the current board."
)


# A New game asked from a board older than the game in progress.
NEWER_GAME_MESSAGE = (
    "You have a newer game in progress, so no new game was started. Here is that game."
)


WINNABLE_UNPROVEN: Final = " · no deal could be proven winnable just now, so this one may not be"
NOTHING_TO_UNDO: Final = "There is nothing to undo: this is the start of the game."


class MoveError(ServiceError):
    default_message = "That move can't be played."


class BadInputError(ServiceError):
    default_message = "That input isn't valid."


class HintUnavailableError(ServiceError):
    """The solver's worker processes failed: logged; nothing was marked."""

    default_message = "Hints aren't available just now, sorry. Try again in a moment."


class DailyUnavailableError(ServiceError):
    """The daily deal of the date could not be chosen (the solver's workers failed): logged."""

    default_message = "Today's daily can't be dealt just now, sorry. Try again in a moment."


class DailyInProgressError(ServiceError):
    """A new game asked for over a scored daily still in play: nothing changed."""


class CorruptGameError(ServiceError):
    default_message = _corrupt_text(DISCORD_COMMANDS)


class StorageError(ServiceError):
    """The database failed (disk full, I/O error): logged, and nothing was applied."""

    default_message = "Your game couldn't be saved just now, so nothing changed. Try again."


def _clip(text: str, limit: int = MAX_CHOICE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------- move lists


class _ReplayError(ValueError):
    pass


def _choice(game: Game, move: Move, symbols: bool) -> MoveChoice:
    """``move`` of ``game`` as a front end offers it: its notation, its words and the
    warning it would bring."""
    warning = game.space_warning(move)
    return MoveChoice(
        text=_clip(str(move)),
        label=_clip(describe_move(game, move, symbols)),
        note=None if warning is None else warning.short,
    )


def new_deal(deal_number: int, variant: Variant) -> Game:
    """The game at the deal. Tests replace this to start from a prepared position."""
    return Game.new(deal_number, variant)


def encode_moves(history: Sequence[Move], chained: Sequence[bool]) -> str:
    """The stored move list: the line of the game's moves, '+' marking automatic ones."""
    return format_line(history, chained)


def move_tokens(history: Sequence[Move], chained: Sequence[bool]) -> list[str]:
    """The items of the stored move list, one per move."""
    return [format_line_move(move, auto) for move, auto in zip(history, chained, strict=True)]


def replay(variant_code: str, deal_number: int, moves: str) -> tuple[Game, list[bool]]:
    """The game a stored row describes, and which of its moves were automatic.

    Raises ``_ReplayError`` saying what is wrong if the row can't be replayed.
    """
    try:
        variant = variant_by_code(variant_code)
        game = new_deal(deal_number, variant)
    except (ValueError, TypeError) as exc:
        raise _ReplayError(str(exc)) from None
    try:
        chained = play_line(game, moves)
    except LineError as exc:
        raise _ReplayError(str(exc)) from None
    return game, chained


# ---------------------------------------------------------------------- cached games


@dataclass(slots=True)
class _Entry:
    """A current game in memory, as it stands on disk."""

    game: Game
    chained: list[bool]  # per move played: made automatically as part of the command before
    variant: str
    guild_id: int | None
    version: int
    undo_count: int
    status: GameStatus  # as stored: playing, stuck, won or resigned
    started_at: datetime
    daily_date: date | None = None  # the daily's date, for a daily
    scored: bool = True  # False for an unscored replay of a daily
    assisted: bool = False  # a hint was asked for
    state: Status = Status.PLAYING  # the engine's status of ``game``, kept by ``refresh``
    # What the last hint found, for the next ones (``GameService.hint``): a winning
    # line from the deal (the moves played then and the solver's line), or, when
    # the solver proved the game lost, the moves played then and the last move
    # from which it could still be won (None if the look back found none).
    hint_line: tuple[Move, ...] = ()
    lost_after: tuple[tuple[Move, ...], int | None] | None = None
    # The stored move list's items, kept along with ``chained`` by ``played`` and
    # ``unplayed``, so a save joins them instead of re-encoding every move.
    tokens: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = move_tokens(self.game.history, self.chained)
        self.refresh()

    def refresh(self) -> None:
        """Recompute the engine status after the game changed."""
        self.state = self.game.status

    @property
    def finished(self) -> bool:
        return self.status in FINISHED_STATUSES

    @property
    def moves_text(self) -> str:
        """``encode_moves(game.history, chained)``, from the tokens kept."""
        return LINE_SEPARATOR.join(self.tokens)

    def play(self, move: Move, auto: bool) -> None:
        """Play a legal ``move`` on the game and record it (``auto``: chained to the command)."""
        canonical = self.game.canonical(move)  # as the game's history will hold it
        self.game.play(move)
        self.chained.append(auto)
        self.tokens.append(format_line_move(canonical, auto))

    def undo(self) -> Move:
        """Take back the game's last move and its record; return it."""
        move = self.game.undo()
        self.chained.pop()
        self.tokens.pop()
        return move

    def move_name(self, count: int) -> str:
        """The position after ``count`` moves, for the player: "move 5", or "the start"
        when only automatic Aces come before it (the game as dealt)."""
        return "the start" if all(self.chained[:count]) else f"move {count}"

    def undo_point(self) -> int | None:
        """The history length after undoing the last command; None if there is none."""
        for i in range(len(self.chained) - 1, -1, -1):
            if not self.chained[i]:
                return i
        return None


def undo_target(chained: Sequence[bool], winnable: int) -> int | None:
    """The move count that undo can take a game back to, standing for ``winnable``
    (a move count from which the game can be won); None if there is none.

    ``chained``: per move played, whether it was an automatic Ace chained to the
    command before. Undo takes back whole commands, so it stops only where a
    command starts. When ``winnable`` falls inside a command, the count at that
    command's end is the answer: the moves between are automatic Aces (reserve
    Aces to the Ace pile), which never change whether a game can be won, so it
    can be won from there too. A command's end that is the current position
    (which is lost, so that cannot be) falls back to the command's start.
    """
    end = winnable
    while end < len(chained) and chained[end]:
        end += 1
    if end < len(chained):
        return end
    for start in range(min(winnable, len(chained) - 1), -1, -1):
        if not chained[start]:
            return start
    return None


def _proof_of(deal: DailyDeal) -> tuple[Move, ...] | None:
    """The daily's stored winning line as moves; None if it has none, or if it no longer
    replays (logged: the game is dealt all the same, and its hints search)."""
    if deal.line is None:
        return None
    return _stored_line(deal.deal_number, deal.line, f"the daily of {deal.day}")


def _stored_line(deal_number: int, text: str, what: str) -> tuple[Move, ...] | None:
    """Moves stored as text (``format_line``: a winning line, or the moves of a proof of
    loss), as moves; None, logged, if they no longer replay from deal ``deal_number``
    (``what`` names them in the log)."""
    try:
        game, _ = replay(DEFAULT_VARIANT, deal_number, text)
    except _ReplayError as exc:
        log.warning("the stored line of %s does not replay: %s", what, exc)
        return None
    return game.history


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile (in the main thread; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _untouched(entry: _Entry) -> bool:
    """An ordinary game the player never played (only automatic Aces, no undo, not stuck).

    Replacing it records nothing: a deal looked at and passed over is not a game
    played and lost. A scored daily is always recorded (it is the day's result).
    """
    daily = entry.daily_date is not None and entry.scored
    playing = entry.state is Status.PLAYING
    return not daily and playing and entry.undo_count == 0 and all(entry.chained)


def _scored_daily_in_play(entry: _Entry) -> bool:
    """The day's scored daily, neither over nor stuck: a new game must not end it."""
    playing = not entry.finished and entry.state is not Status.STUCK
    return entry.daily_date is not None and entry.scored and playing


def _sentence(reason: str) -> str:
    """The engine's reason (``only Aces go to the Ace pile``) as a sentence for the player."""
    if not reason:
        return reason
    text = reason[0].upper() + reason[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _stored_status(status: Status) -> GameStatus:
    if status is Status.WON:
        return "won"
    return "stuck" if status is Status.STUCK else "playing"


class GameService:
    """One current game per user, stored in SQLite; see the module docstring."""

    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 1024,
        clock: Callable[[], datetime] = utcnow,
        rng: random.Random | None = None,
        executor: Executor | None = None,
        solver_workers: int = SOLVER_WORKERS,
        hint_seconds: float = HINT_SECONDS,
        hint_nodes: int = HINT_NODES,
        daily_candidates: int = DAILY_CANDIDATES,
        warm_next_daily: bool = False,
        commands: Commands = DISCORD_COMMANDS,
    ) -> None:
        """``executor`` runs the solver jobs (default: a process pool of
        ``solver_workers`` processes, started at the first need); the service
        shuts it down in ``close``. ``hint_seconds`` and ``hint_nodes`` are the
        solver's budget for a hint. ``daily_candidates``: deals the daily search
        tries before it falls back (``bot.daily.find_daily_deal``), and the search
        for a winnable random deal too;
        ``warm_next_daily``: after a daily is dealt, find tomorrow's in the
        background (the bot does; tests and the terminal don't).
        ``commands``: how the front end's player gives the commands that the
        messages name (``/reel new`` in Discord; ``'new'`` at the terminal's
        prompt)."""
        if cache_size < 1:
            raise ValueError("cache_size must be at least 1")
        if solver_workers < 1:
            raise ValueError("solver_workers must be at least 1")
        self._store = store
        self._cache_size = cache_size
        self._clock = clock
        self._rng = rng or random.Random()
        self._games: OrderedDict[int, _Entry] = OrderedDict()
        self._settings: OrderedDict[int, Settings] = OrderedDict()
        # A lock lives while some call holds or awaits it, then goes away.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._executor = executor
        self._solver_workers = solver_workers
        self._hint_seconds = hint_seconds
        self._hint_nodes = hint_nodes
        self._daily_candidates = daily_candidates
        self._warm_next_daily = warm_next_daily
        self._commands = commands
        self._daily_deals: OrderedDict[date, DailyDeal] = OrderedDict()
        self._daily_pending: dict[date, asyncio.Future[DailyDeal]] = {}

    @property
    def store(self) -> Store:
        return self._store

    async def close(self) -> None:
        """Stop the solver pool and close the store (calls already queued on it finish first)."""
        self._games.clear()
        self._settings.clear()
        waiting = list(self._daily_pending.values())
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        executor, self._executor = self._executor, None
        if executor is not None:
            # Jobs not started are dropped; one running finishes (its budget bounds it).
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        await self._store.close()

    def _solver_pool(self) -> Executor:
        """The executor for solver jobs, created at the first need."""
        if self._executor is None:
            # spawn: a worker starts clean, not as a fork of a process with threads.
            self._executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self._solver_workers,
                mp_context=multiprocessing.get_context("spawn"),
            )
        return self._executor

    def _in_pool(self, job: Callable[..., T], *args: object) -> asyncio.Future[T]:
        """Run ``job(*args)`` in the solver pool.

        A worker process started here inherits SIGINT ignored (Python keeps an
        inherited "ignore" for its whole life): Ctrl-C at the terminal goes to
        every process of the foreground group, and the workers must leave it to
        the game, which saves and shuts the pool down, instead of each printing
        a KeyboardInterrupt traceback.
        """
        loop = asyncio.get_running_loop()
        with _sigint_ignored():  # the pool starts its workers in submit
            return loop.run_in_executor(self._solver_pool(), job, *args)

    # ------------------------------------------------------------------ the calls

    async def new_game(
        self,
        user_id: int,
        guild_id: int | None,
        deal_number: int | None = None,
        *,
        replaces_version: int | None = None,
    ) -> GameView:
        """Deal a new game (a random deal when None); an unfinished game is recorded first.

        With the player's ``winnable`` setting on, the random deal is the first
        from a random number on that the solver proves winnable (searched in the
        pool, as the daily's deal is); if the search fails, the random number
        itself, and the message says it is unproven.

        ``replaces_version``: the version of the board asking (a New game
        button). If the current game is unfinished and at another version, the
        player has moved on to a game that board never showed: nothing is
        started or recorded, and ``StaleVersionError`` says so. Checked under
        the player's lock, so two clicks on one board start one game.

        A scored daily still in play (not over, not stuck) is not ended by a
        new game: ``DailyInProgressError`` asks the player to finish it or
        resign it, so that a stray command never spends the day's one scored
        attempt.
        """
        proof: tuple[Move, ...] | None = None
        winnable = False  # a random deal the setting asks to be proven winnable
        if deal_number is None:
            deal_number = self._rng.randint(1, RANDOM_DEAL_MAX)
            winnable = (await self.get_settings(user_id)).winnable
            if winnable:
                # A refusal comes before the search, not after it; the search runs
                # outside the lock (it may take a moment), so the checks are made
                # again under the lock below.
                async with self._lock(user_id):
                    self._check_replace(await self._old_entry(user_id), replaces_version)
                found = await self._winnable_deal(deal_number)
                if found is not None:
                    deal_number, proof = found
        try:
            check_deal_number(deal_number)
        except DealNumberError as exc:
            raise BadInputError(_sentence(str(exc))) from None
        async with self._lock(user_id):
            old = await self._old_entry(user_id)
            self._check_replace(old, replaces_version)
            return await self._start(
                user_id, guild_id, deal_number, old, None, True, proof, winnable
            )

    def _check_replace(self, old: _Entry | None, replaces_version: int | None) -> None:
        """Raise if a new game may not replace ``old`` (see ``new_game``): the board
        asking is stale, or ``old`` is a scored daily still in play. Lock held."""
        if (
            replaces_version is not None
            and old is not None
            and not old.finished
            and old.version != replaces_version
        ):
            raise StaleVersionError(NEWER_GAME_MESSAGE)
        if old is not None and _scored_daily_in_play(old):
            assert old.daily_date is not None
            raise DailyInProgressError(
                f"Your scored daily of {old.daily_date.isoformat()} is still in play, "
                "and a new game now would end it as abandoned. Finish it first, or "
                f"give it up with {self._commands.resign} and then start a new game."
            )

    async def _winnable_deal(self, start: int) -> tuple[int, tuple[Move, ...]] | None:
        """The first deal from ``start`` on that the solver proves winnable, and its winning
        line, searched in the pool as the daily's deal is (``jobs.winnable_job``); None,
        logged, if none is found or the pool fails (the game is then dealt unproven, and
        says so)."""
        try:
            found = await self._in_pool(jobs.winnable_job, start, self._daily_candidates)
        except (concurrent.futures.process.BrokenProcessPool, OSError, RuntimeError) as exc:
            log.error("the search for a winnable deal failed in the solver pool: %s", exc)
            self._reset_pool()
            return None
        if found is None:
            log.warning("no deal proven winnable among %d from %d", self._daily_candidates, start)
        return found

    async def daily(self, user_id: int, guild_id: int | None) -> GameView:
        """Start today's daily (UTC, by the service clock), or resume it if it is in progress.

        The user's first daily game of a date is their scored attempt; once
        it is over, another call starts an unscored replay. An unfinished
        other game (a normal one, or an earlier date's daily) is recorded
        first, as ``new_game`` does.
        """
        today = utc_date(self._clock())
        deal = await self.daily_deal(today)  # outside the lock: it may take a second
        async with self._lock(user_id):
            old = await self._old_entry(user_id)
            if old is not None and not old.finished and old.daily_date == today:
                kind = "" if old.scored else " (replay, not scored)"
                return self._view(
                    user_id,
                    old,
                    await self._get_settings(user_id),
                    f"Daily {today.isoformat()}{kind}: your game in progress",
                )
            try:
                scored = not await self._store.has_daily_attempt(user_id, today)
            except StoreError as exc:
                raise self._storage_failure(user_id, exc) from exc
            proof = _proof_of(deal)
            return await self._start(user_id, guild_id, deal.deal_number, old, today, scored, proof)

    async def daily_deal(self, day: date) -> DailyDeal:
        """THE deal of ``day``'s daily: from memory, the database, or found by the solver.

        Found once per date (``bot.daily.find_daily_deal``, in the solver
        pool; concurrent callers share one search) and stored, the first
        writer winning, so it never changes afterwards. A deal without a
        proof (no candidate proven) is logged as a warning and stored too.
        """
        cached = self._daily_deals.get(day)
        if cached is not None:
            return cached
        # shield: a caller giving up (cancelled) does not stop the search others wait for
        deal = await asyncio.shield(self._pending_daily(day))
        if self._warm_next_daily and day + timedelta(days=1) not in self._daily_deals:
            self._pending_daily(day + timedelta(days=1)).add_done_callback(self._warmed)
        return deal

    def _pending_daily(self, day: date) -> asyncio.Future[DailyDeal]:
        """The one search (or database read) for ``day``'s deal under way, started if none is."""
        pending = self._daily_pending.get(day)
        if pending is None:
            pending = asyncio.ensure_future(self._choose_daily(day))
            self._daily_pending[day] = pending

            def done(_: asyncio.Future[DailyDeal]) -> None:
                self._daily_pending.pop(day, None)

            pending.add_done_callback(done)
        return pending

    def _warmed(self, task: asyncio.Future[DailyDeal]) -> None:
        """A background search for the next daily ended: log a failure (it is retried on need)."""
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not find the next daily in advance: %s", task.exception())

    async def _choose_daily(self, day: date) -> DailyDeal:
        try:
            stored = await self._store.load_daily_deal(day)
            if stored is None:
                found = await self._find_daily(day)
                if not found.proven:
                    log.warning(
                        "no deal proven winnable among %d candidates for the daily of %s: "
                        "falling back to deal %d, unproven",
                        self._daily_candidates,
                        day.isoformat(),
                        found.deal_number,
                    )
                stored = await self._store.save_daily_deal(found)
        except StoreError as exc:
            log.error("database failure choosing the daily of %s: %s", day, exc, exc_info=exc)
            raise StorageError("Today's daily can't be dealt just now. Try again.") from exc
        self._remember_daily(stored)
        return stored

    async def _find_daily(self, day: date) -> DailyDeal:
        """The proof search for ``day`` in the solver pool (tests replace this method)."""
        try:
            return await self._in_pool(jobs.daily_job, day.isoformat(), self._daily_candidates)
        except (concurrent.futures.process.BrokenProcessPool, OSError, RuntimeError) as exc:
            log.error("daily search for %s failed in the solver pool: %s", day, exc)
            self._reset_pool()
            raise DailyUnavailableError() from exc

    def _remember_daily(self, deal: DailyDeal) -> None:
        self._daily_deals[deal.day] = deal
        self._daily_deals.move_to_end(deal.day)
        while len(self._daily_deals) > DAILY_CACHE:
            self._daily_deals.popitem(last=False)

    async def _stored_daily(self, day: date) -> DailyDeal | None:
        """The deal of ``day`` if it is known (memory or database); never searches."""
        cached = self._daily_deals.get(day)
        if cached is None:
            cached = await self._store.load_daily_deal(day)
            if cached is not None:
                self._remember_daily(cached)
        return cached

    async def _old_entry(self, user_id: int) -> _Entry | None:
        try:
            return await self._entry(user_id)
        except CorruptGameError:
            return None  # logged already; the new game replaces the row, recording nothing

    async def _start(
        self,
        user_id: int,
        guild_id: int | None,
        deal_number: int,
        old: _Entry | None,
        daily_date: date | None,
        scored: bool,
        proof: tuple[Move, ...] | None = None,
        winnable: bool = False,
    ) -> GameView:
        """Deal a new current game over ``old`` (recorded first if unfinished and touched).

        ``proof``: the solver's winning line of the deal, if it has one (a daily, or a
        random deal proven as the setting asks): the game's first hint continues it.
        ``winnable``: a random deal the setting asked to be proven (the message says
        whether it is).
        Lock held."""
        settings = await self._get_settings(user_id)
        variant = variant_by_code(DEFAULT_VARIANT)
        game = new_deal(deal_number, variant)
        chained = [True] * len(game.play_safe_moves()) if settings.auto_aces else []
        now = self._clock()
        finished: FinishedGame | None = None
        note = ""
        if old is not None and not old.finished and not _untouched(old):
            outcome: Outcome = "lost" if old.state is Status.STUCK else "abandoned"
            finished = self._record(user_id, old, outcome, now)
            what = f"deal {old.game.deal_number}"
            if old.daily_date is not None and old.scored:
                what = f"daily {old.daily_date.isoformat()}"
            note = f" ({what} recorded as {outcome})"
        entry = _Entry(
            game=game,
            chained=chained,
            variant=variant.code,
            guild_id=guild_id,
            version=0,  # the store gives the version
            undo_count=0,
            status="playing",
            started_at=now,
            daily_date=daily_date,
            scored=scored,
        )
        entry.status = _stored_status(entry.state)
        entry.hint_line = proof or ()
        self._evict(user_id)
        try:
            version = await self._store.start_game(
                user_id=user_id,
                guild_id=guild_id,
                variant=variant.code,
                deal_number=deal_number,
                moves=entry.moves_text,
                status=entry.status,
                started_at=now,
                replaces_version=None if old is None else old.version,
                finished=finished,
                daily_date=daily_date,
                scored=scored,
                hint_line=None if proof is None else format_line(proof),
            )
        except StoreError as exc:
            raise self._storage_failure(user_id, exc) from exc
        if version is None:
            raise StaleVersionError()
        entry.version = version
        self._cache_put(user_id, entry)
        if daily_date is None:
            message = f"New game: deal {deal_number}{note}"
            if winnable:
                message += " · proven winnable" if proof is not None else WINNABLE_UNPROVEN
        else:
            kind = "" if scored else " (replay, not scored)"
            message = f"Daily {daily_date.isoformat()}{kind}: deal {deal_number}{note}"
        if chained:  # automatic Aces, played at the deal
            aces = len(chained)
            message += f" · {aces} Ace{'s' if aces > 1 else ''} to the Ace pile"
        return self._view(user_id, entry, settings, message)

    async def show(self, user_id: int) -> GameView:
        """The current game (or the last one, over), as it stands. NoGameError if none."""
        async with self._lock(user_id):
            entry = await self._entry(user_id)
            if entry is None:
                raise self._no_game()
            return self._view(user_id, entry, await self._get_settings(user_id), None)

    async def move(self, user_id: int, text: str, expected_version: int | None = None) -> GameView:
        """Play a move given as text in the notation (``r3 a5``, ``5h``, ``deal``)."""
        async with self._lock(user_id):
            entry = await self._playable(user_id, expected_version)
            if len(text) > MAX_MOVE_TEXT:
                raise MoveError(
                    f"That is too long for a move: type FROM TO, like 'r3 a5' (at most "
                    f"{MAX_MOVE_TEXT} characters)."
                )
            try:
                move = parse_move(entry.game, text)
                entry.game.kind(move)
            except (InvalidMoveError, AmbiguousMoveError, IllegalMoveError) as exc:
                raise MoveError(_sentence(str(exc))) from None
            return await self._play(user_id, entry, [move])

    async def deal(self, user_id: int, expected_version: int | None = None) -> GameView:
        """Deal a card onto each reserve pile."""
        async with self._lock(user_id):
            entry = await self._playable(user_id, expected_version)
            try:
                entry.game.kind(DEAL)
            except IllegalMoveError as exc:
                raise MoveError(_sentence(str(exc))) from None
            return await self._play(user_id, entry, [DEAL])

    async def auto(self, user_id: int, expected_version: int | None = None) -> GameView:
        """Play every safe move (reserve Aces to the Ace pile) until none is left."""
        async with self._lock(user_id):
            entry = await self._playable(user_id, expected_version)
            if not entry.game.safe_moves():
                raise MoveError(
                    "There is no safe move to make: no Ace is on top of a reserve pile."
                )
            return await self._play(user_id, entry, [], auto=True)

    async def undo(self, user_id: int, expected_version: int | None = None) -> GameView:
        """Take back the last command (with the automatic moves that followed it)."""
        async with self._lock(user_id):
            entry = await self._playable(user_id, expected_version)
            point = entry.undo_point()
            if point is None:
                raise MoveError(NOTHING_TO_UNDO)
            return await self._undo_commands(user_id, entry, point, None)

    async def undo_to(
        self, user_id: int, move_count: int, expected_version: int | None = None
    ) -> GameView:
        """Take back commands until the game is back at ``move_count`` moves (one that a
        lost game's hint names: ``HintView.winnable_at``), saved once.

        Refused, changing nothing, unless ``move_count`` is earlier than the game's
        and is where a command starts (undo stops only there)."""
        async with self._lock(user_id):
            entry = await self._playable(user_id, expected_version)
            now = entry.game.move_count
            if entry.undo_point() is None:
                raise MoveError(NOTHING_TO_UNDO)
            if not 0 <= move_count < now:
                raise MoveError(
                    f"Your game is at move {now}: undo can only go back to an earlier move."
                )
            if entry.chained[move_count]:
                raise MoveError(
                    f"Undo can't stop at move {move_count}: that is an Ace played "
                    "automatically, which goes with the move before it."
                )
            taken = sum(1 for auto in entry.chained[move_count:] if not auto)
            where = entry.move_name(move_count)
            note = f"Back at {where}: took back {taken} move{'' if taken == 1 else 's'}"
            return await self._undo_commands(user_id, entry, move_count, note)

    async def _undo_commands(
        self, user_id: int, entry: _Entry, point: int, message: str | None
    ) -> GameView:
        """Undo ``entry``'s game back to ``point`` moves (a command's start), counting each
        command taken back as an undo, and save; ``message`` (or "Undid <the last one>")."""
        settings = await self._get_settings(user_id)
        game = entry.game
        try:
            move = None
            while game.move_count > point:
                if not entry.chained[-1]:  # the move that started a command
                    entry.undo_count += 1
                move = entry.undo()
            assert move is not None
            entry.refresh()
            await self._save(user_id, entry, None)
        except BaseException:
            self._evict(user_id)
            raise
        text = message or f"Undid {describe_move(game, move, settings.symbols)}"
        return self._view(user_id, entry, settings, text)

    async def resign(self, user_id: int, expected_version: int | None = None) -> GameView:
        """Give up the current game; it is recorded as resigned."""
        async with self._lock(user_id):
            entry = await self._playable(user_id, expected_version)
            settings = await self._get_settings(user_id)
            try:
                await self._save(user_id, entry, "resigned")
            except BaseException:
                self._evict(user_id)
                raise
            game = entry.game
            message = (
                f"You resigned deal {game.deal_number} with {game.score}/"
                f"{game.variant.card_total} cards home."
            )
            return self._view(user_id, entry, settings, message)

    async def move_choices(
        self, user_id: int, typed: str = "", limit: int = 25
    ) -> list[MoveChoice]:
        """Legal moves, most useful first, whose text or label contains ``typed``.

        Empty when the user has no game in progress. Order: Aces, builds,
        interchanges, fills, the deal (the engine's ``legal_moves`` order).
        """
        if limit <= 0:
            return []
        async with self._lock(user_id):
            entry = await self._entry(user_id)
            if entry is None or entry.finished:
                return []
            symbols = (await self._get_settings(user_id)).symbols
            game = entry.game
            wanted = typed.strip().casefold()
            compact = "".join(wanted.split())
            choices: list[MoveChoice] = []
            for move in game.legal_moves():
                text = str(move)
                # Matched in both spellings of the suits: "5h" finds 5♥ as well as 5H.
                said = (describe_move(game, move, symbols) for symbols in (True, False))
                words = " ".join((text, *said))
                if wanted and not (
                    wanted in words.casefold() or compact in "".join(text.casefold().split())
                ):
                    continue
                choices.append(_choice(game, move, symbols))
                if len(choices) >= limit:
                    break
            return choices

    async def hint(
        self,
        user_id: int,
        expected_version: int | None = None,
        *,
        on_search: Callable[[], None] | None = None,
    ) -> HintView:
        """What to play next (see ``HintView``); the game is marked assisted. Nothing is played.

        The solver runs in the process pool (a budget of ``hint_seconds``)
        while the event loop goes on serving everyone else. The user's own
        lock is held meanwhile, so their next call sees the assisted game.
        The game in memory keeps the winning line found (or the moves played
        when the game was proven lost): while the game follows the line, with
        moves taken back or Aces played by the setting on the way, the next
        hints come from it at once, with no search (``engine.solver.hints.known_hint``
        replays what is left of it first), and a game that goes on from a
        lost position stays lost. A daily, or a deal the winnable setting dealt,
        starts with the solver's proof as its line. The line and a proof of loss
        are stored with the game (``CurrentGame.hint_line``, ``lost_line``), so
        they outlive a restart.
        ``on_search`` is called just before a search starts (a front end can say
        that it is thinking), and not when the answer is known already.
        When the solver proves the game lost, a second job in the pool looks back
        over its moves for the last one from which it can still be won
        (``HintView.winnable_at``, kept with the proof of loss).
        """
        async with self._lock(user_id):
            try:
                entry = await self._playable(user_id, expected_version)
            except StaleVersionError:
                raise StaleVersionError(STALE_HINT_MESSAGE) from None
            settings = await self._get_settings(user_id)
            game = entry.game
            history = game.history
            # No search when an earlier hint settles it: the rest of its winning line
            # still wins from here (replayed to make sure), or the game is a
            # continuation of a position proven lost.
            proof = entry.lost_after
            lost = proof is not None and history[: len(proof[0])] == proof[0]
            left = line_left(entry.hint_line, history) if entry.hint_line else None
            found = known_hint(game, left, lost)
            if found is None:
                if on_search is not None:
                    on_search()
                try:
                    found = await self._in_pool(
                        jobs.hint_job,
                        format_position(game),
                        self._hint_nodes,
                        self._hint_seconds,
                    )
                except (
                    concurrent.futures.process.BrokenProcessPool,
                    OSError,
                    RuntimeError,
                ) as exc:
                    log.error("hint for user %s failed in the solver pool: %s", user_id, exc)
                    self._reset_pool()
                    raise HintUnavailableError() from exc
            new_line = None  # a winning line the hint found, to store with the game
            new_loss = None  # or a new proof of loss
            if found.source == "solver" and history + found.line != entry.hint_line:
                entry.hint_line = history + found.line
                new_line = format_line(entry.hint_line)
            elif found.source == "lost" and not lost:
                back = await self._winnable_before(user_id, game)
                back = None if back is None else undo_target(entry.chained, back)
                entry.lost_after = (history, back)
                new_loss = (format_line(history), back)
            newly = not entry.assisted
            if newly or new_line is not None or new_loss is not None:
                try:
                    marked = await self._store.mark_assisted(
                        user_id, entry.version, new_line, new_loss
                    )
                except StoreError as exc:
                    raise self._storage_failure(user_id, exc) from exc
                if not marked:
                    self._evict(user_id)
                    raise StaleVersionError(STALE_HINT_MESSAGE)
                entry.assisted = True
            move = found.move
            label = None if move is None else describe_move(game, move, settings.symbols)
            view = self._view(user_id, entry, settings, None)
            back = None
            if found.source == "lost" and entry.lost_after is not None:
                back = entry.lost_after[1]
            back_to = None if back is None else entry.move_name(back)
            return HintView(
                move=None if move is None else _clip(str(move)),
                label=None if label is None else _clip(label),
                source=found.source,
                remaining=found.remaining,
                message=_hint_message(found.source, label, found.remaining, view, back_to),
                newly_assisted=newly,
                game=view,
                winnable_at=back,
                back_to=back_to,
            )

    async def _winnable_before(self, user_id: int, game: Game) -> int | None:
        """The last move of a lost ``game`` from which it can still be won, searched in
        the pool (``engine.solver.hints.winnable_before``); None if none is found, or if the
        pool fails (the hint is given without it)."""
        if not game.history:
            return None
        try:
            # (the user's lock keeps the game still meanwhile; the job looks back on a copy)
            return await self._in_pool(jobs.rewind_job, game, REWIND_NODES, self._hint_seconds)
        except (concurrent.futures.process.BrokenProcessPool, OSError, RuntimeError) as exc:
            log.error("looking back for user %s failed in the solver pool: %s", user_id, exc)
            self._reset_pool()
            return None

    def _reset_pool(self) -> None:
        """Drop a broken pool (a worker died); the next job starts a new one."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def get_settings(self, user_id: int) -> Settings:
        async with self._lock(user_id):
            return await self._get_settings(user_id)

    async def update_settings(
        self,
        user_id: int,
        *,
        symbols: bool | None = None,
        auto_aces: bool | None = None,
        winnable: bool | None = None,
    ) -> Settings:
        """Change some settings; the others keep their values."""
        async with self._lock(user_id):
            old = await self._get_settings(user_id)
            new = Settings(
                symbols=old.symbols if symbols is None else bool(symbols),
                auto_aces=old.auto_aces if auto_aces is None else bool(auto_aces),
                winnable=old.winnable if winnable is None else bool(winnable),
            )
            self._settings.pop(user_id, None)
            try:
                await self._store.save_settings(
                    user_id,
                    UserSettings(
                        symbols=new.symbols, auto_aces=new.auto_aces, winnable=new.winnable
                    ),
                )
            except StoreError as exc:
                raise self._storage_failure(user_id, exc) from exc
            self._settings_put(user_id, new)
            return new

    # ------------------------------------------------------------------ leaderboards and stats

    async def leaderboard(
        self,
        kind: LeaderboardKind = "daily",
        scope: LeaderboardScope = "server",
        guild_id: int | None = None,
        *,
        day: date | None = None,
        page: int = 0,
        page_size: int = 10,
    ) -> LeaderboardPage:
        """A page of a leaderboard; see ``docs/daily.md`` for the rankings.

        ``day`` (daily only) defaults to today (UTC, by the service clock). A
        page past the end gives the last page (``page`` says which).
        """
        if kind not in ("daily", "all-time"):
            raise BadInputError(f"There is no {kind!r} leaderboard: choose daily or all-time.")
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
        where = guild_id if scope == "server" else None
        if kind == "daily":
            today = utc_date(self._clock())
            if day is None:
                day = today
            elif day > today:
                raise BadInputError(
                    f"The daily of {day.isoformat()} hasn't started yet "
                    f"(today is {today.isoformat()} UTC)."
                )
        elif day is not None:
            raise BadInputError("A date only goes with the daily leaderboard.")
        total, rows = await self._board(kind, where, day, page, page_size)
        par = None
        if day is not None:
            try:
                known = await self._stored_daily(day)
            except StoreError as exc:
                log.error("database failure reading the daily of %s: %s", day, exc, exc_info=exc)
                raise StorageError("The leaderboard can't be read just now. Try again.") from exc
            par = None if known is None else known.par
        page_count = max(1, -(-total // page_size))
        if page >= page_count:
            page = page_count - 1
            total, rows = await self._board(kind, where, day, page, page_size)
            page_count = max(1, -(-total // page_size))
        return LeaderboardPage(
            kind=kind,
            scope=scope,
            guild_id=where,
            day=day,
            page=page,
            page_count=page_count,
            total=total,
            rows=tuple(rows),
            par=par,
            today=day is not None and day == utc_date(self._clock()),
        )

    async def _board(
        self, kind: str, guild_id: int | None, day: date | None, page: int, page_size: int
    ) -> tuple[int, list[LeaderboardRow]]:
        offset = page * page_size
        try:
            if kind == "daily":
                assert day is not None
                total, results = await self._store.daily_board(day, guild_id, offset, page_size)
                return total, [
                    LeaderboardRow(
                        rank=offset + i,
                        user_id=r.user_id,
                        won=r.won,
                        score=r.score,
                        moves=r.move_count,
                        undos=r.undos,
                        seconds=r.duration_s,
                        wins=None,
                        games=None,
                        win_rate=None,
                        best_streak=None,
                        assisted=r.assisted,
                    )
                    for i, r in enumerate(results, 1)
                ]
            total, totals = await self._store.all_time_board(guild_id, offset, page_size)
        except StoreError as exc:
            log.error("database failure reading a leaderboard: %s", exc, exc_info=exc)
            raise StorageError("The leaderboard can't be read just now. Try again.") from exc
        return total, [
            LeaderboardRow(
                rank=offset + i,
                user_id=t.user_id,
                won=None,
                score=None,
                moves=None,
                undos=None,
                seconds=None,
                wins=t.wins,
                games=t.games,
                win_rate=t.wins / t.games if t.games >= MIN_GAMES_FOR_RATE else None,
                best_streak=t.best_streak,
            )
            for i, t in enumerate(totals, 1)
        ]

    async def stats(self, user_id: int) -> PlayerStats:
        """The user's figures over all their finished games (zeros for a new player)."""
        today = utc_date(self._clock())
        try:
            totals = await self._store.player_totals(user_id)
        except StoreError as exc:
            log.error("database failure reading stats of %s: %s", user_id, exc, exc_info=exc)
            raise StorageError("Your stats can't be read just now. Try again.") from exc
        if totals is None:
            return PlayerStats(user_id, 0, 0, 0.0, 0, 0, 0, 0, 0)
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
        )

    # ------------------------------------------------------------------ playing

    async def _play(
        self, user_id: int, entry: _Entry, moves: Iterable[Move], *, auto: bool = False
    ) -> GameView:
        """Play the command's moves (already checked legal), then automatic Aces, then save."""
        settings = await self._get_settings(user_id)
        game = entry.game
        labels: list[str] = []
        warning: str | None = None
        try:
            for move in moves:
                space = game.space_warning(move)
                warning = space.message if space is not None else None
                labels.append(describe_move(game, move, settings.symbols))
                entry.play(move, False)
            command_moves = len(labels)
            if auto or settings.auto_aces:
                while safe := game.safe_moves():
                    for move in safe:
                        labels.append(describe_move(game, move, settings.symbols))
                        entry.play(move, bool(command_moves) or len(labels) > 1)
            entry.refresh()
            status = entry.state
            await self._save(user_id, entry, "won" if status is Status.WON else None)
        except BaseException:
            self._evict(user_id)
            raise
        if auto:
            message = "Auto: " + ", ".join(labels)
        else:
            message = labels[0]
            if len(labels) > 1:
                message += (
                    f" · then {len(labels) - 1} Ace{'s' if len(labels) > 2 else ''} to the Ace pile"
                )
        if status is Status.WON:
            message += f" · You won deal {game.deal_number}!"
        return self._view(user_id, entry, settings, message, warning)

    async def _save(self, user_id: int, entry: _Entry, outcome: Outcome | None) -> None:
        """Write the entry's new state (version + 1), recording the game if ``outcome``.

        The caller has changed ``entry`` in place and drops it from the cache
        if this raises.
        """
        now = self._clock()
        status: GameStatus = "resigned" if outcome == "resigned" else _stored_status(entry.state)
        update = GameUpdate(
            user_id=user_id,
            expected_version=entry.version,
            version=entry.version + 1,
            moves=entry.moves_text,
            status=status,
            undo_count=entry.undo_count,
            updated_at=now,
        )
        finished = None if outcome is None else self._record(user_id, entry, outcome, now)
        try:
            saved = await self._store.save_game(update, finished)
        except StoreError as exc:
            raise self._storage_failure(user_id, exc) from exc
        if not saved:
            log.warning(
                "game of user %s changed under us (not at version %s)", user_id, entry.version
            )
            raise StaleVersionError()
        entry.version += 1
        entry.status = status
        self._cache_put(user_id, entry)

    def _record(self, user_id: int, entry: _Entry, outcome: Outcome, now: datetime) -> FinishedGame:
        game = entry.game
        assert game.deal_number is not None
        return FinishedGame(
            user_id=user_id,
            guild_id=entry.guild_id,
            variant=entry.variant,
            deal_number=game.deal_number,
            outcome=outcome,
            score=game.score,
            moves=entry.moves_text,
            undos=entry.undo_count,
            duration_s=max(0, int((now - entry.started_at).total_seconds())),
            started_at=entry.started_at,
            finished_at=now,
            daily_date=entry.daily_date if entry.scored else None,
            assisted=entry.assisted,
        )

    def _storage_failure(self, user_id: int, exc: BaseException) -> StorageError:
        log.error("database failure for user %s: %s", user_id, exc, exc_info=exc)
        self._evict(user_id)
        return StorageError()

    # ------------------------------------------------------------------ loading

    def _lock(self, user_id: int) -> asyncio.Lock:
        lock = self._locks.get(user_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[user_id] = lock
        return lock

    async def _playable(self, user_id: int, expected_version: int | None) -> _Entry:
        """The current game, checked against ``expected_version`` and not over."""
        entry = await self._entry(user_id)
        if entry is None:
            raise self._no_game()
        if expected_version is not None and expected_version != entry.version:
            raise StaleVersionError()
        if entry.finished:
            how = "won" if entry.status == "won" else "resigned"
            raise NoGameError(
                f"Your game of deal {entry.game.deal_number} is over ({how}). "
                f"Start a new one with {self._commands.new}."
            )
        return entry

    async def _entry(self, user_id: int) -> _Entry | None:
        """The user's current game from the cache, or rebuilt from its stored row."""
        entry = self._games.get(user_id)
        if entry is not None:
            self._games.move_to_end(user_id)
            return entry
        try:
            row = await self._store.load_game(user_id)
        except CorruptRowError as exc:  # a value of the wrong type
            self._corrupt(user_id, str(exc), None)
        except StoreError as exc:
            raise self._storage_failure(user_id, exc) from exc
        if row is None:
            return None
        try:
            game, chained = replay(row.variant, row.deal_number, row.moves)
        except _ReplayError as exc:
            self._corrupt(user_id, str(exc), row)
        if row.status not in ("playing", "stuck", "won", "resigned"):
            self._corrupt(user_id, f"status {row.status!r} is unknown", row)
        state = game.status
        if (row.status == "won") != (state is Status.WON):
            self._corrupt(user_id, f"status {row.status!r} but the game is {state.value}", row)
        proof = None
        if row.daily_date is not None:
            try:
                known = await self._stored_daily(row.daily_date)  # for the par on its board
            except StoreError as exc:
                raise self._storage_failure(user_id, exc) from exc
            if row.hint_line is None and known is not None and known.deal_number == row.deal_number:
                proof = _proof_of(known)  # a daily started before hint lines were stored
        if row.hint_line is not None:  # the line the hints continue, as before the restart
            proof = _stored_line(row.deal_number, row.hint_line, f"the game of user {user_id}")
        lost_after = None  # a hint's proof of loss, as before the restart
        if row.lost_line is not None:
            played = _stored_line(row.deal_number, row.lost_line, f"the loss of user {user_id}")
            back = row.lost_back
            if played is not None and back is not None and not 0 <= back <= len(played):
                log.warning("user %s: no move %s to undo back to in the stored loss", user_id, back)
                back = None
            if played is not None:
                lost_after = (played, back)
        entry = _Entry(
            game=game,
            chained=chained,
            variant=row.variant,
            guild_id=row.guild_id,
            version=row.version,
            undo_count=row.undo_count,
            status=row.status,  # type: ignore[arg-type]  # checked just above
            started_at=row.started_at,
            daily_date=row.daily_date,
            scored=row.scored,
            assisted=row.assisted,
            hint_line=proof or (),
            lost_after=lost_after,
        )
        self._cache_put(user_id, entry)
        return entry

    def _corrupt(self, user_id: int, reason: str, row: object) -> NoReturn:
        log.error("stored game of user %s is unreadable: %s; row: %r", user_id, reason, row)
        raise CorruptGameError(_corrupt_text(self._commands))

    def _no_game(self) -> NoGameError:
        return NoGameError(_no_game_text(self._commands))

    def _cache_put(self, user_id: int, entry: _Entry) -> None:
        self._games[user_id] = entry
        self._games.move_to_end(user_id)
        while len(self._games) > self._cache_size:
            self._games.popitem(last=False)

    def _evict(self, user_id: int) -> None:
        self._games.pop(user_id, None)

    async def _get_settings(self, user_id: int) -> Settings:
        settings = self._settings.get(user_id)
        if settings is not None:
            self._settings.move_to_end(user_id)
            return settings
        try:
            stored = await self._store.load_settings(user_id)
        except StoreError as exc:
            raise self._storage_failure(user_id, exc) from exc
        settings = (
            Settings()
            if stored is None
            else Settings(
                symbols=stored.symbols, auto_aces=stored.auto_aces, winnable=stored.winnable
            )
        )
        self._settings_put(user_id, settings)
        return settings

    def _settings_put(self, user_id: int, settings: Settings) -> None:
        self._settings[user_id] = settings
        self._settings.move_to_end(user_id)
        while len(self._settings) > self._cache_size:
            self._settings.popitem(last=False)

    # ------------------------------------------------------------------ views

    def _view(
        self,
        user_id: int,
        entry: _Entry,
        settings: Settings,
        message: str | None,
        warning: str | None = None,
    ) -> GameView:
        now = self._clock()
        today = utc_date(now)
        game = entry.game
        open_ = not entry.finished
        assert game.deal_number is not None
        day = entry.daily_date
        shared = None
        if day is not None and entry.scored and entry.finished:
            shared = share_text(
                day,
                won=entry.status == "won",
                score=game.score,
                moves=game.move_count,
                card_total=game.variant.card_total,
                assisted=entry.assisted,
            )
        return GameView(
            user_id=user_id,
            guild_id=entry.guild_id,
            deal_number=game.deal_number,
            board=render(game, settings.symbols),
            status=entry.state,
            score=game.score,
            move_count=game.move_count,
            undo_count=entry.undo_count,
            deals_left=game.deals_left,
            version=entry.version,
            can_deal=open_ and game.is_legal(DEAL),
            can_undo=open_ and entry.undo_point() is not None,
            can_auto=open_ and bool(game.safe_moves()),
            message=message,
            warning=warning,
            finished=entry.finished,
            daily_date=day,
            scored=entry.scored,
            share_text=shared,
            next_daily_at=None if day is None else next_daily_start(now),
            later_daily=today if day is not None and today > day else None,
            assisted=entry.assisted,
            par=self._par(day, game.deal_number),
            moves=tuple(
                _choice(game, move, settings.symbols)
                for move in (game.legal_moves() if open_ else ())
                if not move.is_deal
            ),
        )

    def _par(self, day: date | None, deal_number: int) -> int | None:
        """The par of the daily of ``day`` if that is the deal being played and it is known."""
        known = None if day is None else self._daily_deals.get(day)
        return known.par if known is not None and known.deal_number == deal_number else None


def _hint_message(
    source: HintSource,
    label: str | None,
    remaining: int | None,
    view: GameView,
    back_to: str | None = None,
) -> str:
    """The hint in a sentence or two for the player (``HintView.message``)."""
    if source == "solver":
        left = f"{remaining} move{'' if remaining == 1 else 's'}"
        text = f"Try {label}: it starts a winning line ({left} to the end)."
    elif source == "heuristic":
        text = (
            f"Try {label}. The solver found no winning line in the time it had, so this is "
            "the best move by rule of thumb."
        )
    elif source == "lost":
        if view.can_undo:
            text = "No winning line exists from here: this game can't be won any more."
        else:  # nothing played yet (or only automatic Aces): the deal itself is lost
            text = "No winning line exists: this deal can't be won, whatever you play."
        if view.can_undo and back_to is not None:
            text += f" It still could be at {back_to}: undo back to there."
        elif view.can_undo:
            text += " Undo may take you back to where it still could be."
        if label is not None:
            text += f" To get more cards home, try {label}."
    else:
        text = "There is nothing to hint: the game is over."
    if view.daily_date is not None and view.scored:
        text += " This daily is now marked as assisted on the leaderboard."
    return text
