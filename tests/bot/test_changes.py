"""Changes across processes on one PostgreSQL database (bot/store/postgres/changes.py,
bot/service/remote.py; docs/scaling.md): what one process writes reaches the live
listeners of another, which reads the stored game or race itself; a connection lost and
back catches up from the stored versions; races are followed across shards.

Each "process" here is a service over a store of its own: its own pool and its own
notification connection, as two ``reel bot`` processes have (real processes:
tests/discord_bot/test_cluster_e2e.py)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import asyncpg
import pytest
from known_win import WINNING_DEAL
from pg_server import PgServer

from bot.discord_bot.app import shard_filter
from bot.service import GameService
from bot.service.races.contract import RaceError
from bot.store.open import open_store
from bot.store.postgres import PostgresStore
from bot.store.postgres.changes import MAX_PAYLOAD, payloads

pytestmark = pytest.mark.postgres

ALICE, BOB, HOST = 201, 202, 203
ON_0, ON_1 = 0 << 22, 1 << 22  # servers on shard 0 and on shard 1 (of 2)
HEARD_WITHIN = 5.0


class Heard:
    """A listener of game changes: every (player, version) it was told."""

    def __init__(self) -> None:
        self.told: list[tuple[int, int]] = []

    def __call__(self, user_id: int, version: int) -> None:
        self.told.append((user_id, version))


async def until(check: Callable[[], bool], within: float = HEARD_WITHIN) -> bool:
    deadline = asyncio.get_running_loop().time() + within
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


@pytest.fixture
async def pg_url(pg_server: PgServer) -> AsyncIterator[str]:
    url = await pg_server.fresh_database()
    yield url
    await pg_server.drop_database(url)


@pytest.fixture
async def two(pg_url: str, clock: Any) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two services ("processes") over the database, each with its own store."""
    services = []
    for seed in (1, 2):
        store = await open_store(pg_url)
        services.append(GameService(store, clock=clock, rng=random.Random(seed)))
    yield services[0], services[1]
    for service in services:
        await service.close()


def changes_of(service: GameService) -> Any:
    store = service.store
    assert isinstance(store, PostgresStore)
    return store.changes


async def listening(*services: GameService) -> None:
    """Wait until each service's notification connection is up."""
    for service in services:
        assert await until(lambda s=service: changes_of(s).connected)  # type: ignore[misc]


def test_changes_go_in_payloads_under_postgresqls_limit() -> None:
    items = [f"g{10**17 + n}:{n}" for n in range(2000)]
    found = payloads(items)
    assert all(len(p) <= MAX_PAYLOAD for p in found) and len(found) > 1
    assert ",".join(found).split(",") == items


async def test_a_move_in_one_process_reaches_the_listeners_of_the_other(
    two: tuple[GameService, GameService],
) -> None:
    first, second = two
    heard_there, heard_here = Heard(), Heard()
    second.on_change(heard_there)
    first.on_change(heard_here)
    await listening(first, second)
    view = await first.new_game(ALICE, ON_0, 16)
    moved = await first.deal(ALICE)
    assert await until(lambda: (ALICE, moved.version) in heard_there.told)
    assert (ALICE, view.version) in heard_there.told
    # the listener reads the stored game itself: the other process shows it as it stands
    assert (await second.show(ALICE)).version == moved.version
    # a process is not told its own changes twice (once by itself, none by the others)
    await asyncio.sleep(0.2)
    assert heard_here.told.count((ALICE, moved.version)) == 1


async def test_a_listener_that_lost_its_connection_catches_up_from_the_stored_versions(
    two: tuple[GameService, GameService], pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second process's connection is killed; the first moves while it is down (the
    notification is lost for it); back, the second tells its listener the stored version
    of the player it follows."""
    first, second = two
    heard = Heard()
    second.on_change(heard, following=lambda: {ALICE})
    await listening(first, second)
    start = await first.new_game(ALICE, ON_0, 16)
    assert await until(lambda: (ALICE, start.version) in heard.told)
    changes = changes_of(second)
    gate = asyncio.Event()
    real_open = changes._open

    async def held_open() -> Any:
        await gate.wait()  # no reconnection until the move below is made
        return await real_open()

    monkeypatch.setattr(changes, "_open", held_open)
    await terminate(pg_url, changes._pid)
    assert await until(lambda: not changes.connected)
    moved = await first.deal(ALICE)
    await asyncio.sleep(0.3)
    assert (ALICE, moved.version) not in heard.told  # missed while disconnected
    gate.set()
    assert await until(lambda: (ALICE, moved.version) in heard.told)
    assert changes.reconnects == 1 and second.remote.catch_ups == 1


async def test_changes_made_while_the_writers_connection_is_down_are_sent_once_it_is_back(
    two: tuple[GameService, GameService], pg_url: str
) -> None:
    first, second = two
    heard = Heard()
    second.on_change(heard)
    await listening(first, second)
    await first.new_game(ALICE, ON_0, 16)
    await terminate(pg_url, changes_of(first)._pid)
    moved = await first.deal(ALICE)  # queued: its connection is down or going
    assert await until(lambda: (ALICE, moved.version) in heard.told)
    assert changes_of(first).reconnects == 1


async def terminate(url: str, pid: int) -> None:
    """End the server process ``pid`` (a connection), as a server restart or a network
    fault would."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()


# --------------------------------------------------------------------------- races


@pytest.fixture
async def shards(
    two: tuple[GameService, GameService],
) -> tuple[GameService, GameService]:
    """The two processes as shard 0's and shard 1's of a bot of 2 shards."""
    first, second = two
    first.races.only(shard_filter(2, [0]))
    second.races.only(shard_filter(2, [1]))
    await listening(first, second)
    return first, second


async def test_a_racer_plays_their_race_through_the_other_shard_and_the_standings_follow(
    shards: tuple[GameService, GameService], clock: Any
) -> None:
    """A race in a server of shard 0; Bob, one of its racers, plays a move with a command
    in a server of shard 1: that process plays his race game, and the race's own process
    hears it, draws its standings (its listener told) and ends it at its time with Bob's
    move kept. The other process never draws the standings."""
    first, second = shards
    drawn_here: list[int] = []
    drawn_there: list[int] = []
    first.races.on_change(drawn_here.append)
    second.races.on_change(drawn_there.append)
    view = await first.races.open(HOST, ON_0, 555, WINNING_DEAL, limit_minutes=10)
    race_id = view.race_id
    await first.races.join(race_id, BOB)
    await first.races.start(race_id, HOST)
    assert await until_async(lambda: second.races.race_of(BOB), race_id)
    board = await second.races.play(race_id, BOB, "deal")  # through shard 1's process
    drawn_here.clear()
    assert await until(lambda: race_id in drawn_here)  # shard 0's process redraws
    standings = await first.races.standings(race_id)
    bob = next(line for line in standings.racers if line.user_id == BOB)
    assert bob.moves == board.game.move_count > 0
    assert drawn_there == []
    # One race at a time holds across shards: Bob can't open one on shard 1's server.
    with pytest.raises(RaceError):
        await second.races.open(BOB, ON_1, 556, WINNING_DEAL)
    clock.now += timedelta(minutes=11)  # the race's time is up
    with pytest.raises(RaceError, match="Time is up"):
        await second.races.play(race_id, BOB, "deal")
    assert await second.races.due() == []  # not its race to end
    assert await first.races.due() == [race_id]
    found = await first.store.races.load_race(race_id)
    assert found is not None and found[0].state == "over"
    rows = {r.user_id: r for r in found[1]}
    assert rows[BOB].status == "timed_out" and rows[BOB].move_count == bob.moves
    assert {r.place for r in rows.values()} == {1, 2}
    assert await until_async(lambda: second.races.race_of(BOB), None)


async def test_a_racer_moved_by_the_other_process_unheard_is_read_again_before_playing(
    shards: tuple[GameService, GameService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shard 0's process has not heard (yet) of Bob's move through shard 1's: its next
    move for Bob finds his row moved on, reads it, and plays on the stored game."""
    first, second = shards
    race_id = (await first.races.open(HOST, ON_0, 555, WINNING_DEAL)).race_id
    await first.races.join(race_id, BOB)
    await first.races.start(race_id, HOST)
    assert await until_async(lambda: second.races.race_of(BOB), race_id)
    monkeypatch.setattr(first.races, "heard", lambda race_id: None)  # deaf from now on
    there = await second.races.play(race_id, BOB, "deal")
    here = await first.races.play(race_id, BOB, "deal")
    assert here.game.version == there.game.version + 1
    found = await first.store.races.load_race(race_id)
    assert found is not None
    bob = next(r for r in found[1] if r.user_id == BOB)
    assert bob.version == here.game.version and bob.moves.split(";").count("deal") == 2


async def until_async(read: Callable[[], Any], wanted: Any) -> bool:
    deadline = asyncio.get_running_loop().time() + HEARD_WITHIN
    while await read() != wanted:
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


async def test_a_finished_race_refuses_a_late_move_and_an_end_at_a_stale_version(
    pg_url: str, clock: Any
) -> None:
    """The store's side of it: a racer's move is refused once the race is over, and an
    end that expects a racer at a version they have moved on from writes nothing."""
    store = await open_store(pg_url)
    service = GameService(store, clock=clock)
    try:
        race_id = (await service.races.open(HOST, ON_0, 555, WINNING_DEAL)).race_id
        await service.races.join(race_id, BOB)
        await service.races.start(race_id, HOST)
        found = await store.races.load_race(race_id)
        assert found is not None
        bob = next(r for r in found[1] if r.user_id == BOB)
        moved = replace(bob, version=bob.version + 1, moves="deal")
        assert await store.races.save_racer(moved, bob.version)
        stale = [(r, r.version) if r.user_id != BOB else (r, bob.version) for r in found[1]]
        assert not await store.races.end_race(race_id, "over", clock(), stale)
        assert (await store.races.load_race(race_id))[0].state == "running"  # type: ignore[index]
        fresh = [(r, r.version) if r.user_id != BOB else (moved, moved.version) for r in found[1]]
        assert await store.races.end_race(race_id, "over", clock(), fresh)
        late = replace(moved, version=moved.version + 1)
        assert not await store.races.save_racer(late, moved.version)
    finally:
        await service.close()
