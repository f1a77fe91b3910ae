"""The stored move list, kept item by item as moves are played and undone.

The service keeps each cached game's move list as a list of items (one per
move) instead of encoding the whole history at every save. Along random
sessions of every kind of command, the kept list must equal the encoding of
the game's history, be what is on disk, and replay to the same position.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import (
    GameService,
    MoveError,
    StaleVersionError,
    encode_moves,
    move_tokens,
    replay,
)
from bot.service.entry import GameInMemory
from bot.store import Store
from engine import DEAL, Game, Move, MoveKind, Status
from engine.notation import format_position


def cached(service: GameService, user_id: int) -> GameInMemory:
    """The user's game in the service's memory."""
    entry = service.games.get(user_id)
    assert entry is not None
    return entry


async def check_kept_list(service: GameService, store: Store, user_id: int) -> None:
    entry = cached(service, user_id)
    game = entry.game
    assert entry.tokens == move_tokens(game.history, entry.chained)
    assert entry.moves_text == encode_moves(game.history, entry.chained)
    row = await store.load_game(user_id)
    assert row is not None and row.moves == entry.moves_text and row.version == entry.version
    replayed, chained = replay(row.variant, row.deal_number, row.moves)
    assert format_position(replayed) == format_position(game) and chained == entry.chained


def a_command_text(game: Game, rng: random.Random) -> str:
    """A legal move's text; an interchange is sometimes named from its lower row."""
    move = rng.choice(game.legal_moves())
    swap = game.kind(move) is MoveKind.INTERCHANGE and rng.random() < 0.5
    if swap and move.src is not None and move.dst is not None:
        move = Move(move.dst, move.src)
    return str(move)


@pytest.mark.parametrize("auto_aces", [False, True])
async def test_the_kept_move_list_is_the_history_encoded_and_on_disk(
    service: GameService, store: Store, db_path: Path, auto_aces: bool
) -> None:
    rng = random.Random(29 + auto_aces)
    user = 5
    await service.update_settings(user, auto_aces=auto_aces)
    kinds: set[str] = set()
    for _ in range(12):
        view = await service.new_game(user, None, rng.randint(1, 10**9))
        await check_kept_list(service, store, user)
        while not view.finished and view.status is Status.PLAYING:
            game = cached(service, user).game
            roll = rng.random()
            if roll < 0.15 and view.can_undo:
                view = await service.undo(user, view.version)
                kinds.add("undo")
            elif roll < 0.25 and view.can_auto:
                view = await service.auto(user, view.version)
                kinds.add("auto")
            elif roll < 0.35 and view.can_deal:
                view = await service.deal(user, view.version)
                kinds.add("deal")
            else:
                text = a_command_text(game, rng)
                view = await service.move(user, text, view.version)
                kinds.add("move")
            await check_kept_list(service, store, user)
    # With automatic Aces on, no Ace is ever left for ``auto``.
    assert kinds == {"undo", "deal", "move"} | (set() if auto_aces else {"auto"})

    # A restarted service rebuilds the same list from the stored row.
    before = cached(service, user)
    again = GameService(await Store.open(db_path))
    try:
        view = await again.show(user)
        entry = cached(again, user)
        assert entry.tokens == before.tokens and view.version == before.version
    finally:
        await again.close()


async def test_a_refused_command_leaves_the_kept_list_as_on_disk(
    service: GameService, store: Store
) -> None:
    user = 6
    view = await service.new_game(user, None, 1)
    view = await service.move(user, "R6 ACE", view.version)
    await check_kept_list(service, store, user)
    with pytest.raises(MoveError):
        await service.move(user, "R1 ACE", view.version)
    with pytest.raises(StaleVersionError):
        await service.deal(user, view.version - 1)
    await check_kept_list(service, store, user)
    assert cached(service, user).tokens == ["R6 ACE"]
    view = await service.deal(user, view.version)
    assert cached(service, user).tokens == ["R6 ACE", str(DEAL)]
    await service.undo(user, view.version)
    assert cached(service, user).tokens == ["R6 ACE"]
    await check_kept_list(service, store, user)
