"""Replays of race games (``GameService.race_replays``, the replay kind ``race``): a
racer's game once its race is over, move by move as it was stored, and the refusals
(no such race, not over, not in it, someone who does not want to be watched)."""

from __future__ import annotations

import pytest
from test_races import BOB, CAROL, HOST, opened, win

from bot.service import BadInputError, GameService
from bot.service.races.replays import RACE_KIND
from engine import Game, play_line, render


async def test_a_racers_game_is_replayed_as_it_was_stored_once_the_race_is_over(
    service: GameService,
) -> None:
    race_id = await opened(service, BOB)
    await service.races.start(race_id, HOST)
    await service.races.play(race_id, BOB, "deal")
    await service.races.play(race_id, BOB, "deal")
    with pytest.raises(BadInputError, match="not over yet"):
        await service.race_replays.key(race_id, BOB)
    await win(service, race_id, HOST)
    over = await service.races.leave(race_id, BOB)
    assert over.state == "over"

    key = await service.race_replays.key(race_id, BOB)
    found = await service.store.races.racer_by_key(key)
    assert found is not None
    _, racer = found
    assert racer.user_id == BOB
    tokens = [t for t in racer.moves.split(";") if t]
    last = await service.replays.position(BOB, RACE_KIND, key, len(tokens))
    board = Game.new(over.deal_number)
    for token in tokens:
        play_line(board, token)
    assert (last.total, last.board, last.score) == (len(tokens), render(board, True), racer.score)
    assert last.outcome == "left the race"
    first = await service.replays.position(BOB, RACE_KIND, key, 0)
    assert first.board == render(Game.new(over.deal_number), True)
    hosts = await service.race_replays.key(race_id, HOST, own=False)
    host = await service.replays.position(BOB, RACE_KIND, hosts, 10_000)  # the last move
    assert (host.outcome, host.score, host.move) == ("won", 104, host.total)


async def test_replays_of_races_are_refused_with_the_reason(service: GameService) -> None:
    with pytest.raises(BadInputError, match="no race 99"):
        await service.race_replays.key(99, HOST)
    race_id = await opened(service, BOB)
    await service.races.start(race_id, HOST)
    await win(service, race_id, HOST)
    await service.races.leave(race_id, BOB)
    with pytest.raises(BadInputError, match="You were not in race"):
        await service.race_replays.key(race_id, CAROL)
    with pytest.raises(BadInputError, match="That player was not in race"):
        await service.race_replays.key(race_id, CAROL, own=False)
    key = await service.race_replays.key(race_id, BOB)
    await service.update_settings(BOB, watchable=False)  # Bob wants no audience
    with pytest.raises(BadInputError):
        await service.replays.position(CAROL, RACE_KIND, key, 0)
    assert (await service.replays.position(BOB, RACE_KIND, key, 0)).player_id == BOB
    assert await service.replays.load(RACE_KIND, key + 1000) is None


async def test_a_cancelled_race_has_nothing_to_replay(service: GameService) -> None:
    race_id = await opened(service)
    await service.races.leave(race_id, HOST)  # the host leaving the lobby cancels it
    with pytest.raises(BadInputError, match="cancelled"):
        await service.race_replays.key(race_id, HOST)
