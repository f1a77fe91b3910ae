"""The web board's messages: what a page may send, read strictly, and the frames it gets.

Every message is one JSON object with a ``type``; a page may add an ``id`` (a number, or
text of up to 40 characters) that the answer carries back. The server takes:

- ``{"type": "board"}``: the current board;
- ``{"type": "move", "move": "R3 A5", "version": 12}``: a move in the notation
  (``docs/notation.md``), from the board of that version;
- ``{"type": T, "version": 12}`` for ``deal``, ``undo``, ``redo``, ``restart``, ``auto``
  (the safe Aces), ``hint`` and ``resign``; ``undo`` also takes ``count`` (``undo 3``: the
  last three commands) or ``to`` (``undo to 12``: back to move 12), ``redo`` a ``count``;
- ``{"type": "new", "version": 12, "variant": "vr", "deal": "16"}``: a new game (every
  field but the type may be left out; ``version``: the board it was asked from). A deal
  number is text, its digits (deal numbers run to 2**63 - 1, and JavaScript's numbers
  lose digits past 2**53): a JSON number is taken only up to ``MAX_JSON_DEAL``;
- ``{"type": "daily", "version": 12, "variant": "vr"}``: today's daily;
- ``{"type": "settings", "symbols": true, "auto_aces": false, "winnable": true}``: any
  of the three;
- in an Activity's room (``rooms/``): ``{"type": "participants", "users": ["123",
  ...]}`` (Discord ids, as text), ``race-open``, ``race-join``, ``race-start``,
  ``race-leave``, and ``{"type": "watch", "user": "123"}`` (null: your own game).

Anything else (over ``MAX_FRAME`` bytes, not JSON, no type or an unknown one, a field the
type does not take, a value of the wrong kind) is refused with an error frame that says
which, and nothing is done. The requests and the frames the server sends back are
defined once, in ``wire.py``: the fields each type takes, and which it needs, are read
from there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, get_args, get_type_hints

from engine import BAD_DEAL

from .wire import (
    DEAL_DIGITS,
    MAX_FRAME,
    MAX_ID,
    MAX_USERS,
    REQUESTS,
    SETTINGS,
    VERSIONED,
    ErrorFrame,
    RequestId,
)


def _kinds(request: type) -> tuple[str, ...]:
    """The types a request's definition (``wire.REQUESTS``) stands for."""
    return get_args(get_type_hints(request)["type"])


_DEFINED: Final = {kind: request for request in REQUESTS for kind in _kinds(request)}
_ORDER: Final = ("board", "move", *VERSIONED)  # as the refusals list them, the rest after
FIELDS: Final[dict[str, frozenset[str]]] = {
    kind: frozenset(_DEFINED[kind].__annotations__) - {"type", "id"}
    for kind in sorted(_DEFINED, key=lambda k: _ORDER.index(k) if k in _ORDER else len(_ORDER))
}
"""The fields each type takes, besides ``type`` and ``id`` (``wire.py``'s definitions)."""
REQUIRED: Final[dict[str, frozenset[str]]] = {
    kind: request.__required_keys__ - {"type"} for kind, request in _DEFINED.items()
}
TYPES_TEXT: Final = ", ".join(FIELDS)
MAX_JSON_DEAL: Final = 2**53 - 1
"""The largest deal number taken as a JSON number: past it a page's number may have lost
digits (JavaScript's numbers are doubles), so a larger deal comes as text."""


class FrameError(ValueError):
    """A message the server does not take: ``code`` says why, the message in words."""

    def __init__(self, code: str, message: str, request_id: RequestId = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


@dataclass(frozen=True, slots=True)
class Request:
    """One message of a page, read and checked."""

    type: str
    id: RequestId = None
    version: int | None = None
    move: str | None = None
    variant: str | None = None
    deal: int | None = None
    count: int | None = None  # undo, redo: how many commands
    to: int | None = None  # undo: back to this move
    settings: dict[str, bool] = field(default_factory=dict)
    users: tuple[int, ...] = ()  # participants
    user: int | None = None  # the racer to watch (None: your own game)


def parse_frame(text: str | bytes) -> Request:
    """The request in ``text``; ``FrameError`` when the server does not take it."""
    size = len(text if isinstance(text, bytes) else text.encode("utf-8"))
    if size > MAX_FRAME:
        raise FrameError(
            "too-large", f"That message is {size} bytes: the server takes at most {MAX_FRAME}."
        )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise FrameError(
            "bad-json", 'That message is not JSON: send an object like {"type": "board"}.'
        ) from None
    if not isinstance(data, dict):
        raise FrameError("bad-frame", 'A message is a JSON object like {"type": "board"}.')
    request_id = _request_id(data.get("id"))
    kind = data.get("type")
    if not isinstance(kind, str) or not kind:
        raise FrameError("bad-frame", f"A message needs a type: one of {TYPES_TEXT}.", request_id)
    if kind not in FIELDS:
        shown = kind if len(kind) <= MAX_ID else kind[:MAX_ID] + "…"
        raise FrameError(
            "unknown-type",
            f"The server takes no message of type {shown!r}: the types are {TYPES_TEXT}.",
            request_id,
        )
    return _fields(kind, data, request_id)


def _request_id(value: Any) -> RequestId:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, str) and len(value) <= MAX_ID:
        return value
    raise FrameError("bad-frame", f"A message's id is a number or text of {MAX_ID} characters.")


def _fields(kind: str, data: dict[str, Any], request_id: RequestId) -> Request:
    """The fields of a message of type ``kind``, each checked."""
    allowed = FIELDS[kind]
    extra = sorted(set(data) - allowed - {"type", "id"})
    if extra:
        takes = ", ".join(sorted(allowed)) or "none"
        raise FrameError(
            "bad-frame",
            f"A {kind!r} message has no field {extra[0][:MAX_ID]!r}: its fields are {takes} "
            "(and id).",
            request_id,
        )
    given = {name for name, value in data.items() if value is not None}
    missing = sorted(REQUIRED.get(kind, frozenset()) - given)
    if missing:
        raise FrameError("bad-frame", f"A {kind!r} message needs its {missing[0]!r}.", request_id)

    def number(name: str, low: int) -> int | None:
        value = data.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise FrameError(
                "bad-frame", f"{name!r} is a whole number from {low} up, not {value!r}.", request_id
            )
        return value

    def text(name: str) -> str | None:
        value = data.get(name)
        if value is None or isinstance(value, str):
            return value
        raise FrameError("bad-frame", f"{name!r} is text, not {type(value).__name__}.", request_id)

    settings: dict[str, bool] = {}
    for name in SETTINGS if kind == "settings" else ():
        value = data.get(name)
        if value is not None and not isinstance(value, bool):
            raise FrameError("bad-frame", f"{name!r} is true or false.", request_id)
        if value is not None:
            settings[name] = value
    if data.get("count") is not None and data.get("to") is not None:
        raise FrameError(
            "bad-frame", f"A {kind!r} message takes 'count' or 'to', not both.", request_id
        )
    return Request(
        type=kind,
        id=request_id,
        version=number("version", 0),
        move=text("move"),
        variant=text("variant"),
        deal=_deal(data.get("deal"), request_id),
        count=number("count", 1),
        to=number("to", 0),
        settings=settings,
        users=tuple(_user_id(u, "users", request_id) for u in _list(data, "users", request_id)),
        user=None if data.get("user") is None else _racer_id(data["user"], request_id),
    )


def _deal(value: Any, request_id: RequestId) -> int | None:
    """A deal number: its digits as text, or a JSON number up to ``MAX_JSON_DEAL``. Text
    that is not a number is refused as the player typed it (``bad-input``); whether the
    number names a deal is the service's to say."""
    if value is None:
        return None
    if isinstance(value, str):
        digits = value.lstrip("0")
        if value.isascii() and value.isdigit() and len(digits) <= DEAL_DIGITS:
            return int(value)
        raise FrameError("bad-input", f"{BAD_DEAL}, not {value!r:.40}.", request_id)
    if isinstance(value, bool) or not isinstance(value, int):
        raise FrameError(
            "bad-frame", f"'deal' is a deal number's digits, as text, not {value!r:.40}.",
            request_id,
        )  # fmt: skip
    if value > MAX_JSON_DEAL:
        raise FrameError(
            "bad-frame",
            f'A deal number over {MAX_JSON_DEAL} is sent as text, "{value}": as a JSON '
            "number it may have lost its last digits on the way.",
            request_id,
        )
    return value


def _list(data: dict[str, Any], name: str, request_id: RequestId) -> list[Any]:
    value = data.get(name)
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_USERS:
        raise FrameError("bad-frame", f"{name!r} is a list of {MAX_USERS} ids at most.", request_id)
    return value


def _racer_id(value: Any, request_id: RequestId) -> int:
    """A racer to watch: a Discord id, or the computer racer's (the race's id negated)."""
    if isinstance(value, str) and value.startswith("-"):
        return -_user_id(value[1:], "user", request_id)
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return -_user_id(-value, "user", request_id)
    return _user_id(value, "user", request_id)


def _user_id(value: Any, name: str, request_id: RequestId) -> int:
    """A Discord id, as text (or a number): digits, at most 20."""
    text = str(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else ""
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= 20 and int(text) > 0):
        raise FrameError(
            "bad-frame",
            f"{name!r} holds Discord ids (digits, as text), not {value!r:.40}.",
            request_id,
        )
    return int(text)


def error_frame(
    code: str, message: str, request_id: RequestId = None, version: int | None = None
) -> ErrorFrame:
    """A refusal: nothing was done. ``version``: the game's, when one is known."""
    return ErrorFrame(type="error", id=request_id, code=code, message=message, version=version)


def encode(frame: Mapping[str, object]) -> str:
    """A frame as the wire carries it (compact JSON, the card signs as they are)."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
