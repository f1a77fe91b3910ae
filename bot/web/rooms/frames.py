"""What a room's sockets are sent: the room (who is in it, its race and standings) and
the board a seat shows (a racer's race board, or the player's own saved game), read from
the races service as they stand."""

from __future__ import annotations

import contextlib
from dataclasses import replace

from ...service import GameService, ServiceError
from ...service.races import RACE_SETTINGS
from ...service.races.contract import RaceBoard, RaceView
from ..board import board_json
from ..play import current
from ..wire import BoardFrame, NoGameFrame, Person, Race, RequestId, RoomFrame, RoomRacer
from .seats import OWN_GAME, Room, Seat, user_text


class RoomFrames:
    """The frames of the rooms of one server, and the reads they are drawn from."""

    def __init__(self, service: GameService) -> None:
        self._service = service
        self.names: dict[int, str] = {}  # display names of the players who signed in

    def name(self, user_id: int) -> str:
        return self.names.get(user_id) or f"player …{str(user_id)[-4:]}"

    async def standing(self, room: Room) -> RaceView | None:
        """The room's race while it is open (in its lobby or running), or None."""
        view = await self.standing_any(room)
        return view if view is not None and view.state in ("lobby", "running") else None

    async def standing_any(self, room: Room) -> RaceView | None:
        """The room's race, open or over (its final standings), or None."""
        if room.race_id is None:
            return None
        with contextlib.suppress(ServiceError):
            return await self._service.races.standings(room.race_id)
        return None

    def room_frame(
        self, room: Room, seat: Seat, view: RaceView | None, request_id: RequestId = None
    ) -> RoomFrame:
        """Who is in the room, the race and its standings, whose board the seat shows."""
        players = room.players()
        people = list(dict.fromkeys([*players, *sorted(room.present)]))
        return RoomFrame(
            type="room",
            id=request_id,
            version=None,
            instance=room.instance.instance_id,
            you=user_text(seat.user_id),
            people=[Person(id=user_text(u), name=self.name(u), here=u in players) for u in people],
            race=None if view is None else self.race_json(view),
            watching=None if not seat.watching else user_text(seat.watching),
        )

    def race_json(self, view: RaceView) -> Race:
        return Race(
            id=str(view.race_id),
            deal=str(view.deal_number),
            state=view.state,
            host=user_text(view.host_id),
            starts_at=view.starts_at.isoformat(),
            ends_at=None if view.ends_at is None else view.ends_at.isoformat(),
            card_total=view.card_total,
            racers=[
                RoomRacer(
                    id=user_text(line.user_id),
                    name=line.name or self.name(line.user_id),
                    status=line.status,
                    score=line.score,
                    moves=line.moves,
                    elapsed_s=round(line.elapsed_s, 1),
                    place=line.place,
                    version=line.version,
                )
                for line in view.racers
            ],
        )

    def race_frame(self, board: RaceBoard, seat: Seat, request_id: RequestId = None) -> BoardFrame:
        """A racer's race board; read-only unless it is the seat's own and they race."""
        mine = board.game.user_id == seat.user_id
        view = board.game
        if not (mine and board.playing):
            view = replace(view, moves=(), can_deal=False, can_undo=False, can_redo=False,
                           can_auto=False)  # fmt: skip
        drawn = board_json(view, RACE_SETTINGS)
        drawn["message"] = board.game.message if mine else None
        return BoardFrame(
            type="board",
            id=request_id,
            version=view.version,
            view=f"race:{board.race_id}:{view.user_id}",
            race=str(board.race_id),
            racer=user_text(view.user_id),
            read_only=not (mine and board.playing),
            board=drawn,
        )

    async def shown(
        self, room: Room, seat: Seat, request_id: RequestId = None
    ) -> BoardFrame | NoGameFrame:
        """The board the seat shows: the racer it watches, or its own race game once the
        room's race has started (until the player asks for their game), or its own
        saved game."""
        view = await self.standing_any(room)
        whose = whose_board(view, seat)
        if view is not None and whose is not None:
            with contextlib.suppress(ServiceError):
                board = await self._service.races.board(view.race_id, whose)
                return self.race_frame(board, seat, request_id)
        frame = await current(self._service, seat.user_id, request_id)
        frame["view"] = "game"
        return frame


def whose_board(view: RaceView | None, seat: Seat) -> int | None:
    """The racer whose race board the seat shows, or None (its own saved game)."""
    if seat.watching == OWN_GAME or view is None or view.state == "lobby":
        return None
    whose = seat.user_id if seat.watching is None else seat.watching
    line = view.racer(whose)
    return None if line is None or line.status == "joined" else whose
