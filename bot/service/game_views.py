"""A current game as the front ends show it (``GameView``), and its moves to offer."""

from __future__ import annotations

from datetime import datetime

from engine import DEAL, Game, Move, render
from engine.daily import next_daily_start, utc_date
from engine.notation import describe_move, format_position

from .contract import GameView, MoveChoice, Settings
from .entry import GameInMemory
from .practice import practised
from .wording import share_text


def move_choice(game: Game, move: Move, symbols: bool) -> MoveChoice:
    """``move`` of ``game`` as a front end offers it: its notation, its words and the
    warning it would bring."""
    warning = game.space_warning(move)
    return MoveChoice(
        text=str(move),
        label=describe_move(game, move, symbols),
        note=None if warning is None else warning.short,
    )


def game_view(
    user_id: int,
    entry: GameInMemory,
    settings: Settings,
    now: datetime,
    par: int | None,
    message: str | None,
    warning: str | None = None,
    rating: str | None = None,
) -> GameView:
    """``entry``'s game for ``user_id`` at ``now``; ``par`` and ``rating``, its daily's, if
    known."""
    game = entry.game
    open_ = not entry.finished
    assert game.deal_number is not None
    day = entry.daily_date
    today = utc_date(now)
    return GameView(
        user_id=user_id,
        guild_id=entry.guild_id,
        deal_number=game.deal_number,
        board=render(game, settings.symbols),
        status=entry.state,
        score=game.score,
        move_count=game.move_count,
        undo_count=entry.undo_count,
        deals_left=game.deals_left,
        version=entry.version,
        can_deal=open_ and game.is_legal(DEAL),
        can_undo=open_ and entry.undo_point() is not None,
        can_auto=open_ and bool(game.safe_moves()),
        message=message,
        warning=warning,
        finished=entry.finished,
        daily_date=day,
        scored=entry.scored,
        share_text=_shared(entry, rating),
        next_daily_at=None if day is None else next_daily_start(now),
        later_daily=today if day is not None and today > day else None,
        assisted=entry.assisted,
        par=par,
        moves=tuple(
            move_choice(game, move, settings.symbols)
            for move in (game.legal_moves() if open_ else ())
            if not move.is_deal
        ),
        elapsed_s=entry.played_at(now) // 1000 if open_ else None,
        started_at=entry.started_at if open_ else None,
        can_redo=open_ and bool(entry.undone),
        redo_count=entry.redoable if open_ else 0,
        undoable=entry.undoable if open_ else 0,
        rating=rating if day is not None else None,
        practice=practised(entry),
        position=format_position(game),
        picture=settings.picture,
        variant=entry.variant,
    )


def _shared(entry: GameInMemory, rating: str | None = None) -> str | None:
    """After a scored daily ends: the spoiler-free line to post (its rating, if known)."""
    day = entry.daily_date
    if day is None or not entry.scored or not entry.finished:
        return None
    game = entry.game
    return share_text(
        day,
        won=entry.status == "won",
        score=game.score,
        moves=game.move_count,
        card_total=game.variant.card_total,
        assisted=entry.assisted,
        game_name=game.variant.name,
        rating=rating,
    )


def matching_choices(game: Game, typed: str, symbols: bool, limit: int) -> list[MoveChoice]:
    """The legal moves of ``game`` (the engine's order: Aces, builds, interchanges, fills,
    the deal) whose text or words contain ``typed``, at most ``limit`` of them."""
    wanted = typed.strip().casefold()
    compact = "".join(wanted.split())
    choices: list[MoveChoice] = []
    for move in game.legal_moves():
        text = str(move)
        # Matched in both spellings of the suits: "5h" finds 5♥ as well as 5H.
        said = (describe_move(game, move, suits) for suits in (True, False))
        words = " ".join((text, *said))
        if wanted and not (
            wanted in words.casefold() or compact in "".join(text.casefold().split())
        ):
            continue
        choices.append(move_choice(game, move, symbols))
        if len(choices) >= limit:
            break
    return choices
