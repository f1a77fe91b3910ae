"""The PostgreSQL store against a real server: the store's contract on both backends (the
tests marked ``backends``), the schema equal to SQLite's version for version, the versions
compare-and-set between processes sharing a database (here: several stores, each its own
pool), the daily deal chosen once, exact totals under concurrent writers, and PostgreSQL's
faults as the store's errors."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from pg_server import PgServer

from bot.config import Config, ConfigError
from bot.service import GameService, StaleVersionError
from bot.store import (
    SCHEMA_VERSION,
    DailyDeal,
    FinishedGame,
    GameStart,
    GameStore,
    GameUpdate,
    SchemaTooNewError,
    StoreBusyError,
    StoreReadOnlyError,
    StoreUnavailableError,
)
from bot.store.open import is_postgres, make_store, open_store
from bot.store.postgres import SCHEMA_VERSION as PG_SCHEMA_VERSION
from bot.store.postgres import PostgresStore

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
DAY = date(2025, 3, 1)
GUILD = 555


def finished(user: int, n: int, *, won: bool = False, day: date | None = None) -> FinishedGame:
    """A recorded game of ``user`` (its ``n``th)."""
    return FinishedGame(
        user_id=user,
        guild_id=GUILD,
        variant="vr",
        deal_number=100 + n,
        outcome="won" if won else "lost",
        score=104 if won else 30 + n % 7,
        moves="deal",
        undos=0,
        duration_s=60,
        started_at=T0 + timedelta(minutes=n),
        finished_at=T0 + timedelta(minutes=n, seconds=30),
        daily_date=day,
    )


async def start(store: GameStore, user: int, replaces: int | None = None) -> int | None:
    return await store.start_game(
        GameStart(
            user_id=user,
            guild_id=GUILD,
            variant="vr",
            deal_number=28,
            moves="",
            status="playing",
            started_at=T0,
            replaces_version=replaces,
        )
    )


def update(user: int, expected: int, moves: str) -> GameUpdate:
    return GameUpdate(
        user_id=user,
        expected_version=expected,
        version=expected + 1,
        moves=moves,
        status="playing",
        undo_count=0,
        updated_at=T0,
    )


# ---------------------------------------------------------------------- both backends


@pytest.mark.backends
async def test_a_write_at_a_stale_version_applies_nothing(store: GameStore) -> None:
    assert await start(store, 1) == 1
    assert await store.save_game(update(1, 1, "deal"))
    assert not await store.save_game(update(1, 1, "other"), finished(1, 1))
    assert await store.start_game(GameStart(
        user_id=1, guild_id=None, variant="vr", deal_number=29, moves="", status="playing",
        started_at=T0, replaces_version=1,
    )) is None  # fmt: skip
    game = await store.load_game(1)
    assert game is not None and (game.version, game.moves) == (2, "deal")
    assert await store.game_version(1) == 2 and await store.game_version(2) is None
    assert await store.finished_games() == []
    assert not await store.mark_assisted(1, 1)


@pytest.mark.backends
async def test_a_dates_daily_deal_is_the_first_one_stored(store: GameStore) -> None:
    first = await store.save_daily_deal(DailyDeal(DAY, 7, "deal", 1))
    second = await store.save_daily_deal(DailyDeal(DAY, 8, None, None))
    assert first == second == await store.load_daily_deal(DAY) == DailyDeal(DAY, 7, "deal", 1)


@pytest.mark.backends
async def test_totals_streaks_and_boards_follow_the_recorded_games(store: GameStore) -> None:
    days = [DAY, DAY + timedelta(days=1), DAY + timedelta(days=3), DAY - timedelta(days=1)]
    games = [finished(1, n, won=n % 2 == 0, day=d) for n, d in enumerate(days)]
    games += [finished(2, 9, won=True)]
    written = await store.import_results([_params(g) for g in games])
    assert written == 5
    totals = await store.player_totals(1)
    assert totals is not None
    assert (totals.games, totals.wins, totals.dailies, totals.daily_wins) == (4, 2, 4, 2)
    # a date before the last one recomputes the runs: DAY-1, DAY, DAY+1 is a run of 3
    assert (totals.best_streak, totals.last_daily, totals.daily_run) == (3, days[2], 1)
    count, rows = await store.all_time_board(GUILD, 0, 10)
    assert count == 2 and [r.user_id for r in rows] == [1, 2]
    count, daily = await store.daily_board(DAY, None, 0, 10)
    assert count == 1 and daily[0].user_id == 1 and daily[0].won
    total, period = await store.period_board(days[3], days[2], GUILD, 0, 10)
    assert total == 1 and (period[0].dailies, period[0].wins) == (4, 2)
    assert await store.deal_record(1, 100) == (1, 1)


@pytest.mark.backends
async def test_each_game_of_the_family_keeps_its_own_dailies_totals_and_boards(
    store: GameStore,
) -> None:
    reel = finished(1, 0, won=True, day=DAY)
    parade = replace(finished(1, 1, day=DAY), variant="rp")
    other = replace(finished(2, 2, won=True, day=DAY), variant="rp")
    assert await store.import_results([_params(g) for g in (reel, parade, other)]) == 3
    vr, rp = await store.player_totals(1), await store.player_totals(1, "rp")
    assert vr is not None and (vr.games, vr.wins, vr.daily_run) == (1, 1, 1)
    assert rp is not None and (rp.games, rp.wins, rp.daily_run) == (1, 0, 1)
    assert await store.player_totals(1, "tu") is None
    assert [r.user_id for r in (await store.daily_board(DAY, None, 0, 10))[1]] == [1]
    assert [r.user_id for r in (await store.daily_board(DAY, None, 0, 10, "rp"))[1]] == [2, 1]
    assert [r.user_id for r in (await store.all_time_board(GUILD, 0, 10, "rp"))[1]] == [2, 1]
    assert (await store.period_board(DAY, DAY, None, 0, 10, "tu"))[0] == 0
    assert await store.deal_record(1, 101, "rp") == (1, 0)
    assert await store.deal_record(1, 101) == (0, 0)
    best = await store.best_daily_run(DAY, "rp")
    assert best is not None and best.user_id == 2
    mine = await store.daily_finished(1, DAY, "rp")
    assert mine is not None and (mine.variant, mine.deal_number) == ("rp", 101)
    # one daily per game and date: both deals stand side by side
    await store.save_daily_deal(DailyDeal(DAY, 7, None, None))
    await store.save_daily_deal(DailyDeal(DAY, 9, "deal", 1, "rp"))
    assert await store.load_daily_deal(DAY) == DailyDeal(DAY, 7, None, None)
    assert await store.load_daily_deal(DAY, "rp") == DailyDeal(DAY, 9, "deal", 1, "rp")
    assert await store.load_daily_deal(DAY, "bj") is None


def _params(game: FinishedGame) -> dict[str, object]:
    from bot.store import finished_params

    return finished_params(game)


# ---------------------------------------------------------------------- PostgreSQL alone


@pytest.fixture
async def pg_url(pg_server: PgServer) -> Any:
    url = await pg_server.fresh_database()
    yield url
    await pg_server.drop_database(url)


@pytest.mark.postgres
async def test_the_schema_is_sqlites_version_for_version(tmp_path: Path, pg_url: str) -> None:
    assert PG_SCHEMA_VERSION == SCHEMA_VERSION
    async with await open_store(tmp_path / "reel.db") as lite, await open_store(pg_url) as pg:
        assert await lite.schema_version() == await pg.schema_version() == SCHEMA_VERSION
        conn = lite.connection  # type: ignore[attr-defined]
        tables = [r[0] for r in await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]  # fmt: skip
        lite_columns = set()
        for table in tables:
            for row in await conn.execute_fetchall(f"PRAGMA table_info({table})"):
                lite_columns.add((table, row[1]))
    pg_conn = await asyncpg.connect(pg_url)
    try:
        rows = await pg_conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name <> 'reel_schema'"
        )
    finally:
        await pg_conn.close()
    pg_columns = {(r[0], r[1]) for r in rows} - {("racers", "racer_key")}  # SQLite's rowid
    assert pg_columns == lite_columns


@pytest.mark.postgres
async def test_of_two_processes_writing_one_version_exactly_one_applies(pg_url: str) -> None:
    stores = [PostgresStore(pg_url, pool_size=4) for _ in range(3)]
    for s in stores:
        await s.connect()
    try:
        await start(stores[0], 1)
        version = 1
        for step in range(30):
            results = await asyncio.gather(
                *(s.save_game(update(1, version, f"{step}:{i}")) for i, s in enumerate(stores))
            )
            assert sum(results) == 1, results
            winner = results.index(True)
            version += 1
            game = await stores[step % 3].load_game(1)
            assert game is not None and (game.version, game.moves) == (version, f"{step}:{winner}")
        # two new games asked from one board: one replaces it, the other is refused
        replaced = await asyncio.gather(*(start(s, 1, replaces=version) for s in stores))
        assert sorted(replaced, key=str) == [version + 1, None, None]
    finally:
        for s in stores:
            await s.close()


@pytest.mark.postgres
async def test_a_new_dates_daily_deal_is_chosen_once_by_racing_processes(pg_url: str) -> None:
    stores = [PostgresStore(pg_url, pool_size=2) for _ in range(6)]
    for s in stores:
        await s.connect()
    try:
        for offset in range(5):
            day = DAY + timedelta(days=offset)
            chosen = await asyncio.gather(
                *(s.save_daily_deal(DailyDeal(day, 10 * offset + i, None, None))
                  for i, s in enumerate(stores))
            )  # fmt: skip
            assert len(set(chosen)) == 1 and chosen[0] == await stores[0].load_daily_deal(day)
    finally:
        for s in stores:
            await s.close()


@pytest.mark.postgres
async def test_totals_stay_exact_under_concurrent_writers(pg_url: str) -> None:
    stores = [PostgresStore(pg_url, pool_size=5) for _ in range(3)]
    for s in stores:
        await s.connect()
    rng = random.Random(4)
    games = [finished(rng.randrange(5), n, won=rng.random() < 0.3) for n in range(120)]
    try:
        await asyncio.gather(
            *(stores[n % 3].import_results([_params(g)]) for n, g in enumerate(games))
        )
        for user in range(5):
            mine = [g for g in games if g.user_id == user]
            totals = await stores[0].player_totals(user)
            assert totals is not None
            assert (totals.games, totals.wins) == (len(mine), sum(g.won for g in mine))
        count, rows = await stores[1].all_time_board(GUILD, 0, 10)
        assert count == 5 and sum(r.games for r in rows) == len(games)
    finally:
        for s in stores:
            await s.close()


@pytest.mark.postgres
async def test_a_cached_game_is_never_served_after_another_process_moved(pg_url: str) -> None:
    one, two = GameService(await open_store(pg_url)), GameService(await open_store(pg_url))
    try:
        view = await one.new_game(1, GUILD, 28)
        moved = await two.move(1, "deal", view.version)  # the other process plays on
        assert (await one.show(1)).board == moved.board  # not the board cached before
        again = await one.move(1, "deal", moved.version)  # and plays on from there
        with pytest.raises(StaleVersionError):
            await two.move(1, "deal", moved.version)  # the click the other one already took
        assert (await two.show(1)).version == again.version == moved.version + 1
    finally:
        await one.close()
        await two.close()


@pytest.mark.postgres
async def test_a_row_locked_too_long_is_busy_and_applies_nothing(pg_url: str) -> None:
    async with await open_store(pg_url) as store:
        await start(store, 1)
        holder = await asyncpg.connect(pg_url)
        try:
            async with holder.transaction():
                await holder.execute("SELECT 1 FROM current_games WHERE user_id = 1 FOR UPDATE")
                with pytest.raises(StoreBusyError):
                    await store.save_game(update(1, 1, "deal"))
        finally:
            await holder.close()
        assert await store.game_version(1) == 1
        assert await store.save_game(update(1, 1, "deal"))  # free again: it applies


@pytest.mark.postgres
async def test_a_read_only_database_is_refused_when_the_store_opens(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        name = await conn.fetchval("SELECT current_database()")
        await conn.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    finally:
        await conn.close()
    with pytest.raises(StoreReadOnlyError):
        await open_store(pg_url)


@pytest.mark.postgres
async def test_a_database_of_a_newer_release_is_refused(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("UPDATE reel_schema SET version = 99")
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNewError, match="99"):
        await open_store(pg_url)


@pytest.mark.postgres
async def test_no_server_is_unavailable_and_the_password_is_never_shown(pg_url: str) -> None:
    url = "postgresql://reel:secret@127.0.0.1:1/reel"  # nothing listens on port 1
    with pytest.raises(StoreUnavailableError) as refused:
        await open_store(url)
    assert "secret" not in str(refused.value) and "***" in str(refused.value)


def test_the_backend_is_chosen_by_the_url_and_checked_at_start(tmp_path: Path) -> None:
    assert is_postgres("postgresql://h/db") and is_postgres("postgres://h/db")
    assert not is_postgres(str(tmp_path / "reel.db"))
    assert isinstance(make_store("postgres://h/db"), PostgresStore)
    base = {"REEL_DB": str(tmp_path / "reel.db")}
    config = Config.from_env(base, dotenv_path=tmp_path / "none")
    assert config.database == str(tmp_path / "reel.db")
    url = "postgresql://reel:pw@db.example:5432/reel"
    config = Config.from_env({**base, "REEL_DATABASE_URL": url}, dotenv_path=tmp_path / "none")
    assert config.database == url and "pw" not in repr(config)
    for bad in ("mysql://h/db", "postgresql://h:port/db", str(tmp_path / "reel.db")):
        with pytest.raises(ConfigError, match="REEL_DATABASE_URL"):
            Config.from_env({"REEL_DATABASE_URL": bad}, dotenv_path=tmp_path / "none")
