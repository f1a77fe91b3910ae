"""Every game of the family through the service: new games, dailies, stats and boards per
game (issue 35). Both backends (``backends``): the store keys each game apart."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime
from typing import Any

import pytest

import bot.service.jobs as jobs_module
from bot.service import BadInputError, DailyInProgressError, GameService
from bot.service.daily_rules import (
    DAILY_CANDIDATES,
    DAILY_NODE_BUDGET,
    OTHER_GAMES_CANDIDATES,
    OTHER_GAMES_NODE_BUDGET,
    daily_budget,
    find_daily_deal,
)
from bot.service.wording import share_text
from engine import VARIANTS, Game, Status, play_line, render, variant_by_code
from engine.daily import daily_start_number

pytestmark = pytest.mark.backends

ALICE, BOB = 101, 102
GUILD = 555
DAY = date(2026, 12, 5)


def at_noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


@pytest.mark.parametrize("code", sorted(VARIANTS))
async def test_a_new_game_of_each_game_deals_that_game(service: GameService, code: str) -> None:
    view = await service.new_game(ALICE, GUILD, 5, variant=code)
    expected = Game.new(5, variant_by_code(code))
    assert view.variant == code and view.deal_number == 5
    assert view.position.split()[0] == code  # the stored position names the game
    name = VARIANTS[code].name  # Virginia Reel's too: its board's header does not name it
    assert view.message is not None and view.message.startswith(f"New game of {name}: deal 5")
    # the board shown is that game's deal: as many cards in play as the game has
    assert view.score == expected.score
    assert len(view.moves) == len([m for m in expected.legal_moves() if not m.is_deal])


async def test_a_game_is_named_by_its_code_in_any_case_and_a_wrong_one_is_refused(
    service: GameService,
) -> None:
    view = await service.new_game(ALICE, GUILD, 9, variant=" BJ ")
    assert view.variant == "bj"
    with pytest.raises(BadInputError, match=r"no game 'zz'.*rp \(Royal Parade\)"):
        await service.new_game(ALICE, GUILD, 9, variant="zz")
    assert (await service.show(ALICE)).variant == "bj"  # nothing changed


async def test_a_new_game_without_a_game_named_keeps_the_current_ones(
    service: GameService,
) -> None:
    assert (await service.new_game(ALICE, GUILD, 3)).variant == "vr"
    await service.new_game(ALICE, GUILD, 3, variant="tu")
    again = await service.new_game(ALICE, GUILD, 4)
    assert (again.variant, again.deal_number) == ("tu", 4)


async def test_a_game_survives_a_restart_as_the_game_it_is(
    service: GameService, clock: object
) -> None:
    view = await service.new_game(ALICE, GUILD, 11, variant="rp")
    choice = view.moves[0]
    played = await service.move(ALICE, choice.text, view.version)
    fresh = GameService(service.store, clock=service._clock)  # a restarted bot
    try:
        shown = await fresh.show(ALICE)
        assert (shown.variant, shown.board, shown.move_count) == (
            "rp",
            played.board,
            played.move_count,
        )
    finally:
        await fresh._pool.close()


async def test_stats_are_kept_per_game(service: GameService) -> None:
    await service.new_game(ALICE, GUILD, 1, variant="rp")
    await service.resign(ALICE)
    await service.new_game(ALICE, GUILD, 2, variant="vr")
    await service.resign(ALICE)
    await service.new_game(ALICE, GUILD, 3, variant="rp")
    parade = await service.stats(ALICE)  # the current game's game by default
    assert (parade.variant, parade.games, parade.deal_number) == ("rp", 1, 3)
    reel = await service.stats(ALICE, "vr")
    assert (reel.variant, reel.games, reel.deal_number) == ("vr", 1, None)
    assert (await service.stats(ALICE, "bp")).games == 0
    await service.resign(ALICE)
    assert (await service.stats(ALICE, "rp")).games == 2


async def test_each_game_has_its_own_daily_and_scored_attempt(
    service: GameService, clock: object
) -> None:
    clock.set(at_noon(DAY))  # type: ignore[attr-defined]
    reel = await service.daily(ALICE, GUILD)
    assert (reel.variant, reel.deal_number) == ("vr", daily_start_number(DAY))
    await service.resign(ALICE)
    parade = await service.daily(ALICE, GUILD, "rp")
    assert (parade.variant, parade.deal_number) == ("rp", daily_start_number(DAY, "rp"))
    assert parade.scored and parade.deal_number != reel.deal_number
    assert parade.message is not None
    assert parade.message.startswith(f"Daily {DAY.isoformat()} of Royal Parade: deal")
    await service.resign(ALICE)
    replay = await service.daily(ALICE, GUILD, "rp")
    assert not replay.scored  # the Royal Parade daily of the day was played already
    shared = share_text(DAY, won=False, score=parade.score, moves=0, card_total=104,
                        game_name="Royal Parade")  # fmt: skip
    assert parade.share_text is None and shared.startswith("Royal Parade daily")


async def test_a_daily_of_another_game_does_not_end_a_scored_daily_in_play(
    service: GameService, clock: object
) -> None:
    clock.set(at_noon(DAY))  # type: ignore[attr-defined]
    reel = await service.daily(ALICE, GUILD)
    await service.move(ALICE, reel.moves[0].text, reel.version)
    with pytest.raises(DailyInProgressError):
        await service.daily(ALICE, GUILD, "bj")
    shown = await service.show(ALICE)
    assert (shown.variant, shown.daily_date, shown.move_count) == ("vr", DAY, 1)


async def test_leaderboards_rank_each_game_apart(service: GameService, clock: object) -> None:
    clock.set(at_noon(DAY))  # type: ignore[attr-defined]
    await service.daily(ALICE, GUILD, "tu")
    await service.resign(ALICE)
    await service.daily(BOB, GUILD)
    await service.resign(BOB)
    three_up = await service.leaderboard("daily", "server", GUILD, variant="tu")
    reel = await service.leaderboard("daily", "server", GUILD)
    assert three_up.variant == "tu" and [r.user_id for r in three_up.rows] == [ALICE]
    assert reel.variant == "vr" and [r.user_id for r in reel.rows] == [BOB]
    all_time = await service.leaderboard("all-time", "global", variant="tu")
    assert [r.user_id for r in all_time.rows] == [ALICE]
    weekly = await service.leaderboard("weekly", "server", GUILD, variant="bp")
    assert weekly.rows == ()
    with pytest.raises(BadInputError, match="no game"):
        await service.leaderboard("daily", "server", GUILD, variant="xx")


def test_each_games_daily_starts_from_its_own_pinned_number() -> None:
    starts = {code: daily_start_number(DAY, code) for code in ("vr", "rp", "tu", "bj", "bp")}
    assert starts == {
        "vr": 48005603,
        "rp": 390582898,
        "tu": 448424630,
        "bj": 477072433,
        "bp": 630840307,
    }


async def test_a_three_pack_game_is_played_to_its_own_card_total(service: GameService) -> None:
    view = await service.new_game(ALICE, GUILD, 2, variant="bp")
    assert view.status is Status.PLAYING
    resigned = await service.resign(ALICE)
    assert resigned.finished
    [record] = await service.store.finished_games(ALICE)
    assert (record.variant, record.outcome) == ("bp", "resigned")


async def test_the_ghost_of_a_games_daily_is_that_games_best_run(
    service: GameService, clock: object
) -> None:
    clock.set(at_noon(DAY))  # type: ignore[attr-defined]
    await service.daily(BOB, GUILD)  # Bob's Virginia Reel daily, over
    await service.resign(BOB)
    await service.daily(ALICE, GUILD, "rp")
    view = await service.ghosts.toggle(ALICE, on=True)
    assert view.ghost == "👻 Ghost: no one has finished this daily yet."  # not Bob's run
    await service.daily(BOB, GUILD, "rp")
    await service.resign(BOB)
    shown = await service.show(ALICE)
    assert shown.ghost is not None and "the day's best run" in shown.ghost
    await service.resign(ALICE)
    reel = await service.daily(ALICE, GUILD)  # the ghost was on for Royal Parade's only
    assert reel.variant == "vr" and reel.ghost is None


async def test_a_replay_of_a_game_asks_the_solver_about_its_own_game(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[int, str]] = []

    def verdict(deal_number: int, variant: str = "vr") -> tuple[str, tuple[object, ...]]:
        asked.append((deal_number, variant))
        return "unknown", ()

    monkeypatch.setattr(jobs_module, "verdict_job", verdict)
    monkeypatch.setattr(service.replays._pool, "run", _inline)
    await service.new_game(ALICE, GUILD, 12, variant="bj")
    await service.resign(ALICE)
    game = await service.replays.find(ALICE)
    track = await service.replays.solver_track(game)
    assert asked == [(12, "bj")] and track is not None and track.verdict == "unknown"
    [choice] = await service.replays.choices(ALICE, ALICE)
    assert "Blue Jacket deal 12" in choice.label
    shown = await service.replays.position(ALICE, game.kind, game.key, 0)
    assert shown.variant == "bj" and shown.board == render(Game.new(12, variant_by_code("bj")))


def _inline(job: Any, *args: object) -> Any:
    """The pool's ``run``, in the calling thread (the job is a plain function here)."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    future.set_result(job(*args))
    return future


@pytest.mark.parametrize("code", ["rp", "tu", "bj", "bp"])
async def test_a_hint_in_each_game_is_a_legal_move_of_that_game(
    service: GameService, code: str
) -> None:
    view = await service.new_game(ALICE, GUILD, 21, variant=code)
    hint = await service.hint(ALICE, view.version)
    assert hint.move is not None
    played = await service.move(ALICE, hint.move, view.version)  # it plays, as hinted
    assert played.variant == code and played.move_count >= 1


def test_three_up_gets_the_budget_of_the_game_the_model_plays_as_it_does() -> None:
    model = (DAILY_CANDIDATES, DAILY_NODE_BUDGET)
    general = (OTHER_GAMES_CANDIDATES, OTHER_GAMES_NODE_BUDGET)
    assert {code: daily_budget(code) for code in VARIANTS} == {
        "vr": model, "tu": model, "rp": general, "bj": general, "bp": general,
    }  # fmt: skip
    # 2026-12-29: none of Three Up's first 12 candidates is won within 5,000 nodes (its
    # daily was dealt unproven); the sixth is within Virginia Reel's 20,000.
    daily = find_daily_deal(date(2026, 12, 29), variant="tu")
    assert daily.par is not None and daily.line is not None
    assert daily.deal_number == daily_start_number(date(2026, 12, 29), "tu") + 5
    game = Game.new(daily.deal_number, variant_by_code("tu"))
    play_line(game, daily.line)
    assert game.is_won()
