"""The terminal front end: the same game as on Discord, played at a prompt.

It goes through the same ``GameService`` and SQLite file as the bot, so a game left with
``quit`` (or Ctrl-C, or the end of input) resumes on the next ``reel play``. The terminal
player is one local user, ``LOCAL_USER_ID`` (``reel web``'s player too). ``reel play
--daily`` (or ``daily`` at the prompt) plays today's daily challenge, the same deal as on
Discord; ``stats`` shows the player's record; ``hint`` suggests a move (the solver runs in
a worker process).
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import logging
import os
import re
import shlex
import shutil
import sys
import textwrap
from collections.abc import Callable, Coroutine, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TextIO, TypeVar

from engine import VARIANTS, VIRGINIA_REEL, Status
from engine.notation import ACE_PILE_NAMES, echo

from .service import (
    CONFIRM_UNDO,
    LOCAL_USER_ID,
    Commands,
    CorruptGameError,
    DatabaseUnavailableError,
    GameService,
    GameView,
    NoGameError,
    PlayerStats,
    ServiceError,
    StaleVersionError,
    StorageError,
    format_duration,
    open_service,
)

log = logging.getLogger(__name__)

NOTICE_AFTER = 0.5  # seconds a call may take before the player is told what it is doing
COMMAND_WORDS = Commands(new="'new'", resign="'resign'")  # as the service's messages name them
T = TypeVar("T")


class Run(Protocol):
    """Runs a coroutine to completion: ``asyncio.Runner().run``."""

    def __call__(self, coro: Coroutine[Any, Any, T], /) -> T: ...


HELP = """\
Moves
  r5 c1       move the card on R5 to C1 (FROM TO, pile names as on the board)
  7c          a card (or pile) alone, when it has one place to go
  r3 a        fill the leftmost space of row A
  r6 ace      an Ace to the Ace pile
  a3 b6       interchange two misplaced bases (a Three in row A and a
              Two in row B, say): each becomes the other row's base
Cards: 5h, td (a Ten: T, or 10), k♣ (case doesn't matter).
Piles: rows A1-C8 (A builds 2-5-8-J, B 3-6-9-Q, C 4-7-T-K),
       reserve R1-R8, the Ace pile ACE.
Commands
  deal        deal 8 cards onto the reserve (no space may be open)
  undo [N]    take back the last move (or the last N moves)
  undo to N   go back to move N
  redo [N]    play again a move taken back (or N of them), until a new move
  restart     start this deal over from the beginning (the same game)
  auto        play reserve Aces to the Ace pile
  moves       list the legal moves
  hint        suggest a move: a fair one (a player who can't see the stock
              either, and how often its move won in the stock orders it
              tried), or with 'reel play --solver-hints' the solver's, which
              knows the stock; a daily with a hint is marked assisted, so
              in the scored daily the first 'hint' warns, the next gives it
  board       show the board again
  new [N]     start a new game (deal N, or a random one: a deal the solver
              has proven winnable, unless 'reel play --any-deal')
  daily       play today's daily challenge (the same deal for everyone;
              your first game of the day is the scored one)
  stats       your games, wins, daily streak and best score
  resign      give up this game
  help        this text
  quit        leave; the game is saved and resumes next time"""

# The commands, each with the words that name it ("new" alone takes an argument).
COMMANDS: dict[str, tuple[str, ...]] = {
    "board": ("board", "show"),
    "deal": ("deal", "dl"),
    "undo": ("undo",),
    "redo": ("redo",),
    "restart": ("restart",),
    "auto": ("auto",),
    "moves": ("moves",),
    "hint": ("hint",),
    "new": ("new",),
    "daily": ("daily",),
    "stats": ("stats",),
    "resign": ("resign",),
    "help": ("help", "?", "h"),
    "quit": ("quit", "exit", "q"),
}
COMMAND_OF: dict[str, str] = {word: name for name, words in COMMANDS.items() for word in words}
# No card or pile is named by a word of four letters or more ("r3", "10h", "ace"), the
# Ace pile's other names aside ("aces").
LONGEST_MOVE_WORD = 3


class TerminalGame:
    """One terminal session: reads commands, calls the service, prints answers."""

    def __init__(
        self,
        service: GameService,
        run: Run,
        out: TextIO = sys.stdout,
        read: Callable[[str], str] = input,
        colour: bool | None = None,
        wrap: bool | None = None,
        *,
        assume_yes: bool = False,
        program: str = "reel",
        versus: bool = False,
        again: str | None = None,
    ) -> None:
        """``colour``: red suits in red (default: when ``out`` is a terminal that shows
        colour and ``NO_COLOR`` is not set); ``wrap``: messages wrapped at ``COLUMNS``
        (default: when ``out`` is a terminal); ``assume_yes``: every y/N question answered
        yes without asking (``reel play --yes``, for scripts); ``program``: the command
        that started the game, as the player typed it (``invoked_as``), to tell them how
        to come back, or ``again``: that way back whole (``play_again``: with the save);
        ``versus``: the computer plays the same deal blind beside the player (``reel play
        --versus``), a move every ``VERSUS_PACE_S`` seconds of their clock."""
        isatty = getattr(out, "isatty", None)
        self._wrap = bool(isatty and isatty()) if wrap is None else wrap
        self._service = service
        self._completions: list[str] = []
        self._colour = shows_colour(out) if colour is None else colour
        self._run = run
        self._out = out
        self._read = read
        self._last: GameView | None = None  # the board shown last
        self._unsaved = False  # the last command failed to save (the database failed)
        self._hint_warned = -1  # the game version at which a hint's warning was given
        self._assume_yes = assume_yes
        self._again = again or f"'{program} play'"
        self._versus = versus
        # the computer's game: (deal, game) and the task playing it in the solver pool
        self._rival: tuple[tuple[int, str], asyncio.Future[tuple[tuple[int, int], ...]]] | None
        self._rival = None

    def say(self, text: str = "") -> None:
        """Print ``text``; in a terminal, its long lines wrapped between words at its
        width, ``COLUMNS`` at most (``text_width``; a board's lines are short)."""
        if self._wrap:
            width = text_width()
            text = "\n".join(wrapped(line, width) for line in text.split("\n"))
        print(text, file=self._out, flush=True)

    def say_board(self, board: str) -> None:
        """Print a board (never wrapped), its red suits red in a colour terminal."""
        print(coloured(board) if self._colour else board, file=self._out, flush=True)

    @property
    def shown(self) -> int | None:
        """The version of the board shown last, which a command typed is made against."""
        return None if self._last is None else self._last.version

    def show(self, view: GameView) -> None:
        self._last = view
        self._unsaved = False
        if view.message:
            self.say(view.message)
        if view.warning:
            self.say(f"Warning: {view.warning}")
        if view.daily_date is not None:
            replay = " (unscored replay: your first game of the day is the one that counts)"
            par = "" if view.par is None else f" · par {view.par} moves"
            par += "" if view.rating is None else f" · {view.rating}"
            self.say(
                f"Daily challenge {view.daily_date.isoformat()}{par}"
                + ("" if view.scored else replay)
            )
            if view.later_daily is not None:  # shown after midnight
                then = "" if view.finished else " (this one is then recorded as it stands)"
                self.say(
                    f"The daily of {view.later_daily.isoformat()} is open: "
                    f"type 'daily' to play it{then}."
                )
        self.say()
        self.say_board(view.board)
        if view.elapsed_s is not None:
            self.say(f"Time {format_duration(view.elapsed_s)}")
        if self._versus and not view.finished:
            self.say(self.rival_line(view))
        if view.status is Status.WON:
            self.say(f"\nWell played: {view.move_count} moves. {NEXT_GAME}")
        elif view.finished:
            self.say(f"\n{over_text(view)} {NEXT_GAME}")
        elif view.status is Status.STUCK:
            self.say("\nType 'undo' to go back, 'new' for another deal, or 'quit'.")
        if view.daily_date is not None and view.finished:
            if view.scored and view.share_text:
                self.say(f"\nShare your result (no spoilers):\n  {view.share_text}")
            self.say_next_daily(view)

    def rival_line(self, view: GameView) -> str:
        """The computer's progress on the same deal (``--versus``): where its blind game
        stands after as many moves as the player's clock allows (``VERSUS_PACE_S``)."""
        key = (view.deal_number, view.variant)
        if self._rival is None or self._rival[0] != key:  # a new deal: it starts again
            self._rival = (key, self._run(self._rival_game(*key)))
        task = self._rival[1]
        if not task.done():
            return "Computer (can't see the stock either): thinking…"
        if task.cancelled() or task.exception() is not None:
            return "Computer: it can't play just now."
        timeline = task.result()
        at = min(len(timeline) - 1, (view.elapsed_s or 0) // VERSUS_PACE_S)
        score, moves = timeline[at]
        total = VARIANTS[view.variant].card_total
        if at == len(timeline) - 1:
            if score == total:
                return f"Computer: won in {moves} moves."
            return f"Computer: stuck at {score}/{total} cards home after {moves} moves."
        return f"Computer (can't see the stock either): {score}/{total} cards home · move {moves}"

    async def _rival_game(
        self, deal_number: int, variant: str
    ) -> asyncio.Future[tuple[tuple[int, int], ...]]:
        """The computer's game of the deal, started in the solver pool: a task that goes
        on while the player plays (the loop runs at each command)."""
        task = asyncio.ensure_future(self._service.computer_game(deal_number, variant))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return task

    def say_next_daily(self, view: GameView) -> None:
        if view.later_daily is None and view.next_daily_at is not None:
            self.say(f"The next daily starts {utc_text(view.next_daily_at)}.")

    async def noticed(self, work: Coroutine[Any, Any, T], notice: str) -> T:
        """Await ``work``, saying ``notice`` first if it takes more than a moment."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=NOTICE_AFTER)
        if not done:
            self.say(notice)
        return await task

    def show_stats(self, stats: PlayerStats) -> None:
        for line in stats_lines(stats):
            self.say(line)

    def start_daily(self, variant: str | None = None) -> bool:
        """Start today's daily challenge (of ``variant``; Virginia Reel's by default), or
        resume it; over a game in progress, only if the player says so. Whether it did."""
        code = variant or "vr"
        ended = self._run(self._service.would_end(LOCAL_USER_ID, "daily", code))
        if ended is not None and not self.ask(give_up(ended, "abandoned", "play the daily")):
            return False
        # The first call of a day looks for a deal the solver proves winnable.
        version = None if ended is None else ended.version
        work = self._service.daily(LOCAL_USER_ID, None, code, replaces_version=version)
        view = self._run(self.noticed(work, "Finding today's deal (one the solver can win)…"))
        self.show(view)
        if not view.finished:
            self.say_next_daily(view)
        return True

    def start(self, deal_number: int | None, variant: str | None = None) -> None:
        """Resume the saved game, or start one: deal ``deal_number`` if given, of the game
        ``variant`` if given (a saved game of another game is not resumed). A game in
        progress is ended only once the player says so (y/N); else it is resumed."""
        service = self._service
        view: GameView | None = None
        try:
            view = self._run(service.show(LOCAL_USER_ID))
        except NoGameError:
            pass
        except CorruptGameError:
            self.say(
                "Your saved game can't be read, sorry (the details are in the log). "
                "Here is a new deal."
            )
        same = view is not None and variant in (None, view.variant)
        if view is not None and not view.finished and deal_number is None and same:
            self.resume(view)
            return
        ending = self._run(service.would_end(LOCAL_USER_ID, "new"))
        if ending is not None and not self.confirmed(ending, "abandoned", "start a new game"):
            self.resume(ending)
            return
        version = None if ending is None else ending.version
        work = service.new_game(
            LOCAL_USER_ID, None, deal_number, variant=variant, replaces_version=version
        )
        self.show(self._run(work))

    def reopen(self) -> None:
        """The saved game is open again: the time it was closed is not played time."""
        with contextlib.suppress(ServiceError):  # no game, or none readable: start says
            self._run(self._service.show(LOCAL_USER_ID, reopened=True))

    def pause(self) -> None:
        """The game closes: its clock is saved as it stands (if the database lets it: the
        moves are saved already; a failure is logged, not shown)."""
        try:
            self._run(self._service.pause(LOCAL_USER_ID))
        except ServiceError as exc:
            log.warning("the game clock was not saved at quit: %s", exc)

    def resume(self, view: GameView) -> None:
        self.say(f"Resuming your game of {game_name(view)}.")
        self.show(view)

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th command or legal move that starts with
        ``text`` (the line typed so far)."""
        if state == 0:
            typed = text.lower()
            moves = self._run(self._service.move_choices(LOCAL_USER_ID, limit=100))
            words = [*COMMAND_OF, *(choice.text.lower() for choice in moves)]
            self._completions = sorted({w for w in words if w.startswith(typed)})
        return self._completions[state] if state < len(self._completions) else None

    def command(self, line: str) -> bool:
        """Carry out one line of input; False when the player wants to leave."""
        if "\x1b" in line:  # keys the prompt could not edit with (no readline): not input
            line = ESCAPES.sub("", line).replace("\x1b", "")
        words = line.split()
        if not words:
            words = ["board"]
        name = COMMAND_OF.get(words[0].lower())
        args = words[1:]
        if name is None:  # a move, unless it is a mistyped command
            if self.mistyped(words[0]):
                return True
            name, args = "move", [line]
        elif name not in ("new", "undo", "redo") and args:
            self.say(f"'{words[0]}' takes nothing after it: type '{words[0].lower()}' alone.")
            return True
        if name == "quit":
            return False
        if name == "help":
            self.say(HELP)
            return True
        try:
            self.run_command(name, args)
        except StaleVersionError as exc:
            # Another session changed the game (two terminals on one file): show it as it is.
            self.say(exc.text(COMMAND_WORDS))
            self.show_current()
        except ServiceError as exc:
            self._unsaved = self._unsaved or isinstance(exc, StorageError)
            self.say(exc.text(COMMAND_WORDS))
        return True

    def run_command(self, name: str, args: list[str]) -> None:
        """A command of ``COMMANDS`` (not help, quit) and its arguments, or "move" and a line."""
        service, user = self._service, LOCAL_USER_ID
        simple: dict[str, Callable[[int, int | None], Coroutine[Any, Any, GameView]]] = {
            "deal": service.deal,
            "auto": service.auto,
            "resign": service.resign,
            "restart": service.restart,
        }
        if name == "board":
            self.show(self._run(service.show(user)))
        elif name in simple:
            if name == "resign":
                ending = self._run(service.would_end(user, "resign"))
                if not self.confirmed(ending, "resigned", "resign"):
                    return
            if name == "restart" and not self.large_restart(self._run(service.show(user))):
                return
            self.show(self._run(simple[name](user, self.shown)))
        elif name == "move":
            self.show(self._run(service.move(user, args[0], self.shown)))
        elif name in ("undo", "redo"):
            self.step(name, args)
        elif name == "daily":
            self.start_daily()
        elif name == "stats":
            self.show_stats(self._run(service.stats(user)))
        elif name == "hint":
            self.hint()
        elif name == "moves":
            self.list_moves()
        elif name == "new":
            if len(args) > 1 or (args and not args[0].isdigit()):
                self.say("Type 'new' for a random deal or 'new N' for deal number N.")
                return
            deal_number = int(args[0]) if args else None
            ending = self._run(service.would_end(user, "new"))
            if not self.confirmed(ending, "abandoned", "start a new game"):
                return
            version = None if ending is None else ending.version
            work = service.new_game(user, None, deal_number, replaces_version=version)
            self.show(self._run(work))

    def step(self, name: str, args: list[str]) -> None:
        """``undo``, ``undo N``, ``undo to N``; ``redo``, ``redo N``."""
        service, user = self._service, LOCAL_USER_ID
        words = [a.lower() for a in args]
        if name == "undo" and len(words) == 2 and words[0] == "to" and words[1].isdigit():
            target = int(words[1])
            view = self._run(service.show(user))
            if self.large_undo(view, view.move_count - target):
                self.show(self._run(service.undo_to(user, target, self.shown)))
            return
        if len(words) > 1 or (words and not words[0].isdigit()):
            self.say(STEP_USAGE[name])
            return
        count = int(words[0]) if words else 1
        if name == "undo" and not self.large_undo(self._run(service.show(user)), count):
            return
        act = service.undo if name == "undo" else service.redo
        self.show(self._run(act(user, self.shown, count=count)))

    def confirmed(self, ending: GameView | None, how: str, what: str) -> bool:
        """Whether to go on with a call that would end ``ending`` (``GameService.would_end``:
        the game in progress it ends, recorded as ``how``), asking (y/N) first; True when
        nothing would be lost."""
        return ending is None or self.ask(give_up(ending, how, what))

    def large_undo(self, view: GameView, moves: int) -> bool:
        """Whether to take back ``moves`` moves of ``view``: asked (y/N) above
        ``CONFIRM_UNDO``, unless there are not that many to take back (the service then
        says so, and changes nothing: no question to answer first)."""
        if moves <= CONFIRM_UNDO or moves > view.undoable:
            return True
        return self.ask(f"Take back {moves} moves? ('redo' brings them back) [y/N] ")

    def large_restart(self, view: GameView) -> bool:
        """Whether to start ``view``'s deal over: asked (y/N) when that takes back more
        than ``CONFIRM_UNDO`` moves, as an undo of that many is."""
        moves = view.undoable
        if moves <= CONFIRM_UNDO:
            return True
        return self.ask(
            f"Start this deal over, taking back all {moves} moves? ('redo' brings them back) [y/N] "
        )

    def ask(self, question: str) -> bool:
        """A y/N question: yes, or no (an empty answer, Ctrl-D or Ctrl-C); any other answer
        is asked again, up to ``ASK_TRIES`` times, then taken as no."""
        if self._assume_yes:
            return True
        if self._wrap:  # between words, as messages are: the terminal would cut one
            question = wrapped(question.rstrip(), text_width()) + " "
        for _ in range(ASK_TRIES):
            try:
                answer = self._read(question).strip().lower()
            except (EOFError, KeyboardInterrupt):
                answer = ""
            if answer in ("y", "yes"):
                return True
            if answer in ("", "n", "no"):
                break
            self.say(f"Please answer y (yes) or n (no), not '{echo(answer)}'.")
        self.say("Nothing was changed.")
        return False

    def hint(self) -> None:
        service, user = self._service, LOCAL_USER_ID
        view = self._run(service.show(user))
        if view.hint_marks_assisted and self._hint_warned != view.version:
            self._hint_warned = view.version  # asked once: the same 'hint' again gives it
            self.say(HINT_WARNING)
            return
        answer = self._run(service.hint(user, self.shown, on_search=lambda: self.say("Thinking…")))
        self.say(answer.message)
        if answer.back_to is not None and answer.game.can_undo:
            self.say(f"Type 'undo to {answer.winnable_at}' to go back to {answer.back_to}.")
        if answer.move is not None:
            self.say(f"Type '{answer.move.lower()}' to play it.")

    def mistyped(self, first: str) -> bool:
        """Whether the first word of a line that names no command is a mistyped command
        (no card or pile): if so, say so, with the nearest command."""
        word = first.lower()
        if len(word) <= LONGEST_MOVE_WORD or not word.isalpha() or word in ACE_PILE_NAMES:
            return False
        close = difflib.get_close_matches(word, list(COMMAND_OF), n=1, cutoff=CLOSE_ENOUGH)
        guess = f" Did you mean '{close[0]}'?" if close else ""
        self.say(f"I don't know the command '{echo(first)}'.{guess} Type 'help' for the commands.")
        return True

    def list_moves(self) -> None:
        choices = self._run(self._service.move_choices(LOCAL_USER_ID, limit=100))
        if choices:
            self.say("\n".join(f"  {c.text:<8} {c.label}{_noted(c.note)}" for c in choices))
            return
        view = self._run(self._service.show(LOCAL_USER_ID))  # NoGameError if none at all
        if view.finished:
            self.say(f"{over_text(view)} {NEXT_GAME}")
        else:
            self.say("No legal move is left. Type 'undo' to go back, or 'new' for another deal.")

    def show_current(self) -> None:
        """The board as it stands now (after a refusal that says "here is the current board")."""
        try:
            self.show(self._run(self._service.show(LOCAL_USER_ID)))
        except ServiceError as exc:
            self.say(exc.text(COMMAND_WORDS))

    def loop(self) -> bool:
        """Carry out commands until quit, end of input or Ctrl-C; whether it was Ctrl-C."""
        self.say("Type 'help' for the commands, 'quit' to leave (your game is saved).")
        interrupted = False
        while True:
            try:
                line = self._read("> ")
            except EOFError:
                self.say()
                break
            except KeyboardInterrupt:
                self.say()
                interrupted = True
                break
            if not self.command(line):
                break
        self.say(self.farewell())
        return interrupted

    def farewell(self) -> str:
        """The last line: whether there is a game to come back to."""
        last = self._last
        if last is None:
            return "Goodbye."
        again = self._again
        if self._unsaved:
            return (
                f"Your last command could not be saved (see the log): {again} resumes "
                "the game as it was last saved."
            )
        if last.finished or last.status is Status.WON:
            return f"Goodbye. Type {again} for a new game."
        return f"Your game is saved. Type {again} to resume it."


EXIT_INTERRUPTED = 128 + 2  # a shell's status for a program stopped by Ctrl-C (SIGINT)
ESCAPES = re.compile(r"\x1b(\[[0-9;]*[A-Za-z~]|O[A-Za-z])")  # arrow keys and the like
ASK_TRIES = 3  # a y/N question is asked this many times before an unclear answer is a no
VERSUS_PACE_S = 5  # --versus: the computer's moves, one every this many seconds of play
COLUMNS = 80  # messages are wrapped to this width, or the terminal's if narrower
MIN_COLUMNS = 20  # ... but never narrower than this (a terminal that says 0 columns)
CLOSE_ENOUGH = 0.75  # how alike a mistyped word and a command must be to suggest it
RED = re.compile(r"((?:10|[A2-9TJQK])[♥♦])")
CHOOSE_ANOTHER = "choose another file with --db PATH or REEL_DB."
NEXT_GAME = "Type 'new' for another deal, 'daily' for today's challenge, or 'quit'."
STEP_USAGE = {
    "undo": "Type 'undo' to take back your last move, 'undo N' for the last N moves, "
    "or 'undo to N' to go back to move N.",
    "redo": "Type 'redo' to play again the last move taken back, or 'redo N' for N of them.",
}
HINT_WARNING = (
    "A hint marks this daily as assisted on the leaderboard (your result gets a *), "
    "and that can't be undone. Type 'hint' again to get one anyway."
)


def give_up(view: GameView, how: str, what: str) -> str:
    """The y/N question before ``what`` ends the game in progress ``view`` as ``how``."""
    if view.daily_in_play:
        return (
            f"Your scored daily of {view.daily_date} ends, recorded as {how}: it is the day's "
            f"one scored attempt. Really {what}? [y/N] "
        )
    return f"Your game in progress ends, recorded as {how}. Really {what}? [y/N] "


def game_name(view: GameView) -> str:
    """The game and deal of ``view``, as a start line names them: "Three Up, deal 16"."""
    return f"{VARIANTS[view.variant].name}, deal {view.deal_number}"


def invoked_as(argv: Sequence[str] | None = None) -> str:
    """The command that started this program, as the player can type it again (``argv``:
    the process's own, ``sys.orig_argv``): ``reel`` when that is on the PATH and is this
    program, else the path they ran (``.venv/bin/reel``); for ``python -m bot``, the
    interpreter they ran and the module."""
    args = list(sys.orig_argv if argv is None else argv)
    if "-m" in args[:-1]:
        return f"{typed_path(args[0])} -m {args[args.index('-m') + 1]}"
    program = Path(args[1] if len(args) > 1 else args[0])  # the script after its interpreter
    found = shutil.which("reel")
    try:
        if found is not None and Path(found).resolve() == program.resolve():
            return "reel"
    except OSError:
        pass
    return typed_path(str(program))


def play_again(program: str, db_path: str, named_by: str | None) -> str:
    """The command that opens this save again, as the goodbye names it: ``'reel play'``
    for the default save, ``'reel play --db /home/me/x.db'`` for one named with ``--db``,
    and ``'reel play' with REEL_DB=/home/me/x.db`` for one named by that setting (each
    path whole, so the command works from any folder)."""
    where = shlex.quote(os.path.abspath(db_path))
    if named_by == "--db":
        return f"'{program} play --db {where}'"
    if named_by == "REEL_DB":
        return f"'{program} play' with REEL_DB={where}"
    return f"'{program} play'"


def typed_path(text: str) -> str:
    """A program's path as the player can type it here: relative to the current folder when
    it is inside it (``.venv/bin/reel``), else as given."""
    if "/" not in text:
        return text  # a name the shell found on the PATH
    try:
        path = Path(os.path.abspath(text)).relative_to(os.path.abspath(os.getcwd()))
    except (OSError, ValueError):
        return text
    return str(path) if path.parent != Path() else f"./{path}"


def _noted(note: str | None) -> str:
    """A move's warning after its words in the move list (nothing without one)."""
    return "" if note is None else f"  (! {note})"


def over_text(view: GameView) -> str:
    """What became of a finished game, in a sentence."""
    if view.status is Status.WON:
        return f"You won deal {view.deal_number}."
    return f"This game of deal {view.deal_number} is over ({view.score} cards home)."


def line_editing(game: TerminalGame) -> None:
    """At an interactive prompt: GNU readline's line editing and history (where Python
    has it), and Tab completing commands and legal moves."""
    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:  # (Windows) the prompt reads plain lines
        return
    readline.set_completer(game.complete)
    readline.set_completer_delims("")  # complete the whole line: "r5 c" → "r5 c1"
    readline.parse_and_bind("tab: complete")


def text_width() -> int:
    """The width messages and questions are wrapped at: the terminal's (``COLUMNS`` in
    the environment, else the terminal's size), ``COLUMNS`` at most, for reading."""
    return max(MIN_COLUMNS, min(COLUMNS, shutil.get_terminal_size((COLUMNS, 24)).columns))


def wrapped(line: str, width: int = COLUMNS) -> str:
    """``line`` wrapped between words at ``width``, indented as the line is."""
    if len(line) <= width:
        return line
    indent = line[: len(line) - len(line.lstrip())]
    return textwrap.fill(line, width, subsequent_indent=indent, break_on_hyphens=False)


def shows_colour(out: TextIO) -> bool:
    """Whether ``out`` is a terminal that shows colour (https://no-color.org: NO_COLOR
    set to anything turns it off; so does TERM=dumb)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def coloured(board: str) -> str:
    """A board with its hearts and diamonds in red (ANSI colour)."""
    return RED.sub("\x1b[31m\\1\x1b[0m", board)


def log_path(db_path: str) -> Path:
    """The terminal game's log file: the database's name with ``.log`` (``reel.log``)."""
    return Path(db_path).with_suffix(".log")


def log_to_file(path: Path, level: str) -> None:
    """Send the log to ``path`` (created at the first record, appended to)."""
    handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def utc_text(moment: datetime) -> str:
    """``2026-11-30 00:00 UTC``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def stats_lines(stats: PlayerStats) -> list[str]:
    """The player's record, one figure a line, and their record on this deal."""
    deal = [] if stats.deal_number is None else [deal_record(stats)]
    if stats.games == 0:
        return ["No finished games yet: your record starts when a game ends.", *deal]
    rate = f"{round(stats.win_rate * 100)}%"
    return [
        f"Games played    {stats.games}",
        f"Won             {stats.wins} ({rate})",
        f"Daily streak    {stats.current_streak} (best {stats.best_streak})",
        f"Best score      {stats.best_score}/{VIRGINIA_REEL.card_total}",
        f"Dailies played  {stats.dailies} (won {stats.daily_wins})",
        *deal,
    ]


def deal_record(stats: PlayerStats) -> str:
    """Have I won this deal before? ``Deal 16         won 1 of 2 games``."""
    games, wins = stats.deal_games, stats.deal_wins
    record = f"won {wins} of {games} game{'' if games == 1 else 's'}"
    name = f"Deal {stats.deal_number}"
    return f"{name:<15} {record if games else 'no game of it finished yet'}"


def open_save(run: Run, path: Path, hint_deadline: float | None = None) -> GameService | None:
    """The game service over the save file ``path`` (``hint_deadline``: as ``GameService``
    takes it); None, said on stderr, if it can't be used."""
    try:
        return run(open_service(path, hint_deadline=hint_deadline))
    except DatabaseUnavailableError as exc:
        if exc.read_only:
            print(f"reel play: {path} is read-only, so no move could be saved: make it "
                  f"writable (chmod u+w {path}) or {CHOOSE_ANOTHER}", file=sys.stderr)  # fmt: skip
        else:
            print(f"reel play: cannot open the database {str(path)!r}: {exc}; {CHOOSE_ANOTHER}",
                  file=sys.stderr)  # fmt: skip
    return None


def play(
    db_path: str,
    deal_number: int | None = None,
    symbols: bool | None = None,
    *,
    daily: bool = False,
    winnable: bool | None = None,
    auto_aces: bool | None = None,
    fair_hints: bool | None = None,
    log_level: str = "WARNING",
    variant: str | None = None,
    assume_yes: bool = False,
    versus: bool = False,
    named_by: str | None = None,
    hint_deadline: float | None = None,
) -> int:
    """Run the terminal game on the SQLite file ``db_path``; returns the exit code.
    ``daily``: start (or resume) today's daily challenge instead of the saved game;
    ``variant``: the game to play (``rp``...; default: the saved game's, else ``vr``).
    ``symbols``, ``winnable`` (random new games proven winnable), ``auto_aces`` and
    ``fair_hints``, when given, are saved as the player's settings first;
    ``assume_yes``: ``--yes``; ``versus``: ``--versus``; ``named_by``: how the file was
    named (``"--db"``, ``"REEL_DB"``, None for the default), for the way back;
    ``hint_deadline``: ``REEL_HINT_DEADLINE``. The log goes to a file beside the database
    (``reel.log`` for ``reel.db``), not to the screen the game is on.
    """
    path = Path(db_path)
    first_start = not path.exists()
    log_to_file(log_path(db_path), log_level)

    with asyncio.Runner() as runner:
        service = open_save(runner.run, path, hint_deadline)
        if service is None:
            return 1
        if first_start:
            print(f"Your games are saved in {path}.")
        again = play_again(invoked_as(), db_path, named_by)
        game = TerminalGame(service, runner.run, assume_yes=assume_yes, versus=versus, again=again)
        line_editing(game)
        try:
            chosen = {"symbols": symbols, "winnable": winnable, "auto_aces": auto_aces}
            chosen["fair_hints"] = fair_hints
            if any(value is not None for value in chosen.values()):
                runner.run(service.update_settings(LOCAL_USER_ID, **chosen))
            game.reopen()
            try:
                if not (daily and game.start_daily(variant)):
                    game.start(None if daily else deal_number, None if daily else variant)
            except ServiceError as exc:
                print(exc.text(COMMAND_WORDS), file=sys.stderr)
                return 2
            if game.loop():
                return EXIT_INTERRUPTED
        except KeyboardInterrupt:
            print(f"\n{game.farewell()}")
            return EXIT_INTERRUPTED
        finally:
            game.pause()
            runner.run(service.close())  # closes the store too
    return 0
