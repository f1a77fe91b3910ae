"""Hints: the move to play next, from the solver when it finds a win, else by rule of thumb.

``hint(game, max_nodes=..., max_seconds=...)`` asks the solver
(``engine.solver.solve``) about the position, within the budget, and answers:

- ``source="solver"``: the solver found a winning line; ``move`` is its first
  move and ``remaining`` the number of moves in the line (this one included).
  Playing hint after hint wins the game.
- ``source="lost"``: the solver proved that no line wins from here (or no
  legal move is left). ``move`` is still the rule-of-thumb move, to get more
  cards home (None when no move is left); ``remaining`` is None.
- ``source="heuristic"``: the budget ran out undecided; ``move`` is the
  rule-of-thumb move.
- ``source="none"``: the game is already won; nothing to hint.

A hint from the solver carries its whole winning line (``Hint.line``). A
front end keeps it with the moves played before it (``kept``: a winning line
from the deal), and ``known_hint(game, line_left(kept, game.history))``
answers the next hint from it without a search, as long as what is left of it
still wins from the position (it is replayed through the engine to make
sure). So a player who follows the hints gets every later one at once, and
each continues the line the first one started. A position reached by moves
from one the solver proved lost is lost too (a line from it would win from
the earlier one), so ``known_hint(game, lost=True)`` answers that without a
search either.

When the game is lost, ``winnable_before(game)`` looks back over its history
for the last position the solver can still win, so a player knows how far to
undo.

The rule of thumb (``heuristic_move``) ranks every legal move and takes the
first; within a rank, the move from the taller reserve pile first (it frees
more cards), then the engine's order of ``legal_moves``:

1. an Ace to the Ace pile, from the reserve (then from a row);
2. a build from the reserve onto a foundation;
3. an interchange of two misplaced cards (both land home, no space opens);
4. a fill of a space from the reserve;
5. a card leaving a row (a build or a fill) whose space can then be filled;
6. a move that opens a space nothing can fill (the space warning: the stock
   can't be dealt until a base turns up);
7. a card onto an empty reserve pile (Blue Jacket): it goes nowhere nearer home;
8. the deal: it buries the reserve under new cards;
9. last, a card alone on its reserve pile onto another empty one (Blue Jacket):
   it uncovers nothing, and a hint that offered it would offer it back.

The same for every game of the family: where the deal is allowed with spaces
open (Royal Parade, Big Parade) no move has a space warning.

Pure and synchronous: the bot runs it in a worker process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..game import Game
from ..moves import IllegalMoveError, Move, MoveKind
from .search import solve
from .verdict import Verdict

HintSource = Literal["solver", "heuristic", "lost", "none", "blind"]

DEFAULT_MAX_NODES = 1_000_000
DEFAULT_MAX_SECONDS = 1.0
REWIND_NODES = 20_000  # ``winnable_before``: the search for each earlier position


@dataclass(frozen=True, slots=True)
class Hint:
    """What to play next, and how sure it is (see the module docstring)."""

    move: Move | None
    source: HintSource
    remaining: int | None = None  # moves left in the winning line (source "solver")
    line: tuple[Move, ...] = ()  # that winning line, ``move`` first (source "solver")
    # source "blind" (the fair hint, ``engine.solver.blind.blind_hint``): why the blind
    # player chose it (``BlindChoice.reason``), and of the stock orders it tried, how
    # many the move was shown to win and how many were lost whatever is played
    why: str = ""
    wins: int = 0
    lost: int = 0
    worlds: int = 0


def hint(
    game: Game,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_seconds: float = DEFAULT_MAX_SECONDS,
) -> Hint:
    """The hint for ``game`` (left unchanged), the solver searching within the budgets."""
    if game.is_won():
        return Hint(None, "none", 0)
    if not game.legal_moves():
        return Hint(None, "lost")
    solution = solve(game, max_nodes=max_nodes, max_seconds=max_seconds)
    if solution.verdict is Verdict.WON:
        found = known_hint(game, solution.line)  # the line replayed, its moves canonical
        if found is not None:
            return found
    best = heuristic_move(game)
    if solution.verdict is Verdict.UNWINNABLE:
        return Hint(best, "lost")
    return Hint(best, "heuristic")


def known_hint(game: Game, line: Sequence[Move] | None = None, lost: bool = False) -> Hint | None:
    """The hint for ``game`` from what an earlier hint found, with no search; None if
    that does not settle it.

    ``line``: a winning line found before, less the moves played since
    (``line_left``); if it still wins from ``game`` (replayed on a copy), the
    hint is its first move. ``lost``: ``game`` was reached by moves from a
    position the solver proved lost, so it is lost too.
    """
    if game.is_won():
        return Hint(None, "none", 0)
    if lost:
        return Hint(heuristic_move(game), "lost")
    if not line:
        return None
    replay = game.copy()
    moves: list[Move] = []
    try:
        for move in line:
            moves.append(replay.canonical(move))  # as a game's history holds it
            replay.play(move)
    except IllegalMoveError:
        return None
    if not replay.is_won():
        return None
    return Hint(moves[0], "solver", len(moves), tuple(moves))


@dataclass(frozen=True, slots=True)
class LookBack:
    """What ``look_back`` found over a lost game's history."""

    winnable_at: int | None  # the latest earlier move count the solver wins from
    lost_from_start: bool  # the solver proved the game lost from its first position


def winnable_before(
    game: Game,
    *,
    max_nodes: int = REWIND_NODES,
    max_seconds: float = DEFAULT_MAX_SECONDS,
    clock: Callable[[], float] = time.perf_counter,
) -> int | None:
    """The latest move number before the current one whose position the solver wins:
    undo back to it and the game can still be won. None if no earlier position is
    won within the budgets (or the game has no history). See ``look_back``."""
    found = look_back(game, max_nodes=max_nodes, max_seconds=max_seconds, clock=clock)
    return found.winnable_at


def look_back(
    game: Game,
    *,
    max_nodes: int = REWIND_NODES,
    max_seconds: float = DEFAULT_MAX_SECONDS,
    clock: Callable[[], float] = time.perf_counter,
) -> LookBack:
    """Look back over a lost ``game``'s history for the latest position the solver wins,
    and, when none is, whether its first position is proven lost too.

    Each earlier position, from the latest back, gets a search of at most
    ``max_nodes``; all of them together at most ``max_seconds``. A game lost
    by a move is lost at every position after it (a win from a later one would
    be a win from that one), and most such positions are proven lost before
    any search, so the look back is quick until it meets the move that lost.
    """
    earlier = game.copy()
    deadline = clock() + max_seconds
    verdict = None
    while earlier.history:
        earlier.undo()
        left = deadline - clock()
        if left <= 0:
            return LookBack(None, False)
        solution = solve(earlier, max_nodes=max_nodes, max_seconds=left, clock=clock)
        if solution.verdict is Verdict.WON:
            return LookBack(earlier.move_count, False)
        verdict = solution.verdict
    return LookBack(None, verdict is Verdict.UNWINNABLE)


def line_left(line: Sequence[Move], played: Sequence[Move]) -> tuple[Move, ...] | None:
    """The moves of ``line`` (a line from the start of a game) not in ``played``
    (that game's moves so far), in order; None if a move played is not in it.

    A game that followed the line gives the rest of it; moves played in another
    order than the line's (an Ace played by the automatic moves before the line
    would have played it) are taken out wherever they are, and moves taken back
    come back. Only a replay says whether what is left still wins
    (``known_hint``).
    """
    rest = list(line)
    for move in played:
        try:
            rest.remove(move)
        except ValueError:
            return None
    return tuple(rest)


def heuristic_move(game: Game) -> Move | None:
    """The best legal move by the rule of thumb of the module docstring; None if none."""
    moves = game.legal_moves()
    if not moves:
        return None
    ranked = sorted(enumerate(moves), key=lambda item: (*move_rank(game, item[1]), item[0]))
    return ranked[0][1]


def move_rank(game: Game, move: Move) -> tuple[int, int]:
    """(rank 1..9 of the module docstring, minus the height of the source reserve pile)."""
    kind = game.kind(move)
    if kind is MoveKind.DEAL or move.src is None:
        return (8, 0)
    if kind is MoveKind.RESERVE:
        alone = move.src.area == "reserve" and len(game.pile(move.src)) == 1
        return (9, 0) if alone else (7, 0)
    from_reserve = move.src.area == "reserve"
    height = len(game.pile(move.src)) if from_reserve else 0
    if kind is MoveKind.ACE:
        return (1, -height) if from_reserve else (1, 1)
    if kind is MoveKind.INTERCHANGE:
        return (3, 0)
    if from_reserve:
        return (2 if kind is MoveKind.BUILD else 4, -height)
    if game.space_warning(move) is not None:
        return (6, 0)
    return (5, 0)
