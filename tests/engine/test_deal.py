"""Deals: SplitMix64 against its published outputs, golden deals, and the set-up rules."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import MAX_DEAL, MIN_DEAL, DealNumberError, Game, deal_layout, shuffled_deck
from engine.cards import card_code, rank_of, suit_of
from engine.deal import SplitMix64
from engine.notation import format_position

# The exact cards of three deals, generated once from engine/deal.py after
# checking it against its docstring. These must never change: a deal number
# names the same deal forever.
GOLDEN = {
    1: "vr 2H,6D,7D,JS,8S,KC,7H,6C 3S,8S,6S,9S,5S,TD,KH,JD 4C,AD,QC,TC,4H,4S,JS,9C "
    "JC,KS,5C,3C,7C,AS,8C,9S "
    "8H9HQH3H6S7HACAHAC6H6DKD3DKSJCTH5C5H3C2S8D7S8D2DJD2C9D2S5S9C5D7S3S6C2CADTD4C9DQD4S4HQC"
    "QD2D9H4DQSKCTS7D6H5H5DAHTC2HKDQH3D8CQS3H8HTHKHJHTSJHAS4D7C 0",
    2: "vr 2H,TH,AD,6D,JC,QC,5D,3H 3S,7S,AS,AC,KD,2S,KS,6H 4C,4S,9S,6H,8H,8S,KC,7S "
    "4H,8C,9D,7C,KS,KC,9C,AC "
    "4SJDTC7DQH6C9HQD2CASTD4HTC2S6S8C8S4DADQS5H3C2DQC9H5HTD2CAH5C3S3DQD2D6C3D4D8HJD7H6D6S7DTS"
    "8DQH7C5SJSJH5DAH5C9S2HJSJH3C7H4C8DKHKHQS9C5S3HJCTHTSKD9D 0",
    1000000: "vr 2S,8S,9S,8C,QC,AD,9H,QC 3H,6C,8H,2H,4S,9S,KD,KH 4D,KS,5C,JH,2S,5S,3D,TH "
    "JS,3D,6D,JD,AC,3S,3S,KC "
    "5C4D6DJC5S3C9CTSTD2C6H6S7SAC7H3C7DJC4H7CJDTC9D6S6CQDQDAD5HQS2HJS3HKS7S4C8D2DJHTH8D8H6H9H"
    "AS8SKDQHKC7D8CTS9C2DASTDQH7C5HTC5D2CAH4S4CKHQS4HAH9D5D7H 0",
}


# ---------------------------------------------------------------- SplitMix64


def test_splitmix64_gives_the_published_outputs_for_seed_1234567() -> None:
    # Rosetta Code, "Pseudo-random numbers/Splitmix64": the first five outputs.
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_splitmix64_gives_the_reference_outputs_for_seeds_0_and_1() -> None:
    zero, one = SplitMix64(0), SplitMix64(1)
    assert [zero.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    assert [one.next() for _ in range(3)] == [
        0x910A2DEC89025CC1,
        0xBEEB8DA1658EEC67,
        0xF893A2EEFB32555E,
    ]


@given(st.integers(1, 10**6), st.integers(1, 104))
@settings(derandomize=True, max_examples=200, deadline=None)
def test_a_bounded_draw_stays_in_range(seed: int, bound: int) -> None:
    rng = SplitMix64(seed)
    assert all(0 <= rng.below(bound) < bound for _ in range(20))


# ---------------------------------------------------------------- golden deals


@pytest.mark.parametrize("deal_number", sorted(GOLDEN))
def test_golden_deals_never_change(deal_number: int) -> None:
    assert format_position(Game.new(deal_number)) == GOLDEN[deal_number]


def documented_deal(deal_number: int) -> str:
    """The deal as engine/deal.py's docstring describes it, written again from the words."""
    mask = (1 << 64) - 1
    state = deal_number

    def next64() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    ranks, suits = "A23456789TJQK", "SHDC"
    deck = [r + s for _ in range(2) for s in suits for r in ranks]
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        while True:
            x = next64()
            if x < (1 << 64) - (1 << 64) % bound:
                j = x % bound
                break
        deck[i], deck[j] = deck[j], deck[i]
    bases: list[str] = []
    for base in "234":
        card = next(c for c in deck if c[0] == base and c[1] not in {b[1] for b in bases})
        deck.remove(card)
        bases.append(card)
    rows = [[b, *(deck.pop(0) for _ in range(7))] for b in bases]
    reserve = [deck.pop(0) for _ in range(8)]
    fields = ["vr", *(",".join(row) for row in rows), ",".join(reserve), "".join(deck), "0"]
    return " ".join(fields)


@pytest.mark.parametrize("deal_number", [1, 2, 3, 42, 1000000, 999_999_999, MAX_DEAL])
def test_deals_follow_the_documented_algorithm(deal_number: int) -> None:
    assert format_position(Game.new(deal_number)) == documented_deal(deal_number)


def test_the_shuffle_is_a_permutation_of_two_packs() -> None:
    deck = shuffled_deck(7)
    assert Counter(deck) == Counter({card: 2 for card in range(52)})


# ---------------------------------------------------------------- set-up rules


@given(st.integers(MIN_DEAL, MAX_DEAL))
@settings(derandomize=True, max_examples=300, deadline=None)
def test_the_deal_sets_up_the_board_as_the_rules_say(deal_number: int) -> None:
    layout = deal_layout(deal_number)
    base_two, base_three, base_four = layout.rows[0][0], layout.rows[8][0], layout.rows[16][0]
    # A Two, a Three and a Four of three different suits on pile 1 of rows A, B, C.
    assert [rank_of(c) for c in (base_two, base_three, base_four)] == [2, 3, 4]
    assert len({suit_of(c) for c in (base_two, base_three, base_four)}) == 3
    # One card on each of the other 21 row piles and on each of the 8 reserve piles.
    assert len(layout.rows) == 24 and all(len(p) == 1 for p in layout.rows)
    assert len(layout.reserve) == 8 and all(len(p) == 1 for p in layout.reserve)
    # 72 cards in the stock: exactly 9 deals of 8.
    assert len(layout.stock) == 72
    every_card = [c for p in (*layout.rows, *layout.reserve) for c in p] + list(layout.stock)
    assert Counter(every_card) == Counter({card: 2 for card in range(52)})
    game = Game.new(deal_number)
    assert game.deals_left == 9 and game.aces == 0 and game.move_count == 0
    assert game.score == 3 + sum(
        1 for i, p in enumerate(layout.rows) if i % 8 and rank_of(p[0]) == i // 8 + 2
    )


def test_the_bases_are_the_first_of_distinct_suits_in_shuffled_order() -> None:
    deck = shuffled_deck(1)
    two = next(c for c in deck if rank_of(c) == 2)
    three = next(c for c in deck if rank_of(c) == 3 and suit_of(c) != suit_of(two))
    four = next(
        c for c in deck if rank_of(c) == 4 and suit_of(c) not in {suit_of(two), suit_of(three)}
    )
    assert [card_code(c) for c in (two, three, four)] == ["2H", "3S", "4C"]
    layout = deal_layout(1)
    assert (layout.rows[0][0], layout.rows[8][0], layout.rows[16][0]) == (two, three, four)


def test_the_same_number_gives_the_same_deal() -> None:
    assert format_position(Game.new(123456789)) == format_position(Game.new(123456789))
    assert format_position(Game.new(5)) != format_position(Game.new(6))


# ---------------------------------------------------------------- deal numbers


@pytest.mark.parametrize("deal_number", [0, -1, 2**63, 2**64 + 1])
def test_deal_numbers_outside_the_range_do_not_exist(deal_number: int) -> None:
    with pytest.raises(DealNumberError, match="does not exist: deal numbers run from 1 to"):
        Game.new(deal_number)


@pytest.mark.parametrize("deal_number", ["7", 7.0, None, True])
def test_a_deal_number_is_a_whole_number(deal_number: object) -> None:
    with pytest.raises(DealNumberError, match="a deal number is a whole number"):
        Game.new(deal_number)  # type: ignore[arg-type]


def test_the_range_ends_are_deals() -> None:
    assert MIN_DEAL == 1 and MAX_DEAL == 2**63 - 1
    assert Game.new(MIN_DEAL).deal_number == 1
    assert Game.new(MAX_DEAL).deal_number == MAX_DEAL


def test_deal_number_errors_are_value_errors() -> None:
    assert issubclass(DealNumberError, ValueError)
