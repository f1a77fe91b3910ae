"""What a command reads from a shared database (several processes on one store): the
game's version and the player's settings together, once, before it writes; then nothing
more before it answers (research/scale_profile.md)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.service import GameService, Settings, StaleVersionError
from bot.service.outside import LOOK_PATIENCE
from bot.store import GameStart, GameStore, GameUpdate, SettingsCheck, StoreBusyError, UserSettings
from bot.store.open import open_store

GUILD = 555
T0 = datetime(2026, 12, 6, 7, 0, tzinfo=UTC)
PLAIN = Settings(auto_aces=False, winnable=False)  # no solver: the deal is the one asked for
SUITS = set("♠♥♦♣")
ACE_AFTER_THE_DEAL = 10  # the first deal puts an Ace on a reserve pile
BUILD_AFTER_THE_DEAL, BUILD = 4, "R1 A1"  # a build only the first deal makes legal
READS = ("game_version", "load_settings", "game_version_and_settings", "load_game")

pytestmark = pytest.mark.backends


def counted(store: GameStore, names: tuple[str, ...]) -> Counter[str]:
    """Count the calls of the store's methods ``names`` from now on: those the service
    makes, not those one of them makes in turn (SQLite answers ``game_version_and_settings``
    with its ``game_version`` and ``load_settings``)."""
    calls: Counter[str] = Counter()
    inside: ContextVar[bool] = ContextVar("inside", default=False)
    for name in names:
        original: Callable[..., Awaitable[Any]] = getattr(store, name)

        async def call(*args: Any, _name: str = name, _original: Any = original, **kw: Any) -> Any:
            if inside.get():
                return await _original(*args, **kw)
            calls[_name] += 1
            token = inside.set(True)
            try:
                return await _original(*args, **kw)
            finally:
                inside.reset(token)

        setattr(store, name, call)
    return calls


Shared = Callable[[], Awaitable[GameService]]


@pytest.fixture
async def shared(db_target: str) -> AsyncIterator[Shared]:
    """Opens a service on the test's database as one process of a sharded bot would (its
    store marked shared, even an SQLite file; a cache of its own); all closed after."""
    opened: list[GameService] = []

    async def open_one() -> GameService:
        store = await open_store(db_target)
        store.shared = True
        opened.append(GameService(store, new_player=PLAIN))
        return opened[-1]

    yield open_one
    for service in opened:
        await service.close()


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


async def test_a_write_checked_against_settings_applies_only_while_they_are_stored(
    store: GameStore,
) -> None:
    version = await store.start_game(GameStart(
        user_id=1, guild_id=GUILD, variant="vr", deal_number=28, moves="", status="playing",
        started_at=T0, replaces_version=None,
    ))  # fmt: skip
    assert version is not None
    plain, aces = UserSettings(symbols=True, auto_aces=False), UserSettings(True, True)

    def update(expected: UserSettings, default: UserSettings = plain) -> GameUpdate:
        assert version is not None
        return GameUpdate(
            user_id=1, expected_version=version, version=version + 1, moves="deal",
            status="playing", undo_count=0, updated_at=T0,
            settings=SettingsCheck(expected, default),
        )  # fmt: skip

    # None stored: the new player's settings are the ones compared
    assert not await store.save_game(update(aces))
    assert await store.save_game(update(plain))
    version += 1
    await store.save_settings(1, aces)
    assert not await store.save_game(update(plain))
    assert not await store.save_game(update(replace(aces, winnable=True), aces))
    assert await store.save_game(update(aces))
    version += 1
    await store.save_settings(1, plain)  # changed back: the same values, the same moves
    assert await store.save_game(update(plain, default=aces))
    game = await store.load_game(1)
    assert game is not None and game.version == version + 1


async def test_a_move_on_a_shared_database_is_one_write_when_its_game_is_in_memory(
    shared: Shared,
) -> None:
    service = await shared()
    view = await service.new_game(1, GUILD, 28)
    calls = counted(service.store, (*READS, "save_game"))
    moved = await service.move(1, "deal", view.version)
    assert moved.version == view.version + 1
    assert calls == Counter(save_game=1)  # the write checks what was not read
    again = await service.move(1, "deal")  # typed: no version, the same
    assert again.version == moved.version + 1
    assert calls == Counter(save_game=2)
    cold = await shared()  # nothing in memory: read once, then written
    calls = counted(cold.store, (*READS, "save_game"))
    moved = await cold.move(1, "deal", again.version)
    assert moved.version == again.version + 1
    assert calls["save_game"] == 1 and calls["load_game"] == 1
    assert calls["load_settings"] == 1 and calls["game_version_and_settings"] == 0


async def test_a_new_game_on_a_shared_database_reads_once_before_its_write(
    shared: Shared,
) -> None:
    service = await shared()
    view = await service.new_game(1, GUILD, 28)
    calls = counted(service.store, (*READS, "start_game"))
    again = await service.new_game(1, GUILD, 29, replaces_version=view.version)
    assert again.deal_number == 29 and again.version > view.version
    assert calls == Counter(game_version_and_settings=1, start_game=1)


async def test_settings_changed_by_another_process_show_on_the_players_next_command(
    shared: Shared,
) -> None:
    one, two = await shared(), await shared()
    view = await two.new_game(1, GUILD, 28)
    assert SUITS & set(view.board)  # suit symbols, a new player's choice
    await one.update_settings(1, symbols=False)
    moved = await two.move(1, "deal", view.version)
    assert not SUITS & set(moved.board)  # letters: the other process's change, seen


async def test_automatic_aces_turned_on_by_another_process_play_in_this_ones_next_move(
    shared: Shared,
) -> None:
    one, two = await shared(), await shared()
    view = await two.new_game(1, GUILD, ACE_AFTER_THE_DEAL)  # in two's memory
    await one.update_settings(1, auto_aces=True)
    calls = counted(two.store, (*READS, "save_game"))
    moved = await two.move(1, "deal", view.version)
    assert moved.version == view.version + 1
    # the first write, on the settings two remembered, was refused; then read, played
    assert calls["save_game"] == 2 and calls["load_game"] == 1
    assert calls["load_settings"] == 1 and calls["game_version_and_settings"] == 0
    stored = await two.store.load_game(1)
    assert stored is not None and stored.moves.startswith("deal;")  # and its Ace


async def test_a_game_moved_on_by_another_process_refuses_a_stale_click_and_plays_a_typed_move(
    shared: Shared,
) -> None:
    one, two = await shared(), await shared()
    view = await two.new_game(1, GUILD, BUILD_AFTER_THE_DEAL)  # in two's memory
    dealt = await one.move(1, "deal", view.version)
    with pytest.raises(StaleVersionError):
        await two.move(1, "deal", view.version)  # a click on two's old board
    # legal only since one's deal: refused on two's memory, played on what is stored
    moved = await two.move(1, BUILD)
    assert moved.version == dealt.version + 1
    stored = await one.store.load_game(1)
    assert stored is not None and stored.moves == f"deal;{BUILD}"


async def test_a_saved_move_is_answered_though_the_database_stops_answering_just_after(
    shared: Shared,
) -> None:
    service = await shared()
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


@pytest.mark.sqlite_only
async def test_one_process_on_its_file_looks_once_a_read_and_writes_a_move_alone(
    store: GameStore,
) -> None:
    # reel play alone on its save: memory used as it is, after one look that nobody else
    # wrote (PRAGMA data_version); a move is its write, no look (its write checks)
    service = GameService(store, new_player=PLAIN)
    view = await service.new_game(1, GUILD, 28)
    calls = counted(store, (*READS, "save_game", "outside_writes"))
    shown = await service.show(1)
    assert shown.version == view.version and calls == Counter(outside_writes=1)
    moved = await service.move(1, "deal", view.version)
    assert moved.version == view.version + 1
    assert calls == Counter(outside_writes=1, save_game=1)
    assert await service.move_choices(1, limit=3)
    assert calls == Counter(outside_writes=2, save_game=1)
    await service.close()


@pytest.mark.sqlite_only
async def test_a_game_another_process_moved_on_the_file_is_shown_and_played_as_stored(
    db_target: str,
) -> None:
    # reel web and reel play on one save, neither told of the other's writes
    web = GameService(await open_store(db_target), new_player=PLAIN)
    play = GameService(await open_store(db_target), new_player=PLAIN)
    try:
        view = await web.new_game(1, GUILD, BUILD_AFTER_THE_DEAL)
        assert (await play.show(1)).version == view.version  # in both memories
        dealt = await play.deal(1, view.version)
        calls = counted(web.store, (*READS, "outside_writes"))
        shown = await web.show(1)
        assert (shown.version, shown.position) == (dealt.version, dealt.position)
        # one look found a write; the stored version read, then the game
        assert calls == Counter(outside_writes=1, game_version_and_settings=1, load_game=1)
        moved = await web.move(1, BUILD, shown.version)  # made on the board shown: played
        assert moved.version == dealt.version + 1
        with pytest.raises(StaleVersionError):
            await play.move(1, "deal", dealt.version)  # play's old board: refused
        again = await play.show(1)
        assert (again.version, again.position) == (moved.version, moved.position)
        await web.update_settings(1, symbols=False)  # settings are the stored ones too
        assert not SUITS & set((await play.show(1)).board)
    finally:
        await web.close()
        await play.close()


@pytest.mark.sqlite_only
async def test_a_write_found_by_an_earlier_look_is_read_though_the_next_look_is_slow(
    db_target: str,
) -> None:
    # reel web's poll found reel play's move; the read it makes for the open page then
    # waits past its patience for a look of its own (a busy machine): it must not serve
    # the game remembered from before the write the poll already found
    web = GameService(await open_store(db_target), new_player=PLAIN)
    play = GameService(await open_store(db_target), new_player=PLAIN)
    try:
        view = await web.new_game(1, GUILD, BUILD_AFTER_THE_DEAL)
        assert (await play.show(1)).version == view.version
        dealt = await play.deal(1, view.version)
        await web._outside.look()  # the poll's look: a write found
        store: Any = web.store
        quick = store.outside_writes

        async def slow() -> int:
            await asyncio.sleep(LOOK_PATIENCE * 3)
            return int(await quick())

        store.outside_writes = slow
        shown = await web.show(1)
        assert (shown.version, shown.position) == (dealt.version, dealt.position)
    finally:
        await web.close()
        await play.close()
