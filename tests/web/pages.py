"""A page of the web board as the tests drive it without a browser: a WebSocket client
that sends requests and reads the frames the server sends back."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import aiohttp

Frame = dict[str, Any]
WAIT = 5.0  # seconds a test waits for a frame before it fails


class Page:
    """One open board: ``ask`` sends a request and returns its answer's frames."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.frames: list[Frame] = []  # every frame received, in order
        self._ids = itertools.count(1)
        self._seen = 0

    @classmethod
    async def open(cls, session: aiohttp.ClientSession, url: str, **kwargs: Any) -> Page:
        page = cls(await session.ws_connect(url, **kwargs))
        await page.next("hello")
        return page

    async def receive(self, timeout: float = WAIT) -> Frame:
        message = await self.ws.receive(timeout=timeout)
        assert message.type is aiohttp.WSMsgType.TEXT, f"not a text frame: {message!r}"
        frame: Frame = json.loads(message.data)
        self.frames.append(frame)
        return frame

    async def next(self, kind: str, timeout: float = WAIT) -> Frame:
        """The next frame of type ``kind`` not read yet (others before it are skipped)."""
        async with asyncio.timeout(timeout):
            while True:
                while self._seen < len(self.frames):
                    frame = self.frames[self._seen]
                    self._seen += 1
                    if frame["type"] == kind:
                        return frame
                await self.receive(timeout)

    async def send(self, frame: Frame | str) -> None:
        await self.ws.send_str(frame if isinstance(frame, str) else json.dumps(frame))

    async def ask(self, frame: Frame) -> list[Frame]:
        """Send ``frame`` with a fresh id; the frames that answer it: a board (after a hint
        or a stale refusal), no game, or a refusal alone."""
        request_id = next(self._ids)
        await self.send({**frame, "id": request_id})
        answers: list[Frame] = []
        async with asyncio.timeout(WAIT):
            while True:
                got = await self.receive()
                if got.get("id") != request_id:
                    continue
                answers.append(got)
                if got["type"] in ("board", "no-game"):
                    return answers
                if got["type"] == "error" and got["code"] != "stale":
                    return answers

    async def board(self) -> Frame:
        """The current board, asked for."""
        (frame,) = await self.ask({"type": "board"})
        return frame

    async def close(self) -> None:
        await self.ws.close()
