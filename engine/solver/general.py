"""The general search: a plain depth-first search over the engine itself, for the games
the model (model.py) does not play.

Royal Parade and Big Parade refill an emptied reserve pile from the stock and deal
with spaces open; Blue Jacket lets a misplaced card onto an empty reserve pile. The
model's proofs (the dead-card closure, the deadlines, the SAT prover's clauses) are
written for reserves that only a deal refills, so those games get this search
instead: every legal move of ``Game.legal_moves``, played and taken back with
``Game.play`` / ``Game.undo``, in the order of a rule of thumb, with a table of the
positions already searched and found lost, and only the safe moves proven safe in
the game played (``safe_move``). No other pruning: the verdicts are sound because the
search is exhaustive, not clever, and most deals end undecided within a small
budget. Why it is sound: "The general search" in docs/solver.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..game import Game
from ..moves import ACE_PILE, Move, MoveKind, Pile
from .verdict import Solution, Verdict

# Move order (``ordered_moves``), best first: an Ace home, a build from the reserve,
# an interchange, a fill from the reserve, a card leaving a row to go home, the
# deal, a misplaced card onto an empty reserve pile (Blue Jacket); last, a move
# that opens a space no available card can fill while the deal needs none
# (``Game.space_warning``: the deal is blocked until a base turns up).
_FROM_ROW = 4
_ORDER = {
    MoveKind.ACE: 0,
    MoveKind.INTERCHANGE: 2,
    MoveKind.DEAL: 5,
    MoveKind.RESERVE: 6,
}
_BLOCKS_THE_DEAL = 7


class _OutOfBudget(Exception):
    pass


@dataclass(slots=True)
class _Run:
    game: Game  # the copy the search plays on
    max_nodes: int
    deadline: float
    clock: Callable[[], float]
    nodes: int = 0
    seen: set[bytes] = field(default_factory=set)  # keys of the positions entered


def solve_general(
    game: Game,
    *,
    max_nodes: int,
    max_seconds: float,
    clock: Callable[[], float] = time.perf_counter,
) -> Solution:
    """Search ``game`` (left unchanged) over every legal move for a win within the budgets:
    won with a line replayed through the engine, unwinnable only when the search was
    exhaustive, else unknown (``stopped_by`` names the budget that ran out)."""
    start = clock()
    work = game.copy()
    before = work.move_count
    run = _Run(work, max_nodes, start + max_seconds, clock)
    try:
        won = _search(run)
    except _OutOfBudget:
        stopped = "nodes" if run.nodes >= max_nodes else "time"
        return Solution(Verdict.UNKNOWN, (), run.nodes, clock() - start, stopped)
    if not won:
        return Solution(Verdict.UNWINNABLE, (), run.nodes, clock() - start)
    line = work.history[before:]
    check = game.copy()
    for move in line:
        check.play(move)
    assert check.is_won()
    return Solution(Verdict.WON, line, run.nodes, clock() - start)


@dataclass(slots=True)
class _Frame:
    """A position on the search's path: the safe moves played on entering it, its moves
    in order, and the next one to try."""

    played: int
    moves: list[Move]
    next: int = 0


def _search(run: _Run) -> bool:
    """Search from the position of ``run.game``; True (the game left at the win) if won.

    A plain depth-first search of the positions reachable from the root, each
    entered once (``run.seen``): if it ends without a win, no reachable position is
    won. (A game may have cycles: Blue Jacket's reserve cards move between empty
    reserve piles. A position is marked on entry, so a cycle is cut where it closes;
    what stays sound is the verdict for the root, which is all the table serves.)
    The path is a list, not the call stack: it can be longer than Python's recursion.
    """
    game = run.game
    root = _enter(run)
    if not isinstance(root, _Frame):
        return root
    path = [root]
    while path:
        frame = path[-1]
        if frame.next < len(frame.moves):
            game.play(frame.moves[frame.next])
            frame.next += 1
            child = _enter(run)
            if isinstance(child, _Frame):
                path.append(child)
            elif child:
                return True
            else:
                game.undo()
            continue
        path.pop()
        for _ in range(frame.played):
            game.undo()
        if path:
            game.undo()  # the move that led to it
    return False


def _enter(run: _Run) -> _Frame | bool:
    """Enter the position of ``run.game``: count a node, play its safe moves; True if
    that wins, False (the safe moves taken back) if the position was entered before,
    else its frame."""
    if run.nodes >= run.max_nodes or (run.nodes & 255 == 255 and run.clock() > run.deadline):
        raise _OutOfBudget
    run.nodes += 1
    game = run.game
    seen = run.seen
    entry = position_key(game)
    if entry in seen:
        return False
    seen.add(entry)
    played = 0
    while (forced := safe_move(game)) is not None:
        game.play(forced)
        played += 1
    if game.is_won():
        return True
    if played:
        key = position_key(game)
        if key in seen:
            for _ in range(played):
                game.undo()
            return False
        seen.add(key)
    return _Frame(played, ordered_moves(game))


def position_key(game: Game) -> bytes:
    """The position as bytes, up to the order of the piles within a row (which no rule
    looks at): each row's piles sorted, the reserve piles in order, the stock's size
    (the stock's order is fixed, so its size says which cards are left). The Aces home
    are the Aces missing from the rest."""
    parts: list[bytes] = []
    for r in range(3):
        parts += sorted(bytes(p) for p in game.row(r))
        parts.append(b"\xfe")
    parts += [bytes(p) for p in game.reserve]
    parts.append(game.stock_count.to_bytes(2, "big"))
    return b"\xff".join(parts)


def safe_move(game: Game) -> Move | None:
    """A move that some winning line plays first whenever any line wins; None if none is
    known. Only Aces, and only where that is proven for the game played:

    - an Ace on a reserve pile, unless the game refills an emptied pile from the stock,
      the Ace is the pile's last card and the stock has cards (the card that refills
      it would depend on when the Ace goes);
    - a misplaced Ace in a row, when the space it leaves can block nothing: the game
      deals with spaces open, or the stock is empty.

    Why: "The general search" in docs/solver.md.
    """
    refills = game.variant.reserve_refill == "stock" and game.stock_count > 0
    for j, pile in enumerate(game.reserve):
        if pile and pile[-1] >> 2 == 0 and (len(pile) > 1 or not refills):
            return Move(Pile("reserve", 0, j), ACE_PILE)
    if not game.variant.deal_needs_no_space or game.stock_count == 0:
        for r in range(3):
            for c, pile in enumerate(game.row(r)):
                if len(pile) == 1 and pile[0] >> 2 == 0:
                    return Move(Pile("row", r, c), ACE_PILE)
    return None


def ordered_moves(game: Game) -> list[Move]:
    """The legal moves, best first by the rule of thumb of ``_ORDER``; among moves from
    the reserve, the taller pile first (it frees more cards)."""
    ranked: list[tuple[int, int, int, Move]] = []
    warned: dict[int, bool] = {}  # by row: a card leaving it opens a space nothing fills
    for n, move in enumerate(game.legal_moves()):
        src, dst = move.src, move.dst
        height = 0
        if src is None or dst is None:
            rank = _ORDER[MoveKind.DEAL]
        elif dst.area == "reserve":
            rank = _ORDER[MoveKind.RESERVE]
        elif dst.area == "ace":
            rank = _ORDER[MoveKind.ACE]
        else:
            kind = game.kind(move)
            rank = _ORDER.get(kind, 1 if kind is MoveKind.BUILD else 3)
        if src is not None and src.area == "reserve":
            height = -len(game.pile(src))
        elif src is not None and rank != _ORDER[MoveKind.INTERCHANGE]:
            if src.row not in warned:
                warned[src.row] = game.space_warning(move) is not None
            rank = _BLOCKS_THE_DEAL if warned[src.row] else max(rank, _FROM_ROW)
        ranked.append((rank, height, n, move))
    ranked.sort(key=lambda item: item[:3])
    return [item[3] for item in ranked]
