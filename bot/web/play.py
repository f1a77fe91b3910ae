"""A page's request carried out on the game service, and the frames that answer it.

One function, ``answer``, serves the WebSocket and the JSON API alike: it calls the same
``GameService`` the Discord and terminal front ends call, with the version the page saw,
so the service's locks, versions and refusals are the web's too. A refusal is an error
frame naming the service's code (``stale``, ``bad-move``, ``no-game``...) and its
sentence; a stale request is also answered with the current board, so the page catches up.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Final, TypeAlias

from ..service import (
    Commands,
    GameService,
    GameView,
    NoGameError,
    ServiceError,
    StaleVersionError,
)
from .board import board_json, hint_json
from .protocol import Request, error_frame
from .wire import BoardFrame, Frame, HintFrame, NoGameFrame, RequestId

log = logging.getLogger(__name__)

ShownFrame: TypeAlias = BoardFrame | NoGameFrame
"""The board a page shows: a board, or the no-game frame."""

WEB_COMMANDS: Final = Commands(new="the New game button", resign="the Resign button")
"""How the service's sentences name the commands on the web board."""
ROOM_TYPES: Final = frozenset(
    {"participants", "race-open", "race-join", "race-start", "race-leave", "watch"}
)
NO_ROOM: Final = "That works in a Discord Activity's room only: open the board from Discord."


async def board_frame(
    service: GameService, user_id: int, view: GameView, request_id: RequestId = None
) -> BoardFrame:
    """The whole board of ``view`` for ``user_id``'s page."""
    settings = await service.get_settings(user_id)
    board = board_json(view, settings)
    return BoardFrame(type="board", id=request_id, version=view.version, board=board)


async def current(
    service: GameService, user_id: int, request_id: RequestId = None
) -> BoardFrame | NoGameFrame:
    """The player's board as it stands, or a no-game frame when they have none."""
    try:
        view = await service.show(user_id)
    except NoGameError as exc:
        return NoGameFrame(
            type="no-game", id=request_id, version=None, message=exc.text(WEB_COMMANDS)
        )
    return await board_frame(service, user_id, view, request_id)


async def answer(service: GameService, user_id: int, request: Request) -> list[Frame]:
    """Carry out ``request`` for ``user_id``: its answer, one frame or two (a refusal
    and, when the page's board was stale, the current board)."""
    try:
        return await _carry_out(service, user_id, request)
    except ServiceError as exc:
        return await refused(exc, request.id, lambda: current(service, user_id, request.id))


async def refused(
    exc: ServiceError, request_id: RequestId, shown: Callable[[], Awaitable[ShownFrame]]
) -> list[Frame]:
    """The frames that answer a refused request, for the player's board and a room's
    alike: an error frame with the service's code and sentence, and, when the page's board
    was stale, the board it shows now (``shown()``), so that the page catches up. The
    error frame carries the version of that board (None when it can't be read)."""
    if isinstance(exc, StaleVersionError):
        frame = await shown()
        return [error_frame(exc.code.value, exc.text(WEB_COMMANDS), request_id, frame["version"]),
                frame]  # fmt: skip
    try:
        version = (await shown())["version"]
    except ServiceError:
        version = None
    return [error_frame(exc.code.value, exc.text(WEB_COMMANDS), request_id, version)]


async def _carry_out(service: GameService, user_id: int, request: Request) -> list[Frame]:
    kind, version, rid = request.type, request.version, request.id
    if kind in ROOM_TYPES:
        return [error_frame("no-room", NO_ROOM, rid)]
    if kind == "board":
        return [await current(service, user_id, rid)]
    if kind == "hint":
        hint = await service.hint(user_id, version)
        shown = HintFrame(type="hint", id=rid, version=hint.game.version, hint=hint_json(hint))
        return [shown, await board_frame(service, user_id, hint.game, rid)]
    if kind == "settings":
        chosen = request.settings
        await service.update_settings(
            user_id,
            symbols=chosen.get("symbols"),
            auto_aces=chosen.get("auto_aces"),
            winnable=chosen.get("winnable"),
        )
        return [await current(service, user_id, rid)]
    return [await board_frame(service, user_id, await _play(service, user_id, request), rid)]


async def _play(service: GameService, user_id: int, request: Request) -> GameView:
    """The calls that change the game, each with the version the page saw."""
    kind, version = request.type, request.version
    if kind == "move":
        assert request.move is not None  # required by the protocol
        return await service.move(user_id, request.move, version)
    if kind == "new":
        return await service.new_game(
            user_id, None, request.deal, replaces_version=version, variant=request.variant
        )
    if kind == "daily":
        return await service.daily(user_id, None, request.variant or "vr", replaces_version=version)
    if kind == "undo" and request.to is not None:
        return await service.undo_to(user_id, request.to, version)
    if kind in ("undo", "redo") and request.count is not None:
        step = service.undo if kind == "undo" else service.redo
        return await step(user_id, version, count=request.count)
    calls = {
        "deal": service.deal,
        "undo": service.undo,
        "redo": service.redo,
        "restart": service.restart,
        "auto": service.auto,
        "resign": service.resign,
    }
    return await calls[kind](user_id, version)
