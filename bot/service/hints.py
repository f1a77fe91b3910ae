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
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine import Game, format_line
from engine.notation import describe_move, format_position
from engine.solver.hints import (
    REWIND_NODES,
    Hint,
    HintSource,
    LookBack,
    known_hint,
    line_left,
)

from . import jobs
from .contract import GameView, HintView
from .entry import Entry, undo_target
from .errors import HintUnavailableError
from .pool import POOL_FAILURES, SolverPool

log = logging.getLogger(__name__)

HINT_SECONDS: Final = 1.0  # the solver's time budget for a hint
HINT_NODES: Final = 1_000_000  # and its node budget (the time runs out first)
FAIR_SAMPLES: Final = 8  # a fair hint: the stock orders it tries
FAIR_NODES: Final = 2_000  # and the positions searched in each


@dataclass(frozen=True, slots=True)
class Learned:
    """What a hint found that is to be stored with the game: a new winning line from the
    deal (``format_line``), or a new proof of loss (the moves played, and the move count
    undo can go back to for a win)."""

    line: str | None = None
    loss: tuple[str, int | None] | None = None


class Hints:
    """The hints' searches, in ``pool`` within ``seconds`` and ``nodes`` each."""

    def __init__(
        self, pool: SolverPool, seconds: float = HINT_SECONDS, nodes: int = HINT_NODES
    ) -> None:
        self._pool = pool
        self._seconds = seconds
        self._nodes = nodes

    async def find(
        self,
        user_id: int,
        entry: Entry,
        on_search: Callable[[], None] | None,
        fair: bool = False,
    ) -> tuple[Hint, Learned | None]:
        """The hint for ``entry``'s game, and what to store that it taught (None: nothing
        new); ``entry`` keeps it at once. ``on_search`` is called just before a search
        starts, not when the answer is known already. ``fair``: the blind player's hint,
        which teaches nothing to keep."""
        game = entry.game
        if fair:
            if game.legal_moves() and on_search is not None:
                on_search()
            return await self._fair(user_id, game), None
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
            found = await self._search(user_id, game)
        if found.source == "solver" and history + found.line != entry.hint_line:
            entry.hint_line = history + found.line
            return found, Learned(line=format_line(entry.hint_line))
        if found.source == "lost" and not lost:
            looked = await self._look_back(user_id, game)
            if looked is not None and looked.lost_from_start:  # the proof covers the deal
                entry.lost_after = ((), None)
                return found, Learned(loss=("", None))
            back = None if looked is None else looked.winnable_at
            back = None if back is None else undo_target(entry.chained, back)
            entry.lost_after = (history, back)
            return found, Learned(loss=(format_line(history), back))
        return found, None

    async def _search(self, user_id: int, game: Game) -> Hint:
        try:
            found = await self._pool.run(
                jobs.hint_job, format_position(game), self._nodes, self._seconds
            )
        except POOL_FAILURES as exc:
            log.error("hint for user %s failed in the solver pool: %s", user_id, exc)
            self._pool.reset()
            raise HintUnavailableError() from exc
        if found.source == "heuristic":  # its budget ran out undecided
            self._pool.timed_out += 1
        return found

    async def _fair(self, user_id: int, game: Game) -> Hint:
        try:
            return await self._pool.run(
                jobs.blind_hint_job, format_position(game), FAIR_SAMPLES, FAIR_NODES
            )
        except POOL_FAILURES as exc:
            log.error("fair hint for user %s failed in the solver pool: %s", user_id, exc)
            self._pool.reset()
            raise HintUnavailableError() from exc

    async def _look_back(self, user_id: int, game: Game) -> LookBack | None:
        """The last move of a lost ``game`` from which it can still be won, or that it is
        lost from its start, searched in the pool (``engine.solver.hints.look_back``);
        None if the pool fails (the hint is given without it)."""
        if not game.history:
            return LookBack(None, True)  # lost at the deal: the hint's own proof
        try:
            # (the user's lock keeps the game still meanwhile; the job looks back on a copy)
            return await self._pool.run(jobs.rewind_job, game, REWIND_NODES, self._seconds)
        except POOL_FAILURES as exc:
            log.error("looking back for user %s failed in the solver pool: %s", user_id, exc)
            self._pool.reset()
            return None


def answer(entry: Entry, found: Hint, view: GameView, symbols: bool, newly: bool) -> HintView:
    """The hint ``found`` for ``entry``'s game (shown as ``view``), for the player."""
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
    if found.source == "blind":
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
    if found.why == "only":
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
