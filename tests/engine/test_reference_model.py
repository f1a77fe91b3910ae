"""The engine against an independent model of the rules (reference.py), in every game.

Thousands of positions, reached by random legal play from random deals of
every game of the family, are handed to the model as position strings; its
set of legal moves must be exactly ``Game.legal_moves()``, and the position it
says each move leads to must be the engine's.
"""

from __future__ import annotations

import random

import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_play

from engine import MAX_DEAL, MIN_DEAL, Game, Status
from engine.notation import format_position
from engine.variant import VARIANTS


def check_along_a_random_game(start: Game, seed: int, care: float) -> None:
    """At each position: the same legal moves, score and status; after each move, the
    position the model says it leads to."""
    checked = 0
    before: str | None = None
    for game in random_play(start, random.Random(seed), care):
        position = format_position(game)
        if before is not None:
            assert reference.play(before, str(game.history[-1])) == position, (before, position)
        moves = game.legal_moves()
        listed = [str(m) for m in moves]
        assert len(listed) == len(set(listed)), f"a move listed twice in {position}"
        assert set(listed) == reference.legal_moves(position), position
        assert game.score == reference.cards_on_foundations(position)
        assert (game.status is Status.WON) == reference.is_won(position)
        assert (game.status is Status.PLAYING) == bool(moves)
        before = position
        checked += 1
    assert checked > 1


@given(st.integers(MIN_DEAL, MAX_DEAL), st.integers(0, 2**32), st.sampled_from([0.0, 0.8, 0.97]))
@settings(derandomize=True, max_examples=600, deadline=None)
def test_legal_moves_match_the_reference_model_along_random_games(
    deal: int, seed: int, care: float
) -> None:
    check_along_a_random_game(Game.new(deal), seed, care)


@pytest.mark.parametrize("code", ["rp", "tu", "bj", "bp"])
@given(st.integers(MIN_DEAL, MAX_DEAL), st.integers(0, 2**32), st.sampled_from([0.0, 0.8, 0.97]))
@settings(derandomize=True, max_examples=50, deadline=None)
def test_every_game_of_the_family_matches_the_reference_model_along_random_games(
    code: str, deal: int, seed: int, care: float
) -> None:
    check_along_a_random_game(Game.new(deal, VARIANTS[code]), seed, care)


def test_the_models_table_of_games_agrees_with_the_engines_deals() -> None:
    # The model's own table (written from RULES.md): the same games, stock and bases.
    assert sorted(reference.GAMES) == sorted(VARIANTS)
    for code, rules in reference.GAMES.items():
        based = 0
        for deal in range(1, 41):
            board = reference.parse_board(format_position(Game.new(deal, VARIANTS[code])))
            assert len(board.stock) == 52 * rules.decks - 4 * rules.piles  # 3 rows + reserve
            based += [row[0][0].rank for row in board.rows] == [2, 3, 4]
        assert (based == 40) is rules.preplaced  # else a Two, Three and Four there by chance


def test_the_reference_model_reads_a_hand_made_position() -> None:
    position = (
        "vr 2S,3S,4S,6S,7S,9S,TS,QS 3H,2H,4H,5H,7H,8H,TH,JH 4D,2D,3D,5D,6D,8D,9D,- "
        "AS,5S,-,-,-,-,-,- " + "-" + " 0"
    )
    # Not a full deck, but the model only needs the piles.
    assert reference.legal_moves(position) == {
        "R1 ACE",  # an Ace
        "R2 A1",  # 5♠ on 2♠
        "A2 B2",  # 3♠ in row A with 2♥ in row B
        "A3 C2",  # 4♠ in row A with 2♦ in row C
        "B3 C3",  # 4♥ in row B with 3♦ in row C
        "A3 C8",  # 4♠ fills row C's space
        "B3 C8",  # 4♥ fills row C's space
    }
