"""The game's helpers for front ends: space warnings, safe moves, score, status, undo, variants."""

from __future__ import annotations

import pytest
from positions import STUCK_POSITION, WON_POSITION, WON_ROWS, board, full_rows

from engine import (
    ACE_PILE,
    DEAL,
    Game,
    IllegalMoveError,
    Move,
    MoveKind,
    Pile,
    Status,
    parse_move,
)
from engine.notation import describe_move, format_position, parse_position
from engine.variant import ROYAL_PARADE, VIRGINIA_REEL, variant_by_code


def play(game: Game, text: str) -> MoveKind:
    return game.play(parse_move(game, text))


# ---------------------------------------------------------------- the space warning


def test_a_move_opening_a_space_nothing_can_fill_is_warned_while_the_stock_has_cards() -> None:
    # 5♥ leaves B4 for A1; no Three is available to fill B4.
    game = parse_position(board(full_rows(A1="2H", A2="KS", B4="5H", C3="9D")))
    warning = game.space_warning(parse_move(game, "b4 a1"))
    assert warning is not None and warning.row == 1
    assert warning.message == (
        "Row B has a space and no Three is available to fill it: "
        "the stock can't be dealt until one is."
    )
    assert warning.short == "leaves a space in row B that no Three can fill yet"


def test_no_warning_when_a_reserve_card_can_fill_the_space() -> None:
    game = parse_position(board(full_rows(A1="2H", A2="KS", B4="5H", C3="9D"), ["3C"]))
    assert game.space_warning(parse_move(game, "b4 a1")) is None


def test_no_warning_when_a_misplaced_card_in_another_row_can_fill_the_space() -> None:
    # full_rows has 3♦ misplaced at C3.
    game = parse_position(board(full_rows(A1="2H", B4="5H")))
    assert game.space_warning(parse_move(game, "b4 a1")) is None


def test_a_base_card_buried_in_the_reserve_does_not_count_as_a_filler() -> None:
    game = parse_position(board(full_rows(A1="2H", A2="KS", B4="5H", C3="9D"), ["3CKC"]))
    assert game.space_warning(parse_move(game, "b4 a1")) is not None


def test_no_warning_once_the_stock_is_empty() -> None:
    game = parse_position(board(full_rows(A1="2H", A2="KS", B4="5H", C3="9D"), ["-"]))
    while game.stock_count:
        game.play(DEAL)
    assert game.space_warning(parse_move(game, "b4 a1")) is None


def test_no_warning_for_moves_that_open_no_space() -> None:
    game = parse_position(board(full_rows(A1="2H", C3="9D"), ["5H", "AS"]))
    assert game.space_warning(parse_move(game, "r1 a1")) is None
    assert game.space_warning(parse_move(game, "r2 ace")) is None
    assert game.space_warning(parse_move(game, "a2 b2")) is None  # an interchange
    assert game.space_warning(DEAL) is None


def test_no_warning_in_a_variant_that_deals_with_spaces_open() -> None:
    game = parse_position(board(full_rows(A1="2H", A2="KS", B4="5H", C3="9D"), variant="rp"))
    assert game.space_warning(parse_move(game, "b4 a1")) is None


def test_the_warning_leaves_the_game_as_it_was() -> None:
    game = parse_position(board(full_rows(A1="2H", A2="KS", B4="5H", C3="9D")))
    before = format_position(game)
    game.space_warning(parse_move(game, "b4 a1"))
    assert format_position(game) == before and game.move_count == 0


# ---------------------------------------------------------------- safe moves


def test_safe_moves_are_reserve_aces_only() -> None:
    game = parse_position(board(full_rows(A1="2H", B4="AS"), ["5H", "AD", "ACKC", "AH"]))
    assert [str(m) for m in game.safe_moves()] == ["R2 ACE", "R4 ACE"]
    assert Move(Pile("row", 1, 3), ACE_PILE) in game.legal_moves()  # legal, but not "safe"


def test_play_safe_moves_plays_aces_as_they_come_up() -> None:
    game = parse_position(board(full_rows(), ["AHAS", "5H", "AD"]))
    played = game.play_safe_moves()
    assert [str(m) for m in played] == ["R1 ACE", "R3 ACE", "R1 ACE"]
    assert game.aces == 3 and game.safe_moves() == [] and game.move_count == 3
    assert game.play_safe_moves() == []


# ---------------------------------------------------------------- score and status


def test_the_score_counts_cards_on_foundations_including_the_preplaced_bases() -> None:
    game = parse_position(board({"A1": "2H", "B1": "3S", "C1": "4C", "C5": "4D7D"}, ["5H", "AS"]))
    assert game.score == 5
    play(game, "r1 a1")
    assert game.score == 6
    play(game, "r2 ace")
    assert game.score == 7
    assert parse_position(WON_POSITION).score == 104


def test_a_misplaced_card_does_not_score() -> None:
    assert parse_position(board({"B3": "5S"})).score == 0


def test_a_new_deal_is_playing() -> None:
    assert Game.new(1).status is Status.PLAYING


def test_a_game_is_won_with_all_104_cards_home() -> None:
    game = parse_position(WON_POSITION)
    assert game.status is Status.WON and game.is_won()
    assert game.legal_moves() == []


def test_the_last_move_wins() -> None:
    game = parse_position(board(WON_ROWS | {"A1": "2S5S8S"}, ["JS"], aces=8, stock="-"))
    before = game.status
    assert play(game, "js") is MoveKind.BUILD
    assert (before, game.status) == (Status.PLAYING, Status.WON)


def test_a_game_with_no_legal_move_is_stuck() -> None:
    game = parse_position(STUCK_POSITION)
    assert game.legal_moves() == []
    assert game.status is Status.STUCK and not game.is_won()
    assert game.score == 100


def test_a_space_with_no_filler_and_an_empty_stock_can_be_stuck() -> None:
    # B8's clubs lie in R1 with the Three at the bottom; Q♣ on top has nowhere to go.
    game = parse_position(board(WON_ROWS | {"B8": "-"}, ["3C6C9CQC"], aces=8, stock="-"))
    assert game.legal_moves() == [] and game.status is Status.STUCK


# ---------------------------------------------------------------- undo


def test_undo_takes_back_a_deal() -> None:
    game = parse_position(board(full_rows(), ["5C"]))
    before = format_position(game)
    game.play(DEAL)
    assert game.undo() == DEAL
    assert format_position(game) == before


def test_a_short_last_deal_goes_to_the_first_reserve_piles_in_order() -> None:
    # Virginia Reel's own stock is 9 deals of 8; a position string may hold fewer.
    game = parse_position(board(full_rows(), ["5C"]))
    assert game.stock_count % 8 == 7
    while game.stock_count > 7:
        game.play(DEAL)
    last = game.stock
    assert describe_move(game, DEAL) == "Deal (the last one)"
    heights = [len(pile) for pile in game.reserve]
    game.play(DEAL)
    assert [pile[-1] for pile in game.reserve[:7]] == list(last)
    assert [len(pile) for pile in game.reserve] == [h + 1 for h in heights[:7]] + heights[7:]
    assert game.stock_count == 0 and game.deals_left == 0


def test_undo_at_the_start_says_there_is_nothing_to_undo() -> None:
    with pytest.raises(IndexError, match="nothing to undo"):
        Game.new(1).undo()


def test_undo_returns_the_move_and_counts_down() -> None:
    game = Game.new(1)
    first = game.legal_moves()[0]
    game.play(first)
    assert game.move_count == 1 and game.history == (first,)
    assert game.undo() == first
    assert game.move_count == 0 and format_position(game) == format_position(Game.new(1))


def test_a_copy_is_independent() -> None:
    game = Game.new(3)
    other = game.copy()
    other.play(other.legal_moves()[0])
    assert game.move_count == 0 and other.move_count == 1
    assert format_position(game) == format_position(Game.new(3))


def test_describe_puts_a_move_in_words() -> None:
    game = parse_position(board(full_rows(A1="2H"), ["5H", "AS"]))
    assert describe_move(game, parse_move(game, "r1 a1")) == "R1 5♥ → A1 on 2♥"
    assert describe_move(game, parse_move(game, "r2 ace")) == "R2 A♠ → Ace pile"
    assert describe_move(game, parse_move(game, "a2 b2")) == "A2 3♠ ⇄ B2 2♥"
    assert describe_move(game, parse_move(game, "b2 a2")) == "A2 3♠ ⇄ B2 2♥"  # as recorded
    assert describe_move(game, DEAL) == "Deal (9 more to come)"
    with pytest.raises(IllegalMoveError):
        describe_move(game, Move(ACE_PILE, Pile("row", 0, 1)))


# ---------------------------------------------------------------- Royal Parade settings


def test_variants_are_named_by_code() -> None:
    assert variant_by_code("VR") is VIRGINIA_REEL and variant_by_code("rp") is ROYAL_PARADE
    with pytest.raises(ValueError, match="unknown variant 'zz'"):
        variant_by_code("zz")


def test_royal_parade_deals_with_no_preplaced_bases() -> None:
    game = Game.new(1, ROYAL_PARADE)
    assert all(len(p) == 1 for r in range(3) for p in game.row(r))
    assert game.stock_count == 72 and format_position(game).startswith("rp ")


def test_royal_parade_deals_with_a_space_open() -> None:
    game = parse_position(board(full_rows(B5="-"), variant="rp"))
    assert DEAL in game.legal_moves()
    assert game.play(DEAL) is MoveKind.DEAL


def test_royal_parade_refills_an_emptied_reserve_pile_from_the_stock_at_once() -> None:
    game = parse_position(board(full_rows(A1="2H"), ["5H"], variant="rp"))
    before = format_position(game)
    next_card = game.stock[0]
    play(game, "r1 a1")
    assert game.reserve[0] == (next_card,)
    assert game.stock_count == len(parse_position(before).stock) - 1
    game.undo()
    assert format_position(game) == before


def test_virginia_reel_leaves_an_emptied_reserve_pile_empty() -> None:
    game = parse_position(board(full_rows(A1="2H"), ["5H"]))
    play(game, "r1 a1")
    assert game.reserve[0] == ()
