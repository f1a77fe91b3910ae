"""The rules of RULES.md, one test each, and every illegal case with the rule its message names."""

from __future__ import annotations

import pytest
from positions import board, full_rows

from engine import (
    ACE_PILE,
    DEAL,
    Game,
    IllegalMoveError,
    Move,
    MoveKind,
    Pile,
    parse_pile,
)
from engine.notation import format_position, parse_position


def pile(game: Game, name: str) -> Pile:
    found = parse_pile(game, name)
    assert found is not None, name
    return found


def move(game: Game, text: str) -> Move:
    src, dst = text.split()
    return Move(pile(game, src), pile(game, dst))


def cards(game: Game, name: str) -> str:
    from engine.cards import card_code

    return "".join(card_code(c) for c in game.pile(pile(game, name)))


def assert_illegal(game: Game, text: str, rule: str, *words: str) -> IllegalMoveError:
    """The move is refused naming ``rule``, its message has ``words``, and nothing changed."""
    before, moves_before = format_position(game), game.move_count
    m = DEAL if text == "deal" else move(game, text)
    assert not game.is_legal(m)
    assert m not in game.legal_moves()
    with pytest.raises(IllegalMoveError) as caught:
        game.play(m)
    assert caught.value.rule == rule
    for word in words:
        assert word in str(caught.value)
    assert format_position(game) == before
    assert game.move_count == moves_before
    return caught.value


# ---------------------------------------------------------------- building


def test_an_available_card_builds_on_a_based_pile_of_its_suit_three_ranks_lower() -> None:
    game = parse_position(board({"A1": "2H"}, ["5H"]))
    assert game.play(move(game, "R1 A1")) is MoveKind.BUILD
    assert cards(game, "A1") == "2H5H"
    assert cards(game, "R1") == ""


@pytest.mark.parametrize(
    ("row_pile", "cards_up"),
    [
        ("A3", ["2C", "5C", "8C", "JC"]),
        ("B5", ["3C", "6C", "9C", "QC"]),
        ("C2", ["4C", "7C", "TC", "KC"]),
    ],
)
def test_each_row_builds_its_own_sequence_up_to_four_cards(
    row_pile: str, cards_up: list[str]
) -> None:
    game = parse_position(board({row_pile: cards_up[0]}, cards_up[1:]))
    for j in range(1, 4):
        assert game.play(move(game, f"R{j} {row_pile}")) is MoveKind.BUILD
    assert cards(game, row_pile) == "".join(cards_up)


def test_builds_follow_suit() -> None:
    game = parse_position(board({"A1": "2S"}, ["5H"]))
    error = assert_illegal(game, "R1 A1", "follow-suit", "builds follow suit", "5♥", "2♠")
    assert str(error) == "5♥ can't go on 2♠: builds follow suit"


def test_builds_go_up_by_exactly_three() -> None:
    game = parse_position(board({"B1": "3S"}, ["7S", "9S"]))
    assert_illegal(game, "R1 B1", "up-by-three", "builds go up by three", "3-6-9-Q", "Six")
    assert_illegal(game, "R2 B1", "up-by-three")


def test_a_complete_pile_takes_no_more_cards() -> None:
    game = parse_position(board({"C1": "4D7DTDKD"}, ["KD"]))
    assert_illegal(game, "R1 C1", "pile-complete", "complete", "K♦")


def test_nothing_is_built_on_a_misplaced_card_from_the_reserve() -> None:
    game = parse_position(board({"B2": "2H"}, ["5H"]))
    assert_illegal(game, "R1 B2", "no-build-on-misplaced", "nothing is built on a misplaced card")


def test_nothing_is_built_on_a_misplaced_card_from_another_row() -> None:
    # 5♥ (misplaced in row C) onto 2♥ (misplaced in row B): a build on a
    # misplaced card, not a failed interchange.
    game = parse_position(board({"B2": "2H", "C2": "5H"}))
    assert_illegal(game, "C2 B2", "no-build-on-misplaced", "nothing is built on a misplaced card")


def test_a_misplaced_card_is_available_to_build_elsewhere() -> None:
    game = parse_position(board({"A1": "2H", "C4": "5H"}))
    assert game.play(move(game, "C4 A1")) is MoveKind.BUILD
    assert cards(game, "A1") == "2H5H"
    assert cards(game, "C4") == ""  # it left a space


def test_only_the_top_card_of_a_reserve_pile_is_available() -> None:
    game = parse_position(board({"A1": "2H"}, ["5H9C"]))
    assert not game.is_legal(move(game, "R1 A1"))
    assert_illegal(game, "R1 A1", "follow-suit")


# ---------------------------------------------------------------- based piles


def test_a_pile_is_based_wherever_its_base_stands_in_the_row() -> None:
    game = parse_position(board({"A6": "2C"}, ["5C"]))
    assert game.is_based(pile(game, "A6"))
    assert game.play(move(game, "R1 A6")) is MoveKind.BUILD


def test_a_base_card_is_in_its_proper_place_and_stays_there() -> None:
    game = parse_position(board({"A1": "2S", "B1": "-"}))
    error = assert_illegal(
        game, "A1 B1", "based-cards-stay", "is in its proper place and stays there"
    )
    assert str(error) == "2♠ is in its proper place and stays there"


def test_moving_a_card_out_of_a_based_pile_is_illegal() -> None:
    game = parse_position(board({"B1": "3C6C9C", "B4": "3H", "B5": "-"}))
    assert_illegal(game, "B1 B4", "based-cards-stay", "9♣ is in its proper place and stays there")
    assert_illegal(game, "B1 ACE", "based-cards-stay")


def test_a_based_top_card_does_not_hop_to_a_twin_pile() -> None:
    # PySolFC lets 5♠ hop from A1 to the other 2♠; this engine does not.
    game = parse_position(board({"A1": "2S5S", "A2": "2S"}))
    assert_illegal(game, "A1 A2", "based-cards-stay", "5♠")


# ---------------------------------------------------------------- spaces and fills


@pytest.mark.parametrize(("space", "base"), [("A5", "2D"), ("B5", "3D"), ("C5", "4D")])
def test_a_space_is_filled_by_its_rows_base_rank_from_the_reserve(space: str, base: str) -> None:
    game = parse_position(board({}, [base]))
    assert game.play(move(game, f"R1 {space}")) is MoveKind.FILL
    assert cards(game, space) == base
    assert game.is_based(pile(game, space))


def test_a_misplaced_base_card_fills_a_space_in_its_own_row() -> None:
    game = parse_position(board({"C3": "3H"}))
    assert game.play(move(game, "C3 B7")) is MoveKind.FILL
    assert cards(game, "B7") == "3H"


@pytest.mark.parametrize(
    ("space", "card", "needs"),
    [("A5", "3D", "Two"), ("B5", "2D", "Three"), ("C5", "9D", "Four"), ("A2", "AS", "Two")],
)
def test_a_space_takes_nothing_but_its_rows_base(space: str, card: str, needs: str) -> None:
    game = parse_position(board({}, [card]))
    assert_illegal(
        game, f"R1 {space}", "fill-base-only", "can't fill a space", f"only a {needs} can"
    )


# ---------------------------------------------------------------- interchange


def test_misplaced_cards_in_different_rows_interchange_when_both_land_home() -> None:
    game = parse_position(board({"A3": "4S", "C6": "2H"}))
    assert game.play(move(game, "A3 C6")) is MoveKind.INTERCHANGE
    assert cards(game, "A3") == "2H"
    assert cards(game, "C6") == "4S"
    assert game.is_based(pile(game, "A3")) and game.is_based(pile(game, "C6"))


def test_an_interchange_is_accepted_from_either_end_and_recorded_upper_row_first() -> None:
    game = parse_position(board({"A3": "3S", "B6": "2H"}))
    interchanges = [m for m in game.legal_moves() if game.kind(m) is MoveKind.INTERCHANGE]
    assert [str(m) for m in interchanges] == ["A3 B6"]
    assert game.play(move(game, "B6 A3")) is MoveKind.INTERCHANGE
    assert str(game.history[-1]) == "A3 B6"
    assert cards(game, "A3") == "2H"


def test_an_interchange_swaps_only_across_rows() -> None:
    game = parse_position(board({"A3": "3S", "A6": "4H"}))
    assert_illegal(game, "A3 A6", "interchange-across-rows", "same row", "different rows")


def test_an_interchange_must_put_both_cards_home() -> None:
    # 3♠ would go home to row B, but 4♥ would land in row A, not its Fours row.
    game = parse_position(board({"A3": "3S", "B6": "4H"}))
    assert_illegal(game, "A3 B6", "interchange-both-home", "proper rows")
    assert_illegal(game, "B6 A3", "interchange-both-home")


# ---------------------------------------------------------------- Aces


def test_an_ace_goes_from_the_reserve_to_the_ace_pile() -> None:
    game = parse_position(board({}, ["AH"]))
    assert game.play(move(game, "R1 ACE")) is MoveKind.ACE
    assert game.aces == 1
    assert cards(game, "R1") == ""


def test_an_ace_goes_from_a_row_to_the_ace_pile_leaving_a_space() -> None:
    game = parse_position(board(full_rows(B4="AH")))
    assert game.play(move(game, "B4 ACE")) is MoveKind.ACE
    assert game.aces == 1
    assert pile(game, "B4") in game.spaces()


def test_only_aces_go_to_the_ace_pile() -> None:
    game = parse_position(board({}, ["2H"]))
    assert_illegal(game, "R1 ACE", "ace-pile-aces-only", "only Aces go to the Ace pile")


def test_nothing_leaves_the_ace_pile() -> None:
    game = parse_position(board({}, aces=3))
    assert_illegal(game, "ACE A1", "ace-pile-final", "nothing leaves the Ace pile")
    assert_illegal(game, "ACE R1", "ace-pile-final")


def test_an_ace_goes_nowhere_but_the_ace_pile() -> None:
    game = parse_position(board({"A1": "2H"}, ["AH"]))
    assert_illegal(game, "R1 A1", "up-by-three")


# ---------------------------------------------------------------- the reserve


def test_nothing_is_played_onto_the_reserve() -> None:
    game = parse_position(board({"B2": "5S"}, ["9C", "-"]))
    assert_illegal(game, "R1 R2", "reserve-closed", "nothing is played onto the reserve")
    assert_illegal(game, "B2 R2", "reserve-closed")
    assert_illegal(game, "B2 R1", "reserve-closed")


def test_an_empty_source_has_no_card_to_move() -> None:
    game = parse_position(board({"A1": "2S"}, ["-"]))
    assert_illegal(game, "R1 A1", "empty-source", "R1 is empty")
    assert_illegal(game, "B3 A1", "empty-source", "B3 is a space")


def test_a_pile_does_not_move_onto_itself() -> None:
    game = parse_position(board({"B2": "5S"}))
    assert_illegal(game, "B2 B2", "same-pile")


# ---------------------------------------------------------------- the deal


def test_a_deal_puts_one_card_on_each_reserve_pile_in_order() -> None:
    game = parse_position(board(full_rows(), ["5C", "-", "KC"]))
    stock = game.stock
    assert game.play(DEAL) is MoveKind.DEAL
    for j in range(8):
        assert game.reserve[j][-1] == stock[j]
    assert [len(p) for p in game.reserve] == [2, 1, 2, 1, 1, 1, 1, 1]
    assert game.stock == stock[8:]


def test_deal_is_blocked_while_a_space_is_open() -> None:
    game = parse_position(board(full_rows(B5="-")))
    error = assert_illegal(game, "deal", "deal-needs-no-space", "can't deal: the Threes row")
    assert "has a space" in str(error) and "Three" in str(error)
    assert DEAL not in game.legal_moves()


def test_a_refused_deal_names_every_row_with_a_space() -> None:
    two_in_a_row = parse_position(board(full_rows(B5="-", B7="-")))
    assert_illegal(
        two_in_a_row,
        "deal",
        "deal-needs-no-space",
        "can't deal: the Threes row (row B) has 2 spaces; fill them with Threes first",
    )
    three_rows = parse_position(board(full_rows(A4="-", B5="-", B7="-", C6="-")))
    assert_illegal(
        three_rows,
        "deal",
        "deal-needs-no-space",
        "can't deal: the Twos row (row A), the Threes row (row B) and the Fours row (row C) "
        "have spaces; fill them with a Two, Threes and a Four first",
    )


def test_the_deal_comes_back_once_the_space_is_filled() -> None:
    game = parse_position(board(full_rows(B5="-"), ["3C"]))
    game.play(move(game, "R1 B5"))
    assert DEAL in game.legal_moves()


def test_no_deal_from_an_empty_stock() -> None:
    game = parse_position(board(full_rows(), stock=None))
    while game.stock_count:
        game.play(DEAL)
    assert_illegal(game, "deal", "stock-empty", "can't deal: the stock is empty")


def test_an_empty_reserve_pile_is_refilled_only_by_the_deal() -> None:
    game = parse_position(board(full_rows(), ["AH"]))
    game.play(move(game, "R1 ACE"))
    assert game.reserve[0] == ()
    game.play(DEAL)
    assert len(game.reserve[0]) == 1


def test_a_space_may_stay_open() -> None:
    # Moving a misplaced card out of a row is legal even when nothing can fill the space.
    game = parse_position(board(full_rows(A1="2H", A4="5H")))
    game.play(move(game, "A4 A1"))
    assert pile(game, "A4") in game.spaces()
    assert DEAL not in game.legal_moves()


def test_a_row_pile_of_one_base_card_is_based_not_misplaced() -> None:
    game = parse_position(board({"B2": "3D", "B3": "5D"}))
    assert game.is_based(pile(game, "B2")) and not game.is_misplaced(pile(game, "B2"))
    assert game.is_misplaced(pile(game, "B3")) and not game.is_based(pile(game, "B3"))


def test_illegal_move_errors_are_value_errors() -> None:
    assert issubclass(IllegalMoveError, ValueError)
    game = parse_position(board({}, aces=1))
    with pytest.raises(ValueError):
        game.play(Move(ACE_PILE, pile(game, "A1")))
