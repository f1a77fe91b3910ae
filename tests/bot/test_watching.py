"""Spectating and the daily's ghost through the service: who may be watched, what a live
watch shows as the game goes on, and the ghost's line on a daily's board."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Protocol

import pytest
from known_win import WINNING_DEAL, WINNING_LINE, WINNING_TEXT

from bot.service import BadInputError, GameService, NoGameError
from bot.service.dailies import DailyDeals
from bot.service.watching import (
    ENDED_DAILY,
    ENDED_FINISHED,
    ENDED_OTHER_GAME,
    ENDED_UNWATCHABLE,
)
from bot.store import DailyDeal
from engine import Game, play_line
from engine.daily import utc_date


class FakeClock(Protocol):
    """The ``clock`` fixture of conftest.py: read it, or set it."""

    now: datetime

    def __call__(self) -> datetime: ...

    def set(self, when: datetime) -> None: ...


ALICE, BOB, CAROL = 301, 302, 303


@pytest.fixture
def daily_is_28(monkeypatch: pytest.MonkeyPatch) -> None:
    async def deal_28(self: DailyDeals, day: date, variant: str = "vr") -> DailyDeal:
        return DailyDeal(day, WINNING_DEAL, WINNING_TEXT, len(WINNING_LINE))

    monkeypatch.setattr(DailyDeals, "find", deal_28)


# ---------------------------------------------------------------------- watching


async def test_a_watch_is_refused_for_oneself_the_unwatchable_no_game_and_a_game_over(
    service: GameService,
) -> None:
    with pytest.raises(BadInputError, match="That's you"):
        await service.watching.start(ALICE, ALICE)
    with pytest.raises(BadInputError, match="no game in play"):
        await service.watching.start(BOB, ALICE)
    await service.new_game(ALICE, None, 16)
    assert (await service.watching.start(BOB, ALICE)).deal_number == 16
    await service.update_settings(ALICE, watchable=False)
    with pytest.raises(BadInputError, match="chosen not to be watched"):
        await service.watching.start(BOB, ALICE)
    await service.update_settings(ALICE, watchable=True)
    await service.resign(ALICE)
    with pytest.raises(BadInputError, match="last game is over"):
        await service.watching.start(BOB, ALICE)


async def test_a_daily_is_not_watched_until_its_day_ends(
    service: GameService, clock: FakeClock, daily_is_28: None
) -> None:
    await service.new_game(ALICE, None, 16)
    view = await service.watching.start(BOB, ALICE)
    await service.daily(ALICE, None)
    assert (await service.watching.look(ALICE, view.started_at)).ended == ENDED_DAILY
    with pytest.raises(BadInputError, match="daily"):
        await service.watching.start(BOB, ALICE)
    clock.set(clock.now + timedelta(days=1))  # yesterday's daily, still in play
    assert (await service.watching.start(BOB, ALICE)).daily_date == utc_date(clock.now) - timedelta(
        days=1
    )


async def test_a_live_watch_follows_one_game_to_its_end(service: GameService) -> None:
    start = await service.new_game(ALICE, None, WINNING_DEAL)
    watched = await service.watching.start(BOB, ALICE)
    for text in WINNING_LINE[:3]:
        played = await service.move(ALICE, text)
        look = await service.watching.look(ALICE, watched.started_at)
        assert look.live and look.game is not None
        assert (look.game.board, look.game.move_count) == (played.board, played.move_count)
    await service.resign(ALICE)
    over = await service.watching.look(ALICE, watched.started_at)
    assert over.ended == ENDED_FINISHED and over.game is not None and over.game.finished
    await service.new_game(ALICE, None, 16)
    other = await service.watching.look(ALICE, watched.started_at)
    assert other.ended == ENDED_OTHER_GAME and other.game is None
    assert start.started_at == watched.started_at


async def test_turning_watchable_off_ends_the_watches_at_once(service: GameService) -> None:
    heard: list[int] = []
    service.watching.on_unwatchable(heard.append)
    await service.new_game(ALICE, None, 16)
    watched = await service.watching.start(BOB, ALICE)
    await service.update_settings(ALICE, symbols=False)
    assert heard == []
    await service.update_settings(ALICE, watchable=False)
    assert heard == [ALICE]
    look = await service.watching.look(ALICE, watched.started_at)
    assert look.ended == ENDED_UNWATCHABLE and look.game is None


# ---------------------------------------------------------------------- the ghost


def cards_home_after(moves: int) -> int:
    game = Game.new(WINNING_DEAL)
    play_line(game, ";".join(WINNING_LINE[:moves]))
    return game.score


async def test_the_ghost_is_refused_outside_a_daily_in_play(
    service: GameService, daily_is_28: None
) -> None:
    with pytest.raises(NoGameError):
        await service.ghosts.toggle(ALICE)
    await service.new_game(ALICE, None, 16)
    with pytest.raises(BadInputError, match="only while you play a daily"):
        await service.ghosts.toggle(ALICE)
    await service.daily(ALICE, None)
    await service.resign(ALICE)
    with pytest.raises(BadInputError, match="daily is over"):
        await service.ghosts.toggle(ALICE)


async def test_the_ghost_shows_the_days_best_run_at_the_players_move(
    service: GameService, daily_is_28: None
) -> None:
    # Carol's run gets further than Bob's: hers is the day's best.
    for user, moves in ((BOB, 10), (CAROL, 40)):
        view = await service.daily(user, None)
        for text in WINNING_LINE[:moves]:
            view = await service.move(user, text, view.version)
        await service.resign(user)
    view = await service.daily(ALICE, None)
    assert view.ghost is None  # off by default
    view = await service.ghosts.toggle(ALICE)
    at_deal = cards_home_after(0)
    assert view.ghost == f"👻 Ghost: the day's best run had {at_deal} cards home at move 0."
    for text in WINNING_LINE[:30]:
        view = await service.move(ALICE, text, view.version)
    assert view.ghost == (
        f"👻 Ghost: the day's best run had {cards_home_after(30)} cards home at move 30."
    )
    for text in WINNING_LINE[30:45]:
        view = await service.move(ALICE, text, view.version)
    assert view.ghost == (
        f"👻 Ghost: the day's best run ended at move 40 with {cards_home_after(40)} cards home."
    )
    view = await service.ghosts.toggle(ALICE)
    assert view.ghost is None and (await service.show(ALICE)).ghost is None
    assert (await service.show(BOB)).ghost is None  # (his game is over)


async def test_the_ghost_says_when_no_one_has_finished_the_daily(
    service: GameService, daily_is_28: None
) -> None:
    await service.daily(ALICE, None)
    view = await service.ghosts.toggle(ALICE, True)
    assert view.ghost == "👻 Ghost: no one has finished this daily yet."
    assert (await service.ghosts.toggle(ALICE, True)).ghost is not None  # on stays on
