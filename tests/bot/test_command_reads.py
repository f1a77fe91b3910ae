"""What a command reads from a shared database (several processes on one store): the
game's version and the player's settings together, once, before it writes; then nothing
more before it answers (research/scale_profile.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import GameService, Settings
from bot.store import GameStore, StoreBusyError
from bot.store.open import open_store

GUILD = 555
PLAIN = Settings(auto_aces=False, winnable=False)  # no solver: the deal is the one asked for
SUITS = set("♠♥♦♣")
READS = ("game_version", "load_settings", "game_version_and_settings", "load_game")

pytestmark = pytest.mark.backends


def counted(store: GameStore, names: tuple[str, ...]) -> Counter[str]:
    """Count the calls of the store's methods ``names`` from now on."""
    calls: Counter[str] = Counter()
    for name in names:
        original: Callable[..., Awaitable[Any]] = getattr(store, name)

        async def call(*args: Any, _name: str = name, _original: Any = original) -> Any:
            calls[_name] += 1
            return await _original(*args)

        setattr(store, name, call)
    return calls


async def shared_service(db_target: str) -> GameService:
    store = await open_store(db_target)
    store.shared = True  # as a sharded bot marks it, even an SQLite file
    return GameService(store, new_player=PLAIN)


async def test_a_games_version_and_its_players_settings_are_read_together_as_stored(
    store: GameStore,
) -> None:
    assert await store.game_version_and_settings(1) == (None, None)
    service = GameService(store, new_player=PLAIN)
    view = await service.new_game(1, GUILD, 28)
    assert await store.game_version_and_settings(1) == (view.version, None)
    await service.update_settings(1, symbols=False)
    version, settings = await store.game_version_and_settings(1)
    assert version == view.version
    assert settings == await store.load_settings(1)
    assert settings is not None and not settings.symbols


async def test_a_move_on_a_shared_database_reads_the_players_settings_once(
    db_target: str,
) -> None:
    service = await shared_service(db_target)
    try:
        view = await service.new_game(1, GUILD, 28)
        calls = counted(service.store, ("load_settings", "game_version_and_settings"))
        moved = await service.move(1, "deal", view.version)
        assert moved.version == view.version + 1
        assert calls["game_version_and_settings"] == 1
        assert calls["load_settings"] <= 1  # the backend's own way of answering both
    finally:
        await service.close()


async def test_settings_changed_by_another_process_show_on_the_players_next_command(
    db_target: str,
) -> None:
    one, two = await shared_service(db_target), await shared_service(db_target)
    try:
        view = await two.new_game(1, GUILD, 28)
        assert SUITS & set(view.board)  # suit symbols, a new player's choice
        await one.update_settings(1, symbols=False)
        moved = await two.move(1, "deal", view.version)
        assert not SUITS & set(moved.board)  # letters: the other process's change, seen
    finally:
        await one.close()
        await two.close()


async def test_a_saved_move_is_answered_though_the_database_stops_answering_just_after(
    db_target: str,
) -> None:
    service = await shared_service(db_target)
    try:
        view = await service.new_game(1, GUILD, 28)
        store = service.store
        save = store.save_game
        saved = False

        async def save_then_fail(*args: Any) -> bool:
            nonlocal saved
            done = await save(*args)
            saved = True
            return done

        async def busy_after_the_save(*args: Any, _original: Any) -> Any:
            if saved:
                raise StoreBusyError("the database stopped answering")
            return await _original(*args)

        for name in READS:
            original = getattr(store, name)
            setattr(store, name, lambda *a, _o=original: busy_after_the_save(*a, _original=_o))
        setattr(store, "save_game", save_then_fail)  # noqa: B010
        moved = await service.move(1, "deal", view.version)  # saved: so said, not "failed"
        assert saved and moved.version == view.version + 1
    finally:
        await service.close()
