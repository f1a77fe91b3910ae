"""The web board's wire, defined once: every frame the server sends, every request a page
may send, and the constants both sides share.

The server builds its frames as these ``TypedDict`` (so mypy checks their keys), the
request reader (``protocol.py``) takes each request's fields and which are required from
them, and ``python -m bot.web.wire_ts`` writes them out for the page as TypeScript
(``web/src/wire.ts``: its interfaces, these constants, and the guard the page runs on
every incoming frame). ``docs/web.md`` says what each frame means.

Deal numbers and Discord ids travel as text: they go past JavaScript's exact whole
numbers (2**53). A request's ``null`` field is as good as a missing one.

(No ``from __future__ import annotations`` here: ``Required`` and ``NotRequired`` must be
seen when the classes are made, for ``__required_keys__``.)
"""

from typing import Final, Literal, NotRequired, TypedDict

from engine import BAD_DEAL as BAD_DEAL  # (the page's too: SHARED)
from engine import MAX_DEAL as MAX_DEAL
from engine import MIN_DEAL as MIN_DEAL

from ..service import CONFIRM_UNDO as CONFIRM_UNDO
from ..service import HintSource, RacerStatus, RaceState

# ---------------------------------------------------------------------- constants

MAX_FRAME: Final = 2048
"""Bytes in one message, at most: a move is a few dozen."""
MAX_ID: Final = 40
"""Characters in a request's ``id`` given as text, at most."""
MAX_USERS: Final = 50
"""Discord ids in a ``participants`` request, at most (an Activity's room)."""
DEAL_DIGITS: Final = len(str(MAX_DEAL))
REFUSED: Final = 4003
"""The close code of a socket refused for good (no session, not in the room): the page
does not reconnect."""
PROTOCOL: Final = "reel"
"""The WebSocket subprotocol the server speaks; ``session.<token>`` beside it carries a
session."""
TOKEN_PROTOCOL: Final = "session."
VERSIONED: Final = ("deal", "undo", "redo", "restart", "auto", "hint", "resign")
"""The commands that take the version of the board they were made on (and the words the
page's Move box takes alone)."""

SHARED: Final = (
    "MAX_FRAME",
    "MAX_ID",
    "MAX_USERS",
    "DEAL_DIGITS",
    "MIN_DEAL",
    "MAX_DEAL",
    "BAD_DEAL",
    "CONFIRM_UNDO",
    "REFUSED",
    "PROTOCOL",
    "TOKEN_PROTOCOL",
    "VERSIONED",
    "SETTINGS",
)
"""The constants the page gets (``wire_ts``), by name: each is defined once, here or in
the module this one imports it from."""

RequestId = int | str | None
"""A request's ``id``, which its answer's frames carry back: a number, or text of up to
``MAX_ID`` characters (null on a frame that answers no request)."""
GameStatus = Literal["playing", "won", "stuck"]  # engine.Status's values

# ---------------------------------------------------------------------- the board


class RowPile(TypedDict):
    pile: str  # "A1"
    cards: list[str]  # bottom first: "2H", "5H"
    based: bool
    misplaced: bool
    space: bool


class Row(TypedDict):
    row: str  # "A"
    builds: str  # "2-5-8-J"
    piles: list[RowPile]


class ReservePile(TypedDict):
    pile: str  # "R1"
    cards: list[str]
    depth: int


class Target(TypedDict):
    """Where a card may go: a legal move from its pile."""

    to: str  # "A5", "ACE"
    move: str  # "R3 A5"
    card: str | None
    label: str
    note: str | None


class Stock(TypedDict):
    cards: int
    deals_left: int


class Aces(TypedDict):
    count: int
    total: int
    cards: list[str]


class Can(TypedDict):
    deal: bool
    undo: bool
    redo: bool
    auto: bool
    restart: bool


class BoardSettings(TypedDict):
    symbols: bool
    auto_aces: bool
    winnable: bool


SETTINGS: Final = tuple(BoardSettings.__annotations__)
"""The player's settings a page may change (a ``settings`` request's fields)."""


class Board(TypedDict):
    """The whole board, as the page draws it (``board.board_json``)."""

    version: int
    position: str
    variant: str
    game: str
    deal: str  # digits: "9223372036854775807"
    rows: list[Row]
    reserve: list[ReservePile]
    stock: Stock
    aces: Aces
    score: int
    card_total: int
    moves: int
    undos: int
    clock: str | None
    elapsed_s: int | None
    status: GameStatus
    finished: bool
    playing: bool
    in_progress: bool
    message: str | None
    warning: str | None
    can: Can
    legal: dict[str, list[Target]]
    daily: str | None
    scored: bool
    par: int | None
    assisted: bool
    share: str | None
    settings: BoardSettings


Hint = TypedDict(  # the call form: "from" is a Python keyword
    "Hint",
    {
        "move": str | None,
        "from": str | None,
        "to": str | None,
        "label": str | None,
        "source": HintSource,
        "message": str,
        "undo_to": int | None,
        "back_to": str | None,
        "version": int,
    },
)
"""A hint: its move, the two piles to show, and its sentence; for a lost game that could
still be won further back, ``undo_to`` (the move: what ``undo to N`` takes) and
``back_to`` (its name: "move 5", "the start"), else null."""

# ---------------------------------------------------------------------- the room


class Person(TypedDict):
    id: str  # a Discord id, as text
    name: str
    here: bool


class RoomRacer(TypedDict):
    id: str  # a Discord id, as text (the computer racer's: the race's id negated)
    name: str
    status: RacerStatus
    score: int
    moves: int
    elapsed_s: float
    place: int | None
    version: int  # the racer's game's version


class Race(TypedDict):
    id: str
    deal: str
    state: RaceState
    host: str
    starts_at: str
    ends_at: str | None
    card_total: int
    racers: list[RoomRacer]


class GameName(TypedDict):
    code: str  # "vr"
    name: str  # "Virginia Reel"


# ---------------------------------------------------------------------- frames


class HelloFrame(TypedDict):
    """The first frame on a socket: the games of the family, whether someone is signed
    in, the limits, and whether the socket is in an Activity's room."""

    type: Literal["hello"]
    games: list[GameName]
    signed_in: bool
    max_frame: int
    version: None
    room: bool


class BoardFrame(TypedDict):
    """A board, after every change; in a room, ``view`` says whose (``"game"``: the
    player's own, ``"race:<race>:<racer>"``: a race game), with its race and racer."""

    type: Literal["board"]
    id: RequestId
    version: int
    board: Board
    view: NotRequired[str]
    race: NotRequired[str]
    racer: NotRequired[str]
    read_only: NotRequired[bool]


class NoGameFrame(TypedDict):
    """The player has no game yet: ``message`` says how to start one."""

    type: Literal["no-game"]
    id: RequestId
    version: None
    message: str
    view: NotRequired[str]


class HintFrame(TypedDict):
    type: Literal["hint"]
    id: RequestId
    version: int
    hint: Hint


class ErrorFrame(TypedDict):
    """A refusal: nothing was done. ``version``: the game's, when one is known."""

    type: Literal["error"]
    id: RequestId
    code: str
    message: str
    version: int | None


class RoomFrame(TypedDict):
    """An Activity's room: who is in it, its race and standings, whose board is shown."""

    type: Literal["room"]
    id: RequestId
    version: None
    instance: str
    you: str
    people: list[Person]
    race: Race | None
    watching: str | None


Frame = HelloFrame | BoardFrame | NoGameFrame | HintFrame | ErrorFrame | RoomFrame
FRAMES: Final = (HelloFrame, BoardFrame, NoGameFrame, HintFrame, ErrorFrame, RoomFrame)
"""Every frame the server sends on a socket (and in the JSON API's answers)."""


class ApiAnswer(TypedDict):
    """``POST /api/play``'s answer: the request's frames, the first one's type on top."""

    type: str
    frames: list[Frame]


class ActivityConfig(TypedDict):
    """``GET /api/activity``: what the page may do (nothing secret)."""

    client_id: str | None
    mock: bool
    local: bool


class SignedUser(TypedDict):
    id: str
    name: str


class SignedIn(TypedDict):
    """``POST /api/token``'s answer: the access token for the SDK, and the session."""

    access_token: str
    session: str
    user: SignedUser
    expires: int


# ---------------------------------------------------------------------- requests


class SignInRequest(TypedDict):
    """``POST /api/token``: the code Discord's authorize gave, and the instance."""

    code: str
    instance_id: str


class _Request(TypedDict):
    id: NotRequired[RequestId]


class BoardRequest(_Request):
    type: Literal["board"]


class MoveRequest(_Request):
    type: Literal["move"]
    move: str  # the notation: "R3 A5"
    version: int


class CommandRequest(_Request):
    """A command with the version of the board it was made on (``auto``: the safe Aces)."""

    type: Literal["deal", "restart", "auto", "hint", "resign"]
    version: int


class UndoRequest(_Request):
    """``count``: the last so many moves; ``to``: back to that move (not both)."""

    type: Literal["undo"]
    version: int
    count: NotRequired[int | None]
    to: NotRequired[int | None]


class RedoRequest(_Request):
    type: Literal["redo"]
    version: int
    count: NotRequired[int | None]


class NewRequest(_Request):
    """A new game; ``deal``: its digits, as text (a JSON number up to 2**53 - 1)."""

    type: Literal["new"]
    version: NotRequired[int | None]
    variant: NotRequired[str | None]
    deal: NotRequired[str | int | None]


class DailyRequest(_Request):
    type: Literal["daily"]
    version: NotRequired[int | None]
    variant: NotRequired[str | None]


class SettingsRequest(_Request):
    type: Literal["settings"]
    symbols: NotRequired[bool | None]
    auto_aces: NotRequired[bool | None]
    winnable: NotRequired[bool | None]


class ParticipantsRequest(_Request):
    """The participants the SDK reports (Discord ids, as text), ``MAX_USERS`` at most."""

    type: Literal["participants"]
    users: list[str | int]


class RaceRequest(_Request):
    type: Literal["race-open", "race-join", "race-start", "race-leave"]


class WatchRequest(_Request):
    """Watch a racer's board (``user``: their id, as text); null: back to your own."""

    type: Literal["watch"]
    user: NotRequired[str | int | None]


WireRequest = (
    BoardRequest
    | MoveRequest
    | CommandRequest
    | UndoRequest
    | RedoRequest
    | NewRequest
    | DailyRequest
    | SettingsRequest
    | ParticipantsRequest
    | RaceRequest
    | WatchRequest
)
REQUESTS: Final = (
    BoardRequest,
    MoveRequest,
    CommandRequest,
    UndoRequest,
    RedoRequest,
    NewRequest,
    DailyRequest,
    SettingsRequest,
    ParticipantsRequest,
    RaceRequest,
    WatchRequest,
)
"""Every request a page may send on its socket (or ``POST /api/play``)."""
