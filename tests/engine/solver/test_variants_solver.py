"""The solver in every game of the family: a scripted win in each, from the solver's own
line; the general search's verdicts (won, proven lost, unknown) on the games the model
does not play; hints along a game of each; ``reel solve --variant``."""

from __future__ import annotations

import argparse
import csv
import io
import random
from pathlib import Path

import pytest
from positions import WON_ROWS, board, random_play

from engine import DEAL, Game, Status, format_line, parse_move, play_line
from engine.notation import parse_position
from engine.solver import Verdict, solve
from engine.solver.cli import main_solve, main_study
from engine.solver.general import position_key, safe_move, solve_general
from engine.solver.hints import heuristic_move, hint, known_hint, line_left, look_back, move_rank
from engine.solver.model import models
from engine.variant import VARIANTS, variant_by_code

# For each game, a deal the solver wins within a few hundred positions (found by
# running it), and its winning line as the engine writes lines (``format_line``).
WINS: dict[str, tuple[int, str]] = {
    "vr": (
        3,
        """
    R7 ACE;B8 C2;B4 ACE;R2 B4;B5 ACE;R8 B5;deal;R1 B4;R8 B4;R1 B4;A8 ACE;R5 A8;R3 A8;
    R3 A8;deal;R6 ACE;R3 B8;R4 C2;C6 C2;R1 C2;R7 C6;deal;R2 A1;R1 A1;R6 B8;A4 A8;R3 A4;
    R6 A4;A5 C6;R7 A5;deal;R5 ACE;C5 A4;R2 C5;B2 A4;R1 B2;R3 B2;B3 B2;R4 B3;R5 B2;deal;
    R2 B3;R6 ACE;R1 B1;C7 A5;R3 C7;A2 A5;R5 A2;R5 B3;R5 B8;deal;R6 B5;R1 C1;R3 A1;B7 C1;
    R7 B7;C3 C7;R7 C7;R2 C7;R2 B5;R4 B5;R2 C1;R8 C3;deal;R1 C5;R2 C3;R8 A5;R6 B1;R7 B1;
    C8 B7;A7 C8;R4 A7;R8 A7;deal;R2 C3;R7 B7;R7 C3;R8 ACE;deal;R1 C5;R3 C8;R7 A2;R8 C6;
    R5 C5;A3 B7;A6 C8;R2 A3;R4 A6;B6 A3;C4 A2;R3 C4;R1 C4;R3 C6;R4 A2;R4 A3;R8 C4;R7 C4;
    R8 A7;R6 A7;R8 B6;R4 B6;R4 A6;R4 B3;R6 B6;R5 B6;R5 A6;R5 A3;R6 A6;R6 C8
""",
    ),
    "rp": (
        24,
        """
    A8 ACE;R4 A3;R7 C3;R3 A8;A5 C3;R4 C3;A7 C8;B3 A1;R3 B3;B7 A1;R5 B7;C1 C8;R1 C1;
    R1 C8;R1 A1;A2 C1;R8 C1;R8 A3;C2 A3;R8 C2;B4 C2;R8 B4;R8 C2;B5 C2;C4 B3;B2 B3;R3 B3;
    R3 ACE;C6 B7;A4 B7;B1 B7;C5 A2;R4 A2;C7 A4;deal;R6 ACE;R7 ACE;R2 C4;R3 B1;deal;
    R3 ACE;R1 C5;R8 B2;R8 B2;B6 B2;B8 C5;deal;R2 B1;R6 B1;R1 A5;R2 A5;R3 C6;R8 B5;deal;
    R5 B2;R1 B4;R5 B4;R5 B1;R2 B5;R8 B4;R6 A7;deal;R3 ACE;R6 ACE;R4 C4;R7 C1;R1 A2;
    R8 B6;A6 A2;R3 A6;R2 A6;deal;R6 ACE;R4 C5;R7 C5;R5 A5;R1 B5;R2 A4;R7 A4;R7 A4;R3 C7;
    R3 A5;deal;R4 A8;R6 B8;R1 B8;R1 A8;R7 A8;R1 C6;R4 C6;R4 B5;R5 C6;R4 C4;R6 C4;R7 A7;
    R8 A7;R8 C7;R5 C7;R3 C7;R5 A7;R3 B8;R5 A6;R4 A6;R4 B6;R6 B6;R2 B6;R2 B8
""",
    ),
    "tu": (
        1,
        """
    B12 C11;R1 C11;R9 C11;A6 A1;R3 A6;A3 A1;R10 A3;A7 ACE;R11 A7;B6 ACE;R8 B6;C4 C11;
    R5 C4;R6 C4;deal;R10 ACE;R4 B5;R5 B5;R7 A1;A4 C4;R9 A4;A9 C1;R12 A9;R2 C1;R4 C1;
    deal;R4 ACE;R8 B1;R10 A3;R12 A4;B2 C4;R7 B2;deal;R6 A7;R3 A4;R2 A4;A10 ACE;R1 A10;
    R5 A10;B7 A3;R8 B7;C6 B8;A2 C6;R7 A2;R2 B8;R2 B2;R4 B2;C5 B2;A5 C5;R12 A5;deal;
    R1 C6;R2 A3;R10 A5;R1 A5;R3 A5;B10 B6;R5 B10;C3 C6;R4 C3;deal;R2 ACE;R6 ACE;R11 ACE;
    R5 B5;R7 A2;R8 C3;deal;R1 A7;R11 B7;R2 A2;R3 A10;R4 B1;R4 A7;R8 C6;A8 C3;R12 A8;
    B11 B7;R9 B11;B9 B11;R9 B9;R9 B9;C2 A8;R3 C2;R3 C3;R3 A2;C9 B9;R11 C9;deal;R1 A6;
    R6 ACE;R8 ACE;R2 B8;R5 B6;R9 A6;A11 B11;R11 A11;deal;R4 ACE;R6 A9;R9 B10;R10 A11;
    R1 A8;R3 C5;R12 B7;C7 B10;R8 C7;R1 C7;R9 C7;R1 B9;R9 B11;C8 A6;A12 C8;R7 A12;R7 C5;
    R12 C8;R8 C8;B3 C8;R3 B3;R6 B3;R4 B3;R11 B3;R11 A8;C10 A12;R8 A12;R12 C10;R2 C10;
    R12 B1;R12 C7;deal;R2 ACE;R5 A9;R6 C2;R7 B12;R8 A11;R10 C10;R1 C10;R10 B12;R10 A12;
    R10 B10;R12 C9;R7 C2;R7 B6;R7 A10;B4 C9;R6 C2;R11 B4;R3 B4;R4 B4;R11 A9;R11 A11;
    C12 C5;R9 C12;R5 C12;R5 C9;R5 B12;R6 C12;R6 B4;R10 C12
""",
    ),
    "bj": (
        54,
        """
    C6 ACE;R8 C6;deal;R2 C1;R4 B1;R6 B8;R3 B8;R2 B1;B2 ACE;R1 B2;deal;R4 ACE;R3 B1;
    R6 B8;A5 C3;R5 A5;A2 C3;R8 A2;deal;R4 C3;R6 A2;B3 C6;R2 B3;B5 A2;R8 B5;C4 B3;R1 C4;
    C5 B3;R4 B3;R3 C5;R7 C5;R3 B5;deal;B7 A1;R6 A1;R2 B7;A3 A1;R7 A3;C7 C5;R8 C7;deal;
    R4 ACE;R2 C1;R3 C4;R8 A2;B6 C1;R7 B6;deal;R4 ACE;R2 B5;R3 B2;R8 C4;deal;R3 ACE;
    R1 A5;R7 C4;deal;R2 ACE;R6 A3;A8 B2;R3 A8;C2 A8;R3 A8;R5 C2;deal;R7 ACE;R5 B7;R6 C6;
    R4 B6;R8 C7;R3 A8;A4 R3;R2 A4;R2 B6;R4 B6;C8 A4;R2 A4;R4 A4;R8 C8;R5 R2;R5 C2;R7 C2;
    R7 C8;R8 C2;R8 B2;B4 C8;R6 B4;R6 A5;R2 A5;A7 C8;R1 A7;R1 R2;R1 R8;R1 A7;R1 A7;R7 A7;
    R1 A3;R6 A3;R7 C5;R6 B7;R7 C7;R1 C7;R5 R1;R5 B7;R5 B4;R5 C6;R4 B4;R5 B5;A6 B4;R1 A6;
    R8 A6;R3 A6;R2 A6
""",
    ),
    "bp": (
        1,
        """
    A7 ACE;A10 ACE;B6 ACE;B1 C10;R6 C10;R1 A7;R3 A10;R8 B6;R8 B5;R8 B5;A4 C10;R10 A4;
    A6 A7;R11 A6;A3 A7;R10 A7;R10 A3;R10 ACE;B2 C10;B10 B1;C5 B8;R5 C5;A12 B2;R5 A12;
    deal;R3 ACE;R1 B8;R7 B2;R9 A4;R11 A3;R6 B10;B7 A4;R10 A4;deal;R2 A3;R5 A6;R1 A3;
    R7 B7;deal;deal;R1 ACE;R5 ACE;R10 ACE;R4 B5;R12 A6;R3 A6;deal;R12 A10;R3 B1;R10 B7;
    B11 B7;R8 B11;B9 B11;R8 B9;R8 B9;A11 B9;R11 A11;C1 A11;R11 C1;R11 B1;C4 B7;R3 C4;
    C8 B11;R10 C8;C12 C8;R6 C8;R4 C8;A1 C12;R12 C12;R8 C12;R7 C12;R7 C4;R8 B9;R8 B11;
    R8 B8;R11 A1;R11 A11;R9 A11;A8 C4;C9 A1;C11 C4;A2 C9;R12 C9;R12 A2;R6 A2;R2 A2;
    R2 C11;C2 C9;R12 C9;R12 B2;R12 ACE;R6 B2;R6 A8;A5 C2;deal;R1 ACE;R9 ACE;R5 C1;
    R2 A10;R7 C5;R10 C2;R6 A1;R2 A1;R7 C1;R11 A12;R7 A2;R4 A5;B3 C1;R4 B3;R4 A5;R1 A5;
    R1 A10;deal;R6 ACE;R9 A12;R2 A8;R10 C11;R12 A8;R1 B3;R11 B6;B4 C11;C3 C11;C6 B3;
    R9 B3;C7 A12;B12 C3;deal;R4 C3;R2 C5;R5 C5;R3 B4;R7 B4;R8 B4;R6 B4;R1 C6;R8 C6;
    R7 C7;R8 B12;R5 B12;R11 B12;R3 B12;R3 B6;A9 C7;R1 C7;R12 A9;R9 A9;R12 C2;R9 C2;
    R9 C3;R5 C3;R5 C6;R2 C6;R2 B10;R3 B10;R4 B10;R4 B6;R3 A5;R4 C7;R5 A9;R10 A9;R10 A8
""",
    ),
}
WIN_BUDGET = 3_000  # positions: every deal of WINS is won well within it
GENERAL = [code for code, v in VARIANTS.items() if not models(v)]


def scripted(code: str) -> tuple[Game, str]:
    """The deal of ``code``'s scripted win, and its line on one line of text."""
    deal, text = WINS[code]
    return Game.new(deal, variant_by_code(code)), "".join(t.strip() for t in text.splitlines())


def test_every_game_of_the_family_has_a_scripted_win() -> None:
    assert sorted(WINS) == sorted(VARIANTS)
    assert sorted(GENERAL) == ["bj", "bp", "rp"]


@pytest.mark.parametrize("code", sorted(WINS))
def test_the_scripted_line_wins_its_deal_through_the_engine(code: str) -> None:
    game, text = scripted(code)
    play_line(game, text)
    assert game.status is Status.WON
    assert game.score == game.variant.card_total


@pytest.mark.parametrize("code", sorted(WINS))
def test_the_solver_wins_the_scripted_deal_with_a_line_that_replays(code: str) -> None:
    game, _ = scripted(code)
    solution = solve(game, max_nodes=WIN_BUDGET, max_seconds=600)
    assert solution.verdict is Verdict.WON
    assert game.move_count == 0  # left unchanged
    replay = game.copy()
    play_line(replay, format_line(solution.line))
    assert replay.is_won()


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_a_budget_of_one_position_answers_unknown(code: str) -> None:
    game, _ = scripted(code)
    solution = solve(game, max_nodes=1, max_seconds=600)
    assert solution.verdict is Verdict.UNKNOWN
    assert solution.stopped_by == "nodes" and solution.nodes <= 1


# Lost positions of the games the general search plays, each with legal moves left.
# Royal Parade: both 8 of spades the spade piles of row A need lie under a Jack of
# spades that needs one of them first; the hearts of A6 can still go home.
RP_LOST = board(
    WON_ROWS | {"A6": "2H5H", "A1": "2S5S", "A5": "2S5S"},
    ["8SJS", "JH8H", "8SJS"],
    aces=8,
    stock="-",
    variant="rp",
)
# Big Parade, 12 piles a row and three packs: the same, the three spade piles of row A
# each waiting for an 8 of spades under a Jack of spades.
WON_12 = {
    f"{letter}{col}": "".join(rank + "SHDC"[(col - 1) % 4] for rank in ranks)
    for letter, ranks in zip("ABC", ("258J", "369Q", "47TK"), strict=True)
    for col in range(1, 13)
}
BP_LOST = board(
    WON_12 | {"A6": "2H5H", "A1": "2S5S", "A5": "2S5S", "A9": "2S5S"},
    ["8SJS", "JH8H", "8SJS", "8SJS"],
    aces=12,
    stock="-",
    variant="bp",
)
# Blue Jacket, where a card can be parked on an empty reserve pile: seven piles each hold
# both copies of an 8 (or a 9) under both copies of the card that needs it, and only
# one pile is empty: one card parked, the pile under it still waits for a second.
BJ_STACKS = ["8S8SJSJS", "8H8HJHJH", "8D8DJDJD", "8C8CJCJC", "9S9SQSQS", "9H9HQHQH", "9D9DQDQD"]
BJ_LOST = board(
    WON_ROWS
    | {f"A{col}": "2" + "SHDC"[(col - 1) % 4] + "5" + "SHDC"[(col - 1) % 4] for col in range(1, 9)}
    | {
        f"B{col}": "3" + "SHDC"[(col - 1) % 4] + "6" + "SHDC"[(col - 1) % 4]
        for col in (1, 2, 3, 5, 6, 7)
    },
    BJ_STACKS,
    aces=8,
    stock="-",
    variant="bj",
)
LOST = {"rp": RP_LOST, "bp": BP_LOST, "bj": BJ_LOST}
# Three Up, which the model plays (three packs, the bases in place, no refill of the
# reserve): Big Parade's position in Three Up's rules, every 8 of spades under a Jack
# of spades that needs one of them first.
TU_LOST = BP_LOST.replace("bp ", "tu ", 1)


@pytest.mark.parametrize("code", GENERAL)
def test_the_general_search_proves_a_lost_position_lost(code: str) -> None:
    game = parse_position(LOST[code])
    assert game.variant.code == code
    assert game.legal_moves() and not game.is_won()
    solution = solve(game, max_nodes=100_000, max_seconds=600)
    assert solution.verdict is Verdict.UNWINNABLE
    assert 1 < solution.nodes < 100_000  # a search, not a stuck root


def test_the_model_proves_a_lost_three_up_position_lost() -> None:
    game = parse_position(TU_LOST)
    assert game.variant.code == "tu"
    assert game.legal_moves() and not game.is_won()
    solution = solve(game, max_nodes=100_000, max_seconds=600)
    assert solution.verdict is Verdict.UNWINNABLE
    freed = parse_position(TU_LOST.replace("8SJS", "JS8S", 1))  # one 8 of spades on top
    assert solve(freed, max_nodes=100_000, max_seconds=600).verdict is not Verdict.UNWINNABLE


STUDIES = Path(__file__).resolve().parents[3] / "research" / "study"


@pytest.mark.parametrize("code", ["rp", "tu", "bj", "bp"])
def test_the_studys_winning_lines_replay_through_the_engine(code: str) -> None:
    # The family's study (docs/winnability.md) keeps each won deal's line; a sample of
    # them, drawn afresh from every row, is played move by move through the engine's
    # rules and must win (research/study/check_lines.py replays them all).
    with (STUDIES / f"study-{code}-10s.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= 500 and [int(r["deal"]) for r in rows] == list(range(1, len(rows) + 1))
    won = [r for r in rows if r["verdict"] == "won"]
    assert all(not r["line"] for r in rows if r["verdict"] != "won")
    for row in random.Random(code).sample(won, 25):
        game = Game.new(int(row["deal"]), variant_by_code(code))
        moves = row["line"].split(", ")
        assert len(moves) == int(row["moves"])
        for text in moves:
            game.play(parse_move(game, text))
        assert game.is_won(), f"{code} deal {row['deal']}"


@pytest.mark.parametrize("code", ["rp", "tu", "bj", "bp"])
def test_a_study_win_is_found_again_within_its_node_count_on_any_machine(code: str) -> None:
    # docs/winnability.md: a deal won near the end of the study's 10 s may come out
    # undecided at 10 s on a slower machine; its node count (the CSV's) as the limit
    # finds the same line anywhere, and one position fewer does not.
    with (STUDIES / f"study-{code}-10s.csv").open(newline="") as f:
        row = next(
            r
            for r in csv.DictReader(f)
            if r["verdict"] == "won" and 1000 <= int(r["nodes"]) <= 6000
        )
    deal, nodes = int(row["deal"]), int(row["nodes"])
    found = solve(Game.new(deal, variant_by_code(code)), max_nodes=nodes, max_seconds=600)
    assert found.verdict is Verdict.WON and found.nodes == nodes
    assert ", ".join(str(move) for move in found.line) == row["line"]
    short = solve(Game.new(deal, variant_by_code(code)), max_nodes=nodes - 1, max_seconds=600)
    assert short.verdict is Verdict.UNKNOWN and short.stopped_by == "nodes"


def test_a_blue_jacket_position_is_won_by_parking_a_card_on_an_empty_reserve_pile() -> None:
    # RP_LOST's cards in Blue Jacket: a Jack of spades parked frees the 8 under it.
    game = parse_position(RP_LOST.replace("rp ", "bj ", 1))
    solution = solve(game, max_nodes=100_000, max_seconds=600)
    assert solution.verdict is Verdict.WON
    assert any(m.src and m.dst and m.dst.area == "reserve" for m in solution.line)


def test_a_lone_reserve_ace_is_not_safe_where_the_stock_refills_its_pile() -> None:
    # Royal Parade: the Ace alone on R1 draws the next stock card when it goes
    game = parse_position(board(WON_ROWS | {"A1": "2S"}, ["AS", "5S8S"], aces=7, variant="rp"))
    assert game.stock_count > 0 and safe_move(game) is None
    # Virginia Reel's deal refills nothing: there it is safe
    game = parse_position(board(WON_ROWS | {"A1": "2S"}, ["AS", "5S8S"], aces=7))
    assert str(safe_move(game)) == "R1 ACE"


def test_the_key_ignores_the_order_of_the_piles_of_a_row() -> None:
    rows = WON_ROWS | {"A1": "2S5S", "A2": "2H"}
    swapped = WON_ROWS | {"A1": "2H", "A2": "2S5S"}
    one = parse_position(board(rows, ["8S"], aces=8, variant="rp"))
    two = parse_position(board(swapped, ["8S"], aces=8, variant="rp"))
    assert position_key(one) == position_key(two)
    three = parse_position(board(rows, ["", "8S"], aces=8, variant="rp"))
    assert position_key(one) != position_key(three)


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_hints_along_a_game_of_each_variant_are_legal_moves(code: str) -> None:
    game = Game.new(2, variant_by_code(code))
    for _ in range(25):
        if game.status is not Status.PLAYING:
            break
        h = hint(game, max_nodes=200, max_seconds=600)
        assert h.source in ("solver", "heuristic", "lost")
        assert h.move is not None and game.is_legal(h.move)
        game.play(h.move)
    assert game.move_count > 0


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_following_the_solvers_hints_wins_the_scripted_deal(code: str) -> None:
    game, _ = scripted(code)
    first = hint(game, max_nodes=WIN_BUDGET, max_seconds=600)
    assert first.source == "solver" and first.move is not None
    kept = first.line
    h = first
    while not game.is_won():
        assert h.move is not None and game.is_legal(h.move)
        game.play(h.move)
        left = line_left(kept, game.history)
        found = known_hint(game, left)
        assert found is not None
        h = found
    assert h.source == "none"


@pytest.mark.parametrize("code", GENERAL)
def test_a_hint_on_the_general_search_continues_the_winning_line(code: str) -> None:
    game, text = scripted(code)
    play_line(game, ";".join(text.split(";")[:20]))
    h = hint(game, max_nodes=WIN_BUDGET, max_seconds=600)
    assert h.source == "solver" and h.remaining is not None
    assert h.move is not None and game.is_legal(h.move)


@pytest.mark.parametrize("code", GENERAL)
def test_looking_back_finds_the_move_before_in_every_game(code: str) -> None:
    game, text = scripted(code)
    play_line(game, ";".join(text.split(";")[:10]))
    found = look_back(game, max_nodes=WIN_BUDGET, max_seconds=600)
    assert found.winnable_at == 9


def test_reel_solve_takes_the_variant() -> None:
    deal, _ = WINS["bp"]
    out = io.StringIO()
    args = argparse.Namespace(deal=deal, budget=600.0, max_nodes=WIN_BUDGET, variant="bp")
    assert main_solve(args, out) == 0
    head, *lines = out.getvalue().splitlines()
    assert head.startswith(f"Big Parade deal {deal}: won in ")
    moves = [part.split(". ", 1)[1] for line in lines for part in line.split("  ")]
    game = Game.new(deal, variant_by_code("bp"))
    play_line(game, ";".join(moves))
    assert game.is_won()


def test_the_rule_of_thumb_parks_a_card_after_the_moves_home_and_before_the_deal() -> None:
    # Blue Jacket: the 8 of spades on top of R1 builds on A1, or parks on the empty R2,
    # which uncovers the Jack of spades under it; the other 8 and Jack are in the stock
    rows = WON_ROWS | {"A1": "2S5S", "A5": "2S5S"}
    game = parse_position(board(rows, ["JS8S"], aces=8, variant="bj"))
    moves = {str(m): m for m in game.legal_moves()}
    assert {"R1 A1", "R1 R2", "deal"} <= set(moves)
    assert str(heuristic_move(game)) == "R1 A1"
    assert move_rank(game, moves["R1 R2"]) == (7, 0)
    assert move_rank(game, moves["R1 R2"]) < move_rank(game, moves["deal"])


def test_the_rule_of_thumb_deals_before_moving_a_lone_reserve_card_to_another_pile() -> None:
    # Blue Jacket: the Jack of spades alone on R1 could only go from pile to pile
    game = parse_position(board(WON_ROWS | {"A1": "2S5S"}, ["JS"], aces=8, variant="bj"))
    assert "R1 R2" in {str(m) for m in game.legal_moves()}
    assert heuristic_move(game) == DEAL


def test_the_general_search_agrees_with_the_model_on_virginia_reel_positions() -> None:
    # The general search plays any game; on Virginia Reel's late positions (random
    # play) its verdicts, where it reaches one, are the model's search's.
    rng = random.Random(35)
    decided = 0
    for deal in range(1, 13):
        for game in [g.copy() for g in random_play(Game.new(deal), rng, 0.95)][-12::4]:
            general = solve_general(game, max_nodes=2_000, max_seconds=600)
            if general.verdict is not Verdict.UNKNOWN:
                decided += 1
                assert general.verdict is solve(game, max_seconds=600).verdict
    assert decided >= 15


def test_the_general_search_never_calls_a_position_on_a_winning_line_lost() -> None:
    game, text = scripted("vr")
    moves = text.split(";")
    play_line(game, ";".join(moves[: len(moves) - 40]))
    won = 0
    for move in moves[len(moves) - 40 :]:
        solution = solve_general(game, max_nodes=2_000, max_seconds=600)
        assert solution.verdict is not Verdict.UNWINNABLE
        won += solution.verdict is Verdict.WON
        play_line(game, move)
    assert won >= 20


def test_reel_study_takes_the_variant(tmp_path: Path) -> None:
    deal, _ = WINS["bp"]
    path = tmp_path / "study.csv"
    args = argparse.Namespace(
        deals=range(deal, deal + 1),
        budget=600.0,
        max_nodes=WIN_BUDGET,
        jobs=1,
        csv=path,
        clock="cpu",
        resume=False,
        quiet=True,
        variant="bp",
    )
    out = io.StringIO()
    assert main_study(args, out) == 0
    assert out.getvalue().startswith(f"Big Parade deal {deal}: 1 deal searched")
    assert "won 1, unwinnable 0, unknown 0" in out.getvalue()
    with path.open(newline="") as f:
        [row] = list(csv.DictReader(f))
    assert (row["deal"], row["verdict"]) == (str(deal), "won")
    game = Game.new(deal, variant_by_code("bp"))
    assert int(row["moves"]) == len(solve(game, max_nodes=WIN_BUDGET, max_seconds=600).line)
    # the row's line, in the engine's notation, wins the deal when replayed
    moves = row["line"].split(", ")
    assert len(moves) == int(row["moves"])
    for text in moves:
        game.play(parse_move(game, text))
    assert game.is_won()
