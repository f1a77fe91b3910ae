"""The move parser every front end uses, and position-string errors."""

from __future__ import annotations

import re

import pytest
from positions import board, full_rows

from engine import (
    ACE_PILE,
    DEAL,
    AmbiguousMoveError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Pile,
    PositionError,
    card_name,
    parse_move,
    parse_pile,
    render,
)
from engine.cards import CARD_COUNT, board_code
from engine.game import BUILD_SEQUENCES
from engine.notation import (
    LineError,
    describe_move,
    format_line,
    format_position,
    line_length,
    parse_line,
    parse_position,
    play_line,
)

A1, A5, B2, B4, B6 = (Pile("row", r, c) for r, c in ((0, 0), (0, 4), (1, 1), (1, 3), (1, 5)))
R1, R2, R3 = (Pile("reserve", 0, j) for j in range(3))


@pytest.fixture
def game() -> Game:
    # 5♥ on R1 builds on 2♥ at A1; 10♦ on R2 builds on 7♦ at C1; an Ace on R3.
    return parse_position(
        board(full_rows(A1="2H", B4="9C", C1="4D7D", B6="-", B7="-"), ["5H", "TD", "AC", "3C"])
    )


# ---------------------------------------------------------------- FROM TO


@pytest.mark.parametrize("text", ["R1 A1", "r1 a1", "  r1   A1 ", "R1->A1", "r1 → a1", "r1,a1"])
def test_from_to_is_read_in_any_case_and_with_any_separator(game: Game, text: str) -> None:
    assert parse_move(game, text) == Move(R1, A1)


@pytest.mark.parametrize("text", ["5h on 2h", "5H to A1", "5♥ a1", "r1 2♥", "5♥️ 2♥️", "5♡ A1"])
def test_cards_name_their_piles(game: Game, text: str) -> None:
    assert parse_move(game, text) == Move(R1, A1)


@pytest.mark.parametrize("text", ["r3 ace", "R3 ACE", "r3 aces", "r3 @", "r3 ap", "ac ace"])
def test_the_ace_pile_has_aliases(game: Game, text: str) -> None:
    assert parse_move(game, text) == Move(Pile("reserve", 0, 2), ACE_PILE)


@pytest.mark.parametrize("text", ["deal", "DEAL", " Deal ", "dl"])
def test_deal_is_a_word(game: Game, text: str) -> None:
    assert parse_move(game, text) is DEAL


def test_a_row_letter_alone_as_destination_means_its_leftmost_space(game: Game) -> None:
    assert parse_move(game, "r4 b") == Move(Pile("reserve", 0, 3), B6)
    with pytest.raises(InvalidMoveError, match="row A has no space"):
        parse_move(game, "r1 a")


# ---------------------------------------------------------------- one token


@pytest.mark.parametrize("text", ["10d", "TD", "td", "10♦", "t♦", "T♦️"])
def test_a_card_alone_moves_to_its_one_destination_with_10_or_t(game: Game, text: str) -> None:
    assert parse_move(game, text) == Move(R2, Pile("row", 2, 0))


def test_a_ten_is_written_t_in_every_output_as_on_the_board(game: Game) -> None:
    # one spelling: the board's cells are two columns a card (30 columns a line, for a
    # phone), so a Ten is T there, and so in every message, label and key (10 is read too)
    cards = [(c, s) for c in range(CARD_COUNT) for s in (True, False)]
    assert all(card_name(c, s) == board_code(c, s) for c, s in cards)
    label = describe_move(game, Move(R2, Pile("row", 2, 0)))
    assert label == "R2 T♦ → C1 on 7♦"
    with pytest.raises(IllegalMoveError) as caught:
        game.kind(Move(R2, A1))
    assert "T♦ can't go on 2♥" in str(caught.value)
    assert BUILD_SEQUENCES[2] == "4-7-T-K" and "C:4-7-T-K" in render(game)
    assert "10" not in label + str(caught.value) + " ".join(BUILD_SEQUENCES)


def test_a_pile_alone_moves_its_card_to_its_one_destination(game: Game) -> None:
    assert parse_move(game, "r1") == Move(R1, A1)
    assert parse_move(game, "R3") == Move(Pile("reserve", 0, 2), ACE_PILE)


def test_fills_into_several_spaces_of_one_row_count_as_one_destination(game: Game) -> None:
    # 3♣ may fill B6 or B7; those are the same move in effect: the leftmost is chosen.
    assert parse_move(game, "3c") == Move(Pile("reserve", 0, 3), B6)


def test_a_card_with_two_destinations_is_ambiguous() -> None:
    game = parse_position(board({"A1": "2H", "A5": "2H"}, ["5H"]))
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move(game, "5h")
    message = str(caught.value)
    assert "fits 2 moves" in message and "'R1 A1'" in message and "'R1 A5'" in message
    assert parse_move(game, "5h a5") == Move(R1, A5)


def test_a_card_in_two_places_with_one_legal_move_is_not_ambiguous() -> None:
    # One 5♥ tops the based pile A5 and stays; the other, misplaced at C3, may move.
    game = parse_position(board({"A1": "2H", "A5": "2H5H", "C3": "5H"}))
    assert parse_move(game, "5h a1") == Move(Pile("row", 2, 2), A1)
    assert parse_move(game, "5h") == Move(Pile("row", 2, 2), A1)


def test_a_card_in_two_places_both_free_is_ambiguous() -> None:
    game = parse_position(board({"A1": "2H", "C3": "5H"}, ["9S5H"]))
    with pytest.raises(AmbiguousMoveError, match=r"'R1 A1'.*'C3 A1'"):
        parse_move(game, "5h")


def test_a_based_card_alone_says_it_stays(game: Game) -> None:
    with pytest.raises(IllegalMoveError, match="in its proper place and stays there"):
        parse_move(game, "7d")


# ---------------------------------------------------------------- bad text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "type a move"),
        ("   ", "type a move"),
        ("xyz", "I don't know 'xyz'"),
        ("r9 a1", "I don't know 'r9'"),
        ("r1 a9", "I don't know 'a9'"),
        ("r1 z1", "name a pile"),
        ("r1 a1 b2", "is not a move: give FROM and TO"),
        ("kd", "K♦ is not on top of any pile"),
        ("5s", "has no legal move right now"),
        ("1h a1", "I don't know '1h'"),
        ("11h a1", "I don't know"),
    ],
)
def test_bad_text_is_an_invalid_move_with_a_helpful_message(text: str, words: str) -> None:
    game = parse_position(board({"A1": "2H", "B3": "5S"}, ["5H"]))
    before = format_position(game)
    with pytest.raises(InvalidMoveError) as caught:
        parse_move(game, text)
    assert words in str(caught.value)
    assert format_position(game) == before


def test_parse_errors_are_value_errors() -> None:
    for error in (InvalidMoveError, AmbiguousMoveError, PositionError):
        assert issubclass(error, ValueError)


def test_pile_names() -> None:
    game = Game.new(1)
    assert parse_pile(game, "a1") == A1
    assert parse_pile(game, "B4") == B4
    assert parse_pile(game, "r2") == R2
    assert parse_pile(game, "Ace") == ACE_PILE
    assert [parse_pile(game, t) for t in ("a0", "a9", "r0", "r9", "d1", "b", "")] == [None] * 7
    assert [str(p) for p in (A1, B2, R2, ACE_PILE)] == ["A1", "B2", "R2", "ACE"]


# ---------------------------------------------------------------- position strings


GOOD = board(full_rows(), ["5H", "TD"])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "7 fields"),
        (GOOD.rsplit(" ", 1)[0], "found 6"),
        (GOOD + " 0", "found 8"),
        ("xx" + GOOD[2:], "unknown variant 'xx'"),
        (GOOD.replace("2S,3S", "2X,3S", 1), "bad card '2x' in row A"),
        (GOOD.replace("2S,3S", "2S,3S,4S", 1), "row A has 9 piles"),
        (GOOD.replace("2S,3S", "2S3S", 1), "row A has 7 piles"),
        (GOOD.replace("2S,3S", "2S5S,3S", 1), "appears 3 times"),
        (GOOD.replace("2S,3S", "2S,-", 1), "3S appears 1 times"),
        (board({"A1": "2S6S"}), "A1 holds more than one card but is not a Two built up"),
        (board({"B2": "6S9S"}), "B2 holds more than one card but is not a Three built up"),
        (GOOD.replace("2S,3S", ",3S", 1), "empty pile in row A is written '-'"),
        (GOOD.rsplit(" ", 1)[0] + " x", "Ace count must be a number"),
        (GOOD.rsplit(" ", 1)[0] + " ²", "Ace count must be a number"),
        (GOOD.rsplit(" ", 1)[0] + " 9", "the Ace pile holds 0 to 8 Aces"),
        (GOOD.rsplit(" ", 1)[0] + " 1", "make 9, not 8"),
    ],
)
def test_bad_position_strings_raise_position_errors_that_say_why(text: str, words: str) -> None:
    with pytest.raises(PositionError) as caught:
        parse_position(text)
    assert words in str(caught.value)


def test_a_pile_of_more_than_four_cards_is_no_position() -> None:
    with pytest.raises(PositionError, match="A1 holds more than four cards"):
        parse_position(board({"A1": "2S5S8SJSAS"}))


def test_a_position_string_reads_ten_as_10_or_t_in_any_case() -> None:
    text = board(full_rows(), ["5H", "TD"])
    assert format_position(parse_position(text.replace("TD,", "10d,", 1))) == text
    assert format_position(parse_position(text.lower())) == text


# ---------------------------------------------------------------- lines of moves


def test_a_line_marks_automatic_moves_with_a_plus_and_joins_them_with_semicolons() -> None:
    moves = [Move(R1, A1), Move(Pile("reserve", 0, 2), ACE_PILE), DEAL]
    assert format_line(moves) == "R1 A1;R3 ACE;deal"
    assert format_line(moves, [False, True, False]) == "R1 A1;+R3 ACE;deal"
    assert line_length("R1 A1;+R3 ACE;deal") == 3 and line_length("") == 0


def test_a_stored_line_is_read_strictly(game: Game) -> None:
    assert parse_line(game, "") == []
    assert parse_line(game, "R1 A1;+R3 ACE") == [(Move(R1, A1), False), (Move(R3, ACE_PILE), True)]
    for bad in ("R1", "R1 A1 B2", "r1 zz", "5h a1", "R1  A1"):
        with pytest.raises(LineError, match=f"move 2 {re.escape(repr(bad))} is not a stored move"):
            parse_line(game, f"R1 A1;{bad}")


def test_playing_a_line_names_the_first_illegal_move_and_keeps_the_moves_before_it(
    game: Game,
) -> None:
    with pytest.raises(LineError, match=r"move 2 'R2 A1' is illegal: "):
        play_line(game, "R1 A1;R2 A1;R3 ACE")
    assert game.history == (Move(R1, A1),)


def test_a_move_is_described_in_words_as_the_board_names_it(game: Game) -> None:
    assert describe_move(game, Move(R1, A1)) == "R1 5♥ → A1 on 2♥"
    assert describe_move(game, Move(R1, A1), symbols=False) == "R1 5H → A1 on 2H"
    assert describe_move(game, Move(R3, ACE_PILE)) == "R3 A♣ → Ace pile"
    assert describe_move(game, Move(Pile("reserve", 0, 3), B6)) == "R4 3♣ → B6 (space)"
    with pytest.raises(IllegalMoveError):
        describe_move(game, Move(R2, A1))


def test_an_unknown_word_is_echoed_at_most_60_characters() -> None:
    with pytest.raises(InvalidMoveError) as refused:
        parse_move(Game.new(1), "q" * 90)
    assert f"I don't know '{'q' * 59}…'" in str(refused.value) and "q" * 60 not in str(
        refused.value
    )
