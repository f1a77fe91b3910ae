"""The Activity's rooms: everyone who opens it in one Discord Activity instance.

A room is keyed by the instance id (the same for everyone in one launch, never reused).
A player alone in it plays their own saved game, the same as in chat. As soon as two
signed-in players are in it, the room opens a race (``service.races``: the races of
``/reel race``, with the same rules, standings and records) in the instance's channel,
with the first one in as its host, and everyone in the room joins it; a player who
comes later joins until the start, or watches. A race already open in that channel
(``/reel race`` in the voice channel's chat) is the room's race. Anyone may watch any
racer's board, read-only; the standings are sent to everyone in the room after every
change (coalesced: at most one ``room`` frame every ``PUSH_EVERY`` seconds). A race
opened here is announced in the channel (``announce``: the bot posts its standings
message, which its race desk keeps up to date).

Who is in the room is the server's to say: the page sends the participants the SDK
reports, and the server keeps those Discord's instance lookup also lists
(``DiscordApi.instance``); a session was signed for its instance only after the same
check, and the socket is checked again when it opens.

The requests a room's socket takes besides the board's (``protocol.py``):
``participants`` (``users``: ids), ``race-open``, ``race-join``, ``race-start``,
``race-leave``, and ``watch`` (``user``: a racer's id; null: back to your own board).
While the player races in the room's race, ``move``, ``deal``, ``undo`` and ``auto``
play their race game (with the version of the board they were made on); the other
commands are refused until they are done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ..service import GameService, ServiceError, StaleVersionError
from ..service.races import RACE_SETTINGS
from ..service.races.contract import RaceBoard, RaceView
from .board import board_json
from .discord_api import DiscordApi, DiscordError, Instance
from .play import WEB_COMMANDS, Frame, current
from .play import answer as play_answer
from .protocol import Request, error_frame
from .sessions import Session
from .socket import OpenBoard

log = logging.getLogger(__name__)

Announce = Callable[[int], Awaitable[None]]
"""Called with a race's id once the room has opened it: the bot posts its standings."""
PUSH_EVERY: Final = 0.1
"""Seconds between two standings frames to a room, at least."""
LOOKUP_FRESH: Final = 5.0
MAX_ENTERED: Final = 10_000  # (instance, player) entries remembered at most
"""Seconds an instance's lookup is trusted before Discord is asked again."""
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
OWN_GAME: Final = 0
"""``Seat.watching`` when the player asked for their own saved game (no Discord id is 0)."""
NOT_HERE: Final = "You are not in this Activity: open it from Discord to play here."


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
    instance: Instance
    seats: list[Seat] = field(default_factory=list)
    present: frozenset[int] = frozenset()  # participants the SDK reported, checked
    race_id: int | None = None
    gathering: asyncio.Lock = field(default_factory=asyncio.Lock)
    dirty: bool = False
    task: asyncio.Task[None] | None = None


class Rooms:
    """Every open room of one server (see the module docstring)."""

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
        self._discord = discord
        self._announce = announce
        self._race_deal = race_deal
        self._rooms: dict[str, Room] = {}
        self._lookups: dict[str, tuple[float, Instance]] = {}
        self._asking: dict[str, asyncio.Future[Instance]] = {}  # lookups under way
        self._entered: dict[tuple[str, int], float] = {}  # (instance, user): last checked
        self.names: dict[int, str] = {}  # display names of the players who signed in
        self.pushes: list[float] = []  # monotonic times of the standings frames (benches)
        service.races.on_change(self._race_changed)

    # ------------------------------------------------------------------ who is where

    async def instance(self, instance_id: str, fresh: bool = False) -> Instance:
        """The instance as Discord says it is (asked again after ``LOOKUP_FRESH`` s).
        Lookups of one instance at once share one call to Discord."""
        kept = self._lookups.get(instance_id)
        if kept is not None and not fresh and time.monotonic() - kept[0] < LOOKUP_FRESH:
            return kept[1]
        if self._discord is None:
            raise DiscordError("This server has no Discord application set up.", 503)
        asking = self._asking.get(instance_id)
        if asking is None:
            asking = asyncio.ensure_future(self._discord.instance(instance_id))
            self._asking[instance_id] = asking
            asking.add_done_callback(lambda _: self._asking.pop(instance_id, None))
        found = await asyncio.shield(asking)
        self._lookups[instance_id] = (time.monotonic(), found)
        return found

    async def check(self, session: Session) -> Instance:
        """The session's instance, if its player is in it now (``DiscordError`` if not).
        Discord is asked when a socket of the player enters the room, since they may have
        left the channel since they signed in; a socket re-entering within
        ``LOOKUP_FRESH`` s of the last entry checked (a page reconnecting, another tab)
        is answered from that lookup, so that 50 sockets are not 50 calls to Discord."""
        assert session.instance_id is not None
        key, now = (session.instance_id, session.user_id), time.monotonic()
        kept = self._lookups.get(session.instance_id)
        entered = self._entered.get(key)
        if (
            kept is not None
            and entered is not None
            and now - max(entered, kept[0]) < LOOKUP_FRESH
            and session.user_id in kept[1].users
        ):
            return kept[1]
        found = await self.instance(session.instance_id, fresh=True)
        if session.user_id not in found.users:
            self._entered.pop(key, None)
            raise DiscordError(NOT_HERE, 403)
        self._entered[key] = time.monotonic()
        if len(self._entered) > MAX_ENTERED:  # forget the oldest
            del self._entered[next(iter(self._entered))]
        return found

    async def still_in(self, session: Session) -> None:
        """``DiscordError`` (403) if ``session``'s player is no longer in its instance:
        from the lookup of the last ``LOOKUP_FRESH`` s when it has them, asked again when
        it does not (so a JSON API request is at most one call to Discord a few seconds
        an instance)."""
        assert session.instance_id is not None
        found = await self.instance(session.instance_id)
        if session.user_id not in found.users:
            found = await self.instance(session.instance_id, fresh=True)
        if session.user_id not in found.users:
            raise DiscordError(NOT_HERE, 403)

    async def enter(self, session: Session, board: OpenBoard) -> Seat:
        """A socket of ``session``'s player joins its room (checked with Discord first)."""
        found = await self.check(session)
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
        view = await self._standing_any(room)
        return [self.room_frame(room, seat, view), await self.shown(room, seat)]

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
            self._mark(room)

    def players(self, room: Room) -> list[int]:
        """The players with a socket in the room, in the order they came."""
        return list(dict.fromkeys(seat.user_id for seat in room.seats))

    async def _gather(self, room: Room) -> None:
        """Two players or more and no race open: open one, everyone in it (the first in
        hosts); a race in its lobby: whoever is not in it joins. One at a time per room
        (two players coming at once would open two races, or miss one's join)."""
        async with room.gathering:
            await self._gather_now(room)
        self._mark(room)

    async def _gather_now(self, room: Room) -> None:
        view = await self._standing(room)
        if view is None and len(self.players(room)) >= 2:
            try:
                view = await self._open(room, self.players(room)[0])
            except ServiceError as exc:
                log.info("room %s: no race opened: %s", room.instance.instance_id, exc)
                return
        if view is not None and view.state == "lobby":
            for user_id in self.players(room):  # as they are now: some came meanwhile
                if view.racer(user_id) is None:
                    with contextlib.suppress(ServiceError):  # in another race: they watch
                        view = await self._service.races.join(view.race_id, user_id)

    async def _standing(self, room: Room) -> RaceView | None:
        """The room's race while it is open (in its lobby or running), or None."""
        if room.race_id is None:
            return None
        try:
            view = await self._service.races.standings(room.race_id)
        except ServiceError:
            return None
        return view if view.state in ("lobby", "running") else None

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
        except StaleVersionError as exc:
            frame = await self.shown(room, seat, request.id)
            return [error_frame(exc.code.value, exc.text(WEB_COMMANDS), request.id,
                                frame.get("version")), frame]  # fmt: skip
        except ServiceError as exc:
            return [error_frame(exc.code.value, exc.text(WEB_COMMANDS), request.id)]

    async def _answer(self, room: Room, seat: Seat, request: Request) -> list[Frame] | None:
        kind, races, rid = request.type, self._service.races, request.id
        if kind == "participants":
            room.present = (
                frozenset(request.users) & (await self.instance(room.instance.instance_id)).users
            )
            return [self.room_frame(room, seat, await self._standing_any(room), rid)]
        if kind == "watch":
            return await self._watch(room, seat, request)
        if kind == "race-open":
            if await self._standing(room) is not None:
                return [
                    error_frame("race-open", "A race is open in this room already: join it.", rid)
                ]
            await self._open(room, seat.user_id)
            await self._gather(room)
            return [self.room_frame(room, seat, await self._standing_any(room), rid)]
        if kind in ("race-join", "race-start", "race-leave"):
            if room.race_id is None:
                return [error_frame("no-race", "There is no race in this room: open one.", rid)]
            call = {"race-join": races.join, "race-start": races.start, "race-leave": races.leave}
            await call[kind](room.race_id, seat.user_id)
            if kind == "race-leave":
                seat.watching = None
            return [self.room_frame(room, seat, await self._standing_any(room), rid),
                    await self.shown(room, seat, rid)]  # fmt: skip
        racing = await self._racing(room, seat)
        if racing is None:
            return None
        if kind == "settings":  # the player's own settings; the race board stays shown
            frames = await play_answer(self._service, seat.user_id, request)
            return [f for f in frames if f["type"] == "error"] + [await self.shown(room, seat, rid)]
        if seat.watching == OWN_GAME:
            return None  # the player looks at their own game: the board's requests play it
        if seat.watching not in (None, seat.user_id):
            name = self.name(seat.watching)
            return [error_frame("watching", WATCHING.format(name=name), rid)]
        if kind == "board":
            return [await self.shown(room, seat, rid)]
        if kind not in RACE_PLAYS:
            return [error_frame("racing", NOT_IN_RACE, rid)]
        if kind == "undo" and (request.to is not None or request.count not in (None, 1)):
            return [error_frame("racing", ONE_UNDO, rid)]
        board = await races.play(racing, seat.user_id, kind, request.move or "", request.version)
        return [self.race_frame(board, seat, rid)]

    async def _watch(self, room: Room, seat: Seat, request: Request) -> list[Frame]:
        """Show a racer's board (``user``), or the player's own game (``user`` null)."""
        target = request.user
        view = await self._standing_any(room)
        if target is not None and (view is None or view.racer(target) is None):
            message = "Only a racer of this room's race can be watched."
            return [error_frame("bad-input", message, request.id)]
        seat.watching = OWN_GAME if target is None else target
        return [
            self.room_frame(room, seat, view, request.id),
            await self.shown(room, seat, request.id),
        ]

    async def _racing(self, room: Room, seat: Seat) -> int | None:
        """The room's race, if the seat's player is racing in it now."""
        racing = await self._service.races.race_of(seat.user_id)
        return racing if racing is not None and racing == room.race_id else None

    async def _standing_any(self, room: Room) -> RaceView | None:
        """The room's race, open or over (its final standings), or None."""
        if room.race_id is None:
            return None
        with contextlib.suppress(ServiceError):
            return await self._service.races.standings(room.race_id)
        return None

    # ------------------------------------------------------------------ frames

    def name(self, user_id: int) -> str:
        return self.names.get(user_id) or f"player …{str(user_id)[-4:]}"

    def room_frame(
        self, room: Room, seat: Seat, view: RaceView | None, request_id: Any = None
    ) -> Frame:
        """Who is in the room, the race and its standings, whose board the seat shows."""
        people = list(dict.fromkeys([*self.players(room), *sorted(room.present)]))
        return {
            "type": "room",
            "id": request_id,
            "version": None,
            "instance": room.instance.instance_id,
            "you": user_text(seat.user_id),
            "people": [
                {"id": user_text(u), "name": self.name(u), "here": u in self.players(room)}
                for u in people
            ],
            "race": None if view is None else self.race_json(view),
            "watching": None if not seat.watching else user_text(seat.watching),
        }

    def race_json(self, view: RaceView) -> dict[str, Any]:
        return {
            "id": str(view.race_id),
            "deal": str(view.deal_number),
            "state": view.state,
            "host": user_text(view.host_id),
            "starts_at": view.starts_at.isoformat(),
            "ends_at": None if view.ends_at is None else view.ends_at.isoformat(),
            "card_total": view.card_total,
            "racers": [
                {
                    "id": user_text(line.user_id),
                    "name": line.name or self.name(line.user_id),
                    "status": line.status,
                    "score": line.score,
                    "moves": line.moves,
                    "elapsed_s": round(line.elapsed_s, 1),
                    "place": line.place,
                    "version": line.version,
                }
                for line in view.racers
            ],
        }

    def race_frame(self, board: RaceBoard, seat: Seat, request_id: Any = None) -> Frame:
        """A racer's race board; read-only unless it is the seat's own and they race."""
        mine = board.game.user_id == seat.user_id
        view = board.game
        if not (mine and board.playing):
            view = replace(view, moves=(), can_deal=False, can_undo=False, can_redo=False,
                           can_auto=False)  # fmt: skip
        drawn = board_json(view, RACE_SETTINGS)
        drawn["message"] = board.game.message if mine else None
        return {
            "type": "board",
            "id": request_id,
            "version": view.version,
            "view": f"race:{board.race_id}:{view.user_id}",
            "race": str(board.race_id),
            "racer": user_text(view.user_id),
            "read_only": not (mine and board.playing),
            "board": drawn,
        }

    async def shown(self, room: Room, seat: Seat, request_id: Any = None) -> Frame:
        """The board the seat shows: the racer it watches, or its own race game once the
        room's race has started (until the player asks for their game), or its own
        saved game."""
        view = await self._standing_any(room)
        whose = self._whose(view, seat)
        if view is not None and whose is not None:
            with contextlib.suppress(ServiceError):
                board = await self._service.races.board(view.race_id, whose)
                return self.race_frame(board, seat, request_id)
        frame = await current(self._service, seat.user_id, request_id)
        frame["view"] = "game"
        return frame

    @staticmethod
    def _whose(view: RaceView | None, seat: Seat) -> int | None:
        """The racer whose race board the seat shows, or None (its own saved game)."""
        if seat.watching == OWN_GAME or view is None or view.state == "lobby":
            return None
        whose = seat.user_id if seat.watching is None else seat.watching
        line = view.racer(whose)
        return None if line is None or line.status == "joined" else whose

    # ------------------------------------------------------------------ live

    def _race_changed(self, race_id: int) -> None:
        """A race changed: the rooms that follow it (or its channel) redraw."""
        for room in self._rooms.values():
            if room.race_id == race_id:
                self._mark(room)
            elif room.race_id is None or room.race_id < race_id:
                task = asyncio.ensure_future(self._adopt(room, race_id))
                task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _adopt(self, room: Room, race_id: int) -> None:
        """A newer race opened in the room's channel (``/reel race`` in its chat) is the
        room's race, once the room's own is over."""
        with contextlib.suppress(ServiceError):
            view = await self._service.races.standings(race_id)
            if view.channel_id == room.instance.channel_id and await self._standing(room) is None:
                room.race_id = race_id
                self._mark(room)

    def _mark(self, room: Room) -> None:
        room.dirty = True
        if room.task is None or room.task.done():
            room.task = asyncio.ensure_future(self._push(room))

    async def _push(self, room: Room) -> None:
        """Send each seat the room (standings) and, if it changed, the board it shows."""
        while room.dirty and room.seats:
            room.dirty = False
            view = await self._standing_any(room)
            self.pushes.append(time.monotonic())
            for seat in list(room.seats):
                try:
                    await seat.board.send(self.room_frame(room, seat, view))
                    if self._changed_board(view, seat):
                        await seat.board.send(await self.shown(room, seat))
                except Exception:  # a closed socket: it leaves on its own
                    log.debug("a room's frame was not sent", exc_info=True)
            await asyncio.sleep(PUSH_EVERY)

    def _changed_board(self, view: RaceView | None, seat: Seat) -> bool:
        """Whether the board the seat shows may have changed since it was last sent (its
        own saved game is followed by ``LiveBoards``)."""
        whose = self._whose(view, seat)
        if view is None or whose is None:
            return seat.board.view != "game"
        line = view.racer(whose)
        key = (f"race:{view.race_id}:{whose}", -1 if line is None else line.version)
        if key == seat.seen and seat.board.view == key[0]:
            return False
        seat.seen = key
        return True

    async def close(self) -> None:
        for room in list(self._rooms.values()):
            if room.task is not None:
                room.task.cancel()
        self._rooms.clear()
        if self._discord is not None:
            await self._discord.close()
