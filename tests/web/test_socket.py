"""``OpenBoard.send``: a page is never sent an older board than it has, and a request is
always answered, even when a push carried a newer board first."""

from __future__ import annotations

import json
from typing import Any, cast

from aiohttp import web

from bot.web.socket import OpenBoard
from bot.web.wire import BoardFrame


class Socket:
    """What ``OpenBoard`` uses of aiohttp's socket: the frames it was sent."""

    closed = False

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    async def send_str(self, text: str) -> None:
        self.frames.append(json.loads(text))


def board(version: int, request_id: int | None = None, view: str = "game") -> BoardFrame:
    """A board frame of ``version`` (its board cut down to its version: not drawn here)."""
    return cast(BoardFrame, {"type": "board", "id": request_id, "version": version,
                             "view": view, "board": {"version": version}})  # fmt: skip


async def test_an_answer_crossed_by_a_newer_push_is_the_newer_board_under_its_id() -> None:
    socket = Socket()
    page = OpenBoard(cast(web.WebSocketResponse, socket), 1)
    await page.send(board(107))  # a push: the race ended after the move
    await page.send(board(106, request_id=9))  # the move's own answer, older
    await page.send(board(105))  # an older push: dropped
    assert [(f["id"], f["version"]) for f in socket.frames] == [(None, 107), (9, 107)]
    assert socket.frames[1]["board"] == {"version": 107}


async def test_another_views_board_has_versions_of_its_own() -> None:
    socket = Socket()
    page = OpenBoard(cast(web.WebSocketResponse, socket), 1)
    await page.send(board(50, view="race:1:2"))
    await page.send(board(3, request_id=4, view="race:1:1"))  # back to their own board
    await page.send(board(2, view="race:1:1"))
    assert [(f["id"], f["version"], f["view"]) for f in socket.frames] == [
        (None, 50, "race:1:2"),
        (4, 3, "race:1:1"),
    ]
