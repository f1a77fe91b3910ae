"""Undo that cannot surprise: ``undo N`` takes back N moves, ``undo_to`` goes back to a
move, ``redo`` plays taken-back moves again until a new move, ``restart`` starts the
deal over as the same game; all of it stored, so it survives a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.service import GameService, GameView, MoveError
from bot.store import Store

USER, GUILD = 31, 555


def pick(view: GameView) -> str:
    """A legal move of the board other than the deal (the first the service offers)."""
    assert view.moves, "no move to play"
    return view.moves[0].text


async def three_moves(service: GameService, deal: int = 1) -> list[GameView]:
    views = [await service.new_game(USER, GUILD, deal)]
    for _ in range(3):
        views.append(await service.move(USER, pick(views[-1])))
    return views


async def test_undo_n_takes_back_n_moves_and_redo_plays_them_again(service: GameService) -> None:
    views = await three_moves(service)
    assert views[-1].move_count == 3 and not views[-1].can_redo
    back = await service.undo(USER, count=2)
    assert back.move_count == 1 and back.board == views[1].board
    assert back.message == "Took back 2 moves: back at move 1"
    assert back.can_redo and back.redo_count == 2
    again = await service.redo(USER)
    assert again.move_count == 2 and again.board == views[2].board
    assert again.message is not None and again.message.startswith("Redid ")
    assert again.redo_count == 1
    last = await service.redo(USER)
    assert last.board == views[3].board and not last.can_redo and last.redo_count == 0
    assert last.undo_count == 2  # each move taken back counts, as before


async def test_too_many_moves_to_undo_or_redo_changes_nothing(service: GameService) -> None:
    views = await three_moves(service)
    with pytest.raises(MoveError) as refused:
        await service.undo(USER, count=4)
    assert str(refused.value) == "You can take back 3 moves at most, not 4: nothing was changed."
    with pytest.raises(MoveError, match="nothing to redo"):
        await service.redo(USER)
    await service.undo(USER)
    with pytest.raises(MoveError) as refused:
        await service.redo(USER, count=2)
    assert "play again 1 move at most, not 2" in str(refused.value)
    with pytest.raises(MoveError, match="1 or more"):
        await service.undo(USER, count=0)
    shown = await service.show(USER)
    assert shown.move_count == 2 and shown.board == views[2].board and shown.redo_count == 1


async def test_a_new_move_clears_what_redo_would_play(service: GameService) -> None:
    views = await three_moves(service)
    back = await service.undo(USER, count=2)
    other = [m.text for m in back.moves if m.text != pick(views[1])]
    moved = await service.move(USER, other[0] if other else pick(back))
    assert not moved.can_redo and moved.redo_count == 0
    with pytest.raises(MoveError, match="nothing to redo"):
        await service.redo(USER)


async def test_undo_and_redo_survive_a_restart(db_path: Path) -> None:
    service = GameService(await Store.open(db_path))
    views = await three_moves(service)
    await service.undo(USER, count=3)
    await service.close()
    again = GameService(await Store.open(db_path))
    try:
        shown = await again.show(USER)
        assert shown.move_count == 0 and shown.redo_count == 3
        for expected in views[1:]:
            assert (await again.redo(USER)).board == expected.board
    finally:
        await again.close()


async def test_a_stored_redo_that_no_longer_replays_is_dropped(db_path: Path) -> None:
    service = GameService(await Store.open(db_path))
    views = await three_moves(service)
    await service.undo(USER)
    row = await service.store.load_game(USER)
    assert row is not None and row.redo == pick(views[2])
    await service.close()
    with sqlite3.connect(db_path) as conn:  # ten deals: more than the stock holds
        conn.execute("UPDATE current_games SET redo_moves = ? WHERE user_id = ?",
                     (";".join(["deal"] * 10), USER))  # fmt: skip
    conn.close()
    fresh = GameService(await Store.open(db_path))
    try:
        shown = await fresh.show(USER)
        assert shown.move_count == 2 and not shown.can_redo  # the game itself is intact
    finally:
        await fresh.close()


async def test_restart_starts_the_deal_over_as_the_same_game(service: GameService) -> None:
    views = await three_moves(service, deal=2)
    again = await service.restart(USER)
    assert again.move_count == 0 and again.board == views[0].board
    assert again.message == "Restarted deal 2: back at the start"
    assert again.undo_count == 1 and again.redo_count == 3
    stats = await service.stats(USER)
    assert stats.games == 0  # nothing recorded: the same game goes on
    with pytest.raises(MoveError, match="nothing to restart"):
        await service.restart(USER)


async def test_a_restarted_scored_daily_is_still_the_one_scored_attempt(
    service: GameService,
) -> None:
    view = await service.daily(USER, GUILD)
    await service.move(USER, pick(view))
    again = await service.restart(USER)
    assert again.daily_date == view.daily_date and again.scored and again.move_count == 0
    await service.resign(USER)
    replay = await service.daily(USER, GUILD)
    assert not replay.scored  # the attempt was spent once, restart or not
