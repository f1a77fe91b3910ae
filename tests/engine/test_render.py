"""The text board: what it shows, and that every line fits 30 columns."""

from __future__ import annotations

from positions import STUCK_POSITION, WON_POSITION, board, full_rows
from wcwidth import wcswidth

from engine import DEAL, MAX_DEAL, MAX_WIDTH, Game, display_width, render
from engine.notation import parse_position


def widest(text: str) -> int:
    return max(wcswidth(line) for line in text.splitlines())


def test_the_longest_deal_number_still_fits_30_columns() -> None:
    game = Game.new(MAX_DEAL)
    for _ in range(12):
        game.play(DEAL if DEAL in game.legal_moves() else game.legal_moves()[0])
    for symbols in (True, False):
        text = render(game, symbols=symbols)
        assert widest(text) <= MAX_WIDTH, text
        assert f"Deal {MAX_DEAL}" in text and "12" in text


def test_the_board_shows_deal_move_rows_reserve_aces_stock_and_score() -> None:
    text = render(Game.new(1), symbols=True)
    lines = text.splitlines()
    assert lines[0] == "Deal 1 · move 0"
    assert lines[2] == "A 2♥*6♦*7♦*J♠*8♠*K♣*7♥*6♣"
    assert lines[5] == "R J♣ K♠ 5♣ 3♣ 7♣ A♠ 8♣ 9♠"
    assert lines[6] == "   1  1  1  1  1  1  1  1"
    assert "Aces 0/8 · stock 9 deals" in lines
    assert "Score 5/104" in lines


def test_letters_mode_is_plain_ascii_and_symbols_carry_no_variation_selector() -> None:
    game = Game.new(2)
    letters = render(game, symbols=False)
    assert all(ch.isascii() or ch == "·" for ch in letters)
    assert "\ufe0f" not in render(game, symbols=True)


def test_based_piles_misplaced_cards_and_spaces_look_different() -> None:
    game = parse_position(board(full_rows(A1="2S5S8S", A2="-"), ["AS", "9C5C"]))
    text = render(game, symbols=False)
    assert text.splitlines()[2].startswith("A 8S --*4S")
    assert "R AS 5C  ." in text
    assert "   1  2  0" in text


def test_a_won_and_a_stuck_game_say_so() -> None:
    assert render(parse_position(WON_POSITION)).splitlines()[-1] == "Won! All 104 cards home."
    stuck = render(parse_position(STUCK_POSITION)).splitlines()
    assert stuck[-1] == "Stuck: no legal move left."
    assert "Aces 8/8 · stock empty" in stuck


def test_display_width_counts_columns_not_characters() -> None:
    assert display_width("5♥") == 2
    assert display_width("漢") == 2
