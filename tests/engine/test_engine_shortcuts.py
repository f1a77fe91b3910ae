"""The engine's shortcuts give exactly what the plain computations give.

``render`` draws from the piles with precomputed cells, ``space_warning``
answers without playing the move, ``status`` stops at a legal deal, ``score``
and the check of a move are kept per position, ``Game.new`` skips the
position check, and ``parse_pile`` looks names up. Each is compared here with
the straightforward computation through the public API, along random games
of every variant.
"""

from __future__ import annotations

import random

import pytest
from positions import random_play

from engine import DEAL, MAX_WIDTH, Game, Move, MoveKind, SpaceWarning, Status, display_width
from engine.cards import board_code, make_card, rank_of
from engine.notation import format_position, parse_pile, parse_position
from engine.render import render
from engine.variant import ROW_LETTERS, ROWS, VARIANTS

SEQUENCES = ("2-5-8-J", "3-6-9-Q", "4-7-T-K")


def plain_render(game: Game, symbols: bool) -> str:
    """The board drawn cell by cell, through the public API only: a row's letter and a
    space, then each pile's card followed by its mark (``*`` or a space)."""
    lines: list[str] = []
    deal = f"deal {game.deal_number}" if game.deal_number is not None else "position"
    named = game.variant.code != "vr"  # another game of the family is named first
    deal = f"{game.variant.name} · {deal}" if named else deal.capitalize()
    header = f"{deal} · move {game.move_count}"
    if display_width(header) <= MAX_WIDTH:
        lines.append(header)
    elif display_width(deal) <= MAX_WIDTH:
        lines += [deal, f"Move {game.move_count}"]
    else:
        lines += [game.variant.name, f"Deal {game.deal_number}", f"Move {game.move_count}"]
    # At most 9 cells fit a line after the row letter: 12 piles are drawn as two halves.
    halves = 1 if game.width <= 9 else 2
    size = game.width // halves
    for first in range(0, game.width, size):
        columns = range(first, first + size)
        lines.append(("  " + "".join(f"{c + 1:<3}" for c in columns)).rstrip())
        for r in range(ROWS):
            cells = []
            for c in columns:
                pile = game.row(r)[c]
                if not pile:
                    cells.append("-- ")
                elif len(pile) == 1 and rank_of(pile[0]) != r + 2:
                    cells.append(board_code(pile[0], symbols) + "*")
                else:
                    cells.append(board_code(pile[-1], symbols) + " ")
            lines.append((ROW_LETTERS[r] + " " + "".join(cells)).rstrip())
        reserve = [game.reserve[c] for c in columns]
        tops = (board_code(p[-1], symbols) + " " if p else " . " for p in reserve)
        lines.append(("R " + "".join(tops)).rstrip())
        lines.append(("  " + "".join(f"{len(p):>2} " for p in reserve)).rstrip())
    deals = game.deals_left
    stock = f"stock {deals} deal{'s' if deals != 1 else ''}" if deals else "stock empty"
    lines.append(f"Aces {game.aces}/{game.variant.ace_total} · {stock}")
    lines.append(f"Score {plain_score(game)}/{game.variant.card_total}")
    lines.append(" ".join(f"{ROW_LETTERS[r]}:{SEQUENCES[r]}" for r in range(ROWS)))
    lines.append(f"{board_code(make_card(7, 0), symbols)}* misplaced  -- space")
    if game.is_won():
        lines.append(f"Won! All {game.variant.card_total} cards home.")
    elif not game.legal_moves():
        lines.append("Stuck: no legal move left.")
    return "\n".join(lines)


def plain_score(game: Game) -> int:
    return game.aces + sum(
        len(pile) for r in range(ROWS) for pile in game.row(r) if pile and rank_of(pile[0]) == r + 2
    )


def plain_space_warning(game: Game, move: Move) -> SpaceWarning | None:
    """Play the move, look for a card that could fill the space it opened, take it back."""
    src = move.src
    if src is None or src.area != "row" or not game.stock or not game.variant.deal_needs_no_space:
        return None
    if game.kind(move) is MoveKind.INTERCHANGE:
        return None
    base = src.row + 2
    game.play(move)
    try:
        fillable = any(p and rank_of(p[-1]) == base for p in game.reserve) or any(
            len(p) == 1 and rank_of(p[0]) == base
            for r in range(ROWS)
            if r != src.row
            for p in game.row(r)
        )
    finally:
        game.undo()
    return None if fillable else SpaceWarning(src.row)


def games_of_every_variant(per_variant: int) -> list[Game]:
    """Positions along random games (careless and careful) of every variant."""
    rng = random.Random(20261129)
    found: list[Game] = []
    for variant in VARIANTS.values():
        for _ in range(per_variant):
            start = Game.new(rng.randint(1, 10**12), variant)
            care = rng.choice([0.0, 0.8, 0.97])
            found += [g.copy() for g in random_play(start, rng, care)]
    return found


GAMES = games_of_every_variant(12)


def test_there_are_enough_positions_of_every_kind() -> None:
    assert len(GAMES) > 1000
    statuses = {g.status for g in GAMES}
    assert Status.PLAYING in statuses and Status.STUCK in statuses
    assert any(not g.stock for g in GAMES) and any(not all(g.row(0)) for g in GAMES)


@pytest.mark.parametrize("symbols", [True, False])
def test_render_draws_what_the_plain_renderer_draws(symbols: bool) -> None:
    for game in GAMES:
        assert render(game, symbols) == plain_render(game, symbols), format_position(game)


def test_space_warning_without_playing_agrees_with_playing_the_move() -> None:
    warned = 0
    for game in GAMES:
        before = format_position(game)
        for move in game.legal_moves():
            expected = plain_space_warning(game, move)
            assert game.space_warning(move) == expected, (before, str(move))
            warned += expected is not None
        assert format_position(game) == before
    assert warned > 0  # the comparison saw warnings, not only their absence


def test_score_and_status_agree_with_the_plain_computations() -> None:
    for game in GAMES:
        fresh = parse_position(format_position(game))  # nothing kept from earlier questions
        assert fresh.score == game.score == plain_score(game)
        plain_status = (
            Status.WON if game.is_won() else Status.PLAYING if game.legal_moves() else Status.STUCK
        )
        assert fresh.status is plain_status
        assert (DEAL in game.legal_moves()) == game.is_legal(DEAL)


def test_what_is_kept_per_position_is_forgotten_by_play_and_undo() -> None:
    game = Game.new(1)
    score, moves = game.score, game.legal_moves()
    ace = Move(game.legal_moves()[0].src, game.legal_moves()[0].dst)
    assert game.kind(ace) is MoveKind.ACE
    game.play(ace)
    assert game.score == score + 1 == plain_score(game)
    with pytest.raises(ValueError, match=r"R\d is empty"):
        game.kind(ace)  # the same move object, no longer legal: checked again
    game.undo()
    assert game.score == score and game.legal_moves() == moves
    assert game.kind(ace) is MoveKind.ACE


def test_the_legal_moves_keep_their_documented_order() -> None:
    order = [MoveKind.ACE, MoveKind.BUILD, MoveKind.INTERCHANGE, MoveKind.FILL]
    order += [MoveKind.RESERVE, MoveKind.DEAL]
    for game in GAMES:
        kinds = [order.index(game.kind(m)) for m in game.legal_moves()]
        assert kinds == sorted(kinds), format_position(game)
        for move in game.legal_moves():
            if game.kind(move) is MoveKind.INTERCHANGE:
                assert move.src is not None and move.dst is not None
                assert move.src.row < move.dst.row


def test_an_interchange_played_from_the_lower_row_is_kept_as_listed() -> None:
    swaps = [(g, m) for g in GAMES for m in g.legal_moves() if g.kind(m) is MoveKind.INTERCHANGE]
    assert swaps
    for game, move in swaps[:50]:
        game = game.copy()
        assert move.src is not None and move.dst is not None
        game.play(Move(move.dst, move.src))
        assert game.history[-1] == move


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_a_new_deal_is_a_possible_position_of_every_variant(code: str) -> None:
    variant = VARIANTS[code]
    rng = random.Random(code)
    for deal in [1, 2, 10**18, *(rng.randint(1, 2**63 - 1) for _ in range(200))]:
        game = Game.new(deal, variant)
        again = parse_position(format_position(game))  # checked as any position is
        assert format_position(again) == format_position(game)
        assert game.score == plain_score(game)


def test_parse_pile_reads_every_board_name_and_the_other_spellings() -> None:
    game = Game.new(7)
    for r in range(ROWS):
        for c in range(game.width):
            pile = parse_pile(game, f" {ROW_LETTERS[r]}{c + 1} ")
            assert pile is not None and (pile.area, pile.row, pile.col) == ("row", r, c)
            assert parse_pile(game, f"{ROW_LETTERS[r].lower()}0{c + 1}") == pile
    assert parse_pile(game, "R8") == parse_pile(game, "r08")
    assert parse_pile(game, "ACE") == parse_pile(game, "@")
    for bad in ("a9", "r9", "d1", "a0", "r", "", "a100"):
        assert parse_pile(game, bad) is None, bad
