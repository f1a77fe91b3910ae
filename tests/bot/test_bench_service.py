"""Tests of the service bench's planned players: their commands replay through the service,
and an answer or a stored game that differs from the plan is caught."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.service import (
    GUILD_ID,
    DesyncError,
    Player,
    Tally,
    command,
    plan_games,
    planned_game,
    player_rng,
    verify,
)
from bot.service import GameService
from bot.store import Store
from engine import Game, Status, parse_move

COMMANDS = 40  # enough for at least one finished game per player (random play sticks in ~14)


async def start_players(db_path: Path, users: int) -> tuple[GameService, list[Player]]:
    service = GameService(await Store.open(db_path), rng=random.Random(3))
    players = []
    for user_id in range(1, users + 1):
        view = await service.new_game(user_id, GUILD_ID, 1000 + user_id)
        steps = plan_games(view.deal_number, COMMANDS, player_rng(5, user_id))
        players.append(Player(user_id, view.deal_number, steps, version=view.version))
    return service, players


def test_plans_are_random_legal_play_with_new_games() -> None:
    steps = plan_games(1001, COMMANDS, player_rng(5, 1))
    assert steps == plan_games(1001, COMMANDS, player_rng(5, 1))  # seeded
    assert len(steps) == COMMANDS
    game = Game.new(1001)
    new_games = 0
    for text, deal, status, legal in steps:
        if text is None:
            assert game.status is not Status.PLAYING  # only once the game is over
            game = Game.new(deal)
            new_games += 1
        else:
            assert legal == len(game.legal_moves())
            game.play(parse_move(game, text))  # legal, or this raises
        assert game.status.value == status
    assert new_games >= 1


@pytest.mark.parametrize("ask_choices", [False, True])
async def test_planned_commands_replay_through_the_service(
    tmp_path: Path, ask_choices: bool
) -> None:
    db_path = tmp_path / "bench.db"
    service, players = await start_players(db_path, 3)
    tally = Tally()
    for player in players:
        for _ in range(COMMANDS):
            assert await command(service, player, tally, ask_choices)
    assert tally.commands == 3 * COMMANDS and tally.ran_out == 0
    assert not await command(service, players[0], tally, ask_choices)  # the plan is used up
    assert tally.ran_out == 1 and tally.commands == 3 * COMMANDS
    await service.close()
    await verify(db_path, players)  # every stored game is the planned one
    # A fresh service finds as many finished games as the plans started new ones.
    service = GameService(await Store.open(db_path))
    try:
        for player in players:
            stats = await service.stats(player.user_id)
            assert stats.games == sum(1 for step in player.steps if step[0] is None)
    finally:
        await service.close()


async def test_an_answer_that_does_not_match_the_plan_stops_the_bench(tmp_path: Path) -> None:
    service, [player] = await start_players(tmp_path / "bench.db", 1)
    try:
        text, deal, _, legal = player.steps[0]
        player.steps[0] = (text, deal, "won", legal)
        with pytest.raises(DesyncError, match="the plan expects version 2 status won"):
            await command(service, player, Tally(), False)
    finally:
        await service.close()


async def test_a_stored_game_that_is_not_the_planned_one_fails_verification(
    tmp_path: Path,
) -> None:
    db_path = tmp_path / "bench.db"
    service, [player] = await start_players(db_path, 1)
    tally = Tally()
    for _ in range(3):
        await command(service, player, tally, False)
    # The player's plan says it played another legal move the last time: same status,
    # same version, a different board.
    game = planned_game(player)
    last = str(game.undo())
    other = next(str(m) for m in game.legal_moves() if str(m) != last)
    game.play(parse_move(game, other))
    text, deal, _, legal = player.steps[2]
    assert text == last
    player.steps[2] = (other, deal, game.status.value, legal)
    await service.close()
    with pytest.raises(DesyncError, match="user 1: stored deal"):
        await verify(db_path, [player])


async def test_move_choices_that_do_not_match_the_plan_stop_the_bench(tmp_path: Path) -> None:
    service, [player] = await start_players(tmp_path / "bench.db", 1)
    try:
        text, deal, status, legal = player.steps[0]
        assert text is not None
        player.steps[0] = (text, deal, status, legal + 1)
        with pytest.raises(DesyncError, match=f"{legal} choices, the plan has {legal + 1}"):
            await command(service, player, Tally(), True)
    finally:
        await service.close()
