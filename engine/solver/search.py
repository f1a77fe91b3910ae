"""The search: ``solve``, the depth-first search and its restarts, the hand-over to the SAT
prover, and the winning line translated back to the engine's moves.

The search runs on the compact model (model.py), prunes with the closure
(closure.py) and the phase's deadlines and dead ends (phase.py), and hands a
position it has not decided quickly to the SAT prover (sat.py). Why each rule
is sound: docs/solver.md.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from ..game import Game
from ..moves import ACE_PILE, Move, Pile
from ..moves import DEAL as GAME_DEAL
from . import general as _general
from . import sat as _sat
from .closure import NO_ORDERS, Bounds, bounds
from .model import (
    DEAL,
    DEAL_MOVE,
    HOME,
    NATIVE,
    STEP3,
    SWAP,
    WAIT,
    IMove,
    Model,
    Options,
    models,
)
from .phase import dead_end, due_by
from .verdict import Solution, Verdict


class _OutOfBudget(Exception):
    pass


def _unknown(search: Search, max_nodes: int, seconds: float) -> Solution:
    """The answer when a budget ran out: which one, in ``stopped_by``."""
    stopped = "nodes" if search.nodes >= max_nodes else "time"
    return Solution(Verdict.UNKNOWN, (), search.nodes, seconds, stopped)


# Restarts (see "Restarts" in docs/solver.md): the first run of the search
# stops after this many nodes, each later run after RESTART_GROWTH times more;
# later runs shuffle a share of the move lists, try a waiting card before the
# card going home, and the deal first, with these probabilities.
RESTART_FIRST: Final = 200
RESTART_GROWTH: Final = 1.1
SEED: Final = 1
P_SHUFFLE: Final = 0.6
P_WAIT_FIRST: Final = 0.3
P_DEAL_FIRST: Final = 0.2
# The clocks a budget in seconds can be read on (``solve``'s ``clock``), by name: wall
# time, or the CPU time of this process (on a machine shared with other work).
CLOCKS: Final[dict[str, Callable[[], float]]] = {
    "wall": time.perf_counter,
    "cpu": time.process_time,
}
# The SAT prover (sat.py; "The SAT prover" in docs/solver.md) takes
# over a position the search has not decided within this many nodes.
SAT_AFTER: Final = 3_000


@dataclass(slots=True)
class Search:
    model: Model
    opts: Options
    max_nodes: int
    deadline: float
    clock: Callable[[], float]
    nodes: int = 0
    failed: set[int] = field(default_factory=set)
    line: list[IMove] = field(default_factory=list)
    limit: int = 0  # the node count at which this run of the search stops
    rng: random.Random | None = None  # shuffles the order of moves (after the first run)


@dataclass(frozen=True)
class _General:
    """``solve``'s switches for a game the model does not play (the general search)."""

    sat: bool
    endgame: bool
    dead_check: bool
    safe_builds: bool
    safe_fills: bool

    def solve(
        self, game: Game, max_nodes: int, max_seconds: float, clock: Callable[[], float]
    ) -> Solution:
        def solve_endgame(position: Game, nodes: int, seconds: float) -> Solution:
            return solve(position, max_nodes=nodes, max_seconds=seconds, sat=self.sat, clock=clock)

        return _general.solve_general(
            game,
            max_nodes=max_nodes,
            max_seconds=max_seconds,
            clock=clock,
            endgame=solve_endgame if self.endgame else None,
            dead_check=self.dead_check,
            safe_builds=self.safe_builds,
            safe_fills=self.safe_fills,
        )


def solve(
    game: Game,
    *,
    max_nodes: int = 2_000_000,
    max_seconds: float = 10.0,
    safe_aces: bool = True,
    safe_builds: bool = True,
    safe_fills: bool = True,
    dead_check: bool = True,
    decisions: bool = True,
    deadlines: bool = True,
    dead_ends: bool = True,
    probe_every_deal: bool | None = None,
    native: bool = True,
    sat: bool = True,
    endgame: bool = True,
    clock: Callable[[], float] = time.perf_counter,
) -> Solution:
    """Search ``game`` (left unchanged) for a win within the budgets.

    The keyword switches turn off each safe-move rule and each pruning (the
    deadlines and the dead-end test work only with the dead-card check); the
    verdict never depends on them, only the effort does; ``native=False`` runs
    the fixpoint, the probe and the dead-end test in Python even where their C
    build is at hand (the same answers, node counts and lines: a switch for the tests).
    ``sat=False`` leaves the SAT prover out (a switch for the tests of the search's
    own rules). ``clock`` reads the seconds of the time budget (and of
    ``Solution.seconds``): wall time by default, or ``time.process_time`` on a
    machine shared with other work.

    A game the model does not play (``models``: Royal Parade, Blue Jacket, Big
    Parade) gets the general search over the engine (general.py), with the budgets,
    the clock, ``safe_builds``, ``safe_fills``, ``dead_check`` ("The general search"
    in docs/solver.md), ``sat`` and ``endgame``: a position whose stock is empty
    handed to the model (the parades' rules are then Virginia Reel's and Three Up's;
    "The endgame" in docs/solver.md); ``endgame=False``: played out by the general search.
    """
    if not models(game.variant):
        general = _General(sat, endgame, dead_check, safe_builds, safe_fills)
        return general.solve(game, max_nodes, max_seconds, clock)
    start = clock()
    opts = Options(
        safe_aces,
        safe_builds,
        safe_fills,
        dead_check,
        decisions,
        deadlines,
        dead_ends,
        (native and NATIVE) if probe_every_deal is None else probe_every_deal,
    )
    search = Search(Model(game, native), opts, max_nodes, start + max_seconds, clock)
    # the root's closure and probe: the SAT prover starts from them too
    root = bounds(search.model, probe=True) if dead_check and max_nodes > 0 else None
    if dead_check and max_nodes > 0 and root is None:
        return Solution(Verdict.UNWINNABLE, (), 1, clock() - start)
    # (the SAT prover's clauses count the copies of a card as two packs have them)
    sat_after = SAT_AFTER if sat and game.variant.decks == 2 else max_nodes + 1
    return _restarts(search, game, native, start, root, sat_after)


def _restarts(
    search: Search, game: Game, native: bool, start: float, root: Bounds | None, sat_after: int
) -> Solution:
    """Run the search again and again, each run longer (see "Restarts" in docs/solver.md),
    until it decides ``game`` or a budget runs out; past ``sat_after`` nodes, hand the
    position to the SAT prover once. ``start``: the clock's reading when ``solve`` began."""
    max_nodes, clock = search.max_nodes, search.clock
    run = RESTART_FIRST
    while True:
        if search.nodes >= sat_after:
            sat_after = max_nodes + 1  # once
            answer = _hand_over(search, game, native, start, root)
            if answer is not None:
                return answer
        search.limit = min(max_nodes, search.nodes + run)
        try:
            won = dfs(search, True, None, 0)
            break
        except _OutOfBudget:
            if search.nodes >= max_nodes or clock() > search.deadline:
                return _unknown(search, max_nodes, clock() - start)
        search.model = Model(game, native)
        search.line = []
        search.rng = search.rng or random.Random(SEED)
        run = int(run * RESTART_GROWTH)
    seconds = clock() - start
    if not won:
        return Solution(Verdict.UNWINNABLE, (), search.nodes, seconds)
    line = translate(game, search.model, search.line)
    return Solution(Verdict.WON, line, search.nodes, clock() - start)


def _hand_over(
    search: Search, game: Game, native: bool, start: float, root: Bounds | None
) -> Solution | None:
    """The SAT prover's answer for ``game`` within what is left of the budgets,
    each of its conflicts counted as a node; None if its order of moves did not
    play (a flaw of its clauses: the search goes on). ``root``: the closure of
    ``game``'s position with the probe, if the search made it."""
    model = Model(game, native)
    start_bounds = root if root is not None else bounds(model, probe=True)
    if start_bounds is None:
        return Solution(Verdict.UNWINNABLE, (), search.nodes, search.clock() - start)
    answer = _sat.schedule(
        model, start_bounds, search.max_nodes - search.nodes, search.deadline, search.clock
    )
    search.nodes += answer.conflicts
    if answer.lost:
        return Solution(Verdict.UNWINNABLE, (), search.nodes, search.clock() - start)
    if not answer.won:
        return _unknown(search, search.max_nodes, search.clock() - start)
    line = line_of(model, answer.order)  # (the clauses are written: the model is free)
    if line is None:
        return None
    try:
        won = translate(game, model, line)
    except (AssertionError, ValueError):
        return None
    return Solution(Verdict.WON, won, search.nodes, search.clock() - start)


def line_of(model: Model, order: tuple[int, ...]) -> list[IMove] | None:
    """The moves that play the events of ``order`` (instances, ``-k`` for deal k) on
    ``model``; None if some event cannot be played where it stands.

    A card that cannot go home by itself goes by an interchange with the next
    event's card.
    """
    line: list[IMove] = []
    n = 0
    while n < len(order):
        i = order[n]
        n += 1
        if i < 0:
            if any(model.sp) or model.dealt >= len(model.stock):
                return None
            move: IMove = DEAL_MOVE
        elif _free(model, i) and model.can_home(i):
            move = (HOME, i, -1)
        elif n < len(order) and order[n] >= 0 and model.row_of[i] >= 0:
            move = (SWAP, i, order[n])
            n += 1
        else:
            return None
        model.play(move)
        line.append(move)
    return line if model.mask == 0 else None


def _free(model: Model, i: int) -> bool:
    """Whether instance ``i`` is available: on top of its reserve pile, or misplaced."""
    pile = model.res_pile[i]
    if pile >= 0:
        return bool(model.res[pile]) and model.res[pile][-1] == i
    return i in model.mis[model.row_of[i]]


def _may_close(model: Model, move: IMove) -> bool:
    """Whether ``move`` can turn a phase that might end in a deal into a dead end.

    Only a card leaving a row (it opens a space) and a wait (a card that could
    have gone home may not) can; the dead-end test is skipped after other moves.
    """
    kind = move[0]
    return kind == WAIT or (kind == HOME and model.row_of[move[1]] >= 0)


def _count_node(search: Search) -> None:
    """Count one node of ``search``; raise ``_OutOfBudget`` past its limit or deadline."""
    if search.nodes >= search.limit or (
        search.nodes & 255 == 255 and search.clock() > search.deadline
    ):
        raise _OutOfBudget
    search.nodes += 1


def dfs(
    search: Search,
    check: bool,
    soon: list[int] | None,
    must: int,
    opened: bool = True,
    orders: dict[int, int] = NO_ORDERS,
) -> bool:
    """Search from the model's position; ``soon``, ``must`` and ``orders`` come from
    the phase's start.

    ``check``: the position was just dealt (run the fixpoint). ``opened``: the
    move to it may have made the phase a dead end (it opened a space in a row,
    or made a card wait); after any other move, the dead-end test is skipped.
    ``orders``: the orders of copies the probe learnt at the phase's start (see
    "At every deal" under "The ordering probe" in docs/solver.md).
    """
    _count_node(search)
    model = search.model
    failed = search.failed
    entry = model.key
    if entry in failed:
        return False
    line = search.line
    played: list[IMove] = []
    while (forced := model.safe(search.opts)) is not None:
        model.play(forced)
        line.append(forced)
        played.append(forced)
    if model.mask == 0:
        return True
    key = model.key if played else entry  # (not in ``failed``: asked above)
    if not played or key not in failed:
        ok = True
        if check and search.opts.dead_check:
            probe = search.opts.probe_every_deal or model.dealt >= len(model.stock)
            found_bounds = bounds(model, probe, orders)
            ok = found_bounds is not None
            if found_bounds is not None:
                soon = found_bounds.joined
                orders = found_bounds.after if probe else NO_ORDERS  # orders every line keeps
                must = 0  # the due cards of the phase before hold no more
                if search.opts.deadlines and model.dealt < len(model.stock):
                    found = due_by(model, found_bounds, model.deals)
                    ok = found is not None
                    must = found or 0
        if ok and opened and soon is not None and search.opts.dead_ends:
            ok = not dead_end(model, soon, must)
        if ok:
            decide = model.decision(soon) if search.opts.decisions else None
            if decide is None:
                moves = model.moves(soon)
                if must & model.mask and moves and moves[-1][0] == DEAL:
                    moves.pop()  # a card that must be home before the deal is not
                if search.rng is not None and len(moves) > 1:
                    rng = search.rng
                    tail = [moves.pop()] if moves[-1][0] == DEAL else []
                    if rng.random() < P_SHUFFLE:
                        rng.shuffle(moves)
                    if tail and rng.random() < P_DEAL_FIRST:
                        moves = tail + moves
                    else:
                        moves += tail
            else:
                moves = model.decision_moves(decide[0], decide[1], soon, must, orders)
                if (
                    len(moves) == 2
                    and search.rng is not None
                    and search.rng.random() < P_WAIT_FIRST
                ):
                    moves.reverse()
            for move in moves:
                model.play(move)
                line.append(move)
                dealt = move[0] == DEAL
                if dfs(search, dealt, soon, must, dealt or _may_close(model, move), orders):
                    return True
                line.pop()
                model.undo(move)
        failed.add(key)
    if played:
        failed.add(entry)
    for move in reversed(played):
        line.pop()
        model.undo(move)
    return False


def translate(game: Game, model: Model, line: list[IMove]) -> tuple[Move, ...]:
    """The internal winning line as the engine's moves, checked by playing it on a copy."""
    work, out = replay(game, model, line)
    assert work.is_won()
    return out


def replay(game: Game, model: Model, line: list[IMove]) -> tuple[Game, tuple[Move, ...]]:
    """Play an internal line of ``model`` (built from ``game``) on a copy of ``game``.

    Returns the position reached and the line as the engine's moves; ``Game.play``
    checks every move.
    """
    work = game.copy()
    out: list[Move] = []
    for kind, i, j in line:
        if kind == WAIT:
            continue
        if kind == DEAL:
            move = GAME_DEAL
        elif kind == SWAP:
            move = Move(
                Pile("row", model.row_of[i], model.col_of[i]),
                Pile("row", model.row_of[j], model.col_of[j]),
            )
        else:
            card = model.card[i]
            if model.row_of[i] >= 0:
                src = Pile("row", model.row_of[i], model.col_of[i])
            else:
                src = Pile("reserve", 0, model.res_pile[i])
            rank = card >> 2
            if rank == 0:
                dst = ACE_PILE
            else:
                row = (rank - 1) % 3
                piles = work.row(row)
                if rank <= 3:
                    col = next(c for c, p in enumerate(piles) if not p)
                else:
                    pred = card - STEP3
                    col = next(
                        c
                        for c, p in enumerate(piles)
                        if len(p) > 1 or (p and (p[0] >> 2) == row + 1)
                        if p[-1] == pred
                    )
                dst = Pile("row", row, col)
            move = Move(src, dst)
        work.play(move)
        out.append(move)
    return work, tuple(out)
