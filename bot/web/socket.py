"""One WebSocket per open board: the page's requests in, its boards out, live.

A page opens ``/ws``; the server answers with a ``hello`` frame (the games of the
family, whether someone is signed in, the limits) and the board. Each request then gets
its answer (``play.answer``), under the same per-user cooldown as the Discord bot's.
``LiveBoards`` follows the service's changes (``GameService.on_change``): when a
player's game changes by any road (a chat move, another tab), each of that player's
open boards is sent the new board at once, so a move in chat shows on the web board
within a moment. A board is never sent an older version than it has.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final, Protocol

from aiohttp import WSCloseCode, WSMsgType, web

from ..service import GameService
from ..service.cooldown import Cooldown, slow_down
from .board import games
from .play import answer, current
from .protocol import FrameError, Request, encode, error_frame, parse_frame
from .sessions import NO_SESSION
from .wire import MAX_FRAME, PROTOCOL, REFUSED, ApiAnswer, BoardFrame, ErrorFrame, Frame, HelloFrame

log = logging.getLogger(__name__)

SOCKET_CAP: Final = 64 * 1024
"""Bytes aiohttp reads of one message before it closes the socket (1009, too big); a
message between ``MAX_FRAME`` and this gets an error frame and the socket lives on."""
HEARTBEAT: Final = 30.0


class OpenBoard:
    """One page's socket: its player, and the newest version it was sent."""

    def __init__(self, ws: web.WebSocketResponse, user_id: int | None) -> None:
        self.ws = ws
        self.user_id = user_id
        self.view = "game"  # whose board it shows: "game" (the player's), or a race game's
        self.last: BoardFrame | None = None  # the last board sent (of that view)
        self.wanted = -1  # the newest version heard of for this player
        self.pushing = False
        self.heard = 0  # the changes heard of: a read begun before the latest may be old
        self._lock = asyncio.Lock()

    @property
    def sent(self) -> int:
        """The version of the last board sent (of the view shown), -1 before any."""
        return -1 if self.last is None else self.last["version"]

    async def send(self, frame: Frame) -> None:
        """Send ``frame``; a board older than one already sent is not (a push and an
        answer may cross): a push is dropped, and an answer is the newer board sent
        again under the request's id, so that the page hears its request answered."""
        async with self._lock:
            if frame["type"] == "board":
                view = frame.get("view", "game")
                if view != self.view:  # another game's board: its versions are its own
                    self.view, self.last = view, None
                if frame["version"] < self.sent:
                    if frame["id"] is None or self.last is None:
                        return
                    frame = {**self.last, "id": frame["id"]}
                self.last = frame
            if not self.ws.closed:
                await self.ws.send_str(encode(frame))


class LiveBoards:
    """The open boards by player, sent each new board when the player's game changes."""

    def __init__(self, service: GameService) -> None:
        self._service = service
        self._open: dict[int, set[OpenBoard]] = {}
        self._sockets: set[OpenBoard] = set()  # every open socket, signed in or not
        self._tasks: set[asyncio.Task[None]] = set()
        service.on_change(self._changed, following=lambda: list(self._open))

    def add(self, board: OpenBoard) -> None:
        self._sockets.add(board)
        if board.user_id is not None:
            self._open.setdefault(board.user_id, set()).add(board)

    def remove(self, board: OpenBoard) -> None:
        self._sockets.discard(board)
        if board.user_id is None:
            return
        boards = self._open.get(board.user_id)
        if boards is not None:
            boards.discard(board)
            if not boards:
                del self._open[board.user_id]

    def boards(self, user_id: int) -> list[OpenBoard]:
        """The open boards of ``user_id`` (a tool may close them: the pages reconnect)."""
        return list(self._open.get(user_id, ()))

    def __len__(self) -> int:
        return sum(len(boards) for boards in self._open.values())

    def _changed(self, user_id: int, version: int) -> None:
        """The service saved a change of ``user_id``'s game: push it to their boards."""
        for board in self._open.get(user_id, ()):
            board.wanted = max(board.wanted, version)
            board.heard += 1
            if board.pushing or board.sent >= version or board.view != "game":
                continue
            board.pushing = True
            task = asyncio.get_running_loop().create_task(self._push(board))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _push(self, board: OpenBoard) -> None:
        """Send ``board`` the current board until it has the newest version heard of."""
        assert board.user_id is not None
        try:
            while board.sent < board.wanted and not board.ws.closed and board.view == "game":
                heard = board.heard
                frame = await current(self._service, board.user_id)
                if frame["type"] != "board" or frame["version"] <= board.sent:
                    if board.heard != heard:  # told of a change while reading: read again
                        continue
                    break
                await board.send(frame)
        except Exception:  # a closed socket, a store fault: the page asks again on reconnect
            log.warning("a live board could not be sent to user %s", board.user_id, exc_info=True)
        finally:
            board.pushing = False

    async def close(self) -> None:
        """The server is stopping: end the pushes, then close every socket as going away
        (1001), so that the server need not wait for the pages to leave and each page
        reconnects once a server is back."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        closing = [
            board.ws.close(code=WSCloseCode.GOING_AWAY, message=b"the server is stopping")
            for board in self._sockets
            if not board.ws.closed
        ]
        await asyncio.gather(*closing, return_exceptions=True)


class Extra(Protocol):
    """What a socket of an Activity's room adds to a board's (``activity.py``)."""

    async def opened(self, board: OpenBoard) -> list[Frame]:
        """The frames after ``hello`` (instead of the player's board); ``RoomRefused``
        closes the socket."""

    async def answer(self, request: Request) -> list[Frame] | None:
        """The room's answer to ``request``; None: the board's own."""

    def closed(self) -> None: ...


class RoomRefused(Exception):
    """The socket may not enter its room: ``frame`` says why, and it is closed."""

    def __init__(self, frame: ErrorFrame) -> None:
        super().__init__(frame["message"])
        self.frame = frame


async def serve_socket(
    request: web.Request,
    service: GameService,
    live: LiveBoards,
    cooldown: Cooldown | None,
    user_id: int | None,
    extra: Extra | None = None,
) -> web.WebSocketResponse:
    """Run one page's socket until it closes (``extra``: in an Activity's room)."""
    ws = web.WebSocketResponse(max_msg_size=SOCKET_CAP, heartbeat=HEARTBEAT, protocols=(PROTOCOL,))
    await ws.prepare(request)
    board = OpenBoard(ws, user_id)
    hello = HelloFrame(type="hello", games=games(), signed_in=user_id is not None,
                       max_frame=MAX_FRAME, version=None, room=extra is not None)  # fmt: skip
    await board.send(hello)
    live.add(board)
    try:
        if user_id is None:  # said, and closed at once: nothing waits on a held socket
            await board.send(error_frame("no-session", NO_SESSION))
            await ws.close(code=REFUSED, message=b"no session")
            return ws
        if extra is not None:
            try:
                for frame in await extra.opened(board):
                    await board.send(frame)
            except RoomRefused as exc:
                await board.send(exc.frame)
                await ws.close(code=REFUSED, message=b"not in this room")
                return ws
        else:
            await board.send(await current(service, user_id))
        async for message in ws:
            if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                for frame in await handle(message.data, service, cooldown, user_id, extra):
                    await board.send(frame)
            elif message.type is WSMsgType.ERROR:
                log.info("a web board's socket failed: %s", ws.exception())
    finally:
        live.remove(board)
        if extra is not None:
            extra.closed()
    return ws


async def handle(
    data: str | bytes,
    service: GameService,
    cooldown: Cooldown | None,
    user_id: int | None,
    extra: Extra | None = None,
) -> list[Frame]:
    """The answer to one message of a page (which the socket and the JSON API share)."""
    try:
        request = parse_frame(data)
    except FrameError as exc:
        return [error_frame(exc.code, exc.message, exc.request_id)]
    if user_id is None:
        return [error_frame("no-session", NO_SESSION, request.id)]
    if cooldown is not None and (wait := cooldown.take(user_id)) > 0:
        return [error_frame("too-fast", slow_down(wait), request.id)]
    try:
        if extra is not None and (frames := await extra.answer(request)) is not None:
            return frames
        return await answer(service, user_id, request)
    except Exception:
        log.exception("a web request of user %s failed", user_id)
        message = "That didn't work, and nothing changed: the server failed. Try again."
        return [error_frame("failed", message, request.id)]


def first_frame(frames: list[Frame]) -> ApiAnswer:
    """The JSON API's answer: the frames of a request, the first one's type on top."""
    return ApiAnswer(type=frames[0]["type"], frames=frames)
