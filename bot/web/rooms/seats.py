"""What a room is made of: the sockets in it (seats), the instance it is, its race."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Final

from ..discord_api import Instance
from ..socket import OpenBoard

OWN_GAME: Final = 0
"""``Seat.watching`` when the player asked for their own saved game (no Discord id is 0)."""


def user_text(user_id: int) -> str:
    """A Discord id as the page gets it: text (ids are beyond JavaScript's safe numbers)."""
    return str(user_id)


@dataclass(eq=False)
class Seat:
    """One socket in a room: its player, and whose board it shows (None: their own)."""

    board: OpenBoard
    user_id: int
    watching: int | None = None  # None: their race board once racing, else their game
    seen: tuple[str, int] = ("", -1)  # the view and version of the board last pushed


@dataclass(eq=False)
class Room:
    """One Activity instance's room: its seats, who the SDK says is there, its race."""

    instance: Instance
    seats: list[Seat] = field(default_factory=list)
    present: frozenset[int] = frozenset()  # participants the SDK reported, checked
    race_id: int | None = None
    gathering: asyncio.Lock = field(default_factory=asyncio.Lock)
    dirty: bool = False  # changed since the last push (``pushes.py``)
    task: asyncio.Task[None] | None = None  # its push, while one runs

    def players(self) -> list[int]:
        """The players with a socket in the room, in the order they came."""
        return list(dict.fromkeys(seat.user_id for seat in self.seats))
