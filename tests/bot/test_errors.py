"""The service's refusals: a code and data for programs, a sentence each front end words
with its own spelling of the commands, and nothing worded for Discord in the service."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from bot.service import (
    Commands,
    DailyInProgressError,
    GameOverError,
    GameService,
    MoveError,
    NoGameError,
    ServiceError,
)
from bot.service.errors import ErrorCode
from bot.store import Store

SLASH = Commands(new="/reel new", resign="/reel resign")
TYPED = Commands(new="'new'", resign="'resign'")


def test_a_refusal_names_the_commands_as_the_front_end_spells_them() -> None:
    refused = DailyInProgressError(date(2026, 11, 29))
    assert refused.code is ErrorCode.DAILY_IN_PROGRESS and refused.data == {"day": "2026-11-29"}
    assert "give it up with /reel resign and then" in refused.text(SLASH)
    assert "give it up with 'resign' and then" in refused.text(TYPED)
    assert "/reel" not in str(refused)  # logs: no front end's spelling


def test_a_game_over_carries_its_deal_and_how_it_ended() -> None:
    over = GameOverError(42, "won")
    assert isinstance(over, NoGameError)  # a front end may treat both alike
    assert over.code is ErrorCode.GAME_OVER and over.data == {"deal": 42, "how": "won"}
    assert over.text(TYPED) == "Your game of deal 42 is over (won). Start a new one with 'new'."


def test_a_plain_refusal_is_its_sentence_everywhere() -> None:
    refused = MoveError("Only Aces go to the Ace pile.")
    assert refused.code is ErrorCode.BAD_MOVE and refused.data == {}
    assert refused.text(SLASH) == refused.text(TYPED) == str(refused) == refused.message


async def test_the_services_refusals_are_worded_by_the_caller(db_path: Path) -> None:
    service = GameService(await Store.open(db_path))
    try:
        with pytest.raises(NoGameError) as refused:
            await service.show(7)
        assert refused.value.code is ErrorCode.NO_GAME
        assert refused.value.text(TYPED) == "You have no game in progress. Start one with 'new'."
        await service.new_game(7, None, 5)
        await service.resign(7)
        with pytest.raises(ServiceError) as over:
            await service.deal(7)
        assert over.value.code is ErrorCode.GAME_OVER
        assert over.value.text(SLASH).endswith("Start a new one with /reel new.")
    finally:
        await service.close()
