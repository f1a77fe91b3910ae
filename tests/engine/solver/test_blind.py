"""The blind player: it chooses as a player who cannot see the stock's order must, so its
move never depends on that order; the same position and seed give the same move; it
plays only legal moves, and a game it plays always ends."""

from __future__ import annotations

import argparse
import csv
import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from positions import STUCK_POSITION, random_play

from engine import Game
from engine.notation import format_position, parse_position
from engine.solver import solve
from engine.solver.blind import (
    blind_choice,
    blind_hint,
    blind_move,
    hidden_key,
    safe_move,
    sample_worlds,
)
from engine.solver.blind_study import play_blind
from engine.solver.cli import main_study
from engine.solver.hints import heuristic_move, move_rank
from engine.variant import ROWS, VARIANTS, variant_by_code

# Small budgets: the properties hold whatever the budget, and these keep the test quick.
SAMPLES, NODES = 3, 150
POSITIONS_PER_GAME = 30


def with_stock(game: Game, order: list[int]) -> Game:
    """``game``'s position with its stock in ``order`` (the hidden part changed)."""
    rows = [list(pile) for r in range(ROWS) for pile in game.row(r)]
    reserve = [list(pile) for pile in game.reserve]
    return Game(rows, reserve, order, game.aces, game.variant, game.deal_number)


def positions(code: str, count: int, seed: int) -> Iterator[Game]:
    """``count`` positions of game ``code`` with cards left in the stock, reached by
    random play (careful most of the time) from several deals."""
    rng = random.Random(seed)
    found = 0
    deal = 1
    while found < count:
        game = Game.new(deal, variant_by_code(code))
        for position in random_play(game, rng, care=0.8):
            if len(set(position.stock)) > 1 and rng.random() < 0.15:
                yield position.copy()
                found += 1
                if found == count:
                    return
        deal += 1


@pytest.mark.parametrize("code", list(VARIANTS))
def test_the_move_never_depends_on_the_stock_order(code: str) -> None:
    rng = random.Random(46)
    for game in positions(code, POSITIONS_PER_GAME, seed=hash(code) % 1000):
        if not game.legal_moves():
            continue
        order = list(game.stock)
        while order == list(game.stock):  # another order of the same cards
            rng.shuffle(order)
        other = with_stock(game, order)
        assert hidden_key(other) == hidden_key(game)
        assert format_position(other) != format_position(game)
        seed = len(game.history) % 2  # two seeds, a position each
        mine = blind_choice(game, seed=seed, samples=SAMPLES, max_nodes=NODES)
        theirs = blind_choice(other, seed=seed, samples=SAMPLES, max_nodes=NODES)
        assert mine == theirs, format_position(game)


def test_the_same_position_and_seed_give_the_same_move() -> None:
    game = Game.new(3)
    first = blind_choice(game, seed=7, samples=4, max_nodes=400)
    assert blind_choice(game.copy(), seed=7, samples=4, max_nodes=400) == first
    # the worlds are drawn from the seed and the position, not from the stock's order
    worlds = sample_worlds(game, 7, 4)
    again = sample_worlds(with_stock(game, sorted(game.stock)), 7, 4)
    assert [w.stock for w in worlds] == [w.stock for w in again]
    assert len({w.stock for w in worlds}) == 4  # four different orders
    assert all(sorted(w.stock) == sorted(game.stock) for w in worlds)  # of the same cards


def test_a_move_with_no_choice_needs_no_search() -> None:
    game = Game.new(28)  # R6 holds the A♥ on top: a reserve Ace is always safe
    choice = blind_choice(game, samples=SAMPLES, max_nodes=NODES)
    assert (str(choice.move), choice.reason, choice.worlds) == ("R6 ACE", "safe", 0)
    assert safe_move(game) == choice.move


class Ticks:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_search_out_of_time_is_given_up_whole_and_the_hint_is_the_rule_of_thumbs() -> None:
    game = Game.new(3)
    while (safe := safe_move(game)) is not None:  # past its safe moves, to a choice
        game.play(safe)
    unbounded = blind_choice(game, seed=7, samples=4, max_nodes=400)
    assert unbounded.reason == "search"  # a position that needs the worlds searched
    # Time to spare: the same choice, the same evidence.
    assert blind_choice(game, seed=7, samples=4, max_nodes=400, max_seconds=3600) == unbounded
    # The time runs out after a world or two: no partial count, but TimeoutError.
    with pytest.raises(TimeoutError):
        blind_choice(game, seed=7, samples=4, max_nodes=400, max_seconds=2.5, clock=Ticks(1.0))
    # The fair hint past its time: the rule of thumb's move, said to be one.
    late = blind_hint(game, seed=7, samples=4, max_nodes=400, max_seconds=0.0)
    assert (late.move, late.source, late.why) == (heuristic_move(game), "heuristic", "deadline")
    assert (late.wins, late.worlds) == (0, 0)
    # No search needed (a safe move): the time does not matter.
    assert blind_hint(Game.new(28), samples=SAMPLES, max_nodes=NODES, max_seconds=0).why == "safe"


def test_the_stock_empty_means_one_world_the_position_itself() -> None:
    game = Game.new(3)
    for move in solve(Game.new(3)).line:  # the solver's win, up to its last deal
        if not game.stock:
            break
        game.play(move)
    assert [format_position(w) for w in sample_worlds(game, 0, 8)] == [format_position(game)]


@pytest.mark.parametrize("code", list(VARIANTS))
def test_a_blind_game_plays_legal_moves_and_ends(code: str) -> None:
    game = Game.new(5, variant_by_code(code))
    seen = {format_position(game)}
    for _ in range(600):
        try:
            choice = blind_choice(game, avoid=seen, samples=SAMPLES, max_nodes=NODES)
        except ValueError:
            break  # every move left goes back: a dead end
        assert choice.move in game.legal_moves()
        game.play(choice.move)  # raises on an illegal move
        key = format_position(game)
        assert key not in seen  # never back to a position it has been in
        seen.add(key)
        if game.is_won() or not game.legal_moves():
            break
    else:
        pytest.fail("the game went on for 600 moves")


def test_a_position_with_no_move_is_refused() -> None:
    with pytest.raises(ValueError, match="no move to make"):
        blind_move(parse_position(STUCK_POSITION))


def test_reel_study_blind_plays_each_deal_and_writes_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "blind.csv"
    args = argparse.Namespace(
        deals=range(154, 156), jobs=2, csv=path, quiet=True, blind=True, samples=SAMPLES,
        max_nodes=NODES, variant="vr", budget=10.0, clock="wall", resume=False,
    )  # fmt: skip
    out = io.StringIO()
    assert main_study(args, out) == 0
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["deal"] for r in rows] == ["154", "155"]
    for row in rows:  # each row is the game the blind player plays, reproduced
        again = play_blind(Game.new(int(row["deal"])), samples=SAMPLES, max_nodes=NODES)
        assert (row["result"], int(row["score"]), int(row["moves"])) == (
            "won" if again.won else "lost", again.score, again.moves,
        )  # fmt: skip
    won = sum(r["result"] == "won" for r in rows)
    text = out.getvalue()
    assert f"Deals 154-155: 2 played blind, {SAMPLES} stock orders a decision" in text
    assert f"won {won}, lost {2 - won}" in text and "95% Wilson interval" in text
    assert not path.with_name("blind.csv.part").exists()


def test_no_samples_is_the_rule_of_thumb_alone() -> None:
    game = Game.new(3)
    while safe_move(game) is not None:  # past the safe moves, to a choice
        game.play(safe_move(game))  # type: ignore[arg-type]
    choice = blind_choice(game, samples=0)
    calm = [m for m in game.legal_moves() if game.space_warning(m) is None]
    best = min(calm, key=lambda m: (move_rank(game, m), game.legal_moves().index(m)))
    assert (choice.move, choice.reason, choice.worlds) == (best, "heuristic", 0)
