"""Who is in which Activity instance, as Discord says (``DiscordApi.instance``): asked
once for everyone waiting on one instance, trusted for ``LOOKUP_FRESH`` seconds, and
asked again when a player's socket enters a room after that."""

from __future__ import annotations

import asyncio
import time
from typing import Final

from ..discord_api import DiscordApi, DiscordError, Instance
from ..sessions import Session

LOOKUP_FRESH: Final = 5.0
"""Seconds an instance's lookup is trusted before Discord is asked again."""
MAX_ENTERED: Final = 10_000  # (instance, player) entries remembered at most
NOT_HERE: Final = "You are not in this Activity: open it from Discord to play here."


class Instances:
    """Discord's instance lookups, kept a few seconds and shared (module docstring)."""

    def __init__(self, discord: DiscordApi | None) -> None:
        self._discord = discord
        self._lookups: dict[str, tuple[float, Instance]] = {}
        self._asking: dict[str, asyncio.Future[Instance]] = {}  # lookups under way
        self._entered: dict[tuple[str, int], float] = {}  # (instance, user): last checked

    async def lookup(self, instance_id: str, fresh: bool = False) -> Instance:
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
        found = await self.lookup(session.instance_id, fresh=True)
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
        found = await self.lookup(session.instance_id)
        if session.user_id not in found.users:
            found = await self.lookup(session.instance_id, fresh=True)
        if session.user_id not in found.users:
            raise DiscordError(NOT_HERE, 403)

    async def close(self) -> None:
        if self._discord is not None:
            await self._discord.close()
