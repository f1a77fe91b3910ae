"""The other games of the family: one test per rule that tells each from Virginia Reel.

RULES.md's "Related games" table, row by row (decks, piles a row and reserve,
pre-placed bases, when the deal is allowed, what an empty reserve pile takes),
each shown on a hand-built position or on deals; then the invariant every game
keeps: every card of its packs is somewhere, along random games.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import board, full_rows, random_play

from engine import (
    DEAL,
    MAX_DEAL,
    MIN_DEAL,
    Game,
    IllegalMoveError,
    Move,
    MoveKind,
    Pile,
    Status,
    deal_layout,
    parse_move,
    shuffled_deck,
)
from engine.cards import card_code, rank_of, suit_of
from engine.notation import format_position, parse_pile, parse_position
from engine.variant import VARIANTS

DEALS = [1, 2, 3, 10**6, MAX_DEAL, *random.Random(35).sample(range(MIN_DEAL, 10**12), 60)]

# Rows 9-12 of a 12-pile game, every pile a misplaced card: with FULL_ROWS, no space.
WIDE_COLUMNS = {
    "A9": "6H", "A10": "7H", "A11": "9H", "A12": "TH",
    "B9": "5C", "B10": "6C", "B11": "7C", "B12": "8C",
    "C9": "9C", "C10": "TC", "C11": "JC", "C12": "QC",
}  # fmt: skip


def wide_rows(**changes: str) -> dict[str, str]:
    """Every pile of a 12-pile game filled (FULL_ROWS and WIDE_COLUMNS), some changed."""
    return full_rows() | WIDE_COLUMNS | {k.upper(): v for k, v in changes.items()}


def rows_for(code: str, **changes: str) -> dict[str, str]:
    return wide_rows(**changes) if VARIANTS[code].piles_per_row == 12 else full_rows(**changes)


def short_stock(text: str, keep: int = 0) -> str:
    """The position with only the first ``keep`` stock cards left in the stock: the others
    go, in order, onto the last reserve pile (which must be empty)."""
    fields = text.split()
    cards = [] if fields[5] == "-" else [fields[5][i : i + 2] for i in range(0, len(fields[5]), 2)]
    reserve = fields[4].split(",")
    assert reserve[-1] == "-"
    reserve[-1] = "".join(cards[keep:]) or "-"
    fields[4], fields[5] = ",".join(reserve), "".join(cards[:keep]) or "-"
    return " ".join(fields)


def play(game: Game, text: str) -> MoveKind:
    return game.play(parse_move(game, text))


def cards_everywhere(game: Game) -> Counter[int]:
    """Every card of the game: rows, reserve, stock and the Ace pile."""
    found: Counter[int] = Counter(game.ace_pile_cards())
    for r in range(3):
        for pile in game.row(r):
            found.update(pile)
    for pile in game.reserve:
        found.update(pile)
    found.update(game.stock)
    return found


# ---------------------------------------------------------------- decks, layout, stock

SHAPES = {  # code: (decks, piles a row, reserve piles), as RULES.md's table says
    "vr": (2, 8, 8),
    "rp": (2, 8, 8),
    "tu": (3, 12, 12),
    "bj": (2, 8, 8),
    "bp": (3, 12, 12),
}


@pytest.mark.parametrize("code", sorted(SHAPES))
def test_each_game_deals_its_packs_rows_reserve_and_nine_deals_of_stock(code: str) -> None:
    decks, width, reserve = SHAPES[code]
    for deal in DEALS[:10]:
        game = Game.new(deal, VARIANTS[code])
        assert cards_everywhere(game) == Counter({card: decks for card in range(52)})
        assert sum(cards_everywhere(game).values()) == 52 * decks
        assert game.width == width and all(len(game.row(r)) == width for r in range(3))
        assert all(len(p) == 1 for r in range(3) for p in game.row(r))  # no space at the deal
        assert len(game.reserve) == reserve and all(len(p) == 1 for p in game.reserve)
        assert game.stock_count == 52 * decks - 3 * width - reserve == 9 * reserve
        assert game.deals_left == 9
        assert game.variant.ace_total == 4 * decks
        game.play(DEAL)
        assert all(len(p) == 2 for p in game.reserve) and game.deals_left == 8


@pytest.mark.parametrize("code", ["vr", "tu", "bj"])
def test_bases_are_preplaced_on_pile_1_of_their_rows(code: str) -> None:
    for deal in DEALS:
        game = Game.new(deal, VARIANTS[code])
        assert [rank_of(game.row(r)[0][0]) for r in range(3)] == [2, 3, 4]


def base_suits(code: str, deal: int) -> set[int]:
    game = Game.new(deal, VARIANTS[code])
    return {suit_of(game.row(r)[0][0]) for r in range(3)}


def test_virginia_reels_bases_are_of_three_suits() -> None:
    assert all(len(base_suits("vr", deal)) == 3 for deal in DEALS)


@pytest.mark.parametrize("code", ["tu", "bj"])
def test_three_up_and_blue_jacket_take_the_first_three_and_four_whatever_their_suits(
    code: str,
) -> None:
    # The table says "yes", not "yes, three suits" (PySolFC takes the first of each rank).
    assert any(len(base_suits(code, deal)) < 3 for deal in DEALS)
    for deal in DEALS:
        cards = shuffled_deck(deal, VARIANTS[code].decks)
        firsts = [next(c for c in cards if rank_of(c) == rank) for rank in (2, 3, 4)]
        game = Game.new(deal, VARIANTS[code])
        assert [game.row(r)[0][0] for r in range(3)] == firsts


@pytest.mark.parametrize("code", ["rp", "bp"])
def test_royal_parade_and_big_parade_deal_every_row_pile_from_the_shuffle(code: str) -> None:
    variant = VARIANTS[code]
    based_at_one = 0
    for deal in DEALS:
        cards = shuffled_deck(deal, variant.decks)
        layout = deal_layout(deal, variant)
        rows = variant.row_pile_count
        assert [p[0] for p in layout.rows] == cards[:rows]  # no card taken out first
        assert [p[0] for p in layout.reserve] == cards[rows : rows + variant.reserve_piles]
        assert list(layout.stock) == cards[rows + variant.reserve_piles :]
        based_at_one += rank_of(layout.rows[0][0]) == 2
    assert based_at_one < len(DEALS) // 2  # a Two on A1 only by chance


# ---------------------------------------------------------------- the deal and spaces


@pytest.mark.parametrize("code", ["rp", "bp"])
def test_the_parades_deal_with_a_space_open(code: str) -> None:
    game = parse_position(board(rows_for(code, B5="-", C2="-"), variant=code))
    assert DEAL in game.legal_moves()
    stock = game.stock
    assert game.play(DEAL) is MoveKind.DEAL
    assert [p[-1] for p in game.reserve] == list(stock[: len(game.reserve)])
    assert [p.name for p in game.spaces()] == ["B5", "C2"]


@pytest.mark.parametrize("code", ["vr", "tu", "bj"])
def test_the_others_deal_only_with_no_space_in_the_rows(code: str) -> None:
    game = parse_position(board(rows_for(code, B5="-"), variant=code))
    assert DEAL not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="row B") as refused:
        game.play(DEAL)
    assert refused.value.rule == "deal-needs-no-space"
    full = parse_position(board(rows_for(code), variant=code))
    assert full.play(DEAL) is MoveKind.DEAL


@pytest.mark.parametrize(
    ("code", "warns"), [("vr", True), ("rp", False), ("tu", True), ("bj", True), ("bp", False)]
)
def test_the_space_warning_is_given_only_where_a_space_blocks_the_deal(
    code: str, warns: bool
) -> None:
    # A misplaced Ace in row A goes home and leaves a space; no Two is available to fill it.
    game = parse_position(board(rows_for(code, A2="AS", B2="KH", C2="KD"), variant=code))
    ace = parse_move(game, "a2 ace")
    assert (game.space_warning(ace) is not None) is warns


# ---------------------------------------------------------------- the empty reserve pile


@pytest.mark.parametrize("code", ["rp", "bp"])
def test_the_parades_refill_an_emptied_reserve_pile_at_once_from_the_stock(code: str) -> None:
    game = parse_position(board(rows_for(code, A1="2H"), ["5H", "AS", "KC"], variant=code))
    before = format_position(game)
    stock = game.stock
    play(game, "r1 a1")  # a build empties R1
    play(game, "r2 ace")  # an Ace empties R2
    assert game.reserve[0] == (stock[0],) and game.reserve[1] == (stock[1],)
    assert game.stock == stock[2:]
    assert game.reserve[2] == (parse_position(before).reserve[2][0],)  # untouched
    game.undo()
    game.undo()
    assert format_position(game) == before  # undo puts the cards back on the stock


@pytest.mark.parametrize("code", ["rp", "bp"])
def test_with_the_stock_empty_an_emptied_pile_of_a_parade_stays_empty(code: str) -> None:
    game = parse_position(short_stock(board(rows_for(code, A1="2H"), ["5H"], variant=code)))
    assert game.stock_count == 0
    play(game, "r1 a1")
    assert game.reserve[0] == () and game.stock_count == 0
    assert DEAL not in game.legal_moves()


def test_a_short_stock_refills_the_first_pile_emptied_then_runs_out() -> None:
    text = board(full_rows(A1="2H", B1="3S"), ["5H", "6S", "KC"], variant="rp")
    game = parse_position(short_stock(text, keep=1))
    [last] = game.stock
    play(game, "r1 a1")
    assert game.reserve[0] == (last,) and game.stock_count == 0
    play(game, "r2 b1")
    assert game.reserve[1] == ()
    assert DEAL not in game.legal_moves()


@pytest.mark.parametrize("code", ["vr", "tu", "bj"])
def test_the_others_leave_an_emptied_reserve_pile_empty_until_the_deal(code: str) -> None:
    game = parse_position(board(rows_for(code, A1="2H"), ["5H"], variant=code))
    stock = game.stock
    play(game, "r1 a1")
    assert game.reserve[0] == () and game.stock == stock
    game.play(DEAL)
    assert game.pile(Pile("reserve", 0, 0)) == (stock[0],)


@pytest.mark.parametrize("code", ["vr", "rp", "tu", "bp"])
def test_nothing_is_played_onto_an_empty_reserve_pile_but_in_blue_jacket(code: str) -> None:
    game = parse_position(board(rows_for(code), ["7C", "-", "9D"], variant=code))
    source = "the deal" if code in ("vr", "tu") else "the stock"
    for src in ("A2", "R1"):
        with pytest.raises(IllegalMoveError, match=f"receives cards from {source}") as refused:
            play(game, f"{src} r2")
        assert refused.value.rule == "reserve-closed"


def blue_jacket(**changes: str) -> Game:
    """Blue Jacket: R1 7♣ on 9♦, R2 empty, R3 A♠, R4 empty; A2 a misplaced 3♠."""
    return parse_position(board(full_rows(**changes), ["9D7C", "-", "AS", "-"], variant="bj"))


def test_blue_jackets_empty_reserve_pile_takes_a_misplaced_card_from_a_row() -> None:
    game = blue_jacket()
    assert game.play(parse_move(game, "a2 r2")) is MoveKind.RESERVE
    assert game.reserve[1] == (parse_card_code("3S"),) and game.row(0)[1] == ()
    assert [p.name for p in game.spaces()] == ["A2"]


def test_a_row_card_parked_on_blue_jackets_reserve_leaves_a_space_that_blocks_the_deal() -> None:
    game = blue_jacket()
    warning = game.space_warning(parse_move(game, "a2 r2"))  # the 3♠ can't come back
    game.play(parse_move(game, "a2 r2"))
    assert DEAL not in game.legal_moves()
    assert warning is None  # A2 can be filled: B2's 2♥ is available
    assert game.is_legal(parse_move(game, "b2 a2"))


def test_blue_jackets_empty_reserve_pile_takes_another_reserve_piles_top_card() -> None:
    game = blue_jacket()
    before = format_position(game)
    assert game.play(parse_move(game, "r1 r2")) is MoveKind.RESERVE
    assert game.reserve[:2] == ((parse_card_code("9D"),), (parse_card_code("7C"),))
    game.undo()
    assert format_position(game) == before


def test_blue_jackets_empty_reserve_pile_takes_an_ace_too() -> None:
    game = blue_jacket()
    assert Move(Pile("reserve", 0, 2), Pile("reserve", 0, 1)) in game.legal_moves()


def test_blue_jackets_reserve_takes_one_card_only_onto_an_empty_pile() -> None:
    game = blue_jacket()
    with pytest.raises(IllegalMoveError) as refused:
        play(game, "a2 r1")
    assert refused.value.rule == "reserve-occupied"


def test_blue_jackets_reserve_takes_no_card_of_a_based_pile() -> None:
    game = blue_jacket(A1="2S5S")
    with pytest.raises(IllegalMoveError) as refused:
        play(game, "a1 r2")
    assert refused.value.rule == "based-cards-stay"


def test_blue_jackets_reserve_takes_a_card_at_any_time() -> None:
    # with a space open (the deal is blocked) and with the stock empty
    spaced = blue_jacket(B5="-")
    assert DEAL not in spaced.legal_moves()
    assert spaced.is_legal(parse_move(spaced, "a2 r2"))
    ended = parse_position(short_stock(board(full_rows(), ["9D7C", "-"], variant="bj")))
    assert ended.stock_count == 0 and ended.is_legal(parse_move(ended, "r1 r2"))


def test_blue_jacket_lists_every_card_for_every_empty_reserve_pile() -> None:
    game = blue_jacket()
    reserve_moves = {str(m) for m in game.legal_moves() if game.kind(m) is MoveKind.RESERVE}
    rows = [Pile("row", r, c) for r in range(3) for c in range(8)]
    sources = ["R1", "R3"] + [p.name for p in rows if game.is_misplaced(p)]
    assert len(sources) == 2 + 21
    empty = ["R2", "R4", "R5", "R6", "R7", "R8"]
    assert reserve_moves == {f"{s} {d}" for s in sources for d in empty}


def parse_card_code(code: str) -> int:
    return next(c for c in range(52) if card_code(c) == code)


# ---------------------------------------------------------------- three packs, 12 piles


@pytest.mark.parametrize("code", ["tu", "bp"])
def test_twelve_pile_games_name_and_play_piles_up_to_a12_and_r12(code: str) -> None:
    game = parse_position(
        board(wide_rows(A12="2D", C7="3H", B9="2C", A9="3C"), ["-"] * 11 + ["5D"], variant=code)
    )
    assert parse_pile(game, "a12") == Pile("row", 0, 11) and parse_pile(game, "r12")
    assert play(game, "r12 a12") is MoveKind.BUILD
    assert game.row(0)[11] == (parse_card_code("2D"), parse_card_code("5D"))
    assert play(game, "a9 b9") is MoveKind.INTERCHANGE  # 3♣ and 2♣ change places
    assert rank_of(game.row(0)[8][0]) == 2 and rank_of(game.row(1)[8][0]) == 3


def status_of(game: Game) -> Status:
    return game.status  # read through a call: mypy would keep the status narrowed


def won_rows(width: int) -> dict[str, str]:
    return {
        f"{letter}{col}": "".join(rank + "SHDC"[(col - 1) % 4] for rank in ranks)
        for letter, ranks in zip("ABC", ("258J", "369Q", "47TK"), strict=True)
        for col in range(1, width + 1)
    }


@pytest.mark.parametrize("code", sorted(SHAPES))
def test_a_game_is_won_when_all_its_cards_are_home(code: str) -> None:
    decks, width, _ = SHAPES[code]
    won = parse_position(board(won_rows(width), aces=4 * decks, stock="-", variant=code))
    assert won.status is Status.WON and won.score == 52 * decks
    # one Ace short: not won (the last Ace is on the reserve, and goes home)
    short = board(won_rows(width), ["AS"], aces=4 * decks - 1, stock="-", variant=code)
    game = parse_position(short)
    assert game.status is Status.PLAYING and game.score == 52 * decks - 1
    game.play(parse_move(game, "r1 ace"))
    assert game.is_won() and status_of(game) is Status.WON


# ---------------------------------------------------------------- safe moves


@pytest.mark.parametrize("code", ["rp", "bp"])
def test_a_parades_lone_reserve_ace_is_not_played_automatically_while_the_stock_has_cards(
    code: str,
) -> None:
    lone = parse_position(board(rows_for(code), ["AS", "KCAH"], variant=code))
    assert [str(m) for m in lone.safe_moves()] == ["R2 ACE"]  # R1's would draw a stock card
    assert lone.is_legal(parse_move(lone, "r1 ace"))  # still the player's to play
    empty_stock = parse_position(short_stock(board(rows_for(code), ["AS", "KCAH"], variant=code)))
    assert [str(m) for m in empty_stock.safe_moves()] == ["R1 ACE", "R2 ACE"]


@pytest.mark.parametrize("code", ["vr", "tu", "bj"])
def test_elsewhere_every_reserve_ace_is_played_automatically(code: str) -> None:
    game = parse_position(board(rows_for(code), ["AS", "KCAH"], variant=code))
    assert [str(m) for m in game.safe_moves()] == ["R1 ACE", "R2 ACE"]


# ---------------------------------------------------------------- the invariant


@pytest.mark.parametrize("code", sorted(SHAPES))
@given(st.integers(MIN_DEAL, MAX_DEAL), st.integers(0, 2**32), st.sampled_from([0.0, 0.9]))
@settings(derandomize=True, max_examples=12, deadline=None)
def test_every_card_of_the_packs_is_always_somewhere(
    code: str, deal: int, seed: int, care: float
) -> None:
    variant = VARIANTS[code]
    every_card = Counter({card: variant.decks for card in range(52)})
    rng = random.Random(seed)
    for moves, game in enumerate(random_play(Game.new(deal, variant), rng, care)):
        assert cards_everywhere(game) == every_card, format_position(game)
        assert 0 <= game.score <= variant.card_total
        if moves % 9 == 0 and game.history:  # undo gives back the position before
            before = format_position(game)
            move = game.undo()
            game.play(move)
            assert format_position(game) == before


def test_in_blue_jacket_a_card_typed_alone_goes_onto_the_reserve_only_as_a_last_resort() -> None:
    # R1 5♣ on 9♦, R2 empty, R3 A♠, R4-R8 empty; A1 a based 2♣; A4 a misplaced 6♠
    game = parse_position(board(full_rows(A1="2C"), ["9D5C", "-", "AS"], variant="bj"))
    assert str(parse_move(game, "5c")) == "R1 A1"  # the build, not a reserve pile
    assert str(parse_move(game, "r3")) == "R3 ACE"
    # 6♠ has nowhere else to go: the leftmost empty reserve pile (R2 of R2, R4-R8)
    assert str(parse_move(game, "6s")) == "A4 R2" == str(parse_move(game, "a4"))
    assert game.is_legal(parse_move(game, "a4 r7"))  # named in full, any empty pile
