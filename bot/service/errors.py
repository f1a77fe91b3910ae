"""The calls the service refuses, and the sentence each gives the player.

A refusal changes nothing. It carries a ``code`` (what went wrong, for a
program) and ``data`` (the values its sentence names), and its sentence is
worded for no front end in particular: the few that name a command (start a
new game, resign) take the front end's own spelling of it,
``ServiceError.text(commands)``: ``/reel new`` in Discord, ``'new'`` at the
terminal's prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Any, ClassVar, Final

from ..store import StoreBusyError, StoreFullError, StoreMissingError, StoreReadOnlyError


@dataclass(frozen=True, slots=True)
class Commands:
    """How a front end's player gives the commands that the service's messages name."""

    new: str
    resign: str


PLAIN: Final = Commands(new="new", resign="resign")  # for logs and ``str``


class ErrorCode(StrEnum):
    """What a refusal is about."""

    REFUSED = "refused"
    NO_GAME = "no-game"
    GAME_OVER = "game-over"
    STALE = "stale"
    BAD_MOVE = "bad-move"
    BAD_INPUT = "bad-input"
    HINT_UNAVAILABLE = "hint-unavailable"
    DAILY_UNAVAILABLE = "daily-unavailable"
    DAILY_IN_PROGRESS = "daily-in-progress"
    CORRUPT_GAME = "corrupt-game"
    STORAGE = "storage"


class ServiceError(Exception):
    """A call the service refuses; ``text(commands)`` is a sentence for the player."""

    code: ClassVar[ErrorCode] = ErrorCode.REFUSED
    default_message = "That didn't work."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)

    @property
    def data(self) -> dict[str, Any]:
        """The values the sentence names (none for most refusals)."""
        return {}

    def text(self, commands: Commands) -> str:
        """The sentence for the player, naming commands as the front end spells them."""
        return self.message

    def __str__(self) -> str:
        return self.text(PLAIN)


class NoGameError(ServiceError):
    """The player has no game in progress."""

    code = ErrorCode.NO_GAME
    default_message = "You have no game in progress."

    def text(self, commands: Commands) -> str:
        return f"You have no game in progress. Start one with {commands.new}."


class GameOverError(NoGameError):
    """The player's current game is over: won or resigned."""

    code = ErrorCode.GAME_OVER

    def __init__(self, deal_number: int, how: str) -> None:
        self.deal_number = deal_number
        self.how = how
        super().__init__(f"game of deal {deal_number} over ({how})")

    @property
    def data(self) -> dict[str, Any]:
        return {"deal": self.deal_number, "how": self.how}

    def text(self, commands: Commands) -> str:
        return (
            f"Your game of deal {self.deal_number} is over ({self.how}). "
            f"Start a new one with {commands.new}."
        )


class StaleVersionError(ServiceError):
    code = ErrorCode.STALE
    default_message = (
        "This board is out of date: your game has changed since it was shown, "
        "so nothing was played. Here is the current board."
    )


# A hint asked from an old board: nothing is shown or marked, so "here is the
# current board" would be wrong.
STALE_HINT_MESSAGE: Final = (
    "This board is out of date: your game has changed since it was shown, "
    "so no hint was given and nothing was marked. Ask again on the current board."
)

# A hint whose game moved on (a move, an undo, a new game) while the solver searched.
HINT_OVERTAKEN_MESSAGE: Final = (
    "Your game changed while I was thinking (a move, an undo or a new game came first), "
    "so I gave no hint and marked nothing. Ask again for a hint on your game as it stands."
)

# A New game asked from a board older than the game in progress.
NEWER_GAME_MESSAGE: Final = (
    "You have a newer game in progress, so no new game was started. Here is that game."
)


class MoveError(ServiceError):
    code = ErrorCode.BAD_MOVE
    default_message = "That move can't be played."


class BadInputError(ServiceError):
    code = ErrorCode.BAD_INPUT
    default_message = "That input isn't valid."


class RaceError(ServiceError):
    """A race call refused (full, not in it, already racing, not the host...)."""


class HintUnavailableError(ServiceError):
    """The solver's worker processes failed: logged; nothing was marked."""

    code = ErrorCode.HINT_UNAVAILABLE

    default_message = "Hints aren't available just now, sorry. Try again in a moment."


class DailyUnavailableError(ServiceError):
    """The daily deal of the date could not be chosen (the solver's workers failed): logged."""

    code = ErrorCode.DAILY_UNAVAILABLE

    default_message = "Today's daily can't be dealt just now, sorry. Try again in a moment."


class DailyInProgressError(ServiceError):
    """A new game asked for over a scored daily still in play: nothing changed."""

    code = ErrorCode.DAILY_IN_PROGRESS

    def __init__(self, day: date) -> None:
        self.day = day
        super().__init__(f"scored daily of {day.isoformat()} in play")

    @property
    def data(self) -> dict[str, Any]:
        return {"day": self.day.isoformat()}

    def text(self, commands: Commands) -> str:
        return (
            f"Your scored daily of {self.day.isoformat()} is still in play, "
            "and a new game now would end it as abandoned. Finish it first, or "
            f"give it up with {commands.resign} and then start a new game."
        )


class CorruptGameError(ServiceError):
    """The player's stored game can't be read (logged, with the row)."""

    code = ErrorCode.CORRUPT_GAME
    default_message = "Your saved game can't be read."

    def text(self, commands: Commands) -> str:
        return (
            "Your saved game can't be read, sorry: it has been reported. "
            f"Start a new game with {commands.new}."
        )


class StorageError(ServiceError):
    """The database failed (busy, disk full, I/O error): logged, and nothing was applied.
    ``reason`` says which (``storage_reason``)."""

    code = ErrorCode.STORAGE

    default_message = "Your game couldn't be saved just now, so nothing changed. Try again."

    def __init__(self, message: str | None = None, *, reason: str = "failed") -> None:
        super().__init__(message or STORAGE_MESSAGES.get(reason))
        self.reason = reason

    @property
    def data(self) -> dict[str, Any]:
        return {"reason": self.reason}


STORAGE_MESSAGES: Final = {
    "busy": "The game database is busy just now, so nothing changed. Try again in a moment.",
    "full": (
        "The bot's disk is full, so nothing was saved and nothing changed. "
        "Its operator has been told: try again later."
    ),
    "unavailable": (
        "The game database can't be used just now, so nothing changed. "
        "Its operator has been told: try again later."
    ),
}
"""The player's sentence for each ``StorageError.reason`` (any other: the default)."""


def storage_reason(exc: BaseException) -> str:
    """What a store error was, as ``StorageError.reason`` words it."""
    if isinstance(exc, StoreBusyError):
        return "busy"
    if isinstance(exc, StoreFullError):
        return "full"
    if isinstance(exc, StoreMissingError | StoreReadOnlyError):
        return "unavailable"
    return "failed"
