"""A game in memory (``GameInMemory``): the engine's game and what the service keeps
with it, dealt new or rebuilt from its stored row."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Final, NoReturn, cast

from engine import Game, LineError, Move, Status, format_line, play_line, variant_by_code
from engine.notation import LINE_SEPARATOR, format_line_move

from ..store import GAME_STATUSES, CurrentGame, DailyDeal, FinishedGame, GameStatus, Outcome
from . import movelist
from .errors import (
    NEWER_GAME_MESSAGE,
    CorruptGameError,
    DailyInProgressError,
    StaleVersionError,
)
from .movelist import DEFAULT_VARIANT, ReplayError, move_tokens, stored_line

log = logging.getLogger(__name__)

FINISHED_STATUSES: Final = frozenset({"won", "resigned"})
PAUSE_CAP_MS: Final = 3 * 60 * 1000
"""The game clock counts each pause between two of the player's actions up to this: a
longer one is time away from the game (docs/rules.md, "The clock")."""

# What a hint's proof of loss keeps: the moves played when the solver proved the game
# lost, and the last move count from which it could still be won (None: none found).
LostAfter = tuple[tuple[Move, ...], int | None]


@dataclass(slots=True)
class GameInMemory:
    """A game in memory, as it stands on disk: a player's current game, or a racer's game
    in a race (``races/state.py``)."""

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
    # What the last hint found, for the next ones (``bot.service.hints``): a winning
    # line from the deal (the moves played then and the solver's line), or, when
    # the solver proved the game lost, its proof of loss.
    hint_line: tuple[Move, ...] = ()
    lost_after: LostAfter | None = None
    # The moves taken back, for redo: a stack, the next to play again last, each with
    # its automatic flag. A new command clears it.
    undone: list[tuple[Move, bool]] = field(default_factory=list)
    # The game clock: milliseconds of play counted up to ``clock_at`` (the last action,
    # as stored; or when a front end showed the game again, ``resume``); None: the deal.
    played_ms: int = 0
    clock_at: datetime | None = None
    # The count of other processes' writes read before this was read or written: it is
    # as stored while the count is still that (``bot/service/outside.py``).
    seen: int = -1
    # The stored move list's items, kept along with ``chained`` by ``play`` and
    # ``undo``, so a save joins them instead of re-encoding every move.
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

    @property
    def redo_text(self) -> str:
        """The moves redo plays again as stored: a line, the next one first."""
        ahead = self.undone[::-1]
        return format_line([m for m, _ in ahead], [auto for _, auto in ahead])

    @property
    def deal_number(self) -> int:
        number = self.game.deal_number
        assert number is not None  # the service's games are all dealt by number
        return number

    @property
    def scored_daily(self) -> bool:
        """The player's scored attempt at a daily (its result goes on the daily board)."""
        return self.daily_date is not None and self.scored

    def play(self, move: Move, auto: bool) -> None:
        """Play a legal ``move`` on the game and record it (``auto``: chained to the command)."""
        canonical = self.game.canonical(move)  # as the game's history will hold it
        self.game.play(move)
        self.chained.append(auto)
        self.tokens.append(format_line_move(canonical, auto))

    def undo(self) -> Move:
        """Take back the game's last move and its record, keeping it for redo; return it."""
        move = self.game.undo()
        self.undone.append((move, self.chained.pop()))
        self.tokens.pop()
        return move

    def redo(self) -> Move:
        """Play again the last move taken back (``undone`` is not empty); return it."""
        move, auto = self.undone.pop()
        self.play(move, auto)
        return move

    def commands_back(self, count: int) -> int | None:
        """The history length after undoing the last ``count`` commands; None if there
        are fewer than ``count`` to undo."""
        taken = 0
        for i in range(len(self.chained) - 1, -1, -1):
            if not self.chained[i]:
                taken += 1
                if taken == count:
                    return i
        return None

    def commands_ahead(self, count: int) -> int | None:
        """The number of moves that redoing the next ``count`` commands plays; None if
        fewer than ``count`` were taken back."""
        found = 0
        for i in range(len(self.undone) - 1, -1, -1):
            if not self.undone[i][1]:
                found += 1
                if found == count + 1:
                    return len(self.undone) - 1 - i
        return len(self.undone) if found == count else None

    @property
    def undoable(self) -> int:
        """Commands that undo can take back."""
        return sum(1 for auto in self.chained if not auto)

    @property
    def redoable(self) -> int:
        """Commands taken back that redo can play again."""
        return sum(1 for _, auto in self.undone if not auto)

    def move_name(self, count: int) -> str:
        """The position after ``count`` moves, for the player: "move 5", or "the start"
        when only automatic Aces come before it (the game as dealt)."""
        return "the start" if all(self.chained[:count]) else f"move {count}"

    def undo_point(self) -> int | None:
        """The history length after undoing the last command; None if there is none."""
        return self.commands_back(1)

    def untouched(self) -> bool:
        """An ordinary game the player never played (only automatic Aces, no undo, not stuck).

        Replacing it records nothing: a deal looked at and passed over is not a game
        played and lost. A scored daily is always recorded (it is the day's result).
        """
        playing = self.state is Status.PLAYING
        return not self.scored_daily and playing and self.undo_count == 0 and all(self.chained)

    def daily_in_play(self) -> bool:
        """The day's scored daily, neither over nor stuck: a new game must not end it."""
        return self.scored_daily and not self.finished and self.state is not Status.STUCK

    def played_at(self, now: datetime) -> int:
        """Milliseconds of play at ``now``: the clock as counted, and the pause since, up
        to ``PAUSE_CAP_MS``."""
        since = self.clock_at or self.started_at
        pause = int((now - since).total_seconds() * 1000)
        return self.played_ms + min(max(pause, 0), PAUSE_CAP_MS)

    def tick(self, now: datetime) -> None:
        """Count the pause up to ``now`` on the clock (an action at ``now``)."""
        self.played_ms, self.clock_at = self.played_at(now), now

    def resume(self, now: datetime) -> None:
        """The game is shown again after being closed (the terminal at its start): the
        time since the last action is not counted."""
        self.clock_at = now

    def record(self, user_id: int, outcome: Outcome, now: datetime) -> FinishedGame:
        """The game's result, to store when it ends with ``outcome`` at ``now``."""
        game = self.game
        return FinishedGame(
            user_id=user_id,
            guild_id=self.guild_id,
            variant=self.variant,
            deal_number=self.deal_number,
            outcome=outcome,
            score=game.score,
            moves=self.moves_text,
            undos=self.undo_count,
            duration_s=self.played_at(now) // 1000,
            started_at=self.started_at,
            finished_at=now,
            daily_date=self.daily_date if self.scored else None,
            assisted=self.assisted,
        )


def stored_status(status: Status) -> GameStatus:
    """How the engine's status of a game in play is stored."""
    if status is Status.WON:
        return "won"
    return "stuck" if status is Status.STUCK else "playing"


def dealt(
    deal_number: int,
    guild_id: int | None,
    now: datetime,
    *,
    auto_aces: bool,
    daily_date: date | None = None,
    scored: bool = True,
    proof: tuple[Move, ...] | None = None,
    variant_code: str = DEFAULT_VARIANT,
) -> GameInMemory:
    """A new game of ``deal_number`` of the game ``variant_code``, not stored yet (version
    0), its Aces played at once if ``auto_aces``; ``proof``, the solver's winning line of
    the deal, starts its hints."""
    variant = variant_by_code(variant_code)
    game = movelist.new_deal(deal_number, variant)
    chained = [True] * len(game.play_safe_moves()) if auto_aces else []
    entry = GameInMemory(
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
        hint_line=proof or (),
    )
    entry.status = stored_status(entry.state)
    return entry


def proof_of(deal: DailyDeal) -> tuple[Move, ...] | None:
    """The daily's stored winning line as moves; None if it has none, or if it no longer
    replays (logged: the game is dealt all the same, and its hints search)."""
    if deal.line is None:
        return None
    return stored_line(deal.deal_number, deal.line, f"the daily of {deal.day}", deal.variant)


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


def restore(row: CurrentGame, daily: DailyDeal | None) -> GameInMemory:
    """The current game a stored row describes, with the hints' line and proof of loss.

    ``daily``: the deal of the row's daily date, if it is a daily and the deal is
    known (a daily started before hint lines were stored takes its line from it).
    Raises ``CorruptGameError``, logged with the row, if the row is unsound.
    """
    user_id = row.user_id
    try:
        game, chained = movelist.replay(row.variant, row.deal_number, row.moves)
    except ReplayError as exc:
        unreadable(user_id, str(exc), row)
    if row.status not in GAME_STATUSES:
        unreadable(user_id, f"status {row.status!r} is unknown", row)
    state = game.status
    if (row.status == "won") != (state is Status.WON):
        unreadable(user_id, f"status {row.status!r} but the game is {state.value}", row)
    proof = None
    if row.hint_line is not None:  # the line the hints continue, as before the restart
        what = f"the game of user {user_id}"
        proof = stored_line(row.deal_number, row.hint_line, what, row.variant)
    elif daily is not None and daily.deal_number == row.deal_number:
        proof = proof_of(daily)
    entry = GameInMemory(
        game=game,
        chained=chained,
        variant=row.variant,
        guild_id=row.guild_id,
        version=row.version,
        undo_count=row.undo_count,
        status=cast(GameStatus, row.status),  # checked just above
        started_at=row.started_at,
        daily_date=row.daily_date,
        scored=row.scored,
        assisted=row.assisted,
        hint_line=proof or (),
        lost_after=_stored_loss(row),
        played_ms=row.played_ms,
        clock_at=row.updated_at,
    )
    entry.undone = _stored_redo(game, row)
    return entry


def _stored_redo(game: Game, row: CurrentGame) -> list[tuple[Move, bool]]:
    """The moves redo may play again, as stored with the row; none, logged, if they no
    longer play from the game as it stands (redo is then just not offered)."""
    if not row.redo:
        return []
    ahead = game.copy()
    try:
        flags = play_line(ahead, row.redo)
    except LineError as exc:
        log.warning("user %s: the stored moves to redo do not replay: %s", row.user_id, exc)
        return []
    moves = ahead.history[game.move_count :]
    return list(zip(moves, flags, strict=True))[::-1]


def _stored_loss(row: CurrentGame) -> LostAfter | None:
    """A hint's proof of loss as stored with the row, as before the restart."""
    if row.lost_line is None:
        return None
    user_id = row.user_id
    what = f"the loss of user {user_id}"
    played = stored_line(row.deal_number, row.lost_line, what, row.variant)
    if played is None:
        return None
    back = row.lost_back
    if back is not None and not 0 <= back <= len(played):
        log.warning("user %s: no move %s to undo back to in the stored loss", user_id, back)
        back = None
    return played, back


def unreadable(user_id: int, reason: str, row: object) -> NoReturn:
    """Log a stored game that can't be read, with its row, and refuse the call."""
    log.error("stored game of user %s is unreadable: %s; row: %r", user_id, reason, row)
    raise CorruptGameError()


def check_replace(old: GameInMemory | None, replaces_version: int | None) -> None:
    """Raise if a new game may not replace ``old`` (``GameService.new_game``): the board
    asking is stale, or ``old`` is a scored daily still in play. Lock held."""
    if old is None:
        return
    if replaces_version is not None and not old.finished and old.version != replaces_version:
        raise StaleVersionError(NEWER_GAME_MESSAGE)
    if old.daily_in_play():
        assert old.daily_date is not None
        raise DailyInProgressError(old.daily_date)
