"""A sharded bot (docs/scaling.md): each process starts, ends and follows only
the races of its own shards' servers, so two processes over one database never both
end a race whose time is up; and a player's settings saved by one process are the
others' at once."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from test_races import BOB, HOST

from bot.discord_bot.app import shard_filter
from bot.service import GameService
from bot.store import Store

pytestmark = pytest.mark.backends  # the races' database: a SQLite file, then PostgreSQL

SHARDS = 2
ON_0, ON_1 = 0 << 22, 1 << 22  # servers whose ids put them on shard 0 and on shard 1


def test_the_filter_puts_each_server_on_its_shard_and_dms_on_shard_0() -> None:
    first, second = shard_filter(SHARDS, [0]), shard_filter(SHARDS, [1])
    assert (first(ON_0), first(ON_1), first(None)) == (True, False, True)
    assert (second(ON_0), second(ON_1), second(None)) == (False, True, False)
    both = shard_filter(4, [1, 3])
    assert [both(shard << 22) for shard in range(4)] == [False, True, False, True]


async def test_two_processes_each_end_only_their_shards_race(store: Store, clock: Any) -> None:
    opener = GameService(store, clock=clock, rng=random.Random(1))
    races = {}
    for guild, host, guest, channel in ((ON_0, HOST, BOB, 10), (ON_1, HOST + 10, BOB + 10, 11)):
        view = await opener.races.open(host, guild, channel, 7)
        await opener.races.join(view.race_id, guest)
        await opener.races.start(view.race_id, host)
        races[guild] = view.race_id
    # Two processes start afresh on the same database, one per shard.
    first = GameService(store, clock=clock, rng=random.Random(2))
    second = GameService(store, clock=clock, rng=random.Random(3))
    first.races.only(shard_filter(SHARDS, [0]))
    second.races.only(shard_filter(SHARDS, [1]))
    clock.now += timedelta(minutes=11)  # both races' time is up
    assert await first.races.due() == [races[ON_0]]
    assert await second.races.due() == [races[ON_1]]
    assert (await second.races.due(), await first.races.due()) == ([], [])
    for race_id in races.values():  # each ended once, by its own shard's process
        found = await store.races.load_race(race_id)
        assert found is not None and found[0].state == "over"
        assert {r.status for r in found[1]} == {"timed_out"}


async def test_on_a_shared_database_a_setting_saved_by_one_process_is_the_others_at_once(
    store: Store, clock: Any
) -> None:
    store.shared = True  # as a sharded bot marks it (PostgreSQL, or one file for shards)
    first = GameService(store, clock=clock)
    second = GameService(store, clock=clock)
    assert (await second.get_settings(BOB)).symbols  # read, and remembered were it alone
    await first.update_settings(BOB, symbols=False)
    assert not (await second.get_settings(BOB)).symbols
