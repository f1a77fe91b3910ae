"""A race in memory: its racers, each with their game once it has started, how a race
and its racers are rebuilt from their stored rows (``Races`` keeps them), and how a race
and a racer's board show (``view_of``, ``board_of``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Final

from engine import variant_by_code

from ...store import RaceRow, RacerRow, RacerStatus, RaceState
from ..entry import GameInMemory, stored_status
from ..game_views import game_view
from ..movelist import DEFAULT_VARIANT, ReplayError, replay
from .computer import COMPUTER_NAME
from .contract import RACE_SETTINGS, RaceBoard, RacerLine, RaceView, ranked

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Racer:
    user_id: int
    joined_at: datetime
    status: RacerStatus = "joined"
    entry: GameInMemory | None = None  # the racer's game, once the race has started
    elapsed_s: float = 0.0
    place: int | None = None
    saved: RacerRow | None = None  # as last stored (to fall back to if a write fails)

    def line(self) -> RacerLine:
        game = None if self.entry is None else self.entry.game
        return RacerLine(
            user_id=self.user_id,
            status=self.status,
            score=0 if game is None else game.score,
            moves=0 if game is None else game.move_count,
            elapsed_s=self.elapsed_s,
            place=self.place,
            name=COMPUTER_NAME if self.user_id < 0 else None,
            version=0 if self.entry is None else self.entry.version,
        )

    def row(self, race_id: int) -> RacerRow:
        entry = self.entry
        return RacerRow(
            race_id=race_id,
            user_id=self.user_id,
            joined_at=self.joined_at,
            status=self.status,
            moves="" if entry is None else entry.moves_text,
            version=0 if entry is None else entry.version,
            undo_count=0 if entry is None else entry.undo_count,
            score=0 if entry is None else entry.game.score,
            move_count=0 if entry is None else entry.game.move_count,
            elapsed_s=self.elapsed_s,
            place=self.place,
        )


@dataclass(eq=False)
class Race:
    row: RaceRow  # as opened (its state and times are kept below)
    state: RaceState
    racers: dict[int, Racer] = field(default_factory=dict)  # in join order
    started_at: datetime | None = None
    ended_at: datetime | None = None
    message_id: int | None = None

    @property
    def race_id(self) -> int:
        return self.row.race_id

    @property
    def ends_at(self) -> datetime | None:
        if self.started_at is None:
            return None
        return self.started_at + timedelta(seconds=self.row.limit_s)

    @property
    def open(self) -> bool:
        return self.state in ("lobby", "running")

    def racing(self) -> list[Racer]:
        return [r for r in self.racers.values() if r.status == "racing"]


def race_of_rows(row: RaceRow, racers: list[RacerRow]) -> Race:
    """A race as stored, its racers' games replayed."""
    race = Race(row, row.state, started_at=row.started_at, ended_at=row.ended_at)
    race.message_id = row.message_id
    for stored in racers:
        race.racers[stored.user_id] = racer_of_row(row, stored)
    return race


def racer_of_row(race: RaceRow, stored: RacerRow) -> Racer:
    """A racer as stored, their game replayed once the race has started."""
    racer = Racer(stored.user_id, stored.joined_at, stored.status)
    racer.elapsed_s, racer.place, racer.saved = stored.elapsed_s, stored.place, stored
    if race.started_at is not None and stored.status != "joined":
        try:
            racer.entry = entry_of_row(stored, race.deal_number, race.started_at, race.guild_id)
        except ReplayError as exc:
            log.error("race %s: the game of %s does not replay: %s", race.race_id, stored, exc)
            racer.status = "left"
    return racer


STAGES: Final[dict[RaceState, int]] = {"lobby": 0, "running": 1, "over": 2, "cancelled": 2}
"""A race's states in the order they come: a stored state later than the one in memory
was written by another process (a race never goes back)."""


def adopt(race: Race, row: RaceRow) -> None:
    """Bring ``race``'s own state up to its stored row where that is further on (another
    process started or ended it, or posted its message)."""
    if STAGES[row.state] > STAGES[race.state]:
        race.state = row.state
    race.started_at = race.started_at or row.started_at
    race.ended_at = race.ended_at or row.ended_at
    race.message_id = race.message_id or row.message_id
    race.row = replace(race.row, started_at=race.started_at)


def newer(stored: RacerRow, racer: Racer) -> bool:
    """Whether ``stored`` is a later state of ``racer`` than the one in memory (every
    write of a racer's row moves its version on)."""
    return stored.version > (0 if racer.saved is None else racer.saved.version)


def entry_of_row(
    row: RacerRow, deal_number: int, started_at: datetime, guild: int | None
) -> GameInMemory:
    """A racer's game as stored, replayed from the deal (``ReplayError`` if it does not)."""
    game, chained = replay(DEFAULT_VARIANT, deal_number, row.moves)
    entry = GameInMemory(
        game=game,
        chained=chained,
        variant=DEFAULT_VARIANT,
        guild_id=guild,
        version=row.version,
        undo_count=row.undo_count,
        status="playing",
        started_at=started_at,
    )
    entry.status = stored_status(entry.state)
    return entry


def restore(racer: Racer) -> None:
    """The racer's game as last stored (a write failed)."""
    row = racer.saved
    if row is None or racer.entry is None:
        return
    entry = racer.entry
    racer.entry = entry_of_row(row, entry.deal_number, entry.started_at, entry.guild_id)
    racer.status, racer.elapsed_s, racer.place = row.status, row.elapsed_s, row.place


def view_of(race: Race, message: str | None) -> RaceView:
    """``race`` as its lobby or standings show it, with ``message`` (what a call did)."""
    lines = [r.line() for r in race.racers.values()]
    if race.state != "lobby":
        lines = [replace(line, place=place) for place, line in ranked(lines)]
    return RaceView(
        race_id=race.race_id,
        guild_id=race.row.guild_id,
        channel_id=race.row.channel_id,
        host_id=race.row.host_id,
        deal_number=race.row.deal_number,
        state=race.state,
        limit_s=race.row.limit_s,
        capacity=race.row.capacity,
        starts_at=race.row.starts_at,
        started_at=race.started_at,
        ends_at=race.ends_at,
        ended_at=race.ended_at,
        message_id=race.message_id,
        card_total=variant_by_code(race.row.variant).card_total,
        racers=tuple(lines),
        message=message,
    )


def board_of(race: Race, racer: Racer, message: str | None, now: datetime) -> RaceBoard:
    """``racer``'s own board in ``race`` (started) at ``now``: no moves once they stopped."""
    entry = racer.entry
    ends = race.ends_at
    assert entry is not None and ends is not None
    view = game_view(racer.user_id, entry, RACE_SETTINGS, now, None, message)
    if racer.status != "racing":
        view = replace(view, moves=(), can_deal=False, can_undo=False, can_auto=False)
    return RaceBoard(race.race_id, view, racer.status, ends)
