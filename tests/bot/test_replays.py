"""Replays through the service: the positions are the stored moves replayed, the solver's
track is its winning line, and a daily is never shown to others before its day ends."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from known_win import WINNING_DEAL, WINNING_LINE, WINNING_TEXT

from bot.service import BadInputError, GameService
from bot.service import jobs as jobs_module
from bot.service.dailies import DailyDeals
from bot.service.replays import GAME_KIND, Recorded, SolverTrack, scores_along
from bot.store import DailyDeal, FinishedGame, Store
from engine import Game, Move, play_line, render
from engine.daily import utc_date


class FakeClock(Protocol):
    """The ``clock`` fixture of conftest.py: read it, or set it."""

    now: datetime

    def __call__(self) -> datetime: ...

    def set(self, when: datetime) -> None: ...


ALICE, BOB = 201, 202
LINE_MOVES = 20  # moves of the known line a test game plays before it is resigned


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> AsyncIterator[GameService]:
    """A service whose solver runs in a thread, so a test can stand in for its jobs."""
    service = GameService(store, clock=clock, rng=random.Random(7), executor=ThreadPoolExecutor(1))
    yield service
    await service.close()


@pytest.fixture
def known_solver(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The solver's search answers deal 28's known winning line (and counts its calls)."""
    calls: list[int] = []

    def verdict(deal_number: int, variant: str = "vr") -> tuple[str, tuple[Move, ...]]:
        calls.append(deal_number)
        if deal_number != WINNING_DEAL:
            return "unknown", ()
        game = Game.new(WINNING_DEAL)
        play_line(game, WINNING_TEXT)
        return "won", game.history

    monkeypatch.setattr(jobs_module, "verdict_job", verdict)
    return calls


@pytest.fixture
def daily_is_28(monkeypatch: pytest.MonkeyPatch) -> None:
    async def deal_28(self: DailyDeals, day: date, variant: str = "vr") -> DailyDeal:
        return DailyDeal(day, WINNING_DEAL, WINNING_TEXT, len(WINNING_LINE))

    monkeypatch.setattr(DailyDeals, "find", deal_28)


async def play_and_resign(service: GameService, user: int, moves: int = LINE_MOVES) -> None:
    """Play the first ``moves`` moves of deal 28's known line on the current game, resign."""
    view = await service.show(user)
    for text in WINNING_LINE[:moves]:
        view = await service.move(user, text, view.version)
    await service.resign(user)


async def finished(service: GameService, user: int) -> FinishedGame:
    return (await service.store.finished_games(user))[-1]


def position_at(game: FinishedGame, move: int, symbols: bool = True) -> tuple[str, int]:
    """The board and cards home of ``game`` after ``move`` moves, replayed here by hand."""
    board = Game.new(game.deal_number)
    for token in game.moves.split(";")[:move]:
        play_line(board, token)
    return render(board, symbols), board.score


# ---------------------------------------------------------------------- positions


async def test_every_position_of_a_replay_is_the_stored_moves_replayed(
    service: GameService, known_solver: list[int]
) -> None:
    await service.new_game(ALICE, None, WINNING_DEAL)
    await play_and_resign(service, ALICE)
    game = await finished(service, ALICE)
    assert game.id is not None and game.move_count == LINE_MOVES
    for move in range(LINE_MOVES + 1):
        view = await service.replays.position(ALICE, GAME_KIND, game.id, move)
        assert (view.board, view.score) == position_at(game, move)
        assert view.move == move and view.total == LINE_MOVES
        assert (view.last_move is None) == (move == 0)
    past = await service.replays.position(ALICE, GAME_KIND, game.id, 999)
    assert past.move == LINE_MOVES and past.board == position_at(game, LINE_MOVES)[0]


async def test_the_solver_track_is_its_winning_line_at_the_same_move_searched_once(
    service: GameService, known_solver: list[int]
) -> None:
    await service.new_game(ALICE, None, WINNING_DEAL)
    await play_and_resign(service, ALICE, 5)
    game = await finished(service, ALICE)
    assert game.id is not None
    line = Game.new(WINNING_DEAL)
    play_line(line, WINNING_TEXT)
    expected = scores_along(WINNING_DEAL, "vr", line.history)
    for move in range(6):
        view = await service.replays.position(ALICE, GAME_KIND, game.id, move)
        assert view.solver is not None and view.solver.verdict == "won"
        assert view.solver_score == expected[move]
    assert known_solver == [WINNING_DEAL]  # kept after the first search
    assert view.solver is not None and view.solver.length == len(WINNING_LINE)
    assert expected[-1] == 104


@given(move=st.integers(min_value=0, max_value=300))
@settings(max_examples=50)
def test_a_solver_track_past_its_end_stays_at_its_last_count(move: int) -> None:
    track = SolverTrack("won", (0, 1, 1, 3))
    assert track.at(move) == (0, 1, 1, 3)[min(move, 3)]
    assert SolverTrack("unknown").at(move) is None


async def test_a_daily_uses_its_stored_proof_without_a_search(
    service: GameService, known_solver: list[int], daily_is_28: None
) -> None:
    await service.daily(ALICE, None)
    await play_and_resign(service, ALICE, 3)
    game = await finished(service, ALICE)
    assert game.id is not None and game.daily_date is not None
    view = await service.replays.position(ALICE, GAME_KIND, game.id, 3)
    assert view.solver is not None and view.solver.length == len(WINNING_LINE)
    assert known_solver == []


# ---------------------------------------------------------------------- who may replay what


async def test_a_daily_is_not_replayed_by_others_before_its_day_ends(
    service: GameService, clock: FakeClock, known_solver: list[int], daily_is_28: None
) -> None:
    await service.daily(ALICE, None)
    await play_and_resign(service, ALICE, 4)
    game = await finished(service, ALICE)
    assert game.id is not None and game.daily_date == utc_date(clock.now)
    with pytest.raises(BadInputError, match="once that day is over"):
        await service.replays.position(BOB, GAME_KIND, game.id, 2)
    with pytest.raises(BadInputError, match="once that day is over"):
        await service.replays.find(BOB, day=game.daily_date, player_id=ALICE)
    with pytest.raises(BadInputError, match="no finished game"):
        await service.replays.find(BOB, player_id=ALICE)  # her only game is hidden
    own = await service.replays.position(ALICE, GAME_KIND, game.id, 2)
    assert own.private  # her own, at once, shown to her alone
    clock.set(datetime.combine(game.daily_date + timedelta(days=1), datetime.min.time(), UTC))
    theirs = await service.replays.position(BOB, GAME_KIND, game.id, 2)
    assert not theirs.private and theirs.board == own.board
    assert (await service.replays.find(BOB, player_id=ALICE)).key == game.id


async def test_an_unscored_game_of_the_days_deal_is_hidden_too(
    service: GameService, clock: FakeClock, known_solver: list[int], daily_is_28: None
) -> None:
    await service.daily(ALICE, None)
    await play_and_resign(service, ALICE, 2)
    await service.daily(ALICE, None)  # the unscored replay of the day
    await play_and_resign(service, ALICE, 3)
    await service.new_game(BOB, None, WINNING_DEAL)  # the day's deal, by its number
    await play_and_resign(service, BOB, 3)
    replay = await finished(service, ALICE)
    assert replay.daily_date is None and replay.deal_number == WINNING_DEAL
    bobs = await finished(service, BOB)
    for game in (replay, bobs):
        assert game.id is not None
        other = BOB if game.user_id == ALICE else ALICE
        with pytest.raises(BadInputError, match="daily"):
            await service.replays.position(other, GAME_KIND, game.id, 1)
    clock.set(clock.now + timedelta(days=2))
    assert replay.id is not None
    await service.replays.position(BOB, GAME_KIND, replay.id, 1)


async def test_a_player_who_is_not_watchable_is_replayed_by_no_one_else(
    service: GameService, known_solver: list[int]
) -> None:
    await service.new_game(ALICE, None, WINNING_DEAL)
    await play_and_resign(service, ALICE, 2)
    game = await finished(service, ALICE)
    assert game.id is not None
    await service.update_settings(ALICE, watchable=False)
    with pytest.raises(BadInputError, match="not to be watched"):
        await service.replays.position(BOB, GAME_KIND, game.id, 1)
    assert await service.replays.choices(BOB, ALICE) == []
    await service.replays.position(ALICE, GAME_KIND, game.id, 1)
    await service.update_settings(ALICE, watchable=True)
    await service.replays.position(BOB, GAME_KIND, game.id, 1)


async def test_replay_finds_the_last_game_a_date_or_an_id_and_says_when_there_is_none(
    service: GameService, known_solver: list[int], daily_is_28: None, clock: FakeClock
) -> None:
    with pytest.raises(BadInputError, match="You have no finished game"):
        await service.replays.find(ALICE)
    await service.new_game(ALICE, None, 16)
    await service.resign(ALICE)
    first = await finished(service, ALICE)
    await service.daily(ALICE, None)
    await play_and_resign(service, ALICE, 2)
    daily = await finished(service, ALICE)
    assert (await service.replays.find(ALICE)).key == daily.id
    assert daily.daily_date is not None
    assert (await service.replays.find(ALICE, day=daily.daily_date)).key == daily.id
    assert first.id is not None
    assert (await service.replays.find(BOB, key=first.id)).user_id == ALICE
    with pytest.raises(BadInputError, match="no finished scored daily of 2020-01-01"):
        await service.replays.find(ALICE, day=date(2020, 1, 1))
    with pytest.raises(BadInputError, match="no finished game with that number"):
        await service.replays.find(ALICE, key=999_999)
    lines = await service.replays.choices(ALICE, ALICE)
    assert [c.key for c in lines] == [daily.id, first.id]
    assert lines[0].label.startswith(f"#{daily.id} · today · daily ")
    assert [c.key for c in await service.replays.choices(ALICE, ALICE, "deal 16")] == [first.id]


async def test_another_kind_of_finished_game_plugs_in(
    service: GameService, known_solver: list[int]
) -> None:
    other = Recorded("league", 7, ALICE, "vr", 16, "", "resigned", 0, datetime.now(UTC))

    async def load(key: int) -> Recorded | None:
        return other if key == 7 else None

    service.replays.register("league", load)
    view = await service.replays.position(BOB, "league", 7, 0)
    assert view.player_id == ALICE and view.total == 0
    with pytest.raises(ValueError):  # a kind is registered once ("race" is the races')
        service.replays.register("race", load)
