"""``GameService``: the calls both front ends make, coordinating the service's parts.

Every player has at most one current game, across servers. A call names the
player; the service loads the game (from a bounded in-memory cache, or by
replaying the stored move list from the deal: ``bot.service.movelist``),
checks the call, plays it on the engine, writes the new state to the store in
its own transaction, and only then answers with a ``GameView``. If the write
fails the cached game is dropped, so memory never runs ahead of the disk.

Calls for one player are serialized by a per-player lock; calls for different
players run side by side. A mutating call may carry the version of the board
it was made from: if the game has changed since, it is refused with
``StaleVersionError`` and nothing is applied, so two clicks on the same
button play one move.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import random
from collections.abc import Awaitable, Callable, Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import asdict, replace
from datetime import date, datetime
from typing import Final, TypeVar, Unpack

from engine import (
    DEAL,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Status,
    parse_move,
)
from engine.notation import describe_move

from ..store import (
    CorruptRowError,
    DailyDeal,
    GameStatus,
    GameStore,
    GameUpdate,
    Outcome,
    SettingsCheck,
    StoreError,
    UserSettings,
)
from . import jobs
from .cache import LruCache, PlayerLocks, SettingsCache
from .contract import (
    GameView,
    HintView,
    LeaderboardKind,
    LeaderboardPage,
    LeaderboardScope,
    MoveChoice,
    PlayerStats,
    Settings,
    SettingsChange,
    utcnow,
)
from .dailies import DailyDeals
from .daily_rules import DAILY_CANDIDATES, RATING_GAMES
from .entry import GameInMemory, restore, stored_status, unreadable
from .errors import (
    HINT_OVERTAKEN_MESSAGE,
    STALE_HINT_MESSAGE,
    GameOverError,
    HintUnavailableError,
    MoveError,
    NoGameError,
    StaleVersionError,
    StorageError,
    storage_reason,
)
from .family import game_code
from .game_views import game_view, matching_choices
from .ghosts import Ghosts
from .hints import HINT_DEADLINE, HINT_NODES, HINT_SECONDS, Found, Hints, Question, answer
from .movelist import DEFAULT_VARIANT
from .outside import Outside
from .pool import POOL_FAILURES, SOLVER_WORKERS, SolverPool
from .practice import Practice, practised
from .proofs import DealProofs
from .races import Races
from .races.replays import RACE_KIND, RaceReplays
from .rankings import Rankings
from .reminders import Reminders
from .remote import Following, Listeners, RemoteChanges
from .replays import Replays
from .starts import NewGames
from .watching import Watching
from .wording import no_safe_move, played, sentence, too_many, with_aces

log = logging.getLogger(__name__)
V = TypeVar("V")

MAX_MOVE_TEXT: Final = 100
DAILY_RATING_GAMES = RATING_GAMES  # blind games a daily is rated from (tests set 0: none)
DEFAULT_SETTINGS = Settings()  # a new player's (tests of other features turn them off)
NOTHING_TO_UNDO: Final = "There is nothing to undo: this is the start of the game."
NOTHING_TO_REDO: Final = "There is nothing to redo: no move taken back is waiting to be played."


class _Unconfirmed(Exception):
    """A write checked against the game and settings in memory found them out of date in
    the store, and wrote nothing (``GameService._command``)."""


@functools.lru_cache(maxsize=128)  # 7 flags: each value made once (``asdict`` is slow)
def stored(settings: Settings) -> UserSettings:
    return UserSettings(**asdict(settings))


class GameService(NewGames):
    """One current game per user, kept in the store; see the module docstring."""

    def __init__(
        self,
        store: GameStore,
        *,
        cache_size: int = 1024,
        clock: Callable[[], datetime] = utcnow,
        rng: random.Random | None = None,
        executor: Executor | None = None,
        solver_workers: int = SOLVER_WORKERS,
        hint_seconds: float = HINT_SECONDS,
        hint_nodes: int = HINT_NODES,
        hint_deadline: float | None = None,
        daily_candidates: int = DAILY_CANDIDATES,
        warm_next_daily: bool = False,
        new_player: Settings | None = None,
        daily_rating_games: int | None = None,
    ) -> None:
        """``executor`` runs the solver jobs (default: a process pool of
        ``solver_workers`` processes, started at the first need); the service
        shuts it down in ``close``. ``hint_seconds`` and ``hint_nodes`` are the
        solver's budget for a hint, ``hint_deadline`` the wall-clock seconds a hint may
        take in all (default ``HINT_DEADLINE``: ``bot.service.hints``).
        ``daily_candidates``: deals the daily search tries before it falls back
        (``daily_rules.find_daily_deal``), and the search for a winnable random deal too;
        ``warm_next_daily``: after a daily is dealt, find tomorrow's in the background
        (the bot does; tests and the terminal don't); ``new_player``: the settings of
        a player who has chosen none (default ``DEFAULT_SETTINGS``: winnable deals,
        automatic Aces); ``daily_rating_games``: blind games each daily's difficulty is
        rated from (default ``DAILY_RATING_GAMES``; 0: not rated)."""
        self._store = store
        self._clock = clock
        self._rng = rng or random.Random()
        self._new_player = new_player or DEFAULT_SETTINGS
        self.games: LruCache[GameInMemory] = LruCache(cache_size)  # current games in memory
        self.locks = PlayerLocks()
        self._settings = SettingsCache(cache_size, self.locks, store, self._new_player)
        self._new_stored = stored(self._new_player)
        self._pool = SolverPool(executor, solver_workers)
        rating = DAILY_RATING_GAMES if daily_rating_games is None else daily_rating_games
        self._dailies = DailyDeals(store, self._pool, daily_candidates, warm_next_daily, rating)
        self._proofs = DealProofs(self._pool, daily_candidates)
        deadline = HINT_DEADLINE if hint_deadline is None else hint_deadline
        self._hints = Hints(self._pool, hint_seconds, hint_nodes, deadline)
        self._rankings = Rankings(store, self._dailies, clock)
        store.on_reopen(self._forget)
        parts = (self.locks, self._old_entry, self._start, self._view, self.daily_deal)
        self.practice = Practice(*parts, clock)  # past dailies, unscored (docs/daily.md)
        self.reminders = Reminders(store, clock)  # the streak reminder: who, and who had one
        # docs/races.md; the computer racers think in the solver pool
        self.races = Races(store.races, clock, self._rng, self._proofs, self._pool)
        self.races.follows_others = store.tells_changes  # other shards' races too
        self.replays = Replays(store, self._pool, self._dailies, clock, self.get_settings)
        self.race_replays = RaceReplays(store.races)  # a racer's game, once the race is over
        self.replays.register(RACE_KIND, self.race_replays.recorded)
        self.ghosts = Ghosts(store, self.show)  # the daily's ghost: its line in ``_view``
        self.watching = Watching(self.show, self.get_settings, clock)  # spectators' rules
        self._listeners = Listeners(store, self.races)  # other processes': remote, outside
        self.remote = RemoteChanges(self._listeners.tell, self.races, self.catch_up)
        store.follow_changes(self.remote)
        self._outside = Outside(store, self.locks, cache_size, self.remote.written_outside)

    async def daily_rating(self, day: date, variant: str = DEFAULT_VARIANT) -> str | None:
        """The difficulty of ``day``'s daily of ``variant`` (docs/daily.md), once the rating
        under way (if one is) has ended; None if it is not rated."""
        await self._dailies.rated(day, variant)
        known = await self._dailies.stored(day, variant)
        return None if known is None else known.rating

    async def computer_game(
        self, deal_number: int, variant: str = DEFAULT_VARIANT
    ) -> tuple[tuple[int, int], ...]:
        """The blind player's game of the deal, played in the solver pool (``reel play
        --versus``): (cards home, moves) after each of its moves, the deal first.
        ``HintUnavailableError`` if the pool fails."""
        try:
            return await self._pool.run(jobs.blind_game_job, deal_number, game_code(variant))
        except POOL_FAILURES as exc:
            log.error("the computer's game of deal %s failed in the pool: %s", deal_number, exc)
            self._pool.reset()
            raise HintUnavailableError() from exc

    def on_change(
        self, listener: Callable[[int, int], None], following: Following | None = None
    ) -> None:
        """Call ``listener(user_id, version)`` each time a player's game is saved changed
        (a move, an undo, a new game), once it is stored, by this process or, on a shared
        database, another (``remote``): live boards that follow a game (spectators, web
        boards) redraw from it. A listener must not block (it schedules its own work); an
        error it raises is logged, not the caller's. ``following()``: the players it
        follows now, each told their stored version when changes may have been missed
        (``catch_up``), so that it can redraw those that moved on meanwhile: on an SQLite
        file, when a look finds that another process wrote (``outside.py``)."""
        self._listeners.add(listener, following)
        if following is not None and not self._store.tells_changes:
            self._outside.poll(self._listeners.following)

    def _changed(self, user_id: int, version: int) -> None:
        self._listeners.tell(user_id, version)

    async def catch_up(self, races: bool = True) -> None:
        """Changes may have been missed (``remote``): each listener told the stored version
        of each player it follows, and every open race read again (with ``races``: on
        SQLite a race is its process's alone). ``StoreError`` if the database can't be read."""
        await self._listeners.catch_up(races)

    def _forget(self) -> None:
        """The database was opened again (a file replaced, a fault): what is in memory
        may not be what it holds, so it is read again."""
        self.games.clear()
        self._settings.clear()

    @property
    def store(self) -> GameStore:
        return self._store

    @property
    def solver(self) -> SolverPool:
        """The solver's worker pool (its figures: jobs in flight, failed, timed out)."""
        return self._pool

    async def close(self) -> None:
        """Stop the solver pool and close the store (calls already queued on it finish first)."""
        self.games.clear()
        self._settings.clear()
        await self._outside.close()
        await self.remote.close()
        await self.races.close()
        await self._dailies.close()
        if self.races.computers is not None:
            await self.races.computers.close()
        await self._pool.close()
        await self._store.close()

    # ------------------------------------------------------------------ playing

    async def show(self, user_id: int, *, reopened: bool = False) -> GameView:
        """The current game (or the last one, over), as it stands. NoGameError if none.
        ``reopened``: a front end shows it again after being closed (the terminal at its
        start), so the time it was closed is not counted on the game clock."""
        async with self.locks(user_id):
            entry = await self._entry(user_id)
            if entry is None:
                raise NoGameError()
            if reopened:
                entry.resume(self._clock())
            return await self._view(user_id, entry, None)

    async def pause(self, user_id: int) -> None:
        """The player closes the game (the terminal quits): its clock is saved as it stands,
        the pause since the last action counted (up to the cap); the rest is unchanged.
        Nothing for a game over, or none. ``show(reopened=True)`` is its other half."""
        async with self.locks(user_id):
            entry = await self._entry(user_id)
            if entry is None or entry.finished:
                return
            with self._forgotten_on_failure(user_id):
                await self._save(user_id, entry, None)

    async def move(self, user_id: int, text: str, expected_version: int | None = None) -> GameView:
        """Play a move given as text in the notation (``r3 a5``, ``5h``, ``deal``)."""

        async def play(entry: GameInMemory) -> GameView:
            if len(text) > MAX_MOVE_TEXT:
                raise MoveError(
                    f"That is too long for a move: type FROM TO, like 'r3 a5' (at most "
                    f"{MAX_MOVE_TEXT} characters)."
                )
            try:
                move = parse_move(entry.game, text)
                entry.game.kind(move)
            except (InvalidMoveError, AmbiguousMoveError, IllegalMoveError) as exc:
                raise MoveError(sentence(str(exc))) from None
            return await self._play(user_id, entry, [move])

        return await self._command(user_id, expected_version, play)

    async def deal(self, user_id: int, expected_version: int | None = None) -> GameView:
        """Deal a card onto each reserve pile."""

        async def play(entry: GameInMemory) -> GameView:
            try:
                entry.game.kind(DEAL)
            except IllegalMoveError as exc:
                raise MoveError(sentence(str(exc))) from None
            return await self._play(user_id, entry, [DEAL])

        return await self._command(user_id, expected_version, play)

    async def auto(self, user_id: int, expected_version: int | None = None) -> GameView:
        """Play every safe move (reserve Aces to the Ace pile) until none is left."""

        async def play(entry: GameInMemory) -> GameView:
            if not entry.game.safe_moves():
                raise MoveError(no_safe_move(entry.game))
            return await self._play(user_id, entry, [], auto=True)

        return await self._command(user_id, expected_version, play)

    async def _command(
        self,
        user_id: int,
        expected_version: int | None,
        body: Callable[[GameInMemory], Awaitable[V]],
    ) -> V:
        """Run ``body``, a command that saves the game when it succeeds, on the player's
        playable game (``_playable``), the player's lock held.

        On a shared database that costs a read before the write, unless this process
        has the game in memory at the version the command expects and remembers the
        player's settings: then ``body`` runs on those as they are, and its write checks
        that neither has changed in the store (the version, and ``GameUpdate.settings``),
        so a move is one round trip. If the write finds a change, or ``body`` refuses
        (what it refused may be out of date), it runs again on what is read."""
        async with self.locks(user_id):
            entry = self._unread(user_id, expected_version)
            if entry is not None:
                try:
                    return await body(entry)
                except (MoveError, _Unconfirmed):
                    self._settings.drop(user_id)  # the guess: read them again
            return await body(await self._playable(user_id, expected_version))

    def _unread(self, user_id: int, expected_version: int | None) -> GameInMemory | None:
        """The game in memory with the settings last read taken as this call's (the
        write checks both: ``_command``, so another process's write is never missed, and
        a move needs no look: ``outside.py``); else None (read, or looked at)."""
        entry = self.games.get(user_id)
        if entry is None or entry.finished or expected_version not in (None, entry.version):
            return None
        return entry if self._settings.guess(user_id) is not None else None

    async def undo(
        self, user_id: int, expected_version: int | None = None, count: int = 1
    ) -> GameView:
        """Take back the last ``count`` commands (each with the automatic moves that
        followed it); redo plays them again until a new move is played."""

        async def take_back(entry: GameInMemory) -> GameView:
            if entry.undoable == 0:
                raise MoveError(NOTHING_TO_UNDO)
            point = entry.commands_back(count) if count >= 1 else None
            if point is None:
                raise MoveError(too_many("take back", entry.undoable, count))
            return await self._undo_commands(user_id, entry, point, None)

        return await self._command(user_id, expected_version, take_back)

    async def redo(
        self, user_id: int, expected_version: int | None = None, count: int = 1
    ) -> GameView:
        """Play again the last ``count`` commands taken back (until a new move is played)."""

        async def play_again(entry: GameInMemory) -> GameView:
            if entry.redoable == 0:
                raise MoveError(NOTHING_TO_REDO)
            moves = entry.commands_ahead(count) if count >= 1 else None
            if moves is None:
                raise MoveError(too_many("play again", entry.redoable, count))
            return await self._redo_commands(user_id, entry, moves, count)

        return await self._command(user_id, expected_version, play_again)

    async def _redo_commands(
        self, user_id: int, entry: GameInMemory, moves: int, count: int
    ) -> GameView:
        """Play again the ``count`` commands taken back (``moves`` moves), and save."""
        settings = await self._get_settings(user_id)
        first = describe_move(entry.game, entry.undone[-1][0], settings.symbols)
        with self._forgotten_on_failure(user_id):
            for _ in range(moves):
                entry.redo()
            won = await self._save_played(user_id, entry)
        aces = with_aces(moves - count, count)
        where = entry.move_name(entry.game.move_count)
        message = (
            f"Redid {first}{aces}" if count == 1 else f"Redid {count} moves{aces}: now at {where}"
        )
        if won:
            message += f" · You won deal {entry.deal_number}!"
        return await self._view(user_id, entry, message)

    async def restart(self, user_id: int, expected_version: int | None = None) -> GameView:
        """Start the game over from its deal: every command taken back at once (one undo),
        the same game still, so it counts once in the stats; redo brings the moves back."""

        async def start_over(entry: GameInMemory) -> GameView:
            point = entry.commands_back(entry.undoable) if entry.undoable else None
            if point is None:
                raise MoveError("There is nothing to restart: no move has been played yet.")
            message = f"Restarted deal {entry.deal_number}: back at the start"
            return await self._undo_commands(user_id, entry, point, message, undos=1)

        return await self._command(user_id, expected_version, start_over)

    async def undo_to(
        self, user_id: int, move_count: int, expected_version: int | None = None
    ) -> GameView:
        """Take back commands until the game is back at ``move_count`` moves (one that a
        lost game's hint names: ``HintView.winnable_at``), saved once.

        Refused, changing nothing, unless ``move_count`` is earlier than the game's
        and is where a command starts (undo stops only there)."""

        async def go_back(entry: GameInMemory) -> GameView:
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
            aces = with_aces(now - move_count - taken, taken)
            note = f"Back at {where}: took back {taken} move{'' if taken == 1 else 's'}{aces}"
            return await self._undo_commands(user_id, entry, move_count, note)

        return await self._command(user_id, expected_version, go_back)

    async def _undo_commands(
        self,
        user_id: int,
        entry: GameInMemory,
        point: int,
        message: str | None,
        undos: int | None = None,
    ) -> GameView:
        """Undo ``entry``'s game back to ``point`` moves (a command's start), counting each
        command taken back as an undo (or ``undos`` in all), and save; ``message`` (or
        "Undid <the one>", "Took back N moves: back at move M")."""
        settings = await self._get_settings(user_id)
        game = entry.game
        before, commands = game.move_count, 0
        with self._forgotten_on_failure(user_id):
            move = None
            while game.move_count > point:
                commands += not entry.chained[-1]  # the move that started a command
                move = entry.undo()
            assert move is not None
            entry.undo_count += commands if undos is None else undos
            entry.refresh()
            await self._save(user_id, entry, None)
        aces = with_aces(before - point - commands, commands)
        if message is None and commands == 1:
            message = f"Undid {describe_move(game, move, settings.symbols)}{aces}"
        elif message is None:
            message = f"Took back {commands} moves{aces}: back at {entry.move_name(point)}"
        return await self._view(user_id, entry, message)

    async def resign(self, user_id: int, expected_version: int | None = None) -> GameView:
        """Give up the current game; it is recorded as resigned."""

        async def give_up(entry: GameInMemory) -> GameView:
            with self._forgotten_on_failure(user_id):
                await self._save(user_id, entry, "resigned")
            game = entry.game
            message = (
                f"You resigned deal {game.deal_number} with {game.score}/"
                f"{game.variant.card_total} cards home."
            )
            return await self._view(user_id, entry, message)

        return await self._command(user_id, expected_version, give_up)

    async def move_choices(
        self, user_id: int, typed: str = "", limit: int = 25
    ) -> list[MoveChoice]:
        """Legal moves, most useful first, whose text or label contains ``typed``.

        Empty when the user has no game in progress. Order: Aces, builds,
        interchanges, fills, the deal (the engine's ``legal_moves`` order).
        """
        if limit <= 0:
            return []
        async with self.locks(user_id):
            entry = await self._entry(user_id)
            if entry is None or entry.finished:
                return []
            symbols = (await self._get_settings(user_id)).symbols
            return matching_choices(entry.game, typed, symbols, limit)

    async def hint(
        self,
        user_id: int,
        expected_version: int | None = None,
        *,
        on_search: Callable[[], None] | None = None,
    ) -> HintView:
        """What to play next (see ``HintView``); the game is marked assisted. Nothing is played.

        The game is read under the player's lock; the solver then searches in the process
        pool without it (``bot.service.hints``), so the player's other calls, like
        everyone else's, go on meanwhile, and within ``hint_deadline`` seconds, after which
        the hint is the rule of thumb's move, said as such. If the game has moved on by
        then (a move, an undo, a new game), no hint is given and nothing is marked:
        ``StaleVersionError`` (``HINT_OVERTAKEN_MESSAGE``). ``on_search`` is called just
        before a search starts (a front end can say that it is thinking), and not when
        the answer is known already.
        """
        async with self.locks(user_id):
            try:
                entry = await self._playable(user_id, expected_version)
            except StaleVersionError:
                raise StaleVersionError(STALE_HINT_MESSAGE) from None
            question = self._hints.ask(entry, (await self._get_settings(user_id)).fair_hints)
            if question.known is not None:  # no search: answered under this hold
                return await self._hinted(user_id, entry, question, Found(question.known))
        found = await self._hints.search(user_id, question, on_search)
        async with self.locks(user_id):
            now = await self._entry(user_id)
            if now is None or now.version != question.version:
                raise StaleVersionError(HINT_OVERTAKEN_MESSAGE)  # dropped: for a past game
            return await self._hinted(user_id, now, question, found)

    async def _hinted(
        self, user_id: int, entry: GameInMemory, question: Question, found: Found
    ) -> HintView:
        """The hint ``found`` for ``entry``'s game, at ``question.version``: what it taught
        kept, the game marked assisted (the player's lock held)."""
        learned = self._hints.settle(entry, question, found)
        newly = not entry.assisted
        if newly or learned is not None:
            line = None if learned is None else learned.line
            loss = None if learned is None else learned.loss
            try:
                marked = await self._store.mark_assisted(user_id, entry.version, line, loss)
            except StoreError as exc:
                raise self._storage_failure(user_id, exc) from exc
            if not marked:
                self.games.drop(user_id)
                raise StaleVersionError(STALE_HINT_MESSAGE)
            entry.assisted = True
        settings = await self._get_settings(user_id)
        view = await self._view(user_id, entry, None)
        return answer(entry, found.hint, view, settings.symbols, newly, question.fair)

    async def _play(
        self, user_id: int, entry: GameInMemory, moves: Iterable[Move], *, auto: bool = False
    ) -> GameView:
        """Play the command's moves (already checked legal), then automatic Aces, then save."""
        settings = await self._get_settings(user_id)
        game = entry.game
        labels: list[str] = []
        warning: str | None = None
        with self._forgotten_on_failure(user_id):
            entry.undone.clear()  # a new command: what was taken back can't be redone
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
            won = await self._save_played(user_id, entry)
        message = "Auto: " + ", ".join(labels) if auto else played(labels)
        if won:
            message += f" · You won deal {game.deal_number}!"
        return await self._view(user_id, entry, message, warning)

    @contextlib.contextmanager
    def _forgotten_on_failure(self, user_id: int) -> Iterator[None]:
        """Around changes made to the player's entry in place and their save: if anything
        fails, the entry is dropped from memory (the stored game is read next time)."""
        try:
            yield
        except BaseException:
            self.games.drop(user_id)
            raise

    async def _save_played(self, user_id: int, entry: GameInMemory) -> bool:
        """Save the moves played (or played again) on ``entry``: whether they won."""
        entry.refresh()
        won = entry.state is Status.WON
        await self._save(user_id, entry, "won" if won else None)
        return won

    async def _save(self, user_id: int, entry: GameInMemory, outcome: Outcome | None) -> None:
        """Write the entry's new state (version + 1), recording the game if ``outcome``.

        The caller has changed ``entry`` in place and drops it from the cache
        if this raises.
        """
        now = self._clock()
        status: GameStatus = "resigned" if outcome == "resigned" else stored_status(entry.state)
        entry.tick(now)
        guess = self._settings.unconfirmed(user_id)
        check = None if guess is None else SettingsCheck(stored(guess), self._new_stored)
        update = GameUpdate(
            user_id=user_id,
            expected_version=entry.version,
            version=entry.version + 1,
            moves=entry.moves_text,
            status=status,
            undo_count=entry.undo_count,
            updated_at=now,
            redo=entry.redo_text,
            played_ms=entry.played_ms,
            settings=check,
        )
        finished = None if outcome is None else entry.record(user_id, outcome, now)
        finished = None if practised(entry) else finished  # practice: never recorded
        seen = self._outside.count
        try:
            saved = await self._store.save_game(update, finished)
        except StoreError as exc:
            raise self._storage_failure(user_id, exc) from exc
        if not saved and guess is not None:
            raise _Unconfirmed()  # worked out on a game or settings out of date: ``_command``
        if not saved:
            log.warning(
                "game of user %s changed under us (not at version %s)", user_id, entry.version
            )
            raise StaleVersionError()
        self._settings.confirm(user_id, seen)
        entry.version += 1
        entry.status, entry.seen = status, seen
        self.games.put(user_id, entry)
        self._changed(user_id, entry.version)

    def _storage_failure(self, user_id: int, exc: BaseException) -> StorageError:
        """The refusal for a store error (logged; the user's game is read again next time)."""
        reason = storage_reason(exc)
        if reason == "busy":  # a stall or a long lock: worth a line, not a traceback
            log.warning("database busy for user %s: %s", user_id, exc)
        else:
            log.error("database failure for user %s: %s", user_id, exc, exc_info=exc)
        self.games.drop(user_id)
        return StorageError(reason=reason)

    # ------------------------------------------------------------------ settings

    async def get_settings(self, user_id: int) -> Settings:
        async with self.locks(user_id):
            return await self._get_settings(user_id)

    async def update_settings(self, user_id: int, **changes: Unpack[SettingsChange]) -> Settings:
        """Change some settings (those given, not None: ``SettingsChange``); the others
        keep their values."""
        async with self.locks(user_id):
            old = await self._get_settings(user_id)
            new = replace(old, **{k: bool(v) for k, v in changes.items() if v is not None})
            self._settings.drop(user_id)
            seen = self._outside.count
            try:
                await self._store.save_settings(user_id, stored(new))
            except StoreError as exc:
                raise self._storage_failure(user_id, exc) from exc
            self._settings.put(user_id, new, seen)
            self.watching.settings_saved(user_id, new)
            return new

    async def _get_settings(self, user_id: int) -> Settings:
        """The player's settings: as this call read them, or as remembered while no other
        process has written since (an SQLite file: ``outside.py``); else read, one row."""
        settings = self._settings.get(user_id)
        if settings is not None:
            return settings
        kept = self._settings.kept(user_id)
        try:
            if kept is not None and await self._outside.unchanged(user_id, kept[0]):
                return kept[1]
            seen = self._outside.count
            stored = await self._store.load_settings(user_id)
        except StoreError as exc:
            raise self._storage_failure(user_id, exc) from exc
        settings = self._new_player if stored is None else Settings(**asdict(stored))
        self._settings.put(user_id, settings, seen)
        return settings

    # ------------------------------------------------------------------ rankings

    async def leaderboard(
        self,
        kind: LeaderboardKind = "daily",
        scope: LeaderboardScope = "server",
        guild_id: int | None = None,
        *,
        day: date | None = None,
        page: int = 0,
        page_size: int = 10,
        variant: str = DEFAULT_VARIANT,
    ) -> LeaderboardPage:
        """A page of a leaderboard of ``variant`` (``Rankings.leaderboard``; docs/daily.md)."""
        return await self._rankings.leaderboard(
            kind, scope, guild_id, day=day, page=page, page_size=page_size,
            variant=game_code(variant),
        )  # fmt: skip

    async def stats(self, user_id: int, variant: str | None = None) -> PlayerStats:
        """The user's figures over their finished games of ``variant`` (by default their
        current game's, else Virginia Reel; zeros for a new player), and their record on
        the deal of their current game if it is of that game."""
        async with self.locks(user_id):
            entry, code = await self._old_entry(user_id), await self._game_of(user_id, variant)
        deal = None if entry is None or entry.variant != code else entry.deal_number
        stats = await self._rankings.stats(user_id, deal, code)
        raced = await self.races.record(user_id)  # races over (docs/races.md)
        return replace(stats, races=raced.played, race_wins=raced.won, best_place=raced.best_place)

    # ------------------------------------------------------------------ loading

    async def _playable(self, user_id: int, expected_version: int | None) -> GameInMemory:
        """The current game, checked against ``expected_version`` and not over."""
        entry = await self._entry(user_id)
        if entry is None:
            raise NoGameError()
        if expected_version is not None and expected_version != entry.version:
            raise StaleVersionError()
        if entry.finished:
            how = "won" if entry.status == "won" else "resigned"
            raise GameOverError(entry.deal_number, how)
        return entry

    async def _entry(self, user_id: int) -> GameInMemory | None:
        """The user's current game from the cache, or rebuilt from its stored row. The
        cache is used only at the stored version (docs/storage.md): while no other process
        has written the SQLite file since (``outside.py``), or as read by this call."""
        entry = self.games.get(user_id)
        if entry is not None and entry.version == self._settings.version_read(user_id):
            return entry  # this call has read the stored version already
        try:
            if entry is not None and await self._outside.unchanged(user_id, entry.seen):
                return entry
            seen, stored_version = self._outside.count, self._settings.stored_version
            if entry is not None and await stored_version(user_id, seen) == entry.version:
                entry.seen = seen
                return entry
            row = await self._store.load_game(user_id)
            # the daily's deal: for the par on its board, and the line of an old row
            daily = None if row is None else await self._daily_of(row.daily_date, row.variant)
        except CorruptRowError as exc:  # a value of the wrong type
            unreadable(user_id, str(exc), None)
        except StoreError as exc:
            raise self._storage_failure(user_id, exc) from exc
        if row is None:
            return None
        entry = restore(row, daily)
        entry.seen = seen
        self.games.put(user_id, entry)
        return entry

    async def _daily_of(self, day: date | None, variant: str) -> DailyDeal | None:
        return None if day is None else await self._dailies.stored(day, variant)

    async def _view(
        self, user_id: int, entry: GameInMemory, message: str | None, warning: str | None = None
    ) -> GameView:
        settings = await self._get_settings(user_id)
        daily = self._dailies.known(entry.daily_date, entry.deal_number, entry.variant)
        par, rating = (None, None) if daily is None else (daily.par, daily.rating)
        now = self._clock()
        view = game_view(user_id, entry, settings, now, par, message, warning, rating)
        return await self.ghosts.decorate(user_id, view)
