"""What the front ends see of a race (``RaceView``, ``RaceBoard``), its settings, the
bounds of a new race's options (refused with ``errors.RaceError``) and its refusals' words,
and the ranking (``docs/races.md``): won first, then more cards home, then less time, then
fewer moves; racers equal on all four share a place."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from ...store import RacerStatus, RaceState
from ..contract import GameView, Settings
from ..errors import RaceError

MIN_LIMIT_MINUTES: Final = 2
MAX_LIMIT_MINUTES: Final = 60
DEFAULT_LIMIT_MINUTES: Final = 10
MIN_RACERS: Final = 2
MAX_RACERS: Final = 25
MIN_LOBBY_MINUTES: Final = 1
MAX_LOBBY_MINUTES: Final = 10
DEFAULT_LOBBY_MINUTES: Final = 2
RACE_SETTINGS: Final = Settings(auto_aces=True)  # the same for everyone (docs/races.md)
NOT_RACING: Final = "You are not racing now: join a race with its Join button, or open one."
HINTS_OFF: Final = "Hints are off in races: every racer plays on their own."
NOT_IN_RACE: Final = (
    "That is not available in a race: your race board has Deal, Undo, Auto and Leave race."
)


@dataclass(frozen=True, slots=True)
class RacerLine:
    """One racer as the standings show them."""

    user_id: int
    status: RacerStatus  # joined (lobby), racing, won, left, timed_out
    score: int  # cards home
    moves: int
    elapsed_s: float  # from the start to the racer's last move (or leaving)
    place: int | None  # provisional while the race runs; final once it is over
    name: str | None = None  # the computer racer's name (None: a player, named by id)
    version: int = 0  # the racer's game's version (it goes up with every change)

    @property
    def finished(self) -> bool:
        return self.status == "won"


@dataclass(frozen=True, slots=True)
class RaceView:
    """A race as its lobby or standings message shows it; ``racers`` in join order in the
    lobby, ranked once it has started."""

    race_id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    deal_number: int
    state: RaceState
    limit_s: int
    capacity: int
    starts_at: datetime
    started_at: datetime | None
    ends_at: datetime | None  # the time limit (None in the lobby)
    ended_at: datetime | None
    message_id: int | None
    card_total: int
    racers: tuple[RacerLine, ...]
    message: str | None = None  # what the call just did, for its answer

    def racer(self, user_id: int) -> RacerLine | None:
        return next((r for r in self.racers if r.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class RaceBoard:
    """A racer's own board in a race: their game, and the race around it."""

    race_id: int
    game: GameView
    status: RacerStatus
    ends_at: datetime

    @property
    def playing(self) -> bool:
        return self.status == "racing"


@dataclass(frozen=True, slots=True)
class RaceStats:
    """A player's races over: played, won (first place), their best place (None: none)."""

    played: int = 0
    won: int = 0
    best_place: int | None = None


def rank_key(line: RacerLine) -> tuple[int, int, float, int]:
    """The order of the standings: won first, more cards home, less time, fewer moves."""
    return (0 if line.finished else 1, -line.score, line.elapsed_s, line.moves)


def ranked(lines: Iterable[RacerLine]) -> list[tuple[int, RacerLine]]:
    """``lines`` in the standings' order, each with its place; equal keys share a place
    (1, 1, 3). The sort is stable, so equals stay in the order given (join order)."""
    ordered = sorted(lines, key=rank_key)
    out: list[tuple[int, RacerLine]] = []
    for i, line in enumerate(ordered):
        same = i > 0 and rank_key(ordered[i - 1]) == rank_key(line)
        out.append((out[-1][0] if same else i + 1, line))
    return out


def check_options(limit_minutes: int, capacity: int, lobby_minutes: int) -> None:
    """``RaceError`` naming the option out of range, if one is."""
    if not MIN_LIMIT_MINUTES <= limit_minutes <= MAX_LIMIT_MINUTES:
        raise RaceError(
            f"A race lasts {MIN_LIMIT_MINUTES} to {MAX_LIMIT_MINUTES} minutes, not {limit_minutes}."
        )
    if not MIN_RACERS <= capacity <= MAX_RACERS:
        raise RaceError(f"A race takes {MIN_RACERS} to {MAX_RACERS} racers, not {capacity}.")
    if not MIN_LOBBY_MINUTES <= lobby_minutes <= MAX_LOBBY_MINUTES:
        raise RaceError(
            f"A race starts {MIN_LOBBY_MINUTES} to {MAX_LOBBY_MINUTES} minutes after it "
            f"opens, not {lobby_minutes}."
        )
