"""The terminal front end: the same game as on Discord, played at a prompt.

It goes through the same ``GameService`` and SQLite file as the bot, so a game
left with ``quit`` (or Ctrl-C, or the end of input) resumes on the next
``reel play``. The terminal player is one local user, ``LOCAL_USER_ID``.
``reel play --daily`` (or ``daily`` at the prompt) plays today's daily
challenge, the same deal as on Discord; ``stats`` shows the player's record;
``hint`` suggests a move (the solver runs in a worker process).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any, Protocol, TextIO, TypeVar

from engine import VIRGINIA_REEL, Status

from .service import (
    CorruptGameError,
    GameService,
    GameView,
    NoGameError,
    PlayerStats,
    ServiceError,
)

LOCAL_USER_ID = 0
T = TypeVar("T")


class Run(Protocol):
    """Runs a coroutine to completion: ``asyncio.Runner().run``."""

    def __call__(self, coro: Coroutine[Any, Any, T], /) -> T: ...


HELP = """\
Moves
  r3 a5       move the card on R3 to A5 (FROM TO, pile names as on the board)
  5h          a card (or pile) alone, when it has one place to go
  r3 a        fill the leftmost space of row A
  r6 ace      an Ace to the Ace pile
Cards: 5h, 10d or td, k♣ (case doesn't matter).
Piles: rows A1-C8 (A builds 2-5-8-J, B 3-6-9-Q, C 4-7-10-K),
       reserve R1-R8, the Ace pile ACE.
Commands
  deal        deal 8 cards onto the reserve (no space may be open)
  undo        take back the last move
  auto        play reserve Aces to the Ace pile
  moves       list the legal moves
  hint        suggest a move: the solver's when it finds a win (it thinks
              about a second); a daily with a hint is marked assisted
  board       show the board again
  new [N]     start a new game (deal N, or a random one)
  daily       play today's daily challenge (the same deal for everyone;
              your first game of the day is the scored one)
  stats       your games, wins, daily streak and best score
  resign      give up this game
  help        this text
  quit        leave; the game is saved and resumes next time"""


class TerminalGame:
    """One terminal session: reads commands, calls the service, prints answers."""

    def __init__(
        self,
        service: GameService,
        run: Run,
        out: TextIO = sys.stdout,
        read: Callable[[str], str] = input,
    ) -> None:
        self._service = service
        self._run = run
        self._out = out
        self._read = read
        self._last: GameView | None = None  # the board shown last

    def say(self, text: str = "") -> None:
        print(text, file=self._out, flush=True)

    def show(self, view: GameView) -> None:
        self._last = view
        if view.message:
            self.say(view.message)
        if view.warning:
            self.say(f"Warning: {view.warning}")
        if view.daily_date is not None:
            replay = " (unscored replay: your first game of the day is the one that counts)"
            par = "" if view.par is None else f" · par {view.par} moves"
            self.say(
                f"Daily challenge {view.daily_date.isoformat()}{par}"
                + ("" if view.scored else replay)
            )
        self.say()
        self.say(view.board)
        if view.status is Status.WON:
            self.say(
                f"\nYou won deal {view.deal_number} in {view.move_count} moves! "
                "Type 'new' for another deal or 'quit'."
            )
        elif view.status is Status.STUCK and not view.finished:
            self.say(
                "\nNo legal move is left. Type 'undo' to go back, 'new' for another deal, "
                "or 'quit'."
            )
        if view.daily_date is not None and view.finished:
            if view.scored and view.share_text:
                self.say(f"\nShare your result (no spoilers):\n  {view.share_text}")
            self.say_next_daily(view)

    def say_next_daily(self, view: GameView) -> None:
        if view.next_daily_at is not None:
            self.say(f"The next daily starts {utc_text(view.next_daily_at)}.")

    def show_stats(self, stats: PlayerStats) -> None:
        for line in stats_lines(stats):
            self.say(line)

    def start_daily(self) -> None:
        """Start today's daily challenge, or resume it."""
        view = self._run(self._service.daily(LOCAL_USER_ID, None))
        self.show(view)
        if not view.finished:
            self.say_next_daily(view)

    def start(self, deal_number: int | None) -> None:
        """Resume the saved game, or start one (deal ``deal_number`` if given)."""
        service = self._service
        if deal_number is not None:
            self.show(self._run(service.new_game(LOCAL_USER_ID, None, deal_number)))
            return
        try:
            view = self._run(service.show(LOCAL_USER_ID))
        except NoGameError:
            view = self._run(service.new_game(LOCAL_USER_ID, None))
        except CorruptGameError as exc:
            self.say(exc.message)
            view = self._run(service.new_game(LOCAL_USER_ID, None))
        else:
            if view.finished:
                view = self._run(service.new_game(LOCAL_USER_ID, None))
            else:
                self.say(f"Resuming your game of deal {view.deal_number}.")
        self.show(view)

    def command(self, line: str) -> bool:
        """Carry out one line of input; False when the player wants to leave."""
        service = self._service
        words = line.split()
        word = words[0].lower() if words else "board"
        user = LOCAL_USER_ID
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "?", "h"):
            self.say(HELP)
            return True
        try:
            if word in ("board", "show"):
                view = self._run(service.show(user))
            elif word == "deal" and len(words) == 1:
                view = self._run(service.deal(user))
            elif word == "undo":
                view = self._run(service.undo(user))
            elif word == "auto":
                view = self._run(service.auto(user))
            elif word == "resign":
                view = self._run(service.resign(user))
            elif word == "daily" and len(words) == 1:
                view = self._run(service.daily(user, None))
                self.show(view)
                if not view.finished:
                    self.say_next_daily(view)
                return True
            elif word == "stats" and len(words) == 1:
                self.show_stats(self._run(service.stats(user)))
                return True
            elif word == "hint" and len(words) == 1:
                self.say("Thinking…")
                answer = self._run(service.hint(user))
                self.say(answer.message)
                if answer.move is not None:
                    self.say(f"Type '{answer.move.lower()}' to play it.")
                return True
            elif word == "moves":
                choices = self._run(service.move_choices(user, limit=100))
                self.say("\n".join(f"  {c.text:<8} {c.label}" for c in choices) or "No legal move.")
                return True
            elif word == "new":
                if len(words) > 2 or (len(words) == 2 and not words[1].isdigit()):
                    self.say("Type 'new' for a random deal or 'new N' for deal number N.")
                    return True
                deal_number = int(words[1]) if len(words) == 2 else None
                view = self._run(service.new_game(user, None, deal_number))
            else:
                view = self._run(service.move(user, line))
        except ServiceError as exc:
            self.say(exc.message)
            return True
        self.show(view)
        return True

    def loop(self) -> None:
        """Read and carry out commands until quit, end of input or Ctrl-C."""
        while True:
            try:
                line = self._read("> ")
            except (EOFError, KeyboardInterrupt):
                self.say()
                break
            if not self.command(line):
                break
        last = self._last
        if last is not None and (last.finished or last.status is Status.WON):
            self.say("Goodbye. Type 'reel play' for a new game.")
        else:
            self.say("Your game is saved. Type 'reel play' to resume it.")


def utc_text(moment: datetime) -> str:
    """``2026-11-30 00:00 UTC``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def stats_lines(stats: PlayerStats) -> list[str]:
    """The player's record, one figure a line."""
    if stats.games == 0:
        return ["No finished games yet: your record starts when a game ends."]
    rate = f"{round(stats.win_rate * 100)}%"
    return [
        f"Games played    {stats.games}",
        f"Won             {stats.wins} ({rate})",
        f"Daily streak    {stats.current_streak} (best {stats.best_streak})",
        f"Best score      {stats.best_score}/{VIRGINIA_REEL.card_total}",
        f"Dailies played  {stats.dailies} (won {stats.daily_wins})",
    ]


def play(
    db_path: str,
    deal_number: int | None = None,
    symbols: bool | None = None,
    *,
    daily: bool = False,
) -> int:
    """Run the terminal game on the SQLite file ``db_path``; returns the exit code.

    ``daily``: start (or resume) today's daily challenge instead of the saved game.
    """
    from .store import Store

    with asyncio.Runner() as runner:
        store = runner.run(Store.open(db_path))
        service = GameService(store)
        try:
            if symbols is not None:
                runner.run(service.update_settings(LOCAL_USER_ID, symbols=symbols))
            game = TerminalGame(service, runner.run)
            try:
                if daily:
                    game.start_daily()
                else:
                    game.start(deal_number)
            except ServiceError as exc:
                print(exc.message, file=sys.stderr)
                return 2
            game.loop()
        except KeyboardInterrupt:
            print("\nYour game is saved. Type 'reel play' to resume it.")
        finally:
            runner.run(service.close())  # closes the store too
    return 0
