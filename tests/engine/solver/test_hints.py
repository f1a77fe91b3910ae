"""Hints: a solver hint continues a winning line, a heuristic hint is legal and ranked,
and a lost position says so."""

from __future__ import annotations

import pickle

import pytest
from positions import WON_ROWS, board

import engine.solver.hints as hints_module
from engine import DEAL, Game, Status
from engine.notation import format_position, parse_position
from engine.solver import Verdict, solve
from engine.solver.hints import (
    Hint,
    LookBack,
    heuristic_move,
    hint,
    known_hint,
    line_left,
    look_back,
    move_rank,
    winnable_before,
)

WINNABLE_DEAL = 16
# From tests/engine/test_solver.py: both 8♠ lie under a J♠ that needs an 8♠ first; the
# hearts (A6) and the Ace can still move, so the position has legal moves but is lost.
LOST = board(
    WON_ROWS | {"A6": "2H5H", "A1": "2S5S", "A5": "2S5S"},
    ["8SJS", "JH8H", "8SJS"],
    aces=8,
    stock="-",
)


def test_playing_hint_after_hint_wins_deal_16() -> None:
    game = Game.new(WINNABLE_DEAL)
    left: int | None = None
    while game.status is not Status.WON:
        h = hint(game, max_nodes=200_000, max_seconds=60)
        assert h.source == "solver" and h.move is not None and h.remaining is not None
        assert game.is_legal(h.move)
        if left is not None:
            assert h.remaining <= left - 1  # each hint continues a line no longer than the last
        left = h.remaining
        game.play(h.move)
    assert game.score == 104 and left == 1
    assert hint(game) == Hint(None, "none", 0)


def test_a_solver_hint_is_the_first_move_of_a_winning_line_and_changes_nothing() -> None:
    game = Game.new(WINNABLE_DEAL)
    before = format_position(game)
    h = hint(game, max_nodes=200_000, max_seconds=60)
    assert format_position(game) == before
    solution = solve(game, max_nodes=200_000, max_seconds=60)
    assert solution.verdict is Verdict.WON
    assert (h.move, h.remaining) == (solution.line[0], len(solution.line))


def test_out_of_budget_the_hint_is_the_best_legal_move_by_the_rule_of_thumb() -> None:
    game = Game.new(WINNABLE_DEAL)
    h = hint(game, max_nodes=1, max_seconds=60)
    assert h.source == "heuristic" and h.remaining is None
    assert h.move is not None and game.is_legal(h.move)
    assert h.move == heuristic_move(game)
    best = move_rank(game, h.move)
    assert all(best <= move_rank(game, m) for m in game.legal_moves())
    assert h.move != DEAL


def test_the_rule_of_thumb_plays_aces_first_and_deals_last() -> None:
    # A reserve Ace, a build from the reserve, and the deal: the Ace first.
    position = board(WON_ROWS | {"A1": "2S", "A5": "2S5S"}, ["5S", "AH"], aces=7, stock="8S8SJSJS")
    game = parse_position(position)
    assert str(heuristic_move(game)) == "R2 ACE"
    game.play(heuristic_move(game))  # type: ignore[arg-type]
    assert str(heuristic_move(game)) == "R1 A1"
    game.play(heuristic_move(game))  # type: ignore[arg-type]
    assert heuristic_move(game) == DEAL  # nothing else is left


def test_a_move_that_opens_an_unfillable_space_comes_after_a_safe_one() -> None:
    # The misplaced 5♥ in A6 can go onto the 2♥ of A2, but no 2♥ can fill its space
    # while the stock has cards; the 5♠ of R1 builds safely on A1's 2♠.
    position = board(
        WON_ROWS | {"A1": "2S", "A2": "2H", "A6": "5H"},
        ["5S", "8H"],
        aces=8,
        stock="2H5H8HJHJH8SJS",
    )
    game = parse_position(position)
    warned = next(m for m in game.legal_moves() if str(m) == "A6 A2")
    assert game.space_warning(warned) is not None
    assert move_rank(game, warned)[0] == 6
    assert str(heuristic_move(game)) == "R1 A1"


def test_a_lost_position_says_lost_with_a_legal_move_to_get_more_cards_home() -> None:
    game = parse_position(LOST)
    assert game.legal_moves()
    h = hint(game)
    assert h.source == "lost" and h.remaining is None
    assert h.move is not None and game.is_legal(h.move)


def test_a_stuck_game_is_lost_with_no_move() -> None:
    game = parse_position(
        board(WON_ROWS | {"A1": "2S5S", "A5": "2S5S"}, ["8SJS", "8SJS"], aces=8, stock="-")
    )
    assert game.status is Status.STUCK
    assert hint(game) == Hint(None, "lost", None)


def test_a_hint_survives_pickling_to_and_from_a_worker_process() -> None:
    h = hint(Game.new(WINNABLE_DEAL), max_nodes=200_000, max_seconds=60)
    assert pickle.loads(pickle.dumps(h)) == h


# ---------------------------------------------------------------------- the next hints from a line


def _no_search(*args: object, **kwargs: object) -> None:
    raise AssertionError("the solver was asked")


def test_a_solver_hint_carries_its_winning_line_as_a_game_records_its_moves() -> None:
    game = Game.new(WINNABLE_DEAL)
    h = hint(game, max_nodes=200_000, max_seconds=60)
    assert h.source == "solver" and h.move == h.line[0] and h.remaining == len(h.line)
    for move in h.line:
        game.play(move)
    assert game.status is Status.WON
    assert game.history == h.line  # canonical: the moves as the game's history holds them


def test_the_next_hints_continue_the_line_with_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new(WINNABLE_DEAL)
    first = hint(game, max_nodes=200_000, max_seconds=60)
    monkeypatch.setattr(hints_module, "solve", _no_search)
    kept = first.line
    for step, move in enumerate(first.line):
        h = known_hint(game, line_left(kept, game.history))
        assert h is not None and h.source == "solver"
        assert (h.move, h.remaining) == (move, len(first.line) - step)
        game.play(move)
    assert known_hint(game, line_left(kept, game.history)) == Hint(None, "none", 0)


def test_what_is_left_of_a_line_follows_the_game() -> None:
    line = hint(Game.new(WINNABLE_DEAL), max_nodes=200_000, max_seconds=60).line
    assert line_left(line, ()) == line
    assert line_left(line, line[:5]) == line[5:]
    # A move played before the line plays it is taken out where it stands.
    assert line_left(line, (line[0], line[3])) == (line[1], line[2], *line[4:])
    # A move the line does not have: nothing is left to trust.
    game = Game.new(WINNABLE_DEAL)
    off = next(m for m in game.legal_moves() if m not in line)
    assert line_left(line, (off,)) is None


def test_moves_taken_back_come_back_into_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new(WINNABLE_DEAL)
    line = hint(game, max_nodes=200_000, max_seconds=60).line
    monkeypatch.setattr(hints_module, "solve", _no_search)
    for move in line[:4]:
        game.play(move)
    game.undo()
    game.undo()
    h = known_hint(game, line_left(line, game.history))
    assert h is not None and (h.move, h.remaining) == (line[2], len(line) - 2)


def test_a_line_that_no_longer_wins_settles_nothing() -> None:
    game = Game.new(WINNABLE_DEAL)
    line = hint(game, max_nodes=200_000, max_seconds=60).line
    assert known_hint(game, line[:-1]) is None  # one move short of the win
    assert known_hint(game, line[1:]) is None  # the first move left out
    assert known_hint(game, ()) is None and known_hint(game, None) is None
    # the replays ran on copies
    assert format_position(game) == format_position(Game.new(WINNABLE_DEAL))


def test_a_continuation_of_a_lost_position_is_lost_with_no_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = parse_position(LOST)
    assert hint(game).source == "lost"
    monkeypatch.setattr(hints_module, "solve", _no_search)
    best = heuristic_move(game)
    assert best is not None
    assert known_hint(game, lost=True) == Hint(best, "lost")
    game.play(best)
    h = known_hint(game, lost=True)
    assert h is not None and h.source == "lost" and h.remaining is None
    assert h.move is None or game.is_legal(h.move)


def test_a_lost_game_finds_the_last_move_from_which_it_could_still_be_won() -> None:
    game = Game.new(WINNABLE_DEAL)
    line = hint(game, max_nodes=200_000, max_seconds=60).line
    for move in line[:5]:
        game.play(move)
    lost = next(m for m in game.legal_moves() if str(m) == "C3 ACE")
    game.play(lost)  # a space nothing can fill while the stock has cards
    assert hint(game).source == "lost"
    for _ in range(2):
        game.play(heuristic_move(game))  # type: ignore[arg-type]
    before = format_position(game)
    assert winnable_before(game, max_seconds=60) == 5
    assert format_position(game) == before and game.move_count == 8  # looked back on a copy
    assert winnable_before(game, max_seconds=0) is None  # no time to look
    assert look_back(game, max_seconds=0) == LookBack(None, lost_from_start=False)  # unknown
    assert look_back(game, max_seconds=60) == LookBack(5, lost_from_start=False)


def test_a_game_lost_from_its_deal_has_no_move_to_go_back_to() -> None:
    game = parse_position(LOST)
    assert winnable_before(game, max_seconds=60) is None  # no history
    game.play(heuristic_move(game))  # type: ignore[arg-type]
    assert winnable_before(game, max_seconds=60) is None  # lost at the start too
    assert look_back(game, max_seconds=60) == LookBack(None, lost_from_start=True)
