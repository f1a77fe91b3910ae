"""Races in the service (``GameService.races``; docs/races.md): the lobby, one race at a
time, playing, leaving, the time limit, the ranking, a restart, and the main game
left alone."""

from __future__ import annotations

import asyncio
import itertools
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from known_win import WINNING_DEAL, WINNING_TEXT

from bot.service import GameService
from bot.service.errors import RaceError
from bot.service.races.contract import RacerLine, rank_key, ranked
from bot.store import Store
from bot.store.open import open_store

HOST, BOB, CAROL, DAN = 101, 102, 103, 104
CHANNEL = 555

pytestmark = pytest.mark.backends  # each test on SQLite, then on PostgreSQL


async def opened(service: GameService, *others: int, deal: int = WINNING_DEAL) -> int:
    """A race on ``deal`` hosted by HOST, ``others`` joined; its id."""
    view = await service.races.open(HOST, 1, CHANNEL, deal, limit_minutes=10, capacity=4)
    for user in others:
        await service.races.join(view.race_id, user)
    return view.race_id


async def win(service: GameService, race_id: int, user: int) -> None:
    """Play the known winning line (its Aces are played automatically in a race)."""
    for text in WINNING_TEXT.split(";"):
        try:
            board = await service.races.play(race_id, user, "move", text)
        except RaceError:
            if text.endswith("ACE"):
                continue  # played automatically already
            raise
        if not board.playing:
            return


def line(user: int, status: str, score: int, elapsed: float, moves: int) -> RacerLine:
    return RacerLine(user, status, score, moves, elapsed, None)  # type: ignore[arg-type]


def test_the_ranking_puts_winners_first_then_cards_home_then_time_then_moves() -> None:
    lines = [
        line(1, "timed_out", 60, 100.0, 40),
        line(2, "won", 104, 300.0, 150),
        line(3, "left", 60, 90.0, 50),
        line(4, "won", 104, 200.0, 160),
        line(5, "racing", 70, 500.0, 10),
        line(6, "timed_out", 60, 90.0, 45),
    ]
    order = [(place, item.user_id) for place, item in ranked(lines)]
    assert order == [(1, 4), (2, 2), (3, 5), (4, 6), (5, 3), (6, 1)]


def test_racers_equal_on_every_count_share_a_place() -> None:
    lines = [line(1, "left", 30, 10.0, 5), line(2, "left", 30, 10.0, 5), line(3, "left", 2, 1, 1)]
    assert [(p, i.user_id) for p, i in ranked(lines)] == [(1, 1), (1, 2), (3, 3)]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["won", "left", "timed_out"]),
            st.integers(0, 104),
            st.integers(0, 5),
            st.integers(0, 5),
        ),
        max_size=25,
    )
)
def test_places_follow_the_ranking_and_never_go_down_the_list(
    racers: list[tuple[str, int, int, int]],
) -> None:
    lines = [line(i, s, score, float(t), m) for i, (s, score, t, m) in enumerate(racers)]
    result = ranked(lines)
    assert sorted(i.user_id for _, i in result) == list(range(len(lines)))
    for (p1, a), (p2, b) in itertools.pairwise(result):
        assert rank_key(a) <= rank_key(b)
        assert p2 == p1 if rank_key(a) == rank_key(b) else p2 > p1
    if result:
        assert result[0][0] == 1


async def test_a_player_is_in_one_race_at_a_time_lobbies_included(
    service: GameService,
) -> None:
    race_id = await opened(service, BOB)
    with pytest.raises(RaceError, match="already in race"):
        await service.races.open(BOB, 1, CHANNEL + 1, 5)
    with pytest.raises(RaceError, match="already in race"):
        await service.races.open(HOST, 1, CHANNEL + 1, 5)
    other = await service.races.open(CAROL, 1, CHANNEL + 1, 5)
    with pytest.raises(RaceError, match="already in race"):
        await service.races.join(other.race_id, BOB)
    with pytest.raises(RaceError, match="already open in this channel"):
        await service.races.open(DAN, 1, CHANNEL, 5)
    left = await service.races.leave(race_id, BOB)
    assert [r.user_id for r in left.racers] == [HOST]
    joined = await service.races.join(other.race_id, BOB)
    assert [r.user_id for r in joined.racers] == [CAROL, BOB]


async def test_a_full_race_and_a_start_by_anyone_but_the_host_are_refused(
    service: GameService,
) -> None:
    view = await service.races.open(HOST, 1, CHANNEL, 7, capacity=2)
    await service.races.join(view.race_id, BOB)
    with pytest.raises(RaceError, match="full"):
        await service.races.join(view.race_id, CAROL)
    with pytest.raises(RaceError, match="Only the host"):
        await service.races.start(view.race_id, BOB)
    started = await service.races.start(view.race_id, HOST)
    assert started.state == "running"
    with pytest.raises(RaceError, match="started already"):
        await service.races.join(view.race_id, CAROL)


async def test_out_of_range_options_are_refused_and_open_nothing(service: GameService) -> None:
    with pytest.raises(RaceError, match="2 to 60 minutes"):
        await service.races.open(HOST, 1, CHANNEL, 7, limit_minutes=61)
    with pytest.raises(RaceError, match="2 to 25 racers"):
        await service.races.open(HOST, 1, CHANNEL, 7, capacity=1)
    assert await service.races.open_races() == []


async def test_a_race_to_the_finish_with_a_leaver_ranks_and_records_everyone(
    service: GameService,
) -> None:
    race_id = await opened(service, BOB, CAROL)
    await service.races.start(race_id, HOST)
    bob = await service.races.play(race_id, BOB, "deal")
    await service.races.leave(race_id, BOB)
    await service.races.play(race_id, CAROL, "deal")
    await service.races.play(race_id, CAROL, "deal")
    await win(service, race_id, HOST)
    still = await service.races.standings(race_id)
    assert still.state == "running"  # Carol still races
    carol = await service.races.leave(race_id, CAROL)
    assert carol.state == "over"
    places = {r.user_id: (r.place, r.status, r.score) for r in carol.racers}
    assert places[HOST] == (1, "won", 104)
    # Bob and Carol have as many cards home (the deals send none home); Bob left first,
    # so he reached that score in less time.
    assert places[BOB] == (2, "left", bob.game.score)
    assert places[CAROL] == (3, "left", bob.game.score)
    stats = await service.stats(HOST)
    assert (stats.races, stats.race_wins, stats.best_place) == (1, 1, 1)
    with pytest.raises(RaceError, match="over for you"):
        await service.races.play(race_id, HOST, "deal")


async def test_a_racer_who_leaves_keeps_the_score_they_had(service: GameService) -> None:
    race_id = await opened(service, BOB)
    await service.races.start(race_id, HOST)
    board = await service.races.play(race_id, BOB, "deal")
    view = await service.races.leave(race_id, BOB)
    bob = view.racer(BOB)
    assert bob is not None and bob.status == "left" and bob.score == board.game.score
    with pytest.raises(RaceError, match="you left it"):
        await service.races.play(race_id, BOB, "deal")
    assert await service.races.race_of(BOB) is None
    assert await service.races.race_of(HOST) == race_id


async def test_the_time_limit_ends_the_race_and_keeps_each_score(
    service: GameService, clock: Any
) -> None:
    race_id = await opened(service, BOB)
    await service.races.start(race_id, HOST)
    host = await service.races.play(race_id, HOST, "deal")
    assert await service.races.due() == []
    clock.now += timedelta(minutes=10)
    with pytest.raises(RaceError, match="Time is up"):
        await service.races.play(race_id, BOB, "deal")
    assert await service.races.due() == [race_id]
    view = await service.races.standings(race_id)
    assert view.state == "over"
    assert {r.user_id: r.status for r in view.racers} == {HOST: "timed_out", BOB: "timed_out"}
    # As many cards home each (a deal sends none home): Bob had his from the start, the
    # host's deal came later, so Bob ranks first.
    assert [(r.user_id, r.place, r.score) for r in view.racers] == [
        (BOB, 1, host.game.score),
        (HOST, 2, host.game.score),
    ]
    assert (await service.stats(BOB)).races == 1


async def test_a_lobby_starts_by_itself_at_its_time_or_is_cancelled_alone(
    service: GameService, clock: Any
) -> None:
    lonely = await service.races.open(HOST, 1, CHANNEL, 7, lobby_minutes=1)
    crowded = await service.races.open(BOB, 1, CHANNEL + 1, 7, lobby_minutes=2)
    await service.races.join(crowded.race_id, CAROL)
    clock.now += timedelta(minutes=2)
    assert sorted(await service.races.due()) == [lonely.race_id, crowded.race_id]
    assert (await service.races.standings(lonely.race_id)).state == "cancelled"
    assert (await service.races.standings(crowded.race_id)).state == "running"
    assert await service.races.race_of(CAROL) == crowded.race_id


async def test_a_race_game_leaves_the_main_game_and_the_daily_alone(
    service: GameService,
) -> None:
    main = await service.new_game(BOB, 1, 42)
    race_id = await opened(service, BOB)
    await service.races.start(race_id, HOST)
    await service.races.play(race_id, BOB, "deal")
    await service.races.play(race_id, BOB, "undo")
    await service.races.play(race_id, BOB, "deal")
    after = await service.show(BOB)
    assert (after.deal_number, after.version, after.move_count) == (
        42,
        main.version,
        main.move_count,
    )
    await service.move(BOB, "deal")
    board = await service.races.board(race_id, BOB)
    assert board.game.deal_number == WINNING_DEAL and board.game.move_count > 0


async def test_a_restart_resumes_the_race_where_it_was(
    db_target: str, clock: Any, store: Store
) -> None:
    first = GameService(store, clock=clock, rng=random.Random(1))
    race_id = await opened(first, BOB)
    await first.races.start(race_id, HOST)
    before = await first.races.play(race_id, BOB, "deal")
    await store.close()
    async with await open_store(db_target) as again:
        second = GameService(again, clock=clock, rng=random.Random(1))
        assert await second.races.race_of(BOB) == race_id
        board = await second.races.board(race_id, BOB)
        assert board.game.board == before.game.board and board.game.version == before.game.version
        with pytest.raises(RaceError, match="already in race"):
            await second.races.open(BOB, 1, CHANNEL + 1, 7)
        clock.now += timedelta(minutes=11)
        assert await second.races.due() == [race_id]
        assert (await second.races.standings(race_id)).state == "over"


# --------------------------------------------------------------------------- the computer


class StillClock:
    """A clock that stands where the test puts it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_the_computer_races_blind_at_its_pace_and_is_stored_like_anyone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    import bot.service.races.computer as computer_module
    from bot.service.races.computer import COMPUTER_NAME
    from bot.store import computer_id
    from engine import Game
    from engine.notation import format_position
    from engine.solver import blind_move

    # a small budget: the blind player searches in the pure Python these tests run
    monkeypatch.setattr(computer_module, "COMPUTER_SAMPLES", 3)
    monkeypatch.setattr(computer_module, "COMPUTER_NODES", 300)
    clock = StillClock()
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1))
    races = service.races
    try:
        with pytest.raises(RaceError, match="every 2 to 60 seconds, not 1"):
            await races.open(HOST, 1, CHANNEL, WINNING_DEAL, computer_pace_s=1)
        view = await races.open(HOST, 1, CHANNEL, WINNING_DEAL, computer_pace_s=3)
        race_id, robot = view.race_id, computer_id(view.race_id)
        assert [(r.user_id, r.name) for r in view.racers] == [
            (HOST, None), (robot, COMPUTER_NAME),
        ]  # fmt: skip
        await races.start(race_id, HOST)  # the host and the computer: two racers
        assert races.computers is not None
        await races.due()  # the first tick: the computer's first move is set 3 s away
        await races.computers.settled()
        assert (await races.standings(race_id)).racers[1].moves == 1  # an Ace at the deal
        game = Game.new(WINNING_DEAL)
        game.play_safe_moves()
        start = {format_position(Game.new(WINNING_DEAL))}
        expected = blind_move(game, samples=3, max_nodes=300, avoid=start)
        clock.now += timedelta(seconds=4)
        await races.due()
        await races.computers.settled()
        computer = next(r for r in (await races.standings(race_id)).racers if r.user_id < 0)
        assert computer.moves == 2 and computer.status == "racing"  # one move, after 3 s
        stored = await store.races.load_race(race_id)
        assert stored is not None
        [row] = [r for r in stored[1] if r.user_id == robot]
        assert row.moves.split(";")[1].lstrip("+") == str(expected)  # the blind player's
        await races.due()  # too soon for another move
        await races.computers.settled()
        again = next(r for r in (await races.standings(race_id)).racers if r.user_id < 0)
        assert again.moves == computer.moves
    finally:
        await service.close()


async def test_a_board_asked_for_while_the_start_is_written_is_not_there_yet(
    service: GameService,
) -> None:
    """The racers' games exist while the start is being written: a board asked for then
    (an Activity's room redraws at every change) is refused as not started, not drawn
    from a race with no start time."""
    race_id = await opened(service, BOB)
    tables = service.races._tables
    writing, release = asyncio.Event(), asyncio.Event()
    real = tables.start_race

    async def slow(*args: Any) -> Any:
        writing.set()
        await release.wait()
        return await real(*args)

    tables.start_race = slow  # type: ignore[method-assign, assignment]
    starting = asyncio.create_task(service.races.start(race_id, HOST))
    await writing.wait()
    with pytest.raises(RaceError, match="hasn't started yet"):
        await service.races.board(race_id, BOB)
    release.set()
    assert (await starting).state == "running"
    assert (await service.races.board(race_id, BOB)).playing
