"""Solver jobs: the functions the game service runs in its worker processes.

Each takes and returns plain picklable values (a position string or a game,
numbers, a date in ISO form) and imports only the engine, so a worker process
starts light. The service (``bot.service.pool``) runs them in a
``concurrent.futures.ProcessPoolExecutor`` so the event loop never waits for
the solver.
"""

from __future__ import annotations

from datetime import date

from engine import Game, Move, variant_by_code
from engine.daily import numbers_from
from engine.notation import format_position, parse_position
from engine.solver import Verdict, solve
from engine.solver.blind import DEFAULT_NODES, DEFAULT_SAMPLES, blind_hint, blind_move
from engine.solver.hints import Hint, LookBack, hint, look_back

from ..store import DailyDeal
from .daily_rules import (
    WINNABLE_NODE_BUDGET,
    WINNABLE_SECONDS,
    find_daily_deal,
    first_proven,
    rate_deal,
)


def hint_job(position: str, max_nodes: int, max_seconds: float) -> Hint:
    """The hint for the position (``Game.position()``), rebuilt here in the worker."""
    return hint(parse_position(position), max_nodes=max_nodes, max_seconds=max_seconds)


def blind_hint_job(position: str, samples: int, max_nodes: int, max_seconds: float) -> Hint:
    """The fair hint for the position: the blind player's move (``blind_hint``), or the
    rule of thumb's if its search is not over within ``max_seconds``."""
    game = parse_position(position)
    return blind_hint(game, samples=samples, max_nodes=max_nodes, max_seconds=max_seconds)


def blind_race_job(
    game: Game, samples: int = DEFAULT_SAMPLES, max_nodes: int = DEFAULT_NODES
) -> str | None:
    """The computer racer's next move in ``game`` (with its history): the blind player's,
    within its budget, never back to a position the game has been in (``blind_move``'s
    ``avoid``); None if every move left goes back, or none is left."""
    seen = game.copy()
    avoid = {format_position(seen)}
    while seen.history:
        seen.undo()
        avoid.add(format_position(seen))
    try:
        return str(blind_move(game, samples=samples, max_nodes=max_nodes, avoid=avoid))
    except ValueError:
        return None


def blind_game_job(deal_number: int, variant: str) -> tuple[tuple[int, int], ...]:
    """The blind player's whole game of a deal (``reel play --versus``): the cards home and
    the move count after each of its moves, the first entry the deal as dealt."""
    game = Game.new(deal_number, variant_by_code(variant))
    seen = {format_position(game)}
    timeline = [(game.score, game.move_count)]
    while not game.is_won():
        try:
            move = blind_move(game, avoid=seen)
        except ValueError:
            break
        game.play(move)
        seen.add(format_position(game))
        timeline.append((game.score, game.move_count))
    return tuple(timeline)


def rewind_job(game: Game, max_nodes: int, max_seconds: float) -> LookBack:
    """The last move of ``game`` (with its history) from which it can be won, or whether
    it is lost from its start (``engine.solver.hints.look_back``); ``game`` is left as
    it is."""
    return look_back(game, max_nodes=max_nodes, max_seconds=max_seconds)


def daily_job(day: str, candidates: int, variant: str = "vr") -> DailyDeal:
    """The daily deal of the ISO date ``day`` of ``variant`` (``daily_rules.find_daily_deal``)."""
    return find_daily_deal(date.fromisoformat(day), candidates=candidates, variant=variant)


def rating_job(deal_number: int, variant: str, games: int) -> str | None:
    """The difficulty of a deal for a player who can't see the stock (``rate_deal``)."""
    return rate_deal(deal_number, variant, games)


def verdict_job(deal_number: int, variant: str = "vr") -> tuple[str, tuple[Move, ...]]:
    """Whether the solver proves deal ``deal_number`` won or lost within the winnable
    search's budget (``WINNABLE_NODE_BUDGET``): its verdict ("won", "unwinnable" or
    "unknown") and, when won, the winning line."""
    solution = solve(
        Game.new(deal_number, variant_by_code(variant)),
        max_nodes=WINNABLE_NODE_BUDGET,
        max_seconds=WINNABLE_SECONDS,
    )
    return solution.verdict.value, solution.line if solution.verdict is Verdict.WON else ()


def winnable_job(
    start: int, candidates: int, variant: str = "vr"
) -> tuple[int, tuple[Move, ...]] | None:
    """The first deal from ``start`` on (``candidates`` of them) that the solver proves
    winnable within ``WINNABLE_NODE_BUDGET`` nodes, as the daily's search does
    (``daily_rules.first_proven``), with its winning line; None if none is, or after
    ``WINNABLE_SECONDS``."""
    numbers = numbers_from(start, candidates)
    return first_proven(numbers, WINNABLE_NODE_BUDGET, WINNABLE_SECONDS, variant=variant)
