"""The blind player: a move chosen knowing what a person at the table knows, not the stock.

A player with a perfect memory knows the whole layout (every reserve card was dealt
face up), which cards are still in the stock, and how many; never their order. The
solver (``solve``) knows the order, so its verdict says whether a deal *can* be won,
and its hints peek. ``blind_move`` chooses as a player must, by sampling:

1. **No choice to make.** The only legal move is played; so is a safe move, one the
   solver's proofs show never loses a win (docs/solver.md, "Safe moves": a reserve Ace,
   a build no other card can want, a base filling the last space of its row), which
   depends on no hidden card.
2. **Worlds.** ``samples`` orders of the cards left in the stock, drawn from a random
   generator seeded by ``seed`` and the position itself, with the stock's cards sorted
   first: the real order never enters, so the answer cannot depend on it (a test
   permutes it), and the same position and seed give the same move.
3. **The search in each world.** The solver searches each world within ``max_nodes``
   (no time budget, no SAT prover, the probe at every deal whatever the build: the
   answer depends neither on the machine's speed nor on whether the solver is compiled).
   A world it wins names a winning first move; a world it proves lost is lost whatever
   is played now; a world it cannot decide in the budget says nothing.
4. **The candidates.** The first moves of the worlds' winning lines, most often found
   first (at most ``CANDIDATES``), are each checked in every world won by another
   first move: does it win there too (a search of the world after it)? Each candidate
   scores the worlds it is shown to win.
5. **The choice.** The candidate that wins the most worlds; on a tie, the one found
   first in more worlds, then the rule of thumb's order (``hints.move_rank``). When no
   world is won (all lost, or undecided), the rule of thumb's move.

``blind_choice`` gives the move with its evidence (wins in how many of the worlds
tried), for a fair hint: "wins in 6 of the 8 stock orders I tried". A fair hint has a
wall-clock deadline as well (``blind_hint``'s ``max_seconds``): a search not over by then
is given up whole, and the hint is the rule of thumb's move, said to be one (a partial
count of the worlds would be evidence of nothing). With ``samples=0``
it is the casual player of the baseline: safe moves, then the rule of thumb alone, never
opening a space that stops the deal while another move is left (``casual_move``).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Final, Literal

from ..game import Game
from ..moves import Move
from ..notation import format_position
from ..variant import ROWS
from .hints import Hint, heuristic_move, move_rank
from .model import Model, Options, models
from .search import replay, solve
from .verdict import Verdict

DEFAULT_SAMPLES: Final = 8
DEFAULT_NODES: Final = 2_000
CANDIDATES: Final = 3
UNBOUNDED_SECONDS: Final = 3600.0  # the node budget decides, never the clock
SAFE: Final = Options(
    safe_aces=True,
    safe_builds=True,
    safe_fills=True,
    dead_check=True,
    decisions=True,
    deadlines=True,
    dead_ends=True,
    probe_every_deal=False,
)  # the safe-move rules on (the pruning switches are the search's, unused here)

BlindReason = Literal["only", "safe", "search", "heuristic"]


@dataclass(frozen=True, slots=True)
class BlindChoice:
    """A blind player's move, and why: ``reason`` "only" (the one legal move), "safe"
    (the solver's safe move), "search" (the worlds' verdict), "heuristic" (no world won).
    ``wins``, ``lost``, ``worlds``: of the stock orders tried (0 without a search), how
    many the move was shown to win, and how many were proven lost whatever is played."""

    move: Move
    reason: BlindReason
    wins: int = 0
    lost: int = 0
    worlds: int = 0


def blind_move(
    game: Game,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    max_nodes: int = DEFAULT_NODES,
    avoid: Collection[str] = (),
) -> Move:
    """The move a player who cannot see the stock's order makes (module docstring).
    ``avoid``: positions (``format_position``) not to go back to (a player going round in
    circles). ``ValueError`` if there is no move to make."""
    return blind_choice(game, seed=seed, samples=samples, max_nodes=max_nodes, avoid=avoid).move


def blind_choice(
    game: Game,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    max_nodes: int = DEFAULT_NODES,
    avoid: Collection[str] = (),
    max_seconds: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> BlindChoice:
    """``blind_move``'s move with its evidence (``BlindChoice``). ``max_seconds``: a limit
    on the search's time, read on ``clock`` (None: the node budget alone decides, and the
    answer does not depend on the machine's speed); ``TimeoutError`` when it runs out
    before the search is over."""
    legal = [m for m in game.legal_moves() if not _returns(game, m, avoid)]
    if not legal:
        raise ValueError("no move to make: the game is over, or every move goes back")
    if len(legal) == 1:
        return BlindChoice(legal[0], "only")
    safe = safe_move(game)
    if safe is not None and safe in legal:
        return BlindChoice(safe, "safe")
    if samples == 0:  # no search: the casual player's move
        return BlindChoice(casual_move(game, legal), "heuristic")
    worlds = sample_worlds(game, seed, samples)
    deadline = _Deadline(max_seconds, clock)
    return _searched(game, worlds, legal, max_nodes, deadline)


def blind_hint(
    game: Game,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    max_nodes: int = DEFAULT_NODES,
    max_seconds: float | None = None,
) -> Hint:
    """The fair hint: the blind player's move and its evidence (``Hint`` of source "blind"),
    "none" when the game is won, "lost" when no move is left. ``max_seconds``: its time
    (None: no limit); a search not over by then gives the rule of thumb's move (source
    "heuristic", ``why`` "deadline")."""
    if game.is_won():
        return Hint(None, "none", 0)
    if not game.legal_moves():
        return Hint(None, "lost")
    try:
        choice = blind_choice(
            game, seed=seed, samples=samples, max_nodes=max_nodes, max_seconds=max_seconds
        )
    except TimeoutError:
        return Hint(heuristic_move(game), "heuristic", why="deadline")
    return Hint(
        choice.move, "blind", why=choice.reason, wins=choice.wins, lost=choice.lost,
        worlds=choice.worlds,
    )  # fmt: skip


def casual_move(game: Game, legal: list[Move]) -> Move:
    """A casual player's move, with no search: the hints' rule of thumb (``move_rank``),
    except that a move opening a space nothing can fill while the stock has cards (the
    space warning, which stops the deal) is played only when nothing else is left."""
    calm = [m for m in legal if game.space_warning(m) is None] or legal
    order = {m: i for i, m in enumerate(calm)}
    return min(calm, key=lambda m: (move_rank(game, m), order[m]))


class _Deadline:
    """The time a blind choice may take (None: no limit), read on ``clock``."""

    def __init__(self, seconds: float | None, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._end = None if seconds is None else clock() + seconds

    def left(self) -> float:
        """The seconds left (``UNBOUNDED_SECONDS`` with no limit); ``TimeoutError`` if none."""
        if self._end is None:
            return UNBOUNDED_SECONDS
        left = self._end - self._clock()
        if left <= 0:
            raise TimeoutError("the blind player's time ran out")
        return left


def _searched(
    game: Game, worlds: list[Game], legal: list[Move], max_nodes: int, deadline: _Deadline
) -> BlindChoice:
    """Steps 3 to 5 of the module docstring."""
    firsts: dict[int, Move] = {}  # world -> the first move of its winning line
    lost: set[int] = set()
    for w, world in enumerate(worlds):
        found = _search(world, max_nodes, deadline)
        if found is Verdict.UNWINNABLE:
            lost.add(w)
        elif isinstance(found, Move) and game.canonical(found) in legal:
            firsts[w] = game.canonical(found)
    votes = Counter(firsts.values())
    order = {m: i for i, m in enumerate(legal)}
    candidates = sorted(votes, key=lambda m: (-votes[m], move_rank(game, m), order[m]))
    candidates = candidates[:CANDIDATES]
    if not candidates:
        fallback = heuristic_move(game)
        move = fallback if fallback in legal else legal[0]
        return BlindChoice(move, "heuristic", 0, len(lost), len(worlds))
    scores = {m: _wins(m, worlds, firsts, max_nodes, deadline) for m in candidates}
    best = max(candidates, key=lambda m: scores[m])  # the first of the best, in order
    return BlindChoice(best, "search", scores[best], len(lost), len(worlds))


def _wins(
    move: Move, worlds: list[Game], firsts: dict[int, Move], max_nodes: int, deadline: _Deadline
) -> int:
    """The worlds ``move`` is shown to win: those whose line starts with it, and those won
    by another first move where a search after ``move`` wins too."""
    wins = 0
    for w, first in firsts.items():
        if first == move:
            wins += 1
            continue
        after = worlds[w].copy()
        after.play(move)
        if after.is_won() or isinstance(_search(after, max_nodes, deadline), Move):
            wins += 1
    return wins


def _search(world: Game, max_nodes: int, deadline: _Deadline) -> Move | Verdict:
    """The first move of a winning line of ``world`` the solver finds within
    ``max_nodes``, or the verdict when it finds none (unwinnable or unknown);
    ``TimeoutError`` if the time runs out first."""
    found = solve(
        world,
        max_nodes=max_nodes,
        max_seconds=deadline.left(),
        sat=False,
        probe_every_deal=True,  # as the compiled build does: the same nodes in both builds
    )
    if found.verdict is Verdict.UNKNOWN:
        deadline.left()  # undecided because the time ran out: no evidence
    if found.verdict is Verdict.WON and found.line:
        return found.line[0]
    return Verdict.UNKNOWN if found.verdict is Verdict.WON else found.verdict


def _returns(game: Game, move: Move, avoid: Collection[str]) -> bool:
    """Whether ``move`` leads back to a position of ``avoid``."""
    if not avoid:
        return False
    after = game.copy()
    after.play(move)
    return format_position(after) in avoid


def hidden_key(game: Game) -> str:
    """The position as a player sees it: the stock as the sorted list of its cards (its
    order hidden). Two positions that differ only in the stock's order have one key."""
    seen = format_position(game).split()
    stock = "".join(f"{card:03d}" for card in sorted(game.stock))
    return " ".join([*seen[:5], stock or "-", seen[6]])


def sample_worlds(game: Game, seed: int, samples: int) -> list[Game]:
    """``samples`` copies of ``game``'s position, each with the cards left in the stock in
    an order drawn at random (``seed`` and the position seed the draw; the real order
    never enters: the cards are sorted first). With at most one order possible (a stock
    of one card, or none), that one position."""
    unseen = sorted(game.stock)
    rows = [list(pile) for r in range(ROWS) for pile in game.row(r)]
    reserve = [list(pile) for pile in game.reserve]
    if len(set(unseen)) <= 1:
        samples = 1
    rng = random.Random(f"{seed}|{hidden_key(game)}")
    worlds = []
    for _ in range(samples):
        order = unseen[:]
        rng.shuffle(order)
        worlds.append(Game(rows, reserve, order, game.aces, game.variant, game.deal_number))
    return worlds


def safe_move(game: Game) -> Move | None:
    """A move that never loses a win and depends on no hidden card: the solver's safe move
    (docs/solver.md) for the games it models, a reserve Ace (``Game.safe_moves``) for the
    others; None if there is none."""
    if not models(game.variant):
        safe = game.safe_moves()
        return safe[0] if safe else None
    model = Model(game)
    move = model.safe(SAFE)
    if move is None:
        return None
    return game.canonical(translate_one(game, model, move))


def translate_one(game: Game, model: Model, move: tuple[int, int, int]) -> Move:
    """One move of ``model`` (built from ``game``) as the engine's move."""
    _, moves = replay(game, model, [move])
    return moves[0]


__all__ = [
    "DEFAULT_NODES",
    "DEFAULT_SAMPLES",
    "BlindChoice",
    "blind_choice",
    "blind_hint",
    "blind_move",
    "hidden_key",
    "safe_move",
    "sample_worlds",
]
