"""The solver: an exact depth-first search over full information (stock order known).

Every move in Virginia Reel either puts a card on a foundation or deals, so the
game graph has no cycles and a position that failed once fails again: a
transposition table of failed positions is enough. Positions are keyed
canonically: the piles of one row are interchangeable, so each row is keyed
as a sorted multiset of piles; the reserve keeps its order (the deal puts
card *j* on pile *j*); the stock is known by how many cards are left.

Safe moves are played without branching (see ``safe_move``); the remaining
moves are tried builds first, then interchanges, fills, moves that open a
space, and the deal last.

The answer is ``won`` (with the winning line), ``unwinnable`` (the search was
exhaustive) or ``unknown`` (the node or time budget ran out first).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum

from .game import Game
from .moves import Move, MoveKind


class Verdict(StrEnum):
    WON = "won"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Solution:
    verdict: Verdict
    line: tuple[Move, ...] = ()  # the winning line from the position solved, when won
    nodes: int = 0
    seconds: float = 0.0


class _OutOfBudget(Exception):
    pass


@dataclass(slots=True)
class _Search:
    max_nodes: int
    deadline: float
    nodes: int = 0
    failed: set[tuple[object, ...]] = field(default_factory=set)


def position_key(game: Game) -> tuple[object, ...]:
    """A key equal for positions that play the same (piles of a row permuted)."""
    rows = tuple(tuple(sorted(game.row(r))) for r in range(3))
    return (rows, game.reserve, game.stock_count)


def safe_move(game: Game, move: Move, kind: MoveKind) -> bool:
    """True for a move that never turns a won position into a lost one.

    - A reserve Ace to the Ace pile (the rule book's safe move).
    - A reserve card built on a foundation: the card has no other use (cards
      only ever go home), the pile under it gains a card, and the deal is not
      blocked by it (no space opens). A twin foundation that could also take
      it is the same pile in another place of the same row.
    """
    if move.src is None or move.src.area != "reserve":
        return False
    return kind is MoveKind.ACE or kind is MoveKind.BUILD


def _ordered(game: Game, moves: list[Move]) -> list[Move]:
    def rank(move: Move) -> int:
        if move.is_deal:
            return 9
        kind = game.kind(move)
        if kind is MoveKind.INTERCHANGE:
            return 1
        if move.src is not None and move.src.area == "row":  # leaves a space behind
            return 4 if game.space_warning(move) is None else 6
        if kind is MoveKind.BUILD:
            return 0
        if kind is MoveKind.FILL:
            return 2
        return 3

    return sorted(moves, key=rank)


def solve(game: Game, *, max_nodes: int = 2_000_000, max_seconds: float = 10.0) -> Solution:
    """Search ``game`` (left unchanged) for a win within the budgets."""
    work = game.copy()
    start = time.perf_counter()
    search = _Search(max_nodes=max_nodes, deadline=start + max_seconds)
    line: list[Move] = []
    try:
        won = _dfs(work, search, line)
    except _OutOfBudget:
        return Solution(Verdict.UNKNOWN, (), search.nodes, time.perf_counter() - start)
    verdict = Verdict.WON if won else Verdict.UNWINNABLE
    return Solution(verdict, tuple(line) if won else (), search.nodes, time.perf_counter() - start)


def _dfs(game: Game, search: _Search, line: list[Move]) -> bool:
    search.nodes += 1
    if search.nodes > search.max_nodes or (
        search.nodes & 1023 == 0 and time.perf_counter() > search.deadline
    ):
        raise _OutOfBudget
    played = 0
    while True:
        moves = game.legal_moves()
        forced = next((m for m in moves if safe_move(game, m, game.kind(m))), None)
        if forced is None:
            break
        game.play(forced)
        line.append(forced)
        played += 1
    if game.is_won():
        return True
    key = position_key(game)
    if moves and key not in search.failed:
        for move in _ordered(game, moves):
            game.play(move)
            line.append(move)
            if _dfs(game, search, line):
                return True
            line.pop()
            game.undo()
        search.failed.add(key)
    for _ in range(played):
        line.pop()
        game.undo()
    return False
