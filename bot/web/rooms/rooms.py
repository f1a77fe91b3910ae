"""The rooms of one server: a socket enters its instance's room (checked with Discord),
the room gathers its players into a race, and each request of a room's socket is routed:
to the race, to a watched board, or back to the player's own board (``None``)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from ...service import GameService, ServiceError
from ...service.races.contract import RaceView
from ..discord_api import DiscordApi, DiscordError, Instance
from ..play import answer as play_answer
from ..play import refused
from ..protocol import Request, error_frame
from ..sessions import Session
from ..socket import OpenBoard
from ..wire import Frame
from .frames import RoomFrames
from .instances import Instances
from .pushes import Pushes
from .seats import OWN_GAME, Room, Seat

log = logging.getLogger(__name__)

Announce = Callable[[int], Awaitable[None]]
"""Called with a race's id once the room has opened it: the bot posts its standings."""
RACE_PLAYS: Final = ("move", "deal", "undo", "auto")
NOT_IN_RACE: Final = (
    "Not while you race: your race board has Deal, Undo and Safe Aces (no hints, no redo). "
    "Your own game waits for you after the race."
)
ONE_UNDO: Final = "In a race, Undo takes back one move at a time: type 'undo' alone."
WATCHING: Final = "You are watching {name}'s board: it is theirs to play. Go back to yours first."
OTHER_SHARD: Final = (
    "This Discord server's games are run by another process of the bot, which serves its "
    "Activity: nothing was opened here (docs/activity.md, 'Sharded bots')."
)


class Rooms:
    """Every open room of one server (the package's docstring)."""

    def __init__(
        self,
        service: GameService,
        discord: DiscordApi | None,
        announce: Announce | None = None,
        *,
        race_deal: int | None = None,
    ) -> None:
        """``race_deal``: the deal of the races rooms open (None: a random winnable one)."""
        self._service = service
        self._announce = announce
        self._race_deal = race_deal
        self._rooms: dict[str, Room] = {}
        self._instances = Instances(discord)
        self._frames = RoomFrames(service)
        self._pushes = Pushes(self._frames)
        self.names = self._frames.names  # display names of the players who signed in
        service.races.on_change(self._race_changed)

    @property
    def pushes(self) -> int:
        """Rounds of standings frames sent to a room so far (benches)."""
        return self._pushes.count

    # ------------------------------------------------------------------ who is where

    async def instance(self, instance_id: str, fresh: bool = False) -> Instance:
        """The instance as Discord says it is (``Instances.lookup``)."""
        return await self._instances.lookup(instance_id, fresh)

    async def still_in(self, session: Session) -> None:
        """``DiscordError`` (403) if ``session``'s player is no longer in its instance."""
        await self._instances.still_in(session)

    async def enter(self, session: Session, board: OpenBoard) -> Seat:
        """A socket of ``session``'s player joins its room (checked with Discord first)."""
        found = await self._instances.check(session)
        if not self.owns(found.guild_id):  # a session another process of the bot signed
            raise DiscordError(OTHER_SHARD, 409)
        room = self._rooms.get(found.instance_id)
        if room is None:
            room = self._rooms[found.instance_id] = Room(found)
        room.instance = found
        seat = Seat(board, session.user_id)
        room.seats.append(seat)
        if room.race_id is None:
            room.race_id = await self._service.races.in_channel(found.channel_id)
        await self._gather(room)
        return seat

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the races of server ``guild_id`` (sharded bots)."""
        return self._service.races.owns(guild_id)

    async def welcome(self, instance_id: str, seat: Seat) -> list[Frame]:
        """A seat's first frames: the room, and the board it shows."""
        room = self._rooms[instance_id]
        view = await self._frames.standing_any(room)
        return [self._frames.room_frame(room, seat, view), await self._frames.shown(room, seat)]

    def leave(self, instance_id: str, seat: Seat) -> None:
        room = self._rooms.get(instance_id)
        if room is None:
            return
        with contextlib.suppress(ValueError):
            room.seats.remove(seat)
        if not room.seats:
            if room.task is not None:
                room.task.cancel()
            del self._rooms[instance_id]
        else:
            self._pushes.mark(room)

    async def _gather(self, room: Room) -> None:
        """Two players or more and no race open: open one, everyone in it (the first in
        hosts); a race in its lobby: whoever is not in it joins. One at a time per room
        (two players coming at once would open two races, or miss one's join)."""
        async with room.gathering:
            await self._gather_now(room)
        self._pushes.mark(room)

    async def _gather_now(self, room: Room) -> None:
        view = await self._frames.standing(room)
        if view is None and len(room.players()) >= 2:
            try:
                view = await self._open(room, room.players()[0])
            except ServiceError as exc:
                log.info("room %s: no race opened: %s", room.instance.instance_id, exc)
                return
        if view is not None and view.state == "lobby":
            for user_id in room.players():  # as they are now: some came meanwhile
                if view.racer(user_id) is None:
                    with contextlib.suppress(ServiceError):  # in another race: they watch
                        view = await self._service.races.join(view.race_id, user_id)

    async def _open(self, room: Room, host: int) -> RaceView:
        place = room.instance
        view = await self._service.races.open(
            host, place.guild_id, place.channel_id, self._race_deal
        )
        room.race_id = view.race_id
        if self._announce is not None:
            try:
                await self._announce(view.race_id)
            except Exception:
                log.exception("race %s: its standings could not be posted", view.race_id)
        return view

    # ------------------------------------------------------------------ requests

    async def answer(self, instance_id: str, seat: Seat, request: Request) -> list[Frame] | None:
        """A room's answer to ``request``; None: not a room matter (the board's own)."""
        room = self._rooms.get(instance_id)
        if room is None:
            return None
        try:
            return await self._answer(room, seat, request)
        except ServiceError as exc:
            return await refused(
                exc, request.id, lambda: self._frames.shown(room, seat, request.id)
            )

    async def _answer(self, room: Room, seat: Seat, request: Request) -> list[Frame] | None:
        kind, races, rid = request.type, self._service.races, request.id
        if kind == "participants":
            found = await self._instances.lookup(room.instance.instance_id)
            room.present = frozenset(request.users) & found.users
            return [self._frames.room_frame(room, seat, await self._frames.standing_any(room), rid)]
        if kind == "watch":
            return await self._watch(room, seat, request)
        if kind == "race-open":
            if await self._frames.standing(room) is not None:
                return [
                    error_frame("race-open", "A race is open in this room already: join it.", rid)
                ]
            await self._open(room, seat.user_id)
            await self._gather(room)
            return [self._frames.room_frame(room, seat, await self._frames.standing_any(room), rid)]
        if kind in ("race-join", "race-start", "race-leave"):
            if room.race_id is None:
                return [error_frame("no-race", "There is no race in this room: open one.", rid)]
            call = {"race-join": races.join, "race-start": races.start, "race-leave": races.leave}
            await call[kind](room.race_id, seat.user_id)
            if kind == "race-leave":
                seat.watching = None
            return [self._frames.room_frame(room, seat, await self._frames.standing_any(room), rid),
                    await self._frames.shown(room, seat, rid)]  # fmt: skip
        racing = await self._racing(room, seat)
        if racing is None:
            return None
        if kind == "settings":  # the player's own settings; the race board stays shown
            frames = await play_answer(self._service, seat.user_id, request)
            refusals: list[Frame] = [f for f in frames if f["type"] == "error"]
            return [*refusals, await self._frames.shown(room, seat, rid)]
        if seat.watching == OWN_GAME:
            return None  # the player looks at their own game: the board's requests play it
        if seat.watching not in (None, seat.user_id):
            name = self._frames.name(seat.watching)
            return [error_frame("watching", WATCHING.format(name=name), rid)]
        if kind == "board":
            return [await self._frames.shown(room, seat, rid)]
        if kind not in RACE_PLAYS:
            return [error_frame("racing", NOT_IN_RACE, rid)]
        if kind == "undo" and (request.to is not None or request.count not in (None, 1)):
            return [error_frame("racing", ONE_UNDO, rid)]
        board = await races.play(racing, seat.user_id, kind, request.move or "", request.version)
        return [self._frames.race_frame(board, seat, rid)]

    async def _watch(self, room: Room, seat: Seat, request: Request) -> list[Frame]:
        """Show a racer's board (``user``), or the player's own game (``user`` null)."""
        target = request.user
        view = await self._frames.standing_any(room)
        if target is not None and (view is None or view.racer(target) is None):
            message = "Only a racer of this room's race can be watched."
            return [error_frame("bad-input", message, request.id)]
        seat.watching = OWN_GAME if target is None else target
        return [
            self._frames.room_frame(room, seat, view, request.id),
            await self._frames.shown(room, seat, request.id),
        ]

    async def _racing(self, room: Room, seat: Seat) -> int | None:
        """The room's race, if the seat's player is racing in it now."""
        racing = await self._service.races.race_of(seat.user_id)
        return racing if racing is not None and racing == room.race_id else None

    # ------------------------------------------------------------------ live

    def _race_changed(self, race_id: int) -> None:
        """A race changed: the rooms that follow it (or its channel) redraw."""
        for room in self._rooms.values():
            if room.race_id == race_id:
                self._pushes.mark(room)
            elif room.race_id is None or room.race_id < race_id:
                self._pushes.start(self._adopt(room, race_id))

    async def _adopt(self, room: Room, race_id: int) -> None:
        """A newer race opened in the room's channel (``/reel race`` in its chat) is the
        room's race, once the room's own is over."""
        with contextlib.suppress(ServiceError):
            view = await self._service.races.standings(race_id)
            if (
                view.channel_id == room.instance.channel_id
                and await self._frames.standing(room) is None
            ):
                room.race_id = race_id
                self._pushes.mark(room)

    async def close(self) -> None:
        await self._pushes.close()
        self._rooms.clear()
        await self._instances.close()
