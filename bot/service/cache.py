"""What the service keeps in memory per player: a bounded cache (``LruCache``), and the
locks that put one player's calls in line."""

from __future__ import annotations

import asyncio
import itertools
import weakref
from collections import OrderedDict
from dataclasses import asdict
from typing import Generic, Literal, TypeVar

from ..store import GameStore
from .contract import Settings

V = TypeVar("V")

_HOLDS = itertools.count(1)  # numbers each hold of a player's lock, process-wide


class LruCache(Generic[V]):
    """A least-recently-used cache: at most ``size`` values by player, the least recently
    used dropped first."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("cache_size must be at least 1")
        self._size = size
        self._values: OrderedDict[int, V] = OrderedDict()

    def get(self, user_id: int) -> V | None:
        value = self._values.get(user_id)
        if value is not None:
            self._values.move_to_end(user_id)
        return value

    def put(self, user_id: int, value: V) -> None:
        self._values[user_id] = value
        self._values.move_to_end(user_id)
        while len(self._values) > self._size:
            self._values.popitem(last=False)

    def drop(self, user_id: int) -> None:
        self._values.pop(user_id, None)

    def clear(self) -> None:
        self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


class PlayerLock(asyncio.Lock):
    """A player's lock that numbers its holds: each call that takes it (a command) gets a
    number no other hold has had, so what was read during one call is told apart."""

    hold = 0

    async def acquire(self) -> Literal[True]:
        await super().acquire()
        self.hold = next(_HOLDS)
        return True


class PlayerLocks:
    """One lock per player: calls for one player run one at a time, calls for different
    players side by side. A lock lives while some call holds or awaits it, then goes."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, PlayerLock] = weakref.WeakValueDictionary()

    def __call__(self, user_id: int) -> PlayerLock:
        lock = self._locks.get(user_id)
        if lock is None:
            lock = PlayerLock()
            self._locks[user_id] = lock
        return lock

    def hold(self, user_id: int) -> int | None:
        """The number of the call holding the player's lock now; None if none holds it."""
        lock = self._locks.get(user_id)
        return lock.hold if lock is not None and lock.locked() else None

    def __len__(self) -> int:
        """The locks alive: held or awaited."""
        return len(self._locks)


class Remembered(Generic[V]):
    """What the service remembers of a player (their settings), at most ``size`` players.

    Another process may change it at any time, so a value is good within the call that
    read it, the player's lock held (one read per command, however many times the command
    looks at it); or, on an SQLite file, while no other process has written since it was
    read (``seen``: the count of such writes read before, ``outside.py``); or as a guess
    that the call's write checks (``SettingsCache.guess``)."""

    def __init__(self, size: int, locks: PlayerLocks) -> None:
        self._recent: LruCache[tuple[int | None, int, V]] = LruCache(size)  # (hold, seen, value)
        self._locks = locks

    def get(self, user_id: int) -> V | None:
        """The value, if this call read it (or took it as its guess)."""
        found = self._recent.get(user_id)
        if found is None:
            return None
        hold, _, value = found
        return value if hold is not None and hold == self._locks.hold(user_id) else None

    def kept(self, user_id: int) -> tuple[int, V] | None:
        """The value whatever call read it, with the count it was read at (``seen``)."""
        found = self._recent.get(user_id)
        return None if found is None else (found[1], found[2])

    def put(self, user_id: int, value: V, seen: int) -> None:
        """``value`` read (or written) by this call after the count ``seen`` was read."""
        self._recent.put(user_id, (self._locks.hold(user_id), seen, value))

    def drop(self, user_id: int) -> None:
        self._recent.drop(user_id)

    def clear(self) -> None:
        self._recent.clear()


class SettingsCache(Remembered[Settings]):
    """The players' settings kept in memory (``Remembered``), with the read a command on a
    shared database starts with: its game's stored version, which says whether the game
    in memory may be used, and the player's settings in the same round trip, remembered
    for the rest of the call (research/scale_profile.md)."""

    def __init__(
        self, size: int, locks: PlayerLocks, store: GameStore, new_player: Settings
    ) -> None:
        super().__init__(size, locks)
        self._store = store
        self._new_player = new_player
        self._guessed: dict[int, int] = {}  # player -> the hold of the call guessing
        self._versions: LruCache[tuple[int, int | None]] = LruCache(size)  # (hold, version read)

    def put(self, user_id: int, value: Settings, seen: int) -> None:
        self._guessed.pop(user_id, None)
        super().put(user_id, value, seen)

    def drop(self, user_id: int) -> None:
        self._guessed.pop(user_id, None)
        self._versions.drop(user_id)
        super().drop(user_id)

    def clear(self) -> None:
        self._guessed.clear()
        self._versions.clear()
        super().clear()

    def guess(self, user_id: int) -> Settings | None:
        """The player's settings as last read by any call, taken as this call's without
        a read: another process may have changed them since, so the call's write must
        check them (``unconfirmed``). None if none are remembered."""
        found = self._recent.get(user_id)
        if found is None:
            return None
        _, seen, value = found
        self.put(user_id, value, seen)
        self._guessed[user_id] = self._locks.hold(user_id) or 0
        return value

    def unconfirmed(self, user_id: int) -> Settings | None:
        """This call's settings if they are a guess no write has checked yet."""
        hold = self._guessed.get(user_id)
        if hold is None or hold != self._locks.hold(user_id):
            return None
        return self.get(user_id)

    def confirm(self, user_id: int, seen: int) -> None:
        """A write made after the count ``seen`` was read checked this call's guess: they
        are the stored settings."""
        settings = self.unconfirmed(user_id)
        if settings is not None:
            self.put(user_id, settings, seen)

    async def stored_version(self, user_id: int, seen: int) -> int | None:
        """The stored version of the player's game (None if none), read after the count
        ``seen``; the settings read with it are the call's. The player's lock is held.
        ``StoreError`` as the store's."""
        version, stored = await self._store.game_version_and_settings(user_id)
        settings = self._new_player if stored is None else Settings(**asdict(stored))
        self.put(user_id, settings, seen)
        self._versions.put(user_id, (self._locks.hold(user_id) or 0, version))
        return version

    def version_read(self, user_id: int) -> int | None:
        """The stored version this call has read (``stored_version``); None if it has read
        none, or none was stored. What this call writes checks it again."""
        found = self._versions.get(user_id)
        if found is None or found[0] != self._locks.hold(user_id):
            return None
        return found[1]
