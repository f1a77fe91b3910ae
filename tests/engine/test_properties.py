"""Properties that hold in every position reached by random legal play from random deals."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_play
from wcwidth import wcswidth

from engine import (
    ACE_PILE,
    DEAL,
    MAX_DEAL,
    MAX_WIDTH,
    MIN_DEAL,
    Game,
    IllegalMoveError,
    Move,
    Pile,
    parse_move,
    render,
)
from engine.notation import (
    format_line,
    format_position,
    line_length,
    parse_line,
    parse_position,
    play_line,
)

games = st.tuples(
    st.integers(MIN_DEAL, MAX_DEAL), st.integers(0, 2**32), st.sampled_from([0.0, 0.8, 0.97])
)
FAST = settings(derandomize=True, max_examples=150, deadline=None)


def positions_of(args: tuple[int, int, float]) -> list[Game]:
    """Copies of every position of one random game, in order."""
    deal, seed, care = args
    return [g.copy() for g in random_play(Game.new(deal), random.Random(seed), care)]


def all_piles() -> list[Pile]:
    rows = [Pile("row", r, c) for r in range(3) for c in range(8)]
    return [*rows, *(Pile("reserve", 0, j) for j in range(8)), ACE_PILE]


def every_card(game: Game) -> Counter[int]:
    cards: Counter[int] = Counter()
    for r in range(3):
        for pile in game.row(r):
            cards.update(pile)
    for pile in game.reserve:
        cards.update(pile)
    cards.update(game.stock)
    cards.update(game.ace_pile_cards())
    return cards


@given(games)
@FAST
def test_all_104_cards_are_always_on_the_board(args: tuple[int, int, float]) -> None:
    two_packs = Counter({card: 2 for card in range(52)})
    for game in positions_of(args):
        assert every_card(game) == two_packs
        assert len(game.ace_pile_cards()) == game.aces
        assert 0 <= game.score <= 104


@given(games)
@settings(derandomize=True, max_examples=25, deadline=None)
def test_play_accepts_exactly_the_generated_moves(args: tuple[int, int, float]) -> None:
    candidates = [DEAL] + [Move(s, d) for s in all_piles() for d in all_piles()]
    for game in positions_of(args)[::3]:
        generated = set(game.legal_moves())
        before = format_position(game)
        accepted = set()
        for move in candidates:
            canonical = game.canonical(move)
            try:
                game.play(move)
            except IllegalMoveError:
                assert not game.is_legal(move)
                assert format_position(game) == before
                continue
            accepted.add(canonical)
            assert game.undo() == canonical
            assert format_position(game) == before
        assert accepted == generated


@given(games)
@FAST
def test_undo_restores_the_exact_position(args: tuple[int, int, float]) -> None:
    deal, seed, care = args
    start = format_position(Game.new(deal))
    seen: list[str] = []
    game = Game.new(deal)
    for position in random_play(game, random.Random(seed), care):
        seen.append(format_position(position))
    assert game.move_count == len(seen) - 1
    while game.move_count:
        game.undo()
        assert format_position(game) == seen[game.move_count]
    assert format_position(game) == start


@given(games)
@FAST
def test_the_position_string_round_trips(args: tuple[int, int, float]) -> None:
    for game in positions_of(args):
        text = format_position(game)
        again = parse_position(text)
        assert format_position(again) == text
        assert format_position(parse_position(text.lower())) == text
        assert sorted(map(str, again.legal_moves())) == sorted(map(str, game.legal_moves()))


@given(games)
@FAST
def test_every_rendered_line_fits_30_columns(args: tuple[int, int, float]) -> None:
    for game in positions_of(args):
        for symbols in (True, False):
            board = render(game, symbols=symbols)
            assert "\ufe0f" not in board
            for line in board.splitlines():
                assert 0 <= wcswidth(line) <= MAX_WIDTH, line
            if not symbols:
                assert board.replace("·", "").isascii()


@given(games)
@FAST
def test_every_legal_move_reads_back_from_its_own_text(args: tuple[int, int, float]) -> None:
    for game in positions_of(args):
        for move in game.legal_moves():
            assert parse_move(game, str(move)) == move


@given(games, st.randoms(use_true_random=False))
@FAST
def test_a_line_of_moves_round_trips_and_replays_to_the_same_position(
    args: tuple[int, int, float], rng: random.Random
) -> None:
    game = positions_of(args)[-1]
    flags = [rng.random() < 0.3 for _ in game.history]
    text = format_line(game.history, flags)
    assert line_length(text) == game.move_count
    fresh = Game.new(args[0])
    assert parse_line(fresh, text) == list(zip(game.history, flags, strict=True))
    assert play_line(fresh, text) == flags
    assert format_position(fresh) == format_position(game)
    assert fresh.history == game.history
