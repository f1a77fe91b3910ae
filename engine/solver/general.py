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

One proof is carried over from the model: once the stock is empty, Royal Parade's
rules are Virginia Reel's and Big Parade's are Three Up's (no deal and no refill is
left, and nothing else tells them apart), so a position with the stock empty is
handed to the model's search (``endgame``, "The endgame" in docs/solver.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from ..cards import RANK_STEP3
from ..game import Game
from ..moves import ACE_PILE, Move, MoveKind, Pile
from ..variant import VARIANTS, Variant
from .dead import dead_card, no_deal_ahead
from .model import models
from .verdict import Solution, Verdict

# The model's solver of an endgame: (the position, as a game the model plays; its node
# budget; its time budget in seconds) -> its answer. ``search.solve`` passes it.
Endgame = Callable[[Game, int, float], Solution]
# An endgame's node budget: past it the general search goes on into the position
# (an answer unknown proves nothing).
ENDGAME_NODES: Final = 20_000

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
    endgame: Endgame | None = None  # the model's solver, for the positions with the stock empty
    model_variant: Variant | None = None  # the game the model plays for them
    dead_check: bool = True  # prune the positions ``dead_card`` proves lost
    safe_builds: bool = True  # play the safe builds of ``safe_move``
    safe_fills: bool = True  # and its safe fills
    nodes: int = 0
    seen: set[bytes] = field(default_factory=set)  # keys of the positions entered


def solve_general(
    game: Game,
    *,
    max_nodes: int,
    max_seconds: float,
    clock: Callable[[], float] = time.perf_counter,
    endgame: Endgame | None = None,
    dead_check: bool = True,
    safe_builds: bool = True,
    safe_fills: bool = True,
) -> Solution:
    """Search ``game`` (left unchanged) over every legal move for a win within the budgets:
    won with a line replayed through the engine, unwinnable only when the search was
    exhaustive, else unknown (``stopped_by`` names the budget that ran out).

    ``endgame``: the model's solver, to which a position with the stock empty is handed
    where the game's rules are then a game the model plays (``endgame_variant``);
    None: the general search plays the whole game. ``dead_check``: leave out the
    positions in which some card can never go home (``dead.dead_card``).
    ``safe_builds``, ``safe_fills``: play the safe builds and fills of ``safe_move``
    without branching."""
    start = clock()
    work = game.copy()
    before = work.move_count
    model_variant = endgame_variant(game.variant) if endgame is not None else None
    run = _Run(
        work,
        max_nodes,
        start + max_seconds,
        clock,
        endgame,
        model_variant,
        dead_check=dead_check,
        safe_builds=safe_builds,
        safe_fills=safe_fills,
    )
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
    while (forced := safe_move(game, builds=run.safe_builds, fills=run.safe_fills)) is not None:
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
    if run.model_variant is not None and game.stock_count == 0:
        answer = _hand_over(run, run.model_variant)
    elif run.dead_check and (dead_card(game) or no_deal_ahead(game)):
        answer = False
    else:
        answer = None
    if answer is not None:
        if not answer:
            for _ in range(played):
                game.undo()
        return answer
    return _Frame(played, ordered_moves(game))


def endgame_variant(variant: Variant) -> Variant | None:
    """The game the model plays whose rules are ``variant``'s once the stock is empty:
    the same packs and layout, the reserve refilled only from the stock (so, with the
    stock empty, never). Virginia Reel for Royal Parade, Three Up for Big Parade; None
    for Blue Jacket (a card may still go onto an empty reserve pile) and for the games
    the model plays whole."""
    if models(variant) or variant.reserve_refill == "any":
        return None
    for other in VARIANTS.values():
        if models(other) and (other.decks, other.piles_per_row, other.reserve_piles) == (
            variant.decks,
            variant.piles_per_row,
            variant.reserve_piles,
        ):
            return other
    return None


def as_variant(game: Game, variant: Variant) -> Game:
    """The position of ``game`` as a position of ``variant`` (the same piles and Aces)."""
    rows = [pile for r in range(3) for pile in game.row(r)]
    return Game(rows, game.reserve, game.stock, game.aces, variant)


def _hand_over(run: _Run, variant: Variant) -> bool | None:
    """The model's verdict on the position of ``run.game`` (its stock empty), played as
    ``variant``: True (the game left at the win, the model's line played through the
    engine) if won, False if proven lost, None if undecided within its budget."""
    assert run.endgame is not None
    game = run.game
    nodes = min(ENDGAME_NODES, run.max_nodes - run.nodes)
    seconds = run.deadline - run.clock()
    if nodes <= 0 or seconds <= 0:
        raise _OutOfBudget
    answer = run.endgame(as_variant(game, variant), nodes, seconds)
    run.nodes += answer.nodes
    if answer.verdict is Verdict.UNWINNABLE:
        return False
    if answer.verdict is Verdict.WON:
        for move in answer.line:
            game.play(move)
        return True
    if run.clock() > run.deadline:
        raise _OutOfBudget
    return None


def position_key(game: Game) -> bytes:
    """The position as bytes, up to the order of the piles within a row (which no rule
    looks at): each row's piles sorted, the reserve piles in order, the stock's size
    (the stock's order is fixed, so its size says which cards are left). The Aces home
    are the Aces missing from the rest. Once the stock is empty the reserve piles are
    sorted too: only a deal or a refill from the stock tells one reserve pile from
    another, and neither is left."""
    parts: list[bytes] = []
    for r in range(3):
        parts += sorted(bytes(p) for p in game.row(r))
        parts.append(b"\xfe")
    reserve = [bytes(p) for p in game.reserve]
    parts += reserve if game.stock_count else sorted(reserve)
    parts.append(game.stock_count.to_bytes(2, "big"))
    return b"\xff".join(parts)


def safe_move(game: Game, *, builds: bool = True, fills: bool = True) -> Move | None:
    """A move that some winning line plays first whenever any line wins; None if none is
    known. Only where that is proven for the game played:

    - an Ace on a reserve pile, unless the game refills an emptied pile from the stock,
      the Ace is the pile's last card and the stock has cards (the card that refills
      it would depend on when the Ace goes);
    - a misplaced Ace in a row, when the space it leaves can block nothing: the game
      deals with spaces open, or the stock is empty;
    - (``builds``) a card of rank 5 up built onto a foundation when its row has a free
      slot for every copy of it not home; (``fills``) a Two, Three or Four filling a
      space when its row has a space for every base of the row not home: from a
      reserve pile on the Ace's terms, from a row on the misplaced Ace's.

    Why: "The general search" in docs/solver.md.
    """
    refills = game.variant.reserve_refill == "stock" and game.stock_count > 0
    for j, pile in enumerate(game.reserve):
        if pile and pile[-1] >> 2 == 0 and (len(pile) > 1 or not refills):
            return Move(Pile("reserve", 0, j), ACE_PILE)
    from_rows = not game.variant.deal_needs_no_space or game.stock_count == 0
    if from_rows:
        for r in range(3):
            for c, pile in enumerate(game.row(r)):
                if len(pile) == 1 and pile[0] >> 2 == 0:
                    return Move(Pile("row", r, c), ACE_PILE)
    if builds or fills:
        return _safe_home(game, builds, fills, refills, from_rows)
    return None


def _safe_home(
    game: Game, builds: bool, fills: bool, refills: bool, from_rows: bool
) -> Move | None:
    """The first safe build or fill of ``safe_move``, if any."""
    rows = [game.row(r) for r in range(3)]
    out: list[int] | None = None  # copies of each card not home, counted when needed
    for move in game.legal_moves():
        src, dst = move.src, move.dst
        if src is None or dst is None or dst.area != "row":
            continue
        if src.area == "reserve":
            pile = game.pile(src)
            if len(pile) == 1 and refills:
                continue
        elif not from_rows:
            continue
        else:
            pile = game.pile(src)
        card = pile[-1]
        rank = card >> 2
        target = rows[dst.row][dst.col]
        if out is None:
            out = _not_home(game)
        if rank >= 4 and builds and target:
            # free slots: the based piles of the row topped by the card three below
            below = card - RANK_STEP3
            slots = sum(
                1
                for p in rows[dst.row]
                if p and p[-1] == below and (len(p) > 1 or below >> 2 == dst.row + 1)
            )
            if slots >= out[card]:
                return move
        elif 1 <= rank <= 3 and fills and not target:
            spaces = sum(1 for p in rows[dst.row] if not p)
            bases = sum(out[(rank << 2) + suit] for suit in range(4))
            if spaces >= bases:
                return move
    return None


def _not_home(game: Game) -> list[int]:
    """The copies of each card not home: misplaced in a row, on a reserve pile, in the stock."""
    out = [0] * 52
    for r in range(3):
        for pile in game.row(r):
            if len(pile) == 1 and pile[0] >> 2 != r + 1:
                out[pile[0]] += 1
    for pile in game.reserve:
        for card in pile:
            out[card] += 1
    for card in game.stock:
        out[card] += 1
    return out


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
