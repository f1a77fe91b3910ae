"""Faults, end to end: the real bot on the fake Discord while its database stalls, is
locked by another writer, fills up, is deleted or holds a corrupt row.

Whatever the database does, every interaction is answered within Discord's 3 seconds
(the fake fails a test at teardown otherwise), an action that could not be saved is
refused as such and applied nothing, other players go on playing, and the bot recovers
by itself once the fault is gone.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fake_discord import (
    AUTOCOMPLETE_RESULT,
    DEFERRED_UPDATE_MESSAGE,
    FakeDiscord,
    FakeMessage,
    FakeUser,
)
from harness import Launch, Running, footer, new_game, private_text, public_board

from bot.discord_bot.commands import LOADING_CHOICE
from bot.store import Store

STALL = 4.0  # seconds: longer than Discord's deadline; the bounds make longer ones alike


def button_id(message: FakeMessage, action: str) -> str:
    [found] = [c for c in message.custom_ids if c.startswith(f"reel:{action}:")]
    return found


async def stored(store: Store, user_id: int) -> tuple[int, str]:
    row = await store.load_game(user_id)
    assert row is not None
    return row.version, row.moves


async def stall_writes_of(running: Running, user: FakeUser) -> threading.Event:
    """Make the next write of ``user``'s game hang inside SQLite for ``STALL`` seconds, as
    a stalled disk does (the connection is busy all that time); the event is set when the
    stall begins."""
    began = threading.Event()

    def stall() -> int:
        began.set()
        time.sleep(STALL)
        return 0

    conn = running.store.connection
    await conn.create_function("stall", 0, stall)
    await conn.execute(
        f"CREATE TEMP TRIGGER stall_once BEFORE UPDATE ON current_games "
        f"WHEN NEW.user_id = {user.id:d} BEGIN SELECT stall(); END"
    )
    return began


async def test_a_stalled_disk_delays_one_move_and_every_other_answer_stays_in_time(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    alice_board = await new_game(fake, alice)
    bob_board = await new_game(fake, bob)
    before = await stored(running.store, bob.id)
    began = await stall_writes_of(running, alice)

    slow = await fake.click(alice, alice_board, button_id(alice_board, "deal"), wait=False)
    await asyncio.to_thread(began.wait, 5)
    # Bob's board is in memory: his move list needs no database.
    choices = await fake.autocomplete(bob, "reel", sub="move", options={"from": ""}, focused="from")
    assert choices and all(c["value"] != "?" for c in choices)
    # Bob's click must be written, and the connection is stalled: refused in time.
    refused = await fake.click(bob, bob_board, button_id(bob_board, "deal"))
    assert "busy" in await private_text(refused)
    assert footer(bob_board) == footer(fake.messages[bob_board.id])  # his board unchanged

    await slow.wait_response()
    assert slow.callback_type == DEFERRED_UPDATE_MESSAGE  # deferred while the disk stalled
    await fake.wait_until(lambda: "moves 1" in footer(fake.messages[alice_board.id]), STALL + 5)
    await running.store.connection.execute("DROP TRIGGER stall_once")
    assert await stored(running.store, alice.id) == (2, "deal")  # done once, and said so
    assert await stored(running.store, bob.id) == before  # nothing of Bob's half-applied

    again = await fake.click(bob, bob_board, button_id(bob_board, "deal"))  # the fault is gone
    await fake.wait_until(lambda: "moves 1" in footer(fake.messages[bob_board.id]))
    assert again.acknowledged and await stored(running.store, bob.id) == (2, "deal")


async def test_while_another_writer_holds_the_lock_writes_are_refused_in_time_and_nothing_half_done(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    other = sqlite3.connect(tmp_path / "reel.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # a writer that stalls with the lock held
    try:
        setting = await fake.slash(alice, "reel", sub="settings", options={"suits": "letters"})
        assert "busy" in await private_text(setting)
        deal = await fake.slash(alice, "reel", sub="deal")
        assert "nothing changed" in await private_text(deal)
        show = await fake.slash(alice, "reel", sub="show")  # reading goes on
        assert (await public_board(show)).embed is not None
    finally:
        other.close()
    assert (await running.store.load_settings(alice.id)) is None  # the setting was not saved
    assert await stored(running.store, alice.id) == (1, "")
    saved = await fake.slash(alice, "reel", sub="settings", options={"suits": "letters"})
    assert "busy" not in await private_text(saved)
    settings = await running.store.load_settings(alice.id)
    assert settings is not None and not settings.symbols
    await fake.click(alice, board, button_id(board, "deal"))
    assert await stored(running.store, alice.id) == (2, "deal")


async def test_autocomplete_answers_in_time_while_the_game_is_still_loading(
    fake: FakeDiscord, launch: Launch, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    await first.bot.close()
    running = await launch(tmp_path / "reel.db")  # a restart: nothing in memory
    load_game = running.store.load_game

    async def slow_load(user_id: int):  # type: ignore[no-untyped-def]
        await asyncio.sleep(STALL)
        return await load_game(user_id)

    monkeypatch.setattr(running.store, "load_game", slow_load)
    options = {"from": ""}
    result = await fake.autocomplete(alice, "reel", sub="move", options=options, focused="from")
    assert [c["name"] for c in result] == [LOADING_CHOICE]
    # The read went on after the answer: once it is done, the list comes from memory.
    await fake.wait_until(lambda: running.service.games.get(alice.id) is not None, STALL + 5)
    choices = await fake.autocomplete(alice, "reel", sub="move", options=options, focused="from")
    assert choices and LOADING_CHOICE not in [c["name"] for c in choices]
    assert all(r.callback_type == AUTOCOMPLETE_RESULT for r in fake.interactions.values() if
               r.type == 4)  # fmt: skip


async def test_a_full_disk_refuses_new_writes_clearly_and_recovers_when_space_is_back(
    fake: FakeDiscord, launch: Launch, caplog: pytest.LogCaptureFixture
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    await new_game(fake, alice)
    conn = running.store.connection
    [(pages,)] = await conn.execute_fetchall("PRAGMA page_count")
    await conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full now...
    await fill_with_games(conn)  # ...of other players' games, to the last byte
    with caplog.at_level(logging.ERROR):
        result = await fake.slash(bob, "reel", sub="new", options={"deal": "17"})
        texts = [await private_text(result)]
    assert texts and "disk is full" in texts[0]
    assert "database failure" in caplog.text  # and the operator's log says so
    shown = await public_board(await fake.slash(alice, "reel", sub="show"))  # others play on
    assert "Deal 16" in footer(shown)
    await conn.execute("PRAGMA max_page_count = 1073741823")
    board = await public_board(await fake.slash(bob, "reel", sub="new", options={"deal": "18"}))
    assert "Deal 18" in footer(board)


async def fill_with_games(conn: Any) -> None:
    """Store other players' games until not even an empty one fits."""
    user = 10_000
    for length in (4000, 400, 40, 0):
        try:
            while True:
                user += 1
                await conn.execute(
                    "INSERT INTO current_games (user_id, guild_id, variant, deal_number, moves, "
                    "status, version, undo_count, started_at, updated_at) VALUES "
                    "(?, NULL, 'vr', 1, ?, 'playing', 1, 0, ?, ?)",
                    (user, "x" * length, "2026-11-29T09:30:00+00:00", "2026-11-29T09:30:00+00:00"),
                )
        except sqlite3.OperationalError as exc:
            assert "full" in str(exc)


async def test_a_deleted_database_is_said_to_players_and_a_restored_one_is_played_on(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    await running.store.backup(tmp_path / "backup.db")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{running.store.path}{suffix}").unlink(missing_ok=True)
    refused = await fake.click(alice, board, button_id(board, "deal"))
    assert "can't be used just now" in await private_text(refused)
    shown = await fake.slash(alice, "reel", sub="show")
    assert "can't be used just now" in await private_text(shown)
    assert not running.store.path.exists()
    os.replace(tmp_path / "backup.db", running.store.path)  # the operator restores it
    await fake.click(alice, board, button_id(board, "deal"))
    await fake.wait_until(lambda: "moves 1" in footer(fake.messages[board.id]))
    assert await stored(running.store, alice.id) == (2, "deal")


async def test_a_corrupt_row_is_said_to_its_player_only_and_a_new_game_replaces_it(
    fake: FakeDiscord, launch: Launch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    await new_game(fake, alice)
    await new_game(fake, bob)
    await first.bot.close()
    await first.store.connection.execute(
        "UPDATE current_games SET moves = 'R9 Z1;??' WHERE user_id = ?", (alice.id,)
    )
    await launch(tmp_path / "reel.db")
    with caplog.at_level(logging.ERROR):
        shown = await fake.slash(alice, "reel", sub="show")
        assert "can't be read" in await private_text(shown)
    assert "unreadable" in caplog.text
    assert "Deal 16" in footer(await public_board(await fake.slash(bob, "reel", sub="show")))
    fresh = await public_board(await fake.slash(alice, "reel", sub="new", options={"deal": "20"}))
    assert "Deal 20" in footer(fresh)
