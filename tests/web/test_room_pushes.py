"""The rooms' background work (bot/web/rooms/pushes.py): every task is tracked and
cancelled when the rooms close, a failure is logged, and changes marked together are one
push, counted (not a list that grows)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.web.discord_api import Instance
from bot.web.rooms.frames import RoomFrames
from bot.web.rooms.pushes import Pushes
from bot.web.rooms.seats import Room, Seat


class Service:
    """The rooms' frames read nothing from it in these tests."""


def pushes() -> Pushes:
    return Pushes(RoomFrames(Service()))  # type: ignore[arg-type]


async def test_work_still_running_when_the_rooms_close_is_cancelled_and_awaited() -> None:
    background = pushes()
    began, ended = asyncio.Event(), []

    async def adopt() -> None:  # as a room waits on the races service
        began.set()
        try:
            await asyncio.sleep(3600)
        finally:
            ended.append(True)

    task = background.start(adopt())
    await began.wait()
    await background.close()
    assert task.cancelled() and ended == [True]


async def test_a_failure_in_background_work_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    background = pushes()

    async def broken() -> None:
        raise RuntimeError("the races service broke")

    with caplog.at_level(logging.ERROR, logger="bot.web.rooms.pushes"):
        task = background.start(broken())
        with pytest.raises(RuntimeError):
            await task
        await asyncio.sleep(0)  # its done callback
    assert any("background work failed" in r.getMessage() for r in caplog.records)
    await background.close()


class Board:
    """A seat's socket, showing its player's own game: the frames it was sent."""

    view = "game"

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, frame: dict[str, object]) -> None:
        self.sent.append(str(frame["type"]))


async def test_changes_marked_together_are_one_push_of_the_room_and_counted() -> None:
    background = pushes()
    board = Board()
    room = Room(Instance("i-1", 5, 6, frozenset({7})))
    room.seats.append(Seat(board, 7))  # type: ignore[arg-type]
    for _ in range(5):  # five changes at once: one round of frames
        background.mark(room)
    assert room.task is not None
    await room.task
    assert board.sent == ["room"] and background.count == 1
    background.mark(room)  # a later change: another round
    await room.task
    assert board.sent == ["room", "room"] and background.count == 2
    await background.close()
