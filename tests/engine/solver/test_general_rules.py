"""The general search's own rules (Royal Parade, Blue Jacket, Big Parade): its safe builds
and fills, its dead-card check and the hand-over of an endgame to the model, each
switched off on a few hundred late positions without a verdict changing; hand-built
lost positions proven lost; no position on a winning line ever called dead."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import WON_ROWS, board

from engine import Game
from engine.notation import format_position, parse_move, parse_position
from engine.solver import Solution, Verdict, solve
from engine.solver.dead import dead_card, no_deal_ahead
from engine.solver.general import as_variant, endgame_variant, position_key, safe_move
from engine.variant import VARIANTS, variant_by_code

GAMES = ("rp", "bj", "bp")
SWITCHES = ("safe_builds", "safe_fills", "dead_check", "endgame")
BUDGET = 2_000


def _won_lines(code: str, count: int) -> list[tuple[int, tuple[object, ...]]]:
    """The first ``count`` deals of ``code`` the search wins within a small budget, with
    their lines."""
    found: list[tuple[int, tuple[object, ...]]] = []
    deal = 1
    while len(found) < count:
        solution = solve(Game.new(deal, variant_by_code(code)), max_nodes=2_000, max_seconds=60)
        if solution.verdict is Verdict.WON:
            found.append((deal, solution.line))
        deal += 1
    return found


def late_positions(code: str, count: int, seed: int) -> list[Game]:
    """Positions late in games of ``code``: half from winning lines cut short (and a few
    random moves played on), half from careful random play until little stock is left."""
    rng = random.Random(seed)
    variant = variant_by_code(code)
    found: list[Game] = []
    for deal, line in _won_lines(code, 3):
        for _ in range(count // 6):
            game = Game.new(deal, variant)
            for move in line[: rng.randrange(len(line) * 2 // 3, len(line))]:
                game.play(move)  # type: ignore[arg-type]
            for _ in range(rng.randrange(4)):
                if moves := game.legal_moves():
                    game.play(rng.choice(moves))
            found.append(game)
    deal = 500
    while len(found) < count:
        game = Game.new(deal, variant)
        while game.stock_count > variant.reserve_piles and (moves := game.legal_moves()):
            plays = [m for m in moves if not m.is_deal]
            game.play(rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(moves))
        for _ in range(rng.randrange(12)):
            if moves := [m for m in game.legal_moves() if not m.is_deal]:
                game.play(rng.choice(moves))
        found.append(game)
        deal += 1
    return [parse_position(format_position(g)) for g in found]


LATE = {code: late_positions(code, 90, seed) for seed, code in enumerate(GAMES)}
ON = {code: [solve(g, max_nodes=BUDGET, max_seconds=60) for g in LATE[code]] for code in GAMES}


def replays_to_a_win(game: Game, solution: Solution) -> bool:
    work = game.copy()
    for move in solution.line:
        work.play(move)
    return work.is_won()


@pytest.mark.parametrize("switch", SWITCHES)
def test_each_rule_of_the_general_search_switched_off_keeps_every_verdict(switch: str) -> None:
    decided = 0
    verdicts = {Verdict.WON: 0, Verdict.UNWINNABLE: 0}
    for code in GAMES:
        for game, on in zip(LATE[code], ON[code], strict=True):
            off = solve(game, max_nodes=BUDGET, max_seconds=60, **{switch: False})  # type: ignore[arg-type]
            if Verdict.UNKNOWN in (on.verdict, off.verdict):
                continue
            assert on.verdict is off.verdict, format_position(game)
            decided += 1
            verdicts[on.verdict] += 1
            if on.verdict is Verdict.WON:
                assert replays_to_a_win(game, on) and replays_to_a_win(game, off)
    assert decided >= 150
    assert min(verdicts.values()) >= 40  # both verdicts are exercised


def test_the_rules_decide_more_positions_than_the_plain_search() -> None:
    # the point of the rules: the same budget decides more with them
    plain = {
        code: [
            solve(
                g,
                max_nodes=BUDGET,
                max_seconds=60,
                **dict.fromkeys(SWITCHES, False),  # type: ignore[arg-type]
            )
            for g in LATE[code]
        ]
        for code in GAMES
    }
    for code in GAMES:
        on = sum(s.verdict is not Verdict.UNKNOWN for s in ON[code])
        off = sum(s.verdict is not Verdict.UNKNOWN for s in plain[code])
        assert on >= off, code
        for a, b in zip(ON[code], plain[code], strict=True):
            if Verdict.UNKNOWN not in (a.verdict, b.verdict):
                assert a.verdict is b.verdict


# ------------------------------------------------------------------ the dead-card check


def test_no_position_on_a_winning_line_is_called_dead() -> None:
    for code in GAMES:
        for deal, line in _won_lines(code, 2):
            game = Game.new(deal, variant_by_code(code))
            assert not dead_card(game)
            for move in line:
                game.play(move)  # type: ignore[arg-type]
                assert not dead_card(game), (code, deal, game.move_count)
                assert not no_deal_ahead(game), (code, deal, game.move_count)


@pytest.mark.parametrize("code", ["rp", "bp"])
def test_a_card_buried_under_the_card_that_needs_it_is_dead_in_the_parades(code: str) -> None:
    # every 5 of spades home, and every 8 of spades under a Jack of spades in the
    # reserve: no Jack can go home before an 8, and the 8s lie under the Jacks.
    variant = variant_by_code(code)
    width = variant.piles_per_row
    rows = {
        f"{letter}{col}": "".join(rank + "SHDC"[(col - 1) % 4] for rank in ranks)
        for letter, ranks in zip("ABC", ("258J", "369Q", "47TK"), strict=True)
        for col in range(1, width + 1)
    }
    spades = [col for col in range(1, width + 1) if (col - 1) % 4 == 0]
    rows |= {f"A{col}": "2S5S" for col in spades}
    reserve = ["8SJS"] * len(spades)
    game = parse_position(board(rows, reserve, aces=variant.ace_total, stock="-", variant=code))
    assert dead_card(game)
    # the same with cards left in the stock, where the endgame's model cannot look yet
    rows |= {"C4": "4C7CTC"}
    stocked = parse_position(board(rows, reserve, aces=variant.ace_total, stock="KC", variant=code))
    assert stocked.stock_count == 1 and dead_card(stocked)
    assert solve(stocked, max_nodes=1_000, max_seconds=60).verdict is Verdict.UNWINNABLE


def test_blue_jacket_parks_what_the_parades_bury() -> None:
    # The same cards in Blue Jacket: a Jack parked on an empty reserve pile frees the 8.
    rows = WON_ROWS | {"A1": "2S5S", "A5": "2S5S"}
    reserve = ["8SJS", "8SJS"]
    rp = parse_position(board(rows, reserve, aces=8, stock="-", variant="rp"))
    bj = parse_position(board(rows, reserve, aces=8, stock="-", variant="bj"))
    assert dead_card(rp) and not dead_card(bj)
    assert solve(bj, max_nodes=1_000, max_seconds=60).verdict is Verdict.WON


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GAMES), st.integers(min_value=1, max_value=10_000))
def test_no_deal_is_called_dead_where_the_search_wins_it(code: str, deal: int) -> None:
    game = Game.new(deal, variant_by_code(code))
    if dead_card(game):
        assert solve(game, max_nodes=500, max_seconds=60).verdict is not Verdict.WON


# ------------------------------------------------------------------ safe moves, the endgame


def test_a_safe_build_needs_a_slot_for_every_copy_out() -> None:
    # one 5 of spades home (A1), the other on R2 under nothing: the 8 on R1 could take
    # the slot the other 8 needs, so it is no safe build
    rows = WON_ROWS | {"A1": "2S5S", "A5": "2S"}
    one_slot = parse_position(board(rows, ["JS8S", "5S", "JS8S"], aces=8, stock="-", variant="rp"))
    assert str(safe_move(one_slot)) == "R2 A5"  # the 5: a slot for each 5 out
    one_slot.play(safe_move(one_slot))  # type: ignore[arg-type]
    assert str(safe_move(one_slot)) in ("R1 A1", "R1 A5")  # now two slots, two 8s
    lone = parse_position(board(rows, ["JS8S", "JS", "8S", "5S"], aces=8, stock="-", variant="rp"))
    assert str(safe_move(lone)) == "R4 A5"
    lone.play(safe_move(lone))  # type: ignore[arg-type]
    assert safe_move(lone, builds=False) is None


def test_a_lone_card_is_no_safe_build_where_the_stock_refills_its_pile() -> None:
    rows = WON_ROWS | {"A1": "2S5S", "A5": "2S5S"}
    game = parse_position(board(rows, ["8S", "JS8S"], aces=8, stock="JS", variant="rp"))
    assert str(safe_move(game)) in ("R2 A1", "R2 A5")  # R1's 8 would draw the stock's Jack
    game.play(safe_move(game))  # type: ignore[arg-type]
    assert safe_move(game) is None
    # in Blue Jacket an emptied pile takes what is parked on it: the lone 8 is safe
    bj = parse_position(board(rows, ["8S", "JS8SJS"], aces=8, stock="-", variant="bj"))
    assert str(safe_move(bj)) in ("R1 A1", "R1 A5")


def test_a_safe_fill_needs_a_space_for_every_base_out() -> None:
    rows = WON_ROWS | {"B1": "-", "B5": "-"}
    two = parse_position(board(rows, ["3S6S9SQS", "QS9S6S3S"], aces=8, stock="-", variant="rp"))
    assert str(safe_move(two)) in ("R2 B1", "R2 B5")
    rows = WON_ROWS | {"B1": "-", "B5": "JD"}
    rows["A3"] = "2D5D8D"
    one = parse_position(board(rows, ["3S6S9SQS", "QS9S6S3S"], aces=8, stock="-", variant="rp"))
    # one space, two Threes of spades out: which goes first is a choice
    assert safe_move(one, builds=False) is None


def test_the_endgame_goes_to_the_game_the_model_plays() -> None:
    assert endgame_variant(VARIANTS["rp"]) is VARIANTS["vr"]
    assert endgame_variant(VARIANTS["bp"]) is VARIANTS["tu"]
    assert endgame_variant(VARIANTS["bj"]) is None  # parking goes on with the stock empty
    assert endgame_variant(VARIANTS["vr"]) is None and endgame_variant(VARIANTS["tu"]) is None
    game = LATE["rp"][0]
    same = as_variant(game, VARIANTS["vr"])
    assert format_position(same).split(" ", 1)[1] == format_position(game).split(" ", 1)[1]


def test_a_space_no_base_can_reach_before_the_deal_stops_blue_jacket() -> None:
    # Blue Jacket deal 2 after R7 ACE, R3 C1, A3 ACE: a space in row A, whose only Two
    # (B5) would leave a space in row B that no Three on the board can fill; the Four
    # on a reserve pile fills only row C. No deal can come, and the stock is not empty.
    game = Game.new(2, variant_by_code("bj"))
    for text in ("R7 ACE", "R3 C1", "A3 ACE"):
        game.play(parse_move(game, text))
    assert no_deal_ahead(game) and not dead_card(game)
    assert solve(game, max_nodes=5_000, max_seconds=60).verdict is Verdict.UNWINNABLE
    # the same space where a reserve Two fills it: the deal can come
    start = Game.new(2, variant_by_code("bj"))
    assert not no_deal_ahead(start)


def test_without_a_stock_the_key_ignores_the_order_of_the_reserve_piles() -> None:
    rows = WON_ROWS | {"A1": "2S5S", "A5": "2S5S"}
    one = parse_position(board(rows, ["8SJS", "-", "8SJS"], aces=8, stock="-", variant="bj"))
    two = parse_position(board(rows, ["-", "8SJS", "8SJS"], aces=8, stock="-", variant="bj"))
    assert position_key(one) == position_key(two)
    # with cards left in the stock, the pile a deal puts each on tells them apart
    rows = WON_ROWS | {"A1": "2S5S", "A5": "2S5S", "C4": "4C7CTC"}
    one = parse_position(board(rows, ["8SJS", "-", "8SJS"], aces=8, stock="KC", variant="bj"))
    two = parse_position(board(rows, ["-", "8SJS", "8SJS"], aces=8, stock="KC", variant="bj"))
    assert position_key(one) != position_key(two)
