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

The package by job: ``rooms`` (the rooms: who sits where, the race each gathers, the
requests routed), ``instances`` (who is in which instance, as Discord says), ``frames``
(the room and the boards its sockets are sent), ``pushes`` (the live frames, and every
background task of the rooms), ``seats`` (what a room is made of).
"""

from .rooms import OTHER_SHARD, Announce, Rooms
from .seats import Seat

__all__ = ["OTHER_SHARD", "Announce", "Rooms", "Seat"]
