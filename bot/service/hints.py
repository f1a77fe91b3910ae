"""Hints for the service: the solver's search in the pool, what the service learns from
it and keeps with the game, and the answer in words.

Two kinds (the player's ``fair_hints`` setting, on by default): a fair hint is the blind
player's move (``engine.solver.blind``), chosen without the stock's order, as the player
must, with how many of the stock orders it tried the move wins; it learns nothing to
keep. The solver's hint knows the order, which its words say; the rest of this
docstring is about it.

The game in memory keeps the winning line a hint found (or the moves played
when the game was proven lost): while the game follows the line, with moves
taken back or Aces played by the setting on the way, the next hints come from
it at once, with no search (``engine.solver.hints.known_hint`` replays what is
left of it first), and a game that goes on from a lost position stays lost. A
daily, or a deal the winnable setting dealt, starts with the solver's proof as
its line. The line and a proof of loss are stored with the game, so they
outlive a restart. When the solver proves a game lost, a second job looks back
over its moves for the last one from which it can still be won.

A hint is answered within a deadline (``HINT_DEADLINE`` of wall clock, the searches and
the look back together), whatever the solver does: the game is read under the player's
lock (``Hints.ask``), searched without it (``Hints.search``), so that the player's other
commands go on meanwhile, and the answer is given under the lock again (``Hints.settle``)
only if the game has not moved on. Past the deadline, the job is given up
(``SolverPool.run_within``) and the hint is the best answer known: the rule of thumb's
move, said to be one (``late``); a look back not over by then gives the hint without its
"undo back to there".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeVar

from engine import Game, format_line
from engine.notation import describe_move, format_position
from engine.solver.hints import (
    REWIND_NODES,
    Hint,
    HintSource,
    LookBack,
    heuristic_move,
    known_hint,
    line_left,
)

from . import jobs
from .contract import GameView, HintView
from .entry import GameInMemory, undo_target
from .errors import HintUnavailableError
from .pool import POOL_FAILURES, PastDeadline, SolverPool

log = logging.getLogger(__name__)
T = TypeVar("T")

HINT_SECONDS: Final = 1.0  # the solver's time budget for a hint (and for its look back)
HINT_NODES: Final = 1_000_000  # and its node budget (the time runs out first)
FAIR_SAMPLES: Final = 8  # a fair hint: the stock orders it tries
FAIR_NODES: Final = 2_000  # and the positions searched in each
HINT_DEADLINE: Final = 2.5
"""Seconds of wall clock a hint may take, its searches and look back together (the
solver's budgets fit in it); past them, the rule of thumb's move. The one place to change."""


@dataclass(frozen=True, slots=True)
class Learned:
    """What a hint found that is to be stored with the game: a new winning line from the
    deal (``format_line``), or a new proof of loss (the moves played, and the move count
    undo can go back to for a win)."""

    line: str | None = None
    loss: tuple[str, int | None] | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """A hint asked for, as read under the player's lock (``Hints.ask``): what its search
    needs, so that the search runs without the lock."""

    game: Game  # a copy: the player's game itself may move on during the search
    version: int  # the game's version then: the answer is for that version only
    fair: bool  # the blind player's hint (the player's ``fair_hints``)
    lost: bool  # the game continues a position proven lost (the solver's hint)
    known: Hint | None  # the answer with no search, when an earlier hint settles it


@dataclass(frozen=True, slots=True)
class Found:
    """What a hint's search found: the hint and, for a game it newly proved lost, what the
    look back found (None: no look back, or none over in time)."""

    hint: Hint
    looked: LookBack | None = None


def late(game: Game) -> Hint:
    """The best answer known when a hint's deadline has passed, with no search: the rule of
    thumb's move (source "heuristic", ``why`` "deadline"), or that the game is over."""
    if game.is_won():
        return Hint(None, "none", 0)
    move = heuristic_move(game)
    return Hint(None, "lost") if move is None else Hint(move, "heuristic", why="deadline")


class Hints:
    """The hints' searches, in ``pool`` within ``seconds`` and ``nodes`` each, and each hint
    within ``deadline`` seconds of wall clock."""

    def __init__(
        self,
        pool: SolverPool,
        seconds: float = HINT_SECONDS,
        nodes: int = HINT_NODES,
        deadline: float = HINT_DEADLINE,
    ) -> None:
        self._pool = pool
        self._seconds = seconds
        self._nodes = nodes
        self._deadline = deadline

    def ask(self, entry: GameInMemory, fair: bool) -> Question:
        """The hint asked for ``entry``'s game (the player's lock held): ``known`` when an
        earlier hint settles it, with no search: the rest of its winning line still wins
        from here (replayed to make sure), or the game continues a position proven lost.
        ``fair``: the blind player's hint, which always searches and teaches nothing."""
        game = entry.game
        if fair:
            return Question(game.copy(), entry.version, True, False, None)
        history = game.history
        proof = entry.lost_after
        lost = proof is not None and history[: len(proof[0])] == proof[0]
        left = line_left(entry.hint_line, history) if entry.hint_line else None
        return Question(game.copy(), entry.version, False, lost, known_hint(game, left, lost))

    async def search(
        self, user_id: int, question: Question, on_search: Callable[[], None] | None
    ) -> Found:
        """The hint for ``question``'s game, searched in the pool within the deadline (past
        it: ``late``), without the player's lock. ``on_search`` is called as it starts.
        ``HintUnavailableError`` if the pool fails."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._deadline
        game, position = question.game, format_position(question.game)
        if on_search is not None and (game.legal_moves() or not question.fair):
            on_search()
        left = deadline - loop.time()
        if question.fair:
            fair = (position, FAIR_SAMPLES, FAIR_NODES, left)
            found = await self._within(deadline, user_id, "fair hint", jobs.blind_hint_job, *fair)
        else:
            args = (position, self._nodes, min(self._seconds, left))
            found = await self._within(deadline, user_id, "hint", jobs.hint_job, *args)
        if found is None:
            return Found(late(game))
        if found.source == "heuristic":  # its budget ran out undecided
            self._pool.timed_out += 1
        if found.source != "lost" or question.fair:
            return Found(found)
        return Found(found, await self._look_back(user_id, game, deadline))

    def settle(self, entry: GameInMemory, question: Question, found: Found) -> Learned | None:
        """What ``found`` teaches about ``entry``'s game, still at ``question.version`` (the
        player's lock held): kept in ``entry`` at once, and returned to be stored (None:
        nothing new)."""
        hint = found.hint
        if question.fair:
            return None
        history = entry.game.history
        if hint.source == "solver" and history + hint.line != entry.hint_line:
            entry.hint_line = history + hint.line
            return Learned(line=format_line(entry.hint_line))
        if hint.source == "lost" and not question.lost:
            looked = found.looked
            if looked is not None and looked.lost_from_start:  # the proof covers the deal
                entry.lost_after = ((), None)
                return Learned(loss=("", None))
            back = None if looked is None else looked.winnable_at
            back = None if back is None else undo_target(entry.chained, back)
            entry.lost_after = (history, back)
            return Learned(loss=(format_line(history), back))
        return None

    async def _within(
        self, deadline: float, user_id: int, what: str, job: Callable[..., T], *args: object
    ) -> T | None:
        """``job(*args)`` in the pool, waited for until ``deadline`` (the loop's clock): None
        past it (the job given up). ``HintUnavailableError`` if the pool fails."""
        try:
            left = deadline - asyncio.get_running_loop().time()
            return await self._pool.run_within(left, job, *args)
        except PastDeadline:
            log.warning("%s for user %s not found within %s s", what, user_id, self._deadline)
            self._pool.timed_out += 1
            return None
        except POOL_FAILURES as exc:
            log.error("%s for user %s failed in the solver pool: %s", what, user_id, exc)
            self._pool.reset()
            raise HintUnavailableError() from exc

    async def _look_back(self, user_id: int, game: Game, deadline: float) -> LookBack | None:
        """The last move of a lost ``game`` from which it can still be won, or that it is
        lost from its start, searched in the pool (``engine.solver.hints.look_back``) until
        ``deadline``; None if the pool fails or the deadline passes (the hint is given
        without it)."""
        if not game.history:
            return LookBack(None, True)  # lost at the deal: the hint's own proof
        seconds = min(self._seconds, deadline - asyncio.get_running_loop().time())
        try:
            # (the job looks back on a copy: ``game`` is the question's, not the player's)
            args = (game, REWIND_NODES, seconds)
            return await self._within(deadline, user_id, "looking back", jobs.rewind_job, *args)
        except HintUnavailableError:
            return None


def answer(
    entry: GameInMemory, found: Hint, view: GameView, symbols: bool, newly: bool, fair: bool = False
) -> HintView:
    """The hint ``found`` for ``entry``'s game (shown as ``view``), for the player; ``fair``:
    a fair hint was asked for."""
    move = found.move
    label = None if move is None else describe_move(entry.game, move, symbols)
    back = None
    if found.source == "lost" and entry.lost_after is not None:
        back = entry.lost_after[1]
    back_to = None if back is None else entry.move_name(back)
    proof = entry.lost_after
    from_start = (
        found.source == "lost" and proof is not None and all(entry.chained[: len(proof[0])])
    )
    if found.source == "blind" or (fair and found.why == "deadline"):
        message = fair_message(found, label, view)
    else:
        message = hint_message(found.source, label, found.remaining, view, back_to, from_start)
    return HintView(
        move=None if move is None else str(move),
        label=label,
        source=found.source,
        remaining=found.remaining,
        message=message,
        newly_assisted=newly,
        game=view,
        winnable_at=back,
        back_to=back_to,
        wins=found.wins if found.source == "blind" else None,
        worlds=found.worlds if found.source == "blind" else None,
    )


def fair_message(found: Hint, label: str | None, view: GameView) -> str:
    """A fair hint in words: the blind player's move, and how sure it is."""
    tried = f"{found.worlds} stock order{'' if found.worlds == 1 else 's'} I tried"
    if found.why == "deadline":
        text = (
            f"Try {label}. I ran out of time before I could weigh the stock orders it could "
            "have, so this is the best move by rule of thumb."
        )
    elif found.why == "only":
        text = f"{label} is the only move."
    elif found.why == "safe":
        text = f"Try {label}: a safe move, it never costs a win, whatever the stock holds."
    elif found.why == "search":
        text = (
            f"Try {label}: it wins in {found.wins} of the {tried}. Like you, I can't see "
            "the stock's order: I tried orders it could have."
        )
    elif found.lost == found.worlds and found.worlds:
        text = (
            f"None of the {tried} can be won from here, so this is the best move by rule of "
            f"thumb: try {label}."
        )
    else:
        text = (
            f"I found no win in the {tried} within my budget, so this is the best move by "
            f"rule of thumb: try {label}."
        )
    if view.daily_date is not None and view.scored:
        text += " This daily is now marked as assisted on the leaderboard."
    return text


def hint_message(
    source: HintSource,
    label: str | None,
    remaining: int | None,
    view: GameView,
    back_to: str | None = None,
    from_start: bool = False,
) -> str:
    """The hint in a sentence or two for the player (``HintView.message``); ``from_start``:
    the game is proven lost from its deal."""
    if source == "solver":
        left = f"{remaining} move{'' if remaining == 1 else 's'}"
        text = (
            f"Try {label}: it starts a winning line ({left} to the end). The solver sees "
            "the stock's order, which you can't: fair hints don't."
        )
    elif source == "heuristic":
        text = (
            f"Try {label}. The solver found no winning line in the time it had, so this is "
            "the best move by rule of thumb."
        )
    elif source == "lost":
        text = _lost_message(label, view.can_undo and not from_start, back_to)
    else:
        text = "There is nothing to hint: the game is over."
    if view.daily_date is not None and view.scored:
        text += " This daily is now marked as assisted on the leaderboard."
    return text


def _lost_message(label: str | None, can_undo: bool, back_to: str | None) -> str:
    """``can_undo``: an earlier position may still win (the deal isn't proven lost)."""
    if can_undo:
        text = "No winning line exists from here: this game can't be won any more."
    else:  # the deal itself is lost (nothing played yet, or proven from its start)
        text = "No winning line exists: this deal can't be won, whatever you play."
    if can_undo and back_to is not None:
        text += f" It still could be at {back_to}: undo back to there."
    elif can_undo:
        text += " Undo may take you back to where it still could be."
    if label is not None:
        text += f" To get more cards home, try {label}."
    return text
