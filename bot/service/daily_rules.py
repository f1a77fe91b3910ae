"""The daily challenge's rules that take the solver: which deal is dealt each UTC date,
a new game's deal proven winnable, and how hard a daily is. ``docs/daily.md`` gives the
rules.

Everything here is pure (no clock, no SQL): the service passes the date it read from its
own clock, and runs the searches in its worker processes (``jobs``). The numbers a date
tries, and when a daily starts, are the rules core's (``engine.daily``).

The daily deal of a date is ``find_daily_deal(day)``: the first deal at or
after the date's starting number (``engine.daily.daily_start_number``) that the solver
proves winnable within a fixed node budget. Each other game of the family has a daily of
its own, searched the same way from a starting number of its own: Three Up, which the
solver's model plays as it plays Virginia Reel, with Virginia Reel's budget; Royal Parade,
Blue Jacket and Big Parade, whose general search is slower a node, with a smaller one
(``OTHER_GAMES_CANDIDATES`` candidates of ``OTHER_GAMES_NODE_BUDGET`` nodes;
``daily_budget``). The search is slow (a second or so), so the service runs
it in a worker process once per date and keeps the answer in the database:
once a date's deal is stored it never changes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import date
from time import monotonic
from typing import Final

from engine import Game, Move, format_line, variant_by_code
from engine.daily import candidate_numbers, daily_start_number
from engine.solver import Verdict, solve
from engine.solver.blind_study import play_blind
from engine.solver.model import models

from ..store import DailyDeal

DAILY_NODE_BUDGET: Final = 20_000
"""Solver nodes per candidate deal. A node count, never a time: the same answer on any
machine (for one version of the solver; the database keeps the answer once found)."""
DAILY_CANDIDATES: Final = 50
"""Deals tried from the starting number before falling back to the starting number itself."""
WINNABLE_NODE_BUDGET: Final = 5_000
"""Solver nodes per candidate for a random new game proven winnable (the setting): the
player waits for it, so a quick proof (median 0.07-0.11 s, 0.7 s at most in 60 tries)."""
WINNABLE_SECONDS: Final = 3.0
"""The most that search may take in all before the game is dealt unproven."""
OTHER_GAMES_CANDIDATES: Final = 12
"""Deals tried for the daily of a game the general search plays (``daily_budget``)."""
OTHER_GAMES_NODE_BUDGET: Final = 5_000
"""Solver nodes per candidate for the daily of a game the general search plays."""


def first_proven(
    numbers: Iterable[int],
    max_nodes: int = DAILY_NODE_BUDGET,
    max_seconds: float = math.inf,
    probe_every_deal: bool | None = None,
    variant: str = "vr",
) -> tuple[int, tuple[Move, ...]] | None:
    """The first of ``numbers`` whose deal the solver wins within ``max_nodes``, with the
    winning line; None if none is, or once ``max_seconds`` have gone by in all.
    Deterministic when ``max_seconds`` is infinite (the daily's search), and the same on
    every build when ``probe_every_deal`` is set (see ``engine.solver.solve``)."""
    deadline = monotonic() + max_seconds
    game = variant_by_code(variant)
    for number in numbers:
        left = deadline - monotonic()
        if left <= 0:
            return None
        solution = solve(
            Game.new(number, game),
            max_nodes=max_nodes,
            max_seconds=left,
            probe_every_deal=probe_every_deal,
        )
        if solution.verdict is Verdict.WON:
            return number, solution.line
    return None


RATING_GAMES: Final = 4
"""Blind games (seeds 0, 1, 2...) a daily's difficulty is rated from (docs/daily.md)."""
RATINGS: Final = ("Easy", "Medium", "Hard", "Expert")
MEDIUM_SHARE: Final = 0.55  # the blind player's mean share of the cards home: Medium from
HARD_SHARE: Final = 0.30  # ... Hard from this, Expert below


def rate_deal(deal_number: int, variant: str = "vr", games: int = RATING_GAMES) -> str | None:
    """How hard the deal is for a player who can't see the stock (docs/daily.md): the blind
    player (``engine.solver.blind``) plays it ``games`` times, each with its own seed;
    Easy if it wins any, else Medium, Hard or Expert by the share of the cards it gets
    home on average. None with no game to rate it by. Deterministic (node budgets, no
    time): the same rating on every machine. A few seconds compiled."""
    if games < 1:
        return None
    played = [
        play_blind(Game.new(deal_number, variant_by_code(variant)), seed=seed)
        for seed in range(games)
    ]
    total = variant_by_code(variant).card_total
    return rating_of([p.won for p in played], [p.score for p in played], total)


def rating_of(wins: list[bool], scores: list[int], card_total: int) -> str:
    """The rating of a deal from its blind games: won in any, Easy; else by the mean
    share of the cards home, Medium from ``MEDIUM_SHARE``, Hard from ``HARD_SHARE``,
    Expert below."""
    if any(wins):
        return "Easy"
    share = sum(scores) / len(scores) / card_total
    if share >= MEDIUM_SHARE:
        return "Medium"
    return "Hard" if share >= HARD_SHARE else "Expert"


def daily_budget(variant: str) -> tuple[int, int]:
    """(candidates, nodes a candidate) of the daily search of ``variant``: Virginia Reel's
    for the games the solver's model plays (Virginia Reel, Three Up: as many nodes a
    second), the smaller ``OTHER_GAMES_*`` for those of the general search."""
    if models(variant_by_code(variant)):
        return DAILY_CANDIDATES, DAILY_NODE_BUDGET
    return OTHER_GAMES_CANDIDATES, OTHER_GAMES_NODE_BUDGET


def find_daily_deal(
    day: date,
    *,
    candidates: int = DAILY_CANDIDATES,
    max_nodes: int = DAILY_NODE_BUDGET,
    variant: str = "vr",
) -> DailyDeal:
    """The daily deal of ``day``: the first candidate the solver wins within ``max_nodes``
    (not rated: ``rate_deal`` is the next step, which the service takes in the background).

    If none of the ``candidates`` is proven, the starting number itself, with no
    proof (the caller logs it). Deterministic: no time budget. Slow (up to a second or so,
    up to ``candidates`` searches): the service runs it in a worker process.
    """
    # The same search on every build (compiled or not): the same daily everywhere.
    max_nodes = min(max_nodes, daily_budget(variant)[1])
    numbers = candidate_numbers(day, candidates, variant)
    found = first_proven(numbers, max_nodes, probe_every_deal=False, variant=variant)
    if found is None:
        return DailyDeal(day, daily_start_number(day, variant), None, None, variant)
    number, line = found
    return DailyDeal(day, number, format_line(line), len(line), variant)
