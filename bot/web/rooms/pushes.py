"""A room's live frames: after every change of its race (or its seats), each seat is sent
the room (standings) and, when it may have changed, the board it shows; coalesced, at
most one round every ``PUSH_EVERY`` seconds a room. Every task it starts is tracked and
cancelled on close."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, Final

from ...service.races.contract import RaceView
from .frames import RoomFrames, whose_board
from .seats import Room, Seat

log = logging.getLogger(__name__)

PUSH_EVERY: Final = 0.1
"""Seconds between two standings frames to a room, at least."""


class Pushes:
    """The rooms' pushes, and the other background work of the rooms (``start``)."""

    def __init__(self, frames: RoomFrames) -> None:
        self._frames = frames
        self._tasks: set[asyncio.Task[None]] = set()
        self.count = 0  # rounds of standings frames sent to a room (benches, metrics)

    def start(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` in the background until it ends or the rooms close; its failure
        is logged."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._ended)
        return task

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("a room's background work failed", exc_info=exc)

    def mark(self, room: Room) -> None:
        """The room changed: its seats are sent the new frames (soon, coalesced)."""
        room.dirty = True
        if room.task is None or room.task.done():
            room.task = self.start(self._push(room))

    async def _push(self, room: Room) -> None:
        """Send each seat the room (standings) and, if it changed, the board it shows."""
        while room.dirty and room.seats:
            room.dirty = False
            view = await self._frames.standing_any(room)
            self.count += 1
            for seat in list(room.seats):
                try:
                    await seat.board.send(self._frames.room_frame(room, seat, view))
                    if _changed_board(view, seat):
                        await seat.board.send(await self._frames.shown(room, seat))
                except Exception:  # a closed socket: it leaves on its own
                    log.debug("a room's frame was not sent", exc_info=True)
            await asyncio.sleep(PUSH_EVERY)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _changed_board(view: RaceView | None, seat: Seat) -> bool:
    """Whether the board the seat shows may have changed since it was last sent (its own
    saved game is followed by ``LiveBoards``)."""
    whose = whose_board(view, seat)
    if view is None or whose is None:
        return seat.board.view != "game"
    line = view.racer(whose)
    key = (f"race:{view.race_id}:{whose}", -1 if line is None else line.version)
    if key == seat.seen and seat.board.view == key[0]:
        return False
    seat.seen = key
    return True
