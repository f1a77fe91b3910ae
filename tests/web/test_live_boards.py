"""``LiveBoards`` (bot/web/socket.py): an open page is pushed each change of its player's
game, even one heard of while a read for the previous change was on its way."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, cast

import pytest

from bot.web import socket
from bot.web.socket import LiveBoards, OpenBoard
from bot.web.wire import BoardFrame

USER = 7


class Page:
    """The socket of an open page: what it was sent."""

    closed = False

    def __init__(self) -> None:
        self.versions: list[int] = []

    async def send_str(self, text: str) -> None:
        self.versions.append(json.loads(text)["version"])

    async def close(self, **_: object) -> None:
        self.closed = True


class Service:
    """What ``LiveBoards`` asks of the service: to be told of the changes."""

    def __init__(self) -> None:
        self.tell: Callable[[int, int], None] = lambda user, version: None

    def on_change(self, listener: Callable[[int, int], None], following: Any) -> None:
        self.tell = listener


async def test_a_change_heard_while_the_previous_ones_board_is_read_is_pushed_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the page opens as another process writes twice: the push for the first write reads
    # the board while the page's own answer (the same version) goes out and the second
    # write is stored and told; that read is then no newer than what the page has, but the
    # second change was heard meanwhile, so the board is read again and pushed
    service = Service()
    boards = LiveBoards(service)  # type: ignore[arg-type]
    page = Page()
    board = OpenBoard(page, USER)  # type: ignore[arg-type]
    boards.add(board)
    stored = [1]
    reads = 0

    async def current(_: object, user_id: int) -> dict[str, Any]:
        nonlocal reads
        reads += 1
        version = stored[0]
        if reads == 1:
            answer = {"type": "board", "version": 1, "id": 1}  # the page's answer (cut down)
            await board.send(cast(BoardFrame, answer))
            stored[0] = 2  # the second write lands, and is told, while this read is out
            service.tell(USER, 2)
        await asyncio.sleep(0)
        return {"type": "board", "version": version}

    monkeypatch.setattr(socket, "current", current)
    service.tell(USER, 1)  # the first write, as a catch-up tells it
    async with asyncio.timeout(5):
        while board.pushing or not page.versions[1:]:
            await asyncio.sleep(0.01)
    assert page.versions == [1, 2] and reads == 2
    await boards.close()
