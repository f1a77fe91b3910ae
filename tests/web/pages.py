"""A page of the web board as the tests drive it without a browser: a WebSocket client
that sends requests and reads the frames the server sends back, each checked against its
definition in ``bot/web/wire.py`` (``wire_errors``)."""

from __future__ import annotations

import asyncio
import itertools
import json
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import aiohttp

from bot.web.wire import FRAMES, ApiAnswer

Frame = dict[str, Any]
WAIT = 5.0  # seconds a test waits for a frame before it fails
BY_TYPE = {get_args(get_type_hints(kind)["type"])[0]: kind for kind in FRAMES}


def wire_errors(value: Any, kind: Any = None, where: str = "frame") -> list[str]:
    """How ``value`` (a frame, as the JSON came) breaks its definition in ``wire.py``:
    a required key missing, a key not defined, a value of the wrong kind, down through the
    nested definitions; ``kind`` None: the frame's own, by its ``type``. Empty: none."""
    if kind is None:
        if not isinstance(value, dict) or value.get("type") not in BY_TYPE:
            return [f"{where}: not a frame the server defines: {value!r:.200}"]
        kind = BY_TYPE[value["type"]]
    if is_typeddict(kind):
        if not isinstance(value, dict):
            return [f"{where}: not an object ({kind.__name__}): {value!r:.80}"]
        fields = get_type_hints(kind)
        errors = [f"{where}: no {key!r}" for key in kind.__required_keys__ - set(value)]
        unknown = sorted(set(value) - set(fields))
        errors += [f"{where}: {key!r} is not a field of {kind.__name__}" for key in unknown]
        for key in sorted(set(value) & set(fields)):
            errors += wire_errors(value[key], fields[key], f"{where}.{key}")
        return errors
    origin, args = get_origin(kind), get_args(kind)
    if origin in (Union, types.UnionType):
        found = [wire_errors(value, arg, where) for arg in args]
        return [] if [] in found else min(found, key=len)
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is none of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: not a list: {value!r:.80}"]
        items = enumerate(value)
        return [e for i, item in items for e in wire_errors(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: not an object: {value!r:.80}"]
        pairs = value.items()
        return [e for k, item in pairs for e in wire_errors(item, args[1], f"{where}.{k}")]
    if kind is None or kind is type(None):
        return [] if value is None else [f"{where}: {value!r:.80} is not null"]
    if kind is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    return [] if ok else [f"{where}: {value!r:.80} is not {kind.__name__}"]


def checked(frame: Frame) -> Frame:
    """``frame``, asserted to be one the server defines (``wire_errors``)."""
    errors = wire_errors(frame)
    assert not errors, f"a frame off its definition in bot/web/wire.py: {errors}"
    return frame


async def answer_of(got: aiohttp.ClientResponse) -> Frame:
    """A JSON API answer, checked: a frame (``GET /api/board``, a refusal), or the frames
    of ``POST /api/play`` under their first one's type (``wire.ApiAnswer``)."""
    answer: Frame = await got.json()
    errors = wire_errors(answer, ApiAnswer if "frames" in answer else None, "answer")
    assert not errors, f"an answer off its definition in bot/web/wire.py: {errors}"
    return answer


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
        frame: Frame = checked(json.loads(message.data))
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
